// The lobby as a catalogue and a place to find opponents: the groups and
// cards drawn from GET /api/variants, one click against the computer in a
// catalogue game, a game listed publicly whose free seat a second browser
// takes, and the games being played as live miniatures.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, shot, waitFor, fetchState, clickMove, boardState, outDir } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

async function lobby(page) {
  await page.goto(`${server.base}/`);
  await page.waitForSelector('body[data-ready="1"]');
}

// Creates a two-player game listed publicly from the lobby's form (White for
// the creator, Black free) and waits for the waiting panel; returns its id.
async function createListed(page, variant) {
  await lobby(page);
  await page.locator(`[data-setup="${variant}"]`).click();
  await page.locator('[data-seat-kind="black"]').selectOption('human');
  await page.locator('#listed').check();
  await page.locator('#create-btn').click();
  await page.waitForSelector('#waiting:not([hidden])');
  return page.locator('[data-waiting-game]').getAttribute('data-waiting-game');
}

test('the lobby shows every game the server plays as a card in its group', async () => {
  const variants = await (await fetch(`${server.base}/api/variants`)).json();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await lobby(page);
  const groups = await page.locator('#catalogue-groups [data-group]').evaluateAll((els) => els.map((e) => e.dataset.group));
  assert.deepEqual(groups, [...new Set(variants.map((v) => v.group))], 'the groups in the catalogue order');
  assert.deepEqual(groups.slice(0, 3), ['alfonso', 'chess', 'family']);
  for (const v of variants) {
    const card = page.locator(`[data-group="${v.group}"] .cat-card[data-variant="${v.name}"]`);
    assert.equal(await card.count(), 1, v.name);
    assert.equal(await card.locator('.mini-board .mini-piece').count(), v.startPieces.length, `${v.name}: the start drawn`);
    assert.ok((await card.locator('.cat-desc').textContent()).length > 10, `${v.name}: a line about it`);
    assert.match(await card.locator('.cat-meta').textContent(), new RegExp(`^${v.players} `));
    assert.equal(await card.locator(`[data-rules="${v.name}"]`).getAttribute('href'), `/rules/${v.name}`);
    assert.equal(await card.locator(`[data-quick="${v.name}"]`).count(), 1);
  }
  // The blocked centre of Joko Urtaroak and the points of xiangqi are drawn.
  assert.equal(await page.locator('[data-variant="joko-urtaroak"] .mini-sq.blocked').count(), 16);
  // xiangqi on points as on the game page: 10 ranks, the edge files whole, the
  // 7 inner files stopped by the river (14), the palaces' diagonals (4); janggi
  // without a river; shogi on squares of one colour.
  assert.equal(await page.locator('[data-variant="xiangqi"] .mini-line').count(), 30);
  assert.equal(await page.locator('[data-variant="xiangqi"] .mini-palace').count(), 4);
  assert.equal(await page.locator('[data-variant="janggi"] .mini-line').count(), 23);
  assert.equal(await page.locator('[data-variant="shogi"] .mini-sq.dark').count(), 0);
  assert.equal(await page.locator('[data-variant="chess"] .mini-sq.dark').count(), 32);
  await page.locator('#catalogue').screenshot({ path: `${outDir}/lobby-catalogue.png` });
  // "Set up a game" chooses the game in the form.
  await page.locator('[data-setup="makruk"]').click();
  await waitFor(() => page.locator('#v-makruk').isChecked(), { what: 'makruk chosen' });
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});

test('the lobby in German describes the games in German', async () => {
  const page = await browser.newPage({ locale: 'de-DE' });
  await lobby(page);
  assert.equal(await page.locator('[data-group="family"] h2').textContent(), 'Die Familie des Schachs');
  assert.match(await page.locator('[data-variant="shogi"] .cat-desc').textContent(), /Japanisches Schach/);
  assert.equal(await page.locator('[data-quick="chess"]').textContent(), 'Gegen den Computer');
  await page.context().close();
});

