// Boards for every geometry: each catalogue game against a bot to its first
// moves (xiangqi and janggi on points, shogi with a promotion and a drop,
// minishogi, crazyhouse with a drop from the pocket, chess960 castling by
// moving the king onto its rook or two squares, an atomic blast), the piece
// sets and their memory, the fit of the board at 1280x800 and on a phone, and
// the board component's duck turns and sittuyin set-up drops. Screenshots of
// every game at its start go to output/ (boards-<variant>.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, fetchState, waitFor, sq } from './lib.mjs';
import path from 'node:path';
import { outDir } from './lib.mjs';

let server, browser;
// about thirty games in a minute: more than the default allowance of one address
before(async () => { server = await startServer({ args: ['--max-games-per-minute', '200'] }); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

async function create(variant, fen, seed = 1, nSeats = 2) {
  const spec = { variant, seed, seats: [{ kind: 'human' }, ...Array.from({ length: nSeats - 1 }, () => ({ kind: 'bot', level: 1 }))] };
  if (fen) spec.fen = fen;
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify(spec) });
  const g = await r.json();
  assert.equal(r.status, 201, JSON.stringify(g));
  return { id: g.id, token: g.seats[0].token, seat: g.seats[0].seat };
}

async function open(variant, fen, viewport = { width: 1280, height: 800 }, nSeats = 2) {
  const g = await create(variant, fen, 1, nSeats);
  const page = await browser.newPage({ viewport });
  await page.goto(`${server.base}/game.html?id=${g.id}&token=${g.token}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#board .piece');
  return { page, g };
}

async function startShot(page, variant) {
  await page.screenshot({ path: path.join(outDir, `boards-${variant}.png`) });
}

// Waits until the bot has answered: the human to move again after `plies` plies.
async function botAnswered(page, g, plies) {
  const s = await waitFor(async () => {
    const st = await fetchState(server.base, g.id, g.token);
    return st.moves.length >= plies && (st.toMove === g.seat || st.status !== 'ongoing') ? st : null;
  }, { timeout: 60000, what: 'the bot to answer' });
  await page.waitForFunction((v) => Number(document.getElementById('board').dataset.v) >= v, s.v);
  return s;
}

async function click(page, from, to) {
  await sq(page, from).click();
  await page.locator(`#board [data-dest="${to}"]`).waitFor({ state: 'attached', timeout: 5000 });
  await sq(page, to).click();
}

// The whole board (and its coordinates) lies inside the window.
async function assertFits(page, what) {
  const vp = page.viewportSize();
  const box = await page.locator('#board svg').boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= vp.height + 1, `${what}: the board ${JSON.stringify(box)} fits ${vp.height} px in height`);
  assert.ok(box.x >= 0 && box.x + box.width <= vp.width + 1, `${what}: the board fits ${vp.width} px in width`);
  for (const hand of await page.locator('.hands:not([hidden]) .hand').all()) {
    const hb = await hand.boundingBox();
    assert.ok(hb.y + hb.height <= vp.height + 1 && hb.x + hb.width <= vp.width + 1, `${what}: a hand is inside the window`);
  }
  const first = await page.locator('#board .coord').first().boundingBox();
  assert.ok(first && first.y + first.height <= vp.height + 1, `${what}: the coordinates show`);
}

