//! A gin-rules bot against a port of OpenSpiel's `SimpleGinRummyBot`, in process, under
//! `scripts/openspiel-gin.yaml`: for trying changes to a bot in seconds. The measure is
//! `scripts/openspiel_lockstep.py`, against OpenSpiel's own bot in OpenSpiel's own engine; this
//! port breaks ties between equal meld arrangements its own way, so its figures come close to the
//! script's without being the same.
//!
//! ```sh
//! cargo run --release --example versus_simple -- strong 4000 1   # level, hands, seed
//! cargo run --release --example versus_simple -- strong 4000 1 reading=0   # other weights for strong
//! ```
//!
//! Each deck is played twice, the level in each seat in turn. Printed: points a hand for the
//! level (± standard error), matches to 100 (the hands added up in the order played, as the
//! script does, with a Wilson 95 % interval; and as independent deals) and where the points come
//! from: how each hand ended and, when the simple bot went out, where its last card came from (the
//! stock, the level's discard, or the first upcard).

use std::collections::BTreeMap;
use std::error::Error;
use std::path::Path;

use gin_rules::bot::{self, Level, Tuning};
use gin_rules::cards::{Card, CardSet};
use gin_rules::engine::{
    Action, ActionKind, Event, Game, GameId, HandResult, NewGame, SeatView, Source, shuffled_deck,
};
use gin_rules::melds::{self, Arrangement};
use gin_rules::rules::{Catalog, Variant};
use gin_rules::ruleset::{Ruleset, Target};
use gin_rules::seat::{Seat, TableNo};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level: Level = args.first().map_or("strong", String::as_str).parse()?;
    let hands: usize = args.get(1).map_or(Ok(2000), |s| s.parse())?;
    let seed: u64 = args.get(2).map_or(Ok(1), |s| s.parse())?;
    let tuning = Tuning::STRONG.with(args.get(3).map_or("", String::as_str))?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/openspiel-gin.yaml");
    let variant = Catalog::builtin()
        .check_file(&path)
        .map_err(|e| format!("{}: {e:?}", path.display()))?;
    let decks = hands.div_ceil(2);
    let per = decks.div_ceil(threads);
    let played = std::thread::scope(|s| -> Result<Vec<[Hand; 2]>, String> {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let (variant, tuning) = (&variant, &tuning);
                s.spawn(move || {
                    (t * per..((t + 1) * per).min(decks))
                        .map(|d| {
                            let deck = shuffled_deck(seed, d as u32, TableNo::new(0));
                            [0, 1].map(|ours| play(variant, level, tuning, &deck, ours))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut played = Vec::with_capacity(decks);
        for w in workers {
            played.extend(w.join().map_err(|_| "a thread playing hands panicked")?);
        }
        Ok(played)
    })?;
    report(level, &played.into_iter().flatten().collect::<Vec<_>>());
    Ok(())
}

/// One hand from the level's side: its points (negative when the simple bot scored) and how it
/// ended, or the error that stopped it.
type Hand = Result<(i64, String), String>;

fn play(variant: &Variant, level: Level, tuning: &Tuning, deck: &[Card], ours: u8) -> Hand {
    let rules = &variant.ruleset;
    let new = NewGame {
        ruleset: variant.reference.clone(),
        seed: 0,
        id: Some(GameId([0; 16])),
        target: Some(Target::SingleHand),
        dealer: Some(Seat::new(1)),
        decks: vec![deck.to_vec()],
    };
    let mut game = Game::deal(rules, variant.hooks.as_ref(), new)
        .map_err(|e| e.to_string())?
        .game;
    let mut result: Option<HandResult> = None;
    // Where the simple bot's last card came from: its go-outs are told apart by it.
    let mut simple_drew = "";
    while !game.is_over() {
        let seat = *game.to_act().first().ok_or("nobody is to act")?;
        let view = game.play_view(seat).ok_or("no view")?;
        let action = if seat.number() == ours && level == Level::Strong {
            bot::decide_strong(tuning, rules, &view).map(|d| d.action)
        } else if seat.number() == ours {
            bot::decide(level, rules, &view).map(|d| d.action)
        } else {
            simple(rules, &view)
        }
        .ok_or("no action")?;
        if seat.number() != ours {
            simple_drew = match action.kind {
                ActionKind::TakeUpcard => "after the upcard",
                ActionKind::Draw {
                    from: Source::Discard,
                } => "after a discard",
                ActionKind::Draw {
                    from: Source::Stock,
                } => "after the stock",
                _ => simple_drew,
            };
        }
        let stepped = game.step(&action).map_err(|e| e.to_string())?;
        for event in stepped.events {
            if let Event::HandOver(r) = event {
                result = Some(*r);
            }
        }
        game = stepped.game;
    }
    let r = result.ok_or("no hand result")?;
    let mine = r.points.iter().nth(usize::from(ours)).copied().unwrap_or(0);
    let theirs: i64 = r.points.iter().sum::<i64>() - mine;
    let outcome = r.outcome.as_str();
    let how = match r.winner {
        Some(w) if w.number() == ours => format!("level {outcome}"),
        Some(_) => format!("simple {outcome} {simple_drew}"),
        None => format!("nobody {outcome}"),
    };
    Ok((mine - theirs, how))
}

/// OpenSpiel's `SimpleGinRummyBot::Step`, read from a seat's view: take the upcard when it lets
/// the hand knock or joins a meld; knock as soon as the deadwood allows; discard the highest
/// ranked deadwood card; never lay off.
fn simple(rules: &Ruleset, view: &SeatView) -> Option<Action> {
    let legal = &view.legal_actions;
    let find = |want: &dyn Fn(&ActionKind) -> bool| legal.iter().find(|a| want(&a.kind)).cloned();
    let hand: CardSet = view.hand.iter().copied().collect();
    let limit = u32::from(view.knock_limit.unwrap_or(0));
    let take = || {
        find(&|k| {
            matches!(
                k,
                ActionKind::TakeUpcard
                    | ActionKind::Draw {
                        from: Source::Discard
                    }
            )
        })
    };
    match view.phase {
        "upcard_offer" | "draw" => {
            let leave = find(&|k| {
                matches!(
                    k,
                    ActionKind::Pass
                        | ActionKind::Draw {
                            from: Source::Stock
                        }
                )
            });
            if let (Some(up), Some(take)) = (view.discard_top, take()) {
                let best = melds::best_arrangement(&rules.melds, hand.with(up));
                let (deadwood, _) = less_highest(rules, &best);
                if deadwood <= limit || !best.unmelded.contains(up) {
                    return Some(take);
                }
            }
            leave.or_else(take)
        }
        "last_discard" => take().or_else(|| find(&|k| matches!(k, ActionKind::Pass))),
        "discard" => {
            let (deadwood, highest) =
                less_highest(rules, &melds::best_arrangement(&rules.melds, hand));
            let out = |d: Card| {
                find(&|k| match k {
                    ActionKind::Knock { discard, .. } => *discard == d,
                    ActionKind::Gin { discard, .. } => *discard == Some(d),
                    _ => false,
                })
            };
            if deadwood <= limit
                && let Some(a) = highest
                    .and_then(out)
                    .or_else(|| find(&|k| matches!(k, ActionKind::Gin { .. })))
            {
                return Some(a);
            }
            let d = highest?;
            find(&|k| matches!(k, ActionKind::Discard { card } if *card == d))
        }
        "lay_off" => find(&|k| matches!(k, ActionKind::LayOff { cards } if cards.is_empty())),
        _ => legal.first().cloned(),
    }
}

/// OpenSpiel's `MinDeadwood` of eleven cards: one best arrangement, less its highest ranked
/// deadwood card (`None` when every card melds).
fn less_highest(rules: &Ruleset, best: &Arrangement) -> (u32, Option<Card>) {
    let highest = best
        .unmelded
        .iter()
        .max_by_key(|c| (c.rank().index(), os_suit(*c)));
    let less = highest.map_or(0, |c| rules.melds.value(c));
    (best.deadwood - less, highest)
}

/// OpenSpiel orders suits S, C, D, H.
fn os_suit(c: Card) -> usize {
    "SCDH".find(c.suit().char()).unwrap_or(0)
}

fn report(level: Level, hands: &[Hand]) {
    let errors: Vec<&String> = hands.iter().filter_map(|h| h.as_ref().err()).collect();
    let ok: Vec<&(i64, String)> = hands.iter().filter_map(|h| h.as_ref().ok()).collect();
    for e in errors.iter().take(5) {
        println!("error ({} in all): {e}", errors.len());
    }
    if ok.len() < 2 {
        println!(
            "{level:?}: {} hands played to the end, too few to report",
            ok.len()
        );
        return;
    }
    let n = ok.len() as f64;
    let mean = ok.iter().map(|h| h.0 as f64).sum::<f64>() / n;
    let var = ok.iter().map(|h| (h.0 as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let (mut won, mut matches, mut a, mut b) = (0u64, 0u64, 0i64, 0i64);
    for h in &ok {
        if h.0 > 0 {
            a += h.0;
        } else {
            b -= h.0;
        }
        if a >= 100 || b >= 100 {
            matches += 1;
            won += u64::from(a >= 100);
            (a, b) = (0, 0);
        }
    }
    let [lo, hi] = gin_rules::cli::play::wilson(won, matches);
    println!(
        "{level:?}: {} hands, {:+.2} ± {:.2} a hand; matches to 100: {won} of {matches}, {:.1} % ({:.1}-{:.1} %)",
        ok.len(),
        mean,
        (var / n).sqrt(),
        100.0 * won as f64 / matches.max(1) as f64,
        100.0 * lo,
        100.0 * hi,
    );
    let points: Vec<i64> = ok.iter().map(|h| h.0).collect();
    println!(
        "  as independent deals: {:.1} % of matches to 100 (exact over these hands' points)",
        100.0 * independent_matches(&points, 100)
    );
    let mut by: BTreeMap<&str, (u64, i64)> = BTreeMap::new();
    for h in &ok {
        let e = by.entry(h.1.as_str()).or_default();
        e.0 += 1;
        e.1 += h.0;
    }
    for (outcome, (count, points)) in by {
        println!(
            "  {outcome:<32} {count:>6} hands {points:>+8} points, {:+.2} a hand",
            points as f64 / n
        );
    }
}

/// The chance that the level wins a match to `target` whose hands are dealt independently, each
/// scoring like one of `points` drawn at random: exact, over the points each side has. (The
/// figure above adds up the hands as played, each deck with one seating then the other, so a
/// deck's luck mostly cancels within a match; it does not between independent deals.)
fn independent_matches(points: &[i64], target: i64) -> f64 {
    let mut counts: BTreeMap<i64, f64> = BTreeMap::new();
    for &x in points.iter().filter(|&&x| x != 0) {
        *counts.entry(x).or_default() += 1.0;
    }
    let total: f64 = counts.values().sum();
    if total == 0.0 {
        return f64::NAN;
    }
    let steps: Vec<(bool, usize, f64)> = counts
        .iter()
        .map(|(&x, &n)| (x > 0, x.unsigned_abs() as usize, n / total))
        .collect();
    let t = target.max(1) as usize;
    // win[a * t + b]: the level has a points, the simple bot b.
    let mut win = vec![0.0; t * t];
    for a in (0..t).rev() {
        for b in (0..t).rev() {
            let mut p = 0.0;
            for &(ours, step, q) in &steps {
                if ours {
                    p += if a + step >= t {
                        q
                    } else {
                        q * win[(a + step) * t + b]
                    };
                } else if b + step < t {
                    p += q * win[a * t + b + step];
                }
            }
            win[a * t + b] = p;
        }
    }
    win[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn openspiel() -> std::sync::Arc<Variant> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/openspiel-gin.yaml");
        Catalog::builtin()
            .check_file(&path)
            .unwrap_or_else(|e| panic!("{e:?}"))
    }

    /// The port knocks as soon as it may, so against `basic` (which does too) neither side leads,
    /// and every hand it plays reaches its end.
    #[test]
    fn the_port_plays_every_hand_to_its_end_level_with_basic() {
        let variant = openspiel();
        let mut points = 0;
        for d in 0..200 {
            let deck = shuffled_deck(5, d, TableNo::new(0));
            for ours in [0, 1] {
                let hand = play(&variant, Level::Basic, &Tuning::STRONG, &deck, ours);
                points += hand.unwrap_or_else(|e| panic!("deck {d}: {e}")).0;
            }
        }
        let mean = points as f64 / 400.0;
        assert!(mean.abs() < 2.5, "basic made {mean:+.2} a hand");
    }

    /// One hand decides a match of 10 points as surely as it is won; a side that needs two wins
    /// against one needs both of its own first.
    #[test]
    fn independent_matches_count_the_wins_each_side_needs() {
        assert_eq!(independent_matches(&[10, -10, -10, 10], 10), 0.5);
        assert_eq!(independent_matches(&[5, 0, -10, 0], 10), 0.25);
        assert!(independent_matches(&[0, 0], 10).is_nan());
    }

    /// OpenSpiel's shortcut: one best arrangement of the eleven, less its highest ranked card.
    #[test]
    fn min_deadwood_drops_the_highest_ranked_deadwood_card() {
        let variant = openspiel();
        let rules = &variant.ruleset;
        let of = |cards: &str| {
            let hand = gin_rules::cards::set(cards);
            let (deadwood, highest) =
                less_highest(rules, &melds::best_arrangement(&rules.melds, hand));
            (deadwood, highest.map(|c| c.to_string()))
        };
        assert_eq!(
            of("AS 2S 3S 4C 5C 6C 7H 8H 9H 2D KD"),
            (2, Some("KD".into()))
        );
        assert_eq!(
            of("AS 2S 3S 4C 5C 6C 7H 8H 9H KS KD"),
            (10, Some("KD".into()))
        );
        assert_eq!(of("AS 2S 3S 4C 5C 6C 7H 8H 9H TH JH"), (0, None));
    }
}
