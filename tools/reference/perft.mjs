#!/usr/bin/env node
// Reference perft counts for Acedrex's catalogue games.
//   node perft.mjs --variant NAME [--fen FEN] --depth N [--engine ffish|chessops] [--divide]
// ffish: Fairy-Stockfish's move generator compiled to WebAssembly (npm "ffish").
// chessops: lichess's rules library (chess, fischerandom, antichess, atomic, crazyhouse).
// Prints "Nodes searched: N" (and with --divide one "move: count" line per root move first).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);

// ffish's Emscripten loader prefers fetch() when it exists, which cannot read
// a local path in Node; without it, it reads the .wasm file from disk.
async function loadFfish() {
  delete globalThis.fetch;
  const M = require('ffish');
  if (typeof M === 'function') return M();
  return new Promise((resolve) => {
    if (M.calledRun) resolve(M);
    else M.onRuntimeInitialized = () => resolve(M);
  });
}

async function ffishPerft(variant, fen, depth, divide) {
  const ff = await loadFfish();
  const is960 = variant === 'fischerandom' || variant === 'chess960';
  const name = variant === 'chess960' ? 'fischerandom' : variant;
  if (fen !== undefined && ff.validateFen(fen, name, is960) < 1)
    throw new Error(`ffish refuses the FEN for ${name} (validateFen ${ff.validateFen(fen, name, is960)})`);
  const board = fen === undefined ? new ff.Board(name) : new ff.Board(name, fen, is960);
  if (board.variant() !== name) throw new Error(`ffish does not know the variant ${name}`);
  const count = (d) => {
    if (d === 1) return board.numberLegalMoves();
    const list = board.legalMoves();
    if (list === '') return 0;
    let n = 0;
    for (const m of list.split(' ')) {
      board.push(m);
      n += count(d - 1);
      board.pop();
    }
    return n;
  };
  const lines = [];
  let total = 0;
  if (depth === 0) total = 1;
  else if (!divide) total = count(depth);
  else {
    const list = board.legalMoves();
    for (const m of list === '' ? [] : list.split(' ')) {
      board.push(m);
      const n = depth === 1 ? 1 : count(depth - 1);
      board.pop();
      lines.push(`${m}: ${n}`);
      total += n;
    }
  }
  board.delete();
  return { lines, total, version: ff.info() };
}

async function chessopsPerft(variant, fen, depth, divide) {
  const { parseFen } = await import('chessops/fen');
  const { setupPosition, defaultPosition } = await import('chessops/variant');
  const { perft } = await import('chessops/debug');
  const rules = { chess: 'chess', fischerandom: 'chess', chess960: 'chess', antichess: 'antichess', atomic: 'atomic', crazyhouse: 'crazyhouse' }[variant];
  if (!rules) throw new Error(`chessops does not play ${variant}`);
  const pos = fen === undefined ? defaultPosition(rules) : setupPosition(rules, parseFen(fen).unwrap()).unwrap();
  const lines = [];
  let total = 0;
  if (!divide) total = perft(pos, depth, false);
  else {
    // chessops writes castling as the king taking its rook (e1h1), also in chess.
    const log = console.log;
    console.log = (move, n) => lines.push(`${move}: ${n}`);
    try { total = perft(pos, depth, true); } finally { console.log = log; }
  }
  return { lines, total, version: `chessops ${JSON.parse(readFileSync(new URL('./node_modules/chessops/package.json', import.meta.url), 'utf8')).version}` };
}

const { values } = parseArgs({
  options: {
    variant: { type: 'string', default: 'chess' },
    fen: { type: 'string' },
    depth: { type: 'string', default: '1' },
    engine: { type: 'string', default: 'ffish' },
    divide: { type: 'boolean', default: false },
    version: { type: 'boolean', default: false },
  },
});
const depth = Number.parseInt(values.depth, 10);
if (!(depth >= 0)) throw new Error('--depth needs a number >= 0');
const run = values.engine === 'chessops' ? chessopsPerft : values.engine === 'ffish' ? ffishPerft : null;
if (!run) throw new Error('--engine is ffish or chessops');
const { lines, total, version } = await run(values.variant, values.fen, depth, values.divide);
if (values.version) console.log(version);
for (const l of lines) console.log(l);
console.log(`\nNodes searched: ${total}`);
