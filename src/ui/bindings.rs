//! The one table of keyboard bindings: each key (with its modifiers) has one action. The shortcuts the
//! window acts on, the Help window, the menus' shortcut labels and the key table of the guide
//! (`docs/guide/window.md`, checked by `tests/ui_bindings.rs`) are all read from [`BINDINGS`], so they
//! cannot drift apart; the same test fails when two actions share a key.

use egui::Key;

/// What a key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Open,
    Reload,
    Screenshot,
    Undo,
    Redo,
    Quit,
    /// Switches to viewpoint `n` (from 0) of the Viewpoints panel.
    SelectView(usize),
    FitView,
    FrameSelected,
    ToggleGrid,
    ToggleSkeleton,
    Help,
    PlayPause,
    /// One frame back (-1) or forward (+1).
    Step(i32),
    /// Stores the current pose at the current time (a keyframe).
    SetKey,
    /// Gives the whole window to the 3D view (no side panels, no status bar), or brings the panels back.
    MaximiseView,
}

/// Modifiers a binding needs (exactly these: a plain key does not fire with Ctrl held).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mods {
    /// Ctrl (Cmd on macOS).
    pub command: bool,
    pub shift: bool,
}

impl Mods {
    pub const NONE: Mods = Mods { command: false, shift: false };
    pub const COMMAND: Mods = Mods { command: true, shift: false };
    pub const COMMAND_SHIFT: Mods = Mods { command: true, shift: true };

    pub fn egui(self) -> egui::Modifiers {
        let mut m = egui::Modifiers::NONE;
        if self.command {
            m |= egui::Modifiers::COMMAND;
        }
        if self.shift {
            m |= egui::Modifiers::SHIFT;
        }
        m
    }
}

/// One row of the table: `keys` (several for a range, e.g. 1–9, the action's argument being the key's
/// place) with `mods` do `action`.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    pub keys: &'static [Key],
    pub mods: Mods,
    pub action: Action,
    pub description: &'static str,
}

const DIGITS: &[Key] =
    &[Key::Num1, Key::Num2, Key::Num3, Key::Num4, Key::Num5, Key::Num6, Key::Num7, Key::Num8, Key::Num9];

const fn plain(key: &'static [Key], action: Action, description: &'static str) -> Binding {
    Binding { keys: key, mods: Mods::NONE, action, description }
}

/// Every keyboard binding of the window. Longer modifier combinations come before shorter ones with the
/// same key (Ctrl+Shift+Z before Ctrl+Z), so the longer one is matched first.
pub const BINDINGS: &[Binding] = &[
    Binding { keys: &[Key::O], mods: Mods::COMMAND, action: Action::Open, description: "Open a file" },
    plain(&[Key::F5], Action::Reload, "Reload the file"),
    plain(&[Key::F12], Action::Screenshot, "Save a screenshot of the 3D view"),
    Binding {
        keys: &[Key::Z],
        mods: Mods::COMMAND_SHIFT,
        action: Action::Redo,
        description: "Redo a pose or displacer edit",
    },
    Binding {
        keys: &[Key::Z],
        mods: Mods::COMMAND,
        action: Action::Undo,
        description: "Undo a pose or displacer edit",
    },
    plain(DIGITS, Action::SelectView(0), "Switch to viewpoint 1–9"),
    plain(&[Key::F], Action::FitView, "Fit the humanoid in the view"),
    plain(&[Key::J], Action::FrameSelected, "Frame the selected joint"),
    plain(&[Key::G], Action::ToggleGrid, "Show or hide the ground grid"),
    plain(&[Key::B], Action::ToggleSkeleton, "Show or hide the skeleton (bones)"),
    plain(&[Key::Space], Action::PlayPause, "Play or pause the motion"),
    plain(&[Key::ArrowLeft], Action::Step(-1), "Previous frame of the selected motion"),
    plain(&[Key::ArrowRight], Action::Step(1), "Next frame of the selected motion"),
    plain(&[Key::K], Action::SetKey, "Set a key: the pose at the current time into the authored clip"),
    plain(&[Key::F1], Action::Help, "This help"),
    plain(&[Key::F11], Action::MaximiseView, "Maximise the 3D view (hide the panels) or bring the panels back"),
    Binding { keys: &[Key::Q], mods: Mods::COMMAND, action: Action::Quit, description: "Quit" },
];

