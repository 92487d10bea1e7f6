//! The whole of a game: everything a server needs to continue it travels in a `State`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardSet};
use crate::level::Level;
use crate::melds::LayOff;
use crate::role::{ByRole, Role};
use crate::ruleset::{RulesetRef, Target};
use crate::seat::{BySeat, Seat, Side, TableNo};

use super::game_score::GameScore;
use super::hand_score::ScorePart;
use super::identity::GameRef;
use super::layout::MatchLayout;
use super::log::Log;
use super::outcome::Outcome;
use super::pile::Pile;

/// Bumped whenever the serialised shape of `State` changes.
pub const STATE_VERSION: u32 = 6;

/// A whole game, plain: everything needed to continue it (the stock order and both hands
/// included, so it is for trusted backends; a server with a secret seals it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct State {
    /// The state format's version; a state of another version is refused.
    pub version: u32,
    /// The game's id and the actions accepted so far.
    pub game: GameRef,
    /// The ruleset the game is played under, with its options (and an authored ruleset's text).
    #[schema(value_type = RulesetRef)]
    pub ruleset: Arc<RulesetRef>,
    /// Every shuffle of the match comes from this seed.
    pub seed: u64,
    /// Points that win the match, or `single_hand`.
    pub target: Target,
    /// Deals so far, counting dead hands dealt again (0 for the first deal).
    pub deal_number: u32,
    /// Whose deal it is: the seat the dealer rule passes the deal on from (with two tables, the
    /// seat that deals the deal, not necessarily table 0's dealer).
    #[schema(value_type = u8)]
    pub dealer: Seat,
    /// The match so far (shared between successive states until a deal is recorded).
    #[schema(value_type = MatchRecord)]
    pub record: Arc<MatchRecord>,
    /// The tables of the current deal (one, except in forms with two tables).
    pub tables: Vec<Table>,
    /// Set once the match is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<u8>>)]
    pub winners: Option<Vec<Seat>>,
    /// The seats the server plays, and at which level (keys are seat numbers); left out when
    /// every seat is a human's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(value_type = crate::level::BotSeats)]
    pub bots: BTreeMap<Seat, Level>,
    /// What the match was dealt from and every action since: a plain state is accepted only if
    /// playing its log again gives it exactly. A sealed state, which no client can change, needs
    /// no proof and carries none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<Log>,
}

/// One hand in play: 2 to 4 players (by position in turn order), the cards and the phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Table {
    /// Who dealt this table (who may sit the hand out).
    #[schema(value_type = u8)]
    pub dealer: Seat,
    /// The players in turn order, from the dealer's left: the first to act first, the dealer's
    /// role last (2 to 4).
    #[schema(value_type = Vec<u8>)]
    pub seats: ByRole<Seat>,
    /// Each player's cards, in the order of `seats`.
    #[schema(value_type = Vec<CardSet>)]
    pub hands: ByRole<CardSet>,
    /// Cards each player took from the discard pile and still holds (everyone saw them), in the
    /// order of `seats`.
    #[schema(value_type = Vec<CardSet>)]
    pub taken: ByRole<CardSet>,
    /// The stock, top card (the next drawn) first.
    pub stock: Pile,
    /// The discard pile, bottom first.
    pub discard: Pile,
    /// The first upcard of the hand.
    pub upcard: Card,
    /// The knock limit of this hand (`None`: only gin goes out).
    pub knock_limit: Option<u8>,
    /// Every score of this hand is multiplied by this.
    pub multiplier: u32,
    /// How often the discard pile became the stock in this hand.
    #[serde(default)]
    pub reshuffles: u32,
    /// Turns (draws, the upcard taken included) played in this hand.
    #[serde(default)]
    pub turns: u32,
    /// Where this table's hand stands.
    pub phase: Phase,
}

impl Table {
    /// The role of a seat at this table.
    #[inline]
    pub fn role(&self, seat: Seat) -> Option<Role> {
        self.seats.find(|&s| s == seat)
    }

    /// The seat after `role` in turn order.
    #[inline]
    pub fn seat_after(&self, role: Role) -> Seat {
        self.seats[self.seats.next(role)]
    }

