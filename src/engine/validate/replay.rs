//! Each table's hand played again from its deal (or from its last reshuffle) through the plays the
//! state records: the cards, the phase and the result must be what those plays give, played by
//! the engine itself. The position they start from is found by undoing the plays: a later deal's
//! must be the one the seed deals; the first deal's may be any deal (a deck may be given), and
//! the position a reshuffle left is free but for its counts (the order of the pile it shuffled is
//! not kept, so the new stock may be in any order).

use crate::cards::{Card, CardSet};
use crate::melds::meld_lists;
use crate::role::{ByRole, Role};
use crate::ruleset::Ruleset;

use super::super::action::{ActionKind, LayOffCard, Source};
use super::super::deal::{dealt, opening, shuffled_deck};
use super::super::pile::Pile;
use super::super::plays::Play;
use super::super::state::{HandResult, Phase, State, Table};
use super::super::step::{TableCtx, play};
use super::stock_at_deal;

pub(super) fn check_replays(rules: &Ruleset, state: &State, p: &mut Vec<String>) {
    let named = state.tables.len() > 1;
    for (i, t) in state.tables.iter().enumerate() {
        if let Phase::Over { result } = &t.phase
            && result.game.id != state.game.id
        {
            p.push(format!(
                "{}the hand result is of game {}, not {}",
                super::at(i, named),
                result.game.id,
                state.game.id
            ));
        }
        if let Err(problem) = replay_table(rules, state, t, i) {
            p.push(format!(
                "{}the plays recorded for this hand do not lead to it: {problem}",
                super::at(i, named)
            ));
        }
    }
    check_move_count(state, p);
}

/// With no reshuffle, the plays are every move of this deal: the moves before it are the rest.
fn check_move_count(state: &State, p: &mut Vec<String>) {
    if state.tables.iter().any(|t| t.reshuffles > 0) {
        return;
    }
    let moves = u64::from(state.game.moves);
    let this_deal: u64 = state.tables.iter().map(|t| t.plays.len() as u64).sum();
    let Some(before) = moves.checked_sub(this_deal) else {
        p.push(format!(
            "the tables record {this_deal} plays, more than the {moves} moves of the game"
        ));
        return;
    };
    // A deal takes at least two moves at a table (a seating hook may seat one table at some
    // deals and more at others), and each later deal a `next_hand` first.
    let least = u64::from(state.deal_number) * 3;
    if state.deal_number == 0 && before != 0 {
        p.push(format!(
            "move {moves} of the first deal, but its tables record {this_deal} plays"
        ));
    } else if before < least.min(u64::from(u32::MAX)) {
        p.push(format!(
            "move {moves} is too early for deal {}: its tables record {this_deal} plays, and the \
             deals before took at least {least} moves",
            state.deal_number
        ));
    }
    // A hand ended with its own last play, after any number of the other tables' plays.
    for t in &state.tables {
        if let Phase::Over { result } = &t.phase {
            let own = before + t.plays.len() as u64;
            let ended = u64::from(result.game.moves);
            if ended < own || ended > before + this_deal {
                p.push(format!(
                    "table {} ended at move {ended}, but its last play was move {own} to {} of \
                     the game",
                    result.table,
                    before + this_deal
                ));
            }
        }
    }
}

fn replay_table(rules: &Ruleset, state: &State, t: &Table, index: usize) -> Result<(), String> {
    // After a reshuffle the plays start with a stock draw by either player.
    let starts: &[Role] = if t.reshuffles == 0 {
        &[Role::First]
    } else {
        &[Role::First, Role::Dealer]
    };
    let mut first_problem = None;
    for &start in starts {
        match replay_from(rules, state, t, index, start) {
            Ok(()) => return Ok(()),
            Err(e) => {
                first_problem.get_or_insert(e);
            }
        }
    }
    Err(first_problem.unwrap_or_default())
}

