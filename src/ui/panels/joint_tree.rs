//! The joint tree of the Joints panel, made to stay usable on deep skeletons: joints grouped by body
//! region ([`body_regions`](super::body_regions)), a chain of only children listed at one indent (a
//! spine of 24 vertebrae is a column, not a staircase), a compact indent at real branches only, and the
//! selected joint revealed — its group and branches opened and the row scrolled to — whenever the
//! selection changes, wherever it was made (the 3D view, search, a script, an IK drag). The breadcrumb
//! above the sliders gives the selected joint's path from the root.

use super::body_regions::{Region, joint_regions};
use crate::hanim::JointIndex;
use crate::ui::command::UiCommand;
use crate::ui::scene::SceneSummary;
use crate::ui::state::UiState;

/// Indent of a branch's children, in points (egui's default is 18).
const COMPACT_INDENT: f32 = 10.0;
/// Seconds the revealed row is kept scrolled to while the headers above it open (their animation moves
/// it).
const REVEAL_SECONDS: f64 = 0.4;
/// Crumbs shown before the path is shortened to its root, "…" and its last ones.
const FULL_PATH_CRUMBS: usize = 4;
/// Crumbs kept at the end of a shortened path (the joint's parent and the joint).
const TAIL_CRUMBS: usize = 2;

/// The tree's shape: each joint's region, its parent and children within its region.
pub struct TreeShape {
    regions: Vec<Region>,
    parent: Vec<Option<usize>>,
    children: Vec<Vec<usize>>,
    /// Whether more than one region has joints (else the tree is shown without group headers).
    grouped: bool,
}

impl TreeShape {
    pub fn new(scene: &SceneSummary) -> Self {
        let regions = joint_regions(scene);
        let n = scene.joints.len();
        let mut parent = vec![None; n];
        let mut children = vec![Vec::new(); n];
        for j in 0..n {
            // The nearest ancestor in the same region.
            let mut a = scene.joints[j].parent;
            while let Some(p) = a.filter(|&p| p < n) {
                if regions[p] == regions[j] {
                    parent[j] = Some(p);
                    children[p].push(j);
                    break;
                }
                a = scene.joints[p].parent;
            }
        }
        let grouped = regions.iter().any(|&r| r != regions.first().copied().unwrap_or(Region::SpineHead));
        Self { regions, parent, children, grouped }
    }

    /// The joints of `region` with no ancestor in it, in file order.
    fn group_roots(&self, region: Region) -> impl Iterator<Item = usize> + '_ {
        (0..self.regions.len()).filter(move |&j| self.regions[j] == region && self.parent[j].is_none())
    }

    /// A branch: a joint with more than one child in its region (an only child is listed under its
    /// parent at the same indent).
    fn is_branch(&self, j: usize) -> bool {
        self.children[j].len() > 1
    }

    /// The branches above `j` in its region, nearest last.
    fn branches_above(&self, j: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut a = self.parent[j];
        while let Some(p) = a {
            if self.is_branch(p) {
                out.push(p);
            }
            a = self.parent[p];
        }
        out.reverse();
        out
    }
}

fn group_id(region: Region) -> egui::Id {
    egui::Id::unique(("joint_group", region))
}

fn branch_id(joint: usize) -> egui::Id {
    egui::Id::unique(("joint_branch", joint))
}

/// The joint last revealed and when (egui time), kept in egui's memory.
fn revealed_id() -> egui::Id {
    egui::Id::unique("joint_tree_revealed")
}

/// The tree (no search text): grouped, chains flattened, the selected joint revealed when the selection
/// changed since the tree last showed it.
pub fn joint_tree_ui(ui: &mut egui::Ui, state: &UiState, scene: &SceneSummary, out: &mut Vec<UiCommand>) {
    let shape = TreeShape::new(scene);
    let selected = state.selected_joint.map(|j| j.0).filter(|&j| j < scene.joints.len());
    let now = ui.input(|i| i.time);
    let (last, since) = ui.data(|d| d.get_temp::<(Option<usize>, f64)>(revealed_id())).unwrap_or((None, f64::MIN));
    let mut scroll_to = None;
    if last != selected {
        if let Some(j) = selected {
            open_path_to(ui.ctx(), &shape, j);
        }
        ui.data_mut(|d| d.insert_temp(revealed_id(), (selected, now)));
        scroll_to = selected;
    } else if now - since < REVEAL_SECONDS {
        scroll_to = selected;
    }
    ui.spacing_mut().indent = COMPACT_INDENT;
    let mut draw = Tree { state, scene, shape: &shape, scroll_to, out };
    if !shape.grouped {
        let region = shape.regions.first().copied().unwrap_or(Region::SpineHead);
        for root in shape.group_roots(region) {
            draw.node(ui, root);
        }
        return;
    }
    for region in Region::ALL {
        let count = shape.regions.iter().filter(|&&r| r == region).count();
        if count == 0 {
            continue;
        }
        egui::collapsing_header::CollapsingState::load_with_default_open(
            ui.ctx(),
            group_id(region),
            region.open_by_default(),
        )
        .show_header(ui, |ui| {
            ui.label(egui::RichText::new(format!("{} ({count})", region.label())).strong());
        })
        .body(|ui| {
            for root in shape.group_roots(region) {
                draw.node(ui, root);
            }
        });
    }
}

