// Analysis after the end: a finished chess game (the fool's mate, played
// through the API) replayed on the page; the "Analyse" toggle asks the server
// (POST /api/analyse) for the bot's evaluation of the position shown and draws
// its best move as an arrow: one ply before the end, Black mates in one with
// Qh4. A finished fog-of-war game is not analysed (the server says 403) and
// the page says so. Screenshot: analysis.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, waitFor } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

async function game(variant, moves, resign = false) {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify({ variant, seats: [{ kind: 'human' }, { kind: 'human' }] }) });
  const g = await r.json();
  const tok = [g.seats[0].token, g.seats[1].token];
  for (const [i, m] of moves.entries()) {
    const res = await fetch(`${server.base}/api/game/${g.id}/move/${m}`, { method: 'POST', headers: { Authorization: `Bearer ${tok[i % 2]}` } });
    assert.equal(res.status, 200, m);
  }
  if (resign) await fetch(`${server.base}/api/game/${g.id}/resign`, { method: 'POST', headers: { Authorization: `Bearer ${tok[0]}` } });
  return g;
}

test('a finished game analysed: the evaluation and the best move as an arrow', async () => {
  const g = await game('chess', ['f2f3', 'e7e5', 'g2g4', 'd8h4']);
  const page = await browser.newPage();
  await page.goto(`${server.base}/game.html?id=${g.id}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#result:not([hidden])');
  await page.locator('#result .close').click();
  assert.equal(await page.locator('#rp-analyse').isVisible(), true);
  await page.locator('#rp-analyse').click();
  assert.equal(await page.locator('#rp-analyse').getAttribute('aria-pressed'), 'true');
  // the final position: mate, no move
  await waitFor(async () => (await page.locator('#analysis').getAttribute('data-state')) === 'done', { what: 'the analysis of the end' });
  assert.match(await page.locator('#analysis').textContent(), /No move/);
  // one ply back: Black to move mates in one
  await page.locator('#rp-prev').click();
  await waitFor(async () => (await page.locator('#board [data-hint]').count()) === 1, { what: 'the best move drawn', timeout: 15000 });
  assert.equal(await page.locator('#board [data-hint]').getAttribute('data-hint'), 'd8h4');
  assert.match(await page.locator('#analysis').textContent(), /Black mates in 1 · best d8-h4/);
  await page.locator('main').screenshot({ path: new URL('./output/analysis.png', import.meta.url).pathname });
  // switched off: no arrow
  await page.locator('#rp-analyse').click();
  assert.equal(await page.locator('#board [data-hint]').count(), 0);
  assert.equal(await page.locator('#analysis').isHidden(), true);
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});

test('a finished fog-of-war game is not analysed, and the page says so', async () => {
  const g = await game('fog-of-war', ['e2e4', 'e7e5'], true);
  const page = await browser.newPage();
  await page.goto(`${server.base}/game.html?id=${g.id}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#result:not([hidden])');
  await page.locator('#result .close').click();
  await page.locator('#rp-prev').click();
  await page.locator('#rp-analyse').click();
  await waitFor(async () => (await page.locator('#analysis').getAttribute('data-state')) === 'error', { what: 'the refusal' });
  assert.match(await page.locator('#analysis').textContent(), /cannot be analysed/);
  assert.equal(await page.locator('#board [data-hint]').count(), 0);
  await page.context().close();
});
