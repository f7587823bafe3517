//! Viewpoints of every kind on corpus files: where `views` places them at rest and at a pose (compared
//! with global transforms worked out by hand), eye and face cameras that follow a turned head, and the
//! H-Anim 1.0 eye views under skullbase.

mod common;

test_main!(
    viewpoint_sites_of_the_hanim2_specification_model_sit_at_their_site_transforms,
    a_viewpoint_in_a_transform_inside_a_skeleton_site_follows_the_site_and_its_joint,
    every_corpus_file_with_viewpoint_sites_lists_them_once_each,
    an_eye_view_looks_the_way_a_head_turned_90_degrees_faces,
    the_computed_face_view_follows_a_turned_head,
    hanim1_eye_and_face_viewpoints_under_skullbase_follow_the_head,
    computed_views_frame_the_figure_not_the_camera_markers,
    each_humanoid_of_a_file_has_its_own_computed_views_in_its_own_orientation,
    render_finds_views_by_computed_name_description_or_def,
    a_file_viewpoint_named_like_a_computed_view_wins_and_the_prefix_reaches_the_computed_one,
    grouping_transforms_in_the_viewpoints_field_place_sites_and_bare_viewpoints
);

use std::f32::consts::{FRAC_PI_2, PI};

use glam::{Mat4, Quat, Vec3};
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::pose::{self, Pose};
use hanim_viewer::views::{
    self, PoseContext, ResolvedView, StandardView, ViewKind, ViewPlacement, ViewSource, figure_bounds, humanoid_views,
    placement,
};

const TOLERANCE: f32 = 1e-4;

fn load(name: &str) -> Document {
    let path = common::corpus(&format!("x3d/{name}"));
    hanim::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn listed(name: &str) -> Vec<ResolvedView> {
    hanim_viewer::commands::views::report(&common::corpus(&format!("x3d/{name}")))
        .unwrap_or_else(|e| panic!("{name}: {e:#}"))
        .views
}

fn find<'a>(views: &'a [ResolvedView], def: &str) -> &'a ResolvedView {
    views.iter().find(|v| v.def.as_deref() == Some(def)).unwrap_or_else(|| {
        let defs: Vec<_> = views.iter().filter_map(|v| v.def.as_deref()).collect();
        panic!("no view with DEF {def}; views: {defs:?}")
    })
}

/// The placement of `source` of humanoid 0 at `pose`.
fn place(doc: &Document, pose: &Pose, source: ViewSource) -> ViewPlacement {
    let h = &doc.humanoids[0];
    let g = pose::humanoid_from_joint(h, pose);
    let figure = figure_bounds(doc, hanim_viewer::hanim::HumanoidIndex(0), pose).unwrap();
    let world_from_humanoid = doc.humanoids[0].world_from_humanoid();
    let ctx = PoseContext {
        doc,
        humanoid: hanim_viewer::hanim::HumanoidIndex(0),
        humanoid_from_joint: &g,
        world_from_humanoid,
        figure: &figure,
        aspect: 1.0,
    };
    placement(&ctx, source).unwrap_or_else(|| panic!("{source:?} cannot be placed"))
}

fn source_of(doc: &Document, def: &str) -> ViewSource {
    humanoid_views(doc, 0)
        .into_iter()
        .find(|v| v.def.as_deref() == Some(def))
        .unwrap_or_else(|| panic!("no view with DEF {def}"))
        .source
}

