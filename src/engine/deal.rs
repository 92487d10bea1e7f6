//! Dealing: the seeded shuffle, the cut for the first dealer, explicit decks, and a fresh table.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;

use super::hooks::{DealInfo, HookError, Hooks, SeatingInfo, check_seating};
use crate::cards::{Card, CardSet};
use crate::role::{ByRole, Role};
use crate::ruleset::Ruleset;
use crate::seat::{Seat, TableNo};

use super::error::{DealError, Overflow};
use super::event::Event;
use super::layout::{MatchLayout, TableSeating};
use super::pile::Pile;
use super::state::{Phase, State, Table};

const CUT_STREAM: u64 = u64::MAX;

/// The generator for one shuffle of a match: deal `deal`, table `table`, reshuffle `reshuffle`.
fn rng(seed: u64, deal: u32, table: TableNo, reshuffle: u32) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    rng.set_stream(
        (u64::from(deal) << 32) | (u64::from(table.number()) << 24) | u64::from(reshuffle),
    );
    rng
}

pub(crate) fn shuffle(cards: &mut [Card], rng: &mut ChaCha20Rng) {
    for i in (1..cards.len()).rev() {
        let j = rng.random_range(0..=i);
        cards.swap(i, j);
    }
}

/// The 52-card deck for a deal, top card (dealt first) at index 0.
pub fn shuffled_deck(seed: u64, deal: u32, table: TableNo) -> Vec<Card> {
    shuffled_deck_with(seed, deal, table, 0)
}

/// The deck for a deal of the 52 cards and `jokers` jokers, top card first.
pub fn shuffled_deck_with(seed: u64, deal: u32, table: TableNo, jokers: u8) -> Vec<Card> {
    let mut deck = [Card::JOKERS[0]; crate::cards::MAX_DECK];
    let n = shuffled(seed, deal, table, jokers, &mut deck);
    deck[..n].to_vec()
}

/// [`shuffled_deck`] into `deck` without allocating; returns the number of cards.
fn shuffled(
    seed: u64,
    deal: u32,
    table: TableNo,
    jokers: u8,
    deck: &mut [Card; crate::cards::MAX_DECK],
) -> usize {
    let mut n = 0;
    for (slot, card) in deck.iter_mut().zip(Card::deck_with(jokers)) {
        *slot = card;
        n += 1;
    }
    shuffle(&mut deck[..n], &mut rng(seed, deal, table, 0));
    n
}

/// A reshuffle: the discard pile but its top card shuffled into a new stock beneath what is
/// left of the stock.
pub(crate) struct Reshuffled {
    pub stock: Pile,
    pub discard: Pile,
    /// The table's count of reshuffles, this one included.
    pub count: u32,
    /// The cards shuffled into the stock.
    pub cards: u32,
}

/// What reshuffling `table` gives, the table left as it is.
pub(crate) fn reshuffled(
    seed: u64,
    deal: u32,
    table_no: TableNo,
    table: &Table,
) -> Result<Reshuffled, Overflow> {
    let count = table
        .reshuffles
        .checked_add(1)
        .ok_or(Overflow("the number of reshuffles"))?;
    let mut cards = table.discard;
    let Some(top) = cards.pop() else {
        return Ok(Reshuffled {
            stock: table.stock,
            discard: cards,
            count,
            cards: 0,
        });
    };
    shuffle(cards.as_mut_slice(), &mut rng(seed, deal, table_no, count));
    let mut stock = cards;
    for &c in table.stock.as_slice() {
        stock.push(c);
    }
    let mut discard = Pile::new();
    discard.push(top);
    Ok(Reshuffled {
        stock,
        discard,
        count,
        cards: cards.len() as u32,
    })
}

/// The first dealer by cutting: each seat turns a card, the lowest deals, ties cut again.
pub fn cut_for_dealer(seed: u64, seats: u8) -> Seat {
    let mut deck = Card::DECK;
    let mut r = ChaCha20Rng::seed_from_u64(seed);
    r.set_stream(CUT_STREAM);
    shuffle(&mut deck, &mut r);
    let mut cutting: Vec<Seat> = Seat::all(seats).collect();
    let mut next = deck.iter();
    while cutting.len() > 1 {
        let cut: Vec<(Seat, usize)> = cutting
            .iter()
            .map(|&s| (s, next.next().map_or(0, |c| c.rank().index())))
            .collect();
        let low = cut.iter().map(|&(_, r)| r).min().unwrap_or(0);
        let tied: Vec<Seat> = cut
            .iter()
            .filter(|&&(_, r)| r == low)
            .map(|&(s, _)| s)
            .collect();
        if tied.len() == cutting.len() && next.len() < cutting.len() {
            break;
        }
        cutting = tied;
    }
    cutting.first().copied().unwrap_or_default()
}

