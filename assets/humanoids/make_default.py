#!/usr/bin/env python3
"""Generates default.x3d: the viewer's own small skinned humanoid ("Tube"), written for this project.

Every part is an 8-sided tube between two joint centres (BASIC skeletal configuration: joints carry only
`center`, skin built in place). Rings at a joint blend half-and-half between the two joints that meet
there, so limbs bend smoothly. Two joint displacers and three viewpoint sites exercise the panels.

Run: python3 assets/humanoids/make_default.py > assets/humanoids/default.x3d
"""
import math

JOINTS = {  # name: (parent, centre)
    "humanoid_root": (None, (0, 0.95, 0)),
    "sacroiliac": ("humanoid_root", (0, 0.95, 0)),
    "l_hip": ("sacroiliac", (0.1, 0.92, 0)),
    "l_knee": ("l_hip", (0.1, 0.5, 0.01)),
    "l_ankle": ("l_knee", (0.1, 0.09, 0)),
    "r_hip": ("sacroiliac", (-0.1, 0.92, 0)),
    "r_knee": ("r_hip", (-0.1, 0.5, 0.01)),
    "r_ankle": ("r_knee", (-0.1, 0.09, 0)),
    "vl5": ("humanoid_root", (0, 1.02, 0)),
    "vc7": ("vl5", (0, 1.45, 0)),
    "skullbase": ("vc7", (0, 1.56, 0)),
    "l_shoulder": ("vc7", (0.19, 1.43, 0)),
    "l_elbow": ("l_shoulder", (0.22, 1.15, -0.01)),
    "l_wrist": ("l_elbow", (0.24, 0.9, 0.01)),
    "r_shoulder": ("vc7", (-0.19, 1.43, 0)),
    "r_elbow": ("r_shoulder", (-0.22, 1.15, -0.01)),
    "r_wrist": ("r_elbow", (-0.24, 0.9, 0.01)),
}
ORDER = list(JOINTS)
LIMITS = {  # radians about X, Y, Z of the joint frame (llimit, ulimit)
    "l_elbow": ((-2.6, -0.2, -0.01), (0.0, 0.2, 0.01)),
    "r_elbow": ((-2.6, -0.2, -0.01), (0.0, 0.2, 0.01)),
    "l_knee": ((0.0, -0.1, -0.01), (2.5, 0.1, 0.01)),
    "r_knee": ((0.0, -0.1, -0.01), (2.5, 0.1, 0.01)),
    "skullbase": ((-0.6, -1.2, -0.5), (0.6, 1.2, 0.5)),
}

# Tubes: (joint that drives it, joint blended at the start ring or None, start, end, radius start, end,
#         depth scale (z radius / x radius), rings)
def c(name):
    return JOINTS[name][1]

def lerp(a, b, t):
    return tuple(a[i] + (b[i] - a[i]) * t for i in range(3))

TUBES = [
    ("sacroiliac", None, (0, 0.84, 0), (0, 1.02, 0), 0.15, 0.15, 0.7, 3),
    ("vl5", "sacroiliac", (0, 1.02, 0), c("vc7"), 0.15, 0.19, 0.6, 5),
    ("vc7", "vl5", c("vc7"), c("skullbase"), 0.05, 0.05, 1.0, 2),
    ("skullbase", "vc7", c("skullbase"), (0, 1.80, 0.0), 0.075, 0.07, 1.05, 6),
]
for side, s in (("l", 1), ("r", -1)):
    TUBES += [
        (f"{side}_shoulder", "vc7", lerp(c("vc7"), c(f"{side}_shoulder"), 0.5), c(f"{side}_elbow"), 0.055, 0.045, 1.0, 4),
        (f"{side}_elbow", f"{side}_shoulder", c(f"{side}_elbow"), c(f"{side}_wrist"), 0.045, 0.035, 1.0, 4),
        (f"{side}_wrist", f"{side}_elbow", c(f"{side}_wrist"), (0.25 * s, 0.76, 0.02), 0.035, 0.025, 0.55, 3),
        (f"{side}_hip", "sacroiliac", c(f"{side}_hip"), c(f"{side}_knee"), 0.075, 0.055, 1.0, 4),
        (f"{side}_knee", f"{side}_hip", c(f"{side}_knee"), c(f"{side}_ankle"), 0.055, 0.04, 1.0, 4),
        (f"{side}_ankle", f"{side}_knee", (0.1 * s, 0.09, -0.03), (0.1 * s, 0.04, 0.16), 0.045, 0.04, 0.8, 3),
    ]

