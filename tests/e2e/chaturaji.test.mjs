// Chaturaji in the browser: a game against three bots started from the
// lobby's card (8x8, four armies in their colours, every seat's points, a
// move by clicking, the bots answering, every seat's last move in its
// colour), and the dice version (the die shown, a thrown face). Screenshots:
// chaturaji.png, chaturaji-dice.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, fetchState, waitFor, clickMove, boardState, shot } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('against three bots from the lobby: four armies, points, a move and the answers', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.base}/?variant=chaturaji`);
  await page.waitForSelector('[data-quick="chaturaji"]');
  await Promise.all([page.waitForURL(/game/), page.locator('[data-quick="chaturaji"]').click()]);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#board .piece');
  const id = new URL(page.url()).searchParams.get('id');
  let st = await fetchState(server.base, id);
  assert.deepEqual(st.seats.map((s) => s.kind), ['human', 'bot', 'bot', 'bot']);
  // 64 squares, no holes; 8 pieces for each army
  assert.equal(await page.locator('#board [data-hole]').count(), 0);
  for (const s of ['red', 'blue', 'yellow', 'green'])
    assert.equal(await page.locator(`#board g.piece[data-seat="${s}"]`).count(), 8, s);
  const fills = await page.evaluate(() => ['red', 'blue', 'yellow', 'green'].map((s) =>
    getComputedStyle(document.querySelector(`#board g.piece[data-seat="${s}"]`)).getPropertyValue('--pf').trim()));
  assert.equal(new Set(fills).size, 4, JSON.stringify(fills));
  for (const s of ['red', 'blue', 'yellow', 'green'])
    assert.equal(await page.locator(`[data-mini-points="${s}"]`).textContent(), '0');
  await waitFor(async () => (await boardState(page)).toMove === 'red', { what: 'red to move' });
  await clickMove(page, 'd2', 'd3');
  st = await waitFor(async () => { const x = await fetchState(server.base, id); return x.moves.length >= 4 ? x : null; }, { what: 'the three bots answer' });
  assert.equal(st.moves[0].uci, 'd2d3');
  await waitFor(async () => Number(await page.locator('#board').getAttribute('data-v')) >= st.v, { what: 'the page shows the bots' });
  const marked = await page.evaluate(() => [...new Set([...document.querySelectorAll('#board [data-hl-seat]')].map((e) => e.dataset.hlSeat))].sort());
  assert.deepEqual(marked, ['blue', 'green', 'red', 'yellow']);
  await shot(page, 'chaturaji');
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});

test('with dice: the die is shown and the bots play through their throws', async () => {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify({
    variant: 'chaturaji', options: { dice: 'on' },
    seats: [{ kind: 'bot', level: 1 }, { kind: 'bot', level: 1 }, { kind: 'bot', level: 1 }, { kind: 'bot', level: 1 }] }) });
  const g = await r.json();
  assert.equal(r.status, 201, JSON.stringify(g));
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.base}/game.html?id=${g.id}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#board .piece');
  const st = await waitFor(async () => { const x = await fetchState(server.base, g.id); return x.moves.length >= 8 ? x : null; }, { what: 'eight plies' });
  // every ply was played to a throw of 2 to 5
  assert.ok(st.moves.slice(0, 8).every((m) => m.die >= 2 && m.die <= 5), JSON.stringify(st.moves.slice(0, 8)));
  // the page shows the thrown face while the game goes on, the last throw after it
  await waitFor(async () => (await page.locator('#die [data-die]').count()) > 0 ||
    ((await fetchState(server.base, g.id)).status === 'finished' && (await page.locator('#die').textContent()).length > 0), { what: 'the die on the page' });
  await shot(page, 'chaturaji-dice');
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});
