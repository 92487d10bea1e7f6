//! The points where a script may decide a rule.

use std::fmt;

/// The points where a script may decide a rule. What each one's context holds and what it decides
/// is declared in `contexts`.
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
    /// How a hand is scored, when it ends.
    ScoreHand,
    /// How a deal's results enter the match.
    RecordResult,
    /// The next dealer.
    NextDealer,
}

impl HookPoint {
    /// How many hook points there are.
    pub const COUNT: usize = 7;

    pub const ALL: [HookPoint; HookPoint::COUNT] = [
        HookPoint::KnockLimit,
        HookPoint::ScoreMultiplier,
        HookPoint::MatchLayout,
        HookPoint::Seating,
        HookPoint::ScoreHand,
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
            HookPoint::ScoreHand => "score_hand",
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
}
