//! The modules of `src/` depend on each other without cycles: between the top-level modules, and
//! between the files and folders of any folder of `src/`. Read from the `crate::` and `super::` paths of
//! the source (unit tests apart), each path counted at the level where its two ends part: a path
//! from `api::games` to `api::bots` is an edge `games → bots` inside `api/`; one from `api::games`
//! to `engine::view` an edge `api → engine`. A module's use of its own ancestors (the re-exports
//! of a `mod.rs`) or descendants is no edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Module = Vec<String>;

/// Every module of `src/` (but the binary's `main`) and its source.
fn modules(root: &Path) -> BTreeMap<Module, String> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut module: Module = rel.iter().map(|s| s.to_string_lossy().into()).collect();
            if module.last().is_some_and(|l| l == "mod" || l == "lib") {
                module.pop();
            }
            if module == ["main"] {
                continue;
            }
            out.insert(module, std::fs::read_to_string(&path).unwrap());
        }
    }
    out
}

/// The source without comments and without its unit tests.
fn code(source: &str) -> String {
    let source = source.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    source
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path that starts at `crate` or `super`, with `use` groups spread out
/// (`use super::{a, b::c}` gives `super::a` and `super::b::c`).
fn paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let rest: String = chars[i..chars.len().min(i + 7)].iter().collect();
        let starts = rest.starts_with("crate::") || rest.starts_with("super::");
        let boundary = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if !(starts && boundary) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_' || chars[j] == ':')
        {
            j += 1;
        }
        let head: String = chars[i..j].iter().collect();
        let head = head.trim_end_matches(':').to_string();
        if j < chars.len() && chars[j] == '{' {
            let mut depth = 0;
            let mut item = String::new();
            let mut k = j;
            while k < chars.len() {
                let c = chars[k];
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if (c == ',' && depth == 1) || depth == 0 {
                    let name: String = item
                        .trim()
                        .trim_start_matches('{')
                        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                        .next()
                        .unwrap_or("")
                        .trim_end_matches(':')
                        .to_string();
                    if !name.is_empty() && name != "self" {
                        out.push(format!("{head}::{name}"));
                    }
                    item.clear();
                    if depth == 0 {
                        break;
                    }
                } else if depth >= 1 {
                    item.push(c);
                }
                k += 1;
            }
            out.push(head);
            i = k + 1;
        } else {
            out.push(head);
            i = j;
        }
    }
    out
}

/// The module a path from `from` names: its longest prefix that is a module, or the module an
/// item re-exported there (`pub use`) comes from.
fn target(modules: &BTreeMap<Module, String>, from: &Module, path: &str) -> Option<Module> {
    let found = module_of(modules, from, path)?;
    let mut full = absolute(from, path);
    let Some(item) = full.drain(..).nth(found.len()) else {
        return Some(found);
    };
    let reexports: Vec<String> = code(&modules[&found])
        .split(';')
        .filter_map(|s| s.trim_start().strip_prefix("pub use "))
        .flat_map(|used| {
            let used = used.trim();
            let used = if used.starts_with("crate::") || used.starts_with("super::") {
                used.to_string()
            } else {
                format!("crate::{}::{used}", found.join("::"))
            };
            paths(&used)
        })
        .collect();
    let origin = reexports
        .iter()
        .find(|p| p.rsplit("::").next() == Some(item.as_str()));
    match origin {
        Some(p) => module_of(modules, &found, p).or(Some(found)),
        None => Some(found),
    }
}

/// A path from `from` from the crate's root.
fn absolute(from: &Module, path: &str) -> Module {
    let mut segments = path.split("::").peekable();
    let mut full: Module = Vec::new();
    if segments.peek() == Some(&"crate") {
        segments.next();
    } else {
        full = from.clone();
        while segments.peek() == Some(&"super") {
            segments.next();
            full.pop();
        }
    }
    full.extend(segments.map(str::to_string));
    full
}

/// The longest prefix of a path from `from` that is a module.
fn module_of(modules: &BTreeMap<Module, String>, from: &Module, path: &str) -> Option<Module> {
    let full = absolute(from, path);
    (0..=full.len())
        .rev()
        .map(|k| full[..k].to_vec())
        .find(|m| modules.contains_key(m))
}

/// The edges between siblings: `a → b` inside their common parent.
fn edges(modules: &BTreeMap<Module, String>) -> BTreeSet<(Module, Module)> {
    let mut out = BTreeSet::new();
    for (from, source) in modules {
        for path in paths(&code(source)) {
            let Some(to) = target(modules, from, &path) else {
                continue;
            };
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common == from.len() || common == to.len() {
                continue;
            }
            out.insert((from[..=common].to_vec(), to[..=common].to_vec()));
        }
    }
    out
}

/// A cycle among the edges whose ends `within` accepts, as the modules around it.
fn cycle(
    edges: &BTreeSet<(Module, Module)>,
    within: impl Fn(&Module) -> bool,
) -> Option<Vec<String>> {
    let mut next: BTreeMap<&Module, Vec<&Module>> = BTreeMap::new();
    for (a, b) in edges.iter().filter(|(a, b)| within(a) && within(b)) {
        next.entry(a).or_default().push(b);
    }
    // Depth first; a module met again while still on the path closes a cycle.
    fn visit<'m>(
        m: &'m Module,
        next: &BTreeMap<&'m Module, Vec<&'m Module>>,
        path: &mut Vec<&'m Module>,
        done: &mut BTreeSet<&'m Module>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| *p == m) {
            let mut ring: Vec<String> = path[at..].iter().map(|p| p.join("::")).collect();
            ring.push(m.join("::"));
            return Some(ring);
        }
        if !done.insert(m) {
            return None;
        }
        path.push(m);
        for n in next.get(m).into_iter().flatten() {
            if let Some(ring) = visit(n, next, path, done) {
                return Some(ring);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    next.keys()
        .find_map(|m| visit(m, &next, &mut Vec::new(), &mut done))
}

fn src() -> BTreeMap<Module, String> {
    modules(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn no_cycle_between_the_top_level_modules() {
    let edges = edges(&src());
    assert!(edges.len() > 20, "too few edges found: {edges:?}");
    let ring = cycle(&edges, |m| m.len() == 1);
    assert!(ring.is_none(), "a cycle between modules of src/: {ring:?}");
}

#[test]
fn no_cycle_inside_any_folder() {
    let edges = edges(&src());
    let ring = cycle(&edges, |m| m.len() > 1);
    assert!(ring.is_none(), "a cycle inside a folder of src/: {ring:?}");
}

/// The check finds a cycle where there is one.
#[test]
fn a_cycle_is_found() {
    let mut modules = src();
    modules.insert(
        vec!["api".into(), "problem".into()],
        "use super::games::create;".into(),
    );
    modules.insert(
        vec!["engine".into(), "extra".into()],
        "fn f() { crate::api::Problem::x(); }".into(),
    );
    let edges = edges(&modules);
    let ring = cycle(&edges, |m| m.first().is_some_and(|f| f == "api"));
    assert!(ring.is_some_and(|r| r.contains(&"api::problem".to_string())));
    let ring = cycle(&edges, |m| m.len() == 1);
    assert!(ring.is_some_and(|r| r.contains(&"engine".to_string())));
}
