// The game page: plays (with seat tokens) or watches a game, and replays it.
// Everything shown comes from the server's state (docs/api.md); a reload or a
// reconnection simply draws the state again.
import { api, GameSocket, tokens as tokenStore, myGames } from './api.js';
import { playerNode, nameHeldSeats } from './players.js';
import { h } from './dom.js';
import { Board, parseMove } from './board.js';
import { pieceIcon, pieceGlyph } from './pieces.js';
import { Hand } from './hands.js';
import { SETS, familyOf, setFamily, boardLook } from './sets.js';
import { hexTurnFor } from './hexboard.js';
import { t, tOr, gameTitle, seatName as plainSeatName, pieceName, translatePage, languageSwitch } from './i18n.js';
import { prefs, BOARD_THEMES } from './prefs.js';
import { sounds } from './sounds.js';
import { createStore } from './store.js';
import { glowingSeats, seatMoves, takebackSeat, clockText, moveLabel, matchTyped, parseHands, passMoves, seatPoints, teamsOf, markDead, parseUnions, withUnions, premoveMove } from './view.js';

const $ = (id) => document.getElementById(id);
// The result's reason as a sentence ("A king was captured."), and why a seat went out, in a word or two.
const reasonText = (r) => tOr(`reason.${r}`, t('reason.other', { reason: r }));
const outText = (r) => tOr(`out.${r}`, r);

// ---- page state ---------------------------------------------------------------
const params = new URLSearchParams(location.search);
const pathId = (location.pathname.match(/^\/game\/([\w-]+)/) || [])[1];
const id = params.get('id') || pathId;
const urlToken = params.get('token') || new URLSearchParams(location.hash.slice(1)).get('token');
const urlSeat = params.get('seat');

// The page's state, in one store (js/store.js): read and written as S.name.
// The drawing subscribes to the keys it shows (SHOWN, below) and runs once
// after they change.
const store = createStore({
  // what is shown
  state: null,
  variant: null, // the entry of /api/variants
  held: {}, // seat -> token, only seats the server confirmed
  rotation: null,
  viewPly: null, // null: live; else the ply shown
  frames: null, // replay frames
  side: null, // {base: the main line's ply it branches from, moves: [{uci, seat, frame}]}
  sideAt: null, // null: the main line is shown; k: the position after the side line's k-th move
  analysing: false,
  // this page's own part
  pending: false,
  duckStage: false, // the board asks for the duck's square
  myOffer: false, // this page offered the draw that stands
  resignArmed: 0,
  sent: 0, // moves this page sent to the server (#board data-sent)
  resultClosed: false,
  sideRefused: false, // the server refused this game's positions (403)
  positionShown: null,
  pendingBlast: null,
  receivedAt: 0,
  lastMoveShownAt: 0,
  drawnMoves: null, // the number of moves the last drawing showed
  // notices
  socketDown: false,
  stickyNotice: '',
  // the components and timers
  board: null,
  hands: null, // {top, bottom}: the hand components
  socket: null,
  pumpTimer: 0,
  bannerTimer: 0,
  positionTimer: 0,
});
const S = store.state;
const incoming = [];                   // states waiting to be shown (bot moves are paced)

const primaryToken = () => Object.values(S.held)[0] || null;
const mySeats = () => Object.keys(S.held).filter((s) => S.held[s]);
const tokenFor = (seat) => S.held[seat] || null;
const seatNames = () => (S.state ? S.state.seats.map((s) => s.seat) : []);
const seatOf = (name) => (S.state ? S.state.seats.find((s) => s.seat === name) : null);

// ---- notices: overlaid on the board, never pushing it -----------------------------
function banner(text, kind = '') {
  const b = $('banner');
  if (!text) { b.hidden = true; return; }
  b.hidden = false;
  b.className = `banner ${kind}`;
  b.textContent = text;
}
function flash(text, ms = 5000) {
  banner(text, 'warn');
  clearTimeout(S.bannerTimer);
  S.bannerTimer = setTimeout(() => banner(S.socketDown ? t('conn.lost') : S.stickyNotice, S.stickyNotice ? 'warn' : ''), ms);
}

// ---- receiving states -----------------------------------------------------------
// States are queued and shown in order; a bot's move stays on screen at least
// prefs.botPaceMs before the next one, so a player can follow (and one who is
// out can still watch). `fresh` (a new connection) shows at once.
function accept(s, fresh = false) {
  if (!s || (S.state && s.id && s.id !== S.state.id)) return;
  if (fresh) { incoming.length = 0; show(s, true); return; }
  const newest = incoming.length ? incoming[incoming.length - 1] : S.state;
  if (newest && typeof s.v === 'number' && typeof newest.v === 'number' && s.v < newest.v) return;
  incoming.push(s);
  pump();
}

function paced(next) {
  if (!S.state || next.moves.length <= S.state.moves.length) return false;
  const last = next.moves[next.moves.length - 1];
  const who = next.seats.find((x) => x.seat === last.seat);
  return !!who && who.kind === 'bot';
}

function pump() {
  clearTimeout(S.pumpTimer);
  while (incoming.length) {
    const next = incoming[0];
    const pace = Number(prefs.get('botPaceMs')) || 0;
    if (pace > 0 && paced(next)) {
      const wait = S.lastMoveShownAt + pace - performance.now();
      if (wait > 0) { S.pumpTimer = setTimeout(pump, wait); return; }
    }
    incoming.shift();
    show(next, false);
  }
}

function show(s, fresh) {
  if (!fresh && S.state && typeof s.v === 'number' && typeof S.state.v === 'number' && s.v < S.state.v) return;
  const prev = S.state;
  S.state = s;
  S.receivedAt = performance.now();
  if (!prev) setup();
  // Frames stay good while the game only grows (a player looking back is not
  // pulled to the live position by the next move); a takeback drops them.
  if (S.frames && S.state.moves && S.frames.length > S.state.moves.length + 1) { S.frames = null; S.viewPly = null; }
  if (prev && S.state.moves.length > prev.moves.length) {
    S.lastMoveShownAt = performance.now();
    announce(prev, S.state);
    blastOf(prev, S.state);
  }
  noticeDraws(prev, S.state);
  if (prefs.get('hotSeatTurn') && S.state.hotSeat && S.state.toMove && mySeats().length > 1) S.rotation = rotationOf(S.state.toMove);
  render();
}

// What changed, said in words: lost turns to the die, and a sound per move.
function announce(prev, next) {
  const added = next.moves.slice(prev.moves.length);
  for (const m of added) {
    if (m.uci === '0000') {
      const kind = m.dieKind ? pieceName(m.dieKind) : '';
      flash(kind ? t('die.lostTurn', { seat: seatName(m.seat), n: m.die, kind })
        : t('die.lostTurnPlain', { seat: seatName(m.seat), n: m.die ?? '' }));
    }
  }
  const last = added[added.length - 1];
  if (next.status === 'finished') sounds.play('end');
  else if (last && last.san && /x/.test(last.san)) sounds.play('capture');
  else sounds.play('move');
}

// Atomic: a capture explodes; the board shows the blast round the target.
function blastOf(prev, next) {
  if (!S.variant || !S.variant.blast || next.moves.length !== prev.moves.length + 1) return;
  const m = next.moves[next.moves.length - 1];
  const mv = parseMove(m.uci);
  if (!mv) return;
  const captured = (m.san && m.san.includes('x')) || prev.pieces.some((p) => p.square === mv.to);
  if (captured) S.pendingBlast = mv.to;
}

function noticeDraws(prev, next) {
  if (!prev || next.status !== 'ongoing') { if (next.status !== 'ongoing') S.myOffer = false; return; }
  const mine = mySeats();
  if (next.drawOffer && next.drawOffer !== prev.drawOffer && !mine.includes(next.drawOffer)) {
    flash(t('draw.offers', { seat: seatName(next.drawOffer) }), 8000);
  }
  if (prev.drawOffer && !next.drawOffer && mine.includes(prev.drawOffer) && next.moves.length === prev.moves.length) {
    const other = next.seats.find((x) => x.seat !== prev.drawOffer);
    if (other) flash(t('draw.declined', { seat: seatName(other.seat) }));
    S.myOffer = false;
  }
}

