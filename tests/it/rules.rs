//! Rulesets as data: loading, errors, options, hooks and the built-ins.

use std::collections::BTreeMap;
use std::sync::Arc;

use gin_rules::cards::Card;
use gin_rules::engine::hooks::{DealInfo, HookError, Hooks};
use gin_rules::role::ByRole;
use gin_rules::rules::{Catalog, ResolveError, RulesetError, Variant};
use gin_rules::ruleset::{AceRank, Ruleset, RulesetRef, Target};
use gin_rules::seat::{BySeat, Seat, TableNo};

use crate::variants;
use variants::{option_subsets, reference};

fn resolve(id: &str, options: &[&str]) -> Result<Arc<Variant>, ResolveError> {
    Catalog::builtin().resolve(&reference(id, options))
}

fn scripts(list: &[(&str, &str)]) -> BTreeMap<String, String> {
    list.iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect()
}

/// Loads a ruleset whose hooks are called by hand in a test, without the sample games a check
/// plays (which a hook made to fail would not pass).
fn unsampled(yaml: &str, list: &[(&str, &str)]) -> Arc<Variant> {
    let mut c = Catalog::builtin();
    if let Err(e) = c.add_files(
        &[("ruleset.yaml".to_string(), yaml.to_string())],
        &scripts(list),
    ) {
        panic!("{e:#?}");
    }
    let id = yaml
        .lines()
        .find_map(|l| l.strip_prefix("id: "))
        .unwrap_or_default();
    match c.resolve(&RulesetRef::named(id.to_string())) {
        Ok(v) => v,
        Err(e) => panic!("{e:#?}"),
    }
}

/// Checks an authored ruleset that must fail and returns its errors (what a check costs is
/// measured by `benches/limits.rs`, not here: a timed test fails on a busy machine).
fn errors_of(yaml: &str, list: &[(&str, &str)]) -> Vec<RulesetError> {
    match Catalog::builtin().check(yaml, &scripts(list)) {
        Ok(v) => panic!("loaded: {v:?}"),
        Err(e) => e,
    }
}

fn one_error(yaml: &str, list: &[(&str, &str)]) -> RulesetError {
    let errors = errors_of(yaml, list);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    errors.into_iter().next().unwrap()
}

fn deal(upcard: &str) -> (Card, BySeat<i64>) {
    (upcard.parse().unwrap(), BySeat::filled(2, 0))
}

fn knock_limit(hooks: &dyn Hooks, upcard: &str) -> Result<Option<u8>, HookError> {
    let (card, totals) = deal(upcard);
    hooks.knock_limit(&DealInfo {
        upcard: card,
        dealer: Seat::new(0),
        hand_number: 0,
        totals: &totals,
        knock_limit: Some(10),
    })
}

fn multiplier(hooks: &dyn Hooks, upcard: &str) -> Result<u32, HookError> {
    let (card, totals) = deal(upcard);
    hooks.score_multiplier(&DealInfo {
        upcard: card,
        dealer: Seat::new(0),
        hand_number: 0,
        totals: &totals,
        knock_limit: Some(10),
    })
}

/// A ruleset with one hook script, for sandbox tests.
fn with_hook(script: &str) -> Arc<Variant> {
    let yaml = "id: hooked\nname: Hooked\nhooks:\n  knock_limit:\n    script: h.rhai\n";
    unsampled(yaml, &[("h.rhai", script)])
}

/// Runs the knock-limit hook of `script`, which must fail; returns the message.
fn hook_failure(script: &str) -> String {
    let v = with_hook(script);
    match knock_limit(v.hooks.as_ref(), "7H") {
        Ok(x) => panic!("hook returned {x:?}"),
        Err(e) => {
            assert_eq!(e.hook, "knock_limit");
            e.message
        }
    }
}

mod builtins {
    use super::*;

    #[test]
    fn standard_is_the_core_standard_ruleset() {
        let v = resolve("standard", &[]).unwrap();
        assert_eq!(*v.ruleset, Ruleset::standard());
        assert_eq!(v.reference, reference("standard", &[]));
        let ids: Vec<String> = v.allowed_options.iter().map(|o| o.id.clone()).collect();
        assert_eq!(
            ids,
            [
                "classic-bonuses",
                "hollywood",
                "jokers-wild",
                "oklahoma",
                "reshuffle-stock"
            ]
        );
    }

    #[test]
    fn straight_gin_forbids_knocking_and_plays_to_250() {
        let r = resolve("straight-gin", &[]).unwrap().ruleset.clone();
        assert_eq!(r.knock_limit, None);
        assert_eq!(r.match_rules.default_target, Target::Points(250));
        assert!(!r.lay_offs);
        assert_eq!(r.gin_bonus, 25);
        assert_eq!(r.big_gin_bonus, Some(31));
    }

