//! Authored rulesets, sent with requests or checked from a file (`gin-rules check`): checked once,
//! cached by content hash, resolved with options.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use crate::allocation;
use crate::ruleset::{AuthoredRuleset, RulesetRef};

use super::cache::{Entry, Loaded};
use super::catalog::Catalog;
use super::content_hash::ContentHash;
use super::echo::shown;
use super::error::{ErrorKind, ResolveError, RulesetError, at, in_file};
use super::files;
use super::limits;
use super::parse::without_schema_errors;
use super::resolve::{check_base, variant_of};
use super::sample_check::sample_check;
use super::script::unmetered;
use super::source::parse_source;
use super::variant::Variant;

/// The name an authored ruleset's YAML goes by in errors.
pub const AUTHORED_FILE: &str = "ruleset.yaml";

impl Catalog {
    /// Loads a ruleset file with the `.rhai` scripts beside it (`gin-rules check`), with errors
    /// placed in that file's path.
    pub fn check_file(&self, path: &Path) -> Result<Arc<Variant>, Vec<RulesetError>> {
        let yaml = files::read(path)?;
        let dir = files::dir_of(path);
        let scripts = files::read_dir(&dir, false)?.scripts;
        let file = path.display().to_string();
        // Scripts are named as the file is: `x.rhai` beside `x.yaml`, `d/x.rhai` beside `d/x.yaml`.
        let named_dir = path.parent().unwrap_or(Path::new(""));
        self.check(&yaml, &scripts).map_err(|errors| {
            let mut errors = files::scripts_in(errors, named_dir);
            for e in &mut errors {
                if e.path == AUTHORED_FILE {
                    e.path.clone_from(&file);
                }
            }
            errors
        })
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
        // Loading is what the request's text costs once, not what its hooks and bots spend.
        let entry = Arc::new(unmetered(|| {
            Entry::load(|| {
                self.load_authored(&authored(), hash)
                    .map_err(|e| limits::bounded(without_option_repeats(e)))
            })
        }));
        self.authored.insert(hash, entry.clone());
        entry
    }

    /// Loads an authored ruleset: the limits first, then the file, then every option, then the
    /// sample games.
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
            return Err(vec![at(
                &source.spec.id,
                AUTHORED_FILE,
                ErrorKind::Duplicate,
                format!(
                    "`id`: `{}` is the id of a ruleset this server already has; an authored ruleset needs an id of its own (it may `extends: {}`)",
                    source.id(),
                    source.id()
                ),
            )
            .on("id")]);
        }
        let base = self.base(&source)?;
        check_base(&base)?;
        let plain =
            variant_of(&base, &[], Some((authored.clone(), hash))).map_err(resolve_errors)?;
        self.sample_checks.fetch_add(1, Ordering::Relaxed);
        sample_check(&base, Some((authored.clone(), hash)), AUTHORED_FILE)?;
        Ok(Loaded {
            authored: authored.clone(),
            base,
            plain: Arc::new(plain),
        })
    }

    pub(super) fn resolve_authored(
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
            return Err(ResolveError::Invalid(vec![
                in_file(
                    AUTHORED_FILE,
                    ErrorKind::Conflict,
                    format!(
                        "the game names ruleset `{}`, but the authored ruleset's id is `{}`",
                        shown(&reference.id),
                        loaded.base.id
                    ),
                )
                .on("id"),
            ]));
        }
        if reference.options.is_empty() {
            return Ok(loaded.plain.clone());
        }
        if let Some(v) = self.authored.variant(&hash, &reference.options) {
            return Ok(v);
        }
        let (variant, held) = allocation::retained(|| {
            variant_of(
                &loaded.base,
                &reference.options,
                Some((loaded.authored.clone(), hash)),
            )
            .map(Arc::new)
        });
        let variant = variant?;
        self.authored
            .insert_variant(&hash, &reference.options, variant.clone(), held);
        Ok(variant)
    }

    /// Loads an authored ruleset (`POST /v1/rulesets/check`): the resolved ruleset without
    /// options, or every problem found in it, in each of its options and in its sample games (at most
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
                let rest = without_schema_errors(yaml);
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
}

fn resolve_errors(e: ResolveError) -> Vec<RulesetError> {
    match e {
        ResolveError::Invalid(errors) => errors,
        other => {
            let kind = match other {
                ResolveError::UnknownRuleset(_) => ErrorKind::UnknownReference,
                ResolveError::UnknownOption { .. } => ErrorKind::UnknownOption,
                _ => ErrorKind::Conflict,
            };
            vec![in_file(AUTHORED_FILE, kind, other.to_string())]
        }
    }
}

/// Drops an option's repeat of a problem the ruleset alone already has: a later error at the
/// same place, about the same field and of the same kind, whose message ends with the earlier
/// one's (an option tells the ruleset's problem again, led by its own name). Place, field and
/// kind alone do not tell problems apart: two bad targets of one list share all three.
fn without_option_repeats(errors: Vec<RulesetError>) -> Vec<RulesetError> {
    type Place = (String, Option<u32>, Option<u32>, Option<String>, ErrorKind);
    let mut told: BTreeMap<Place, Vec<String>> = BTreeMap::new();
    errors
        .into_iter()
        .filter(|e| {
            let place = (e.path.clone(), e.line, e.column, e.field.clone(), e.kind);
            let messages = told.entry(place).or_default();
            let repeat = messages
                .iter()
                .any(|m| e.message.len() > m.len() && e.message.ends_with(m.as_str()));
            if !repeat {
                messages.push(e.message.clone());
            }
            !repeat
        })
        .collect()
}