// Issue 40: the header linked the rules of four games only, and in German
// said "Vier Jahreszeiten" while the card kept the English title. The header
// links every game's rules page in the catalogue's groups, under the title
// its card has, in each language.
test('the lobby header links every game\'s rules, titled as the cards, in each language', async () => {
  const variants = await (await fetch(`${server.base}/api/variants`)).json();
  const expect = { 'de-DE': ['Vier Jahreszeiten', 'Schach'], 'es-ES': ['Las Cuatro Estaciones', 'Ajedrez'], 'fr-FR': ['Les Quatre Saisons', 'Échecs'], 'en-US': ['Four Seasons Chess', 'Chess'] };
  for (const [locale, [seasons, chess]] of Object.entries(expect)) {
    const page = await browser.newPage({ locale });
    await lobby(page);
    const links = await page.locator('header.top nav a[data-game]').evaluateAll((els) => els.map((e) => [e.dataset.game, e.getAttribute('href'), e.textContent]));
    assert.deepEqual(links.map((l) => l[0]).sort(), variants.map((v) => v.name).sort(), `${locale}: every game in the header`);
    for (const [name, href, text] of links) {
      assert.equal(href, `/rules/${name}`);
      assert.equal(text, (await page.locator(`.cat-card[data-variant="${name}"] h3`).textContent()), `${locale}: ${name} titled as its card`);
    }
    assert.equal(await page.locator('.cat-card[data-variant="four-seasons"] h3').textContent(), seasons);
    assert.equal(await page.locator('.cat-card[data-variant="chess"] h3').textContent(), chess);
    // the rules page and the game's own page say the same title
    await page.goto(`${server.base}/rules/four-seasons`);
    await page.waitForSelector('#rules h1');
    assert.equal(await page.locator('#rules h1').textContent(), seasons);
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
    await page.context().close();
  }
});

test('one click plays the computer in shatranj', async () => {
  const page = await browser.newPage();
  await lobby(page);
  await Promise.all([page.waitForURL(/game/), page.locator('[data-quick="shatranj"]').click()]);
  await page.waitForSelector('#board [data-sq="e2"]');
  const id = new URL(page.url()).searchParams.get('id');
  const st = await fetchState(server.base, id);
  assert.equal(st.variant, 'shatranj');
  assert.deepEqual(st.seats.map((s) => s.kind), ['human', 'bot']);
  await waitFor(async () => (await boardState(page)).toMove === 'white', { what: 'white to move' });
  await clickMove(page, 'e2', 'e3');
  await waitFor(async () => (await fetchState(server.base, id)).moves.length >= 2, { what: 'the bot replies' });
  await shot(page, 'lobby-quick-shatranj');
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});

test('one click creates a xiangqi game against the computer', async () => {
  const page = await browser.newPage();
  await lobby(page);
  await Promise.all([page.waitForURL(/game/), page.locator('[data-quick="xiangqi"]').click()]);
  const id = new URL(page.url()).searchParams.get('id');
  const st = await fetchState(server.base, id);
  assert.equal(st.variant, 'xiangqi');
  assert.equal(st.seats[1].kind, 'bot');
  await page.context().close();
});

test('a game listed publicly: a second browser takes the free seat, and no token is shown', async () => {
  const alice = await browser.newPage();
  const id = await createListed(alice, 'chess');
  const aliceToken = await alice.evaluate((gid) => JSON.parse(localStorage.getItem(`acedrex.tokens.${gid}`)).white, id);
  assert.ok(aliceToken);

  const bob = await browser.newPage();  // a new context: another person
  await lobby(bob);
  const take = bob.locator(`[data-take="${id}:black"]`);
  await take.waitFor({ timeout: 10000 });
  assert.match(await bob.locator(`[data-open-game="${id}"]`).textContent(), /Chess/);
  await shot(bob, 'lobby-open-games');
  // Alice's own game is not offered to her.
  await waitFor(() => alice.locator(`[data-open-game="${id}"]`).count(), { what: 'alice sees her listing' });
  assert.equal(await alice.locator(`[data-take="${id}:black"]`).count(), 0);
  assert.equal(await alice.locator(`[data-mine="${id}"]`).count(), 1, 'her own listing leads back to her waiting panel');

  const listing = await (await fetch(`${server.base}/api/games?status=open`)).text();
  assert.ok(!listing.includes(aliceToken), 'the listing has no token');

  await Promise.all([bob.waitForURL(/game/), take.click()]);
  // Alice's waiting panel takes her to the game once the seat is taken.
  await alice.waitForURL(/game/, { timeout: 10000 });
  const bobToken = await bob.evaluate((gid) => JSON.parse(localStorage.getItem(`acedrex.tokens.${gid}`)).black, id);
  assert.ok(bobToken && bobToken !== aliceToken);
  const st = await fetchState(server.base, id);
  assert.equal(st.seats.filter((s) => s.open).length, 0);
  const all = JSON.stringify(st) + await (await fetch(`${server.base}/api/games?status=all`)).text();
  assert.ok(!all.includes(aliceToken) && !all.includes(bobToken), 'no token in the state or the lists');

  await alice.waitForSelector('#board [data-sq="e2"]');
  await clickMove(alice, 'e2', 'e4');
  await waitFor(async () => (await boardState(bob)).toMove === 'black', { what: 'bob sees white moved' });
  await clickMove(bob, 'e7', 'e5');
  await waitFor(async () => (await fetchState(server.base, id)).moves.length === 2, { what: 'both moves stored' });
  assert.equal(alice.errors.length + bob.errors.length, 0, [...alice.errors, ...bob.errors].join('\n'));
  await alice.context().close();
  await bob.context().close();
});

