#!/usr/bin/env node
// Plays seeded random games with Fairy-Stockfish (ffish) and compares, every
// few plies, Acedrex's perft divide (the move texts and their counts) with
// ffish's. Exits 1 on the first difference, printing the position.
//   node differential.mjs --variant NAME [--fen START] [--acedrex PATH] [--games N] [--plies N]
//       [--every N] [--depth N] [--seed N] [--totals] [--fsf PATH]
// --totals compares only the node counts, not the move texts.
// --fsf PATH counts the divides with that Fairy-Stockfish binary (built from
// source) instead of ffish, where the two differ (janggi); ffish still plays
// the random games.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { ffishBoard, ffishMoves, ffishPerft, fsfPerft, loadFfish, rng } from './lib.mjs';

async function main() {
  const { values } = parseArgs({
    options: {
      variant: { type: 'string' },
      acedrex: { type: 'string', default: new URL('../../build/release/acedrex', import.meta.url).pathname },
      games: { type: 'string', default: '10' },
      plies: { type: 'string', default: '200' },
      every: { type: 'string', default: '7' },
      depth: { type: 'string', default: '3' },
      seed: { type: 'string', default: '1' },
      fen: { type: 'string' },
      totals: { type: 'boolean', default: false },
      fsf: { type: 'string' },
    },
  });
  const variant = values.variant;
  if (!variant) throw new Error('--variant NAME');
  const depth = Number(values.depth);
  const ff = await loadFfish();

  const ours = (fen) => {
    const run = spawnSync(values.acedrex, ['perft', '--variant', variant, '--fen', fen, '--divide', String(depth)], { encoding: 'utf8' });
    if (run.status !== 0) return { error: (run.stderr || run.stdout).trim() };
    const map = new Map();
    for (const line of run.stdout.split('\n')) {
      const m = line.match(/^(\S+): (\d+)$/);
      if (m) map.set(m[1], (map.get(m[1]) ?? 0) + Number(m[2]));
    }
    return { map };
  };
  const theirs = (board) => {
    const map = new Map();
    if (values.fsf) {
      for (const line of fsfPerft(values.fsf, variant, board.fen(), depth).lines) {
        const [move, count] = line.split(': ');
        map.set(move, Number(count));
      }
      return map;
    }
    for (const m of ffishMoves(board)) {
      board.push(m);
      map.set(m, ffishPerft(board, depth - 1));
      board.pop();
    }
    return map;
  };

  let compared = 0;
  for (let game = 0; game < Number(values.games); ++game) {
    const seed = Number(values.seed) + game;
    const random = rng(seed * 7919);
    const board = ffishBoard(ff, variant, values.fen);
    for (let ply = 0; ply < Number(values.plies); ++ply) {
      const moves = ffishMoves(board);
      if (moves.length === 0 || board.isGameOver(true)) break;
      if (ply % Number(values.every) === 0) {
        const fen = board.fen();
        const a = ours(fen);
        const b = theirs(board);
        const where = `game seed ${seed}, ply ${ply}: ${fen}`;
        if (a.error) throw new Error(`acedrex refused ${where}: ${a.error}`);
        const keys = new Set([...a.map.keys(), ...b.keys()]);
        const sum = (m) => [...m.values()].reduce((x, y) => x + y, 0);
        const diffs = values.totals
          ? (sum(a.map) === sum(b) ? [] : [`total: acedrex ${sum(a.map)} ffish ${sum(b)}`])
          : [...keys].filter((k) => a.map.get(k) !== b.get(k)).sort();
        if (diffs.length) {
          console.log(`DIFFERENT at ${where}`);
          for (const k of diffs.slice(0, 20))
            console.log(values.totals ? `  ${k}` : `  ${k}: acedrex ${a.map.get(k) ?? '-'} ffish ${b.get(k) ?? '-'}`);
          process.exit(1);
        }
        ++compared;
      }
      board.push(moves[Math.floor(random() * moves.length)]);
    }
    board.delete();
  }
  console.log(`${variant}: ${compared} positions, perft ${depth} ${values.totals ? 'counts' : 'divides'} equal`);
}

main().catch((e) => {
  console.error(`error: ${e.message}`);
  process.exit(1);
});
