//! The catalogue page, written from its typed parts ([`Manifest`]): every string the parts hold is text,
//! escaped here with `quick_xml::escape` as it goes into the page, so that a name, a note or a tampered
//! shard manifest can never add markup. The page is well-formed (XHTML-compatible) HTML with no
//! run-dependent text, so an unsharded run and a merge of its shards write the same bytes.

use std::fmt::Write as _;

use quick_xml::escape::escape;

use super::manifest::{Figure, Manifest, PageEntry, PageFailure};

const STYLE: &str = "<style>\nbody { font-family: sans-serif; margin: 1em 2em; background: #fafafa; }\n\
     section { border-top: 1px solid #ccc; padding: 0.5em 0; }\n\
     figure { display: inline-block; margin: 0 0.5em 0.5em 0; text-align: center; }\n\
     figcaption { font-size: 0.85em; color: #444; }\n\
     table { border-collapse: collapse; font-size: 0.9em; }\n\
     td, th { text-align: left; padding: 0.1em 0.8em 0.1em 0; vertical-align: top; }\n\
     .note { color: #a40; }\n</style>";

/// The whole page.
pub fn page(manifest: &Manifest) -> String {
    let mut out = String::new();
    let title = escape(&manifest.title);
    let _ = writeln!(out, "<!DOCTYPE html>");
    let _ = writeln!(out, "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">");
    let _ = writeln!(out, "<head>\n<meta charset=\"utf-8\"/>\n<title>{title}</title>\n{STYLE}\n</head>\n<body>");
    let _ = writeln!(out, "<h1>{title}</h1>");
    let _ = writeln!(
        out,
        "<p>{} {}(s) from {} file(s); {} failed. {}</p>",
        manifest.entries.len(),
        escape(&manifest.noun),
        manifest.files,
        manifest.failures.len(),
        escape(&manifest.settings)
    );
    if !manifest.entries.is_empty() {
        let _ = writeln!(out, "<ul>");
        for e in &manifest.entries {
            let _ =
                writeln!(out, "<li><a href=\"#{}\">{}</a> ({})</li>", escape(&e.id), escape(&e.name), escape(&e.id));
        }
        let _ = writeln!(out, "</ul>");
    }
    for e in &manifest.entries {
        section(&mut out, e);
    }
    if !manifest.failures.is_empty() {
        let _ = writeln!(out, "<section id=\"failures\">\n<h2>Files that failed</h2>\n<ul>");
        for f in &manifest.failures {
            failure(&mut out, f);
        }
        let _ = writeln!(out, "</ul>\n</section>");
    }
    let _ = writeln!(out, "</body>\n</html>");
    out
}

fn failure(out: &mut String, f: &PageFailure) {
    let _ = writeln!(out, "<li><code>{}</code>: {}</li>", escape(&f.file), escape(&f.error));
}

/// One entry's section: heading, source files, notes, images, previews, later notes, link, table.
fn section(out: &mut String, e: &PageEntry) {
    let _ = writeln!(out, "<section id=\"{}\">", escape(&e.id));
    let _ = writeln!(out, "<h2>{}</h2>", escape(&e.name));
    for source in &e.sources {
        let _ = writeln!(out, "<p>{}: <code>{}</code></p>", escape(&source.label), escape(&source.path));
    }
    notes(out, &e.notes);
    figures(out, "<div>", &e.images);
    figures(out, "<div class=\"previews\">", &e.previews);
    notes(out, &e.later_notes);
    let _ = writeln!(out, "<p><a href=\"{}\">{}</a></p>", escape(&e.link.href), escape(&e.link.label));
    let _ = writeln!(out, "<table>");
    for row in &e.table {
        let _ = writeln!(out, "<tr><th>{}</th><td>{}</td></tr>", escape(&row.key), escape(&row.value));
    }
    let _ = writeln!(out, "</table>\n</section>");
}

fn notes(out: &mut String, notes: &[String]) {
    for note in notes {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(note));
    }
}

/// Figures in a `<div>` opened by `open`; nothing when there are none.
fn figures(out: &mut String, open: &str, figures: &[Figure]) {
    if figures.is_empty() {
        return;
    }
    let _ = writeln!(out, "{open}");
    for f in figures {
        let src = escape(&f.src);
        let _ = writeln!(
            out,
            "<figure><a href=\"{src}\"><img src=\"{src}\" width=\"{}\" height=\"{}\" alt=\"{}\"/></a>\
             <figcaption>{}</figcaption></figure>",
            f.width,
            f.height,
            escape(&f.alt),
            escape(&f.caption)
        );
    }
    let _ = writeln!(out, "</div>");
}

#[cfg(test)]
mod tests {
    use super::super::manifest::{Link, Row, Source};
    use super::*;

    #[test]
    fn every_string_is_escaped_where_it_lands() {
        let hostile = "<script>alert('x')</script>&\"";
        let entry = PageEntry {
            order: 0,
            id: "a".into(),
            name: hostile.into(),
            sources: vec![Source { label: hostile.into(), path: hostile.into() }],
            notes: vec![hostile.into()],
            images: vec![Figure {
                src: "images/a-front.png".into(),
                width: 1,
                height: 1,
                alt: hostile.into(),
                caption: hostile.into(),
            }],
            previews: vec![],
            later_notes: vec![hostile.into()],
            link: Link { label: hostile.into(), href: "sheets/a.png".into() },
            table: vec![Row { key: hostile.into(), value: hostile.into() }],
            outputs: vec!["images/a-front.png".into(), "sheets/a.png".into()],
        };
        let manifest = Manifest {
            title: hostile.into(),
            noun: hostile.into(),
            settings: hostile.into(),
            files: 1,
            entries: vec![entry],
            failures: vec![PageFailure { order: 1, file: hostile.into(), error: hostile.into() }],
        };
        let html = page(&manifest);
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("'x'"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;&amp;&quot;"), "{html}");
        // Well-formed: a reader meets no stray markup.
        let mut reader = quick_xml::Reader::from_str(&html);
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("not well-formed: {e}"),
            }
        }
    }
}
