//! The meld solver as it was before wild cards (commit f980e70), kept for `benches/wild.rs` to
//! measure both in one run. Not used anywhere else.
#![allow(dead_code, clippy::all)]

// Melds, the least deadwood of a hand, the discards after drawing, and lay-offs after a knock.
//
// Every answer is exact: the hand's candidate melds are enumerated as bitmasks and every packing
// of disjoint melds is visited (branch and bound where only the best value matters).

use std::fmt;

use gin_rules::cards::{Card, CardSet};
use gin_rules::ruleset::{AceRank, MeldRules};

/// One arrangement of a hand: disjoint melds and the cards left over.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Arrangement {
    pub melds: Vec<CardSet>,
    pub unmelded: CardSet,
    pub deadwood: u32,
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
    let h = hand.0 & CardSet::FULL.0;
    let melds = with_candidates(rules, h, |ms, vs| {
        let mut best = BestPath::default();
        search_best(rules, ms, vs, h, &mut best);
        best.path
            .iter()
            .map(|&j| CardSet(ms[j]))
            .collect::<Vec<_>>()
    });
    let covered = melds.iter().fold(0, |acc, m| acc | m.0);
    let unmelded = CardSet(h & !covered);
    Arrangement {
        melds,
        unmelded,
        deadwood: rules.value_of(unmelded),
    }
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

/// The least deadwood left by discarding one card of `hand`: the `best` of [`analyze_discards`],
/// without listing every discard.
pub fn best_after_discard(rules: &MeldRules, hand: CardSet) -> u32 {
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
    let mut never = h & !meldable(rules, h);
    let mut floor = 0;
    let mut highest = 0;
    while never != 0 {
        let v = value_of(rules, never & never.wrapping_neg());
        never &= never - 1;
        floor += v;
        highest = highest.max(v);
    }
    if floor - highest > limit {
        return GoingOut::default();
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
    let low = meld.trailing_zeros();
    let (suit, rank) = (low / 16, low % 16);
    let mates = (RANK_BITS << rank) | (u64::from(LANE) << (16 * suit));
    let cands = defender & mates & !meld;
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
    let d = defender.0 & CardSet::FULL.0;
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
        extended[onto].insert(card);
        laid.insert(card);
        done.push(LayOff { card, onto });
    }
    Ok(LayOffPlan {
        lay_offs: done,
        extended,
        own: best_arrangement(rules, defender.minus(laid)),
    })
}
