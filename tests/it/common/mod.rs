//! A dead-simple brute-force meld solver that shares no code with `gin_rules::melds`, and seeded
//! hand generators.
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};

use gin_rules::cards::{Card, CardSet, Rank, Suit};
use gin_rules::ruleset::{AceRank, MeldRules};
use gin_rules::seat::Seat;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Seats by number.
pub fn seats<const N: usize>(numbers: [u8; N]) -> [Seat; N] {
    numbers.map(Seat::new)
}

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A straightforward reading of the meld rules on a list of cards.
pub fn bf_is_meld(rules: &MeldRules, cards: &[Card]) -> bool {
    let n = cards.len();
    if n == 0 {
        return false;
    }
    if cards.iter().all(|c| c.rank() == cards[0].rank())
        && n >= rules.set_min as usize
        && n <= rules.set_max as usize
    {
        return true;
    }
    if !cards.iter().all(|c| c.suit() == cards[0].suit()) || n < rules.run_min as usize {
        return false;
    }
    let ranks: Vec<usize> = cards.iter().map(|c| c.rank().index()).collect();
    let consecutive = |pos: &dyn Fn(usize) -> usize| {
        let mut p: Vec<usize> = ranks.iter().map(|&r| pos(r)).collect();
        p.sort();
        p.windows(2).all(|w| w[1] == w[0] + 1)
    };
    let low = consecutive(&|r| r + 1);
    let high = consecutive(&|r| if r == 0 { 14 } else { r + 1 });
    let round = n <= 13
        && ranks
            .iter()
            .any(|&start| (0..n).all(|k| ranks.contains(&((start + k) % 13))));
    match (rules.ace, rules.wrap) {
        (AceRank::Low, _) => low,
        (AceRank::High, _) => high,
        (AceRank::Both, false) => low || high,
        (AceRank::Both, true) => low || high || round,
    }
}

pub fn value(rules: &MeldRules, cards: &[Card]) -> u32 {
    cards
        .iter()
        .map(|c| rules.values[c.rank().index()] as u32)
        .sum()
}

/// Every meld holding the first card, with the cards left beside it.
fn first_melds(rules: &MeldRules, cards: &[Card]) -> Vec<(Vec<Card>, Vec<Card>)> {
    let Some((&first, rest)) = cards.split_first() else {
        return Vec::new();
    };
    let mates: Vec<usize> = (0..rest.len())
        .filter(|&i| rest[i].rank() == first.rank() || rest[i].suit() == first.suit())
        .collect();
    let mut out = Vec::new();
    for pick in 0u32..(1 << mates.len()) {
        let chosen: u32 = (0..mates.len())
            .filter(|k| pick & (1 << k) != 0)
            .map(|k| 1 << mates[k])
            .sum();
        let mut meld = Vec::with_capacity(rest.len() + 1);
        meld.push(first);
        meld.extend(
            (0..rest.len())
                .filter(|&i| chosen & (1 << i) != 0)
                .map(|i| rest[i]),
        );
        if bf_is_meld(rules, &meld) {
            let others = (0..rest.len())
                .filter(|&i| chosen & (1 << i) == 0)
                .map(|i| rest[i]);
            out.push((meld, others.collect()));
        }
    }
    out
}

/// The brute force with a memo of the most value melds can take out of each set of cards.
pub struct Brute<'a> {
    rules: &'a MeldRules,
    memo: HashMap<u64, u32>,
}