fn viewpoint_sites_of_the_hanim2_specification_model_sit_at_their_site_transforms() {
    // 14 sites declared in `viewpoints` and 4 skeleton sites (eyes, hands) USEd there: all evaluated
    // with the humanoid transform only (identity here), so each camera is at its site's translation.
    let views = listed("HAnim2SpecificationLOA3Illustrated.x3d");
    let sites: Vec<&ResolvedView> =
        views.iter().filter(|v| matches!(v.kind, ViewKind::ViewpointSite | ViewKind::SkeletonSite)).collect();
    assert_eq!(sites.len(), 18, "{:#?}", sites.iter().map(|v| &v.label).collect::<Vec<_>>());
    for (def, position) in [
        ("hanim_front_viewpoint", Vec3::new(0.0, 0.85, 2.58)),
        ("hanim_l_inclined_viewpoint", Vec3::new(1.62, 1.05, 2.06)),
        ("hanim_Top_viewpoint", Vec3::new(0.0, 3.5, 0.0)),
        ("hanim_eye_level_viewpoint", Vec3::new(0.0, 1.6332, 0.0502)),
        ("hanim_l_eyeball_site_viewpoint", Vec3::new(0.034, 1.64, 0.05)),
        ("hanim_r_hand_front_viewpoint", Vec3::new(-0.3, 0.75, 0.45)),
    ] {
        let v = find(&views, def);
        assert!(Vec3::from(v.position).abs_diff_eq(position, TOLERANCE), "{def}: {:?}", v.position);
    }
    // Orientations: the Top site is `1 0 0 −1.57` (looks down), the eye Viewpoint turns π about Y
    // (looks out of the face, +Z), the side site `0 1 0 1.5708` looks down −X.
    for (def, direction) in [
        ("hanim_Top_viewpoint", -Vec3::Y),
        ("hanim_l_eyeball_site_viewpoint", Vec3::Z),
        ("hanim_l_side_viewpoint", -Vec3::X),
        ("hanim_front_viewpoint", -Vec3::Z),
    ] {
        let v = find(&views, def);
        assert!(Vec3::from(v.direction).abs_diff_eq(direction, 1e-3), "{def}: {:?}", v.direction);
    }
    // The eye and hand sites sit in the skeleton and are USEd in `viewpoints`: listed once, fixed to
    // the humanoid (semantics note §5 decision).
    let eye = find(&views, "hanim_l_eyeball_site_viewpoint");
    assert_eq!(eye.kind, ViewKind::ViewpointSite);
    assert_eq!(eye.follows_joint, None);
    assert!(eye.origin.contains("listed in `viewpoints`"), "{}", eye.origin);
    assert_eq!(find(&views, "hanim_front_viewpoint").kind, ViewKind::ViewpointSite);
    // The nine scene Viewpoints and the five computed views are listed too.
    assert_eq!(views.iter().filter(|v| v.kind == ViewKind::SceneViewpoint).count(), 9);
    let computed: Vec<&str> = views.iter().filter(|v| v.kind == ViewKind::Computed).map(|v| v.label.as_str()).collect();
    assert_eq!(computed, ["Front", "Side", "Top", "Inclined", "Face"]);
}

fn a_viewpoint_in_a_transform_inside_a_skeleton_site_follows_the_site_and_its_joint() {
    // JoeKick: humanoid_root (centre 0 0.875 0) > sacrum > site RootFront_view (no transform) >
    // Transform scale 0.175 > Viewpoint with the default position 0 0 10. By hand at rest:
    // H = I, G_root = I, so the camera is at S(0.175)·(0, 0, 10) = (0, 0, 1.75), looking down −Z.
    let doc = load("JoeKick.x3d");
    let views = listed("JoeKick.x3d");
    let root_view = find(&views, "ViewBodyRootAxes");
    assert_eq!(root_view.kind, ViewKind::SkeletonSite);
    assert_eq!(root_view.follows_joint.as_deref(), Some("humanoid_root"));
    assert!(Vec3::from(root_view.position).abs_diff_eq(Vec3::new(0.0, 0.0, 1.75), TOLERANCE), "{root_view:?}");
    assert!(Vec3::from(root_view.direction).abs_diff_eq(-Vec3::Z, TOLERANCE));

    // Turn the root 90° about +Y: G = T(c)·R_y(90°)·T(−c), so the camera goes to
    // c + R_y(90°)·((0, 0, 1.75) − c) = (1.75, 0.875 − 0.875, 0) + (0, 0.875, 0)... worked out:
    // (0, 0, 1.75) − (0, 0.875, 0) = (0, −0.875, 1.75); R_y(90°) maps (x, y, z) to (z, y, −x), giving
    // (1.75, −0.875, 0); adding c gives (1.75, 0, 0). It now looks down −X.
    let h = &doc.humanoids[0];
    let root = h.joint_index("humanoid_root").unwrap();
    let mut pose = Pose::rest(h);
    pose.rotation_offsets[root] = Quat::from_rotation_y(FRAC_PI_2);
    let turned = place(&doc, &pose, source_of(&doc, "ViewBodyRootAxes"));
    assert!(turned.position().abs_diff_eq(Vec3::new(1.75, 0.0, 0.0), TOLERANCE), "{:?}", turned.position());
    assert!(turned.forward().abs_diff_eq(-Vec3::X, TOLERANCE), "{:?}", turned.forward());
    // The site's Transform scale moves the camera but does not scale its frame.
    let (scale, _, _) = turned.world_from_camera.to_scale_rotation_translation();
    assert!(scale.abs_diff_eq(Vec3::ONE, 1e-5), "{scale:?}");

    // The scene Viewpoints are placed as written.
    let top = find(&views, "Scene_TopView");
    assert_eq!(top.kind, ViewKind::SceneViewpoint);
    assert!(Vec3::from(top.position).abs_diff_eq(Vec3::new(0.0, 3.5, 0.0), TOLERANCE));
}

