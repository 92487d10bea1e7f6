//! Rulesets as data: YAML files with optional Rhai hooks, resolved into the core
//! [`Ruleset`](crate::ruleset::Ruleset) the engine reads and a [`Hooks`](crate::hooks::Hooks)
//! implementation.
//!
//! A [`Catalog`] holds the built-in rulesets (embedded in the binary) and any loaded from a
//! directory. [`Catalog::resolve`] turns a [`RulesetRef`] (an id and options, or an authored
//! ruleset sent with a request) into a playable [`Variant`]; it is cheap after the first call,
//! since resolved variants are cached. [`Catalog::check`] loads an authored ruleset and reports
//! every problem with its place.
//!
//! ```
//! use gin_rules::rules::Catalog;
//! use gin_rules::ruleset::RulesetRef;
//!
//! let catalog = Catalog::builtin();
//! let variant = catalog
//!     .resolve(&RulesetRef { id: "standard".into(), options: vec!["oklahoma".into()], authored: None })
//!     .unwrap();
//! assert_eq!(variant.ruleset.knock_limit, Some(10));
//! ```

mod cache;
pub mod contexts;
mod cpu_clock;
mod describe;
pub mod hooks;
pub mod limits;
mod load;
pub mod spec;
mod suggest;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::Path;
use std::sync::{Arc, RwLock};

use serde::Serialize;

use crate::hooks::{Hooks, NoHooks};
use crate::ruleset::{AuthoredRuleset, Ruleset, RulesetRef, Target};

pub use cache::{CacheUsage, ContentHash, DEFAULT_CACHE_BYTES};
pub use describe::{RulesRow, rules_table};
pub use hooks::{HookPoint, ScriptHooks};
pub use limits::MAX_YAML_BYTES;
pub use spec::schema_json;

use cache::{AuthoredCache, Entry, Loaded};
use hooks::Binding;
use limits::shown;
use load::{Base, OptionEntry, Source, apply_hooks, base_of, build_ruleset, parse_source};
pub use suggest::did_you_mean;

/// One problem with a ruleset, at its place: `path:line:column: message`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct RulesetError {
    /// The file: the YAML file, or the script the problem is in.
    pub path: String,
    /// 1-based; `None` when the problem has no single place.
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
}

impl fmt::Display for RulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for RulesetError {}

/// Why a ruleset reference does not resolve to a playable variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// No ruleset with that id (API `unknown-ruleset`).
    #[error("there is no ruleset `{}`", shown(.0))]
    UnknownRuleset(String),
    /// The ruleset does not offer that option (API `unknown-option`).
    #[error(
        "{ruleset} has no option `{}`{}",
        shown(option),
        option_hint(option, known)
    )]
    UnknownOption {
        ruleset: String,
        option: String,
        /// The options it offers.
        known: Vec<String>,
    },
    /// Options that exclude each other, or that the ruleset refuses (API `incompatible-options`);
    /// `reason` is the sentence a player reads.
    #[error("{reason}")]
    IncompatibleOptions {
        ruleset: String,
        options: Vec<String>,
        reason: String,
    },
    /// A target the ruleset does not play to (API: `invalid-target`, 422).
    #[error(
        "{ruleset} is not played to {target}; choose {}",
        list_targets(allowed)
    )]
    TargetNotAllowed {
        ruleset: String,
        target: Target,
        allowed: Vec<Target>,
    },
    /// The ruleset does not load (API `invalid-ruleset`, with every error).
    #[error("the ruleset does not load: {}", first_error(.0))]
    Invalid(Vec<RulesetError>),
}

fn option_hint(option: &str, known: &[String]) -> String {
    match did_you_mean(option, known.iter().map(String::as_str)) {
        Some(s) => format!("; did you mean `{s}`?"),
        None if known.is_empty() => " (it offers none)".into(),
        None => format!(" (options: {})", known.join(", ")),
    }
}

