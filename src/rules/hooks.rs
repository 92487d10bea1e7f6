//! The Rhai sandbox and the hook points a script may implement.
//!
//! Every script is compiled once, when its ruleset loads, by a sandboxed engine: `Engine::new_raw()`
//! with only the arithmetic, logic, math, string, array and map packages (no `sleep`, no time, no
//! `eval`, no modules, no file or network access), strict variables, and limits on operations,
//! call depth, expression depth, string, array and map sizes. The functions that grow a string
//! (`+`, `+=`, `append`, `replace`, `pad`) refuse, before building it, a string over the size
//! limit. Time is bounded per call, or, inside [`with_budget`], by one budget of time and
//! operations that every hook a request runs shares. `print` and `debug` go to `tracing` at debug
//! level (target `gin_rules::script`), cut to [`MAX_PRINT_CHARS`] characters, at most
//! [`MAX_PRINT_LINES`] lines per call or per budget.
//!
//! A script defines functions. Each public function must be a hook point ([`HookPoint`]) taking
//! one parameter, the context: a read-only object of a type registered with the sandbox
//! ([`objects`]), whose fields are properties (`ctx.dealer`, `ctx["default"]`) made into Rhai
//! values only when read; helpers are `private fn`. Nothing else may stand at the top of a script. The YAML file binds
//! each hook point to a script under `hooks:`.
//!
//! Contexts and decisions, as a script sees them (cards are strings like `"TD"`, seats integers
//! from 0, `target` a number of points or `"single_hand"`; `default` is always what the plain
//! data would decide, so a script can fall back on it):
//!
//! | hook | context fields | returns |
//! |---|---|---|
//! | `knock_limit` | `upcard`, `upcard_rank` (`"T"`), `upcard_suit` (`"D"`), `upcard_value`, `values` (rank → value), `dealer`, `hand_number`, `totals` (per seat), `seats`, `hand_size`, `default` (the ruleset's limit or `()`) | a limit 0..=the largest deadwood of a hand, or `()` for only gin |
//! | `score_multiplier` | as `knock_limit`, with `default` 1 | an integer 1..=1000 |
//! | `match_layout` | `seats`, `target`, `default` | `#{sides: [[0, 2], [1, 3]], games: 3}`; either key may be left out (the default's), or `()` |
//! | `seating` | `seats`, `dealer`, `hand_number`, `sides`, `games`, `default` | an array of `#{dealer: 0, players: [1, 0]}` (players: first to act, dealer's role) |
//! | `record_result` | `hand_number`, `target`, `sides`, `games` (each an object with `points: [..]`, `hands_won: [..]`, `closed`), `results` (each an object with `table`, `dealer`, `players`, `outcome`, `winner`, `points`, `multiplier`; `winner` `()` when dead), `default` | an array of `#{game, side, points}` |
//! | `next_dealer` | `seats`, `dealer`, `hand_number`, `rule` (`"loser"`...), `sides`, `results`, `default` | a seat |
//!
//! Helper functions every script may call: `card_rank("TD")` → `"T"`, `card_suit("TD")` → `"D"`,
//! `entries(games, side, points)` → an entry `#{game, side, points}` per game of `games`; and
//! `record_result`'s `ctx.open_games(side, new)` → the open games where `side` has points, and the
//! first `new` open games where it has none, in order. These two do natively what a script would
//! walk arrays for: each statement a script runs costs about as much as a whole helper call.

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use super::cpu_clock;

mod objects;

use objects::{
    DealConstants, DealContext, DealerContext, LayoutContext, Object, RecordContext, SeatingContext,
};

use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicIteratorPackage, BasicMapPackage, BasicMathPackage,
    BasicStringPackage, LogicPackage, MoreStringPackage, Package,
};
use rhai::{
    AST, Array, CallFnOptions, Dynamic, Engine, EvalAltResult, FnAccess, INT, ImmutableString, Map,
    NativeCallContext, Scope,
};

use crate::hooks::{
    DealInfo, DealerInfo, HookError, Hooks, LayoutInfo, MatchLayout, RecordInfo, ScoreEntry,
    SeatingInfo, TableSeating, check_entries, check_seating, default_entries, default_next_dealer,
    default_seating,
};
use crate::ruleset::Ruleset;
use crate::seat::{Seat, Side};

