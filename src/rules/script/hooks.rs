//! [`ScriptHooks`]: a variant's hooks, each point bound to a compiled script run in the sandbox.
//! Each call builds its point's context (see [`contexts`](super::contexts)), runs the script within
//! its limits, and checks the decision before the engine gets it.

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use rhai::{CallFnOptions, Dynamic, INT, Scope};

use crate::engine::hooks::{
    DealInfo, DealerInfo, GameScore, HandInfo, HandScore, HookError, Hooks, LayoutInfo,
    MAX_HAND_BOXES, MatchLayout, RecordInfo, ScoreEntry, ScorePart, SeatingInfo, TableSeating,
    check_entries, check_seating, default_entries, default_next_dealer, default_seating,
};
use crate::role::{ByRole, MAX_PLAYERS, MIN_PLAYERS};
use crate::ruleset::Ruleset;
use crate::seat::{Seat, Side};

use super::budget::metered;
use super::compile::Script;
use super::decode::{as_array, as_int, as_map, as_seat, field, hook_error, shown_array};
use super::failure::{budget_spent, describe_eval_error};
use super::objects::{
    DealConstants, DealContext, DealerContext, HandContext, LayoutContext, Object, RecordContext,
    SeatingContext,
};
use super::observe::{self, HookTrace};
use super::point::HookPoint;
use super::sandbox::ENGINE;

thread_local! {
    /// The scope of the calls on this thread, empty between calls: it keeps its room, so a call
    /// does not allocate one afresh.
    static SCOPE: RefCell<Scope<'static>> = RefCell::new(Scope::new());
}

/// A hook point bound to a script.
#[derive(Clone, Debug)]
pub struct Binding {
    pub point: HookPoint,
    pub script: Arc<Script>,
    /// The rule in words, for the rules table.
    pub rule: Option<String>,
    /// The ruleset or option that bound it.
    pub from: String,
}

/// A variant's hooks, run in the sandbox. Decisions are checked before they are returned.
pub struct ScriptHooks {
    bindings: [Option<Binding>; HookPoint::COUNT],
    ruleset: Arc<Ruleset>,
    /// The fields of every deal context that the ruleset alone decides, built once.
    deal_constants: Arc<DealConstants>,
}

impl fmt::Debug for ScriptHooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(
                self.bindings
                    .iter()
                    .flatten()
                    .map(|b| (b.point, &b.script.name)),
            )
            .finish()
    }
}

impl ScriptHooks {
    /// Hooks for `ruleset` with the given bindings (at most one per point; later ones win).
    pub fn new(ruleset: Arc<Ruleset>, bindings: impl IntoIterator<Item = Binding>) -> ScriptHooks {
        let mut table: [Option<Binding>; HookPoint::COUNT] = Default::default();
        for b in bindings {
            let i = b.point.index();
            table[i] = Some(b);
        }
        ScriptHooks {
            bindings: table,
            deal_constants: Arc::new(DealConstants::of(&ruleset)),
            ruleset,
        }
    }

    pub fn binding(&self, point: HookPoint) -> Option<&Binding> {
        self.bindings[point.index()].as_ref()
    }

    /// The context of `knock_limit` and `score_multiplier`, with its `default`.
    fn deal_context(&self, deal: &DealInfo, default: Dynamic) -> DealContext {
        DealContext {
            constants: self.deal_constants.clone(),
            upcard: deal.upcard,
            upcard_value: self.ruleset.melds.value(deal.upcard),
            dealer: deal.dealer,
            hand_number: deal.hand_number,
            totals: deal.totals.clone(),
            default,
        }
    }

