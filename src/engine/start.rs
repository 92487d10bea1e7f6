//! Dealing the first hand of a new game.

use std::sync::Arc;

use super::hooks::{HookError, Hooks, LayoutInfo};
use crate::cards::Card;
use crate::ruleset::{Ruleset, RulesetRef, Target};
use crate::seat::Seat;

use super::deal::{check_deck, cut_for_dealer, deal_all, deal_seated, seating};
use super::error::DealError;
use super::event::Event;
use super::identity::{GameId, GameRef};
use super::log::{Log, Logging};
use super::state::{MatchRecord, STATE_VERSION, State};

/// Room for the actions of a long hand, so that the log grows without moving during one (random
/// play takes about 120 actions a hand, and a log of 128 often moved once).
const LOG_CAPACITY: usize = 256;

/// What a new game is dealt from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub ruleset: RulesetRef,
    pub seed: u64,
    /// `None`: drawn from the seed (a server that needs games of one seed apart gives its own).
    pub id: Option<GameId>,
    /// `None`: the ruleset's default target.
    pub target: Option<Target>,
    /// `None`: cut for the first dealer from the seed.
    pub dealer: Option<Seat>,
    /// Explicit decks for the first deal, one per table, top card first; empty: shuffle.
    pub decks: Vec<Vec<Card>>,
}

impl NewGame {
    /// What `state`'s match was dealt from, as its log says; `None` when it carries no log.
    pub fn of_log(state: &State) -> Option<NewGame> {
        let log = state.log.as_ref()?;
        Some(NewGame {
            ruleset: (*state.ruleset).clone(),
            seed: state.seed,
            id: Some(state.game.id),
            target: Some(state.target),
            dealer: Some(log.dealer),
            decks: log.decks.clone(),
        })
    }

    pub fn seeded(ruleset: RulesetRef, seed: u64) -> NewGame {
        NewGame {
            ruleset,
            seed,
            id: None,
            target: None,
            dealer: None,
            decks: Vec::new(),
        }
    }
}

/// Deals the first hand of a new game: its state and what the deal did.
pub(crate) fn deal_first(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    mut game: NewGame,
    logging: Logging,
) -> Result<(State, Vec<Event>), DealError> {
    let seats = rules.seats;
    let dealer = match game.dealer {
        Some(d) if !d.is_in(seats) => return Err(DealError::NoSuchSeat { seat: d, seats }),
        Some(d) => d,
        None => cut_for_dealer(game.seed, seats),
    };
    let target = game.target.unwrap_or(rules.match_rules.default_target);
    let layout = hooks.match_layout(&LayoutInfo { seats, target })?;
    layout.check(seats).map_err(|message| HookError {
        hook: "match_layout".into(),
        message,
    })?;
    // The seating of the first deal, when explicit decks need it to be counted.
    let mut seated = None;
    if !game.decks.is_empty() {
        let tables = seated
            .insert(seating(rules, hooks, &layout, dealer, 0)?)
            .len();
        if game.decks.len() != tables {
            return Err(DealError::WrongDeckCount {
                needed: tables,
                given: game.decks.len(),
            });
        }
        for deck in &mut game.decks {
            crate::cards::read_jokers(deck);
            check_deck(deck, rules.jokers)?;
        }
    }
    let mut state = State {
        version: STATE_VERSION,
        game: GameRef::new(game.id.unwrap_or_else(|| GameId::from_seed(game.seed))),
        ruleset: Arc::new(game.ruleset),
        seed: game.seed,
        target,
        deal_number: 0,
        dealer,
        record: Arc::new(MatchRecord::new(layout)),
        tables: Vec::new(),
        winners: None,
        bots: Default::default(),
        log: None,
    };
    let events = match seated {
        Some(seated) => deal_seated(rules, hooks, &mut state, dealer, seated, &game.decks)?,
        None => deal_all(rules, hooks, &mut state, dealer, &game.decks)?,
    };
    state.log = match logging {
        Logging::Kept => Some(Log {
            dealer,
            decks: game.decks,
            actions: Vec::with_capacity(LOG_CAPACITY),
        }),
        Logging::Off => None,
    };
    Ok((state, events))
}
