//! What one seat knows, read from its view: its hand, the public cards, the cards its opponent
//! took from the pile, and so the cards it has not seen. Shared by the levels.

use crate::cards::{Card, CardSet};
use crate::engine::{Action, ActionKind, SeatView, Source};
use crate::ruleset::Ruleset;

/// The cards one seat has seen, and what it has not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    pub hand: CardSet,
    /// The whole discard pile (public).
    pub pile: CardSet,
    pub top: Option<Card>,
    /// Cards the opponent(s) at this table took from the pile and still hold.
    pub opponent_known: CardSet,
    /// The knocker's melds, while the defender lays off.
    pub shown: CardSet,
    /// Cards this seat has not seen where they are: in the stock or in an opponent's hand.
    pub unseen: CardSet,
    /// Cards of the opponent's hand this seat has not seen.
    pub opponent_hidden: u32,
    pub stock: usize,
    /// Players at the table, this seat included.
    pub players: usize,
    /// What the opponent discarded on its last turn, when the seat can tell (a table of two).
    pub opponent_discard: Option<Card>,
}

impl Seen {
    /// The stock as it was dealt: the deck less every hand and the upcard.
    pub fn first_stock(&self, rules: &Ruleset) -> usize {
        let dealt = self.players * usize::from(rules.hand_size_at(self.players)) + 1;
        52usize.saturating_sub(dealt)
    }
}

impl Seen {
    pub fn of(view: &SeatView) -> Seen {
        let hand: CardSet = view.hand.iter().copied().collect();
        let pile: CardSet = view.discard_pile.iter().copied().collect();
        let mut opponent_known = CardSet::EMPTY;
        let mut opponent_cards = 0;
        for p in &view.players {
            opponent_known = opponent_known.union(p.known_cards.iter().copied().collect());
            opponent_cards += p.hand_size;
        }
        let shown: CardSet = view
            .knock
            .iter()
            .flat_map(|k| k.melds.iter().flatten().copied())
            .collect();
        let unseen = CardSet::FULL
            .minus(hand)
            .minus(pile)
            .minus(opponent_known)
            .minus(shown);
        Seen {
            hand,
            pile,
            top: view.discard_top,
            opponent_discard: opponent_discard(view),
            opponent_known,
            shown,
            unseen,
            opponent_hidden: opponent_cards.saturating_sub(opponent_known.len()),
            stock: view.stock_count,
            players: view.players.len() + 1,
        }
    }

    /// A number drawn from what the seat sees only, for choices that must look random yet be the
    /// same for the same view.
    pub fn fingerprint(&self, view: &SeatView) -> u64 {
        let mut h = 0x9e37_79b9_7f4a_7c15u64;
        let mut mix = |x: u64| {
            h = splitmix(h ^ x);
        };
        mix(self.hand.0);
        for c in &view.discard_pile {
            // The two jokers look alike.
            mix(u64::from(c.alike().bit()));
        }
        mix(self.opponent_known.0);
        mix(self.stock as u64);
        mix(u64::from(view.seat.number()));
        mix(view.legal_actions.len() as u64);
        for t in &view.scores.totals {
            mix(*t as u64);
        }
        h
    }
}

/// At a table of two, the top of the pile after the opponent's turn is its discard, unless it is
/// the first upcard nobody took; the seat may then have taken it from the pile.
fn opponent_discard(view: &SeatView) -> Option<Card> {
    let top = || {
        view.discard_top
            .filter(|&t| !(t == view.upcard && view.discard_pile.len() == 1))
    };
    match view.phase {
        _ if view.players.len() != 1 => None,
        "draw" => top(),
        "discard" => match view.taken {
            Some(t) => (t != view.upcard).then_some(t),
            None => top(),
        },
        _ => None,
    }
}

/// Draws `take` of `cards` (all of them at most) into the front of the slice, each draw uniform
/// over the cards not yet drawn, rolling `roll` on by SplitMix64.
pub fn shuffle_front(cards: &mut [Card], take: usize, roll: &mut u64) {
    for i in 0..take.min(cards.len()) {
        *roll = splitmix(*roll);
        let j = i + (*roll % (cards.len() - i) as u64) as usize;
        cards.swap(i, j);
    }
}

/// The SplitMix64 finaliser: a well-mixed 64-bit hash of `x`.
pub fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The legal actions of the view, by kind.
pub struct Options<'a> {
    pub legal: &'a [Action],
}

impl<'a> Options<'a> {
    pub fn of(view: &'a SeatView) -> Options<'a> {
        Options {
            legal: &view.legal_actions,
        }
    }

    pub fn find(&self, pred: impl Fn(&ActionKind) -> bool) -> Option<&'a Action> {
        self.legal.iter().find(|a| pred(&a.kind))
    }