fn every_corpus_file_with_viewpoint_sites_lists_them_once_each() {
    // (file, viewpoint sites per MANIFEST.md) — each holds at least one Viewpoint.
    for (file, sites) in [
        ("HAnim2SpecificationLOA3Illustrated.x3d", 18),
        ("NancyNativeTags.x3d", 1),
        ("AllenDutton.x3d", 1),
        ("DiamondManLOA0.x3d", 1),
        ("DiamondManLOA1.x3d", 1),
        ("DiamondManLOA2.x3d", 1),
        ("Pirouette.x3d", 1),
    ] {
        if !common::corpus_listed(&format!("x3d/{file}")) {
            continue;
        }
        let doc = load(file);
        let h = &doc.humanoids[0];
        let in_viewpoints: Vec<usize> = (0..h.sites.len()).filter(|&s| h.sites[s].in_viewpoints).collect();
        assert_eq!(in_viewpoints.len(), sites, "{file}");
        let views = humanoid_views(&doc, 0);
        for s in in_viewpoints {
            let cameras = h.sites[s].cameras.len();
            assert!(cameras >= 1, "{file}: site {} has no Viewpoint", h.sites[s].name);
            let listed =
                views.iter().filter(|v| matches!(v.source, ViewSource::Site { site, .. } if site == s)).count();
            assert_eq!(listed, cameras, "{file}: site {}", h.sites[s].name);
            // Fixed to the humanoid: the camera is at H·offset·L(site)·T(position).
            let rest = Pose::rest(h);
            for c in 0..cameras {
                let site = &h.sites[s];
                let held = &site.cameras[c];
                let expected = (h.world_from_humanoid() * site.offset * site.transform.matrix() * held.offset)
                    .transform_point3(held.viewpoint.position);
                let p = place(&doc, &rest, ViewSource::Site { site: s, camera: c });
                assert!(p.position().abs_diff_eq(expected, 1e-3), "{file}: {} at {:?}", site.name, p.position());
            }
        }
    }
    // Nancy's one viewpoint site holds the four H-Anim 1.x standard views.
    if common::find_corpus("x3d/NancyNativeTags.x3d").is_none() {
        return; // reported above
    }
    let nancy = listed("NancyNativeTags.x3d");
    for def in ["FrontView", "SideView", "TopView", "InclinedView"] {
        assert!(find(&nancy, def).origin.contains("H-Anim 1.0 standard"), "{def}");
    }
}

