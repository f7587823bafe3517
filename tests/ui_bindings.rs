//! One table of keyboard bindings (`src/ui/bindings.rs`) for the whole window: no key has two meanings,
//! the Help window shows each binding as the table has it, each key pressed in the window's UI (the
//! transport's keys first, then the rest, in the order the app runs them) does what Help says — K sets a
//! key and B shows or hides the skeleton, where Help once said K hid the skeleton while K set a key — and
//! the guide's key table is the table's. Also the navigation aids drawn over the 3D view: the hint strip
//! (dismissable) and the axis gizmo, whose axes turn the camera.

mod common;

use std::collections::HashSet;
use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hanim_viewer::animation::Transport;
use hanim_viewer::hanim::{self, Document};
use hanim_viewer::ui::bindings::{self, Action, BINDINGS};
use hanim_viewer::ui::keys::KeyCommand;
use hanim_viewer::ui::transport::TransportCommand;
use hanim_viewer::ui::{self, FrameInfo, PoseEditor, SceneSummary, UiCommand, UiState};

struct Window {
    doc: Document,
    summary: SceneSummary,
    editor: PoseEditor,
    ui: UiState,
    transport: Transport,
    /// The commands the panels and keys asked for this run.
    asked: Vec<UiCommand>,
    /// The camera rotation the gizmo is drawn for.
    view_rotation: Option<glam::Quat>,
}

fn window_ui(ui: &mut egui::Ui, w: &mut Window) {
    // As the app runs a frame: the transport panel (and its keys) first, then the rest of the window.
    let transport = ui::transport::transport_commands(ui, &w.transport);
    w.asked.extend(transport.into_iter().map(UiCommand::Transport));
    let info = FrameInfo {
        adapter: "test",
        file: Some(Path::new("JoeKick.x3d")),
        view_rotation: w.view_rotation,
        ..Default::default()
    };
    let (commands, _) = ui::app_ui(ui, &mut w.ui, Some((&w.summary, &w.editor.pose)), &info, None);
    let h = &w.doc.humanoids[0];
    for c in commands {
        // What was asked, whether the pose editor (undo, redo, framing) or the app carries it out.
        w.asked.push(c.clone());
        let _ = w.editor.apply(h, &mut w.ui, c);
    }
}

fn harness() -> Harness<'static, Window> {
    let doc = hanim::load(&common::corpus("x3d/JoeKick.x3d")).expect("JoeKick loads");
    let summary = SceneSummary::new(&doc, &doc.humanoids[0]);
    let editor = PoseEditor::new(&doc.humanoids[0]);
    let transport = Transport::for_window(&doc);
    let window =
        Window { doc, summary, editor, ui: UiState::default(), transport, asked: Vec::new(), view_rotation: None };
    Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_ui_state(window_ui, window)
}

#[test]
fn no_key_has_two_meanings() {
    let mut seen = HashSet::new();
    for b in BINDINGS {
        for key in b.keys {
            assert!(seen.insert((b.mods, *key)), "{} is bound twice (again for {:?})", b.label(), b.action);
        }
    }
    // Every action has its key, once.
    let actions: Vec<Action> = BINDINGS.iter().map(|b| b.action).collect();
    let distinct: HashSet<Action> = actions.iter().copied().collect();
    assert_eq!(actions.len(), distinct.len(), "an action is listed twice");
}

#[test]
fn help_shows_every_binding_as_the_table_has_it() {
    let mut h = harness();
    h.run();
    h.state_mut().ui.show_help = true;
    h.run();
    for b in BINDINGS {
        assert!(shows(&h, &b.label()), "Help does not show the key {}", b.label());
        assert!(shows(&h, b.description), "Help does not say '{}'", b.description);
    }
    for (input, what) in bindings::POINTER {
        assert!(shows(&h, input) && shows(&h, what), "{input}: {what}");
    }
    // The menus' labels come from the table too.
    h.state_mut().ui.show_help = false;
    h.run();
    h.get_by_label("View").click();
    h.run();
    assert!(shows(&h, &bindings::menu_label("Skeleton", Action::ToggleSkeleton)));
}

/// Whether some widget is labelled `label` exactly.
fn shows(h: &Harness<'static, Window>, label: &str) -> bool {
    h.query_all_by_label(label).next().is_some()
}