    #[test]
    fn straight_gin_refuses_oklahoma_with_the_documented_reason() {
        let e = resolve("straight-gin", &["oklahoma"]).unwrap_err();
        match &e {
            ResolveError::IncompatibleOptions { reason, .. } => assert_eq!(
                reason,
                "Straight Gin replaces Oklahoma: both decide when you may knock"
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(e.code(), "incompatible-options");
        assert_eq!(
            e.to_string(),
            "Straight Gin replaces Oklahoma: both decide when you may knock"
        );
        let e = resolve("straight-gin", &["hollywood", "oklahoma"]).unwrap_err();
        assert_eq!(e.code(), "incompatible-options");
    }

    #[test]
    fn hollywood_refuses_a_one_hand_match() {
        for id in ["standard", "straight-gin"] {
            let v = resolve(id, &["hollywood"]).unwrap();
            let e = v.check_target(Target::SingleHand).unwrap_err();
            assert_eq!(e.code(), "incompatible-options", "{e}");
            assert!(e.to_string().contains("one-hand"), "{e}");
            assert!(v.check_target(Target::Points(100)).is_ok());
            assert!(!v.ruleset.match_rules.targets.contains(&Target::SingleHand));
            let e = v.check_target(Target::Points(150)).unwrap_err();
            assert!(matches!(e, ResolveError::TargetNotAllowed { .. }), "{e}");
        }
        let v = resolve("standard", &[]).unwrap();
        assert!(v.check_target(Target::SingleHand).is_ok());
    }

    #[test]
    fn options_change_what_they_say() {
        let r = resolve("standard", &["classic-bonuses"])
            .unwrap()
            .ruleset
            .clone();
        assert_eq!(
            (
                r.match_rules.game_bonus,
                r.match_rules.box_bonus,
                r.match_rules.shutout_multiplier
            ),
            (100, 25, 2)
        );
        let r = resolve("standard", &["reshuffle-stock"])
            .unwrap()
            .ruleset
            .clone();
        assert_eq!(r.stock_end, gin_rules::ruleset::StockEnd::Reshuffle);
        let v = resolve("standard", &["oklahoma"]).unwrap();
        assert_eq!(v.hook_points.len(), 2);
    }

    #[test]
    fn unknown_options_and_rulesets_are_named() {
        let e = resolve("standard", &["oklahma"]).unwrap_err();
        assert_eq!(e.code(), "unknown-option");
        assert!(e.to_string().contains("did you mean `oklahoma`?"), "{e}");
        let e = resolve("three-player", &["hollywood"]).unwrap_err();
        assert_eq!(e.code(), "unknown-option", "{e}");
        let e = resolve("gin-only", &[]).unwrap_err();
        assert_eq!(e, ResolveError::UnknownRuleset("gin-only".into()));
        let e = resolve("standard", &["oklahoma", "oklahoma"]).unwrap_err();
        assert_eq!(e.code(), "incompatible-options");
    }

    /// Every subset of the offered options, in every order of two.
    fn combinations(options: &[String]) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        for set in option_subsets(options) {
            if set.len() == 2 {
                out.push(vec![set[1].clone(), set[0].clone()]);
            }
            out.push(set);
        }
        out
    }

    #[test]
    fn every_builtin_and_option_combination_resolves() {
        let catalog = Catalog::builtin();
        let list = catalog.list();
        let ids: Vec<&str> = list.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "standard",
                "straight-gin",
                "three-player",
                "four-player",
                "oklahoma-three",
                "oklahoma-four"
            ]
        );
        let mut count = 0;
        for info in &list {
            let options: Vec<String> = info.options.iter().map(|o| o.id.clone()).collect();
            for combo in combinations(&options) {
                let r = RulesetRef::new(info.id.clone(), combo.clone());
                let v = catalog
                    .resolve(&r)
                    .unwrap_or_else(|e| panic!("{} {combo:?}: {e}", info.id));
                assert_eq!(v.reference, r);
                // A ninth row, wild cards, when some card is wild.
                let rows = 8 + usize::from(v.ruleset.melds.wilds.is_some());
                assert_eq!(gin_rules::rules::rules_table(&v).len(), rows);
                count += 1;
            }
        }
        assert!(count >= 16 + 8 + 2, "{count}");
    }

    #[test]
    fn resolving_again_is_a_cached_lookup() {
        let catalog = Catalog::builtin();
        let r = reference("standard", &["oklahoma", "classic-bonuses"]);
        let a = catalog.resolve(&r).unwrap();
        let b = catalog.resolve(&r).unwrap();
        assert!(
            Arc::ptr_eq(&a, &b),
            "the second resolve returns the cached variant"
        );
    }

    #[test]
    fn the_catalog_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Catalog>();
        check::<Variant>();
    }

    #[test]
    fn every_yaml_file_points_at_the_schema() {
        for dir in ["rulesets", "examples"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
            for entry in std::fs::read_dir(path).unwrap() {
                let p = entry.unwrap().path();
                if p.extension().is_some_and(|e| e == "yaml") {
                    let text = std::fs::read_to_string(&p).unwrap();
                    let first = text.lines().next().unwrap_or("");
                    assert!(
                        first.starts_with("# yaml-language-server: $schema=")
                            && first.ends_with("schema.json"),
                        "{}: {first}",
                        p.display()
                    );
                }
            }
        }
    }

    /// Regenerate with `UPDATE_SCHEMA=1 cargo test --test rules schema` (or
    /// `gin-rules schema > rulesets/schema.json`).
    #[test]
    fn schema_json_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/schema.json");
        let fresh = gin_rules::rules::schema_json();
        if std::env::var_os("UPDATE_SCHEMA").is_some() {
            std::fs::write(&path, &fresh).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "rulesets/schema.json is stale: run `UPDATE_SCHEMA=1 cargo test --test rules schema`"
        );
    }
}

mod oklahoma {
    use super::*;

    #[test]
    fn the_upcard_sets_the_knock_limit() {
        let v = resolve("standard", &["oklahoma"]).unwrap();
        let h = v.hooks.as_ref();
        assert_eq!(knock_limit(h, "7H").unwrap(), Some(7));
        assert_eq!(knock_limit(h, "2C").unwrap(), Some(2));
        assert_eq!(knock_limit(h, "TD").unwrap(), Some(10));
        for face in ["JC", "QD", "KH", "KS"] {
            assert_eq!(knock_limit(h, face).unwrap(), Some(10), "{face}");
        }
        for ace in ["AC", "AD", "AH", "AS"] {
            assert_eq!(knock_limit(h, ace).unwrap(), None, "{ace}");
        }
    }

    #[test]
    fn a_spade_upcard_doubles_the_hand() {
        let v = resolve("standard", &["oklahoma"]).unwrap();
        let h = v.hooks.as_ref();
        for card in ["AS", "7S", "KS"] {
            assert_eq!(multiplier(h, card).unwrap(), 2, "{card}");
        }
        for card in ["AC", "7D", "KH"] {
            assert_eq!(multiplier(h, card).unwrap(), 1, "{card}");
        }
    }

    #[test]
    fn without_oklahoma_the_data_decides() {
        let v = resolve("standard", &[]).unwrap();
        assert_eq!(knock_limit(v.hooks.as_ref(), "AS").unwrap(), Some(10));
        assert_eq!(multiplier(v.hooks.as_ref(), "AS").unwrap(), 1);
    }
}