fn list_targets(targets: &[Target]) -> String {
    targets
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn first_error(errors: &[RulesetError]) -> String {
    match errors {
        [] => "no details".into(),
        [e] => e.to_string(),
        [e, rest @ ..] => format!("{e} (and {} more)", rest.len()),
    }
}

impl ResolveError {
    /// The stable problem code of the HTTP API.
    pub fn code(&self) -> &'static str {
        match self {
            ResolveError::UnknownRuleset(_) => "unknown-ruleset",
            ResolveError::UnknownOption { .. } => "unknown-option",
            ResolveError::IncompatibleOptions { .. } => "incompatible-options",
            ResolveError::TargetNotAllowed { .. } => "invalid-target",
            ResolveError::Invalid(_) => "invalid-ruleset",
        }
    }
}

/// An option a ruleset offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct OptionInfo {
    /// The option's id, as `options` names it.
    pub id: String,
    /// Its name for people.
    pub name: String,
    /// What it changes.
    pub summary: String,
    /// Options it cannot be combined with.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts_with: Vec<String>,
}

/// An option the ruleset knows but refuses, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct RefusedOption {
    pub id: String,
    pub reason: String,
}

/// A target an option in force refuses, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct RefusedTarget {
    pub target: Target,
    pub option: String,
    pub reason: String,
}

/// A hook point in force.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct HookInfo {
    /// The hook point: knock_limit, score_multiplier, match_layout, seating, record_result or next_dealer.
    pub point: String,
    /// The script file whose function of that name runs.
    pub script: String,
    /// The rule in words, as the YAML gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The ruleset or option that binds it.
    pub from: String,
}

/// A ruleset as `GET /v1/rulesets` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct RulesetInfo {
    /// The ruleset's id, for `POST /v1/games`.
    pub id: String,
    /// Its name for people.
    pub name: String,
    /// One sentence on what sets it apart.
    pub summary: String,
    /// How many players.
    pub seats: u8,
    /// The options it offers.
    pub options: Vec<OptionInfo>,
    /// The targets a match may be played to.
    pub targets: Vec<Target>,
    /// The target when a deal names none.
    pub default_target: Target,
}

/// A resolved, playable ruleset: the rules, the hooks, and what a game state carries.
pub struct Variant {
    /// What a game state carries to resolve this variant again.
    pub reference: RulesetRef,
    pub ruleset: Arc<Ruleset>,
    /// [`NoHooks`] when the ruleset binds none.
    pub hooks: Arc<dyn Hooks>,
    /// Options the ruleset offers (whether or not in force).
    pub allowed_options: Vec<OptionInfo>,
    /// Options in force, in the order applied.
    pub options: Vec<OptionInfo>,
    /// Options the ruleset refuses, with the reason.
    pub refused_options: Vec<RefusedOption>,
    /// Targets the options in force refuse.
    pub refused_targets: Vec<RefusedTarget>,
    /// Hook points in force.
    pub hook_points: Vec<HookInfo>,
    /// The file the ruleset was read from.
    pub file: String,
    /// For an authored ruleset, the hash of its YAML and scripts (games from different
    /// authored rulesets with the same id are told apart by it).
    pub content_hash: Option<ContentHash>,
    /// Offered options that set the end of the stock, and to what (for the rules table).
    option_stock_ends: Vec<(String, crate::ruleset::StockEnd)>,
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Variant")
            .field("reference", &self.reference)
            .field("ruleset", &self.ruleset)
            .field("hook_points", &self.hook_points)
            .finish_non_exhaustive()
    }
}

impl Variant {
    /// Checks a requested match target: refused by an option in force (`IncompatibleOptions`,
    /// e.g. Hollywood with a one-hand match) or not among the ruleset's targets.
    pub fn check_target(&self, target: Target) -> Result<(), ResolveError> {
        if let Some(r) = self.refused_targets.iter().find(|r| r.target == target) {
            return Err(ResolveError::IncompatibleOptions {
                ruleset: self.ruleset.id.clone(),
                options: vec![r.option.clone()],
                reason: r.reason.clone(),
            });
        }
        if self.ruleset.match_rules.targets.contains(&target) {
            Ok(())
        } else {
            Err(ResolveError::TargetNotAllowed {
                ruleset: self.ruleset.name.clone(),
                target,
                allowed: self.ruleset.match_rules.targets.clone(),
            })
        }
    }

