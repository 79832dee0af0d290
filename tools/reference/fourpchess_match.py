#!/usr/bin/env python3
"""A team match of four-player chess (teams) between Acedrex and
obryanlouis/4pchess (MIT, built outside the project; its command-line engine
`cli`), with Acedrex as the referee and a check of the move generators at
every ply. Python 3, standard library only.

  fourpchess_match.py --acedrex build/release/acedrex --fourpchess /work/refs/4pchess/cli \\
      --openings data/openings/four-player-chess-teams.txt --games 100 --movetime 1000 \\
      --pgn games.pgn4

Our team is played by `acedrex uci` (four-player-chess, mode=teams, Level 9:
the two-sided search in which partners play as one side), 4pchess's team by its
`cli`, both with `go movetime MS` for every move. Game g starts from opening
g // 2 of the file (one four-player position text a line; blank lines and
`#` lines skipped; from the top again when it runs out): in even games our
team is Red and Yellow, in odd ones Blue and Green, so that each opening is
played from both sides.

The referee is Acedrex: before every ply `acedrex summary` says whether the
game is over (mate or king capture of a seat: its opponents win; stalemate,
threefold repetition and the fifty-move rule: a draw) and `acedrex perft
--divide 2` lists the legal moves of the seat to move, each with the number
of legal replies of the next seat. A game still going after --max-plies
plies is scored as a draw.

The move-generator check, at every ply. 4pchess's protocol cannot list its
legal moves, only count them (`get_num_legal_moves`), and its move parser
accepts a move that is in its pseudo-legal list. So the driver checks:
(1) the two counts of legal moves are equal; (2) 4pchess accepts each of our
legal moves; (3) after each of our legal moves, the two counts of the next
seat's legal moves are equal (a depth-2 comparison, move by move). (1) to (3)
leave only one kind of difference unseen: a move 4pchess generates but
thinks illegal that we list, together with another that it lists and we do
not, in the same position. After a move that captures a king our game is
over (0 replies) where 4pchess still counts the next seat's moves; such a
move is counted as `king captures`, not compared. Counts that differ by
4pchess's three rules that are not ours (known_differences: a king capture
by a seat in check, which it does not count; a pawn capture onto a square a
pawn just skipped where another piece stands, which it counts twice; an en
passant capture by a pawn that the double step passed, which it does not
have) are counted apart. As 4pchess could not follow such an en passant
capture, our engine is asked to choose among its other moves (`go
searchmoves`) when it has one. Any other difference stops the match with
exit code 1 and the position.

4pchess declares the game over, without a bestmove, when the seat to move
can capture a king. The driver then plays, for it, the legal move after
which our referee says that seat's team has won (a king capture, as our
rules have it), and counts it; if there is none, that is an error.

4pchess prints no bestmove at all when not even the first iteration of its
search ends within the move time (on a busy machine that takes 100 ms and
more). When it is silent --grace seconds (default 2) past the move time, the
driver sends `stop` (which prints a bestmove if it has one) and, if still
none, asks it for `go depth 1` and plays that move; such moves are counted
and named in the game's Termination tag.

Engine output that is not a move, a move that we do not list as legal, an
engine that ends or does not answer within --timeout seconds past the move
time: an error (exit code 1) naming the game, the position and the line.

Output: one line per game on standard error, with the running score; then
the score of our team, with an Elo estimate and its 95% interval computed as
`acedrex match` computes them (a Wilson score interval whose width follows
the spread of the game scores; src/protocol/match.cpp, estimateElo), and the
totals of the move-list check. --pgn FILE: every game's record as PGN4,
written by Acedrex (`acedrex summary --pgn`, src/core/records/pgn.cpp).
"""
import argparse
import json
import math
import os
import re
import select
import subprocess
import sys
import time

VARIANT = ["--variant", "four-player-chess", "--option", "mode=teams"]
SEATS = ["red", "blue", "yellow", "green"]
TEAMS = (("red", "yellow"), ("blue", "green"))
TEAM_NAMES = ("Red+Yellow", "Blue+Green")


class MatchError(Exception):
    """Something that stops the match: bad engine output, a disagreement."""


class Silent(MatchError):
    """An engine that printed nothing within the time given."""


# ---- Move text ------------------------------------------------------------

