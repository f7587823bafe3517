//! TimeSensor (X3D 4.0 clause 8.4.1) on a scene clock: `t` is seconds since the scene loaded, and a
//! sensor's `startTime`/`stopTime`/`pauseTime`/`resumeTime` are read on the same clock, so that a looping
//! sensor shows the same phase at the same scene time in every run (as the peers' screenshot harness
//! does by starting X3D time at 0).
//!
//! One rule keeps X3D's absolute time (clause 8.2.2: time is seconds since 1970, so a file's
//! `startTime 0` lies decades before any load): a non-looping sensor whose file `startTime` is at or
//! before the load never runs by itself — its one cycle ended before the file was opened — and waits for
//! a `startTime` event. X_ITE does the same (it starts a non-looping sensor only at a `startTime` still
//! to come); a looping one runs from its `startTime` as clause 8.4.1 says.

use super::FieldValue;
use crate::x3d::{NodeId, Scene, X3dError};

/// The fields of one TimeSensor that decide its outputs.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeSensor {
    pub node: NodeId,
    pub enabled: bool,
    pub looping: bool,
    pub cycle_interval: f64,
    pub start_time: f64,
    pub stop_time: f64,
    pub pause_time: f64,
    pub resume_time: f64,
    /// The file gave a `startTime` at or before the load and no `startTime` event has come since: a
    /// non-looping sensor then never runs (see the module's note).
    pub start_before_load: bool,
}

/// What a sensor shows at one time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SensorState {
    /// `isActive`.
    pub active: bool,
    /// `isPaused`.
    pub paused: bool,
    /// The last `fraction_changed` sent (at this time or when it stopped), `None` before it ever ran.
    pub fraction: Option<f32>,
    /// Index of the current cycle (`cycleTime` is sent when it changes).
    pub cycle: u64,
    /// `cycleTime`: when the current cycle began.
    pub cycle_time: f64,
    /// `elapsedTime`: active seconds since the start, pauses left out.
    pub elapsed: f64,
}

impl TimeSensor {
    pub fn read(scene: &Scene, node: NodeId) -> Result<TimeSensor, X3dError> {
        let start_time = scene.sf_double(node, "startTime", 0.0)?;
        Ok(TimeSensor {
            node,
            enabled: scene.sf_bool(node, "enabled", true)?,
            looping: scene.sf_bool(node, "loop", false)?,
            cycle_interval: scene.sf_double(node, "cycleInterval", 1.0)?,
            start_time,
            stop_time: scene.sf_double(node, "stopTime", 0.0)?,
            pause_time: scene.sf_double(node, "pauseTime", 0.0)?,
            resume_time: scene.sf_double(node, "resumeTime", 0.0)?,
            start_before_load: start_time <= 0.0,
        })
    }

    /// The sensor at scene time `t`.
    ///
    /// - Inactive before `startTime`, and never when `enabled` is FALSE (no events at all then).
    /// - `stopTime` counts only when greater than `startTime` (clause 8.4.1: "stopTime ≤ startTime is
    ///   ignored"); reaching it stops the sensor.
    /// - Paused from `pauseTime` when `pauseTime > resumeTime` (and after the start); resumed at a later
    ///   `resumeTime`, with the paused seconds left out of the elapsed time.
    /// - `fraction = fract((t' − startTime) / cycleInterval)`, except that 0 after the start is 1.0: the
    ///   clause's rule, so a cycle ends on its last key.
    /// - A non-looping sensor stops at the end of its first cycle with fraction 1.0; one whose file
    ///   `startTime` is at or before the load never ran (absolute time, see the module's note).
    pub fn state(&self, t: f64) -> SensorState {
        let idle =
            SensorState { active: false, paused: false, fraction: None, cycle: 0, cycle_time: 0.0, elapsed: 0.0 };
        if !self.enabled
            || self.cycle_interval <= 0.0
            || !self.cycle_interval.is_finite()
            || t < self.start_time
            || (!self.looping && self.start_before_load)
        {
            return idle;
        }
        let stop = (self.stop_time > self.start_time).then_some(self.stop_time);
        // The end of the run, on the unpaused clock: stopTime, or the end of a non-looping cycle.
        let end_of_cycle = (!self.looping).then_some(self.start_time + self.cycle_interval);
        // A run that was over when the scene was loaded (scene time 0) never happened in this scene: a
        // sensor sends events only while active (clause 8.4.1), so it sends none. NancyNativeTags' walk
        // (loop TRUE, startTime −1, stopTime 0) waits for its TouchSensor, as in X_ITE and view3dscene.
        let run_end = match (stop, end_of_cycle) {
            (Some(s), Some(e)) => Some(s.min(e)),
            (s, e) => s.or(e),
        };
        if run_end.is_some_and(|end| end <= 0.0) {
            return idle;
        }
        let (effective, paused) = self.unpaused_time(t);
        let stopped_at = match (stop, end_of_cycle) {
            (Some(s), _) if t >= s => Some(self.unpaused_time(s).0),
            _ => None,
        };
        let ended = stopped_at.or(end_of_cycle.filter(|&e| effective >= e));
        let at = ended.map_or(effective, |e| e.min(end_of_cycle.unwrap_or(f64::INFINITY)));
        let elapsed = at - self.start_time;
        let cycles = elapsed / self.cycle_interval;
        let mut fraction = cycles.fract() as f32;
        if fraction == 0.0 && elapsed > 0.0 {
            fraction = 1.0;
        }
        // The cycle the fraction belongs to: an end-of-cycle 1.0 belongs to the cycle that ends.
        let cycle = if fraction == 1.0 { (cycles.round() as u64).saturating_sub(1) } else { cycles.floor() as u64 };
        SensorState {
            active: ended.is_none(),
            paused: ended.is_none() && paused,
            fraction: Some(fraction),
            cycle,
            cycle_time: self.start_time + cycle as f64 * self.cycle_interval,
            elapsed,
        }
    }