fn replay_from(
    rules: &Ruleset,
    state: &State,
    t: &Table,
    index: usize,
    start: Role,
) -> Result<(), String> {
    let actors = actors(&t.plays, start);
    let begin = undo(t, &actors)?;
    check_start(rules, state, t, index, &begin)?;
    let mut table = Table {
        hands: begin.hands,
        taken: if t.reshuffles == 0 {
            ByRole::default()
        } else {
            // Cards taken before the reshuffle and still held.
            ByRole::from([
                t.taken[Role::First].intersect(begin.hands[Role::First]),
                t.taken[Role::Dealer].intersect(begin.hands[Role::Dealer]),
            ])
        },
        stock: begin.stock,
        discard: begin.pile,
        phase: if t.reshuffles == 0 {
            opening(rules, t.seats)
        } else {
            Phase::Draw {
                seat: t.seats[start],
                stock_only: false,
            }
        },
        plays: Vec::with_capacity(t.plays.len()),
        ..t.clone()
    };
    let ctx = TableCtx {
        rules,
        game: match &t.phase {
            Phase::Over { result } => result.game,
            _ => state.game,
        },
        seed: state.seed,
        deal: state.deal_number,
        table_index: index as u8,
    };
    let mut events = Vec::new();
    for (n, (&played, &role)) in t.plays.iter().zip(&actors).enumerate() {
        let kind = action_of(rules, t, played, role);
        if let Err(e) = play(&ctx, &mut table, t.seats[role], &kind, &mut events) {
            return Err(format!(
                "play {} ({played}, seat {}) is not legal there: {e}",
                n + 1,
                t.seats[role]
            ));
        }
        events.clear();
    }
    match first_difference(&table, t) {
        None => Ok(()),
        Some(what) => Err(format!("played again, they give a different {what}")),
    }
}

/// Who made each play: the turn passes on after a pass, a discard and a knock or gin (to the
/// defender's lay-off), and stays after a draw.
fn actors(plays: &[Play], start: Role) -> Vec<Role> {
    let mut role = start;
    plays
        .iter()
        .map(|play| {
            let actor = role;
            if play.hands_over() {
                role = role.other();
            }
            actor
        })
        .collect()
}

/// The cards where the plays started.
struct Begin {
    hands: ByRole<CardSet>,
    stock: Pile,
    pile: Pile,
}

/// The position before the plays: every play undone, from the last.
fn undo(t: &Table, actors: &[Role]) -> Result<Begin, String> {
    let mut pile: Vec<Card> = t.discard.as_slice().to_vec();
    // Each card's count in each hand: held now, plus discarded, less drawn.
    let mut count = [[0i32; 64]; 2];
    for r in Role::ALL {
        for c in t.hands[r].iter() {
            count[r.index()][c.bit() as usize] += 1;
        }
    }
    let mut drawn_from_stock = Vec::new();
    for (&played, &role) in t.plays.iter().zip(actors).rev() {
        if let Some(c) = played.discarded() {
            if pile.pop() != Some(c) {
                return Err(format!(
                    "{c} is not where {played} left it on the discard pile"
                ));
            }
            count[role.index()][c.bit() as usize] += 1;
        }
        if let Some(c) = played.drawn(t.upcard) {
            count[role.index()][c.bit() as usize] -= 1;
            match played {
                Play::Stock(_) => drawn_from_stock.push(c),
                _ => pile.push(c),
            }
        }
    }
    let mut hands = ByRole::<CardSet>::default();
    for r in Role::ALL {
        for c in Card::all() {
            match count[r.index()][c.bit() as usize] {
                0 => {}
                1 => {
                    hands[r].insert(c);
                }
                _ => {
                    return Err(format!(
                        "{c} comes and goes from seat {}'s hand in a way no play allows",
                        t.seats[r]
                    ));
                }
            }
        }
    }
    // Undone last first, so the first card drawn comes last: on top.
    let stock_cards: Vec<Card> = t
        .stock
        .as_slice()
        .iter()
        .chain(&drawn_from_stock)
        .copied()
        .collect();
    let stock = Pile::from_bottom_up(&stock_cards).ok_or("the stock held too many cards")?;
    let pile = Pile::from_bottom_up(&pile).ok_or("the discard pile held too many cards")?;
    Ok(Begin { hands, stock, pile })
}

