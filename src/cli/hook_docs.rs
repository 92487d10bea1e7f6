//! `docs/hooks.md`: every hook point's context, default, decision and checks, written from the
//! declaration in [`rules::script::contexts`](crate::rules::script::contexts), with example
//! contexts the engine really built in seeded deals.

use std::cell::RefCell;
use std::rc::Rc;

use rhai::{Dynamic, Map};

use crate::rules::script::contexts::{CONTEXTS, Field, HookContext, Ty};
use crate::rules::script::{HookPoint, observe_contexts};
use crate::rules::{Catalog, Variant};
use crate::ruleset::{RulesetRef, Target};

use super::markdown::cell;

/// Every context the engine builds while bots play `games` seeded games of `variant` to `target`,
/// in the order built.
pub fn sample_contexts(
    variant: &Variant,
    seed: u64,
    games: u64,
    target: Target,
) -> anyhow::Result<Vec<(HookPoint, Map)>> {
    let seen: Rc<RefCell<Vec<(HookPoint, Map)>>> = Rc::default();
    let sink = seen.clone();
    observe_contexts(
        move |point, ctx| sink.borrow_mut().push((point, ctx.clone())),
        || {
            super::play::simulate(
                &variant.ruleset,
                variant.hooks.as_ref(),
                &variant.reference,
                seed,
                games,
                Some(target),
                |_| {},
            )
        },
    )?;
    Ok(seen.take())
}

/// A map key as Rhai writes it: bare when it is a name, else quoted (`"2"`).
fn key(k: &str) -> String {
    let name = k
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && k.chars().all(|c| c.is_alphanumeric() || c == '_');
    if name {
        k.to_string()
    } else {
        format!("{k:?}")
    }
}

/// A value as a Rhai literal: `#{dealer: 0, players: [1, 0]}`.
pub fn literal(v: &Dynamic) -> String {
    if v.is_unit() {
        return "()".into();
    }
    if let Some(s) = v.clone().try_cast::<String>() {
        return format!("{s:?}");
    }
    if let Some(a) = v.clone().try_cast::<rhai::Array>() {
        let items: Vec<String> = a.iter().map(literal).collect();
        return format!("[{}]", items.join(", "));
    }
    if let Some(m) = v.clone().try_cast::<Map>() {
        let items: Vec<String> = m
            .iter()
            .map(|(k, v)| format!("{}: {}", key(k), literal(v)))
            .collect();
        return format!("#{{{}}}", items.join(", "));
    }
    v.to_string()
}

fn field_rows(out: &mut String, prefix: &str, fields: &[Field]) {
    for f in fields {
        let name = format!("{prefix}{}", f.name);
        out.push_str(&format!(
            "| `{name}` | {} | {} |\n",
            cell(f.ty.name()),
            cell(f.doc)
        ));
        match f.ty {
            Ty::Map(inner) => field_rows(out, &format!("{name}."), inner),
            Ty::Maps(inner) | Ty::Objects(inner) => field_rows(out, &format!("{name}[i]."), inner),
            _ => {}
        }
    }
}

const INTRO: &str = "\
A hook is a function of a Rhai script, named after its hook point, that decides one rule where
a fixed value is not enough. The YAML file binds it under `hooks:` (`knock_limit: {script:
oklahoma.rhai, rule: ...}`); `rulesets/oklahoma.rhai`, `rulesets/hollywood.rhai` and
`rulesets/four-player.rhai` are worked examples.

Each hook takes one parameter, the **context**: a read-only object the engine builds for that
call, with one property per field below (`ctx.hand_number`; `ctx[\"hand_number\"]` reads the
same). A script reads it and never changes it, nor the game: it copies a field into a variable to
work on it (`let t = ctx.totals; t[0] += 1;`). The games and results inside a context are objects of
the same kind (`r.winner`, `game.points[side]`); every other value is a plain Rhai integer, string,
array or map. A context is not a map: `type_of(ctx)` is the name of its type (`\"DealContext\"`,
`\"LayoutContext\"`, `\"SeatingContext\"`, `\"HandContext\"`, `\"RecordContext\"`,
`\"DealerContext\"`; `\"Game\"` and `\"TableResult\"` inside), map functions such as `keys()` do not apply to it, and `print(ctx)` shows
its fields as a map. A field is made into a Rhai value when the script reads it, so a hook pays only
for what it reads (read a field once into a variable rather than in every turn of a loop).

