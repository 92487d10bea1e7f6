//! Suits, ranks, cards and a bitset of cards, with the two-character notation of the API
//! (`"TD"` is the ten of diamonds; `"10d"` is accepted on input).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    Clubs = 0,
    Diamonds = 1,
    Hearts = 2,
    Spades = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn char(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    pub fn from_char(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "clubs",
            Suit::Diamonds => "diamonds",
            Suit::Hearts => "hearts",
            Suit::Spades => "spades",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    Ace = 0,
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
}

impl Rank {
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// 0 for the ace up to 12 for the king.
    pub const fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Option<Rank> {
        Rank::ALL.get(i).copied()
    }

    pub const fn char(self) -> char {
        b"A23456789TJQK"[self as usize] as char
    }

    pub fn from_char(c: char) -> Option<Rank> {
        let c = c.to_ascii_uppercase();
        b"A23456789TJQK"
            .iter()
            .position(|&b| b as char == c)
            .and_then(Rank::from_index)
    }
}

/// One card. Internally `suit * 16 + rank`, the bit it occupies in a [`CardSet`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(((suit as u8) << 4) | rank as u8)
    }

    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 & 15) as usize]
    }

    pub const fn suit(self) -> Suit {
        Suit::ALL[(self.0 >> 4) as usize]
    }

    /// The bit index of this card in a [`CardSet`] (0..64, with gaps).
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    pub fn from_bit(bit: u32) -> Option<Card> {
        let (suit, rank) = ((bit >> 4) as usize, (bit & 15) as usize);
        if suit < 4 && rank < 13 {
            Some(Card(bit as u8))
        } else {
            None
        }
    }

    /// All 52 cards, clubs first, each suit from ace to king.
    pub const DECK: [Card; 52] = {
        let mut deck = [Card(0); 52];
        let mut i = 0;
        while i < 52 {
            deck[i] = Card::new(Rank::ALL[i % 13], Suit::ALL[i / 13]);
            i += 1;
        }
        deck
    };

    /// [`Card::DECK`], one card at a time.
    pub fn all() -> impl Iterator<Item = Card> {
        Card::DECK.into_iter()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().char(), self.suit().char())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A string that is not a card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a card (write rank then suit, like \"TD\" or \"10D\" for the ten of diamonds)"
)]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError(s.to_string());
        let t = s.trim();
        let (rank, suit) = if t.len() == 3 && t.starts_with("10") {
            (Rank::Ten, &t[2..])
        } else if t.len() == 2 && t.is_char_boundary(1) {
            (
                t[..1]
                    .chars()
                    .next()
                    .and_then(Rank::from_char)
                    .ok_or_else(err)?,
                &t[1..],
            )
        } else {
            return Err(err());
        };
        let suit = suit
            .chars()
            .next()
            .and_then(Suit::from_char)
            .ok_or_else(err)?;
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Two ASCII bytes on the stack: no formatting machinery (states list every card).
        let text = [self.rank().char() as u8, self.suit().char() as u8];
        s.serialize_str(std::str::from_utf8(&text).unwrap_or("??"))
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        struct CardVisitor;
        impl serde::de::Visitor<'_> for CardVisitor {
            type Value = Card;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a card such as \"TD\"")
            }

            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Card, E> {
                s.parse().map_err(E::custom)
            }
        }
        d.deserialize_str(CardVisitor)
    }
}

/// A set of cards as a bitset: bit `suit * 16 + rank`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardSet(pub u64);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    /// Every real card: 13 bits in each of the four 16-bit suit lanes.
    pub const FULL: CardSet = CardSet(0x1fff_1fff_1fff_1fff);

    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.bit())
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.bit()) != 0
    }

    pub fn insert(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 |= 1 << card.bit();
        !had
    }

    pub fn remove(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 &= !(1 << card.bit());
        had
    }

    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | 1 << card.bit())
    }

    pub const fn without(self, card: Card) -> CardSet {
        CardSet(self.0 & !(1 << card.bit()))
    }

    pub const fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }

    pub const fn intersect(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }

    pub const fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }

    pub const fn is_subset(self, o: CardSet) -> bool {
        self.0 & !o.0 == 0
    }

    pub const fn is_disjoint(self, o: CardSet) -> bool {
        self.0 & o.0 == 0
    }

    /// The cards of one suit as a 13-bit mask, ace at bit 0.
    pub const fn suit_mask(self, suit: Suit) -> u16 {
        ((self.0 >> (suit as u32 * 16)) & 0x1fff) as u16
    }

    pub fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Card::from_bit(self.0.trailing_zeros())
        }
    }

    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Card::from_bit(bit)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{self}]")
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        let mut set = CardSet::EMPTY;
        for c in cards {
            if !set.insert(c) {
                return Err(serde::de::Error::custom(format!(
                    "card {c} is listed twice"
                )));
            }
        }
        Ok(set)
    }
}

/// Parses cards separated by spaces or commas, naming the first bad one.
pub fn parse_cards(s: &str) -> Result<Vec<Card>, ParseCardError> {
    s.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(str::parse)
        .collect()
}

/// Builds a set from card strings written in code (tests, examples, benchmarks).
/// Panics on a bad card, so never call it on input.
#[doc(hidden)]
pub fn set(s: &str) -> CardSet {
    match parse_cards(s) {
        Ok(cards) => cards.into_iter().collect(),
        Err(e) => panic!("{e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_prints_and_parses_back() {
        let all: Vec<Card> = Card::all().collect();
        assert_eq!(all.len(), 52);
        for c in all {
            assert_eq!(c.to_string().parse::<Card>(), Ok(c));
        }
        assert_eq!(Card::all().collect::<CardSet>(), CardSet::FULL);
    }

    #[test]
    fn input_accepts_ten_and_lower_case() {
        let td = Card::new(Rank::Ten, Suit::Diamonds);
        for s in ["TD", "td", "10D", "10d", "tD"] {
            assert_eq!(s.parse::<Card>(), Ok(td), "{s}");
        }
        assert_eq!(td.to_string(), "TD");
    }

    #[test]
    fn bad_cards_are_named() {
        for s in ["", "1D", "TX", "ZZ", "10", "TDD", "é", "11D", "D10"] {
            let e = s.parse::<Card>().unwrap_err();
            assert_eq!(e.0, s);
            assert!(e.to_string().contains("is not a card"));
        }
    }

    #[test]
    fn cardset_operations() {
        let s = set("AS 2S 3S KD");
        assert_eq!(s.len(), 4);
        assert!(s.contains("2S".parse().unwrap()));
        assert_eq!(s.suit_mask(Suit::Spades), 0b111);
        assert_eq!(s.suit_mask(Suit::Diamonds), 1 << 12);
        assert_eq!(s.to_string(), "KD AS 2S 3S");
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<CardSet>(&json).unwrap(), s);
        assert!(serde_json::from_str::<CardSet>(r#"["AS","as"]"#).is_err());
    }
}
