//! A game under its rules and hooks: the only form in which a state is played.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Deref;

use super::hooks::Hooks;
use crate::level::Level;
use crate::ruleset::Ruleset;
use crate::seat::Seat;

use super::action::Action;
use super::error::{DealError, StepError};
use super::event::{Event, Quiet};
use super::log::Logging;
use super::start::{self, NewGame};
use super::state::State;
use super::validate::{self, InvalidState};
use super::view::{self, Overview, SeatView};
use super::{legal, step};

/// A state tied to the rules and hooks it was dealt or checked under. It is made only by
/// [`Game::deal`], [`Game::from_state`] (a wire [`State`] checked against its rules and hooks by
/// playing its log again) or [`Game::from_sealed`] (a state the engine made and a server sealed),
/// so every method may rely on the state being one that play reaches. It reads as its [`State`].
#[derive(Clone)]
pub struct Game<'r> {
    rules: &'r Ruleset,
    hooks: &'r dyn Hooks,
    state: State,
}

/// A game after a deal or an action, and what happened.
#[derive(Clone, Debug)]
pub struct Stepped<'r> {
    pub game: Game<'r>,
    pub events: Vec<Event>,
}

impl<'r> Game<'r> {
    /// Deals the first hand of a new game, which logs every action.
    pub fn deal(
        rules: &'r Ruleset,
        hooks: &'r dyn Hooks,
        game: NewGame,
    ) -> Result<Stepped<'r>, DealError> {
        Game::deal_with(rules, hooks, game, Logging::Kept)
    }

    /// [`Game::deal`], with or without a log: a simulation whose states never leave it plays
    /// with [`Logging::Off`].
    pub fn deal_with(
        rules: &'r Ruleset,
        hooks: &'r dyn Hooks,
        game: NewGame,
        logging: Logging,
    ) -> Result<Stepped<'r>, DealError> {
        let (state, events) = start::deal_first(rules, hooks, game, logging)?;
        Ok(Stepped {
            game: Game {
                rules,
                hooks,
                state,
            },
            events,
        })
    }

    /// Checks a state from outside against `rules` and `hooks`: a state is accepted only if legal
    /// play from a deal can reach it (every problem found is listed).
    pub fn from_state(
        rules: &'r Ruleset,
        hooks: &'r dyn Hooks,
        state: State,
    ) -> Result<Game<'r>, InvalidState> {
        validate::validate(rules, hooks, &state)?;
        Ok(Game {
            rules,
            hooks,
            state,
        })
    }

    /// A state that this engine made and that reached us sealed (authenticated), so that no one
    /// changed it: it needs no proof and carries no log. Only its format version, target and bots
    /// are checked.
    pub fn from_sealed(
        rules: &'r Ruleset,
        hooks: &'r dyn Hooks,
        mut state: State,
    ) -> Result<Game<'r>, InvalidState> {
        state.log = None;
        validate::check_sealed(rules, &state)?;
        Ok(Game {
            rules,
            hooks,
            state,
        })
    }

    pub fn rules(&self) -> &'r Ruleset {
        self.rules
    }

    pub fn hooks(&self) -> &'r dyn Hooks {
        self.hooks
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    /// The wire form, to send or store.
    pub fn into_state(self) -> State {
        self.state
    }

    /// Hands the seats in `bots` to the server's bots (every other seat is a human's).
    pub fn set_bots(&mut self, bots: BTreeMap<Seat, Level>) -> Result<(), InvalidState> {
        let mut problems = Vec::new();
        validate::check_bots(&bots, self.rules.seats, &mut problems);
        if !problems.is_empty() {
            return Err(InvalidState { problems });
        }
        self.state.bots = bots;
        Ok(())
    }

    /// Every action the engine accepts now (for the lay-off, the empty one and the best).
    pub fn legal_actions(&self) -> Vec<Action> {
        legal::legal_actions(self.rules, &self.state)
    }

    /// [`Game::legal_actions`] into a buffer the caller reuses (cleared first).
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        legal::legal_actions_into(self.rules, &self.state, out);
    }

    /// The game after `action`; on error this game is untouched and still playable.
    pub fn step(&self, action: &Action) -> Result<Stepped<'r>, StepError> {
        let (state, events) = step::step(self.rules, self.hooks, &self.state, action)?;
        Ok(Stepped {
            game: Game { state, ..*self },
            events,
        })
    }

    /// [`Game::step`] in place, for simulations that need no copy of each state: appends what
    /// happened to `events`. On error neither is changed.
    #[inline]
    pub fn apply(&mut self, action: &Action, events: &mut Vec<Event>) -> Result<(), StepError> {
        step::apply(self.rules, self.hooks, &mut self.state, action, events)
    }

    /// [`Game::apply`] for a simulation that reads only the state: what happened is not said, and
    /// no event is built for the steps that make most of a hand. Checked as every step is: on
    /// error the game is unchanged.
    #[inline]
    pub fn apply_quiet(&mut self, action: &Action) -> Result<(), StepError> {
        step::apply(self.rules, self.hooks, &mut self.state, action, &mut Quiet)
    }

    /// What `seat` may see, or `None` when the game has no such seat.
    pub fn view(&self, seat: Seat) -> Option<SeatView> {
        view::view(self.rules, &self.state, seat)
    }

    /// [`Game::view`] as a bot reads it: the match scores cut to the totals.
    pub fn play_view(&self, seat: Seat) -> Option<SeatView> {
        view::play_view(self.rules, &self.state, seat)
    }

    /// What a client shows of the game, for the seats `shows` lets it see (their legal actions
    /// and views), each part computed once.
    pub fn overview(&self, shows: impl Fn(Seat) -> bool) -> Overview {
        view::overview(self.rules, &self.state, shows)
    }

    /// One view per seat.
    pub fn views(&self) -> Vec<SeatView> {
        view::views(self.rules, &self.state)
    }
}

impl Deref for Game<'_> {
    type Target = State;

    fn deref(&self) -> &State {
        &self.state
    }
}

impl fmt::Debug for Game<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}