    /// The listing entry of this variant.
    pub fn info(&self) -> RulesetInfo {
        RulesetInfo {
            id: self.ruleset.id.clone(),
            name: self.ruleset.name.clone(),
            summary: self.ruleset.summary.clone(),
            seats: self.ruleset.seats,
            options: self.allowed_options.clone(),
            targets: self.ruleset.match_rules.targets.clone(),
            default_target: self.ruleset.match_rules.default_target,
        }
    }

    /// The hook bound to `point`, if any.
    pub fn hook(&self, point: HookPoint) -> Option<&HookInfo> {
        self.hook_points.iter().find(|h| h.point == point.name())
    }
}

const BUILTIN_YAML: &[(&str, &str)] = &[
    (
        "rulesets/standard.yaml",
        include_str!("../../rulesets/standard.yaml"),
    ),
    (
        "rulesets/straight-gin.yaml",
        include_str!("../../rulesets/straight-gin.yaml"),
    ),
    (
        "rulesets/three-player.yaml",
        include_str!("../../rulesets/three-player.yaml"),
    ),
    (
        "rulesets/four-player.yaml",
        include_str!("../../rulesets/four-player.yaml"),
    ),
];

const BUILTIN_SCRIPTS: &[(&str, &str)] = &[
    (
        "oklahoma.rhai",
        include_str!("../../rulesets/oklahoma.rhai"),
    ),
    (
        "hollywood.rhai",
        include_str!("../../rulesets/hollywood.rhai"),
    ),
    (
        "four-player.rhai",
        include_str!("../../rulesets/four-player.rhai"),
    ),
    (
        "four-player-tournament.rhai",
        include_str!("../../rulesets/four-player-tournament.rhai"),
    ),
];

/// The name an authored ruleset's YAML goes by in errors.
pub const AUTHORED_FILE: &str = "ruleset.yaml";

const MAX_CACHED_VARIANTS: usize = 1024;

/// The rulesets a server or CLI knows, a cache of resolved variants, and a cache of the authored
/// rulesets requests sent (by content hash, bounded by bytes). `Send + Sync`.
pub struct Catalog {
    sources: BTreeMap<String, Arc<Source>>,
    order: Vec<String>,
    variants: RwLock<HashMap<VariantKey, Arc<Variant>>>,
    authored: Arc<AuthoredCache>,
}

/// A ruleset id and the options asked for.
type VariantKey = (String, Vec<String>);

impl fmt::Debug for Catalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Catalog")
            .field("rulesets", &self.order)
            .finish_non_exhaustive()
    }
}

impl Catalog {
    /// An empty catalog.
    pub fn empty() -> Catalog {
        Catalog {
            sources: BTreeMap::new(),
            order: Vec::new(),
            variants: RwLock::new(HashMap::new()),
            authored: Arc::new(AuthoredCache::new(DEFAULT_CACHE_BYTES)),
        }
    }

    /// The same catalog with a cache of authored rulesets bounded at `bytes` (estimated; the
    /// default is [`DEFAULT_CACHE_BYTES`]).
    pub fn with_authored_cache_bytes(mut self, bytes: usize) -> Catalog {
        self.authored = Arc::new(AuthoredCache::new(bytes));
        self
    }

    /// What the cache of authored rulesets holds now.
    pub fn authored_cache_usage(&self) -> CacheUsage {
        self.authored.usage()
    }

    /// The built-in rulesets, embedded in the binary. Panics when one does not load, which only
    /// a defective build can cause; the server and the commands use [`Catalog::try_builtin`].
    pub fn builtin() -> Catalog {
        match Catalog::try_builtin() {
            Ok(c) => c,
            Err(errors) => {
                let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
                panic!("a built-in ruleset does not load:\n{}", lines.join("\n"))
            }
        }
    }

    /// The built-in rulesets, or every reason one of them does not load (a defect of this build,
    /// which a server or command reports at start rather than running without the ruleset).
    pub fn try_builtin() -> Result<Catalog, Vec<RulesetError>> {
        let mut c = Catalog::empty();
        let scripts: BTreeMap<String, String> = BUILTIN_SCRIPTS
            .iter()
            .map(|(n, t)| ((*n).to_string(), (*t).to_string()))
            .collect();
        let files: Vec<(String, String)> = BUILTIN_YAML
            .iter()
            .map(|(f, y)| ((*f).to_string(), (*y).to_string()))
            .collect();
        c.add_files(&files, &scripts)?;
        Ok(c)
    }

