// Four-player chess in the browser: a game against three bots started from
// the lobby's card (Red at the bottom, the cross board with its corners drawn
// as nothing, the four armies in their colours, every seat's points, every
// seat's last move in its colour), Blue's view of a teams game (turned a
// quarter, the teams shown), the promotion to the 1-point queen on the middle
// rank, a resigned army drawn grey, and the colour-blind shapes of the four
// armies. Screenshots: fourp-ffa.png, fourp-teams.png, fourp-dead.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, fetchState, waitFor, clickMove, boardState, shot, sq } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const bots = (human) => ['red', 'blue', 'yellow', 'green'].map((s, i) => (i === human ? { kind: 'human' } : { kind: 'bot', level: 1 }));
async function create(body) {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify(body) });
  const g = await r.json();
  assert.equal(r.status, 201, JSON.stringify(g));
  return g;
}
async function open(g, seatIndex, opts) {
  const page = await browser.newPage(opts);
  await page.goto(`${server.base}/game.html?id=${g.id}&token=${g.seats[seatIndex].token}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#board .piece');
  return page;
}

test('free-for-all against three bots from the lobby: cross board, colours, points, seat moves', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.base}/?variant=four-player-chess`);
  await page.waitForSelector('[data-quick="four-player-chess"]');
  await Promise.all([page.waitForURL(/game/), page.locator('[data-quick="four-player-chess"]').click()]);
  await page.waitForSelector('body[data-ready="1"]');
  const id = new URL(page.url()).searchParams.get('id');
  let st = await fetchState(server.base, id);
  assert.deepEqual(st.seats.map((s) => s.kind), ['human', 'bot', 'bot', 'bot']);
  assert.equal(await page.locator('#board svg').getAttribute('data-rotation'), '0', 'Red sees its army at the bottom');
  // the 36 corner squares are drawn as nothing (no hatch), the frame follows the cross
  assert.equal(await page.locator('#board [data-hole]').count(), 36);
  assert.equal(await page.locator('#board rect.sq.blocked').count(), 0);
  // the four armies in their colours
  const fills = await page.evaluate(() => Object.fromEntries(['red', 'blue', 'yellow', 'green'].map((s) => {
    const g = document.querySelector(`#board g.piece[data-seat="${s}"]`);
    return [s, getComputedStyle(g).getPropertyValue('--pf').trim()];
  })));
  assert.equal(new Set(Object.values(fills)).size, 4, JSON.stringify(fills));
  // points next to every seat (0 at the start)
  for (const s of ['red', 'blue', 'yellow', 'green']) {
    assert.equal(await page.locator(`[data-mini-points="${s}"]`).textContent(), '0');
    assert.equal(await page.locator(`[data-points="${s}"]`).count(), 1);
  }
  await waitFor(async () => (await boardState(page)).toMove === 'red', { what: 'red to move' });
  await clickMove(page, 'h2', 'h4');
  st = await waitFor(async () => { const x = await fetchState(server.base, id); return x.moves.length >= 4 ? x : null; }, { what: 'the three bots answer' });
  await waitFor(async () => Number(await page.locator('#board').getAttribute('data-v')) >= st.v, { what: 'the page shows the bots' });
  // every seat's last move in its colour
  const marked = await page.evaluate(() => [...new Set([...document.querySelectorAll('#board [data-hl-seat]')].map((e) => e.dataset.hlSeat))].sort());
  assert.deepEqual(marked, ['blue', 'green', 'red', 'yellow']);
  // colour-blind: a different shape on each army
  await page.locator('#settings summary').click();
  await page.locator('#pref-colourBlind').check();
  const shapes = await page.evaluate(() => ['red', 'blue', 'yellow', 'green'].map((s) => {
    const m = document.querySelector(`#board g.piece[data-seat="${s}"] .cb-mark`);
    return m && getComputedStyle(m).display !== 'none' ? m.tagName + (m.getAttribute('d') || '') : null;
  }));
  assert.ok(shapes.every(Boolean), 'every army carries a mark');
  assert.equal(new Set(shapes).size, 4, 'four different marks');
  await page.locator('#pref-colourBlind').uncheck();
  await shot(page, 'fourp-ffa');
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});

