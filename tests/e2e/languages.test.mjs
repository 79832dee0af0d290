// The page in English, Spanish, German and French: every catalogue has every
// key (and the same {placeholders}), every key the pages use exists, and the
// lobby comes up in each language from the browser's, switchable and remembered.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch, outDir } from './lib.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const LANGS = ['en', 'es', 'de', 'fr'];
const cat = Object.fromEntries(LANGS.map((l) => [l, JSON.parse(fs.readFileSync(path.join(web, 'i18n', `${l}.json`), 'utf8'))]));
const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');

test('every catalogue has every key, with the same placeholders, and no empty text', () => {
  const keys = Object.keys(cat.en).sort();
  for (const l of LANGS) {
    assert.deepEqual(Object.keys(cat[l]).sort(), keys, `${l}.json has the keys of en.json`);
    for (const k of keys) {
      assert.ok(cat[l][k].trim().length > 0, `${l}: ${k} is empty`);
      assert.equal(holes(cat[l][k]), holes(cat.en[k]), `${l}: ${k} has the placeholders of English`);
    }
  }
});

test('every key the pages use is in the catalogues', () => {
  const used = new Set();
  for (const dir of ['js', '.']) {
    for (const f of fs.readdirSync(path.join(web, dir)).filter((x) => /\.(js|html)$/.test(x) && x !== 'i18n.js')) {
      const text = fs.readFileSync(path.join(web, dir, f), 'utf8');
      for (const m of text.matchAll(/\bt\('([\w.-]+)'/g)) used.add(m[1]);
      for (const m of text.matchAll(/data-i18n(?:-title|-placeholder|-aria)?="([\w.-]+)"/g)) used.add(m[1]);
    }
  }
  // names built at run time: seats, pieces (every glyph), the result's reasons
  for (const s of ['green', 'red', 'black', 'white']) used.add(`seat.${s}`);
  const pieces = fs.readFileSync(path.join(web, 'js', 'pieces.js'), 'utf8');
  for (const m of pieces.matchAll(/^ {2}'?([a-z-]+)'?: \{/gm)) used.add(`piece.${m[1]}`);
  // the options the server sends for our four games
  for (const [v, names] of Object.entries({ 'four-seasons': ['takeover', 'bare-king', 'die'], 'grant-acedrex': ['king-leap', 'pawn-double', 'giraffe', 'rhino', 'lion', 'stalemate', 'die'] })) {
    for (const n of names) { used.add(`option.${n}`); used.add(`opthelp.${v}.${n}`); }
  }
  for (const r of ['checkmate', 'king-captured', 'stalemate', 'bare-king', 'resign', 'timeout', 'repetition', 'fifty-moves', 'only-kings', 'agreement', 'aborted']) used.add(`reason.${r}`);
  assert.ok(used.size > 150, `found ${used.size} keys`);
  const missing = [...used].filter((k) => !(k in cat.en));
  assert.deepEqual(missing, [], 'keys used but not in en.json');
});

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

const LOCALES = { en: 'en-GB', es: 'es-ES', de: 'de-DE', fr: 'fr-FR' };
for (const l of LANGS) {
  test(`the lobby in ${l} from the browser's language`, async () => {
    const page = await browser.newPage({ locale: LOCALES[l] });
    await page.goto(`${server.base}/?variant=four-seasons`);
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await page.evaluate(() => document.documentElement.lang), l);
    assert.equal(await page.locator('h1[data-i18n="lobby.newGame"]').textContent(), cat[l]['lobby.newGame']);
    assert.equal(await page.locator('[data-i18n="lobby.quickTitle"]').textContent(), cat[l]['lobby.quickTitle']);
    assert.equal(await page.locator('#create-btn').textContent(), cat[l]['lobby.create']);
    assert.equal(await page.locator('[data-seat-kind] option[value="bot"]').first().textContent(), cat[l]['lobby.bot']);
    assert.equal(await page.locator('.seatplan .seat .name').first().textContent(), cat[l]['seat.green'], 'Four Seasons: Green first');
    assert.equal(await page.title(), cat[l]['title.lobby']);
    assert.equal(await page.locator('label[for="opt-takeover"]').textContent(), cat[l]['option.takeover']);
    assert.equal(await page.locator('#opt-die option[value="on"]').textContent(), cat[l]['optval.on']);
    assert.equal(await page.locator('#opt-takeover + .help').textContent(), cat[l]['opthelp.four-seasons.takeover']);
    assert.equal(await page.locator('#lang').inputValue(), l);
    await page.screenshot({ path: `${outDir}/lobby-${l}.png` });
    assert.equal(page.errors.length, 0, page.errors.join('; '));
    await page.context().close();
  });
}

test('the language can be switched, and the choice is remembered on every page', async () => {
  const page = await browser.newPage({ locale: 'en-US' });
  await page.goto(`${server.base}/`);
  await page.waitForSelector('body[data-ready="1"]');
  await Promise.all([page.waitForEvent('load'), page.locator('#lang').selectOption('de')]);
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await page.locator('#create-btn').textContent(), cat.de['lobby.create']);
  await Promise.all([page.waitForURL(/game/), page.locator('[data-quick="shako"]').click()]);
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal((await page.locator('#status').textContent()).trim(), cat.de['status.yourMove']);
  assert.equal(await page.locator('#resign').textContent(), cat.de['ctl.resign']);
  await page.goto(`${server.base}/rules/shako`);
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await page.locator('.legend .m').textContent(), cat.de['rules.legendMove']);
  assert.equal(await page.locator('[data-prose-note]').count(), 0, 'the rules are written in German: no notice');
  const de = JSON.parse(fs.readFileSync(path.join(web, 'rules', 'de', 'shako.json'), 'utf8'));
  assert.equal(await page.locator('[data-section="setup"] h2').textContent(), de.sections[0].title);
  await page.context().close();
});
