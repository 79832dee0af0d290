// The game page's buttons in a fog-of-war game against a bot, as the server
// allows them: no "Take back" (not even after a move), the header's "Download
// the record" inactive until the end (the server answers 403 before), a draw
// offer and resigning as in every game; after the end the record downloads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, fetchState, waitFor, clickMove } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('fog of war: no take back, the record closed until the end', async () => {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify({ variant: 'fog-of-war', seats: [{ kind: 'human' }, { kind: 'bot', level: 1 }] }) });
  const g = await r.json();
  const token = g.seats[0].token;
  const page = await browser.newPage();
  await page.goto(`${server.base}/game.html?id=${g.id}&token=${token}`);
  await page.waitForSelector('body[data-ready="1"]');
  await clickMove(page, 'e2', 'e4');
  const st = await waitFor(async () => { const x = await fetchState(server.base, g.id, token); return x.moves.length >= 2 ? x : null; }, { what: 'the bot replies' });
  await waitFor(async () => Number(await page.locator('#board').getAttribute('data-v')) >= st.v, { what: 'the reply shown' });
  assert.equal(await page.locator('#takeback').count(), 0, 'no take back in fog of war');
  assert.equal(await page.locator('#resign').count(), 1);
  assert.equal(await page.locator('#draw-offer').count(), 1, 'a draw may be offered (the bot declines)');
  const link = page.locator('#pgn-link');
  assert.equal(await link.getAttribute('aria-disabled'), '');
  assert.equal(await link.getAttribute('href'), null, 'no link to a record the server keeps closed');
  assert.match(await link.getAttribute('title'), /once the game is over/);
  assert.equal((await fetch(`${server.base}/api/game/${g.id}/pgn`, { headers: { Authorization: `Bearer ${token}` } })).status, 403);
  // the end opens the record
  await page.locator('#resign').click();
  await page.locator('#resign').click();
  await waitFor(async () => (await page.locator('#board').getAttribute('data-status')) === 'finished', { what: 'the end' });
  assert.equal(await link.getAttribute('aria-disabled'), null);
  const href = await link.getAttribute('href');
  assert.ok(href, 'the record link is back');
  assert.equal((await fetch(new URL(href, server.base))).status, 200);
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});
