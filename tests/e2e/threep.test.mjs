// Three-player chess in the browser: a game against two bots started from the
// lobby's card, drawn as the real six-sided board (96 quadrilateral cells, no
// holes, three armies in white, black and red, coordinates round the edge),
// a move by clicks and one that crosses into another half, the bots answer
// and every seat's last move is marked; Black's view turned a third so its
// army is at the bottom. Screenshots: threep-start.png, threep-move.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, fetchState, waitFor, shot } from './lib.mjs';
import { hexCellOf } from '../../web/js/hexboard.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

// A cell's centre on the screen (the middle of a quadrilateral's box need not lie in it).
async function centreOf(page, name) {
  return page.evaluate((n) => {
    const poly = document.querySelector(`#board polygon[data-sq="${n}"]`);
    const pts = poly.getAttribute('points').trim().split(/\s+/).map((s) => s.split(',').map(Number));
    const c = pts.reduce((a, [x, y]) => [a[0] + x / pts.length, a[1] + y / pts.length], [0, 0]);
    const svg = poly.ownerSVGElement, pt = svg.createSVGPoint();
    pt.x = c[0]; pt.y = c[1];
    const s = pt.matrixTransform(svg.getScreenCTM());
    return { x: s.x, y: s.y };
  }, name);
}
async function clickCell(page, name) {
  const p = await centreOf(page, name);
  await page.mouse.click(p.x, p.y);
}
async function dragCell(page, from, to) {
  const a = await centreOf(page, from), b = await centreOf(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(a.x + ((b.x - a.x) * i) / 8, a.y + ((b.y - a.y) * i) / 8);
  await page.mouse.up();
}
async function clickMove(page, from, to) {
  await clickCell(page, from);
  await page.locator(`#board [data-dest="${to}"]`).waitFor({ state: 'attached', timeout: 5000 });
  await clickCell(page, to);
}

test('against two bots from the lobby: the hexagonal board, clicks, a move across the centre', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.base}/?variant=three-player-chess`);
  await page.waitForSelector('[data-quick="three-player-chess"]');
  await Promise.all([page.waitForURL(/game/), page.locator('[data-quick="three-player-chess"]').click()]);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#board .piece');
  const id = new URL(page.url()).searchParams.get('id');
  let st = await fetchState(server.base, id);
  assert.deepEqual(st.seats.map((s) => `${s.seat}:${s.kind}`), ['white:human', 'black:bot', 'red:bot']);

  // 96 quadrilaterals, nothing drawn for the grid's 48 holes, two cell colours
  const cells = await page.evaluate(() => [...document.querySelectorAll('#board polygon.sq[data-sq]')].map((p) => ({
    sq: p.dataset.sq, corners: p.getAttribute('points').trim().split(/\s+/).length, dark: p.classList.contains('dark'),
  })));
  assert.equal(cells.length, 96);
  assert.ok(cells.every((c) => c.corners === 4 && hexCellOf(c.sq)), 'every cell a quadrilateral on a playable square');
  assert.equal(cells.filter((c) => c.dark).length, 48);
  assert.equal(await page.locator('#board rect.sq').count(), 0, 'no square drawn');
  assert.equal(await page.locator('#board svg').getAttribute('data-rotation'), '0', 'White at the bottom');
  // White's army at the bottom: its king below the centre, Red's up right, Black's up left
  const at = (n) => page.locator(`#board [data-sq="${n}"]`).boundingBox();
  const [e1, i8, e12, centre] = await Promise.all([at('e1'), at('d8'), at('i12'), at('d4')]);
  assert.ok(e1.y > centre.y && i8.x < centre.x && e12.x > centre.x && i8.y < centre.y && e12.y < centre.y, 'White below, Black up left, Red up right');
  // the three armies' colours, Red with its colour-blind square
  const fills = await page.evaluate(() => ['white', 'black', 'red'].map((s) => getComputedStyle(document.querySelector(`#board g.piece[data-seat="${s}"]`)).getPropertyValue('--pf').trim()));
  assert.equal(new Set(fills).size, 3, fills.join(' '));
  assert.equal(await page.locator('#board g.piece[data-seat="red"] .cb-mark').count(), 16);
  assert.equal(await page.locator('#board g.piece').count(), 48);
  // coordinates round the hexagon: every back rank's letters and the outer files' numbers
  const coords = await page.evaluate(() => [...document.querySelectorAll('#board .coord')].map((t) => t.textContent));
  for (const c of ['a', 'h', 'l', 'i', '1', '8', '12']) assert.ok(coords.includes(c), `coordinate ${c}`);
  await shot(page, 'threep-start');

  // a move by clicks: the legal dots, then the bots answer
  await waitFor(async () => (await page.locator('#board').getAttribute('data-to-move')) === 'white', { what: 'white to move' });
  await clickCell(page, 'e2');
  const dots = await page.evaluate(() => [...document.querySelectorAll('#board [data-dest]')].map((d) => d.dataset.dest).sort());
  assert.deepEqual(dots, ['e3', 'e4']);
  await clickCell(page, 'e4');
  st = await waitFor(async () => { const x = await fetchState(server.base, id); return x.moves.length >= 3 ? x : null; }, { what: 'the two bots answer' });
  assert.equal(st.moves[0].uci, 'e2e4');
  await waitFor(async () => Number(await page.locator('#board').getAttribute('data-v')) >= st.v, { what: 'the page shows the bots' });
  const marked = await page.evaluate(() => [...new Set([...document.querySelectorAll('#board [data-hl-seat]')].map((e) => e.dataset.hlSeat))].sort());
  assert.deepEqual(marked, ['black', 'red', 'white'], 'every seat\'s last move marked');

  // a move across the middle into another half (the e-pawn onto e9 through
  // the rosette when it is free, else any move of White's into another half)
  const legal = Object.values(st.legal || {}).flat();
  const crossing = legal.filter((m) => { const f = hexCellOf(m.slice(0, 2)), t = hexCellOf(m.slice(2, 4).replace(/[a-z]$/, '')); return f && t && f.half === 0 && t.half !== 0; });
  assert.ok(crossing.length, `a move into another half among ${legal.join(' ')}`);
  const mv = crossing.includes('e4e9') ? 'e4e9' : crossing[0];
  const [from, to] = [mv.slice(0, 2), /^[a-l]\d{1,2}([a-l]\d{1,2})/.exec(mv)[1]];
  await clickMove(page, from, to);
  st = await waitFor(async () => { const x = await fetchState(server.base, id); return x.moves.length >= 6 ? x : null; }, { what: 'the bots answer again' });
  assert.ok(st.moves.length >= 6);
  assert.equal(st.moves[3].uci, mv);
  await waitFor(async () => Number(await page.locator('#board').getAttribute('data-v')) >= st.v, { what: 'the page shows the bots' });
  await shot(page, 'threep-move');
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});

