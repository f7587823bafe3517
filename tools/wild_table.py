#!/usr/bin/env python3
"""The survey table of docs/wild.md, from a collection manifest and two tools/fidelity.sh runs.

usage: tools/wild_table.py MANIFEST.json COLLECTION_DIR XITE_TABLE.md V3D_TABLE.md [REASONS.json]

MANIFEST.json lists the files (`files`: local_file, repository, licence, encoding, ...), their paths
relative to COLLECTION_DIR. XITE_TABLE.md and V3D_TABLE.md are the Markdown tables tools/fidelity.sh
printed against X_ITE and view3dscene. REASONS.json maps a file name to {"peer": "x_ite"|"view3dscene",
"reason": "..."}: which peer follows the standard for that file, and why it is not the default (X_ITE)
or why the target is not met (with the clause); a reason saying "not yet" marks a file still open. `target/release/hanim-viewer info --json` gives whether
each file loads, its joints and skin points. Prints the table and a summary.
"""
import json
import os
import subprocess
import sys

IOU_TARGET = 0.97
COLOUR_TARGET = 15.0


def fidelity_rows(path):
    """name -> (iou_1px, colour) or a failure string, from a tools/fidelity.sh table."""
    rows = {}
    if not os.path.exists(path):
        return rows
    for line in open(path, encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 5 or cells[0] in ("file", "---"):
            continue
        name = cells[0]
        try:
            rows[name] = (float(cells[3]), float(cells[4]))
        except ValueError:
            rows[name] = cells[2] or "failed"
    return rows


def output_name(local_file):
    base = os.path.basename(local_file)
    stem, ext = os.path.splitext(base)
    return f"{stem}_{ext[1:]}"


def info(binary, path):
    run = subprocess.run([binary, "info", "--json", path], capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["failed"])[-1]
        return None, last.replace("|", "\\|")[:110]
    data = json.loads(run.stdout)
    humanoids = data.get("humanoids", [])
    joints = sum(h["counts"]["joints"] for h in humanoids)
    skin = sum(h["counts"]["skin_points"] for h in humanoids)
    return (len(humanoids), joints, skin), None


def cell(value):
    if value is None:
        return "—"
    if isinstance(value, str):
        return value.replace("|", "\\|")[:60]
    return f"{value[0]:.4f} / {value[1]:.1f}"


def meets(value):
    return isinstance(value, tuple) and value[0] >= IOU_TARGET and value[1] <= COLOUR_TARGET


def main():
    manifest, collection, xite_md, v3d_md = sys.argv[1:5]
    reasons = json.load(open(sys.argv[5], encoding="utf-8")) if len(sys.argv) > 5 else {}
    binary = os.environ.get("HANIM_VIEWER", "target/release/hanim-viewer")
    files = json.load(open(manifest, encoding="utf-8"))["files"]
    xite, v3d = fidelity_rows(xite_md), fidelity_rows(v3d_md)
    print("| file | repository | licence | encoding | loads | humanoids / joints / skin points "
          "| X_ITE (IoU 1 px / colour) | view3dscene | peer that follows the standard | verdict |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    loaded = met = explained = 0
    for entry in files:
        local = entry["local_file"]
        name = output_name(local)
        counts, error = info(binary, os.path.join(collection, local))
        reason = reasons.get(name, {})
        peer = reason.get("peer", "x_ite")
        x, v = xite.get(name), v3d.get(name)
        against = x if peer == "x_ite" else v
        if counts is None:
            verdict = f"does not load: {error}"
            loads = "no"
        else:
            loaded += 1
            loads = "yes"
            if meets(against):
                met += 1
                verdict = "meets the target"
            elif reason.get("reason") and "not yet" not in reason["reason"]:
                explained += 1
                verdict = reason["reason"]
            elif reason.get("reason"):
                verdict = f"**open**: {reason['reason']}"
            else:
                verdict = "**below the target, no reason yet**"
        counts_cell = "—" if counts is None else f"{counts[0]} / {counts[1]} / {counts[2]}"
        print(f"| {os.path.basename(local)} | {entry['repository']} | {entry['licence']} | {entry['encoding']} "
              f"| {loads} | {counts_cell} | {cell(x)} | {cell(v)} | {peer.replace('_', ' ')} | {verdict} |")
    total = len(files)
    print()
    print(f"{total} files; {loaded} load ({100 * loaded / total:.0f} %); of those, {met} reach IoU within 1 px "
          f"≥ {IOU_TARGET} and colour difference ≤ {COLOUR_TARGET:g} against the peer that follows the standard, "
          f"{explained} have a stated reason, {loaded - met - explained} are open (below the target, cause not yet "
          f"established).")


if __name__ == "__main__":
    main()
