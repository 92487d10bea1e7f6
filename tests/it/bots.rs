//! Bots: each level decides from its seat's view alone, and every level finishes matches of
//! every built-in ruleset and form (and an authored one) with legal actions only.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use gin_rules::bot::{self, Level};
use gin_rules::cards::{Card, CardSet};
use gin_rules::cli::play::{level_of, simulate_levels};
use gin_rules::engine::{Game, NewGame, Phase, State, shuffled_deck_with};
use gin_rules::role::Role;
use gin_rules::rules::{Catalog, Variant};
use gin_rules::ruleset::Target;
use gin_rules::seat::{Seat, TableNo};
use rand::RngExt;
use rand::seq::SliceRandom;

use crate::common::rng;
use crate::variants::variant;

/// The forms the bots must play: every built-in ruleset, each option alone, and the authored
/// example ruleset.
fn forms() -> Vec<(String, Arc<Variant>)> {
    let mut out = Vec::new();
    let catalog = Catalog::builtin();
    for info in catalog.list() {
        out.push((info.id.clone(), variant(&info.id, &[])));
        for o in &info.options {
            out.push((
                format!("{} + {}", info.id, o.id),
                variant(&info.id, &[o.id.as_str()]),
            ));
        }
    }
    let authored = Catalog::builtin()
        .check_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/round-the-corner.yaml"))
        .unwrap();
    out.push(("examples/round-the-corner.yaml".into(), authored));
    out
}

fn deal(v: &Variant, seed: u64, target: Target) -> Game<'_> {
    let game = NewGame {
        ruleset: v.reference.clone(),
        seed,
        id: None,
        target: Some(target),
        dealer: None,
        decks: vec![],
    };
    Game::deal(&v.ruleset, v.hooks.as_ref(), game).unwrap().game
}

/// `game` dealt again with every card `seat` cannot see moved at random, and its log played
/// again: the hidden part of each opponent hand and the whole stock, at every table (another
/// table's cards are all unseen, but its pile and the cards taken from it stay). Cards shown (a
/// knocker's melds, a finished hand) stay where they are. The unseen cards are permuted in the
/// first deal's decks, so that the game stays one that play reaches; so only for the first deal
/// before any reshuffle (`None` otherwise, or when the log does not play on the new decks).
fn shuffle_unseen<'v>(
    v: &'v Variant,
    g: &Game<'v>,
    seat: Seat,
    r: &mut impl rand::Rng,
) -> Option<Game<'v>> {
    if g.deal_number > 0 || g.tables.iter().any(|t| t.reshuffles > 0) {
        return None;
    }
    let log = g.log.as_ref()?;
    let mut decks = Vec::new();
    for (i, table) in g.tables.iter().enumerate() {
        let deck = match log.decks.get(i) {
            Some(d) => d.clone(),
            None => shuffled_deck_with(g.seed, 0, TableNo::new(i as u8), v.ruleset.jokers),
        };
        let mut pool: Vec<Card> = Vec::new();
        if !matches!(table.phase, Phase::Over { .. }) {
            // A knocker spreads their whole hand.
            let shown: CardSet = match &table.phase {
                Phase::LayOff { knock, .. } => table
                    .role(knock.knocker)
                    .map_or(CardSet::EMPTY, |k| table.hands[k]),
                _ => CardSet::EMPTY,
            };
            let mine = table.role(seat);
            pool.extend(table.stock.as_slice());
            for role in [Role::new(0), Role::new(1)]
                .into_iter()
                .filter(|&role| Some(role) != mine)
            {
                let fixed = table.taken[role].union(shown);
                pool.extend(table.hands[role].minus(fixed).iter());
            }
        }
        // Jokers stay where they are: a hand names its jokers from the first, so which joker of
        // the deck a player holds is not told by its bit.
        pool.retain(|c| !c.is_joker());
        let mut moved = pool.clone();
        moved.shuffle(r);
        let to: HashMap<u32, Card> = pool.into_iter().map(Card::bit).zip(moved).collect();
        decks.push(
            deck.iter()
                .map(|c| *to.get(&c.bit()).unwrap_or(c))
                .collect(),
        );
    }
    let new = NewGame {
        decks,
        ..NewGame::of_log(g)?
    };
    let mut other = Game::deal(&v.ruleset, v.hooks.as_ref(), new).ok()?.game;
    let mut events = Vec::new();
    for a in &log.actions {
        other.apply(a, &mut events).ok()?;
    }
    Some(other)
}

