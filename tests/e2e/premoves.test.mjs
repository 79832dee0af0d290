// Premoves as on lichess: White's page queues a move while Black (played
// through the API) thinks; it is played at once when White's turn comes. A
// premove illegal by then is dropped silently; a right click or a click
// elsewhere cancels one; the setting switches them off. Screenshot:
// premove.png. A premove may also be queued by dragging the piece.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, fetchState, waitFor, clickMove, dragMove, sq, shot } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('premoves: queued, played when the turn comes, dropped when illegal, cancelled, switched off', async () => {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify({ variant: 'chess', seats: [{ kind: 'human' }, { kind: 'human' }] }) });
  const g = await r.json();
  const [white, black] = [g.seats[0].token, g.seats[1].token];
  const page = await browser.newPage();
  await page.goto(`${server.base}/game.html?id=${g.id}&token=${white}`);
  await page.waitForSelector('body[data-ready="1"]');
  const blackMoves = async (m) => {
    const res = await fetch(`${server.base}/api/game/${g.id}/move/${m}`, { method: 'POST', headers: { Authorization: `Bearer ${black}` } });
    assert.equal(res.status, 200, `black ${m}`);
  };
  const moves = async () => (await fetchState(server.base, g.id)).moves.map((m) => m.uci);
  const shown = async (n) => waitFor(async () => {
    const st = await fetchState(server.base, g.id);
    return st.moves.length >= n && Number(await page.locator('#board').getAttribute('data-v')) >= st.v ? st : null;
  }, { what: `${n} moves shown` });
  // The moves this page sent (#board data-sent). The page decides on a premove
  // while it draws the state that gives it the turn, and counts a move before
  // sending it, so once that state is shown (data-v) the count is final.
  const sent = async () => Number(await page.locator('#board').getAttribute('data-sent'));

  await clickMove(page, 'e2', 'e4');
  await shown(1);
  // Black to move: White queues g1-f3
  await sq(page, 'g1').click();
  assert.equal(await page.locator('#board [data-hl="premove-sel"]').count(), 1);
  await sq(page, 'f3').click();
  assert.deepEqual(await page.locator('#board [data-hl="premove"]').evaluateAll((els) => els.map((e) => e.dataset.premove).sort()), ['f3', 'g1']);
  await shot(page, 'premove');
  assert.deepEqual(await moves(), ['e2e4'], 'nothing sent while Black thinks');
  await blackMoves('e7e5');
  await waitFor(async () => (await moves()).length === 3, { what: 'the premove played' });
  assert.deepEqual(await moves(), ['e2e4', 'e7e5', 'g1f3']);
  await shown(3);
  assert.equal(await page.locator('#board [data-hl="premove"]').count(), 0);

  // A premove illegal when the turn comes (the pawn on e4 is blocked) is dropped silently.
  await sq(page, 'e4').click();
  await sq(page, 'e5').click();
  assert.equal(await page.locator('#board [data-hl="premove"]').count(), 2);
  let before = await sent();
  await blackMoves('b8c6');
  await shown(4);
  await waitFor(async () => (await page.locator('#board [data-hl="premove"]').count()) === 0, { what: 'the premove dropped' });
  assert.equal(await sent(), before, 'nothing sent');
  assert.equal((await moves()).length, 4, 'nothing played');
  assert.equal(await page.locator('#banner').isHidden(), true, 'silently');

  // White's turn: a normal move; then premoves cancelled by a right click and by a click elsewhere.
  await clickMove(page, 'f1', 'c4');
  await shown(5);
  await sq(page, 'd2').click();
  await sq(page, 'd3').click();
  assert.equal(await page.locator('#board [data-hl="premove"]').count(), 2);
  await sq(page, 'h5').click({ button: 'right' });
  assert.equal(await page.locator('#board [data-hl^="premove"]').count(), 0, 'a right click cancels');
  await sq(page, 'd2').click();
  await sq(page, 'd3').click();
  await sq(page, 'a5').click();      // a click elsewhere
  assert.equal(await page.locator('#board [data-hl^="premove"]').count(), 0, 'a click elsewhere cancels');
  before = await sent();
  await blackMoves('g8f6');
  await shown(6);
  assert.equal(await sent(), before, 'a cancelled premove is not sent');
  assert.equal((await moves()).length, 6, 'a cancelled premove is not played');

  // By dragging: White drags the bishop c1 to g5 while Black thinks; it is played when the turn comes.
  await clickMove(page, 'd2', 'd3');
  await shown(7);
  await dragMove(page, 'c1', 'g5');
  assert.deepEqual(await page.locator('#board [data-hl="premove"]').evaluateAll((els) => els.map((e) => e.dataset.premove).sort()), ['c1', 'g5']);
  assert.equal(await page.locator('#board [data-hl="premove-sel"]').count(), 0, 'the drag queued it: nothing left picked');
  assert.equal((await moves()).length, 7, 'nothing sent while Black thinks');
  await blackMoves('a7a6');
  await waitFor(async () => (await moves()).length === 9, { what: 'the dragged premove played' });
  assert.deepEqual((await moves()).slice(7), ['a7a6', 'c1g5']);
  await shown(9);

  // switched off: a click on a piece while Black thinks does nothing
  await page.locator('#settings summary').click();
  await page.locator('#pref-premoves').uncheck();
  await sq(page, 'e1').click();
  assert.equal(await page.locator('#board [data-hl^="premove"]').count(), 0);
  await dragMove(page, 'e1', 'd2');
  assert.equal(await page.locator('#board [data-hl^="premove"]').count(), 0);
  await page.locator('#pref-premoves').check();
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});
