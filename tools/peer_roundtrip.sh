#!/usr/bin/env bash
# The files `convert` writes, as the peers read them: each scene file is converted into all three
# encodings (OUT/written/NAME.from-EXT/NAME.EXT-as-ENC.ENC), and tools/fidelity.sh compares X_ITE's picture
# of every written file, and view3dscene's of every written ClassicVRML file, with ours at the same
# viewpoint, size and scene time. (Ours of a written file is ours of the original pixel for pixel:
# tests/encodings_roundtrip.rs.) Then view3dscene's picture of each ClassicVRML writing against its
# picture of the original (same viewer, its first viewpoint): whether it reads our writing as it reads
# the file. Prints the three Markdown tables.
#
# A development tool, not a CI step (the peers: see tools/fidelity.sh).
# usage: tools/peer_roundtrip.sh OUT_DIR FILE...
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${1:?usage: tools/peer_roundtrip.sh OUT_DIR FILE...}"; shift
cargo build --release --quiet --bin hanim-viewer --example image_compare || exit 2
PEERS="${PEERS:-/tmp/peers}"
mkdir -p "$OUT/written"
written=()
declare -A originals
for file in "$@"; do
    base="$(basename "$file")"; stem="${base%.*}"; ext="${base##*.}"
    # Relative references (textures, Inlines) resolve beside the original: write next to a copy of
    # its folder's files.
    dir="$OUT/written/$stem.from-$ext"; mkdir -p "$dir"
    cp -r "$(dirname "$file")"/. "$dir"/ 2>/dev/null
    originals["$dir/$stem.$ext-as-x3dv.x3dv"]="$file"
    for to in x3d x3dj x3dv; do
        target="$dir/$stem.$ext-as-$to.$to"
        if target/release/hanim-viewer convert "$file" --out "$target" >/dev/null 2>"$OUT/convert.err"; then
            written+=("$target")
        else
            echo "convert failed: $file -> .$to: $(tail -1 "$OUT/convert.err")" >&2
        fi
    done
done
echo "## X_ITE 15, every written file"
PEER=x_ite tools/fidelity.sh "$OUT/x_ite" "${written[@]}"
classic=(); for f in "${written[@]}"; do [[ "$f" == *.x3dv ]] && classic+=("$f"); done
echo
echo "## view3dscene 4.2, every written ClassicVRML file"
PEER=view3dscene tools/fidelity.sh "$OUT/view3dscene" "${classic[@]}"

echo
echo "## view3dscene 4.2, the original against its ClassicVRML writing"
echo "| file | original px | writing px | IoU | IoU within 1 px | colour diff | view3dscene stopped at |"
echo "|---|---|---|---|---|---|---|"
mkdir -p "$OUT/view3dscene-original"
for w in "${classic[@]}"; do
    o="${originals[$w]:-}"; [ -n "$o" ] || continue
    name="$(basename "${w%.*}")"; a="$OUT/view3dscene-original/$name.original.png"; b="$OUT/view3dscene-original/$name.png"
    "$PEERS/view3dscene_shot.sh" "$o" "$a" "" "${SIZE:-600x600}" >"$a.log" 2>&1
    "$PEERS/view3dscene_shot.sh" "$w" "$b" "" "${SIZE:-600x600}" >"$b.log" 2>&1
    # view3dscene's ClassicVRML parser drops the rest of a file at a field it does not know.
    stop="$(grep -o 'inside "[A-Za-z]*": got "[A-Za-z]*"' "$b.log" | head -1)"
    if [ -s "$a" ] && [ -s "$b" ]; then
        m="$(target/release/examples/image_compare "$a" "$b")"
        field() { sed "s/.*$1=\([^ ]*\).*/\1/" <<<"$m"; }
        echo "| $name | $(field a_pixels) | $(field b_pixels) | $(field iou) | $(field iou_1px) | $(field colour_diff) | $stop |"
    else
        echo "| $name | $([ -s "$a" ] && echo drawn || echo failed) | $([ -s "$b" ] && echo drawn || echo failed) | | | | $stop |"
    fi
done