#[test]
fn each_level_decides_from_its_seats_view_only() {
    let mut r = rng(12);
    let (mut checked, mut moved) = (0, 0);
    for (name, v) in forms() {
        for seed in 0..3u64 {
            let mut s = deal(&v, seed, v.ruleset.match_rules.default_target);
            for _ in 0..60 {
                let Some(&seat) = s.to_act().first() else {
                    break;
                };
                let playing = s.table_of(seat).is_some();
                for level in Level::ALL {
                    let base = bot::decide_for(level, &s, seat).unwrap();
                    for _ in 0..3 {
                        let Some(other) = shuffle_unseen(&v, &s, seat, &mut r) else {
                            continue;
                        };
                        // Still a game that play reaches.
                        let other =
                            Game::from_state(&v.ruleset, v.hooks.as_ref(), other.into_state())
                                .unwrap();
                        if playing && other.tables != s.tables {
                            moved += 1;
                        }
                        let d = bot::decide_for(level, &other, seat).unwrap();
                        assert_eq!(
                            d, base,
                            "{name} seed {seed}: {level} for seat {seat} changed its mind when only cards it cannot see moved"
                        );
                        checked += 1;
                    }
                }
                // Move on with a mix of levels so that every phase comes up.
                let level = Level::ALL[r.random_range(0..3)];
                let a = bot::decide_for(level, &s, seat).unwrap().action;
                s = s.step(&a).unwrap().game;
            }
        }
    }
    assert!(checked > 3000, "{checked}");
    assert!(
        moved * 10 > checked * 9,
        "only {moved} of {checked} states hid anything"
    );
}

/// Plays one game with `levels` round the table; every action must be among the legal ones.
fn play_out(v: &Variant, seed: u64, target: Target, levels: &[Level]) -> State {
    let mut s = deal(v, seed, target);
    for _ in 0..20_000 {
        let Some(&seat) = s.to_act().first() else {
            return s.into_state();
        };
        let level = level_of(levels, seat.index(), seed);
        let d = bot::decide_for(level, &s, seat).unwrap();
        assert!(!d.why.is_empty());
        assert!(
            s.legal_actions().contains(&d.action),
            "{level} played {:?}, which is not legal",
            d.action
        );
        let seat_view = s.view(seat).unwrap();
        assert!(seat_view.legal_actions.contains(&d.action));
        s = s.step(&d.action).unwrap().game;
    }
    panic!("the game did not end in 20 000 steps");
}

#[test]
fn every_level_finishes_matches_of_every_form() {
    for (name, v) in forms() {
        let target = v.ruleset.match_rules.default_target;
        for (i, level) in Level::ALL.into_iter().enumerate() {
            // Against the other levels, seats alternated, to the default target.
            let other = Level::ALL[(i + 1) % 3];
            for seed in 0..2 {
                let s = play_out(&v, seed, target, &[level, other]);
                assert!(s.is_over(), "{name}: {level} against {other}");
            }
            // All seats at this level, one hand.
            if v.ruleset.match_rules.targets.contains(&Target::SingleHand) {
                let s = play_out(&v, 7, Target::SingleHand, &[level]);
                assert!(s.is_over(), "{name}: {level} alone");
            }
        }
    }
}

#[test]
fn strong_beats_random() {
    let v = variant("standard", &[]);
    let mut wins = 0;
    let mut strong_points = 0i64;
    let summary = simulate_levels(
        &v.ruleset,
        v.hooks.as_ref(),
        &v.reference,
        5,
        20,
        Some(Target::Points(100)),
        &[Level::Strong, Level::Random],
        |_| {},
    )
    .unwrap();
    for l in &summary.levels {
        if l.level == Level::Strong {
            wins = l.wins;
            strong_points = l.points;
        }
    }
    assert_eq!(summary.levels.len(), 2);
    assert!(wins >= 19, "strong won only {wins} of 20 against random");
    assert!(strong_points > 0);
}

#[test]
fn levels_parse_and_print() {
    for l in Level::ALL {
        assert_eq!(l.name().parse::<Level>().unwrap(), l);
        assert_eq!(serde_json::to_value(l).unwrap(), l.name());
    }
    assert!("STRONG".parse::<Level>().is_ok());
    let e = "expert".parse::<Level>().unwrap_err();
    assert!(e.to_string().contains("random, basic or strong"), "{e}");
}

