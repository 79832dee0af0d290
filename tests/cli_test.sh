#!/usr/bin/env bash
# Tests the acedrex command's exact interface: output formats, exit codes and
# the one-line errors on bad input. Usage: cli_test.sh PATH/TO/acedrex
set -u
bin="$1"
pass=0
fail=0
check() {  # name, expected exit code, expected stdout pattern (grep -E), command...
  local name="$1" code="$2" pattern="$3"
  shift 3
  local out err rc
  out=$("$@" 2>/tmp/cli_err.$$)
  rc=$?
  err=$(cat /tmp/cli_err.$$)
  if [ "$rc" != "$code" ]; then
    echo "FAIL $name: exit $rc, expected $code (stderr: $err)"; fail=$((fail + 1)); return
  fi
  if [ -n "$pattern" ] && ! grep -qE -- "$pattern" <<<"$out$err"; then
    echo "FAIL $name: output does not match /$pattern/:"; echo "$out$err" | head -5; fail=$((fail + 1)); return
  fi
  if [ "$code" = 2 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -lt 1 ]; then
    echo "FAIL $name: no error line"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}
lastline() { "$@" | tail -n 1; }

check perft-last-line 0 '^Nodes searched: 3364$' lastline "$bin" perft --variant shako 2
check perft-divide 0 '^f2f1: ' "$bin" perft --variant shako --divide 2
check perft-options 0 '^Nodes searched: 71$' lastline "$bin" perft --variant grant-acedrex --option king-leap=yes --option pawn-double=always 1
check perft-fen 0 '^Nodes searched: 26325$' lastline "$bin" perft --variant shako --fen '4kc3c/ernbq1b1re/ppp3p1pp/3p2pp2/4p5/5P4/2PN2P3/PP1PP2PPP/ER1BQKBNR1/5C3C w KQ - 0 9' 3
check perft-moves 0 '^Nodes searched: ' lastline "$bin" perft --variant four-seasons --moves "a6a5 a3a4" 2
check moves-list 0 '^c7d7$' "$bin" moves --variant four-seasons
check summary-json 0 '"status":"ongoing","to_move":"green","in":\["green","red","black","white"\],"out_order":\[\],"places":\{\},"coins":\{"green":0,"red":0,"black":0,"white":0\}' "$bin" summary --variant four-seasons
check summary-two-player 0 '"to_move":"black"' "$bin" summary --variant shako --moves "e3e4"
check variants 0 'lion=cazaux\|murray\|musser' "$bin" variants
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
check err-flag 2 'unknown flag' "$bin" perft --variant shako --colour red 1
# An error on the command line is found before anything is printed.
if [ -n "$("$bin" bench --search-ms -5 2>/dev/null)" ]; then
  echo "FAIL bench-error-no-stdout: bench printed before rejecting --search-ms"; fail=$((fail + 1))
else
  pass=$((pass + 1))
fi
rm -f /tmp/cli_err.$$
echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
