// What the game page shows, as pure functions of the server's state (so the
// end-to-end tests can check them without playing a game to that point).
import { parseMove, duckSquare } from './board.js';
import { t } from './i18n.js';

// The kings to glow: the seats in check, and in the final position of a game
// won by mate, the mated king (it is out, so not in `check` any more).
export function glowingSeats(state, src, finalFrame) {
  const seats = new Set(src.check || []);
  if (finalFrame && state.status === 'finished' && state.result && state.result.reason === 'checkmate') {
    for (const s of state.seats) {
      if (s.outReason === 'checkmate') seats.add(s.seat);
      if (state.seats.length === 2 && state.result.winner && s.seat !== state.result.winner) seats.add(s.seat);
    }
  }
  return [...seats];
}

// Every seat's last board move, oldest first (four-player games mark each in its colour).
export function seatMoves(moves, upTo) {
  const last = {};
  moves.slice(0, upTo).forEach((m, i) => {
    const p = parseMove(m.uci);
    if (p) last[m.seat] = { seat: m.seat, from: p.from, to: p.to, ply: i };
  });
  return Object.values(last).sort((a, b) => a.ply - b.ply);
}

// Which of these seats the server would take a move back for: the seat of the
// last board move of theirs, with only board moves after it; else null.
export function takebackSeat(moves, mine) {
  for (let i = moves.length - 1; i >= 0; i--) {
    const m = moves[i];
    if (m.uci === 'resign' || m.uci === 'timeout' || m.uci === 'draw') return null;
    if (m.uci !== '0000' && mine.includes(m.seat)) return m.seat;
  }
  return null;
}

// "clock 10 min + 5 s", "clock 8 s + 0 s".
export function clockText(c) {
  const fmt = (ms) => (ms >= 60000 ? t('clock.min', { n: +(ms / 60000).toFixed(1) }) : t('clock.sec', { n: +(ms / 1000).toFixed(1) }));
  return t('clock.spec', { initial: fmt(c.initialMs), inc: t('clock.sec', { n: +(c.incrementMs / 1000).toFixed(1) }) });
}

// A move of the list in the chosen notation: 'san' (as the record writes it,
// when the server gives it) or 'coord' (e3-e4).
// A chain turn (friendly chess, `chain` true: "d8d5,d5d4") is written step
// by step as pacosako.com does: "Qd5>d4" (SAN: the mover's letter) or
// "d8-d5>d4".
export function moveLabel(m, notation, chain = false) {
  if (m.uci === null || m.uci === undefined) return t('fog.hiddenMove');   // fog of war: another seat's move
  if (chain && String(m.uci).includes(',') && !m.uci.includes('@')) {
    const steps = m.uci.split(',').map((x) => parseMove(x)).filter(Boolean);
    if (steps.length > 1) {
      const tail = steps.slice(1).map((x) => `>${x.to}${x.suffix ? `=${x.suffix.toUpperCase()}` : ''}`).join('');
      const head = `${steps[0].to}${steps[0].suffix ? `=${steps[0].suffix.toUpperCase()}` : ''}`;
      const letter = notation === 'san' && m.san && /^[A-Z]/.test(m.san) && m.san[0] !== 'O' ? m.san[0] : '';
      return notation === 'san' ? `${letter}${head}${tail}` : `${steps[0].from}-${head}${tail}`;
    }
  }
  if (m.uci === '0000') return '—';
  if (m.uci === 'resign') return t('moves.resigns');
  if (m.uci === 'timeout') return t('moves.timeout');
  if (m.uci === 'draw') return t('moves.draw');
  if (notation === 'san' && m.san) return m.san;
  const p = parseMove(m.uci);
  if (!p) return m.uci;
  const duck = duckSquare(m.uci) ? `, ${duckSquare(m.uci)}` : '';
  return `${p.from}-${p.to}${p.suffix ? `=${p.suffix.toUpperCase()}` : ''}${duck}`;
}

