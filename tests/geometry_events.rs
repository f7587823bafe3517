//! Events that change geometry, drawn: `tests/data/geometry_events.x3d` drives a Coordinate that starts
//! empty (a CoordinateInterpolator fills it), a Color (ColorInterpolator), a TextureCoordinate
//! (CoordinateInterpolator2D), a Normal (NormalInterpolator) and a humanoid segment Shape's Coordinate.
//! The oracle is the same file with the values the events set at time T written in (and no ROUTEs):
//! the meshes built from the events equal the meshes of that static file, on the CPU and in the
//! rendered pixels; and only the buffers whose contents change are written.

mod common;

test_main!(
    the_events_set_the_values_the_keys_give,
    meshes_built_from_the_events_equal_the_static_files,
    an_empty_coordinate_draws_what_its_points_reach_and_is_no_defect,
    rendered_events_equal_the_static_files_rendered,
    only_the_buffers_whose_contents_change_are_written,
    the_classic_encoding_twin_builds_the_same_meshes,
    a_morphing_segments_coord_driven_by_events_is_drawn
);

use std::path::{Path, PathBuf};

use glam::{Mat4, Vec2, Vec3};
use hanim_viewer::animation::SampleOptions;
use hanim_viewer::animation::events::{EventModel, FieldValue, Overrides};
use hanim_viewer::gpu::geometry_events::{GeometryUploads, geometry_values};
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::mesh::{GeometryValues, rigid_shapes, shape_mesh, shape_mesh_with};
use hanim_viewer::render::{PosedRenderer, RenderedImage, SceneRequest, ViewRequest, render_as_file};

fn fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/geometry_events.x3d")
}

fn load(path: &Path) -> Document {
    hanim::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The driven nodes, as the fixture writes them (the static file replaces each with its value at T).
const PONCHO: &str = "<Coordinate DEF='PonchoCoord'/>";
const UV: &str = "<TextureCoordinate DEF='Uv' point='0 0, 1 0, 1 1, 0 1'/>";
const BEND: &str = "<Normal DEF='Bend' vector='0 0 1, 0 0 1, 0 0 1, 0 0 1'/>";
const FLAP: &str = "<Coordinate DEF='FlapCoord' point='-1 -2.5 0, 1 -2.5 0, 1 -1.5 0, -1 -1.5 0'/>";

/// The fixture's text with the values `overrides` give the four driven nodes written in and the ROUTEs
/// left out: what the scene looks like at that time, as a static file (same nodes, same order).
fn static_text(doc: &Document, overrides: &Overrides) -> String {
    let text = std::fs::read_to_string(fixture_path()).unwrap();
    let value = |def: &str, field: &str| {
        overrides.get(doc.scene.defs[def], field).unwrap_or_else(|| panic!("no {def}.{field} event")).to_x3d()
    };
    let text = text
        .replace(PONCHO, &format!("<Coordinate DEF='PonchoCoord' point='{}'/>", value("PonchoCoord", "point")))
        .replace(UV, &format!("<TextureCoordinate DEF='Uv' point='{}'/>", value("Uv", "point")))
        .replace(BEND, &format!("<Normal DEF='Bend' vector='{}'/>", value("Bend", "vector")))
        .replace(FLAP, &format!("<Coordinate DEF='FlapCoord' point='{}'/>", value("FlapCoord", "point")));
    text.lines().filter(|l| !l.trim_start().starts_with("<ROUTE")).collect::<Vec<_>>().join("\n")
}

/// The static file at `overrides`, written beside a copy of the texture in `dir`.
fn static_file(dir: &Path, doc: &Document, overrides: &Overrides, name: &str) -> PathBuf {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/geometry_events_texture.png");
    std::fs::copy(data, dir.join("geometry_events_texture.png")).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, static_text(doc, overrides)).unwrap();
    path
}