mod hollywood {
    use super::*;
    use gin_rules::engine::hooks::{
        GameScore, HandOutcome, LayoutInfo, MatchLayout, RecordInfo, ScoreEntry, TableResult,
        TableSeating,
    };

    fn win(seat: u8, points: u32) -> TableResult {
        TableResult {
            table: TableNo::new(0),
            seating: TableSeating {
                dealer: Seat::new(1),
                players: ByRole::new(Seat::new(0), Seat::new(1)),
            },
            outcome: HandOutcome::Knock,
            winner: Some(Seat::new(seat)),
            loser: Some(Seat::new(1 - seat)),
            points,
            multiplier: 1,
            parts: Vec::new(),
            boxes: 1,
        }
    }

    fn game(points: [i64; 2], closed: bool) -> GameScore {
        GameScore {
            points: points.to_vec(),
            hands_won: vec![0, 0],
            boxes: vec![0, 0],
            closed,
        }
    }

    fn record(hooks: &dyn Hooks, games: &[GameScore], result: TableResult) -> Vec<(u8, u8, u32)> {
        let layout = MatchLayout::individual(2);
        let results = [result];
        let info = RecordInfo {
            hand_number: 3,
            target: Target::Points(100),
            layout: &layout,
            games,
            results: &results,
        };
        hooks
            .record_result(&info)
            .unwrap()
            .into_iter()
            .map(
                |ScoreEntry {
                     game, side, points, ..
                 }| (game, side.number(), points),
            )
            .collect()
    }

    #[test]
    fn three_games_at_once() {
        let v = resolve("standard", &["hollywood"]).unwrap();
        let layout = v
            .hooks
            .match_layout(&LayoutInfo {
                seats: 2,
                target: Target::Points(100),
            })
            .unwrap();
        assert_eq!(layout.games, 3);
        assert_eq!(layout.sides, vec![vec![Seat::new(0)], vec![Seat::new(1)]]);
    }

    #[test]
    fn wins_enter_scored_games_and_the_next_open_one() {
        let v = resolve("standard", &["hollywood"]).unwrap();
        let h = v.hooks.as_ref();
        let fresh = [
            game([0, 0], false),
            game([0, 0], false),
            game([0, 0], false),
        ];
        assert_eq!(record(h, &fresh, win(0, 12)), [(0, 0, 12)]);
        let one = [
            game([12, 0], false),
            game([0, 0], false),
            game([0, 0], false),
        ];
        assert_eq!(record(h, &one, win(0, 5)), [(0, 0, 5), (1, 0, 5)]);
        let two = [
            game([17, 0], false),
            game([5, 0], false),
            game([0, 0], false),
        ];
        assert_eq!(
            record(h, &two, win(0, 9)),
            [(0, 0, 9), (1, 0, 9), (2, 0, 9)]
        );
        // Seat 1, shut out of a closed game 1, starts in game 2.
        let closed = [
            game([104, 0], true),
            game([30, 0], false),
            game([0, 0], false),
        ];
        assert_eq!(record(h, &closed, win(1, 20)), [(1, 1, 20)]);
    }

    /// A ruleset whose `record_result` is `script`.
    fn recording(script: &str) -> Arc<Variant> {
        let yaml = "id: x\nname: X\nhooks:\n  record_result:\n    script: h.rhai\n";
        unsampled(yaml, &[("h.rhai", script)])
    }

    #[test]
    fn open_games_and_entries_walk_the_games_natively() {
        let v = recording(
            r#"fn record_result(ctx) {
    if ctx.open_games(0, 0) != [1] { throw "side 0 scored"; }
    if ctx.open_games(0, 1) != [1, 2] { throw "and the next open one"; }
    if ctx.open_games(0, 9) != [1, 2, 3] { throw "every open one"; }
    if ctx.open_games(0, -1) != [1] { throw "no new one"; }
    if ctx.open_games(1, 0) != [3] { throw "side 1 scored"; }
    if entries([], 0, 5) != [] { throw "no entries"; }
    if entries([2], 0, 5) != [#{game: 2, side: 0, points: 5}] { throw "an entry"; }
    entries(ctx.open_games(1, 1), 1, 17)
}
"#,
        );
        let games = [
            game([104, 40], true),
            game([60, 0], false),
            game([0, 0], false),
            game([0, 7], false),
        ];
        assert_eq!(
            record(v.hooks.as_ref(), &games, win(1, 17)),
            [(1, 1, 17), (3, 1, 17)]
        );
    }

    #[test]
    fn open_games_of_a_side_that_does_not_exist_fails() {
        let v = recording("fn record_result(ctx) { ctx.open_games(2, 0) }\n");
        let layout = MatchLayout::individual(2);
        let e = v
            .hooks
            .record_result(&RecordInfo {
                hand_number: 3,
                target: Target::Points(100),
                layout: &layout,
                games: &[game([0, 0], false)],
                results: &[win(0, 5)],
            })
            .unwrap_err();
        assert!(
            e.message
                .contains("open_games: side 2 does not exist (2 sides)"),
            "{e}"
        );
    }

    #[test]
    fn plain_scoring_enters_the_first_open_game() {
        let v = resolve("standard", &[]).unwrap();
        assert_eq!(
            record(v.hooks.as_ref(), &[game([0, 0], false)], win(1, 20)),
            [(0, 1, 20)]
        );
    }
}

mod examples {
    use super::*;

