// Two people in two browser contexts play a two-seat game through the
// lobby's invitation links; a page reload in the middle of a game restores
// everything.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, clickMove, dragMove, fetchState, waitFor, shot } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const waitV = (page, v) => page.waitForFunction((x) => Number(document.getElementById('board').dataset.v) >= x, v, { timeout: 20000 });

test('two seats, two browsers, invitation links', async () => {
  const alice = await browser.newPage();
  await alice.goto(`${server.base}/?variant=shako`);
  await alice.waitForSelector('body[data-ready="1"]');
  await alice.locator('#v-shako').check();
  await alice.locator('[data-seat-kind="white"]').selectOption('human');
  await alice.locator('[data-seat-kind="black"]').selectOption('human');
  await alice.locator('#create-btn').click();
  await alice.waitForSelector('#invites:not([hidden])');
  const blackLink = await alice.locator('input[data-invite="black"]').inputValue();
  const whiteLink = await alice.locator('input[data-invite="white"]').inputValue();
  assert.match(blackLink, /token=/);
  assert.notEqual(blackLink, whiteLink, 'each seat has its own link');
  await Promise.all([alice.waitForURL(/game/), alice.locator('[data-play="white"]').click()]);
  await alice.waitForSelector('body[data-ready="1"]');
  const id = new URL(alice.url()).searchParams.get('id');

  // Bob opens Black's link in another browser context (another person)
  const bob = await browser.newPage();
  await bob.goto(blackLink);
  await bob.waitForSelector('body[data-ready="1"]');
  assert.equal(await bob.locator('#board svg').getAttribute('data-rotation'), '2', 'Black sees the board from its side');
  assert.equal(await alice.locator('#board svg').getAttribute('data-rotation'), '0');
  // both are shown as connected
  await alice.waitForSelector('.seat[data-seat="black"] .dot.on', { timeout: 10000 });

  // Bob cannot move White's pieces; Alice can
  assert.equal(await bob.locator('#board g.piece.movable').count(), 0);
  assert.ok(await alice.locator('#board g.piece.movable').count() > 0);

  await clickMove(alice, 'e3', 'e5');
  let s = await waitFor(async () => { const x = await fetchState(server.base, id); return x.moves.length === 1 ? x : null; });
  await waitV(bob, s.v);
  assert.equal(await bob.locator('#board g.piece[data-square="e5"]').getAttribute('data-seat'), 'white', 'Bob sees Alice\'s move');
  assert.match(await bob.locator('#status').textContent(), /your move/i);

  await dragMove(bob, 'e8', 'e6');
  s = await waitFor(async () => { const x = await fetchState(server.base, id); return x.moves.length === 2 ? x : null; });
  assert.equal(s.moves[1].uci, 'e8e6');
  await waitV(alice, s.v);
  assert.equal(await alice.locator('#board g.piece[data-square="e6"]').getAttribute('data-seat'), 'black', 'Alice sees Bob\'s move');

  // a draw offered by Alice and accepted by Bob
  await alice.locator('#draw-offer').click();
  await bob.waitForSelector('#draw-accept', { timeout: 10000 });
  await shot(bob, 'online-shako-black');
  await bob.locator('#draw-accept').click();
  await alice.waitForSelector('#result:not([hidden]) [data-result="draw"]', { timeout: 10000 });
  assert.match(await alice.locator('#result').textContent(), /agreement/);
  await shot(alice, 'online-shako-draw');
  assert.deepEqual([alice.errors, bob.errors], [[], []]);
  await alice.context().close();
  await bob.context().close();
});

