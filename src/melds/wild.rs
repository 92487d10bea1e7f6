//! Melds and the least deadwood of hands that hold wild cards. Exact, like the natural solver:
//! a meld with wild cards is a "core" of natural cards with the number of wild cards it needs
//! (to fill the gaps of a run, or reach the smallest set or run) and the most it can take. Every
//! packing of disjoint cores whose needs the hand's wild cards cover is visited (branch and
//! bound); the wild cards left over fill any room the chosen melds have, the most valuable
//! first, and the rest is deadwood.

use crate::cards::{Card, CardSet};
use crate::ruleset::MeldRules;

use super::{
    Arrangement, LANE, RANK_BITS, SUBSET_CARDS, SUBSET_LEN, Shape, lanes, next_group, value_of,
};

/// Natural cards that meld with wild cards.
#[derive(Clone, Copy, Debug)]
struct Core {
    cards: u64,
    value: u32,
    /// Wild cards it needs to be a meld.
    need: u32,
    /// Wild cards it can hold at most (not counting beyond the hand's).
    room: u32,
}

/// The fewest natural cards in a meld.
fn min_natural(rules: &MeldRules) -> u32 {
    rules.wilds.map_or(1, |w| u32::from(w.min_natural).max(1))
}

/// The ranks of `lane` read from rank `offset` on: bit p is rank `(p + offset) % 13`.
fn rotated(lane: u32, offset: u32) -> u32 {
    if offset == 0 {
        lane
    } else {
        ((lane >> offset) | (lane << (13 - offset))) & LANE
    }
}

fn span(x: u32) -> u32 {
    if x == 0 {
        0
    } else {
        32 - x.leading_zeros() - x.trailing_zeros()
    }
}

/// The ways `shape` reads a suit as positions of a run: a rank offset each.
fn offsets(shape: Shape) -> std::ops::Range<u32> {
    match shape {
        Shape::Low => 0..1,
        Shape::High => 1..2,
        Shape::Both => 0..2,
        Shape::Wrap => 0..13,
    }
}

/// The fewest places of a run that hold the ranks of `lane`, and the rank offset that does it.
fn run_span(shape: Shape, lane: u32) -> (u32, u32) {
    offsets(shape)
        .map(|o| (span(rotated(lane, o)), o))
        .min()
        .unwrap_or((13, 0))
}

/// Whether `bits` (with wild cards among `wild`) is a meld.
pub(super) fn is_meld(rules: &MeldRules, bits: u64, wild: u64) -> bool {
    reading(rules, bits, wild).is_some()
}

/// How a meld with wild cards reads: its cards in play order, each with the card it stands for
/// (itself, for a natural card). Sets give their wild cards the missing suits in suit order;
/// runs give theirs the gaps, then the places above, then below. `None`: not a meld.
pub(super) fn reading(rules: &MeldRules, bits: u64, wild: u64) -> Option<Vec<(Card, Card)>> {
    let nat = bits & !wild;
    if nat & !CardSet::FULL.0 != 0 {
        return None;
    }
    let wilds: Vec<Card> = CardSet(bits & wild).to_vec();
    let (n, w) = (nat.count_ones(), wilds.len() as u32);
    if n < min_natural(rules) {
        return None;
    }
    let total = n + w;
    let low = nat.trailing_zeros();
    let (suit, rank) = (low / 16, low % 16);
    if nat & !(RANK_BITS << rank) == 0
        && total >= u32::from(rules.set_min)
        && total <= u32::from(rules.set_max).min(4)
    {
        let mut stand_ins = (0..4)
            .map(|s| 16 * s + rank)
            .filter(|b| nat & (1 << b) == 0)
            .filter_map(Card::from_bit);
        let mut out: Vec<(Card, Card)> = CardSet(nat).iter().map(|c| (c, c)).collect();
        for &c in &wilds {
            out.push((c, stand_ins.next()?));
        }
        out.sort_by_key(|&(_, as_)| as_);
        return Some(out);
    }
    let lane = (nat >> (16 * suit)) as u32 & LANE;
    if nat != u64::from(lane) << (16 * suit) || total < u32::from(rules.run_min) || total > 13 {
        return None;
    }
    let (sp, offset) = run_span(Shape::of(rules), lane);
    if sp > total {
        return None;
    }
    let f = rotated(lane, offset);
    let start = f.trailing_zeros().min(13 - total);
    let mut wild_iter = wilds.into_iter();
    let mut out = Vec::with_capacity(total as usize);
    for p in start..start + total {
        let as_ = Card::from_bit(16 * suit + (p + offset) % 13)?;
        let card = if f & (1 << p) != 0 {
            as_
        } else {
            wild_iter.next()?
        };
        out.push((card, as_));
    }
    Some(out)
}