test('Black sees its army at the bottom, plays by dragging, and the board turns by thirds', async () => {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify({ variant: 'three-player-chess', seats: [{ kind: 'bot', level: 1 }, { kind: 'human' }, { kind: 'bot', level: 1 }] }) });
  const g = await r.json();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.base}/game.html?id=${g.id}&token=${g.seats[1].token}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#board .piece');
  // White's bot moves first; the cells are measured once the board is drawn
  // for Black's turn (a board drawn again takes them away while measured)
  await waitFor(async () => (await page.locator('#board').getAttribute('data-to-move')) === 'black', { what: 'black to move' });
  assert.equal(await page.locator('#board svg').getAttribute('data-rotation'), '1');
  const below = async (a, b) => (await page.locator(`#board [data-sq="${a}"]`).boundingBox()).y > (await page.locator(`#board [data-sq="${b}"]`).boundingBox()).y;
  assert.ok(await below('d8', 'd4'), 'Black\'s king below the centre');
  // a move dragged onto a rosette cell, in the turned view
  await dragCell(page, 'd7', 'd5');
  const st = await waitFor(async () => { const x = await fetchState(server.base, g.id); return x.moves.length >= 2 ? x : null; }, { what: 'the drag sent' });
  assert.equal(st.moves[1].uci, 'd7d5');
  // the two bots answer before the cells are measured again
  const answered = await waitFor(async () => { const x = await fetchState(server.base, g.id); return x.moves.length >= 4 ? x : null; }, { what: 'the bots answer' });
  await waitFor(async () => Number(await page.locator('#board').getAttribute('data-v')) >= answered.v, { what: 'the page shows the bots' });
  // the keyboard's cursor goes from cell to cell as the cells are seen
  await page.locator('#board svg').focus();
  await page.keyboard.press('Escape');   // the keyboard in use: its cursor is drawn
  const cursor = () => page.locator('#board [data-cursor]').getAttribute('data-cursor');
  const c0 = await cursor();
  await page.keyboard.press('ArrowUp');
  const c1 = await cursor();
  assert.notEqual(c1, c0);
  assert.ok(await below(c0, c1), `ArrowUp goes up the screen: ${c0} -> ${c1}`);
  assert.ok(hexCellOf(c1), c1);
  await page.keyboard.press('ArrowDown');
  const c2 = await cursor();
  assert.ok(await below(c2, c1), `ArrowDown goes down the screen: ${c1} -> ${c2}`);
  await page.locator('#rotate').click();
  assert.equal(await page.locator('#board svg').getAttribute('data-rotation'), '2');
  assert.ok(await below('i12', 'd4'), 'then Red\'s');
  await page.locator('#rotate').click();
  assert.equal(await page.locator('#board svg').getAttribute('data-rotation'), '0');
  assert.ok(await below('e1', 'd4'), 'then White\'s');
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});

test('the lobby card and the rules diagrams draw the six-sided board', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.base}/?variant=three-player-chess`);
  const pic = page.locator('[data-variant="three-player-chess"] .cat-pic svg');
  await pic.waitFor();
  assert.equal(await pic.locator('polygon[data-cell]').count(), 96);
  assert.equal(await pic.locator('[data-sq]').count(), 48, 'every piece of the start');
  assert.match(await page.locator('[data-variant="three-player-chess"] .cat-meta').textContent(), /96 cells/);
  await page.goto(`${server.base}/rules/three-player-chess`);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  const diagram = page.locator('[data-piece="bishop"] [data-count], [data-count]').first();
  await diagram.waitFor();
  assert.equal(await page.locator('svg.acedrex-board.hex3').first().locator('polygon.sq').count(), 96);
  // the bishop on c3: its diagonal through the centre forks into both other halves
  const marks = await page.evaluate(() => {
    for (const d of document.querySelectorAll('[data-from]')) {
      if (d.querySelector('g.piece[data-name="bishop"]')) return [...d.querySelectorAll('[data-mark]')].map((m) => m.dataset.mark);
    }
    return [];
  });
  for (const sq of ['d4', 'i5', 'l8', 'e9', 'h12']) assert.ok(marks.includes(sq), `the bishop reaches ${sq}: ${marks.join(' ')}`);
  assert.ok(!marks.includes('i9'), 'not the cell of the other colour');
  await shot(page, 'threep-rules');
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});