    /// Calls the script bound to `point` with the context `ctx` builds; `None` when nothing is
    /// bound. The context is built only for a script, or for an observer
    /// ([`observe_contexts`](super::observe_contexts)).
    fn call<C: Object>(
        &self,
        point: HookPoint,
        ctx: impl FnOnce() -> C,
    ) -> Option<Result<Dynamic, HookError>> {
        let binding = self.binding(point);
        let observed = observe::is_observed();
        if binding.is_none() && !observed {
            return None;
        }
        let ctx = ctx();
        if observed {
            observe::show(point, &ctx.to_map());
        }
        let b = binding?;
        let traced = observe::is_traced();
        if traced {
            let context = Dynamic::from_map(ctx.to_map()).to_string();
            observe::trace(|| HookTrace::Call { point, context });
        }
        let run = || {
            let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
            let call = |scope: &mut Scope<'static>| {
                ENGINE.call_fn_with_options::<Dynamic>(
                    options,
                    scope,
                    &b.script.ast,
                    point.name(),
                    (Dynamic::from(ctx),),
                )
            };
            SCOPE.with(|s| match s.try_borrow_mut() {
                Ok(mut scope) => {
                    scope.clear();
                    let r = call(&mut scope);
                    scope.clear();
                    r
                }
                Err(_) => call(&mut Scope::new()),
            })
        };
        let (outcome, budget) = match metered(run) {
            Ok(ran) => ran,
            Err(spent) => {
                return Some(Err(hook_error(
                    point,
                    format!("{}: {}", b.script.name, budget_spent(spent)),
                )));
            }
        };
        let result = match outcome {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(hook_error(
                point,
                describe_eval_error(point, &b.script.name, &e, budget),
            )),
            Err(_) => Err(hook_error(point, format!("{} crashed", b.script.name))),
        };
        if traced {
            let result = match &result {
                Ok(v) => Ok(v.to_string()),
                Err(e) => Err(e.message.clone()),
            };
            observe::trace(|| HookTrace::Returned { point, result });
        }
        Some(result)
    }
}

impl Hooks for ScriptHooks {
    fn knock_limit(&self, deal: &DealInfo) -> Result<Option<u8>, HookError> {
        let point = HookPoint::KnockLimit;
        let ctx = || {
            self.deal_context(
                deal,
                deal.knock_limit
                    .map_or(Dynamic::UNIT, |l| Dynamic::from_int(INT::from(l))),
            )
        };
        let Some(r) = self.call(point, ctx) else {
            return Ok(deal.knock_limit);
        };
        let v = r?;
        if v.is_unit() {
            return Ok(None);
        }
        let max = self.deal_constants.max_knock_limit;
        as_int(point, "the knock limit", &v, 0, max).map(|n| Some(n as u8))
    }

    fn score_multiplier(&self, deal: &DealInfo) -> Result<u32, HookError> {
        let point = HookPoint::ScoreMultiplier;
        let ctx = || self.deal_context(deal, Dynamic::from_int(1));
        let Some(r) = self.call(point, ctx) else {
            return Ok(1);
        };
        as_int(point, "the multiplier", &r?, 1, 1000).map(|n| n as u32)
    }

    fn match_layout(&self, info: &LayoutInfo) -> Result<MatchLayout, HookError> {
        let point = HookPoint::MatchLayout;
        let default = MatchLayout::individual(info.seats);
        let ctx = || LayoutContext {
            seats: info.seats,
            target: info.target,
            default: default.clone(),
        };
        let Some(r) = self.call(point, ctx) else {
            return Ok(default);
        };
        let v = r?;
        if v.is_unit() {
            return Ok(default);
        }
        let m = as_map(point, "the layout", v)?;
        let mut layout = default;
        if let Some(g) = m.get("games") {
            layout.games = as_int(
                point,
                "games",
                g,
                1,
                i64::from(crate::engine::hooks::MAX_GAMES),
            )? as u8;
        }
        if let Some(s) = m.get("sides") {
            let sides = as_array(point, "sides", s.clone())?;
            layout.sides = sides
                .into_iter()
                .map(|side| {
                    as_array(point, "a side", side)?
                        .iter()
                        .map(|s| as_seat(point, "a seat", s, info.seats))
                        .collect::<Result<Vec<Seat>, HookError>>()
                })
                .collect::<Result<_, _>>()?;
        }
        for k in m.keys() {
            if k != "games" && k != "sides" {
                return Err(hook_error(
                    point,
                    format!("the layout has an unknown key `{k}` (keys: sides, games)"),
                ));
            }
        }
        layout.check(info.seats).map_err(|e| hook_error(point, e))?;
        Ok(layout)
    }

