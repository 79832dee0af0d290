// The game page: plays (with seat tokens) or watches a game, and replays it.
// Everything shown comes from the server's state (docs/api.md); a reload or a
// reconnection simply draws the state again.
import { api, GameSocket, tokens as tokenStore } from './api.js';
import { Board, parseMove } from './board.js';
import { pieceIcon } from './pieces.js';

const $ = (id) => document.getElementById(id);
const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : '');
function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== undefined && v !== null) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

const REASONS = {
  checkmate: 'checkmate', 'king-captured': 'a king was captured', stalemate: 'stalemate', 'bare-king': 'a bare king',
  resign: 'resignation', resignation: 'resignation', timeout: 'time', repetition: 'threefold repetition',
  'fifty-moves': 'the fifty-move rule', 'only-kings': 'only kings are left', agreement: 'agreement',
};

// ---- page state ---------------------------------------------------------------
const params = new URLSearchParams(location.search);
const pathId = (location.pathname.match(/^\/game\/([\w-]+)/) || [])[1];
const id = params.get('id') || pathId;
const urlToken = params.get('token') || new URLSearchParams(location.hash.slice(1)).get('token');
const urlSeat = params.get('seat');

let held = tokenStore.load(id);        // seat -> token
let state = null;
let variant = null;                    // the entry of /api/variants
let rotation = null;
let viewPly = null;                    // null: live; else the ply shown
let frames = null;                     // replay frames
let socket = null;
let receivedAt = 0;
let resignArmed = 0;
let pending = false;
let board = null;

const primaryToken = () => urlToken || Object.values(held)[0] || null;
const mySeats = () => Object.keys(held).filter((s) => held[s]);
const tokenFor = (seat) => held[seat] || null;
const seatNames = () => (state ? state.seats.map((s) => s.seat) : []);

function learnSeats(token, you) {
  if (!token || !Array.isArray(you) || !you.length) return;
  let changed = false;
  for (const seat of you) if (held[seat] !== token) { held[seat] = token; changed = true; }
  if (changed) tokenStore.save(id, held);
}

function banner(text, kind = '') {
  const b = $('banner');
  if (!text) { b.hidden = true; return; }
  b.hidden = false;
  b.className = `banner ${kind}`;
  b.textContent = text;
}
let bannerTimer = 0;
function flash(text) {
  banner(text, 'warn');
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => banner(socketDown ? 'Connection lost: reconnecting…' : ''), 5000);
}

// ---- receiving states -----------------------------------------------------------
// `token` is the token the state was asked with: its `you` names the seats it holds.
function accept(s, token = primaryToken(), fresh = false) {
  if (!s || (state && s.id && s.id !== state.id)) return;
  if (!fresh && state && typeof s.v === 'number' && typeof state.v === 'number' && s.v < state.v) return;
  if (s.you) learnSeats(token, s.you);
  const first = !state;
  state = s;
  receivedAt = performance.now();
  if (first) setup();
  if (frames && state.moves && frames.length !== state.moves.length + 1) frames = null;
  render();
}

function setup() {
  document.title = `${state.title || state.variant} · Acedrex`;
  $('rules-link').href = `/rules.html?variant=${encodeURIComponent(state.variant)}`;
  $('pgn-link').href = api.pgnUrl(state.id || id);
  $('pgn-link').setAttribute('download', `acedrex-${state.id || id}.${state.seats.length > 2 ? 'pgn4' : 'pgn'}`);
  const saved = localStorage.getItem(`acedrex.rot.${id}`);
  rotation = saved !== null ? Number(saved) : initialRotation();
}

function viewerSeat() {
  if (urlSeat && held[urlSeat]) return urlSeat;
  const mine = mySeats();
  const order = seatNames();
  return order.find((s) => mine.includes(s)) || null;
}

function initialRotation() {
  const seat = viewerSeat();
  if (!seat) return 0;
  const b = state.board;
  const pcs = state.pieces.filter((p) => p.seat === seat);
  const king = pcs.find((p) => p.name === 'king') || pcs[0];
  if (!king) return 0;
  return Board.rotationFor(b.width, b.height, king.square, state.seats.length);
}

// ---- drawing ------------------------------------------------------------------------
function canMove() {
  return state && state.status === 'ongoing' && viewPly === null && !pending && !!tokenFor(state.toMove);
}

function kingSquaresInCheck(pieces, seats) {
  const set = new Set(seats || []);
  return pieces.filter((p) => set.has(p.seat) && (p.name === 'king' || (!p.name && p.letter === 'K'))).map((p) => p.square);
}

