//! `gin-rules analyze` on seeded hands, each output line checked against the brute force.

use crate::common::*;
use gin_rules::cards::Card;
use gin_rules::cli::analyze::{Summary, run_with};
use gin_rules::ruleset::MeldRules;
use serde_json::Value;

/// A card written the ways players write it: `TD`, `td`, `10d`.
fn written(i: usize, c: Card) -> String {
    let s = c.to_string();
    match i % 3 {
        0 => s,
        1 => s.to_lowercase(),
        _ => s.replacen('T', "10", 1).to_lowercase(),
    }
}

fn cards_of(v: &Value) -> Vec<Card> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().parse().unwrap())
        .collect()
}

fn check_line(rules: &MeldRules, hand: &[Card], line: &str) {
    let v: Value = serde_json::from_str(line).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    let mut expected = vec![
        "best_discards",
        "big_gin",
        "can_knock",
        "deadwood",
        "gin",
        "melds",
        "unmelded",
    ];
    let mut sorted = keys.clone();
    sorted.sort();
    expected.sort();
    assert_eq!(sorted, expected);

    let deadwood = v["deadwood"].as_u64().unwrap() as u32;
    let best_discards = cards_of(&v["best_discards"]);
    let mut brute = Brute::new(rules);
    let kept: Vec<Card> = if hand.len() == 10 {
        assert_eq!(deadwood, brute.least_deadwood(hand), "{hand:?}");
        assert!(best_discards.is_empty());
        assert_eq!(v["big_gin"], false);
        hand.to_vec()
    } else {
        let mut cards = hand.to_vec();
        cards.sort();
        let after: Vec<(Card, u32)> = cards
            .iter()
            .map(|&c| {
                let rest: Vec<Card> = cards.iter().copied().filter(|&x| x != c).collect();
                (c, brute.least_deadwood(&rest))
            })
            .collect();
        let least = after.iter().map(|a| a.1).min().unwrap();
        assert_eq!(deadwood, least, "{hand:?}");
        let best: Vec<Card> = after.iter().filter(|a| a.1 == least).map(|a| a.0).collect();
        assert_eq!(best_discards, best);
        assert_eq!(v["big_gin"], bf_all_meld(rules, hand));
        cards.into_iter().filter(|&c| c != best[0]).collect()
    };
    let mut shown: Vec<Card> = cards_of(&v["unmelded"]);
    assert_eq!(value(rules, &shown), deadwood);
    for meld in v["melds"].as_array().unwrap() {
        let meld = cards_of(meld);
        assert!(bf_is_meld(rules, &meld), "{meld:?}");
        shown.extend(meld);
    }
    shown.sort();
    let mut kept = kept;
    kept.sort();
    assert_eq!(shown, kept, "every kept card once");
    assert_eq!(v["gin"], deadwood == 0);
    assert_eq!(v["can_knock"], deadwood <= 10);
}

#[test]
fn json_lines_agree_with_brute_force() {
    let rules = MeldRules::standard();
    let mut rng = rng(5);
    let deck = deck();
    let mut input = String::new();
    let mut hands = Vec::new();
    for i in 0..4000 {
        let hand = match i % 4 {
            0 => draw(&mut rng, &deck, 10),
            1 => draw(&mut rng, &deck, 11),
            2 => dense(&mut rng, 11),
            _ => dense(&mut rng, 10),
        };
        let words: Vec<String> = hand.iter().map(|&c| written(i, c)).collect();
        input += &words.join(if i % 2 == 0 { " " } else { "  " });
        input += if i % 7 == 0 { "\r\n\n   \n" } else { "\n" };
        hands.push(hand);
    }
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let summary = run_with(input.as_bytes(), &mut out, &mut err, true, &rules, Some(10)).unwrap();
    assert_eq!(
        summary,
        Summary {
            hands: 4000,
            failed: 0
        }
    );
    assert_eq!(String::from_utf8(err).unwrap(), "");
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), hands.len());
    for (line, hand) in lines.iter().zip(&hands) {
        check_line(&rules, hand, line);
    }
}

#[test]
fn bad_lines_are_named_and_the_rest_goes_on() {
    let input: &[u8] = b"AS 2S 3S 7C 7D 7H 9D 9S KH 4C\n\
        AS 2S XX 7C 7D 7H 9D 9S KH 4C\n\
        \n\
        AS 2S 3S 7C 7D 7H 9D 9S KH AS\n\
        AS 2S 3S\n\
        AS 2S 3S 7C 7D 7H 9D 9S KH 4C \xff\n\
        2S 4S 5S 6S 3C 4C 5C 6C 3D 6D 5H";
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let rules = MeldRules::standard();
    let summary = run_with(input, &mut out, &mut err, false, &rules, Some(10)).unwrap();
    assert_eq!(
        summary,
        Summary {
            hands: 2,
            failed: 4
        }
    );
    let err = String::from_utf8(err).unwrap();
    let errs: Vec<&str> = err.lines().collect();
    assert_eq!(errs.len(), 4);
    assert!(
        errs[0].starts_with("line 2: \"XX\" is not a card"),
        "{}",
        errs[0]
    );
    assert_eq!(errs[1], "line 4: AS is listed twice");
    assert_eq!(
        errs[2],
        "line 5: a hand to analyze has 10 or 11 cards, not 3"
    );
    assert!(errs[3].starts_with("line 6: "), "{}", errs[3]);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "deadwood 32: [7C 7D 7H] [AS 2S 3S] unmelded 4C 9D KH 9S\n\
         discard 6D: deadwood 10: [3C 4C 5C 6C] [4S 5S 6S] unmelded 3D 5H 2S\n"
    );
}

#[test]
fn gin_and_big_gin_in_words() {
    let input: &[u8] = b"AS 2S 3S 4S 7C 7D 7H 9D 9S 9H KH\nAS 2S 3S 4S 7C 7D 7H 9D 9S 9H 9C\n";
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let rules = MeldRules::standard();
    run_with(input, &mut out, &mut err, false, &rules, Some(10)).unwrap();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("discard KH: deadwood 0:") && lines[0].ends_with(", gin"));
    assert!(lines[1].ends_with(", big gin"), "{}", lines[1]);
}