    /// The seat expected to act at this table, if any.
    #[inline]
    pub fn to_act(&self) -> Option<Seat> {
        match &self.phase {
            Phase::UpcardOffer { seat, .. }
            | Phase::Draw { seat, .. }
            | Phase::Discard { seat, .. }
            | Phase::LastDiscard { seat, .. }
            | Phase::LayOff { seat, .. } => Some(*seat),
            Phase::Over { .. } => None,
        }
    }
}

/// Where a table's hand stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Phase {
    /// The first turn: `seat` may take the upcard or pass; `passes` players have passed. The
    /// upcard goes round the table from the dealer's left.
    UpcardOffer {
        /// The seat offered the upcard.
        #[schema(value_type = u8)]
        seat: Seat,
        /// How many players have passed it so far.
        passes: u8,
    },
    /// `seat` draws; after every player passed the upcard, from the stock only.
    Draw {
        /// The seat to draw.
        #[schema(value_type = u8)]
        seat: Seat,
        /// Every player passed the upcard: this first draw is from the stock.
        #[serde(default)]
        stock_only: bool,
    },
    /// `seat` has drawn and discards or goes out.
    Discard {
        /// The seat to discard or go out.
        #[schema(value_type = u8)]
        seat: Seat,
        /// The card just taken from the discard pile.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        taken: Option<Card>,
        /// The card was taken under the rule "the last discard only to go out".
        #[serde(default)]
        must_go_out: bool,
    },
    /// The stock is down to its reserve: `seat` may take the last discard only to go out, or
    /// pass; at a table of three or four it goes round the players after the discarder.
    LastDiscard {
        /// The seat that may take the last discard to go out, or pass.
        #[schema(value_type = u8)]
        seat: Seat,
        /// How many players have passed it so far.
        #[serde(default, skip_serializing_if = "is_zero")]
        passes: u8,
    },
    /// A defender (`seat`) lays off onto the knocker's melds; at a table of three or four each
    /// opponent does in turn order from the knocker's left.
    LayOff {
        /// The defender to lay off now.
        #[schema(value_type = u8)]
        seat: Seat,
        // Boxed: a phase is copied at every step, and only this one holds more than a few bytes.
        /// The knock being answered.
        knock: Box<Knock>,
    },
    /// The hand is over.
    Over {
        /// How the hand ended.
        result: Box<HandResult>,
    },
}

/// A knock (or gin, where lay-offs after gin are played) waiting for the defenders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Knock {
    /// The seat that knocked (or went gin).
    #[schema(value_type = u8)]
    pub knocker: Seat,
    /// The knocker's melds.
    pub melds: Vec<CardSet>,
    /// The knocker's deadwood.
    pub deadwood: u32,
    /// `knock` or `gin` (before any undercut is known).
    pub outcome: Outcome,
    /// What the defenders who already laid off laid off, in turn order (at a table of three or
    /// four; the next defender may lay off onto these cards too).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub laid_off: Vec<SeatLayOffs>,
}

impl Knock {
    /// The cards `seat` laid off (none unless it is a defender who already did).
    pub fn laid_by(&self, seat: Seat) -> CardSet {
        self.laid_off
            .iter()
            .filter(|l| l.seat == seat)
            .flat_map(|l| l.cards.iter().map(|c| c.card))
            .collect()
    }

    /// The knocker's melds with every card laid off so far.
    pub fn melds_now(&self) -> Vec<CardSet> {
        let mut melds = self.melds.clone();
        for l in self.laid_off.iter().flat_map(|s| &s.cards) {
            if let Some(m) = melds.get_mut(l.onto) {
                m.insert(l.card);
            }
        }
        melds
    }
}

/// The cards one defender laid off, and onto which of the knocker's melds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SeatLayOffs {
    /// The defender.
    #[schema(value_type = u8)]
    pub seat: Seat,
    /// The cards laid off, each with the index of the knocker's meld it went onto.
    pub cards: Vec<LayOff>,
}