    /// The ids of the rulesets, built-ins first.
    pub fn ids(&self) -> Vec<String> {
        self.order.clone()
    }

    /// Adds the `*.yaml` rulesets of `dir`, with the `*.rhai` scripts beside them. Either every
    /// file loads and is added, or nothing is and every error is returned.
    pub fn add_dir(&mut self, dir: &Path) -> Result<(), Vec<RulesetError>> {
        let io = |p: &Path, e: std::io::Error| {
            vec![RulesetError {
                path: p.display().to_string(),
                line: None,
                column: None,
                message: format!("cannot read: {e}"),
            }]
        };
        let entries = std::fs::read_dir(dir).map_err(|e| io(dir, e))?;
        let mut paths: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        paths.sort();
        let mut files = Vec::new();
        let mut scripts = BTreeMap::new();
        for p in &paths {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext == "yaml" || ext == "yml" {
                let text = std::fs::read_to_string(p).map_err(|e| io(p, e))?;
                files.push((p.display().to_string(), text));
            } else if ext == "rhai" {
                let text = std::fs::read_to_string(p).map_err(|e| io(p, e))?;
                if let Some(name) = p.file_name().and_then(|n| n.to_str()) {
                    scripts.insert(name.to_string(), text);
                }
            }
        }
        self.add_files(&files, &scripts).map_err(|mut errors| {
            for e in &mut errors {
                if e.path.ends_with(".rhai") && !e.path.contains(['/', '\\']) {
                    e.path = dir.join(&e.path).display().to_string();
                }
            }
            errors
        })
    }

    /// Adds ruleset files `(file name, yaml)` that share `scripts`; all or nothing.
    pub fn add_files(
        &mut self,
        files: &[(String, String)],
        scripts: &BTreeMap<String, String>,
    ) -> Result<(), Vec<RulesetError>> {
        let mut errors = Vec::new();
        let mut added = Vec::new();
        for (file, yaml) in files {
            match parse_source(file, yaml, scripts) {
                Err(mut e) => errors.append(&mut e),
                Ok(source) => {
                    let id = source.id().to_string();
                    let clash = self
                        .sources
                        .get(&id)
                        .map(|s| s.file.to_string())
                        .or_else(|| {
                            added
                                .iter()
                                .find(|s: &&Arc<Source>| s.id() == id)
                                .map(|s| s.file.to_string())
                        });
                    if let Some(other) = clash {
                        errors.push(load::at(
                            &source.spec.id,
                            file,
                            format!("`id`: `{id}` is already the id of {other}"),
                        ));
                    } else {
                        added.push(Arc::new(source));
                    }
                }
            }
        }
        let mut next = Catalog {
            sources: self.sources.clone(),
            order: self.order.clone(),
            variants: RwLock::new(HashMap::new()),
            authored: Arc::new(AuthoredCache::new(0)),
        };
        for s in &added {
            next.sources.insert(s.id().to_string(), s.clone());
            next.order.push(s.id().to_string());
        }
        for s in &added {
            if let Err(mut e) = next.check_source(s) {
                errors.append(&mut e);
            }
        }
        if !errors.is_empty() {
            return Err(limits::bounded(errors));
        }
        self.sources = next.sources;
        self.order = next.order;
        self.clear_cache();
        Ok(())
    }

    fn clear_cache(&self) {
        if let Ok(mut v) = self.variants.write() {
            v.clear();
        }
        self.authored.clear();
    }

    /// Every ruleset, as `GET /v1/rulesets` lists them.
    pub fn list(&self) -> Vec<RulesetInfo> {
        self.order
            .iter()
            .filter_map(|id| {
                self.resolve(&RulesetRef {
                    id: id.clone(),
                    options: Vec::new(),
                    authored: None,
                })
                .ok()
            })
            .map(|v| v.info())
            .collect()
    }

