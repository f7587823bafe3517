//! hanim-viewer used as a library: load a humanoid file, turn one joint, render the figure to a PNG.
//!
//! ```sh
//! cargo run --release --example pose_and_render -- tests/corpus/x3d/JoeKick.x3d l_shoulder arm.png
//! ```
//!
//! The joint is turned 90° about the humanoid's Z axis (front to back), on top of its rest pose; the
//! picture is taken from the file's front view on the first GPU adapter (lavapipe will do).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use glam::{Quat, Vec3};
use hanim_viewer::gpu::GpuContext;
use hanim_viewer::pose::Pose;
use hanim_viewer::render::{SceneRequest, ViewRequest, render_posed};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, joint, out] = args.as_slice() else {
        bail!("usage: pose_and_render FILE JOINT OUT.png");
    };

    // x3d → hanim: the file's scene and its validated humanoids.
    let doc = hanim_viewer::hanim::load(&PathBuf::from(file))?;
    let humanoid = doc.humanoids.first().context("the file has no humanoid")?;

    // pose: every humanoid at rest, then one joint turned.
    let mut poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    let j = humanoid.joint_index(joint).with_context(|| format!("no joint named '{joint}'"))?;
    poses[0].rotation_offsets[j] = Quat::from_axis_angle(Vec3::Z, std::f32::consts::FRAC_PI_2);

    // gpu → render: an offscreen image of the posed scene.
    let ctx = GpuContext::headless(None)?;
    let mut request = SceneRequest::new(480, 480);
    request.view = ViewRequest::Named("front".into());
    let image = render_posed(&ctx, &doc, &request, &poses)?;

    // output: written whole or not at all.
    hanim_viewer::output::write_png_atomically(&PathBuf::from(out), image.width, image.height, &image.rgba)?;
    println!("{out}: {} turned 90°, {}x{} pixels", joint, image.width, image.height);
    Ok(())
}