/// Mouse input on the 3D view (not keys: listed in Help and the guide after the keys).
pub const POINTER: &[(&str, &str)] = &[
    ("Left drag", "Orbit about the target"),
    ("Right or middle drag, Shift + left drag", "Pan"),
    ("Wheel / pinch", "Zoom"),
    ("Click near a joint", "Select it"),
    ("Left drag on a Site or joint", "Move it by inverse kinematics (hand to shoulder, foot to hip, head to spine)"),
    ("Alt + left drag on a Site or joint", "The same, the chain running to the skeleton's root"),
    ("Right click on a Site or joint", "Pin or unpin it (held while others are dragged)"),
    ("Click an axis of the gizmo", "Look along it: front, side or top"),
];

/// A key's name as Help and the menus show it.
fn key_name(key: Key) -> &'static str {
    match key {
        Key::ArrowLeft => "Left",
        Key::ArrowRight => "Right",
        Key::ArrowUp => "Up",
        Key::ArrowDown => "Down",
        other => other.name(),
    }
}

impl Binding {
    /// "Ctrl+Shift+Z", "F5", "1 – 9".
    pub fn label(&self) -> String {
        let keys = match self.keys {
            [one] => key_name(*one).to_string(),
            [first, .., last] => format!("{} – {}", key_name(*first), key_name(*last)),
            [] => String::new(),
        };
        let mut out = String::new();
        if self.mods.command {
            out.push_str("Ctrl+");
        }
        if self.mods.shift {
            out.push_str("Shift+");
        }
        out + &keys
    }

    /// The action of key `index` of [`Self::keys`] (a range's argument).
    fn action_of(&self, index: usize) -> Action {
        match self.action {
            Action::SelectView(_) => Action::SelectView(index),
            other => other,
        }
    }
}

/// The binding of `action` (for a range, its row).
pub fn binding(action: Action) -> Option<&'static Binding> {
    let same = |a: Action| std::mem::discriminant(&a) == std::mem::discriminant(&action);
    BINDINGS.iter().find(|b| match (b.action, action) {
        (Action::Step(x), Action::Step(y)) => x == y,
        (a, _) => same(a),
    })
}

/// `text` with the action's key after it, as menus show it: "Reload  (F5)".
pub fn menu_label(text: &str, action: Action) -> String {
    match binding(action) {
        Some(b) => format!("{text}  ({})", b.label()),
        None => text.to_string(),
    }
}

/// The actions whose keys were pressed this frame among those `wanted` accepts (the keys are consumed,
/// so no other part of the UI sees them). Nothing while a text field has the keyboard.
pub fn pressed(ui: &mut egui::Ui, wanted: impl Fn(Action) -> bool) -> Vec<Action> {
    let mut actions = Vec::new();
    if ui.ctx().egui_wants_keyboard_input() {
        return actions;
    }
    ui.input_mut(|i| {
        for b in BINDINGS.iter().filter(|b| wanted(b.action)) {
            for (n, &key) in b.keys.iter().enumerate() {
                let hit = if b.mods == Mods::NONE {
                    i.consume_key(egui::Modifiers::NONE, key)
                } else {
                    i.consume_shortcut(&egui::KeyboardShortcut::new(b.mods.egui(), key))
                };
                if hit {
                    actions.push(b.action_of(n));
                }
            }
        }
    });
    actions
}

/// Whether `action` belongs to the transport (the motion panel handles it).
pub fn is_transport(action: Action) -> bool {
    matches!(action, Action::PlayPause | Action::Step(_) | Action::SetKey)
}

/// The Help window's table: the keys, then the pointer.
pub fn help_grid(ui: &mut egui::Ui) {
    egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
        for b in BINDINGS {
            ui.strong(b.label());
            ui.label(b.description);
            ui.end_row();
        }
        for (input, what) in POINTER {
            ui.strong(*input);
            ui.label(*what);
            ui.end_row();
        }
    });
}

/// The guide's Controls table (Markdown), as `docs/guide/window.md` holds it between its
/// `<!-- bindings -->` marks.
pub fn markdown_table() -> String {
    let mut out = String::from("| input | action |\n|---|---|\n");
    for b in BINDINGS {
        out.push_str(&format!("| {} | {} |\n", b.label(), b.description));
    }
    for (input, what) in POINTER {
        out.push_str(&format!("| {input} | {what} |\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_read_as_the_menus_show_them() {
        assert_eq!(binding(Action::Redo).unwrap().label(), "Ctrl+Shift+Z");
        assert_eq!(binding(Action::SelectView(4)).unwrap().label(), "1 – 9");
        assert_eq!(binding(Action::Step(-1)).unwrap().label(), "Left");
        assert_eq!(menu_label("Reload", Action::Reload), "Reload  (F5)");
    }
}
