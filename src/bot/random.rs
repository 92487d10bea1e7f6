//! `random`: draws from either pile and discards any card, by chance; goes out (gin first)
//! whenever it can and lays off as much as it can, so its hands still end. The chance is drawn
//! from what the seat sees, so the same view gets the same action.

use crate::engine::{Action, ActionKind, SeatView};

use super::Decision;
use super::seen::{Seen, plain_why, splitmix};

pub fn decide(view: &SeatView, first: &Action) -> Decision {
    let legal = &view.legal_actions;
    let mut roll = Seen::of(view).fingerprint(view);
    let mut pick = |among: &[&Action]| -> Option<Action> {
        roll = splitmix(roll);
        let n = among.len() as u64;
        (n > 0).then(|| among[(roll % n) as usize].clone())
    };
    let of = |pred: fn(&ActionKind) -> bool| -> Vec<&Action> {
        legal.iter().filter(|a| pred(&a.kind)).collect()
    };
    let gins = of(|k| matches!(k, ActionKind::Gin { .. }));
    let knocks = of(|k| matches!(k, ActionKind::Knock { .. }));
    let (action, why) = if let Some(a) = pick(&gins) {
        (a, None)
    } else if let Some(a) = pick(&knocks) {
        (a, Some("Knocked: I go out whenever I can.".to_string()))
    } else if view.phase == "lay_off" {
        (legal.last().unwrap_or(first).clone(), None)
    } else {
        let all: Vec<&Action> = legal.iter().collect();
        let a = pick(&all).unwrap_or_else(|| first.clone());
        let why = match a.kind {
            ActionKind::NextHand => None,
            _ => Some(format!(
                "{} (a random choice)",
                plain_why(&a, view).trim_end_matches('.')
            )),
        };
        (a, why)
    };
    let why = why.unwrap_or_else(|| plain_why(&action, view));
    Decision { action, why }
}