function pieceNames() {
  const out = {};
  for (const p of (variant && variant.pieces) || []) out[p.letter] = p.name;
  for (const p of state.pieces) if (p.letter && p.name && !out[p.letter]) out[p.letter] = p.name;
  return out;
}

function render() {
  if (!state) return;
  const frame = viewPly !== null && frames ? frames[viewPly] : null;
  const live = !frame;
  const pieces = live ? state.pieces : frame.pieces;
  board.update({
    width: state.board.width,
    height: state.board.height,
    blocked: state.board.blocked || [],
    pieces,
    legal: live ? state.legal || {} : {},
    interactive: canMove(),
    lastMove: live ? state.lastMove : frame.lastMove,
    check: kingSquaresInCheck(pieces, live ? state.check : frame.check),
    toMove: live ? state.toMove : frame.toMove,
    rotation,
    arrows: state.seats.length > 2,
    pieceNames: pieceNames(),
  });
  $('board').dataset.v = String(state.v);
  $('board').dataset.toMove = state.toMove || '';
  $('board').dataset.status = state.status;
  renderTitle();
  renderSeats();
  renderDie(live ? state : frame);
  renderCoins(live ? state.coins : frame.coins);
  renderMoves();
  renderControls();
  renderResult();
  renderStatus();
  renderReplayBar();
}

function renderTitle() {
  $('title').textContent = state.title || state.variant;
  const opts = Object.entries(state.options || {}).map(([k, v]) => `${k}=${v}`).join(', ');
  const clock = state.clock ? ` · clock ${Math.round(state.clock.initialMs / 60000)}+${Math.round(state.clock.incrementMs / 1000)}` : '';
  $('options-line').textContent = `${opts || 'standard rules'}${clock}${state.hotSeat ? ' · hot seat' : ''}`;
}

function fmtClock(ms) {
  if (ms === null || ms === undefined) return '';
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000), s = Math.floor((t % 60000) / 1000);
  if (t < 10000) return `${s}.${Math.floor((t % 1000) / 100)}`;
  return `${m}:${String(s).padStart(2, '0')}`;
}
function clockOf(seat) {
  if (seat.clockMs === null || seat.clockMs === undefined) return null;
  const running = state.status === 'ongoing' && (state.clockRunning !== undefined ? state.clockRunning === seat.seat : (state.toMove === seat.seat && state.moves.length > 0));
  return running ? seat.clockMs - (performance.now() - receivedAt) : seat.clockMs;
}

function renderSeats() {
  const box = $('seats');
  box.replaceChildren();
  const mine = mySeats();
  for (const s of state.seats) {
    const isMine = mine.includes(s.seat);
    const who = s.kind === 'bot' ? `bot, level ${s.level}` : isMine ? 'you' : 'human';
    const clock = clockOf(s);
    const meta = [];
    if (!s.in && state.status === 'ongoing') meta.push(`out${s.outReason ? ` (${REASONS[s.outReason] || s.outReason})` : ''}`);
    if (s.place) meta.push(`place ${s.place}`);
    const el = h('div', {
      class: `seat seat-${s.seat}${state.toMove === s.seat ? ' to-move' : ''}${s.in ? '' : ' out'}`,
      'data-seat': s.seat, 'data-in': String(!!s.in), 'data-place': s.place || '',
    },
    h('span', { class: 'chip' }),
    h('span', {}, h('span', { class: 'who' }, cap(s.seat)), ' ', h('span', { class: 'muted' }, `(${who})`),
      h('span', { class: `dot${s.connected ? ' on' : ''}`, title: s.connected ? 'connected' : 'not connected' })),
    clock !== null ? h('span', { class: `clock${clock < 10000 ? ' low' : ''}`, 'data-clock': s.seat }, fmtClock(clock))
      : s.place ? h('span', { class: 'place' }, `#${s.place}`) : h('span'),
    meta.length ? h('div', { class: 'meta' }, meta.join(' · ')) : null);
    box.append(el);
  }
}

function tickClocks() {
  if (!state) return;
  for (const s of state.seats) {
    const el = document.querySelector(`[data-clock="${s.seat}"]`);
    if (!el) continue;
    const c = clockOf(s);
    el.textContent = fmtClock(c);
    el.classList.toggle('low', c < 10000);
  }
}

