#!/usr/bin/env python3
"""Tests the parts of tools/reference/fourpchess_match.py that need no
4pchess: the move text both ways, the scoring of results, the Elo estimate,
and (with the acedrex binary given as the first argument) the referee's
answers, the PGN4 records and the openings file.

  fourpchess_match_test.py PATH/TO/acedrex
"""
import math
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "tools", "reference"))
import fourpchess_match as fm  # noqa: E402

ACEDREX = None
OPENINGS = os.path.join(ROOT, "data", "openings", "four-player-chess-teams.txt")

# The start with Red's e-pawn on e10 (e2 gone): promotions to e11 for Red.
PROMOTION_FEN = ("R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/"
                 "bR,bP,10,gP,gR/bN,bP,2,rP,7,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/"
                 "bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,1,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3")


class MoveText(unittest.TestCase):
    def test_both_ways(self):
        for ours, theirs in (("h2h4", "h2-h4"), ("a7c6", "a7-c6"), ("n8n10", "n8-n10"), ("g14e14", "g14-e14"),
                             ("e10e11q", "e10-e11=Q"), ("e10e11n", "e10-e11=N"), ("k4l3r", "k4-l3=R"),
                             ("d11d10b", "d11-d10=B")):
            self.assertEqual(fm.to_theirs(ours), theirs)
            self.assertEqual(fm.to_ours(theirs), ours)

    def test_bad_text(self):
        for bad in ("", "h2", "h2-h4", "o1o2", "h0h1", "h15h14", "h2h4d", "h2h4Q", "0000", "h2h4 "):
            with self.assertRaises(fm.MatchError, msg=bad):
                fm.to_theirs(bad)
        for bad in ("", "h2h4", "h2-h4x", "o1-o2", "h2-h4=D", "h2-h4=q", "(none)", "h2-h15", "h2-h4=QQ"):
            with self.assertRaises(fm.MatchError, msg=bad):
                fm.to_ours(bad)

    def test_every_legal_move_converts(self):
        """Every legal move of positions with castling and promotions goes there and back."""
        positions = [(fm.read_openings(OPENINGS)[0], []), (PROMOTION_FEN, [])]
        seen_promotion = False
        for fen, moves in positions:
            listed = fm.run_acedrex(ACEDREX, ["moves"] + fm.VARIANT + ["--fen", fen]).split()
            self.assertTrue(listed)
            for m in listed:
                self.assertEqual(fm.to_ours(fm.to_theirs(m)), m)
                seen_promotion |= m.endswith("q")
        self.assertTrue(seen_promotion)
        self.assertEqual(sorted(m for m in fm.run_acedrex(ACEDREX, ["moves"] + fm.VARIANT + ["--fen", PROMOTION_FEN]).split()
                                if m.startswith("e10")), ["e10e11b", "e10e11n", "e10e11q", "e10e11r"])


class Scoring(unittest.TestCase):
    def test_winner_and_score(self):
        ry = {"places": {"red": 1, "blue": 3, "yellow": 1, "green": 3}}
        bg = {"places": {"red": 3, "blue": 1, "yellow": 3, "green": 1}}
        draw = {"places": {"red": 1, "blue": 1, "yellow": 1, "green": 1}}
        self.assertEqual(fm.winner(ry), 0)
        self.assertEqual(fm.winner(bg), 1)
        self.assertIsNone(fm.winner(draw))
        self.assertEqual(fm.our_score(fm.winner(ry), 0), 1.0)
        self.assertEqual(fm.our_score(fm.winner(ry), 1), 0.0)
        self.assertEqual(fm.our_score(fm.winner(bg), 1), 1.0)
        self.assertEqual(fm.our_score(None, 0), 0.5)
        for bad in ({"places": {}}, {"places": {"red": 1, "blue": 1, "yellow": 3, "green": 3}},
                    {"places": {"red": 1, "blue": 3, "yellow": 1}}):
            with self.assertRaises(fm.MatchError):
                fm.winner(bad)

    def test_teams(self):
        self.assertEqual([fm.team_of(s) for s in fm.SEATS], [0, 1, 0, 1])

    def test_elo(self):
        # acedrex match prints "+inf (95% interval 287 to +inf)" for 20 wins in 20 games (docs/cli.md).
        elo, low, high = fm.estimate_elo([1.0] * 20)
        self.assertTrue(math.isinf(elo) and elo > 0 and math.isinf(high))
        self.assertEqual(fm.elo_text(low), "287")
        self.assertEqual(fm.estimate_elo([0.5] * 10), (0.0, 0.0, 0.0))
        self.assertEqual([fm.elo_text(x) for x in (-0.0, -0.4, -191.2, math.inf, -math.inf)],
                         ["0", "0", "-191", "+inf", "-inf"])
        a = fm.estimate_elo([1, 0.5, 0, 1, 1, 0.5])
        b = fm.estimate_elo([0, 0.5, 1, 0, 0, 0.5])
        self.assertAlmostEqual(a[0], -b[0])
        self.assertAlmostEqual(a[1], -b[2])
        self.assertTrue(a[1] < a[0] < a[2])
        self.assertAlmostEqual(a[0], -400 * math.log10(1 / (4 / 6) - 1))
        self.assertEqual(fm.score_line([1, 0.5, 0, 1]), "2.5/4 (62.5%): won 2, drawn 1, lost 1")