SIDES = 8
points = []
weights = {j: [] for j in ORDER}  # joint -> [(point, weight)]
faces = []
head_rings = []

def add_point(p, influences):
    points.append(p)
    i = len(points) - 1
    for j, w in influences:
        weights[j].append((i, w))
    return i

def head_radius(t):
    # A rounder head: a sphere-like profile along the tube.
    return math.sin(math.pi * (0.08 + 0.84 * t)) ** 0.6

for joint, blend, a, b, ra, rb, depth, rings in TUBES:
    axis = [b[i] - a[i] for i in range(3)]
    length = math.sqrt(sum(x * x for x in axis))
    d = [x / length for x in axis]
    # Two unit vectors across the tube: u near world X, v near world Z.
    ref = (0, 0, 1) if abs(d[2]) < 0.9 else (1, 0, 0)
    u = (d[1] * ref[2] - d[2] * ref[1], d[2] * ref[0] - d[0] * ref[2], d[0] * ref[1] - d[1] * ref[0])
    ul = math.sqrt(sum(x * x for x in u))
    u = tuple(x / ul for x in u)
    v = (d[1] * u[2] - d[2] * u[1], d[2] * u[0] - d[0] * u[2], d[0] * u[1] - d[1] * u[0])
    ring_start = []
    for r in range(rings + 1):
        t = r / rings
        centre = lerp(a, b, t)
        radius = ra + (rb - ra) * t
        if joint == "skullbase":
            radius = 0.1 * head_radius(t)
        infl = [(joint, 1.0)] if (r > 0 or blend is None) else [(joint, 0.5), (blend, 0.5)]
        first = len(points)
        for k in range(SIDES):
            ang = 2 * math.pi * k / SIDES
            cu, cv = math.cos(ang) * radius, math.sin(ang) * radius * depth
            p = tuple(round(centre[i] + u[i] * cu + v[i] * cv, 4) for i in range(3))
            add_point(p, infl)
        ring_start.append(first)
        if joint == "skullbase":
            head_rings.append(first)
    for r in range(rings):
        for k in range(SIDES):
            k2 = (k + 1) % SIDES
            p00, p01 = ring_start[r] + k, ring_start[r] + k2
            p10, p11 = ring_start[r + 1] + k, ring_start[r + 1] + k2
            faces.append((p00, p10, p11, p01))
    # Caps.
    cap_a = add_point(tuple(round(x, 4) for x in a), [(joint, 0.5), (blend, 0.5)] if blend else [(joint, 1.0)])
    cap_b = add_point(tuple(round(x, 4) for x in b), [(joint, 1.0)])
    for k in range(SIDES):
        k2 = (k + 1) % SIDES
        faces.append((cap_a, ring_start[0] + k2, ring_start[0] + k))
        faces.append((cap_b, ring_start[-1] + k, ring_start[-1] + k2))

# Fix winding so every face points away from its tube's axis (outward): decided numerically.
def sub(p, q):
    return tuple(p[i] - q[i] for i in range(3))

def cross(p, q):
    return (p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0])

def dot(p, q):
    return sum(p[i] * q[i] for i in range(3))

# Displacers: the front of the head (nose) and the belly.
nose = [i for i in range(len(points)) if any(w for j, w in [(j, w) for j in ["skullbase"] for (pi, w) in weights[j] if pi == i])
        and points[i][2] > 0.06 and 1.62 < points[i][1] < 1.72]
belly = [pi for (pi, w) in weights["vl5"] if points[pi][2] > 0.05 and 1.05 < points[pi][1] < 1.3]

def fmt(p):
    return " ".join(f"{x:g}" for x in p)