fn an_eye_view_looks_the_way_a_head_turned_90_degrees_faces() {
    // The test fixture's eye site hangs in the skull segment (not in `viewpoints`), so it follows
    // skullbase (centre 0 1.6 0); the site is at (0.03, 1.7, 0.08) and its Viewpoint has the default
    // orientation (looking down −Z).
    let doc = hanim::load(&common::test_data("../ui_fixture.x3d")).unwrap();
    let h = &doc.humanoids[0];
    let skullbase = h.joint_index("skullbase").unwrap();
    let entries = humanoid_views(&doc, 0);
    let eye_entry = entries.iter().find(|v| v.def.as_deref() == Some("hanim_LeftEyeView")).unwrap();
    assert_eq!(eye_entry.kind, ViewKind::SkeletonSite);
    assert_eq!(eye_entry.follows_joint, Some(skullbase));
    let eye = eye_entry.source;
    let rest = Pose::rest(h);
    let at_rest = place(&doc, &rest, eye);
    assert!(at_rest.forward().abs_diff_eq(-Vec3::Z, 1e-4), "{:?}", at_rest.forward());
    assert!(at_rest.position().abs_diff_eq(Vec3::new(0.03, 1.7, 0.08), TOLERANCE));
    let mut turned_pose = rest.clone();
    // Turn the head 90° about +Y: everything the camera sees turns with it, −Z becomes −X.
    turned_pose.rotation_offsets[skullbase] = Quat::from_rotation_y(FRAC_PI_2);
    let turned = place(&doc, &turned_pose, eye);
    assert!(turned.forward().abs_diff_eq(-Vec3::X, 1e-4), "{:?}", turned.forward());
    // By hand: c + R_y(90°)·(eye − c), c = (0, 1.6, 0): (0.03, 0.1, 0.08) turns to (0.08, 0.1, −0.03).
    assert!(turned.position().abs_diff_eq(Vec3::new(0.08, 1.7, -0.03), TOLERANCE), "{:?}", turned.position());
    // Camera up stays up.
    assert!(turned.world_from_camera.transform_vector3(Vec3::Y).abs_diff_eq(Vec3::Y, 1e-4));
    // The listing reports the turned placement too.
    let listed = views::resolve_document_views(&doc, std::slice::from_ref(&turned_pose), 1.0).unwrap();
    let v = listed.iter().find(|v| v.def.as_deref() == Some("hanim_LeftEyeView")).unwrap();
    assert!(Vec3::from(v.direction).abs_diff_eq(-Vec3::X, 1e-4));
}

fn the_computed_face_view_follows_a_turned_head() {
    let doc = load("HAnim2SpecificationLOA3Illustrated.x3d");
    let h = &doc.humanoids[0];
    let skullbase = h.joint_index("skullbase").unwrap();
    let c = h.joints[skullbase].rest.center;
    let rest = Pose::rest(h);
    let face_rest = place(&doc, &rest, ViewSource::Standard(StandardView::Face));
    assert!(face_rest.forward().abs_diff_eq(-Vec3::Z, 1e-3));
    assert!(face_rest.position().z > c.z && (face_rest.position().y - c.y).abs() < 0.2, "{:?}", face_rest.position());
    let mut turned_pose = rest.clone();
    turned_pose.rotation_offsets[skullbase] = Quat::from_rotation_y(FRAC_PI_2);
    // The face now points along +X: the camera looks at it from the +X side.
    let face = place(&doc, &turned_pose, ViewSource::Standard(StandardView::Face));
    assert!(face.forward().abs_diff_eq(-Vec3::X, 1e-3), "{:?}", face.forward());
    assert!(face.position().x > c.x + 0.1, "{:?}", face.position());
}

/// An H-Anim 1.0 style head: the eye and face Viewpoints are children of skullbase, the standard views
/// in a `Viewpoints` group in the scene.
const HANIM1_HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<X3D profile='Immersive' version='3.3'>
  <Scene>
    <Group DEF='Viewpoints'>
      <Viewpoint DEF='FrontView' description='FrontView' position='0 1 3'/>
      <Viewpoint DEF='TopView' description='TopView' orientation='1 0 0 -1.5708' position='0 4 0'/>
    </Group>
    <HAnimHumanoid DEF='hanim_Head' name='hanim'>
      <HAnimJoint DEF='hanim_HumanoidRoot' name='HumanoidRoot' center='0 1 0' containerField='skeleton'>
        <HAnimJoint DEF='hanim_skullbase' name='skullbase' center='0 1.5 0'>
          <HAnimSegment name='skull'>
            <Shape><IndexedFaceSet coordIndex='0 1 2 -1'><Coordinate point='-0.1 1.5 0 0.1 1.5 0 0 1.7 0.1'/></IndexedFaceSet></Shape>
          </HAnimSegment>
          <Viewpoint DEF='hanim_LeftEyeView' description='hanim_LeftEyeView' position='0.03 1.6 0.1' orientation='0 1 0 3.14159'/>
          <Transform translation='0 1.6 0.5'>
            <Viewpoint DEF='hanim_FaceView' description='hanim_FaceView'/>
          </Transform>
        </HAnimJoint>
      </HAnimJoint>
    </HAnimHumanoid>
  </Scene>
