// The lobby: the catalogue of the games the server plays (cards in groups,
// each with a picture of its start, a line about it, one-click play against
// the computer and its rules); create a game (the variant, its rule options,
// who sits where, a clock, listed publicly or by invitation); the open games
// whose free seats anyone may take; the games being played, as live
// miniatures; the finished games and this browser's own.
import { api, tokens, myGames, GameSocket, CATALOGUE_GROUPS as GROUPS, catalogueGroup as groupOf } from './api.js';
import { playerText } from './players.js';
import { h } from './dom.js';
import { fillNav } from './nav.js';
import { t, tOr, seatName, gameTitle, translatePage, languageSwitch, lang, optionName, optionValue, optionHelp } from './i18n.js';
import './prefs.js';
import { boardLook } from './sets.js';
import { hexLayout, polygonPoints } from './hexboard.js';

const $ = (id) => document.getElementById(id);
let variants = [];
let current = null;

const seatKey = (s) => (typeof s === 'string' ? s : s.seat || s.name);
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);


function describe(v) {
  const n = (v.seats || []).length;
  const b = v.board ? `${v.board.width}×${v.board.height}, ` : '';
  return `${b}${t('lobby.players', { n })}`;
}

// ---- the catalogue ----------------------------------------------------------------
// Games whose pieces stand on the points where lines cross (with their
// palaces and river), and games played on squares of one colour: told by the
// variant's entry as the game page tells them (sets.js boardLook).
const pictureStyle = (name) => {
  const look = boardLook(variants.find((x) => x.name === name));
  return { points: look.style === 'intersections', plain: look.style === 'plain', palaces: look.palaces, river: look.river, hex: look.geometry === 'hex3' };
};
const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children) if (c) e.append(c);
  return e;
}