    fn seating(&self, info: &SeatingInfo) -> Result<Vec<TableSeating>, HookError> {
        let point = HookPoint::Seating;
        let default = default_seating(info.seats, info.players, info.dealer);
        let ctx = || SeatingContext {
            seats: info.seats,
            dealer: info.dealer,
            hand_number: info.hand_number,
            sides: info.layout.sides.clone(),
            games: info.layout.games,
            default: default.clone(),
        };
        let Some(r) = self.call(point, ctx) else {
            return Ok(default);
        };
        let tables = as_array(point, "the seating", r?)?
            .into_iter()
            .map(|t| {
                let m = as_map(point, "a table", t)?;
                let dealer = as_seat(
                    point,
                    "a table's dealer",
                    field(point, "a table", &m, "dealer")?,
                    info.seats,
                )?;
                let players = as_array(
                    point,
                    "a table's players",
                    field(point, "a table", &m, "players")?.clone(),
                )?;
                let seated = players
                    .iter()
                    .map(|p| as_seat(point, "a player", p, info.seats))
                    .collect::<Result<Vec<Seat>, HookError>>()?;
                let Some(players) = ByRole::from_slice(&seated) else {
                    return Err(hook_error(
                        point,
                        format!(
                            "a table has {MIN_PLAYERS} to {MAX_PLAYERS} players; the hook returned {}: {}",
                            players.len(),
                            shown_array(&players)
                        ),
                    ));
                };
                Ok(TableSeating { dealer, players })
            })
            .collect::<Result<Vec<_>, HookError>>()?;
        check_seating(&tables, info.seats).map_err(|e| hook_error(point, e))?;
        Ok(tables)
    }

    fn score_hand(&self, info: &HandInfo) -> Result<HandScore, HookError> {
        let point = HookPoint::ScoreHand;
        let ctx = || HandContext {
            hand_number: info.hand_number,
            table: info.table,
            seating: info.seating,
            seats: self.ruleset.seats,
            outcome: info.outcome,
            knocker: info.knocker,
            opponent: info.opponent,
            knock_limit: info.knock_limit,
            upcard: info.upcard,
            stock: info.stock,
            turns: info.turns,
            multiplier: info.default.multiplier,
            hands: info.hands.get().into(),
            totals: seat_totals(info.layout, info.games, self.ruleset.seats),
            sides: info.layout.sides.as_slice().into(),
            games: info.games.into(),
            default: info.default.clone(),
        };
        let Some(r) = self.call(point, ctx) else {
            return Ok(info.default.clone());
        };
        let v = r?;
        if v.is_unit() {
            return Ok(info.default.clone());
        }
        let m = as_map(point, "the decision", v)?;
        let mut score = info.default.clone();
        for (k, v) in &m {
            match k.as_str() {
                "winner" if v.is_unit() => score.winner = None,
                "winner" => {
                    score.winner = Some(as_seat(point, "the winner", v, self.ruleset.seats)?)
                }
                "parts" => {
                    score.parts = as_array(point, "the parts", v.clone())?
                        .into_iter()
                        .map(|p| score_part(point, p))
                        .collect::<Result<_, _>>()?;
                }
                "multiplier" => {
                    score.multiplier = as_int(point, "the multiplier", v, 1, 1000)? as u32;
                }
                "boxes" => {
                    score.boxes =
                        as_int(point, "the boxes", v, 0, i64::from(MAX_HAND_BOXES))? as u32;
                }
                "wash" => {}
                _ => {
                    return Err(hook_error(
                        point,
                        format!(
                            "the decision has an unknown key `{k}` (keys: winner, parts, multiplier, boxes, wash)"
                        ),
                    ));
                }
            }
        }
        if let Some(w) = m.get("wash") {
            let wash = w
                .as_bool()
                .map_err(|t| hook_error(point, format!("`wash` must be true or false, not {t}")))?;
            if wash {
                score.winner = None;
                score.parts.clear();
                if !m.contains_key("boxes") {
                    score.boxes = 0;
                }
            } else if m.get("winner").is_some_and(Dynamic::is_unit) {
                return Err(hook_error(
                    point,
                    "`wash: false` with no winner (`winner: ()`): name the seat that scores",
                ));
            }
        }
        if score.winner.is_none() && !m.contains_key("boxes") {
            score.boxes = 0;
        }
        Ok(score)
    }

