#!/usr/bin/env bash
# Side by side with a peer: renders each humanoid file with hanim-viewer and with X_ITE 15 (or
# view3dscene 4.2 with PEER=view3dscene) at the same viewpoint (the one the peer binds at load: the file's
# first Viewpoint), size and scene time, writes OUT/NAME.side_by_side.png (the peer left, hanim-viewer
# right) and prints a Markdown table of silhouette IoU and mean colour difference
# (examples/image_compare.rs says how they are measured).
#
# A development tool, not a CI step. The peers come from the team's peer scripts (copy the folder and run
# its setup.sh once): PEERS=/path/to/peers (default /tmp/peers).
#
# usage: tools/fidelity.sh OUT_DIR FILE...
# environment: SIZE (default 600x600, square: X3D's fieldOfView applies to the smaller side),
#              SHOT_TIME (scene time in seconds, default 0), PEERS, PEER (x_ite or view3dscene),
#              REUSE_PEER=1 (keep a peer picture already in OUT_DIR from an earlier run: only ours is
#              rendered again), ONLY_PEER=1 (take the peer pictures only, render nothing of ours).
# Outputs are named after the file with its extension (NAME_x3dv...), so that one model's encodings
# side by side do not overwrite each other.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${1:?usage: tools/fidelity.sh OUT_DIR FILE...}"; shift
PEERS="${PEERS:-/tmp/peers}"
SIZE="${SIZE:-600x600}"
PEER="${PEER:-x_ite}"
case "$PEER" in x_ite|view3dscene) ;; *) echo "PEER is x_ite or view3dscene, not '$PEER'" >&2; exit 2 ;; esac
export SHOT_TIME="${SHOT_TIME:-0}"
[ -x "$PEERS/x_ite_shot.sh" ] || { echo "no peer scripts in $PEERS (copy ../shared/peers there and run setup.sh)" >&2; exit 2; }
cargo build --release --quiet --bin hanim-viewer --example image_compare || exit 2
BIN=target/release/hanim-viewer
CMP=target/release/examples/image_compare
mkdir -p "$OUT"
# The first view our `views` list takes from the file (a DEF or, without one, its label): the file's
# first Viewpoint, or a humanoid's Site view where the humanoid lists some.
first_file_view() {
    "$BIN" views --json "$1" 2>/dev/null | python3 -c '
import json, sys
views = [v for v in json.load(sys.stdin)["views"] if v["kind"] != "computed"]
print((views[0]["def"] or views[0]["label"]) if views else "")' 2>/dev/null
}
echo "| file | viewpoint | IoU | IoU within 1 px | colour diff | $PEER px | hanim-viewer px | colour diff within 1 px |"
echo "|---|---|---|---|---|---|---|---|"
for file in "$@"; do
    base="$(basename "$file")"; name="${base%.*}_${base##*.}"
    xite="$OUT/$name.$PEER.png"; ours="$OUT/$name.hanim-viewer.png"
    deffile="$OUT/$name.$PEER.def"
    if [ "${REUSE_PEER:-0}" = 1 ] && [ -s "$xite" ] && [ -f "$deffile" ]; then
        def="$(cat "$deffile")"
    elif [ "$PEER" = x_ite ]; then
        log="$("$PEERS/x_ite_shot.sh" "$file" "$xite" "" "$SIZE" 2>&1)"
        # "bound viewpoint: DEF=Name description=..." (absent when the file has no Viewpoint).
        def="$(sed -n 's/^bound viewpoint: DEF=\([^ ]*\).*/\1/p' <<<"$log" | head -1)"
        # No DEF ("-"): the viewpoint's description names it.
        [ "$def" = "-" ] && def="$(sed -n 's/^bound viewpoint: DEF=- description="\(.*\)"$/\1/p' <<<"$log" | head -1)"
        # Neither a DEF nor a description: X_ITE bound the file's first Viewpoint; name ours the same way.
        if [ -z "$def" ] && grep -q '^bound viewpoint:' <<<"$log"; then def="$(first_file_view "$file")"; fi
        printf '%s' "$def" >"$deffile"
    else
        "$PEERS/view3dscene_shot.sh" "$file" "$xite" "" "$SIZE" >"$OUT/$name.peer.log" 2>&1
        # view3dscene binds the file's first Viewpoint in document order; ours is the first view our
        # `views` list takes from the file, which lists a humanoid's Site views before the scene's
        # Viewpoints: where a file has both, check the two pictures show the same view.
        def="$(first_file_view "$file")"
        printf '%s' "$def" >"$deffile"
    fi
    [ "${ONLY_PEER:-0}" = 1 ] && { echo "| $name | ${def:-(default)} | peer only | | | | |"; continue; }
    # No Viewpoint in the file: the peers show X3D's default viewpoint, and so does our x3d-default view.
    view_args=(--view x3d-default); [ -n "$def" ] && view_args=(--view "$def")
    # The whole scene at the same scene time, every sensor running, as X_ITE plays it.
    if ! "$BIN" render "$file" "${view_args[@]}" --play-as-file --time "$SHOT_TIME" --size "$SIZE" --out "$ours" \
        >"$OUT/$name.render.log" 2>&1; then
        echo "| $name | ${def:-(default)} | render failed: $(tail -1 "$OUT/$name.render.log") | | | |"; continue
    fi
    if [ ! -s "$xite" ]; then echo "| $name | ${def:-(default)} | $PEER failed | | | |"; continue; fi
    m="$("$CMP" "$xite" "$ours")" || { echo "| $name | ${def:-(default)} | compare failed | | | |"; continue; }
    convert "$xite" "$ours" +append "$OUT/$name.side_by_side.png" 2>/dev/null
    iou="$(sed 's/.*iou=\([^ ]*\) .*/\1/' <<<"$m")"; iou1="$(sed 's/.*iou_1px=\([^ ]*\).*/\1/' <<<"$m")"; col="$(sed 's/.*colour_diff=\([^ ]*\).*/\1/' <<<"$m")"
    a="$(sed 's/.*a_pixels=\([^ ]*\).*/\1/' <<<"$m")"; b="$(sed 's/.*b_pixels=\([^ ]*\).*/\1/' <<<"$m")"
    col1="$(sed 's/.*colour_diff_1px=\([^ ]*\).*/\1/' <<<"$m")"
    echo "| $name | ${def:-(default)} | $iou | $iou1 | $col | $a | $b | $col1 |"
done
