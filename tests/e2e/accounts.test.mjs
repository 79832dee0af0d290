// Two people with accounts, in two browser contexts: they sign up, play a
// rated game taken from the lobby, chat (shown as text, never as HTML), take
// back a move by agreement, and see their new ratings on their pages. A guest
// plays under a display name that the record carries.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, clickMove, fetchState, waitFor, shot, boardState } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

async function lobby(page) {
  await page.goto(`${server.base}/`);
  await page.waitForSelector('body[data-ready="1"]');
}

async function signUp(page, name) {
  await lobby(page);
  await page.locator('#account-open').click();
  await page.locator('#account-name').fill(name);
  await page.locator('#account-password').fill('correct horse battery');
  await Promise.all([page.waitForEvent('load'), page.locator('#account-signup').click()]);
  await page.waitForSelector('body[data-ready="1"]');
  await waitFor(async () => (await page.locator('#account-me').count()) === 1, { what: `${name} signed in` });
  assert.equal(await page.locator('#account-me').textContent(), name);
}

const moves = (id) => fetchState(server.base, id).then((s) => s.moves.length);

test('two accounts play a rated game, chat, take back a move by agreement and see their ratings', async () => {
  const alice = await browser.newPage();
  const bob = await browser.newPage();
  await signUp(alice, 'Alice');
  await signUp(bob, 'Bob');
  // The session cookie is HttpOnly: the page's script cannot read it.
  assert.equal(await alice.evaluate(() => document.cookie), '');

  // Alice creates a rated game of chess; it is listed with her name and rating.
  await alice.locator('[data-setup="chess"]').click();
  await alice.locator('[data-seat-kind="black"]').selectOption('human');
  await alice.locator('#rated').check();
  await alice.locator('#create-btn').click();
  await alice.waitForSelector('#waiting:not([hidden])');
  const id = await alice.locator('[data-waiting-game]').getAttribute('data-waiting-game');

  await lobby(bob);
  const listing = bob.locator(`[data-open-game="${id}"]`);
  await listing.waitFor({ timeout: 10000 });
  assert.match(await listing.textContent(), /Alice \(1500\?\)/);
  assert.equal(await listing.locator('[data-rated]').count(), 1);
  await shot(bob, 'accounts-lobby-rated');
  await Promise.all([bob.waitForURL(/game/), bob.locator(`[data-take="${id}:black"]`).click()]);
  await alice.waitForURL(/game/, { timeout: 10000 });
  for (const page of [alice, bob]) {
    await page.waitForSelector('body[data-ready="1"]');
    await page.waitForSelector('.seat[data-seat="white"] [data-player="Alice"]');
    await page.waitForSelector('.seat[data-seat="black"] [data-player="Bob"]');
    assert.match(await page.locator('.seat[data-seat="black"]').textContent(), /Bob \(1500\?\)/);
  }

  // Chat between the players: text only.
  await alice.locator('#chat-input').fill('good luck <b>bold</b>');
  await alice.locator('#chat-send').click();
  const line = bob.locator('#chat-lines .chat-line');
  await line.first().waitFor({ timeout: 10000 });
  assert.equal(await line.first().textContent(), 'Alice: good luck <b>bold</b>');
  assert.equal(await bob.locator('#chat-lines b:not([class])').count(), 0, 'no element made from the text');
  // A watcher (a third browser, no account) sees the watchers' room, not the players' one.
  const watcher = await browser.newPage();
  await watcher.goto(`${server.base}/game.html?id=${id}`);
  await watcher.waitForSelector('#chat-card:not([hidden])');
  assert.equal(await watcher.locator('#chat-lines .chat-line').count(), 0);
  assert.equal(await watcher.locator('#chat-input').isDisabled(), true, 'a watcher signs in to talk');
  await watcher.context().close();

  // A takeback by agreement: Bob asks for his reply back, Alice allows it.
  await alice.waitForSelector('#board [data-sq="f2"]');
  await clickMove(alice, 'f2', 'f3');
  await waitFor(async () => (await boardState(bob)).toMove === 'black', { what: 'bob sees white moved' });
  await clickMove(bob, 'e7', 'e5');
  await waitFor(async () => (await moves(id)) === 2, { what: 'both moves stored' });
  await waitFor(async () => (await boardState(alice)).toMove === 'white', { what: 'alice sees black moved' });
  await bob.locator('#takeback').click();
  await alice.waitForSelector('#takeback-accept', { timeout: 10000 });
  await shot(alice, 'accounts-takeback-asked');
  await alice.locator('#takeback-accept').click();
  await waitFor(async () => (await moves(id)) === 1, { what: 'the reply taken back' });
  await waitFor(async () => (await boardState(bob)).toMove === 'black', { what: 'bob to move again' });

  // Fool's mate: Alice (White) loses.
  await clickMove(bob, 'e7', 'e5');
  await waitFor(async () => (await boardState(alice)).toMove === 'white', { what: 'alice to move' });
  await clickMove(alice, 'g2', 'g4');
  await waitFor(async () => (await boardState(bob)).toMove === 'black', { what: 'bob to move' });
  await clickMove(bob, 'd8', 'h4');
  await waitFor(async () => (await fetchState(server.base, id)).status === 'finished', { what: 'the game over' });
  const end = await fetchState(server.base, id);
  assert.equal(end.result.winner, 'black');

  // Their pages show the new ratings.
  await alice.goto(`${server.base}/player.html?name=Alice`);
  await alice.waitForSelector('[data-rating-variant="chess"] [data-rating]');
  const aliceRating = Number(await alice.locator('[data-rating-variant="chess"] [data-rating]').getAttribute('data-rating'));
  assert.ok(aliceRating < 1500, `Alice lost: ${aliceRating}`);
  assert.equal(await alice.locator(`[data-game="${id}"]`).count(), 1, 'the game is on her page');
  await bob.locator('#account-me').click();
  await bob.waitForURL(/player\.html\?name=Bob/);
  await bob.waitForSelector('[data-rating-variant="chess"] [data-rating]');
  const bobRating = Number(await bob.locator('[data-rating-variant="chess"] [data-rating]').getAttribute('data-rating'));
  assert.ok(bobRating > 1500, `Bob won: ${bobRating}`);
  assert.match(await bob.locator(`[data-game="${id}"]`).textContent(), /won/);
  await shot(bob, 'accounts-player-page');

  // The record names them.
  const pgn = await (await fetch(`${server.base}/api/game/${id}/pgn`)).text();
  assert.match(pgn, /\[White "Alice"\]/);
  assert.match(pgn, /\[Black "Bob"\]/);
  assert.deepEqual([alice.errors, bob.errors], [[], []]);
  await alice.context().close();
  await bob.context().close();
});

