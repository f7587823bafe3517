#!/usr/bin/env bash
# The files `convert` writes, as the peers read them: each scene file is converted into all three
# encodings (OUT/written/NAME.from-EXT/NAME.EXT-as-ENC.ENC), and tools/fidelity.sh compares X_ITE's picture
# of every written file, and view3dscene's of every written ClassicVRML file, with ours at the same
# viewpoint, size and scene time. (Ours of a written file is ours of the original pixel for pixel:
# tests/encodings_roundtrip.rs.) Prints the two Markdown tables.
#
# A development tool, not a CI step (the peers: see tools/fidelity.sh).
# usage: tools/peer_roundtrip.sh OUT_DIR FILE...
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${1:?usage: tools/peer_roundtrip.sh OUT_DIR FILE...}"; shift
cargo build --release --quiet --bin hanim-viewer || exit 2
mkdir -p "$OUT/written"
written=()
for file in "$@"; do
    base="$(basename "$file")"; stem="${base%.*}"; ext="${base##*.}"
    # Relative references (textures, Inlines) resolve beside the original: write next to a copy of
    # its folder's files.
    dir="$OUT/written/$stem.from-$ext"; mkdir -p "$dir"
    cp -r "$(dirname "$file")"/. "$dir"/ 2>/dev/null
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
