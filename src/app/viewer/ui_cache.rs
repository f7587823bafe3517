//! The window's UI kept as a picture between frames. egui rebuilds its meshes every frame, but while a
//! clip plays only the time slider and the status bar change: repainting every panel each frame was most
//! of a frame's GPU time on a software rasteriser (the whole window's UI pass was 3× the 3D pass). Here
//! the panels are painted into a texture of the surface's size and format, and each frame repaints only
//! the rectangles whose meshes changed (`app::ui_damage`), then copies the texture around the 3D view
//! into the surface. What egui draws over the 3D view (toasts, floating windows, menus) is painted into
//! the surface each frame, after the 3D view, clipped to it.
//!
//! `HANIM_VIEWER_UI_CACHE=0` paints the whole UI into the surface every frame instead (the way to measure
//! the difference in one binary).

use egui::epaint::{ClippedPrimitive, Primitive};

use crate::app::ui_damage::{self, Damage, MeshPrint};
use crate::gpu::GpuContext;
use crate::gpu::target::PixelRect;

/// The kept UI picture and the fingerprints of the meshes it holds.
pub struct UiCache {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    prints: Vec<MeshPrint>,
    /// The meshes the picture holds (to find which triangles of a changed mesh changed).
    jobs: Vec<ClippedPrimitive>,
    /// The picture matches `prints` (false after a frame painted without the cache).
    valid: bool,
    /// Pixels repainted into the picture by the last frame (for the benchmark's record).
    pub repainted_pixels: u64,
}

/// Whether the window may keep its UI as a picture: the surface must take copies, and the switch not be
/// off.
pub fn enabled(surface_usage: wgpu::TextureUsages) -> bool {
    surface_usage.contains(wgpu::TextureUsages::COPY_DST)
        && std::env::var("HANIM_VIEWER_UI_CACHE").as_deref() != Ok("0")
}

/// One frame's UI painting split in two: meshes repainted into the picture (each damaged rectangle first
/// cleared, then the meshes crossing it, clipped to it) and meshes painted over the 3D view (clipped to
/// it). Both lists live in one buffer upload (egui's renderer holds one vertex buffer per frame); each
/// pass draws its part and skips the other's with an empty clip.
pub struct SplitJobs {
    pub jobs: Vec<ClippedPrimitive>,
    /// `jobs[..into_picture]` repaint the picture; the rest are drawn over the 3D view.
    pub into_picture: usize,
    clips: Vec<egui::Rect>,
}

impl SplitJobs {
    /// Shows only the picture's part (`true`) or only the 3D view's part to the next `render`.
    pub fn show(&mut self, picture: bool) {
        for (i, job) in self.jobs.iter_mut().enumerate() {
            let mine = (i < self.into_picture) == picture;
            job.clip_rect = if mine { self.clips[i] } else { egui::Rect::ZERO };
        }
    }
}

impl UiCache {
    pub fn new(gpu: &GpuContext, format: wgpu::TextureFormat, size: [u32; 2]) -> Self {
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("viewer::ui_picture"),
            size: wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Self { texture, view, prints: Vec::new(), jobs: Vec::new(), valid: false, repainted_pixels: 0 }
    }

    pub fn fits(&self, format: wgpu::TextureFormat, size: [u32; 2]) -> bool {
        self.texture.format() == format && [self.texture.width(), self.texture.height()] == size
    }

    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    pub fn texture(&self) -> &wgpu::Texture {
        &self.texture
    }

    pub fn is_valid(&self) -> bool {
        self.valid
    }

    /// The picture no longer matches (a frame painted another way): the next frame repaints it whole.
    pub fn invalidate(&mut self) {
        self.valid = false;
    }

    /// Splits this frame's `jobs` for a `size` window whose 3D view is at `view`, updating the kept
    /// fingerprints. `None` when the frame cannot use the picture (a paint callback): paint it whole.
    /// `repaint_all` forces the whole picture (a texture of egui's changed).
    pub fn split(
        &mut self,
        jobs: &[ClippedPrimitive],
        pixels_per_point: f32,
        size: [u32; 2],
        view: PixelRect,
        repaint_all: bool,
    ) -> Option<SplitJobs> {
        let Some(prints) = ui_damage::fingerprints(jobs, pixels_per_point, size) else {
            self.valid = false;
            return None;
        };
        let full = PixelRect { x: 0, y: 0, width: size[0], height: size[1] };
        let damage = if !self.valid || repaint_all {
            Damage::All
        } else {
            ui_damage::damage(&self.prints, &prints, &self.jobs, jobs, pixels_per_point, size)
        };
        let rects = match damage {
            Damage::None => Vec::new(),
            Damage::Rects(rects) => rects,
            Damage::All => vec![full],
        };
        log::trace!("UI damage: {rects:?}");
        let mut split = SplitJobs { jobs: Vec::new(), into_picture: 0, clips: Vec::new() };
        self.repainted_pixels = 0;
        for rect in &rects {
            self.repainted_pixels += u64::from(rect.width) * u64::from(rect.height);
            let clip = to_points(rect, pixels_per_point);
            split.push(clear_mesh(clip), clip);
            split.push_crossing(jobs, &prints, rect, pixels_per_point);
        }
        split.into_picture = split.jobs.len();
        split.push_crossing(jobs, &prints, &view, pixels_per_point);
        self.prints = prints;
        self.jobs = jobs.to_vec();
        self.valid = true;
        Some(split)
    }
}