function setup() {
  document.title = `${gameTitle(S.state.variant, S.state.title)} · Acedrex`;
  $('rules-link').href = `/rules.html?variant=${encodeURIComponent(S.state.variant)}`;
  $('pgn-link').href = api.pgnUrl(S.state.id || id);
  $('pgn-link').setAttribute('download', `acedrex-${S.state.id || id}.${S.state.seats.length > 2 ? 'pgn4' : 'pgn'}`);
  const saved = localStorage.getItem(`acedrex.rot.${id}`);
  S.rotation = saved !== null ? Number(saved) : initialRotation();
}

function viewerSeat() {
  if (urlSeat && S.held[urlSeat]) return urlSeat;
  const mine = mySeats();
  return seatNames().find((s) => mine.includes(s)) || null;
}

function rotationOf(seat) {
  const b = S.state.board;
  const pcs = S.state.pieces.filter((p) => p.seat === seat);
  const king = pcs.find((p) => p.name === 'king') || pcs[0];
  if (!king) return S.rotation || 0;
  if (hexBoard()) return hexTurnFor(king.square);
  return Board.rotationFor(b.width, b.height, king.square, S.state.seats.length);
}
// three-player chess's six-sided board: the view turns by thirds (js/hexboard.js)
function hexBoard() { return !!S.variant && S.variant.geometry === 'hex3'; }
function initialRotation() {
  const seat = viewerSeat();
  return seat ? rotationOf(seat) : 0;
}

// ---- drawing ------------------------------------------------------------------------
function canMove() {
  return S.state && S.state.status === 'ongoing' && S.viewPly === null && !S.pending && !incoming.length && !!tokenFor(S.state.toMove) && !freeSeats().length;
}
// A listed game's seats nobody has taken yet: until they are, nobody moves.
function freeSeats() {
  return S.state && S.state.status === 'ongoing' ? S.state.seats.filter((s) => s.open) : [];
}

function kingSquares(pieces, seats) {
  const set = new Set(seats || []);
  return pieces.filter((p) => set.has(p.seat) && (p.name === 'king' || (!p.name && p.letter === 'K'))).map((p) => p.square);
}
function pieceNames() {
  const out = {};
  for (const p of (S.variant && S.variant.pieces) || []) out[p.letter] = p.name;
  for (const p of S.state.pieces) if (p.letter && p.name && !out[p.letter]) out[p.letter] = p.name;
  return out;
}

// Seats are named and coloured as the family's players are (xiangqi: Red and
// Black; janggi: Cho in blue and Han in red; shogi: Sente and Gote).
const seatName = (seat) => tOr(`seat.${family()}.${seat}`, plainSeatName(seat));

// The piece set: a family's traditional or international pieces, or for the
// chess-like games our glyphs or our tokens (sets.js); the choice kept per family.
function family() { return familyOf(S.variant); }
function pieceSet() {
  const fam = setFamily(S.variant);
  const chosen = prefs.get(`pieceSet.${fam}`);
  return SETS[fam].includes(chosen) ? chosen : SETS[fam][0];
}
// style, palaces, river, glyph and promoted names for the board (sets.js)
function look() { return boardLook(S.variant, pieceSet(), seatNames()); }

// The hands beside the board: the seat seen at the bottom below, the other above.
function renderHands(fen) {
  const parsed = parseHands(fen, seatNames(), ((S.variant && S.variant.pieces) || []).map((p) => p.letter));
  const on = !!parsed;
  $('hands').hidden = !on;
  document.querySelector('.game').classList.toggle('with-hands', on);
  if (!on) return;
  const order = seatNames();
  const bottom = S.rotation === 2 ? order[1] : order[0];
  const top = order.find((x) => x !== bottom);
  const names = pieceNames();
  const fn = look().glyph;
  const glyph = (pc) => (fn && fn(pc, pc.seat === order[0] ? 0 : 180)) || pieceGlyph(pc.name, pc.letter);
  const live = S.viewPly === null && S.sideAt === null;
  const tryable = sideMovable();
  for (const [where, seat] of [['top', top], ['bottom', bottom]]) {
    const dir = seat === order[0] ? 'n' : 's';
    S.hands[where].update({
      seat,
      pieces: parsed[seat].map((p) => ({ ...p, name: names[p.letter] || '', title: pieceName(names[p.letter] || p.letter), dir })),
      active: (live && canMove() && S.state.toMove === seat) || (tryable && shownMover() === seat),
      glyph,
      label: t('hand.label', { seat: seatName(seat) }),
      emptyText: t('hand.empty'),
    });
  }
}

// The page is drawn from the store: a change of what is shown draws it once,
// after the code that made the change has run; render() asks for a drawing
// when what changed is not in the store (a preference, an analysis that came
// back, a position the server answered).
const SHOWN = ['state', 'variant', 'held', 'rotation', 'viewPly', 'frames', 'side', 'sideAt', 'analysing', 'view'];
store.subscribe(SHOWN, () => draw());
function render() { store.touch('view'); }
function draw() {
  if (!S.state) return;
  document.documentElement.dataset.family = family() || '';
  const sf = sideFrame();
  const frame = sf || (S.viewPly !== null && S.frames ? S.frames[S.viewPly] : null);
  const live = !frame;
  const pieces = live ? S.state.pieces : frame.pieces;
  const upTo = live ? S.state.moves.length : sf ? null : S.viewPly;
  const tryable = sideMovable();
  S.board.update({
    width: S.state.board.width,
    height: S.state.board.height,
    blocked: S.state.board.blocked || [],
    pieces: withUnions(markDead(pieces, live ? S.state.seats : frameSeats(frame)), unionsOf(live ? S.state.fen : frame.fen), pieceNames()),
    stepKind: stepKind(),
    legal: live && !tryable ? S.state.legal || {} : tryable ? shownLegal() : {},
    interactive: canMove() || tryable,
    premoveSeat: live ? premoveSeat() : null,
    lastMove: live ? S.state.lastMove : frame.lastMove,
    visible: live ? S.state.visible || null : null,
    seatMoves: S.state.seats.length > 2 && upTo !== null ? seatMoves(S.state.moves, upTo) : null,
    check: kingSquares(pieces, glowingSeats(S.state, live ? S.state : frame, upTo === S.state.moves.length)),
    toMove: live ? S.state.toMove : frame.toMove,
    rotation: S.rotation,
    arrows: S.state.seats.length > 2,
    pieceNames: pieceNames(),
    hint: analysisHint(live ? S.state.fen : frame.fen),
    ...(({ style, palaces, river, glyph, glyphKey, promoted, geometry, coords }) => ({ style, palaces, river, glyph, glyphKey, promoted, geometry, coords }))(look()),
    labels: {
      seat: seatName, piece: pieceName, promote: (sq) => t('board.promoteOn', { square: sq }), promoteTo: (n) => t('board.promoteTo', { piece: pieceName(n) }),
      board: t('board.label'), empty: t('board.empty'), hidden: t('fog.hiddenSquare'), selected: t('board.selected'), destination: t('board.destination'), movable: t('board.movable'),
    },
  });
  if (S.pendingBlast) { S.board.explode(S.pendingBlast); S.pendingBlast = null; }
  renderHands(live ? S.state.fen : frame.fen);
  $('board').dataset.v = String(S.state.v);
  $('board').dataset.toMove = S.state.toMove || '';
  $('board').dataset.status = S.state.status;
  $('board').dataset.tryable = tryable ? '1' : '';  // the analysis board takes a move here
  // the server's answer for the position shown: '' not asked (yet), 'pending',
  // 'known'; 'off' where the page asks for no position (fog of war, refused)
  const asked = positions.get(shownFen());
  $('board').dataset.position = S.sideRefused || !analysable() ? 'off' : !asked ? '' : asked.pending ? 'pending' : 'known';
  renderTitle();
  renderSeats();
  renderDie(live ? S.state : sf ? sf : { ...frame, dieKind: frame.dieKind || (S.state.moves[S.viewPly] && S.state.moves[S.viewPly].die === frame.die ? S.state.moves[S.viewPly].dieKind : null) });
  renderCoins(live ? S.state.coins : sf ? null : frame.coins);
  renderMoves();
  renderControls();
  renderPosition();
  renderRecordLink();
  renderResult();
  renderWaiting();
  renderStatus();
  renderClocksBar();
  renderReplayBar();
  $('type-move').disabled = !(canMove() || tryable);
  // the pace of the bots' moves counts from when a move is on the screen
  if (S.drawnMoves !== null && S.state.moves.length > S.drawnMoves) S.lastMoveShownAt = performance.now();
  S.drawnMoves = S.state.moves.length;
  playPremove();
  if (S.state.status === 'finished' && !positions.has(shownFen())) schedulePosition();
}