</X3D>
"#;

fn hanim1_eye_and_face_viewpoints_under_skullbase_follow_the_head() {
    let doc = hanim::load_str(HANIM1_HEAD, std::path::Path::new("hanim1_head.x3d")).unwrap();
    let h = &doc.humanoids[0];
    assert_eq!(h.joint_viewpoints.len(), 2);
    let entries = humanoid_views(&doc, 0);
    let eye = entries.iter().find(|v| v.def.as_deref() == Some("hanim_LeftEyeView")).unwrap();
    assert_eq!(eye.kind, ViewKind::JointViewpoint);
    assert!(eye.origin.contains("H-Anim 1.0 left eye view") && eye.origin.contains("skullbase"), "{}", eye.origin);
    assert_eq!(eye.follows_joint, h.joint_index("skullbase"));
    let front = entries.iter().find(|v| v.def.as_deref() == Some("FrontView")).unwrap();
    assert!(front.origin.contains("H-Anim 1.0 standard front view"), "{}", front.origin);

    let rest = Pose::rest(h);
    let face = place(&doc, &rest, source_of(&doc, "hanim_FaceView"));
    assert!(face.position().abs_diff_eq(Vec3::new(0.0, 1.6, 0.5 + 10.0), TOLERANCE), "{:?}", face.position());
    let mut pose = rest.clone();
    pose.rotation_offsets[h.joint_index("skullbase").unwrap()] = Quat::from_rotation_y(-FRAC_PI_2);
    let eye_turned = place(&doc, &pose, eye.source);
    // Turned to its right (−90° about Y): the eye, looking +Z at rest, now looks along −X.
    assert!(eye_turned.forward().abs_diff_eq(-Vec3::X, 1e-3), "{:?}", eye_turned.forward());
    let c = Vec3::new(0.0, 1.5, 0.0);
    let expected = c + Quat::from_rotation_y(-FRAC_PI_2) * (Vec3::new(0.03, 1.6, 0.1) - c);
    assert!(eye_turned.position().abs_diff_eq(expected, TOLERANCE));
    // Identity check on the whole matrix: H·G_skullbase·T(position)·R(orientation).
    let g = pose::humanoid_from_joint(h, &pose)[h.joint_index("skullbase").unwrap()];
    let by_hand = g * Mat4::from_rotation_translation(Quat::from_rotation_y(PI), Vec3::new(0.03, 1.6, 0.1));
    assert!(eye_turned.world_from_camera.abs_diff_eq(by_hand, 1e-3));
}

fn computed_views_frame_the_figure_not_the_camera_markers() {
    // The specification model's viewpoint sites carry markers up to 3.5 m away; the computed views
    // frame the body only (about 1.8 m tall), so the front camera stands within 4 m of it.
    let doc = load("HAnim2SpecificationLOA3Illustrated.x3d");
    let h = &doc.humanoids[0];
    let figure = figure_bounds(&doc, hanim_viewer::hanim::HumanoidIndex(0), &Pose::rest(h)).unwrap();
    assert!(figure.size().y > 1.5 && figure.size().y < 2.0, "{figure:?}");
    assert!(figure.size().z < 1.0, "{figure:?}");
    let front = place(&doc, &Pose::rest(h), ViewSource::Standard(StandardView::Front));
    assert!(front.position().z < 4.0, "{:?}", front.position());
    assert!(views::head_joint(h).is_some());
}

