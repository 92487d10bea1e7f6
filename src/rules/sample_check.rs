//! The sample games every ruleset from outside the build must pass, wherever it comes in
//! (`gin-rules check`, `POST /v1/rulesets/check`, `serve --rulesets`, the first use of an
//! authored ruleset in a request): a few seeded matches, alone and with each option it offers,
//! so that every hook runs on contexts the engine really builds. Bounded: a few games per option
//! set, a cap on each game's actions, and one CPU budget for the whole check.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

use crate::engine::NewGame;
use crate::ruleset::AuthoredRuleset;
use crate::sample;

use super::base::Base;
use super::content_hash::ContentHash;
use super::cpu_clock;
use super::error::{ErrorKind, RulesetError, in_file};
use super::resolve::variant_of;
use super::script::{Budget, HookTrace, trace_step, with_budget};

/// Sample games per option set at most, and all option sets together at most (each set plays at
/// least one).
const GAMES_PER_SET: u64 = 4;
const GAMES_IN_ALL: u64 = 48;
/// The most actions one sample game plays (a match to 100 takes about 200; a game cut short is
/// no failure).
const SAMPLE_STEPS: usize = 600;
/// What one check may spend: the CPU time of the engine and the hooks together, and the hooks'
/// operations.
pub const CHECK_BUDGET: Budget = Budget {
    time: Duration::from_millis(500),
    operations: 10_000_000,
};

/// Plays the sample games of `base` (alone and with each option it offers); every failure (a
/// script error, a misspelt context field, a decision out of range, a runaway loop, the check's
/// budget spent) once, with the first game it showed in and the other option sets it showed in,
/// placed in `file`.
pub(super) fn sample_check(
    base: &Base,
    authored: Option<(Arc<AuthoredRuleset>, ContentHash)>,
    file: &str,
) -> Result<(), Vec<RulesetError>> {
    let mut sets = vec![Vec::new()];
    sets.extend(
        base.options
            .values()
            .filter(|o| o.spec.incompatible.is_none())
            .map(|o| vec![o.id.clone()]),
    );
    let games = (GAMES_IN_ALL / sets.len() as u64).clamp(1, GAMES_PER_SET);
    let mut problems = Problems::default();
    with_budget(CHECK_BUDGET, || {
        let deadline = cpu_clock::now() + CHECK_BUDGET.time;
        for options in sets {
            let with = match options.first() {
                Some(o) => format!("with option `{o}`"),
                None => "without options".to_string(),
            };
            let variant = match variant_of(base, &options, authored.clone()) {
                Ok(v) => v,
                Err(e) => {
                    problems.report(&with, e.to_string());
                    continue;
                }
            };
            for seed in 0..games {
                trace_step(|| HookTrace::Game(format!("a sample game {with} (seed {seed})")));
                let game = NewGame::seeded(variant.reference.clone(), seed);
                let mut over = false;
                let played = sample::play(
                    &variant.ruleset,
                    variant.hooks.as_ref(),
                    game,
                    SAMPLE_STEPS,
                    seed % 2 == 1,
                    |_, _| {
                        over = cpu_clock::now() > deadline;
                        if over {
                            ControlFlow::Break(())
                        } else {
                            ControlFlow::Continue(())
                        }
                    },
                );
                if over {
                    problems.report(&with, spent());
                    return;
                }
                if let Err(e) = played {
                    problems.report(&with, format!("(seed {seed}): {e}"));
                    break;
                }
            }
        }
    });
    problems.into_result(file)
}

fn spent() -> String {
    format!(
        "ran over the check's budget ({} ms of CPU for every sample game together); make the hooks cheaper or offer fewer options",
        CHECK_BUDGET.time.as_millis()
    )
}

/// Each failure once: the option set it first showed in, what it is, and the other option sets
/// it showed in.
#[derive(Default)]
struct Problems(Vec<(String, String, Vec<String>)>);

impl Problems {
    fn report(&mut self, with: &str, what: String) {
        match self.0.iter_mut().find(|p| p.1 == what) {
            Some(p) => p.2.push(with.to_string()),
            None => self.0.push((with.to_string(), what, Vec::new())),
        }
    }

    fn into_result(self, file: &str) -> Result<(), Vec<RulesetError>> {
        if self.0.is_empty() {
            return Ok(());
        }
        Err(self
            .0
            .into_iter()
            .map(|(with, what, also)| {
                let also = match also.as_slice() {
                    [] => String::new(),
                    more => format!("; also {}", more.join(", ")),
                };
                in_file(
                    file,
                    ErrorKind::Play,
                    format!("a sample game {with} {what}{also}"),
                )
            })
            .collect())
    }
}
