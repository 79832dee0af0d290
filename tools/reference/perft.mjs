#!/usr/bin/env node
// Reference perft counts for Acedrex's catalogue games.
//   node perft.mjs --variant NAME [--fen FEN] [--moves "M1 M2 ..."] --depth N [--engine ffish|chessops|fsf] [--divide] [--version]
// ffish: Fairy-Stockfish's move generator compiled to WebAssembly (npm "ffish").
// chessops: lichess's rules library (chess, fischerandom, antichess, atomic, crazyhouse).
// fsf: a Fairy-Stockfish binary built from source, named by FAIRY_STOCKFISH (see README.md).
// Prints "Nodes searched: N", after one "move: count" line per root move with --divide.
import { parseArgs } from 'node:util';
import { chessopsPerft, ffishBoard, ffishMoves, ffishPerft, fsfPerft, loadFfish, packageVersion } from './lib.mjs';

// Errors are reported in one line: ffish's loader would otherwise print its whole source.
async function main() {
const { values } = parseArgs({
  options: {
    variant: { type: 'string', default: 'chess' },
    fen: { type: 'string' },
    moves: { type: 'string', default: '' },
    depth: { type: 'string', default: '1' },
    engine: { type: 'string', default: 'ffish' },
    divide: { type: 'boolean', default: false },
    version: { type: 'boolean', default: false },
  },
});
const depth = Number.parseInt(values.depth, 10);
if (!(depth >= 0)) throw new Error('--depth needs a number >= 0');

let total = 0;
let lines = [];
let version;
if (values.engine === 'ffish') {
  const ff = await loadFfish();
  version = `${ff.info()} (npm ffish ${packageVersion('ffish')})`;
  const board = ffishBoard(ff, values.variant, values.fen);
  for (const m of values.moves.split(' ').filter((x) => x))
    if (!board.push(m)) throw new Error(`illegal move ${m} in ${board.fen()}`);
  if (values.moves) console.log(`FEN ${board.fen()}`);
  if (!values.divide || depth === 0) total = ffishPerft(board, depth);
  else
    for (const m of ffishMoves(board)) {
      board.push(m);
      const n = ffishPerft(board, depth - 1);
      board.pop();
      lines.push(`${m}: ${n}`);
      total += n;
    }
  board.delete();
} else if (values.moves) {
  throw new Error('--moves is for --engine ffish');
} else if (values.engine === 'chessops') {
  version = `chessops ${packageVersion('chessops')}`;
  ({ total, lines } = await chessopsPerft(values.variant, values.fen, depth, values.divide));
} else if (values.engine === 'fsf') {
  const binary = process.env.FAIRY_STOCKFISH;
  if (!binary) throw new Error('--engine fsf needs FAIRY_STOCKFISH=path/to/fairy-stockfish (built from source)');
  ({ total, lines, version } = fsfPerft(binary, values.variant, values.fen, depth));
  if (!values.divide) lines = [];
} else throw new Error('--engine is ffish, chessops or fsf');

if (values.version) console.log(version);
for (const l of lines) console.log(l);
console.log(`\nNodes searched: ${total}`);
}

main().catch((e) => {
  console.error(`error: ${e.message}`);
  process.exit(1);
});
