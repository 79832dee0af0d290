// Analysis after the end: a finished chess game (the fool's mate, played
// through the API) replayed on the page; the "Analyse" toggle asks the server
// (POST /api/analyse) for the bot's evaluation of the position shown and draws
// its best move as an arrow: one ply before the end, Black mates in one with
// Qh4. A finished fog-of-war game offers no analysis (the server would say
// 403) and asks for none. Screenshot: analysis.png. After the end, moves tried on
// the board form a side line (POST /api/position gives the legal moves): on a
// square board, with a promotion and a drop, on the cross and the hexagon.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, waitFor, clickMove, fetchState, sq } from './lib.mjs';

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

// A finished game's page, its result panel closed.
async function openFinished(id) {
  const page = await browser.newPage();
  await page.goto(`${server.base}/game.html?id=${id}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#result:not([hidden])');
  await page.locator('#result .close').click();
  return page;
}

test('a finished game analysed: the evaluation and the best move as an arrow', async () => {
  const g = await game('chess', ['f2f3', 'e7e5', 'g2g4', 'd8h4']);
  const page = await openFinished(g.id);
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

// The server never analyses a fog-of-war game (POST /api/analyse and
// /api/position answer 403): the page offers neither "Analyse" nor side
// lines, so it never asks (issue 40: it offered the button, and the 403s
// were console errors).
test('a finished fog-of-war game offers no analysis and never asks for one', async () => {
  const g = await game('fog-of-war', ['e2e4', 'e7e5'], true);
  const asked = [];
  const consoleErrors = [];
  const page = await browser.newPage();
  page.on('request', (r) => { if (/\/api\/(analyse|position)/.test(r.url())) asked.push(r.url()); });
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  await page.goto(`${server.base}/game.html?id=${g.id}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#result:not([hidden])');
  await page.locator('#result .close').click();
  await page.waitForSelector('#replay[data-analysis="off"]');
  assert.equal(await page.locator('#rp-analyse').isHidden(), true, 'no Analyse button');
  // stepping through the replay shows the positions, and asks for nothing
  await page.locator('#rp-prev').click();
  // (the record: e4, e5, White's resignation)
  await waitFor(async () => (await page.locator('#moves td.cur').getAttribute('data-ply')) === '2', { what: 'ply 2 shown' });
  assert.equal(await page.locator('#rp-analyse').isHidden(), true, 'no Analyse button one ply back');
  assert.equal(await page.locator('#board').getAttribute('data-tryable'), '', 'no moves tried on the board');
  await page.locator('#rp-first').click();
  await waitFor(async () => (await page.locator('#moves td.cur').count()) === 0, { what: 'the start shown' });
  await page.locator('#rp-last').click();
  await waitFor(async () => (await page.locator('#moves td.cur').getAttribute('data-ply')) === '3', { what: 'the end shown' });
  // the page has decided not to ask for positions (not merely not asked yet)
  assert.equal(await page.locator('#board').getAttribute('data-position'), 'off', 'the page asks for no position');
  assert.deepEqual(asked, [], 'no analysis or position asked');
  assert.deepEqual(consoleErrors, []);
  await page.context().close();
});

// ---- the analysis board: side lines after the end ---------------------------------
const sideMoves = (page) => page.locator('#moves .side-move').evaluateAll((els) => els.map((e) => e.textContent.trim()));
const curSide = (page) => page.locator('#moves .side-move.cur').getAttribute('data-side-ply');
const tryable = (page) => page.waitForSelector('#board[data-tryable="1"]', { timeout: 10000 });
async function position(variant, fen, move) {
  const r = await fetch(`${server.base}/api/position`, { method: 'POST', body: JSON.stringify({ variant, fen, ...(move ? { move } : {}) }) });
  assert.equal(r.status, 200);
  return r.json();
}

