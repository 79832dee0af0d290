#!/usr/bin/env python3
"""Xiangqi's chased pieces against a current Fairy-Stockfish.

Plays seeded random xiangqi games and, after every ply, compares the pieces
the last move chased: Fairy-Stockfish's `d` prints them ("Chased:"), Acedrex's
`summary` writes them ("chased"). Chases are what the perpetual-chase rule
(chasing = axf, src/core/mechanisms/chasing.cpp) is made of; the repetition verdicts
themselves are under tests/xiangqi_chasing_test.cpp.

usage: chasing_diff.py --acedrex build/release/acedrex --fsf PATH [--games 10] [--plies 120] [--seed 1]
"""
import argparse
import json
import random
import subprocess
import sys


class Fsf:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.until(lambda l: l == "uciok")
        self.send("setoption name UCI_Variant value xiangqi")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, stop):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish ended")
            line = line.rstrip("\n")
            lines.append(line)
            if stop(line):
                return lines

    def state(self, moves):
        """(chased squares, legal moves) after the moves from the start."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        self.send("go perft 1")
        lines = self.until(lambda l: l.startswith("Nodes searched"))
        chased = set()
        legal = []
        for l in lines:
            if l.startswith("Chased:"):
                chased = set(l[len("Chased:"):].split())
            elif ": " in l and not l.startswith(("Fen", "Sfen", "Key", "Checkers", "Nodes")):
                legal.append(l.split(":")[0])
        return chased, legal


def ours(acedrex, moves):
    out = subprocess.run([acedrex, "summary", "--variant", "xiangqi", "--moves", " ".join(moves)],
                         capture_output=True, text=True, check=True).stdout
    s = json.loads(out)
    return set(s.get("chased", [])), s["status"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--acedrex", required=True)
    ap.add_argument("--fsf", required=True)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    fsf = Fsf(a.fsf)
    compared = nonempty = mismatches = 0
    for g in range(a.games):
        moves = []
        for _ in range(a.plies):
            chased, legal = fsf.state(moves)
            if moves:
                mine, status = ours(a.acedrex, moves)
                if status != "ongoing":
                    break
                compared += 1
                nonempty += bool(chased)
                if mine != chased:
                    mismatches += 1
                    print(f"game {g} moves {' '.join(moves)}: fsf {sorted(chased)} acedrex {sorted(mine)}")
            if not legal:
                break
            moves.append(rng.choice(legal))
    print(f"{compared} positions compared, {nonempty} with chased pieces, {mismatches} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
