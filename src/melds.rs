//! Melds, the least deadwood of a hand, the discards after drawing, and lay-offs after a knock.
//!
//! Every answer is exact: the hand's candidate melds are enumerated as bitmasks and every packing
//! of disjoint melds is visited (branch and bound where only the best value matters). Hands that
//! hold wild cards go to [`wild`]; a hand without one takes the natural solver, whatever the rules.

use std::fmt;

use crate::cards::{Card, CardSet};
use crate::ruleset::{AceRank, MeldRules};

mod wild;

/// One arrangement of a hand: disjoint melds and the cards left over.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Arrangement {
    pub melds: Vec<CardSet>,
    pub unmelded: CardSet,
    pub deadwood: u32,
}

impl Arrangement {
    /// `melds` (disjoint, within `hand`) and the rest of `hand` as deadwood.
    fn of(rules: &MeldRules, hand: u64, melds: Vec<CardSet>) -> Self {
        let covered = melds.iter().fold(0, |acc, m| acc | m.0);
        let unmelded = CardSet(hand & !covered);
        Arrangement {
            melds,
            unmelded,
            deadwood: rules.value_of(unmelded),
        }
    }
}

/// An 11-card hand after drawing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscardAnalysis {
    /// For every card of the hand (card order), the least deadwood of the ten cards left after discarding it.
    pub after_discard: Vec<(Card, u32)>,
    /// The least of those.
    pub best: u32,
    /// All eleven cards meld.
    pub big_gin: bool,
}

/// One card the defender lays off; `onto` is an index into the knocker's melds.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
pub struct LayOff {
    /// The card laid off.
    pub card: Card,
    /// The index of the knocker's meld it went onto.
    pub onto: usize,
}

/// What the defender does after a knock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayOffPlan {
    /// In an order in which they can be laid off one by one.
    pub lay_offs: Vec<LayOff>,
    /// The knocker's melds after the lay-offs.
    pub extended: Vec<CardSet>,
    /// The defender's remaining cards, arranged with least deadwood.
    pub own: Arrangement,
}

/// Why an arrangement or a lay-off is refused, in a player's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeldError {
    #[error("{0} is not in your hand")]
    NotInHand(Card),
    #[error("{0} is in two melds")]
    InTwoMelds(Card),
    #[error("{0} is listed twice in one meld")]
    ListedTwice(Card),
    #[error("an empty list of cards is not a meld")]
    EmptyMeld,
    #[error("{} is not a meld", cards_text(.0))]
    NotAMeld(Vec<Card>),
    #[error("there is no meld {0} to lay off on")]
    NoSuchMeld(usize),
    #[error("{card} does not fit on meld {onto} ({})", cards_text(.meld))]
    DoesNotFit {
        card: Card,
        onto: usize,
        meld: Vec<Card>,
    },
    #[error("{0} does not fit on any meld")]
    FitsNowhere(Card),
    #[error("{0} fits more than one meld: say which with onto")]
    FitsSeveral(Card),
    #[error("{0} is laid off twice")]
    LaidOffTwice(Card),
}

fn cards_text(cards: &[Card]) -> String {
    struct Text<'a>(&'a [Card]);
    impl fmt::Display for Text<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            for (i, c) in self.0.iter().enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{c}")?;
            }
            Ok(())
        }
    }
    Text(cards).to_string()
}

/// The four cards of rank 0, one per suit lane.
const RANK_BITS: u64 = 0x0001_0001_0001_0001;
const LANE: u32 = 0x1fff;

/// How runs may run, from `ace` and `wrap`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Low,
    High,
    Both,
    Wrap,
}

impl Shape {
    fn of(rules: &MeldRules) -> Shape {
        match (rules.ace, rules.wrap) {
            (AceRank::Low, _) => Shape::Low,
            (AceRank::High, _) => Shape::High,
            (AceRank::Both, false) => Shape::Both,
            (AceRank::Both, true) => Shape::Wrap,
        }
    }
}

fn is_contiguous(x: u32) -> bool {
    if x == 0 {
        return false;
    }
    let y = x >> x.trailing_zeros();
    y & (y + 1) == 0
}

/// A suit lane with the ace moved above the king: bit 0 is the two, bit 12 the ace.
fn ace_above_king(lane: u32) -> u32 {
    (lane >> 1) | ((lane & 1) << 12)
}

/// Whether the cards of one suit (a 13-bit lane, ace at bit 0) are consecutive under `shape`.
fn is_run_lane(shape: Shape, lane: u32) -> bool {
    match shape {
        Shape::Low => is_contiguous(lane),
        Shape::High => is_contiguous(ace_above_king(lane)),
        Shape::Both => is_contiguous(lane) || is_contiguous(ace_above_king(lane)),
        Shape::Wrap => is_contiguous(lane) || is_contiguous(!lane & LANE),
    }
}

fn count_at_least(rules_min: u32, lanes: [u32; 4]) -> u32 {
    let [a, b, c, d] = lanes;
    let s1 = a ^ b;
    let c1 = a & b;
    let s2 = s1 ^ c;
    let t = c1 | (s1 & c);
    let ones = s2 ^ d;
    let c3 = s2 & d;
    let twos = t ^ c3;
    let fours = t & c3;
    match rules_min {
        0 | 1 => a | b | c | d,
        2 => twos | fours,
        3 => fours | (twos & ones),
        4 => fours,
        _ => 0,
    }
}

/// The deadwood value of the cards of `bits`.
fn value_of(rules: &MeldRules, mut bits: u64) -> u32 {
    let mut v = 0;
    while bits != 0 {
        let rank = (bits.trailing_zeros() % 16) as usize;
        bits &= bits - 1;
        v += u32::from(rules.values.get(rank).copied().unwrap_or(0));
    }
    v
}

fn lanes(hand: u64) -> [u32; 4] {
    [0, 1, 2, 3].map(|s| (hand >> (16 * s)) as u32 & LANE)
}