OUR_MOVE = re.compile(r"([a-n])(1[0-4]|[1-9])([a-n])(1[0-4]|[1-9])([qrbn]?)")
THEIR_MOVE = re.compile(r"([a-n])(1[0-4]|[1-9])-([a-n])(1[0-4]|[1-9])(?:=([QRBN]))?")


def to_theirs(move):
    """Our move text (h2h4, d11d12q) as 4pchess writes it (h2-h4, d11-d12=Q)."""
    m = OUR_MOVE.fullmatch(move)
    if not m:
        raise MatchError(f"not a four-player chess move of ours: {move!r}")
    text = f"{m.group(1)}{m.group(2)}-{m.group(3)}{m.group(4)}"
    return text + ("=" + m.group(5).upper() if m.group(5) else "")


def to_ours(move):
    """4pchess's move text (h2-h4, d11-d12=Q) as ours (h2h4, d11d12q)."""
    m = THEIR_MOVE.fullmatch(move)
    if not m:
        raise MatchError(f"not a 4pchess move: {move!r}")
    return f"{m.group(1)}{m.group(2)}{m.group(3)}{m.group(4)}" + (m.group(5).lower() if m.group(5) else "")


# ---- The two rules where 4pchess differs ------------------------------------

FILES = "abcdefghijklmn"
COLOUR_SEAT = {"r": "red", "b": "blue", "y": "yellow", "g": "green"}


def board_of(fen):
    """The pieces of a chess.com FEN4 position text: {square: "rP", ...}."""
    board = {}
    for i, row in enumerate(fen.split("-")[-1].split("/")):
        f = 0
        for cell in row.split(","):
            if cell.isdigit():
                f += int(cell)
                continue
            if cell != "x" and f < len(FILES):
                board[f"{FILES[f]}{14 - i}"] = cell
            f += 1
    return board


FORWARD = {"r": (0, 1), "b": (1, 0), "y": (0, -1), "g": (-1, 0)}  # (files, ranks) a pawn of each colour steps


def known_differences(fen, moves, ours):
    """Our legal moves (text) that 4pchess counts differently by its rules,
    in the position `fen` + `moves` (its current text is `fen`):
    (king_captures, en_passant_doubles, en_passant_passed).

    - A king capture by a seat in check: chess.com allows it since an update
      (docs/rules/four-player-chess.md); 4pchess keeps the older rule and
      does not count it when it leaves the mover's king attacked. Every move
      of ours onto a king is returned; 4pchess may leave out some of them.
    - A pawn's capture onto the square an opponent's pawn skipped with its
      double step, within the last round, where another seat's piece now
      stands: 4pchess lists it twice, as a capture of that piece and as an
      en passant capture of the piece and the pawn; Acedrex has the capture
      only (an en passant capture needs the skipped square empty). 4pchess's
      move parser takes the en passant one, so the next seat's counts after
      it are not compared either.
    - An en passant capture by a pawn whose step forward is not the square
      where the double-stepping pawn landed (a pawn of a neighbouring army
      beside the square it started from: the pawn passed in front of it):
      4pchess takes en passant only with a pawn right behind the landing
      square, so it neither counts nor accepts this capture."""
    board = board_of(fen)
    kings = set()
    doubles = set()
    passed = set()
    for m in ours:
        mm = OUR_MOVE.fullmatch(m)
        if not mm:
            continue
        frm, to = mm.group(1) + mm.group(2), mm.group(3) + mm.group(4)
        mover, target = board.get(frm, ""), board.get(to, "")
        if target[1:] == "K" and mover and team_of(COLOUR_SEAT[target[0]]) != team_of(COLOUR_SEAT[mover[0]]):
            kings.add(m)
    for back in range(1, min(3, len(moves)) + 1):
        mm = OUR_MOVE.fullmatch(moves[-back])
        if not mm:
            continue
        f1, r1, f2, r2 = FILES.index(mm.group(1)), int(mm.group(2)), FILES.index(mm.group(3)), int(mm.group(4))
        landed = mm.group(3) + mm.group(4)
        pawn = board.get(landed, "")
        if pawn[1:] != "P" or not ((f1 == f2 and abs(r1 - r2) == 2) or (r1 == r2 and abs(f1 - f2) == 2)):
            continue
        skipped = f"{FILES[(f1 + f2) // 2]}{(r1 + r2) // 2}"
        occupant = board.get(skipped, "")
        for m in ours:
            mo = OUR_MOVE.fullmatch(m)
            if not mo or mo.group(3) + mo.group(4) != skipped:
                continue
            mover = board.get(mo.group(1) + mo.group(2), "")
            if mover[1:] != "P" or team_of(COLOUR_SEAT[mover[0]]) == team_of(COLOUR_SEAT[pawn[0]]):
                continue
            if abs(FILES.index(mo.group(1)) - FILES.index(mo.group(3))) != 1 or abs(int(mo.group(2)) - int(mo.group(4))) != 1:
                continue  # a step onto the skipped square, not a capture
            if occupant:
                if team_of(COLOUR_SEAT[mover[0]]) != team_of(COLOUR_SEAT[occupant[0]]):
                    doubles.add(m)
                continue
            df, dr = FORWARD[mover[0]]
            ahead = FILES.index(mo.group(1)) + df, int(mo.group(2)) + dr
            if not 0 <= ahead[0] < len(FILES) or f"{FILES[ahead[0]]}{ahead[1]}" != landed:
                passed.add(m)
    return kings, doubles, passed


