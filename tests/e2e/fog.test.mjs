// Fog of war in the browser: a game against a bot seen from White's page and
// from a watcher's page. Every square the state's `visible` leaves out is drawn
// as fog and holds no piece; the other side's moves are listed as "?"; after
// the resignation both pages show the whole board. Screenshots: fog-white.png,
// fog-watcher.png, fog-end.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, fetchState, waitFor, clickMove, shot } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

// What the page draws: the fogged squares and the squares holding pieces.
async function drawn(page) {
  return page.evaluate(() => ({
    fog: [...document.querySelectorAll('#board [data-fog]')].map((e) => e.dataset.fog).sort(),
    pieces: [...document.querySelectorAll('#board g.piece')].map((e) => ({ square: e.dataset.square, seat: e.dataset.seat })),
  }));
}
const allSquares = () => { const out = []; for (const f of 'abcdefgh') for (let r = 1; r <= 8; r++) out.push(f + r); return out.sort(); };

// The page agrees with the state: fog exactly off `visible`, no piece in the fog,
// and the pieces drawn are the state's.
async function agrees(page, st, who) {
  const d = await drawn(page);
  const seen = new Set(st.visible);
  assert.deepEqual(d.fog, allSquares().filter((s) => !seen.has(s)), `${who}: fog where the state sees nothing`);
  for (const p of d.pieces) assert.ok(seen.has(p.square), `${who}: no piece drawn on the hidden ${p.square}`);
  assert.deepEqual(d.pieces.map((p) => p.square).sort(), st.pieces.map((p) => p.square).sort(), `${who}: the state's pieces`);
}

test('fog of war: White and a watcher see only their squares, and everything at the end', async () => {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify({ variant: 'fog-of-war', seed: 3, seats: [{ kind: 'human' }, { kind: 'bot', level: 1 }] }) });
  const g = await r.json();
  assert.equal(r.status, 201, JSON.stringify(g));
  const token = g.seats[0].token;
  const white = await browser.newPage();
  await white.goto(`${server.base}/game.html?id=${g.id}&token=${token}`);
  await white.waitForSelector('body[data-ready="1"]');
  await white.waitForSelector('#board .piece');
  const watcher = await browser.newPage();
  await watcher.goto(`${server.base}/game.html?id=${g.id}`);
  await watcher.waitForSelector('body[data-ready="1"]');

  // At the start White sees its own half and the squares its moves reach, not Black's pieces.
  let st = await fetchState(server.base, g.id, token);
  await waitFor(async () => (await drawn(white)).fog.length > 0, { what: 'the fog drawn' });
  await agrees(white, st, 'white at the start');
  assert.ok(!(await drawn(white)).pieces.some((p) => p.seat === 'black'), 'no black piece seen at the start');

  // Two moves each; the bot's replies are "?" in White's list.
  await clickMove(white, 'e2', 'e4');
  const after1 = await waitFor(async () => { const x = await fetchState(server.base, g.id, token); return x.moves.length >= 2 ? x : null; }, { what: 'the bot replies' });
  await waitFor(async () => Number(await white.locator('#board').getAttribute('data-v')) >= after1.v, { what: 'white page shows the reply' });
  await clickMove(white, 'd2', 'd4');
  st = await waitFor(async () => { const x = await fetchState(server.base, g.id, token); return x.moves.length >= 4 ? x : null; }, { what: 'the second reply' });
  await waitFor(async () => Number(await white.locator('#board').getAttribute('data-v')) === st.v, { what: 'white page up to date' });
  await agrees(white, st, 'white after two moves');
  // The moves came as deltas made from White's view, and the page drawn from them agrees with the state.
  assert.ok(Number(await white.locator('#board').getAttribute('data-deltas')) >= 4, 'white page applied deltas');
  const hiddenCells = white.locator('#moves td[data-hidden]');
  assert.equal(await hiddenCells.count(), 2, 'the two black moves hidden');
  assert.equal((await hiddenCells.first().innerText()).trim(), '?');
  assert.match(await hiddenCells.first().getAttribute('title'), /hidden move/);
  assert.equal((await white.locator('#moves td[data-ply="1"]').innerText()).trim(), 'e4');
  await shot(white, 'fog-white');
  // No replay before the end (the server keeps it closed): the page says so and stays live.
  await white.locator('#moves td[data-ply="1"]').click();
  await waitFor(async () => /once the game is over/.test(await white.locator('#banner').innerText()), { what: 'the no-replay notice' });
  assert.equal(await white.locator('#replay').isHidden(), true);

  // The watcher sees only what both sides see; every move of its list is hidden.
  const wst = await fetchState(server.base, g.id);
  await waitFor(async () => Number(await watcher.locator('#board').getAttribute('data-v')) === wst.v, { what: 'watcher page up to date' });
  await agrees(watcher, wst, 'the watcher');
  assert.ok(Number(await watcher.locator('#board').getAttribute('data-deltas')) >= 4, 'watcher page applied deltas');
  assert.equal(await watcher.locator('#moves td[data-hidden]').count(), 4);
  await shot(watcher, 'fog-watcher');

  // White resigns: the end shows every piece and every move on both pages.
  await white.locator('#resign').click();
  await white.locator('#resign').click();
  const end = await waitFor(async () => { const x = await fetchState(server.base, g.id); return x.status === 'finished' ? x : null; }, { what: 'the end' });
  assert.equal(end.visible, null);
  for (const page of [white, watcher]) {
    await waitFor(async () => (await page.locator('#board').getAttribute('data-status')) === 'finished', { what: 'the end shown' });
    const d = await drawn(page);
    assert.equal(d.fog.length, 0, 'no fog after the end');
    assert.equal(d.pieces.length, end.pieces.length, 'every piece drawn');
    assert.ok(d.pieces.some((p) => p.seat === 'black'));
    assert.equal(await page.locator('#moves td[data-hidden]').count(), 0, 'every move revealed');
  }
  await shot(white, 'fog-end');
  for (const page of [white, watcher]) assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await white.context().close();
  await watcher.context().close();
});