// Premoves (two seats and more, not in hot seat): the one seat this page
// plays may queue a move while another seat is to move.
function premoveSeat() {
  if (!prefs.get('premoves') || !S.state || S.state.status !== 'ongoing' || S.state.hotSeat || freeSeats().length) return null;
  const mine = mySeats();
  if (mine.length !== 1) return null;
  const me = seatOf(mine[0]);
  return me && me.in && S.state.toMove !== me.seat ? me.seat : null;
}
// The turn has come: the premove is played at once if it is legal now, else dropped silently.
function playPremove() {
  if (!S.board.premove || !canMove()) return;
  const pm = S.board.takePremove();
  const m = premoveMove(pm, S.state.legal);
  S.board.render();
  if (!m) return;
  S.board.localMove = m;
  onMove(m);
}

// A replay frame's seats (for the dead armies): its own when the frame has them.
// What the later steps of a turn are: the duck's square, or a chain's steps.
// (/api/variants says `duck`; the duck is no piece type of the variant.)
const stepKind = () => (S.variant && S.variant.duck ? 'duck' : 'chain');
// Friendly chess's unions, from the FEN (two-player chess-like boards only).
function unionsOf(fen) {
  if (!S.state || S.state.seats.length !== 2 || !fen) return null;
  return parseUnions(fen, S.state.board.width, ((S.variant && S.variant.pieces) || []).map((p) => p.letter));
}
function frameSeats(frame) {
  if (!frame) return [];
  if (frame.seats) return frame.seats;
  return Array.isArray(frame.in) ? S.state.seats.map((s) => ({ seat: s.seat, in: frame.in.includes(s.seat) })) : [];
}

function renderTitle() {
  $('title').textContent = gameTitle(S.state.variant, S.state.title);
  const opts = Object.entries(S.state.options || {}).map(([k, v]) => `${k}=${v}`).join(', ');
  const parts = [opts || t('game.standardRules')];
  if (S.state.clock) parts.push(clockText(S.state.clock));
  if (S.state.hotSeat) parts.push(t('game.hotSeat'));
  $('options-line').textContent = parts.join(' · ');
}

function fmtClock(ms) {
  if (ms === null || ms === undefined) return '';
  const tt = Math.max(0, ms);
  const m = Math.floor(tt / 60000), s = Math.floor((tt % 60000) / 1000);
  if (tt < 10000) return `${s}.${Math.floor((tt % 1000) / 100)}`;
  return `${m}:${String(s).padStart(2, '0')}`;
}
function clockOf(seat) {
  if (seat.clockMs === null || seat.clockMs === undefined) return null;
  const running = S.state.status === 'ongoing' && (S.state.clockRunning !== undefined ? S.state.clockRunning === seat.seat : (S.state.toMove === seat.seat && S.state.moves.length > 0));
  return running ? seat.clockMs - (performance.now() - S.receivedAt) : seat.clockMs;
}

function renderSeats() {
  const box = $('seats');
  box.replaceChildren();
  const mine = mySeats();
  const points = seatPoints(S.state);
  const teams = teamsOf(S.state);
  for (const s of S.state.seats) {
    const isMine = mine.includes(s.seat);
    const who = s.kind === 'bot' ? t('seat.botLevel', { level: s.level }) : isMine ? t('seat.you') : s.open && S.state.status === 'ongoing' ? t('lobby.free') : t('seat.human');
    const clock = clockOf(s);
    const meta = [];
    if (!s.in && S.state.status === 'ongoing') meta.push(s.outReason ? t('seat.outBecause', { reason: outText(s.outReason) }) : t('seat.out'));
    if (s.place) meta.push(t('seat.place', { n: s.place }));
    const el = h('div', {
      class: `seat seat-${s.seat}${S.state.toMove === s.seat ? ' to-move' : ''}${s.in ? '' : ' out'}`,
      'data-seat': s.seat, 'data-in': String(!!s.in), 'data-place': s.place || '', 'data-mine': String(isMine),
    },
    h('span', { class: 'chip' }),
    h('span', {}, h('span', { class: 'who' }, seatName(s.seat)), ' ', playerNode(s), s.name ? ' ' : null, h('span', { class: 'muted' }, `(${who})`),
      h('span', { class: `dot${s.connected ? ' on' : ''}`, title: s.connected ? t('seat.connected') : t('seat.notConnected') })),
    clock !== null ? h('span', { class: `clock${clock < 10000 ? ' low' : ''}`, 'data-clock': s.seat }, fmtClock(clock))
      : s.place ? h('span', { class: 'place' }, `#${s.place}`) : h('span'),
    meta.length ? h('div', { class: 'meta' }, meta.join(' · ')) : null);
    if (points) el.children[1].append(h('span', { class: 'points', 'data-points': s.seat, title: t('play.points', { n: points[s.seat] ?? 0 }) }, t('play.pointsShort', { n: points[s.seat] ?? 0 })));
    const team = teams ? teams.findIndex((tm) => tm.includes(s.seat)) : -1;
    if (team >= 0) el.children[1].append(h('span', { class: 'team muted', 'data-team': String(team + 1) }, t('play.teamN', { n: team + 1 })));
    box.append(el);
  }
  if (teams) {
    box.append(h('div', { class: 'teams-line', 'data-teams': '' }, teams.map((tm, i) => h('span', {}, i ? ` ${t('play.against')} ` : '',
      tm.map((x, j) => h('span', { class: `seat-${x}` }, j ? ` ${t('play.and')} ` : '', h('span', { class: 'chip' }), ' ', seatName(x)))))));
  }
}

// The clocks next to the board, the one running first.
function renderClocksBar() {
  const box = $('mini-clocks');
  box.replaceChildren();
  // free-for-all points: next to each seat's clock (or alone without clocks)
  const points = seatPoints(S.state);
  if (!S.state.clock && !points) return;
  for (const s of S.state.seats) {
    const pts = points ? h('span', { class: 'mini-points', 'data-mini-points': s.seat, title: t('play.points', { n: points[s.seat] ?? 0 }) }, String(points[s.seat] ?? 0)) : null;
    const c = S.state.clock ? clockOf(s) : null;
    if (c === null || (!s.in && S.state.status === 'ongoing')) {
      if (pts) box.append(h('span', { class: `mini-clock seat-${s.seat}${s.in ? '' : ' out'}` }, h('span', { class: 'chip' }), pts));
      continue;
    }
    box.append(h('span', { class: `mini-clock seat-${s.seat}${S.state.toMove === s.seat ? ' running' : ''}${c < 10000 ? ' low' : ''}`, 'data-mini-clock': s.seat },
      h('span', { class: 'chip' }), ' ', h('span', { class: 'ct' }, fmtClock(c)), pts));
  }
}

function tickClocks() {
  if (!S.state) return;
  for (const s of S.state.seats) {
    const c = clockOf(s);
    for (const el of document.querySelectorAll(`[data-clock="${s.seat}"], [data-mini-clock="${s.seat}"]`)) {
      (el.querySelector('.ct') || el).lastChild.textContent = fmtClock(c);
      el.classList.toggle('low', c < 10000);
    }
  }
}