const PIPS = {
  1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]],
};
function dieFace(n, sides) {
  const face = h('div', { class: `face${sides > 6 ? ' d8' : ''}`, 'data-die': String(n), title: `the die shows ${n}` });
  if (sides > 6 || !PIPS[n]) { face.textContent = String(n); return face; }
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  for (const [cx, cy] of PIPS[n]) {
    const c = document.createElementNS(ns, 'circle');
    c.setAttribute('cx', cx); c.setAttribute('cy', cy); c.setAttribute('r', 10); c.setAttribute('fill', '#2b2620');
    svg.append(c);
  }
  face.append(svg);
  return face;
}
function renderDie(src) {
  const dieOn = (state.options && state.options.die && state.options.die !== 'off') || state.die;
  $('die-card').hidden = !dieOn;
  if (!dieOn) return;
  const box = $('die');
  box.replaceChildren();
  const sides = state.variant === 'grant-acedrex' ? 8 : 6;
  const n = src.die;
  const seat = src.toMove;
  if (!n || !seat) {
    const lastDie = state.moves.length ? state.moves[state.moves.length - 1].die : null;
    box.append(h('span', { class: 'muted' }, state.status === 'finished' ? `Game over${lastDie ? ` (last throw ${lastDie})` : ''}.` : 'Waiting for the throw…'));
    return;
  }
  const kind = src.dieKind || '';
  const kindName = kind.length === 1 ? (pieceNames()[kind] || kind) : kind;
  if (!kindName) {
    box.append(dieFace(n, sides), h('span', {}, h('b', {}, cap(seat)), ` threw ${n}.`));
    return;
  }
  box.append(dieFace(n, sides),
    h('span', { class: `seat-${seat}` }, pieceIcon(kindName, seat, 44)),
    h('span', {}, h('b', {}, cap(seat)), ` threw ${n}: `, h('b', { 'data-die-kind': kindName }, kindName.replace('-', ' ')), ' must move.'));
}

function renderCoins(coins) {
  $('coins-card').hidden = !coins;
  if (!coins) return;
  const t = $('coins');
  t.replaceChildren();
  for (const s of seatNames()) {
    const n = coins[s] ?? 0;
    t.append(h('tr', { class: `seat-${s}`, 'data-coins': s }, h('td', {}, h('span', { class: 'chip' }), ' ', cap(s)),
      h('td', { class: 'n' }, n > 0 ? `+${n}` : String(n))));
  }
}

function moveLabel(m) {
  if (m.uci === '0000') return '—';
  if (m.uci === 'resign') return 'resigns';
  if (m.uci === 'timeout') return 'time out';
  const p = parseMove(m.uci);
  if (!p) return m.uci;
  return `${p.from}-${p.to}${p.suffix ? `=${p.suffix.toUpperCase()}` : ''}`;
}

function renderMoves() {
  const box = $('moves');
  const order = seatNames();
  const n = order.length;
  const table = h('table');
  let row = null, prevCol = n, round = 0;
  const shown = viewPly === null ? state.moves.length : viewPly;
  state.moves.forEach((m, i) => {
    const col = Math.max(0, order.indexOf(m.seat));
    if (!row || col <= prevCol) {
      round++;
      row = h('tr', {}, h('td', { class: 'num' }, `${round}.`));
      for (let c = 0; c < n; c++) row.append(h('td', {}));
      table.append(row);
    }
    prevCol = col;
    const cell = row.children[col + 1];
    cell.replaceChildren(...[h('span', { class: `mv-chip seat-${m.seat}` }), moveLabel(m), m.die ? h('sub', { class: 'muted' }, ` ${m.die}`) : null].filter(Boolean));
    cell.dataset.ply = String(i + 1);
    cell.title = `${cap(m.seat)}: ${m.uci}${m.die ? ` (die ${m.die})` : ''}`;
    if (i + 1 === shown) cell.classList.add('cur');
    cell.addEventListener('click', () => showPly(i + 1));
  });
  if (!state.moves.length) table.append(h('tr', {}, h('td', { class: 'muted' }, 'No moves yet.')));
  const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
  box.replaceChildren(table);
  if (atBottom || viewPly === null) box.scrollTop = box.scrollHeight;
}

