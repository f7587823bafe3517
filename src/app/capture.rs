//! A motion capture retargeted onto the shown humanoid: the session (capture, mapping, result), the
//! capture window's rows, and the transport clip it plays as. Editing the mapping retargets and puts the
//! new clip in the old one's place, at the same moment of playback.

use anyhow::Result;

use super::scene::LoadedScene;
use crate::mocap::mapping::Mapping;
use crate::mocap::session::{CaptureRequest, CaptureSession, MappingOrigin};
use crate::ui::capture::{CapturePanel, CaptureSummary};

pub struct AppliedCapture {
    pub session: CaptureSession,
    pub panel: CapturePanel,
    pub summary: CaptureSummary,
    /// Index of its clip in the transport.
    pub clip: usize,
}

impl LoadedScene {
    fn joint_names(&self) -> Vec<String> {
        self.humanoid().joints.iter().map(|j| j.name.clone()).collect()
    }

    /// Retargets `request` onto the shown humanoid and plays it alone (replacing a capture applied
    /// before). Returns a line for the user.
    pub fn apply_capture(&mut self, request: &CaptureRequest, fps: Option<f64>) -> Result<String> {
        let session = CaptureSession::load(&self.doc, self.humanoid, request, fps)?;
        let clip = session.clip(&self.doc)?;
        for note in &session.result.notes {
            log::warn!("{}: {note}", session.motion_file.display());
        }
        let index = self.transport.put_clip(clip, self.capture.as_ref().map(|c| c.clip));
        self.transport.time = 0.0;
        self.transport.playing = true;
        let panel = CapturePanel::new(session.source_names(), &session.mapping);
        let summary = CaptureSummary::new(&session, self.joint_names());
        let (sources, driven) = session.coverage();
        let message = format!(
            "{} retargeted onto {}: {} frames; {sources} of {} capture joints drive {driven} joints",
            summary.title,
            self.humanoid().name,
            summary.frames,
            summary.statuses.len()
        );
        self.capture = Some(AppliedCapture { session, panel, summary, clip: index });
        Ok(message)
    }

    /// Retargets the applied capture with `mapping`. On failure the previous mapping stays (and the rows
    /// show it again).
    pub fn set_capture_mapping(&mut self, mapping: Mapping, origin: MappingOrigin) -> Result<()> {
        let joint_names = self.joint_names();
        let Some(capture) = self.capture.as_mut() else {
            anyhow::bail!("no motion capture is applied (File ▸ Apply motion capture…)");
        };
        let retargeted = capture.session.set_mapping(&self.doc, mapping, origin).and_then(|_| {
            let clip = capture.session.clip(&self.doc)?;
            capture.clip = self.transport.put_clip(clip, Some(capture.clip));
            Ok(())
        });
        let open = capture.panel.open;
        capture.panel =
            CapturePanel { open, ..CapturePanel::new(capture.session.source_names(), &capture.session.mapping) };
        capture.summary = CaptureSummary::new(&capture.session, joint_names);
        retargeted
    }

    /// Takes the capture's clip out of the transport; the humanoid goes back to its file pose.
    pub fn remove_capture(&mut self) {
        if let Some(capture) = self.capture.take() {
            self.transport.remove_clip(capture.clip);
            self.transport.engaged = true;
        }
    }

    /// What applies the current capture again (to another humanoid, after a reload).
    pub fn capture_request(&self) -> Option<CaptureRequest> {
        self.capture.as_ref().map(|c| CaptureRequest::of(&c.session))
    }
}