impl SplitJobs {
    fn push(&mut self, job: ClippedPrimitive, clip: egui::Rect) {
        self.jobs.push(job);
        self.clips.push(clip);
    }

    /// The meshes of `jobs` that touch `rect`, each clipped to it as well.
    fn push_crossing(&mut self, jobs: &[ClippedPrimitive], prints: &[MeshPrint], rect: &PixelRect, ppp: f32) {
        let rect_points = to_points(rect, ppp);
        for (job, print) in jobs.iter().zip(prints) {
            if print.pixels.is_some_and(|p| ui_damage::intersect(&p, rect).is_some()) {
                let clip = job.clip_rect.intersect(rect_points);
                self.push(job.clone(), clip);
            }
        }
    }
}

/// Pixels to the points egui clips in (its renderer rounds them back to exactly these pixels).
fn to_points(r: &PixelRect, ppp: f32) -> egui::Rect {
    egui::Rect::from_min_max(
        egui::pos2(r.x as f32 / ppp, r.y as f32 / ppp),
        egui::pos2((r.x + r.width) as f32 / ppp, (r.y + r.height) as f32 / ppp),
    )
}

/// An opaque black rectangle over `clip`: what an empty picture holds (the meshes repainted there blend
/// over it exactly as over a cleared picture).
fn clear_mesh(clip: egui::Rect) -> ClippedPrimitive {
    let mut mesh = egui::Mesh::default();
    mesh.add_colored_rect(clip, egui::Color32::BLACK);
    ClippedPrimitive { clip_rect: clip, primitive: Primitive::Mesh(mesh) }
}

/// The parts of a `size` window outside `view`: up to four bands (above, below, left, right).
pub fn around(view: PixelRect, size: [u32; 2]) -> Vec<PixelRect> {
    let [w, h] = size;
    let (vx, vy) = (view.x.min(w), view.y.min(h));
    let (vr, vb) = ((view.x + view.width).min(w), (view.y + view.height).min(h));
    [
        PixelRect { x: 0, y: 0, width: w, height: vy },
        PixelRect { x: 0, y: vb, width: w, height: h - vb },
        PixelRect { x: 0, y: vy, width: vx, height: vb - vy },
        PixelRect { x: vr, y: vy, width: w - vr, height: vb - vy },
    ]
    .into_iter()
    .filter(|r| r.width > 0 && r.height > 0)
    .collect()
}

/// Records copies of the picture's `bands` into the surface texture.
pub fn copy_bands(
    encoder: &mut wgpu::CommandEncoder,
    picture: &wgpu::Texture,
    surface: &wgpu::Texture,
    bands: &[PixelRect],
) {
    for band in bands {
        let origin = wgpu::Origin3d { x: band.x, y: band.y, z: 0 };
        encoder.copy_texture_to_texture(
            wgpu::TexelCopyTextureInfo { texture: picture, mip_level: 0, origin, aspect: wgpu::TextureAspect::All },
            wgpu::TexelCopyTextureInfo { texture: surface, mip_level: 0, origin, aspect: wgpu::TextureAspect::All },
            wgpu::Extent3d { width: band.width, height: band.height, depth_or_array_layers: 1 },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bands_around_the_view_cover_the_rest_of_the_window_once() {
        let view = PixelRect { x: 260, y: 25, width: 675, height: 655 };
        let bands = around(view, [1280, 800]);
        assert_eq!(bands.len(), 4);
        let area: u64 = bands.iter().map(|b| u64::from(b.width) * u64::from(b.height)).sum();
        assert_eq!(area, 1280 * 800 - 675 * 655);
        for (i, a) in bands.iter().enumerate() {
            assert!(ui_damage::intersect(a, &view).is_none());
            for b in &bands[i + 1..] {
                assert!(ui_damage::intersect(a, b).is_none());
            }
        }
        // A view filling the window leaves nothing to copy.
        assert!(around(PixelRect { x: 0, y: 0, width: 1280, height: 800 }, [1280, 800]).is_empty());
    }

    #[test]
    fn pixel_rectangles_survive_the_round_trip_through_points() {
        for ppp in [1.0, 1.25, 1.5, 2.0] {
            let r = PixelRect { x: 261, y: 27, width: 673, height: 651 };
            let p = to_points(&r, ppp);
            let back = |v: f32| (v * ppp).round() as u32;
            assert_eq!((back(p.min.x), back(p.min.y), back(p.max.x), back(p.max.y)), (261, 27, 934, 678));
        }
    }
}