function renderControls() {
  const box = $('controls');
  box.replaceChildren();
  const mine = mySeats();
  const ongoing = state.status === 'ongoing';
  const myIn = state.seats.filter((s) => mine.includes(s.seat) && s.in);
  const two = state.seats.length === 2;
  const btn = (label, attrs, fn) => h('button', { ...attrs, onclick: fn }, label);
  if (ongoing && myIn.length) {
    const armed = Date.now() - resignArmed < 4000;
    box.append(btn(armed ? 'Confirm: resign' : 'Resign', { id: 'resign', class: armed ? 'primary' : '' }, onResign));
    if (two) {
      const offer = state.drawOffer;
      if (offer && !mine.includes(offer)) {
        box.append(btn('Accept draw', { id: 'draw-accept', class: 'primary' }, () => act(() => api.draw(id, 'accept', tokenFor(myIn[0].seat)))));
        box.append(btn('Decline draw', { id: 'draw-decline' }, () => act(() => api.draw(id, 'decline', tokenFor(myIn[0].seat)))));
      } else if (offer) {
        box.append(btn('Draw offered…', { id: 'draw-offer', disabled: true }));
      } else {
        box.append(btn('Offer draw', { id: 'draw-offer' }, () => act(() => api.draw(id, 'offer', tokenFor(myIn[0].seat)))));
      }
    }
    const others = state.seats.filter((s) => !mine.includes(s.seat));
    const vsBots = others.every((s) => s.kind === 'bot');
    const myMoves = state.moves.some((m) => mine.includes(m.seat) && m.uci !== 'resign' && m.uci !== 'timeout');
    if (vsBots && myMoves) {
      box.append(btn('Take back', { id: 'takeback' }, () => {
        const seat = state.moves.slice().reverse().find((m) => mine.includes(m.seat)).seat;
        viewPly = null;
        act(() => api.takeback(id, tokenFor(seat)));
      }));
    }
  }
  box.append(btn('Turn the board', { id: 'rotate', title: 'turn the view a quarter (four players) or half turn' }, () => {
    rotation = (rotation + (state.seats.length > 2 ? 1 : 2)) % 4;
    localStorage.setItem(`acedrex.rot.${id}`, String(rotation));
    render();
  }));
}

async function onResign() {
  if (Date.now() - resignArmed >= 4000) {
    resignArmed = Date.now();
    renderControls();
    setTimeout(() => renderControls(), 4100);
    return;
  }
  resignArmed = 0;
  const mine = mySeats();
  const seat = mine.includes(state.toMove) ? state.toMove : state.seats.find((s) => mine.includes(s.seat) && s.in).seat;
  await act(() => api.resign(id, tokenFor(seat)));
}

async function act(fn) {
  try {
    const s = await fn();
    if (s && s.seats) accept(s, null);
    else refresh();
  } catch (e) {
    flash(e.message);
    refresh();
  }
}

function renderResult() {
  const box = $('result');
  if (state.status !== 'finished' || !state.result) { box.hidden = true; return; }
  box.hidden = false;
  const r = state.result;
  const places = r.places || {};
  const order = Object.keys(places).sort((a, b) => places[a] - places[b]);
  const firsts = order.filter((s) => places[s] === 1);
  const winner = r.winner !== undefined ? r.winner : (firsts.length === 1 ? firsts[0] : null);
  const mine = mySeats();
  let head;
  if (winner) head = mine.includes(winner) && mine.length < state.seats.length ? 'You win!' : `${cap(winner)} wins`;
  else if (firsts.length > 1) head = firsts.length === state.seats.length ? 'Draw' : `Draw between ${firsts.map(cap).join(', ')}`;
  else head = 'Game over';
  box.replaceChildren(
    h('h2', { 'data-result': winner || 'draw' }, head),
    h('div', {}, `By ${REASONS[r.reason] || r.reason || 'the rules'}.`),
    h('ol', {}, order.map((s) => h('li', { value: places[s], class: `seat-${s}` }, h('span', { class: 'chip' }), ' ', cap(s),
      state.coins ? h('span', { class: 'muted' }, ` · coins ${state.coins[s] > 0 ? '+' : ''}${state.coins[s] ?? 0}`) : null))),
    h('div', { class: 'row' }, h('button', { id: 'replay-start', onclick: () => showPly(0) }, 'Replay from the start'),
      h('a', { class: 'button', href: api.pgnUrl(id), download: `acedrex-${id}.pgn` }, 'Download the record'),
      h('a', { class: 'button', href: `/?variant=${state.variant}` }, 'New game')),
  );
}

function renderStatus() {
  const el = $('status');
  if (viewPly !== null) { el.textContent = `Replay: after ${viewPly} of ${state.moves.length} plies.`; return; }
  if (state.status === 'finished') { el.textContent = 'The game is over.'; return; }
  const s = state.seats.find((x) => x.seat === state.toMove);
  const inCheck = (state.check || []).includes(state.toMove);
  if (!s) { el.textContent = ''; return; }
  let text;
  if (tokenFor(s.seat)) text = mySeats().length > 1 ? `${cap(s.seat)} to move: your move.` : 'Your move.';
  else if (s.kind === 'bot') text = `${cap(s.seat)} (bot) is thinking…`;
  else text = `${cap(s.seat)} to move.`;
  if (inCheck) text += ` ${cap(s.seat)} is in check!`;
  el.replaceChildren(h('span', { class: `chip seat-${s.seat}` }), ' ', text);
}

