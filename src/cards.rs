//! Suits, ranks, cards and a bitset of cards, with the two-character notation of the API
//! (`"TD"` is the ten of diamonds; `"10d"` is accepted on input; `"JK"` is a joker).
//!
//! A deck holds at most two jokers. They are alike on the wire (both `"JK"`) but are two cards
//! here, with bits of their own, so that one hand may hold both. Reading `"JK"` gives the first
//! joker; a list of cards ([`CardSet`], an explicit deck) reads its second `"JK"` as the second
//! joker, and an action naming `"JK"` means whichever joker the player holds
//! ([`CardSet::resolve`]).

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

/// One card. Internally `suit * 16 + rank`, the bit it occupies in a [`CardSet`]; the jokers
/// take the spare bits 13 and 14 of the clubs lane. The two jokers compare equal (as they read
/// alike), though a set holds them apart.
#[derive(Clone, Copy)]
pub struct Card(u8);

impl Card {
    /// The card as compared: the second joker reads as the first.
    const fn key(self) -> u8 {
        if self.0 == 14 { 13 } else { self.0 }
    }
}

impl PartialEq for Card {
    fn eq(&self, other: &Card) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Card {}

impl PartialOrd for Card {
    fn partial_cmp(&self, other: &Card) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Card {
    fn cmp(&self, other: &Card) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl std::hash::Hash for Card {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

impl Card {
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(((suit as u8) << 4) | rank as u8)
    }

    /// The two jokers a deck may hold, first and second.
    pub const JOKERS: [Card; 2] = [Card(13), Card(14)];

    pub const fn is_joker(self) -> bool {
        self.0 == 13 || self.0 == 14
    }

    /// The card as every player reads it: a joker as the first joker (the two are alike).
    pub const fn alike(self) -> Card {
        if self.is_joker() {
            Card::JOKERS[0]
        } else {
            self
        }
    }

    /// The rank of a natural card. A joker has none: check [`Card::is_joker`] first (a joker
    /// reads as an ace here).
    pub const fn rank(self) -> Rank {
        Rank::ALL[((self.0 & 15) % 13) as usize]
    }

    /// The suit of a natural card (a joker reads as clubs).
    pub const fn suit(self) -> Suit {
        Suit::ALL[(self.0 >> 4) as usize]
    }

    /// The bit index of this card in a [`CardSet`] (0..64, with gaps).
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    pub fn from_bit(bit: u32) -> Option<Card> {
        let (suit, rank) = ((bit >> 4) as usize, (bit & 15) as usize);
        if (suit < 4 && rank < 13) || bit == 13 || bit == 14 {
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

    /// The 52 cards and then `jokers` jokers (at most two).
    pub fn deck_with(jokers: u8) -> impl Iterator<Item = Card> {
        Card::all().chain(Card::JOKERS.into_iter().take(usize::from(jokers)))
    }

    /// The natural card of a rank's and a suit's character (either case), by table.
    fn from_pair(rank: u8, suit: u8) -> Option<Card> {
        /// Each character's place in `chars` plus one, either case; 0 for the other characters.
        const fn places(chars: &[u8]) -> [u8; 128] {
            let mut places = [0; 128];
            let mut i = 0;
            while i < chars.len() {
                places[chars[i] as usize] = i as u8 + 1;
                places[chars[i].to_ascii_lowercase() as usize] = i as u8 + 1;
                i += 1;
            }
            places
        }
        const RANKS: [u8; 128] = places(b"A23456789TJQK");
        const SUITS: [u8; 128] = places(b"CDHS");
        let rank = RANKS.get(usize::from(rank))?.checked_sub(1)?;
        let suit = SUITS.get(usize::from(suit))?.checked_sub(1)?;
        Some(Card((suit << 4) | rank))
    }

    /// The card's two characters on the wire.
    pub fn text(self) -> &'static str {
        // Two characters for each bit of a suit's lane: its 13 ranks, then the jokers' bits.
        const NAMES: &str = concat!(
            "AC2C3C4C5C6C7C8C9CTCJCQCKCJKJK..",
            "AD2D3D4D5D6D7D8D9DTDJDQDKD......",
            "AH2H3H4H5H6H7H8H9HTHJHQHKH......",
            "AS2S3S4S5S6S7S8S9STSJSQSKS......",
        );
        let at = 2 * usize::from(self.0);
        NAMES.get(at..at + 2).unwrap_or("..")
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most cards a deck holds: 52 and two jokers.
pub const MAX_DECK: usize = 54;

/// A string that is not a card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a card (write rank then suit, like \"TD\" or \"10D\" for the ten of diamonds, or \"JK\" for a joker)"
)]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        // What states are written with (rank then suit, no space) is read at once.
        if let &[rank, suit] = s.as_bytes()
            && let Some(card) = Card::from_pair(rank, suit)
        {
            return Ok(card);
        }
        let err = || ParseCardError(s.to_string());
        let t = s.trim();
        if t.eq_ignore_ascii_case("JK") {
            return Ok(Card::JOKERS[0]);
        }
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
        s.serialize_str(self.text())
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        struct CardVisitor;
        impl serde::de::Visitor<'_> for CardVisitor {
            type Value = Card;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a card such as \"TD\" or \"JK\"")
            }

            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Card, E> {
                s.parse().map_err(E::custom)
            }
        }
        d.deserialize_str(CardVisitor)
    }
}

