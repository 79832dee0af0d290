#!/usr/bin/env bash
# Tests the acedrex command's exact interface: output formats, exit codes and
# the one-line errors on bad input. Usage: cli_test.sh PATH/TO/acedrex
set -u
bin="$1"
pass=0
fail=0
errfile=$(mktemp)
trap 'rm -f "$errfile"' EXIT
check() {  # name, expected exit code, expected stdout pattern (grep -E), command...
  local name="$1" code="$2" pattern="$3"
  shift 3
  local out err rc
  out=$("$@" 2>"$errfile")
  rc=$?
  err=$(cat "$errfile")
  if [ "$rc" != "$code" ]; then
    echo "FAIL $name: exit $rc, expected $code (stderr: $err)"; fail=$((fail + 1)); return
  fi
  if [ -n "$pattern" ] && ! grep -qE -- "$pattern" <<<"$out$err"; then
    echo "FAIL $name: output does not match /$pattern/:"; echo "$out$err" | head -5; fail=$((fail + 1)); return
  fi
  if [ "$code" = 2 ] && ! grep -q '^error: ' <<<"$err"; then
    echo "FAIL $name: no error line"; fail=$((fail + 1)); return
  fi
  if [ "$code" = 2 ] && [ -n "$out" ]; then
    echo "FAIL $name: printed on standard output before failing: $(head -1 <<<"$out")"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}
check_exact() {  # name, expected standard output (all of it), command...
  local name="$1" expected="$2"
  shift 2
  local out rc
  out=$("$@" 2>"$errfile"; echo "[exit $?]")
  if [ "$out" != "$expected"$'\n[exit 0]' ]; then
    echo "FAIL $name: expected:"; printf '%s\n' "$expected"; echo "got:"; printf '%s\n' "$out"
    fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}
check_help() {  # name, pattern that the help on standard error must match, command... (must exit 2)
  local name="$1" pattern="$2"
  shift 2
  "$@" >/dev/null 2>"$errfile"
  local rc=$?
  if [ "$rc" != 2 ] || ! grep -qE -- "$pattern" "$errfile"; then
    echo "FAIL $name: exit $rc, stderr does not show the help /$pattern/:"; head -5 "$errfile"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}
lastline() { "$@" | tail -n 1; }

check perft-last-line 0 '^Nodes searched: 3364$' lastline "$bin" perft --variant shako 2
check perft-divide 0 '^f2f1: ' "$bin" perft --variant shako --divide 2
check perft-options 0 '^Nodes searched: 71$' lastline "$bin" perft --variant grant-acedrex --option king-leap=yes --option pawn-double=always 1
check perft-fen 0 '^Nodes searched: 26325$' lastline "$bin" perft --variant shako --fen '4kc3c/ernbq1b1re/ppp3p1pp/3p2pp2/4p5/5P4/2PN2P3/PP1PP2PPP/ER1BQKBNR1/5C3C w KQ - 0 9' 3
check_exact perft-moves $'\nNodes searched: 49' "$bin" perft --variant four-seasons --moves "a6a5 a3a4" 2
check_exact perft-moves-divide $'g3g4: 1\nh3h4: 1\nf2e2: 1\ng2e4: 1\nh2g4: 1\nh2f3: 1\nf1e1: 1\n\nNodes searched: 7' \
  "$bin" perft --variant four-seasons --moves "a6a5 a3a4" --divide 1