pub fn is_meld(rules: &MeldRules, cards: CardSet) -> bool {
    let bits = cards.0;
    let wild = rules.wild_bits();
    if bits & wild != 0 {
        return wild::is_meld(rules, bits, wild);
    }
    if bits == 0 || bits & !CardSet::FULL.0 != 0 {
        return false;
    }
    let n = bits.count_ones();
    let low = bits.trailing_zeros();
    let (suit, rank) = (low / 16, low % 16);
    if bits & !(RANK_BITS << rank) == 0
        && n >= u32::from(rules.set_min)
        && n <= u32::from(rules.set_max)
    {
        return true;
    }
    let lane = (bits >> (16 * suit)) as u32 & LANE;
    bits == u64::from(lane) << (16 * suit)
        && n >= u32::from(rules.run_min)
        && is_run_lane(Shape::of(rules), lane)
}

/// Melds as a player reads them, each with its cards in play order.
pub fn meld_lists(rules: &MeldRules, melds: &[CardSet]) -> Vec<Vec<Card>> {
    melds.iter().map(|&m| meld_cards(rules, m)).collect()
}

/// The cards of a meld in play order (runs low to high, Q-K-A with the ace last, K-A-2 round the corner).
pub fn meld_cards(rules: &MeldRules, meld: CardSet) -> Vec<Card> {
    if let Some(read) = wild_reading(rules, meld) {
        return read.into_iter().map(|(c, _)| c).collect();
    }
    let bits = meld.0 & CardSet::FULL.0;
    let Some(first) = CardSet(bits).first() else {
        return Vec::new();
    };
    let suit = first.suit().index() as u32;
    let lane = (bits >> (16 * suit)) as u32 & LANE;
    if bits != u64::from(lane) << (16 * suit) || lane.count_ones() < 2 {
        return CardSet(bits).to_vec();
    }
    let start = match Shape::of(rules) {
        Shape::Low => 0,
        Shape::High => 1,
        Shape::Both | Shape::Wrap if is_contiguous(lane) => 0,
        Shape::Both => 1,
        Shape::Wrap => {
            let gap = !lane & LANE;
            (32 - gap.leading_zeros()) % 13
        }
    };
    (0..13)
        .map(|i| (start + i) % 13)
        .filter(|r| lane & (1 << r) != 0)
        .filter_map(|r| Card::from_bit(16 * suit + r))
        .collect()
}

/// The cards of a meld holding wild cards in play order, each with the card it stands for
/// (a natural card stands for itself). `None` when the meld holds no wild card or is no meld.
pub fn wild_reading(rules: &MeldRules, meld: CardSet) -> Option<Vec<(Card, Card)>> {
    let wild = rules.wild_bits();
    if meld.0 & wild == 0 {
        return None;
    }
    wild::reading(rules, meld.0, wild)
}

/// A wild card in a meld and the card it stands for there.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
pub struct StandIn {
    /// The index of the meld in its list of melds.
    pub meld: usize,
    /// The wild card (`JK`, or a card of a wild rank).
    pub card: Card,
    /// The card it stands for in that meld.
    #[serde(rename = "as")]
    pub stands_for: Card,
}

/// What each wild card of `melds` stands for, meld by meld. A meld's wild cards take whichever
/// places keep it a meld: gaps first, then above, then below; the missing suits of a set.
pub fn stand_ins(rules: &MeldRules, melds: &[CardSet]) -> Vec<StandIn> {
    let wild = CardSet(rules.wild_bits());
    let mut out = Vec::new();
    for (meld, &m) in melds.iter().enumerate() {
        for (card, stands_for) in wild_reading(rules, m).unwrap_or_default() {
            if wild.contains(card) {
                out.push(StandIn {
                    meld,
                    card,
                    stands_for,
                });
            }
        }
    }
    out
}

/// Whether `hand` holds a card the natural solver does not read: a wild card or a joker.
fn needs_wild_solver(rules: &MeldRules, hand: CardSet) -> bool {
    hand.0 & (rules.wild_bits() | CardSet::JOKERS.0) != 0
}

/// Cards in each subset of the four suits (bit s = suit s).
const SUBSET_LEN: [u32; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];
/// The aces of each subset of the four suits.
const SUBSET_CARDS: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        let mut s = 0;
        while s < 4 {
            if i & (1 << s) != 0 {
                t[i] |= 1 << (16 * s);
            }
            s += 1;
        }
        i += 1;
    }
    t
};

/// Candidate melds that fit on the stack; hands with more go to the heap.
const STACK_MELDS: usize = 64;

/// Fills `ms`/`vs` with every meld inside `hand` and its value, sorted by lowest card.
/// `None` when they are too small.
fn candidates(rules: &MeldRules, hand: u64, ms: &mut [u64], vs: &mut [u32]) -> Option<usize> {
    let cap = ms.len().min(vs.len());
    let mut n = 0;
    let mut push = |m: u64, v: u32| {
        if n == cap {
            return None;
        }
        ms[n] = m;
        vs[n] = v;
        n += 1;
        Some(())
    };
    let lanes = lanes(hand);

    let set_lo = u32::from(rules.set_min).max(1);
    let set_hi = u32::from(rules.set_max).min(4);
    if set_lo <= set_hi {
        let mut ranks = count_at_least(set_lo, lanes);
        while ranks != 0 {
            let r = ranks.trailing_zeros();
            ranks &= ranks - 1;
            let v = u32::from(rules.values[r as usize]);
            // The suits holding rank r, as four bits; then each subset of them of a set's size.
            let suits = (0..4).fold(0, |q, s| q | ((lanes[s] >> r) & 1) << s);
            for sub in 1..16usize {
                let k = SUBSET_LEN[sub];
                if sub & !suits as usize == 0 && (set_lo..=set_hi).contains(&k) {
                    push(SUBSET_CARDS[sub] << r, v * k)?;
                }
            }
        }
    }

    let run_lo = u32::from(rules.run_min).max(1);
    if run_lo <= 13 {
        let shape = Shape::of(rules);
        for (s, &lane) in lanes.iter().enumerate() {
            // Runs are windows of an extended lane: `e` lists the ranks in run order.
            let (e, starts_mask) = match shape {
                Shape::Low => (lane, LANE),
                Shape::High => (ace_above_king(lane), LANE),
                Shape::Both => (lane | ((lane & 1) << 13), 0x3fff),
                Shape::Wrap => (lane | (lane << 13), LANE),
            };
            let mut starts = e;
            for _ in 1..run_lo {
                starts &= starts >> 1;
            }
            starts &= starts_mask;
            while starts != 0 {
                let p = starts.trailing_zeros();
                starts &= starts - 1;
                let longest = (!(e >> p)).trailing_zeros().min(13);
                let mut v = 0;
                for l in 1..=longest {
                    let q = p + l - 1;
                    let rank = match shape {
                        Shape::Low => q,
                        Shape::High => (q + 1) % 13,
                        Shape::Both | Shape::Wrap => q % 13,
                    };
                    v += u32::from(rules.values[rank as usize]);
                    // A whole suit is one meld however it is entered.
                    if l < run_lo || (l == 13 && p != 0) {
                        continue;
                    }
                    let w = ((1u32 << l) - 1) << p;
                    let cards = match shape {
                        Shape::Low => w,
                        Shape::High => ((w << 1) | (w >> 12)) & LANE,
                        Shape::Both | Shape::Wrap => (w | (w >> 13)) & LANE,
                    };
                    push(u64::from(cards) << (16 * s), v)?;
                }
            }
        }
    }

    // Stable insertion sort by lowest card.
    for i in 1..n {
        let (m, v) = (ms[i], vs[i]);
        let key = m.trailing_zeros();
        let mut j = i;
        while j > 0 && ms[j - 1].trailing_zeros() > key {
            ms[j] = ms[j - 1];
            vs[j] = vs[j - 1];
            j -= 1;
        }
        ms[j] = m;
        vs[j] = v;
    }
    Some(n)
}