fn the_events_set_the_values_the_keys_give() {
    let doc = load(&fixture_path());
    let model = EventModel::new(&doc.scene);
    // t = 0.5 s of a 2 s cycle: fraction 0.25.
    let o = model.evaluate_at(0.5);
    let v = geometry_values(&doc.scene, &o);
    let poncho = &v.points[&doc.scene.defs["PonchoCoord"]];
    assert_eq!(poncho.len(), 9);
    assert!(poncho[4].abs_diff_eq(Vec3::new(0.0, 0.5, 0.2), 1e-6), "middle row forward by 0.8 f: {}", poncho[4]);
    assert!(poncho[7].abs_diff_eq(Vec3::new(0.0, 2.1, 0.0), 1e-6), "top row up by 0.4 f: {}", poncho[7]);
    // The ColorInterpolator's SFColor routed into the Color's MFColor: refused (X3D 4.0 4.4.8.2), with a
    // warning at the ROUTE, as X_ITE and view3dscene refuse it; the Color keeps the file's colour.
    assert!(!v.colors.contains_key(&doc.scene.defs["Tint"]), "{:?}", v.colors);
    let refused = model.warnings.iter().find(|w| w.message.contains("(SFColor) to Color DEF 'Tint'.color (MFColor)"));
    let refused = refused.unwrap_or_else(|| panic!("{:?}", model.warnings));
    assert!(refused.message.contains("4.4.8.2") && refused.pos.at.is_some(), "{refused:?}");
    let uv = &v.tex_coords[&doc.scene.defs["Uv"]];
    assert!(Vec2::from(uv[0]).abs_diff_eq(Vec2::new(0.125, 0.0), 1e-6), "{uv:?}");
    // +Z to +X along the great circle: a quarter of the way is 22.5°.
    let bend = v.vectors[&doc.scene.defs["Bend"]][0];
    let angle = 22.5f32.to_radians();
    assert!(bend.abs_diff_eq(Vec3::new(angle.sin(), 0.0, angle.cos()), 1e-5), "{bend}");
    let flap = &v.points[&doc.scene.defs["FlapCoord"]];
    assert!(flap[2].abs_diff_eq(Vec3::new(1.125, -1.5, -0.25), 1e-6), "{}", flap[2]);
}

fn meshes_built_from_the_events_equal_the_static_files() {
    let doc = load(&fixture_path());
    let model = EventModel::new(&doc.scene);
    let dir = tempfile::tempdir().unwrap();
    for t in [0.5, 1.5] {
        let overrides = model.evaluate_at(t);
        let values = geometry_values(&doc.scene, &overrides);
        let oracle = load(&static_file(dir.path(), &doc, &overrides, &format!("static_{t}.x3d")));
        assert_eq!(oracle.other_shapes.len(), doc.other_shapes.len());
        let mut compared = 0;
        for (&(shape, _), &(oracle_shape, _)) in doc.other_shapes.iter().zip(&oracle.other_shapes) {
            assert_eq!(shape, oracle_shape, "the static file has the same nodes in the same order");
            let mut notes = Vec::new();
            let from_events = shape_mesh_with(&doc.scene, shape, None, Mat4::IDENTITY, &values, &mut notes).unwrap();
            let from_file = shape_mesh(&oracle.scene, shape, None, Mat4::IDENTITY, &mut notes).unwrap();
            let (a, mut b) = (from_events.expect("a mesh"), from_file.expect("a mesh"));
            // The static file lies in another folder (with a copy of the texture).
            if let (Some(ta), Some(tb)) = (&a.mesh.texture, &mut b.mesh.texture) {
                tb.base.clone_from(&ta.base);
            }
            assert!(!a.mesh.indices.is_empty(), "t = {t}: shape {shape:?} draws something");
            assert_eq!(a, b, "t = {t}: shape {shape:?}");
            compared += 1;
        }
        assert_eq!(compared, 4, "the sheet, the tinted, textured and bent quads");
        // The humanoid's segment Shape.
        let (h, oh) = (&doc.humanoids[0], &oracle.humanoids[0]);
        let shapes = rigid_shapes(&doc.scene, h).unwrap();
        assert_eq!(shapes, rigid_shapes(&oracle.scene, oh).unwrap());
        assert_eq!(shapes.len(), 1);
        let s = &shapes[0];
        let mut notes = Vec::new();
        let a = shape_mesh_with(&doc.scene, s.shape, None, s.offset, &values, &mut notes).unwrap().unwrap();
        let b = shape_mesh(&oracle.scene, s.shape, None, s.offset, &mut notes).unwrap().unwrap();
        assert_eq!(a, b, "t = {t}: the segment's Shape");
        let at_rest = shape_mesh(&doc.scene, s.shape, None, s.offset, &mut notes).unwrap().unwrap();
        assert_ne!(a.points, at_rest.points, "t = {t}: the events moved the segment's points");
    }
}