// A small picture of a position: the board (holes dark, or the lines of a
// board played on points, or squares of one colour) and each piece as a disc in its seat's colour with
// its letter. `board` is {width, height, blocked}; `pieces` [{square, seat, letter}].
export function miniBoard(board, pieces, { points = false, plain = false, palaces = [], river = false, hex = false, size = 132, label = '' } = {}) {
  if (hex) return miniHexBoard(pieces, size, label);
  const w = board.width || 8, ht = board.height || 8;
  const cell = size / Math.max(w, ht);
  const W = w * cell, H = ht * cell;
  const root = svg('svg', { class: 'mini-board', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': label });
  const blocked = new Set(board.blocked || []);
  const at = (sq) => ({ f: sq.charCodeAt(0) - 97, r: parseInt(sq.slice(1), 10) - 1 });
  if (points) {
    root.append(svg('rect', { class: 'mini-sq light', x: 0, y: 0, width: W, height: H }));
    const X = (f) => (f + 0.5) * cell, Y = (r) => (ht - 1 - r + 0.5) * cell;
    const line = (cls, f1, r1, f2, r2) => root.append(svg('line', { class: cls, x1: X(f1), y1: Y(r1), x2: X(f2), y2: Y(r2) }));
    const mid = ht / 2 - 1;   // the river between this rank and the next: the inner files stop at it
    for (let f = 0; f < w; f++) {
      if (river && f > 0 && f < w - 1) { line('mini-line', f, 0, f, mid); line('mini-line', f, mid + 1, f, ht - 1); }
      else line('mini-line', f, 0, f, ht - 1);
    }
    for (let r = 0; r < ht; r++) line('mini-line', 0, r, w - 1, r);
    for (const [a, b] of palaces || []) {
      const p = at(a), q = at(b);
      line('mini-line mini-palace', p.f, p.r, q.f, q.r);
      line('mini-line mini-palace', p.f, q.r, q.f, p.r);
    }
  } else {
    for (let r = 0; r < ht; r++) {
      for (let f = 0; f < w; f++) {
        const name = String.fromCharCode(97 + f) + (r + 1);
        const kind = blocked.has(name) ? 'blocked' : !plain && (f + r) % 2 === 0 ? 'dark' : 'light';
        root.append(svg('rect', { class: `mini-sq ${kind}`, x: f * cell, y: (ht - 1 - r) * cell, width: cell, height: cell }));
      }
    }
  }
  for (const p of pieces || []) {
    const { f, r } = at(p.square);
    if (!(f >= 0 && f < w && r >= 0 && r < ht)) continue;
    const cx = (f + 0.5) * cell, cy = (ht - 1 - r + 0.5) * cell;
    const g = svg('g', { class: `mini-piece seat-${p.seat}`, 'data-sq': p.square });
    g.append(svg('circle', { cx, cy, r: cell * 0.4 }));
    if (cell >= 11) {
      const text = svg('text', { x: cx, y: cy, 'font-size': cell * 0.5, 'text-anchor': 'middle', 'dominant-baseline': 'central' });
      text.textContent = String(p.letter || '?').toUpperCase();
      g.append(text);
    }
    root.append(g);
  }
  return root;
}

// Three-player chess's six-sided board (js/hexboard.js), its cells drawn as quadrilaterals.
function miniHexBoard(pieces, size, label) {
  const lay = hexLayout(0, 100, 2);
  const k = size / lay.width;
  const W = size, H = lay.height * k;
  const root = svg('svg', { class: 'mini-board mini-hex', viewBox: `0 0 ${lay.width} ${lay.height}`, width: W, height: H, role: 'img', 'aria-label': label });
  for (const [name, c] of lay.cells) root.append(svg('polygon', { class: `mini-sq ${c.dark ? 'dark' : 'light'}`, points: polygonPoints(c.corners), 'data-cell': name }));
  for (const p of pieces || []) {
    const c = lay.cells.get(p.square);
    if (!c) continue;
    const g = svg('g', { class: `mini-piece seat-${p.seat}`, 'data-sq': p.square });
    g.append(svg('circle', { cx: c.cx, cy: c.cy, r: 6 }));
    root.append(g);
  }
  return root;
}

const describeGame = (v) => tOr(`catalogue.desc.${v.name}`, v.description || '');

function card(v) {
  const players = v.players || (v.seats || []).length;
  const size = !v.board ? '' : v.geometry === 'hex3'
    ? t('catalogue.hexCells', { n: v.board.width * v.board.height - (v.board.blocked || []).length })
    : `${v.board.width}×${v.board.height}`;
  return h('article', { class: 'cat-card', 'data-variant': v.name },
    h('a', { class: 'cat-pic', href: `/?variant=${encodeURIComponent(v.name)}#create`, onclick: (e) => { e.preventDefault(); setUp(v.name); } },
      miniBoard(v.board || {}, v.startPieces || [], { ...pictureStyle(v.name), size: 96, label: t('catalogue.picture', { title: gameTitle(v.name, v.title) }) })),
    h('div', { class: 'cat-text' },
      h('h3', {}, gameTitle(v.name, v.title)),
      h('p', { class: 'cat-desc' }, describeGame(v)),
      h('p', { class: 'cat-meta muted' }, t('lobby.players', { n: players }), size ? ` · ${size}` : '', ' · ',
        h('a', { href: `/rules/${encodeURIComponent(v.name)}`, 'data-rules': v.name }, t('catalogue.rules')))),
    h('div', { class: 'cat-actions' },
      h('button', { type: 'button', class: 'primary', 'data-quick': v.name, onclick: () => quickPlay(v) }, t('catalogue.play')),
      h('button', { type: 'button', 'data-setup': v.name, onclick: () => setUp(v.name) }, t('catalogue.setup'))));
}

function renderCatalogue() {
  const box = $('catalogue-groups');
  box.replaceChildren();
  for (const g of GROUPS) {
    const games = variants.filter((v) => groupOf(v) === g);
    if (!games.length) continue;
    box.append(h('section', { class: 'cat-group', 'data-group': g },
      h('h2', {}, t(`catalogue.group.${g}`)), h('div', { class: 'cat-cards' }, games.map(card))));
  }
}

// "Set up a game": the form below, with this game chosen.
function setUp(name) {
  choose(name);
  $('create').scrollIntoView({ behavior: 'smooth', block: 'start' });
}

function renderVariants() {
  const box = $('variants');
  box.replaceChildren();
  for (const v of variants) {
    const input = h('input', { type: 'radio', name: 'variant', value: v.name, id: `v-${v.name}` });
    input.checked = current && current.name === v.name;
    input.addEventListener('change', () => choose(v.name));
    box.append(h('label', { for: `v-${v.name}`, class: current && current.name === v.name ? 'chosen' : '' },
      input, h('b', {}, gameTitle(v.name, v.title)),
      h('span', { class: 'sub' }, describe(v), ' · ', h('a', { href: `/rules.html?variant=${v.name}`, target: '_blank' }, t('lobby.rulesLink')))));
  }
}

function renderOptions() {
  const box = $('options');
  box.replaceChildren();
  const opts = current.options || [];
  if (!opts.length) box.append(h('p', { class: 'muted' }, t('lobby.noOptions')));
  for (const o of opts) {
    const sel = h('select', { name: `opt-${o.name}`, id: `opt-${o.name}`, 'data-option': o.name });
    for (const val of o.values) sel.append(h('option', { value: val, selected: val === o.default }, optionValue(val) + (val === o.default ? ` ${t('lobby.default')}` : '')));
    box.append(h('div', { class: 'opt' }, h('label', { for: `opt-${o.name}` }, h('b', {}, optionName(o.name))), sel, h('div', { class: 'help' }, optionHelp(current.name, o))));
  }
}

function renderSeats() {
  const box = $('seatplan');
  box.replaceChildren();
  (current.seats || []).forEach((s, i) => {
    const name = seatKey(s);
    const kind = h('select', { 'data-seat-kind': name, id: `seat-${name}` },
      h('option', { value: 'human', selected: i === 0 }, t('lobby.human')),
      h('option', { value: 'bot', selected: i !== 0 }, t('lobby.bot')));
    const level = h('select', { 'data-seat-level': name, id: `level-${name}` });
    for (let l = 1; l <= 9; l++) level.append(h('option', { value: l, selected: l === 3 }, t('lobby.level', { n: l })));
    const sync = () => { level.disabled = kind.value !== 'bot'; level.style.visibility = kind.value === 'bot' ? 'visible' : 'hidden'; };
    kind.addEventListener('change', sync);
    sync();
    box.append(h('div', { class: `seat seat-${name}` }, h('span', { class: 'chip' }), h('span', { class: 'name' }, seatName(name)), kind, level));
  });
}

function choose(name) {
  current = variants.find((v) => v.name === name) || variants[0];
  renderVariants();
  renderOptions();
  renderSeats();
  const url = new URL(location.href);
  url.searchParams.set('variant', current.name);
  history.replaceState(null, '', url);
}

function gameUrl(id, seat, token) {
  const q = new URLSearchParams({ id });
  if (seat) q.set('seat', seat);
  if (token) q.set('token', token);
  return `${location.origin}/game.html?${q}`;
}

async function create(ev) {
  ev.preventDefault();
  $('create-error').textContent = '';
  const options = {};
  for (const sel of document.querySelectorAll('[data-option]')) options[sel.dataset.option] = sel.value;
  const seats = (current.seats || []).map((s) => {
    const name = seatKey(s);
    const kind = document.querySelector(`[data-seat-kind="${name}"]`).value;
    const level = Number(document.querySelector(`[data-seat-level="${name}"]`).value);
    return kind === 'bot' ? { seat: name, kind, level } : { seat: name, kind };
  });
  const spec = { variant: current.name, options, seats };
  // `/?seed=N` seeds the game's die and its bots' noise, so a game can be played again throw for throw.
  // The server checks it: a malformed seed is refused with its error, shown below the button.
  const seed = new URLSearchParams(location.search).get('seed');
  if (seed !== null) spec.seed = seed;
  if ($('clock-on').checked) {
    spec.clock = { initialMs: Math.round(Number($('clock-min').value) * 60000), incrementMs: Math.round(Number($('clock-inc').value) * 1000) };
  }
  const hotseat = $('hotseat').checked;
  if (hotseat) spec.hotSeat = true;
  // Rated (signed-in players only, account.js shows the box): listed, the opponent's seat open to accounts.
  const rated = !hotseat && $('rated') && !$('rated').closest('[hidden]') && $('rated').checked;
  if (rated) spec.rated = true;
  // Listed publicly: the creator sits in the first human seat, the other human seats are free for anyone.
  const listed = !hotseat && ($('listed').checked || rated);
  if (listed) {
    let first = true;
    for (const seat of seats) {
      if (seat.kind !== 'human') continue;
      if (!first) seat.open = true;
      first = false;
    }
  }
  $('create-btn').disabled = true;
  let res;
  try {
    res = await api.create(spec);
  } catch (e) {
    $('create-error').textContent = t('lobby.createFailed', { error: e.message });
    $('create-btn').disabled = false;
    return;
  }
  $('create-btn').disabled = false;
  const humans = (res.seats || []).filter((s) => s.token);
  if (!humans.length) {           // bots only: watch
    location.href = gameUrl(res.id);
    return;
  }
  if (listed && (res.seats || []).some((s) => s.open)) {
    tokens.save(res.id, { [humans[0].seat]: humans[0].token });
    waitForPlayers(res.id, humans[0].token);
    return;
  }
  if (hotseat || humans.length === 1) {
    const map = {};
    for (const s of hotseat ? humans : humans.slice(0, 1)) map[s.seat] = s.token;
    tokens.save(res.id, map);
    location.href = gameUrl(res.id, humans[0].seat, humans[0].token);
    return;
  }
  // Several people: the creator sits in the first human seat, the others get links.
  tokens.save(res.id, { [humans[0].seat]: humans[0].token });
  const list = $('invite-list');
  list.replaceChildren();
  humans.forEach((s, i) => {
    const url = gameUrl(res.id, s.seat, s.token);
    const input = h('input', { type: 'text', readonly: true, value: url, 'data-invite': s.seat });
    const copy = h('button', { type: 'button', onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(url).catch(() => {}); } }, t('lobby.copy'));
    list.append(h('div', { class: `invite seat-${s.seat}` }, h('span', { class: 'chip' }), h('b', { style: 'width:60px' }, seatName(s.seat)),
      input, copy, i === 0 ? h('a', { class: 'button primary', href: url, 'data-play': s.seat }, t('lobby.playSeat')) : null));
  });
  list.append(h('p', {}, `${t('lobby.watch')}: `, h('a', { href: gameUrl(res.id), 'data-watch': res.id }, gameUrl(res.id))));
  $('invites').hidden = false;
  $('invites').scrollIntoView({ behavior: 'smooth' });
  loadGames();
}

// ---- finding opponents ------------------------------------------------------------
let waitSocket = null;

// After creating a listed game: wait here until every free seat is taken,
// then go to the game. Cancelling resigns (the game ends before it began).
function waitForPlayers(id, token) {
  const box = $('waiting');
  const status = h('p', { id: 'waiting-status' }, t('lobby.waitingHelp'));
  box.replaceChildren(h('h2', { style: 'margin-top:0' }, t('lobby.waitingTitle')), status,
    h('p', { class: 'row' },
      h('a', { class: 'button', href: `/game.html?id=${encodeURIComponent(id)}`, 'data-waiting-game': id }, t('lobby.openGamePage')),
      h('button', { type: 'button', 'data-cancel': id, onclick: async () => {
        if (waitSocket) waitSocket.close();
        try { await api.resign(id, token); } catch { /* over already */ }
        box.hidden = true;
        loadOpenGames();
      } }, t('lobby.cancel'))));
  box.hidden = false;
  box.scrollIntoView({ behavior: 'smooth', block: 'center' });
  if (waitSocket) waitSocket.close();
  // The socket with the creator's token also tells the server the creator is here.
  waitSocket = new GameSocket(id, token, {
    onState: (st) => {
      const free = (st.seats || []).filter((x) => x.open).length;
      if (st.status === 'finished') { waitSocket.close(); box.hidden = true; return; }
      if (!free) { waitSocket.close(); location.href = `/game.html?id=${encodeURIComponent(id)}`; return; }
      status.textContent = `${t('lobby.waitingHelp')} ${t('lobby.seatsFree', { n: free })}`;
    },
  });
  loadOpenGames();
}

const clockText = (c) => (c ? `${Math.round(c.initialMs / 60000 * 10) / 10}+${Math.round((c.incrementMs || 0) / 1000)}` : t('lobby.noClock'));

// The rule options a game was created with that differ from the game's defaults.
function optionsText(g) {
  const v = variants.find((x) => x.name === g.variant);
  const out = [];
  for (const [k, val] of Object.entries(g.options || {})) {
    const def = v && (v.options || []).find((o) => o.name === k);
    if (def && def.default === val) continue;
    out.push(`${optionName(k)}: ${optionValue(val)}`);
  }
  return out.join(', ');
}

async function take(g, seat) {
  $('open-error').textContent = '';
  let res;
  try {
    res = await api.join(g.id, seat);
  } catch (e) {
    $('open-error').textContent = t('lobby.takeFailed', { error: e.message });
    loadOpenGames();
    return;
  }
  tokens.add(res.id, res.seat, res.token);
  location.href = `/game.html?id=${encodeURIComponent(res.id)}`;
}

async function loadOpenGames() {
  let list;
  try { list = await api.games('open'); } catch { return; }
  const box = $('open-games');
  box.replaceChildren();
  for (const g of Array.isArray(list) ? list : []) {
    const mine = Object.keys(tokens.load(g.id)).length > 0;  // this browser's own: back to its waiting panel
    const free = (g.seats || []).filter((x) => x.open);
    const who = (g.seats || []).map((x) => h('span', { class: `seat-chip seat-${x.seat}${x.open ? ' free' : ''}`, title: seatName(x.seat) },
      h('span', { class: 'chip' }), x.kind === 'bot' ? t('lobby.botN', { n: x.level }) : x.open ? t('lobby.free') : playerText(x) || t('lobby.humanShort')));
    const opts = optionsText(g);
    box.append(h('div', { class: 'open-game', 'data-open-game': g.id },
      h('div', {}, h('b', {}, gameTitle(g.variant, g.title)), ' · ', h('span', { class: 'muted' }, clockText(g.clock)),
        (g.seats || []).some((x) => x.rated) ? h('span', { class: 'rated-tag', 'data-rated': '' }, ` · ${t('lobby.rated')}`) : null,
        opts ? h('span', { class: 'muted' }, ` · ${opts}`) : null),
      h('div', { class: 'open-seats' }, who),
      h('div', { class: 'row' }, mine
        ? h('a', { href: '#waiting', 'data-mine': g.id, onclick: (e) => { e.preventDefault(); waitForPlayers(g.id, Object.values(tokens.load(g.id))[0]); } }, t('lobby.yourOpenGame'))
        : free.map((x) => h('button', { type: 'button', class: 'primary', 'data-take': `${g.id}:${x.seat}`, onclick: () => take(g, x.seat) },
          t('lobby.takeSeat', { seat: seatName(x.seat) }))))));
  }
  if (!box.children.length) box.append(h('span', { class: 'muted' }, t('lobby.noOpenGames')));
}

// The games being played, each a miniature kept live by its own socket
// (watching, no token); at most LIVE of them.
const LIVE = 6;
const live = new Map();  // id -> {socket, el}

function drawLive(entry, st) {
  const pic = miniBoard(st.board || {}, st.pieces || [], { ...pictureStyle(st.variant), size: 96, label: gameTitle(st.variant, st.title) });
  entry.pic.replaceChildren(pic);
  entry.el.dataset.plies = String((st.moves || []).length);
  entry.turn.textContent = st.status === 'finished' ? t('lobby.finishedShort') : st.toMove ? t('status.toMove', { seat: seatName(st.toMove) }) : '';
}

function renderLive(ongoing) {
  const box = $('live-games');
  const want = ongoing.filter((g) => !(g.seats || []).some((x) => x.open)).slice(0, LIVE);
  const ids = new Set(want.map((g) => g.id));
  for (const [id, entry] of live) {
    if (!ids.has(id)) { entry.socket.close(); entry.el.remove(); live.delete(id); }
  }
  for (const g of want) {
    if (live.has(g.id)) continue;
    const pic = h('span', { class: 'live-pic' });
    const turn = h('span', { class: 'muted' });
    const who = (g.seats || []).map((x) => (x.kind === 'bot' ? t('lobby.botN', { n: x.level }) : t('lobby.humanShort'))).join(' · ');
    const el = h('a', { class: 'live-game', href: gameUrl(g.id), 'data-live': g.id }, pic,
      h('span', { class: 'live-text' }, h('b', {}, gameTitle(g.variant, g.title)), h('span', { class: 'muted' }, who), turn));
    const entry = { el, pic, turn };
    entry.socket = new GameSocket(g.id, null, { onState: (st) => drawLive(entry, st) });
    live.set(g.id, entry);
    box.append(el);
  }
  $('live-none').hidden = live.size > 0;
}

async function loadGames() {
  const box = $('games');
  let list;
  try { list = await api.games('all'); } catch { return; }
  list = Array.isArray(list) ? list : (list && list.games) || [];
  renderLive(list.filter((g) => g.status !== 'finished'));
  const finished = list.filter((g) => g.status === 'finished');
  if (!finished.length) return;
  box.replaceChildren();
  for (const g of finished.slice(0, 15)) {
    const plies = g.plies ?? (Array.isArray(g.moves) ? g.moves.length : g.moves);
    const who = (g.seats || []).map((x) => (x.kind === 'bot' ? t('lobby.botN', { n: x.level }) : t('lobby.humanShort'))).join(' · ');
    box.append(h('a', { href: gameUrl(g.id), 'data-game': g.id, 'data-plies': plies ?? '' }, `${gameTitle(g.variant, g.title)}${plies !== undefined && plies !== null ? ` · ${t('lobby.plies', { n: plies })}` : ''}`,
      who ? h('span', { class: 'muted' }, ` (${who})`) : null));
  }
}

// One click against the computer: the first seat human, bots of level 3, default rules.
async function quickPlay(v) {
  const seats = (v.seats || []).map((s, i) => (i === 0 ? { seat: seatKey(s), kind: 'human' } : { seat: seatKey(s), kind: 'bot', level: 3 }));
  const spec = { variant: v.name, seats };
  const seed = new URLSearchParams(location.search).get('seed');
  if (seed !== null) spec.seed = seed;
  let res;
  try { res = await api.create(spec); } catch (e) { $('quick-error').textContent = t('lobby.createFailed', { error: e.message }); $('quick-error').scrollIntoView({ block: 'center' }); return; }
  const me = (res.seats || []).find((s) => s.token);
  tokens.save(res.id, { [me.seat]: me.token });
  location.href = `/game.html?id=${encodeURIComponent(res.id)}`;
}

// The games this browser holds a seat in, with their dates.
async function loadMyGames() {
  const list = myGames.list();
  for (const gid of myGames.fromTokens()) if (!list.some((g) => g.id === gid)) list.push({ id: gid, at: null });
  if (!list.length) return;
  const box = $('my-games');
  const rows = await Promise.all(list.slice(0, 20).map(async (g) => {
    try { return { ...g, s: await api.state(g.id) }; } catch { return null; }
  }));
  const fmt = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  box.replaceChildren();
  for (const r of rows) {
    if (!r) continue;
    const held = Object.keys(tokens.load(r.id));
    const status = r.s.status === 'finished' ? t('lobby.finishedShort') : t('lobby.ongoingShort');
    box.append(h('a', { href: gameUrl(r.id), 'data-my-game': r.id },
      `${gameTitle(r.s.variant, r.s.title)} · ${held.map(seatName).join(', ')} · ${status} · ${t('lobby.plies', { n: r.s.moves.length })}`,
      r.at ? h('span', { class: 'muted' }, ` · ${fmt.format(new Date(r.at))}`) : null));
  }
  $('mine-card').hidden = !box.children.length;
}

async function main() {
  translatePage();
  $('lang-slot').append(languageSwitch());
  $('create').addEventListener('submit', create);
  $('watch').addEventListener('submit', (e) => {
    e.preventDefault();
    const id = $('watch-id').value.trim();
    if (id) location.href = gameUrl(id);
  });
  try {
    variants = await api.variants();
    fillNav(variants, null);
    if (!Array.isArray(variants)) variants = variants.variants || [];
  } catch (e) {
    $('variants').replaceChildren(h('span', { class: 'error' }, t('lobby.noServer', { error: e.message })));
    $('catalogue-groups').replaceChildren(h('span', { class: 'error' }, t('lobby.noServer', { error: e.message })));
    return;
  }
  const want = new URLSearchParams(location.search).get('variant');
  choose(want && variants.some((v) => v.name === want) ? want : variants[0].name);
  renderCatalogue();
  const sync = () => { if ($('hotseat').checked) $('listed').checked = false; };
  $('hotseat').addEventListener('change', sync);
  $('listed').addEventListener('change', () => { if ($('listed').checked) $('hotseat').checked = false; });
  loadMyGames();
  loadGames();
  loadOpenGames();
  setInterval(loadGames, 15000);
  setInterval(loadOpenGames, 4000);
  document.body.dataset.ready = '1';
}
main();