/// At a table of three or four: how the hand scored between the knocker and one opponent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct OpponentScore {
    /// The opponent.
    #[schema(value_type = u8)]
    pub seat: Seat,
    /// `gin`, `big_gin`, `knock` (the knocker scores), `undercut` (the opponent scores) or
    /// `wash`.
    pub outcome: Outcome,
    /// Who scored between the two; absent for a wash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<u8>)]
    pub winner: Option<Seat>,
    /// The points the winner scored against this opponent (multiplier included).
    pub points: i64,
    /// Those points as named parts; they sum to `points`.
    pub parts: Vec<ScorePart>,
    /// The boxes the winner counts for it.
    pub boxes: u32,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// The result of one hand at one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct HandResult {
    /// The game, as of the action that ended the hand.
    pub game: GameRef,
    /// The table the hand was played at (0 but in the four-player form).
    #[schema(value_type = u8)]
    pub table: TableNo,
    /// How the hand ended: gin, big_gin, knock, undercut, wash or dead. At a table of three or
    /// four, how it ended for the `winner` (each opponent's outcome is in `against`); wash when
    /// nobody scored.
    pub outcome: Outcome,
    /// The seat that scored (at a table of three or four, the seat that scored most, the
    /// knocker on a tie); absent for a dead hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<u8>)]
    pub winner: Option<Seat>,
    /// Points scored this hand, per seat (multiplier included).
    #[schema(value_type = Vec<i64>)]
    pub points: BySeat<i64>,
    /// Deadwood per seat (after lay-offs for the defender; 0 for a seat not at the table).
    #[schema(value_type = Vec<u32>)]
    pub deadwood: BySeat<u32>,
    /// The melds each seat showed.
    #[schema(value_type = Vec<Vec<Vec<Card>>>)]
    pub melds: BySeat<Vec<Vec<Card>>>,
    /// The cards each seat showed outside its melds (each defender's after laying off): every
    /// hand is face up once it is over. Empty for a seat not at the table, and for a dead hand.
    #[schema(value_type = Vec<Vec<Card>>)]
    pub deadwood_cards: BySeat<Vec<Card>>,
    /// The cards the defenders laid off, in turn order, and onto which of the knocker's melds.
    pub laid_off: Vec<LayOff>,
    /// At a table of three or four, how the hand scored against each opponent of the knocker,
    /// in turn order from the knocker's left (absent at a table of two).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub against: Vec<OpponentScore>,
    /// What the hand's points were multiplied by (Oklahoma's spade upcard: 2).
    pub multiplier: u32,
    /// The winner's points as named parts (`base`, `gin bonus`, a hook's bonus, the points a
    /// multiplier added); they sum to the winner's points. Empty when nobody scored. At a table
    /// of three or four each opponent's parts are in `against`.
    pub parts: Vec<ScorePart>,
    /// The boxes the winner counts (one per hand won unless a hook says otherwise).
    pub boxes: u32,
}

/// The match so far: who scores together, and each game's points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct MatchRecord {
    /// Who scores together (`sides`, each a list of seats) and how many games are scored at once.
    pub layout: MatchLayout,
    /// One entry per game scored at once (three Hollywood columns, else one).
    pub games: Vec<GameScore>,
    /// The classic bonuses of each game closed so far, when the ruleset awards any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bonuses: Vec<GameBonus>,
}

/// The bonuses awarded when one game (or Hollywood column) closed.
// `GameBonuses` in the API document: a schema named like one of its properties (`game_bonus`)
// makes openapi-python-client write a model whose local variable shadows that property.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = GameBonuses)]
pub struct GameBonus {
    /// The game (Hollywood column, else 0) that closed.
    #[schema(value_type = u32)]
    pub game: u8,
    /// The side that won the game.
    #[schema(value_type = u32)]
    pub winner: Side,
    /// Per side.
    pub game_bonus: Vec<i64>,
    /// Per side: the box bonus for every hand won in the game.
    pub boxes: Vec<i64>,
    /// The multiplier applied to the winner for a shutout (1 when none).
    pub shutout: u32,
    /// Per side: the game's points with its bonuses.
    pub totals: Vec<i64>,
}

/// Match scores as players read them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Scores {
    /// Points toward the target per side: per seat, or per team when `teams` is given; summed
    /// over the columns in Hollywood scoring.
    pub totals: Vec<i64>,
    /// The seats of each team, when players score in teams.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Vec<u32>>>)]
    pub teams: Option<Vec<Vec<Seat>>>,
    /// Hands won per side.
    pub hands_won: Vec<u32>,
    /// Boxes per side (what the classic box bonus counts).
    pub boxes: Vec<u32>,
    /// Each game's points per side and whether it is closed, when several games are scored at
    /// once (Hollywood's columns).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub columns: Option<Vec<GameScore>>,
    /// Classic bonuses awarded as games closed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bonuses: Vec<GameBonus>,
}

