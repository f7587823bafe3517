#!/usr/bin/env bash
# Frame rates in one run: X_ITE 15 (800x600 canvas, uncapped: each frame waited for), hanim-viewer's 3D
# view alone (`bench`, headless, 800x600) and its whole window (`bench --window`, 1280x800 under Xvfb, UI
# included, presented), back to back per file, ROUNDS times; one line per file and round, then medians
# and ratios (the median of the per-round ratios). BENCHMARKS.md's "Interactive speed" table comes from it.
#
# A development tool, not a CI step. The peers come from the team's peer scripts (copy the folder and run
# its setup.sh once): PEERS=/path/to/peers (default /tmp/peers). Needs xvfb-run.
#
# usage: tools/speed_vs_x_ite.sh FILE...
# environment: ROUNDS (default 3), PEERS.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: tools/speed_vs_x_ite.sh FILE..." >&2; exit 2; }
PEERS="${PEERS:-/tmp/peers}"
ROUNDS="${ROUNDS:-3}"
[ -x "$PEERS/x_ite_perf.sh" ] || { echo "no peer scripts in $PEERS (copy ../shared/peers there and run setup.sh)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "xvfb-run (package xvfb) is needed for the window" >&2; exit 2; }
cargo build --release --quiet --bin hanim-viewer || exit 2
BIN=target/release/hanim-viewer
fps_of() { python3 -c 'import json, sys; print(round(json.load(sys.stdin)["fps"], 1))'; }
LINES=$(mktemp)
trap 'rm -f "$LINES"' EXIT
for round in $(seq 1 "$ROUNDS"); do
  for file in "$@"; do
    x=$(PERF_REPEATS=1 "$PEERS/x_ite_perf.sh" "$file" 800x600 2>/dev/null | sed -n 's/^RESULT.* fps=\([0-9.]*\).*/\1/p')
    v=$("$BIN" bench "$file" --size 800x600 --frames 200 --warmup 20 --json 2>/dev/null | fps_of)
    w=$(xvfb-run -a -s "-screen 0 1920x1200x24" "$BIN" bench "$file" --window --size 1280x800 --frames 60 \
        --warmup 10 --json 2>/dev/null | fps_of)
    echo "$round $(basename "$file") x_ite=${x:-nan} view3d=${v:-nan} window=${w:-nan}" | tee -a "$LINES"
  done
done
python3 - "$LINES" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    _, name, *fields = line.split()
    rows.setdefault(name, []).append({k: float(v) for k, v in (f.split("=") for f in fields)})
print("| file | X_ITE fps | 3D view fps | window fps | 3D view / X_ITE | window / X_ITE |")
print("|---|---|---|---|---|---|")
for name, rs in rows.items():
    med = lambda key: statistics.median(r[key] for r in rs)
    ratio = lambda key: statistics.median(r[key] / r["x_ite"] for r in rs)
    print(f"| {name} | {med('x_ite'):.1f} | {med('view3d'):.1f} | {med('window'):.1f} | {ratio('view3d'):.2f} | {ratio('window'):.2f} |")
PY
