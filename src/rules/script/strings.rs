//! The functions of Rhai's packages that can grow a string, replaced by ones that check the size
//! before building it (the packages' `replace` builds the whole string first: two 8 KB strings
//! made 64 MB; `pad` with an empty padding never ends).

use rhai::{Dynamic, Engine, EvalAltResult, INT, ImmutableString, NativeCallContext};

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

/// What `replace` finds or puts: a string or a character.
trait Piece {
    fn with_text<R>(self, f: impl FnOnce(&str) -> R) -> R;
}

impl Piece for &str {
    fn with_text<R>(self, f: impl FnOnce(&str) -> R) -> R {
        f(self)
    }
}

impl Piece for char {
    fn with_text<R>(self, f: impl FnOnce(&str) -> R) -> R {
        f(self.encode_utf8(&mut [0; 4]))
    }
}

/// Registers the checked `replace`, `pad`, `+`, `+=` and `append` of strings.
pub(super) fn guard_string_growth(e: &mut Engine) {
    macro_rules! checked_replace {
        ($find:ty, $with:ty) => {
            e.register_fn(
                "replace",
                |ctx: NativeCallContext,
                 s: &mut ImmutableString,
                 find: $find,
                 with: $with|
                 -> RhaiResult<()> {
                    *s = find
                        .with_text(|find| with.with_text(|with| replaced(&ctx, s, find, with)))?;
                    Ok(())
                },
            );
        };
    }
    checked_replace!(&str, &str);
    checked_replace!(&str, char);
    checked_replace!(char, &str);
    checked_replace!(char, char);
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
