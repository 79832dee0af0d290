#!/usr/bin/env node
// Writes tests/data/perft/<variant>.txt: reference perft counts of a
// catalogue game's start position and of positions from seeded random games,
// counted by Fairy-Stockfish (npm ffish) and, for the games chessops also
// plays, checked against chessops line by line.
//   [FAIRY_STOCKFISH=binary [FAIRY_STOCKFISH_COMMIT=hash]] node catalogue.mjs --variant NAME
//       [--budget NODES] [--start-budget NODES] [--games N] [--out FILE]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CHESSOPS_RULES, chessopsPerft, ffishBoard, ffishMoves, ffishPerft, fsfPerft, loadFfish, packageVersion, rng } from './lib.mjs';

const { values } = parseArgs({
  options: {
    variant: { type: 'string' },
    budget: { type: 'string', default: '2000000' },
    'start-budget': { type: 'string', default: '5000000' },
    games: { type: 'string', default: '40' },
    out: { type: 'string' },
  },
});
const variant = values.variant;
if (!variant) throw new Error('--variant NAME');
const budget = Number(values.budget);
const startBudget = Number(values['start-budget']);

// The kinds of position each game should contribute, besides the start.
const WANTED = {
  chess: ['castling', 'en-passant', 'promotion', 'check', 'captures'],
  fischerandom: ['castling', 'en-passant', 'promotion', 'check', 'captures'],
  antichess: ['captures', 'promotion', 'en-passant', 'endgame'],
  atomic: ['castling', 'check', 'captures', 'promotion', 'en-passant'],
  crazyhouse: ['drop', 'castling', 'check', 'promotion', 'captures'],
  duck: ['castling', 'promotion', 'captures', 'en-passant'],
  chaturanga: ['check', 'promotion', 'captures', 'endgame'],
  shatranj: ['check', 'promotion', 'captures', 'endgame'],
  makruk: ['check', 'promotion', 'captures', 'endgame'],
  cambodian: ['first-moves', 'check', 'promotion', 'captures'],
  sittuyin: ['setup', 'promotion', 'check', 'captures', 'endgame'],
  xiangqi: ['check', 'captures', 'endgame', 'midgame', 'facing-kings'],
  janggi: ['check', 'captures', 'endgame', 'midgame', 'facing-kings', 'bikjang'],
  shogi: ['drop', 'promotion', 'check', 'captures'],
  minishogi: ['drop', 'promotion', 'check', 'captures'],
};

// Positions of published perft suites (Fairy-Stockfish's tests/perft.sh; the
// Chess960 list of the Chess Programming Wiki), counted here again.
const EXTRA = {
  chess: [
    ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', "Fairy-Stockfish's tests/perft.sh (Kiwipete)"],
    ['8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', "Fairy-Stockfish's tests/perft.sh"],
    ['r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', "Fairy-Stockfish's tests/perft.sh"],
    ['rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', "Fairy-Stockfish's tests/perft.sh"],
  ],
  fischerandom: [
    ['bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', "the Chess Programming Wiki's Chess960 perft list"],
    ['2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9', "the Chess Programming Wiki's Chess960 perft list"],
    ['b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9', "the Chess Programming Wiki's Chess960 perft list"],
    ['qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9', "the Chess Programming Wiki's Chess960 perft list"],
    ['k7/8/8/8/8/8/8/1R2K2R w B - 0 1', 'castling: the queen-side rook on b1, the king passing over it to c1'],
    ['5k2/8/8/8/8/8/8/4RK1R w HE - 0 1', 'castling: the king on f1 between its rooks on e1 and h1'],
  ],
  atomic: [
    ['rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1', "Fairy-Stockfish's tests/perft.sh"],
    ['rn1qkb1r/p5pp/2p5/3p4/N3P3/5P2/PPP4P/R1BQK3 w Qkq - 0 1', "Fairy-Stockfish's tests/perft.sh"],
    ['r4b1r/2kb1N2/p2Bpnp1/8/2Pp3p/1P1PPP2/P5PP/R3K2R b KQ - 0 1', "Fairy-Stockfish's tests/perft.sh"],
  ],
  crazyhouse: [
    ['2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1', "Fairy-Stockfish's tests/perft.sh"],
    ['2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1', "Fairy-Stockfish's tests/perft.sh"],
    ['r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1', "Fairy-Stockfish's tests/perft.sh"],
  ],
  shatranj: [
    ['8/8/8/3k4/8/3p4/3R4/3K4 w - - 0 1', 'bare king: Rxd3+ leaves Black a bare king against king and rook (issue 22)'],
    ['8/8/8/8/3k4/3p4/3R4/3K4 w - - 0 1', 'bare king: after Rxd3+ the bare king may take the rook back'],
  ],
  cambodian: [['r1s1ks1r/3nm3/pppNpppp/3n4/5P2/PPPPPNPP/8/R1SKMS1R b DEe - 0 5', "Fairy-Stockfish's tests/perft.sh"]],
  sittuyin: [
    ['8/8/6R1/s3r3/P5R1/1KP3p1/1F2kr2/8[] b - - 0 72', "Fairy-Stockfish's tests/perft.sh"],
    ['2r5/6k1/6p1/3s2P1/3npR2/8/p2N2F1/3K4[] w - - 1 50', "Fairy-Stockfish's tests/perft.sh"],
    ['8/6s1/5P2/3n4/pR2K2S/1P6/1k4p1/8[] w - - 1 50', "Fairy-Stockfish's tests/perft.sh"],
    ['1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1', "Fairy-Stockfish's tests/perft.sh"],
  ],
};

