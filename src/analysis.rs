//! The analysis of one hand, as `POST /v1/hands/analyze` and `gin-rules analyze --json` return it.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardSet};
use crate::melds::{StandIn, analyze_discards, best_arrangement, meld_lists, stand_ins};
use crate::ruleset::MeldRules;

/// A hand of 10 cards, or of 11 after drawing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(example = json!({
    "deadwood": 4, "melds": [["5S", "6S", "7S"], ["9C", "9D", "9H"], ["JC", "QC", "KC"]],
    "unmelded": ["AD", "3H"], "gin": false, "big_gin": false, "can_knock": true,
    "best_discards": ["KD"]
}))]
pub struct HandAnalysis {
    /// 10 cards: the hand's least deadwood. 11 cards: the least deadwood left after the best discard.
    pub deadwood: u32,
    /// The melds of one arrangement with that deadwood (for 11 cards, after the first best
    /// discard), each in play order.
    pub melds: Vec<Vec<Card>>,
    /// What each wild card in those melds stands for (left out when none is wild).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wilds: Vec<StandIn>,
    /// The cards of that arrangement in no meld.
    pub unmelded: Vec<Card>,
    /// `deadwood` is 0.
    pub gin: bool,
    /// All eleven cards meld (never for 10 cards).
    pub big_gin: bool,
    /// `deadwood` is within the knock limit.
    pub can_knock: bool,
    /// 11 cards: every discard that leaves `deadwood`, in card order. 10 cards: none.
    pub best_discards: Vec<Card>,
}

/// A hand that cannot be analyzed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalyzeError {
    #[error("{0} is listed twice")]
    DuplicateCard(Card),
    #[error("a hand to analyze has {} cards, not {count}", sizes_text(held))]
    WrongCount {
        /// The cards given.
        count: usize,
        /// The hand sizes the ruleset deals (each also analyzed with one card more).
        held: Vec<u8>,
    },
    #[error("JK is not in this ruleset's deck: it plays without jokers")]
    NoJokers,
}

/// "10 or 11", or "10 or 11 (7 or 8 at a larger table)": the sizes a hand may have.
fn sizes_text(held: &[u8]) -> String {
    let mut sizes: Vec<u8> = held.to_vec();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes.dedup();
    let pair = |h: u8| format!("{h} or {}", u16::from(h) + 1);
    match sizes.split_first() {
        None => "no".to_string(),
        Some((&first, [])) => pair(first),
        Some((&first, rest)) => {
            let rest: Vec<String> = rest.iter().map(|&h| pair(h)).collect();
            format!("{} ({} at a larger table)", pair(first), rest.join(", "))
        }
    }
}

impl HandAnalysis {
    /// `knock_limit` None: knocking is not allowed (`can_knock` is false). `held`: the hand sizes
    /// the ruleset deals; a hand of one of them is analyzed as held, one card more as drawn.
    pub fn of(
        rules: &MeldRules,
        knock_limit: Option<u8>,
        held: &[u8],
        cards: &[Card],
    ) -> Result<HandAnalysis, AnalyzeError> {
        let mut hand = CardSet::EMPTY;
        for &c in cards {
            if c.is_joker() && rules.wild_bits() & CardSet::JOKERS.0 == 0 {
                return Err(AnalyzeError::NoJokers);
            }
            if !hand.insert_read(c) {
                return Err(AnalyzeError::DuplicateCard(c));
            }
        }
        let n = cards.len();
        let is_held = |n: usize| held.iter().any(|&h| usize::from(h) == n);
        let (kept, big_gin, best_discards) = match n {
            n if is_held(n) => (hand, false, Vec::new()),
            n if n > 0 && is_held(n - 1) => {
                let a = analyze_discards(rules, hand);
                let best: Vec<Card> = a
                    .after_discard
                    .iter()
                    .filter(|&&(_, d)| d == a.best)
                    .map(|&(c, _)| c)
                    .collect();
                let mut best = best;
                best.dedup(); // the two jokers are one discard
                let kept = best.first().map_or(hand, |&c| hand.without(c));
                (kept, a.big_gin, best)
            }
            count => {
                return Err(AnalyzeError::WrongCount {
                    count,
                    held: held.to_vec(),
                });
            }
        };
        let arrangement = best_arrangement(rules, kept);
        let deadwood = arrangement.deadwood;
        Ok(HandAnalysis {
            deadwood,
            melds: meld_lists(rules, &arrangement.melds),
            wilds: stand_ins(rules, &arrangement.melds),
            unmelded: arrangement.unmelded.to_vec(),
            gin: deadwood == 0,
            big_gin,
            can_knock: knock_limit.is_some_and(|k| deadwood <= u32::from(k)),
            best_discards,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn analyze(s: &str) -> Result<HandAnalysis, AnalyzeError> {
        HandAnalysis::of(
            &MeldRules::standard(),
            Some(10),
            &[10],
            &parse_cards(s).unwrap(),
        )
    }

    #[test]
    fn ten_cards() {
        let a = analyze("AS 2S 3S 7C 7D 7H 9D 9S KH 4C").unwrap();
        assert_eq!(a.deadwood, 32);
        assert_eq!(a.melds.len(), 2);
        assert!(!a.can_knock && !a.gin && !a.big_gin && a.best_discards.is_empty());
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"deadwood":32,"melds":[["7C","7D","7H"],["AS","2S","3S"]],"unmelded":["4C","9D","KH","9S"],"gin":false,"big_gin":false,"can_knock":false,"best_discards":[]}"#
        );
    }

    #[test]
    fn eleven_cards_name_every_best_discard() {
        let a = analyze("2S 4S 5S 6S 3C 4C 5C 6C 3D 6D 5H").unwrap();
        assert_eq!(a.deadwood, 10);
        assert!(a.can_knock && !a.gin);
        assert!(a.best_discards.contains(&"6D".parse().unwrap()));
        let gin = analyze("AS 2S 3S 4S 7C 7D 7H 9D 9S 9H KH").unwrap();
        assert_eq!((a.big_gin, gin.gin, gin.big_gin), (false, true, false));
        assert_eq!(gin.best_discards, parse_cards("KH").unwrap());
        let big = analyze("AS 2S 3S 4S 7C 7D 7H 9D 9S 9H 9C").unwrap();
        assert!(big.big_gin && big.gin);
    }

    #[test]
    fn no_knocking_means_no_knock() {
        let cards = parse_cards("AS 2S 3S 4S 7C 7D 7H 9D 9S 9H").unwrap();
        let a = HandAnalysis::of(&MeldRules::standard(), None, &[10], &cards).unwrap();
        assert!(a.gin && !a.can_knock);
    }

    #[test]
    fn bad_hands_are_named() {
        assert_eq!(
            analyze("AS 2S 3S 4S 7C 7D 7H 9D 9S AS")
                .unwrap_err()
                .to_string(),
            "AS is listed twice"
        );
        assert_eq!(
            analyze("AS 2S 3S").unwrap_err().to_string(),
            "a hand to analyze has 10 or 11 cards, not 3"
        );
    }
}
