//! From YAML text to a validated [`Ruleset`]: parse (with budgets against alias bombs), compile the
//! hook scripts, follow `extends`, apply options, and check every value, naming the field.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_saphyr::Error as YamlError;

use crate::ruleset::{MatchRules, MeldRules, Ruleset, Target};

use super::RulesetError;
use super::hooks::{Binding, HookPoint, Script, compile};
use super::limits::{self, MAX_YAML_BYTES, MAX_YAML_DEPTH, is_script_name, shown};
use super::spec::{HooksSpec, Loc, OptionSpec, RulesetSpec, Sections, TargetSpec};
use super::suggest::did_you_mean;

/// Hook bindings a ruleset or option writes: a binding, or `None` to remove an inherited one.
pub(crate) type HookOverlay = Vec<(HookPoint, Option<Binding>)>;

/// One parsed ruleset file with its scripts compiled.
pub(crate) struct Source {
    /// The file name shown in errors.
    pub file: Arc<str>,
    pub spec: RulesetSpec,
    pub hooks: HookOverlay,
    pub option_hooks: BTreeMap<String, HookOverlay>,
}

impl Source {
    pub fn id(&self) -> &str {
        &self.spec.id.value
    }
}

fn nz(n: u32) -> Option<u32> {
    (n > 0).then_some(n)
}

/// An error at the place `loc` was written (or in `file` when it carries no file).
pub(crate) fn at<T>(loc: &Loc<T>, file: &str, message: impl Into<String>) -> RulesetError {
    RulesetError {
        path: loc.file.as_deref().unwrap_or(file).to_string(),
        line: nz(loc.line),
        column: nz(loc.column),
        message: message.into(),
    }
}

fn in_file(file: &str, message: impl Into<String>) -> RulesetError {
    RulesetError {
        path: file.to_string(),
        line: None,
        column: None,
        message: message.into(),
    }
}

fn yaml_options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        strict_booleans: true,
        with_snippet: false,
        budget: serde_saphyr::budget! {
            max_documents: 1,
            max_depth: MAX_YAML_DEPTH,
            max_events: 50_000,
            max_nodes: 20_000,
            max_aliases: 64,
            max_anchors: 64,
            max_recorded_anchor_events: 5_000,
            max_recorded_anchor_bytes: 64 * 1024,
            max_total_scalar_bytes: MAX_YAML_BYTES,
            max_merge_keys: 64,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: 5_000,
            max_replay_stack_depth: 8,
            max_alias_expansions_per_anchor: 32,
        },
    }
}

/// The key written on `line` of `yaml` before `column`, if the line reads `key: value`.
fn key_on_line(yaml: &str, line: u32, column: u32) -> Option<String> {
    let text = yaml.lines().nth(line.checked_sub(1)? as usize)?;
    let t = text.trim_start().trim_start_matches("- ");
    let (key, _) = t.split_once(':')?;
    let key = key.trim().trim_matches('"').trim_matches('\'');
    let key_end = text.find(':')? as u32 + 1;
    let ok =
        !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_') && column > key_end;
    ok.then(|| key.to_string())
}