use super::RulesetError;
use super::suggest::did_you_mean;

/// Most operations one hook call may run.
pub const MAX_OPERATIONS: u64 = 100_000;
/// Deepest call nesting (script functions calling each other).
pub const MAX_CALL_LEVELS: usize = 32;
/// Longest string a script may build.
pub const MAX_STRING: usize = 8_192;
/// Largest array a script may build.
pub const MAX_ARRAY: usize = 1_024;
/// Largest map a script may build.
pub const MAX_MAP: usize = 256;
/// Longest script source.
pub const MAX_SCRIPT_BYTES: usize = 64 * 1024;
/// CPU time one hook call may take outside a [`with_budget`] (the command line).
pub const MAX_CALL_TIME: Duration = Duration::from_millis(250);
/// The longest `print` or `debug` line logged; the rest is cut.
pub const MAX_PRINT_CHARS: usize = 200;
/// The most `print` and `debug` lines logged per call, or per budget.
pub const MAX_PRINT_LINES: u32 = 20;

/// The points where a script may decide a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HookPoint {
    /// The knock limit of a hand, at the deal.
    KnockLimit,
    /// The multiplier of every score of a hand, at the deal.
    ScoreMultiplier,
    /// Sides and games of the match, when it starts.
    MatchLayout,
    /// Tables and who sits out, before each deal.
    Seating,
    /// How a deal's results enter the match.
    RecordResult,
    /// The next dealer.
    NextDealer,
}

impl HookPoint {
    pub const ALL: [HookPoint; 6] = [
        HookPoint::KnockLimit,
        HookPoint::ScoreMultiplier,
        HookPoint::MatchLayout,
        HookPoint::Seating,
        HookPoint::RecordResult,
        HookPoint::NextDealer,
    ];

    /// The function name and YAML key.
    pub const fn name(self) -> &'static str {
        match self {
            HookPoint::KnockLimit => "knock_limit",
            HookPoint::ScoreMultiplier => "score_multiplier",
            HookPoint::MatchLayout => "match_layout",
            HookPoint::Seating => "seating",
            HookPoint::RecordResult => "record_result",
            HookPoint::NextDealer => "next_dealer",
        }
    }

    pub fn from_name(name: &str) -> Option<HookPoint> {
        HookPoint::ALL.into_iter().find(|p| p.name() == name)
    }

    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for HookPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One budget shared by every hook call of a request (or of anything run inside
/// [`with_budget`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// CPU time of the thread that all the calls together may use.
    pub time: Duration,
    /// Operations all the calls together may run (each call also stops at [`MAX_OPERATIONS`]).
    pub operations: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            time: Duration::from_millis(250),
            operations: 400_000,
        }
    }
}

/// What is left of the budget on this thread.
#[derive(Clone, Copy, Debug)]
struct Spending {
    budget: Budget,
    /// The thread's CPU time ([`cpu_clock`]) at which the budget is spent.
    deadline: Duration,
    operations_left: u64,
}

/// Why [`Engine::on_progress`] stopped a call.
const OUT_OF_TIME: &str = "out of time";
const OUT_OF_OPERATIONS: &str = "out of operations";

thread_local! {
    /// The budget of the calls on this thread; `None`: each call has its own limits.
    static SPENDING: Cell<Option<Spending>> = const { Cell::new(None) };
    /// The running call's deadline and the operations it may run. A deadline of `None` is set
    /// at the call's first time check, [`MAX_CALL_TIME`] ahead: a call of fewer operations than
    /// a check's interval never reads the clock (a system call).
    static CALL_LIMIT: Cell<Option<(Option<Duration>, u64)>> = const { Cell::new(None) };
    /// Operations the running call has run so far.
    static CALL_OPERATIONS: Cell<u64> = const { Cell::new(0) };
    static PRINT_LINES_LEFT: Cell<u32> = const { Cell::new(MAX_PRINT_LINES) };
    static OBSERVER: RefCell<Option<Observer>> = const { RefCell::new(None) };
    /// The scope of the calls on this thread, empty between calls: it keeps its room, so a call
    /// does not allocate one afresh.
    static SCOPE: RefCell<Scope<'static>> = RefCell::new(Scope::new());
}

