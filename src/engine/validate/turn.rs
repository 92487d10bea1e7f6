//! Whose turn it is, as the cards and the move count allow.
//!
//! A turn draws one card (from the stock, or the top of the discard pile) and discards one, so
//! after `T` turns the stock has given `S` cards and the pile `D = T - S`. The cards alone fix `S`;
//! `D` is at least the number of taken cards still held. On the first deal every move of the
//! game is a move of these tables, which ties `T`, and so whose turn it is, to the move count.

use crate::role::Role;
use crate::ruleset::Ruleset;

use super::super::state::{Phase, State, Table};
use super::drawn_from_stock;

pub(super) fn check_turns(rules: &Ruleset, state: &State, p: &mut Vec<String>) {
    let named = state.tables.len() > 1;
    for (i, t) in state.tables.iter().enumerate() {
        check_forced_turn(rules, t, &super::at(i, named), p);
    }
    if state.deal_number == 0 {
        check_first_deal_moves(rules, state, p);
    }
}

/// Where a table stands within its turns: the seat's role, and whether that seat has drawn.
struct Turn {
    role: Role,
    mid: bool,
    stock_only: bool,
}

fn turn_of(t: &Table) -> Option<Turn> {
    let (seat, mid, stock_only) = match t.phase {
        Phase::Draw { seat, stock_only } => (seat, false, stock_only),
        Phase::LastDiscard { seat } => (seat, false, false),
        Phase::Discard { seat, .. } => (seat, true, false),
        _ => return None,
    };
    Some(Turn {
        role: t.role(seat)?,
        mid,
        stock_only,
    })
}

fn taken_held(t: &Table) -> u64 {
    u64::from(t.taken[Role::First].len() + t.taken[Role::Dealer].len())
}

/// How many cards the turns so far took from the pile: at least one per taken card still held;
/// `Some(0)` when nothing can have been taken. Where a taken card may not be discarded in the
/// same turn, the last card taken stays in its taker's hand until a later turn of theirs, so with
/// no taken card held, some card was taken only if two finished turns since drew from the stock.
fn pile_draws(rules: &Ruleset, t: &Table, turn: &Turn, drawn: u64) -> (u64, Option<u64>) {
    let held = taken_held(t);
    let none = !rules.discard_taken_card && held == 0 && drawn < 2 + u64::from(turn.mid);
    (held, none.then_some(0))
}

/// With nothing taken from the pile, the turns so far are the stock draws: the first player
/// draws first, then the second.
fn check_forced_turn(rules: &Ruleset, t: &Table, at: &str, p: &mut Vec<String>) {
    if t.reshuffles > 0 {
        return;
    }
    let (Some(turn), Some(drawn)) = (turn_of(t), drawn_from_stock(rules, t)) else {
        return;
    };
    let drawn = drawn as u64;
    if pile_draws(rules, t, &turn, drawn).1 != Some(0) || (turn.mid && drawn == 0) {
        return;
    }
    let turns_before = (drawn - u64::from(turn.mid)) as usize;
    let seat = t.seats[turn.role];
    if turn.role.index() != turns_before % 2 {
        p.push(format!(
            "{at}it cannot be seat {seat}'s turn: with {drawn} cards drawn from the stock and none \
             taken from the discard pile, it is seat {}'s",
            t.seats[Role::ALL[turns_before % 2]]
        ));
    } else if rules.upcard_offer && !turn.mid && drawn == 0 && !turn.stock_only {
        p.push(format!(
            "{at}seat {seat}'s first draw, after both players passed the upcard, is from the stock \
             only"
        ));
    }
}

/// The move counts a table's play so far can add up to: `base + step * k` for any `k >= 0`.
#[derive(Clone, Copy)]
struct Moves {
    base: u64,
    step: u64,
}

impl Moves {
    fn plus(self, other: Moves) -> Moves {
        let step = match (self.step, other.step) {
            (0, s) | (s, 0) => s,
            (a, b) => a.min(b),
        };
        Moves {
            base: self.base + other.base,
            step,
        }
    }

