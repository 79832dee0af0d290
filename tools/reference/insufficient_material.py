#!/usr/bin/env python3
"""Insufficient material as Fairy-Stockfish judges it, for the games whose
variant file says `insufficient-material = mating-pieces ...`: random sparse
positions (the kings and a few pieces), each side's verdict asked of
pyffish's has_insufficient_material (the test ffish and pychess end a game
by), written as tests/data/insufficient/<game>.txt for the fast suite
(Catalogue.InsufficientMaterialAsFairyStockfish).

pyffish is Fairy-Stockfish's Python module, built from its source (its
setup.py; a current checkout, since the test changed in 2025):

  cd /path/to/Fairy-Stockfish && python3 setup.py build_ext --inplace
  PYTHONPATH=/path/to/Fairy-Stockfish python3 tools/reference/insufficient_material.py \\
      --acedrex build/release/acedrex [--write] [--count 250] [--seed 1]

A position enters the file only when both programs accept it (pyffish's
validate_fen, and `acedrex summary` without an error). Without --write the
script compares Acedrex's own verdicts (`acedrex summary`: the draw reason)
with pyffish's and prints every difference.
"""
import argparse, json, os, random, subprocess, sys

import pyffish as sf

# Per game: the board, the pieces besides the king (white's letters), the
# squares a king may stand on (None: any), whether the FEN has a hand.
GAMES = {
    'chaturanga': dict(w=8, h=8, pieces='RNBQP', palace=None, hand=False),
    'makruk': dict(w=8, h=8, pieces='RNSMP', palace=None, hand=False),
    'cambodian': dict(w=8, h=8, pieces='RNSMP', palace=None, hand=False),
    'sittuyin': dict(w=8, h=8, pieces='RNSFP', palace=None, hand=True),
    'xiangqi': dict(w=9, h=10, pieces='RNBACP', palace=(3, 5, 0, 2), hand=False),
    'janggi': dict(w=9, h=10, pieces='RNBACP', palace=(3, 5, 0, 2), hand=False),
}
# Pieces that must stay in the palace (xiangqi's advisor, janggi's guard) or
# on their own side of the river (xiangqi's elephant): placed there only.
CONFINED = {'xiangqi': {'A': 'palace', 'B': 'half'}, 'janggi': {'A': 'palace'}}


def fen_of(g, board, side, hand):
    rows = []
    for r in range(g['h'] - 1, -1, -1):
        row, empty = '', 0
        for f in range(g['w']):
            p = board.get((f, r))
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p
        if empty:
            row += str(empty)
        rows.append(row)
    text = '/'.join(rows)
    if g['hand']:
        text += '[' + hand + ']'
    return f'{text} {side} - - 0 1'


def allowed(game, g, letter, white, f, r):
    """Whether a piece may stand on (f, r) (rank 0 is White's first)."""
    rel = r if white else g['h'] - 1 - r
    kind = 'palace' if letter == 'K' and g['palace'] else CONFINED.get(game, {}).get(letter)
    if kind == 'palace':
        f0, f1, r0, r1 = g['palace']
        return f0 <= f <= f1 and r0 <= rel <= r1
    if kind == 'half':
        return rel < g['h'] // 2
    if letter == 'P' and game not in ('xiangqi', 'janggi'):
        return 0 < rel < g['h'] - 1
    return True


def random_position(game, g, rng):
    board = {}
    for white in (True, False):
        while True:
            f, r = rng.randrange(g['w']), rng.randrange(g['h'])
            if (f, r) not in board and allowed(game, g, 'K', white, f, r):
                board[(f, r)] = 'K' if white else 'k'
                break
    # Mostly one or two pieces: where the verdicts differ.
    for _ in range(rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])):
        white = rng.random() < 0.5
        letter = rng.choice(g['pieces'])
        for _ in range(50):
            f, r = rng.randrange(g['w']), rng.randrange(g['h'])
            if (f, r) not in board and allowed(game, g, letter, white, f, r):
                board[(f, r)] = letter if white else letter.lower()
                break
    hand = ''
    if g['hand'] and rng.random() < 0.15:
        hand = rng.choice(g['pieces'].replace('P', '')) if rng.random() < 0.5 else rng.choice(g['pieces'].replace('P', '')).lower()
    return fen_of(g, board, rng.choice('wb'), hand)


def acedrex_summary(acedrex, game, fen):
    out = subprocess.run([acedrex, 'summary', '--variant', game, '--fen', fen], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--acedrex', required=True)
    ap.add_argument('--count', type=int, default=250)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--write', action='store_true')
    ap.add_argument('--games', default=','.join(GAMES))
    args = ap.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    differences = 0
    for game in args.games.split(','):
        g = GAMES[game]
        rng = random.Random(f'{args.seed}-{game}')
        lines, seen, tally = [], set(), {}
        tries = 0
        while len(lines) < args.count and tries < 50 * args.count:
            tries += 1
            fen = random_position(game, g, rng)
            if fen in seen or sf.validate_fen(fen, game) != sf.FEN_OK:
                continue
            seen.add(fen)
            summary = acedrex_summary(args.acedrex, game, fen)
            if summary is None:
                continue
            w, b = sf.has_insufficient_material(game, fen, [])
            ours = summary.get('draw_reason') == 'insufficient material'
            if summary['status'] != 'finished' or summary.get('draw_reason') == 'insufficient material':
                if ours != (w and b):
                    differences += 1
                    print(f'{game}: {fen}: Fairy-Stockfish {w} {b}, Acedrex {summary}', file=sys.stderr)
            lines.append(f'{fen}|{int(w)}|{int(b)}')
            tally[(w, b)] = tally.get((w, b), 0) + 1
        print(f'{game}: {len(lines)} positions; (white cannot, black cannot): '
              + ', '.join(f'{k}: {v}' for k, v in sorted(tally.items())), file=sys.stderr)
        if args.write:
            path = os.path.join(root, 'tests', 'data', 'insufficient', f'{game}.txt')
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as out:
                out.write(f'# {game}: FEN|white cannot mate|black cannot mate, by pyffish has_insufficient_material\n')
                out.write(f'# (tools/reference/insufficient_material.py --seed {args.seed} --count {args.count})\n')
                out.write('\n'.join(lines) + '\n')
    print(f'{differences} differences', file=sys.stderr)
    return 1 if differences else 0


if __name__ == '__main__':
    sys.exit(main())
