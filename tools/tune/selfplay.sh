#!/bin/sh
# Self-play data for the Texel tuner (docs/tuning.md): balanced random
# openings from `acedrex openings`, full-strength games from them with
# `acedrex match` at a fixed node count, and the quiet positions extracted
# with `acedrex-tune extract`.
#
#   tools/tune/selfplay.sh ACEDREX ACEDREX_TUNE VARIANT OUTDIR [GAMES] [NODES] [SEED]
#
# Writes OUTDIR/openings.txt, OUTDIR/games.pgn and OUTDIR/data.txt. Runs at
# low priority on one core. Level 9 is deterministic, so the variety comes
# from the openings (each is played twice, seats swapped) and from the
# transposition table each bot keeps between games.
set -eu

if [ $# -lt 4 ]; then
  echo "usage: $0 ACEDREX ACEDREX_TUNE VARIANT OUTDIR [GAMES=600] [NODES=5000] [SEED=11]" >&2
  exit 2
fi
acedrex=$1
tune=$2
variant=$3
out=$4
games=${5:-600}
nodes=${6:-5000}
seed=${7:-11}

mkdir -p "$out"
openings=$(( (games + 1) / 2 ))

echo "== $openings openings" >&2
nice -n 10 "$acedrex" openings --variant "$variant" --count "$openings" --plies 10 --max-score 100 \
  --nodes 5000 --seed "$seed" > "$out/openings.txt"

echo "== $games games at $nodes nodes a move" >&2
nice -n 10 "$acedrex" match --variant "$variant" \
  --engine level=9,name=a --engine level=9,name=b \
  --nodes "$nodes" --games "$games" --openings "$out/openings.txt" --concurrency 1 \
  --adjudicate 1000,4 --max-plies 400 --seed "$seed" --pgn "$out/games.pgn"

echo "== quiet positions" >&2
"$tune" extract --variant "$variant" --out "$out/data.txt" "$out/games.pgn"
