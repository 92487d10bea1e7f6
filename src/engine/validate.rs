//! Checking a state that arrives from outside before anything is done with it.

use crate::cards::CardSet;
use crate::hooks::{TableSeating, check_seating};
use crate::melds;
use crate::ruleset::Ruleset;

use super::state::{Outcome, Phase, STATE_VERSION, State, Table};

/// A state that cannot be played, with every problem found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game state is not valid: {}", .problems.join("; "))]
pub struct InvalidState {
    pub problems: Vec<String>,
}

/// Checks everything a state must satisfy under `rules`, listing every problem.
pub fn validate(rules: &Ruleset, state: &State) -> Result<(), InvalidState> {
    let mut p = Vec::new();
    if state.version != STATE_VERSION {
        p.push(format!(
            "format version {} is not the supported version {STATE_VERSION}",
            state.version
        ));
    }
    let seats = usize::from(rules.seats);
    let record = &state.record;
    if let Err(e) = record.layout.check(rules.seats) {
        p.push(format!("the match layout is wrong: {e}"));
    }
    if record.games.is_empty() || usize::from(record.layout.games) != record.games.len() {
        p.push(format!(
            "the match scores {} games, its layout {}",
            record.games.len(),
            record.layout.games
        ));
    }
    let sides = record.layout.sides.len();
    if record
        .games
        .iter()
        .any(|g| g.points.len() != sides || g.hands_won.len() != sides)
    {
        p.push(format!(
            "the scores do not list the {sides} sides of the match"
        ));
    }
    if record.bonuses.iter().any(|b| {
        usize::from(b.game) >= record.games.len()
            || [&b.game_bonus, &b.boxes, &b.totals]
                .iter()
                .any(|v| v.len() != sides)
    }) {
        p.push("a game bonus does not fit the match".into());
    }
    if let Some(w) = &state.winners
        && w.iter().any(|&s| usize::from(s) >= seats)
    {
        p.push("a winner is not a seat of this game".into());
    }
    let seatings: Vec<TableSeating> = state
        .tables
        .iter()
        .map(|t| TableSeating {
            dealer: t.dealer,
            players: t.seats,
        })
        .collect();
    if let Err(e) = check_seating(&seatings, rules.seats) {
        p.push(format!("the tables are wrong: {e}"));
    }
    for (i, table) in state.tables.iter().enumerate() {
        check_table(rules, table, i, state.tables.len() > 1, &mut p);
    }
    if p.is_empty() {
        Ok(())
    } else {
        Err(InvalidState { problems: p })
    }
}

