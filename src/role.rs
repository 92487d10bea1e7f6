//! The positions at a table, and one value per position.

use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

/// The most players one table seats.
pub const MAX_PLAYERS: usize = 4;

/// The fewest players one table seats.
pub const MIN_PLAYERS: usize = 2;

/// A player's position at a table, in turn order: 0 sits at the dealer's left (dealt the first
/// card, offered the upcard first), the last position is the dealer's role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Role(u8);

impl Role {
    /// The first to act.
    pub const FIRST: Role = Role(0);

    /// The position `index` in turn order (0: the first to act).
    pub const fn new(index: u8) -> Role {
        Role(index)
    }

    /// The position in a [`ByRole`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// One value per position at a table of 2 to [`MAX_PLAYERS`]; on the wire, an array in turn
/// order (the first to act first, the dealer's role last). Positions past the table's size hold
/// `T::default()`, so that equality and hashing see only the table's own values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ByRole<T> {
    len: u8,
    values: [T; MAX_PLAYERS],
}

impl<T: Copy + Default> ByRole<T> {
    /// A table of two: the first to act and the dealer's role.
    pub fn new(first: T, dealer: T) -> ByRole<T> {
        ByRole::from_slice(&[first, dealer]).unwrap_or_else(|| ByRole::filled(2, first))
    }

    /// `players` values of `value`.
    pub fn filled(players: usize, value: T) -> ByRole<T> {
        let len = players.clamp(MIN_PLAYERS, MAX_PLAYERS);
        let mut values = [T::default(); MAX_PLAYERS];
        values[..len].fill(value);
        ByRole {
            len: len as u8,
            values,
        }
    }

    /// One value per position, in turn order; `None` unless 2 to [`MAX_PLAYERS`] are given.
    pub fn from_slice(values: &[T]) -> Option<ByRole<T>> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&values.len()) {
            return None;
        }
        let mut all = [T::default(); MAX_PLAYERS];
        all[..values.len()].copy_from_slice(values);
        Some(ByRole {
            len: values.len() as u8,
            values: all,
        })
    }

    pub fn map<U: Copy + Default>(&self, mut f: impl FnMut(T) -> U) -> ByRole<U> {
        let mut values = [U::default(); MAX_PLAYERS];
        for (v, &t) in values.iter_mut().zip(self.as_slice()) {
            *v = f(t);
        }
        ByRole {
            len: self.len,
            values,
        }
    }
}

impl<T> ByRole<T> {
    /// How many players the table seats.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Never: a table seats two at least.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values, the first to act's first.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.values[..self.len()]
    }

    /// Every position, in turn order.
    #[inline]
    pub fn roles(&self) -> impl Iterator<Item = Role> + use<T> {
        (0..self.len).map(Role)
    }

    /// The dealer's role: the last position.
    pub fn dealer_role(&self) -> Role {
        Role(self.len.saturating_sub(1))
    }

    /// The position after `role` round the table.
    #[inline]
    pub fn next(&self, role: Role) -> Role {
        // Not `%`: a division is most of a step's wait for the next seat.
        let next = role.0 + 1;
        Role(if next >= self.len { 0 } else { next })
    }

    /// The other positions, in turn order from `role`'s left.
    pub fn after(&self, role: Role) -> impl Iterator<Item = Role> + use<T> {
        let len = self.len.max(1);
        (1..len).map(move |k| Role((role.0 + k) % len))
    }

    /// The position whose value satisfies `f`, the first to act's tried first.
    #[inline]
    pub fn find(&self, mut f: impl FnMut(&T) -> bool) -> Option<Role> {
        self.roles().find(|&r| f(&self[r]))
    }

    /// The values, the first to act's first.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    /// Each position with its value.
    pub fn by_role(&self) -> impl Iterator<Item = (Role, &T)> {
        self.roles().zip(self.as_slice())
    }

    /// Two positions trade values.
    pub fn swap(&mut self, a: Role, b: Role) {
        let len = self.len();
        self.values[..len].swap(a.index(), b.index());
    }
}

impl<T: PartialEq> PartialEq<[T]> for ByRole<T> {
    fn eq(&self, other: &[T]) -> bool {
        self.as_slice() == other
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T; N]> for ByRole<T> {
    fn eq(&self, other: &[T; N]) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T> Index<Role> for ByRole<T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, role: Role) -> &T {
        &self.as_slice()[role.index()]
    }
}

impl<T> IndexMut<Role> for ByRole<T> {
    #[inline(always)]
    fn index_mut(&mut self, role: Role) -> &mut T {
        let len = self.len();
        &mut self.values[..len][role.index()]
    }
}

impl<'a, T> IntoIterator for &'a ByRole<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Serialize> Serialize for ByRole<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de, T: Deserialize<'de> + Copy + Default> Deserialize<'de> for ByRole<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ByRole<T>, D::Error> {
        let values = Vec::<T>::deserialize(d)?;
        ByRole::from_slice(&values).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {}",
                values.len()
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_go_round_the_table_from_the_dealers_left() {
        let mut v = ByRole::from_slice(&['a', 'b', 'd']).unwrap_or_default_table();
        assert_eq!(v.len(), 3);
        assert_eq!(v[Role::FIRST], 'a');
        assert_eq!(v[v.dealer_role()], 'd');
        assert_eq!(v.next(v.dealer_role()), Role::FIRST);
        let after: Vec<char> = v.after(Role::FIRST).map(|r| v[r]).collect();
        assert_eq!(after, ['b', 'd']);
        let role = v.dealer_role();
        v[role] = 'x';
        assert_eq!(v.find(|&c| c == 'x'), Some(role));
        assert_eq!(v.map(|c| c == 'a'), [true, false, false]);
    }

    #[test]
    fn tables_of_one_or_five_are_refused() {
        assert!(ByRole::from_slice(&[1u8]).is_none());
        assert!(ByRole::from_slice(&[1u8; 5]).is_none());
        assert!(serde_json::from_str::<ByRole<u8>>("[1,2,3,4,5]").is_err());
    }

    #[test]
    fn the_wire_form_is_an_array_in_turn_order() {
        for values in [&[3u8, 1][..], &[3, 1, 0], &[3, 1, 0, 2]] {
            let v = ByRole::from_slice(values).unwrap_or_default_table();
            let text = serde_json::to_string(&v).unwrap_or_default();
            assert_eq!(text, serde_json::to_string(values).unwrap_or_default());
            assert_eq!(serde_json::from_str::<ByRole<u8>>(&text).ok(), Some(v));
        }
    }

    trait OrTable<T> {
        fn unwrap_or_default_table(self) -> ByRole<T>;
    }

    impl<T: Copy + Default> OrTable<T> for Option<ByRole<T>> {
        fn unwrap_or_default_table(self) -> ByRole<T> {
            self.unwrap_or_else(|| ByRole::filled(2, T::default()))
        }
    }
}