/// Runs `f` on the candidate melds of `hand` (sorted by lowest card, with their values).
fn with_candidates<R>(rules: &MeldRules, hand: u64, f: impl FnOnce(&[u64], &[u32]) -> R) -> R {
    let mut ms = [0u64; STACK_MELDS];
    let mut vs = [0u32; STACK_MELDS];
    if let Some(n) = candidates(rules, hand, &mut ms, &mut vs) {
        return f(&ms[..n], &vs[..n]);
    }
    let mut cap = 4 * STACK_MELDS;
    loop {
        let mut ms = vec![0u64; cap];
        let mut vs = vec![0u32; cap];
        if let Some(n) = candidates(rules, hand, &mut ms, &mut vs) {
            return f(&ms[..n], &vs[..n]);
        }
        cap *= 2;
    }
}

/// The index of the first meld at or after `i` inside `avail`, and the end of the run of melds
/// sharing its lowest card.
fn next_group(ms: &[u64], mut i: usize, avail: u64) -> Option<(usize, usize, u64)> {
    while i < ms.len() && ms[i] & !avail != 0 {
        i += 1;
    }
    let low = ms.get(i).map(|m| m & m.wrapping_neg())?;
    let mut end = i + 1;
    while end < ms.len() && ms[end] & ms[end].wrapping_neg() == low {
        end += 1;
    }
    Some((i, end, low))
}

/// What a branch-and-bound search remembers of the best packing so far.
trait Best {
    fn value(&self) -> u32;
    fn improve(&mut self, melded: u32);
    /// The search enters (`Some(meld index)`) and leaves (`None`) a meld.
    fn step(&mut self, _meld: Option<usize>) {}
}

/// Only the most value melded.
struct BestValue(u32);

impl Best for BestValue {
    fn value(&self) -> u32 {
        self.0
    }
    fn improve(&mut self, melded: u32) {
        self.0 = melded;
    }
}

/// The most value melded and the melds (indices) that meld it.
#[derive(Default)]
struct BestPath {
    value: u32,
    path: Vec<usize>,
    current: Vec<usize>,
}

impl Best for BestPath {
    fn value(&self) -> u32 {
        self.value
    }
    fn improve(&mut self, melded: u32) {
        self.value = melded;
        self.path.clone_from(&self.current);
    }
    fn step(&mut self, meld: Option<usize>) {
        match meld {
            Some(j) => self.current.push(j),
            None => {
                self.current.pop();
            }
        }
    }
}

/// Searches the packings of the melds `ms[i..]` inside `avail` (whose cards are worth `rest`) for
/// more melded value than `best` holds.
#[allow(clippy::too_many_arguments)]
fn most_melded(
    rules: &MeldRules,
    ms: &[u64],
    vs: &[u32],
    i: usize,
    avail: u64,
    rest: u32,
    melded: u32,
    best: &mut impl Best,
) {
    if melded + rest <= best.value() {
        return;
    }
    let Some((i, end, low)) = next_group(ms, i, avail) else {
        if melded > best.value() {
            best.improve(melded);
        }
        return;
    };
    for j in i..end {
        if ms[j] & !avail == 0 {
            best.step(Some(j));
            let (a, r, m) = (avail & !ms[j], rest - vs[j], melded + vs[j]);
            most_melded(rules, ms, vs, end, a, r, m, best);
            best.step(None);
        }
    }
    let r = rest - value_of(rules, low);
    most_melded(rules, ms, vs, end, avail & !low, r, melded, best);
}

/// Runs the branch-and-bound search over all of `hand`.
fn search_best(rules: &MeldRules, ms: &[u64], vs: &[u32], hand: u64, best: &mut impl Best) {
    let meldable = ms.iter().fold(0, |a, m| a | m) & hand;
    most_melded(
        rules,
        ms,
        vs,
        0,
        meldable,
        value_of(rules, meldable),
        0,
        best,
    );
}

/// What `analyze_discards` learns: by card bit, the most value melded by a packing that leaves
/// the card out; and whether some packing covers the whole hand.
struct Discards {
    kept: [u32; 64],
    hand: u64,
    big_gin: bool,
}

/// Visits every packing of `ms[i..]` inside `avail` and returns the most value any of them melds.
/// A card left out at a node is left out by every packing below it, so it takes their best at once.
fn discard_search(
    ms: &[u64],
    vs: &[u32],
    i: usize,
    avail: u64,
    cover: u64,
    melded: u32,
    st: &mut Discards,
) -> u32 {
    let Some((i, end, low)) = next_group(ms, i, avail) else {
        st.big_gin |= cover == st.hand;
        let mut left = avail;
        while left != 0 {
            let b = left.trailing_zeros() as usize;
            left &= left - 1;
            st.kept[b] = st.kept[b].max(melded);
        }
        return melded;
    };
    let without = discard_search(ms, vs, end, avail & !low, cover, melded, st);
    let b = low.trailing_zeros() as usize;
    st.kept[b] = st.kept[b].max(without);
    let mut best = without;
    for j in i..end {
        if ms[j] & !avail == 0 {
            let (a, c, m) = (avail & !ms[j], cover | ms[j], melded + vs[j]);
            best = best.max(discard_search(ms, vs, end, a, c, m, st));
        }
    }
    best
}

