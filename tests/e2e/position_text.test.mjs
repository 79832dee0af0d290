// The position shown as text: the game page's "Copy position" button copies
// the state's `fen` (and, replayed, the fen of the ply shown) to the
// clipboard, fills and selects the read-only field beside it and says so.
// Four-player chess copies its four-player line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, waitFor, fetchState } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

async function game(variant, seats, moves) {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify({ variant, seats }) });
  const g = await r.json();
  const tok = g.seats.map((s) => s.token);
  for (const [i, m] of moves.entries()) {
    const res = await fetch(`${server.base}/api/game/${g.id}/move/${m}`, { method: 'POST', headers: { Authorization: `Bearer ${tok[i % tok.length]}` } });
    assert.equal(res.status, 200, m);
  }
  return g;
}

async function open(url, lang) {
  const page = await browser.newPage(lang ? { locale: lang } : {});
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]');
  return page;
}

const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());

test('the position text is copied live and replayed, from the mouse and the keyboard', async () => {
  const g = await game('chess', [{ kind: 'human' }, { kind: 'human' }], ['e2e4', 'e7e5', 'g1f3']);
  const live = await fetchState(server.base, g.id);
  const page = await open(`${server.base}/game.html?id=${g.id}`);
  await waitFor(async () => (await page.locator('#fen-text').inputValue()) === live.fen, { what: 'the live fen in the field' });
  assert.equal(await page.locator('#fen-copied').textContent(), '');
  await page.locator('#copy-fen').click();
  await waitFor(async () => (await page.locator('#fen-copied').getAttribute('data-copied')) === 'yes', { what: 'the confirmation' });
  assert.equal(await page.locator('#fen-copied').textContent(), 'Copied to the clipboard.');
  assert.equal(await clipboard(page), live.fen);
  // the field's whole text is selected
  assert.deepEqual(await page.evaluate(() => { const i = document.getElementById('fen-text'); return [document.activeElement === i, i.selectionStart, i.selectionEnd]; }),
    [true, 0, live.fen.length]);

  // replayed: one ply back the text of that position, and the confirmation goes
  const frames = (await (await fetch(`${server.base}/api/game/${g.id}/replay`)).json()).frames;
  assert.notEqual(frames[2].fen, live.fen);
  await page.locator('#moves').focus();
  await page.keyboard.press('ArrowLeft');
  await waitFor(async () => (await page.locator('#fen-text').inputValue()) === frames[2].fen, { what: 'the replayed fen in the field' });
  assert.equal(await page.locator('#fen-copied').textContent(), '');
  // the button from the keyboard
  await page.locator('#copy-fen').focus();
  await page.keyboard.press('Enter');
  await waitFor(async () => (await page.locator('#fen-copied').getAttribute('data-copied')) === 'yes', { what: 'the confirmation after Enter' });
  assert.equal(await clipboard(page), frames[2].fen);
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});

test('four-player chess copies its four-player line; the button is labelled in each language', async () => {
  const g = await game('four-player-chess', [{ kind: 'human' }, { kind: 'human' }, { kind: 'human' }, { kind: 'human' }], []);
  const live = await fetchState(server.base, g.id);
  assert.ok(live.fen.includes('-'), live.fen);
  const labels = { en: 'Copy position', de: 'Stellung kopieren', es: 'Copiar posición', fr: 'Copier la position' };
  for (const [lang, label] of Object.entries(labels)) {
    const page = await open(`${server.base}/game.html?id=${g.id}`, lang);
    await waitFor(async () => (await page.locator('#copy-fen').textContent()) === label, { what: `the ${lang} label` });
    await page.locator('#copy-fen').click();
    await waitFor(async () => (await page.locator('#fen-copied').getAttribute('data-copied')) === 'yes', { what: 'the confirmation' });
    assert.equal(await clipboard(page), live.fen);
    assert.equal(await page.locator('#fen-text').inputValue(), live.fen);
    await page.context().close();
  }
});