impl<'a> Brute<'a> {
    pub fn new(rules: &'a MeldRules) -> Brute<'a> {
        Brute {
            rules,
            memo: HashMap::new(),
        }
    }

    fn melded(&mut self, cards: &[Card]) -> u32 {
        let Some((_, rest)) = cards.split_first() else {
            return 0;
        };
        let key = cards.iter().fold(0u64, |k, c| k | 1 << c.bit());
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut best = self.melded(rest);
        for (meld, others) in first_melds(self.rules, cards) {
            best = best.max(value(self.rules, &meld) + self.melded(&others));
        }
        self.memo.insert(key, best);
        best
    }

    pub fn least_deadwood(&mut self, cards: &[Card]) -> u32 {
        value(self.rules, cards) - self.melded(cards)
    }
}

pub fn bf_least_deadwood(rules: &MeldRules, cards: &[Card]) -> u32 {
    Brute::new(rules).least_deadwood(cards)
}

/// Whether `cards` split entirely into melds.
pub fn bf_all_meld(rules: &MeldRules, cards: &[Card]) -> bool {
    cards.is_empty()
        || first_melds(rules, cards)
            .into_iter()
            .any(|(_, others)| bf_all_meld(rules, &others))
}

/// The least (deadwood, number of lay-offs) a defender can reach by laying off one card at a time.
pub fn bf_lay_off(rules: &MeldRules, melds: &[Vec<Card>], defender: &[Card]) -> (u32, usize) {
    fn go(
        rules: &MeldRules,
        melds: &mut Vec<Vec<Card>>,
        defender: &mut Vec<Card>,
        laid: usize,
        seen: &mut HashSet<Vec<Vec<Card>>>,
        brute: &mut Brute,
        best: &mut (u32, usize),
    ) {
        let mut key: Vec<Vec<Card>> = melds.clone();
        for m in &mut key {
            m.sort();
        }
        if !seen.insert(key) {
            return;
        }
        *best = (*best).min((brute.least_deadwood(defender), laid));
        for i in 0..defender.len() {
            for m in 0..melds.len() {
                let card = defender[i];
                melds[m].push(card);
                if bf_is_meld(rules, &melds[m]) {
                    defender.remove(i);
                    go(rules, melds, defender, laid + 1, seen, brute, best);
                    defender.insert(i, card);
                }
                melds[m].pop();
            }
        }
    }
    let mut best = (u32::MAX, 0);
    go(
        rules,
        &mut melds.to_vec(),
        &mut defender.to_vec(),
        0,
        &mut HashSet::new(),
        &mut Brute::new(rules),
        &mut best,
    );
    best
}

/// `n` distinct cards drawn from `pool`.
pub fn draw(rng: &mut ChaCha8Rng, pool: &[Card], n: usize) -> Vec<Card> {
    let mut cards = pool.to_vec();
    for i in 0..n {
        let j = rng.random_range(i..cards.len());
        cards.swap(i, j);
    }
    cards.truncate(n);
    cards
}

pub fn deck() -> Vec<Card> {
    Suit::ALL
        .iter()
        .flat_map(|&s| Rank::ALL.iter().map(move |&r| Card::new(r, s)))
        .collect()
}

/// The cards of `width` ranks in a row from `low` (round the corner past the king).
pub fn ranks_from(low: usize, width: usize) -> Vec<Card> {
    (0..width)
        .flat_map(|k| {
            let r = Rank::ALL[(low + k) % 13];
            Suit::ALL.iter().map(move |&s| Card::new(r, s))
        })
        .collect()
}

/// `n` cards out of five adjacent ranks (twenty cards).
pub fn dense(rng: &mut ChaCha8Rng, n: usize) -> Vec<Card> {
    let low = rng.random_range(0..13);
    draw(rng, &ranks_from(low, 5), n)
}

pub fn to_set(cards: &[Card]) -> CardSet {
    cards.iter().copied().collect()
}

/// The meld rules the cross-checks run under.
pub fn variants() -> Vec<(&'static str, MeldRules)> {
    let std = MeldRules::standard();
    vec![
        ("standard", std.clone()),
        (
            "ace high",
            MeldRules {
                ace: AceRank::High,
                ..std.clone()
            },
        ),
        (
            "ace both",
            MeldRules {
                ace: AceRank::Both,
                ..std.clone()
            },
        ),
        (
            "ace both, wrap",
            MeldRules {
                ace: AceRank::Both,
                wrap: true,
                ..std.clone()
            },
        ),
        (
            "run 4",
            MeldRules {
                run_min: 4,
                ..std.clone()
            },
        ),
        (
            "sets of 3",
            MeldRules {
                set_max: 3,
                ..std.clone()
            },
        ),
        (
            "ace 15, faces 11 12 13",
            MeldRules {
                values: [15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
                ..std.clone()
            },
        ),
        (
            "pairs and two-card runs, wrap, zero and odd values",
            MeldRules {
                set_min: 2,
                run_min: 2,
                ace: AceRank::Both,
                wrap: true,
                values: [0, 7, 3, 1, 5, 0, 9, 2, 8, 4, 6, 11, 20],
                ..std
            },
        ),
    ]
}