/// Turns a serde-saphyr error into one in a variant author's words.
fn yaml_error(file: &str, yaml: &str, e: &YamlError) -> RulesetError {
    let mut inner = e.without_snippet();
    while let YamlError::AliasError { error, .. } = inner {
        inner = error.without_snippet();
    }
    let loc = e.location().or_else(|| inner.location());
    let (line, column) = loc.map_or((0, 0), |l| {
        (
            u32::try_from(l.line()).unwrap_or(0),
            u32::try_from(l.column()).unwrap_or(0),
        )
    });
    let message = match inner {
        YamlError::SerdeUnknownField {
            field, expected, ..
        } => match did_you_mean(field, expected.iter().copied()) {
            Some(s) => format!("unknown key `{}`; did you mean `{s}`?", shown(field)),
            None => format!(
                "unknown key `{}` (expected one of: {})",
                shown(field),
                expected.join(", ")
            ),
        },
        YamlError::SerdeUnknownVariant {
            variant, expected, ..
        } => {
            let key = key_on_line(yaml, line, column)
                .map(|k| format!(" for `{k}`"))
                .unwrap_or_default();
            match did_you_mean(variant, expected.iter().copied()) {
                Some(s) => format!(
                    "unknown value `{}`{key}; did you mean `{s}`?",
                    shown(variant)
                ),
                None => format!(
                    "unknown value `{}`{key} (expected one of: {})",
                    shown(variant),
                    expected.join(", ")
                ),
            }
        }
        YamlError::SerdeMissingField { field, .. } => format!("missing key `{field}`"),
        YamlError::Eof { .. } => {
            "the file is empty: a ruleset needs at least `id` and `name`".into()
        }
        YamlError::Budget { breach, .. } => match breach {
            serde_saphyr::budget::BudgetBreach::Depth { .. } => format!(
                "the YAML nests deeper than {MAX_YAML_DEPTH} levels; a ruleset needs at most 5"
            ),
            _ => format!("the YAML is too large or too complex for a ruleset ({breach:?})"),
        },
        _ => {
            let text = inner.render_with_formatter(&serde_saphyr::UserMessageFormatter);
            let text = text
                .strip_suffix(&format!(" at line {line}, column {column}"))
                .unwrap_or(&text)
                .to_string();
            let text = match text.as_str() {
                t if t.starts_with("invalid i64") || t.starts_with("invalid u") => {
                    "expected a whole number".to_string()
                }
                t if t.starts_with("invalid boolean") => "expected `true` or `false`".to_string(),
                "expected mapping start" => "expected a mapping of keys and values".to_string(),
                "expected sequence start" => "expected a list".to_string(),
                "expected string scalar" => "expected a text".to_string(),
                _ => text,
            };
            match key_on_line(yaml, line, column) {
                Some(k) => format!("`{k}`: {text}"),
                None => text,
            }
        }
    };
    RulesetError {
        path: file.to_string(),
        line: nz(line),
        column: nz(column),
        message,
    }
}

/// Parses YAML text into a ruleset spec.
pub(crate) fn parse_spec(file: &str, yaml: &str) -> Result<RulesetSpec, RulesetError> {
    if yaml.len() > MAX_YAML_BYTES {
        return Err(in_file(
            file,
            format!(
                "the file is {} bytes; a ruleset may have at most {MAX_YAML_BYTES}",
                yaml.len()
            ),
        ));
    }
    serde_saphyr::from_str_with_options::<RulesetSpec>(yaml, yaml_options())
        .map_err(|e| yaml_error(file, yaml, &e))
}

/// The text with the lines of its schema errors blanked (see [`parse_spec_all`]): what is left
/// parses, so the checks that follow parsing can report their errors in the same pass.
pub(crate) fn without_schema_errors(yaml: &str) -> String {
    parse_spec_all("", yaml).2
}

/// Every schema error of a file in one pass. After each error its line, and the lines nested
/// under it, are blanked (line numbers stay true) and the text parsed again. Also returns the
/// spec of what is left, and that text.
fn parse_spec_all(file: &str, yaml: &str) -> (Option<RulesetSpec>, Vec<RulesetError>, String) {
    let mut text = yaml.to_string();
    let mut errors: Vec<RulesetError> = Vec::new();
    while errors.len() < limits::MAX_ERRORS {
        match parse_spec(file, &text) {
            Ok(spec) => return (Some(spec), errors, text),
            Err(e) => {
                let line = e.line;
                // After a missing key or a budget breach the rest of the text says nothing more.
                let last = e.message.starts_with("missing key")
                    || e.message.contains("too large or too complex");
                errors.push(e);
                match line {
                    Some(line) if !last && blank_entry(&mut text, line) => {}
                    _ => break,
                }
            }
        }
    }
    (None, errors, text)
}