/// Runs `run` with one budget for every hook it calls on this thread: the calls share `budget`'s
/// time and operations (and [`MAX_PRINT_LINES`]), instead of each having its own limit. What a
/// request does runs inside one.
pub fn with_budget<R>(budget: Budget, run: impl FnOnce() -> R) -> R {
    struct Restore(Option<Spending>, u32);
    impl Drop for Restore {
        fn drop(&mut self) {
            SPENDING.with(|s| s.set(self.0));
            PRINT_LINES_LEFT.with(|p| p.set(self.1));
        }
    }
    let before = SPENDING.with(|s| {
        s.replace(Some(Spending {
            budget,
            deadline: cpu_clock::now() + budget.time,
            operations_left: budget.operations,
        }))
    });
    let _restore = Restore(
        before,
        PRINT_LINES_LEFT.with(|p| p.replace(MAX_PRINT_LINES)),
    );
    run()
}

type Observer = Box<dyn FnMut(HookPoint, &Map)>;

/// Runs `run` with every hook context that [`ScriptHooks`] builds on this thread shown to
/// `observe` first, whether or not a script is bound to its point: how `docs/hooks.md` and its
/// test read the contexts of real deals.
pub fn observe_contexts<R>(
    observe: impl FnMut(HookPoint, &Map) + 'static,
    run: impl FnOnce() -> R,
) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            OBSERVER.with(|o| o.replace(None));
        }
    }
    OBSERVER.with(|o| o.replace(Some(Box::new(observe))));
    let _reset = Reset;
    run()
}

fn sandbox() -> Engine {
    let mut e = Engine::new_raw();
    e.register_global_module(ArithmeticPackage::new().as_shared_module());
    e.register_global_module(LogicPackage::new().as_shared_module());
    e.register_global_module(BasicMathPackage::new().as_shared_module());
    e.register_global_module(BasicStringPackage::new().as_shared_module());
    e.register_global_module(MoreStringPackage::new().as_shared_module());
    e.register_global_module(BasicIteratorPackage::new().as_shared_module());
    e.register_global_module(BasicArrayPackage::new().as_shared_module());
    e.register_global_module(BasicMapPackage::new().as_shared_module());
    e.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
    e.set_max_modules(0);
    e.set_max_operations(MAX_OPERATIONS);
    e.set_max_call_levels(MAX_CALL_LEVELS);
    e.set_max_expr_depths(64, 32);
    e.set_max_string_size(MAX_STRING);
    e.set_max_array_size(MAX_ARRAY);
    e.set_max_map_size(MAX_MAP);
    e.set_max_functions(256);
    e.set_max_variables(256);
    e.set_strict_variables(true);
    // A misspelt context field is an error with its name, not a silent `()`.
    e.set_fail_on_invalid_map_property(true);
    e.disable_symbol("eval");
    e.on_print(|s| log_script_line(s, None, None));
    e.on_debug(|s, source, pos| log_script_line(s, source, pos.line()));
    e.on_progress(|ops| {
        CALL_OPERATIONS.with(|c| c.set(ops));
        let (deadline, allowed) = CALL_LIMIT.with(Cell::get)?;
        if ops > allowed {
            return Some(Dynamic::from(OUT_OF_OPERATIONS));
        }
        if ops % 64 == 0 {
            let now = cpu_clock::now();
            match deadline {
                Some(deadline) if now > deadline => return Some(Dynamic::from(OUT_OF_TIME)),
                Some(_) => {}
                None => CALL_LIMIT.with(|c| c.set(Some((Some(now + MAX_CALL_TIME), allowed)))),
            }
        }
        None
    });
    guard_string_growth(&mut e);
    objects::register_all(&mut e);
    e.register_fn("card_rank", |c: &str| -> String {
        c.chars().take(1).collect()
    });
    e.register_fn("card_suit", |c: &str| -> String {
        c.chars().skip(1).take(1).collect()
    });
    e
}