check perft-flag-equals 0 '^Nodes searched: 71$' lastline "$bin" perft --variant=grant-acedrex --option=king-leap=yes --option pawn-double=always 1
check perft-last-value-wins 0 '^Nodes searched: 7$' lastline "$bin" perft --variant shako --variant four-seasons 1
check moves-list 0 '^c7d7$' "$bin" moves --variant four-seasons
check summary-json 0 '"status":"ongoing","to_move":"green","in":\["green","red","black","white"\],"out_order":\[\],"places":\{\},"coins":\{"green":0,"red":0,"black":0,"white":0\}' "$bin" summary --variant four-seasons
check summary-two-player 0 '"to_move":"black"' "$bin" summary --variant shako --moves "e3e4"
check variants 0 'lion=cazaux\|murray\|musser' "$bin" variants
# Captures with side effects: antichess (forced capture) and atomic (a blast).
check perft-antichess 0 '^Nodes searched: 8067$' lastline "$bin" perft --variant antichess 3
check perft-atomic 0 '^Nodes searched: 8902$' lastline "$bin" perft --variant atomic 3
check moves-antichess-forced 0 '^f1b5$' "$bin" moves --variant antichess --moves "e2e3 b7b5"
check summary-atomic-blast 0 '"fen":"rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"' "$bin" summary --variant atomic --moves "e2e4 d7d5 e4d5"
check summary-antichess-win 0 '"status":"finished".*"places":\{"white":1,"black":2\}' "$bin" summary --variant antichess --fen "8/8/8/8/8/8/p7/1R6 b - - 0 1" --moves "a2b1q"
# Fog of war: king capture, no check (more nodes than chess from depth 4 on).
check perft-fog-of-war 0 '^Nodes searched: 197742$' lastline "$bin" perft --variant fog-of-war 4
check summary-fog-king-captured 0 '"status":"finished".*"places":\{"white":2,"black":1\}' "$bin" summary --variant fog-of-war --fen "4k3/8/8/8/8/8/8/4K2r w - - 0 1" --moves "e1d1 h1d1"
# Sittuyin: the setup phase's drops, a promotion in place.
check perft-sittuyin 0 '^Nodes searched: 7744$' lastline "$bin" perft --variant sittuyin 2
check moves-sittuyin-setup 0 '^R@a8$' "$bin" moves --variant sittuyin --moves "K@e2"
check summary-sittuyin-promotion 0 '"fen":"1k5K/3r2F1/8/8/8/8/8/8\[\] b - - 0 1"' "$bin" summary --variant sittuyin --fen "1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1" --moves "g7g7f"
# A UCI session's bestmove must be one of `moves`'s lines; each command's own
# exit code counts (no pipe hides a crash).
uci_move_is_legal() {  # name, uci script, moves arguments...
  local name="$1" script="$2" uci list best
  shift 2
  if ! uci=$(printf '%b' "$script" | "$bin" uci); then
    echo "FAIL $name: acedrex uci exited $?"; fail=$((fail + 1)); return
  fi
  best=$(sed -n 's/^bestmove //p' <<<"$uci")
  if ! list=$("$bin" moves "$@"); then
    echo "FAIL $name: acedrex moves exited $?"; fail=$((fail + 1)); return
  fi
  if [ -n "$best" ] && grep -qx -- "$best" <<<"$list"; then pass=$((pass + 1))
  else echo "FAIL $name: bestmove \"$best\" is not legal"; fail=$((fail + 1)); fi
}
for v in antichess atomic fog-of-war; do
  uci_move_is_legal "uci-$v" "uci\nsetoption name UCI_Variant value $v\nposition startpos moves e2e3 b7b5\ngo movetime 200\n" \
    --variant "$v" --moves "e2e3 b7b5"
done
# Four-player chess: perft, chess.com's FEN4 in the summary, the bot through UCI in both modes at levels 1, 5 and 9.
check perft-four-player-chess 0 '^Nodes searched: 7800$' lastline "$bin" perft --variant four-player-chess 3
check summary-four-player-chess 0 '"points":{"red":0,"blue":0,"yellow":0,"green":0},"plies":1,"fen":"B-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/.*/3,rP,rP,rP,rP,1,rP,rP,rP,3/' "$bin" summary --variant four-player-chess --moves "h2h4"
# summary --pgn: the game's record by our writer (PGN4 for four seats), with the caller's tags.
check summary-pgn4 0 '^1\. h2-h4 \.\. b7-d7 \*$' "$bin" summary --variant four-player-chess --option mode=teams --moves "h2h4 b7d7" --pgn
check summary-pgn4-tags 0 '^\[Red "us \\"A\\""\]$' "$bin" summary --variant four-player-chess --option mode=teams --pgn --tag 'Red=us "A"' --tag Termination=cap
check summary-pgn-two-seats 0 '^1\. f2f3 e7e5 2\. g2g4 d8h4 0-1$' "$bin" summary --variant chess --moves "f2f3 e7e5 g2g4 d8h4" --pgn
check err-summary-tag-without-pgn 2 'tag needs --pgn' "$bin" summary --variant chess --tag Event=x
check err-summary-tag-name 2 'NAME=VALUE' "$bin" summary --variant chess --pgn --tag 'Bad Name=x'
check err-summary-tag-empty-name 2 'NAME=VALUE' "$bin" summary --variant chess --pgn --tag '=x'
for mode in ffa teams; do
  for level in 1 5 9; do
    uci_move_is_legal "uci-four-player-chess-$mode-$level" \
      "uci\nsetoption name UCI_Variant value four-player-chess\nsetoption name mode value $mode\nsetoption name Level value $level\nposition startpos moves h2h4 b7d7\ngo depth 2\n" \
      --variant four-player-chess --option mode=$mode --moves "h2h4 b7d7"
  done