const PIPS = {
  1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]],
};
function dieFace(n, sides) {
  const face = h('div', { class: `face${sides > 6 ? ' d8' : ''}`, 'data-die': String(n), title: t('die.shows', { n }) });
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
  const dieOn = (S.state.options && ((S.state.options.die && S.state.options.die !== 'off') || S.state.options.dice === 'on')) || S.state.die;
  $('die-card').hidden = !dieOn;
  const mini = $('mini-die');
  mini.replaceChildren();
  if (!dieOn) return;
  const box = $('die');
  box.replaceChildren();
  const sides = S.state.variant === 'grant-acedrex' ? 8 : 6;
  const n = src.die;
  const seat = src.toMove;
  if (!n || !seat) {
    const lastDie = S.state.moves.length ? S.state.moves[S.state.moves.length - 1].die : null;
    box.append(h('span', { class: 'muted' }, S.state.status === 'finished' ? (lastDie ? t('die.overLast', { n: lastDie }) : t('die.over')) : t('die.waiting')));
    return;
  }
  const kind = src.dieKind || '';
  const kindName = kind.length === 1 ? (pieceNames()[kind] || kind) : kind;
  mini.append(dieFace(n, sides));
  if (!kindName) {
    box.append(dieFace(n, sides), h('span', {}, t('die.threw', { seat: seatName(seat), n })));
    return;
  }
  // A face may allow several kinds (chaturaji's 5: king or pawn): each is shown.
  const kinds = src.dieKinds && src.dieKinds.length > 1 ? src.dieKinds : [kindName];
  for (const k of kinds) mini.append(h('span', { class: `seat-${seat}` }, pieceIcon(k, seat, 34)));
  box.append(dieFace(n, sides),
    ...kinds.map((k) => h('span', { class: `seat-${seat}` }, pieceIcon(k, seat, 44))),
    h('span', {}, t('die.threwKind', { seat: seatName(seat), n }), ' ', h('b', { 'data-die-kind': kinds.join(' ') }, kinds.map(pieceName).join(' / ')), ' ', t('die.mustMove')));
}

function renderCoins(coins) {
  $('coins-card').hidden = !coins;
  if (!coins) return;
  const tb = $('coins');
  tb.replaceChildren();
  for (const s of seatNames()) {
    const n = coins[s] ?? 0;
    tb.append(h('tr', { class: `seat-${s}`, 'data-coins': s }, h('td', {}, h('span', { class: 'chip' }), ' ', seatName(s)),
      h('td', { class: 'n' }, n > 0 ? `+${n}` : String(n))));
  }
}

function renderMoves() {
  const box = $('moves');
  const order = seatNames();
  const n = order.length;
  const table = h('table');
  let row = null, prevCol = n, round = 0;
  const shown = S.viewPly === null ? S.state.moves.length : S.viewPly;
  let cur = null;
  S.state.moves.forEach((m, i) => {
    const col = Math.max(0, order.indexOf(m.seat));
    if (!row || col <= prevCol) {
      round++;
      row = h('tr', {}, h('td', { class: 'num' }, `${round}.`));
      for (let c = 0; c < n; c++) row.append(h('td', {}));
      table.append(row);
    }
    prevCol = col;
    const cell = row.children[col + 1];
    cell.replaceChildren(...[h('span', { class: `mv-chip seat-${m.seat}` }), moveLabel(m, prefs.get('notation'), stepKind() === 'chain'), m.die ? h('sub', { class: 'muted' }, ` ${m.die}`) : null].filter(Boolean));
    cell.dataset.ply = String(i + 1);
    if (m.uci === null) cell.dataset.hidden = '';
    cell.title = m.uci === '0000' && m.die
      ? t('die.lostTurnShort', { seat: seatName(m.seat), n: m.die, kind: m.dieKind ? pieceName(m.dieKind) : '' })
      : `${seatName(m.seat)}: ${m.uci === null ? t('fog.hiddenMoveLong') : m.uci}${m.die ? ` (${t('die.shows', { n: m.die })})` : ''}`;
    if (i + 1 === shown && S.sideAt === null) { cell.classList.add('cur'); cur = cell; }
    cell.addEventListener('click', () => showPly(i + 1));
  });
  if (!S.state.moves.length) table.append(h('tr', {}, h('td', { class: 'muted' }, t('moves.none'))));
  const sideCur = renderSideLine(table, n + 1);
  if (sideCur) cur = sideCur;
  box.replaceChildren(table);
  if ((S.viewPly === null && S.sideAt === null) || !cur) box.scrollTop = box.scrollHeight;
  else {
    // keep the ply shown in view while replaying
    const top = cur.offsetTop, bottom = top + cur.offsetHeight;
    if (top < box.scrollTop || bottom > box.scrollTop + box.clientHeight) box.scrollTop = top - box.clientHeight / 2;
  }
}

// The position shown (live, a replayed ply or a side line's) as text: the
// state's `fen` (FEN, or the four- and three-player lines), offered in a
// read-only field and copied to the clipboard by the button.
function renderPosition() {
  const text = shownFen() || '';
  if (text === S.positionShown) return;
  S.positionShown = text;
  $('fen-text').value = text;
  $('fen-copied').textContent = '';
  delete $('fen-copied').dataset.copied;
}
async function copyPosition() {
  if (!S.state) return;
  const input = $('fen-text');
  const text = shownFen() || '';
  input.value = text;
  S.positionShown = text;
  input.focus();
  input.select();
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); copied = true; }
  } catch { copied = false; }
  if (!copied) { try { copied = document.execCommand('copy'); } catch { copied = false; } }
  const note = $('fen-copied');
  note.textContent = copied ? t('position.copied') : t('position.selected');
  note.dataset.copied = copied ? 'yes' : 'no';
}

function renderControls() {
  const box = $('controls');
  box.replaceChildren();
  const mine = mySeats();
  const ongoing = S.state.status === 'ongoing';
  const myIn = S.state.seats.filter((s) => mine.includes(s.seat) && s.in);
  const two = S.state.seats.length === 2;
  const btn = (label, attrs, fn) => h('button', { ...attrs, onclick: fn }, label);
  if (ongoing && myIn.length) {
    const armed = Date.now() - S.resignArmed < 4000;
    box.append(btn(armed ? t('ctl.confirmResign') : t('ctl.resign'), { id: 'resign', class: armed ? 'primary' : '' }, onResign));
    if (two) {
      const offer = S.state.drawOffer;
      if (offer && !mine.includes(offer)) {
        box.append(h('div', { class: 'offer-line', 'data-draw-offer': offer }, t('draw.offers', { seat: seatName(offer) })));
        box.append(btn(t('ctl.acceptDraw'), { id: 'draw-accept', class: 'primary' }, () => act(() => api.draw(id, 'accept', tokenFor(myIn[0].seat)))));
        box.append(btn(t('ctl.declineDraw'), { id: 'draw-decline' }, () => act(() => api.draw(id, 'decline', tokenFor(myIn[0].seat)))));
      } else if (offer) {
        box.append(btn(t('ctl.drawOffered'), { id: 'draw-offer', disabled: true }));
      } else {
        box.append(btn(t('ctl.offerDraw'), { id: 'draw-offer' }, () => offerDraw(myIn[0].seat)));
      }
    }
    const passes = canMove() ? passMoves(S.state.legal) : [];
    if (passes.length) box.append(btn(t('ctl.pass'), { id: 'pass', title: t('ctl.passHelp') }, () => onMove(passes[0])));
    const others = S.state.seats.filter((s) => !mine.includes(s.seat));
    const vsBots = others.every((s) => s.kind === 'bot');
    // fog of war: no take back (it would show the hidden reply's effects again)
    const seat = vsBots && !fogged() ? takebackSeat(S.state.moves, mine) : null;
    if (seat) {
      box.append(btn(t('ctl.takeback'), { id: 'takeback' }, () => {
        S.viewPly = null;
        act(() => api.takeback(id, tokenFor(seat)));
      }));
    } else if (!vsBots && two && !fogged()) {
      box.append(...peopleTakeback(mine, tokenFor(myIn[0].seat), btn));
    }
  }
  box.append(btn(t('ctl.rotate'), { id: 'rotate', title: t('ctl.rotateHelp') }, () => {
    S.rotation = hexBoard() ? (S.rotation + 1) % 3 : (S.rotation + (S.state.seats.length > 2 ? 1 : 2)) % 4;
    localStorage.setItem(`acedrex.rot.${id}`, String(S.rotation));
    render();
  }));
}

