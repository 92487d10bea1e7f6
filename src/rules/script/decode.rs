//! Reading the value a script returned as the decision the engine expects, refusing, with the
//! hook's name, a value of the wrong type or out of range.

use rhai::{Array, Dynamic, Map};

use crate::engine::hooks::HookError;
use crate::seat::Seat;

use super::point::HookPoint;

pub(super) fn hook_error(point: HookPoint, message: impl Into<String>) -> HookError {
    HookError {
        hook: point.name().to_string(),
        message: message.into(),
    }
}

/// An array a script returned, as a message shows it: its first few values, each cut short.
pub(super) fn shown_array(values: &[Dynamic]) -> String {
    const SHOWN: usize = 8;
    const CHARS: usize = 24;
    let mut parts: Vec<String> = values
        .iter()
        .take(SHOWN)
        .map(|v| {
            let text = v.to_string();
            match text.char_indices().nth(CHARS) {
                Some((cut, _)) => format!("{}...", &text[..cut]),
                None => text,
            }
        })
        .collect();
    if values.len() > SHOWN {
        parts.push("...".to_string());
    }
    format!("[{}]", parts.join(", "))
}

/// Reads an integer a script returned, within `lo..=hi`.
pub(super) fn as_int(
    point: HookPoint,
    what: &str,
    v: &Dynamic,
    lo: i64,
    hi: i64,
) -> Result<i64, HookError> {
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

pub(super) fn as_array(point: HookPoint, what: &str, v: Dynamic) -> Result<Array, HookError> {
    let t = v.type_name();
    v.try_cast::<Array>()
        .ok_or_else(|| hook_error(point, format!("{what} must be an array, not {t}")))
}

pub(super) fn as_map(point: HookPoint, what: &str, v: Dynamic) -> Result<Map, HookError> {
    let t = v.type_name();
    v.try_cast::<Map>()
        .ok_or_else(|| hook_error(point, format!("{what} must be a map, not {t}")))
}

pub(super) fn field<'m>(
    point: HookPoint,
    what: &str,
    m: &'m Map,
    key: &str,
) -> Result<&'m Dynamic, HookError> {
    m.get(key)
        .ok_or_else(|| hook_error(point, format!("{what} has no `{key}`")))
}

pub(super) fn as_seat(
    point: HookPoint,
    what: &str,
    v: &Dynamic,
    seats: u8,
) -> Result<Seat, HookError> {
    as_int(point, what, v, 0, i64::from(seats) - 1).map(|s| Seat::new(s as u8))
}
