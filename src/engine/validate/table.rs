//! One table on its own: seats, every card once, hand sizes, the piles and the phase as play
//! leaves them.

use crate::cards::CardSet;
use crate::game_types::{Outcome, TableSeating};
use crate::hooks::check_seating;
use crate::melds;
use crate::role::Role;
use crate::ruleset::{Ruleset, Seat, StockEnd};

use super::super::rule;
use super::super::state::{Knock, Phase, State, Table};
use super::{drawn_from_stock, stock_at_deal};

/// Every table's seats exist, and the tables together are a seating the engine accepts.
pub(super) fn check_seats(rules: &Ruleset, state: &State, p: &mut Vec<String>) {
    let seats = rules.seats;
    for (i, t) in state.tables.iter().enumerate() {
        if t.dealer >= seats
            || t.seats.iter().any(|&s| s >= seats)
            || t.seats[Role::First] == t.seats[Role::Dealer]
        {
            p.push(format!(
                "table {i}: seats {:?} (dealer {}) are not seats of this game",
                t.seats, t.dealer
            ));
        }
    }
    let seatings: Vec<TableSeating> = state
        .tables
        .iter()
        .map(|t| TableSeating {
            dealer: t.dealer,
            players: t.seats.into_array(),
        })
        .collect();
    if let Err(e) = check_seating(&seatings, seats) {
        p.push(format!("the tables are wrong: {e}"));
    }
    check_bots(state, seats, p);
}

/// Bots play seats of the game, and leave at least one seat to a human.
fn check_bots(state: &State, seats: Seat, p: &mut Vec<String>) {
    if let Some((&seat, _)) = state.bots.iter().find(|&(&s, _)| s >= seats) {
        p.push(format!(
            "bots: seat {seat} is not a seat of this game (seats 0 to {})",
            seats.saturating_sub(1)
        ));
    } else if !state.bots.is_empty() && state.bots.len() >= usize::from(seats) {
        p.push("bots: every seat is a bot's, and a game needs a human seat".into());
    }
}

pub(super) fn check_table(rules: &Ruleset, t: &Table, at: &str, p: &mut Vec<String>) {
    check_cards(t, at, p);
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
    let reserve = usize::from(rules.stock_reserve);
    if t.stock.len() < reserve {
        p.push(format!(
            "{at}the stock holds {} cards, fewer than the {reserve} that are never drawn",
            t.stock.len()
        ));
    }
    if t.reshuffles > 0 && rules.stock_end != StockEnd::Reshuffle {
        p.push(format!(
            "{at}the stock was reshuffled {} times, but this game never reshuffles it",
            t.reshuffles
        ));
    } else if t.reshuffles > 0 && t.stock.len() >= stock_at_deal(rules) {
        p.push(format!(
            "{at}the stock was reshuffled at a draw, so it holds fewer than the {} cards of a \
             new stock",
            stock_at_deal(rules)
        ));
    }
    check_upcard(rules, t, at, p);
    check_phase(rules, t, at, p);
}

/// Each of the 52 cards exactly once, and the taken cards in their holder's hand.
fn check_cards(t: &Table, at: &str, p: &mut Vec<String>) {
    let parts = [
        t.hands[Role::First],
        t.hands[Role::Dealer],
        t.stock.to_set(),
        t.discard.to_set(),
    ];
    let mut seen = CardSet::EMPTY;
    let mut doubled = CardSet::EMPTY;
    for cards in parts {
        doubled = doubled.union(seen.intersect(cards));
        seen = seen.union(cards);
    }
    let listed = t.hands[Role::First].len() as usize
        + t.hands[Role::Dealer].len() as usize
        + t.stock.len()
        + t.discard.len();
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
    for r in Role::ALL {
        if !t.taken[r].is_subset(t.hands[r]) {
            p.push(format!(
                "{at}seat {} is said to hold {} taken from the discard pile but does not",
                t.seats[r],
                t.taken[r].minus(t.hands[r])
            ));
        }
    }
}