/// Blanks line `line` (1-based) and the more indented lines that follow it; false when there is
/// nothing left to blank there.
fn blank_entry(text: &mut String, line: u32) -> bool {
    let mut lines: Vec<&str> = text.split('\n').collect();
    let Some(first) = (line as usize).checked_sub(1).filter(|&i| i < lines.len()) else {
        return false;
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    let content = |l: &str| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#')
    };
    if !content(lines[first]) {
        return false;
    }
    let own = indent(lines[first]);
    let explicit_key = lines[first].trim_start().starts_with("? ");
    let mut end = first + 1;
    let nested = |l: &str| {
        !content(l)
            || indent(l) > own
            || (explicit_key && indent(l) == own && l.trim_start().starts_with(':'))
    };
    while end < lines.len() && nested(lines[end]) {
        end += 1;
    }
    for l in &mut lines[first..end] {
        *l = "";
    }
    *text = lines.join("\n");
    true
}

fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !s.starts_with('-')
}

/// Collects the hook bindings of one `hooks:` section, compiling scripts on first use.
fn bind_hooks(
    file: &Arc<str>,
    hooks: Option<&HooksSpec>,
    from: &str,
    scripts: &BTreeMap<String, String>,
    compiled: &mut BTreeMap<String, Option<Arc<Script>>>,
    bound: &mut BTreeSet<(String, HookPoint)>,
    errors: &mut Vec<RulesetError>,
) -> HookOverlay {
    let mut overlay = Vec::new();
    let Some(hooks) = hooks else {
        return overlay;
    };
    for (name, binding) in hooks.bindings() {
        let Some(point) = HookPoint::from_name(name) else {
            continue;
        };
        let Some(binding) = binding else {
            continue;
        };
        let Some(spec) = binding else {
            overlay.push((point, None));
            continue;
        };
        let script_name = &spec.script.value;
        if !is_script_name(script_name) {
            errors.push(at(
                &spec.script,
                file,
                format!(
                    "`hooks.{point}.script`: `{}` is not a script name; write the name of a `.rhai` file beside the ruleset (at most {} letters, digits, `-`, `_` and `.`), like `oklahoma.rhai`",
                    shown(script_name),
                    limits::MAX_SCRIPT_NAME
                ),
            ));
            continue;
        }
        let Some(text) = scripts.get(script_name) else {
            let hint = match did_you_mean(script_name, scripts.keys().map(String::as_str)) {
                Some(s) => format!("; did you mean `{s}`?"),
                None if scripts.is_empty() => " (no scripts were found)".to_string(),
                None => format!(
                    " (scripts found: {})",
                    scripts.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            };
            errors.push(at(
                &spec.script,
                file,
                format!(
                    "`hooks.{point}.script`: no script `{script_name}` beside the ruleset{hint}"
                ),
            ));
            continue;
        };
        let script = compiled
            .entry(script_name.clone())
            .or_insert_with(|| match compile(script_name, text) {
                Ok(s) => Some(Arc::new(s)),
                Err(mut e) => {
                    errors.append(&mut e);
                    None
                }
            })
            .clone();
        let Some(script) = script else {
            continue;
        };
        if !script.points.contains(&point) {
            errors.push(at(
                &spec.script,
                file,
                format!("`hooks.{point}`: `{script_name}` defines no function `{point}(ctx)`"),
            ));
            continue;
        }
        bound.insert((script_name.clone(), point));
        overlay.push((
            point,
            Some(Binding {
                point,
                script,
                rule: spec.rule.as_ref().map(|r| r.value.clone()),
                from: from.to_string(),
            }),
        ));
    }
    overlay
}

/// Parses a ruleset file and compiles the scripts it binds. Checks what one file alone can say:
/// the YAML, the ids, the scripts and their bindings.
pub(crate) fn parse_source(
    file: &str,
    yaml: &str,
    scripts: &BTreeMap<String, String>,
) -> Result<Source, Vec<RulesetError>> {
    let (spec, errors, _) = parse_spec_all(file, yaml);
    let Some(spec) = spec.filter(|_| errors.is_empty()) else {
        return Err(errors);
    };
    let errors = limits::check_spec(file, &spec);
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut errors = Vec::new();
    let file: Arc<str> = Arc::from(file);
    if !is_id(&spec.id.value) {
        errors.push(at(
            &spec.id,
            &file,
            format!(
                "`id`: `{}` is not an id; use at most 64 lower-case letters, digits and dashes, like `straight-gin`",
                shown(&spec.id.value)
            ),
        ));
    }
    if spec.name.value.trim().is_empty() {
        errors.push(at(&spec.name, &file, "`name` is empty"));
    }
    let mut compiled = BTreeMap::new();
    let mut bound = BTreeSet::new();
    let hooks = bind_hooks(
        &file,
        spec.hooks.as_ref(),
        &spec.id.value,
        scripts,
        &mut compiled,
        &mut bound,
        &mut errors,
    );
    let mut option_hooks = BTreeMap::new();
    for (name, option) in spec.options.iter().flatten() {
        if !is_id(name) {
            errors.push(in_file(
                &file,
                format!(
                    "`options`: `{}` is not an option id; use at most 64 lower-case letters, digits and dashes",
                    shown(name)
                ),
            ));
        }
        let Some(option) = option else { continue };
        let overlay = bind_hooks(
            &file,
            option.hooks.as_ref(),
            name,
            scripts,
            &mut compiled,
            &mut bound,
            &mut errors,
        );
        option_hooks.insert(name.clone(), overlay);
    }
    for (name, script) in &compiled {
        let Some(script) = script else { continue };
        for &point in &script.points {
            if !bound.contains(&(name.clone(), point)) {
                let text = scripts.get(name).map(String::as_str).unwrap_or("");
                let (line, column) = find_fn_line(text, point.name());
                errors.push(RulesetError {
                    path: name.clone(),
                    line,
                    column,
                    message: format!(
                        "`{point}` is defined here, but no `hooks:` entry of {file} binds it to {name}"
                    ),
                });
            }
        }
    }
    if errors.is_empty() {
        Ok(Source {
            file,
            spec,
            hooks,
            option_hooks,
        })
    } else {
        Err(errors)
    }
}

fn find_fn_line(text: &str, name: &str) -> (Option<u32>, Option<u32>) {
    let needle = format!("fn {name}");
    text.lines()
        .enumerate()
        .find_map(|(i, l)| {
            l.find(&needle)
                .map(|c| (Some(i as u32 + 1), Some(c as u32 + 1)))
        })
        .unwrap_or((None, None))
}

/// An option as the resolved ruleset offers it.
#[derive(Clone)]
pub(crate) struct OptionEntry {
    pub id: String,
    pub file: Arc<str>,
    pub spec: OptionSpec,
    pub hooks: HookOverlay,
}

/// A ruleset with its `extends` chain applied, before options.
pub(crate) struct Base {
    pub id: String,
    pub name: String,
    pub summary: String,
    pub file: Arc<str>,
    pub seats: Option<Loc<i64>>,
    pub sections: Sections,
    pub hooks: [Option<Binding>; 6],
    pub options: BTreeMap<String, OptionEntry>,
}

/// Applies a hook overlay to a table of bindings.
pub(crate) fn apply_hooks(table: &mut [Option<Binding>; 6], overlay: &HookOverlay) {
    for (point, binding) in overlay {
        table[point.index()] = binding.clone();
    }
}

/// Applies a chain of sources, root first, over the defaults.
pub(crate) fn base_of(chain: &[&Source]) -> Option<Base> {
    let leaf = chain.last()?;
    let mut sections = Sections::default();
    let mut hooks: [Option<Binding>; 6] = Default::default();
    let mut options: BTreeMap<String, OptionEntry> = BTreeMap::new();
    let mut seats = None;
    for s in chain {
        sections.overlay(&s.spec.sections(), &s.file);
        apply_hooks(&mut hooks, &s.hooks);
        if let Some(n) = &s.spec.seats {
            seats = Some(n.clone().in_file(&s.file));
        }
        for (id, option) in s.spec.options.iter().flatten() {
            match option {
                None => {
                    options.remove(id);
                }
                Some(spec) => {
                    options.insert(
                        id.clone(),
                        OptionEntry {
                            id: id.clone(),
                            file: s.file.clone(),
                            spec: spec.clone(),
                            hooks: s.option_hooks.get(id).cloned().unwrap_or_default(),
                        },
                    );
                }
            }
        }
    }
    Some(Base {
        id: leaf.spec.id.value.clone(),
        name: leaf.spec.name.value.trim().to_string(),
        summary: leaf
            .spec
            .summary
            .as_ref()
            .map(|s| s.value.trim().to_string())
            .unwrap_or_default(),
        file: leaf.file.clone(),
        seats,
        sections,
        hooks,
        options,
    })
}

/// Range checks that name the field and collect every error.
struct Checker<'a> {
    file: &'a str,
    errors: Vec<RulesetError>,
}

