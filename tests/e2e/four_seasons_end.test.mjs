// A scripted Four Seasons game played through the API up to a mate with a
// takeover, then to its end by resignations (one of them clicked in the
// page); the page shows the recoloured army, the seats out with their
// places, the coins, the result, and replays the game move by move.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, fetchState, waitFor, shot } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

// Found with `acedrex summary --variant four-seasons --moves "..."`: Red's
// rook b5h5 checks White's king on h8, Black's h1g1 leaves White no escape,
// and at White's turn White is mated; the mate is Red's, so White's army
// (its knight facing south, its pawns going west and south) turns red.
const LINE = ('a7c6 a3a4 h3h4 g6g5 a6a5 b3b4 h4g5 f8e8 c6b4 a2b4 g5h6 h7g5 a5b4 b2d4 h6g7 g8g7 b7d5 ' +
  'b1b4 f1e1 g5e6 d5f7 a1a2 f2e2 g7g3 b6b5 a4b5 h2f3 g3g2 c7d7 a2b2 g1g2 e8d7 b8b5 b4b5 f3d4 d7c8 ' +
  'f7h5 b5h5 h1g1').split(' ');

async function post(path, token) {
  const r = await fetch(`${server.base}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(body)}`);
  return body;
}

test('Four Seasons: a mate with a takeover, then the end, replayed', async () => {
  const created = await fetch(`${server.base}/api/game`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ variant: 'four-seasons', options: { takeover: 'yes' }, seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'human' }, { kind: 'human' }] }),
  }).then((r) => r.json());
  const tok = Object.fromEntries(created.seats.map((s) => [s.seat, s.token]));
  assert.deepEqual(Object.keys(tok).sort(), ['black', 'green', 'red', 'white']);

  // Green watches in the browser while the line is played
  const page = await browser.newPage();
  await page.goto(`${server.base}/game.html?id=${created.id}&seat=green&token=${tok.green}`);
  await page.waitForSelector('body[data-ready="1"]');
  // Green's corner (a8) is turned to the bottom of the view
  assert.equal(await page.locator('#board svg').getAttribute('data-rotation'), '3');

  for (const [i, uci] of LINE.entries()) {
    const s = await fetchState(server.base, created.id);
    await post(`/api/game/${created.id}/move/${uci}`, tok[s.toMove]).catch((e) => {
      throw new Error(`ply ${i + 1} (${uci}) refused: ${e.message}`);
    });
    if (uci === 'b5h5') {
      // Red's rook on the h-file checks both White's king (h8) and Black's (h1): the page marks both
      const c = await fetchState(server.base, created.id);
      assert.deepEqual([...c.check].sort(), ['black', 'white']);
      await page.waitForFunction((v) => Number(document.getElementById('board').dataset.v) >= v, c.v);
      const marked = await page.locator('#board [data-sq-check]').evaluateAll((xs) => xs.map((x) => x.dataset.sqCheck).sort());
      assert.deepEqual(marked, ['h1', 'h8']);
      await shot(page, 'four-seasons-check');
    }
  }
  const s = await fetchState(server.base, created.id);
  const white = s.seats.find((x) => x.seat === 'white');
  assert.equal(white.in, false, 'White is out (mated)');
  assert.equal(s.pieces.filter((p) => p.seat === 'white').length, 0, 'no white piece is left');
  const taken = s.pieces.filter((p) => p.seat === 'red' && (p.dir === 's' || p.dir === 'w') && p.name !== 'king');
  assert.ok(taken.length >= 2, 'White\'s army now belongs to Red (pieces facing south and west)');
  assert.ok(s.coins.red > 0, 'Red collected coins for the mate');

  // the page shows it: White greyed out, Red's new pieces on the board
  await page.waitForFunction((v) => Number(document.getElementById('board').dataset.v) >= v, s.v);
  assert.equal(await page.locator('.seat[data-seat="white"]').getAttribute('data-in'), 'false');
  assert.equal(await page.locator('#board g.piece[data-seat="white"]').count(), 0);
  for (const p of taken) assert.equal(await page.locator(`#board g.piece[data-square="${p.square}"]`).getAttribute('data-seat'), 'red');
  await shot(page, 'four-seasons-takeover');

  // Black resigns through the API, Green with the page's button: Red wins.
  await post(`/api/game/${created.id}/resign`, tok.black);
  await page.locator('#resign').click();
  await page.locator('#resign').click();   // confirm
  const end = await waitFor(async () => {
    const x = await fetchState(server.base, created.id);
    return x.status === 'finished' ? x : null;
  }, { what: 'the end of the game' });
  assert.equal(end.result.places.red, 1, 'Red, the last seat in, wins');
  await page.waitForSelector('#result:not([hidden]) [data-result="red"]');
  assert.match(await page.locator('#result h2').textContent(), /Red wins/);
  // places in reverse order of going out: White out first, then Black, then Green
  assert.equal(await page.locator('.seat[data-seat="green"]').getAttribute('data-place'), '2');
  assert.equal(await page.locator('.seat[data-seat="black"]').getAttribute('data-place'), '3');
  assert.equal(await page.locator('.seat[data-seat="white"]').getAttribute('data-place'), '4');
  await shot(page, 'four-seasons-end');

  // replay: from the start, step forward, and to the mate
  await page.locator('#replay-start').click();
  await page.waitForFunction(() => document.getElementById('rp-label').textContent.startsWith('ply 0'));
  assert.equal(await page.locator('#board g.piece').count(), 32, 'the start position');
  assert.equal(await page.locator('#board g.piece[data-seat="white"]').count(), 8);
  await page.locator('#rp-next').click();
  await page.waitForFunction(() => document.getElementById('rp-label').textContent.startsWith('ply 1'));
  assert.equal(await page.locator('#board g.piece[data-square="c6"]').getAttribute('data-name'), 'knight');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.getElementById('rp-label').textContent.startsWith('ply 2'));
  await page.locator(`#moves td[data-ply="${LINE.length}"]`).click();
  await page.waitForFunction((n) => document.getElementById('rp-label').textContent.startsWith(`ply ${n}`), LINE.length);
  assert.equal(await page.locator('#board g.piece[data-seat="white"]').count(), 0, 'after the mate White\'s army is red');
  await shot(page, 'four-seasons-replay');
  // the record downloads
  const pgn = await fetch(`${server.base}/api/game/${created.id}/pgn`).then((r) => r.text());
  // the PGN4 record: its tags and every move played, in order
  assert.match(pgn, /^\[Variant "[^"]+"\]$/m);
  assert.match(pgn, /^\[VariantName "four-seasons"\]$/m);
  assert.match(pgn, /^\[RuleVariants "[^"]*Takeover[^"]*"\]$/m);
  assert.match(pgn, /^\[StartFen4 "[^"]+"\]$/m);
  // places in seat order green, red, black, white
  assert.match(pgn, /^\[Result "2-1-3-4"\]$/m);
  // the move text: one token per entry (rounds `1.`, `..` between seats), moves in long algebraic
  // notation (`Na7-c6`, `h4xg5`), `R` for each resignation, then the result
  const movetext = pgn.slice(pgn.indexOf('\n\n') + 2);
  assert.ok(movetext.startsWith('1. '), movetext.slice(0, 40));
  const tokens = movetext.replace(/\{[^}]*\}/g, ' ').split(/\s+/).filter((t) => t && t !== '..' && !/^\d+\.$/.test(t));
  assert.equal(tokens.pop(), '2-1-3-4', 'the move text ends with the result');
  assert.equal(tokens.length, LINE.length + 2, `every move and both resignations: ${movetext}`);
  for (const [i, uci] of LINE.entries()) {
    assert.match(tokens[i], new RegExp(`^[A-Z]?${uci.slice(0, 2)}[-x]${uci.slice(2, 4)}(=[A-Z])?$`), `ply ${i + 1}: ${uci} as ${tokens[i]}`);
  }
  assert.deepEqual(tokens.slice(LINE.length), ['R', 'R'], 'Black and Green resigned');
  assert.equal(page.errors.length, 0, page.errors.join('; '));
  await page.context().close();
});
