#!/bin/bash
# Runs the input-door cases of BENCHMARKS.md ("The input door") on the viewer binary BIN and prints one
# line each: LABEL | case | exit status | seconds | peak MiB | last message. A run that blocks is killed
# after 8 s; the address space is capped at 3 GB so that a reader of /dev/zero cannot take the machine.
# Usage: tools/input_door_compare.sh BIN LABEL (the GPU cases need a GPU adapter, e.g. lavapipe).

BIN=$(realpath "$1"); LABEL=$2
C=$(cd "$(dirname "$0")/.." && pwd)/tests/corpus
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT; cd "$W"
mkfifo pipe.x3d pipe.json pipe.txt pipe.bvh pipe.map
ln -s /dev/zero zero.x3d; ln -s /dev/zero zero.json
truncate -s 64G huge.x3d
mkdir shard; mkfifo shard/catalog.json
mkdir -p traps/sub; cp $C/x3d/DiamondManLOA1.x3d traps/sub/; mkfifo traps/pipe.x3d
mkdir -p loop/sub; cp $C/x3d/DiamondManLOA1.x3d loop/sub/; ln -s ../ loop/sub/up
run() { # case, args...
  local case=$1; shift
  ( ulimit -v 3000000; /usr/bin/time -o t.txt -f "%e %M" timeout -s KILL 8 $BIN "$@" > out.txt 2>&1 ); local rc=$?
  read secs kib < <(tail -1 t.txt)
  msg=$(grep -v "^\s*$" out.txt | grep -iv "warn\|INFO" | tail -1 | cut -c1-150)
  [ $rc -eq 137 ] && msg="(killed after 8 s: blocked or still reading) $msg"
  printf "%s | %s | %s | %s | %.1f | %s\n" "$LABEL" "$case" "$rc" "$secs" "$(echo "$kib/1024" | bc -l)" "$msg"
}
run "FIFO as X3D document (info)" info pipe.x3d
run "FIFO as pose file (pose --pose-file)" pose $C/x3d/JinLOA1.x3d --pose-file pipe.json
run "FIFO as script (--script)" --script pipe.txt
run "FIFO as BVH (motion stick)" motion stick pipe.bvh --out o.x3d
run "FIFO as mapping (motion import --map)" motion import $C/x3d/JinLOA1.x3d $C/bvh/131_03.bvh --map pipe.map --out o.x3d
run "FIFO as shard manifest (catalog merge)" catalog merge shard --out merged
run "link to /dev/zero as X3D document (info)" info zero.x3d
run "link to /dev/zero as pose file" pose $C/x3d/JinLOA1.x3d --pose-file zero.json
run "64 GiB sparse X3D document (info)" info huge.x3d
run "catalog of a folder holding a FIFO" catalog traps --views front --size 32x32 --out out1
run "catalog of a folder with a link loop" catalog loop --views front --size 32x32 --out out2
ls out2/images 2>/dev/null | wc -l | sed "s/^/$LABEL | loop: images written: /"
