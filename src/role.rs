//! The two roles at a table, and one value per role.

use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

/// A player's role at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Dealt the first card and offered the upcard first.
    First = 0,
    /// The dealer's role (in two-handed play, the dealer).
    Dealer = 1,
}

impl Role {
    pub const ALL: [Role; 2] = [Role::First, Role::Dealer];

    /// The opponent's role.
    pub const fn other(self) -> Role {
        match self {
            Role::First => Role::Dealer,
            Role::Dealer => Role::First,
        }
    }

    /// 0 for the first to act, 1 for the dealer's role: the position in a [`ByRole`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// One value per role; on the wire, `[first to act, dealer's role]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ByRole<T>([T; 2]);

impl<T> ByRole<T> {
    pub const fn new(first: T, dealer: T) -> ByRole<T> {
        ByRole([first, dealer])
    }

    /// The role whose value satisfies `f`, the first to act's tried first.
    pub fn find(&self, mut f: impl FnMut(&T) -> bool) -> Option<Role> {
        Role::ALL.into_iter().find(|&r| f(&self[r]))
    }

    pub fn map<U>(self, f: impl FnMut(T) -> U) -> ByRole<U> {
        ByRole(self.0.map(f))
    }

    /// The values, the first to act's first.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    /// Each role with its value.
    pub fn by_role(&self) -> impl Iterator<Item = (Role, &T)> {
        Role::ALL.into_iter().zip(&self.0)
    }

    /// The two roles trade values.
    pub fn swap(&mut self) {
        self.0.swap(0, 1);
    }

    pub fn into_array(self) -> [T; 2] {
        self.0
    }
}

impl<T> From<[T; 2]> for ByRole<T> {
    fn from(values: [T; 2]) -> ByRole<T> {
        ByRole(values)
    }
}

impl<T: PartialEq> PartialEq<[T; 2]> for ByRole<T> {
    fn eq(&self, other: &[T; 2]) -> bool {
        self.0 == *other
    }
}

impl<T> Index<Role> for ByRole<T> {
    type Output = T;

    fn index(&self, role: Role) -> &T {
        &self.0[role.index()]
    }
}

impl<T> IndexMut<Role> for ByRole<T> {
    fn index_mut(&mut self, role: Role) -> &mut T {
        &mut self.0[role.index()]
    }
}

impl<'a, T> IntoIterator for &'a ByRole<T> {
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
    fn roles_index_their_own_value_and_the_other_is_the_opponent() {
        let mut v = ByRole::new('f', 'd');
        assert_eq!((v[Role::First], v[Role::Dealer]), ('f', 'd'));
        assert_eq!(Role::First.other(), Role::Dealer);
        assert_eq!(Role::Dealer.other(), Role::First);
        v[Role::Dealer] = 'x';
        assert_eq!(v.find(|&c| c == 'x'), Some(Role::Dealer));
        assert_eq!(v.map(|c| c == 'f').into_array(), [true, false]);
    }

    #[test]
    fn the_wire_form_is_a_pair() {
        let v = ByRole::new(3u8, 1);
        let text = serde_json::to_string(&v).unwrap_or_default();
        assert_eq!(text, "[3,1]");
        assert_eq!(serde_json::from_str::<ByRole<u8>>(&text).ok(), Some(v));
    }
}
