#!/usr/bin/env python3
"""Compares Acedrex's four-player chess (teams) move generator with
obryanlouis/4pchess (MIT, built outside the project, e.g. /work/refs/4pchess/cli):
seeded random games from the start, and at every ply the number of legal
moves of both programs. Usage:

  fourpchess_compare.py ACEDREX 4PCHESS_CLI [--games N] [--plies N] [--seed S]

4pchess's protocol: `position startpos moves h2-h3 ...`, `get_num_legal_moves`.
Our move text `h2h3` (promotion `d11d12q`) is written there `h2-h3` (`=Q`).
Prints one line per game and a total; exits 1 on the first disagreement.
"""
import argparse
import random
import re
import subprocess
import sys


def theirs(move):
    m = re.fullmatch(r"([a-n]\d+)([a-n]\d+)([qrbn]?)", move)
    if not m:
        raise ValueError(move)
    return m.group(1) + "-" + m.group(2) + ("=" + m.group(3).upper() if m.group(3) else "")


class FourPChess:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def count(self, moves):
        cmd = "position startpos" + (" moves " + " ".join(theirs(m) for m in moves) if moves else "")
        self.p.stdin.write(cmd + "\nget_num_legal_moves\n")
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("4pchess ended")
            if line.startswith("info string n_legal"):
                return int(line.split()[-1])
            if "Invalid" in line:
                raise RuntimeError(line.strip())

    def close(self):
        # 4pchess reads until "quit": at the end of its input it would spin.
        self.p.stdin.write("quit\n")
        self.p.stdin.close()
        self.p.wait()


def ours(acedrex, moves):
    out = subprocess.run([acedrex, "moves", "--variant", "four-player-chess", "--option", "mode=teams",
                          "--moves", " ".join(moves)], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return out.stdout.split()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("acedrex")
    ap.add_argument("fourpchess")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    other = FourPChess(a.fourpchess)
    try:
        run(a, rng, other)
    finally:
        other.close()


def run(a, rng, other):
    positions = 0
    for g in range(a.games):
        moves = []
        for _ in range(a.plies):
            mine = ours(a.acedrex, moves)
            n = other.count(moves)
            positions += 1
            if len(mine) != n:
                print(f"game {g}: after {' '.join(moves)!r}: acedrex {len(mine)} moves, 4pchess {n}")
                sys.exit(1)
            if not mine:
                break
            moves.append(rng.choice(mine))
        print(f"game {g}: {len(moves)} plies agree")
    print(f"{positions} positions agree")


if __name__ == "__main__":
    main()