/// Every core inside the natural cards `nat`, for a hand with `k` wild cards.
fn cores(rules: &MeldRules, nat: u64, k: u32) -> Vec<Core> {
    let mut out = Vec::new();
    let min_nat = min_natural(rules);
    let lanes = lanes(nat);
    let set_lo = u32::from(rules.set_min).max(1);
    let set_hi = u32::from(rules.set_max).min(4);
    for r in 0..13u32 {
        let suits = (0..4).fold(0usize, |q, s| q | (((lanes[s] >> r) & 1) as usize) << s);
        let v = u32::from(rules.values[r as usize]);
        for sub in 1..16usize {
            let n = SUBSET_LEN[sub];
            if sub & !suits != 0 || n < min_nat || n > set_hi || set_lo > set_hi {
                continue;
            }
            let need = set_lo.saturating_sub(n);
            if need <= k {
                out.push(Core {
                    cards: SUBSET_CARDS[sub] << r,
                    value: v * n,
                    need,
                    room: (set_hi - n).min(k),
                });
            }
        }
    }
    let run_lo = u32::from(rules.run_min).max(1);
    let shape = Shape::of(rules);
    for (s, &lane) in lanes.iter().enumerate() {
        let mut sub = lane;
        while sub != 0 {
            let n = sub.count_ones();
            let len = run_span(shape, sub).0.max(run_lo);
            if n >= min_nat && len <= 13 && len - n <= k {
                let cards = u64::from(sub) << (16 * s);
                out.push(Core {
                    cards,
                    value: value_of(rules, cards),
                    need: len - n,
                    room: (13 - n).min(k),
                });
            }
            sub = (sub - 1) & lane;
        }
    }
    out.sort_by_key(|c| c.cards.trailing_zeros());
    out
}

/// A hand split into natural cards and wild cards, the wild cards most valuable first.
struct Split {
    nat: u64,
    wilds: Vec<Card>,
    /// `top[m]`: the value of the `m` most valuable wild cards.
    top: Vec<u32>,
}

fn split(rules: &MeldRules, hand: u64) -> Split {
    let wild = rules.wild_bits();
    let mut wilds = CardSet(hand & wild).to_vec();
    wilds.sort_by_key(|&c| std::cmp::Reverse(rules.value(c)));
    let mut top = vec![0];
    for &c in &wilds {
        top.push(top[top.len() - 1] + rules.value(c));
    }
    Split {
        nat: hand & !wild & CardSet::FULL.0,
        wilds,
        top,
    }
}

struct Search<'a> {
    cores: &'a [Core],
    ms: Vec<u64>,
    k: u32,
    top: &'a [u32],
    best: u32,
    path: Vec<usize>,
    best_path: Vec<usize>,
}

impl Search<'_> {
    #[allow(clippy::too_many_arguments)]
    fn go(
        &mut self,
        rules: &MeldRules,
        i: usize,
        avail: u64,
        rest: u32,
        melded: u32,
        need: u32,
        room: u32,
    ) {
        if melded + rest + self.top[self.k as usize] <= self.best {
            return;
        }
        let Some((i, end, low)) = next_group(&self.ms, i, avail) else {
            let v = melded + self.top[room.min(self.k) as usize];
            if v > self.best {
                self.best = v;
                self.best_path.clone_from(&self.path);
            }
            return;
        };
        for j in i..end {
            let c = self.cores[j];
            if c.cards & !avail == 0 && need + c.need <= self.k {
                self.path.push(j);
                let room = (room + c.room).min(self.k);
                self.go(
                    rules,
                    end,
                    avail & !c.cards,
                    rest - c.value,
                    melded + c.value,
                    need + c.need,
                    room,
                );
                self.path.pop();
            }
        }
        let r = rest - value_of(rules, low);
        self.go(rules, end, avail & !low, r, melded, need, room);
    }
}

/// The most value a hand melds, and the cores (with their wild cards) that meld it.
fn solve(rules: &MeldRules, hand: u64) -> (Split, Vec<Core>, Vec<usize>, u32) {
    let sp = split(rules, hand);
    let k = sp.wilds.len() as u32;
    let cores = cores(rules, sp.nat, k);
    let meldable = cores.iter().fold(0, |a, c| a | c.cards) & sp.nat;
    let mut s = Search {
        cores: &cores,
        ms: cores.iter().map(|c| c.cards).collect(),
        k,
        top: &sp.top,
        best: 0,
        path: Vec::new(),
        best_path: Vec::new(),
    };
    s.go(rules, 0, meldable, value_of(rules, meldable), 0, 0, 0);
    let (best, path) = (s.best, s.best_path);
    (sp, cores, path, best)
}

/// Least deadwood of a hand holding wild cards.
pub(super) fn least_deadwood(rules: &MeldRules, hand: u64) -> u32 {
    let (sp, _, _, best) = solve(rules, hand);
    value_of(rules, sp.nat) + sp.top[sp.wilds.len()] - best
}

/// One arrangement with the least deadwood of a hand holding wild cards. Deterministic.
pub(super) fn best_arrangement(rules: &MeldRules, hand: u64) -> Arrangement {
    let (sp, cores, path, _) = solve(rules, hand);
    let chosen: Vec<Core> = path.iter().map(|&j| cores[j]).collect();
    let k = sp.wilds.len() as u32;
    let room = chosen.iter().map(|c| c.room).sum::<u32>().min(k);
    // The `room` most valuable wild cards meld: each core its need first, then what room is left.
    let mut given: Vec<u32> = chosen.iter().map(|c| c.need).collect();
    let mut extra = room - given.iter().sum::<u32>();
    for (g, c) in given.iter_mut().zip(&chosen) {
        let more = (c.room - c.need).min(extra);
        *g += more;
        extra -= more;
    }
    let mut wilds = sp.wilds.iter();
    let melds: Vec<CardSet> = chosen
        .iter()
        .zip(&given)
        .map(|(c, &g)| {
            let mut m = CardSet(c.cards);
            for w in wilds.by_ref().take(g as usize) {
                m.insert(*w);
            }
            m
        })
        .collect();
    Arrangement::of(rules, hand, melds)
}