test('teams: Blue sees its army at the bottom and the teams are named', async () => {
  const g = await create({ variant: 'four-player-chess', options: { mode: 'teams' }, seats: bots(1) });
  const page = await open(g, 1);
  assert.equal(await page.locator('#board svg').getAttribute('data-rotation'), '3', 'Blue (king on a7) turned a quarter');
  // Blue's king is in the bottom row of the view
  const king = await page.locator('#board g.piece[data-seat="blue"][data-name="king"]').boundingBox();
  const boardBox = await page.locator('#board svg').boundingBox();
  assert.ok(king.y > boardBox.y + boardBox.height * 0.8, 'the blue king at the bottom');
  assert.equal((await page.locator('[data-teams]').textContent()).replace(/\s+/g, ' ').trim(), 'Red and Yellow against Blue and Green');
  assert.equal(await page.locator('[data-mini-points]').count(), 0, 'no points in teams');
  await shot(page, 'fourp-teams');
  await page.context().close();
});

test('free-for-all: a pawn on the middle rank becomes the 1-point queen; a resigned army stays grey', async () => {
  const fen = 'R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,5,rP,4,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,1,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3';
  const g = await create({ variant: 'four-player-chess', fen, seats: bots(0) });
  const token = g.seats[0].token;
  const page = await open(g, 0);
  await clickMove(page, 'h7', 'h8');
  const st = await waitFor(async () => { const x = await fetchState(server.base, g.id, token); return x.moves.length >= 1 ? x : null; }, { what: 'the promotion' });
  assert.equal(st.moves[0].uci, 'h7h8d', 'the only promotion, played at once');
  await waitFor(async () => (await page.locator('#board g.piece[data-square="h8"][data-name="dame"] [data-glyph="dame"]').count()) === 1, { what: 'the 1-point queen drawn' });
  // Red resigns: its army stays on the board, grey, and the bots play on
  const r = await fetch(`${server.base}/api/game/${g.id}/resign`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  assert.equal(r.status, 200);
  await waitFor(async () => (await page.locator('#board g.piece.dead[data-seat="red"]').count()) > 10, { what: 'red drawn dead' });
  const grey = await page.evaluate(() => getComputedStyle(document.querySelector('#board g.piece.dead')).getPropertyValue('--pf').trim());
  assert.equal(grey, '#a3a09b');
  assert.equal(await page.locator('#board g.piece.dead[data-seat="blue"]').count(), 0, 'the others stay in colour');
  await shot(page, 'fourp-dead');
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});

// Issue 40: a click made while the bots' moves are being shown one after
// another (paced 2 s here) was dropped unsaid. A piece picked then (as a
// premove) stays picked when the turn comes, so the next click plays it;
// with premoves off, a click then is answered by a notice.
test('a click while the bots\' moves are shown: the piece stays picked for the turn; without premoves the page says why', async () => {
  // A fixed seed: the level-1 bots' noise, and so their moves, are the same
  // every run (some random answers check Red's king, and g2-g4 is no move then).
  const g = await create({ variant: 'four-player-chess', seats: bots(0), seed: 2 });
  const page = await browser.newPage();
  await page.addInitScript(() => localStorage.setItem('acedrex.pref.botPaceMs', '2000'));
  await page.goto(`${server.base}/game.html?id=${g.id}&token=${g.seats[0].token}`);
  await page.waitForSelector('body[data-ready="1"]');
  await waitFor(async () => (await boardState(page)).toMove === 'red', { what: 'red to move' });
  // the server has the three bots' answers long before the page has shown them
  const botsAnswered = async (n) => {
    const st = await waitFor(async () => { const x = await fetchState(server.base, g.id); return x.moves.length >= n && x.toMove === 'red' ? x : null; }, { what: 'the bots answer' });
    assert.notEqual((await boardState(page)).toMove, 'red', 'the page still shows the bots\' moves');
    return st;
  };
  await clickMove(page, 'h2', 'h3');
  await botsAnswered(4);
  await sq(page, 'g2').click();
  assert.equal(await page.locator('#board [data-hl="premove-sel"]').count(), 1, 'picked while the bots are shown');
  await waitFor(async () => (await boardState(page)).toMove === 'red', { what: 'the turn shown' });
  await page.locator('#board [data-dest="g4"]').waitFor({ state: 'attached', timeout: 30000 });
  await sq(page, 'g4').click();
  await waitFor(async () => { const x = await fetchState(server.base, g.id); return x.moves.length >= 5 && x.moves[4].uci === 'g2g4'; }, { what: 'the move sent' });
  // premoves off: a click while the moves are shown is answered, not dropped unsaid
  await page.locator('#settings summary').click();
  await page.locator('#pref-premoves').uncheck();
  await botsAnswered(8);
  assert.equal(await page.locator('#banner').isHidden(), true);
  await sq(page, 'f2').click();
  await waitFor(async () => /moves before it have been shown/.test(await page.locator('#banner').textContent()) && !(await page.locator('#banner').isHidden()), { what: 'the notice' });
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});
