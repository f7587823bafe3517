//! Issue 34, problem 7 — legible text: normal and weak text (hints, captions, the status bar's asides) at
//! a contrast of at least 4.5:1 on the panels, windows, text fields and striped rows, in the dark and the
//! light theme (WCAG 2 contrast computed from egui's visuals); no text style under 12 points; a glyph in
//! the fonts for every character the UI's source writes ("→", "▸", "…", "×", …); long texts (the
//! adapter's name, viewpoint labels) cut to one line instead of running off or wrapping mid-phrase.

mod common;

use egui::{Color32, Theme};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::ui::{self, FrameInfo, PoseEditor, SceneSummary, UiState};

struct App {
    path: std::path::PathBuf,
    doc: Document,
    summary: SceneSummary,
    editor: PoseEditor,
    ui: UiState,
    adapter: String,
}

fn harness(file: &str, size: [f32; 2], adapter: &str) -> Harness<'static, App> {
    let path = common::corpus(&format!("x3d/{file}"));
    let doc = hanim::load(&path).expect("corpus file loads");
    let summary = SceneSummary::new(&doc, &doc.humanoids[0]);
    let editor = PoseEditor::new(&doc.humanoids[0]);
    let app = App { path, doc, summary, editor, ui: UiState::default(), adapter: adapter.to_string() };
    Harness::builder().with_size(egui::vec2(size[0], size[1])).build_ui_state(
        |ui, app: &mut App| {
            // As the app fills it in: the file, its height, frame figures and the adapter.
            let info = FrameInfo {
                file: Some(&app.path),
                adapter: &app.adapter,
                fps: 60.0,
                frame_ms: 16.7,
                work_ms: 2.0,
                triangles: 12345,
                figure_height: Some(1.77),
                ..Default::default()
            };
            let (commands, _) = ui::app_ui(ui, &mut app.ui, Some((&app.summary, &app.editor.pose)), &info, None);
            for c in commands {
                app.editor.apply(&app.doc.humanoids[0], &mut app.ui, c);
            }
        },
        app,
    )
}

/// WCAG 2 relative luminance.
fn luminance(c: Color32) -> f64 {
    let f = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.04045 { s / 12.92 } else { ((s + 0.055) / 1.055).powf(2.4) }
    };
    0.2126 * f(c.r()) + 0.7152 * f(c.g()) + 0.0722 * f(c.b())
}

fn contrast(a: Color32, b: Color32) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// A premultiplied colour drawn over an opaque one.
fn over(top: Color32, under: Color32) -> Color32 {
    let a = f64::from(top.a()) / 255.0;
    let m = |t: u8, u: u8| (f64::from(t) + f64::from(u) * (1.0 - a)).round().min(255.0) as u8;
    Color32::from_rgb(m(top.r(), under.r()), m(top.g(), under.g()), m(top.b(), under.b()))
}

#[test]
fn text_and_weak_text_reach_4_5_to_1_in_both_themes() {
    let mut h = harness("JoeKick.x3d", [1024.0, 640.0], "test");
    h.run();
    for theme in [Theme::Dark, Theme::Light] {
        let style = h.ctx.style_of(theme);
        let v = &style.visuals;
        let backgrounds = [
            ("panel", v.panel_fill),
            ("window", v.window_fill),
            ("text field", v.extreme_bg_color),
            ("striped row", over(v.faint_bg_color, v.panel_fill)),
        ];
        for (what, text) in [("text", v.text_color()), ("weak text", v.weak_text_color())] {
            for (on, background) in backgrounds {
                // Weak text is drawn as its colour over the background (it may be translucent).
                let seen = over(text, background);
                let ratio = contrast(seen, background);
                eprintln!("{theme:?}: {what} {seen:?} on {on} {background:?}: {ratio:.2}:1");
                assert!(ratio >= 4.5, "{theme:?}: {what} on the {on} is {ratio:.2}:1");
            }
        }
    }
}

#[test]
fn no_text_style_is_under_12_points() {
    let mut h = harness("JoeKick.x3d", [1024.0, 640.0], "test");
    h.run();
    for theme in [Theme::Dark, Theme::Light] {
        for (text_style, font) in &h.ctx.style_of(theme).text_styles {
            assert!(font.size >= 12.0, "{theme:?}: {text_style:?} is {} points", font.size);
        }
    }
}

/// The characters outside ASCII in the UI's source (comments left out): what its labels, menus, hints
/// and toasts can write.
fn ui_characters() -> std::collections::BTreeSet<char> {
    let mut chars = std::collections::BTreeSet::new();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![root.join("ui"), root.join("app")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                for line in std::fs::read_to_string(&path).unwrap().lines() {
                    let code = line.split("//").next().unwrap_or("");
                    chars.extend(code.chars().filter(|c| !c.is_ascii()));
                }
            }
        }
    }
    chars
}

#[test]
fn every_character_the_ui_writes_has_a_glyph() {
    let mut h = harness("JoeKick.x3d", [1024.0, 640.0], "test");
    h.run();
    let chars = ui_characters();
    assert!(chars.contains(&'▸') && chars.contains(&'…'), "{chars:?}");
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        let font = egui::FontId::new(13.0, family.clone());
        let missing: String = h.ctx.fonts_mut(|f| chars.iter().copied().filter(|&c| !f.has_glyph(&font, c)).collect());
        assert!(missing.is_empty(), "{family:?} has no glyph for {missing:?}");
    }
}

#[test]
fn a_long_adapter_name_is_cut_to_the_window() {
    let adapter = "llvmpipe (LLVM 19.1.7, 256 bits) (Vulkan, Cpu, driver llvmpipe: Mesa 25.0.7-2 (LLVM 19.1.7)) with a very long tail";
    let mut h = harness("JoeKick.x3d", [1024.0, 640.0], adapter);
    h.run();
    let label = h.get_by_label(adapter).rect();
    eprintln!("the adapter's name: {label:?}");
    assert!(label.right() <= 1024.0 + 0.5, "the adapter's name runs off the window: {label:?}");
    assert!(label.height() < 24.0, "the adapter's name takes more than a line: {label:?}");
}

#[test]
fn viewpoint_labels_keep_one_line() {
    let mut h = harness("HAnim2SpecificationLOA3Illustrated.x3d", [1024.0, 640.0], "test");
    h.run();
    let views: Vec<String> = h.state().summary.views.iter().map(|v| v.label.clone()).collect();
    let longest = views.iter().max_by_key(|v| v.len()).expect("the model has views").clone();
    eprintln!("longest viewpoint label: {longest:?}");
    let mut checked = 0;
    for node in h.query_all_by_label_contains(&longest) {
        let r = node.rect();
        assert!(r.height() < 24.0, "{longest:?} takes {} points: wrapped", r.height());
        checked += 1;
    }
    assert!(checked > 0, "no viewpoint row found");
}