test('the games being played are live miniatures', async () => {
  const res = await fetch(`${server.base}/api/game`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ variant: 'chess', seats: [{ kind: 'human' }, { kind: 'bot', level: 1 }] }),
  });
  const created = await res.json();
  const id = created.id;
  const page = await browser.newPage();
  await lobby(page);
  const mini = page.locator(`[data-live="${id}"]`);
  await mini.waitFor({ timeout: 20000 });
  await waitFor(async () => (await mini.locator('.mini-piece').count()) === 32, { what: 'the miniature drawn' });
  assert.equal(await mini.getAttribute('data-plies'), '0');
  assert.match(await mini.getAttribute('href'), new RegExp(`id=${id}`));
  const move = await fetch(`${server.base}/api/game/${id}/move/e2e4`, { method: 'POST', headers: { Authorization: `Bearer ${created.seats[0].token}` } });
  assert.equal(move.status, 200);
  // The socket brings the move and the bot's reply to the miniature.
  await waitFor(async () => Number(await mini.getAttribute('data-plies')) >= 2, { what: 'the miniature follows the game' });
  assert.equal(await mini.locator('.mini-piece[data-sq="e4"]').count(), 1);
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await page.context().close();
});

test('the creator of a listed game can cancel it while waiting', async () => {
  const page = await browser.newPage();
  const id = await createListed(page, 'shatranj');
  await waitFor(async () => /1/.test(await page.locator('#waiting-status').textContent()), { what: 'one free seat said' });
  await page.locator(`[data-cancel="${id}"]`).click();
  await page.waitForSelector('#waiting', { state: 'hidden' });
  assert.equal((await fetchState(server.base, id)).status, 'finished');
  const open = await (await fetch(`${server.base}/api/games?status=open`)).json();
  assert.ok(!open.some((g) => g.id === id), 'no longer listed');
  await page.context().close();
});

test('the rules pages draw xiangqi and janggi on points and shogi on plain squares, as the game page does', async () => {
  const page = await browser.newPage();
  for (const [name, river] of [['xiangqi', true], ['janggi', false]]) {
    await page.goto(`${server.base}/rules/${name}`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.waitForSelector('.piece-card .diagram svg');
    const d = page.locator('.piece-card .diagram svg').first();
    assert.equal(await d.evaluate((e) => e.classList.contains('points')), true, `${name}: on points`);
    assert.equal(await d.locator('.line.palace').count(), 4, `${name}: the palaces' diagonals`);
    assert.equal(await d.locator('[data-river]').count(), river ? 1 : 0, `${name}: the river`);
    // the family's traditional set: characters, not our glyphs
    assert.match(await page.locator('.piece-card .diagram .piece').first().textContent(), /[\u4e00-\u9fff\uac00-\ud7af]/, `${name}: characters`);
    await page.locator('.piece-card').first().screenshot({ path: `${outDir}/rules-${name}-diagram.png` });
  }
  await page.goto(`${server.base}/rules/shogi`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('.piece-card .diagram svg');
  const d = page.locator('.piece-card .diagram svg').first();
  assert.equal(await d.locator('.sq.plain').count(), 81, 'shogi: plain squares');
  assert.equal(await d.locator('.sq.dark').count(), 0);
  await page.locator('.piece-card').first().screenshot({ path: `${outDir}/rules-shogi-diagram.png` });
  assert.equal(page.errors.length, 0, page.errors.join('; '));
  await page.context().close();
});
