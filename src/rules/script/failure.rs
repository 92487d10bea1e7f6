//! A script failure in a player's words: what limit it ran over, or which context field it
//! misread, with the script and position.

use rhai::EvalAltResult;

use super::super::suggest::did_you_mean;
use super::budget::{Budget, OUT_OF_OPERATIONS};
use super::contexts::context_of;
use super::limits::{
    MAX_ARRAY, MAX_CALL_LEVELS, MAX_CALL_TIME, MAX_MAP, MAX_OPERATIONS, MAX_STRING,
};
use super::objects;
use super::point::HookPoint;

/// The failure of a call that found the request's budget spent.
pub(super) fn budget_spent(b: Budget) -> String {
    format!(
        "the hooks ran over their shared budget of a request or a ruleset check ({} ms, {} operations)",
        b.time.as_millis(),
        b.operations
    )
}

/// The names `type_of` gives the contexts of `point` themselves (not the objects inside).
fn context_types(point: HookPoint) -> &'static [&'static str] {
    match point {
        HookPoint::KnockLimit | HookPoint::ScoreMultiplier => &["DealContext"],
        HookPoint::MatchLayout => &["LayoutContext"],
        HookPoint::Seating => &["SeatingContext"],
        HookPoint::ScoreHand => &["HandContext"],
        HookPoint::RecordResult => &["RecordContext"],
        HookPoint::NextDealer => &["DealerContext"],
    }
}

/// A script failure in a player's words, with the script and position.
pub(super) fn describe_eval_error(
    point: HookPoint,
    script: &str,
    e: &EvalAltResult,
    budget: Option<Budget>,
) -> String {
    let pos = e.position();
    let at = match (pos.line(), pos.position()) {
        (Some(l), Some(c)) => format!("{script}:{l}:{c}: "),
        (Some(l), None) => format!("{script}:{l}: "),
        _ => format!("{script}: "),
    };
    if let Some((name, of)) = objects::missing_field(e) {
        let context = context_of(point);
        let inner = of.and_then(|t| Some((t, objects::fields_of(t)?)));
        let (known, has) = match inner {
            Some((t, fields)) if !context_types(point).contains(&t) => {
                (fields.clone(), format!("a {t} has: {}", fields.join(", ")))
            }
            _ => (
                context.names_within(),
                format!(
                    "the {point} context has: {}",
                    context.names().collect::<Vec<_>>().join(", ")
                ),
            ),
        };
        let what = match did_you_mean(name, known) {
            Some(known) => format!("no field `{name}`; did you mean `{known}`?"),
            None => format!("no field `{name}` ({has})"),
        };
        return format!("{at}{what}");
    }
    let what = match e {
        EvalAltResult::ErrorTooManyOperations(_) => {
            format!("ran over its limit of {MAX_OPERATIONS} operations (an endless loop?)")
        }
        EvalAltResult::ErrorTerminated(why, _) => match budget {
            Some(b) => budget_spent(b),
            None if why
                .clone()
                .into_string()
                .is_ok_and(|w| w == OUT_OF_OPERATIONS) =>
            {
                format!("ran over its limit of {MAX_OPERATIONS} operations (an endless loop?)")
            }
            None => format!(
                "ran over its time limit of {} ms",
                MAX_CALL_TIME.as_millis()
            ),
        },
        EvalAltResult::ErrorStackOverflow(_) => {
            format!("called functions more than {MAX_CALL_LEVELS} deep (runaway recursion?)")
        }
        EvalAltResult::ErrorDataTooLarge(what, _) => format!(
            "{what} over its limit (strings {MAX_STRING} bytes, arrays {MAX_ARRAY}, maps {MAX_MAP})"
        ),
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => {
            return describe_eval_error(point, script, inner, budget);
        }
        other => other.to_string(),
    };
    format!("{at}{what}")
}
