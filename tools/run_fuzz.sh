#!/usr/bin/env bash
# Builds the libFuzzer targets (preset "fuzz": clang++, ASan, UBSan) and runs
# each for a bounded time. Usage: tools/run_fuzz.sh [SECONDS_PER_TARGET]
# (default 30). Exits non-zero if a target crashes or a check fails; the
# crashing input is left in build/fuzz/artifacts/.
set -euo pipefail
seconds="${1:-30}"
case "$seconds" in ''|*[!0-9]*) echo "usage: $0 [SECONDS_PER_TARGET]" >&2; exit 2 ;; esac

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
cmake --preset fuzz >/dev/null
cmake --build build/fuzz -j2 --target fen_fuzz move_fuzz pgn_fuzz request_fuzz

out="build/fuzz"
mkdir -p "$out/artifacts" "$out/corpus/fen" "$out/corpus/move" "$out/corpus/pgn" "$out/corpus/request"
# The request and PGN fuzzers start from real requests and records (kept in
# the repository).
cp fuzz/corpus/request/* "$out/corpus/request/"
cp fuzz/corpus/pgn/* "$out/corpus/pgn/"

# Seed corpora: every variant's start position (from the variant files), and
# a few move lines.
for file in variants/*.variant; do
  v=$(sed -n 's/^name *= *//p' "$file" | head -1)
  fen=$(sed -n 's/^start *= *//p' "$file" | head -1)
  [ -n "$v" ] || continue
  printf '%s\n%s' "$v" "$fen" > "$out/corpus/fen/seed-$v"
  printf '%s\n\x20\x01abcdefghijklmnopqrstuvwxyz012345 a1a2 0000' "$v" > "$out/corpus/move/seed-$v"
done
printf 'grant-acedrex king-leap=no\n%s' "rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w JDjd - 0 1" \
  > "$out/corpus/fen/seed-grant-noleap"
printf 'shako\n%s' "4k5/10/10/10/10/10/10/10/5K2Rr/10 w K - 0 1" > "$out/corpus/fen/seed-shako-castle"
printf 'shako\n%s' "c8c/ernbqkbnre/1pp1pppppp/p9/3pP5/10/10/PPPP1PPPPP/ERNBQKBNRE/C8C w KQkq d7 0 3" \
  > "$out/corpus/fen/seed-shako-ep"
printf 'grant-acedrex die=on\n\x40\x07abcdefghijklmnopqrstuvwxyz' > "$out/corpus/move/seed-grant-die"
printf 'four-seasons die=on\n\x40\x03abcdefghijklmnopqrstuvwxyz' > "$out/corpus/move/seed-four-die"
printf 'shako\n\x00\x01e3e5 d8d6 e5d6 c9d7 f3f4 e8e7 g2c6 j9h7 a9a10q zz' > "$out/corpus/move/seed-shako-line"

status=0
for target in fen_fuzz move_fuzz pgn_fuzz request_fuzz; do
  corpus="$out/corpus/${target%_fuzz}"
  echo "== $target: ${seconds}s"
  if ! "$out/fuzz/$target" "$corpus" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=2048 \
      -artifact_prefix="$out/artifacts/$target-" -print_final_stats=1 2>"$out/$target.log"; then
    status=1
    echo "!! $target failed; see $out/$target.log and $out/artifacts/"
    grep -aE "^(==[0-9]+==ERROR|SUMMARY|fen_fuzz:|move_fuzz:|pgn_fuzz:|request_fuzz:|  )" "$out/$target.log" | head -20 || true
  else
    grep -E "^stat::number_of_executed_units|^Done|cov:" "$out/$target.log" | tail -3 || true
  fi
done
exit $status