/// Logs a script's `print` or `debug` line at debug level, cut to [`MAX_PRINT_CHARS`] characters
/// and with control characters escaped, while lines are left for this call or budget.
fn log_script_line(text: &str, source: Option<&str>, line: Option<usize>) {
    let left = PRINT_LINES_LEFT.with(|p| {
        let left = p.get();
        p.set(left.saturating_sub(1));
        left
    });
    if left == 0 || !tracing::enabled!(target: "gin_rules::script", tracing::Level::DEBUG) {
        return;
    }
    let mut cut = String::with_capacity(text.len().min(MAX_PRINT_CHARS * 2));
    for c in text.chars().take(MAX_PRINT_CHARS) {
        if c.is_control() {
            cut.extend(c.escape_default());
        } else {
            cut.push(c);
        }
    }
    if text.chars().nth(MAX_PRINT_CHARS).is_some() {
        cut.push_str("...");
    }
    tracing::debug!(
        target: "gin_rules::script",
        source = source.unwrap_or(""),
        line,
        "{cut}"
    );
    if left == 1 {
        tracing::debug!(
            target: "gin_rules::script",
            "more script output is not logged (at most {MAX_PRINT_LINES} lines per request)"
        );
    }
}

type RhaiResult<T> = Result<T, Box<EvalAltResult>>;

/// `ErrorDataTooLarge` when a string of `len` bytes would be over the engine's limit.
fn check_string_size(ctx: &NativeCallContext, len: Option<usize>) -> RhaiResult<()> {
    let max = ctx.engine().max_string_size();
    match len {
        Some(len) if max == 0 || len <= max => Ok(()),
        _ => Err(
            EvalAltResult::ErrorDataTooLarge("Length of string".into(), ctx.call_position()).into(),
        ),
    }
}

/// A value as `+` and `append` write it into a string.
fn as_text(ctx: &NativeCallContext, item: Dynamic) -> ImmutableString {
    if item.is_unit() {
        return ImmutableString::new();
    }
    if item.is_string() {
        return item.into_immutable_string().unwrap_or_default();
    }
    let shown = item.to_string();
    ctx.call_native_fn::<ImmutableString>("to_string", (item,))
        .unwrap_or_else(|_| shown.into())
}

/// `string` with every `find` replaced by `with`, refused before it is built when too long.
fn replaced(
    ctx: &NativeCallContext,
    string: &ImmutableString,
    find: &str,
    with: &str,
) -> RhaiResult<ImmutableString> {
    if string.is_empty() {
        return Ok(string.clone());
    }
    let n = string.matches(find).count();
    let len = n
        .checked_mul(with.len())
        .and_then(|added| (string.len() - n * find.len()).checked_add(added));
    check_string_size(ctx, len)?;
    Ok(string.replace(find, with).into())
}

/// `string` padded with `padding` to `len` characters, refused before it is built when too long.
fn padded(
    ctx: &NativeCallContext,
    string: &mut ImmutableString,
    len: INT,
    padding: &str,
) -> RhaiResult<()> {
    let have = string.chars().count();
    let width = padding.chars().count();
    let Ok(len) = usize::try_from(len) else {
        return Ok(());
    };
    if len <= have || width == 0 {
        return Ok(());
    }
    let missing = len - have;
    let (whole, rest) = (missing / width, missing % width);
    let rest: &str = match padding.char_indices().nth(rest) {
        Some((i, _)) => &padding[..i],
        None => padding,
    };
    let bytes = whole
        .checked_mul(padding.len())
        .and_then(|b| b.checked_add(rest.len()))
        .and_then(|b| b.checked_add(string.len()));
    check_string_size(ctx, bytes)?;
    let s = string.make_mut();
    for _ in 0..whole {
        s.push_str(padding);
    }
    s.push_str(rest);
    Ok(())
}