    #[test]
    fn round_the_corner_loads_with_no_rust_change() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/round-the-corner.yaml");
        let v = Catalog::builtin()
            .check_file(&path)
            .unwrap_or_else(|e| panic!("{e:#?}"));
        let r = &v.ruleset;
        assert_eq!(r.id, "round-the-corner");
        assert_eq!(r.melds.ace, AceRank::Both);
        assert!(r.melds.wrap);
        assert_eq!(r.melds.values[0], 15);
        assert_eq!(
            (r.gin_bonus, r.undercut_bonus, r.match_rules.box_bonus),
            (20, 20, 20)
        );
        assert_eq!(r.match_rules.default_target, Target::Points(125));
        assert!(r.lay_offs && r.lay_off_after_gin);
    }

    #[test]
    fn a_directory_of_rulesets_joins_the_catalog() {
        let mut c = Catalog::builtin();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        c.add_dir(&dir).unwrap_or_else(|e| panic!("{e:#?}"));
        assert!(c.list().iter().any(|r| r.id == "round-the-corner"));
        assert!(
            c.resolve(&reference("round-the-corner", &["oklahoma"]))
                .is_ok()
        );
    }

    #[test]
    fn an_authored_ruleset_resolves_from_its_reference() {
        let c = Catalog::builtin();
        let yaml = "id: quick\nname: Quick\nextends: standard\nknocking:\n  knock_limit: 5\n";
        let checked = c.check(yaml, &BTreeMap::new()).unwrap();
        assert_eq!(checked.ruleset.knock_limit, Some(5));
        let mut r = checked.reference.clone();
        r.options = vec!["oklahoma".into()];
        let again = c.resolve(&r).unwrap();
        assert_eq!(again.ruleset.knock_limit, Some(5));
        assert_eq!(again.hook_points.len(), 2);
        assert!(Arc::ptr_eq(&again, &c.resolve(&r).unwrap()));
        // The reference must name the authored id.
        r.id = "other".into();
        assert_eq!(c.resolve(&r).unwrap_err().code(), "invalid-ruleset");
    }
}

mod errors {
    use super::*;

    /// An option that changes nothing finds the ruleset's own problems again: each is told once.
    /// Problems that only share a place, a field and a kind (two bad targets of one list) are all
    /// told, and so is an option's own problem.
    #[test]
    fn a_problem_of_the_ruleset_is_not_repeated_for_each_option() {
        let plain = "id: x\nname: X\nmelds:\n  set_min: 5\nmatch:\n  targets: [0, -5]\n";
        let alone = errors_of(plain, &[]);
        let targets: Vec<_> = alone
            .iter()
            .filter(|e| e.field.as_deref() == Some("match.targets"))
            .collect();
        assert!(
            targets.len() == 2 && targets[0].kind == targets[1].kind,
            "{alone:#?}"
        );
        let with_options =
            format!("{plain}options:\n  quick:\n    name: Quick\n  slow:\n    name: Slow\n");
        assert_eq!(errors_of(&with_options, &[]), alone);

        let own = one_error(
            "id: x\nname: X\noptions:\n  big:\n    name: Big\n    melds:\n      set_min: 5\n",
            &[],
        );
        assert_eq!(own.field.as_deref(), Some("melds.set_min"), "{own}");
    }

    #[test]
    fn an_unknown_key_is_placed_and_corrected() {
        let e = one_error(
            "id: x\nname: X\nknocking:\n  allowed: true\n  knock_limt: 10\n",
            &[],
        );
        assert_eq!(
            (e.path.as_str(), e.line, e.column),
            ("ruleset.yaml", Some(5), Some(3))
        );
        assert_eq!(
            e.message,
            "unknown key `knock_limt`; did you mean `knock_limit`?"
        );
        assert_eq!(
            e.to_string(),
            "ruleset.yaml:5:3: unknown key `knock_limt`; did you mean `knock_limit`?"
        );
        let e = one_error("id: x\nname: X\ncolour: red\n", &[]);
        assert!(
            e.message
                .starts_with("unknown key `colour` (expected one of:"),
            "{e}"
        );
    }

    #[test]
    fn a_wrong_type_names_the_key() {
        let e = one_error("id: x\nname: X\nscoring:\n  gin_bonus: lots\n", &[]);
        assert_eq!((e.line, e.column), (Some(4), Some(14)));
        assert_eq!(e.message, "`gin_bonus`: expected a whole number");
        let e = one_error("id: x\nname: X\nlay_offs:\n  allowed: yes\n", &[]);
        assert_eq!(e.message, "`allowed`: expected `true` or `false`");
        let e = one_error("id: x\nname: X\nstock:\n  end: dead_hnad\n", &[]);
        assert_eq!(
            e.message,
            "unknown value `dead_hnad` for `end`; did you mean `dead_hand`?"
        );
    }

    #[test]
    fn values_out_of_range_name_the_field() {
        let e = one_error("id: x\nname: X\nmelds:\n  run_min: 1\n", &[]);
        assert_eq!(e.message, "`melds.run_min` must be 3 to 13, not 1");
        assert_eq!((e.line, e.column), (Some(4), Some(12)));
        let e = one_error("id: x\nname: X\nscoring:\n  undercut_bonus: -5\n", &[]);
        assert_eq!(
            e.message,
            "`scoring.undercut_bonus` must be 0 to 10000, not -5"
        );
        let e = one_error("id: x\nname: X\nknocking:\n  knock_limit: 101\n", &[]);
        assert_eq!(
            e.message,
            "`knocking.knock_limit` 101 is more than the most deadwood a hand of 10 cards can hold (100)"
        );
        let errors = errors_of("id: x\nname: X\nmelds:\n  wrap: true\nseats: 9\n", &[]);
        assert_eq!(errors.len(), 2, "{errors:#?}");
    }

    #[test]
    fn an_extends_cycle_is_an_error() {
        let mut c = Catalog::builtin();
        let files = vec![
            (
                "a.yaml".to_string(),
                "id: a\nname: A\nextends: b\n".to_string(),
            ),
            (
                "b.yaml".to_string(),
                "id: b\nname: B\nextends: a\n".to_string(),
            ),
        ];
        let errors = c.add_files(&files, &BTreeMap::new()).unwrap_err();
        assert!(
            errors
                .iter()
                .any(|e| e.message == "`extends` makes a cycle: a extends b extends a"),
            "{errors:#?}"
        );
        assert!(
            c.resolve(&reference("a", &[])).is_err(),
            "nothing was added"
        );
        let e = one_error("id: x\nname: X\nextends: x\n", &[]);
        assert!(e.message.contains("cycle"), "{e}");
        let e = one_error("id: x\nname: X\nextends: standrad\n", &[]);
        assert_eq!(
            e.message,
            "`extends`: there is no ruleset `standrad`; did you mean `standard`?"
        );
        assert_eq!(e.line, Some(3));
    }