/// Least deadwood of a hand of 0..=11 cards.
pub fn least_deadwood(rules: &MeldRules, hand: CardSet) -> u32 {
    if needs_wild_solver(rules, hand) {
        return wild::least_deadwood(rules, hand.0 & CardSet::ALL.0);
    }
    let h = hand.0 & CardSet::FULL.0;
    let total = value_of(rules, h);
    total
        - with_candidates(rules, h, |ms, vs| {
            let mut best = BestValue(0);
            search_best(rules, ms, vs, h, &mut best);
            best.0
        })
}

/// One arrangement with the least deadwood (0..=11 cards). Deterministic.
pub fn best_arrangement(rules: &MeldRules, hand: CardSet) -> Arrangement {
    if needs_wild_solver(rules, hand) {
        return wild::best_arrangement(rules, hand.0 & CardSet::ALL.0);
    }
    let h = hand.0 & CardSet::FULL.0;
    let melds = with_candidates(rules, h, |ms, vs| {
        let mut best = BestPath::default();
        search_best(rules, ms, vs, h, &mut best);
        best.path
            .iter()
            .map(|&j| CardSet(ms[j]))
            .collect::<Vec<_>>()
    });
    Arrangement::of(rules, h, melds)
}

/// One search over the packings of hand `h`: for each card, the most value the melds can keep
/// without it.
fn search_discards(rules: &MeldRules, h: u64) -> Discards {
    let mut st = Discards {
        kept: [0; 64],
        hand: h,
        big_gin: false,
    };
    with_candidates(rules, h, |ms, vs| {
        let meldable = ms.iter().fold(0, |a, m| a | m) & h;
        let most = discard_search(ms, vs, 0, meldable, 0, 0, &mut st);
        let mut never = h & !meldable;
        while never != 0 {
            st.kept[never.trailing_zeros() as usize] = most;
            never &= never - 1;
        }
    });
    st
}

/// For every card of a hand after drawing, the least deadwood left by discarding it; exact, from
/// one search over the hand's packings.
pub fn analyze_discards(rules: &MeldRules, hand: CardSet) -> DiscardAnalysis {
    if needs_wild_solver(rules, hand) {
        return wild_discards(rules, hand);
    }
    let h = hand.0 & CardSet::FULL.0;
    let total = value_of(rules, h);
    let st = search_discards(rules, h);
    let (kept, big_gin) = (st.kept, st.big_gin);
    let mut after_discard = Vec::with_capacity(h.count_ones() as usize);
    for c in CardSet(h) {
        let b = c.bit();
        after_discard.push((c, total - value_of(rules, 1 << b) - kept[b as usize]));
    }
    let best = after_discard.iter().map(|&(_, d)| d).min().unwrap_or(0);
    DiscardAnalysis {
        after_discard,
        best,
        big_gin: big_gin && h != 0,
    }
}

/// [`analyze_discards`] for a hand with wild cards: one search per discard (wild cards of one
/// value leave the same hand, so one search serves them all).
fn wild_discards(rules: &MeldRules, hand: CardSet) -> DiscardAnalysis {
    let hand = CardSet(hand.0 & CardSet::ALL.0);
    let wild = CardSet(rules.wild_bits() | CardSet::JOKERS.0);
    let mut by_wild_value: Vec<(u32, u32)> = Vec::new();
    let mut after_discard = Vec::with_capacity(hand.len() as usize);
    for c in hand {
        let d = if wild.contains(c) {
            let v = rules.value(c);
            match by_wild_value.iter().find(|(wv, _)| *wv == v) {
                Some(&(_, d)) => d,
                None => {
                    let d = least_deadwood(rules, hand.without(c));
                    by_wild_value.push((v, d));
                    d
                }
            }
        } else {
            least_deadwood(rules, hand.without(c))
        };
        after_discard.push((c, d));
    }
    let best = after_discard.iter().map(|&(_, d)| d).min().unwrap_or(0);
    DiscardAnalysis {
        after_discard,
        best,
        big_gin: !hand.is_empty() && least_deadwood(rules, hand) == 0,
    }
}

/// The least deadwood left by discarding one card of `hand`: the `best` of [`analyze_discards`],
/// without listing every discard.
pub fn best_after_discard(rules: &MeldRules, hand: CardSet) -> u32 {
    if needs_wild_solver(rules, hand) {
        return wild_discards(rules, hand).best;
    }
    let h = hand.0 & CardSet::FULL.0;
    let total = value_of(rules, h);
    let st = search_discards(rules, h);
    CardSet(h)
        .iter()
        .map(|c| total - value_of(rules, 1 << c.bit()) - st.kept[c.bit() as usize])
        .min()
        .unwrap_or(0)
}

/// What an 11-card hand can go out with: the discards that leave at most `limit` deadwood, those
/// that leave none, and whether all eleven cards meld.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoingOut {
    pub within: CardSet,
    pub gin: CardSet,
    pub big_gin: bool,
}

/// Every card of `hand` that belongs to some meld inside `hand`.
fn meldable(rules: &MeldRules, hand: u64) -> u64 {
    let lanes = lanes(hand);
    let mut out = 0u64;
    let set_lo = u32::from(rules.set_min).max(1);
    if set_lo <= u32::from(rules.set_max).min(4) {
        let ranks = u64::from(count_at_least(set_lo, lanes));
        out |= ranks * RANK_BITS;
    }
    let run_lo = u32::from(rules.run_min).max(1);
    if run_lo <= 13 {
        let shape = Shape::of(rules);
        for (s, &lane) in lanes.iter().enumerate() {
            let e = match shape {
                Shape::Low => lane,
                Shape::High => ace_above_king(lane),
                Shape::Both => lane | ((lane & 1) << 13),
                Shape::Wrap => lane | (lane << 13),
            };
            let mut starts = e;
            for _ in 1..run_lo {
                starts &= starts >> 1;
            }
            let mut covered = starts;
            for _ in 1..run_lo {
                covered |= covered << 1;
            }
            let cards = match shape {
                Shape::Low => covered,
                Shape::High => (covered << 1) | (covered >> 12),
                Shape::Both | Shape::Wrap => covered | (covered >> 13),
            } & LANE;
            out |= u64::from(cards) << (16 * s);
        }
    }
    out & hand
}