fn an_empty_coordinate_draws_what_its_points_reach_and_is_no_defect() {
    let doc = load(&fixture_path());
    let sheet = doc.other_shapes[0].0;
    let mut notes = Vec::new();
    let at_load = shape_mesh(&doc.scene, sheet, None, Mat4::IDENTITY, &mut notes).unwrap().expect("a mesh");
    assert!(at_load.mesh.indices.is_empty(), "no points yet: nothing drawn");
    assert!(notes.is_empty(), "faces waiting for their points are not reported: {notes:?}");
    // Five points reach the first quad (0 1 4 3) only; the others wait for more.
    let mut values = GeometryValues::default();
    let five: Vec<Vec3> = (0..5).map(|i| Vec3::new((i % 3) as f32, (i / 3) as f32, 0.0)).collect();
    values.points.insert(doc.scene.defs["PonchoCoord"], five);
    let partial = shape_mesh_with(&doc.scene, sheet, None, Mat4::IDENTITY, &values, &mut notes).unwrap().unwrap();
    assert_eq!(partial.mesh.triangle_count(), 2);
}

fn render_at(ctx: &hanim_viewer::gpu::GpuContext, doc: &Document, times: &[f64]) -> Vec<RenderedImage> {
    let mut request = SceneRequest::new(160, 160);
    request.view = ViewRequest::Named("Cam".into());
    let mut images = Vec::new();
    render_as_file(ctx, doc, &request, &SampleOptions::default(), times, |_, image| {
        images.push(image);
        Ok::<(), hanim_viewer::render::RenderError>(())
    })
    .expect("rendered");
    images
}

/// Pixels whose channels differ by more than `tolerance`.
fn differing(a: &RenderedImage, b: &RenderedImage, tolerance: u8) -> usize {
    a.rgba
        .chunks(4)
        .zip(b.rgba.chunks(4))
        .filter(|(p, q)| p.iter().zip(*q).any(|(x, y)| x.abs_diff(*y) > tolerance))
        .count()
}

fn rendered_events_equal_the_static_files_rendered() {
    let ctx = common::gpu();
    let doc = load(&fixture_path());
    let model = EventModel::new(&doc.scene);
    let dir = tempfile::tempdir().unwrap();
    let times = [0.5, 1.5];
    let played = render_at(&ctx, &doc, &times);
    for (t, image) in times.iter().zip(&played) {
        let oracle = load(&static_file(dir.path(), &doc, &model.evaluate_at(*t), &format!("static_{t}.x3d")));
        let want = &render_at(&ctx, &oracle, &[*t])[0];
        // The same vertex data through the same pipelines: the same pixels. (The near and far planes
        // come from the figure's bounds, which the file's rest coordinates set alike in both.)
        let off = differing(image, want, 0);
        assert_eq!(off, 0, "t = {t}: {off} pixels differ from the static file's picture");
    }
    // And the pictures do change: the sheet is drawn at all, and differently at the two times.
    let background = |image: &RenderedImage| image.rgba.chunks(4).filter(|p| p[..3] == image.rgba[..3]).count();
    assert!(background(&played[0]) < 160 * 160 * 9 / 10, "the shapes cover part of the picture");
    assert!(differing(&played[0], &played[1], 8) > 200, "the two times differ");
}