out = []
w = out.append
w("<?xml version='1.0' encoding='UTF-8'?>")
w("<!DOCTYPE X3D PUBLIC 'ISO//Web3D//DTD X3D 4.0//EN' 'https://www.web3d.org/specifications/x3d-4.0.dtd'>")
w("<X3D profile='Immersive' version='4.0'>")
w("  <head>")
w("    <component level='1' name='HAnim'/>")
w("    <meta name='title' content='default.x3d'/>")
w("    <meta name='description' content='Tube: the small default humanoid of hanim-viewer, generated by make_default.py.'/>")
w("    <meta name='creator' content='hanim-viewer contributors'/>")
w("    <meta name='license' content='CC0-1.0 (public domain dedication)'/>")
w("  </head>")
w("  <Scene>")
w("    <WorldInfo title='Tube, the hanim-viewer default humanoid'/>")
w("    <HAnimHumanoid DEF='hanim_Tube' name='hanim' version='2.0' loa='-1' skeletalConfiguration='BASIC'")
w("        info='\"authorName=hanim-viewer contributors\" \"copyright=CC0-1.0\" \"usageRestrictions=none\"'>")

children = {j: [k for k in ORDER if JOINTS[k][0] == j] for j in ORDER}
disp = {
    "skullbase": ("hanim_skullbase_nose_feature", nose, (0, -0.005, 0.035)),
    "vl5": ("hanim_vl5_belly_config", belly, (0, 0, 0.05)),
}

def joint_xml(j, indent, field):
    pad = " " * indent
    idx = " ".join(str(p) for p, _ in weights[j])
    wt = " ".join(f"{x:g}" for _, x in weights[j])
    limits = ""
    if j in LIMITS:
        lo, hi = LIMITS[j]
        limits = f" llimit='{fmt(lo)}' ulimit='{fmt(hi)}'"
    cf = f" containerField='{field}'" if field else ""
    w(f"{pad}<HAnimJoint DEF='hanim_{j}' name='{j}' center='{fmt(JOINTS[j][1])}'{limits}{cf} skinCoordIndex='{idx}' skinCoordWeight='{wt}'>")
    if j in disp:
        name, pts, delta = disp[j]
        w(f"{pad}  <HAnimDisplacer DEF='{name}' name='{name}' containerField='displacers' weight='0' coordIndex='{' '.join(map(str, pts))}' displacements='{', '.join(fmt(delta) for _ in pts)}'/>")
    if j == "skullbase":
        w(f"{pad}  <HAnimSegment DEF='hanim_skull' name='skull'>")
        for side, s in (("l", 1), ("r", -1)):
            label = "Left eye" if side == "l" else "Right eye"
            w(f"{pad}    <HAnimSite DEF='hanim_{side}_eye_view' name='{side}_eye_view' translation='{0.035 * s:g} 1.69 0.1'>")
            w(f"{pad}      <Viewpoint DEF='hanim_{'Left' if side == 'l' else 'Right'}EyeView' description='{label}' orientation='0 1 0 3.14159' fieldOfView='1.0'/>")
            w(f"{pad}    </HAnimSite>")
        w(f"{pad}  </HAnimSegment>")
    for k in children[j]:
        joint_xml(k, indent + 2, None)
    w(f"{pad}</HAnimJoint>")

joint_xml("humanoid_root", 6, "skeleton")
for j in ORDER:
    w(f"      <HAnimJoint USE='hanim_{j}' containerField='joints'/>")
w("      <HAnimSite DEF='hanim_front_view' name='front_view' containerField='viewpoints' translation='0 1.1 3.2'>")
w("        <Viewpoint DEF='hanim_FrontView' description='Front (site)'/>")
w("      </HAnimSite>")
w("      <Shape DEF='hanim_skin_shape' containerField='skin'>")
w("        <Appearance>")
w("          <Material diffuseColor='0.86 0.62 0.45' specularColor='0.2 0.2 0.2' shininess='0.2'/>")
w("        </Appearance>")
ci = " ".join(" ".join(map(str, f)) + " -1" for f in faces)
w(f"        <IndexedFaceSet DEF='hanim_skin_faces' creaseAngle='1.2' solid='false' coordIndex='{ci}'>")
w(f"          <Coordinate DEF='hanim_skinCoord' point='{', '.join(fmt(p) for p in points)}'/>")
w("        </IndexedFaceSet>")
w("      </Shape>")
w("      <Coordinate USE='hanim_skinCoord' containerField='skinCoord'/>")
w("    </HAnimHumanoid>")
w("  </Scene>")
w("</X3D>")
print("\n".join(out))