    #[test]
    fn an_unknown_option_in_a_conflict_is_an_error() {
        let yaml = "id: x\nname: X\noptions:\n  fast:\n    conflicts_with:\n      slowe: too fast\n  slow: {}\n";
        let e = one_error(yaml, &[]);
        assert!(
            e.message
                .contains("there is no option `slowe`; did you mean `slow`?"),
            "{e}"
        );
    }

    #[test]
    fn conflicting_options_are_refused_with_the_reason() {
        let yaml = "id: x\nname: X\noptions:\n  fast:\n    conflicts_with:\n      slow: pick one speed\n  slow: {}\n";
        let c = Catalog::builtin();
        let v = c.check(yaml, &BTreeMap::new()).unwrap();
        let mut r = v.reference.clone();
        r.options = vec!["slow".into(), "fast".into()];
        let e = c.resolve(&r).unwrap_err();
        assert_eq!(e.to_string(), "pick one speed");
    }

    #[test]
    fn a_script_function_that_is_no_hook_point() {
        let yaml = "id: x\nname: X\nhooks:\n  knock_limit:\n    script: h.rhai\n";
        let script = "fn knock_limit(ctx) { 5 }\n\nfn knock_limt(ctx) { 5 }\n";
        let e = one_error(yaml, &[("h.rhai", script)]);
        assert_eq!(
            (e.path.as_str(), e.line, e.column),
            ("h.rhai", Some(3), Some(1))
        );
        assert!(
            e.message
                .contains("`knock_limt` is not a hook point; did you mean `knock_limit`?"),
            "{e}"
        );
        // Helpers are private.
        let ok = "fn knock_limit(ctx) { half(ctx.upcard_value) }\nprivate fn half(x) { x / 2 }\n";
        assert!(
            Catalog::builtin()
                .check(yaml, &scripts(&[("h.rhai", ok)]))
                .is_ok()
        );
        // A hook the YAML does not bind.
        let extra = "fn knock_limit(ctx) { 5 }\nfn score_multiplier(ctx) { 2 }\n";
        let e = one_error(yaml, &[("h.rhai", extra)]);
        assert!(e.message.contains("no `hooks:` entry"), "{e}");
        // A binding the script does not define, and a missing script.
        let errors = errors_of(yaml, &[("h.rhai", "fn score_multiplier(ctx) { 2 }")]);
        assert_eq!(errors.len(), 2, "{errors:#?}");
        assert_eq!(
            errors[0].to_string(),
            "ruleset.yaml:5:13: `hooks.knock_limit`: `h.rhai` defines no function `knock_limit(ctx)`"
        );
        assert!(
            errors[1].message.contains("no `hooks:` entry"),
            "{}",
            errors[1]
        );
        let e = one_error(yaml, &[("g.rhai", "fn knock_limit(ctx) { 2 }")]);
        assert!(e.message.contains("no script `h.rhai`"), "{e}");
        // Statements outside functions.
        let e = one_error(yaml, &[("h.rhai", "let x = 1;\nfn knock_limit(ctx) { 5 }")]);
        assert_eq!(e.line, Some(1));
        assert!(e.message.contains("may only define functions"), "{e}");
    }

    #[test]
    fn a_script_syntax_error_is_placed() {
        let yaml = "id: x\nname: X\nhooks:\n  knock_limit:\n    script: h.rhai\n";
        let e = one_error(
            yaml,
            &[("h.rhai", "fn knock_limit(ctx) {\n  ctx.upcard_value +\n}\n")],
        );
        assert_eq!(e.path, "h.rhai");
        assert_eq!(e.line, Some(3));
        assert!(e.message.starts_with("syntax error"), "{e}");
        let e = one_error(
            yaml,
            &[("h.rhai", "fn knock_limit(ctx) { undefined_thing }")],
        );
        assert!(e.message.contains("undefined_thing"), "{e}");
    }

    #[test]
    fn an_endless_loop_runs_out_of_operations() {
        let m = hook_failure("fn knock_limit(ctx) { loop { } }");
        assert!(m.contains("operations"), "{m}");
        let m = hook_failure("fn knock_limit(ctx) { let n = 0; while true { n += 1; } n }");
        assert!(m.contains("operations"), "{m}");
    }

    #[test]
    fn runaway_recursion_is_stopped() {
        let m = hook_failure(
            "fn knock_limit(ctx) { deeper(1) }\nprivate fn deeper(n) { deeper(n + 1) }",
        );
        assert!(m.contains("deep"), "{m}");
        let m = hook_failure("fn knock_limit(ctx) { knock_limit(ctx) }");
        assert!(m.contains("deep"), "{m}");
    }

    #[test]
    fn a_huge_string_is_stopped() {
        let m = hook_failure("fn knock_limit(ctx) { let s = \"gin\"; loop { s += s; } }");
        assert!(m.contains("over its limit"), "{m}");
        let m = hook_failure("fn knock_limit(ctx) { let a = []; loop { a.push(ctx); } }");
        assert!(m.contains("over its limit"), "{m}");
    }

    #[test]
    fn bad_decisions_and_runtime_errors_are_hook_errors() {
        let m = hook_failure("fn knock_limit(ctx) { 500 }");
        assert!(m.contains("out of range"), "{m}");
        let m = hook_failure("fn knock_limit(ctx) { \"ten\" }");
        assert!(m.contains("must be an integer"), "{m}");
        let m = hook_failure("fn knock_limit(ctx) { 1 / 0 }");
        assert!(m.contains("h.rhai:1:"), "{m}");
        let m = hook_failure("fn knock_limit(ctx) { sleep(10); 1 }");
        assert!(m.contains("sleep"), "{m}");
    }