/// Two humanoids, the second moved 2 m along +X and turned to face +X: each has its own computed views.
const TWO_HUMANOIDS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<X3D profile='Immersive' version='4.0'>
  <Scene>
    <HAnimHumanoid DEF='a_Humanoid' name='a'>
      <HAnimJoint name='humanoid_root' center='0 1 0' containerField='skeleton'>
        <HAnimSegment name='pelvis'>
          <Shape><IndexedFaceSet coordIndex='0 1 2 -1'><Coordinate point='-0.2 0 0 0.2 0 0 0 1.8 0'/></IndexedFaceSet></Shape>
        </HAnimSegment>
      </HAnimJoint>
    </HAnimHumanoid>
    <Transform translation='2 0 0' rotation='0 1 0 1.5708'>
      <HAnimHumanoid DEF='b_Humanoid' name='b'>
        <HAnimJoint name='humanoid_root' center='0 1 0' containerField='skeleton'>
          <HAnimSegment name='pelvis'>
            <Shape><IndexedFaceSet coordIndex='0 1 2 -1'><Coordinate point='-0.2 0 0 0.2 0 0 0 1.8 0'/></IndexedFaceSet></Shape>
          </HAnimSegment>
        </HAnimJoint>
      </HAnimHumanoid>
    </Transform>
  </Scene>
</X3D>
"#;

fn each_humanoid_of_a_file_has_its_own_computed_views_in_its_own_orientation() {
    let doc = hanim::load_str(TWO_HUMANOIDS, std::path::Path::new("two.x3d")).unwrap();
    assert_eq!(doc.humanoids.len(), 2);
    let poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    let views = views::resolve_document_views(&doc, &poses, 1.0).unwrap();
    let front = |humanoid: &str| {
        views
            .iter()
            .find(|v| v.kind == ViewKind::Computed && v.label == "Front" && v.humanoid.as_deref() == Some(humanoid))
            .unwrap_or_else(|| panic!("no front view of {humanoid}"))
    };
    // a stands at the origin facing +Z: its front camera is on +Z looking down −Z.
    let a = front("a");
    assert!(a.position[0].abs() < 1e-3 && a.position[2] > 1.0, "{:?}", a.position);
    assert!(Vec3::from(a.direction).abs_diff_eq(-Vec3::Z, 1e-3));
    // b stands at x = 2 turned to face +X: its front camera is on +X of it, looking down −X.
    let b = front("b");
    assert!(b.position[0] > 3.0 && b.position[2].abs() < 1e-2, "{:?}", b.position);
    assert!(Vec3::from(b.direction).abs_diff_eq(-Vec3::X, 1e-3), "{:?}", b.direction);
}

fn render_finds_views_by_computed_name_description_or_def() {
    let doc = load("JoeKick.x3d");
    let poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    let bounds = hanim_viewer::render::scene_bounds(&doc, &poses).unwrap();
    let camera = |name: &str| views::named_camera(&doc, &poses, &bounds, name, 1.0);
    let face = camera("face").unwrap();
    let skullbase = doc.humanoids[0].joint_index("skullbase").unwrap();
    let head_height = doc.humanoids[0].joints[skullbase].rest.center.y;
    assert!(face.forward().abs_diff_eq(-Vec3::Z, 1e-3) && face.position().y > head_height, "{:?}", face.position());
    // By description, exactly or ignoring case, and by DEF.
    for name in ["Scene_Top View", "scene_top view", "Scene_TopView"] {
        let top = camera(name).unwrap();
        assert!(top.position().abs_diff_eq(Vec3::new(0.0, 3.5, 0.0), TOLERANCE), "{name}");
    }
    let root = camera("ViewBodyRootAxes").unwrap();
    assert!(root.position().abs_diff_eq(Vec3::new(0.0, 0.0, 1.75), TOLERANCE));
    let error = camera("Scene_Tpo View").unwrap_err().to_string();
    assert!(error.contains("close names") && error.contains("Scene_Top View"), "{error}");
}

