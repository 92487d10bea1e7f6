//! The generated pages of `docs/` are current, and the README stands alone.

use gin_rules::cli::docs::Page;

/// Compares a committed page with what `gin-rules docs PAGE` prints; `UPDATE_DOCS=1` rewrites it.
fn check_page(page: Page, name: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(page.file());
    let fresh = page.render().unwrap();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale: run `cargo run -- docs {name} > {}` (or `UPDATE_DOCS=1 cargo test --test it docs::`)",
        page.file(),
        page.file()
    );
}

#[test]
fn docs_rules_md_is_current() {
    check_page(Page::Rules, "rules");
}

#[test]
fn docs_hooks_md_is_current() {
    check_page(Page::Hooks, "hooks");
}

/// The declaration docs/hooks.md is written from matches, key for key and type for type, every
/// context the engine builds in real games of every built-in ruleset with each option.
#[test]
fn every_context_built_in_real_games_is_as_declared() {
    use gin_rules::rules::script::HookPoint;
    use gin_rules::rules::script::contexts::context_of;
    use std::collections::BTreeSet;

    let catalog = gin_rules::rules::Catalog::builtin();
    let mut seen = BTreeSet::new();
    for info in catalog.list() {
        let mut forms = vec![vec![]];
        forms.extend(info.options.iter().map(|o| vec![o.id.clone()]));
        for options in forms {
            let variant = catalog
                .resolve(&gin_rules::ruleset::RulesetRef::new(
                    info.id.clone(),
                    options.clone(),
                ))
                .unwrap();
            let contexts =
                gin_rules::cli::hook_docs::sample_contexts(&variant, 3, 2, info.default_target)
                    .unwrap();
            for (point, ctx) in contexts {
                if let Err(e) = context_of(point).check(&ctx) {
                    panic!("{} {options:?}: {e}", info.id);
                }
                seen.insert(point);
            }
        }
    }
    assert_eq!(seen.len(), HookPoint::ALL.len(), "{seen:?}");
}

#[test]
fn the_readme_points_nowhere_outside_the_repository() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        // Pages only: docs/ also holds the README's picture.
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.contains("shared/"),
                "{}:{}: points outside the repository: {line}",
                page.display(),
                n + 1
            );
        }
        // Every relative link names a file of the repository.
        for (n, line) in text.lines().enumerate() {
            for link in line.split("](").skip(1) {
                let Some(target) = link.split(')').next() else {
                    continue;
                };
                let target = target.split('#').next().unwrap_or("");
                if target.is_empty() || target.contains("://") {
                    continue;
                }
                let file = page.parent().unwrap().join(target).canonicalize();
                assert!(
                    file.is_ok_and(|f| f.starts_with(root.canonicalize().unwrap())),
                    "{}:{}: the link {target} names no file of the repository",
                    page.display(),
                    n + 1
                );
            }
        }
    }
}

#[test]
fn completions_are_printed_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gin-rules"))
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(out.status.success(), "{shell}");
        let text = String::from_utf8(out.stdout).unwrap();
        for word in ["gin-rules", "analyze", "completions", "ruleset"] {
            assert!(text.contains(word), "{shell}: no {word}");
        }
    }
}

#[test]
fn the_readme_shows_examples_play_py_as_it_is() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let program = std::fs::read_to_string(root.join("examples/play.py")).unwrap();
    let shown = readme
        .split("<!-- play.py:start -->\n```python\n")
        .nth(1)
        .and_then(|rest| rest.split("```\n<!-- play.py:end -->").next())
        .expect("README.md has no play.py block between its markers");
    assert_eq!(
        shown, program,
        "README.md's copy of examples/play.py differs from the file"
    );
}
