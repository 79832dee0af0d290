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
import { RANDOM_GAME_OPTIONS, eachRandomPosition, ffishMoves, ffishPerft, fsfPerft, loadFfish } from './lib.mjs';

async function main() {
  const { values } = parseArgs({
    options: {
      ...RANDOM_GAME_OPTIONS,
      every: { type: 'string', default: '7' },
      depth: { type: 'string', default: '3' },
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
  eachRandomPosition(ff, values, (board, where) => {
    const a = ours(board.fen());
    const b = theirs(board);
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
  });
  console.log(`${variant}: ${compared} positions, perft ${depth} ${values.totals ? 'counts' : 'divides'} equal`);
}

main().catch((e) => {
  console.error(`error: ${e.message}`);
  process.exit(1);
});
