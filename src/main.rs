fn main() {
    for p in std::env::args().skip(1) {
        let t = std::time::Instant::now();
        match hanim_viewer::hanim::load(std::path::Path::new(&p)) {
            Ok(d) => {
                for h in &d.humanoids {
                    let vps = h.sites.iter().filter(|s| s.in_viewpoints).count();
                    let jd = h.displacers.iter().filter(|d| matches!(d.owner, hanim_viewer::hanim::DisplacerOwner::Joint(_))).count();
                    println!("{}: name={} J={} S={} Sites={} vps={} skin={:?} weighted={} disp={}/{} motions={:?} warnings={} {:?}",
                        p.rsplit('/').next().unwrap(), h.name, h.joints.len(), h.segments.len(), h.sites.len(), vps,
                        h.skin.as_ref().map(|s| s.points.len()),
                        h.joints.iter().filter(|j| !j.skin_coord_index.is_empty()).count(),
                        jd, h.displacers.len()-jd,
                        h.motions.iter().map(|m| (m.frame_count, m.channel_count)).collect::<Vec<_>>(), h.warnings.len(), t.elapsed());
                }
                for w in d.warnings.iter().take(4) { println!("   {w}"); }
            }
            Err(e) => println!("ERR {e}"),
        }
    }
}
