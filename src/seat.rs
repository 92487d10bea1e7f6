//! Seats at a game, the tables they sit at and the sides that score: small numbers that cannot be
//! mixed with a count, with each other, or with a role; and one value per seat. On the wire and
//! for scripts they are plain integers (and lists).

use std::fmt;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

/// A type of its own for one kind of small number: `new`, `number`, `index` (its place in a list
/// with one value for each), `all` (the first `n`, in order), and the bare number for `Display`,
/// `Debug` and serde, as on the wire.
macro_rules! numbered {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        #[repr(transparent)]
        pub struct $name(u8);

        impl $name {
            pub const fn new(n: u8) -> $name {
                $name(n)
            }

            /// The first `n`, in order.
            pub fn all(n: impl Into<usize>) -> impl Iterator<Item = $name> + Clone {
                (0..n.into()).map_while(|i| u8::try_from(i).ok()).map($name)
            }

            pub const fn number(self) -> u8 {
                self.0
            }

            /// The position of this one's value in a list with one value for each.
            pub const fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl From<u8> for $name {
            fn from(n: u8) -> $name {
                $name(n)
            }
        }

        impl From<$name> for i64 {
            fn from(n: $name) -> i64 {
                i64::from(n.0)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

numbered!(
    /// A seat of a game, numbered from 0. Which seats exist is the ruleset's `seats` count:
    /// [`Seat::all`] lists them and [`Seat::of`] checks a number from outside against it.
    Seat
);

numbered!(
    /// A table of a deal, numbered from 0: the four-player form plays two at once, every other
    /// form one. An index into the state's `tables`.
    TableNo
);

numbered!(
    /// A side that scores: a player, or a team of seats; an index into the match layout's
    /// `sides`.
    Side
);

impl Seat {
    /// The seat number `n` of a game of `seats` seats, if it has one.
    pub fn of(n: impl TryInto<u8>, seats: u8) -> Option<Seat> {
        n.try_into().ok().filter(|&n| n < seats).map(Seat)
    }

    /// The seat `k` places after this one round a table of `seats` seats.
    pub fn after(self, k: u8, seats: u8) -> Seat {
        let n = u16::from(seats.max(1));
        Seat(((u16::from(self.0) + u16::from(k)) % n) as u8)
    }

    /// Whether a game of `seats` seats has this seat.
    pub const fn is_in(self, seats: u8) -> bool {
        self.0 < seats
    }
}

impl std::str::FromStr for Seat {
    type Err = std::num::ParseIntError;

    fn from_str(s: &str) -> Result<Seat, Self::Err> {
        s.parse().map(Seat)
    }
}

/// One value per seat of a game, seat 0's first; on the wire, a list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BySeat<T>(Vec<T>);

impl<T> BySeat<T> {
    /// `value` for each of `seats` seats.
    pub fn filled(seats: u8, value: T) -> BySeat<T>
    where
        T: Clone,
    {
        BySeat(vec![value; usize::from(seats)])
    }

    /// The value of `seat`, if the list reaches it.
    pub fn get(&self, seat: Seat) -> Option<&T> {
        self.0.get(seat.index())
    }

    pub fn get_mut(&mut self, seat: Seat) -> Option<&mut T> {
        self.0.get_mut(seat.index())
    }

    /// The values, seat 0's first.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.0.iter_mut()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<T> From<Vec<T>> for BySeat<T> {
    fn from(values: Vec<T>) -> BySeat<T> {
        BySeat(values)
    }
}

impl<T> FromIterator<T> for BySeat<T> {
    fn from_iter<I: IntoIterator<Item = T>>(values: I) -> BySeat<T> {
        BySeat(values.into_iter().collect())
    }
}

impl<T: PartialEq> PartialEq<Vec<T>> for BySeat<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self.0 == *other
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T; N]> for BySeat<T> {
    fn eq(&self, other: &[T; N]) -> bool {
        self.0 == *other
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;

    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

impl<'a, T> IntoIterator for &'a BySeat<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_checked_against_the_game_and_go_round_the_table() {
        assert_eq!(Seat::of(2u8, 3), Some(Seat::new(2)));
        assert_eq!(Seat::of(3u8, 3), None);
        assert_eq!(Seat::of(-1i64, 3), None);
        assert_eq!(Seat::of(256i64, 3), None);
        assert_eq!(Seat::new(2).after(1, 3), Seat::new(0));
        assert_eq!(Seat::new(255).after(1, 255), Seat::new(1));
        let all: Vec<u8> = Seat::all(3u8).map(Seat::number).collect();
        assert_eq!(all, [0, 1, 2]);
    }

    #[test]
    fn the_wire_form_is_the_number() {
        let text = serde_json::to_string(&(Seat::new(3), Side::new(1), TableNo::new(2)))
            .unwrap_or_default();
        assert_eq!(text, "[3,1,2]");
        let map: std::collections::BTreeMap<Seat, u8> =
            serde_json::from_str(r#"{"1": 5}"#).unwrap_or_default();
        assert_eq!(map.get(&Seat::new(1)), Some(&5));
        assert_eq!(format!("{} {:?}", Seat::new(2), Side::new(1)), "2 1");
        let points: BySeat<i64> = serde_json::from_str("[0,25,0]").unwrap_or_default();
        assert_eq!(points[Seat::new(1)], 25);
        assert_eq!(
            serde_json::to_string(&points).unwrap_or_default(),
            "[0,25,0]"
        );
    }

    #[test]
    fn a_seat_indexes_its_own_value() {
        let mut v = BySeat::filled(3, 0);
        v[Seat::new(2)] = 7;
        assert_eq!(v, [0, 0, 7]);
        assert_eq!(v.get(Seat::new(3)), None);
    }
}
