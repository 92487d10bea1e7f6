//! The sandboxed Rhai engine every script is compiled and run by: `Engine::new_raw()` with only
//! the arithmetic, logic, math, string, array and map packages (no `sleep`, no time, no `eval`, no
//! modules, no file or network access), strict variables, and limits on operations, call depth,
//! expression depth, string, array and map sizes. `print` and `debug` go to `tracing` at debug
//! level (target `gin_rules::script`), cut to [`MAX_PRINT_CHARS`] characters, at most
//! [`MAX_PRINT_LINES`] lines per call or per budget.

use std::sync::LazyLock;

use rhai::Engine;
use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicIteratorPackage, BasicMapPackage, BasicMathPackage,
    BasicStringPackage, LogicPackage, MoreStringPackage, Package,
};

use super::budget::{progress, take_print_line};
use super::limits::{
    MAX_ARRAY, MAX_CALL_LEVELS, MAX_MAP, MAX_OPERATIONS, MAX_PRINT_CHARS, MAX_PRINT_LINES,
    MAX_STRING,
};
use super::objects;
use super::observe::{HookTrace, is_traced, trace};
use super::strings::guard_string_growth;

/// The one engine, built on first use.
pub(super) static ENGINE: LazyLock<Engine> = LazyLock::new(sandbox);

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
    e.on_progress(progress);
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
    let left = take_print_line();
    let traced = is_traced();
    let logged = left > 0 && tracing::enabled!(target: "gin_rules::script", tracing::Level::DEBUG);
    if !logged && !traced {
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
    if traced {
        trace(|| HookTrace::Output(cut.clone()));
    }
    if !logged {
        return;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_read_cards() {
        let v: String = ENGINE.eval(r#"card_rank("TD") + card_suit("TD")"#).unwrap();
        assert_eq!(v, "TD");
    }
}