    /// Taking the top of the pile: the upcard, or a draw from the discard pile.
    pub fn take(&self) -> Option<&'a Action> {
        self.find(|k| {
            matches!(
                k,
                ActionKind::TakeUpcard
                    | ActionKind::Draw {
                        from: Source::Discard
                    }
            )
        })
    }

    /// Not taking it: passing the upcard, or drawing from the stock.
    pub fn leave(&self) -> Option<&'a Action> {
        self.find(|k| {
            matches!(
                k,
                ActionKind::Pass
                    | ActionKind::Draw {
                        from: Source::Stock
                    }
            )
        })
    }

    pub fn discards(&self) -> impl Iterator<Item = (&'a Action, Card)> + 'a {
        self.legal.iter().filter_map(|a| match a.kind {
            ActionKind::Discard { card } => Some((a, card)),
            _ => None,
        })
    }

    pub fn knocks(&self) -> impl Iterator<Item = (&'a Action, Card)> + 'a {
        self.legal.iter().filter_map(|a| match a.kind {
            ActionKind::Knock { discard, .. } => Some((a, discard)),
            _ => None,
        })
    }

    pub fn gins(&self) -> impl Iterator<Item = (&'a Action, Option<Card>)> + 'a {
        self.legal.iter().filter_map(|a| match a.kind {
            ActionKind::Gin { discard, .. } => Some((a, discard)),
            _ => None,
        })
    }
}

/// A sentence for an action when the level has nothing more particular to say.
pub fn plain_why(action: &Action, view: &SeatView) -> String {
    match &action.kind {
        ActionKind::TakeUpcard => format!(
            "Took the upcard {}.",
            view.discard_top.map_or(String::new(), |c| c.to_string())
        ),
        ActionKind::Pass => "Passed.".into(),
        ActionKind::Draw {
            from: Source::Stock,
        } => "Drew from the stock.".into(),
        ActionKind::Draw {
            from: Source::Discard,
        } => format!(
            "Took {} from the discard pile.",
            view.discard_top.map_or(String::new(), |c| c.to_string())
        ),
        ActionKind::Discard { card } => format!("Discarded {card}."),
        ActionKind::Knock { discard, .. } => format!("Knocked, discarding {discard}."),
        ActionKind::Gin {
            discard: Some(d), ..
        } => format!("Went gin, discarding {d}."),
        ActionKind::Gin { discard: None, .. } => "Went big gin: all eleven cards meld.".into(),
        ActionKind::LayOff { cards } if cards.is_empty() => {
            "Laid off nothing: none of my cards fits the knocker's melds.".into()
        }
        ActionKind::LayOff { cards } => format!(
            "Laid off {} onto the knocker's melds to lower my deadwood.",
            list(cards.iter().map(|c| c.card))
        ),
        ActionKind::NextHand => "Dealt the next hand.".into(),
    }
}

/// Cards as a player writes them: `"4S, 5S and 6S"`.
pub fn list(cards: impl IntoIterator<Item = Card>) -> String {
    let names: Vec<String> = cards.into_iter().map(|c| c.to_string()).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hooks::NoHooks;
    use crate::engine::{Game, NewGame};
    use crate::ruleset::RulesetRef;
    use crate::seat::Seat;

    /// The opponent's last discard is the top of the pile after its turn, or the card the seat
    /// took from there; never the first upcard.
    #[test]
    fn the_opponents_last_discard_is_read_from_the_view() {
        let rules = Ruleset::standard();
        let new = NewGame {
            dealer: Some(Seat::new(0)),
            ..NewGame::seeded(RulesetRef::named("standard"), 3)
        };
        let mut game = Game::deal(&rules, &NoHooks, new).unwrap().game;
        let mut act = |seat: u8, kind: ActionKind| {
            game = game.step(&Action::new(seat, kind)).unwrap().game;
            (
                Seen::of(&game.play_view(Seat::new(0)).unwrap()),
                Seen::of(&game.play_view(Seat::new(1)).unwrap()),
            )
        };
        act(1, ActionKind::Pass);
        act(0, ActionKind::Pass);
        let stock = ActionKind::Draw {
            from: Source::Stock,
        };
        let (_, first) = act(1, stock);
        assert_eq!(
            first.opponent_discard, None,
            "the upcard is nobody's discard"
        );
        let card = first.hand.iter().next().unwrap();
        let (dealer, _) = act(1, ActionKind::Discard { card });
        assert_eq!(dealer.opponent_discard, Some(card));
        let pile = ActionKind::Draw {
            from: Source::Discard,
        };
        let (dealer, _) = act(0, pile);
        assert!(dealer.hand.contains(card) && dealer.top != Some(card));
        assert_eq!(dealer.opponent_discard, Some(card));
    }
}