/// Which seats play at which table when `dealer` deals (through the `seating` hook).
pub fn seating(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    layout: &MatchLayout,
    dealer: Seat,
    deal_number: u32,
) -> Result<Vec<TableSeating>, HookError> {
    let info = SeatingInfo {
        seats: rules.seats,
        players: rules.table_players,
        dealer,
        hand_number: deal_number,
        layout,
    };
    let tables = hooks.seating(&info)?;
    check_seating(&tables, rules.seats).map_err(|message| HookError {
        hook: "seating".into(),
        message,
    })?;
    Ok(tables)
}

/// Checks an explicit deck: exactly the 52 cards and the ruleset's `jokers`, each once (read its
/// jokers with [`crate::cards::read_jokers`] first).
pub fn check_deck(deck: &[Card], jokers: u8) -> Result<(), DealError> {
    let mut seen = CardSet::EMPTY;
    let mut twice = Vec::new();
    for &c in deck {
        if !seen.insert(c) {
            twice.push(c.to_string());
        }
    }
    let jokers_in: CardSet = Card::JOKERS.into_iter().take(usize::from(jokers)).collect();
    let whole = CardSet::FULL.union(jokers_in);
    let missing = whole.minus(seen);
    let extra = seen.minus(whole);
    let mut problems = Vec::new();
    if deck.len() != whole.len() as usize {
        problems.push(format!("has {} cards, not {}", deck.len(), whole.len()));
    }
    if !extra.is_empty() {
        problems.push(format!(
            "holds {} jokers: this ruleset plays with {jokers}",
            deck.iter().filter(|c| c.is_joker()).count()
        ));
    }
    if !twice.is_empty() {
        problems.push(format!("lists {} twice", twice.join(" ")));
    }
    if !missing.is_empty() {
        problems.push(format!("lacks {missing}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(DealError::InvalidDeck(problems.join("; ")))
    }
}

/// The cards of a deal: hands dealt one card at a time round the table, first player first, then
/// the upcard; the rest is the stock.
pub(crate) struct Dealt {
    pub hands: ByRole<CardSet>,
    pub upcard: Card,
    pub stock: Pile,
}

/// `deck` (top first) dealt `n` cards each to `players`; `None` when it is too short for that
/// (or too long).
pub(crate) fn dealt(deck: &[Card], n: usize, players: usize) -> Option<Dealt> {
    let upcard = deck.get(players * n)?.alike();
    let mut hands = ByRole::filled(players, CardSet::EMPTY);
    let table = hands;
    let round = std::iter::repeat_with(|| table.roles()).flatten();
    for (&c, role) in deck.iter().take(players * n).zip(round) {
        hands[role].put(c);
    }
    let stock = Pile::from_top_down(deck.get(players * n + 1..)?)?;
    Some(Dealt {
        hands,
        upcard,
        stock,
    })
}

/// The phase a hand opens with: the upcard offered to the first player, or their first draw.
pub(crate) fn opening(rules: &Ruleset, seats: ByRole<Seat>) -> Phase {
    if rules.upcard_offer {
        Phase::UpcardOffer {
            seat: seats[Role::FIRST],
            passes: 0,
        }
    } else {
        Phase::Draw {
            seat: seats[Role::FIRST],
            stock_only: false,
        }
    }
}

/// Deals a table from `deck` (top first, in the API's deal order).
pub(crate) fn deal_table(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &State,
    table_no: TableNo,
    dealer: Seat,
    seats: ByRole<Seat>,
    deck: &[Card],
) -> Result<(Table, Event), DealError> {
    let players = seats.len();
    let hand_size = rules.hand_size_at(players);
    let n = usize::from(hand_size);
    let Some(Dealt {
        hands,
        upcard,
        stock,
    }) = dealt(deck, n, players)
    else {
        return Err(DealError::Unsupported(format!(
            "{n} cards each to {players} players need a deck of more than {} cards",
            players * n
        )));
    };
    let mut discard = Pile::new();
    discard.push(upcard);
    let info = DealInfo {
        upcard,
        dealer,
        hand_number: state.deal_number,
        totals: &state.record.seat_totals(rules.seats),
        knock_limit: rules.knock_limit,
    };
    let knock_limit = hooks.knock_limit(&info)?;
    if let Some(limit) = knock_limit
        && !rules
            .melds
            .may_hold_deadwood(n, rules.jokers, u32::from(limit))
    {
        let most = rules.melds.max_deadwood(n, rules.jokers);
        return Err(HookError {
            hook: "knock_limit".into(),
            message: format!(
                "returned {limit}, more than the most deadwood a hand of {hand_size} cards can hold ({most})"
            ),
        }
        .into());
    }
    let multiplier = hooks.score_multiplier(&info)?;
    if multiplier == 0 {
        return Err(HookError {
            hook: "score_multiplier".into(),
            message: "returned 0; a multiplier is at least 1".into(),
        }
        .into());
    }
    let phase = opening(rules, seats);
    let event = Event::Dealt {
        table: table_no,
        deal: state.deal_number,
        dealer,
        seats,
        upcard,
        knock_limit,
        multiplier,
    };
    let table = Table {
        dealer,
        seats,
        hands,
        taken: ByRole::filled(players, CardSet::EMPTY),
        stock,
        discard,
        upcard,
        knock_limit,
        multiplier,
        reshuffles: 0,
        turns: 0,
        phase,
    };
    Ok((table, event))
}

/// Deals every table of the state's current deal; `decks` gives explicit decks (else shuffled).
pub(crate) fn deal_all(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &mut State,
    dealer: Seat,
    decks: &[Vec<Card>],
) -> Result<Vec<Event>, DealError> {
    let seated = seating(
        rules,
        hooks,
        &state.record.layout,
        dealer,
        state.deal_number,
    )?;
    deal_seated(rules, hooks, state, dealer, seated, decks)
}

/// [`deal_all`] with the tables' seating (what [`seating`] gives for the state's deal) known.
pub(crate) fn deal_seated(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &mut State,
    dealer: Seat,
    seated: Vec<TableSeating>,
    decks: &[Vec<Card>],
) -> Result<Vec<Event>, DealError> {
    let mut tables = Vec::with_capacity(seated.len());
    let mut events = Vec::with_capacity(seated.len());
    for (t, seat) in TableNo::all(seated.len()).zip(seated) {
        let (table_dealer, seats) = (seat.dealer, seat.players);
        let mut shuffled = [Card::JOKERS[0]; crate::cards::MAX_DECK];
        let deck = match decks.get(t.index()) {
            Some(d) => d.as_slice(),
            None => {
                let n = self::shuffled(
                    state.seed,
                    state.deal_number,
                    t,
                    rules.jokers,
                    &mut shuffled,
                );
                &shuffled[..n]
            }
        };
        let (table, event) = deal_table(rules, hooks, state, t, table_dealer, seats, deck)?;
        tables.push(table);
        events.push(event);
    }
    state.tables = tables;
    state.dealer = dealer;
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffles_are_reproducible_and_distinct() {
        assert_eq!(
            shuffled_deck(7, 0, TableNo::new(0)),
            shuffled_deck(7, 0, TableNo::new(0))
        );
        assert_ne!(
            shuffled_deck(7, 0, TableNo::new(0)),
            shuffled_deck(7, 1, TableNo::new(0))
        );
        assert_ne!(
            shuffled_deck(7, 0, TableNo::new(0)),
            shuffled_deck(8, 0, TableNo::new(0))
        );
        assert!(check_deck(&shuffled_deck(7, 3, TableNo::new(1)), 0).is_ok());
    }

    #[test]
    fn both_seats_get_to_deal_first() {
        let dealers: std::collections::BTreeSet<Seat> =
            (0..50).map(|s| cut_for_dealer(s, 2)).collect();
        assert_eq!(dealers.len(), 2);
    }

    #[test]
    fn bad_decks_are_explained() {
        let mut deck: Vec<Card> = Card::all().collect();
        deck[1] = deck[0];
        let e = check_deck(&deck, 0).unwrap_err().to_string();
        assert!(
            e.contains("lists AC twice") && e.contains("lacks 2C"),
            "{e}"
        );
        let e = check_deck(&deck[..10], 0).unwrap_err().to_string();
        assert!(e.contains("has 10 cards"), "{e}");
        let mut jokers = shuffled_deck_with(7, 0, TableNo::new(0), 2);
        assert_eq!(jokers.len(), 54);
        assert!(check_deck(&jokers, 2).is_ok());
        let e = check_deck(&jokers, 0).unwrap_err().to_string();
        assert!(e.contains("not 52") && e.contains("holds 2 jokers"), "{e}");
        jokers.retain(|c| !c.is_joker());
        let e = check_deck(&jokers, 2).unwrap_err().to_string();
        assert!(e.contains("not 54") && e.contains("lacks JK JK"), "{e}");
    }
}
