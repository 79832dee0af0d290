// Rules pages: each game's rules in our words, its options, and a diagram of
// every piece's moves. The diagrams are not drawn from this text: the squares
// come from the server (/api/variant/NAME/piece/LETTER), which reads them from
// the engine's own move tables, so they always match what the engine plays.
import { api } from './api.js';
import { fillNav } from './nav.js';
import { h } from './dom.js';
import { Board } from './board.js';
import { pieceIcon, PIECE_NAMES } from './pieces.js';
import { t, pieceName, gameTitle, translatePage, languageSwitch, lang, optionName, optionValue, optionHelp } from './i18n.js';
import { prefs } from './prefs.js';
import { boardLook, setFamily } from './sets.js';

const $ = (id) => document.getElementById(id);

// ---- the games, in our words ----------------------------------------------------
// Each game's prose lives in web/rules/<lang>/<variant>.json (what the game is,
// its sections, its pieces' moves, its options' explanations), the pieces
// shared by many games in web/rules/<lang>/common.json. The page takes the
// page's language and falls back to English only for a text that is missing.
//   { "intro": "html", "sections": [{ "id": "setup", "title": "…", "html": "…" }, …],
//     "pieces": { "pawn": "…" }, "options": { "die": "…" }, "names": { "king": "general" } }
// "names" gives a piece the game's own name where it is not the generic one
// (xiangqi's general is the engine's "king"): the card's heading uses it.
async function loadJson(url) {
  try {
    const r = await fetch(url);
    return r.ok ? await r.json() : null;
  } catch {
    return null;
  }
}

export async function loadProse(name, l = lang) {
  const want = [loadJson(`/rules/${l}/${name}.json`), loadJson(`/rules/${l}/common.json`)];
  const english = l === 'en' ? [null, null] : [loadJson(`/rules/en/${name}.json`), loadJson(`/rules/en/common.json`)];
  const [game, common, gameEn, commonEn] = await Promise.all([...want, ...english]);
  const text = game || gameEn || { intro: '', sections: [] };
  return {
    intro: text.intro || '',
    sections: text.sections || [],
    fallback: !game && !!gameEn,
    piece: (p) => game?.pieces?.[p] ?? common?.pieces?.[p] ?? gameEn?.pieces?.[p] ?? commonEn?.pieces?.[p] ?? '',
    option: (o) => game?.options?.[o] ?? gameEn?.options?.[o] ?? '',
    // the game's own name of a piece, in the page's language (English only with the English text)
    name: (p) => (game ? game.names?.[p] : gameEn?.names?.[p]) || pieceName(p),
  };
}

// The square to show a piece on: near the centre, but on a board with holes
// (Joko's blocked centre) the one with the longest free lines, so the diagram
// shows as much of the piece's moves as the board allows.
function diagramSquare(b) {
  const blocked = new Set(b.blocked || []);
  if (!blocked.size) return centre(b);
  const free = (f, r) => f >= 0 && r >= 0 && f < b.width && r < b.height && !blocked.has(String.fromCharCode(97 + f) + (r + 1));
  let best = null;
  for (let f = 0; f < b.width; f++) for (let r = 0; r < b.height; r++) {
    if (!free(f, r)) continue;
    let score = 0;
    for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]) {
      let n = 0;
      while (free(f + df * (n + 1), r + dr * (n + 1))) n++;
      score += n;
    }
    const d = Math.abs(f - (b.width - 1) / 2) + Math.abs(r - (b.height - 1) / 2);
    if (!best || score > best.score || (score === best.score && d < best.d)) best = { name: String.fromCharCode(97 + f) + (r + 1), score, d };
  }
  return best.name;
}

function centre(b) {
  const blocked = new Set(b.blocked || []);
  const cands = [];
  for (let f = 0; f < b.width; f++) for (let r = 0; r < b.height; r++) {
    const name = String.fromCharCode(97 + f) + (r + 1);
    if (blocked.has(name)) continue;
    cands.push({ name, d: Math.abs(f - (b.width - 1) / 2) + Math.abs(r - (b.height - 1) / 2) + (f < b.width / 2 ? 0 : 0.01) + (r < b.height / 2 ? 0 : 0.02) });
  }
  cands.sort((a, b2) => a.d - b2.d);
  return cands[0].name;
}