/// The start is a deal (the seeded one after the first deal) or what a reshuffle leaves.
fn check_start(
    rules: &Ruleset,
    state: &State,
    t: &Table,
    index: usize,
    begin: &Begin,
) -> Result<(), String> {
    let n = usize::from(rules.hand_size);
    let from = if t.reshuffles == 0 {
        "the deal"
    } else {
        "the last reshuffle"
    };
    for r in Role::ALL {
        if begin.hands[r].len() as usize != n {
            return Err(format!(
                "seat {} held {} cards at {from}, not {n}",
                t.seats[r],
                begin.hands[r].len()
            ));
        }
    }
    let all = begin.hands[Role::First]
        .union(begin.hands[Role::Dealer])
        .union(begin.stock.to_set())
        .union(begin.pile.to_set());
    if all != CardSet::FULL || begin.stock.len() + begin.pile.len() + 2 * n != 52 {
        return Err(format!("the cards at {from} were not each there once"));
    }
    if begin.stock.len() != stock_at_deal(rules) {
        return Err(format!(
            "the stock held {} cards at {from}, not {}",
            begin.stock.len(),
            stock_at_deal(rules)
        ));
    }
    let seeded = if state.deal_number > 0 {
        let deck = shuffled_deck(state.seed, state.deal_number, index as u8);
        let seeded = dealt(&deck, n).ok_or("the seeded deck is too short for this hand size")?;
        if seeded.upcard != t.upcard {
            return Err(format!(
                "the upcard of deal {} is {}, not {}",
                state.deal_number, seeded.upcard, t.upcard
            ));
        }
        Some(seeded)
    } else {
        None
    };
    if t.reshuffles > 0 {
        if begin.pile.len() != 1 {
            return Err("a reshuffle leaves one card on the discard pile".into());
        }
        return Ok(());
    }
    if begin.pile.as_slice() != [t.upcard] {
        return Err(format!(
            "the discard pile held more than the upcard {} at the deal",
            t.upcard
        ));
    }
    if let Some(seeded) = seeded
        && (seeded.hands != begin.hands || seeded.stock != begin.stock)
    {
        return Err(format!(
            "the cards of deal {} are not the ones the match's seed deals",
            state.deal_number
        ));
    }
    Ok(())
}

/// The action a recorded play was: the melds shown and the cards laid off are the ones the
/// state's phase shows.
fn action_of(rules: &Ruleset, t: &Table, played: Play, role: Role) -> ActionKind {
    let melds = || match &t.phase {
        Phase::LayOff { knock, .. } => Some(meld_lists(&rules.melds, &knock.melds)),
        Phase::Over { result } => result.melds.get(usize::from(t.seats[role])).cloned(),
        _ => None,
    };
    match played {
        Play::Take => ActionKind::TakeUpcard,
        Play::Pass => ActionKind::Pass,
        Play::Stock(_) => ActionKind::Draw {
            from: Source::Stock,
        },
        Play::Pile(_) => ActionKind::Draw {
            from: Source::Discard,
        },
        Play::Discard(card) => ActionKind::Discard { card },
        Play::Knock(discard) => ActionKind::Knock {
            discard,
            melds: melds(),
        },
        Play::Gin(discard) => ActionKind::Gin {
            discard: Some(discard),
            melds: melds(),
        },
        Play::BigGin => ActionKind::Gin {
            discard: None,
            melds: melds(),
        },
        Play::LayOff => ActionKind::LayOff {
            cards: match &t.phase {
                Phase::Over { result } => result
                    .laid_off
                    .iter()
                    .map(|l| LayOffCard {
                        card: l.card,
                        onto: Some(l.onto),
                    })
                    .collect(),
                _ => Vec::new(),
            },
        },
    }
}

fn first_difference(got: &Table, want: &Table) -> Option<&'static str> {
    if got.hands != want.hands {
        Some("hand")
    } else if got.taken != want.taken {
        Some("set of taken cards")
    } else if got.stock != want.stock {
        Some("stock")
    } else if got.discard != want.discard {
        Some("discard pile")
    } else if got.plays != want.plays {
        Some("list of plays (the cards drawn)")
    } else if got.phase != want.phase {
        Some(match (&got.phase, &want.phase) {
            (Phase::Over { result: a }, Phase::Over { result: b }) => result_difference(a, b),
            _ => "phase",
        })
    } else if got != want {
        Some("table")
    } else {
        None
    }
}

fn result_difference(got: &HandResult, want: &HandResult) -> &'static str {
    if got.outcome != want.outcome {
        "outcome"
    } else if got.winner != want.winner {
        "winner"
    } else if got.points != want.points {
        "score"
    } else if got.deadwood != want.deadwood {
        "deadwood"
    } else if got.melds != want.melds {
        "melds"
    } else if got.laid_off != want.laid_off {
        "lay-offs"
    } else if got.multiplier != want.multiplier {
        "multiplier"
    } else {
        "hand result"
    }
}