test('xiangqi on points with river and palaces; traditional and international pieces, remembered', async () => {
  const { page, g } = await open('xiangqi');
  await startShot(page, 'xiangqi');
  assert.equal(await page.locator('#board svg.points').count(), 1, 'pieces on the points');
  assert.equal(await page.locator('#board [data-river]').count(), 1, 'the river is drawn');
  assert.equal(await page.locator('#board .line.palace').count(), 4, 'two palaces with their diagonals');
  assert.equal(await page.locator('#board .piece [data-set="traditional"]').count(), 32);
  assert.match(await page.locator('#board .piece[data-square="e1"] text').textContent(), /帥/);
  await assertFits(page, 'xiangqi 1280x800');
  await click(page, 'h3', 'e3');        // the cannon to the centre
  await botAnswered(page, g, 2);
  await page.locator('#settings summary').click();
  await page.locator('#pref-pieceSet\\.xiangqi').selectOption('international');
  assert.equal(await page.locator('#board .piece [data-set="international"]').count(), 32);
  await page.reload();
  await page.waitForSelector('#board .piece');
  assert.equal(await page.locator('#board .piece [data-set="international"]').count(), 32, 'the choice is remembered');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('janggi on points with palaces, a move and a pass', async () => {
  const { page, g } = await open('janggi');
  await startShot(page, 'janggi');
  assert.equal(await page.locator('#board [data-river]').count(), 0, 'janggi has no river');
  assert.equal(await page.locator('#board .line.palace').count(), 4);
  await assertFits(page, 'janggi 1280x800');
  await click(page, 'a4', 'b4');
  await botAnswered(page, g, 2);
  await page.locator('#pass').click();
  const s = await botAnswered(page, g, 4);
  assert.match(s.moves[2].uci, /^([a-i]\d+)\1$/, 'the pass went as the king standing still');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('shogi: both hands, a promotion chosen, a drop dragged from the hand, kanji and international sets', async () => {
  // White may take the bishop on h8 promoting or not, and holds a gold; Black holds a pawn.
  const { page, g } = await open('shogi', 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[Gp] w - - 0 1');
  await startShot(page, 'shogi');
  await assertFits(page, 'shogi 1280x800');
  assert.equal(await page.locator('#hand-bottom [data-hand-letter="G"]').count(), 1, 'my gold in my hand, below');
  assert.equal(await page.locator('#hand-top [data-hand-letter="P"]').count(), 1, "the opponent's pawn above");
  await click(page, 'b2', 'h8');
  await page.locator('#board .promo-choice[data-promo="+"]').waitFor();
  assert.equal(await page.locator('#board .promo-choice').count(), 2, 'promote or not');
  await page.screenshot({ path: path.join(outDir, 'boards-shogi-promotion.png') });
  await page.locator('#board .promo-choice[data-promo="+"]').click();
  let s = await botAnswered(page, g, 2);
  assert.equal(s.moves[0].uci, 'b2h8+');
  // the gold dragged from the hand onto a square it may go to
  const target = (s.legal[Object.keys(s.legal).find((k) => (s.legal[k] || []).some((m) => m.startsWith('G@')))] || []).find((m) => m.startsWith('G@')).slice(2);
  const from = await page.locator('#hand-bottom [data-hand-letter="G"]').boundingBox();
  const to = await sq(page, target).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(from.x + ((to.x + to.width / 2 - from.x) * i) / 8, from.y + ((to.y + to.height / 2 - from.y) * i) / 8);
  await page.mouse.up();
  s = await botAnswered(page, g, 4);
  assert.equal(s.moves[2].uci, `G@${target}`, 'the gold was dropped');
  await page.locator('#settings summary').click();
  await page.locator('#pref-pieceSet\\.shogi').selectOption('international');
  assert.ok(await page.locator('#board .piece [data-set="international"]').count() > 30);
  await page.locator('#pref-pieceSet\\.shogi').selectOption('kanji');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('minishogi against a bot, and the phone layout', async () => {
  const { page, g } = await open('minishogi');
  await startShot(page, 'minishogi');
  await assertFits(page, 'minishogi 1280x800');
  await click(page, 'a2', 'a3');
  await botAnswered(page, g, 2);
  await page.setViewportSize({ width: 390, height: 844 });
  // the layout follows the new width: the board's box is read once it has
  await page.waitForFunction(() => { const b = document.querySelector('#board svg').getBoundingClientRect(); return b.width >= 370 && b.right <= 391; }, null, { timeout: 5000 }).catch(() => {});
  const box = await page.locator('#board svg').boundingBox();
  assert.ok(box.width >= 370 && box.x + box.width <= 391, `the board takes the phone's width (${box.width})`);
  await page.screenshot({ path: path.join(outDir, 'boards-minishogi-phone.png') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The coordinates a board shows: the bottom row's labels left to right, the
// left column's top to bottom, and the labels in line with a square.
async function coordinates(page, square) {
  return page.evaluate((name) => {
    const texts = [...document.querySelectorAll('#board .coords text')].map((e) => ({ t: e.textContent, r: e.getBoundingClientRect() }));
    const maxY = Math.max(...texts.map((x) => x.r.y)), minX = Math.min(...texts.map((x) => x.r.x));
    const bottom = texts.filter((x) => Math.abs(x.r.y - maxY) < 2).sort((a, b) => a.r.x - b.r.x);
    const left = texts.filter((x) => Math.abs(x.r.x - minX) < 2 && Math.abs(x.r.y - maxY) >= 2).sort((a, b) => a.r.y - b.r.y);
    const sq = document.querySelector(`#board [data-sq="${name}"]`).getBoundingClientRect();
    const under = bottom.find((x) => x.r.x + x.r.width / 2 > sq.x && x.r.x + x.r.width / 2 < sq.x + sq.width);
    const beside = left.find((x) => x.r.y + x.r.height / 2 > sq.y && x.r.y + x.r.height / 2 < sq.y + sq.height);
    return { bottom: bottom.map((x) => x.t), left: left.map((x) => x.t), square: `${under && under.t}${beside && beside.t}` };
  }, square);
}

// Shogi's records number the squares (files from the right, ranks from the
// top as Sente sees the board: "P-76" is the pawn c3-c4); the coordinates
// say the same numbers, on the turned board too (issue 40).
test('shogi and minishogi: the coordinates are the record numbers, on the turned board too', async () => {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify({ variant: 'shogi', hotSeat: true, seats: [{ kind: 'human' }, { kind: 'human' }] }) });
  const g = await r.json();
  const token = g.seats[0].token;
  const res = await fetch(`${server.base}/api/game/${g.id}/move/c3c4`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.base}/game.html?id=${g.id}&token=${token}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#board .piece');
  assert.equal((await page.locator('#moves td[data-ply="1"]').textContent()).trim(), 'P-76');
  let c = await coordinates(page, 'c4');
  assert.deepEqual(c.bottom, ['9', '8', '7', '6', '5', '4', '3', '2', '1'], 'files 9..1 from the left');
  assert.deepEqual(c.left, ['1', '2', '3', '4', '5', '6', '7', '8', '9'], 'ranks 1..9 from the top');
  assert.equal(c.square, '76', 'the pawn moved to 76 stands at file 7, rank 6');
  assert.match(await page.locator('#board g.piece[data-square="c4"] title').textContent(), / 76$/, 'its tooltip names 76');
  await page.locator('#rotate').click();
  c = await coordinates(page, 'c4');
  assert.deepEqual(c.bottom, ['1', '2', '3', '4', '5', '6', '7', '8', '9'], 'turned: files 1..9 from the left');
  assert.deepEqual(c.left, ['9', '8', '7', '6', '5', '4', '3', '2', '1'], 'turned: ranks 9..1 from the top');
  assert.equal(c.square, '76', 'turned: still 76');
  // minishogi: 5x5
  const m = await create('minishogi', null, 1);
  await page.goto(`${server.base}/game.html?id=${m.id}&token=${m.token}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#board .piece');
  c = await coordinates(page, 'a1');
  assert.deepEqual(c.bottom, ['5', '4', '3', '2', '1']);
  assert.deepEqual(c.left, ['1', '2', '3', '4', '5']);
  assert.equal(c.square, '55');
  // chess keeps its letters
  const ch = await create('chess', null, 1);
  await page.goto(`${server.base}/game.html?id=${ch.id}&token=${ch.token}`);
  await page.waitForSelector('#board .piece');
  c = await coordinates(page, 'e2');
  assert.deepEqual(c.bottom, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  assert.equal(c.square, 'e2');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('crazyhouse: a knight dropped from the pocket by clicks', async () => {
  const { page, g } = await open('crazyhouse', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1');
  await startShot(page, 'crazyhouse');
  await assertFits(page, 'crazyhouse 1280x800');
  await page.locator('#hand-bottom [data-hand-letter="N"]').click();
  await page.locator('#board [data-dest="e4"]').waitFor({ state: 'attached' });
  await sq(page, 'e4').click();
  const s = await botAnswered(page, g, 2);
  assert.equal(s.moves[0].uci, 'N@e4');
  assert.ok(await page.locator('#board .piece[data-square="e4"][data-letter="N"]').count() === 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('chess960: castling by putting the king on its rook, or two squares aside', async () => {
  const fen = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1';
  for (const target of ['h1', 'g1']) {
    const { page, g } = await open('fischerandom', fen);
    if (target === 'h1') await startShot(page, 'fischerandom');
    await click(page, 'e1', target);
    const s = await botAnswered(page, g, 2);
    assert.equal(s.moves[0].uci, 'e1h1', `castled by the click on ${target}`);
    await page.waitForSelector('#board .piece[data-square="g1"][data-name="king"]');
    assert.equal(await page.locator('#board .piece[data-square="f1"][data-name="rook"]').count(), 1);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('atomic: a capture explodes on the board', async () => {
  const { page, g } = await open('atomic', 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
  await startShot(page, 'atomic');
  await page.evaluate(() => { window.blastSeen = 0; new MutationObserver(() => { window.blastSeen = Math.max(window.blastSeen, document.querySelectorAll('#board [data-blast]').length); }).observe(document.getElementById('board'), { childList: true, subtree: true }); });
  await click(page, 'e4', 'd5');
  await page.waitForFunction(() => window.blastSeen >= 9, null, { timeout: 5000 });
  await page.screenshot({ path: path.join(outDir, 'boards-atomic-blast.png') });
  await botAnswered(page, g, 2);
  assert.equal(await page.locator('#board .piece[data-square="d5"]').count(), 0, 'the capturer blew up too');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The board component alone, fed the turns the core writes: duck chess (the
// move, then the duck's square) and sittuyin's set-up (drops from the hand).
test('board component: a duck turn is sent as move,duck; sittuyin set-up drops from the hand', async () => {
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  await page.goto(`${server.base}/rules.html`);
  await page.evaluate(async () => {
    const { Board } = await import('/js/board.js');
    const { Hand } = await import('/js/hands.js');
    const { pieceGlyph } = await import('/js/pieces.js');
    document.body.innerHTML = '<div id="t" style="width:600px"></div><div id="h"></div>';
    window.sent = [];
    const b = new Board(document.getElementById('t'), { onMove: (m) => window.sent.push(m), onStage: (s) => { window.stage = s; } });
    window.tb = b;
    window.th = new Hand(document.getElementById('h'), b);
    window.glyph = (pc) => pieceGlyph(pc.name, pc.letter);
  });
  // duck chess: e2e4 with the duck then put on d5 or e5; the duck stands on a3
  await page.evaluate(() => window.tb.update({
    width: 8, height: 8, interactive: true, toMove: 'white',
    pieces: [{ square: 'e2', seat: 'white', letter: 'P', name: 'pawn' }, { square: 'a3', seat: null, letter: '*', name: 'duck', dir: null }],
    legal: { e2: ['e2e3,e3d5', 'e2e4,e4d5', 'e2e4,e4e5'] },
  }));
  await page.locator('#t [data-sq="e2"]').click();
  await page.locator('#t [data-sq="e4"]').click();
  assert.equal(await page.evaluate(() => window.stage), 'duck', 'the board asks for the duck');
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#t [data-duck]')].map((e) => e.dataset.duck).sort()), ['d5', 'e5']);
  assert.equal(await page.locator('#t .piece[data-square="e4"]').count(), 1, 'the move is shown made meanwhile');
  await page.locator('#t [data-sq="e5"]').click();
  assert.deepEqual(await page.evaluate(() => window.sent), ['e2e4,e4e5']);
  // sittuyin: set-up drops into the own half from the hand
  await page.evaluate(() => {
    window.sent = [];
    window.tb.update({
      width: 8, height: 8, interactive: true, toMove: 'white', pieces: [],
      legal: { a1: ['R@a1'], b1: ['R@b1', 'N@b1'], c2: ['N@c2'] },
    });
    window.th.update({ seat: 'white', active: true, glyph: window.glyph, pieces: [{ letter: 'R', name: 'rook', count: 2 }, { letter: 'N', name: 'knight', count: 2 }, { letter: 'K', name: 'king', count: 1 }] });
  });
  assert.equal(await page.locator('#h [data-hand-letter="K"]:disabled').count(), 1, 'a piece with nowhere to go cannot be picked');
  const hands = await page.evaluate(async () => (await import('/js/view.js')).parseHands('8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1', ['white', 'black'], ['K', 'F', 'S', 'R', 'N', 'P']));
  assert.deepEqual(hands.white, [{ letter: 'K', count: 1 }, { letter: 'F', count: 1 }, { letter: 'S', count: 2 }, { letter: 'R', count: 2 }, { letter: 'N', count: 2 }], "sittuyin's set-up hand");
  assert.deepEqual(hands.black.map((p) => p.count), [1, 1, 2, 2, 2]);
  await page.locator('#h [data-hand-letter="N"]').click();
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#t [data-dest]')].map((e) => e.dataset.dest).sort()), ['b1', 'c2']);
  await page.locator('#t [data-sq="c2"]').click();
  assert.deepEqual(await page.evaluate(() => window.sent), ['N@c2']);
  // sittuyin: a pawn promoted where it stands, by a second click on it
  await page.evaluate(() => {
    window.sent = [];
    window.tb.update({
      width: 8, height: 8, interactive: true, toMove: 'white', legal: { e5: ['e5d6', 'e5e5f'] },
      pieces: [{ square: 'e5', seat: 'white', letter: 'P', name: 'pawn' }],
    });
  });
  await page.locator('#t [data-sq="e5"]').click();
  assert.equal(await page.locator('#t [data-dest="e5"]').count(), 1, 'its own square is marked');
  await page.locator('#t [data-sq="e5"]').click();
  assert.deepEqual(await page.evaluate(() => window.sent), ['e5e5f']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Every game the server plays, at its start: the board fits 1280x800 with its
// coordinates and hands, legal-move dots show, and a screenshot is kept.
test('every game fits 1280x800 at its start (screenshots start-<variant>.png)', async () => {
  const variants = await (await fetch(`${server.base}/api/variants`)).json();
  assert.ok(variants.length >= 17);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  for (const v of variants) {
    const g = await create(v.name, null, 1, v.seats.length);
    await page.goto(`${server.base}/game.html?id=${g.id}&token=${g.token}`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.waitForSelector('#board .piece');
    await assertFits(page, v.name);
    const s = await fetchState(server.base, g.id);
    if (s.toMove === v.seats[0].seat) {
      const from = Object.keys(s.legal).find((k) => s.legal[k].some((m) => /^[a-p]\d+[a-p]\d+/.test(m) && m.startsWith(k)));
      if (from) {
        await sq(page, from).click();
        assert.ok(await page.locator('#board [data-dest]').count() > 0, `${v.name}: legal-move dots`);
      }
    }
    await page.screenshot({ path: path.join(outDir, `start-${v.name}.png`) });
    assert.deepEqual(page.errors, [], v.name);
  }
  await page.context().close();
});
