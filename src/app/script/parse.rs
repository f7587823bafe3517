//! Reading a script's text into [`ScriptStep`]s, with the line number of every error.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use super::{ClickAt, ScriptLine, ScriptStep};

fn numbers<const N: usize>(words: &[&str], line: usize) -> Result<[f32; N]> {
    if words.len() != N {
        bail!("line {line}: expected {N} numbers, found {}", words.len());
    }
    let mut out = [0.0; N];
    for (o, w) in out.iter_mut().zip(words) {
        *o = w.parse::<f32>().with_context(|| format!("line {line}: '{w}' is not a number"))?;
    }
    Ok(out)
}

pub fn parse_script(text: &str) -> Result<Vec<ScriptLine>> {
    let mut steps = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.split('#').next().unwrap_or("").trim();
        if trimmed.is_empty() {
            continue;
        }
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let rest = &words[1..];
        let one = |what: &str| -> Result<String> {
            match rest {
                [w] => Ok((*w).to_string()),
                _ => bail!("line {line}: '{}' takes one {what}", words[0]),
            }
        };
        let none = || -> Result<()> {
            if rest.is_empty() { Ok(()) } else { bail!("line {line}: '{}' takes no arguments", words[0]) }
        };
        let step = match words[0] {
            "open" => ScriptStep::Open(PathBuf::from(trimmed["open".len()..].trim())),
            "select" => ScriptStep::Select(one("joint name")?),
            "humanoid" => ScriptStep::Humanoid(one("humanoid number or name")?),
            "rotate" | "translate" => {
                let Some((joint, values)) = rest.split_first() else {
                    bail!("line {line}: '{}' needs a joint", words[0])
                };
                let v = numbers::<3>(values, line)?;
                if words[0] == "rotate" {
                    ScriptStep::Rotate((*joint).to_string(), v)
                } else {
                    ScriptStep::Translate((*joint).to_string(), v)
                }
            }
            "displacer" => {
                let [name, weight] = rest else { bail!("line {line}: 'displacer' takes a name and a weight") };
                let [w] = numbers::<1>(&[weight], line)?;
                ScriptStep::Displacer((*name).to_string(), w)
            }
            "view" => ScriptStep::View(trimmed["view".len()..].trim().to_string()),
            "limits" => match rest {
                ["on"] => ScriptStep::Limits(true),
                ["off"] => ScriptStep::Limits(false),
                _ => bail!("line {line}: 'limits' takes on or off"),
            },
            "fit" => none().map(|_| ScriptStep::Fit)?,
            "reset" => none().map(|_| ScriptStep::Reset)?,
            "undo" => none().map(|_| ScriptStep::Undo)?,
            "redo" => none().map(|_| ScriptStep::Redo)?,
            "quit" => none().map(|_| ScriptStep::Quit)?,
            "lose-device" => none().map(|_| ScriptStep::LoseDevice)?,
            "check-ui-picture" => none().map(|_| ScriptStep::CheckUiPicture)?,
            "wait" => {
                let n = one("frame count")?;
                ScriptStep::Wait(n.parse().with_context(|| format!("line {line}: '{n}' is not a frame count"))?)
            }
            "rest" => {
                let [seconds, max_frames] = numbers::<2>(rest, line)?;
                if !(seconds > 0.0 && seconds <= 600.0 && max_frames >= 0.0 && max_frames.fract() == 0.0) {
                    bail!("line {line}: 'rest' takes seconds (0 to 600) and a whole number of frames");
                }
                ScriptStep::Rest { seconds, max_frames: max_frames as u32 }
            }
            "resize" => {
                let [w, h] = numbers::<2>(rest, line)?;
                if !(w >= 64.0 && h >= 64.0 && w <= 16384.0 && h <= 16384.0) {
                    bail!("line {line}: 'resize' takes a width and height from 64 to 16384");
                }
                ScriptStep::Resize(w as u32, h as u32)
            }
            "screenshot-size" => match rest {
                ["view"] => ScriptStep::ScreenshotSize(None),
                _ => {
                    let [w, h] = numbers::<2>(rest, line)?;
                    if !(w >= 16.0 && h >= 16.0 && w <= 16384.0 && h <= 16384.0 && w.fract() == 0.0 && h.fract() == 0.0)
                    {
                        bail!(
                            "line {line}: 'screenshot-size' takes 'view' or a whole width and height from 16 to 16384"
                        );
                    }
                    ScriptStep::ScreenshotSize(Some([w as u32, h as u32]))
                }
            },
            "motion" => {
                let [name, seconds] = rest else {
                    bail!("line {line}: 'motion' takes a clip name and a time in seconds")
                };
                let [t] = numbers::<1>(&[seconds], line)?;
                ScriptStep::Motion((*name).to_string(), f64::from(t))
            }
            "limit-report" => match rest {
                [] => ScriptStep::LimitReport,
                _ => bail!("line {line}: 'limit-report' takes no argument"),
            },
            "limit-jump" => match rest {
                [n] => ScriptStep::LimitJump(
                    n.parse().map_err(|_| anyhow::anyhow!("line {line}: 'limit-jump' takes a line number from 0"))?,
                ),
                _ => bail!("line {line}: 'limit-jump' takes a line number from 0"),
            },
            "play-as-file" => match rest {
                ["on"] => ScriptStep::PlayAsFile(true),
                ["off"] => ScriptStep::PlayAsFile(false),
                _ => bail!("line {line}: 'play-as-file' takes on or off"),
            },
            "time" => {
                let [t] = numbers::<1>(rest, line)?;
                if !(t >= 0.0 && t.is_finite()) {
                    bail!("line {line}: 'time' takes seconds ≥ 0");
                }
                ScriptStep::Time(f64::from(t))
            }
            "overlay" => {
                let choice = one("overlay (heatmap[:JOINT], influences, unweighted, axes, sites, off)")?;
                ScriptStep::Overlay(choice.parse().map_err(|e: String| anyhow::anyhow!("line {line}: {e}"))?)
            }
            "pick-vertex" => {
                let [x, y] = numbers::<2>(rest, line)?;
                if !(x >= 0.0 && y >= 0.0) {
                    bail!("line {line}: 'pick-vertex' takes pixel coordinates ≥ 0");
                }
                ScriptStep::PickVertex(x, y)
            }
            "click" => match rest {
                [name] if name.parse::<f32>().is_err() => ScriptStep::Click(ClickAt::Node((*name).to_string())),
                _ => {
                    let [x, y] = numbers::<2>(rest, line).map_err(|_| {
                        anyhow::anyhow!("line {line}: 'click' takes pixel coordinates X Y or a DEF name")
                    })?;
                    if !(x >= 0.0 && y >= 0.0) {
                        bail!("line {line}: 'click' takes pixel coordinates ≥ 0");
                    }
                    ScriptStep::Click(ClickAt::Pixel(x, y))
                }
            },
            "export-animation" => {
                let usage = || {
                    anyhow::anyhow!(
                        "line {line}: 'export-animation' takes clip or turntable, a width and height from 16 to 4096, \
                         frames per second (1 to 60) and a file name"
                    )
                };
                let [what, w, h, fps, ..] = rest else { return Err(usage()) };
                let what = crate::ui::export::ExportWhat::from_name(what).ok_or_else(usage)?;
                let [w, h, fps] = numbers::<3>(&[w, h, fps], line)?;
                let path = rest[4..].join(" ");
                if !(16.0..=4096.0).contains(&w)
                    || !(16.0..=4096.0).contains(&h)
                    || !(1.0..=60.0).contains(&fps)
                    || path.is_empty()
                {
                    return Err(usage());
                }
                ScriptStep::ExportAnimation {
                    what,
                    size: [w as u32, h as u32],
                    fps: f64::from(fps),
                    path: PathBuf::from(path),
                }
            }
            "screenshot" => ScriptStep::Screenshot(PathBuf::from(trimmed["screenshot".len()..].trim())),
            "window-screenshot" => {
                ScriptStep::WindowScreenshot(PathBuf::from(trimmed["window-screenshot".len()..].trim()))
            }
            "capture" => ScriptStep::Capture(PathBuf::from(trimmed["capture".len()..].trim())),
            "save-pose" => ScriptStep::SavePose(PathBuf::from(trimmed["save-pose".len()..].trim())),
            "load-pose" => {
                let source = trimmed["load-pose".len()..].trim();
                if source.is_empty() {
                    bail!("line {line}: 'load-pose' needs a pose file or builtin:NAME");
                }
                ScriptStep::LoadPose(source.to_string())
            }
            "screenshot-overlays" => match rest {
                ["on"] => ScriptStep::ScreenshotOverlays(true),
                ["off"] => ScriptStep::ScreenshotOverlays(false),
                _ => bail!("line {line}: 'screenshot-overlays' takes on or off"),
            },
            "screenshot-background" => match rest {
                ["transparent"] => ScriptStep::ScreenshotTransparent(true),
                ["view"] => ScriptStep::ScreenshotTransparent(false),
                _ => bail!("line {line}: 'screenshot-background' takes transparent or view"),
            },
            "play" => none().map(|_| ScriptStep::Play)?,
            "open-dialog" => none().map(|_| ScriptStep::OpenDialog)?,
            "pose-library" => match rest {
                ["on"] => ScriptStep::PoseLibrary(true),
                ["off"] => ScriptStep::PoseLibrary(false),
                _ => bail!("line {line}: 'pose-library' takes on or off"),
            },
            "mapping" => ScriptStep::Mapping(PathBuf::from(trimmed["mapping".len()..].trim())),
            "map" => {
                let Some((source, targets)) = rest.split_first() else {
                    bail!("line {line}: 'map' takes a capture joint and the H-Anim joints it drives (none: nothing)")
                };
                ScriptStep::Map((*source).to_string(), targets.iter().map(|t| (*t).to_string()).collect())
            }
            "reach" | "drag" => {
                let (to_root, rest) = match rest {
                    [body @ .., "root"] => (true, body),
                    _ => (false, rest),
                };
                let Some((effector, values)) = rest.split_first() else {
                    bail!("line {line}: '{}' takes an effector and X Y Z (and 'root')", words[0])
                };
                let (effector, target) = ((*effector).to_string(), numbers::<3>(values, line)?);
                if words[0] == "reach" {
                    ScriptStep::Reach(effector, target, to_root)
                } else {
                    ScriptStep::Drag(effector, target, to_root)
                }
            }
            "pin" => ScriptStep::Pin(one("effector (Site or joint)")?),
            "expect" => {
                let Some((effector, values)) = rest.split_first() else {
                    bail!("line {line}: 'expect' takes an effector, X Y Z and a tolerance")
                };
                let [x, y, z, tolerance] = numbers::<4>(values, line)?;
                ScriptStep::Expect((*effector).to_string(), [x, y, z], tolerance)
            }
            "key" => none().map(|_| ScriptStep::Key)?,
            "key-move" => {
                let [from, to] = numbers::<2>(rest, line)?;
                if !(from >= 0.0 && to >= 0.0 && from.is_finite() && to.is_finite()) {
                    bail!("line {line}: 'key-move' takes two times in seconds ≥ 0");
                }
                ScriptStep::KeyMove(f64::from(from), f64::from(to))
            }
            "key-delete" => {
                let [t] = numbers::<1>(rest, line)?;
                ScriptStep::KeyDelete(f64::from(t))
            }
            "export" => parse_export(rest, line)?,
            "export-gltf" => {
                let current_pose = rest.first() == Some(&"--current-pose");
                let path = rest[usize::from(current_pose)..].join(" ");
                if path.is_empty() {
                    bail!("line {line}: 'export-gltf' needs a file name");
                }
                ScriptStep::ExportGltf { path: PathBuf::from(path), current_pose }
            }
            other => bail!("line {line}: unknown action '{other}'"),
        };
        if matches!(&step, ScriptStep::Open(p) | ScriptStep::WindowScreenshot(p) | ScriptStep::Capture(p) | ScriptStep::Mapping(p) | ScriptStep::SavePose(p) if p.as_os_str().is_empty())
        {
            bail!("line {line}: '{}' needs a file name", words[0]);
        }
        if matches!(&step, ScriptStep::View(v) if v.is_empty()) {
            bail!("line {line}: 'view' needs a name or number");
        }
        steps.push(ScriptLine { line, step });
    }
    Ok(steps)
}