    /// Takes an event into one of its fields at scene time `t` (a ROUTE into `set_startTime`, …), with
    /// clause 8.4.1's rules for a running sensor: `startTime` and `cycleInterval` events are ignored while
    /// it is active, and a `stopTime` at or before `startTime` too. A sensor that is not running keeps its
    /// past: an event other than `startTime` that would change what it shows at `t` (a `stopTime` given to
    /// a sensor whose run was over before the scene loaded would bring that run back) is ignored. Returns
    /// false for a field it does not take or a value of the wrong type.
    pub fn take(&mut self, field: &str, value: &FieldValue, t: f64) -> bool {
        let now = self.state(t);
        if !now.active && field != "startTime" {
            let mut changed = self.clone();
            let taken = changed.set(field, value, false);
            if taken && changed.state(t) == now {
                *self = changed;
            }
            return taken;
        }
        self.set(field, value, now.active)
    }

    /// Sets one field with the rules for an `active` sensor (see [`take`](Self::take)).
    fn set(&mut self, field: &str, value: &FieldValue, active: bool) -> bool {
        let time = value.as_time();
        match (field, time, value.as_bool()) {
            ("startTime", Some(v), _) => {
                if !active {
                    self.start_time = v;
                    self.start_before_load = false;
                }
            }
            ("stopTime", Some(v), _) => {
                if !(active && v <= self.start_time) {
                    self.stop_time = v;
                }
            }
            ("pauseTime", Some(v), _) => self.pause_time = v,
            ("resumeTime", Some(v), _) => self.resume_time = v,
            ("cycleInterval", Some(v), _) => {
                if !active && v > 0.0 {
                    self.cycle_interval = v;
                }
            }
            ("enabled", _, Some(b)) => self.enabled = b,
            ("loop", _, Some(b)) => self.looping = b,
            _ => return false,
        }
        true
    }