    #[test]
    fn eval_and_modules_are_not_available() {
        let yaml = "id: x\nname: X\nhooks:\n  knock_limit:\n    script: h.rhai\n";
        let e = one_error(yaml, &[("h.rhai", "fn knock_limit(ctx) { eval(\"1\") }")]);
        assert!(e.message.contains("eval"), "{e}");
        let m = hook_failure("fn knock_limit(ctx) { import \"x\" as x; 1 }");
        assert!(!m.is_empty());
    }

    #[test]
    fn a_yaml_alias_bomb_is_refused() {
        let lol = "[lol, lol, lol, lol, lol, lol, lol, lol, lol]";
        let mut yaml = format!("a: &a {lol}\n");
        for (prev, name) in ["a", "b", "c", "d", "e", "f", "g", "h"]
            .iter()
            .zip(["b", "c", "d", "e", "f", "g", "h", "i"])
        {
            let refs = vec![format!("*{prev}"); 9].join(", ");
            yaml.push_str(&format!("{name}: &{name} [{refs}]\n"));
        }
        // Keys a ruleset does not have, each reported (quickly) before any alias is expanded.
        let errors = errors_of(&yaml, &[]);
        assert!(errors.iter().all(|e| e.line.is_some()), "{errors:#?}");
        assert!(errors[0].message.contains("unknown key `a`"), "{errors:#?}");
        // The same fan-out inside fields a ruleset has.
        let mut yaml = String::from("id: x\nname: X\noptions:\n  o0: &o {summary: lol}\n");
        for i in 1..200 {
            yaml.push_str(&format!("  o{i}: *o\n"));
        }
        let e = one_error(&yaml, &[]);
        assert!(e.message.contains("too large or too complex"), "{e}");
    }

    #[test]
    fn an_oversized_file_is_refused() {
        let yaml = format!("id: x\nname: X\nsummary: \"{}\"\n", "x".repeat(300 * 1024));
        let e = one_error(&yaml, &[]);
        assert!(e.message.contains("bytes"), "{e}");
    }
}

/// What a ruleset may declare, bounded error lists and echoes, built-in ids, the cache.
mod limits {
    use super::*;
    use gin_rules::api::ApiError;
    use gin_rules::rules::limits::{
        MAX_ECHO, MAX_ERRORS, MAX_HOOK_BINDINGS, MAX_OPTIONS, MAX_SCRIPTS, MAX_SCRIPTS_BYTES,
        MAX_TEXT,
    };

    fn options_yaml(n: usize, each: &str) -> String {
        let mut yaml = String::from("id: many\nname: Many\noptions:\n");
        for i in 0..n {
            yaml.push_str(&format!("  o{i}: {each}\n"));
        }
        yaml
    }

    /// The size of the `invalid-ruleset` answer these errors make.
    fn answer_bytes(errors: Vec<RulesetError>) -> usize {
        serde_json::to_vec(&ApiError::invalid_ruleset(errors).problem())
            .unwrap()
            .len()
    }

    #[test]
    fn too_many_options_are_refused_naming_the_limit() {
        let e = one_error(&options_yaml(4000, "{}"), &[]);
        assert!(
            e.message.contains("4000 options")
                && e.message.contains(&format!("at most {MAX_OPTIONS}")),
            "{e}"
        );
        let v = Catalog::builtin()
            .check(&options_yaml(MAX_OPTIONS, "{}"), &BTreeMap::new())
            .unwrap();
        assert_eq!(v.allowed_options.len(), MAX_OPTIONS);
    }