# The first opening of the pilot's file (commit 9fe9547), where test_finished_game's line was played.
PILOT_OPENING = ("R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/4,yP,yP,1,yP,yP,yP,yP,3/14/"
                 "bR,bP,1,yP,2,yP,5,gP,gR/bN,bP,10,gP,gN/bB,1,bP,9,gP,gB/bQ,bP,10,gP,gK/bK,bP,9,gP,1,gQ/bB,bP,9,gP,1,gB/"
                 "bN,1,bP,9,gP,gN/bR,bP,3,rP,4,rP,1,gP,gR/14/3,rP,rP,1,rP,rP,rP,rP,4/3,rR,rN,rB,rQ,rK,rB,rN,rR,3")


class Referee(unittest.TestCase):
    def setUp(self):
        self.ref = fm.Referee(ACEDREX)
        self.start = PILOT_OPENING

    def test_divide(self):
        ours = self.ref.divide2(self.start, [])
        self.assertEqual(len(ours), len(fm.run_acedrex(ACEDREX, ["moves"] + fm.VARIANT + ["--fen", self.start]).split()))
        total = int(fm.run_acedrex(ACEDREX, ["perft"] + fm.VARIANT + ["--fen", self.start, "2"]).split()[-1])
        self.assertEqual(sum(n for _, n in ours), total)
        with self.assertRaises(fm.MatchError):
            fm.parse_divide("h2h4: 1\nnonsense\n")

    def test_finished_game(self):
        # A short game of the first opening (from a pilot against 4pchess):
        # Yellow's queen mates Green (h14m9), Red and Yellow win.
        line = "g1f2 b7c7 i13i12 n6f14 f2l8 a6h13 g14f14 n10l9 l8m8 h13i14 h14m9".split()
        before = self.ref.summary(self.start, line[:-1])
        self.assertEqual((before["status"], before["to_move"]), ("ongoing", "yellow"))
        after = self.ref.summary(self.start, line)
        self.assertEqual(after["status"], "finished")
        self.assertEqual(fm.winner(after), 0)
        self.assertEqual(fm.our_score(fm.winner(after), 1), 0.0)
        self.assertEqual(self.ref.divide2(self.start, line), [])
        self.assertIn("Qh14xm9# 1-3-1-3", self.ref.pgn(self.start, line, []))

    def test_pgn(self):
        moves = [m for m, _ in self.ref.divide2(self.start, [])][:1]
        text = self.ref.pgn(self.start, moves, [("Red", "Acedrex level 9"), ("Termination", "ply cap 1: scored as a draw")])
        self.assertIn('[Red "Acedrex level 9"]', text)
        self.assertIn('[Variant "Teams"]', text)
        self.assertIn('[StartFen4 "' + self.start + '"]', text)
        self.assertIn('[Termination "ply cap 1: scored as a draw"]', text)
        self.assertIn(fm.to_theirs(moves[0]), text)
        with self.assertRaises(fm.MatchError):
            self.ref.pgn(self.start, ["a1a2"], [])

    def test_openings_file(self):
        lines = fm.read_openings(OPENINGS)
        self.assertEqual(len(lines), 50)
        self.assertEqual(len(set(lines)), 50)
        for fen in lines:
            state = self.ref.summary(fen, [])
            self.assertEqual(state["status"], "ongoing", fen)
            self.assertEqual(state["fen"], fen)