/// Replaces the string functions of Rhai's packages that can grow a string by ones that check the
/// size before building it (the packages' `replace` builds the whole string first: two 8 KB
/// strings made 64 MB; `pad` with an empty padding never ends).
fn guard_string_growth(e: &mut Engine) {
    e.register_fn(
        "replace",
        |ctx: NativeCallContext,
         s: &mut ImmutableString,
         find: &str,
         with: &str|
         -> RhaiResult<()> {
            *s = replaced(&ctx, s, find, with)?;
            Ok(())
        },
    );
    e.register_fn(
        "replace",
        |ctx: NativeCallContext,
         s: &mut ImmutableString,
         find: &str,
         with: char|
         -> RhaiResult<()> {
            *s = replaced(&ctx, s, find, with.encode_utf8(&mut [0; 4]))?;
            Ok(())
        },
    );
    e.register_fn(
        "replace",
        |ctx: NativeCallContext,
         s: &mut ImmutableString,
         find: char,
         with: &str|
         -> RhaiResult<()> {
            *s = replaced(&ctx, s, find.encode_utf8(&mut [0; 4]), with)?;
            Ok(())
        },
    );
    e.register_fn(
        "replace",
        |ctx: NativeCallContext,
         s: &mut ImmutableString,
         find: char,
         with: char|
         -> RhaiResult<()> {
            let with = with.to_string();
            *s = replaced(&ctx, s, find.encode_utf8(&mut [0; 4]), &with)?;
            Ok(())
        },
    );
    e.register_fn(
        "pad",
        |ctx: NativeCallContext, s: &mut ImmutableString, len: INT, c: char| -> RhaiResult<()> {
            padded(&ctx, s, len, c.encode_utf8(&mut [0; 4]))
        },
    );
    e.register_fn(
        "pad",
        |ctx: NativeCallContext, s: &mut ImmutableString, len: INT, p: &str| -> RhaiResult<()> {
            padded(&ctx, s, len, p)
        },
    );
    fn joined(ctx: &NativeCallContext, a: &str, b: &str) -> RhaiResult<ImmutableString> {
        check_string_size(ctx, a.len().checked_add(b.len()))?;
        let mut s = String::with_capacity(a.len() + b.len());
        s.push_str(a);
        s.push_str(b);
        Ok(s.into())
    }
    e.register_fn(
        "+",
        |ctx: NativeCallContext,
         s: ImmutableString,
         item: Dynamic|
         -> RhaiResult<ImmutableString> {
            let item = as_text(&ctx, item);
            joined(&ctx, &s, &item)
        },
    );
    e.register_fn(
        "+",
        |ctx: NativeCallContext,
         item: Dynamic,
         s: ImmutableString|
         -> RhaiResult<ImmutableString> {
            let item = as_text(&ctx, item);
            joined(&ctx, &item, &s)
        },
    );
    for name in ["+=", "append"] {
        e.register_fn(
            name,
            |ctx: NativeCallContext, s: &mut ImmutableString, item: Dynamic| -> RhaiResult<()> {
                let item = as_text(&ctx, item);
                *s = joined(&ctx, s, &item)?;
                Ok(())
            },
        );
    }
}

static ENGINE: LazyLock<Engine> = LazyLock::new(sandbox);

/// A compiled hook script.
pub struct Script {
    /// The file name beside the YAML file (`oklahoma.rhai`).
    pub name: String,
    ast: AST,
    /// The hook points it defines.
    pub points: BTreeSet<HookPoint>,
}

impl fmt::Debug for Script {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Script")
            .field("name", &self.name)
            .field("points", &self.points)
            .finish()
    }
}

fn script_error(
    name: &str,
    line: Option<u32>,
    column: Option<u32>,
    message: String,
) -> RulesetError {
    RulesetError {
        path: name.to_string(),
        line,
        column,
        field: None,
        kind: super::ErrorKind::Script,
        message,
    }
}

/// Where `fn NAME` is written in `text`, 1-based.
fn find_fn(text: &str, name: &str) -> (Option<u32>, Option<u32>) {
    let needle = format!("fn {name}");
    for (i, line) in text.lines().enumerate() {
        if let Some(col) = line.find(&needle) {
            let after = line[col + needle.len()..].chars().next();
            if after.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) {
                return (Some(i as u32 + 1), Some(col as u32 + 1));
            }
        }
    }
    (None, None)
}

