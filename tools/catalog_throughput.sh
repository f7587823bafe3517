#!/usr/bin/env bash
# Catalogue throughput on this machine: humanoids per minute (stills) and motion previews per minute,
# one process and two shards side by side (GNU parallel), with each process's peak memory.
#
#   tools/catalog_throughput.sh [BINARY] [INPUT_FOLDER] [CAPTURE_FOLDER] [HUMANOID]
#
# Defaults: target/release/hanim-viewer, tests/corpus/x3d, tests/corpus/asf, tests/corpus/x3d/JinLOA1.x3d.
# Prints one Markdown table row per run; the outputs go to a temporary folder that is removed.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:-target/release/hanim-viewer}")
INPUTS=$(realpath "${2:-tests/corpus/x3d}")
CAPTURES=$(realpath "${3:-tests/corpus/asf}")
ONTO=$(realpath "${4:-tests/corpus/x3d/JinLOA1.x3d}")
command -v parallel >/dev/null || { echo "GNU parallel is needed (apt-get install parallel)" >&2; exit 2; }
WORK=$(mktemp -d)
RUNS=0
trap 'rm -rf "$WORK"' EXIT

# run NAME SHARDS ARGS...: the catalogue in SHARDS shares side by side; prints wall seconds, the entries
# catalogued (from the shares' catalog.json) and the largest peak RSS of a share in MB.
run() {
  local name=$1 shards=$2; shift 2
  RUNS=$((RUNS + 1))
  local dir="$WORK/run$RUNS"
  mkdir -p "$dir"
  local start end
  start=$(date +%s.%N)
  # exit code 1 only means an input failed (the corpus has files without a humanoid).
  parallel --jobs "$shards" "/usr/bin/time -f %M -o $dir/{}.rss $BIN $* --shard {}/$shards --out $dir/{} 2>/dev/null || true" \
    ::: $(seq "$shards")
  end=$(date +%s.%N)
  local entries=0 previews=0 rss=0
  for i in $(seq "$shards"); do
    local n p
    read -r n p < <(python3 -c "import json,sys; e=json.load(open(sys.argv[1]))['entries']; print(len(e), sum(o.startswith('previews/') for x in e for o in x['outputs']))" "$dir/$i/catalog.json")
    entries=$((entries + n))
    previews=$((previews + p))
    local kb
    kb=$(tail -1 "$dir/$i.rss")
    ((kb > rss)) && rss=$kb
  done
  python3 - "$name" "$shards" "$start" "$end" "$entries" "$previews" "$rss" <<'PY'
import sys
name, shards = sys.argv[1], int(sys.argv[2])
start, end, entries, previews, rss = float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
seconds = end - start
print(f"| {name} | {shards} | {entries} | {previews} | {seconds:.1f} s | {entries / seconds * 60:.1f} | {previews / seconds * 60:.1f} | {rss / 1024:.0f} MB |")
PY
}

echo "| run | processes | entries | previews | wall time | entries per minute | previews per minute | peak RSS per process |"
echo "|---|---|---|---|---|---|---|---|"
for shards in 1 2; do
  run "stills (humanoids, 5 views, 320x320)" "$shards" catalog "$INPUTS"
done
for shards in 1 2; do
  run "previews (humanoids: clips or turntables, GIF, 160x160, 12 fps)" "$shards" catalog "$INPUTS" --views front --size 160x160 --animate
done
for shards in 1 2; do
  run "capture takes onto $(basename "$ONTO") (GIF, 160x160, 12 fps, 10 s)" "$shards" catalog --motions "$CAPTURES" --onto "$ONTO" --size 160x160
done
echo
"$BIN" info --gpu | head -3
