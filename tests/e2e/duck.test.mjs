// Duck chess on the game page (issue 40): the duck is drawn on its square
// (the state's `pieces` lists it, docs/api.md), and the move list writes a
// duck turn as the record does, captures included ("bxa4,d6"), with the duck
// square in coordinates too. Screenshot: duck.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, fetchState, waitFor, clickMove, sq, shot } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

// A hot-seat duck game with `moves` played through the API, and its page.
async function duckGame(moves) {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify({ variant: 'duck', hotSeat: true, seats: [{ kind: 'human' }, { kind: 'human' }] }) });
  const g = await r.json();
  assert.equal(r.status, 201, JSON.stringify(g));
  const token = g.seats[0].token;
  for (const m of moves) {
    const res = await fetch(`${server.base}/api/game/${g.id}/move/${encodeURIComponent(m)}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200, `${m}: ${await res.text()}`);
  }
  const page = await browser.newPage();
  await page.goto(`${server.base}/game.html?id=${g.id}&token=${token}`);
  await page.waitForSelector('body[data-ready="1"]');
  return { g, token, page };
}

// The centre of an element's box on the page.
const centre = (b) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
const inside = (p, b) => p.x > b.x && p.x < b.x + b.width && p.y > b.y && p.y < b.y + b.height;

test('duck chess: the duck is drawn on its square, and moves with the next turn', async () => {
  const { g, token, page } = await duckGame(['e2e4,e4d5']);
  const st = await fetchState(server.base, g.id, token);
  assert.match(st.fen.split(' ')[0], /3\*4/, 'the FEN has the duck on d5');
  assert.deepEqual(st.pieces.filter((p) => p.name === 'duck'), [{ square: 'd5', seat: null, letter: '*', name: 'duck', dir: null }]);

  // the drawn board: a duck glyph standing on d5's square, nothing else there
  const duck = page.locator('#board g.piece[data-name="duck"]');
  await duck.waitFor({ state: 'attached', timeout: 10000 });
  assert.equal(await duck.count(), 1);
  assert.equal(await duck.getAttribute('data-square'), 'd5');
  assert.ok(inside(centre(await duck.boundingBox()), await sq(page, 'd5').boundingBox()), 'the duck drawn inside d5');
  assert.ok((await duck.locator('path, circle, ellipse').count()) > 0, 'a glyph, not an empty group');
  assert.match(await duck.locator('title').textContent(), /^duck d5$/, 'named without a seat');

  // Black's turn clicked on the page: the move, then the duck's new square
  await clickMove(page, 'd7', 'd6');
  await page.locator('#board [data-duck="e5"]').waitFor({ state: 'attached', timeout: 5000 });
  await sq(page, 'e5').click();
  await waitFor(async () => (await fetchState(server.base, g.id, token)).moves.length === 2, { what: 'the turn sent' });
  await waitFor(async () => (await duck.getAttribute('data-square')) === 'e5', { what: 'the duck drawn on e5' });
  assert.ok(inside(centre(await duck.boundingBox()), await sq(page, 'e5').boundingBox()), 'the duck drawn inside e5');
  await shot(page, 'duck');
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});

test('duck chess: the move list writes captures and the duck square; the status line asks for the duck', async () => {
  const { page } = await duckGame(['b2b3,b3d5', 'a7a5,a5d4', 'h2h3,h3d5', 'a5a4,a4d4', 'b3a4,a4d6']);
  const cell = page.locator('#moves td[data-ply="5"]');
  await cell.waitFor({ state: 'attached' });
  assert.equal((await cell.textContent()).trim(), 'bxa4,d6', 'SAN as the record writes it');
  assert.equal((await page.locator('#moves td[data-ply="1"]').textContent()).trim(), 'b3,d5');
  await page.locator('#settings summary').click();
  await page.locator('#pref-notation').selectOption('coord');
  assert.equal((await cell.textContent()).trim(), 'b3-a4, d6', 'coordinates with the duck square');
  // the turn's second part: the status line asks for the duck (not a chain's step)
  await clickMove(page, 'e7', 'e6');
  await page.locator('#board [data-duck="e5"]').waitFor({ state: 'attached', timeout: 5000 });
  assert.match(await page.locator('#status').textContent(), /put the duck/);
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});