fn a_file_viewpoint_named_like_a_computed_view_wins_and_the_prefix_reaches_the_computed_one() {
    // Viewpoints described "Top" (looking down from 5 m) and DEF'd "front" (from the side): the file's
    // own views answer to `top` and `front`; `computed:top` / `computed:front` frame the figure.
    let text = r#"<X3D version='4.0'><Scene>
      <Viewpoint description='Top' position='0 5 0' orientation='1 0 0 -1.5707963'/>
      <Viewpoint DEF='front' description='From the side' position='4 1 0' orientation='0 1 0 1.5707963'/>
      <HAnimHumanoid name='h'>
        <HAnimJoint name='humanoid_root' center='0 1 0' containerField='skeleton'>
          <HAnimSegment name='pelvis'><Shape><Box size='0.4 2 0.4'/></Shape></HAnimSegment>
        </HAnimJoint>
      </HAnimHumanoid></Scene></X3D>"#;
    let doc = hanim::load_str(text, std::path::Path::new("named_views.x3d")).unwrap();
    let poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    let bounds = hanim_viewer::render::scene_bounds(&doc, &poses).unwrap();
    let camera = |name: &str| views::named_camera(&doc, &poses, &bounds, name, 1.0).unwrap();
    for name in ["top", "Top", "TOP"] {
        assert!(camera(name).position().abs_diff_eq(Vec3::new(0.0, 5.0, 0.0), TOLERANCE), "{name}");
    }
    assert!(camera("front").position().abs_diff_eq(Vec3::new(4.0, 1.0, 0.0), TOLERANCE));
    let computed_top = camera("computed:top");
    assert!(computed_top.forward().abs_diff_eq(-Vec3::Y, 1e-3));
    assert!(!computed_top.position().abs_diff_eq(Vec3::new(0.0, 5.0, 0.0), 0.1), "framed, not the file's");
    let computed_front = camera("computed:front");
    assert!(computed_front.forward().abs_diff_eq(-Vec3::Z, 1e-3), "{:?}", computed_front.forward());
    // A keyword the file does not use still means the computed view.
    assert!(camera("side").forward().abs_diff_eq(-Vec3::X, 1e-3));
    assert_eq!(views::computed_view_named(&doc, "top"), None);
    assert_eq!(views::computed_view_named(&doc, "computed:top"), Some(StandardView::Top));
    assert_eq!(views::computed_view_named(&doc, "side"), Some(StandardView::Side));
    // X3D's default viewpoint (clause 23.4.5): at 0 0 10, looking down −Z, field of view π/4.
    let default = camera("x3d-default");
    assert!(default.position().abs_diff_eq(Vec3::new(0.0, 0.0, 10.0), TOLERANCE));
    assert!(default.forward().abs_diff_eq(-Vec3::Z, 1e-5));
    assert!((default.field_of_view - std::f32::consts::FRAC_PI_4).abs() < 1e-6);
}

fn grouping_transforms_in_the_viewpoints_field_place_sites_and_bare_viewpoints() {
    // A Transform (translation 0 0 1, turned π/2 about Y) in `viewpoints` around a site and a bare
    // Viewpoint; the humanoid itself is moved 1 m up. Camera = H·T·L(site)·T(position).
    let text = r#"<X3D version='4.0'><Scene>
      <HAnimHumanoid name='h' translation='0 1 0'>
        <HAnimJoint name='humanoid_root' center='0 1 0' containerField='skeleton'/>
        <Transform containerField='viewpoints' translation='0 0 1' rotation='0 1 0 1.5707963'>
          <HAnimSite name='front_view' translation='0 0 2'><Viewpoint DEF='SiteCam' position='0 0 0'/></HAnimSite>
          <Viewpoint DEF='BareCam' position='0 0 3'/>
        </Transform>
      </HAnimHumanoid></Scene></X3D>"#;
    let doc = hanim::load_str(text, std::path::Path::new("grouped.x3d")).unwrap();
    let views = views::resolve_document_views(&doc, &[Pose::rest(&doc.humanoids[0])], 1.0).unwrap();
    // R_y(90°) maps +Z to +X: the site at z = 2 lands at x = 2, the bare camera at x = 3.
    let site = find(&views, "SiteCam");
    assert_eq!(site.kind, ViewKind::ViewpointSite);
    assert!(Vec3::from(site.position).abs_diff_eq(Vec3::new(2.0, 1.0, 1.0), TOLERANCE), "{:?}", site.position);
    assert!(Vec3::from(site.direction).abs_diff_eq(-Vec3::X, 1e-4));
    let bare = find(&views, "BareCam");
    assert_eq!(bare.kind, ViewKind::HumanoidViewpoint);
    assert!(Vec3::from(bare.position).abs_diff_eq(Vec3::new(3.0, 1.0, 1.0), TOLERANCE), "{:?}", bare.position);
}