/// The first line at the top level of `text` that is not a function, a comment or blank.
fn first_statement(text: &str) -> Option<u32> {
    let mut depth = 0i32;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if depth == 0
            && !t.is_empty()
            && !t.starts_with("//")
            && !t.starts_with("/*")
            && !t.starts_with('*')
            && !t.starts_with("fn ")
            && !t.starts_with("private fn ")
            && !t.starts_with('}')
        {
            return Some(i as u32 + 1);
        }
        depth += t.matches('{').count() as i32 - t.matches('}').count() as i32;
    }
    None
}

/// Compiles a hook script, checking that it defines only hook points and private helpers.
pub fn compile(name: &str, text: &str) -> Result<Script, Vec<RulesetError>> {
    if text.len() > MAX_SCRIPT_BYTES {
        return Err(vec![script_error(
            name,
            None,
            None,
            format!(
                "the script is {} bytes; the limit is {MAX_SCRIPT_BYTES}",
                text.len()
            ),
        )]);
    }
    let mut ast = match ENGINE.compile(text) {
        Ok(ast) => ast,
        Err(e) => {
            let pos = e.position();
            return Err(vec![script_error(
                name,
                pos.line().map(|l| l as u32),
                pos.position().map(|c| c as u32),
                format!("syntax error: {}", e.err_type()),
            )]);
        }
    };
    ast.set_source(name.to_string());
    let mut errors = Vec::new();
    let body: &[_] = ast.as_ref();
    if !body.is_empty() {
        errors.push(script_error(
            name,
            first_statement(text),
            first_statement(text).map(|_| 1),
            "a hook script may only define functions (hook points, and `private fn` helpers); \
             move this statement into a function"
                .into(),
        ));
    }
    let mut points = BTreeSet::new();
    let names: Vec<&str> = HookPoint::ALL.iter().map(|p| p.name()).collect();
    for f in ast.iter_functions() {
        if f.access == FnAccess::Private {
            continue;
        }
        let (line, column) = find_fn(text, f.name);
        match HookPoint::from_name(f.name) {
            None => {
                let hint = match did_you_mean(f.name, names.iter().copied()) {
                    Some(s) => format!("; did you mean `{s}`?"),
                    None => format!(" (hook points: {})", names.join(", ")),
                };
                errors.push(script_error(
                    name,
                    line,
                    column,
                    format!(
                        "function `{}` is not a hook point{hint} (write `private fn` for a helper)",
                        f.name
                    ),
                ));
            }
            Some(p) if f.params.len() != 1 => errors.push(script_error(
                name,
                line,
                column,
                format!(
                    "hook `{p}` takes one parameter (the context), not {}",
                    f.params.len()
                ),
            )),
            Some(p) => {
                points.insert(p);
            }
        }
    }
    if errors.is_empty() {
        Ok(Script {
            name: name.to_string(),
            ast,
            points,
        })
    } else {
        Err(errors)
    }
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
    bindings: [Option<Binding>; 6],
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

fn hook_error(point: HookPoint, message: impl Into<String>) -> HookError {
    HookError {
        hook: point.name().to_string(),
        message: message.into(),
    }
}

/// Reads an integer a script returned, within `lo..=hi`.
fn as_int(point: HookPoint, what: &str, v: &Dynamic, lo: i64, hi: i64) -> Result<i64, HookError> {
    match v.as_int() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        Ok(n) => Err(hook_error(
            point,
            format!("{what} {n} is out of range ({lo} to {hi})"),
        )),
        Err(t) => Err(hook_error(
            point,
            format!("{what} must be an integer, not {t}"),
        )),
    }
}

fn as_array(point: HookPoint, what: &str, v: Dynamic) -> Result<Array, HookError> {
    let t = v.type_name();
    v.try_cast::<Array>()
        .ok_or_else(|| hook_error(point, format!("{what} must be an array, not {t}")))
}

fn as_map(point: HookPoint, what: &str, v: Dynamic) -> Result<Map, HookError> {
    let t = v.type_name();
    v.try_cast::<Map>()
        .ok_or_else(|| hook_error(point, format!("{what} must be a map, not {t}")))
}