    /// The playable variant a reference names: a ruleset id with options, or an authored ruleset.
    /// Cached: after the first call for a reference this is a map lookup (for an authored
    /// ruleset, a hash of its text and a map lookup).
    pub fn resolve(&self, reference: &RulesetRef) -> Result<Arc<Variant>, ResolveError> {
        if let Some(authored) = &reference.authored {
            return self.resolve_authored(reference, authored);
        }
        let key = (reference.id.clone(), reference.options.clone());
        if let Ok(cache) = self.variants.read()
            && let Some(v) = cache.get(&key)
        {
            return Ok(v.clone());
        }
        let source = self
            .sources
            .get(&reference.id)
            .ok_or_else(|| ResolveError::UnknownRuleset(reference.id.clone()))?;
        let base = self.base(source).map_err(ResolveError::Invalid)?;
        let variant = Arc::new(variant_of(&base, &reference.options, None)?);
        if let Ok(mut cache) = self.variants.write() {
            if cache.len() >= MAX_CACHED_VARIANTS {
                cache.clear();
            }
            cache.insert(key, variant.clone());
        }
        Ok(variant)
    }

    /// The cached outcome of loading an authored ruleset, loading it when it is not cached.
    fn authored_entry(
        &self,
        hash: ContentHash,
        authored: impl FnOnce() -> Arc<AuthoredRuleset>,
    ) -> Arc<Entry> {
        if let Some(entry) = self.authored.get(&hash) {
            return entry;
        }
        let loaded = self
            .load_authored(&authored(), hash)
            .map_err(|e| limits::bounded(without_option_repeats(e)));
        let entry = Arc::new(Entry { loaded });
        self.authored.insert(hash, entry.clone());
        entry
    }

    /// Loads an authored ruleset: the limits first, then the file, then every option.
    fn load_authored(
        &self,
        authored: &Arc<AuthoredRuleset>,
        hash: ContentHash,
    ) -> Result<Loaded, Vec<RulesetError>> {
        let errors = limits::check_scripts(AUTHORED_FILE, &authored.scripts);
        if !errors.is_empty() {
            return Err(errors);
        }
        let source = parse_source(AUTHORED_FILE, &authored.yaml, &authored.scripts)?;
        if self.sources.contains_key(source.id()) {
            return Err(vec![load::at(
                &source.spec.id,
                AUTHORED_FILE,
                format!(
                    "`id`: `{}` is the id of a ruleset this server already has; an authored ruleset needs an id of its own (it may `extends: {}`)",
                    source.id(),
                    source.id()
                ),
            )]);
        }
        let base = self.base(&source)?;
        check_base(&base)?;
        let plain =
            variant_of(&base, &[], Some((authored.clone(), hash))).map_err(resolve_errors)?;
        Ok(Loaded {
            authored: authored.clone(),
            base,
            plain: Arc::new(plain),
        })
    }

    fn resolve_authored(
        &self,
        reference: &RulesetRef,
        authored: &Arc<AuthoredRuleset>,
    ) -> Result<Arc<Variant>, ResolveError> {
        let hash = ContentHash::of(&authored.yaml, &authored.scripts);
        let entry = self.authored_entry(hash, || authored.clone());
        let loaded = match &entry.loaded {
            Ok(l) => l,
            Err(errors) => return Err(ResolveError::Invalid(errors.clone())),
        };
        if loaded.base.id != reference.id {
            return Err(ResolveError::Invalid(vec![RulesetError {
                path: AUTHORED_FILE.into(),
                line: None,
                column: None,
                message: format!(
                    "the game names ruleset `{}`, but the authored ruleset's id is `{}`",
                    shown(&reference.id),
                    loaded.base.id
                ),
            }]));
        }
        if reference.options.is_empty() {
            return Ok(loaded.plain.clone());
        }
        if let Some(v) = self.authored.variant(&hash, &reference.options) {
            return Ok(v);
        }
        let variant = Arc::new(variant_of(
            &loaded.base,
            &reference.options,
            Some((loaded.authored.clone(), hash)),
        )?);
        self.authored
            .insert_variant(&hash, &reference.options, variant.clone());
        Ok(variant)
    }

