//! Golden snapshots, stored in the top-level `snapshots/` folder: the rules table of every
//! built-in ruleset with every allowed option combination, and the scenario fixtures of
//! `tests/it/scenarios/*.yaml` replayed move by move. Review changes with `cargo insta review`.

use std::collections::BTreeMap;
use std::sync::Arc;

use gin_rules::bot;
use gin_rules::cards::{Card, CardSet, parse_cards};
use gin_rules::engine::Game as Checked;
use gin_rules::engine::{
    Action, ActionKind, Event, HandResult, NewGame, Outcome, Scores, Source, StepError,
};
use gin_rules::rules::{Catalog, RulesRow, Variant, rules_table};
use gin_rules::ruleset::{AuthoredRuleset, RulesetRef, Target};
use gin_rules::seat::{BySeat, Seat, TableNo};
use serde::{Deserialize, Serialize};

use crate::variants;
use variants::option_subsets;

/// Snapshots go to `<repo>/snapshots`, named without the test binary's module prefix.
macro_rules! golden {
    ($($body:tt)*) => {
        insta::with_settings!({
            snapshot_path => "../../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, { $($body)* })
    };
}

fn reference(id: &str, options: &[String]) -> RulesetRef {
    RulesetRef::new(id, options)
}

/// One test, rules tables first: insta's `glob!` collects the failures of any snapshot assertion
/// made while it runs, in whatever thread, so the two must not run at the same time.
#[test]
fn golden_snapshots() {
    rules::every_ruleset_and_option_combination();
    scenarios::replay_all();
}

mod rules {
    use super::*;

    #[derive(Serialize)]
    struct Table {
        ruleset: String,
        options: Vec<String>,
        rows: Vec<RulesRow>,
    }

    #[derive(Serialize)]
    struct Refusal {
        ruleset: String,
        options: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        target: Option<Target>,
        code: &'static str,
        message: String,
    }

    fn name(id: &str, options: &[String]) -> String {
        let mut n = format!("rules__{id}");
        for o in options {
            n.push('+');
            n.push_str(o);
        }
        n
    }

    pub fn every_ruleset_and_option_combination() {
        let catalog = Catalog::builtin();
        let mut refused = Vec::new();
        let mut count = 0;
        for info in catalog.list() {
            let offered: Vec<String> = info.options.iter().map(|o| o.id.clone()).collect();
            for options in option_subsets(&offered) {
                let v = match catalog.resolve(&reference(&info.id, &options)) {
                    Ok(v) => v,
                    Err(e) => {
                        refused.push(Refusal {
                            ruleset: info.id.clone(),
                            options,
                            target: None,
                            code: e.code(),
                            message: e.to_string(),
                        });
                        continue;
                    }
                };
                let table = Table {
                    ruleset: info.id.clone(),
                    options: options.clone(),
                    rows: rules_table(&v),
                };
                golden!({
                    insta::assert_yaml_snapshot!(name(&info.id, &options), table);
                });
                count += 1;
            }
        }
        assert!(count >= 16 + 8 + 2, "{count} combinations");

        // What is refused, with the reason a player reads.
        for (id, options) in [
            ("straight-gin", vec!["oklahoma"]),
            ("straight-gin", vec!["hollywood", "oklahoma"]),
            ("three-player", vec!["hollywood"]),
        ] {
            let options: Vec<String> = options.into_iter().map(String::from).collect();
            let e = catalog.resolve(&reference(id, &options)).unwrap_err();
            refused.push(Refusal {
                ruleset: id.into(),
                options,
                target: None,
                code: e.code(),
                message: e.to_string(),
            });
        }
        let options = vec!["hollywood".to_string()];
        let v = catalog.resolve(&reference("standard", &options)).unwrap();
        let e = v.check_target(Target::SingleHand).unwrap_err();
        refused.push(Refusal {
            ruleset: "standard".into(),
            options,
            target: Some(Target::SingleHand),
            code: e.code(),
            message: e.to_string(),
        });
        golden!({
            insta::assert_yaml_snapshot!("rules__refused", refused);
        });
    }
}

pub(crate) mod scenarios {
    use super::*;

    /// A fixture: a game from a fixed deal, the moves, and what must come of them.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Scenario {
        /// What the scenario shows, in words.
        about: String,
        /// A built-in ruleset's id, or the id the `authored` ruleset declares.
        ruleset: String,
        /// An authored ruleset's YAML, for a rule no built-in plays.
        authored: Option<String>,
        #[serde(default)]
        options: Vec<String>,
        /// `None`: the ruleset's default.
        target: Option<Target>,
        dealer: Seat,
        #[serde(default = "one")]
        seed: u64,
        /// The first deal (one table)...
        deck: Option<Hands>,
        /// ...or one deck per table.
        #[serde(default)]
        decks: Vec<Hands>,
        /// Wire-form actions (`seat`, `type`, fields), each optionally with `refused: "<message>"`;
        /// or `{bot: N}` (the built-in bot plays N steps), `{bot_hands: N}` (the bot plays until N
        /// more hands are over), `{draw_and_discard: N}` (N turns of drawing from the stock and
        /// discarding the card drawn).
        actions: Vec<serde_json::Value>,
        expect: Expect,
    }

    fn one() -> u64 {
        1
    }

    /// A deck as hands: the player who acts first, at a table of three or four the players after
    /// them (`middle`, in turn order), the player in the dealer's role, the upcard, the top of the
    /// stock; the rest of the stock follows in card order.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Hands {
        first: String,
        #[serde(default)]
        middle: Vec<String>,
        dealer: String,
        upcard: String,
        #[serde(default)]
        stock: String,
    }

    #[derive(Deserialize, Default)]
    #[serde(deny_unknown_fields)]
    struct Expect {
        /// The last hand's outcome and points per seat.
        outcome: Option<Outcome>,
        points: Option<BySeat<i64>>,
        /// Every hand over, in order.
        hands: Option<Vec<ExpectHand>>,
        /// Final `scores().totals`.
        totals: Option<Vec<i64>>,
        /// The match is over with these winners (`[]`: a draw).
        winners: Option<Vec<Seat>>,
        /// The dealer of every deal (every table), in order.
        dealers: Option<Vec<Seat>>,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct ExpectHand {
        outcome: Outcome,
        winner: Option<Seat>,
        points: BySeat<i64>,
    }

    fn cards(s: &str) -> Vec<Card> {
        parse_cards(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    /// The deck in the API's deal order.
    fn deck(h: &Hands) -> Vec<Card> {
        let mut hands = vec![h.first.as_str()];
        hands.extend(h.middle.iter().map(String::as_str));
        hands.push(&h.dealer);
        deck_of_table(&hands, &h.upcard, &h.stock)
    }

    /// A deck that deals `first` to the first to act and `dealer` to the dealer (ten cards
    /// each), turns `upcard`, and puts `stock` on top of the stock, the other cards under it.
    pub(crate) fn deck_of(first: &str, dealer: &str, upcard: &str, stock: &str) -> Vec<Card> {
        assert_eq!(
            (cards(first).len(), cards(dealer).len()),
            (10, 10),
            "ten cards each"
        );
        deck_of_table(&[first, dealer], upcard, stock)
    }

    /// A deck that deals `hands` in turn order (as many cards each), turns `upcard`, and puts
    /// `stock` on top of the stock, the other cards under it.
    fn deck_of_table(hands: &[&str], upcard: &str, stock: &str) -> Vec<Card> {
        let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
        let n = hands[0].len();
        assert!(hands.iter().all(|h| h.len() == n), "as many cards each");
        let mut d: Vec<Card> = (0..n)
            .flat_map(|i| hands.iter().map(move |h| h[i]))
            .collect();
        d.extend(cards(upcard));
        d.extend(cards(stock));
        gin_rules::cards::read_jokers(&mut d);
        let used: CardSet = d.iter().copied().collect();
        assert_eq!(used.len() as usize, d.len(), "a card is given twice");
        d.extend(Card::all().filter(|c| !used.contains(*c)));
        d
    }

    /// What wild cards stand for, as " (in meld 0, JK as 7S)"; nothing when none is wild.
    fn wilds_text(wilds: &[gin_rules::melds::StandIn]) -> String {
        if wilds.is_empty() {
            return String::new();
        }
        let each: Vec<String> = wilds
            .iter()
            .map(|w| format!("in meld {}, {} as {}", w.meld, w.card, w.stands_for))
            .collect();
        format!(" ({})", each.join("; "))
    }

    fn melds_text(melds: &[Vec<Card>]) -> String {
        if melds.is_empty() {
            return "none".into();
        }
        melds
            .iter()
            .map(|m| {
                m.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// A hand result as the snapshot shows it.
    #[derive(Serialize)]
    struct HandOver {
        table: TableNo,
        outcome: Outcome,
        #[serde(skip_serializing_if = "Option::is_none")]
        winner: Option<Seat>,
        points: BySeat<i64>,
        deadwood: BySeat<u32>,
        /// Per seat.
        melds: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        laid_off: Vec<String>,
        /// At a table of three or four, the score against each opponent.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        against: Vec<String>,
        multiplier: u32,
    }

    fn hand_over(r: &HandResult) -> HandOver {
        HandOver {
            table: r.table,
            outcome: r.outcome,
            winner: r.winner,
            points: r.points.clone(),
            deadwood: r.deadwood.clone(),
            melds: r.melds.iter().map(|m| melds_text(m)).collect(),
            laid_off: r
                .laid_off
                .iter()
                .map(|l| format!("{} onto meld {}", l.card, l.onto))
                .collect(),
            against: r
                .against
                .iter()
                .map(|a| {
                    let parts: Vec<String> = a
                        .parts
                        .iter()
                        .map(|p| format!("{} {}", p.name, p.points))
                        .collect();
                    match a.winner {
                        Some(w) => format!(
                            "seat {}: {}, seat {w} scores {} ({})",
                            a.seat,
                            a.outcome.as_str(),
                            a.points,
                            parts.join(", ")
                        ),
                        None => format!("seat {}: {}", a.seat, a.outcome.as_str()),
                    }
                })
                .collect(),
            multiplier: r.multiplier,
        }
    }

    /// One line of the log: a sentence, or a hand result.
    #[derive(Serialize)]
    #[serde(untagged)]
    enum Line {
        Text(String),
        HandOver { hand_over: HandOver },
    }

    fn line(e: &Event, tables: bool) -> Line {
        let at = |t: TableNo| {
            if tables {
                format!("table {t}: ")
            } else {
                String::new()
            }
        };
        Line::Text(match e {
            Event::Dealt {
                table,
                deal,
                dealer,
                seats,
                upcard,
                knock_limit,
                multiplier,
            } => format!(
                "{}deal {deal}: seat {dealer} deals, {}; upcard {upcard}; knock limit {}; multiplier {multiplier}",
                at(*table),
                match seats.as_slice() {
                    [first, other] => format!("seat {first} plays first against seat {other}"),
                    all => format!(
                        "seats {} play in turn",
                        all.iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                },
                knock_limit.map_or("none (only gin)".into(), |l| l.to_string()),
            ),
            Event::TookUpcard { table, seat, card } => {
                format!("{}seat {seat} takes the upcard {card}", at(*table))
            }
            Event::Passed { table, seat } => format!("{}seat {seat} passes", at(*table)),
            Event::Drew {
                table,
                seat,
                from,
                card,
            } => format!(
                "{}seat {seat} draws {} from the {}",
                at(*table),
                card.map_or("?".into(), |c| c.to_string()),
                match from {
                    Source::Stock => "stock",
                    Source::Discard => "discard pile",
                }
            ),
            Event::Discarded { table, seat, card } => {
                format!("{}seat {seat} discards {card}", at(*table))
            }
            Event::Reshuffled { table, cards } => format!(
                "{}the discard pile is reshuffled into a new stock of {cards} cards",
                at(*table)
            ),
            Event::Knocked {
                table,
                seat,
                discard,
                melds,
                wilds,
                deadwood,
            } => format!(
                "{}seat {seat} knocks, discarding {discard}: melds {}{}; deadwood {deadwood}",
                at(*table),
                melds_text(melds),
                wilds_text(wilds)
            ),
            Event::WentGin {
                table,
                seat,
                discard,
                melds,
                wilds,
                big_gin,
            } => format!(
                "{}seat {seat} goes {}{}: melds {}{}",
                at(*table),
                if *big_gin { "big gin" } else { "gin" },
                discard.map_or(String::new(), |c| format!(", discarding {c}")),
                melds_text(melds),
                wilds_text(wilds)
            ),
            Event::LaidOff {
                table,
                seat,
                cards,
                melds,
                wilds,
                onto_wilds,
                deadwood,
            } => format!(
                "{}seat {seat} lays off [{}]{}; own melds {}{}; deadwood {deadwood}",
                at(*table),
                cards
                    .iter()
                    .map(|l| format!("{} onto meld {}", l.card, l.onto))
                    .collect::<Vec<_>>()
                    .join(", "),
                wilds_text(onto_wilds),
                melds_text(melds),
                wilds_text(wilds)
            ),
            Event::HandOver(r) => {
                return Line::HandOver {
                    hand_over: hand_over(r),
                };
            }
            Event::Scored { entries } => {
                if entries.is_empty() {
                    "scored: nothing".into()
                } else {
                    format!(
                        "scored: {}",
                        entries
                            .iter()
                            .map(|s| format!("game {} side {} +{}", s.game, s.side, s.points))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            }
            Event::MatchOver {
                winners, totals, ..
            } => {
                format!("match over: winners {winners:?}, totals {totals:?}")
            }
        })
    }

    fn action_text(a: &Action) -> String {
        let mut v = serde_json::to_value(a).unwrap();
        if let Some(m) = v.as_object_mut() {
            m.remove("seat");
            m.remove("type");
        }
        let rest = v.to_string().replace('"', "");
        if rest == "{}" {
            format!("seat {} {}", a.seat, a.type_name())
        } else {
            format!("seat {} {} {rest}", a.seat, a.type_name())
        }
    }

    #[derive(Serialize)]
    struct Replay {
        about: String,
        ruleset: String,
        options: Vec<String>,
        target: Target,
        log: Vec<Line>,
        scores: Scores,
        #[serde(skip_serializing_if = "Option::is_none")]
        winners: Option<Vec<Seat>>,
    }

    struct Game<'a> {
        v: &'a Variant,
        state: Checked<'a>,
        events: Vec<Event>,
        log: Vec<Line>,
        tables: bool,
    }

    impl Game<'_> {
        fn record(&mut self, events: Vec<Event>) {
            for e in &events {
                self.log.push(line(e, self.tables));
            }
            self.events.extend(events);
        }

        /// A step that must be accepted; checks the state and the legal-action listing.
        fn play(&mut self, a: &Action) {
            let legal = self.state.legal_actions();
            let next = self
                .state
                .step(a)
                .unwrap_or_else(|e| panic!("{} refused: {e}", action_text(a)));
            let v = self.v;
            Checked::from_state(&v.ruleset, v.hooks.as_ref(), next.game.state().clone()).unwrap();
            if !matches!(
                a.kind,
                ActionKind::LayOff { .. }
                    | ActionKind::Knock { melds: Some(_), .. }
                    | ActionKind::Gin { melds: Some(_), .. }
            ) {
                assert!(
                    legal.contains(a),
                    "{} accepted but not listed",
                    action_text(a)
                );
            }
            self.state = next.game;
            self.tables = self.state.tables.len() > 1;
            self.record(next.events);
        }

        fn refuse(&mut self, a: &Action, message: &str) {
            let before = self.state.state().clone();
            match self.state.step(a) {
                Err(StepError::Illegal(e)) => {
                    assert_eq!(e.to_string(), message, "{}", action_text(a));
                }
                other => panic!("{} should be refused, got {other:?}", action_text(a)),
            }
            assert!(!self.state.legal_actions().contains(a));
            assert_eq!(self.state.state(), &before);
            self.log.push(Line::Text(format!(
                "refused: {}: {message}",
                action_text(a)
            )));
        }

        fn bot_step(&mut self) -> bool {
            if self.state.is_over() {
                return false;
            }
            let seat = self.state.to_act()[0];
            let a = bot::choose(&self.state, seat).expect("the bot has a move");
            self.play(&a);
            true
        }

        fn hands_over(&self) -> usize {
            self.events
                .iter()
                .filter(|e| matches!(e, Event::HandOver(_)))
                .count()
        }

        fn draw_and_discard(&mut self) {
            let seat = self.state.to_act()[0];
            self.play(&Action::new(
                seat,
                ActionKind::Draw {
                    from: Source::Stock,
                },
            ));
            let drawn = self.events.iter().rev().find_map(|e| match e {
                Event::Drew { card, .. } => *card,
                _ => None,
            });
            self.play(&Action::new(
                seat,
                ActionKind::Discard {
                    card: drawn.expect("the card drawn"),
                },
            ));
        }

        fn run(&mut self, raw: &serde_json::Value) {
            let mut m: BTreeMap<String, serde_json::Value> =
                serde_json::from_value(raw.clone()).expect("an action is a map");
            let count = |v: &serde_json::Value| v.as_u64().expect("a count") as usize;
            if let Some(n) = m.get("bot") {
                for _ in 0..count(n) {
                    if !self.bot_step() {
                        break;
                    }
                }
                return;
            }
            if let Some(n) = m.get("bot_hands") {
                let goal = self.hands_over() + count(n);
                let mut steps = 0;
                while self.hands_over() < goal && self.bot_step() {
                    steps += 1;
                    assert!(steps < 10_000, "the bot does not finish a hand");
                }
                return;
            }
            if let Some(n) = m.get("draw_and_discard") {
                for _ in 0..count(n) {
                    self.draw_and_discard();
                }
                return;
            }
            let refused = m
                .remove("refused")
                .map(|r| r.as_str().expect("refused: a message").to_string());
            let a: Action = serde_json::from_value(serde_json::to_value(&m).unwrap())
                .unwrap_or_else(|e| panic!("{raw}: {e}"));
            match refused {
                Some(message) => self.refuse(&a, &message),
                None => self.play(&a),
            }
        }
    }

    /// Notes a mismatch between what a fixture expects and what came of it.
    fn check<T: PartialEq + std::fmt::Debug>(
        failed: &mut Vec<String>,
        what: &str,
        got: T,
        want: T,
    ) {
        if got != want {
            failed.push(format!("{what}: got {got:?}, expected {want:?}"));
        }
    }

    /// The replay, and what did not come out as the fixture expects (checked after the
    /// snapshot, so that a change shows its diff first).
    fn replay(path: &std::path::Path) -> (Replay, Vec<String>) {
        let text = std::fs::read_to_string(path).unwrap();
        let s: Scenario =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let catalog = Catalog::builtin();
        let mut r = reference(&s.ruleset, &s.options);
        r.authored = s.authored.map(|yaml| {
            Arc::new(AuthoredRuleset {
                yaml,
                scripts: BTreeMap::new(),
            })
        });
        let v = catalog
            .resolve(&r)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut decks: Vec<Vec<Card>> = s.decks.iter().map(deck).collect();
        if let Some(d) = &s.deck {
            decks.insert(0, deck(d));
        }
        // The jokers a deck does not place lie at the bottom of the stock.
        for d in &mut decks {
            let placed = d.iter().filter(|c| c.is_joker()).count();
            d.extend(
                Card::JOKERS
                    .into_iter()
                    .take(usize::from(v.ruleset.jokers))
                    .skip(placed),
            );
        }
        let target = s.target.unwrap_or(v.ruleset.match_rules.default_target);
        v.check_target(target).unwrap();
        let started = Checked::deal(
            &v.ruleset,
            v.hooks.as_ref(),
            NewGame {
                ruleset: v.reference.clone(),
                seed: s.seed,
                id: None,
                target: Some(target),
                dealer: Some(s.dealer),
                decks,
            },
        )
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut game = Game {
            v: &v,
            tables: started.game.tables.len() > 1,
            state: started.game,
            events: Vec::new(),
            log: Vec::new(),
        };
        game.record(started.events);
        for a in &s.actions {
            game.run(a);
        }

        let results: Vec<&HandResult> = game
            .events
            .iter()
            .filter_map(|e| match e {
                Event::HandOver(r) => Some(&**r),
                _ => None,
            })
            .collect();
        let e = &s.expect;
        let mut failed = Vec::new();
        if let Some(outcome) = e.outcome {
            check(
                &mut failed,
                "outcome",
                results.last().map(|r| r.outcome),
                Some(outcome),
            );
        }
        if let Some(points) = &e.points {
            check(
                &mut failed,
                "points",
                results.last().map(|r| &r.points),
                Some(points),
            );
        }
        if let Some(hands) = &e.hands {
            let got: Vec<ExpectHand> = results
                .iter()
                .map(|r| ExpectHand {
                    outcome: r.outcome,
                    winner: r.winner,
                    points: r.points.clone(),
                })
                .collect();
            check(&mut failed, "hands", &got, hands);
        }
        if let Some(totals) = &e.totals {
            check(&mut failed, "totals", &game.state.scores().totals, totals);
        }
        if let Some(winners) = &e.winners {
            check(
                &mut failed,
                "winners",
                game.state.winners.as_ref(),
                Some(winners),
            );
        }
        if let Some(dealers) = &e.dealers {
            let got: Vec<Seat> = game
                .events
                .iter()
                .filter_map(|e| match e {
                    Event::Dealt { dealer, .. } => Some(*dealer),
                    _ => None,
                })
                .collect();
            check(&mut failed, "dealers", &got, dealers);
        }

        let replay = Replay {
            about: s.about.trim().to_string(),
            ruleset: s.ruleset,
            options: s.options,
            target,
            scores: game.state.scores(),
            winners: game.state.winners.clone(),
            log: game.log,
        };
        (replay, failed)
    }

    pub fn replay_all() {
        golden!({
            insta::glob!("scenarios/*.yaml", |path| {
                let (replay, failed) = replay(path);
                insta::assert_yaml_snapshot!("scenario", replay);
                assert!(
                    failed.is_empty(),
                    "{}: not as expected:\n{}",
                    path.display(),
                    failed.join("\n")
                );
            });
        });
    }
}
