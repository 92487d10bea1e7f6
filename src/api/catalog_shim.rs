//! Stand-in for `crate::rules::Catalog` until it lands: the standard ruleset only, no options.
//! The API uses exactly the surface the real catalog offers, so switching is a change of imports.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::hooks::{Hooks, NoHooks};
use crate::ruleset::{Ruleset, RulesetRef};

pub struct Variant {
    pub reference: RulesetRef,
    pub ruleset: Arc<Ruleset>,
    pub hooks: Arc<dyn Hooks>,
}

/// A ruleset the server plays.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct RulesetInfo {
    pub id: String,
    pub name: String,
    pub summary: String,
    pub seats: u8,
    pub options: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct RulesetError {
    pub path: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
}

#[derive(Clone, Debug)]
pub enum ResolveError {
    UnknownRuleset(String),
    UnknownOption { option: String },
    IncompatibleOptions { reason: String },
    Invalid(Vec<RulesetError>),
}

#[derive(Clone)]
pub struct Catalog {
    standard: Arc<Variant>,
}

impl Catalog {
    pub fn builtin() -> Catalog {
        Catalog {
            standard: Arc::new(Variant {
                reference: RulesetRef {
                    id: "standard".into(),
                    options: Vec::new(),
                    authored: None,
                },
                ruleset: Arc::new(Ruleset::standard()),
                hooks: Arc::new(NoHooks),
            }),
        }
    }

    pub fn add_dir(&mut self, _dir: &Path) -> Result<(), Vec<RulesetError>> {
        Ok(())
    }

    pub fn list(&self) -> Vec<RulesetInfo> {
        let r = &self.standard.ruleset;
        vec![RulesetInfo {
            id: r.id.clone(),
            name: r.name.clone(),
            summary: r.summary.clone(),
            seats: r.seats,
            options: Vec::new(),
        }]
    }

    pub fn resolve(&self, r: &RulesetRef) -> Result<Arc<Variant>, ResolveError> {
        if r.authored.is_some() {
            return Err(ResolveError::Invalid(vec![RulesetError {
                path: String::new(),
                line: None,
                column: None,
                message: "authored rulesets are not supported yet".into(),
            }]));
        }
        if r.id != "standard" {
            return Err(ResolveError::UnknownRuleset(r.id.clone()));
        }
        if let Some(o) = r.options.first() {
            return Err(ResolveError::UnknownOption { option: o.clone() });
        }
        Ok(self.standard.clone())
    }

    pub fn check(
        &self,
        _yaml: &str,
        _scripts: &BTreeMap<String, String>,
    ) -> Result<Arc<Variant>, Vec<RulesetError>> {
        Err(vec![RulesetError {
            path: String::new(),
            line: None,
            column: None,
            message: "authored rulesets are not supported yet".into(),
        }])
    }
}

/// One row of the rules table.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct RulesRow {
    pub topic: String,
    pub rule: String,
}

pub fn rules_table(_v: &Variant) -> Vec<RulesRow> {
    Vec::new()
}
