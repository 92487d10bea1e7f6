//! Whole numbers as JSON may spell them: `85` and `85.0` are the same number to JSON and to JSON
//! Schema, so a field the OpenAPI document declares as an integer takes both. For request fields
//! with `#[serde(deserialize_with = "crate::whole_number::u8")]` (or `option_u8`, ...).

use std::fmt;
use std::marker::PhantomData;

use serde::Deserializer;
use serde::de::{self, Unexpected, Visitor};

/// 2^64: the first float past `u64::MAX`.
const PAST_U64: f64 = 18_446_744_073_709_551_616.0;

struct Whole<T> {
    max: u64,
    into: PhantomData<T>,
}

impl<T: TryFrom<u64>> Whole<T> {
    fn new(max: u64) -> Whole<T> {
        Whole {
            max,
            into: PhantomData,
        }
    }
}

impl<'de, T: TryFrom<u64>> Visitor<'de> for Whole<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a whole number from 0 to {}", self.max)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        if v > self.max {
            return Err(E::invalid_value(Unexpected::Unsigned(v), &self));
        }
        T::try_from(v).map_err(|_| E::invalid_value(Unexpected::Unsigned(v), &self))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::invalid_value(Unexpected::Signed(v), &self)),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        if v.fract() == 0.0 && (0.0..PAST_U64).contains(&v) {
            // Exact: a whole float below 2^64 is a u64.
            self.visit_u64(v as u64)
        } else {
            Err(E::invalid_value(Unexpected::Float(v), &self))
        }
    }
}

struct OptionalWhole<T>(Whole<T>);

impl<'de, T: TryFrom<u64>> Visitor<'de> for OptionalWhole<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.expecting(f)?;
        f.write_str(" or null")
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
        d.deserialize_any(self.0).map(Some)
    }
}

fn whole<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D, max: u64) -> Result<T, D::Error> {
    d.deserialize_any(Whole::new(max))
}

fn optional<'de, D: Deserializer<'de>, T: TryFrom<u64>>(
    d: D,
    max: u64,
) -> Result<Option<T>, D::Error> {
    d.deserialize_option(OptionalWhole(Whole::new(max)))
}

/// A `u8`, or what is built from one (a [`Seat`](crate::seat::Seat)).
pub fn u8<'de, D: Deserializer<'de>, T: From<u8>>(d: D) -> Result<T, D::Error> {
    whole::<D, u8>(d, u8::MAX.into()).map(T::from)
}

pub fn u32<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    whole(d, u32::MAX.into())
}

pub fn option_u8<'de, D: Deserializer<'de>, T: From<u8>>(d: D) -> Result<Option<T>, D::Error> {
    optional::<D, u8>(d, u8::MAX.into()).map(|n| n.map(T::from))
}

pub fn option_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    optional(d, u64::MAX)
}

pub fn option_usize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    optional(d, u64::try_from(usize::MAX).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct T {
        #[serde(deserialize_with = "super::u8")]
        seat: u8,
        #[serde(default, deserialize_with = "super::option_u64")]
        seed: Option<u64>,
    }

    fn read(s: &str) -> Result<T, String> {
        serde_json::from_str(s).map_err(|e| e.to_string())
    }

    #[test]
    fn whole_floats_are_the_integers_they_spell() {
        assert_eq!(
            read(r#"{"seat": 1.0, "seed": 42.0}"#),
            Ok(T {
                seat: 1,
                seed: Some(42)
            })
        );
        assert_eq!(
            read(r#"{"seat": 255}"#),
            Ok(T {
                seat: 255,
                seed: None
            })
        );
        assert_eq!(
            read(r#"{"seat": 0, "seed": null}"#),
            Ok(T {
                seat: 0,
                seed: None
            })
        );
        assert_eq!(
            read(r#"{"seat": 0, "seed": 18446744073709551615}"#),
            Ok(T {
                seat: 0,
                seed: Some(u64::MAX)
            })
        );
    }

    #[test]
    fn fractions_negatives_and_out_of_range_are_refused() {
        for bad in [
            r#"{"seat": 1.5}"#,
            r#"{"seat": -1}"#,
            r#"{"seat": -0.5}"#,
            r#"{"seat": 256}"#,
            r#"{"seat": 256.0}"#,
            r#"{"seat": "1"}"#,
            r#"{"seat": 1, "seed": 1.8446744073709552e19}"#,
            r#"{"seat": 1, "seed": 1e400}"#,
        ] {
            let e = read(bad).expect_err(bad);
            assert!(
                e.contains("whole number")
                    || e.contains("number out of range")
                    || e.contains("invalid type"),
                "{bad}: {e}"
            );
        }
    }
}
