//! Applying a motion capture to the loaded scene ([`AppliedCapture`]: the capture editor and the transport
//! clip it plays as). Editing the mapping retargets and puts the new clip
//! in the old one's place, at the same moment of playback.

use anyhow::Result;

use super::scene::{AppliedCapture, LoadedScene};
use crate::mocap::mapping::Mapping;
use crate::mocap::session::{CaptureRequest, CaptureSession, MappingOrigin};
use crate::ui::capture::CaptureEditor;

impl LoadedScene {
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
        // Captured walks travel metres from where they start: the camera goes along (the transport's
        // "camera follows root" turns it off).
        self.transport.follow_root = true;
        let editor = CaptureEditor::new(session, &self.doc);
        let (sources, driven) = editor.session.coverage();
        let message = format!(
            "{} retargeted onto {}: {} frames; {sources} of {} capture joints drive {driven} joints",
            editor.summary.title,
            self.humanoid().name,
            editor.summary.frames,
            editor.summary.statuses.len()
        );
        self.capture = Some(AppliedCapture { editor, clip: index });
        Ok(message)
    }

    /// Retargets the applied capture with `mapping` (on failure the previous one stays).
    pub fn set_capture_mapping(&mut self, mapping: Mapping, origin: MappingOrigin) -> Result<()> {
        let Some(capture) = self.capture.as_mut() else {
            anyhow::bail!("no motion capture is applied (File ▸ Apply motion capture…)");
        };
        capture.editor.set_mapping(&self.doc, mapping, origin)?;
        let clip = capture.editor.session.clip(&self.doc)?;
        capture.clip = self.transport.put_clip(clip, Some(capture.clip));
        Ok(())
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
        self.capture.as_ref().map(|c| CaptureRequest::of(&c.editor.session))
    }
}