fn only_the_buffers_whose_contents_change_are_written() {
    let ctx = common::gpu();
    let doc = load(&fixture_path());
    let poses: Vec<_> = doc.humanoids.iter().map(hanim_viewer::pose::Pose::rest).collect();
    let mut renderer = PosedRenderer::new(&ctx, &doc, &SceneRequest::new(64, 64), &poses).unwrap();
    let node = |def: &str| doc.scene.defs[def];
    let only = |field_node: &str, field: &str, value: FieldValue| {
        let mut o = Overrides::default();
        o.set(node(field_node), field, value);
        o
    };
    let none = GeometryUploads::default();
    // A colour: the corner vertices (which carry the colours) alone.
    let tint = only("Tint", "color", FieldValue::Vec3s(vec![Vec3::new(0.0, 1.0, 0.0)]));
    assert_eq!(renderer.apply_geometry(&ctx, &doc, &tint), GeometryUploads { corners: 1, ..none });
    assert_eq!(renderer.apply_geometry(&ctx, &doc, &tint), none, "nothing changed since");
    // Back to the file's colour: the corners again (and nothing for the shapes no event touches).
    let empty = Overrides::default();
    assert_eq!(renderer.apply_geometry(&ctx, &doc, &empty), GeometryUploads { corners: 1, ..none });
    assert_eq!(renderer.apply_geometry(&ctx, &doc, &empty), none);
    // Texture coordinates: the corners alone.
    let uv = only("Uv", "point", FieldValue::Vec2s(vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::new(0.5, 1.0)]));
    assert_eq!(renderer.apply_geometry(&ctx, &doc, &uv), GeometryUploads { corners: 1, ..none });
    // Normals given by a Normal node: the normals alone (the file's colour and uvs come back: none
    // here but the texture's, one more corner write).
    let bend = only("Bend", "vector", FieldValue::Vec3s(vec![Vec3::X; 4]));
    assert_eq!(renderer.apply_geometry(&ctx, &doc, &bend), GeometryUploads { normals: 1, corners: 1, ..none });
    // Points of a plane quad moved within its plane: points, and nothing else (same normals, corners
    // and triangles).
    let flap: Vec<Vec3> =
        [[-1.0, -2.5], [1.0, -2.5], [1.2, -1.5], [-1.2, -1.5]].map(|[x, y]| Vec3::new(x, y, 0.0)).to_vec();
    let mut moved = bend.clone();
    moved.set(node("FlapCoord"), "point", FieldValue::Vec3s(flap));
    assert_eq!(renderer.apply_geometry(&ctx, &doc, &moved), GeometryUploads { points: 1, ..none });
    // The empty Coordinate filled: all four of its buffers, each grown from its placeholder.
    let before = renderer.geometry_uploads();
    let at_half = EventModel::new(&doc.scene).evaluate_at(0.5);
    let mut sheet_only = Overrides::default();
    sheet_only.set(node("PonchoCoord"), "point", at_half.get(node("PonchoCoord"), "point").unwrap().clone());
    let mut with_sheet = moved.clone();
    with_sheet.set(node("PonchoCoord"), "point", sheet_only.get(node("PonchoCoord"), "point").unwrap().clone());
    let filled = renderer.apply_geometry(&ctx, &doc, &with_sheet);
    assert_eq!(filled, GeometryUploads { points: 1, normals: 1, corners: 1, indices: 1, grown: 4 });
    let mut total = before;
    total += filled;
    assert_eq!(renderer.geometry_uploads(), total, "the draw state counts every write");
    // The whole cascade at one time, twice: the second time writes nothing.
    renderer.apply_geometry(&ctx, &doc, &at_half);
    assert_eq!(renderer.apply_geometry(&ctx, &doc, &at_half), none);
}