impl MatchRecord {
    pub fn new(layout: MatchLayout) -> MatchRecord {
        let sides = layout.sides.len();
        let games = (0..layout.games)
            .map(|_| GameScore {
                points: vec![0; sides],
                hands_won: vec![0; sides],
                boxes: vec![0; sides],
                closed: false,
            })
            .collect();
        MatchRecord {
            layout,
            games,
            bonuses: Vec::new(),
        }
    }

    /// Points per side, summed over the games.
    pub fn totals(&self) -> Vec<i64> {
        let mut totals = vec![0; self.layout.sides.len()];
        for g in &self.games {
            for (t, &p) in totals.iter_mut().zip(&g.points) {
                *t = i64::saturating_add(*t, p);
            }
        }
        totals
    }

    /// Each seat's side's total.
    pub fn seat_totals(&self, seats: u8) -> BySeat<i64> {
        // Each side's total summed where it is read, as `totals` sums it (every deal reads these).
        let total = |side: usize| {
            self.games.iter().fold(0i64, |t, g| {
                g.points.get(side).map_or(t, |&p| i64::saturating_add(t, p))
            })
        };
        Seat::all(seats)
            .map(|s| {
                self.layout
                    .side_of(s)
                    .filter(|side| side.index() < self.layout.sides.len())
                    .map_or(0, |side| total(side.index()))
            })
            .collect()
    }

    pub fn scores(&self) -> Scores {
        let mut hands_won = vec![0; self.layout.sides.len()];
        let mut boxes = vec![0; self.layout.sides.len()];
        for g in &self.games {
            // Summed over games, as shown: a count near u32::MAX in each (which `validate`
            // lets through for a match of that many deals) must not wrap.
            for (t, &p) in hands_won.iter_mut().zip(&g.hands_won) {
                *t = u32::saturating_add(*t, p);
            }
            for (t, &p) in boxes.iter_mut().zip(&g.boxes) {
                *t = u32::saturating_add(*t, p);
            }
        }
        Scores {
            totals: self.totals(),
            teams: self
                .layout
                .sides
                .iter()
                .any(|s| s.len() > 1)
                .then(|| self.layout.sides.clone()),
            hands_won,
            boxes,
            columns: (self.games.len() > 1).then(|| self.games.clone()),
            bonuses: self.bonuses.clone(),
        }
    }
}

impl State {
    #[inline]
    pub fn is_over(&self) -> bool {
        self.winners.is_some()
    }

    /// Every deal's tables are over (a next hand or the end of the match is due).
    #[inline]
    pub fn is_between_hands(&self) -> bool {
        self.tables
            .iter()
            .all(|t| matches!(t.phase, Phase::Over { .. }))
    }

    pub fn seats(&self) -> usize {
        self.record.layout.sides.iter().map(Vec::len).sum()
    }

    #[inline]
    pub fn has_seat(&self, seat: Seat) -> bool {
        seat.index() < self.seats()
    }

    pub fn scores(&self) -> Scores {
        self.record.scores()
    }

    /// Seats that may act now. Between hands any seat but a bot's may deal the next hand: the
    /// server's bots never deal.
    pub fn to_act(&self) -> Vec<Seat> {
        if self.is_over() {
            return Vec::new();
        }
        if self.is_between_hands() {
            return Seat::all(self.seats())
                .filter(|s| !self.bots.contains_key(s))
                .collect();
        }
        let mut seats: Vec<Seat> = self.tables.iter().filter_map(Table::to_act).collect();
        seats.sort_unstable();
        seats
    }

    /// The table where `seat` plays this deal.
    #[inline]
    pub fn table_of(&self, seat: Seat) -> Option<TableNo> {
        TableNo::all(self.tables.len())
            .zip(&self.tables)
            .find_map(|(n, t)| t.role(seat).is_some().then_some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_of_counts_near_their_limits_do_not_wrap() {
        let mut r = MatchRecord::new(MatchLayout {
            sides: vec![vec![Seat::new(0)], vec![Seat::new(1)]],
            games: 3,
        });
        for g in &mut r.games {
            g.hands_won = vec![u32::MAX - 1, 0];
            g.points = vec![i64::MAX - 1, 0];
        }
        let s = r.scores();
        assert_eq!(s.hands_won, vec![u32::MAX, 0]);
        assert_eq!(s.totals, vec![i64::MAX, 0]);
    }
}