    fn allows(self, moves: u64) -> bool {
        match moves.checked_sub(self.base) {
            None => false,
            Some(0) => true,
            Some(extra) => self.step > 0 && extra % self.step == 0,
        }
    }
}

/// Each way a table's play may have gone, as the move counts it gives. A table past its turns
/// (a knock or an ended hand) may have taken any number of moves (at least none).
fn table_moves(rules: &Ruleset, t: &Table) -> Vec<Moves> {
    if let Phase::UpcardOffer { passes, .. } = t.phase {
        return vec![Moves {
            base: u64::from(passes),
            step: 0,
        }];
    }
    let any = vec![Moves { base: 0, step: 1 }];
    let (Some(turn), Some(drawn)) = (turn_of(t), drawn_from_stock(rules, t)) else {
        return any;
    };
    if t.reshuffles > 0 {
        return any;
    }
    let drawn = drawn as u64;
    let mid = u64::from(turn.mid);
    let (least_taken, most_taken) = pile_draws(rules, t, &turn, drawn);
    // Passes at the upcard offer, and the role whose turn came first: with no offer, the first
    // player draws first; with one, they took the upcard (0 passes), the second player took it
    // (1), or both passed and the first player drew from the stock (2).
    let openings: &[(u64, u64)] = if rules.upcard_offer {
        &[(0, 0), (1, 1), (2, 0)]
    } else {
        &[(0, 0)]
    };
    let mut ways = Vec::new();
    for &(passes, first) in openings {
        if turn.stock_only && passes != 2 {
            continue;
        }
        let took_upcard = u64::from(rules.upcard_offer && passes < 2);
        let taken = least_taken.max(took_upcard);
        if most_taken.is_some_and(|most| taken > most) {
            continue;
        }
        // Turns before this one: T = S + D - mid, D cards taken from the pile.
        let Some(mut least) = (drawn + taken).checked_sub(mid) else {
            continue;
        };
        // Both passed and the first stock-only draw is behind: at least that turn was played.
        if rules.upcard_offer && passes == 2 && !turn.mid && !turn.stock_only && least == 0 {
            if most_taken.is_some() {
                continue;
            }
            least = 1;
        }
        if (least + first) % 2 != turn.role.index() as u64 % 2 {
            if most_taken.is_some() {
                continue;
            }
            least += 1;
        }
        if turn.stock_only && least > 0 {
            continue;
        }
        let fixed = turn.stock_only || most_taken.is_some();
        ways.push(Moves {
            base: passes + 2 * least + mid,
            step: if fixed { 0 } else { 4 },
        });
    }
    ways
}

/// On the first deal the moves so far are the moves of its tables: a count no way of play gives
/// is refused, whoever's turn that count would make it.
fn check_first_deal_moves(rules: &Ruleset, state: &State, p: &mut Vec<String>) {
    let mut sums = vec![Moves { base: 0, step: 0 }];
    for t in &state.tables {
        let ways = table_moves(rules, t);
        sums = sums
            .iter()
            .flat_map(|s| ways.iter().map(move |w| s.plus(*w)))
            .collect();
    }
    let moves = u64::from(state.game.moves);
    if !sums.iter().any(|s| s.allows(moves)) {
        let to_act: Vec<String> = state.to_act().iter().map(|s| s.to_string()).collect();
        p.push(format!(
            "move {moves} of the first deal cannot be seat {}'s turn with the cards as they are",
            to_act.join(" and seat ")
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_of_move_counts() {
        let a = Moves { base: 3, step: 4 };
        let b = Moves { base: 2, step: 0 };
        assert!(a.plus(b).allows(5));
        assert!(a.plus(b).allows(9));
        assert!(!a.plus(b).allows(7));
        assert!(!a.plus(b).allows(4));
        assert!(b.allows(2) && !b.allows(6));
        assert!(a.plus(Moves { base: 0, step: 1 }).allows(8));
    }
}