fn the_classic_encoding_twin_builds_the_same_meshes() {
    let xml = load(&fixture_path());
    let classic = load(&fixture_path().with_extension("x3dv"));
    let (a, b) = (EventModel::new(&xml.scene).evaluate_at(1.5), EventModel::new(&classic.scene).evaluate_at(1.5));
    let (va, vb) = (geometry_values(&xml.scene, &a), geometry_values(&classic.scene, &b));
    for def in ["PonchoCoord", "FlapCoord"] {
        assert_eq!(va.points[&xml.scene.defs[def]], vb.points[&classic.scene.defs[def]], "{def}");
    }
    assert_eq!(va.colors.get(&xml.scene.defs["Tint"]), vb.colors.get(&classic.scene.defs["Tint"]));
    assert_eq!(va.tex_coords[&xml.scene.defs["Uv"]], vb.tex_coords[&classic.scene.defs["Uv"]]);
    assert_eq!(va.vectors[&xml.scene.defs["Bend"]], vb.vectors[&classic.scene.defs["Bend"]]);
    for (&(sa, _), &(sb, _)) in xml.other_shapes.iter().zip(&classic.other_shapes) {
        let mut notes = Vec::new();
        let ma = shape_mesh_with(&xml.scene, sa, None, Mat4::IDENTITY, &va, &mut notes).unwrap().unwrap();
        let mb = shape_mesh_with(&classic.scene, sb, None, Mat4::IDENTITY, &vb, &mut notes).unwrap().unwrap();
        assert_eq!((ma.mesh.indices, ma.mesh.normals, ma.points), (mb.mesh.indices, mb.mesh.normals, mb.points));
    }
}

fn a_morphing_segments_coord_driven_by_events_is_drawn() {
    let ctx = common::gpu();
    // The segment's coord is the Shape's Coordinate: the skin pass morphs it from its rest points, which
    // the CoordinateInterpolator now rewrites. At 0.5 s (fraction 0.25) the triangle is 1.25 times its
    // size: the same picture as a file with those points and no events. A displacer on the segment keeps
    // it a morphing segment (weight 0: it moves nothing).
    let scene = |points: &str, events: bool| {
        let routes = "<TimeSensor DEF='Clock' cycleInterval='2' loop='true'/>\
            <CoordinateInterpolator DEF='Move' key='0 1' keyValue='0 0 0, 1 0 0, 0 1 0, 0 0 0, 2 0 0, 0 2 0'/>\
            <ROUTE fromNode='Clock' fromField='fraction_changed' toNode='Move' toField='set_fraction'/>\
            <ROUTE fromNode='Move' fromField='value_changed' toNode='Tri' toField='set_point'/>";
        format!(
            "<X3D version='4.0'><head><component name='HAnim' level='1'/></head><Scene>\
            <Viewpoint DEF='Cam' position='0.6 0.6 5'/>\
            <HAnimHumanoid name='h' version='2.0'><HAnimJoint containerField='skeleton' name='humanoid_root'>\
            <HAnimSegment name='sacrum'><Shape><Appearance><Material diffuseColor='0.9 0.5 0.2'/></Appearance>\
            <IndexedFaceSet solid='false' coordIndex='0 1 2'><Coordinate DEF='Tri' point='{points}'/></IndexedFaceSet></Shape>\
            <Coordinate USE='Tri' containerField='coord'/>\
            <HAnimDisplacer name='sacrum_still' coordIndex='0' displacements='0 0.5 0' weight='0'/>\
            </HAnimSegment></HAnimJoint></HAnimHumanoid>{}</Scene></X3D>",
            if events { routes } else { "" }
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        load(&path)
    };
    let driven = write("morph.x3d", scene("0 0 0, 1 0 0, 0 1 0", true));
    let fixed = write("fixed.x3d", scene("0 0 0, 1.25 0 0, 0 1.25 0", false));
    let rest = write("rest.x3d", scene("0 0 0, 1 0 0, 0 1 0", false));
    let played = render_at(&ctx, &driven, &[0.5, 0.0]);
    let (want, at_rest) = (&render_at(&ctx, &fixed, &[0.5])[0], &render_at(&ctx, &rest, &[0.0])[0]);
    // The same points through the same pipelines, up to the last bit of the morph's arithmetic.
    assert_eq!(differing(&played[0], want, 1), 0, "at 0.5 s: the grown triangle");
    assert!(differing(&played[0], at_rest, 8) > 100, "and it did grow");
    // Back at fraction 0 the file's points come back.
    assert_eq!(differing(&played[1], at_rest, 1), 0, "at 0 s: the file's triangle");
    assert!(played[0].notes.iter().all(|n| !n.contains("coord")), "{:?}", played[0].notes);
}