fn field<'m>(
    point: HookPoint,
    what: &str,
    m: &'m Map,
    key: &str,
) -> Result<&'m Dynamic, HookError> {
    m.get(key)
        .ok_or_else(|| hook_error(point, format!("{what} has no `{key}`")))
}

fn as_seat(point: HookPoint, what: &str, v: &Dynamic, seats: u8) -> Result<Seat, HookError> {
    as_int(point, what, v, 0, i64::from(seats) - 1).map(|s| Seat::new(s as u8))
}

impl ScriptHooks {
    /// Hooks for `ruleset` with the given bindings (at most one per point; later ones win).
    pub fn new(ruleset: Arc<Ruleset>, bindings: impl IntoIterator<Item = Binding>) -> ScriptHooks {
        let mut table: [Option<Binding>; 6] = Default::default();
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
    /// bound. The context is built only for a script, or for an observer ([`observe_contexts`]).
    fn call<C: Object>(
        &self,
        point: HookPoint,
        ctx: impl FnOnce() -> C,
    ) -> Option<Result<Dynamic, HookError>> {
        let binding = self.binding(point);
        let observed = OBSERVER.with(|o| o.try_borrow().is_ok_and(|o| o.is_some()));
        if binding.is_none() && !observed {
            return None;
        }
        let ctx = ctx();
        if observed {
            OBSERVER.with(|o| {
                if let Ok(mut o) = o.try_borrow_mut()
                    && let Some(observe) = o.as_mut()
                {
                    observe(point, &ctx.to_map());
                }
            });
        }
        let b = binding?;
        let spending = SPENDING.with(Cell::get);
        let (deadline, allowed) = match spending {
            Some(s) => {
                if s.operations_left == 0 || cpu_clock::now() > s.deadline {
                    return Some(Err(hook_error(
                        point,
                        format!("{}: {}", b.script.name, budget_spent(s.budget)),
                    )));
                }
                (Some(s.deadline), s.operations_left)
            }
            None => {
                PRINT_LINES_LEFT.with(|p| p.set(MAX_PRINT_LINES));
                (None, MAX_OPERATIONS)
            }
        };
        let run = || {
            CALL_LIMIT.with(|c| c.set(Some((deadline, allowed))));
            CALL_OPERATIONS.with(|c| c.set(0));
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
            let r = SCOPE.with(|s| match s.try_borrow_mut() {
                Ok(mut scope) => {
                    scope.clear();
                    let r = call(&mut scope);
                    scope.clear();
                    r
                }
                Err(_) => call(&mut Scope::new()),
            });
            CALL_LIMIT.with(|c| c.set(None));
            r
        };
        let outcome = catch_unwind(AssertUnwindSafe(run));
        CALL_LIMIT.with(|c| c.set(None));
        if let Some(mut s) = spending {
            let used = CALL_OPERATIONS.with(Cell::get);
            s.operations_left = s.operations_left.saturating_sub(used);
            SPENDING.with(|c| c.set(Some(s)));
        }
        let result = match outcome {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(hook_error(
                point,
                describe_eval_error(point, &b.script.name, &e, spending.map(|s| s.budget)),
            )),
            Err(_) => Err(hook_error(point, format!("{} crashed", b.script.name))),
        };
        Some(result)
    }
}

/// The failure of a call that found the request's budget spent.
fn budget_spent(b: Budget) -> String {
    format!(
        "the hooks of this request ran over their shared budget ({} ms, {} operations)",
        b.time.as_millis(),
        b.operations
    )
}

/// A script failure in a player's words, with the script and position.
fn describe_eval_error(
    point: HookPoint,
    script: &str,
    e: &EvalAltResult,
    budget: Option<Budget>,
) -> String {
    let pos = e.position();
    let at = match (pos.line(), pos.position()) {
        (Some(l), Some(c)) => format!("{script}:{l}:{c}: "),
        (Some(l), None) => format!("{script}:{l}: "),
        _ => format!("{script}: "),
    };
    if let Some(name) = objects::missing_field(e) {
        let context = super::contexts::context_of(point);
        let what = match did_you_mean(name, context.names_within()) {
            Some(known) => format!("no field `{name}`; did you mean `{known}`?"),
            None => format!(
                "no field `{name}` (the {point} context has: {})",
                context.names().collect::<Vec<_>>().join(", ")
            ),
        };
        return format!("{at}{what}");
    }
    let what = match e {
        EvalAltResult::ErrorTooManyOperations(_) => {
            format!("ran over its limit of {MAX_OPERATIONS} operations (an endless loop?)")
        }
        EvalAltResult::ErrorTerminated(why, _) => match budget {
            Some(b) => budget_spent(b),
            None if why
                .clone()
                .into_string()
                .is_ok_and(|w| w == OUT_OF_OPERATIONS) =>
            {
                format!("ran over its limit of {MAX_OPERATIONS} operations (an endless loop?)")
            }
            None => format!(
                "ran over its time limit of {} ms",
                MAX_CALL_TIME.as_millis()
            ),
        },
        EvalAltResult::ErrorStackOverflow(_) => {
            format!("called functions more than {MAX_CALL_LEVELS} deep (runaway recursion?)")
        }
        EvalAltResult::ErrorDataTooLarge(what, _) => format!(
            "{what} over its limit (strings {MAX_STRING} bytes, arrays {MAX_ARRAY}, maps {MAX_MAP})"
        ),
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => {
            return describe_eval_error(point, script, inner, budget);
        }
        other => other.to_string(),
    };
    format!("{at}{what}")
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
            layout.games = as_int(point, "games", g, 1, i64::from(crate::hooks::MAX_GAMES))? as u8;
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
        let default = default_seating(info.seats, info.dealer);
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
                let [a, b] = players.as_slice() else {
                    return Err(hook_error(point, "a table has two players"));
                };
                Ok(TableSeating {
                    dealer,
                    players: [
                        as_seat(point, "a player", a, info.seats)?,
                        as_seat(point, "a player", b, info.seats)?,
                    ],
                })
            })
            .collect::<Result<Vec<_>, HookError>>()?;
        check_seating(&tables, info.seats).map_err(|e| hook_error(point, e))?;
        Ok(tables)
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
                let game = as_int(
                    point,
                    "an entry's game",
                    field(point, "an entry", &m, "game")?,
                    0,
                    255,
                )?;
                let side = as_int(
                    point,
                    "an entry's side",
                    field(point, "an entry", &m, "side")?,
                    0,
                    255,
                )?;
                let points = as_int(
                    point,
                    "an entry's points",
                    field(point, "an entry", &m, "points")?,
                    0,
                    1_000_000,
                )?;
                Ok(ScoreEntry {
                    game: game as u8,
                    side: Side::new(side as u8),
                    points: points as u32,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_points_name_themselves() {
        for p in HookPoint::ALL {
            assert_eq!(HookPoint::from_name(p.name()), Some(p));
            assert_eq!(HookPoint::ALL[p.index()], p);
        }
        assert_eq!(HookPoint::from_name("knock"), None);
    }

    #[test]
    fn a_script_lists_its_hook_points() {
        let s = compile(
            "o.rhai",
            "// c\nfn knock_limit(ctx) { 1 }\nfn score_multiplier(ctx) { helper() }\nprivate fn helper() { 2 }\n",
        )
        .unwrap();
        assert_eq!(
            s.points.iter().copied().collect::<Vec<_>>(),
            [HookPoint::KnockLimit, HookPoint::ScoreMultiplier]
        );
    }

    #[test]
    fn a_hook_takes_one_parameter() {
        let e = compile("o.rhai", "fn seating(a, b) { [] }").unwrap_err();
        assert_eq!(
            e[0].to_string(),
            "o.rhai:1:1: hook `seating` takes one parameter (the context), not 2"
        );
    }

    #[test]
    fn places_in_the_script_text() {
        let text = "// x\nfn knock_limitx(c) {}\n  fn knock_limit(c) {\n  }\nlet y = 2;\n";
        assert_eq!(find_fn(text, "knock_limit"), (Some(3), Some(3)));
        assert_eq!(first_statement(text), Some(5));
    }

    #[test]
    fn helpers_read_cards() {
        let v: String = ENGINE.eval(r#"card_rank("TD") + card_suit("TD")"#).unwrap();
        assert_eq!(v, "TD");
    }
}