fn check_table(rules: &Ruleset, t: &Table, index: usize, name_it: bool, p: &mut Vec<String>) {
    let at = if name_it {
        format!("table {index}: ")
    } else {
        String::new()
    };
    let seats = rules.seats;
    if t.dealer >= seats || t.seats.iter().any(|&s| s >= seats) || t.seats[0] == t.seats[1] {
        p.push(format!(
            "{at}seats {:?} (dealer {}) are not seats of this game",
            t.seats, t.dealer
        ));
        return;
    }

    let parts = [
        ("the first player's hand", t.hands[0]),
        ("the second player's hand", t.hands[1]),
        ("the stock", t.stock.to_set()),
        ("the discard pile", t.discard.to_set()),
    ];
    let mut seen = CardSet::EMPTY;
    let mut doubled = CardSet::EMPTY;
    for (_, cards) in parts {
        doubled = doubled.union(seen.intersect(cards));
        seen = seen.union(cards);
    }
    let listed =
        t.hands[0].len() as usize + t.hands[1].len() as usize + t.stock.len() + t.discard.len();
    for pile in [t.stock.as_slice(), t.discard.as_slice()] {
        let mut s = CardSet::EMPTY;
        for &c in pile {
            if !s.insert(c) {
                doubled.insert(c);
            }
        }
    }
    if !doubled.is_empty() {
        p.push(format!("{at}cards appear twice: {doubled}"));
    }
    let missing = CardSet::FULL.minus(seen);
    if !missing.is_empty() {
        p.push(format!("{at}cards are missing: {missing}"));
    }
    if doubled.is_empty() && missing.is_empty() && listed != 52 {
        p.push(format!("{at}{listed} cards in play, not 52"));
    }
    for r in 0..2 {
        if !t.taken[r].is_subset(t.hands[r]) {
            p.push(format!(
                "{at}seat {} is said to hold {} taken from the discard pile but does not",
                t.seats[r],
                t.taken[r].minus(t.hands[r])
            ));
        }
    }
    if t.multiplier == 0 {
        p.push(format!("{at}the score multiplier is 0"));
    }
    if let Some(limit) = t.knock_limit
        && u32::from(limit) > rules.melds.max_deadwood(usize::from(rules.hand_size))
    {
        p.push(format!(
            "{at}knock limit {limit} is more than any hand's deadwood"
        ));
    }

    let n = rules.hand_size as u32;
    let sizes = [t.hands[0].len(), t.hands[1].len()];
    let role_of = |seat| t.role(seat);
    let expect_sizes = |p: &mut Vec<String>, want: [u32; 2], phase: &str| {
        if sizes != want {
            p.push(format!(
                "{at}in the {phase} phase the hands should hold {} and {} cards, not {} and {}",
                want[0], want[1], sizes[0], sizes[1]
            ));
        }
    };
    match &t.phase {
        Phase::UpcardOffer { seat, passes } => {
            match role_of(*seat) {
                Some(r) if r == usize::from(*passes) && *passes < 2 => {}
                _ => p.push(format!("{at}seat {seat} cannot be offered the upcard now")),
            }
            expect_sizes(p, [n, n], "upcard offer");
            if t.discard.len() != 1 {
                p.push(format!(
                    "{at}the upcard offer needs exactly one card on the discard pile"
                ));
            }
        }
        Phase::Draw { seat, .. } | Phase::LastDiscard { seat } => {
            if role_of(*seat).is_none() {
                p.push(format!("{at}seat {seat} is not at this table"));
            }
            expect_sizes(p, [n, n], "draw");
        }
        Phase::Discard { seat, taken, .. } => match role_of(*seat) {
            Some(r) => {
                let mut want = [n, n];
                want[r] += 1;
                expect_sizes(p, want, "discard");
                if let Some(c) = taken
                    && !t.taken[r].contains(*c)
                {
                    p.push(format!(
                        "{at}{c} is said to be just taken but seat {seat} does not hold it"
                    ));
                }
            }
            None => p.push(format!("{at}seat {seat} is not at this table")),
        },
        Phase::LayOff { seat, knock } => match (role_of(*seat), role_of(knock.knocker)) {
            (Some(d), Some(k)) if d != k => {
                check_knock_melds(rules, &knock.melds, t.hands[k], &at, p);
                let melded = knock.melds.iter().fold(CardSet::EMPTY, |a, &m| a.union(m));
                let kd = rules.melds.value_of(t.hands[k].minus(melded));
                if kd != knock.deadwood {
                    p.push(format!(
                        "{at}the knocker's deadwood is {kd}, not {}",
                        knock.deadwood
                    ));
                }
                if knock.outcome == Outcome::Knock
                    && t.knock_limit.is_none_or(|l| kd > u32::from(l))
                {
                    p.push(format!(
                        "{at}a knock with deadwood {kd} is over the knock limit of this hand"
                    ));
                }
                let big = knock.outcome == Outcome::BigGin;
                let mut want = [n, n];
                if big {
                    want[k] += 1;
                }
                expect_sizes(p, want, "lay-off");
            }
            _ => p.push(format!(
                "{at}the lay-off phase names seats that are not at this table"
            )),
        },
        Phase::Over { result } => {
            if result.points.len() != usize::from(seats) {
                p.push(format!(
                    "{at}the hand result lists the wrong number of seats"
                ));
            }
        }
    }
}

/// The knocker's melds: real melds, disjoint, all from the knocker's hand (so no more of them
/// than a hand holds, which bounds every lay-off search).
fn check_knock_melds(
    rules: &Ruleset,
    shown: &[CardSet],
    hand: CardSet,
    at: &str,
    p: &mut Vec<String>,
) {
    let smallest = u32::from(rules.melds.set_min.min(rules.melds.run_min).max(1));
    let most = hand.len() / smallest;
    if shown.len() > most as usize {
        p.push(format!(
            "{at}the knocker shows {} melds, but a hand of {} cards holds at most {most}",
            shown.len(),
            hand.len()
        ));
        return;
    }
    let mut melded = CardSet::EMPTY;
    for &m in shown {
        if !melded.is_disjoint(m) {
            p.push(format!(
                "{at}the knocker's melds share {}",
                melded.intersect(m)
            ));
            return;
        }
        melded = melded.union(m);
        if m.is_empty() || !m.is_subset(hand) || !melds::is_meld(&rules.melds, m) {
            let what = if m.is_empty() {
                "an empty meld".to_string()
            } else {
                m.to_string()
            };
            p.push(format!(
                "{at}the knocker's melds must be melds from the knocker's hand: {what} is not"
            ));
            return;
        }
    }
}