/// The upcard is turned from the deck onto the discard pile: it never goes into the stock (but
/// by a reshuffle), and a player holds it only by taking it from the pile.
fn check_upcard(rules: &Ruleset, t: &Table, at: &str, p: &mut Vec<String>) {
    let u = t.upcard;
    if t.reshuffles == 0 && t.stock.to_set().contains(u) {
        p.push(format!("{at}the upcard {u} is in the stock"));
    }
    for r in Role::ALL {
        if t.reshuffles == 0 && t.hands[r].contains(u) && !t.taken[r].contains(u) {
            p.push(format!(
                "{at}seat {} holds the upcard {u} without having taken it from the discard pile",
                t.seats[r]
            ));
        }
    }
    if matches!(t.phase, Phase::UpcardOffer { .. }) || stock_only(t) {
        if t.discard.as_slice() != [u] {
            p.push(format!(
                "{at}before the first draw the discard pile is the upcard {u} alone"
            ));
        }
        if !t.taken[Role::First].is_empty()
            || !t.taken[Role::Dealer].is_empty()
            || drawn_from_stock(rules, t) != Some(0)
        {
            p.push(format!(
                "{at}before the first draw nobody has taken or drawn a card"
            ));
        }
    }
}

fn stock_only(t: &Table) -> bool {
    matches!(
        t.phase,
        Phase::Draw {
            stock_only: true,
            ..
        }
    )
}

/// The phase: whose turn, hand sizes, and the piles as the turns so far leave them.
fn check_phase(rules: &Ruleset, t: &Table, at: &str, p: &mut Vec<String>) {
    let n = u32::from(rules.hand_size);
    let sizes = t.hands.map(CardSet::len).into_array();
    let expect_sizes = |p: &mut Vec<String>, want: [u32; 2], phase: &str| {
        if sizes != want {
            p.push(format!(
                "{at}in the {phase} phase the hands should hold {} and {} cards, not {} and {}",
                want[0], want[1], sizes[0], sizes[1]
            ));
        }
    };
    let reserve = usize::from(rules.stock_reserve);
    let stock = t.stock.len();
    let reshuffling = rules.stock_end == StockEnd::Reshuffle;
    // Each turn draws one card and discards one, so the discard pile holds the upcard plus one
    // card per stock draw between turns, one fewer in the middle of a turn. A reshuffle leaves
    // the same counts: it turns all of the pile but its top card into a stock as long as the
    // dealt one, at the draw that then takes a card from it.
    let pile_between_turns = |p: &mut Vec<String>, mid_turn: bool| {
        let Some(drawn) = drawn_from_stock(rules, t) else {
            p.push(format!(
                "{at}the stock holds {stock} cards, more than the {} it was dealt",
                stock_at_deal(rules)
            ));
            return;
        };
        let want = if mid_turn { drawn } else { drawn + 1 };
        if t.discard.len() != want {
            p.push(format!(
                "{at}the discard pile holds {} cards, but after {drawn} draws from the stock it \
                 holds {want}",
                t.discard.len()
            ));
        }
    };
    match &t.phase {
        Phase::UpcardOffer { seat, passes } => {
            if !rules.upcard_offer {
                p.push(format!("{at}this game has no upcard offer"));
            }
            match t.role(*seat) {
                Some(r) if r.index() == usize::from(*passes) && *passes < 2 => {}
                _ => p.push(format!("{at}seat {seat} cannot be offered the upcard now")),
            }
            expect_sizes(p, [n, n], "upcard offer");
        }
        Phase::Draw { seat, stock_only } => {
            if t.role(*seat).is_none() {
                p.push(format!("{at}seat {seat} is not at this table"));
            }
            if *stock_only && (!rules.upcard_offer || *seat != t.seats[Role::First]) {
                p.push(format!(
                    "{at}only the first player's first draw after both passed the upcard is \
                     from the stock only"
                ));
            }
            if !reshuffling && stock <= reserve {
                p.push(format!(
                    "{at}the stock is down to its {reserve} cards that are never drawn, so the \
                     hand is over"
                ));
            }
            expect_sizes(p, [n, n], "draw");
            pile_between_turns(p, false);
        }
        Phase::LastDiscard { seat } => {
            if t.role(*seat).is_none() {
                p.push(format!("{at}seat {seat} is not at this table"));
            }
            if rules.stock_end != StockEnd::LastDiscardToGoOut || stock != reserve {
                p.push(format!(
                    "{at}the last discard is offered only when the stock is down to its \
                     reserve, under the rule that it may be taken only to go out"
                ));
            }
            expect_sizes(p, [n, n], "last discard");
            pile_between_turns(p, false);
        }
        Phase::Discard {
            seat,
            taken,
            must_go_out,
        } => match t.role(*seat) {
            Some(r) => {
                let mut want = [n, n];
                want[r.index()] += 1;
                expect_sizes(p, want, "discard");
                if let Some(c) = taken
                    && !t.taken[r].contains(*c)
                {
                    p.push(format!(
                        "{at}{c} is said to be just taken but seat {seat} does not hold it"
                    ));
                }
                if *must_go_out
                    && (rules.stock_end != StockEnd::LastDiscardToGoOut
                        || stock != reserve
                        || taken.is_none())
                {
                    p.push(format!(
                        "{at}only the last discard, taken when the stock is down to its \
                         reserve, must be used to go out"
                    ));
                }
                if taken.is_none() && drawn_from_stock(rules, t) == Some(0) {
                    p.push(format!(
                        "{at}seat {seat} is to discard but has drawn nothing: no card was \
                         taken and the stock is whole"
                    ));
                }
                pile_between_turns(p, true);
            }
            None => p.push(format!("{at}seat {seat} is not at this table")),
        },
        Phase::LayOff { seat, knock } => match (t.role(*seat), t.role(knock.knocker)) {
            (Some(d), Some(k)) if d != k => {
                check_knock(rules, t, k, knock, at, p);
                let big = knock.outcome == Outcome::BigGin;
                let mut want = [n, n];
                if big {
                    want[k.index()] += 1;
                }
                expect_sizes(p, want, "lay-off");
                pile_between_turns(p, big);
            }
            _ => p.push(format!(
                "{at}the lay-off phase names seats that are not at this table"
            )),
        },
        Phase::Over { result } => {
            let big = result.outcome == Outcome::BigGin;
            let winner_role = result.winner.and_then(|w| t.role(w));
            let mut want = [n, n];
            if big && let Some(k) = winner_role {
                want[k.index()] += 1;
            }
            expect_sizes(p, want, "hand over");
            if result.outcome == Outcome::Dead && (reshuffling || stock != reserve) {
                p.push(format!(
                    "{at}a hand is dead only when the stock is down to the {reserve} cards \
                     that are never drawn"
                ));
            }
            pile_between_turns(p, big);
        }
    }
}

