// A person creates each of the four games against bots in the lobby, plays
// by clicking and by dragging, sees the bots answer, takes a move back, and
// the rules page of the game shows diagrams drawn by the engine.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, clickMove, dragMove, fetchState, waitFor, shot, sq } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const GAMES = [
  { variant: 'four-seasons', seats: 4, width: 8 },
  { variant: 'joko-urtaroak', seats: 4, width: 10, blocked: 16 },
  { variant: 'grant-acedrex', seats: 2, width: 12 },
  { variant: 'shako', seats: 2, width: 10 },
];

// A legal move of the seat to move that is not a promotion (one text per from/to).
function pickMove(state, avoid = new Set()) {
  const all = Object.values(state.legal).flat().filter((m) => /^[a-p]\d+[a-p]\d+$/.test(m));
  const fresh = all.filter((m) => !avoid.has(m.match(/^[a-p]\d+/)[0]));
  const list = fresh.length ? fresh : all;
  // prefer pawn-free, central-ish moves so a click and a drag cross the board
  return list[Math.floor(list.length / 2)];
}
const split = (m) => { const x = m.match(/^([a-p]\d+)([a-p]\d+)/); return [x[1], x[2]]; };

async function createInLobby(page, variant, nSeats) {
  await page.goto(`${server.base}/?seed=1`);   // the bots' noise seeded: the same game on every run
  await page.waitForSelector('body[data-ready="1"]');
  await page.locator(`#v-${variant}`).check();
  await page.waitForSelector(`[data-seat-kind]`);
  const kinds = page.locator('[data-seat-kind]');
  assert.equal(await kinds.count(), nSeats, 'one seat row per seat');
  for (let i = 1; i < nSeats; i++) {
    await kinds.nth(i).selectOption('bot');
    await page.locator('[data-seat-level]').nth(i).selectOption('1');
  }
  await kinds.nth(0).selectOption('human');
  await Promise.all([page.waitForURL(/game/), page.locator('#create-btn').click()]);
  await page.waitForSelector('body[data-ready="1"]');
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('token'), null, 'the seat token is taken out of the address bar once read');
  const id = url.searchParams.get('id');
  const held = await page.evaluate((gid) => JSON.parse(localStorage.getItem(`acedrex.tokens.${gid}`) || '{}'), id);
  const [seat, token] = Object.entries(held)[0] || [];
  return { id, token, seat };
}

async function waitMyTurn(page, g, minMoves) {
  return waitFor(async () => {
    const s = await fetchState(server.base, g.id, g.token);
    if (s.status !== 'ongoing') return null;
    return s.toMove === g.seat && s.moves.length >= minMoves && Object.keys(s.legal).length ? s : null;
  }, { timeout: 90000, what: `the bots to answer (${g.seat} to move again)` });
}

for (const game of GAMES) {
  test(`play ${game.variant} against bots by clicking and dragging`, async () => {
    const page = await browser.newPage();
    const g = await createInLobby(page, game.variant, game.seats);
    assert.ok(g.id && g.token, 'the lobby sends the player to the game with a seat token (kept in storage)');

    // the board has the right size, the blocked centre, and every piece has a glyph
    await page.waitForSelector('#board [data-sq]');
    assert.equal(await page.locator('#board rect[data-sq]').count(), game.width * game.width);
    assert.equal(await page.locator('#board rect.sq.blocked').count(), game.blocked || 0);
    const s0 = await waitMyTurn(page, g, 0);
    assert.equal(await page.locator('#board g.piece').count(), s0.pieces.length);
    assert.equal(await page.locator('#board g.piece g.glyph text').count(), 0, 'no piece falls back to a letter badge');
    assert.match(await page.locator('#status').textContent(), /your move/i);

    // 1. a move by clicking
    const m1 = pickMove(s0);
    const [f1, t1] = split(m1);
    await clickMove(page, f1, t1);
    const s1 = await waitMyTurn(page, g, s0.moves.length + game.seats);
    assert.equal(s1.moves[s0.moves.length].uci, m1, 'the clicked move was played');
    assert.ok(s1.moves.slice(s0.moves.length + 1).every((m) => m.seat !== g.seat), 'the bots answered');
    await page.waitForFunction((v) => Number(document.getElementById('board').dataset.v) >= v, s1.v);
    assert.equal(await page.locator('#moves td[data-ply]').count(), s1.moves.length, 'the move list shows every ply');
    // last move highlighted
    assert.equal(await page.locator('#board [data-hl="last"]').count(), 2);

    // 2. a move by dragging
    const m2 = pickMove(s1, new Set([t1]));
    const [f2, t2] = split(m2);
    await dragMove(page, f2, t2);
    const s2 = await waitMyTurn(page, g, s1.moves.length + game.seats);
    assert.equal(s2.moves[s1.moves.length].uci, m2, 'the dragged move was played');
    await page.waitForFunction((v) => Number(document.getElementById('board').dataset.v) >= v, s2.v);
    // the screenshot once the pieces have stopped moving
    await page.waitForFunction(() => document.getAnimations().length === 0, null, { timeout: 5000 }).catch(() => {});
    await shot(page, `board-${game.variant}`);

    // 3. take the last move back: the same seat is to move with the record cut
    await page.locator('#takeback').click();
    const s3 = await waitFor(async () => {
      const s = await fetchState(server.base, g.id, g.token);
      return s.moves.length === s1.moves.length && s.toMove === g.seat ? s : null;
    }, { what: 'the takeback' });
    assert.equal(s3.moves.length, s1.moves.length);
    await page.waitForFunction((n) => document.querySelectorAll('#moves td[data-ply]').length === n, s3.moves.length);

    // 4. selecting a piece shows its destinations from state.legal
    const [f4] = split(pickMove(s3));
    await sq(page, f4).click();
    assert.equal(await page.locator('#board [data-dest]').count(), new Set(s3.legal[f4].map((m) => split(m)[1])).size);
    await sq(page, f4).click();
    assert.equal(page.errors.length, 0, `no page errors: ${page.errors.join('; ')}`);
    await page.context().close();
  });
}

test('rules pages draw every piece from the engine', async () => {
  const page = await browser.newPage();
  for (const game of GAMES) {
    await page.goto(`${server.base}/rules.html?variant=${game.variant}`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
    const cards = page.locator('.piece-card');
    const n = await cards.count();
    assert.ok(n >= 6, `${game.variant}: a diagram per piece`);
    for (let i = 0; i < n; i++) {
      const marks = await cards.nth(i).locator('[data-mark]').count();
      assert.ok(marks > 0, `${game.variant}: piece ${i} has reachable squares`);
    }
    await page.locator('main').screenshot({ path: `${(await import('./lib.mjs')).outDir}/rules-${game.variant}.png` });
  }
  await page.context().close();
});

test('a rule option redraws the diagrams (Grant Acedrex\'s lion)', async (t) => {
  const probe = await fetch(`${server.base}/api/variant/grant-acedrex/piece/L?lion=murray`);
  if (!probe.ok) {
    t.todo(`the server refuses lion=murray: ${probe.status} ${await probe.text()}`);
    return;
  }
  const page = await browser.newPage();
  await page.goto(`${server.base}/rules.html?variant=grant-acedrex`);
  await page.waitForSelector('body[data-ready="1"]');
  const lion = page.locator('.piece-card[data-piece="L"] [data-mark]');
  const before = await lion.count();
  await page.locator('select[data-option="lion"]').selectOption('murray');
  await waitFor(async () => (await lion.count()) > 0 && (await lion.count()) !== before, { what: 'the lion diagram to change' });
  await page.context().close();
});