// The marks of a diagram. A piece that captures by jumping a screen (the
// cannon) is shown with a screen two squares ahead: beyond it, along that
// line, it cannot move but captures the first piece (every square it could be
// on is marked), and the line stops there for plain moves.
function marksOf(reach, at, board) {
  const moves = new Set(reach.moves || []), caps = new Set(reach.captures || []), hops = new Set(reach.hops || []);
  let screen = null;
  const beyond = new Set();
  if (hops.size && at) {
    const f = at.charCodeAt(0) - 97, r = Number(at.slice(1)) - 1;
    for (const [df, dr] of [[0, 1], [0, -1], [1, 0], [-1, 0], [1, 1], [-1, -1]]) {
      const sq = (k) => String.fromCharCode(97 + f + df * k) + (r + dr * k + 1);
      const line = [];
      for (let k = 2; f + df * k >= 0 && f + df * k < board.width && r + dr * k >= 0 && r + dr * k < board.height; k++) line.push(sq(k));
      if (line.length >= 3 && hops.has(line[1])) {
        screen = line[0];
        for (const s of line.slice(1)) if (hops.has(s)) beyond.add(s);
        break;
      }
    }
  }
  const out = [];
  for (const s of new Set([...moves, ...caps])) {
    if (s === screen || beyond.has(s)) continue;
    out.push({ square: s, kind: moves.has(s) && caps.has(s) ? 'both' : moves.has(s) ? 'move' : 'capture' });
  }
  for (const s of beyond) out.push({ square: s, kind: 'hop' });
  if (!screen) for (const s of hops) if (!moves.has(s) && !caps.has(s)) out.push({ square: s, kind: 'hop' });
  return { marks: out, screen };
}

// The legend's marks, drawn as the diagrams draw them.
function legendMark(kind) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 60 60');
  const add = (tag, attrs) => { const e = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); svg.append(e); };
  const c = 30;
  if (kind === 'move') add('circle', { cx: c, cy: c, r: 20, fill: '#2f6d5a' });
  else if (kind === 'capture') add('path', { d: `M${c - 20} ${c - 20} L${c + 20} ${c + 20} M${c + 20} ${c - 20} L${c - 20} ${c + 20}`, stroke: '#b8322a', 'stroke-width': 11, 'stroke-linecap': 'round' });
  else if (kind === 'hop') add('circle', { cx: c, cy: c, r: 20, fill: 'none', stroke: '#d68a1c', 'stroke-width': 9 });
  else {
    add('path', { d: `M${c} ${c - 22} A22 22 0 0 0 ${c} ${c + 22} Z`, fill: '#2f6d5a' });
    add('path', { d: `M${c} ${c - 22} A22 22 0 0 1 ${c} ${c + 22} Z`, fill: '#b8322a' });
  }
  return svg;
}

async function drawDiagrams(v, box, optionValues, prose) {
  box.replaceChildren();
  const board = v.board || { width: 8, height: 8, blocked: [] };
  const seat = (v.seats && (v.seats[0].seat || v.seats[0])) || 'white';
  // points, palaces and river, plain squares, the chosen piece set: as on the game page
  const look = boardLook(v, prefs.get(`pieceSet.${setFamily(v)}`), (v.seats || []).map((x) => x.seat || x));
  const extra = Object.entries(optionValues).map(([k, val]) => `&${encodeURIComponent(k)}=${encodeURIComponent(val)}`).join('');
  for (const p of v.pieces || []) {
    const card = h('div', { class: 'card piece-card', 'data-piece': p.letter });
    const diagram = h('div', { class: 'diagram' });
    card.append(h('h3', {}, h('span', { class: `seat-${seat}` }, pieceIcon(p.name, seat, 34)), `${cap(prose.name(p.name))} (${p.letter})`),
      h('p', { class: 'piece-text', style: 'font-size:14px;margin:4px 0 8px' }, prose.piece(p.name)), diagram);
    box.append(card);
    // the six-sided board: c3, whose diagonal forks at the centre and whose file crosses it
    const from = look.geometry === 'hex3' ? 'c3' : diagramSquare(board);
    let reach;
    try {
      reach = await patiently(() => api.reach(v.name, p.letter, from, `&dir=n${extra}`));
      // A piece kept in a region (the xiangqi general in its palace, the
      // elephant on its own side) may not move from the centre: show it from
      // its palace's centre or its own start square instead.
      if (!reachCount(reach)) {
        for (const sq of fallbackSquares(v, p, seat)) {
          const other = await patiently(() => api.reach(v.name, p.letter, sq, `&dir=n${extra}`));
          if (reachCount(other) > reachCount(reach)) reach = other;
        }
      }
    } catch (e) {
      // still refused after the waits, or another failure: said, with a retry of all the diagrams
      diagram.append(h('p', { class: 'error', 'data-diagram-error': '' }, t('rules.noDiagram', { error: failure(e) }), ' ',
        h('button', { type: 'button', onclick: () => drawDiagrams(v, box, optionValues, prose) }, t('rules.retry'))));
      continue;
    }
    const at = reach.from || from;
    const b = new Board(diagram, { coordSize: 46 });
    const { marks, screen } = marksOf(reach, at, board);
    const other = (v.seats || []).map((x) => x.seat || x).find((x) => x !== seat) || 'black';
    const pieces = [{ square: at, seat, letter: p.letter, name: p.name, dir: 'n' }];
    const pawn = (v.pieces || []).find((x) => x.letter === 'P' || x.name === 'soldier') || { letter: 'P', name: 'pawn' };
    if (screen) pieces.push({ square: screen, seat: other, letter: pawn.letter, name: pawn.name, dir: 's' });
    b.update({
      width: board.width, height: board.height, blocked: board.blocked || [],
      style: look.style, palaces: look.palaces, river: look.river, glyph: look.glyph, promoted: look.promoted, geometry: look.geometry, coords: look.coords,
      pieces, marks, arrows: p.name === 'pawn', interactive: false, animate: false,
      labels: { seat: (x) => x, piece: pieceName, board: t('rules.diagramOf', { piece: pieceName(p.name) }) },
    });
    if (screen) diagram.dataset.screen = screen;
    diagram.dataset.from = at;
    diagram.dataset.count = String(new Set([...(reach.moves || []), ...(reach.captures || [])]).size);
  }
}