/// [`GoingOut`] for `hand`: exact. A hand whose never-meldable cards are worth more than `limit`
/// after its highest one is discarded cannot go out, which settles most hands without a search.
pub fn going_out(rules: &MeldRules, hand: CardSet, limit: u32) -> GoingOut {
    let h = hand.0 & CardSet::FULL.0;
    let mut never = if needs_wild_solver(rules, hand) {
        0
    } else {
        h & !meldable(rules, h)
    };
    let mut floor = 0;
    let mut highest = 0;
    while never != 0 {
        let rank = (never.trailing_zeros() % 16) as usize;
        never &= never - 1;
        let v = u32::from(rules.values.get(rank).copied().unwrap_or(0));
        floor += v;
        highest = highest.max(v);
        // What is left after the highest discard only grows as cards are added.
        if floor - highest > limit {
            return GoingOut::default();
        }
    }
    let analysis = analyze_discards(rules, hand);
    let mut out = GoingOut {
        big_gin: analysis.big_gin,
        ..GoingOut::default()
    };
    for (card, deadwood) in analysis.after_discard {
        if deadwood <= limit {
            out.within.insert(card);
        }
        if deadwood == 0 {
            out.gin.insert(card);
        }
    }
    out
}

/// A player-supplied arrangement: each meld must be a real meld, melds disjoint, all cards from `hand`;
/// the hand's other cards are unmelded.
pub fn check_arrangement(
    rules: &MeldRules,
    hand: CardSet,
    melds: &[Vec<Card>],
) -> Result<Arrangement, MeldError> {
    let mut used = CardSet::EMPTY;
    let mut sets = Vec::with_capacity(melds.len());
    for meld in melds {
        if meld.is_empty() {
            return Err(MeldError::EmptyMeld);
        }
        let mut set = CardSet::EMPTY;
        for &c in meld {
            let c = hand.minus(used).minus(set).resolve(c);
            if !hand.contains(c) {
                return Err(MeldError::NotInHand(c));
            }
            if used.contains(c) {
                return Err(MeldError::InTwoMelds(c));
            }
            if !set.insert(c) {
                return Err(MeldError::ListedTwice(c));
            }
        }
        if !is_meld(rules, set) {
            return Err(MeldError::NotAMeld(meld.clone()));
        }
        used = used.union(set);
        sets.push(set);
    }
    let unmelded = hand.minus(used);
    Ok(Arrangement {
        melds: sets,
        unmelded,
        deadwood: rules.value_of(unmelded),
    })
}

/// Every set of defender cards that can be laid off onto `meld`, one card at a time, each step a meld;
/// with the order of the cards. The first is the empty lay-off.
fn extensions(rules: &MeldRules, meld: u64, defender: u64) -> Vec<(u64, Vec<Card>)> {
    let mut found: Vec<(u64, Vec<Card>)> = vec![(0, Vec::new())];
    if meld == 0 {
        return found;
    }
    let wild = rules.wild_bits();
    let nat = meld & !wild & CardSet::FULL.0;
    let low = nat.trailing_zeros();
    let (suit, rank) = (low / 16, low % 16);
    let mates = if nat == 0 {
        0
    } else {
        (RANK_BITS << rank) | (u64::from(LANE) << (16 * suit))
    };
    let cands = defender & (mates | wild) & !meld;
    let mut next = 0;
    while next < found.len() {
        let (added, order) = found[next].clone();
        next += 1;
        for c in CardSet(cands & !added) {
            let grown = added | CardSet::single(c).0;
            if found.iter().all(|(a, _)| *a != grown) && is_meld(rules, CardSet(meld | grown)) {
                let mut o = order.clone();
                o.push(c);
                found.push((grown, o));
            }
        }
    }
    found
}

/// The lay-offs and own melds that leave the defender the least deadwood
/// (ties: fewest lay-offs, then the first found).
pub fn best_lay_off(rules: &MeldRules, knocker_melds: &[CardSet], defender: CardSet) -> LayOffPlan {
    let d = apart_jokers(knocker_melds, defender).0 & CardSet::ALL.0;
    let options: Vec<Vec<(u64, Vec<Card>)>> = knocker_melds
        .iter()
        .map(|m| extensions(rules, m.0, d))
        .collect();
    let mut choice = vec![0usize; options.len()];
    let mut best: Option<((u32, u32), Vec<usize>)> = None;
    search_lay_offs(rules, &options, d, 0, 0, &mut choice, &mut best);
    let chosen = best
        .map(|(_, c)| c)
        .unwrap_or_else(|| vec![0; options.len()]);
    let mut lay_offs = Vec::new();
    let mut extended = Vec::with_capacity(knocker_melds.len());
    let mut laid = 0u64;
    for (onto, (opts, &k)) in options.iter().zip(&chosen).enumerate() {
        let (added, order) = &opts[k];
        laid |= added;
        extended.push(CardSet(knocker_melds[onto].0 | added));
        lay_offs.extend(order.iter().map(|&card| LayOff { card, onto }));
    }
    LayOffPlan {
        lay_offs,
        extended,
        own: best_arrangement(rules, CardSet(d & !laid)),
    }
}

/// `defender` with a joker the knocker's melds also name renamed as the other joker (the two
/// are alike, and each side names its own from the first).
fn apart_jokers(knocker_melds: &[CardSet], defender: CardSet) -> CardSet {
    let theirs = knocker_melds
        .iter()
        .fold(CardSet::EMPTY, |a, m| a.union(*m))
        .intersect(CardSet::JOKERS);
    let clash = defender.intersect(theirs);
    let free = CardSet::JOKERS.minus(theirs).minus(defender);
    if clash.is_empty() || free.len() < clash.len() {
        return defender;
    }
    defender.minus(clash).union(free)
}