/// A set of cards as a bitset: bit `suit * 16 + rank`, the jokers at bits 13 and 14. Sets that
/// differ only in which joker they hold of one compare equal (the jokers read alike).
#[derive(Clone, Copy, Default)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The set as compared: a lone joker reads as the first.
    const fn key(self) -> u64 {
        if self.0 & CardSet::JOKERS.0 == 1 << 14 {
            self.0 ^ (0b11 << 13)
        } else {
            self.0
        }
    }
}

impl PartialEq for CardSet {
    fn eq(&self, other: &CardSet) -> bool {
        self.key() == other.key()
    }
}

impl Eq for CardSet {}

impl PartialOrd for CardSet {
    fn partial_cmp(&self, other: &CardSet) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for CardSet {
    fn cmp(&self, other: &CardSet) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl std::hash::Hash for CardSet {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    /// Every real card: 13 bits in each of the four 16-bit suit lanes.
    pub const FULL: CardSet = CardSet(0x1fff_1fff_1fff_1fff);
    /// Both jokers.
    pub const JOKERS: CardSet = CardSet(0b110 << 12);
    /// Every card a deck may hold: [`CardSet::FULL`] and the jokers.
    pub const ALL: CardSet = CardSet(CardSet::FULL.0 | CardSet::JOKERS.0);

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

    #[inline]
    pub fn insert(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 |= 1 << card.bit();
        !had
    }

    #[inline]
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

    /// The card of this set that `card` names: a joker names a joker the set holds, whichever
    /// (the two are alike to a player); any other card names itself.
    #[inline]
    pub fn resolve(self, card: Card) -> Card {
        if card.is_joker()
            && !self.contains(card)
            && let Some(other) = self.intersect(CardSet::JOKERS).first()
        {
            return other;
        }
        card
    }

    /// The card `card` is once added: a joker is added as the first joker the set lacks, so a set
    /// built by adding names its jokers from the first.
    #[inline]
    pub fn free(self, card: Card) -> Card {
        if card.is_joker() {
            CardSet::JOKERS.minus(self).first().unwrap_or(card)
        } else {
            card
        }
    }

    /// The set with its jokers named from the first (bit 13, then 14): the same cards to a player.
    pub fn jokers_first(self) -> CardSet {
        let n = self.intersect(CardSet::JOKERS).len() as usize;
        let jokers: CardSet = CardSet::JOKERS.iter().take(n).collect();
        self.minus(CardSet::JOKERS).union(jokers)
    }

    /// `card` added, a joker the set already holds added as the other joker (the way a list of
    /// cards reads a second `"JK"`). False when the card (or both jokers) is already in.
    pub fn insert_read(&mut self, card: Card) -> bool {
        self.insert(self.free(card))
    }

    /// Adds `card` as [`CardSet::insert_read`] does and returns the card as the set holds it.
    #[inline]
    pub fn put(&mut self, card: Card) -> Card {
        let held = self.free(card);
        self.insert(held);
        held
    }

    /// The cards of this set in none of `parts`, a joker of a part taking either joker.
    pub fn minus_all(self, parts: &[CardSet]) -> CardSet {
        let mut jokers = self.intersect(CardSet::JOKERS).len();
        let mut rest = self.minus(CardSet::JOKERS);
        for p in parts {
            rest = rest.minus(*p);
            jokers = jokers.saturating_sub(p.intersect(CardSet::JOKERS).len());
        }
        let kept = self.intersect(CardSet::JOKERS).iter().take(jokers as usize);
        rest.union(kept.collect())
    }

    /// The cards of the set, lowest bit first (a bit that is no card is passed over).
    #[inline]
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0 & CardSet::ALL.0)
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

/// The cards of a set: its bits that are cards (so each names one without a check).
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card(bit as u8))
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
        struct SetVisitor;
        impl<'de> serde::de::Visitor<'de> for SetVisitor {
            type Value = CardSet;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a sequence")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<CardSet, A::Error> {
                let mut set = CardSet::EMPTY;
                while let Some(c) = seq.next_element::<Card>()? {
                    if !set.insert_read(c) {
                        return Err(serde::de::Error::custom(format!(
                            "card {c} is listed twice"
                        )));
                    }
                }
                Ok(set)
            }
        }
        d.deserialize_seq(SetVisitor)
    }
}

