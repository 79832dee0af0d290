// Friendly chess (Paco Sako) in the browser, hot seat: a union (a white and
// a black piece on one square) drawn as two pieces sharing the square, and a
// chain turn entered step by step (the queen enters the union, then the freed
// pawn's step is asked for and clicked), written in the move list as
// pacosako.com does. Screenshots: friendly-union.png, friendly-chain.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, fetchState, waitFor, clickMove, sq, shot } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('friendly chess: a union drawn as two pieces, a chain played step by step', async () => {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify({ variant: 'friendly-chess', hotSeat: true, seats: [{ kind: 'human' }, { kind: 'human' }] }) });
  const g = await r.json();
  assert.equal(r.status, 201, JSON.stringify(g));
  const token = g.seats[0].token;
  const page = await browser.newPage();
  await page.goto(`${server.base}/game.html?id=${g.id}&token=${token}`);
  await page.waitForSelector('body[data-ready="1"]');
  const played = async (n) => waitFor(async () => {
    const st = await fetchState(server.base, g.id, token);
    const v = Number(await page.locator('#board').getAttribute('data-v'));
    return st.moves.length >= n && v >= st.v ? st : null;
  }, { what: `${n} moves shown` });
  await clickMove(page, 'e2', 'e4'); await played(1);
  await clickMove(page, 'd7', 'd5'); await played(2);
  await clickMove(page, 'e4', 'd5');     // the white pawn joins the black one: a union
  let st = await played(3);
  assert.match(st.fen.split(' ')[0], /3a4/, 'the FEN writes the union of two pawns');
  const union = page.locator('#board g.piece[data-square="d5"]');
  assert.equal(await union.getAttribute('data-union'), 'pawn+pawn');
  assert.deepEqual(await union.locator('[data-union-seat]').evaluateAll((els) => els.map((e) => e.dataset.unionSeat).sort()), ['black', 'white']);
  await shot(page, 'friendly-union');

  // Black's queen enters the union: the freed black pawn must go on; its step is offered.
  await sq(page, 'd8').click();
  await page.locator('#board [data-dest="d5"]').waitFor({ state: 'attached' });
  await sq(page, 'd5').click();
  await page.locator('#board [data-step="d4"]').waitFor({ state: 'attached', timeout: 5000 });
  assert.equal(await page.locator('#board [data-hl="chain-from"]').count(), 1, 'the union square the chain goes on from');
  assert.match(await page.locator('#status').textContent(), /freed piece/);
  assert.equal((await fetchState(server.base, g.id, token)).moves.length, 3, 'nothing sent before the chain ends');
  await sq(page, 'd4').click();
  st = await played(4);
  assert.equal(st.moves[3].uci, 'd8d5,d5d4');
  // the queen and the white pawn are now the union on d5
  await waitFor(async () => (await page.locator('#board g.piece[data-square="d5"]').getAttribute('data-union')) === 'pawn+queen', { what: 'the new union drawn' });
  const label = (await page.locator('#moves td[data-ply="4"]').textContent()).trim();
  assert.ok(label === 'Qd5>d4' || label === 'd8-d5>d4', `the chain in the move list: ${label}`);
  await page.locator('#settings summary').click();
  await page.locator('#pref-notation').selectOption('coord');
  assert.equal((await page.locator('#moves td[data-ply="4"]').textContent()).trim(), 'd8-d5>d4');
  await shot(page, 'friendly-chain');
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});
