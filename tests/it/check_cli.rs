//! `gin-rules check` on authored files: every schema error in one pass, and hooks run in sample
//! games so a misspelt context field, a runaway loop or a decision out of range shows with its place.

use std::path::Path;
use std::process::Command;

fn check(dir: &Path, yaml: &str, scripts: &[(&str, &str)]) -> (bool, String) {
    std::fs::write(dir.join("variant.yaml"), yaml).unwrap();
    for (name, text) in scripts {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_gin-rules"))
        .arg("check")
        .arg(dir.join("variant.yaml"))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gin-check-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const HOOKED: &str = "id: shrinking\nname: Shrinking\nextends: standard\noptions:\n  oklahoma:\n    replaces: [knock_limit]\nhooks:\n  knock_limit:\n    script: shrink.rhai\n";

#[test]
fn every_schema_error_is_reported_in_one_pass() {
    let dir = temp_dir("schema");
    let yaml = "id: two-errors\nname: Two\nextends: standard\nmelds:\n  run_min: 1\n  setmax: 4\nscoring:\n  gin_bonus: \"lots\"\nlay_offs:\n  allowd: true\n";
    let (ok, text) = check(&dir, yaml, &[]);
    assert!(!ok, "{text}");
    for expected in [
        "variant.yaml:5:12: `melds.run_min` must be 3 to 13, not 1",
        "variant.yaml:6:3: unknown key `setmax`; did you mean `set_max`?",
        "variant.yaml:8:14: `gin_bonus`: expected a whole number",
        "variant.yaml:10:3: unknown key `allowd`; did you mean `allowed`?",
        "variant.yaml: 4 errors",
    ] {
        assert!(text.contains(expected), "no `{expected}` in:\n{text}");
    }
}

#[test]
fn a_misspelt_context_field_is_named_with_the_field_meant() {
    let dir = temp_dir("misspelt");
    let script = "fn knock_limit(ctx) {\n    let limit = 10 - ctx.hand_nubmer;\n    if limit < 5 { 5 } else { limit }\n}\n";
    let (ok, text) = check(&dir, HOOKED, &[("shrink.rhai", script)]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("shrink.rhai:2:26: no field `hand_nubmer`; did you mean `hand_number`?"),
        "{text}"
    );
    assert!(
        text.contains("; also with option `classic-bonuses`, with option `hollywood`"),
        "{text}"
    );
    // Spelt right, the same hook passes its sample games.
    let fixed = script.replace("hand_nubmer", "hand_number");
    let (ok, text) = check(&dir, HOOKED, &[("shrink.rhai", &fixed)]);
    assert!(ok, "{text}");
}

#[test]
fn runaway_and_out_of_range_hooks_fail_the_check() {
    let dir = temp_dir("runaway");
    let (ok, text) = check(
        &dir,
        HOOKED,
        &[(
            "shrink.rhai",
            "fn knock_limit(ctx) { let x = 0; loop { x += 1; } }\n",
        )],
    );
    assert!(!ok && text.contains("an endless loop?"), "{text}");
    let (ok, text) = check(
        &dir,
        HOOKED,
        &[("shrink.rhai", "fn knock_limit(ctx) { -3 }\n")],
    );
    assert!(
        !ok && text.contains("the knock limit -3 is out of range"),
        "{text}"
    );
    let (ok, text) = check(
        &dir,
        HOOKED,
        &[("shrink.rhai", "fn knock_limit(ctx) { ctx[\"default\"] }\n")],
    );
    assert!(ok, "{text}");
}

#[test]
fn serve_refuses_rulesets_whose_hooks_fail_in_play_naming_every_file() {
    let dir = temp_dir("serve");
    let rule = |id: &str, point: &str, body: &str| {
        std::fs::write(
            dir.join(format!("{id}.yaml")),
            format!("id: {id}\nname: {id}\nextends: standard\noptions:\n  oklahoma: null\n  hollywood: null\nhooks:\n  {point}:\n    script: {id}.rhai\n"),
        )
        .unwrap();
        std::fs::write(dir.join(format!("{id}.rhai")), body).unwrap();
    };
    rule(
        "seven-up",
        "record_result",
        "fn record_result(ctx) {\n    let sevens = 0;\n    ctx.hand_number / sevens\n}\n",
    );
    rule("no-limit", "knock_limit", "fn knock_limit(ctx) { -3 }\n");
    let dir_arg = dir.display().to_string();
    let err = crate::processes::Server::refusal(&["--rulesets", &dir_arg], &[]);
    for expected in [
        "seven-up.yaml: a sample game without options (seed 0): hook record_result failed: seven-up.rhai:3:21: Division by zero",
        "no-limit.yaml: a sample game without options (seed 0): hook knock_limit failed: the knock limit -3 is out of range",
    ] {
        assert!(err.contains(expected), "no `{expected}` in:\n{err}");
    }
}

#[test]
fn a_seating_of_five_players_at_a_table_says_what_the_hook_returned() {
    let dir = temp_dir("seating");
    let yaml = "id: crowded\nname: Crowded\nextends: three-player\nhooks:\n  seating:\n    script: seat.rhai\n";
    // Three at one table is a table of three: everyone plays.
    let three = "fn seating(ctx) {\n    [#{dealer: ctx.dealer, players: [1, 2, 0]}]\n}\n";
    let (ok, text) = check(&dir, yaml, &[("seat.rhai", three)]);
    assert!(ok, "{text}");
    let five = "fn seating(ctx) {\n    [#{dealer: ctx.dealer, players: [0, 1, 2, 0, 1]}]\n}\n";
    let (ok, text) = check(&dir, yaml, &[("seat.rhai", five)]);
    assert!(!ok, "{text}");
    assert!(
        text.contains(
            "hook seating failed: a table has 2 to 4 players; the hook returned 5: [0, 1, 2, 0, 1]"
        ),
        "{text}"
    );
}

#[test]
fn a_default_target_left_behind_by_new_targets_is_placed_in_the_authors_file() {
    let dir = temp_dir("default-target");
    let yaml = "id: to-150\nname: To 150\nextends: standard\nmatch:\n  targets: [150]\n";
    let (ok, text) = check(&dir, yaml, &[]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("variant.yaml:5:12: `match.default_target` (100 points) is not one of `match.targets` (150 points); set `match.default_target` to one of them"),
        "{text}"
    );
    assert!(!text.contains("standard.yaml"), "{text}");
}

#[test]
fn scripts_beside_a_bare_file_name_are_named_bare() {
    let dir = temp_dir("bare");
    std::fs::write(dir.join("variant.yaml"), HOOKED).unwrap();
    std::fs::write(dir.join("shrink.rhai"), "fn knock_limit(ctx) { 1 / 0 }\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gin-rules"))
        .current_dir(&dir)
        .args(["check", "variant.yaml"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("hook knock_limit failed: shrink.rhai:1:25: Division by zero"),
        "{text}"
    );
    // A syntax error in the script is placed in it, named the same way.
    std::fs::write(dir.join("shrink.rhai"), "fn knock_limit(ctx) { 1 +* 0 }\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gin-rules"))
        .current_dir(&dir)
        .args(["check", "variant.yaml"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.starts_with("shrink.rhai:1:"), "{text}");
    assert!(!text.contains("./"), "{text}");
}

#[test]
fn an_unclosed_flow_map_is_reported_as_yaml_syntax() {
    let dir = temp_dir("unclosed");
    let yaml = "id: aces\nname: Aces\nextends: standard\ndeck:\n  values: {A: 15\nmatch:\n  targets: [100]\n";
    let (ok, text) = check(&dir, yaml, &[]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("variant.yaml:5:11: `values`: unclosed bracket '{'"),
        "{text}"
    );
    assert!(!text.contains("whole number"), "{text}");
}

#[test]
fn trace_prints_each_hook_call_its_output_and_its_result() {
    let dir = temp_dir("trace");
    std::fs::write(dir.join("variant.yaml"), HOOKED).unwrap();
    let script = "fn knock_limit(ctx) {\n    print(`hand ${ctx.hand_number}`);\n    debug(ctx.upcard_suit);\n    if ctx.hand_number > 0 { 1 / 0 } else { 9 }\n}\n";
    std::fs::write(dir.join("shrink.rhai"), script).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gin-rules"))
        .args(["check", "--trace"])
        .arg(dir.join("variant.yaml"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    let first: Vec<&str> = text.lines().take(5).collect();
    assert_eq!(
        first[0], "== a sample game without options (seed 0)",
        "{text}"
    );
    assert!(first[1].starts_with("knock_limit <- #{"), "{text}");
    assert!(first[1].contains("\"hand_number\": 0"), "{text}");
    assert_eq!(first[2], "  | hand 0", "{text}");
    assert!(
        first[3].starts_with("  | \"") && first[3].len() == 7,
        "{text}"
    );
    assert_eq!(first[4], "knock_limit -> 9", "{text}");
    assert!(text.contains("  | hand 1\n"), "{text}");
    assert!(
        text.contains("knock_limit failed: shrink.rhai:4:32: Division by zero"),
        "{text}"
    );
    assert!(
        text.contains("== a sample game with option `hollywood` (seed 0)"),
        "{text}"
    );
    // Without `--trace`, no trace.
    let (_, plain) = check(&dir, HOOKED, &[("shrink.rhai", script)]);
    assert!(!plain.contains("knock_limit <-"), "{plain}");
}
