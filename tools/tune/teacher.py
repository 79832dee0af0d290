#!/usr/bin/env python3
"""Labels tuning positions with a teacher engine's score (docs/tuning.md).

Reads a data file of `acedrex-tune extract` (lines `POSITION ; RESULT`, the
result from White's view), has a UCI engine search each position to a fixed
depth, and writes the same positions with the label

    lambda * RESULT + (1 - lambda) * 1 / (1 + 10^(-cp / scale))

where cp is the teacher's score from White's view (a mate counts as
+-10000). Only the engine's printed scores are used. A position the engine
rejects, or answers without a score, is dropped and counted on stderr.

    teacher.py --variant chess --data data.txt --out labelled.txt \
        [--engine /usr/games/fairy-stockfish] [--depth 8] [--lambda 0.3] [--scale 400]
"""
import argparse
import subprocess
import sys


def read_data(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            if ";" not in text:
                sys.exit(f"{path}:{n}: expected 'POSITION ; RESULT'")
            pos, result = (part.strip() for part in text.rsplit(";", 1))
            try:
                value = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
                value = float(result) if value is None else value
            except ValueError:
                sys.exit(f"{path}:{n}: the result '{result}' is not a number")
            if not 0.0 <= value <= 1.0:
                sys.exit(f"{path}:{n}: the result {value} is outside 0..1")
            rows.append((pos, value))
    return rows


class Engine:
    def __init__(self, path, variant):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait(self, word):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("the teacher engine ended")
            lines.append(line)
            if line.split()[:1] == [word]:
                return lines

    def score(self, fen, depth):
        """The last reported score in centipawns for the side to move, or None."""
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        score = None
        for line in self.wait("bestmove"):
            words = line.split()
            if words[:1] != ["info"] or "score" not in words:
                continue
            i = words.index("score")
            if i + 2 >= len(words) or "lowerbound" in words or "upperbound" in words:
                continue
            kind, value = words[i + 1], words[i + 2]
            try:
                v = int(value)
            except ValueError:
                continue
            score = v if kind == "cp" else (10000 if v > 0 else -10000)
        return score

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--lambda", dest="lam", type=float, default=0.3)
    ap.add_argument("--scale", type=float, default=400.0)
    args = ap.parse_args()
    if not 0.0 <= args.lam <= 1.0 or args.depth < 1 or args.scale <= 0:
        sys.exit("--lambda is 0..1, --depth at least 1, --scale above 0")
    rows = read_data(args.data)
    engine = Engine(args.engine, args.variant)
    kept = dropped = 0
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(f"# {args.data} labelled by {args.engine} at depth {args.depth}, lambda {args.lam}, scale {args.scale}\n")
        for k, (fen, result) in enumerate(rows, 1):
            cp = engine.score(fen, args.depth)
            if cp is None:
                dropped += 1
                continue
            fields = fen.split()
            if len(fields) > 1 and fields[1] == "b":
                cp = -cp
            teacher = 1.0 / (1.0 + 10.0 ** (-cp / args.scale))
            out.write(f"{fen} ; {args.lam * result + (1 - args.lam) * teacher:.4f}\n")
            kept += 1
            if k % 1000 == 0:
                print(f"{k}/{len(rows)} positions", file=sys.stderr)
    engine.close()
    print(f"{kept} positions labelled, {dropped} dropped", file=sys.stderr)


if __name__ == "__main__":
    main()