    /// Loads an authored ruleset (`POST /v1/rulesets/check`): the resolved ruleset without
    /// options, or every problem found in it and in each of its options (at most
    /// [`limits::MAX_ERRORS`], then a count of the rest). Cached by content hash.
    pub fn check(
        &self,
        yaml: &str,
        scripts: &BTreeMap<String, String>,
    ) -> Result<Arc<Variant>, Vec<RulesetError>> {
        let hash = ContentHash::of(yaml, scripts);
        let entry = self.authored_entry(hash, || {
            Arc::new(AuthoredRuleset {
                yaml: yaml.to_string(),
                scripts: scripts.clone(),
            })
        });
        match &entry.loaded {
            Ok(l) => Ok(l.plain.clone()),
            Err(errors) => {
                // The checks after parsing, on what parses, so one pass reports everything.
                let rest = load::without_schema_errors(yaml);
                if rest == yaml {
                    return Err(errors.clone());
                }
                match self.check(&rest, scripts) {
                    Err(more) => {
                        let mut errors = errors.clone();
                        errors.extend(more);
                        errors.sort_by_key(|e| (e.path.clone(), e.line, e.column));
                        Err(limits::bounded(errors))
                    }
                    Ok(_) => Err(errors.clone()),
                }
            }
        }
    }

    /// Loads a ruleset file with the `.rhai` scripts beside it (`gin-rules check`), with errors
    /// placed in that file's path.
    pub fn check_file(&self, path: &Path) -> Result<Arc<Variant>, Vec<RulesetError>> {
        let err = |p: &Path, e: std::io::Error| {
            vec![RulesetError {
                path: p.display().to_string(),
                line: None,
                column: None,
                message: format!("cannot read: {e}"),
            }]
        };
        let yaml = std::fs::read_to_string(path).map_err(|e| err(path, e))?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => Path::new(".").to_path_buf(),
        };
        let mut scripts = BTreeMap::new();
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for p in entries.filter_map(Result::ok).map(|e| e.path()) {
                if p.extension().and_then(|e| e.to_str()) == Some("rhai")
                    && let (Some(name), Ok(text)) = (
                        p.file_name().and_then(|n| n.to_str()),
                        std::fs::read_to_string(&p),
                    )
                {
                    scripts.insert(name.to_string(), text);
                }
            }
        }
        let file = path.display().to_string();
        let rename = |mut errors: Vec<RulesetError>| {
            for e in &mut errors {
                if e.path == AUTHORED_FILE {
                    e.path.clone_from(&file);
                } else if e.path.ends_with(".rhai") && !e.path.contains(['/', '\\']) {
                    e.path = dir.join(&e.path).display().to_string();
                }
            }
            errors
        };
        self.check(&yaml, &scripts).map_err(rename)
    }

    /// Checks that a source resolves, alone and with each option it offers.
    fn check_source(&self, source: &Source) -> Result<(), Vec<RulesetError>> {
        check_base(&self.base(source)?)
    }

    /// A source with its `extends` chain applied, before options.
    fn base(&self, source: &Source) -> Result<Base, Vec<RulesetError>> {
        let chain = self.chain(source)?;
        base_of(&chain).ok_or_else(|| {
            vec![RulesetError {
                path: source.file.to_string(),
                line: None,
                column: None,
                message: "the ruleset has no file".into(),
            }]
        })
    }

    /// The sources from the root of `leaf`'s `extends` chain down to `leaf`.
    fn chain<'a>(&'a self, leaf: &'a Source) -> Result<Vec<&'a Source>, Vec<RulesetError>> {
        let mut chain = vec![leaf];
        let mut ids = vec![leaf.id().to_string()];
        let mut current = leaf;
        while let Some(ext) = &current.spec.extends {
            let parent_id = &ext.value;
            if ids.contains(parent_id) {
                ids.push(parent_id.clone());
                return Err(vec![load::at(
                    ext,
                    &current.file,
                    format!("`extends` makes a cycle: {}", ids.join(" extends ")),
                )]);
            }
            let Some(parent) = self.sources.get(parent_id) else {
                let hint = match did_you_mean(parent_id, self.order.iter().map(String::as_str)) {
                    Some(s) => format!("; did you mean `{s}`?"),
                    None => format!(" (rulesets: {})", self.order.join(", ")),
                };
                return Err(vec![load::at(
                    ext,
                    &current.file,
                    format!(
                        "`extends`: there is no ruleset `{}`{hint}",
                        shown(parent_id)
                    ),
                )]);
            };
            ids.push(parent_id.clone());
            chain.push(parent);
            current = parent;
        }
        chain.reverse();
        Ok(chain)
    }
}

