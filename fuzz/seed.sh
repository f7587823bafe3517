#!/usr/bin/env bash
# Builds fuzz/seeds from the project's test files and the shared corpus (files under 300 kB), so the
# fuzzers start from real humanoids and known-bad inputs. Run from anywhere.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$here/seeds"
cp "$here"/../tests/data/*.x3d "$here"/../tests/data/bad/*.x3d "$here/seeds/"
for f in "$here"/../../shared/corpus/x3d/*.x3d; do
    if [ "$(stat -c %s "$f")" -lt 300000 ]; then cp "$f" "$here/seeds/"; fi
done
# The exponential-USE files are refused after 2,000,000 node instances: 0.25 s in a release build but
# tens of seconds under AddressSanitizer, which would stall every fuzzing run at its start. They are
# covered by tests/bad_inputs.rs.
rm -f "$here"/seeds/use_exponential_*.x3d
ls "$here/seeds" | wc -l
