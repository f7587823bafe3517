#!/usr/bin/env python3
"""Writes a crowd as files make one: N Transforms in a grid, each an Inline of the same humanoid file,
with one Viewpoint that sees them all. BENCHMARKS.md's crowd rows are measured on such files.

usage: tools/crowd_file.py HUMANOID N SPACING OUT.x3d
The Inline's url is HUMANOID relative to OUT's folder (so the crowd opens wherever both files are)."""
import math
import os
import sys

if len(sys.argv) != 5:
    sys.exit(__doc__)
humanoid, count, spacing, out = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
url = os.path.relpath(os.path.abspath(humanoid), os.path.dirname(os.path.abspath(out)))
columns = max(1, math.ceil(math.sqrt(count)))
rows = math.ceil(count / columns)
lines = [
    "<?xml version='1.0' encoding='UTF-8'?>",
    "<X3D profile='Immersive' version='4.0'>",
    "  <head>",
    "    <component level='1' name='HAnim'/>",
    f"    <meta name='description' content='{count} Inlines of {os.path.basename(humanoid)}'/>",
    "  </head>",
    "  <Scene>",
    f"    <Viewpoint description='crowd' position='0 {1.0 + 0.2 * rows * spacing:.2f} {columns * spacing * 1.2 + 2.5:.2f}'"
    " orientation='1 0 0 -0.15'/>",
]
for k in range(count):
    x = (k % columns - (columns - 1) / 2) * spacing
    z = -(k // columns) * spacing
    lines.append(f"    <Transform translation='{x:.3f} 0 {z:.3f}'><Inline url='\"{url}\"'/></Transform>")
lines += ["  </Scene>", "</X3D>"]
with open(out, "w", encoding="utf-8") as f:
    f.write("\n".join(lines) + "\n")
