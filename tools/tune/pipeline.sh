#!/bin/sh
# The whole fitting of one game's evaluation (docs/tuning.md): positions,
# labels, fit, and a match that decides whether the fitted file is kept.
#
#   tools/tune/pipeline.sh VARIANT OUTDIR [PGN...]
#
# 1. Positions: the PGN files given, or else self-play games
#    (tools/tune/selfplay.sh, $GAMES games at $NODES nodes a move).
# 2. Labels: each quiet position's game result, blended with a teacher
#    engine's score at depth $DEPTH (tools/tune/teacher.py, $LAMBDA the
#    result's share). TEACHER=none uses the results alone; so does a
#    variant the teacher does not play.
# 3. Fit: acedrex-tune tune from the embedded parameters.
# 4. Check: $CHECK_GAMES games at $CHECK_NODES nodes a move, the fitted
#    parameters against the embedded ones, from balanced starts of its own
#    (acedrex openings, seed 2027). The fitted file is kept
#    (copied over src/engine/params/VARIANT.params) only when it scores at
#    least $KEEP percent; the verdict and the score are the last lines.
#
# Environment: ACEDREX (build/release/acedrex), ACEDREX_TUNE
# (build/release/tools/tune/acedrex-tune), TEACHER (/usr/games/fairy-stockfish),
# DEPTH (8), LAMBDA (0.3), GAMES (600), NODES (5000), CHECK_GAMES (200),
# CHECK_NODES (20000), KEEP (52), APPLY (1: copy a kept file into the tree).
set -eu

if [ $# -lt 2 ]; then
  echo "usage: $0 VARIANT OUTDIR [PGN...]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
variant=$1
out=$2
shift 2
acedrex=${ACEDREX:-$root/build/release/acedrex}
tune=${ACEDREX_TUNE:-$root/build/release/tools/tune/acedrex-tune}
teacher=${TEACHER:-/usr/games/fairy-stockfish}
depth=${DEPTH:-8}
lambda=${LAMBDA:-0.3}
check_games=${CHECK_GAMES:-200}
check_nodes=${CHECK_NODES:-20000}
keep=${KEEP:-52}
apply=${APPLY:-1}
mkdir -p "$out"

echo "== 1. positions" >&2
if [ $# -gt 0 ]; then
  "$tune" extract --variant "$variant" --out "$out/data.txt" "$@"
else
  sh "$root/tools/tune/selfplay.sh" "$acedrex" "$tune" "$variant" "$out" "${GAMES:-600}" "${NODES:-5000}"
fi

echo "== 2. labels" >&2
data="$out/data.txt"
if [ "$teacher" != none ] && [ -x "$teacher" ] &&
   printf 'uci\nquit\n' | "$teacher" 2>/dev/null | grep -q "var.* $variant\( \|$\)"; then
  python3 "$root/tools/tune/teacher.py" --variant "$variant" --data "$out/data.txt" --out "$out/labelled.txt" \
    --engine "$teacher" --depth "$depth" --lambda "$lambda"
  data="$out/labelled.txt"
else
  echo "no teacher for $variant: the game results alone" >&2
fi

echo "== 3. fit" >&2
"$tune" tune --variant "$variant" --data "$data" --out "$out/fitted.params" --threads 2

echo "== 4. check" >&2
# Balanced starts of their own (not the training games' starts), each played twice.
"$acedrex" openings --variant "$variant" --count $(( (check_games + 1) / 2 )) --seed 2027 --max-score 60 \
  > "$out/check-openings.txt"
set -- --variant "$variant" --engine "level=9,params=$out/fitted.params,name=fitted" --engine level=9,name=embedded \
  --games "$check_games" --nodes "$check_nodes" --concurrency 2 --adjudicate 700,4 --max-plies 400 \
  --pgn "$out/check.pgn" --openings "$out/check-openings.txt"
"$acedrex" match "$@" | tee "$out/check.txt"
percent=$(sed -n 's/^ *fitted .*points [0-9.]*\/[0-9]* *(\([0-9.]*\)%).*/\1/p' "$out/check.txt" | head -1)
if [ -z "$percent" ]; then
  echo "no score for the fitted parameters in $out/check.txt" >&2
  exit 1
fi
if awk -v p="$percent" -v k="$keep" 'BEGIN { exit !(p >= k) }'; then
  echo "verdict: keep ($percent% against the embedded parameters, at least $keep% asked)"
  if [ "$apply" = 1 ]; then
    cp "$out/fitted.params" "$root/src/engine/params/$variant.params"
    echo "copied to src/engine/params/$variant.params: rebuild to embed it"
  fi
else
  echo "verdict: drop ($percent% against the embedded parameters, at least $keep% asked)"
fi