/// Opens the group and the branches that hold `joint`.
fn open_path_to(ctx: &egui::Context, shape: &TreeShape, joint: usize) {
    let open = |id: egui::Id, default: bool| {
        let mut s = egui::collapsing_header::CollapsingState::load_with_default_open(ctx, id, default);
        s.set_open(true);
        s.store(ctx);
    };
    if shape.grouped {
        open(group_id(shape.regions[joint]), shape.regions[joint].open_by_default());
    }
    for branch in shape.branches_above(joint) {
        open(branch_id(branch), true);
    }
}

struct Tree<'a> {
    state: &'a UiState,
    scene: &'a SceneSummary,
    shape: &'a TreeShape,
    scroll_to: Option<usize>,
    out: &'a mut Vec<UiCommand>,
}

impl Tree<'_> {
    /// `joint` and its chain of only children as rows at this indent, then the branch that ends the
    /// chain (if any) as an open/close header over its children.
    fn node(&mut self, ui: &mut egui::Ui, joint: usize) {
        let mut j = joint;
        while let [only] = self.shape.children[j][..] {
            self.leaf_row(ui, j);
            j = only;
        }
        if !self.shape.is_branch(j) {
            self.leaf_row(ui, j);
            return;
        }
        egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), branch_id(j), true)
            .show_header(ui, |ui| self.label(ui, j))
            .body(|ui| {
                for &child in &self.shape.children[j] {
                    self.node(ui, child);
                }
            });
    }

    /// A row without an open/close arrow, its name lined up with the headers' names.
    fn leaf_row(&mut self, ui: &mut egui::Ui, joint: usize) {
        ui.horizontal(|ui| {
            ui.add_space(ui.spacing().icon_width + ui.spacing().icon_spacing);
            self.label(ui, joint);
        });
    }

    /// The joint's name on one line, cut with "…" at the panel's edge; on hover its whole path from the
    /// root (which ends with the whole name).
    fn label(&mut self, ui: &mut egui::Ui, joint: usize) {
        let selected = self.state.selected_joint == Some(JointIndex(joint));
        let name = &self.scene.joints[joint].name;
        let response = ui
            .add(egui::Button::selectable(selected, name.as_str()).truncate())
            .on_hover_text(path_text(self.scene, joint));
        if self.scroll_to == Some(joint) {
            // Up or down only.
            let row = egui::Rect::from_x_y_ranges(ui.clip_rect().x_range(), response.rect.y_range());
            ui.scroll_to_rect(row, Some(egui::Align::Center));
        }
        if response.clicked() {
            self.out.push(UiCommand::SelectJoint(Some(JointIndex(joint))));
        }
    }
}

/// The joints from the root down to `joint`.
pub fn path_to(scene: &SceneSummary, joint: usize) -> Vec<usize> {
    let mut path = vec![joint];
    let mut a = scene.joints.get(joint).and_then(|j| j.parent);
    while let Some(p) = a.filter(|&p| p < scene.joints.len() && !path.contains(&p)) {
        path.push(p);
        a = scene.joints[p].parent;
    }
    path.reverse();
    path
}

/// The path as text, `root › … › joint`.
pub fn path_text(scene: &SceneSummary, joint: usize) -> String {
    path_to(scene, joint).iter().map(|&j| scene.joints[j].name.as_str()).collect::<Vec<_>>().join(" › ")
}

/// The selected joint's path from the root, each ancestor a link that selects it; a long path shows its
/// root, "…" (the whole path on hover) and its last joints.
pub fn breadcrumb_ui(ui: &mut egui::Ui, scene: &SceneSummary, joint: usize, out: &mut Vec<UiCommand>) {
    let path = path_to(scene, joint);
    let shown: Vec<Option<usize>> = if path.len() > FULL_PATH_CRUMBS {
        let mut v = vec![Some(path[0]), None];
        v.extend(path[path.len() - TAIL_CRUMBS..].iter().copied().map(Some));
        v
    } else {
        path.iter().copied().map(Some).collect()
    };
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        // A crumb is never broken across lines: one that does not fit starts the next line.
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        for (k, crumb) in shown.iter().enumerate() {
            if k > 0 {
                ui.weak("›");
            }
            match *crumb {
                None => {
                    ui.weak("…").on_hover_text(path_text(scene, joint));
                }
                Some(j) if j == joint => {
                    ui.strong(&scene.joints[j].name);
                }
                Some(j) => {
                    if ui.link(&scene.joints[j].name).on_hover_text("select this joint").clicked() {
                        out.push(UiCommand::SelectJoint(Some(JointIndex(j))));
                    }
                }
            }
        }
    });
}