test('side lines: moves tried after the end, stepped through, analysed and discarded', async () => {
  const g = await game('chess', ['f2f3', 'e7e5', 'g2g4', 'd8h4']);
  const page = await openFinished(g.id);
  // the end is mate: nothing to try there, once the server has answered for the position
  await page.waitForSelector('#board[data-position="known"]', { timeout: 10000 });
  assert.equal(await page.locator('#board').getAttribute('data-tryable'), '');
  // two plies back (White to move after 1. f3 e5): the knight goes out instead of g4
  await page.locator('#rp-prev').click();
  await page.locator('#rp-prev').click();
  await tryable(page);
  await clickMove(page, 'b1', 'c3');
  await waitFor(async () => (await sideMoves(page)).length === 1, { what: 'the side line' });
  assert.equal(await page.locator('#moves tr.side-line').getAttribute('data-side-base'), '2');
  // listed under the row of the move it branches from (1. f3 e5)
  assert.equal(await page.locator('#moves tr.side-line').evaluate((r) => r.previousElementSibling.querySelector('[data-ply="2"]') !== null), true);
  assert.equal(await curSide(page), '1');
  await tryable(page);
  await clickMove(page, 'g8', 'f6');
  await waitFor(async () => (await sideMoves(page)).length === 2, { what: 'the second side move' });
  assert.deepEqual((await sideMoves(page)).map((s) => s.replace(/\s+/g, '')), ['b1-c3', 'g8-f6']);
  assert.match(await page.locator('#status').textContent(), /Side line: move 2 of 2/);
  // the board shows the side line's position: the server's pieces after the two moves
  const after = await position('chess', 'rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2', 'b1c3');
  const after2 = await position('chess', after.fen, 'g8f6');
  const shownPieces = await page.locator('#board .pieces .piece').evaluateAll((els) => els.map((e) => `${e.dataset.square}${e.dataset.letter}`).sort());
  assert.deepEqual(shownPieces, after2.pieces.map((p) => `${p.square}${p.letter}`).sort());
  // the keyboard steps along the side line, then back to the position it branches from, then the main line
  await page.locator('#moves').focus();  // (on the board, the arrows move its own cursor)
  await page.keyboard.press('ArrowLeft');
  assert.equal(await curSide(page), '1');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.locator('#moves .side-move.cur').count(), 0);
  assert.equal(await page.locator('#moves td.cur').getAttribute('data-ply'), '2');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('#moves td.cur').getAttribute('data-ply'), '3', 'the main line goes on');
  assert.equal((await sideMoves(page)).length, 2, 'the side line stays listed');
  // the mouse: a click on a side move shows it
  await page.locator('#moves .side-move[data-side-ply="2"]').click();
  assert.equal(await curSide(page), '2');
  // analysed like the main line: the best move drawn for the side line's position
  await page.locator('#rp-analyse').click();
  await waitFor(async () => (await page.locator('#analysis').getAttribute('data-state')) === 'done', { what: 'the side line analysed', timeout: 15000 });
  assert.match(await page.locator('#analysis').textContent(), /White/);
  assert.equal(await page.locator('#board [data-hint]').count(), 1);
  await page.locator('#rp-analyse').click();
  // a move from the middle of the side line replaces what followed it
  await page.keyboard.press('ArrowLeft');
  await tryable(page);
  await clickMove(page, 'b8', 'c6');
  await waitFor(async () => (await sideMoves(page)).join(' ').includes('b8-c6'), { what: 'the side line cut and extended' });
  assert.equal((await sideMoves(page)).length, 2);
  // playing the main line's own next move from the main line only steps along it
  await page.locator('#moves [data-ply="1"]').click();
  await tryable(page);
  await clickMove(page, 'e7', 'e5');
  assert.equal(await page.locator('#moves td.cur').getAttribute('data-ply'), '2');
  assert.equal((await sideMoves(page)).length, 2, 'no new side line');
  await page.locator('main').screenshot({ path: new URL('./output/analysis-side-line.png', import.meta.url).pathname });
  // discarded: gone, and the page shows the position it branched from
  await page.locator('#moves .side-move[data-side-ply="1"]').click();
  await page.locator('#side-discard').click();
  assert.equal(await page.locator('#moves tr.side-line').count(), 0);
  assert.equal(await page.locator('#moves td.cur').getAttribute('data-ply'), '2');
  assert.match(await page.locator('#status').textContent(), /Replay: after 2 of 4/);
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});