test('a guest plays under a display name, and may hide the chat', async () => {
  const page = await browser.newPage();
  await lobby(page);
  await page.locator('#account-open').click();
  await page.locator('#guest-name').fill('Guesty');
  await page.locator('#guest-name').press('Tab');
  await waitFor(async () => /Guesty/.test(await page.locator('#guest-note').textContent()), { what: 'the guest name kept' });
  await page.locator('#account-open').click();  // closes the menu
  await page.locator('[data-setup="chess"]').click();
  await page.locator('[data-seat-kind="black"]').selectOption('bot');
  await Promise.all([page.waitForURL(/game/), page.locator('#create-btn').click()]);
  await page.waitForSelector('body[data-ready="1"]');
  const id = new URL(page.url()).searchParams.get('id');
  await page.waitForSelector('.seat[data-seat="white"] [data-player="Guesty"]');
  const st = await fetchState(server.base, id);
  assert.equal(st.seats[0].name, 'Guesty');
  assert.equal(st.seats[0].account, false);
  const pgn = await (await fetch(`${server.base}/api/game/${id}/pgn`)).text();
  assert.match(pgn, /\[White "Guesty"\]/);

  await page.waitForSelector('#chat-body:not([hidden])');
  await page.locator('#chat-toggle').click();
  await page.waitForSelector('#chat-body', { state: 'hidden' });
  await page.reload();
  await page.waitForSelector('#chat-card:not([hidden])');
  assert.equal(await page.locator('#chat-body').isHidden(), true, 'still hidden after a reload');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