/// What the window did after one key press, read from its state and the commands it asked for.
fn effect_of(b: &bindings::Binding) -> (UiState, Vec<UiCommand>) {
    let mut h = harness();
    h.run();
    h.key_press_modifiers(b.mods.egui(), b.keys[0]);
    h.run();
    let w = h.state();
    (w.ui.clone(), w.asked.clone())
}

#[test]
fn each_key_does_what_help_says() {
    let before = UiState::default();
    for b in BINDINGS {
        let (after, asked) = effect_of(b);
        let expected: Option<UiCommand> = match b.action {
            Action::Open => Some(UiCommand::OpenDialog),
            Action::Reload => Some(UiCommand::Reload),
            Action::Screenshot => Some(UiCommand::Screenshot(None)),
            Action::Undo => Some(UiCommand::Undo),
            Action::Redo => Some(UiCommand::Redo),
            Action::Quit => Some(UiCommand::Quit),
            Action::SelectView(n) => Some(UiCommand::SelectView(n)),
            Action::FitView => Some(UiCommand::FitView),
            Action::FrameSelected => Some(UiCommand::FrameSelected),
            Action::PlayPause => Some(UiCommand::Transport(TransportCommand::TogglePlay)),
            Action::Step(d) => Some(UiCommand::Transport(TransportCommand::Step(d))),
            Action::SetKey => Some(UiCommand::Transport(TransportCommand::Key(KeyCommand::Set))),
            Action::ToggleGrid | Action::ToggleSkeleton | Action::Help | Action::MaximiseView => None,
        };
        match expected {
            Some(command) => assert_eq!(asked, [command], "{} ({})", b.label(), b.description),
            None => assert!(asked.is_empty(), "{}: {asked:?}", b.label()),
        }
        assert_eq!(after.show_grid != before.show_grid, b.action == Action::ToggleGrid, "{}", b.label());
        assert_eq!(after.show_skeleton != before.show_skeleton, b.action == Action::ToggleSkeleton, "{}", b.label());
        assert_eq!(after.show_help != before.show_help, b.action == Action::Help, "{}", b.label());
        assert_eq!(after.view_maximised != before.view_maximised, b.action == Action::MaximiseView, "{}", b.label());
    }
}

#[test]
fn the_guide_key_table_is_the_binding_table() {
    let guide = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/guide/window.md")).unwrap();
    let (start, end) = ("<!-- bindings: made from src/ui/bindings.rs -->\n", "<!-- end of bindings -->");
    let from = guide.find(start).expect("docs/guide/window.md has the bindings marks") + start.len();
    let to = guide[from..].find(end).expect("the end mark") + from;
    assert_eq!(
        &guide[from..to],
        bindings::markdown_table(),
        "docs/guide/window.md's key table differs from src/ui/bindings.rs: put the table above between the marks"
    );
}

#[test]
fn the_hint_strip_teaches_the_camera_until_hidden() {
    let mut h = harness();
    h.run();
    assert!(h.query_by_label(&ui::view_overlays::hint_text()).is_some(), "the hint strip is shown at first");
    assert!(ui::view_overlays::hint_text().contains("F1"), "it points to Help");
    h.get_by_label("Hide").click();
    h.run();
    assert!(!h.state().ui.show_nav_hint);
    assert!(h.query_by_label(&ui::view_overlays::hint_text()).is_none(), "hidden");
}

#[test]
fn the_axis_gizmo_turns_the_camera_to_look_along_an_axis() {
    let mut h = harness();
    h.state_mut().view_rotation = Some(glam::Quat::from_rotation_y(0.6) * glam::Quat::from_rotation_x(-0.4));
    h.run();
    h.get_by_label("look from the top").click();
    h.run();
    let asked = &h.state().asked;
    assert!(
        matches!(asked.as_slice(), [UiCommand::LookAlong { yaw, pitch }] if yaw.abs() < 1e-6 && *pitch > 1.5),
        "{asked:?}"
    );
    h.state_mut().asked.clear();
    h.get_by_label("look from the right side").click();
    h.run();
    assert!(
        matches!(h.state().asked.as_slice(), [UiCommand::LookAlong { yaw, pitch }] if (yaw - std::f32::consts::FRAC_PI_2).abs() < 1e-6 && pitch.abs() < 1e-6),
        "{:?}",
        h.state().asked
    );
    // A real screenshot button over the view (not in the menu bar).
    h.state_mut().asked.clear();
    h.get_by_label("Screenshot").click();
    h.run();
    assert_eq!(h.state().asked, [UiCommand::Screenshot(None)]);
}