// The legal moves (texts) a typed move means: coordinates ("e3e4", "e3-e4",
// "a9a10q", "a9-a10=Q") or SAN ("e4", "Nf3", "exd5", "Rbd1", "a10=Q"; + # x
// ignored). `legal` is the state's {from: [moves]}, `pieces` its pieces.
export function matchTyped(text, legal, pieces) {
  const all = Object.values(legal).flat();
  // a drop ("P@e4") or a turn of two parts ("e2e4,e4d5") as the server writes it
  const raw = String(text || '').trim();
  if (/[@,]/.test(raw)) return all.filter((m) => m.toLowerCase() === raw.toLowerCase());
  if (all.includes(raw)) return [raw];
  const s = raw.replace(/[+#!?\s]/g, '');
  const coord = /^([a-p]\d{1,2})[-x]?([a-p]\d{1,2})(?:=?([a-zA-Z]))?$/.exec(s);
  if (coord) {
    const want = coord[1] + coord[2] + (coord[3] || '').toLowerCase();
    const exact = all.filter((m) => m.toLowerCase() === want);
    if (exact.length) return exact;
    // a promotion typed without its piece: every promotion there (one is taken, several are asked about)
    const head = coord[1] + coord[2];
    return coord[3] ? [] : all.filter((m) => m.startsWith(head) && /^[a-z]+$/.test(m.slice(head.length)));
  }
  const san = /^([A-Z])?([a-p])?(\d{1,2})?x?([a-p]\d{1,2})(?:=?([A-Za-z]))?$/.exec(s);
  if (!san) return [];
  const [, letter, file, rank, to, promo] = san;
  const at = new Map(pieces.map((p) => [p.square, p]));
  return all.filter((m) => {
    const mv = /^([a-p])(\d{1,2})([a-p]\d{1,2})(.*)$/.exec(m);
    if (!mv || mv[3] !== to) return false;
    const pc = at.get(mv[1] + mv[2]);
    const isPawn = pc && (pc.name === 'pawn' || pc.letter === 'P');
    if (letter ? !pc || pc.letter !== letter || isPawn : !isPawn) return false;
    if (file && mv[1] !== file) return false;
    if (rank && mv[2] !== rank) return false;
    if (promo) return mv[4].toLowerCase() === promo.toLowerCase();
    return true;
  });
}

// The hands of a two-player position text: the bracket after the board
// ("...[PPnb] w ..."), uppercase the first seat's, lowercase the second's.
// Returns {seat: [{letter (uppercase, as drops are written), count}]} in the
// order of `order` (the variant's letters), or null when the text has none.
export function parseHands(fen, seats, order = []) {
  const m = /^[^\s[]*\[([^\]]*)\]/.exec(String(fen || ''));
  if (!m || !seats || seats.length !== 2) return null;
  const counts = [new Map(), new Map()];
  for (const ch of m[1]) {
    if (!/[a-z]/i.test(ch)) continue;
    const side = ch === ch.toUpperCase() ? 0 : 1;
    const L = ch.toUpperCase();
    counts[side].set(L, (counts[side].get(L) || 0) + 1);
  }
  const rank = (L) => { const i = order.indexOf(L); return i < 0 ? 99 : i; };
  const out = {};
  seats.forEach((seat, i) => {
    out[seat] = [...counts[i].entries()].sort((a, b) => rank(a[0]) - rank(b[0])).map(([letter, count]) => ({ letter, count }));
  });
  return out;
}

// The legal moves (texts) that are passes: "e2e2" (janggi) or "0000".
export function passMoves(legal) {
  return Object.values(legal || {}).flat().filter((m) => m === '0000' || /^([a-p]\d{1,2})\1$/.test(m));
}

// ---- four armies: points and teams (four-player chess, chaturaji) ----------
// Each seat's points: the state's `points` ({seat: n}) when the server sends
// it, else the points field of chess.com's FEN4 (seat to move, seats out,
// castling king- and queen-side, points, fifty-move count, board: the fifth
// field, in the seats' order). Null when the game keeps no points (or plays
// in teams, where they do not count).
export function seatPoints(state) {
  if (!state || (state.options && state.options.mode === 'teams')) return null;
  const seats = (state.seats || []).map((s) => s.seat);
  if (state.points && typeof state.points === 'object') return state.points;
  const fields = String(state.fen || '').split('-');
  if (seats.length < 3 || fields.length < 7) return null;
  const nums = fields[4].split(',');
  if (nums.length !== seats.length || !nums.every((x) => /^\d+$/.test(x))) return null;
  const out = {};
  seats.forEach((s, i) => { out[s] = Number(nums[i]); });
  return out;
}

// The teams: the state's `teams` (lists of seats) when sent, else in a game
// played with mode=teams by four seats, the seats facing each other (the
// first and third against the second and fourth: Red and Yellow against
// Blue and Green). Null when every seat plays for itself.
export function teamsOf(state) {
  if (!state) return null;
  if (Array.isArray(state.teams) && state.teams.length) return state.teams;
  const seats = (state.seats || []).map((s) => s.seat);
  if (state.options && state.options.mode === 'teams' && seats.length === 4) return [[seats[0], seats[2]], [seats[1], seats[3]]];
  return null;
}

// The pieces as the board draws them: an army whose seat is out but stays on
// the board (four-player chess's dead armies) is marked dead (drawn grey).
export function markDead(pieces, seats) {
  const out = new Set((seats || []).filter((s) => s.in === false).map((s) => s.seat));
  if (!out.size) return pieces;
  return pieces.map((p) => (out.has(p.seat) ? { ...p, dead: true } : p));
}

// ---- friendly chess (Paco Sako): unions ----------------------------------------
// A union (a white and a black piece on one square) is one letter of the FEN
// (docs/rules/friendly-chess.md): rows the black piece, columns the white one,
// in the order P R N B Q K.
const UNION_ORDER = 'PRNBQK';
const UNION_TABLE = ['acdefg', 'Chijlm', 'DIostu', 'EJSvwx', 'FLTWyz', 'GMUXZ_'];
const UNION_OF = new Map();
UNION_TABLE.forEach((row, b) => [...row].forEach((ch, w) => { if (ch !== '_') UNION_OF.set(ch, { black: UNION_ORDER[b], white: UNION_ORDER[w] }); }));

// The unions of a chess-like FEN: {square: {white: letter, black: letter}};
// empty when the board part has none. Only for boards whose pieces are
// chess's six (`letters`), whose other letters are never unions.
export function parseUnions(fen, width, letters) {
  const out = {};
  const set = new Set((letters || []).map((l) => l.toUpperCase()));
  if ([...set].some((l) => !UNION_ORDER.includes(l))) return out;
  const rows = String(fen || '').split(' ')[0].split('/');
  rows.forEach((row, i) => {
    const rank = rows.length - i;
    let file = 0;
    for (const m of row.matchAll(/\d+|./g)) {
      const tok = m[0];
      if (/^\d+$/.test(tok)) { file += Number(tok); continue; }
      const u = !set.has(tok.toUpperCase()) ? UNION_OF.get(tok) : null;
      if (u) out[String.fromCharCode(97 + file) + rank] = u;
      file += 1;
    }
  });
  if (width && Object.keys(out).some((sq) => sq.charCodeAt(0) - 97 >= width)) return {};
  return out;
}

// The pieces with each union's second piece attached (`union`: the piece of
// the other side sharing the square), so the board draws both.
export function withUnions(pieces, unions, names) {
  if (!unions || !Object.keys(unions).length) return pieces;
  return pieces.map((p) => {
    const u = unions[p.square];
    if (!u) return p;
    const other = p.seat === 'white' ? 'black' : 'white';
    const letter = u[other];
    return { ...p, union: { seat: other, letter: other === 'black' ? letter.toLowerCase() : letter, name: (names || {})[letter] || '' } };
  });
}

// ---- premoves ----------------------------------------------------------------
// The legal move a premove ({from, to}) stands for now: the one board move
// between those squares (a promotion: the queen, else the first choice);
// null when there is none (the premove is dropped silently) or when the turn
// would need more steps (duck, chains).
export function premoveMove(pm, legal) {
  if (!pm) return null;
  const found = Object.values(legal || {}).flat().filter((m) => {
    if (m.includes(',') || m.includes('@')) return false;
    const mv = parseMove(m);
    return mv && mv.from === pm.from && mv.to === pm.to;
  });
  if (!found.length) return null;
  return found.find((m) => !parseMove(m).suffix) || found.find((m) => parseMove(m).suffix === 'q') || found[0];
}
