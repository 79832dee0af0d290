// Shared by perft.mjs and catalogue.mjs: the two reference move generators.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// Fairy-Stockfish's names of the chess-like games that chessops also plays.
export const CHESSOPS_RULES = { chess: 'chess', fischerandom: 'chess', antichess: 'antichess', atomic: 'atomic', crazyhouse: 'crazyhouse' };

let ffishModule;
// ffish's Emscripten loader prefers fetch() when it exists, which cannot read
// a local path in Node; without it, it reads the .wasm file from disk.
export async function loadFfish() {
  if (ffishModule) return ffishModule;
  delete globalThis.fetch;
  const M = require('ffish');
  ffishModule = typeof M === 'function' ? await M() : await new Promise((resolve) => {
    if (M.calledRun) resolve(M);
    else M.onRuntimeInitialized = () => resolve(M);
  });
  return ffishModule;
}

export function packageVersion(name) {
  return JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
}

// A Fairy-Stockfish board for the variant (chess960 is an alias of fischerandom).
export function ffishBoard(ff, variant, fen) {
  const name = variant === 'chess960' ? 'fischerandom' : variant;
  const is960 = name === 'fischerandom';
  // A board of the variant first: an unknown name falls back to chess without
  // a word, and validateFen reads the piece letters of the last variant set up.
  const board = new ff.Board(name);
  if (board.variant() !== name) throw new Error(`ffish does not know the variant ${name}`);
  board.delete();
  if (fen === undefined) return new ff.Board(name);
  const valid = ff.validateFen(fen, name, is960);
  if (valid < 1) throw new Error(`ffish refuses the FEN for ${name} (validateFen ${valid}): ${fen}`);
  return new ff.Board(name, fen, is960);
}

export function ffishMoves(board) {
  const list = board.legalMoves();
  return list === '' ? [] : list.split(' ');
}

// Perft by pushing and popping every legal move; the last ply only counts them.
export function ffishPerft(board, depth) {
  if (depth === 0) return 1;
  if (depth === 1) return board.numberLegalMoves();
  let n = 0;
  for (const m of ffishMoves(board)) {
    board.push(m);
    n += ffishPerft(board, depth - 1);
    board.pop();
  }
  return n;
}

// { total, lines }: lines is the divide ("move: count") when asked for.
export async function chessopsPerft(variant, fen, depth, divide) {
  const { parseFen } = await import('chessops/fen');
  const { setupPosition, defaultPosition } = await import('chessops/variant');
  const { perft } = await import('chessops/debug');
  const rules = CHESSOPS_RULES[variant === 'chess960' ? 'fischerandom' : variant];
  if (!rules) throw new Error(`chessops does not play ${variant}`);
  const pos = fen === undefined ? defaultPosition(rules) : setupPosition(rules, parseFen(fen).unwrap()).unwrap();
  if (!divide) return { total: perft(pos, depth, false), lines: [] };
  // chessops's perft logs its divide through console.log; it writes castling
  // as the king taking its rook (e1h1), also in chess.
  const lines = [];
  const log = console.log;
  console.log = (move, n) => lines.push(`${move}: ${n}`);
  try {
    return { total: perft(pos, depth, true), lines };
  } finally {
    console.log = log;
  }
}

// A Fairy-Stockfish binary built from source (its path in FAIRY_STOCKFISH),
// asked through UCI: "go perft N" prints the divide and "Nodes searched: N".
export function fsfPerft(binary, variant, fen, depth) {
  const name = variant === 'chess960' ? 'fischerandom' : variant;
  const input = [
    'uci',
    `setoption name UCI_Chess960 value ${name === 'fischerandom'}`,
    `setoption name UCI_Variant value ${name}`,
    fen === undefined ? 'position startpos' : `position fen ${fen}`,
    `go perft ${depth}`,
    'quit',
  ].join('\n') + '\n';
  const run = spawnSync(binary, [], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`${binary} failed: ${run.stderr}`);
  const out = run.stdout.split('\n');
  const version = (out.find((l) => l.startsWith('id name ')) ?? '').slice(8);
  if (!out.some((l) => l.includes(`UCI_Variant type combo default chess var`) && l.split(' var ').includes(name)))
    throw new Error(`${binary} does not know the variant ${name}`);
  const nodes = out.find((l) => l.startsWith('Nodes searched: '));
  if (!nodes) throw new Error(`no perft count from ${binary}: ${run.stdout.slice(-500)}`);
  const lines = out.filter((l) => /^\S+: \d+$/.test(l) && !l.startsWith('Nodes searched'));
  return { total: Number(nodes.slice(16)), lines, version };
}

// mulberry32: a small seeded generator, so random games can be played again.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Seeded random games played with ffish: visit(board, where) is called every
// `every` plies (the board at that position; where names the game, ply and
// FEN); games start at `fen` or the variant's start.
export function eachRandomPosition(ff, { variant, fen, games, plies, every, seed }, visit) {
  for (let game = 0; game < Number(games); ++game) {
    const gameSeed = Number(seed) + game;
    const random = rng(gameSeed * 7919);
    const board = ffishBoard(ff, variant, fen);
    for (let ply = 0; ply < Number(plies); ++ply) {
      const moves = ffishMoves(board);
      if (moves.length === 0 || board.isGameOver(true)) break;
      if (ply % Number(every) === 0) visit(board, `game seed ${gameSeed}, ply ${ply}: ${board.fen()}`);
      board.push(moves[Math.floor(random() * moves.length)]);
    }
    board.delete();
  }
}

// The command-line options both differential scripts take.
export const RANDOM_GAME_OPTIONS = {
  variant: { type: 'string' },
  acedrex: { type: 'string', default: new URL('../../build/release/acedrex', import.meta.url).pathname },
  games: { type: 'string', default: '10' },
  plies: { type: 'string', default: '200' },
  seed: { type: 'string', default: '1' },
  fen: { type: 'string' },
};
