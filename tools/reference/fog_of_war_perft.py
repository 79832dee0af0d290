#!/usr/bin/env python3
"""Fog of war has no Fairy-Stockfish counterpart, so its stored perft
(tests/data/perft/fog-of-war.txt) is our own count, written only where an
independent count agrees: a current Fairy-Stockfish binary (FAIRY_STOCKFISH)
given the game as a custom variant, chess with a non-royal king ("commoner":
no check, castling through and out of attack) whose loss ends the game
(extinction), which is exactly fog of war's move rules.

  FAIRY_STOCKFISH=/path/to/fairy-stockfish python3 tools/reference/fog_of_war_perft.py \
      --acedrex build/release/acedrex [--write] [--seed 1] [--games 12]

Without --write it only compares; any disagreement is printed and the file is
not written. The visibility rule changes no move, so it plays no part here.
"""
import argparse, os, random, re, subprocess, sys, tempfile

INI = """[fogofwar:chess]
king = -
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = k
"""
START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
# Positions that exercise what differs from chess: castling out of, through
# and into attack, a king left en prise and taken, en passant, promotion.
TARGETED = [
    ('castling out of check', '4k3/8/8/4q3/8/8/8/R3K2R w KQ - 0 1', 3),
    ('castling through attack', '4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1', 3),
    ('both sides castle', 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', 3),
    ('the king en prise, its side to move', '4k3/8/8/8/8/8/8/4K2r w - - 0 1', 3),
    ('a king capture at once', '4k3/8/8/8/8/8/8/4K2r b - - 0 1', 3),
    ('en passant', '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2', 4),
    ('promotion', 'r3k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1', 3),
    ('kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 3),
]


class Fsf:
    def __init__(self, path, ini):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send('setoption name VariantPath value ' + ini)
        self.send('setoption name UCI_Variant value fogofwar')

    def send(self, s):
        self.p.stdin.write(s + '\n')
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit('fairy-stockfish stopped')
            lines.append(line.rstrip('\n'))
            if line.startswith(prefix):
                return lines

    def perft(self, fen, depth):
        self.send('position fen ' + fen)
        self.send('go perft %d' % depth)
        lines = self.until('Nodes searched')
        moves = [l.split(':')[0] for l in lines if re.match(r'^[a-h][1-8][a-h][1-8][qrbn]?: ', l)]
        return int(lines[-1].split(':')[1]), moves

    def after(self, fen, move):
        self.send('position fen %s moves %s' % (fen, move))
        self.send('d')
        return self.until('Fen:')[-1][5:].strip()


def ours(acedrex, fen, depth):
    out = subprocess.run([acedrex, 'perft', '--variant', 'fog-of-war', '--fen', fen, str(depth)],
                         capture_output=True, text=True).stdout
    m = re.search(r'Nodes searched: (\d+)', out)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--acedrex', required=True)
    ap.add_argument('--fsf', default=os.environ.get('FAIRY_STOCKFISH'))
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--games', type=int, default=12)
    ap.add_argument('--budget', type=int, default=2000000, help='deepest line per position up to this many nodes')
    ap.add_argument('--write', action='store_true')
    a = ap.parse_args()
    if not a.fsf:
        sys.exit('name a Fairy-Stockfish binary with --fsf or FAIRY_STOCKFISH')
    ini = tempfile.NamedTemporaryFile('w', suffix='.ini', delete=False)
    ini.write(INI)
    ini.close()
    fsf = Fsf(a.fsf, ini.name)
    rng = random.Random(a.seed)
    cases = [('start position', START, 5)] + TARGETED
    for g in range(a.games):  # seeded random games, a position from each
        fen = START
        for _ in range(rng.randint(8, 60)):
            nxt = fsf.after(fen, rng.choice(fsf.perft(fen, 1)[1]))
            if not fsf.perft(nxt, 1)[1]:
                break  # the king was taken: keep the position before
            fen = nxt
        cases.append(('random game %d (seed %d)' % (g + 1, a.seed), fen, 4))
    lines, compared, bad = [], 0, 0
    for title, fen, deepest in cases:
        lines.append('# ' + title)
        for d in range(1, deepest + 1):
            theirs, _ = fsf.perft(fen, d)
            mine = ours(a.acedrex, fen, d)
            compared += 1
            if theirs != mine:
                bad += 1
                print('MISMATCH %s depth %d: fairy-stockfish %s, acedrex %s' % (fen, d, theirs, mine))
            if mine is not None and mine > 0:
                lines.append('%s\t%d\t%d' % (fen, d, mine))
            if theirs > a.budget:
                break
    print('compared %d counts, %d mismatches' % (compared, bad))
    if bad or not a.write:
        return 1 if bad else 0
    path = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'data', 'perft', 'fog-of-war.txt')
    with open(path, 'w') as f:
        f.write('# fog-of-war: our own perft (no Fairy-Stockfish counterpart); every line equal to a current\n')
        f.write('# Fairy-Stockfish built from source given chess with a non-royal king whose capture ends the game.\n')
        f.write('# Made by: python3 tools/reference/fog_of_war_perft.py --acedrex build/release/acedrex --write --seed %d --games %d\n' % (a.seed, a.games))
        f.write('# FEN<TAB>depth<TAB>nodes\n')
        f.write('\n'.join(lines) + '\n')
    print('wrote', os.path.normpath(path))
    return 0


if __name__ == '__main__':
    sys.exit(main())