    #[test]
    fn too_many_hooks_scripts_or_script_bytes_are_refused() {
        let script = "fn knock_limit(ctx) { 5 }";
        let each = "{hooks: {knock_limit: {script: h.rhai}}}";
        let over = format!(
            "{}hooks:\n  knock_limit: {{script: h.rhai}}\n",
            options_yaml(MAX_HOOK_BINDINGS, each)
        );
        let e = one_error(&over, &[("h.rhai", script)]);
        assert!(
            e.message
                .contains(&format!("bind {}", MAX_HOOK_BINDINGS + 1)),
            "{e}"
        );
        assert!(
            e.message.contains(&format!("at most {MAX_HOOK_BINDINGS}")),
            "{e}"
        );
        assert!(
            Catalog::builtin()
                .check(
                    &options_yaml(MAX_HOOK_BINDINGS, each),
                    &scripts(&[("h.rhai", script)])
                )
                .is_ok()
        );

        let names: Vec<String> = (0..=MAX_SCRIPTS).map(|i| format!("s{i}.rhai")).collect();
        let many: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), script)).collect();
        let e = one_error("id: x\nname: X\n", &many);
        assert!(e.message.contains(&format!("at most {MAX_SCRIPTS}")), "{e}");

        let big = format!("// {}\n{script}", "x".repeat(MAX_SCRIPTS_BYTES / 2));
        let e = one_error("id: x\nname: X\n", &[("a.rhai", &big), ("b.rhai", &big)]);
        assert!(
            e.message.contains(&format!("at most {MAX_SCRIPTS_BYTES}")),
            "{e}"
        );
    }

    #[test]
    fn deep_nesting_and_long_texts_are_refused() {
        // Refused where the nesting starts (a text is expected), or by the depth limit where
        // the parser records it (an anchor).
        let deep = format!(
            "id: x\nname: X\nsummary: {}1{}\n",
            "[".repeat(40),
            "]".repeat(40)
        );
        let e = one_error(&deep, &[]);
        assert_eq!(e.line, Some(3), "{e}");
        let deep = format!(
            "id: x\nname: X\nsummary: &d {}1{}\n",
            "[".repeat(40),
            "]".repeat(40)
        );
        let e = one_error(&deep, &[]);
        assert_eq!(e.line, Some(3), "{e}");
        let long = format!("id: x\nname: X\nsummary: {}\n", "y".repeat(MAX_TEXT + 1));
        let e = one_error(&long, &[]);
        assert!(
            e.message.contains("`summary`") && e.message.contains("1001"),
            "{e}"
        );
    }

    /// The 200 KB script name of the review: hooks naming an absent script, 10 options sharing
    /// them, and the huge name among the scripts sent.
    #[test]
    fn a_huge_script_name_costs_little_and_is_not_repeated() {
        let huge = format!("{}.rhai", "a".repeat(200 * 1024));
        let mut yaml = String::from("id: names\nname: Names\nhooks: &h\n");
        for p in [
            "knock_limit",
            "score_multiplier",
            "match_layout",
            "seating",
            "record_result",
            "next_dealer",
        ] {
            yaml.push_str(&format!("  {p}: {{script: k.rhai}}\n"));
        }
        yaml.push_str("options:\n");
        for i in 0..10 {
            yaml.push_str(&format!("  o{i}: {{hooks: *h}}\n"));
        }
        let errors = errors_of(&yaml, &[(&huge, "fn knock_limit(ctx) { 5 }")]);
        assert_eq!(errors.len(), 2, "{errors:#?}");
        assert!(
            errors[0].message.contains("the scripts take 204830 bytes"),
            "{}",
            errors[0]
        );
        assert!(
            errors[1].message.contains("is not a script name"),
            "{}",
            errors[1]
        );
        assert!(
            errors[1].message.contains("(204805 bytes)"),
            "{}",
            errors[1]
        );
        assert!(answer_bytes(errors) < 1024);
        // The same name in the YAML (an anchor the hooks share).
        let yaml = format!(
            "id: names\nname: Names\nhooks:\n  knock_limit: {{script: &n \"{}\"}}\n  seating: {{script: *n}}\n",
            "b".repeat(60 * 1024)
        );
        let errors = errors_of(&yaml, &[]);
        assert!(answer_bytes(errors) < 4 * 1024);
    }

    #[test]
    fn error_lists_are_cut_and_counted() {
        // Every option sets an impossible value: one problem each.
        let yaml = options_yaml(MAX_OPTIONS, "{melds: {run_min: 99}}");
        let errors = errors_of(&yaml, &[]);
        assert_eq!(errors.len(), MAX_ERRORS + 1, "{errors:#?}");
        let last = errors.last().unwrap();
        assert_eq!(
            last.message,
            format!(
                "and {} more problems (an answer lists the first {MAX_ERRORS})",
                MAX_OPTIONS - MAX_ERRORS
            )
        );
    }

    #[test]
    fn echoed_names_are_cut() {
        let long = "q".repeat(50_000);
        let e = one_error(
            &format!("id: x\nname: X\nknocking:\n  ? {long}\n  : 1\n"),
            &[],
        );
        assert!(e.message.len() < 400, "{}", e.message.len());
        assert!(e.message.contains("(50000 bytes)"), "{e}");
        let e = resolve(&long, &[]).unwrap_err();
        assert!(e.to_string().len() < 200, "{e}");
        let e = resolve("standard", &[&long]).unwrap_err();
        assert_eq!(e.code(), "unknown-option");
        assert!(e.to_string().len() < 400, "{e}");
        let shown = gin_rules::rules::limits::shown(&long);
        assert!(shown.chars().count() < MAX_ECHO + 20);
    }

    #[test]
    fn authored_rulesets_may_not_take_an_id_the_server_has() {
        for id in ["standard", "straight-gin", "four-player"] {
            let e = one_error(
                &format!("id: {id}\nname: Mine\nscoring:\n  gin_bonus: 5000\n"),
                &[],
            );
            assert_eq!((e.line, e.column), (Some(1), Some(5)), "{e}");
            assert!(
                e.message.contains(&format!(
                    "`{id}` is the id of a ruleset this server already has"
                )),
                "{e}"
            );
        }
        // Nor through a reference a plain state carries.
        let c = Catalog::builtin();
        let r = RulesetRef {
            id: "standard".into(),
            options: Vec::new(),
            authored: Some(Arc::new(gin_rules::ruleset::AuthoredRuleset {
                yaml: "id: standard\nname: Mine\n".into(),
                scripts: BTreeMap::new(),
            })),
        };
        assert_eq!(c.resolve(&r).unwrap_err().code(), "invalid-ruleset");
    }

    #[test]
    fn the_sample_games_run_once_per_content_whether_checked_or_dealt() {
        let c = Catalog::builtin();
        let yaml = "id: seven\nname: Seven\nextends: standard\noptions:\n  hollywood:\n    replaces: [record_result]\nhooks:\n  record_result:\n    script: s.rhai\n";
        let bad = scripts(&[("s.rhai", "fn record_result(ctx) { 7 / 0 }\n")]);
        let first = c.check(yaml, &bad).unwrap_err();
        assert_eq!(c.sample_checks(), 1);
        assert!(first[0].message.contains("Division by zero"), "{first:#?}");
        // Checked again, or dealt: the verdict comes from the cache.
        assert_eq!(c.check(yaml, &bad).unwrap_err(), first);
        let authored = Arc::new(gin_rules::ruleset::AuthoredRuleset {
            yaml: yaml.to_string(),
            scripts: bad,
        });
        let r = RulesetRef {
            id: "seven".into(),
            options: vec!["oklahoma".into()],
            authored: Some(authored),
        };
        assert_eq!(c.resolve(&r).unwrap_err().code(), "invalid-ruleset");
        assert_eq!(c.sample_checks(), 1);
        let good = scripts(&[("s.rhai", "fn record_result(ctx) { ctx[\"default\"] }\n")]);
        c.check(yaml, &good).unwrap();
        c.check(yaml, &good).unwrap();
        assert_eq!(c.sample_checks(), 2);
    }

    #[test]
    fn a_checked_ruleset_is_cached_by_content_and_shares_its_text() {
        let c = Catalog::builtin();
        let yaml = "id: quick\nname: Quick\nextends: standard\n";
        let a = c.check(yaml, &BTreeMap::new()).unwrap();
        let b = c.check(yaml, &BTreeMap::new()).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        let hash = a
            .content_hash
            .expect("an authored ruleset has a content hash");
        let other = c
            .check(&format!("{yaml}# another text\n"), &BTreeMap::new())
            .unwrap();
        assert_ne!(other.content_hash, Some(hash));
        assert_eq!(other.reference.id, a.reference.id);
        // A variant with options holds the same text, not a copy.
        let mut r = a.reference.clone();
        r.options = vec!["oklahoma".into()];
        let with = c.resolve(&r).unwrap();
        assert_eq!(with.content_hash, Some(hash));
        assert!(Arc::ptr_eq(
            with.reference.authored.as_ref().unwrap(),
            a.reference.authored.as_ref().unwrap()
        ));
        // A failure is cached too, and answered again the same.
        let bad = "id: x\nname: X\nmelds:\n  run_min: 1\n";
        assert_eq!(
            c.check(bad, &BTreeMap::new()).unwrap_err(),
            c.check(bad, &BTreeMap::new()).unwrap_err()
        );
        assert_eq!(c.authored_cache_usage().rulesets, 3);
        assert_eq!(c.authored_cache_usage().variants, 1);
        // Built-in rulesets have none.
        assert_eq!(resolve("standard", &[]).unwrap().content_hash, None);
    }

    #[test]
    fn the_cache_stays_within_its_bytes() {
        let max = 1024 * 1024;
        let c = Catalog::builtin().with_authored_cache_bytes(max);
        let padding = "# padding\n".repeat(3000);
        for i in 0..200 {
            let yaml = format!("{padding}id: r{i}\nname: R{i}\nextends: standard\n");
            c.check(&yaml, &BTreeMap::new()).unwrap();
            let usage = c.authored_cache_usage();
            assert!(usage.bytes <= max, "{usage:?}");
        }
        let usage = c.authored_cache_usage();
        assert!(usage.rulesets > 1 && usage.rulesets < 200, "{usage:?}");
    }
}

