// Piece sets and board themes of the chess-like games: the settings offer our
// glyphs or the tokens (a disc with the sign of the piece's move) and four
// board colours; the choice is drawn at once, kept in localStorage over a
// reload, and followed by other chess-like games and the rules diagrams.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, waitFor, sq } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

async function create(variant) {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', body: JSON.stringify({ variant, seats: [{ kind: 'human' }, { kind: 'human' }] }) });
  assert.equal(r.status, 201, `create ${variant}`);
  return r.json();
}
async function openGame(page, id) {
  await page.goto(`${server.base}/game.html?id=${id}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('#board .piece');
}
const fill = (page, square) => sq(page, square).evaluate((e) => getComputedStyle(e).fill);
const tokens = (page) => page.locator('#board .piece [data-set="tokens"]').count();

test('chess: the tokens set and the green board, drawn at once and remembered', async () => {
  const g = await create('chess');
  const page = await browser.newPage();
  await openGame(page, g.id);
  // by default our glyphs on wood
  assert.equal(await tokens(page), 0);
  assert.equal(await page.locator('#board .piece[data-square="e1"] g.glyph').count(), 1);
  assert.equal(await fill(page, 'a1'), 'rgb(184, 138, 92)');
  assert.equal(await fill(page, 'h1'), 'rgb(238, 223, 194)');
  const kingBefore = await page.locator('#board .piece[data-square="e1"]').innerHTML();

  await page.locator('#settings summary').click();
  await page.locator('#pref-pieceSet\\.chess').selectOption('tokens');
  await waitFor(async () => (await tokens(page)) === 32, { what: '32 tokens' });
  assert.equal(await page.locator('#board .piece[data-square="e1"] [data-token="king"]').count(), 1);
  assert.equal(await page.locator('#board .piece[data-square="b8"] [data-token="knight"]').count(), 1);
  assert.equal(await page.locator('#board .piece[data-square="d1"] [data-token="queen"]').count(), 1);
  assert.notEqual(await page.locator('#board .piece[data-square="e1"]').innerHTML(), kingBefore);

  await page.locator('#pref-boardTheme').selectOption('green');
  await waitFor(async () => (await fill(page, 'a1')) === 'rgb(111, 154, 91)', { what: 'the green dark square' });
  assert.equal(await fill(page, 'h1'), 'rgb(233, 237, 211)');
  await page.locator('#pref-boardTheme').selectOption('blue');
  await waitFor(async () => (await fill(page, 'a1')) === 'rgb(124, 152, 179)', { what: 'the blue dark square' });

  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  await waitFor(async () => (await tokens(page)) === 32, { what: 'the tokens after the reload' });
  assert.equal(await fill(page, 'a1'), 'rgb(124, 152, 179)', 'the board theme is remembered');
  assert.equal(await page.locator('#pref-pieceSet\\.chess').inputValue(), 'tokens');
  assert.equal(await page.locator('#pref-boardTheme').inputValue(), 'blue');

  // another chess-like game follows the choice: Shako's elephants and cannons have their signs
  const s = await create('shako');
  await openGame(page, s.id);
  assert.equal(await page.locator('#board .piece [data-token="elephant"]').count(), 4);
  assert.equal(await page.locator('#board .piece [data-token="cannon"]').count(), 4);
  assert.equal(await page.locator('#board .piece [data-set="tokens"]').count(), await page.locator('#board .piece').count());
  assert.equal(await fill(page, 'a1'), 'rgb(124, 152, 179)');
  // and the rules diagrams
  await page.goto(`${server.base}/rules.html?variant=chess`);
  await waitFor(async () => (await page.locator('[data-set="tokens"]').count()) > 0, { what: 'tokens in the rules diagrams' });

  // back to our glyphs and wood
  await openGame(page, g.id);
  await page.locator('#settings summary').click();
  await page.locator('#pref-pieceSet\\.chess').selectOption('acedrex');
  await page.locator('#pref-boardTheme').selectOption('wood');
  await waitFor(async () => (await tokens(page)) === 0, { what: 'our glyphs again' });
  assert.equal(await fill(page, 'a1'), 'rgb(184, 138, 92)');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('xiangqi keeps its own sets and offers no board colours', async () => {
  const g = await create('xiangqi');
  const page = await browser.newPage();
  await openGame(page, g.id);
  await page.locator('#settings summary').click();
  assert.equal(await page.locator('#pref-boardTheme').count(), 0);
  assert.deepEqual(await page.locator('#pref-pieceSet\\.xiangqi option').evaluateAll((o) => o.map((x) => x.value)), ['traditional', 'international']);
  await page.context().close();
});