impl Checker<'_> {
    fn int(&mut self, v: &Option<Loc<i64>>, path: &str, default: i64, lo: i64, hi: i64) -> i64 {
        match v {
            None => default,
            Some(l) if (lo..=hi).contains(&l.value) => l.value,
            Some(l) => {
                let range = if hi >= 1_000_000 {
                    format!("{lo} or more")
                } else {
                    format!("{lo} to {hi}")
                };
                self.errors.push(at(
                    l,
                    self.file,
                    format!("`{path}` must be {range}, not {}", l.value),
                ));
                default
            }
        }
    }

    fn val<T: Clone>(&self, v: &Option<Loc<T>>, default: T) -> T {
        v.as_ref().map_or(default, |l| l.value.clone())
    }

    fn err<T>(&mut self, v: &Option<Loc<T>>, message: String) {
        self.errors.push(match v {
            Some(l) => at(l, self.file, message),
            None => in_file(self.file, message),
        });
    }
}

/// Checks every value of a ruleset with options applied and builds the core [`Ruleset`].
pub(crate) fn build_ruleset(
    base: &Base,
    sections: &Sections,
    hooks: &[Option<Binding>; 6],
) -> Result<Ruleset, Vec<RulesetError>> {
    let d = Ruleset::standard();
    let mut c = Checker {
        file: &base.file,
        errors: Vec::new(),
    };
    let s = sections;
    let seats = c.int(&base.seats, "seats", 2, 2, 4) as u8;

    let mut values = d.melds.values;
    if let Some(v) = &s.deck.values {
        for (i, (key, field)) in v.ranks().into_iter().enumerate() {
            values[i] = c.int(
                field,
                &format!("deck.values.{key}"),
                i64::from(values[i]),
                0,
                100,
            ) as u8;
        }
    }
    let m = &s.melds;
    let set_min = c.int(
        &m.set_min,
        "melds.set_min",
        i64::from(d.melds.set_min),
        3,
        4,
    ) as u8;
    let set_max = c.int(
        &m.set_max,
        "melds.set_max",
        i64::from(d.melds.set_max),
        3,
        4,
    ) as u8;
    if set_max < set_min {
        c.err(
            &m.set_max,
            format!("`melds.set_max` ({set_max}) is less than `melds.set_min` ({set_min})"),
        );
    }
    let run_min = c.int(
        &m.run_min,
        "melds.run_min",
        i64::from(d.melds.run_min),
        3,
        13,
    ) as u8;
    let ace = c.val(&m.ace, d.melds.ace);
    let wrap = c.val(&m.wrap, d.melds.wrap);
    if wrap && ace != crate::ruleset::AceRank::Both {
        c.err(
            &m.wrap,
            "`melds.wrap` needs `melds.ace: both`: a run can only go round the corner when the ace is high and low".into(),
        );
    }
    let melds = MeldRules {
        set_min,
        set_max,
        run_min,
        ace,
        wrap,
        values,
    };

    let hand_size = c.int(
        &s.deal.hand_size,
        "deal.hand_size",
        i64::from(d.hand_size),
        3,
        20,
    ) as u8;
    let reserve = c.int(
        &s.stock.reserve,
        "stock.reserve",
        i64::from(d.stock_reserve),
        0,
        20,
    ) as u8;
    let used = 2 * u32::from(hand_size) + 1 + u32::from(reserve);
    if used >= 52 {
        c.err(
            &s.stock.reserve,
            format!(
                "two hands of {hand_size}, the upcard and a stock reserve of {reserve} take {used} of the 52 cards: the stock would have none to draw"
            ),
        );
    }

    let max_deadwood = melds.max_deadwood(usize::from(hand_size)).min(255);
    let knocking = c.val(&s.knocking.allowed, d.knock_limit.is_some());
    let limit = c.int(
        &s.knocking.knock_limit,
        "knocking.knock_limit",
        i64::from(d.knock_limit.unwrap_or(10)).min(i64::from(max_deadwood)),
        0,
        1_000_000,
    );
    if limit > i64::from(max_deadwood) {
        c.err(
            &s.knocking.knock_limit,
            format!(
                "`knocking.knock_limit` {limit} is more than the most deadwood a hand of {hand_size} cards can hold ({max_deadwood})"
            ),
        );
    }
    let knock_limit = knocking.then_some(limit.clamp(0, 255) as u8);
    if !knocking && let Some(b) = &hooks[HookPoint::KnockLimit.index()] {
        c.errors.push(in_file(
            &base.file,
            format!(
                "the `knock_limit` hook (bound by `{}`) sets a knock limit, but `knocking.allowed` is false",
                b.from
            ),
        ));
    }

    let sc = &s.scoring;
    let gin_bonus = c.int(
        &sc.gin_bonus,
        "scoring.gin_bonus",
        i64::from(d.gin_bonus),
        0,
        10_000,
    ) as u32;
    let big_gin = c.val(&sc.big_gin, d.big_gin_bonus.is_some());
    let big_gin_bonus = c.int(
        &sc.big_gin_bonus,
        "scoring.big_gin_bonus",
        i64::from(d.big_gin_bonus.unwrap_or(31)),
        0,
        10_000,
    ) as u32;
    let undercut_bonus = c.int(
        &sc.undercut_bonus,
        "scoring.undercut_bonus",
        i64::from(d.undercut_bonus),
        0,
        10_000,
    ) as u32;
    let tie_is_undercut = c.val(&sc.tie_is_undercut, d.tie_is_undercut);

    let lay_offs = c.val(&s.lay_offs.allowed, d.lay_offs);
    let lay_off_after_gin = c.val(&s.lay_offs.after_gin, d.lay_off_after_gin);
    if lay_off_after_gin && !lay_offs {
        c.err(
            &s.lay_offs.after_gin,
            "`lay_offs.after_gin` needs `lay_offs.allowed: true`".into(),
        );
    }

    let mm = &s.match_;
    let mut targets = Vec::new();
    match &mm.targets {
        None => targets = d.match_rules.targets.clone(),
        Some(l) => {
            for t in &l.value {
                match t.to_target() {
                    Ok(t) if targets.contains(&t) => c.errors.push(at(
                        l,
                        &base.file,
                        format!("`match.targets` lists {t} twice"),
                    )),
                    Ok(t) => targets.push(t),
                    Err(e) => c
                        .errors
                        .push(at(l, &base.file, format!("`match.targets`: {e}"))),
                }
            }
            if l.value.is_empty() {
                c.errors.push(at(
                    l,
                    &base.file,
                    "`match.targets` is empty: list at least one target",
                ));
            }
        }
    }
    let default_target = match &mm.default_target {
        None => d.match_rules.default_target,
        Some(l) => match l.value.to_target() {
            Ok(t) => t,
            Err(e) => {
                c.errors
                    .push(at(l, &base.file, format!("`match.default_target`: {e}")));
                d.match_rules.default_target
            }
        },
    };
    if !targets.is_empty() && !targets.contains(&default_target) {
        let msg = format!(
            "`match.default_target` ({default_target}) is not one of `match.targets` ({})",
            targets
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        let err = match (&mm.default_target, &mm.targets) {
            (Some(l), _) => at(l, &base.file, msg),
            (None, Some(l)) => at(l, &base.file, msg),
            (None, None) => in_file(&base.file, msg),
        };
        c.errors.push(err);
    }
    let match_rules = MatchRules {
        targets,
        default_target,
        game_bonus: c.int(&mm.game_bonus, "match.game_bonus", 0, 0, 10_000) as u32,
        box_bonus: c.int(&mm.box_bonus, "match.box_bonus", 0, 0, 10_000) as u32,
        shutout_multiplier: c.int(&mm.shutout_multiplier, "match.shutout_multiplier", 1, 1, 10)
            as u32,
    };

    if c.errors.is_empty() {
        Ok(Ruleset {
            id: base.id.clone(),
            name: base.name.clone(),
            summary: base.summary.clone(),
            seats,
            hand_size,
            melds,
            upcard_offer: c.val(&s.turns.upcard_offer, d.upcard_offer),
            knock_limit,
            gin_bonus,
            big_gin_bonus: big_gin.then_some(big_gin_bonus),
            undercut_bonus,
            tie_is_undercut,
            lay_offs,
            lay_off_after_gin,
            discard_taken_card: c.val(&s.turns.discard_taken_card, d.discard_taken_card),
            stock_reserve: reserve,
            stock_end: c.val(&s.stock.end, d.stock_end),
            next_dealer: c.val(&s.dealer.next, d.next_dealer),
            match_rules,
        })
    } else {
        Err(c.errors)
    }
}

/// Targets an option refuses, parsed: `(target, reason)`.
pub(crate) fn refused_targets(
    option: &OptionEntry,
) -> Result<Vec<(Target, String)>, Vec<RulesetError>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (key, reason) in option.spec.refuses_targets.iter().flatten() {
        let spec = match key.parse::<i64>() {
            Ok(n) => TargetSpec::Points(n),
            Err(_) => TargetSpec::Word(key.clone()),
        };
        match spec.to_target() {
            Ok(t) => out.push((t, reason.value.clone())),
            Err(e) => errors.push(at(
                reason,
                &option.file,
                format!("`options.{}.refuses_targets`: {e}", option.id),
            )),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_of_a_line_is_found_only_before_the_value() {
        let yaml = "id: x\nscoring:\n  gin_bonus: lots\n  - item: 3\n";
        assert_eq!(key_on_line(yaml, 3, 14).as_deref(), Some("gin_bonus"));
        assert_eq!(key_on_line(yaml, 3, 3), None);
        assert_eq!(key_on_line(yaml, 4, 11).as_deref(), Some("item"));
        assert_eq!(key_on_line(yaml, 9, 1), None);
        assert_eq!(key_on_line(yaml, 0, 1), None);
    }

    #[test]
    fn ids_and_script_names() {
        assert!(is_id("straight-gin") && is_id("gin2"));
        assert!(!is_id("") && !is_id("-x") && !is_id("Gin") && !is_id("a_b"));
        assert!(is_script_name("oklahoma.rhai"));
        assert!(
            !is_script_name("../x.rhai") && !is_script_name(".rhai") && !is_script_name("x.lua")
        );
    }

    #[test]
    fn a_minimal_file_gets_every_default() {
        let source = parse_source("t.yaml", "id: t\nname: T\n", &BTreeMap::new()).unwrap();
        let base = base_of(&[&source]).unwrap();
        let r = build_ruleset(&base, &base.sections, &base.hooks).unwrap();
        let standard = Ruleset::standard();
        assert_eq!(
            (r.id.as_str(), r.name.as_str(), r.summary.as_str()),
            ("t", "T", "")
        );
        assert_eq!(r.melds, standard.melds);
        assert_eq!(r.match_rules, standard.match_rules);
        assert_eq!(r.knock_limit, standard.knock_limit);
    }

    #[test]
    fn every_out_of_range_value_is_reported_at_once() {
        let yaml = "id: t\nname: T\nmelds:\n  set_min: 4\n  set_max: 3\nstock:\n  reserve: 20\ndeal:\n  hand_size: 20\nmatch:\n  targets: [100, 100]\n  default_target: 50\n";
        let source = parse_source("t.yaml", yaml, &BTreeMap::new()).unwrap();
        let base = base_of(&[&source]).unwrap();
        let errors = build_ruleset(&base, &base.sections, &base.hooks).unwrap_err();
        let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(text.len(), 4, "{text:#?}");
        assert!(
            text[0].starts_with("t.yaml:5:12: `melds.set_max` (3) is less than"),
            "{text:#?}"
        );
        assert!(
            text[1].contains("the stock would have none to draw"),
            "{text:#?}"
        );
        assert!(text[2].contains("lists 100 points twice"), "{text:#?}");
        assert!(
            text[3].contains("`match.default_target` (50 points) is not one of"),
            "{text:#?}"
        );
    }
}
