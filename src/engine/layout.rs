//! Who plays at each table of a deal, and who scores together in how many games for a whole
//! match.

use serde::{Deserialize, Serialize};

use crate::role::ByRole;
use crate::seat::{Seat, Side};

/// Who plays at one table for a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TableSeating {
    /// Who deals this table. At a table where the dealer plays this is the last player; in the
    /// three-player form with two at the table the dealer deals to the other two and sits out.
    pub dealer: Seat,
    /// 2 to 4 players in turn order: `players[0]` is offered the upcard first and gets the first
    /// card dealt; the last plays the dealer's role.
    pub players: ByRole<Seat>,
}

/// Who scores together and how many games are scored at once, fixed for a whole match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct MatchLayout {
    /// One entry per side (a player, or a team), listing its seats. Every seat is on exactly one
    /// side. Plain play: `[[0], [1], ...]`, one side per seat.
    #[schema(value_type = Vec<Vec<u8>>)]
    pub sides: Vec<Vec<Seat>>,
    /// Games (score columns) played at once: 1, or 3 for Hollywood scoring.
    pub games: u8,
}

/// The most games (columns) a match may score at once.
pub const MAX_GAMES: u8 = 8;

impl MatchLayout {
    /// One side per seat, one game.
    pub fn individual(seats: u8) -> MatchLayout {
        MatchLayout {
            sides: Seat::all(seats).map(|s| vec![s]).collect(),
            games: 1,
        }
    }

    /// The side a seat belongs to.
    pub fn side_of(&self, seat: Seat) -> Option<Side> {
        Side::all(self.sides.len())
            .zip(&self.sides)
            .find(|(_, seats)| seats.contains(&seat))
            .map(|(side, _)| side)
    }

    /// Checks the layout for `seats` players: every seat on exactly one side, 1..=8 games.
    pub fn check(&self, seats: u8) -> Result<(), String> {
        if self.games == 0 || self.games > MAX_GAMES {
            return Err(format!(
                "games must be 1 to {MAX_GAMES}, not {}",
                self.games
            ));
        }
        let mut seen = [false; 256];
        let seen = &mut seen[..usize::from(seats)];
        for side in &self.sides {
            if side.is_empty() {
                return Err("a side has no seats".into());
            }
            for &s in side {
                match seen.get_mut(s.index()) {
                    None => return Err(format!("seat {s} does not exist ({seats} seats)")),
                    Some(true) => return Err(format!("seat {s} is on two sides")),
                    Some(x) => *x = true,
                }
            }
        }
        match seen.iter().position(|&x| !x) {
            Some(s) => Err(format!("seat {s} is on no side")),
            None => Ok(()),
        }
    }
}