/// A knock waiting for the defender: a lay-off this game plays, real melds, and the knocker's
/// deadwood within what the outcome allows.
fn check_knock(rules: &Ruleset, t: &Table, k: Role, knock: &Knock, at: &str, p: &mut Vec<String>) {
    if !rule::lays_off(rules, knock.outcome) {
        p.push(format!(
            "{at}a lay-off phase after outcome {} is not played in this game",
            knock.outcome.as_str()
        ));
        return;
    }
    check_knock_melds(rules, &knock.melds, t.hands[k], at, p);
    let melded = knock.melds.iter().fold(CardSet::EMPTY, |a, &m| a.union(m));
    let kd = rules.melds.value_of(t.hands[k].minus(melded));
    if kd != knock.deadwood {
        p.push(format!(
            "{at}the knocker's deadwood is {kd}, not {}",
            knock.deadwood
        ));
    }
    check_going_out(rules, t, knock.outcome, kd, at, p);
}

/// The knocker's deadwood `kd` allows the outcome.
pub(super) fn check_going_out(
    rules: &Ruleset,
    t: &Table,
    outcome: Outcome,
    kd: u32,
    at: &str,
    p: &mut Vec<String>,
) {
    match outcome {
        Outcome::Knock | Outcome::Undercut => {
            if kd == 0 {
                p.push(format!("{at}a knock with deadwood 0 is gin"));
            } else if t.knock_limit.is_none_or(|l| kd > u32::from(l)) {
                p.push(format!(
                    "{at}a knock with deadwood {kd} is over the knock limit of this hand"
                ));
            }
        }
        Outcome::Gin | Outcome::BigGin => {
            if kd != 0 {
                p.push(format!("{at}gin leaves no deadwood, not {kd}"));
            }
            if outcome == Outcome::BigGin && rules.big_gin_bonus.is_none() {
                p.push(format!("{at}big gin is not played in this game"));
            }
        }
        Outcome::Dead => {}
    }
}

/// The knocker's melds: real melds, disjoint, all from the knocker's hand (so no more of them
/// than a hand holds, which bounds every lay-off search).
pub(super) fn check_knock_melds(
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