    /// Scene time `t` on the sensor's own clock (pauses taken out), and whether it is paused at `t`.
    fn unpaused_time(&self, t: f64) -> (f64, bool) {
        let pause = self.pause_time;
        if pause <= self.start_time || t < pause {
            return (t, false);
        }
        if self.resume_time > pause {
            if t < self.resume_time { (pause, true) } else { (t - (self.resume_time - pause), false) }
        } else {
            (pause, true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sensor(looping: bool) -> TimeSensor {
        TimeSensor {
            node: NodeId(0),
            enabled: true,
            looping,
            cycle_interval: 2.0,
            start_time: 0.0,
            stop_time: 0.0,
            pause_time: 0.0,
            resume_time: 0.0,
            start_before_load: false,
        }
    }

    #[test]
    fn looping_sensor_wraps_and_ends_cycles_on_one() {
        let s = sensor(true);
        assert_eq!(s.state(0.0).fraction, Some(0.0));
        assert_eq!(s.state(0.5).fraction, Some(0.25));
        assert_eq!(s.state(4.5).fraction, Some(0.25));
        // fract = 0 after the start is the end of a cycle (clause 8.4.1).
        assert_eq!(s.state(2.0).fraction, Some(1.0));
        assert_eq!(s.state(2.0).cycle, 0);
        assert_eq!(s.state(2.5).cycle, 1);
        assert_eq!(s.state(2.5).cycle_time, 2.0);
        assert!(s.state(100.0).active);
    }

    #[test]
    fn one_shot_sensor_stops_on_one() {
        let s = sensor(false);
        assert!(s.state(1.0).active);
        assert_eq!(s.state(1.0).fraction, Some(0.5));
        let end = s.state(2.0);
        assert_eq!((end.active, end.fraction), (false, Some(1.0)));
        let later = s.state(7.0);
        assert_eq!((later.active, later.fraction), (false, Some(1.0)));
    }

    #[test]
    fn a_run_over_before_the_scene_loaded_sends_nothing() {
        // loop TRUE, startTime −1, stopTime 0: over at load (NancyNativeTags' touch-started walk).
        let mut s = sensor(true);
        s.start_time = -1.0;
        s.stop_time = 0.0;
        assert_eq!(s.state(1.0).fraction, None);
        assert!(!s.state(1.0).active);
        // A one-shot started (by an event) before the load but ending after it runs to its end (its
        // stopTime and pauseTime ≤ startTime are ignored; the defaults, 0, would have stopped or paused
        // it at the load).
        let mut one = sensor(false);
        one.start_time = -1.0;
        one.stop_time = -1.0;
        one.pause_time = -1.0;
        assert!(one.state(0.5).active);
        assert_eq!(one.state(1.5).fraction, Some(1.0));
    }

    #[test]
    fn a_one_shot_whose_file_start_is_at_the_load_waits_for_a_start_event() {
        // Walking_AlienX_ITE: loop FALSE, startTime 0 in the file. X3D time is absolute (clause 8.2.2),
        // so its one cycle ended long before the load: no events, the figure stays at rest.
        let mut s = sensor(false);
        s.start_before_load = true;
        for t in [0.0, 0.5, 1.0, 3.0] {
            assert_eq!(s.state(t).fraction, None, "at {t} s");
            assert!(!s.state(t).active);
        }
        // A startTime event (a touch, a script) starts it then.
        assert!(s.take("startTime", &FieldValue::Time(3.0), 3.0));
        assert!(!s.start_before_load);
        assert_eq!(s.state(4.0).fraction, Some(0.5));
        assert_eq!(s.state(6.0).fraction, Some(1.0));
        // A looping sensor with the same start runs from it (clause 8.4.1).
        let mut looping = sensor(true);
        looping.start_before_load = true;
        assert_eq!(looping.state(0.5).fraction, Some(0.25));
        // A file start after the load is on the scene clock: it runs then.
        let mut later = sensor(false);
        later.start_time = 1.0;
        assert_eq!(later.state(0.5).fraction, None);
        assert_eq!(later.state(2.0).fraction, Some(0.5));
    }

    #[test]
    fn events_into_a_sensor_follow_the_rules_for_a_running_one() {
        // NancyNativeTags' walk: over at load, started by a touch at 3 s, stopped by another at 5 s.
        let mut s = sensor(true);
        s.start_time = -1.0;
        assert!(s.take("startTime", &FieldValue::Time(3.0), 3.0));
        assert_eq!(s.state(4.0).fraction, Some(0.5));
        // Active: a new startTime is ignored, a stopTime at or before the start too.
        s.take("startTime", &FieldValue::Time(4.5), 4.5);
        s.take("stopTime", &FieldValue::Time(2.0), 4.5);
        assert_eq!((s.start_time, s.stop_time), (3.0, 0.0));
        s.take("stopTime", &FieldValue::Time(5.0), 5.0);
        let stopped = s.state(6.0);
        assert_eq!((stopped.active, stopped.fraction), (false, Some(1.0)));
        // Stopped: it can start again.
        s.take("startTime", &FieldValue::Time(7.0), 7.0);
        assert!(s.state(7.5).active);
        // A run over before the scene loaded stays over: a stopTime after it does not bring it back (Nancy's
        // Jump, one cycle from −1 s stopped at 0, gets stopTime 1 from the Walk label).
        let mut jump = sensor(false);
        jump.start_time = -1.0;
        assert_eq!(jump.state(1.0).fraction, None);
        assert!(jump.take("stopTime", &FieldValue::Time(1.0), 1.0));
        assert_eq!(jump.state(2.5).fraction, None, "still idle");
        // Set for a run to come, it is kept.
        let mut later = sensor(false);
        later.start_time = 5.0;
        later.take("stopTime", &FieldValue::Time(5.5), 1.0);
        assert_eq!(later.stop_time, 5.5);
        assert_eq!(later.state(6.0).fraction, Some(0.25));
        assert!(!s.take("fraction", &FieldValue::Float(0.5), 8.0), "an output is no input");
        assert!(!s.take("enabled", &FieldValue::Time(1.0), 8.0), "wrong type");
        s.take("enabled", &FieldValue::Bool(false), 8.0);
        assert!(!s.state(8.0).active);
    }

    #[test]
    fn start_stop_enabled_and_pause() {
        let mut s = sensor(true);
        s.start_time = 1.0;
        assert_eq!(s.state(0.5).fraction, None);
        assert_eq!(s.state(1.5).fraction, Some(0.25));
        s.stop_time = 2.0;
        let stopped = s.state(3.0);
        assert_eq!((stopped.active, stopped.fraction), (false, Some(0.5)));
        // stopTime ≤ startTime is ignored.
        s.stop_time = 0.5;
        assert!(s.state(3.0).active);
        s.enabled = false;
        assert_eq!(s.state(3.0).fraction, None);

        let mut p = sensor(true);
        p.pause_time = 1.0;
        let paused = p.state(1.5);
        assert!(paused.paused && paused.active);
        assert_eq!(paused.fraction, Some(0.5));
        p.resume_time = 3.0;
        assert_eq!(p.state(3.5).fraction, Some(0.75));
        assert_eq!(p.state(3.5).elapsed, 1.5);
    }
}