function renderReplayBar() {
  const show = state.status === 'finished' || viewPly !== null;
  $('replay').hidden = !show;
  if (!show) return;
  const ply = viewPly === null ? state.moves.length : viewPly;
  $('rp-label').textContent = `ply ${ply} / ${state.moves.length}`;
  $('rp-live').hidden = viewPly === null || state.status === 'finished';
  $('rp-first').disabled = ply === 0;
  $('rp-prev').disabled = ply === 0;
  $('rp-next').disabled = ply >= state.moves.length;
  $('rp-last').disabled = ply >= state.moves.length;
}

// ---- replay ------------------------------------------------------------------------
async function loadFrames() {
  if (frames && frames.length === state.moves.length + 1) return true;
  try {
    const r = await fetch(`/api/game/${encodeURIComponent(id)}/replay`);
    if (!r.ok) throw new Error(`replay: ${r.status}`);
    const data = await r.json();
    frames = data.frames || data;
    return Array.isArray(frames) && frames.length > 0;
  } catch (e) {
    flash(`The replay is not available: ${e.message}`);
    frames = null;
    return false;
  }
}
async function showPly(n) {
  if (!state) return;
  const total = state.moves.length;
  n = Math.max(0, Math.min(total, n));
  if (n === total && state.status === 'ongoing') { viewPly = null; render(); return; }
  if (!(await loadFrames())) return;
  viewPly = Math.min(n, frames.length - 1);
  if (viewPly === total && state.status === 'finished') viewPly = total;
  render();
}
function step(d) {
  const cur = viewPly === null ? state.moves.length : viewPly;
  showPly(cur + d);
}

// ---- moving ------------------------------------------------------------------------
async function onMove(uci) {
  if (!canMove()) return;
  const seat = state.toMove;
  pending = true;
  try {
    const s = await api.move(id, uci, tokenFor(seat));
    pending = false;
    if (s && s.seats) accept(s, null);
  } catch (e) {
    pending = false;
    flash(`Move ${uci} refused: ${e.message}`);
    refresh();
  }
  // states that came by the socket meanwhile were drawn without moves allowed
  render();
}

async function refresh() {
  try {
    const s = await fetchState();
    accept(s);
  } catch (e) {
    banner(`Cannot load the game: ${e.message}`, 'warn');
  }
}
async function fetchState() {
  const t = primaryToken();
  const r = await fetch(`/api/game/${encodeURIComponent(id)}`, { headers: t ? { Authorization: `Bearer ${t}` } : {} });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

let socketDown = false;
async function main() {
  board = new Board($('board'), { onMove });
  if (!id) { banner('No game given. Start one from the lobby.', 'warn'); return; }
  if (urlToken && urlSeat) { held[urlSeat] = urlToken; tokenStore.save(id, held); }
  api.variants().then((vs) => {
    variant = (Array.isArray(vs) ? vs : []).find((v) => state && v.name === state.variant) || null;
    if (state) render();
  }).catch(() => {});
  try {
    accept(await fetchState());
  } catch (e) {
    banner(`Cannot load game ${id}: ${e.message}`, 'warn');
    return;
  }
  if (variant === null) {
    api.variants().then((vs) => { variant = vs.find((v) => v.name === state.variant) || null; render(); }).catch(() => {});
  }
  socket = new GameSocket(id, primaryToken(), {
    onState: (s, fresh) => accept(s, primaryToken(), fresh),
    onStatus: (st) => {
      socketDown = st !== 'open';
      $('board').dataset.socket = st;
      if (st === 'open') { banner(''); } else banner('Connection lost: reconnecting…', 'warn');
    },
    onMessage: (msg) => {
      if (msg.t === 'error' && msg.d) flash(msg.d.error || msg.d.message || 'refused');
    },
  });
  setInterval(tickClocks, 200);
  // Without a socket, keep the page current by polling.
  setInterval(() => { if (socketDown && state) refresh(); }, 3000);
  $('rp-first').onclick = () => showPly(0);
  $('rp-prev').onclick = () => step(-1);
  $('rp-next').onclick = () => step(1);
  $('rp-last').onclick = () => showPly(state.moves.length);
  $('rp-live').onclick = () => { viewPly = null; render(); };
  document.addEventListener('keydown', (e) => {
    if (e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    if (e.key === 'ArrowLeft') step(-1);
    else if (e.key === 'ArrowRight') step(1);
    else if (e.key === 'Home') showPly(0);
    else if (e.key === 'End') showPly(state.moves.length);
  });
  document.body.dataset.ready = '1';
}
main();