// A takeback between people: asked, and accepted or declined by the other player, as a draw offer.
function peopleTakeback(mine, token, btn) {
  const offer = S.state.takebackOffer;
  if (offer && !mine.includes(offer)) {
    return [h('div', { class: 'offer-line', 'data-takeback-offer': offer }, t('takeback.offers', { seat: seatName(offer) })),
      btn(t('ctl.acceptTakeback'), { id: 'takeback-accept', class: 'primary' }, () => { S.viewPly = null; act(() => api.takebackAction(id, 'accept', token)); }),
      btn(t('ctl.declineTakeback'), { id: 'takeback-decline' }, () => act(() => api.takebackAction(id, 'decline', token)))];
  }
  if (offer) return [btn(t('ctl.takebackAsked'), { id: 'takeback', disabled: true })];
  if (!takebackSeat(S.state.moves, mine)) return [];
  return [btn(t('ctl.takeback'), { id: 'takeback' }, () => act(() => api.takebackAction(id, 'offer', token)))];
}

async function offerDraw(seat) {
  const others = S.state.seats.filter((s) => s.seat !== seat);
  S.myOffer = true;
  const s = await act(() => api.draw(id, 'offer', tokenFor(seat)));
  // A bot answers at once: the offer is gone and the game goes on.
  if (s && s.status === 'ongoing' && !s.drawOffer && others.every((o) => o.kind === 'bot')) {
    flash(t('draw.botDeclines', { seat: seatName(others[0].seat) }));
    S.myOffer = false;
  }
}

async function onResign() {
  if (Date.now() - S.resignArmed >= 4000) {
    S.resignArmed = Date.now();
    renderControls();
    setTimeout(() => renderControls(), 4100);
    return;
  }
  S.resignArmed = 0;
  const mine = mySeats();
  const seat = mine.includes(S.state.toMove) ? S.state.toMove : S.state.seats.find((s) => mine.includes(s.seat) && s.in).seat;
  await act(() => api.resign(id, tokenFor(seat)));
}

async function act(fn) {
  try {
    const s = await fn();
    if (s && s.seats) accept(s);
    else refresh();
    return s;
  } catch (e) {
    flash(e.message);
    refresh();
    return null;
  }
}

// Fog of war: the record stays closed until the end (the server answers 403),
// so the header's link is inactive and says why.
function renderRecordLink() {
  const a = $('pgn-link');
  const closed = fogged();
  a.classList.toggle('disabled', closed);
  a.toggleAttribute('aria-disabled', closed);
  if (closed) { a.removeAttribute('href'); a.title = t('play.recordClosed'); } else { a.href = api.pgnUrl(S.state.id || id); a.removeAttribute('title'); }
}

// ---- the result, and a rematch with the same settings ------------------------------
function renderResult() {
  const box = $('result');
  if (S.state.status !== 'finished' || !S.state.result || S.resultClosed) { box.hidden = true; return; }
  box.hidden = false;
  const r = S.state.result;
  const places = r.places || {};
  const order = Object.keys(places).sort((a, b) => places[a] - places[b]);
  const firsts = order.filter((s) => places[s] === 1);
  const winner = r.winner !== undefined ? r.winner : (firsts.length === 1 ? firsts[0] : null);
  const mine = mySeats();
  let head;
  if (r.reason === 'aborted') head = t('result.aborted');
  else if (winner) head = mine.includes(winner) && mine.length < S.state.seats.length ? t('result.youWin') : t('result.wins', { seat: seatName(winner) });
  else if (firsts.length > 1) head = firsts.length === S.state.seats.length ? t('result.draw') : t('result.drawBetween', { seats: firsts.map(seatName).join(', ') });
  else head = t('result.over');
  box.replaceChildren(...[
    h('button', { class: 'close', title: t('result.close'), 'aria-label': t('result.close'), onclick: () => { S.resultClosed = true; renderResult(); } }, '×'),
    h('h2', { 'data-result': r.reason === 'aborted' ? 'aborted' : winner || 'draw' }, head),
    h('div', { 'data-reason': r.reason || '' }, reasonText(r.reason || 'unknown')),
    order.length ? h('ol', {}, order.map((s) => h('li', { value: places[s], class: `seat-${s}` }, h('span', { class: 'chip' }), ' ', seatName(s),
      S.state.coins ? h('span', { class: 'muted' }, ` · ${t('coins.count', { n: `${S.state.coins[s] > 0 ? '+' : ''}${S.state.coins[s] ?? 0}` })}`) : null))) : null,
    h('div', { class: 'row' }, h('button', { id: 'replay-start', onclick: () => showPly(0) }, t('result.replay')),
      mine.length ? h('button', { id: 'rematch', class: 'primary', onclick: rematch }, t('result.rematch')) : null,
      h('a', { class: 'button', href: api.pgnUrl(id), download: `acedrex-${id}.pgn` }, t('nav.downloadRecord')),
      h('a', { class: 'button', href: `/?variant=${S.state.variant}` }, t('nav.newGame'))),
    h('div', { id: 'rematch-links' }),
  ].filter(Boolean));
}

async function rematch() {
  const mine = mySeats();
  const spec = {
    variant: S.state.variant, options: S.state.options || {},
    seats: S.state.seats.map((s) => (s.kind === 'bot' ? { seat: s.seat, kind: 'bot', level: s.level } : { seat: s.seat, kind: 'human' })),
  };
  if (S.state.clock) spec.clock = { initialMs: S.state.clock.initialMs, incrementMs: S.state.clock.incrementMs };
  if (S.state.hotSeat) spec.hotSeat = true;
  let res;
  try { res = await api.create(spec); } catch (e) { flash(t('lobby.createFailed', { error: e.message })); return; }
  const humans = (res.seats || []).filter((s) => s.token);
  const map = {};
  for (const s of humans) if (S.state.hotSeat || mine.includes(s.seat)) map[s.seat] = s.token;
  tokenStore.save(res.id, map);
  const others = humans.filter((s) => !map[s.seat]);
  const url = `/game.html?id=${encodeURIComponent(res.id)}`;
  if (!others.length) { location.href = url; return; }
  // Other people: their links, then on to the new game.
  const box = $('rematch-links');
  box.replaceChildren(h('p', { class: 'muted' }, t('lobby.invitesHelp')),
    ...others.map((s) => {
      const link = `${location.origin}/game.html?id=${encodeURIComponent(res.id)}&seat=${s.seat}&token=${encodeURIComponent(s.token)}`;
      return h('div', { class: 'invite' }, h('b', {}, seatName(s.seat)), ' ', h('input', { type: 'text', readonly: true, value: link, 'data-invite': s.seat }));
    }),
    h('a', { class: 'button primary', href: url, id: 'rematch-go' }, t('result.toRematch')));
}