// ---- when the server refuses or cannot be reached ---------------------------------
// A busy server (429 too many requests, 503 full) is asked again after the
// wait it names (retryAfterMs), or 2 s; `tries` times in all.
const busy = (e) => e && (e.status === 429 || e.status === 503);
const waitOf = (e) => Math.min(10000, Math.max(500, Number(e && e.retryAfterMs) || 2000));
async function patiently(fn, tries = 4) {
  for (let i = 1; ; i++) {
    try { return await fn(); } catch (e) {
      if (!busy(e) || i >= tries) throw e;
      await new Promise((r) => setTimeout(r, waitOf(e)));
    }
  }
}
// What went wrong, in the page's language: busy, unreachable, or the server's own words.
function failure(e) {
  if (busy(e)) return t('rules.busy');
  if (!e || e.status === undefined) return t('rules.unreachable');
  return `${e.message} (${e.status})`;
}
// The page's notice of a failed load: what happened, a "Try again" button, and
// for a busy server a new try by itself after the wait.
function loadFailed(root, e, retry) {
  const auto = busy(e);
  const wait = waitOf(e);
  const timer = auto ? setTimeout(retry, wait) : 0;
  root.replaceChildren(h('div', { class: 'card error-card', 'data-load-error': auto ? 'busy' : 'failed', role: 'alert' },
    h('p', { class: 'error' }, t('rules.loadFailed', { error: failure(e) })),
    auto ? h('p', { class: 'muted' }, t('rules.retrying', { n: Math.ceil(wait / 1000) })) : null,
    h('button', { type: 'button', id: 'rules-retry', class: 'primary', onclick: () => { clearTimeout(timer); retry(); } }, t('rules.retry'))));
}

const reachCount = (r) => new Set([...(r.moves || []), ...(r.captures || [])]).size;

// Other squares to draw a piece on: the centre of the first seat's palace
// (the palace nearest rank 1), then the squares the piece starts on.
function fallbackSquares(v, p, seat) {
  const out = [];
  const pal = (v.palaces || [])[0];
  if (pal) {
    const f = (pal[0].charCodeAt(0) + pal[1].charCodeAt(0)) / 2, r = (Number(pal[0].slice(1)) + Number(pal[1].slice(1))) / 2;
    if (Number.isInteger(f) && Number.isInteger(r)) out.push(String.fromCharCode(f) + r);
  }
  for (const x of v.startPieces || []) if (x.letter === p.letter && x.seat === seat && !out.includes(x.square)) out.push(x.square);
  return out.slice(0, 4);
}

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

async function gallery(root) {
  // every game the server plays, linked to its rules page
  let games = [];
  try { games = await api.variants(); } catch { /* the glyphs alone */ }
  fillNav(games, null);
  const links = games.length ? games.map((g) => h('a', { href: `/rules/${g.name}` }, gameTitle(g.name, g.title)))
    : [h('a', { href: '?variant=four-seasons' }, 'Four Seasons'), h('a', { href: '?variant=joko-urtaroak' }, 'Joko Urtaroak'),
      h('a', { href: '?variant=grant-acedrex' }, 'Grant Acedrex'), h('a', { href: '?variant=shako' }, 'Shako')];
  root.replaceChildren(h('h1', {}, t('rules.galleryTitle')),
    h('p', { 'data-games': '' }, t('rules.galleryIntro'), ' ', ...links.flatMap((a, i) => (i ? [', ', a] : [a])), '.'));
  for (const seat of ['white', 'black', 'green', 'red']) {
    const g = h('div', { class: 'gallery card' });
    for (const name of PIECE_NAMES) {
      g.append(h('figure', { 'data-glyph': name }, h('span', { class: `seat-${seat}` }, pieceIcon(name, seat, 80)), h('figcaption', {}, pieceName(name))));
    }
    root.append(g);
  }
}