// A finished game of `variant` from `fen`: `moves` played (by whoever is to
// move), then every seat but the first resigns.
async function finishedGame(variant, { fen, seats = 2, moves = [] } = {}) {
  const spec = { variant, seats: Array.from({ length: seats }, () => ({ kind: 'human' })), ...(fen ? { fen } : {}) };
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify(spec) });
  const g = await r.json();
  assert.equal(r.status, 201, JSON.stringify(g));
  const tokens = Object.fromEntries(g.seats.map((s) => [s.seat, s.token]));
  for (let m of moves) {
    const st = await fetchState(server.base, g.id);
    m ??= Object.values(st.legal).flat()[0];  // null: the first legal move
    const res = await fetch(`${server.base}/api/game/${g.id}/move/${m}`, { method: 'POST', headers: { Authorization: `Bearer ${tokens[st.toMove]}` } });
    assert.equal(res.status, 200, m);
  }
  for (const s of g.seats.slice(1)) {
    const st = await fetchState(server.base, g.id);
    if (st.status !== 'ongoing') break;
    await fetch(`${server.base}/api/game/${g.id}/resign`, { method: 'POST', headers: { Authorization: `Bearer ${tokens[s.seat]}` } });
  }
  const st = await fetchState(server.base, g.id);
  assert.equal(st.status, 'finished');
  return st;
}

test('side lines on every kind of board: a promotion and a drop (shogi), the four-player cross, the six-sided board', async () => {
  // shogi, resigned at once: the first seat may take the bishop promoting; the second holds a gold to drop
  const fen = 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[Gg] w - - 0 1';
  let st = await finishedGame('shogi', { fen });
  let page = await openFinished(st.id);
  await tryable(page);
  await clickMove(page, 'b2', 'h8');
  await page.locator('#board .promo-choice[data-promo="+"]').click();
  await waitFor(async () => (await sideMoves(page)).length === 1, { what: 'the promotion tried' });
  const promoted = await position('shogi', st.fen, 'b2h8+');
  const drop = Object.values(promoted.legal).flat().find((m) => m.startsWith('G@'));
  assert.ok(drop, 'the gold may be dropped');
  await tryable(page);
  await page.locator('#hand-top [data-hand-letter="G"]').click();
  await sq(page, drop.slice(2)).click();
  await waitFor(async () => (await sideMoves(page)).length === 2, { what: 'the drop tried' });
  assert.ok((await page.locator('#moves .side-move[data-side-ply="1"]').getAttribute('title')).endsWith(': b2h8+'));
  assert.ok((await page.locator('#moves .side-move[data-side-ply="2"]').getAttribute('title')).endsWith(`: ${drop}`));
  // the board: the promoted bishop on h8, the gold dropped
  assert.equal(await page.locator('#board .pieces .piece[data-square="h8"]').getAttribute('data-seat'), st.seats[0].seat);
  const dropped = await page.locator(`#board .pieces .piece[data-square="${drop.slice(2)}"]`).getAttribute('data-letter');
  assert.equal(dropped, 'G');
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();

  // the cross of four players and the six-sided board of three: from the start, a move other than the game's
  for (const [variant, seats] of [['four-player-chess', 4], ['three-player-chess', 3]]) {
    st = await finishedGame(variant, { seats, moves: [null] });
    page = await openFinished(st.id);
    await page.keyboard.press('Home');
    await waitFor(async () => (await page.locator('#rp-label').textContent()).startsWith('ply 0'), { what: `${variant}: the start shown` });
    await tryable(page);
    const start = await position(variant, st.startFen);
    const pick = Object.values(start.legal).flat().map((m) => m.match(/^([a-z]+\d+)([a-z]+\d+)$/)).find((m) => m && m[0] !== st.moves[0].uci);
    assert.ok(pick, `${variant}: a plain move`);
    await clickMove(page, pick[1], pick[2]);
    await waitFor(async () => (await sideMoves(page)).length === 1, { what: `${variant}: the move tried` });
    assert.equal(await page.locator('#moves tr.side-line').getAttribute('data-side-base'), '0');
    const next = await position(variant, st.startFen, pick[0]);
    assert.equal(await page.locator(`#board .pieces .piece[data-square="${pick[2]}"]`).count(), 1, `${variant}: the piece moved`);
    assert.equal(await page.locator(`#board .pieces .piece[data-square="${pick[1]}"]`).count(), 0);
    assert.equal(await page.locator(`#board .pieces .piece[data-square="${pick[2]}"]`).getAttribute('data-seat'), next.pieces.find((p) => p.square === pick[2]).seat);
    await page.locator('main').screenshot({ path: new URL(`./output/analysis-side-${variant}.png`, import.meta.url).pathname });
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
    await page.context().close();
  }
});