// A listed game waiting for its free seats: the seats still free, the link
// to send, and for a visitor holding no seat a button to take one.
function renderWaiting() {
  const box = $('wait-card');
  const free = S.viewPly === null ? freeSeats() : [];
  box.hidden = !free.length;
  if (!free.length) { box.replaceChildren(); return; }
  const link = `${location.origin}/game.html?id=${encodeURIComponent(S.state.id || id)}`;
  const input = h('input', { type: 'text', readonly: true, value: link, 'data-wait-invite': '' });
  const copy = h('button', { type: 'button', onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(link).catch(() => {}); } }, t('lobby.copy'));
  const visitor = !mySeats().length;
  box.replaceChildren(
    h('h2', { style: 'margin-top:0' }, t('wait.title')),
    h('p', {}, t(mySeats().length ? 'wait.helpMine' : 'wait.help')),
    h('div', { class: 'open-seats' }, free.map((x) => h('span', { class: `seat-chip seat-${x.seat} free`, 'data-wait-seat': x.seat },
      h('span', { class: 'chip' }), ' ', seatName(x.seat), ' ',
      visitor ? h('button', { type: 'button', class: 'primary', 'data-wait-take': x.seat, onclick: () => takeSeat(x.seat) }, t('lobby.takeSeat', { seat: seatName(x.seat) })) : null))),
    h('label', { class: 'invite' }, t('wait.invite'), ' ', input, ' ', copy));
}
async function takeSeat(seat) {
  let res;
  try { res = await api.join(id, seat); } catch (e) { flash(t('lobby.takeFailed', { error: e.message })); refresh(); return; }
  tokenStore.add(res.id || id, res.seat, res.token);
  location.reload();   // the page starts again holding the seat (its socket with the token)
}

function renderStatus() {
  const el = $('status');
  if (S.sideAt !== null) { el.textContent = t('status.side', { n: S.sideAt, total: S.side.moves.length, ply: S.side.base }); return; }
  if (S.viewPly !== null) { el.textContent = t('status.replay', { ply: S.viewPly, total: S.state.moves.length }); return; }
  if (S.state.status === 'finished') { el.textContent = t('status.over'); return; }
  const free = freeSeats();
  if (free.length) {
    el.textContent = t('wait.status', { seats: free.map((x) => seatName(x.seat)).join(', ') });
    el.classList.remove('mine');
    return;
  }
  const s = seatOf(S.state.toMove);
  const inCheck = (S.state.check || []).includes(S.state.toMove);
  if (!s) { el.textContent = ''; return; }
  let text;
  if (S.duckStage === 'chain' && tokenFor(s.seat)) text = t('play.chainStep');
  else if (S.duckStage && tokenFor(s.seat)) text = t('status.placeDuck');
  else if (tokenFor(s.seat)) text = mySeats().length > 1 ? t('status.seatYourMove', { seat: seatName(s.seat) }) : t('status.yourMove');
  else if (s.kind === 'bot') text = t('status.botThinking', { seat: seatName(s.seat) });
  else text = t('status.toMove', { seat: seatName(s.seat) });
  if (inCheck) text += ` ${t('status.inCheck', { seat: seatName(s.seat) })}`;
  if (S.state.drawOffer && !mySeats().includes(S.state.drawOffer)) text += ` ${t('draw.offers', { seat: seatName(S.state.drawOffer) })}`;
  el.replaceChildren(h('span', { class: `chip seat-${s.seat}` }), ' ', text);
  el.classList.toggle('mine', !!tokenFor(s.seat));
}

// ---- analysis after the end: the bot's evaluation of the position shown -------
// The "Analyse" toggle of a finished game asks POST /api/analyse for each
// position shown (answers kept per FEN) and draws the best move as an arrow.
const analyses = new Map();           // fen -> {data} | {error} | {pending: true}
function analysisHint(fen) {
  const a = S.analysing && S.state.status === 'finished' ? analyses.get(fen) : null;
  return a && a.data && a.data.bestmove ? a.data.bestmove.split(',')[0] : null;
}
function shownFrame() {
  return sideFrame() || (S.viewPly !== null && S.frames ? S.frames[S.viewPly] : null);
}
function shownFen() {
  const frame = shownFrame();
  return frame ? frame.fen : S.state.fen;
}
// The seat to move in the position shown (null where the game is decided).
function shownToMove() {
  const frame = shownFrame();
  return frame ? frame.toMove : S.state.toMove;
}
async function analyseShown() {
  const fen = shownFen();
  if (!S.analysing || !fen || analyses.has(fen)) { renderAnalysis(); return; }
  // a decided position (the end, or a side line's mate): nothing to search
  if (!shownToMove()) { analyses.set(fen, { data: { bestmove: null } }); renderAnalysis(); return; }
  analyses.set(fen, { pending: true });
  renderAnalysis();
  let entry;
  try {
    entry = { data: await api.analyse(S.state.variant, S.state.options, fen) };
  } catch (e) {
    entry = { error: e.status === 403 ? t('play.analyseHidden') : e.status === 429 || e.status === 503 ? t('play.analyseBusy') : e.message, status: e.status };
  }
  analyses.set(fen, entry);
  // busy: asked again a moment later if the position is still shown
  if (entry.status === 429 || entry.status === 503) setTimeout(() => { if (analyses.get(fen) === entry) { analyses.delete(fen); if (shownFen() === fen) analyseShown(); } }, 1500);
  if (shownFen() === fen) render();
}
function analysisText(d) {
  const who = seatName(d.toMove);
  if (!d.bestmove) return t('play.analyseNoMove');
  const best = moveLabel({ uci: d.bestmove, seat: d.toMove }, 'coord', stepKind() === 'chain');
  if (d.mate !== null && d.mate !== undefined) {
    return t(d.mate > 0 ? 'play.evalMates' : 'play.evalMated', { seat: who, n: Math.abs(d.mate), move: best, depth: d.depth });
  }
  const pawns = (d.score / 100).toFixed(2);
  return t('play.evalScore', { seat: who, score: `${d.score > 0 ? '+' : ''}${pawns}`, move: best, depth: d.depth });
}
// Whether the server analyses this game's positions: never a fog-of-war
// game's (/api/variants `fog`; the server answers 403), so the page offers
// neither "Analyse" nor moves on the board after its end.
const analysable = () => !(S.variant && S.variant.fog);
function renderAnalysis() {
  const btn = $('rp-analyse');
  const box = $('analysis');
  const on = S.state.status === 'finished' && analysable();
  btn.hidden = !on;
  btn.setAttribute('aria-pressed', String(S.analysing && on));
  box.hidden = !(S.analysing && on);
  if (box.hidden) return;
  const a = analyses.get(shownFen());
  box.dataset.state = !a ? '' : a.pending ? 'pending' : a.error ? 'error' : 'done';
  box.textContent = !a || a.pending ? t('play.analysing') : a.error ? a.error : analysisText(a.data);
}

// ---- the analysis board: side lines after the end ----------------------------------
// After the end, moves may be made on the board from any position of the
// replay (lichess's analysis board). They form one side line branching from
// the ply shown, listed under that ply, stepped through like the main line,
// analysed by the "Analyse" switch, and discarded by its button (a move from
// elsewhere starts a new one). The server gives each position's legal moves
// and the position after a move (POST /api/position): the page applies no
// rule itself.
const positions = new Map();          // fen -> {legal, toMove} | {pending: true}: the position shown, as the server sees it

