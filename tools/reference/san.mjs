#!/usr/bin/env node
// Plays seeded random games with Fairy-Stockfish (ffish) and compares, every
// few plies, the SAN of every legal move: Acedrex's (`acedrex moves --san`)
// against ffish's sanMove in Fairy-Stockfish's default notation for the
// variant (SAN; Hodges with numbers for shogi), which is what pychess writes
// in its PGN. Exits 1 on the first difference, printing the position.
//   node san.mjs --variant NAME [--fen START] [--acedrex PATH] [--games N] [--plies N] [--every N] [--seed N]
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { RANDOM_GAME_OPTIONS, eachRandomPosition, ffishMoves, loadFfish } from './lib.mjs';

async function main() {
  const { values } = parseArgs({ options: { ...RANDOM_GAME_OPTIONS, every: { type: 'string', default: '3' } } });
  const variant = values.variant;
  if (!variant) throw new Error('--variant NAME');
  const ff = await loadFfish();
  const notation = ['shogi', 'minishogi'].includes(variant) ? ff.Notation.SHOGI_HODGES_NUMBER : ff.Notation.SAN;
  const ours = (fen) => {
    const run = spawnSync(values.acedrex, ['moves', '--variant', variant, '--fen', fen, '--san'], { encoding: 'utf8' });
    if (run.status !== 0) return { error: (run.stderr || run.stdout).trim() };
    const map = new Map();
    for (const line of run.stdout.split('\n')) {
      const [uci, san] = line.split(' ');
      if (uci) map.set(uci, san);
    }
    return { map };
  };
  let compared = 0, moves = 0;
  eachRandomPosition(ff, values, (board, where) => {
    const a = ours(board.fen());
    if (a.error) throw new Error(`acedrex refused ${where}: ${a.error}`);
    const legal = ffishMoves(board);
    const diffs = [];
    for (const m of legal) {
      const theirs = board.sanMove(m, notation);
      if (a.map.get(m) !== theirs) diffs.push(`  ${m}: acedrex ${a.map.get(m) ?? '-'} ffish ${theirs}`);
    }
    if (diffs.length) {
      console.log(`DIFFERENT at ${where}`);
      for (const d of diffs.slice(0, 20)) console.log(d);
      process.exit(1);
    }
    ++compared;
    moves += legal.length;
  });
  console.log(`${variant}: ${compared} positions, ${moves} moves, SAN equal`);
}

main().catch((e) => {
  console.error(`error: ${e.message}`);
  process.exit(1);
});