fn search_lay_offs(
    rules: &MeldRules,
    options: &[Vec<(u64, Vec<Card>)>],
    defender: u64,
    i: usize,
    used: u64,
    choice: &mut Vec<usize>,
    best: &mut Option<((u32, u32), Vec<usize>)>,
) {
    if i == options.len() {
        let key = (
            least_deadwood(rules, CardSet(defender & !used)),
            used.count_ones(),
        );
        if best.as_ref().is_none_or(|(b, _)| key < *b) {
            *best = Some((key, choice.clone()));
        }
        return;
    }
    for (k, (added, _)) in options[i].iter().enumerate() {
        if added & used == 0 {
            choice[i] = k;
            search_lay_offs(rules, options, defender, i + 1, used | added, choice, best);
        }
    }
    choice[i] = 0;
}

/// Whether `card` may be laid off onto `meld`: never onto nothing, since that would make a new meld.
fn fits(rules: &MeldRules, meld: CardSet, card: Card) -> bool {
    let card = meld.free(card);
    !meld.is_empty() && !meld.contains(card) && is_meld(rules, meld.with(card))
}

/// Applies the defender's lay-offs in the given order; `onto: None` is allowed when exactly one meld
/// fits that card at that point. Then arranges the rest best.
pub fn apply_lay_offs(
    rules: &MeldRules,
    knocker_melds: &[CardSet],
    defender: CardSet,
    lay_offs: &[(Card, Option<usize>)],
) -> Result<LayOffPlan, MeldError> {
    let mut extended = knocker_melds.to_vec();
    let mut laid = CardSet::EMPTY;
    let mut done = Vec::with_capacity(lay_offs.len());
    for &(card, onto) in lay_offs {
        let card = defender.minus(laid).resolve(card);
        if laid.contains(card) {
            return Err(MeldError::LaidOffTwice(card));
        }
        if !defender.contains(card) {
            return Err(MeldError::NotInHand(card));
        }
        let onto = match onto {
            Some(i) => {
                let meld = *extended.get(i).ok_or(MeldError::NoSuchMeld(i))?;
                if !fits(rules, meld, card) {
                    return Err(MeldError::DoesNotFit {
                        card,
                        onto: i,
                        meld: meld_cards(rules, meld),
                    });
                }
                i
            }
            None => {
                let mut fitting = extended
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| fits(rules, **m, card))
                    .map(|(i, _)| i);
                match (fitting.next(), fitting.next()) {
                    (Some(i), None) => i,
                    (None, _) => return Err(MeldError::FitsNowhere(card)),
                    (Some(_), Some(_)) => return Err(MeldError::FitsSeveral(card)),
                }
            }
        };
        extended[onto].put(card);
        laid.insert(card);
        done.push(LayOff { card, onto });
    }
    Ok(LayOffPlan {
        lay_offs: done,
        extended,
        own: best_arrangement(rules, defender.minus(laid)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{parse_cards, set};
    use proptest::prelude::*;

    fn std() -> MeldRules {
        MeldRules::standard()
    }

    fn with_ace(ace: AceRank, wrap: bool) -> MeldRules {
        MeldRules {
            ace,
            wrap,
            ..MeldRules::standard()
        }
    }

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn cards(s: &str) -> Vec<Card> {
        parse_cards(s).unwrap()
    }

    proptest! {
        #[test]
        fn meldable_cards_are_those_of_the_candidate_melds(
            bits in any::<u64>(),
            ace in 0..3u8,
            wrap: bool,
            run_min in 2..5u8,
            set_min in 2..5u8,
        ) {
            let rules = MeldRules {
                ace: [AceRank::Low, AceRank::High, AceRank::Both][usize::from(ace)],
                wrap,
                run_min,
                set_min,
                ..MeldRules::standard()
            };
            let hand = bits & CardSet::FULL.0;
            let via_candidates = with_candidates(&rules, hand, |ms, _| ms.iter().fold(0, |a, m| a | m));
            prop_assert_eq!(meldable(&rules, hand), via_candidates & hand);
        }
    }

    #[test]
    fn ace_low_runs_a23_but_not_qka() {
        let r = std();
        assert!(is_meld(&r, set("AS 2S 3S")));
        assert!(!is_meld(&r, set("QS KS AS")));
        assert!(!is_meld(&r, set("KS AS 2S")));
        assert_eq!(least_deadwood(&r, set("QS KS AS")), 21);
        assert_eq!(least_deadwood(&r, set("AS 2S 3S")), 0);
    }

    #[test]
    fn ace_high_both_and_round_the_corner() {
        let high = with_ace(AceRank::High, false);
        assert!(is_meld(&high, set("QS KS AS")) && !is_meld(&high, set("AS 2S 3S")));
        let both = with_ace(AceRank::Both, false);
        assert!(is_meld(&both, set("QS KS AS")) && is_meld(&both, set("AS 2S 3S")));
        assert!(!is_meld(&both, set("KS AS 2S")));
        let wrap = with_ace(AceRank::Both, true);
        assert!(is_meld(&wrap, set("KS AS 2S")) && is_meld(&wrap, set("JH QH KH AH 2H 3H")));
        assert!(!is_meld(&wrap, set("KS AS 3S")));
        let suit = CardSet::FULL.intersect(CardSet(0x1fff << 16));
        assert!(is_meld(&wrap, suit) && is_meld(&both, suit) && is_meld(&std(), suit));
        // A wrapped hand of a whole suit is one meld, not thirteen.
        assert_eq!(least_deadwood(&wrap, suit), 0);
    }

    #[test]
    fn melds_in_play_order() {
        let show = |r: &MeldRules, s: &str| cards_text(&meld_cards(r, set(s)));
        assert_eq!(show(&std(), "3S AS 2S"), "AS 2S 3S");
        assert_eq!(
            show(&with_ace(AceRank::High, false), "AS QS KS"),
            "QS KS AS"
        );
        assert_eq!(
            show(&with_ace(AceRank::Both, false), "AS QS KS"),
            "QS KS AS"
        );
        assert_eq!(
            show(&with_ace(AceRank::Both, false), "AS 3S 2S"),
            "AS 2S 3S"
        );
        let wrap = with_ace(AceRank::Both, true);
        assert_eq!(show(&wrap, "2S AS KS"), "KS AS 2S");
        assert_eq!(show(&wrap, "2S AS KS QS 3S"), "QS KS AS 2S 3S");
        assert_eq!(show(&std(), "7H 7C 7D"), "7C 7D 7H");
    }

    #[test]
    fn a_hand_that_needs_runs() {
        let a = best_arrangement(&std(), set("2C 3C 4C 5C 6C 2D 4D 6D KH KS"));
        assert_eq!(a.deadwood, 32);
        assert_eq!(a.melds, vec![set("2C 3C 4C 5C 6C")]);
    }

    #[test]
    fn a_hand_that_needs_sets() {
        let a = best_arrangement(&std(), set("7C 7D 7H 7S 2C 5D 9H JS QS KD"));
        assert_eq!(a.deadwood, 46);
        assert_eq!(a.melds, vec![set("7C 7D 7H 7S")]);
    }

    #[test]
    fn a_hand_that_needs_a_run_and_a_set_crossing() {
        // Sets of fours and sevens meld 33; the sevens and 4S 5S 6S meld 36.
        let a = best_arrangement(&std(), set("4S 5S 6S 7S 4D 7D 4C 7C KH QH"));
        assert_eq!(a.deadwood, 28);
        assert_eq!(a.unmelded, set("4C 4D KH QH"));
    }

    #[test]
    fn trap_hand_knocks_at_ten() {
        // Melding the most value first and then shedding the highest card leaves 12; the exact
        // answer melds 4S-6S and 3C-6C, discards 6D and knocks with 10.
        let hand = set("2S 4S 5S 6S 3C 4C 5C 6C 3D 6D 5H");
        let a = analyze_discards(&std(), hand);
        assert_eq!(a.best, 10);
        assert!(!a.big_gin);
        assert!(a.after_discard.contains(&(card("6D"), 10)));
        let rest = best_arrangement(&std(), hand.without(card("6D")));
        assert_eq!(rest.deadwood, 10);
        assert_eq!(rest.melds, vec![set("3C 4C 5C 6C"), set("4S 5S 6S")]);
        assert_eq!(least_deadwood(&std(), hand.without(card("6D"))), 10);
    }

    #[test]
    fn discards_are_exact_for_every_card() {
        let hand = set("AS 2S 3S 4S 7C 7D 7H 9D 9S 9H KH");
        let a = analyze_discards(&std(), hand);
        assert_eq!(a.after_discard.len(), 11);
        for &(c, d) in &a.after_discard {
            assert_eq!(d, least_deadwood(&std(), hand.without(c)), "{c}");
        }
        assert_eq!(a.best, 0);
        let big = analyze_discards(&std(), set("AS 2S 3S 4S 7C 7D 7H 9D 9S 9H 9C"));
        assert!(big.big_gin);
    }

    #[test]
    fn chained_lay_off_onto_a_run() {
        let knocker = [set("5S 6S 7S"), set("KC KD KH")];
        let plan = best_lay_off(&std(), &knocker, set("8S 9S 2D 4H"));
        let laid: Vec<(Card, usize)> = plan.lay_offs.iter().map(|l| (l.card, l.onto)).collect();
        assert_eq!(laid, vec![(card("8S"), 0), (card("9S"), 0)]);
        assert_eq!(plan.extended[0], set("5S 6S 7S 8S 9S"));
        assert_eq!(plan.own.deadwood, 6);

        // His own run 8S 9S TS melds anyway: laying it off gains nothing, but may be done.
        let defender = set("8S 9S TS 2D 4H");
        assert!(best_lay_off(&std(), &knocker, defender).lay_offs.is_empty());
        let order = [
            (card("8S"), None),
            (card("9S"), None),
            (card("TS"), Some(0)),
        ];
        let applied = apply_lay_offs(&std(), &knocker, defender, &order).unwrap();
        assert_eq!(applied.extended[0], set("5S 6S 7S 8S 9S TS"));
        assert_eq!(applied.own.deadwood, 6);
        assert_eq!(applied.own.melds, vec![]);

        let wrong = [(card("9S"), Some(0))];
        assert_eq!(
            apply_lay_offs(&std(), &knocker, defender, &wrong)
                .unwrap_err()
                .to_string(),
            "9S does not fit on meld 0 (5S 6S 7S)"
        );
    }

    #[test]
    fn defender_breaks_his_own_meld_when_that_is_better() {
        // Keeping four sevens leaves 8H; laying 7H and 8H onto 4H-6H keeps three sevens.
        let knocker = [set("4H 5H 6H")];
        let plan = best_lay_off(&std(), &knocker, set("7H 7S 7D 7C 8H KS KD"));
        assert_eq!(plan.own.deadwood, 20);
        assert_eq!(plan.own.melds, vec![set("7C 7D 7S")]);
        let laid: Vec<Card> = plan.lay_offs.iter().map(|l| l.card).collect();
        assert_eq!(laid, cards("7H 8H"));
    }

    #[test]
    fn no_lay_off_when_it_gains_nothing() {
        let knocker = [set("9C 9D 9H")];
        let plan = best_lay_off(&std(), &knocker, set("9S TS JS QS 2D"));
        assert!(plan.lay_offs.is_empty());
        assert_eq!(plan.own.deadwood, 2);
        assert_eq!(plan.extended, knocker.to_vec());
    }

    #[test]
    fn set_grows_to_its_largest_size_only() {
        let knocker = [set("9C 9D 9H")];
        let plan = best_lay_off(&std(), &knocker, set("9S 2D"));
        assert_eq!(plan.extended, vec![set("9C 9D 9H 9S")]);
        let threes = MeldRules {
            set_max: 3,
            ..std()
        };
        let plan = best_lay_off(&threes, &knocker, set("9S 2D"));
        assert!(plan.lay_offs.is_empty());
        assert_eq!(
            apply_lay_offs(&threes, &knocker, set("9S"), &[(card("9S"), Some(0))])
                .unwrap_err()
                .to_string(),
            "9S does not fit on meld 0 (9C 9D 9H)"
        );
        assert!(!is_meld(
            &std(),
            CardSet(0x0001_0001_0001_0001 << 8).with(card("8S"))
        ));
    }

    #[test]
    fn nothing_goes_below_an_ace_low_run() {
        let knocker = [set("AS 2S 3S")];
        let plan = best_lay_off(&std(), &knocker, set("KS 4S"));
        assert_eq!(plan.extended, vec![set("AS 2S 3S 4S")]);
        assert_eq!(plan.own.unmelded, set("KS"));
        assert_eq!(
            apply_lay_offs(&std(), &knocker, set("KS"), &[(card("KS"), None)])
                .unwrap_err()
                .to_string(),
            "KS does not fit on any meld"
        );
        let wrap = with_ace(AceRank::Both, true);
        let plan = best_lay_off(&wrap, &knocker, set("KS QS"));
        assert_eq!(plan.extended, vec![set("QS KS AS 2S 3S")]);
        assert_eq!(plan.lay_offs[0].card, card("KS"));
    }

    #[test]
    fn every_meld_error_in_words() {
        let r = std();
        let hand = set("5S 6S 7S 4C 5D 6C QD");
        let check = |melds: &[&str]| {
            let melds: Vec<Vec<Card>> = melds.iter().map(|m| cards(m)).collect();
            check_arrangement(&r, hand, &melds).unwrap_err().to_string()
        };
        assert_eq!(check(&["7H 8H 9H"]), "7H is not in your hand");
        assert_eq!(check(&["5S 6S 7S", "5S 5D 5C"]), "5S is in two melds");
        assert_eq!(check(&["5S 6S 6S 7S"]), "6S is listed twice in one meld");
        assert_eq!(check(&["4C 5D 6C"]), "4C 5D 6C is not a meld");
        assert_eq!(check(&[""]), "an empty list of cards is not a meld");

        let knocker = [set("5S 6S 7S"), set("QC QH QS")];
        let defender = set("8S 9H KS QD 4S");
        let lay = |offs: &[(&str, Option<usize>)]| {
            let offs: Vec<(Card, Option<usize>)> =
                offs.iter().map(|&(c, o)| (card(c), o)).collect();
            apply_lay_offs(&r, &knocker, defender, &offs)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(lay(&[("8S", Some(3))]), "there is no meld 3 to lay off on");
        assert_eq!(
            lay(&[("9H", Some(0))]),
            "9H does not fit on meld 0 (5S 6S 7S)"
        );
        assert_eq!(
            lay(&[("8S", Some(0)), ("9H", Some(0))]),
            "9H does not fit on meld 0 (5S 6S 7S 8S)"
        );
        assert_eq!(lay(&[("KS", None)]), "KS does not fit on any meld");
        assert_eq!(lay(&[("8S", None), ("8S", None)]), "8S is laid off twice");
        assert_eq!(lay(&[("7H", None)]), "7H is not in your hand");
        let both = [set("QC QH QS"), set("9D TD JD")];
        let offs = [(card("QD"), None)];
        assert_eq!(
            apply_lay_offs(&r, &both, set("QD"), &offs)
                .unwrap_err()
                .to_string(),
            "QD fits more than one meld: say which with onto"
        );
        assert!(apply_lay_offs(&r, &both, set("QD"), &[(card("QD"), Some(1))]).is_ok());
    }

    #[test]
    fn nothing_is_laid_off_onto_an_empty_meld() {
        let loose = MeldRules {
            set_min: 1,
            run_min: 1,
            ..std()
        };
        let knocker = [CardSet::EMPTY];
        assert!(
            best_lay_off(&loose, &knocker, set("5S"))
                .lay_offs
                .is_empty()
        );
        assert_eq!(
            apply_lay_offs(&loose, &knocker, set("5S"), &[(card("5S"), None)]).unwrap_err(),
            MeldError::FitsNowhere(card("5S"))
        );
    }

    #[test]
    fn check_arrangement_accepts_a_real_one() {
        let hand = set("5S 6S 7S QC QH QS 2D");
        let melds = vec![cards("7S 5S 6S"), cards("QS QH QC")];
        let a = check_arrangement(&std(), hand, &melds).unwrap();
        assert_eq!(a.melds, vec![set("5S 6S 7S"), set("QC QH QS")]);
        assert_eq!((a.unmelded, a.deadwood), (set("2D"), 2));
        let none = check_arrangement(&std(), hand, &[]).unwrap();
        assert_eq!(none.deadwood, 5 + 6 + 7 + 30 + 2);
    }

    #[test]
    fn empty_and_odd_hands() {
        let r = std();
        assert_eq!(least_deadwood(&r, CardSet::EMPTY), 0);
        assert_eq!(best_arrangement(&r, CardSet::EMPTY), Arrangement::default());
        let a = analyze_discards(&r, CardSet::EMPTY);
        assert!(a.after_discard.is_empty() && !a.big_gin && a.best == 0);
        // More cards than a hand holds still get an exact answer.
        assert_eq!(least_deadwood(&r, CardSet::FULL), 0);
        assert_eq!(
            least_deadwood(&r, set("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC KD")),
            10
        );
        let wrap_pairs = MeldRules {
            set_min: 1,
            run_min: 1,
            ..with_ace(AceRank::Both, true)
        };
        assert_eq!(
            least_deadwood(&wrap_pairs, set("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS")),
            0
        );
    }

    fn any_rules() -> impl Strategy<Value = MeldRules> {
        (
            prop_oneof![Just(AceRank::Low), Just(AceRank::High), Just(AceRank::Both)],
            any::<bool>(),
            3u8..=4,
            3u8..=4,
            prop::array::uniform13(0u8..=15),
        )
            .prop_map(|(ace, wrap, set_max, run_min, values)| MeldRules {
                set_min: 3,
                set_max,
                run_min,
                ace,
                wrap,
                values,
                wilds: None,
            })
    }

    fn any_hand() -> impl Strategy<Value = CardSet> {
        let all: Vec<Card> = Card::all().collect();
        prop::sample::subsequence(all, 0..=11).prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        #[test]
        fn best_arrangement_is_a_real_one_with_least_deadwood(rules in any_rules(), hand in any_hand()) {
            let best = best_arrangement(&rules, hand);
            prop_assert_eq!(best.deadwood, least_deadwood(&rules, hand));
            let listed: Vec<Vec<Card>> = best.melds.iter().map(|&m| meld_cards(&rules, m)).collect();
            let checked = check_arrangement(&rules, hand, &listed);
            prop_assert_eq!(checked, Ok(best.clone()));
            for m in &best.melds {
                prop_assert!(is_meld(&rules, *m));
            }
        }

        #[test]
        fn discards_agree_with_least_deadwood(rules in any_rules(), hand in any_hand()) {
            let a = analyze_discards(&rules, hand);
            for &(c, d) in &a.after_discard {
                prop_assert_eq!(d, least_deadwood(&rules, hand.without(c)));
            }
        }
    }
}