/// Parses cards separated by spaces or commas, naming the first bad one. A second `"JK"` is
/// the second joker.
pub fn parse_cards(s: &str) -> Result<Vec<Card>, ParseCardError> {
    let mut jokers = 0;
    s.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| {
            let c: Card = t.parse()?;
            Ok(if c.is_joker() {
                jokers += 1;
                Card::JOKERS[if jokers > 1 { 1 } else { 0 }]
            } else {
                c
            })
        })
        .collect()
}

/// Reads a list of cards as a deck does: the second `"JK"` is the second joker.
pub fn read_jokers(cards: &mut [Card]) {
    let mut seen = false;
    for c in cards.iter_mut().filter(|c| c.is_joker()) {
        *c = Card::JOKERS[usize::from(seen)];
        seen = true;
    }
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
            assert_eq!(c.text(), format!("{}{}", c.rank().char(), c.suit().char()));
        }
        assert_eq!(Card::all().collect::<CardSet>(), CardSet::FULL);
    }

    #[test]
    fn cards_read_from_json_as_the_parser_reads_them() {
        let texts = Card::all()
            .chain(Card::JOKERS)
            .flat_map(|c| {
                let t = c.to_string();
                [
                    t.to_lowercase(),
                    t.clone(),
                    format!(" {t}"),
                    format!("{}{}", &t[..1], "X"),
                ]
            })
            .chain(["10D", "jk", "é", "ÀS", "", "T"].map(String::from));
        for text in texts {
            let json = serde_json::to_string(&text).unwrap();
            let read = serde_json::from_str::<Card>(&json).map_err(|e| e.to_string());
            let parsed = text.parse::<Card>().map_err(|e| e.to_string());
            assert_eq!(read.ok(), parsed.clone().ok(), "{text:?}");
            if let Err(e) = parsed {
                let read = serde_json::from_str::<Card>(&json).unwrap_err().to_string();
                assert!(read.contains(&e), "{text:?}: {read}");
            }
        }
    }

    #[test]
    fn card_sets_read_from_json_name_a_card_listed_twice() {
        let set: CardSet = serde_json::from_str(r#"["TD", "2c", "JK", "JK"]"#).unwrap();
        assert_eq!(set.len(), 4);
        let twice = serde_json::from_str::<CardSet>(r#"["TD", "2C", "td"]"#).unwrap_err();
        assert!(
            twice.to_string().contains("card TD is listed twice"),
            "{twice}"
        );
        let bad = serde_json::from_str::<CardSet>(r#"["TD", "XX"]"#).unwrap_err();
        assert!(bad.to_string().contains(r#""XX" is not a card"#), "{bad}");
        let not_a_list = serde_json::from_str::<CardSet>(r#""TD""#).unwrap_err();
        assert!(
            not_a_list.to_string().contains("expected a sequence"),
            "{not_a_list}"
        );
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
    fn jokers_are_two_cards_that_read_alike() {
        let [j1, j2] = Card::JOKERS;
        let bits = |cards: &[Card]| cards.iter().map(|c| c.bit()).collect::<Vec<_>>();
        assert_eq!(("JK".parse(), "jk".parse()), (Ok(j1), Ok(j1)));
        assert_eq!("JK".parse::<Card>().map(Card::bit), Ok(j1.bit()));
        assert_eq!((j1.to_string(), j2.to_string()), ("JK".into(), "JK".into()));
        assert!(j1.is_joker() && j2.is_joker() && !Card::all().any(Card::is_joker));
        assert_eq!(j1, j2);
        assert_eq!(Card::from_bit(j2.bit()).map(Card::bit), Some(j2.bit()));
        assert_eq!(Card::deck_with(2).collect::<CardSet>().0, CardSet::ALL.0);
        let both = set("JK 5S JK");
        assert_eq!(both.intersect(CardSet::JOKERS).0, CardSet::JOKERS.0);
        assert_eq!(serde_json::to_string(&both).unwrap(), r#"["JK","JK","5S"]"#);
        assert_eq!(
            serde_json::from_str::<CardSet>(r#"["JK","5S","JK"]"#)
                .unwrap()
                .0,
            both.0
        );
        assert!(serde_json::from_str::<CardSet>(r#"["JK","JK","JK"]"#).is_err());
        // A lone joker is a lone joker, whichever it is.
        let second = set("5S").with(j2);
        assert_eq!(second, set("5S JK"));
        assert_ne!(second.0, set("5S JK").0);
        assert_eq!(second.resolve(j1).bit(), j2.bit());
        assert_eq!(set("5S").resolve(j1).bit(), j1.bit());
        let mut hand = set("5S JK");
        assert_eq!(hand.put(j1).bit(), j2.bit());
        assert_eq!(hand.0, set("5S JK JK").0);
        let mut deck = vec![j1, j1];
        read_jokers(&mut deck);
        assert_eq!(bits(&deck), bits(&[j1, j2]));
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
