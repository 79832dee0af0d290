// The rules pages' prose (web/rules/<lang>/<variant>.json): every game the
// server plays has its text in English, Spanish, German and French, with the
// same sections, a text for each of its pieces and options, and the same
// <code> fragments (option values are not translated); and the pages show the
// prose in the page's language.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch, outDir } from './lib.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const LANGS = ['en', 'es', 'de', 'fr'];
const read = (l, name) => {
  const f = path.join(web, 'rules', l, `${name}.json`);
  return fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : null;
};
const codes = (html) => [...String(html).matchAll(/<code>(.*?)<\/code>/g)].map((m) => m[1]).sort();
const plain = (html) => String(html).replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();

let server, browser, variants;
before(async () => {
  server = await startServer({ args: ['--max-requests-per-second', '0'] });  // five pages in four languages, each with its diagrams: over the default rate
  variants = await (await fetch(`${server.base}/api/variants`)).json();
});
after(async () => { await browser?.close(); await server?.stop(); });

test('every game the server plays has its rules in every language, with the same sections', () => {
  assert.ok(variants.length >= 22, `the server plays ${variants.length} games`);
  const common = Object.fromEntries(LANGS.map((l) => [l, read(l, 'common')]));
  for (const l of LANGS) assert.ok(common[l]?.pieces, `web/rules/${l}/common.json`);
  const problems = [];
  for (const v of variants) {
    const en = read('en', v.name);
    if (!en) { problems.push(`en/${v.name}.json missing`); continue; }
    const ids = en.sections.map((s) => s.id);
    for (const want of ['setup', 'rules', 'end']) if (!ids.includes(want)) problems.push(`en/${v.name}: no "${want}" section`);
    for (const l of LANGS) {
      const g = read(l, v.name);
      if (!g) { problems.push(`${l}/${v.name}.json missing`); continue; }
      if (!plain(g.intro)) problems.push(`${l}/${v.name}: no intro`);
      assert.deepEqual(g.sections.map((s) => s.id), ids, `${l}/${v.name}: the sections of English, in its order`);
      for (const s of g.sections) {
        if (!plain(s.title) || !plain(s.html)) problems.push(`${l}/${v.name}: section ${s.id} empty`);
      }
      for (const [i, s] of g.sections.entries()) {
        assert.deepEqual(codes(s.html), codes(en.sections[i].html), `${l}/${v.name}: section ${s.id} keeps the <code> of English`);
      }
      assert.deepEqual(codes(g.intro), codes(en.intro), `${l}/${v.name}: intro's <code>`);
      assert.deepEqual(Object.keys(g.pieces || {}).sort(), Object.keys(en.pieces || {}).sort(), `${l}/${v.name}: the pieces English describes`);
      assert.deepEqual(Object.keys(g.names || {}).sort(), Object.keys(en.names || {}).sort(), `${l}/${v.name}: the pieces English names`);
      for (const p of Object.keys(g.names || {})) if (!(v.pieces || []).some((x) => x.name === p)) problems.push(`${l}/${v.name}: names a ${p}, not a piece of the game`);
      for (const p of v.pieces || []) {
        if (!(g.pieces?.[p.name] || common[l].pieces[p.name])) problems.push(`${l}/${v.name}: no text for the ${p.name}`);
      }
      for (const o of v.options || []) if (!g.options?.[o.name]) problems.push(`${l}/${v.name}: no text for option ${o.name}`);
    }
  }
  for (const l of LANGS) assert.deepEqual(Object.keys(common[l].pieces).sort(), Object.keys(common.en.pieces).sort(), `${l}/common.json: the pieces of English`);
  assert.deepEqual(problems, []);
});

// A word each language's prose uses and the others' do not.
const WORD = { en: /\b(the|and)\b/, es: /\b(el|los|las|del|y)\b/, de: /\b(der|die|das|und)\b/, fr: /\b(le|les|du|des|et)\b/ };
const NOT = { en: /\b(der|und|los|les)\b/, es: /\b(the|der|und|les)\b/, de: /\b(the|los|les|el)\b/, fr: /\b(the|der|und|los)\b/ };
const LOCALES = { en: 'en-GB', es: 'es-ES', de: 'de-DE', fr: 'fr-FR' };
const PAGES = ['chess', 'xiangqi', 'shogi', 'friendly-chess', 'four-player-chess'];