const ff = await loadFfish();

// The piece letter on a square ("e1", "a10") of a FEN's board, or '' when empty.
function pieceAt(placement, square) {
  const rows = placement.split('[')[0].split('/');
  const file = square.charCodeAt(0) - 97;
  const row = rows[rows.length - Number(square.slice(1))];
  if (row === undefined) return '';
  let f = 0;
  for (const token of row.match(/\d+|[+]?[A-Za-z*][~]?/g) ?? []) {
    if (/^\d/.test(token)) f += Number(token);
    else if (f++ === file) return token.replace(/[+~]/g, '');
  }
  return '';
}

// What a position offers: the kinds of WANTED it counts as.
function kinds(board, ply) {
  const moves = ffishMoves(board);
  const fen = board.fen();
  const [placement, , castling, ep] = fen.split(' ');
  const out = new Set();
  const plain = [...new Set(moves.map((m) => m.split(',')[0]))];
  if (board.isCheck()) out.add('check');
  if (new Set(moves.filter((m) => board.isCapture(m)).map((m) => m.split(',')[0])).size >= 3) out.add('captures');
  if (plain.some((m) => /^[a-z]\d+[a-z]\d+[a-z+]$/.test(m))) out.add('promotion');
  if (plain.some((m) => m.includes('@'))) out.add(variant === 'sittuyin' ? 'setup' : 'drop');
  // Castling: a king moving two files or more along its rank, or onto its own rook (Chess960).
  for (const m of plain) {
    const [from, to] = m.match(/[a-z]\d+/g) ?? [];
    if (!to || from.slice(1) !== to.slice(1) || !/^[Kk]$/.test(pieceAt(placement, from))) continue;
    const own = pieceAt(placement, to);
    if (Math.abs(from.charCodeAt(0) - to.charCodeAt(0)) >= 2 || (own && (own === 'R') === (pieceAt(placement, from) === 'K') && /^[Rr]$/.test(own)))
      out.add('castling');
  }
  if (ep && ep !== '-' && /^[a-z]\d/.test(ep) && variant !== 'cambodian') out.add('en-passant');
  if (variant === 'cambodian' && castling && /[DEde]/.test(castling) && ply >= 8) out.add('first-moves');
  // Kings on one file with one piece between them (the flying general's pin),
  // or none (janggi's bikjang).
  const files = placement.split('[')[0].split('/').map((row) => {
    const cells = [];
    for (const token of row.match(/\d+|[+]?[A-Za-z*][~]?/g) ?? [])
      if (/^\d/.test(token)) cells.push(...Array(Number(token)).fill(''));
      else cells.push(token.replace(/[+~]/g, ''));
    return cells;
  });
  const kings = [];
  files.forEach((cells, r) => cells.forEach((c, f) => { if (c === 'K' || c === 'k') kings.push([r, f]); }));
  if (kings.length === 2 && kings[0][1] === kings[1][1]) {
    const [top, bottom] = [Math.min(kings[0][0], kings[1][0]), Math.max(kings[0][0], kings[1][0])];
    const between = files.slice(top + 1, bottom).filter((cells) => cells[kings[0][1]]).length;
    if (between === 1) out.add('facing-kings');
  }
  if (variant === 'janggi' && board.isBikjang()) out.add('bikjang');
  const pieces = placement.split('[')[0].replace(/[^A-Za-z]/g, '').length;
  if (ply >= 40 && pieces <= 12) out.add('endgame');
  if (ply >= 30 && pieces >= 20) out.add('midgame');
  return { out, moves };
}

// The deepest counts within the node budget, from depth 1.
function counts(fen, limit) {
  const board = ffishBoard(ff, variant, fen);
  const found = [];
  for (let d = 1; d <= 10; ++d) {
    const n = ffishPerft(board, d);
    if (n > limit) break;
    found.push(n);
    if (n === 0) break;
    const growth = d === 1 ? n : n / Math.max(1, found[d - 2]);
    if (n * growth > limit * 1.5) break;
  }
  board.delete();
  return found;
}