/// `export FILE [--as-interpolators] [--fps N] [--rest-pose]` (the file name may hold spaces).
fn parse_export(words: &[&str], line: usize) -> Result<ScriptStep> {
    let (mut as_interpolators, mut fps, mut rest_pose, mut path) = (false, None, false, Vec::new());
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "--as-interpolators" => as_interpolators = true,
            "--rest-pose" => rest_pose = true,
            "--fps" => {
                let value = words.get(i + 1).and_then(|w| w.parse::<f64>().ok()).filter(|v| *v > 0.0 && *v <= 240.0);
                fps = Some(value.with_context(|| format!("line {line}: '--fps' takes frames per second (1 to 240)"))?);
                i += 1;
            }
            word => path.push(word),
        }
        i += 1;
    }
    if path.is_empty() {
        bail!("line {line}: 'export' needs a file name");
    }
    Ok(ScriptStep::SaveX3d { path: PathBuf::from(path.join(" ")), as_interpolators, fps, rest_pose })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::script::commands_for;
    use crate::ui::command::UiCommand;
    use crate::ui::scene::SceneSummary;

    #[test]
    fn overlay_and_pick_vertex_steps_parse() {
        use crate::pose::skin_inspection::OverlayChoice;
        let steps =
            parse_script("overlay heatmap:l_shoulder\noverlay influences\noverlay off\npick-vertex 12 30.5\n").unwrap();
        let steps: Vec<ScriptStep> = steps.into_iter().map(|s| s.step).collect();
        assert_eq!(
            steps,
            vec![
                ScriptStep::Overlay(OverlayChoice::Heatmap(Some("l_shoulder".into()))),
                ScriptStep::Overlay(OverlayChoice::Influences),
                ScriptStep::Overlay(OverlayChoice::Off),
                ScriptStep::PickVertex(12.0, 30.5),
            ]
        );
        assert!(parse_script("overlay weights\n").unwrap_err().to_string().contains("line 1"));
        assert!(parse_script("pick-vertex 3\n").is_err());
        assert!(parse_script("pick-vertex -1 4\n").is_err());
    }

    #[test]
    fn scripts_parse_and_report_bad_lines() {
        let s = parse_script(
            "# pose an arm\nselect l_shoulder\nrotate l_shoulder 0 0 90\n\ndisplacer l_eyebrow 0.5\nview Front\nwait 3\nscreenshot /tmp/a b.png\nlimits off\nquit\n",
        )
        .unwrap();
        assert_eq!(s.len(), 8);
        assert_eq!(s[1].step, ScriptStep::Rotate("l_shoulder".into(), [0.0, 0.0, 90.0]));
        assert_eq!(s[1].line, 3);
        assert_eq!(s[5].step, ScriptStep::Screenshot(PathBuf::from("/tmp/a b.png")));
        assert!(parse_script("rotate l_knee 1 2").unwrap_err().to_string().contains("line 1"));
        assert!(parse_script("\njump").unwrap_err().to_string().contains("line 2: unknown action 'jump'"));
        assert_eq!(parse_script("screenshot").unwrap()[0].step, ScriptStep::Screenshot(PathBuf::new()));
        assert_eq!(parse_script("screenshot-overlays on").unwrap()[0].step, ScriptStep::ScreenshotOverlays(true));
        assert!(parse_script("screenshot-overlays").is_err());
        assert_eq!(
            parse_script("screenshot-background transparent").unwrap()[0].step,
            ScriptStep::ScreenshotTransparent(true)
        );
        assert_eq!(
            parse_script("screenshot-background view").unwrap()[0].step,
            ScriptStep::ScreenshotTransparent(false)
        );
        assert!(parse_script("screenshot-background black").is_err());
        assert_eq!(parse_script("play\nopen-dialog").unwrap()[1].step, ScriptStep::OpenDialog);
        assert_eq!(
            parse_script("window-screenshot /tmp/w s.png").unwrap()[0].step,
            ScriptStep::WindowScreenshot(PathBuf::from("/tmp/w s.png"))
        );
        assert!(parse_script("window-screenshot").unwrap_err().to_string().contains("needs a file name"));
        assert_eq!(
            parse_script("screenshot-size 320 200").unwrap()[0].step,
            ScriptStep::ScreenshotSize(Some([320, 200]))
        );
        assert_eq!(parse_script("screenshot-size view").unwrap()[0].step, ScriptStep::ScreenshotSize(None));
        assert!(parse_script("screenshot-size 320").is_err());
        assert!(parse_script("screenshot-size 0 200").is_err());
        assert!(parse_script("screenshot-size 320.5 200").is_err());
        assert_eq!(parse_script("rest 2.5 1").unwrap()[0].step, ScriptStep::Rest { seconds: 2.5, max_frames: 1 });
        for bad in ["rest", "rest 2", "rest 0 1", "rest 2 1.5", "rest 2 -1"] {
            assert!(parse_script(bad).is_err(), "{bad}");
        }
        let capture =
            parse_script("capture /c/07_05.amc\nmapping m.txt\nmap lhumerus\nmap rfemur r_hip r_knee").unwrap();
        assert_eq!(capture[0].step, ScriptStep::Capture(PathBuf::from("/c/07_05.amc")));
        assert_eq!(capture[1].step, ScriptStep::Mapping(PathBuf::from("m.txt")));
        assert_eq!(capture[2].step, ScriptStep::Map("lhumerus".into(), vec![]));
        assert_eq!(capture[3].step, ScriptStep::Map("rfemur".into(), vec!["r_hip".into(), "r_knee".into()]));
        assert!(parse_script("map").unwrap_err().to_string().contains("line 1: 'map' takes"));
        assert_eq!(parse_script("humanoid 2").unwrap()[0].step, ScriptStep::Humanoid("2".into()));
        let two = SceneSummary { humanoid_names: vec!["a".into(), "b".into()], ..SceneSummary::default() };
        assert_eq!(
            commands_for(&ScriptStep::Humanoid("2".into()), &two, 1).unwrap(),
            [UiCommand::SelectHumanoid(crate::hanim::HumanoidIndex(1))]
        );
        assert_eq!(
            commands_for(&ScriptStep::Humanoid("a".into()), &two, 1).unwrap(),
            [UiCommand::SelectHumanoid(crate::hanim::HumanoidIndex(0))]
        );
        let e = commands_for(&ScriptStep::Humanoid("3".into()), &two, 4).unwrap_err().to_string();
        assert_eq!(e, "line 4: no humanoid '3' (the file has 2: a, b)");
        assert_eq!(parse_script("play-as-file on").unwrap()[0].step, ScriptStep::PlayAsFile(true));
        assert_eq!(parse_script("time 1.5").unwrap()[0].step, ScriptStep::Time(1.5));
        assert!(parse_script("play-as-file").is_err());
        assert!(parse_script("time -1").is_err());
        assert_eq!(parse_script("click 10 20.5").unwrap()[0].step, ScriptStep::Click(ClickAt::Pixel(10.0, 20.5)));
        assert_eq!(
            parse_script("click Walk_Touch").unwrap()[0].step,
            ScriptStep::Click(ClickAt::Node("Walk_Touch".into()))
        );
        assert!(parse_script("click 1 2 3").unwrap_err().to_string().contains("'click' takes pixel coordinates"));
        assert!(parse_script("click -1 2").is_err());
        assert!(parse_script("click").is_err());
        assert!(parse_script("capture").unwrap_err().to_string().contains("needs a file name"));
        let poses = parse_script("save-pose /tmp/a pose.json\nload-pose builtin:t-pose\npose-library on").unwrap();
        assert_eq!(poses[0].step, ScriptStep::SavePose(PathBuf::from("/tmp/a pose.json")));
        assert_eq!(poses[1].step, ScriptStep::LoadPose("builtin:t-pose".into()));
        assert_eq!(poses[2].step, ScriptStep::PoseLibrary(true));
        assert!(parse_script("save-pose").unwrap_err().to_string().contains("needs a file name"));
        assert!(parse_script("load-pose").unwrap_err().to_string().contains("line 1: 'load-pose' needs"));
        assert!(parse_script("pose-library maybe").is_err());
        let keys = parse_script("key\nkey-move 1 2.5\nkey-delete 2.5\nexport /tmp/a b.x3d --as-interpolators --fps 24")
            .unwrap();
        assert_eq!(keys[0].step, ScriptStep::Key);
        assert_eq!(keys[1].step, ScriptStep::KeyMove(1.0, 2.5));
        assert_eq!(keys[2].step, ScriptStep::KeyDelete(2.5));
        assert_eq!(
            keys[3].step,
            ScriptStep::SaveX3d {
                path: PathBuf::from("/tmp/a b.x3d"),
                as_interpolators: true,
                fps: Some(24.0),
                rest_pose: false
            }
        );
        assert!(parse_script("key 1").is_err());
        assert!(parse_script("key-move 1").is_err());
        assert!(parse_script("export --fps 0 a.x3d").unwrap_err().to_string().contains("'--fps' takes"));
        assert!(parse_script("export --rest-pose").unwrap_err().to_string().contains("needs a file name"));
        let gltf = parse_script("export-gltf /tmp/a b.glb\nexport-gltf --current-pose c.gltf").unwrap();
        assert_eq!(gltf[0].step, ScriptStep::ExportGltf { path: PathBuf::from("/tmp/a b.glb"), current_pose: false });
        assert_eq!(gltf[1].step, ScriptStep::ExportGltf { path: PathBuf::from("c.gltf"), current_pose: true });
        assert!(parse_script("export-gltf --current-pose").unwrap_err().to_string().contains("needs a file name"));
    }
}