/// What a script sees of a context: read-only objects whose every documented field is a property,
/// also read as `ctx["name"]`.
mod contexts {
    use super::*;
    use gin_rules::engine::hooks::{
        GameScore, HandOutcome, MatchLayout, RecordInfo, TableResult, TableSeating,
    };

    #[test]
    fn a_deal_context_reads_every_field_and_cannot_be_changed() {
        let v = with_hook(
            r#"fn knock_limit(ctx) {
    if type_of(ctx) != "DealContext" { throw "type " + type_of(ctx); }
    if ctx.upcard != "7H" || ctx["upcard"] != "7H" { throw "upcard"; }
    if ctx.upcard_rank != "7" || ctx.upcard_suit != "H" || ctx.upcard_value != 7 { throw "rank"; }
    if ctx.values.K != 10 || ctx.values["2"] != 2 || ctx.values.len() != 13 { throw "values"; }
    if ctx.seats != 2 || ctx.hand_size != 10 || ctx.dealer != 0 || ctx.hand_number != 0 { throw "ints"; }
    let t = ctx.totals;
    t[0] = 99;
    if ctx.totals != [0, 0] { throw "totals changed"; }
    let shown = "" + ctx;
    if !shown.contains("upcard_value") { throw "shown: " + shown; }
    ctx["default"] - 3
}
"#,
        );
        assert_eq!(knock_limit(v.hooks.as_ref(), "7H"), Ok(Some(7)));
        let m = hook_failure("fn knock_limit(ctx) { ctx.dealer = 1; 5 }");
        assert!(m.contains("h.rhai:1:"), "{m}");
        let m = hook_failure("fn knock_limit(ctx) { ctx.upcard_valeu }");
        assert!(
            m.contains("no field `upcard_valeu`; did you mean `upcard_value`?"),
            "{m}"
        );
        let m = hook_failure("fn knock_limit(ctx) { ctx[\"nothing_like_it\"] }");
        assert!(
            m.contains("no field `nothing_like_it` (the knock_limit context has: upcard,"),
            "{m}"
        );
    }

    #[test]
    fn games_and_results_are_objects_too() {
        let yaml = "id: x\nname: X\nhooks:\n  record_result:\n    script: h.rhai\n";
        let script = r#"fn record_result(ctx) {
    let r = ctx.results[0];
    let g = ctx.games[1];
    if type_of(ctx) != "RecordContext" || type_of(r) != "TableResult" || type_of(g) != "Game" {
        throw "types";
    }
    if r.winner != 1 || r["points"] != 17 || r.outcome != "knock" || r.players != [0, 1] { throw "result"; }
    if r.table != 0 || r.dealer != 1 || r.multiplier != 1 || r.side != 1 { throw "table"; }
    if g.points != [60, 31] || g.hands_won != [3, 2] || g.closed || !ctx.games[0]["closed"] { throw "game"; }
    if ctx.sides != [[0], [1]] || ctx.target != 100 || ctx.hand_number != 7 { throw "match"; }
    if ctx["default"] != [#{game: 1, side: 1, points: 17, boxes: 1}] { throw "default"; }
    if ctx.results[0].winnr == 1 { throw "read a misspelt field"; }
    []
}
"#;
        let v = unsampled(yaml, &[("h.rhai", script)]);
        let mut layout = MatchLayout::individual(2);
        layout.games = 2;
        let game = |points: [i64; 2], closed| GameScore {
            points: points.to_vec(),
            hands_won: vec![3, 2],
            boxes: vec![0, 0],
            closed,
        };
        let results = [TableResult {
            table: TableNo::new(0),
            seating: TableSeating {
                dealer: Seat::new(1),
                players: ByRole::new(Seat::new(0), Seat::new(1)),
            },
            outcome: HandOutcome::Knock,
            winner: Some(Seat::new(1)),
            loser: Some(Seat::new(0)),
            points: 17,
            multiplier: 1,
            parts: Vec::new(),
            boxes: 1,
        }];
        let e = v
            .hooks
            .record_result(&RecordInfo {
                hand_number: 7,
                target: Target::Points(100),
                layout: &layout,
                games: &[game([104, 40], true), game([60, 31], false)],
                results: &results,
            })
            .unwrap_err();
        assert!(
            e.message
                .contains("no field `winnr`; did you mean `winner`?"),
            "{e}"
        );
    }
}