const picked = [];
const start = ffishBoard(ff, variant);
const startFen = start.fen();
start.delete();
picked.push({ fen: startFen, note: 'start position' });
if (variant === 'fischerandom') {
  // Two seeded Chess960 arrays as well as the standard one.
  for (const seed of [518, 7]) picked.push({ fen: chess960Start(seed), note: `a random Chess960 array (seed ${seed})` });
}
for (const [fen, source] of EXTRA[variant] ?? []) picked.push({ fen, note: source });
const seen = new Set(picked.map((p) => p.fen.split(' ').slice(0, 4).join(' ')));
const todo = new Set(WANTED[variant]);
for (let game = 1; game <= Number(values.games) && todo.size; ++game) {
  const random = rng(game * 7919 + variant.length);
  const board = picked.length > 1 && variant === 'fischerandom' && game % 2 === 0 ? ffishBoard(ff, variant, chess960Start(game)) : ffishBoard(ff, variant);
  for (let ply = 0; ply < 400 && todo.size; ++ply) {
    const { out, moves } = kinds(board, ply);
    if (moves.length === 0 || board.isGameOver(true)) break;
    const key = board.fen().split(' ').slice(0, 4).join(' ');
    const hit = [...out].filter((k) => todo.has(k));
    if (ply >= 6 && hit.length && !seen.has(key)) {
      seen.add(key);
      for (const k of hit) todo.delete(k);
      picked.push({ fen: board.fen(), note: `random game ${game}, ply ${ply}: ${[...out].sort().join(', ')}` });
    }
    board.push(moves[Math.floor(random() * moves.length)]);
  }
  board.delete();
}

const useChessops = variant in CHESSOPS_RULES;
// With FAIRY_STOCKFISH set, every line is also counted by that binary.
const fsf = process.env.FAIRY_STOCKFISH;
const fsfVersion = fsf ? fsfPerft(fsf, variant, undefined, 1).version + (process.env.FAIRY_STOCKFISH_COMMIT ? ` (commit ${process.env.FAIRY_STOCKFISH_COMMIT})` : '') : '';
const lines = [];
const also = [useChessops ? `chessops ${packageVersion('chessops')}` : '', fsf ? `${fsfVersion} built from source` : ''].filter((x) => x);
lines.push(`# ${variant}: perft counted by ${ff.info()} (npm ffish ${packageVersion('ffish')})` +
  (also.length ? `; every line equal in ${also.join(' and in ')}` : '') + '.');
lines.push(`# Made by: node tools/reference/catalogue.mjs --variant ${variant} --budget ${budget} --start-budget ${startBudget} --games ${values.games}`);
if (todo.size) lines.push(`# Not found in the random games: ${[...todo].join(', ')}`);
lines.push('# FEN<TAB>depth<TAB>nodes');
for (const p of picked) {
  const found = counts(p.fen, p.note === 'start position' || p.note.startsWith('a random Chess960') ? startBudget : budget);
  lines.push(`# ${p.note}`);
  for (let d = 1; d <= found.length; ++d) {
    if (useChessops) {
      const { total } = await chessopsPerft(variant, p.fen, d, false);
      if (total !== found[d - 1]) throw new Error(`chessops ${total} against ffish ${found[d - 1]}: ${p.fen} depth ${d}`);
    }
    if (fsf) {
      const { total } = fsfPerft(fsf, variant, p.fen, d);
      if (total !== found[d - 1]) throw new Error(`${fsfVersion} ${total} against ffish ${found[d - 1]}: ${p.fen} depth ${d}`);
    }
    lines.push(`${p.fen}\t${d}\t${found[d - 1]}`);
  }
}
const out = values.out ?? new URL(`../../tests/data/perft/${variant}.txt`, import.meta.url);
writeFileSync(out, lines.join('\n') + '\n');
console.log(lines.join('\n'));

// A Chess960 start position from a seed (the bishops on opposite colours, the
// king between the rooks), with Shredder-FEN castling rights.
function chess960Start(seed) {
  const random = rng(seed);
  const rank = Array(8).fill(null);
  const pick = (squares) => squares[Math.floor(random() * squares.length)];
  const free = () => rank.map((p, i) => (p ? -1 : i)).filter((i) => i >= 0);
  rank[pick([0, 2, 4, 6])] = 'B';
  rank[pick([1, 3, 5, 7])] = 'B';
  rank[pick(free())] = 'Q';
  rank[pick(free())] = 'N';
  rank[pick(free())] = 'N';
  const [a, k, h] = free();
  rank[a] = 'R';
  rank[k] = 'K';
  rank[h] = 'R';
  const white = rank.join('');
  const files = 'abcdefgh';
  const rights = files[h].toUpperCase() + files[a].toUpperCase() + files[h] + files[a];
  return `${white.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${white} w ${rights} - 0 1`;
}
