fn main() {
    for p in std::env::args().skip(1) {
        let t = std::time::Instant::now();
        match hanim_viewer::x3d::load_file(std::path::Path::new(&p), &Default::default()) {
            Ok(s) => println!(
                "{p}: {} nodes, {} roots, {} routes, {} warnings {:?} first={:?}",
                s.nodes.len(),
                s.roots.len(),
                s.routes.len(),
                s.warnings.len(),
                t.elapsed(),
                s.warnings.first().map(|w| w.to_string())
            ),
            Err(e) => println!("ERR {e}"),
        }
    }
}