function sideFrame() { return S.side && S.sideAt !== null ? S.side.moves[S.sideAt - 1].frame : null; }
function shownLegal() {
  const p = positions.get(shownFen());
  return (p && p.legal) || {};
}
// The seat to move by the server's reading of the position shown: also at
// the end of a game that was resigned or lost on time, where the board can go on.
function shownMover() {
  const p = positions.get(shownFen());
  return (p && p.toMove) || null;
}
// Whether the position shown takes a move of the side line now.
function sideMovable() {
  if (!S.state || S.state.status !== 'finished' || S.sideRefused || S.pending) return false;
  return Object.keys(shownLegal()).length > 0;
}
// The legal moves of the position shown are asked for once it has stayed a
// moment (stepping quickly through a game asks for none of the positions passed).
function schedulePosition() {
  clearTimeout(S.positionTimer);
  if (S.sideRefused || !analysable()) return;
  S.positionTimer = setTimeout(() => loadPosition(shownFen()), 150);
}
async function loadPosition(fen) {
  if (!S.state || S.state.status !== 'finished' || S.sideRefused || !analysable() || !fen || positions.has(fen) || fen !== shownFen()) return;
  positions.set(fen, { pending: true });
  try {
    const r = await api.position(S.state.variant, S.state.options, fen);
    positions.set(fen, { legal: r.legal || {}, toMove: r.toMove });
  } catch (e) {
    positions.delete(fen);
    if (e.status === 403) S.sideRefused = true;
    // busy: asked again after the wait if the position is still shown
    else if (e.status === 429 || e.status === 503) setTimeout(() => { if (shownFen() === fen) loadPosition(fen); }, Math.min(5000, e.retryAfterMs || 1000));
    else positions.set(fen, { legal: {}, toMove: null });
  }
  if (shownFen() === fen) render();
}
async function sideMove(uci) {
  if (!sideMovable()) return;
  const seat = shownMover();
  // the next move of the line shown: a step along it, no new line
  const mainPly = S.viewPly === null ? S.state.moves.length : S.viewPly;
  if (S.sideAt === null && S.state.moves[mainPly] && S.state.moves[mainPly].uci === uci) { showPly(mainPly + 1); return; }
  if (S.sideAt !== null && S.side.moves[S.sideAt] && S.side.moves[S.sideAt].uci === uci) { S.sideAt++; render(); return; }
  const fen = shownFen();
  S.pending = true;
  render();
  try {
    const r = await api.position(S.state.variant, S.state.options, fen, uci);
    positions.set(r.fen, { legal: r.legal || {}, toMove: r.toMove });
    const entry = { uci, seat, frame: r };
    if (S.sideAt === null) S.side = { base: mainPly, moves: [entry] };
    else S.side.moves = S.side.moves.slice(0, S.sideAt).concat(entry);
    S.sideAt = S.side.moves.length;
  } catch (e) {
    if (e.status === 403) S.sideRefused = true;
    flash(e.status === 403 ? t('play.analyseHidden') : t('side.refused', { move: uci, error: e.message }));
  }
  S.pending = false;
  render();
}
function discardSide() {
  if (!S.side) return;
  const base = S.side.base;
  // shown: the main line's ply it branched from, once its frames are at hand
  if (S.sideAt !== null) { showPly(base).then(() => { S.side = null; }); return; }
  S.side = null;
}
// The side line's row in the move list, under the row of the ply it branches
// from (at the top when it branches from the start); returns its current move's element.
function renderSideLine(table, cols) {
  if (!S.side) return null;
  let cur = null;
  const row = h('tr', { class: 'side-line', 'data-side-base': String(S.side.base) });
  const cell = h('td', { colspan: String(cols) });
  cell.append(h('span', { class: 'muted side-mark', title: t('side.title') }, '↳ '));
  S.side.moves.forEach((m, i) => {
    const mv = h('span', { class: `side-move${S.sideAt === i + 1 ? ' cur' : ''}`, 'data-side-ply': String(i + 1), role: 'button', tabindex: '-1' },
      h('span', { class: `mv-chip seat-${m.seat}` }), moveLabel({ uci: m.uci, seat: m.seat, san: null }, 'coord', stepKind() === 'chain'));
    mv.title = `${seatName(m.seat)}: ${m.uci}`;
    mv.addEventListener('click', (e) => { e.stopPropagation(); S.sideAt = i + 1; render(); });
    if (S.sideAt === i + 1) cur = mv;
    cell.append(mv, ' ');
  });
  cell.append(h('button', { type: 'button', id: 'side-discard', class: 'small', title: t('side.discardHelp'), onclick: (e) => { e.stopPropagation(); discardSide(); } }, t('side.discard')));
  row.append(cell);
  const anchor = S.side.base > 0 ? table.querySelector(`[data-ply="${S.side.base}"]`) : null;
  if (anchor) anchor.closest('tr').after(row);
  else table.prepend(row);
  return cur;
}

function renderReplayBar() {
  const showBar = S.state.status === 'finished' || S.viewPly !== null;
  $('replay').hidden = !showBar;
  if (!showBar) return;
  renderAnalysis();
  if (S.analysing && S.state.status === 'finished' && analysable() && !analyses.has(shownFen())) analyseShown();
  $('replay').dataset.analysis = S.state.status === 'finished' && !analysable() ? 'off' : '';
  const ply = S.viewPly === null ? S.state.moves.length : S.viewPly;
  const onSide = S.sideAt !== null;
  $('rp-label').textContent = onSide ? t('replay.sideLabel', { n: S.sideAt, total: S.side.moves.length, ply: S.side.base })
    : t('replay.label', { ply, total: S.state.moves.length });
  $('rp-live').hidden = S.viewPly === null || S.state.status === 'finished';
  $('rp-first').disabled = ply === 0 && !onSide;
  $('rp-prev').disabled = ply === 0 && !onSide;
  $('rp-next').disabled = onSide ? S.sideAt >= S.side.moves.length : ply >= S.state.moves.length;
  $('rp-last').disabled = ply >= S.state.moves.length && !onSide;
}

// ---- settings ------------------------------------------------------------------------
function renderSettings() {
  const box = $('settings-body');
  const sel = (key, label, options, conv = String) => {
    const s = h('select', { id: `pref-${key}`, 'data-pref': key });
    for (const [v, l] of options) s.append(h('option', { value: v, selected: String(prefs.get(key)) === String(v) }, l));
    s.addEventListener('change', () => { prefs.set(key, conv(s.value)); render(); });
    return h('label', { class: 'pref' }, label, ' ', s);
  };
  const check = (key, label) => {
    const c = h('input', { type: 'checkbox', id: `pref-${key}`, 'data-pref': key });
    c.checked = !!prefs.get(key);
    c.addEventListener('change', () => {
      prefs.set(key, c.checked);
      if (key === 'hotSeatTurn' && c.checked && S.state && S.state.toMove) S.rotation = rotationOf(S.state.toMove);
      render();
    });
    return h('label', { class: 'pref check' }, c, ' ', label);
  };
  box.replaceChildren(...[
    sel('notation', t('settings.notation'), [['san', t('settings.san')], ['coord', t('settings.coord')]]),
    sel('botPaceMs', t('settings.botPace'), [[0, t('settings.instant')], [500, t('clock.sec', { n: 0.5 })], [1000, t('clock.sec', { n: 1 })], [2000, t('clock.sec', { n: 2 })]], Number),
    S.variant ? sel(`pieceSet.${setFamily(S.variant)}`, t('settings.pieceSet'), SETS[setFamily(S.variant)].map((x) => [x, t(`settings.set.${x}`)])) : null,
    // the squares' colours of the chequered boards (the points and shogi's boards keep theirs)
    S.variant && !family() ? sel('boardTheme', t('settings.boardTheme'), BOARD_THEMES.map((x) => [x, t(`settings.board.${x}`)])) : null,
    check('colourBlind', t('settings.colourBlind')),
    S.state && S.state.hotSeat ? check('hotSeatTurn', t('settings.hotSeatTurn')) : null,
    check('sound', t('settings.sound')),
    check('premoves', t('play.premoves')),
    sel('theme', t('settings.theme'), [['light', t('settings.light')], ['dark', t('settings.dark')]]),
  ].filter(Boolean));
}

// ---- replay ------------------------------------------------------------------------
async function loadFrames(upTo = S.state.moves.length) {
  if (S.frames && upTo < S.frames.length) return true;
  try {
    const r = await fetch(`/api/game/${encodeURIComponent(id)}/replay`);
    if (!r.ok) throw new Error(`replay: ${r.status}`);
    const data = await r.json();
    S.frames = data.frames || data;
    return Array.isArray(S.frames) && S.frames.length > 0;
  } catch (e) {
    flash(t('replay.unavailable', { error: e.message }));
    S.frames = null;
    return false;
  }
}
// Fog of war: the replay stays closed until the end (the server answers 403).
const fogged = () => S.state.status === 'ongoing' && (Array.isArray(S.state.visible) || S.state.moves.some((m) => m.uci === null));
async function showPly(n) {
  if (!S.state) return;
  const total = S.state.moves.length;
  n = Math.max(0, Math.min(total, n));
  if (n === total && S.state.status === 'ongoing') { S.sideAt = null; S.viewPly = null; return; }
  if (fogged()) { S.sideAt = null; flash(t('fog.noReplay')); return; }
  const loaded = await loadFrames(n);
  // the side line is left with the frames at hand, so the page never shows the main line's old ply meanwhile
  S.sideAt = null;
  if (!loaded) return;
  S.viewPly = Math.min(n, S.frames.length - 1);
}
function step(d) {
  if (S.sideAt !== null) {
    // along the side line; back past its first move, the position it branches from
    if (S.sideAt + d <= 0) { showPly(S.side.base); return; }
    S.sideAt = Math.min(S.side.moves.length, S.sideAt + d);
    render();
    return;
  }
  const cur = S.viewPly === null ? S.state.moves.length : S.viewPly;
  showPly(cur + d);
}