test('a reload in the middle of a game restores it', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.base}/?variant=joko-urtaroak&seed=1`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.locator('#v-joko-urtaroak').check();
  const kinds = page.locator('[data-seat-kind]');
  await kinds.nth(0).selectOption('human');
  for (let i = 1; i < 4; i++) { await kinds.nth(i).selectOption('bot'); await page.locator('[data-seat-level]').nth(i).selectOption('1'); }
  await Promise.all([page.waitForURL(/game/), page.locator('#create-btn').click()]);
  await page.waitForSelector('body[data-ready="1"]');
  const url = new URL(page.url());
  const id = url.searchParams.get('id');
  // Green's corner is a1: no turn needed
  assert.equal(await page.locator('#board svg').getAttribute('data-rotation'), '0');
  // turn the view once; the page remembers it
  await page.locator('#rotate').click();
  assert.equal(await page.locator('#board svg').getAttribute('data-rotation'), '1');

  await clickMove(page, 'b3', 'b5');
  const s = await waitFor(async () => {
    const x = await fetchState(server.base, id);
    return x.moves.length >= 4 && x.toMove === 'green' ? x : null;
  }, { timeout: 60000, what: 'the bots' });
  await waitV(page, s.v);
  // the bots' moves came over the socket as deltas, applied to the page's state
  const deltas = await page.evaluate(() => Number(document.getElementById('board').dataset.deltas || 0));
  assert.ok(deltas >= 3, `the page applied ${deltas} deltas`);
  const before = await page.evaluate(() => [...document.querySelectorAll('#board g.piece')].map((g) => `${g.dataset.square}:${g.dataset.seat}:${g.dataset.name}`).sort());
  const movesBefore = await page.locator('#moves td[data-ply]').count();
  const textBefore = await page.locator('#moves').textContent();

  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  await waitV(page, s.v);
  const after = await page.evaluate(() => [...document.querySelectorAll('#board g.piece')].map((g) => `${g.dataset.square}:${g.dataset.seat}:${g.dataset.name}`).sort());
  assert.deepEqual(after, before, 'the same position after the reload');
  assert.equal(await page.locator('#moves td[data-ply]').count(), movesBefore, 'the same move list');
  assert.equal(await page.locator('#moves').textContent(), textBefore, 'the same move list, word for word');
  assert.equal(await page.locator('#board svg').getAttribute('data-rotation'), '1', 'the same view');
  assert.equal(await page.locator('#board [data-hl="last"]').count(), 2, 'the last move still highlighted');
  assert.match(await page.locator('#status').textContent(), /your move/i, 'still this seat\'s turn and still its token');
  // and it goes on: another move after the reload
  const legal = Object.values(s.legal).flat().filter((m) => /^[a-p]\d+[a-p]\d+$/.test(m));
  const m = legal.find((x) => x.startsWith('a3')) || legal[0];
  const [, f, t] = m.match(/^([a-p]\d+)([a-p]\d+)/);
  await dragMove(page, f, t);
  await waitFor(async () => (await fetchState(server.base, id)).moves.some((x, i) => i >= s.moves.length && x.uci === m), { what: 'the move after the reload' });
  await shot(page, 'reload-joko');
  assert.equal(page.errors.length, 0, page.errors.join('; '));
  await page.context().close();
});

test('the page reconnects after the server is killed and restarted, with clocks', async () => {
  const created = await fetch(`${server.base}/api/game`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ variant: 'shako', seats: [{ kind: 'human' }, { kind: 'human' }], clock: { initialMs: 120000, incrementMs: 2000 } }),
  }).then((r) => r.json());
  const tok = Object.fromEntries(created.seats.map((s) => [s.seat, s.token]));
  const page = await browser.newPage();
  await page.goto(`${server.base}/game.html?id=${created.id}&seat=white&token=${tok.white}`);
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await page.locator('[data-clock="white"]').textContent(), '2:00');
  await clickMove(page, 'e3', 'e5');
  let s = await waitFor(async () => { const x = await fetchState(server.base, created.id); return x.moves.length === 1 ? x : null; });
  await waitV(page, s.v);
  // Black's clock runs now: the page counts it down
  const c1 = await page.locator('[data-clock="black"]').textContent();
  await page.waitForFunction((c) => document.querySelector('[data-clock="black"]').textContent !== c, c1, { timeout: 5000 });

  await server.crash();
  await page.waitForSelector('#banner:not([hidden])', { timeout: 10000 });
  assert.match(await page.locator('#banner').textContent(), /reconnecting/i);
  await server.start();
  await page.waitForFunction(() => document.getElementById('board').dataset.socket === 'open', null, { timeout: 20000 });
  await page.waitForSelector('#banner', { state: 'hidden', timeout: 10000 });
  assert.equal(await page.locator('#moves td[data-ply]').count(), 1, 'the move survived the crash');
  assert.equal(await page.locator('#board g.piece[data-square="e5"]').getAttribute('data-seat'), 'white');

  // the game goes on, and the reconnected socket brings Black's reply
  const r = await fetch(`${server.base}/api/game/${created.id}/move/e8e6`, { method: 'POST', headers: { Authorization: `Bearer ${tok.black}` } });
  assert.equal(r.status, 200);
  s = await fetchState(server.base, created.id);
  await waitV(page, s.v);
  assert.equal(await page.locator('#board g.piece[data-square="e6"]').getAttribute('data-seat'), 'black');
  assert.match(await page.locator('#status').textContent(), /your move/i);
  await shot(page, 'reconnect-shako-clock');
  assert.equal(page.errors.length, 0, page.errors.join('; '));
  await page.context().close();
});

test('the page\'s socket applies deltas, and a delta that does not fit is never shown: it asks for the full state', async () => {
  const created = await fetch(`${server.base}/api/game`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ variant: 'shako', seats: [{ kind: 'human' }, { kind: 'human' }] }),
  }).then((r) => r.json());
  const white = created.seats[0].token;
  const page = await browser.newPage();
  await page.goto(`${server.base}/rules.html`);
  const r = await page.evaluate(async ({ id, token }) => {
    const { GameSocket, api } = await import('/js/api.js');
    const seen = [];
    const sock = new GameSocket(id, null, { onState: (s) => seen.push(s) });
    const until = async (f) => { for (let i = 0; i < 200 && !f(); i++) await new Promise((ok) => setTimeout(ok, 50)); return f(); };
    await until(() => seen.length >= 1);
    await api.move(id, 'e3e4', token);
    await until(() => seen.some((s) => s.moves.length === 1));
    const afterMove = { deltas: sock.deltas, state: seen[seen.length - 1] };
    // A delta from a version this socket never had (as after a lost message).
    const count = seen.length;
    const v = sock.state.v;
    const bogus = { type: 'delta', from: v + 5, v: v + 6, pieces: [], append: [{ uci: 'a1a2', seat: 'white' }] };
    sock.ws.onmessage({ data: JSON.stringify({ t: 'delta', d: bogus, v: bogus.v }) });
    await until(() => seen.length > count);
    const full = await api.state(id);
    sock.close();
    return { afterMove, resynced: seen.slice(count), full };
  }, { id: created.id, token: white });
  assert.ok(r.afterMove.deltas >= 1, 'the move came as a delta');
  assert.deepEqual(r.afterMove.state.moves, r.full.moves, 'the state built from the delta has the server\'s record');
  assert.deepEqual(r.afterMove.state.pieces, r.full.pieces, 'and its pieces');
  assert.equal(r.resynced.length, 1, 'one state after the bad delta: the full state it asked for');
  assert.equal(r.resynced[0].v, r.full.v);
  assert.deepEqual(r.resynced[0].pieces, r.full.pieces, 'the bad delta was not applied');
  assert.deepEqual(r.resynced[0].moves, r.full.moves);
  assert.equal(page.errors.length, 0, page.errors.join('; '));
  await page.context().close();
});