class KnownDifferences(unittest.TestCase):
    """The positions where the match met 4pchess's rules (2026-12-06)."""

    @staticmethod
    def known_at(fen, moves):
        """Our legal moves at `fen` + `moves`, that position's text, and its known_differences."""
        ref = fm.Referee(ACEDREX)
        ours = [m for m, _ in ref.divide2(fen, moves)]
        now = ref.summary(fen, moves)["fen"]
        return ours, now, fm.known_differences(now, moves, ours)

    def test_board_of(self):
        board = fm.board_of(fm.read_openings(OPENINGS)[0])
        self.assertEqual((board["h1"], board["a7"], board["g14"], board["n8"]), ("rK", "bK", "yK", "gK"))
        self.assertNotIn("a1", board)
        self.assertNotIn("h8", board)

    def test_king_capture_in_check(self):
        # Green's c8b9 uncovers Red's bishop g12 on Blue's king b7 while Blue's
        # queen on f1 checks Red: we list g12b7 and h1h2, 4pchess counts 1.
        fen = ("R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,1,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,1,yP,yP,yP,yP,3/6,yP,7/"
               "bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,1,bP,7,yB,1,gP,gB/bQ,bP,10,gP,gK/bK,bP,9,gP,1,gQ/bB,bP,9,gP,1,gB/"
               "bN,bP,10,gP,gN/bR,2,bP,1,rP,6,gP,gR/6,rP,7/3,rP,rP,2,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3")
        moves = ("g1g2 a8b9 k9n6 n7n6 g2i4 b10d10 e14d12 n6j10 i4i7 a9d12 e13d12 j10f6 i7f7 b7d7 h14f12 f6f7 e1f3 "
                 "a6f11 g12f11 f7g7 f1l7 b9e12 f12g12 g7g12 l7g12 e12e2 k13k11 m8k8 i2i4 e2f3 d14e14 n5l4 h1i2 f3d1 "
                 "e14e7 n9i4 h2h3 d1f1 e7d7 i4h3 i2h2 a5b7 d7i7 h3b9 j1k3 f1e2 i7b7 l4j3 h2h1 a7b7 f11f10 b9c8 k2j3 "
                 "e2f1 j13j12 c8b9").split()
        ours, _, known = self.known_at(fen, moves)
        self.assertEqual(sorted(ours), ["g12b7", "h1h2"])
        self.assertEqual(known, ({"g12b7"}, set(), set()))

    def test_en_passant_onto_an_occupied_square(self):
        # Blue's b4d4 skips c4, where Green's queen then lands: 4pchess lists
        # Red's d3c4 twice (47 legal moves against its 48).
        fen = ("R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,1,yP,yP,yP,1,yP,yP,3/4,yP,9/"
               "bR,bP,6,yP,1,gP,2,gR/bN,bP,10,gP,gN/bB,2,bP,8,gP,gB/bQ,bP,10,gP,gK/bK,1,bP,9,gP,gQ/bB,bP,8,gP,2,gB/"
               "bN,bP,10,gP,gN/bR,bP,4,rP,5,gP,gR/7,rP,6/3,rP,rP,rP,2,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3")
        moves = "f2f3 a10c9 g13g12 m10k10 j2j3 a5c4 j14i12 n7m6 d2d3 c4e3 f14e13 m6i10 g1e3 b4d4 k13k12 i10c4".split()
        ours, after, known = self.known_at(fen, moves)
        self.assertEqual(len(ours), 47)
        self.assertEqual(known, (set(), {"d3c4"}, set()))
        # 4pchess's count of 48 is explained; 49 or 46 are not.
        self.assertEqual(fm.explained(after, moves, ours, 48), (0, {"d3c4"}, set()))
        self.assertIsNone(fm.explained(after, moves, ours, 49))
        self.assertIsNone(fm.explained(after, moves, ours, 46))
        # A round later the double step is no longer recent: nothing is known.
        self.assertEqual(fm.known_differences(after, moves + ["d3c4", "a4a5", "k12k11", "m4l4"], ours)[1], set())

    # Game 10 of session 33's idle check: Yellow's g13g11 passes in front of
    # Green's pawn on h13 (it came there by i12h13). We let that pawn take en
    # passant on g12; 4pchess does not (its pawn must stand right behind the
    # landing square g11) and refused the move when our engine played it.
    PASSED_FEN = ("R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,2,yP,3/14/"
                  "bR,bP,6,yP,yP,2,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/1,bP,10,gP,gK/bK,2,bP,8,gP,1/bB,bP,9,gP,1,gB/"
                  "bN,bP,10,gP,gN/bR,bP,10,gP,gR/4,rP,bQ,8/3,rP,1,rP,rP,rP,gQ,rP,rP,3/3,rR,1,rB,rQ,rK,rB,rN,rR,3")
    PASSED_MOVES = ("h1i2 f3d1 h14i13 n5l4 h2h3 d1i6 i13d8 l4j3 j1i3 a5c6 d8d7 j3k1 i2j1 a7a8 i14j13 m5l5 g1h2 c6e5 "
                    "d7d5 k1i2 h2e5 a6b7 d5b7 i2k3 j2k3 a8b7 j13f9 n6k3 e5d5 b6c6 f9i6 k3i1 d5b5 b7c8 i6g4 i1h2 b5a4 "
                    "c8d8 e14d12 m8k8 i3h5 b8c8 j14i12 m10k10 a4c6 a10b8 d12c10 k10j11 c6f6 d8c7 c10a11 j11i12 f1c4 "
                    "b8d7 g4d7 i12h13 f6c6 c7d8 g14h14 h2d6 h5f6 c8d7 k14j14 d6e7 f6d7 d8e8 j14j8 m9l9 c6b7 e8f9 "
                    "g13g11").split()

    def test_en_passant_by_a_pawn_the_double_step_passed(self):
        fen, moves = self.PASSED_FEN, self.PASSED_MOVES
        ours, now, known = self.known_at(fen, moves)
        self.assertIn("h13g12", ours)
        self.assertEqual(known, (set(), set(), {"h13g12"}))
        # 4pchess counts one move fewer: explained; as many, or two fewer, not.
        self.assertEqual(fm.explained(now, moves, ours, len(ours) - 1), (0, set(), {"h13g12"}))
        self.assertIsNone(fm.explained(now, moves, ours, len(ours)))
        self.assertIsNone(fm.explained(now, moves, ours, len(ours) - 2))
        # Before the double step there is none.
        self.assertEqual(self.known_at(fen, moves[:-1])[2][2], set())

    def test_a_step_onto_the_skipped_square_is_no_capture(self):
        # Blue's b5d5 skips c5, where Red's pawn on c4 may step (game 59 of
        # session 34's rerun, when the driver took the step for a capture).
        fen = ("R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,1,yB,yN,yR,3/3,yP,yP,yP,yP,1,yP,yP,yP,3/7,yQ,6/"
               "bR,1,bP,4,yP,4,gP,gR/bN,bP,10,gP,gN/bB,2,bP,8,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/"
               "bN,bP,12/bR,bP,9,gP,gP,gR/9,rP,4/3,rP,rP,rP,rP,rP,rP,1,rP,3/3,rR,rN,rB,rQ,rK,1,rN,rR,3")
        moves = "f2f4 a5c4 j13j11 m8l8 d2d3 a8b9 h12i12 n7l9 d3c4 b5d5 e13e12 n6m5".split()
        ours, _, known = self.known_at(fen, moves)
        self.assertIn("c4c5", ours)
        self.assertEqual(known, (set(), set(), set()))

    def test_our_engine_does_not_play_it(self):
        """Green (our team, Blue+Green) moves among its other legal moves; `go
        searchmoves` reaches the engine (a list of one move is played)."""
        import types
        fen, moves = self.PASSED_FEN, list(self.PASSED_MOVES)
        engine = fm.Acedrex(ACEDREX, 9, 30.0)
        try:
            self.assertEqual(engine.best(fen, moves, 50, ["h13g12"]), "h13g12")
            stats = fm.Stats()
            a = types.SimpleNamespace(check=False, movetime=100, max_plies=400)
            self.assertIsNone(fm.play_ply(fen, moves, 1, engine, None, fm.Referee(ACEDREX), a, stats, "test", {}))
            self.assertEqual(stats.withheld, 1)
            self.assertEqual(len(moves), len(self.PASSED_MOVES) + 1)
            self.assertNotEqual(moves[-1], "h13g12")
        finally:
            engine.close()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: fourpchess_match_test.py PATH/TO/acedrex")
    ACEDREX = sys.argv.pop(1)
    unittest.main()