    fn record_result(&self, info: &RecordInfo) -> Result<Vec<ScoreEntry>, HookError> {
        let point = HookPoint::RecordResult;
        let ctx = || RecordContext {
            hand_number: info.hand_number,
            target: info.target,
            sides: info.layout.sides.as_slice().into(),
            games: info.games.into(),
            results: info.results.into(),
            default: default_entries(info),
        };
        let Some(r) = self.call(point, ctx) else {
            return Ok(default_entries(info));
        };
        let entries = as_array(point, "the entries", r?)?
            .into_iter()
            .map(|e| {
                let m = as_map(point, "an entry", e)?;
                let int = |key: &str, what: &str, hi: i64| {
                    as_int(point, what, field(point, "an entry", &m, key)?, 0, hi)
                };
                let game = int("game", "an entry's game", 255)?;
                let side = int("side", "an entry's side", 255)?;
                let points = int("points", "an entry's points", 1_000_000)?;
                let boxes = match m.get("boxes") {
                    Some(b) => as_int(point, "an entry's boxes", b, 0, i64::from(MAX_HAND_BOXES))?,
                    None => i64::from(points > 0),
                };
                Ok(ScoreEntry {
                    game: game as u8,
                    side: Side::new(side as u8),
                    points: points as u32,
                    boxes: boxes as u32,
                })
            })
            .collect::<Result<Vec<_>, HookError>>()?;
        check_entries(&entries, info.layout, info.games).map_err(|e| hook_error(point, e))?;
        Ok(entries)
    }

    fn next_dealer(&self, info: &DealerInfo) -> Result<Seat, HookError> {
        let point = HookPoint::NextDealer;
        let default = default_next_dealer(info);
        let ctx = || DealerContext {
            seats: info.seats,
            dealer: info.dealer,
            hand_number: info.hand_number,
            rule: info.rule,
            sides: info.layout.sides.as_slice().into(),
            results: info.results.into(),
            default,
        };
        let Some(r) = self.call(point, ctx) else {
            return Ok(default);
        };
        as_seat(point, "the next dealer", &r?, info.seats)
    }
}

/// A part of a hand's score as a script wrote it: `[name, points]` or `#{name, points}`.
fn score_part(point: HookPoint, v: Dynamic) -> Result<ScorePart, HookError> {
    let (name, points) = if v.is_array() {
        let a = as_array(point, "a part", v)?;
        let [name, points] = a.as_slice() else {
            return Err(hook_error(
                point,
                format!(
                    "a part is `[name, points]`, but this one has {} items",
                    a.len()
                ),
            ));
        };
        (name.clone(), points.clone())
    } else {
        let m = as_map(point, "a part (`[name, points]` or `#{name, points}`)", v)?;
        (
            field(point, "a part", &m, "name")?.clone(),
            field(point, "a part", &m, "points")?.clone(),
        )
    };
    let t = name.type_name();
    let name = name
        .into_string()
        .map_err(|_| hook_error(point, format!("a part's name must be a string, not {t}")))?;
    let limit = crate::engine::hooks::MAX_HAND_POINTS;
    let points = as_int(point, "a part's points", &points, -limit, limit)?;
    Ok(ScorePart::new(name, points))
}

/// Each seat's side's total over the games, before this hand.
fn seat_totals(layout: &MatchLayout, games: &[GameScore], seats: u8) -> Vec<i64> {
    Seat::all(seats)
        .map(|s| {
            layout.side_of(s).map_or(0, |side| {
                games
                    .iter()
                    .filter_map(|g| g.points.get(side.index()))
                    .fold(0i64, |a, &p| a.saturating_add(p))
            })
        })
        .collect()
}