/// Checks that a base resolves alone and with each option it offers, each on its own: time
/// linear in the number of options.
fn check_base(base: &Base) -> Result<(), Vec<RulesetError>> {
    let mut errors = check_option_specs(base);
    if let Err(e) = rules_with(base, &[]) {
        errors.extend(e);
    }
    for o in base.options.values() {
        if o.spec.incompatible.is_some() {
            continue;
        }
        if let Err(e) = rules_with(base, &[o]) {
            for mut e in e {
                e.message = format!("with option `{}`: {}", o.id, e.message);
                errors.push(e);
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The rules of a base with `picked` options applied: the ruleset, its hook bindings and the
/// targets the options refuse.
fn rules_with(
    base: &Base,
    picked: &[&OptionEntry],
) -> Result<(Ruleset, Vec<Binding>, Vec<RefusedTarget>), Vec<RulesetError>> {
    let mut sections = base.sections.clone();
    let mut hooks = base.hooks.clone();
    let mut refused_targets = Vec::new();
    let mut errors = Vec::new();
    for o in picked {
        sections.overlay(&o.spec.sections(), &o.file);
        apply_hooks(&mut hooks, &o.hooks);
        match load::refused_targets(o) {
            Ok(ts) => {
                refused_targets.extend(ts.into_iter().map(|(target, reason)| RefusedTarget {
                    target,
                    option: o.id.clone(),
                    reason,
                }))
            }
            Err(mut e) => errors.append(&mut e),
        }
    }
    let mut ruleset = match build_ruleset(base, &sections, &hooks) {
        Ok(r) => r,
        Err(mut e) => {
            errors.append(&mut e);
            return Err(errors);
        }
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let m = &mut ruleset.match_rules;
    m.targets
        .retain(|t| !refused_targets.iter().any(|r| r.target == *t));
    if let Some(r) = refused_targets
        .iter()
        .find(|r| r.target == m.default_target)
    {
        return Err(vec![RulesetError {
            path: base.file.to_string(),
            line: None,
            column: None,
            message: format!(
                "option `{}` refuses the default target ({}); make another target the default",
                r.option, m.default_target
            ),
        }]);
    }
    Ok((
        ruleset,
        hooks.into_iter().flatten().collect(),
        refused_targets,
    ))
}

/// Resolves a base with options into a variant; `authored`: the text it was loaded from.
fn variant_of(
    base: &Base,
    options: &[String],
    authored: Option<(Arc<AuthoredRuleset>, ContentHash)>,
) -> Result<Variant, ResolveError> {
    let picked = pick_options(base, options)?;
    let (ruleset, bindings, refused_targets) =
        rules_with(base, &picked).map_err(ResolveError::Invalid)?;
    let ruleset = Arc::new(ruleset);
    let hook_points = bindings
        .iter()
        .map(|b| HookInfo {
            point: b.point.name().to_string(),
            script: b.script.name.clone(),
            rule: b.rule.clone(),
            from: b.from.clone(),
        })
        .collect();
    let hooks: Arc<dyn Hooks> = if bindings.is_empty() {
        Arc::new(NoHooks)
    } else {
        Arc::new(ScriptHooks::new(ruleset.clone(), bindings))
    };
    let offered = || {
        base.options
            .values()
            .filter(|o| o.spec.incompatible.is_none())
    };
    let (authored, content_hash) = authored.unzip();
    Ok(Variant {
        reference: RulesetRef {
            id: base.id.clone(),
            options: options.to_vec(),
            authored,
        },
        ruleset,
        hooks,
        allowed_options: offered().map(option_info).collect(),
        options: picked.iter().map(|o| option_info(o)).collect(),
        refused_options: base
            .options
            .values()
            .filter_map(|o| {
                o.spec.incompatible.as_ref().map(|r| RefusedOption {
                    id: o.id.clone(),
                    reason: r.value.clone(),
                })
            })
            .collect(),
        refused_targets,
        hook_points,
        file: base.file.to_string(),
        content_hash,
        option_stock_ends: offered()
            .filter_map(|o| {
                let end = o.spec.stock.as_ref()?.end.as_ref()?.value;
                Some((o.id.clone(), end))
            })
            .collect(),
    })
}

fn resolve_errors(e: ResolveError) -> Vec<RulesetError> {
    match e {
        ResolveError::Invalid(errors) => errors,
        other => vec![RulesetError {
            path: AUTHORED_FILE.into(),
            line: None,
            column: None,
            message: other.to_string(),
        }],
    }
}

fn option_info(o: &OptionEntry) -> OptionInfo {
    OptionInfo {
        id: o.id.clone(),
        name: o
            .spec
            .name
            .as_ref()
            .map_or_else(|| o.id.clone(), |n| n.value.trim().to_string()),
        summary: o
            .spec
            .summary
            .as_ref()
            .map(|s| s.value.trim().to_string())
            .unwrap_or_default(),
        conflicts_with: o
            .spec
            .conflicts_with
            .iter()
            .flatten()
            .map(|(k, _)| k.clone())
            .collect(),
    }
}

/// `conflicts_with` names options that exist.
fn check_option_specs(base: &Base) -> Vec<RulesetError> {
    let mut errors = Vec::new();
    let known: Vec<&str> = base.options.keys().map(String::as_str).collect();
    for o in base.options.values() {
        for (other, reason) in o.spec.conflicts_with.iter().flatten() {
            if !base.options.contains_key(other) {
                let hint = match did_you_mean(other, known.iter().copied()) {
                    Some(s) => format!("; did you mean `{s}`?"),
                    None => String::new(),
                };
                errors.push(load::at(
                    reason,
                    &o.file,
                    format!(
                        "`options.{}.conflicts_with`: there is no option `{}`{hint}",
                        o.id,
                        shown(other)
                    ),
                ));
            }
        }
    }
    errors
}

/// The options asked for, checked: known, not refused, not twice, not in conflict.
fn pick_options<'a>(
    base: &'a Base,
    options: &[String],
) -> Result<Vec<&'a OptionEntry>, ResolveError> {
    let mut picked: Vec<&OptionEntry> = Vec::new();
    for id in options {
        let Some(o) = base.options.get(id) else {
            return Err(ResolveError::UnknownOption {
                ruleset: base.id.clone(),
                option: id.clone(),
                known: base
                    .options
                    .values()
                    .filter(|o| o.spec.incompatible.is_none())
                    .map(|o| o.id.clone())
                    .collect(),
            });
        };
        if let Some(reason) = &o.spec.incompatible {
            return Err(ResolveError::IncompatibleOptions {
                ruleset: base.id.clone(),
                options: vec![id.clone()],
                reason: reason.value.clone(),
            });
        }
        if picked.iter().any(|p| p.id == *id) {
            return Err(ResolveError::IncompatibleOptions {
                ruleset: base.id.clone(),
                options: vec![id.clone()],
                reason: format!("option `{id}` is asked for twice"),
            });
        }
        for p in &picked {
            let reason = o
                .spec
                .conflicts_with
                .as_ref()
                .and_then(|c| c.get(&p.id))
                .or_else(|| p.spec.conflicts_with.as_ref().and_then(|c| c.get(id)));
            if let Some(reason) = reason {
                return Err(ResolveError::IncompatibleOptions {
                    ruleset: base.id.clone(),
                    options: vec![p.id.clone(), id.clone()],
                    reason: reason.value.clone(),
                });
            }
        }
        picked.push(o);
    }
    Ok(picked)
}

/// Drops "with option `x`: M" when the ruleset alone already has M at the same place.
fn without_option_repeats(errors: Vec<RulesetError>) -> Vec<RulesetError> {
    let plain: BTreeSet<(String, Option<u32>, Option<u32>, String)> = errors
        .iter()
        .map(|e| (e.path.clone(), e.line, e.column, e.message.clone()))
        .collect();
    errors
        .into_iter()
        .filter(|e| {
            let Some(rest) = e.message.strip_prefix("with option `") else {
                return true;
            };
            let Some((_, message)) = rest.split_once("`: ") else {
                return true;
            };
            !plain.contains(&(e.path.clone(), e.line, e.column, message.to_string()))
        })
        .collect()
}