done
check err-variant 2 'unknown variant' "$bin" perft --variant nosuch 1
check err-option-name 2 'unknown option' "$bin" perft --variant shako --option nope=1 1
check err-option-value 2 'takeover' "$bin" perft --variant four-seasons --option takeover=maybe 1
check err-fen 2 'fen' "$bin" perft --variant shako --fen 'not a fen' 1
check err-bench-search-ms 2 'search-ms' "$bin" bench --search-ms -5
check err-bench-rounds 2 'rounds must be from 1 to 100' "$bin" bench --rounds 0
check err-engine-params 2 'cannot read the parameter file' "$bin" match --variant shako --engine level=1,params=/nonexistent.params --engine level=1 --games 1 --depth 1
check err-move 2 'ply 2' "$bin" summary --variant shako --moves "e3e4 e3e4"
check err-move-malformed 2 'ply 1' "$bin" moves --variant shako --moves "zz99"
check err-depth 2 'DEPTH' "$bin" perft --variant shako x
check err-command 2 'unknown command' "$bin" frobnicate
check err-flag 2 'unknown flag --colour for perft' "$bin" perft --variant shako --colour red 1
check_help err-flag-help '^ +--divide ' "$bin" perft --variant shako --colour red 1
# A flag of another command is refused by this one (it used to be ignored).
check err-misplaced-flag 2 'unknown flag --games for perft' "$bin" perft --variant shako --games 5 1
check_help err-misplaced-flag-help '^ +--divide ' "$bin" perft --games 5
check_help err-misplaced-flag-help-options '^ +--variant V ' "$bin" perft --games 5
check err-misplaced-bench 2 'unknown flag --variant for bench' "$bin" bench --variant shako
check err-misplaced-moves 2 'unknown flag --seed for moves' "$bin" moves --variant shako --seed 3
check err-flag-equals 2 'unknown flag --colour for moves' "$bin" moves --variant shako --colour=red
check err-missing-value 2 '^error: --variant needs a value' "$bin" perft --variant
check_help err-missing-value-help '^Usage: acedrex perft' "$bin" perft --variant
check err-missing-value-option 2 '^error: --option needs a value' "$bin" moves --variant shako --option
check err-extra-argument 2 'perft takes no argument "2"' "$bin" perft --variant shako 1 2
check err-extra-argument-moves 2 'moves takes no argument "x"' "$bin" moves --variant shako x
check err-range-games 2 '^error: --games must be from 1 to 100000$' "$bin" match --variant shako --engine level=1 --engine level=1 --games 0
check err-range-depth 2 'DEPTH must be a number from 0 to 99' "$bin" perft --variant shako 100
check err-range-port 2 '^error: --port takes a number from 0 to 65535, not "70000"$' "$bin" serve --port 70000
check err-range-serve-limit 2 '^error: --max-connections takes a number from 1 to 1000000, not "0"$' "$bin" serve --max-connections 0
check err-range-serve-queue 2 '^error: --max-queue-bytes takes 0 \(no limit\) or a number from 1024' "$bin" serve --max-queue-bytes 10
check err-range-serve-abort 2 '^error: --abort-absent-minutes takes 0 \(no limit\) or a number from 1 to 525600, not "600000"$' "$bin" serve --abort-absent-minutes 600000
check err-serve-log-level 2 '^error: --log-level takes trace, debug, info, warn, error or off' "$bin" serve --log-level loud
check err-serve-flag 2 'unknown flag --games for serve' "$bin" serve --games 3
check help 0 '^  perft --variant V' "$bin" help
check help-flag 0 '^  perft --variant V' "$bin" --help
check help-command 0 '^Usage: acedrex match' "$bin" help match
# More than two seats with two engine names: the head-to-head line (2 pairs a game
# in three seats, one against two); two seats keep the report without it.
check match-head-to-head 0 '^Head to head L1 against L2: [0-9.]+/4 pairs \([0-9.]+%\), 95% interval [0-9.]+% to [0-9.]+% over 2 games' \
  "$bin" match --variant three-player-chess --engine level=1,name=L1 --engine level=2,name=L2 --engine level=2,name=L2 --games 2 --depth 1 --max-plies 60
check match-two-seats-no-head-to-head 0 '^Scores after 1 games' bash -c 'out=$("$0" match --variant shako --engine level=1,name=L1 --engine level=2,name=L2 --games 1 --depth 1 --max-plies 20) || exit; if grep -q "Head to head" <<<"$out"; then exit 1; fi; printf "%s\n" "$out"' "$bin"
check help-command-flag 0 '--max-connections-per-client N' "$bin" serve --help
check err-help-command 2 'unknown command "nosuch"' "$bin" help nosuch
check help-migrate 0 'migrate --from acedrex.db --to postgresql://' "$bin" help
check err-migrate-args 2 'migrate needs --from FILE.db and --to postgresql://' "$bin" migrate --from x.db
check err-migrate-to 2 '--to takes a postgresql:// URI, not "y.db"' "$bin" migrate --from x.db --to y.db
check err-migrate-from 2 'no such database file: /nonexistent/x.db' "$bin" migrate --from /nonexistent/x.db --to postgresql://u@h/d
# An error on the command line is found before anything is printed.
if [ -n "$("$bin" bench --search-ms -5 2>/dev/null)" ]; then
  echo "FAIL bench-error-no-stdout: bench printed before rejecting --search-ms"; fail=$((fail + 1))
else
  pass=$((pass + 1))
fi
echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
