//! The README stays a front door, and the pages of the repository link only to what exists.

use std::path::{Path, PathBuf};

const README_MAX_LINES: usize = 400;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, CONTRIBUTING.md and every page of docs/.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of a page outside fenced code blocks, numbered from 1.
fn prose(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fenced = false;
    text.lines().enumerate().filter_map(move |(n, line)| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return None;
        }
        (!fenced).then_some((n + 1, line))
    })
}

/// The targets of the inline links and images of a line (`[text](target)`, `![alt](target "title")`),
/// leaving out inline code.
fn link_targets(line: &str) -> Vec<&str> {
    let outside_code = line.split('`').step_by(2);
    outside_code
        .flat_map(|part| part.split("](").skip(1))
        .filter_map(|rest| rest.split(')').next())
        .map(|target| target.split_whitespace().next().unwrap_or(""))
        .collect()
}

/// The letters and digits of a heading or an anchor, in lower case: GitHub's anchor of a heading
/// keeps these and turns spaces into dashes, so the two compare equal once squeezed.
fn squeezed(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The headings of a page, squeezed.
fn headings(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap_or_default();
    prose(&text)
        .filter_map(|(_, line)| line.strip_prefix('#'))
        .map(squeezed)
        .collect()
}

#[test]
fn the_readme_is_at_most_400_lines() {
    let lines = std::fs::read_to_string(root().join("README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move the detail to docs/ or CONTRIBUTING.md"
    );
}

#[test]
fn every_relative_link_names_a_file_and_heading_that_exist() {
    let repository = root().canonicalize().unwrap();
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        for (n, line) in prose(&text) {
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
                let linked = if file.is_empty() {
                    page.clone()
                } else {
                    page.parent().unwrap().join(file)
                };
                match linked.canonicalize() {
                    Ok(path) if path.starts_with(&repository) => {
                        let is_page = path.extension().is_some_and(|e| e == "md");
                        if is_page
                            && !fragment.is_empty()
                            && !headings(&path).contains(&squeezed(fragment))
                        {
                            broken.push(format!("{name}:{n}: {target}: no such heading"));
                        }
                    }
                    Ok(_) => broken.push(format!("{name}:{n}: {target}: outside the repository")),
                    Err(_) => broken.push(format!("{name}:{n}: {target}: no such file")),
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn links_and_anchors_are_read_as_github_reads_them() {
    assert_eq!(
        link_targets("see [a](docs/a.md#x) and `[b](nowhere.md)` and ![c](p.png \"title\")"),
        ["docs/a.md#x", "p.png"]
    );
    assert_eq!(
        squeezed("## The HTTP API: `step`, 2"),
        squeezed("the-http-api-step-2")
    );
}