// ---- moving ------------------------------------------------------------------------
async function onMove(uci) {
  if (S.state && S.state.status === 'finished') { sideMove(uci); return; }
  if (!canMove()) return;
  const seat = S.state.toMove;
  S.pending = true;
  S.sent += 1;
  $('board').dataset.sent = String(S.sent);
  try {
    const s = await api.move(id, uci, tokenFor(seat));
    S.pending = false;
    if (s && s.seats) accept(s);
  } catch (e) {
    S.pending = false;
    flash(t('move.refused', { move: uci, error: e.message }));
    refresh();
  }
  render();
}

// A press on the board while it takes no move and queues no premove: a
// player is told why, never left guessing (issue 40: a click made while the
// bots' moves were being shown one after another was dropped unsaid).
function onIdlePress() {
  if (!S.state || S.state.status !== 'ongoing' || S.viewPly !== null || S.pending || !mySeats().length || freeSeats().length) return;
  const newest = incoming.length ? incoming[incoming.length - 1] : S.state;
  if (incoming.length && tokenFor(newest.toMove)) flash(t('play.movesBeingShown'), 2500);
  else if (!tokenFor(S.state.toMove)) flash(t('type.notYourTurn'), 2500);
}

// A move typed as text: coordinates (e3e4, e3-e4, a9a10q) or SAN (e4, Nf3,
// exd5, a10=Q), matched against the legal moves of the state.
function typedMove(text) {
  const box = $('type-move');
  const tryable = sideMovable();
  if (!canMove() && !tryable) { flash(t('type.notYourTurn')); return; }
  const found = matchTyped(text, tryable ? shownLegal() : S.state.legal || {}, tryable ? (shownFrame() || S.state).pieces : S.state.pieces);
  if (found.length === 1) { box.value = ''; if (!tryable) S.board.localMove = found[0]; onMove(found[0]); return; }
  flash(found.length ? t('type.ambiguous', { move: text }) : t('type.illegal', { move: text }));
}

async function refresh() {
  try {
    accept(await fetchState(primaryToken()));
  } catch (e) {
    banner(t('game.cannotLoad', { error: e.message }), 'warn');
  }
}
async function fetchState(token) {
  const r = await fetch(`/api/game/${encodeURIComponent(id)}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { const e = new Error(data.error || r.statusText); e.status = r.status; throw e; }
  return data;
}

// The seats each token holds, asked of the server: a bogus or stale token holds
// none, and the page says so and watches instead.
async function checkTokens(candidates) {
  const byToken = new Map();
  for (const [seat, tok] of Object.entries(candidates)) if (tok) byToken.set(tok, seat);
  const confirmed = {};
  let refused = false;
  let s = null;
  for (const tok of byToken.keys()) {
    let st;
    try { st = await fetchState(tok); } catch (e) { if (e.status === 403 || e.status === 401) { refused = true; continue; } throw e; }
    s = st;
    if (Array.isArray(st.you) && st.you.length) for (const seat of st.you) confirmed[seat] = tok;
    else refused = true;
  }
  return { confirmed, refused, state: s };
}

async function main() {
  translatePage();
  $('lang-slot').append(languageSwitch());
  S.board = new Board($('board'), {
    onMove, keyboard: true,
    onAnnounce: (text) => { $('board-sr').textContent = text; },
    onStage: (stage) => { S.duckStage = stage || false; if (S.state) renderStatus(); },
    onIdlePress,
    onRendered: () => { if (S.hands) { S.hands.top.render(); S.hands.bottom.render(); } },
  });
  S.hands = { top: new Hand($('hand-top'), S.board), bottom: new Hand($('hand-bottom'), S.board) };
  $('copy-fen').addEventListener('click', copyPosition);
  $('type-move').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    typedMove($('type-move').value);
  });
  if (!id) { banner(t('game.noGame'), 'warn'); return; }
  // The token leaves the address bar at once: sharing "this page" must not hand over the seat.
  if (urlToken) {
    const url = new URL(location.href);
    url.searchParams.delete('token');
    url.hash = '';
    history.replaceState(null, '', url);
  }
  const stored = tokenStore.load(id);
  const candidates = { ...stored };
  if (urlToken) candidates[urlSeat || '?'] = urlToken;
  const variantsP = api.variants().catch(() => []);
  let checked;
  try { checked = await checkTokens(candidates); } catch (e) { banner(t('game.cannotLoadId', { id, error: e.message }), 'warn'); return; }
  S.held = checked.confirmed;
  tokenStore.save(id, S.held);
  nameHeldSeats(id, checked.state, S.held);
  if (Object.keys(S.held).length) myGames.add(id);
  const urlRefused = urlToken && !Object.values(S.held).includes(urlToken);
  if (urlRefused || (checked.refused && !Object.keys(S.held).length)) {
    S.stickyNotice = urlRefused ? t('link.invalid') : t('link.stale');
    banner(S.stickyNotice, 'warn');
  } else if (urlSeat && !S.held[urlSeat] && Object.keys(S.held).length) {
    S.stickyNotice = t('link.notYourSeat', { seat: seatName(urlSeat) });
    banner(S.stickyNotice, 'warn');
  }
  // The variant's entry (geometry, pieces, hands) is known before the first drawing.
  const vs = await variantsP;
  try {
    const first = checked.state || await fetchState(primaryToken());
    S.variant = (Array.isArray(vs) ? vs : []).find((v) => v.name === first.variant) || null;
    accept(first, true);
  } catch (e) {
    banner(t('game.cannotLoadId', { id, error: e.message }), 'warn');
    return;
  }
  renderSettings();
  S.socket = new GameSocket(id, primaryToken(), {
    onState: (s, fresh) => {
      if (S.socket) $('board').dataset.deltas = String(S.socket.deltas);
      accept(s, fresh);
    },
    onStatus: (st) => {
      S.socketDown = st !== 'open';
      $('board').dataset.socket = st;
      if (st === 'open') banner(S.stickyNotice, S.stickyNotice ? 'warn' : '');
      else banner(t('conn.lost'), 'warn');
    },
    onMessage: (msg) => {
      if (msg.t === 'error' && msg.d) flash(msg.d.error || msg.d.message || t('move.refusedPlain'));
    },
  });
  setInterval(tickClocks, 200);
  // Without a socket, keep the page current by polling.
  setInterval(() => { if (S.socketDown && S.state) refresh(); }, 3000);
  $('rp-first').onclick = () => showPly(0);
  $('rp-prev').onclick = () => step(-1);
  $('rp-next').onclick = () => step(1);
  $('rp-last').onclick = () => showPly(S.state.moves.length);
  $('rp-live').onclick = () => { S.viewPly = null; render(); };
  $('rp-analyse').onclick = () => { S.analysing = !S.analysing; render(); };
  document.addEventListener('keydown', (e) => {
    if (e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    if (e.key === 'ArrowLeft') { step(-1); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { step(1); e.preventDefault(); }
    else if (e.key === 'ArrowUp' || e.key === 'Home') { showPly(0); e.preventDefault(); }
    else if (e.key === 'ArrowDown' || e.key === 'End') { showPly(S.state.moves.length); e.preventDefault(); }
  });
  document.body.dataset.ready = '1';
}
main();