def explained(fen, moves, ours, theirs):
    """Whether 4pchess's count `theirs` of the legal moves at `fen` (reached by
    `moves`) differs from ours (`ours`, our legal moves) by known_differences
    alone: None if not, else (our king captures it leaves out, the moves it
    counts twice, the en passant captures it does not have)."""
    kings, doubles, passed = known_differences(fen, moves, ours)
    left_out = len(ours) + len(doubles) - len(passed) - theirs
    if not 0 <= left_out <= len(kings):
        return None
    return left_out, doubles, passed


# ---- Results and the score --------------------------------------------------


def team_of(seat):
    return 0 if seat in TEAMS[0] else 1


def winner(summary):
    """From a finished game's `acedrex summary` JSON: 0 (Red+Yellow won),
    1 (Blue+Green won) or None (a draw)."""
    places = summary.get("places") or {}
    if sorted(places) != sorted(SEATS):
        raise MatchError(f"a finished game without the places of the four seats: {summary}")
    firsts = {s for s, p in places.items() if p == 1}
    if firsts == set(SEATS):
        return None
    for t, team in enumerate(TEAMS):
        if firsts == set(team):
            return t
    raise MatchError(f"places that are not a team's win or a draw: {places}")


def our_score(result, our_team):
    """1, 0.5 or 0 for our team, from winner()'s answer."""
    if result is None:
        return 0.5
    return 1.0 if result == our_team else 0.0


def elo_from_score(s):
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def estimate_elo(scores):
    """(elo, low, high) from the per-game scores (1, 0.5, 0) of a two-sided
    match, as estimateElo of src/protocol/match.cpp computes them."""
    n = len(scores)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / n
    f = min(max(mean, 0.0), 1.0)
    binomial = f * (1 - f)
    ratio = var / binomial if binomial > 1e-12 else 1.0
    k = 1.96 * 1.96 * ratio / n
    centre = (f + k / 2) / (1 + k)
    half = math.sqrt(k * binomial + k * k / 4) / (1 + k)
    return (elo_from_score(f), elo_from_score(min(max(centre - half, 0.0), f)),
            elo_from_score(min(max(centre + half, f), 1.0)))


def elo_text(x):
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x + 0.0:.0f}" if abs(x) >= 0.5 else "0"


def score_line(scores):
    won = sum(1 for s in scores if s == 1.0)
    drawn = sum(1 for s in scores if s == 0.5)
    lost = len(scores) - won - drawn
    pts = sum(scores)
    pct = 100.0 * pts / len(scores) if scores else 0.0
    return f"{pts:.1f}/{len(scores)} ({pct:.1f}%): won {won}, drawn {drawn}, lost {lost}"


def read_openings(path):
    """The position texts of an openings file (blank and # lines skipped)."""
    with open(path, encoding="utf-8") as f:
        lines = [l.strip() for l in f]
    out = [l for l in lines if l and not l.startswith("#")]
    if not out:
        raise MatchError(f"{path}: no positions")
    for l in out:
        if " " in l:
            raise MatchError(f"{path}: a position text has no spaces: {l!r}")
    return out


def parse_divide(text):
    """`acedrex perft --divide` output: [(move, count)] in its order."""
    out = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("Nodes searched"):
            continue
        m = re.fullmatch(r"(\S+): (\d+)", line.strip())
        if not m:
            raise MatchError(f"unexpected perft line: {line!r}")
        out.append((m.group(1), int(m.group(2))))
    return out