#[test]
fn a_seat_between_hands_or_waiting_has_nothing_to_decide() {
    let v = variant("standard", &[]);
    let s = deal(&v, 3, Target::Points(100));
    let seat = s.to_act()[0];
    let table = &s.tables[0];
    let waiting = table.seat_after(table.role(seat).unwrap());
    for level in Level::ALL {
        assert!(bot::decide_for(level, &s, waiting).is_none());
    }
    assert!(matches!(s.tables[0].phase, Phase::UpcardOffer { .. }));
}

/// An authored ruleset: Standard with `changes` (YAML sections) under the id `house`.
fn house(changes: &str) -> Arc<Variant> {
    let yaml = format!(
        "id: house\nname: House\nsummary: Standard with house rules.\nextends: standard\n{changes}"
    );
    Catalog::builtin()
        .check(&yaml, &Default::default())
        .unwrap_or_else(|e| panic!("{e:?}"))
}

/// Views of the seat to act over a few hands of `standard`, played by `basic`: every view where
/// the seat must discard and may knock, and every draw turn.
fn standard_views() -> Vec<gin_rules::engine::SeatView> {
    let v = variant("standard", &[]);
    let mut out = Vec::new();
    for seed in 0..60u64 {
        let mut s = deal(&v, seed, Target::SingleHand);
        while let Some(&seat) = s.to_act().first() {
            let view = s.view(seat).unwrap();
            out.push(view);
            let Some(a) = bot::choose(&s, seat) else {
                break;
            };
            s = s.step(&a).unwrap().game;
        }
    }
    out
}

#[test]
fn bots_read_the_rules_from_the_ruleset_never_its_id() {
    let standard = variant("standard", &[]);
    // The same rules under another id: every level plays the same.
    let renamed = house("");
    assert_ne!(renamed.ruleset.id, standard.ruleset.id);
    let views = standard_views();
    for view in views.iter().step_by(3) {
        for level in Level::ALL {
            assert_eq!(
                bot::decide(level, &renamed.ruleset, view),
                bot::decide(level, &standard.ruleset, view),
                "{level} played otherwise under another id"
            );
        }
    }
    // The bonuses the ruleset gives weigh knocking against playing on: a costly undercut knocks
    // less than Standard, knocking that risks nothing more.
    let timid = house("scoring:\n  undercut_bonus: 100\n");
    let bold = house("scoring:\n  gin_bonus: 0\n  undercut_bonus: 0\n  tie: knocker\n");
    let may_knock: Vec<_> = views
        .iter()
        .filter(|v| {
            v.legal_actions
                .iter()
                .any(|a| matches!(a.kind, gin_rules::engine::ActionKind::Knock { .. }))
        })
        .collect();
    assert!(may_knock.len() > 40, "{} views may knock", may_knock.len());
    {
        let level = Level::Strong;
        let knocks = |rules: &gin_rules::ruleset::Ruleset| {
            may_knock
                .iter()
                .filter(|v| {
                    let d = bot::decide(level, rules, v).unwrap();
                    matches!(d.action.kind, gin_rules::engine::ActionKind::Knock { .. })
                })
                .count()
        };
        let (t, s, b) = (
            knocks(&timid.ruleset),
            knocks(&standard.ruleset),
            knocks(&bold.ruleset),
        );
        assert!(
            t < s && s < b,
            "{level} knocked {t} / {s} / {b} times of {} with a costly undercut / Standard / free knocks",
            may_knock.len()
        );
    }
    // Card values: with the court cards worth 1, a bot throws them no sooner than other cards;
    // Standard's bots throw them first.
    let cheap_courts = house("deck:\n  values: {J: 1, Q: 1, K: 1}\n");
    let discards: Vec<_> = views.iter().filter(|v| v.phase == "discard").collect();
    for level in [Level::Basic, Level::Strong] {
        let courts = |rules: &gin_rules::ruleset::Ruleset| {
            discards
                .iter()
                .filter(|v| {
                    let d = bot::decide(level, rules, v).unwrap();
                    match d.action.kind {
                        gin_rules::engine::ActionKind::Discard { card }
                        | gin_rules::engine::ActionKind::Knock { discard: card, .. } => {
                            card.rank().index() >= 10
                        }
                        _ => false,
                    }
                })
                .count()
        };
        let (cheap, dear) = (courts(&cheap_courts.ruleset), courts(&standard.ruleset));
        assert!(
            cheap * 2 < dear,
            "{level} threw a court card {cheap} times when they count 1, {dear} times in Standard"
        );
    }
}
