//! The central 3D view as a widget: it shows the view's texture, turns the mouse into [`ViewportInput`],
//! and draws over the picture what the user must see at a glance — the selected joint (its bones thick,
//! a ring at its centre, its name), the name of the joint or Site under the pointer, and the toasts.

use super::{FrameInfo, UiState, ViewportInput};

/// The selection's colour over the 3D view: a pink no skeleton line, handle or skin colouring uses, drawn
/// over a dark outline so it reads on a light or a dark background.
pub const SELECTION_COLOR: egui::Color32 = egui::Color32::from_rgb(255, 64, 200);
/// The outline under the selection's lines.
const OUTLINE_COLOR: egui::Color32 = egui::Color32::from_rgb(20, 20, 20);
/// Width of the selected joint's bones, in points.
const BONE_WIDTH: f32 = 4.0;
/// Radius of the ring at the selected joint's centre, in points.
const RING_RADIUS: f32 = 8.0;

/// Where the selected joint is drawn in the 3D view, as the app's camera projects it (points from the
/// view's top-left corner). The app fills it in each frame; the view draws it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ViewMarks {
    pub selected: Option<JointMark>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct JointMark {
    pub name: String,
    pub centre: egui::Vec2,
    /// The other ends of the joint's bones: its parent's centre and its children's.
    pub bone_ends: Vec<egui::Vec2>,
}

/// The 3D view in the central panel: its picture, its mouse input and what is drawn over it.
pub(super) fn view_ui(
    ui: &mut egui::Ui,
    state: &UiState,
    has_scene: bool,
    info: &FrameInfo,
    viewport_texture: Option<egui::TextureId>,
) -> ViewportInput {
    let mut input = ViewportInput::default();
    let rect = ui.max_rect();
    input.rect = rect;
    let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
    if let Some(texture) = viewport_texture {
        ui.painter().image(
            texture,
            rect,
            egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
            egui::Color32::WHITE,
        );
    }
    if !has_scene && info.loading.is_none() {
        ui.painter().text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            "No humanoid loaded.\nFile > Open (Ctrl+O) or drop an .x3d, .x3dv or .wrl file here.",
            egui::FontId::proportional(18.0),
            ui.visuals().text_color(),
        );
    }
    mouse_input(ui, &response, &mut input);
    let painter = ui.painter_at(rect);
    let selected = state.view_marks.selected.as_ref().filter(|_| has_scene);
    let selected_tag = selected.map(|mark| selection_marks(&painter, rect, mark));
    // The joint or Site under the pointer is named beside it (not twice when it is the selected one, and
    // below the selected one's name where the two would overlap).
    if let (Some(name), Some(at)) = (&state.hovered_name, response.hover_pos())
        && selected.is_none_or(|mark| mark.name != *name)
    {
        name_tag(&painter, at + egui::vec2(14.0, -8.0), name, egui::Color32::WHITE, selected_tag);
    }
    input
}

/// The mouse on the view: orbit, pan, zoom, clicks, the press and drag an IK drag needs, hover.
fn mouse_input(ui: &egui::Ui, response: &egui::Response, input: &mut ViewportInput) {
    let rect = input.rect;
    let shift = ui.input(|i| i.modifiers.shift);
    let delta = response.drag_delta();
    if response.dragged_by(egui::PointerButton::Primary) && !shift {
        input.orbit = delta;
    } else if response.dragged_by(egui::PointerButton::Secondary)
        || response.dragged_by(egui::PointerButton::Middle)
        || response.dragged_by(egui::PointerButton::Primary)
    {
        input.pan = delta;
    }
    if response.hovered() {
        let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        input.zoom = scroll / 200.0 + (zoom - 1.0);
    }
    if response.clicked()
        && let Some(pos) = response.interact_pointer_pos()
    {
        input.click = Some(pos - rect.min);
    }
    if response.drag_started_by(egui::PointerButton::Primary) && !shift {
        input.press = ui.input(|i| i.pointer.press_origin()).map(|p| p - rect.min);
    }
    if response.dragged_by(egui::PointerButton::Primary) {
        input.pointer = response.interact_pointer_pos().map(|p| p - rect.min);
    }
    input.drag_released = response.drag_stopped();
    input.alt = ui.input(|i| i.modifiers.alt);
    if response.secondary_clicked() {
        input.secondary_click = response.interact_pointer_pos().map(|p| p - rect.min);
    }
    input.hover = response.hover_pos().map(|p| p - rect.min);
}

/// The selected joint: its bones thick, a ring at its centre and its name beside it (the name's box is
/// returned).
fn selection_marks(painter: &egui::Painter, rect: egui::Rect, mark: &JointMark) -> egui::Rect {
    let centre = rect.min + mark.centre;
    for end in &mark.bone_ends {
        let end = rect.min + *end;
        painter.line_segment([centre, end], egui::Stroke::new(BONE_WIDTH + 2.0, OUTLINE_COLOR));
        painter.line_segment([centre, end], egui::Stroke::new(BONE_WIDTH, SELECTION_COLOR));
    }
    painter.circle_stroke(centre, RING_RADIUS, egui::Stroke::new(5.0, OUTLINE_COLOR));
    painter.circle_stroke(centre, RING_RADIUS, egui::Stroke::new(3.0, SELECTION_COLOR));
    name_tag(painter, centre + egui::vec2(RING_RADIUS + 6.0, -RING_RADIUS - 18.0), &mark.name, SELECTION_COLOR, None)
}

/// `text` in a dark box at `at` (its top-left; moved to the left of `at` where the view's right edge
/// would cut it, and below `avoid` where it would cover that box), the box's edge in `accent`. Returns
/// the box.
fn name_tag(
    painter: &egui::Painter,
    at: egui::Pos2,
    text: &str,
    accent: egui::Color32,
    avoid: Option<egui::Rect>,
) -> egui::Rect {
    let galley = painter.layout_no_wrap(text.to_owned(), egui::FontId::proportional(14.0), egui::Color32::WHITE);
    let size = galley.size() + egui::vec2(10.0, 6.0);
    let mut at = at;
    if at.x + size.x > painter.clip_rect().right() {
        at.x -= size.x + 2.0 * (RING_RADIUS + 6.0);
    }
    at.y = at.y.max(painter.clip_rect().top());
    if let Some(other) = avoid
        && egui::Rect::from_min_size(at, size).intersects(other)
    {
        at.y = other.bottom() + 2.0;
    }
    let r = egui::Rect::from_min_size(at, size);
    painter.rect(
        r,
        3.0,
        egui::Color32::from_black_alpha(210),
        egui::Stroke::new(1.0, accent),
        egui::StrokeKind::Inside,
    );
    painter.galley(r.min + egui::vec2(5.0, 3.0), galley, egui::Color32::WHITE);
    r
}