# ---- Processes --------------------------------------------------------------


class Engine:
    """A line-based engine process, read with deadlines."""

    def __init__(self, argv, name):
        self.name = name
        try:
            self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, bufsize=0)
        except OSError as e:
            raise MatchError(f"cannot start {name} ({argv[0]}): {e}") from e
        self.buf = b""

    def send(self, line):
        try:
            self.p.stdin.write((line + "\n").encode())
            self.p.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise MatchError(f"{self.name} ended (writing {line[:80]!r}): {e}") from e

    def readline(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Silent(f"{self.name} did not answer within {timeout:.0f} s")
            ready, _, _ = select.select([self.p.stdout], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                raise MatchError(f"{self.name} ended (exit code {self.p.poll()})")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode(errors="replace").rstrip("\r")

    def wait_for(self, prefix, timeout, bad=()):
        """Lines up to the first starting with prefix; a line containing one of
        `bad` is an error."""
        while True:
            line = self.readline(timeout)
            if any(b in line for b in bad):
                raise MatchError(f"{self.name}: {line}")
            if line.startswith(prefix):
                return line

    def close(self):
        try:
            self.send("quit")
        except MatchError:
            pass
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


class Acedrex(Engine):
    def __init__(self, path, level, timeout):
        super().__init__([path, "uci"], "acedrex")
        self.timeout = timeout
        self.send("uci")
        self.wait_for("uciok", timeout)
        for name, value in (("UCI_Variant", "four-player-chess"), ("mode", "teams"), ("Level", str(level))):
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok", timeout, bad=("info string error",))

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok", self.timeout, bad=("info string error",))

    def best(self, fen, moves, movetime, searchmoves=None):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go movetime {movetime}" + (" searchmoves " + " ".join(searchmoves) if searchmoves else ""))
        line = self.wait_for("bestmove", self.timeout + movetime / 1000, bad=("info string error",))
        parts = line.split()
        if len(parts) < 2 or parts[1] == "(none)":
            raise MatchError(f"acedrex: {line!r} in a game that goes on")
        return parts[1]


class FourPChess(Engine):
    def __init__(self, path, timeout, hash_mb):
        super().__init__([path], "4pchess")
        self.timeout = timeout
        self.send("uci")
        self.wait_for("uciok", timeout)
        if hash_mb is not None:
            self.send(f"setoption name Hash value {hash_mb}")
        self.send("isready")
        self.wait_for("readyok", timeout, bad=("invalid", "Invalid"))

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok", self.timeout, bad=("invalid", "Invalid"))

    @staticmethod
    def position(fen, moves):
        return f"position fen {fen}" + (" moves " + " ".join(to_theirs(m) for m in moves) if moves else "")

    def set_position(self, fen, moves):
        """Sets the position; an error if 4pchess refuses it."""
        self.send(self.position(fen, moves))
        self.send("isready")
        self.wait_for("readyok", self.timeout, bad=("Invalid", "invalid"))

    def counts(self, fen, moves, tries):
        """[(accepted, count)] for each move list of `tries`: whether 4pchess
        took the position (every move in its move list) and its number of
        legal moves there. The commands are sent together, then read."""
        for t in tries:
            self.send(self.position(fen, moves + t))
            self.send("get_num_legal_moves")
        out = []
        for _ in tries:
            accepted = True
            while True:
                line = self.readline(self.timeout)
                if line.startswith("info string Invalid move") or line.startswith("info string Invalid FEN"):
                    accepted = False
                    continue
                m = re.fullmatch(r"info string n_legal (\d+)", line)
                if m:
                    out.append((accepted, int(m.group(1))))
                    break
                if "invalid" in line.lower():
                    raise MatchError(f"4pchess: {line}")
        return out

    def best(self, movetime, grace):
        """(move in our text, None, False), (None, the 'Game completed' line,
        False), or (move, None, True) for a depth-1 move asked for after no
        answer to the timed search."""
        self.send(f"go movetime {movetime}")
        try:
            return self.answer(movetime / 1000 + grace) + (False,)
        except Silent:
            pass
        # Its search prints no bestmove at all when not even its first
        # iteration ends within the move time (each iteration starts by
        # clearing its tables: 100 ms and more on a busy machine). `stop`
        # ends the search (printing a bestmove if it has one), `isready`
        # waits for that; else a depth-1 search gives a move.
        self.send("stop")
        self.send("isready")
        got = None
        while True:
            line = self.readline(self.timeout)
            if line.startswith("readyok"):
                break
            if got is None:
                got = self.parse(line)
        if got is not None:
            return got + (False,)
        self.send("go depth 1")
        try:
            move, claim = self.answer(self.timeout)
        except Silent as e:
            raise MatchError(f"{e} after go movetime {movetime} and go depth 1") from None
        return move, claim, True

    def answer(self, timeout):
        while True:
            got = self.parse(self.readline(timeout))
            if got is not None:
                return got

    @staticmethod
    def parse(line):
        """A line of 4pchess's answer to go: (move, None), (None, claim) or None."""
        if line.startswith("info string Game completed"):
            return None, line
        if "invalid" in line.lower():
            raise MatchError(f"4pchess: {line}")
        if line.startswith("bestmove"):
            parts = line.split()
            if len(parts) != 2:
                raise MatchError(f"4pchess: malformed {line!r}")
            return to_ours(parts[1]), None
        return None


def run_acedrex(path, args):
    out = subprocess.run([path] + args, capture_output=True, text=True)
    if out.returncode != 0:
        raise MatchError(f"acedrex {' '.join(args[:1])}: {out.stderr.strip()}")
    return out.stdout


class Referee:
    def __init__(self, path):
        self.path = path

    def summary(self, fen, moves):
        return json.loads(run_acedrex(self.path, ["summary"] + VARIANT + ["--fen", fen, "--moves", " ".join(moves)]))

    def divide2(self, fen, moves):
        return parse_divide(run_acedrex(self.path, ["perft"] + VARIANT + ["--fen", fen, "--moves", " ".join(moves),
                                                                          "--divide", "2"]))

    def pgn(self, fen, moves, tags):
        args = ["summary"] + VARIANT + ["--fen", fen, "--moves", " ".join(moves), "--pgn"]
        for k, v in tags:
            args += ["--tag", f"{k}={v}"]
        return run_acedrex(self.path, args)


# ---- The match ---------------------------------------------------------------


class Stats:
    def __init__(self):
        self.plies = 0          # positions whose counts were compared
        self.moves = 0          # our legal moves checked one by one
        self.king_captures = 0  # moves that end our game by a king capture (replies not compared)
        self.claims = 0         # 4pchess's "Game completed" answers played for it
        self.fallbacks = 0      # 4pchess's timed searches without a move, replaced by a depth-1 search
        self.known_kings = 0    # king captures by a seat in check that 4pchess does not count (known_differences)
        self.known_doubles = 0  # pawn captures that 4pchess counts twice (known_differences)
        self.known_passed = 0   # en passant captures that 4pchess does not have (known_differences)
        self.withheld = 0       # our turns where such captures were left out of our search (searchmoves)
        self.known_replies = 0  # our moves whose reply counts differ by known_differences alone


def check_ply(referee, other, fen, moves, stats, where):
    """Compares the legal moves of both programs at this position; returns
    our [(move, replies)]."""
    ours = referee.divide2(fen, moves)
    got = other.counts(fen, moves, [[]] + [[m] for m, _ in ours])
    accepted, n = got[0]
    if not accepted:
        raise MatchError(f"{where}: 4pchess refuses the position")
    doubles = passed = set()
    if n != len(ours) or not all(ok for ok, _ in got[1:]):
        known = explained(referee.summary(fen, moves)["fen"], moves, [m for m, _ in ours], n)
        if known is None:
            raise MatchError(f"{where}: acedrex lists {len(ours)} legal moves, 4pchess counts {n}: "
                             + " ".join(m for m, _ in ours))
        _, doubles, passed = known
        stats.known_kings += known[0]
        stats.known_doubles += len(doubles)
        stats.known_passed += len(passed)
    stats.plies += 1
    for (m, replies), (ok, theirs) in zip(ours, got[1:]):
        if m in passed:
            continue  # an en passant capture 4pchess does not have (known_differences)
        if not ok:
            raise MatchError(f"{where}: 4pchess does not know our legal move {m} ({to_theirs(m)})")
        if m in doubles:
            continue  # 4pchess's parser takes its en passant capture of two (known_differences)
        if replies != theirs:
            after = referee.summary(fen, moves + [m])
            if replies == 0 and after["status"] == "finished" and winner(after) is not None:
                stats.king_captures += 1
                continue
            # The move may lead to a position where the rules differ (a piece
            # landing on a square a pawn just skipped, a king to take).
            replies_list = run_acedrex(referee.path, ["moves"] + VARIANT + ["--fen", fen, "--moves",
                                                                             " ".join(moves + [m])]).split()
            if len(replies_list) == replies and explained(after["fen"], moves + [m], replies_list, theirs) is not None:
                stats.known_replies += 1
                stats.moves += 1
                continue
            raise MatchError(f"{where}: after {m}, acedrex lists {replies} legal replies, 4pchess counts {theirs}")
        stats.moves += 1
    return ours


def play_game(g, fen, our_team, acedrex, other, referee, a, stats):
    """Plays game g; returns (our score, moves, termination text)."""
    acedrex.new_game()
    other.new_game()
    moves = []
    notes = {"claimed": [], "depth-1": []}  # plies (from 1) of 4pchess's king-capture claims and depth-1 moves
    while True:
        where = f"game {g + 1}, position {fen} moves {' '.join(moves) or '(none)'}"
        try:
            done = play_ply(fen, moves, our_team, acedrex, other, referee, a, stats, where, notes)
        except MatchError as e:
            raise MatchError(str(e) if str(e).startswith("game ") else f"{where}: {e}") from None
        if done is not None:
            score, how = done
            if notes["claimed"]:
                how += f"; 4pchess claimed a king capture at ply {notes['claimed'][0]}, played for it"
            if notes["depth-1"]:
                plies = notes["depth-1"]
                how += (f"; 4pchess gave no move in time at ply{'s' if len(plies) > 1 else ''} "
                        f"{', '.join(map(str, plies))}: its depth-1 move{'s were' if len(plies) > 1 else ' was'} played")
            return score, moves, how


def play_ply(fen, moves, our_team, acedrex, other, referee, a, stats, where, notes):
    """Plays one ply (appended to moves), or returns (our score, how) when the game is over."""
    state = referee.summary(fen, moves)
    if state["status"] == "finished":
        result = winner(state)
        if result is None:
            return 0.5, "draw: " + state.get("draw_reason", "?")
        out = (state.get("out_order") or ["?"])[0]
        return our_score(result, our_team), f"{out} out (mated or king captured): {TEAM_NAMES[result]} win"
    if len(moves) >= a.max_plies:
        return 0.5, f"ply cap {a.max_plies}: scored as a draw"
    seat = state["to_move"]
    if a.check:
        legal = [m for m, _ in check_ply(referee, other, fen, moves, stats, where)]
    else:
        legal = [m for m, _ in referee.divide2(fen, moves)]
    if team_of(seat) == our_team:
        # 4pchess cannot follow an en passant capture it does not have: our
        # engine chooses among the other moves (known_differences).
        passed = known_differences(state["fen"], moves, legal)[2]
        if passed:
            stats.withheld += 1
        move = acedrex.best(fen, moves, a.movetime, [m for m in legal if m not in passed] if passed else None)
        if move not in legal or move in passed:
            raise MatchError(f"acedrex played {move!r}, not a legal move (or one withheld)")
    else:
        other.set_position(fen, moves)
        move, claim, fallback = other.best(a.movetime, a.grace)
        if fallback:
            stats.fallbacks += 1
            notes["depth-1"].append(len(moves) + 1)
        if claim is not None:
            wins = [m for m in legal
                    if (s := referee.summary(fen, moves + [m]))["status"] == "finished" and winner(s) == team_of(seat)]
            if not wins:
                raise MatchError(f"4pchess says {claim!r}, but {seat} has no move that wins")
            move = wins[0]
            stats.claims += 1
            notes["claimed"].append(len(moves) + 1)
        elif move not in legal:
            raise MatchError(f"4pchess played {to_theirs(move)}, which we do not list as legal")
    moves.append(move)
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--acedrex", required=True, help="the acedrex binary")
    ap.add_argument("--fourpchess", required=True, help="4pchess's command-line engine (its `cli`)")
    ap.add_argument("--openings", required=True, help="start positions, one position text a line")
    ap.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    ap.add_argument("--first-game", type=int, default=1, help="start at this game number (default 1)")
    ap.add_argument("--movetime", type=int, default=1000, help="milliseconds a move for both (default 1000)")
    ap.add_argument("--max-plies", type=int, default=400, help="a longer game is a draw (default 400)")
    ap.add_argument("--level", type=int, default=9, help="Acedrex's Level (default 9)")
    ap.add_argument("--hash", type=int, default=None, help="4pchess's Hash in MB (default its own, 100)")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds past the move time before an engine "
                    "that does not answer is an error (default 30)")
    ap.add_argument("--grace", type=float, default=2.0, help="seconds past the move time before 4pchess, "
                    "silent, is stopped and asked for a depth-1 move instead (default 2)")
    ap.add_argument("--no-check", dest="check", action="store_false",
                    help="skip the move-list comparison (the referee still checks every move)")
    ap.add_argument("--pgn", help="append every game's PGN4 record to this file")
    a = ap.parse_args(argv)
    if a.games < 1 or a.first_game < 1 or a.movetime < 1 or a.max_plies < 1 or not 1 <= a.level <= 9:
        ap.error("--games, --first-game, --movetime and --max-plies are at least 1; --level is 1 to 9")
    acedrex = other = None
    stats = Stats()
    scores = []
    try:
        openings = read_openings(a.openings)
        referee = Referee(a.acedrex)
        for fen in openings:
            state = referee.summary(fen, [])
            if state["status"] != "ongoing":
                raise MatchError(f"{a.openings}: a finished position: {fen}")
        acedrex = Acedrex(a.acedrex, a.level, a.timeout)
        other = FourPChess(a.fourpchess, a.timeout, a.hash)
        for g in range(a.first_game - 1, a.first_game - 1 + a.games):
            fen = openings[(g // 2) % len(openings)]
            our_team = g % 2
            start = time.monotonic()
            score, moves, how = play_game(g, fen, our_team, acedrex, other, referee, a, stats)
            scores.append(score)
            if a.pgn:
                tags = [("Event", "Acedrex against 4pchess, teams"), ("Round", str(g + 1)),
                        ("TimeControl", f"{a.movetime} ms a move"), ("Termination", how)]
                for seat in SEATS:
                    name = f"Acedrex level {a.level}" if team_of(seat) == our_team else "4pchess"
                    tags.append((seat.capitalize(), name))
                with open(a.pgn, "a", encoding="utf-8") as f:
                    f.write(referee.pgn(fen, moves, tags) + "\n")
            print(f"game {g + 1}: Acedrex {TEAM_NAMES[our_team]}, {['lost', 'drew', 'won'][int(score * 2)]} "
                  f"({how}, {len(moves)} plies, {time.monotonic() - start:.0f} s); "
                  f"Acedrex {score_line(scores)}", file=sys.stderr, flush=True)
    except MatchError as e:
        print(f"error: {e}", file=sys.stderr)
        if scores:
            print(f"(after {len(scores)} games: Acedrex {score_line(scores)})", file=sys.stderr)
        return 1
    finally:
        for e in (acedrex, other):
            if e is not None:
                e.close()
    elo, low, high = estimate_elo(scores)
    print(f"\nScores after {len(scores)} games (four-player-chess, mode=teams, {a.movetime} ms a move):")
    print(f"  Acedrex level {a.level}: {score_line(scores)}")
    print(f"Elo of Acedrex against 4pchess: {elo_text(elo)} (95% interval {elo_text(low)} to {elo_text(high)})")
    if a.check:
        print(f"Move lists compared at {stats.plies} positions: the counts equal, and {stats.moves} moves of ours "
              f"known to 4pchess with equal reply counts ({stats.king_captures} king captures not compared)")
        if stats.known_kings or stats.known_doubles or stats.known_passed:
            print(f"Known differences of rule (known_differences): {stats.known_kings} king captures by a seat in "
                  f"check that 4pchess does not count, {stats.known_doubles} pawn captures onto a skipped square "
                  f"that it counts twice (their replies not compared), {stats.known_passed} en passant captures "
                  f"that it does not have; {stats.known_replies} moves of ours after which the reply counts differ "
                  f"by these alone")
    if stats.withheld:
        print(f"Our engine chose among its other moves {stats.withheld} times, where it had an en passant capture "
              f"that 4pchess does not have (known_differences)")
    if stats.claims:
        print(f"4pchess claimed a king capture {stats.claims} times (played for it)")
    print(f"4pchess gave no move within the time {stats.fallbacks} times (a depth-1 move was played instead)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