async function main() {
  translatePage();
  document.querySelector('header.top').append(h('span', { class: 'lang-slot' }, languageSwitch()));
  const root = $('rules');
  // /rules/NAME is served this page directly: the game is in the path.
  const name = new URLSearchParams(location.search).get('variant') || (location.pathname.match(/^\/rules\/([a-z0-9-]+)\/?$/) || [])[1];
  if (!name) { await gallery(root); document.body.dataset.ready = '1'; return; }
  await showGame(root, name);
}

// One game's page; on a failed load, a notice and a retry (loadFailed).
async function showGame(root, name) {
  root.replaceChildren(h('p', { class: 'muted', 'data-loading': '' }, t('rules.loading')));
  let variants;
  try { variants = await api.variants(); } catch (e) { loadFailed(root, e, () => showGame(root, name)); return; }
  fillNav(variants, name);
  const v = variants.find((x) => x.name === name);
  if (!v) { root.replaceChildren(h('p', { class: 'error' }, t('rules.noGame', { name }))); return; }
  const title = gameTitle(v.name, v.title);
  document.title = `${t('rules.titleOf', { title })} · Acedrex`;
  const prose = await loadProse(v.name);
  root.replaceChildren(...[h('h1', {}, title), prose.fallback ? h('p', { class: 'muted', 'data-prose-note': '' }, t('rules.proseInEnglish')) : null,
    h('p', { class: 'intro', html: prose.intro }),
    h('p', {}, h('a', { class: 'button primary', href: `/?variant=${v.name}` }, t('rules.play', { title })))].filter(Boolean));
  for (const sec of prose.sections) root.append(h('div', { class: 'card', 'data-section': sec.id }, h('h2', { style: 'margin-top:0' }, sec.title), h('div', { html: sec.html })));

  const optionValues = {};
  const diagrams = h('div', { class: 'pieces', id: 'diagrams' });
  if ((v.options || []).length) {
    const table = h('table', { class: 'opts' }, h('tr', {}, h('th', {}, t('rules.option')), h('th', {}, t('rules.values')), h('th', {}, t('rules.whatItDoes'))));
    for (const o of v.options) {
      const sel = h('select', { 'data-option': o.name });
      for (const val of o.values) sel.append(h('option', { value: val, selected: val === o.default }, optionValue(val) + (val === o.default ? ` ${t('lobby.default')}` : '')));
      sel.addEventListener('change', () => { optionValues[o.name] = sel.value; drawDiagrams(v, diagrams, optionValues, prose); });
      table.append(h('tr', {}, h('td', {}, optionName(o.name), ' ', h('code', { class: 'muted' }, o.name)), h('td', {}, sel),
        h('td', {}, prose.option(o.name) ? h('div', { 'data-option-text': o.name }, prose.option(o.name)) : null, h('div', { class: 'muted' }, optionHelp(v.name, o)))));
    }
    root.append(h('div', { class: 'card' }, h('h2', { style: 'margin-top:0' }, t('rules.options')),
      h('p', { class: 'muted' }, t('rules.optionsHelp')), table));
  }
  const hasScreen = (v.pieces || []).some((p) => p.name === 'cannon');
  // the janggi cannon moves only by jumping too (Betza pR: no plain move)
  const hopMoves = (v.pieces || []).some((p) => p.name === 'cannon' && !/m|^[A-Z]/.test(p.betza || ''));
  root.append(h('h2', {}, t('rules.pieces')),
    h('p', { class: 'muted' }, t('rules.piecesHelp'), hasScreen ? ` ${t(hopMoves ? 'rules.screenHelpMove' : 'rules.screenHelp')}` : ''),
    h('div', { class: 'legend' }, h('span', { class: 'b' }, legendMark('both'), t('rules.legendBoth')), h('span', { class: 'm' }, legendMark('move'), t('rules.legendMove')),
      h('span', { class: 'c' }, legendMark('capture'), t('rules.legendCapture')), hasScreen ? h('span', { class: 'h' }, legendMark('hop'), t(hopMoves ? 'rules.legendHopMove' : 'rules.legendHop')) : null),
    diagrams);
  await drawDiagrams(v, diagrams, optionValues, prose);
  document.body.dataset.ready = '1';
}
main();
