// A listed game waiting for its free seat, on the game page: the creator's
// page says it waits, names the free seat and gives the invite link, and lets
// no move be tried; a visitor following the link takes the seat from the page;
// then the game starts on both pages. Screenshot: waiting-creator.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, fetchState, waitFor, clickMove, sq, shot } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('the game page of a listed game waits for its free seat, which a visitor takes', async () => {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify({ variant: 'chess', seats: [{ kind: 'human' }, { kind: 'human', open: true }] }) });
  const g = await r.json();
  assert.equal(r.status, 201, JSON.stringify(g));
  const creator = await browser.newPage();
  await creator.goto(`${server.base}/game.html?id=${g.id}&token=${g.seats[0].token}`);
  await creator.waitForSelector('body[data-ready="1"]');
  await creator.waitForSelector('#wait-card:not([hidden])');
  assert.match(await creator.locator('#status').innerText(), /Waiting for players: Black still free/);
  assert.deepEqual(await creator.locator('[data-wait-seat]').evaluateAll((els) => els.map((e) => e.dataset.waitSeat)), ['black']);
  assert.equal(await creator.locator('[data-wait-take]').count(), 0, 'the creator holds a seat: nothing to take');
  assert.match(await creator.locator('#seats [data-seat="black"]').innerText(), /\(free\)/);
  const link = await creator.locator('[data-wait-invite]').inputValue();
  assert.equal(link, `${server.base}/game.html?id=${g.id}`);
  // White may not move yet: clicking a pawn offers no move (and no server error is shown).
  await sq(creator, 'e2').click();
  assert.equal(await creator.locator('#board [data-dest]').count(), 0);
  assert.equal(await creator.locator('#banner').isHidden(), true);
  await shot(creator, 'waiting-creator');

  // A visitor follows the link, sees the free seat and takes it from the page.
  const visitor = await browser.newPage({ locale: 'de-DE' });
  await visitor.goto(link);
  await visitor.waitForSelector('body[data-ready="1"]');
  await visitor.waitForSelector('#wait-card:not([hidden])');
  assert.match(await visitor.locator('#status').innerText(), /Warten auf Mitspieler: Schwarz noch frei/);
  await Promise.all([visitor.waitForNavigation(), visitor.locator('[data-wait-take="black"]').click()]);
  await visitor.waitForSelector('body[data-ready="1"]');
  const st = await fetchState(server.base, g.id);
  assert.equal(st.seats.find((s) => s.seat === 'black').open, false, 'the seat is taken');
  assert.equal(await visitor.locator('#wait-card').isHidden(), true);

  // The creator's page drops the notice and White moves; Black's page gets its turn.
  await creator.waitForSelector('#wait-card', { state: 'hidden' });
  await clickMove(creator, 'e2', 'e4');
  await waitFor(async () => (await visitor.locator('#board').getAttribute('data-to-move')) === 'black', { what: 'black to move on the visitor page' });
  await clickMove(visitor, 'e7', 'e5');
  await waitFor(async () => (await fetchState(server.base, g.id)).moves.length === 2, { what: 'both moves' });
  for (const page of [creator, visitor]) assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await creator.context().close();
  await visitor.context().close();
});