Cards are strings like `\"TD\"`, seats are integers from 0, and **`hand_number` counts from 0** (the
first hand of a match is hand 0). Every context has `default`: what the plain ruleset data would
decide, in the shape of the decision, so a hook can return `ctx[\"default\"]` to leave a case alone
(`default` is a reserved word in Rhai, so it is read with brackets). Reading a field a context does
not have is an error that names the field meant
(`ctx.hand_nubmer`: \"no field `hand_nubmer`; did you mean `hand_number`?\"), and `gin-rules check`
plays a few sample games of the ruleset, alone and with each option, so such a mistake shows
before a game is dealt (so do `POST /v1/rulesets/check`, `serve --rulesets` and the first deal of
an authored ruleset, which refuse it). `gin-rules check --trace` prints each call of the sample
games: its context, the script's `print` and `debug` lines, and what it returned.

The engine checks every decision before it uses it. A hook that fails, runs over its sandbox
limits (operations, call depth, sizes, time) or returns something the checks refuse makes the
action fail with `script-error` (naming the hook, and the script's line and column when the
script failed), and the game state stays as it was.

Helpers every script may call: `card_rank(\"TD\")` is `\"T\"`, `card_suit(\"TD\")` is `\"D\"`,
and `entries(games, side, points)` is an entry `#{game, side, points}` for each game of the array
`games`: `entries([1, 2], 0, 17)` is `[#{game: 1, side: 0, points: 17}, #{game: 2, ...}]`.
`record_result`'s context has a method too: `ctx.open_games(side, new)` is the open games (not
closed) where `side` has points, and the first `new` open games where it has none yet, in order;
a side that does not exist is an error. Hollywood scoring is `entries(ctx.open_games(side, 1),
side, points)`. Both do natively what a script would otherwise do by walking the games, and each
statement a script runs costs about as much as a whole call of either.
Public functions must be hook points; write `private fn` for helpers.
";

/// Where each point's example comes from: a ruleset with options and a target.
fn example_form(point: HookPoint) -> (&'static str, &'static [&'static str], Target) {
    match point {
        HookPoint::KnockLimit | HookPoint::ScoreMultiplier => {
            ("standard", &["oklahoma"], Target::Points(100))
        }
        HookPoint::MatchLayout => ("standard", &["hollywood"], Target::Points(100)),
        HookPoint::ScoreHand => ("standard", &["oklahoma"], Target::Points(100)),
        _ => ("four-player", &[], Target::Points(125)),
    }
}

const EXAMPLE_SEED: u64 = 7;

fn example(catalog: &Catalog, point: HookPoint) -> anyhow::Result<(String, Map)> {
    let (id, options, target) = example_form(point);
    let options: Vec<String> = options.iter().map(|s| (*s).to_string()).collect();
    let variant = catalog
        .resolve(&RulesetRef::new(id, options.clone()))
        .map_err(|e| anyhow::anyhow!("{id}: {e}"))?;
    let contexts = sample_contexts(&variant, EXAMPLE_SEED, 1, target)?;
    let mut of_point = contexts
        .into_iter()
        .filter(|(p, _)| *p == point)
        .map(|(_, m)| m);
    let all: Vec<Map> = of_point.by_ref().collect();
    let chosen = all
        .iter()
        .find(|m| m.get("hand_number").and_then(|h| h.as_int().ok()) == Some(1))
        .or(all.first())
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("{id} built no {point} context"))?;
    let with = if options.is_empty() {
        String::new()
    } else {
        format!(" with `{}`", options.join("`, `"))
    };
    Ok((
        format!("`{id}`{with}, a match to {target}, seed {EXAMPLE_SEED}"),
        chosen,
    ))
}

fn point_section(out: &mut String, catalog: &Catalog, c: &HookContext) -> anyhow::Result<()> {
    out.push_str(&format!("\n## `{}`\n\n", c.point));
    out.push_str(&format!("Called {}.\n\n", c.called));
    out.push_str("| field | type | holds |\n|---|---|---|\n");
    field_rows(out, "", c.fields);
    field_rows(out, "", std::slice::from_ref(&c.default));
    out.push_str(&format!(
        "\n**Returns** {}.\n\n**The engine checks** {}.\n",
        c.returns, c.checks
    ));
    let (form, ctx) = example(catalog, c.point)?;
    out.push_str(&format!(
        "\nA context the engine built ({form}):\n\n```rust\n#{{\n"
    ));
    for (k, v) in &ctx {
        out.push_str(&format!("    {k}: {},\n", literal(v)));
    }
    out.push_str("}\n```\n");
    Ok(())
}

/// `docs/hooks.md`.
pub fn hooks_markdown() -> anyhow::Result<String> {
    let catalog = Catalog::builtin();
    let mut out = String::from(
        "# Hook points\n\n<!-- Generated by `gin-rules docs hooks > docs/hooks.md`; do not edit by hand. -->\n\n",
    );
    out.push_str(INTRO);
    out.push_str("\n| hook | called | returns |\n|---|---|---|\n");
    for c in &CONTEXTS {
        out.push_str(&format!(
            "| [`{}`](#{}) | {} | {} |\n",
            c.point,
            c.point,
            cell(c.called),
            cell(c.returns)
        ));
    }
    for c in &CONTEXTS {
        point_section(&mut out, &catalog, c)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_read_as_rhai() {
        let mut m = Map::new();
        m.insert("dealer".into(), Dynamic::from(0_i64));
        m.insert(
            "players".into(),
            Dynamic::from_array(vec![Dynamic::from(1_i64), Dynamic::UNIT]),
        );
        m.insert("rule".into(), Dynamic::from("loser".to_string()));
        m.insert("2".into(), Dynamic::from(2_i64));
        assert_eq!(
            literal(&Dynamic::from_map(m)),
            "#{\"2\": 2, dealer: 0, players: [1, ()], rule: \"loser\"}"
        );
    }
}
