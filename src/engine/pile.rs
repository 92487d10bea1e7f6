//! An ordered pile of cards (the stock, the discard pile) that copies without allocating.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cards::{Card, CardSet};

/// Cards in order, bottom first: the last card is the top.
#[derive(Clone, Copy)]
pub struct Pile {
    cards: [Card; crate::cards::MAX_DECK],
    len: u8,
}

impl PartialEq for Pile {
    fn eq(&self, other: &Pile) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Pile {}

impl Default for Pile {
    fn default() -> Pile {
        Pile::new()
    }
}

impl Pile {
    pub fn new() -> Pile {
        Pile {
            cards: [Card::new(crate::cards::Rank::Ace, crate::cards::Suit::Clubs);
                crate::cards::MAX_DECK],
            len: 0,
        }
    }

    /// A pile from cards listed bottom first. `None` when there are more than 54.
    pub fn from_bottom_up(cards: &[Card]) -> Option<Pile> {
        let mut p = Pile::new();
        for &c in cards {
            if !p.push(c) {
                return None;
            }
        }
        Some(p)
    }

    /// A pile from cards listed top first (the stock as a deck lists it), written at once.
    /// `None` when there are more than 54.
    pub(crate) fn from_top_down(cards: &[Card]) -> Option<Pile> {
        let mut p = Pile::new();
        let slots = p.cards.get_mut(..cards.len())?;
        for (slot, &c) in slots.iter_mut().zip(cards.iter().rev()) {
            // The jokers are alike: a pile names each as the first.
            *slot = c.alike();
        }
        p.len = u8::try_from(cards.len()).ok()?;
        Some(p)
    }

    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn top(&self) -> Option<Card> {
        self.as_slice().last().copied()
    }

    #[inline]
    pub fn push(&mut self, card: Card) -> bool {
        let n = self.len();
        match self.cards.get_mut(n) {
            Some(slot) => {
                // The jokers are alike: a pile names each as the first.
                *slot = card.alike();
                self.len += 1;
                true
            }
            None => false,
        }
    }

    #[inline]
    pub fn pop(&mut self) -> Option<Card> {
        let top = self.top()?;
        self.len -= 1;
        Some(top)
    }

    /// Bottom first.
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len()]
    }

    pub fn as_mut_slice(&mut self) -> &mut [Card] {
        let n = self.len();
        &mut self.cards[..n]
    }

    pub fn to_set(&self) -> CardSet {
        self.as_slice().iter().copied().collect()
    }
}

impl fmt::Debug for Pile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Serialize for Pile {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for Pile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Pile, D::Error> {
        struct PileVisitor;
        impl<'de> serde::de::Visitor<'de> for PileVisitor {
            type Value = Pile;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a sequence")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Pile, A::Error> {
                let mut pile = Pile::new();
                while let Some(card) = seq.next_element()? {
                    if !pile.push(card) {
                        return Err(serde::de::Error::custom("a pile holds at most 54 cards"));
                    }
                }
                Ok(pile)
            }
        }
        d.deserialize_seq(PileVisitor)
    }
}