for (const l of LANGS) {
  test(`rules pages in ${l}: the prose is there, in that language`, async () => {
    browser ??= await launch();
    const page = await browser.newPage({ locale: LOCALES[l] });
    for (const name of PAGES) {
      const text = read(l, name);
      await page.goto(`${server.base}/rules/${name}`);
      await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
      assert.equal(await page.evaluate(() => document.documentElement.lang), l);
      assert.equal(await page.locator('[data-prose-note]').count(), 0, `${l}/${name}: no "not translated" notice`);
      const intro = plain(await page.locator('p.intro').textContent());
      assert.equal(intro, plain(text.intro), `${l}/${name}: the intro`);
      assert.match(intro, WORD[l], `${l}/${name}: the intro is in ${l}`);
      assert.doesNotMatch(intro, NOT[l], `${l}/${name}: the intro is not in another language`);
      const sections = page.locator('[data-section]');
      assert.equal(await sections.count(), text.sections.length, `${l}/${name}: every section`);
      assert.equal((await sections.first().locator('h2').textContent()).trim(), text.sections[0].title);
      const pieceTexts = await page.locator('.piece-card .piece-text').allTextContents();
      assert.ok(pieceTexts.length >= 6 && pieceTexts.every((s) => s.trim().length > 10), `${l}/${name}: a text for every piece`);
      assert.match(pieceTexts.join(' '), WORD[l], `${l}/${name}: the pieces' texts are in ${l}`);
      assert.equal(await page.locator('.piece-card .diagram[data-count="0"]').count(), 0, `${l}/${name}: every piece's diagram shows where it goes`);
      if (name === 'four-player-chess') {
        assert.equal(await page.locator('[data-option-text="mode"]').textContent(), text.options.mode);
      }
    }
    await page.goto(`${server.base}/rules/xiangqi`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
    await page.locator('main').screenshot({ path: `${outDir}/rules-xiangqi-${l}.png` });
    assert.equal(page.errors.length, 0, page.errors.join('; '));
    await page.context().close();
  });
}

test('the rules page\'s navigation links every game the server plays, in the lobby\'s groups', async () => {
  browser ??= await launch();
  const page = await browser.newPage({ locale: 'fr-FR' });
  const cat = JSON.parse(fs.readFileSync(path.join(web, 'i18n', 'fr.json'), 'utf8'));
  for (const where of ['/rules/xiangqi', '/rules.html']) {
    await page.goto(`${server.base}${where}`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
    const links = await page.locator('header.top nav .nav-menu a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(links.slice().sort(), variants.map((v) => `/rules/${v.name}`).sort(), `${where}: a link to every game`);
    for (const v of variants) {
      const group = await page.locator(`header.top nav [data-game="${v.name}"]`).evaluate((a) => a.closest('details').dataset.group);
      assert.equal(group, ['alfonso', 'chess', 'family', 'more-players'].includes(v.group) ? v.group : 'other', `${v.name}: its group`);
    }
    assert.equal((await page.locator('header.top nav details[data-group="alfonso"] summary').textContent()).trim(), cat['catalogue.group.alfonso']);
  }
  // a menu opens on a click and leads to the game's rules
  await page.locator('header.top nav details[data-group="chess"] summary').click();
  await page.locator('header.top nav [data-game="chess"]').click();
  await page.waitForURL(/\/rules\/chess$/);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  assert.equal(await page.locator('header.top nav [data-game="chess"][aria-current="page"]').count(), 1);
  assert.equal(page.errors.length, 0, page.errors.join('; '));
  await page.context().close();
});

test('a language without a game\'s text falls back to English and says so', async () => {
  browser ??= await launch();
  const page = await browser.newPage({ locale: 'de-DE' });
  // the German file of chess answered 404: the page takes the English one
  await page.route('**/rules/de/chess.json', (route) => route.fulfill({ status: 404, body: '' }));
  await page.goto(`${server.base}/rules/chess`);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  assert.equal(await page.locator('[data-prose-note]').count(), 1);
  assert.equal(plain(await page.locator('p.intro').textContent()), plain(read('en', 'chess').intro));
  await page.context().close();
});

// A card's heading names the piece as the game does (xiangqi's "king" is its
// general, its "rook" the chariot), in every language: the prose's "names".
test('the piece cards are headed with the game\'s own names of its pieces', async () => {
  browser ??= await launch();
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  // the heading's own text (the icon's <title> is not part of it)
  const headingOf = (page, letter) => page.locator(`.piece-card[data-piece="${letter}"] h3`)
    .evaluate((h) => [...h.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim());
  const want = { xiangqi: { K: 'king', R: 'rook' }, janggi: { K: 'king', R: 'rook' }, makruk: { K: 'king' }, sittuyin: { R: 'rook', N: 'knight' }, chaturanga: { Q: 'ferz' } };
  for (const l of LANGS) {
    const page = await browser.newPage({ locale: LOCALES[l] });
    const cat = JSON.parse(fs.readFileSync(path.join(web, 'i18n', `${l}.json`), 'utf8'));
    for (const [name, pieces] of Object.entries(want)) {
      const text = read(l, name);
      await page.goto(`${server.base}/rules/${name}`);
      await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
      for (const [letter, piece] of Object.entries(pieces)) {
        const own = text.names?.[piece];
        assert.ok(own, `${l}/${name}.json names the ${piece}`);
        assert.ok(plain(text.pieces[piece]).toLowerCase().includes(own.toLowerCase()), `${l}/${name}: the text calls the ${piece} "${own}"`);
        assert.equal(await headingOf(page, letter), `${cap(own)} (${letter})`, `${l}/${name}`);
      }
    }
    // every card's heading elsewhere: the catalogue's name (chess's king is a king)
    await page.goto(`${server.base}/rules/chess`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
    assert.equal(await headingOf(page, 'K'), `${cap(cat['piece.king'])} (K)`);
    await page.context().close();
  }
});

// The server refuses (429, 503) or cannot be reached: the page says so in its
// language, tries again by itself after the wait a refusal names, and offers a
// button; it never stays blank.
test('a rules page whose API call fails says so and tries again', async () => {
  browser ??= await launch();
  for (const l of LANGS) {
    const page = await browser.newPage({ locale: LOCALES[l] });
    const cat = JSON.parse(fs.readFileSync(path.join(web, 'i18n', `${l}.json`), 'utf8'));
    let refused = 0;
    await page.route('**/api/variants', (route) => {
      if (refused++ === 0) {
        return route.fulfill({ status: l === 'de' ? 503 : 429, contentType: 'application/json', headers: { 'Retry-After': '1' },
          body: JSON.stringify({ error: 'too many requests', code: 'rate-limited', retryAfterMs: 1500 }) });
      }
      return route.continue();
    });
    await page.goto(`${server.base}/rules/xiangqi`);
    const notice = page.locator('[data-load-error="busy"]');
    await notice.waitFor({ timeout: 5000 });
    const said = plain(await notice.textContent());
    assert.ok(said.includes(cat['rules.busy']), `${l}: "${said}" says the server is busy`);
    assert.ok(said.includes(cat['rules.retrying'].split('{n}')[0].trim()), `${l}: and that it tries again`);
    // ... and it does, by itself
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
    assert.equal(refused, 2);
    assert.equal(await page.locator('[data-load-error]').count(), 0);
    assert.equal(await page.locator('.piece-card').count(), 7);
    await page.context().close();
  }
  // the network fails: said, no automatic try, the button loads the page
  const page = await browser.newPage({ locale: 'es-ES' });
  const cat = JSON.parse(fs.readFileSync(path.join(web, 'i18n', 'es.json'), 'utf8'));
  let down = true;
  await page.route('**/api/variants', (route) => (down ? route.abort('connectionrefused') : route.continue()));
  await page.goto(`${server.base}/rules/chess`);
  await page.locator('[data-load-error="failed"]').waitFor({ timeout: 5000 });
  assert.ok(plain(await page.locator('[data-load-error]').textContent()).includes(cat['rules.unreachable']));
  down = false;
  await page.locator('#rules-retry').click();
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  assert.equal(await page.locator('[data-section]').count(), read('es', 'chess').sections.length);
  // a diagram's call refused beyond the waits: said on its card, with a retry
  await page.route('**/api/variant/chess/piece/Q**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom","code":"x"}' }));
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  assert.equal(await page.locator('.piece-card[data-piece="Q"] [data-diagram-error] button').count(), 1);
  await page.unroute('**/api/variant/chess/piece/Q**');
  await page.locator('.piece-card[data-piece="Q"] [data-diagram-error] button').click();
  await page.waitForSelector('.piece-card[data-piece="Q"] .diagram[data-count]', { timeout: 10000 });
  assert.equal(await page.locator('[data-diagram-error]').count(), 0);
  await page.context().close();
});
