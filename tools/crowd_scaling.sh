#!/usr/bin/env bash
# How the 3D view's cost grows with N copies of a file, batched (one skin dispatch per kernel and one
# draw per opaque part for all copies) against unbatched (each copy its own draws and skin pass), in one
# run of the same binary: `bench FILE --copies N [--unbatched] --json` for each N, alternating the two,
# with /usr/bin/time for the wall time of the whole command (load included) and peak memory. Prints a
# markdown table (BENCHMARKS.md's "Scaling: N copies" comes from it).
#
# A development tool, not a CI step.
#
# usage: tools/crowd_scaling.sh FILE [N...]        (default N: 1 10 100 1000)
# environment: FRAMES (default 20; a fifth of it, at least 3, for N >= 1000), SIZE (default 800x600),
#              UNBATCHED_MAX (largest N also run unbatched, default 1000).
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: tools/crowd_scaling.sh FILE [N...]" >&2; exit 2; }
FILE=$1
shift
COUNTS=("$@")
[ ${#COUNTS[@]} -gt 0 ] || COUNTS=(1 10 100 1000)
FRAMES="${FRAMES:-20}"
SIZE="${SIZE:-800x600}"
UNBATCHED_MAX="${UNBATCHED_MAX:-1000}"
cargo build --release --quiet --bin hanim-viewer || exit 2
BIN=target/release/hanim-viewer
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

row() { # N MODE FLAGS...
  local n=$1 mode=$2
  shift 2
  local frames=$FRAMES
  [ "$n" -ge 1000 ] && frames=$(( FRAMES / 5 > 3 ? FRAMES / 5 : 3 ))
  /usr/bin/time -f "%e %M" -o "$OUT/time" "$BIN" bench "$FILE" --size "$SIZE" --copies "$n" --frames "$frames" \
    --warmup 2 --json "$@" >"$OUT/report.json" 2>/dev/null || { echo "| $n | $mode | failed |"; return; }
  read -r wall rss <"$OUT/time"
  jq -r --arg mode "$mode" --arg wall "$wall" --arg rss "$rss" '
    def stage(name): ([.stages[] | select(.stage == name) | .median_ms][0] // 0);
    "| \(.copies) | \($mode) | \(.batches) | \(.fps * 100 | round / 100) | \(.frame_ms * 10 | round / 10) | \(.triangles) | \(.skin_points) | \(.dispatches) | \(.draw_calls) | \(stage("skin/morph (alone)") * 100 | round / 100) ms | \(stage("scene pass (alone)") * 10 | round / 10) ms | \(stage("upload joints") * 100 | round / 100) ms | \(stage("sample clip") * 100 | round / 100) ms | \((.deform.points_per_s // 0) / 1e6 * 10 | round / 10) M/s | \($wall) s, \(($rss | tonumber) / 1024 | round) MB |"
  ' "$OUT/report.json"
}

echo "$(basename "$FILE") at $SIZE, $("$BIN" --version)"
echo
echo "| N | mode | batches | frames/s | ms per frame | triangles | skinned points | dispatches | draw calls | skin/morph alone | scene pass alone | upload | sample clips | deform | whole command, peak RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for n in "${COUNTS[@]}"; do
  row "$n" batched
  [ "$n" -le "$UNBATCHED_MAX" ] && row "$n" unbatched --unbatched
done
