//! The rulesets a server or CLI knows: adding them (built in, from a directory, from files),
//! listing them, and resolving a ruleset id with options into a cached [`Variant`].

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use crate::ruleset::RulesetRef;

use super::base::{Base, base_of};
use super::builtin::{BUILTIN_SCRIPTS, BUILTIN_YAML};
use super::cache::{AuthoredCache, CacheUsage, DEFAULT_CACHE_BYTES};
use super::echo::shown;
use super::error::{ErrorKind, ResolveError, RulesetError, at, in_file};
use super::files;
use super::info::RulesetInfo;
use super::limits;
use super::resolve::{check_base, variant_of};
use super::sample_check::sample_check;
use super::source::{Source, parse_source};
use super::suggest::did_you_mean;
use super::variant::Variant;

const MAX_CACHED_VARIANTS: usize = 1024;

/// The rulesets a server or CLI knows, a cache of resolved variants, and a cache of the authored
/// rulesets requests sent (by content hash, bounded by bytes). `Send + Sync`.
pub struct Catalog {
    pub(super) sources: BTreeMap<String, Arc<Source>>,
    pub(super) order: Vec<String>,
    variants: RwLock<HashMap<VariantKey, Arc<Variant>>>,
    pub(super) authored: Arc<AuthoredCache>,
    /// Sample checks run so far (a cached verdict runs none).
    pub(super) sample_checks: Arc<AtomicU64>,
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
            sample_checks: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The same catalog with a cache of authored rulesets bounded at `bytes` (estimated; the
    /// default is [`DEFAULT_CACHE_BYTES`]).
    pub fn with_authored_cache_bytes(mut self, bytes: usize) -> Catalog {
        self.authored = Arc::new(AuthoredCache::new(bytes));
        self
    }

    /// How many rulesets this catalog has played sample games of ([`Catalog::check`], the first
    /// use of an authored ruleset, [`Catalog::add_dir`]); a verdict found in the cache plays none.
    pub fn sample_checks(&self) -> u64 {
        self.sample_checks.load(Ordering::Relaxed)
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
        let files = files::read_dir(dir, true)?;
        self.add(&files.yaml, &files.scripts, true)
            .map_err(|errors| files::scripts_in(errors, dir))
    }

    /// Adds ruleset files `(file name, yaml)` that share `scripts`; all or nothing. Unlike
    /// [`Catalog::add_dir`], plays no sample games of them.
    pub fn add_files(
        &mut self,
        files: &[(String, String)],
        scripts: &BTreeMap<String, String>,
    ) -> Result<(), Vec<RulesetError>> {
        self.add(files, scripts, false)
    }

    /// Adds ruleset files; `sampled`: each also plays its sample games. Every problem of every
    /// file, or nothing added.
    fn add(
        &mut self,
        files: &[(String, String)],
        scripts: &BTreeMap<String, String>,
        sampled: bool,
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
                        errors.push(
                            at(
                                &source.spec.id,
                                file,
                                ErrorKind::Duplicate,
                                format!("`id`: `{id}` is already the id of {other}"),
                            )
                            .on("id"),
                        );
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
            sample_checks: self.sample_checks.clone(),
        };
        for s in &added {
            next.sources.insert(s.id().to_string(), s.clone());
            next.order.push(s.id().to_string());
        }
        for s in &added {
            if let Err(mut e) = next.check_source(s, sampled) {
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
            .filter_map(|id| self.resolve(&RulesetRef::named(id.clone())).ok())
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
    /// Checks that a source resolves, alone and with each option it offers, and when `sampled`
    /// that its sample games play.
    fn check_source(&self, source: &Source, sampled: bool) -> Result<(), Vec<RulesetError>> {
        let base = self.base(source)?;
        check_base(&base)?;
        if sampled {
            self.sample_checks.fetch_add(1, Ordering::Relaxed);
            sample_check(&base, None, &source.file)?;
        }
        Ok(())
    }

    /// A source with its `extends` chain applied, before options.
    pub(super) fn base(&self, source: &Source) -> Result<Base, Vec<RulesetError>> {
        let chain = self.chain(source)?;
        base_of(&chain).ok_or_else(|| {
            vec![in_file(
                &source.file,
                ErrorKind::Conflict,
                "the ruleset has no file",
            )]
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
                return Err(vec![
                    at(
                        ext,
                        &current.file,
                        ErrorKind::Conflict,
                        format!("`extends` makes a cycle: {}", ids.join(" extends ")),
                    )
                    .on("extends"),
                ]);
            }
            let Some(parent) = self.sources.get(parent_id) else {
                let hint = match did_you_mean(parent_id, self.order.iter().map(String::as_str)) {
                    Some(s) => format!("; did you mean `{s}`?"),
                    None => format!(" (rulesets: {})", self.order.join(", ")),
                };
                return Err(vec![
                    at(
                        ext,
                        &current.file,
                        ErrorKind::UnknownReference,
                        format!(
                            "`extends`: there is no ruleset `{}`{hint}",
                            shown(parent_id)
                        ),
                    )
                    .on("extends"),
                ]);
            };
            ids.push(parent_id.clone());
            chain.push(parent);
            current = parent;
        }
        chain.reverse();
        Ok(chain)
    }
}
