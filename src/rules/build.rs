//! Checking every value of a ruleset with its options applied, naming the field, and building
//! the core [`Ruleset`] the engine reads.

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::ruleset::{MatchRules, MeldRules, Ruleset, Target, Wilds};

use super::base::{Base, OptionEntry};
use super::error::{ErrorKind, RulesetError, at, in_file};
use super::fields::{self, IntField};
use super::script::{Binding, HookPoint};
use super::spec::{Loc, Sections, TargetSpec};

const TARGETS: &str = "match.targets";
const DEFAULT_TARGET: &str = "match.default_target";

/// Range checks that name the field and collect every error.
struct Checker<'a> {
    file: &'a str,
    errors: Vec<RulesetError>,
}

impl Checker<'_> {
    /// The value of `field` (written at `path`), or `default` when it is not written or out of
    /// range.
    fn int_at(&mut self, v: &Option<Loc<i64>>, field: &IntField, path: &str, default: i64) -> i64 {
        let Some(l) = v else { return default };
        match field.check(path, l.value) {
            Ok(n) => n,
            Err(message) => {
                self.errors
                    .push(at(l, self.file, ErrorKind::OutOfRange, message).on(path));
                default
            }
        }
    }

    fn int(&mut self, v: &Option<Loc<i64>>, field: &IntField, default: i64) -> i64 {
        self.int_at(v, field, field.key, default)
    }

    fn val<T: Clone>(&self, v: &Option<Loc<T>>, default: T) -> T {
        v.as_ref().map_or(default, |l| l.value.clone())
    }

    /// An error about `field`, at the place it was written when it was.
    fn err<T>(&mut self, v: &Option<Loc<T>>, kind: ErrorKind, field: &str, message: String) {
        let e = match v {
            Some(l) => at(l, self.file, kind, message),
            None => in_file(self.file, kind, message),
        };
        self.errors.push(e.on(field));
    }
}

/// Checks every value of a ruleset with options applied and builds the core [`Ruleset`].
pub(crate) fn build_ruleset(
    base: &Base,
    sections: &Sections,
    hooks: &[Option<Binding>; HookPoint::COUNT],
) -> Result<Ruleset, Vec<RulesetError>> {
    let d = Ruleset::standard();
    let mut c = Checker {
        file: &base.file,
        errors: Vec::new(),
    };
    let s = sections;
    let seats = c.int(&base.seats, &fields::SEATS, i64::from(d.seats)) as u8;

    let mut values = d.melds.values;
    if let Some(v) = &s.deck.values {
        for (i, (key, field)) in v.ranks().into_iter().enumerate() {
            values[i] = c.int_at(
                field,
                &fields::CARD_VALUE,
                &format!("{}.{key}", fields::CARD_VALUE.key),
                i64::from(values[i]),
            ) as u8;
        }
    }
    let m = &s.melds;
    let set_min = c.int(&m.set_min, &fields::SET_MIN, i64::from(d.melds.set_min)) as u8;
    let set_max = c.int(&m.set_max, &fields::SET_MAX, i64::from(d.melds.set_max)) as u8;
    if set_max < set_min {
        c.err(
            &m.set_max,
            ErrorKind::Conflict,
            fields::SET_MAX.key,
            format!("`melds.set_max` ({set_max}) is less than `melds.set_min` ({set_min})"),
        );
    }
    let run_min = c.int(&m.run_min, &fields::RUN_MIN, i64::from(d.melds.run_min)) as u8;
    let ace = c.val(&m.ace, d.melds.ace);
    let wrap = c.val(&m.wrap, d.melds.wrap);
    if wrap && ace != crate::ruleset::AceRank::Both {
        c.err(
            &m.wrap,
            ErrorKind::Conflict,
            "melds.wrap",
            "`melds.wrap` needs `melds.ace: both`: a run can only go round the corner when the ace is high and low".into(),
        );
    }
    let jokers = c.int(&s.deck.jokers, &fields::JOKERS, i64::from(d.jokers)) as u8;
    let joker_value = match s.deck.values.as_ref().map(|v| &v.joker) {
        Some(v) => c.int_at(v, &fields::CARD_VALUE, "deck.values.joker", 25),
        None => 25,
    } as u8;
    let wilds = wilds(&mut c, m, jokers, joker_value, set_min.min(run_min));
    let melds = MeldRules {
        set_min,
        set_max,
        run_min,
        ace,
        wrap,
        values,
        wilds,
    };

    let table_players = c.int(
        &s.deal.players,
        &fields::TABLE_PLAYERS,
        i64::from(d.table_players),
    ) as u8;
    if table_players > seats {
        c.err(
            &s.deal.players,
            ErrorKind::Conflict,
            fields::TABLE_PLAYERS.key,
            format!("`deal.players` ({table_players}) is more than the game's {seats} seats"),
        );
    }
    let hand_size = c.int(
        &s.deal.hand_size,
        &fields::HAND_SIZE,
        i64::from(d.hand_size),
    ) as u8;
    let hand_size_three = c.int(
        &s.deal.hand_size_three,
        &fields::HAND_SIZE_THREE,
        i64::from(d.hand_size_three),
    ) as u8;
    let hand_size_four = c.int(
        &s.deal.hand_size_four,
        &fields::HAND_SIZE_FOUR,
        i64::from(d.hand_size_four),
    ) as u8;
    let reserve = c.int(
        &s.stock.reserve,
        &fields::RESERVE,
        i64::from(d.stock_reserve),
    ) as u8;
    let deck = 52 + u32::from(jokers);
    for (players, size, words) in [
        (2, hand_size, "two"),
        (3, hand_size_three, "three"),
        (4, hand_size_four, "four"),
    ] {
        let used = players * u32::from(size) + 1 + u32::from(reserve);
        if used >= deck {
            c.err(
                &s.stock.reserve,
                ErrorKind::Conflict,
                fields::RESERVE.key,
                format!(
                    "{words} hands of {size}, the upcard and a stock reserve of {reserve} take {used} of the {deck} cards: the stock would have none to draw"
                ),
            );
        }
    }
    let table_hand_size = match table_players {
        3 => hand_size_three,
        4 => hand_size_four,
        _ => hand_size,
    };

    let max_deadwood = melds
        .max_deadwood(usize::from(table_hand_size), jokers)
        .min(255);
    let knocking = c.val(&s.knocking.allowed, d.knock_limit.is_some());
    let limit = c.int(
        &s.knocking.knock_limit,
        &fields::KNOCK_LIMIT,
        i64::from(d.knock_limit.unwrap_or(10)).min(i64::from(max_deadwood)),
    );
    if limit > i64::from(max_deadwood) {
        c.err(
            &s.knocking.knock_limit,
            ErrorKind::OutOfRange,
            fields::KNOCK_LIMIT.key,
            format!(
                "`knocking.knock_limit` {limit} is more than the most deadwood a hand of {hand_size} cards can hold ({max_deadwood})"
            ),
        );
    }
    let knock_limit = knocking.then_some(limit.clamp(0, 255) as u8);
    if !knocking && let Some(b) = &hooks[HookPoint::KnockLimit.index()] {
        c.errors.push(
            in_file(
                &base.file,
                ErrorKind::Conflict,
                format!(
                    "the `knock_limit` hook (bound by `{}`) sets a knock limit, but `knocking.allowed` is false",
                    b.from
                ),
            )
            .on("knocking.allowed"),
        );
    }

    let sc = &s.scoring;
    let gin_bonus = c.int(&sc.gin_bonus, &fields::GIN_BONUS, i64::from(d.gin_bonus)) as u32;
    let big_gin = c.val(&sc.big_gin, d.big_gin_bonus.is_some());
    let big_gin_bonus = c.int(
        &sc.big_gin_bonus,
        &fields::BIG_GIN_BONUS,
        i64::from(d.big_gin_bonus.unwrap_or(31)),
    ) as u32;
    let undercut_bonus = c.int(
        &sc.undercut_bonus,
        &fields::UNDERCUT_BONUS,
        i64::from(d.undercut_bonus),
    ) as u32;
    let tie = c.val(&sc.tie, d.tie);

    let lay_offs = c.val(&s.lay_offs.allowed, d.lay_offs);
    let lay_off_after_gin = c.val(&s.lay_offs.after_gin, d.lay_off_after_gin);
    if lay_off_after_gin && !lay_offs {
        c.err(
            &s.lay_offs.after_gin,
            ErrorKind::Conflict,
            "lay_offs.after_gin",
            "`lay_offs.after_gin` needs `lay_offs.allowed: true`".into(),
        );
    }

    let turn_limit = c.int(&s.turns.limit, &fields::TURN_LIMIT, i64::from(d.turn_limit)) as u32;

    let mm = &s.match_;
    let mut targets = Vec::new();
    match &mm.targets {
        None => targets = d.match_rules.targets.clone(),
        Some(l) => {
            for t in &l.value {
                match t.to_target() {
                    Ok(t) if targets.contains(&t) => c.errors.push(
                        at(
                            l,
                            &base.file,
                            ErrorKind::Duplicate,
                            format!("`match.targets` lists {t} twice"),
                        )
                        .on(TARGETS),
                    ),
                    Ok(t) => targets.push(t),
                    Err(e) => c.errors.push(
                        at(
                            l,
                            &base.file,
                            ErrorKind::InvalidValue,
                            format!("`match.targets`: {e}"),
                        )
                        .on(TARGETS),
                    ),
                }
            }
            if l.value.is_empty() {
                c.errors.push(
                    at(
                        l,
                        &base.file,
                        ErrorKind::InvalidValue,
                        "`match.targets` is empty: list at least one target",
                    )
                    .on(TARGETS),
                );
            }
        }
    }
    let default_target = match &mm.default_target {
        None => d.match_rules.default_target,
        Some(l) => match l.value.to_target() {
            Ok(t) => t,
            Err(e) => {
                c.errors.push(
                    at(
                        l,
                        &base.file,
                        ErrorKind::InvalidValue,
                        format!("`match.default_target`: {e}"),
                    )
                    .on(DEFAULT_TARGET),
                );
                d.match_rules.default_target
            }
        },
    };
    if !targets.is_empty() && !targets.contains(&default_target) {
        let msg = format!(
            "`match.default_target` ({default_target}) is not one of `match.targets` ({})",
            targets
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        // At the author's own line: of the two values, the one this file wrote (the other
        // comes from a ruleset it extends), else the file itself.
        let own = (
            written_in(&mm.default_target, &base.file),
            written_in(&mm.targets, &base.file),
        );
        let err = match own {
            (Some(l), _) => at(l, &base.file, ErrorKind::Conflict, msg),
            (None, Some(l)) => at(
                l,
                &base.file,
                ErrorKind::Conflict,
                format!("{msg}; set `match.default_target` to one of them"),
            ),
            (None, None) => in_file(&base.file, ErrorKind::Conflict, msg),
        };
        c.errors.push(err.on(DEFAULT_TARGET));
    }
    let match_rules = MatchRules {
        targets,
        default_target,
        game_bonus: c.int(
            &mm.game_bonus,
            &fields::GAME_BONUS,
            i64::from(d.match_rules.game_bonus),
        ) as u32,
        box_bonus: c.int(
            &mm.box_bonus,
            &fields::BOX_BONUS,
            i64::from(d.match_rules.box_bonus),
        ) as u32,
        shutout_multiplier: c.int(
            &mm.shutout_multiplier,
            &fields::SHUTOUT_MULTIPLIER,
            i64::from(d.match_rules.shutout_multiplier),
        ) as u32,
    };

    if c.errors.is_empty() {
        Ok(Ruleset {
            jokers,
            id: base.id.clone(),
            name: base.name.clone(),
            summary: base.summary.clone(),
            seats,
            table_players,
            hand_size,
            hand_size_three,
            hand_size_four,
            melds,
            upcard_offer: c.val(&s.turns.upcard_offer, d.upcard_offer),
            knock_limit,
            gin_bonus,
            big_gin_bonus: big_gin.then_some(big_gin_bonus),
            undercut_bonus,
            tie,
            lay_offs,
            lay_off_after_gin,
            discard_taken_card: c.val(&s.turns.discard_taken_card, d.discard_taken_card),
            stock_reserve: reserve,
            stock_end: c.val(&s.stock.end, d.stock_end),
            turn_limit,
            next_dealer: c.val(&s.dealer.next, d.next_dealer),
            after_wash: c.val(&s.dealer.after_wash, d.after_wash),
            match_rules,
        })
    } else {
        Err(c.errors)
    }
}

/// Targets an option refuses, parsed: `(target, reason)`.
pub(crate) fn refused_targets(
    option: &OptionEntry,
) -> Result<Vec<(Target, String)>, Vec<RulesetError>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (key, reason) in option.spec.refuses_targets.iter().flatten() {
        let spec = match key.parse::<i64>() {
            Ok(n) => TargetSpec::Points(n),
            Err(_) => TargetSpec::Word(key.clone()),
        };
        match spec.to_target() {
            Ok(t) => out.push((t, reason.value.clone())),
            Err(e) => {
                let field = format!("options.{}.refuses_targets", option.id);
                errors.push(
                    at(
                        reason,
                        &option.file,
                        ErrorKind::InvalidValue,
                        format!("`{field}`: {e}"),
                    )
                    .on(field),
                );
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// A value as `file` wrote it, not as a ruleset it extends did.
fn written_in<'a, T>(value: &'a Option<Loc<T>>, file: &str) -> Option<&'a Loc<T>> {
    value
        .as_ref()
        .filter(|l| l.file.as_deref().is_none_or(|f| f == file))
}

/// The wild cards of `melds.wild` (each `jokers` or a rank), checked against the deck.
fn wilds(
    c: &mut Checker,
    m: &super::spec::MeldsSpec,
    jokers: u8,
    joker: u8,
    smallest_meld: u8,
) -> Option<Wilds> {
    let min_natural = c.int(&m.min_natural, &fields::MIN_NATURAL, 1) as u8;
    if min_natural > smallest_meld {
        c.err(
            &m.min_natural,
            ErrorKind::Conflict,
            fields::MIN_NATURAL.key,
            format!(
                "`melds.min_natural` ({min_natural}) is more than the smallest meld ({smallest_meld} cards): melds of natural cards alone would not count"
            ),
        );
    }
    let mut cards = CardSet::EMPTY;
    let listed = m.wild.as_ref().map_or(&[][..], |l| &l.value[..]);
    for word in listed {
        let bits = if word == "jokers" {
            if jokers == 0 {
                c.err(
                    &m.wild,
                    ErrorKind::Conflict,
                    "melds.wild",
                    "`melds.wild` lists `jokers`, but the deck has none: set `deck.jokers`".into(),
                );
            }
            CardSet::JOKERS
        } else {
            let rank = match word.as_str() {
                "10" => Some(Rank::Ten),
                w if w.len() == 1 => w.chars().next().and_then(Rank::from_char),
                _ => None,
            };
            match rank {
                Some(r) => Suit::ALL.into_iter().map(|s| Card::new(r, s)).collect(),
                None => {
                    c.err(
                        &m.wild,
                        ErrorKind::OutOfRange,
                        "melds.wild",
                        format!(
                            "`melds.wild` lists {:?}: write `jokers` or a rank (A, 2 to 9, T or 10, J, Q, K)",
                            super::echo::shown(word)
                        ),
                    );
                    CardSet::EMPTY
                }
            }
        };
        if !cards.is_disjoint(bits) {
            c.err(
                &m.wild,
                ErrorKind::Conflict,
                "melds.wild",
                format!("`melds.wild` lists {:?} twice", super::echo::shown(word)),
            );
        }
        cards = cards.union(bits);
    }
    if jokers > 0 && !cards.contains(Card::JOKERS[0]) {
        c.err(
            &m.wild,
            ErrorKind::Conflict,
            "deck.jokers",
            "the deck has jokers but `melds.wild` does not list `jokers`: a joker that is not wild could never meld".into(),
        );
    }
    if cards.is_empty() {
        if m.min_natural.is_some() {
            c.err(
                &m.min_natural,
                ErrorKind::Conflict,
                fields::MIN_NATURAL.key,
                "`melds.min_natural` needs wild cards (`melds.wild`)".into(),
            );
        }
        return None;
    }
    Some(Wilds {
        cards,
        min_natural,
        joker,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::rules::base::base_of;
    use crate::rules::source::parse_source;

    #[test]
    fn a_minimal_file_gets_every_default() {
        let source = parse_source("t.yaml", "id: t\nname: T\n", &BTreeMap::new()).unwrap();
        let base = base_of(&[&source]).unwrap();
        let r = build_ruleset(&base, &base.sections, &base.hooks).unwrap();
        let standard = Ruleset::standard();
        assert_eq!(
            (r.id.as_str(), r.name.as_str(), r.summary.as_str()),
            ("t", "T", "")
        );
        assert_eq!(r.melds, standard.melds);
        assert_eq!(r.match_rules, standard.match_rules);
        assert_eq!(r.knock_limit, standard.knock_limit);
    }

    #[test]
    fn every_out_of_range_value_is_reported_at_once() {
        let yaml = "id: t\nname: T\nmelds:\n  set_min: 4\n  set_max: 3\nstock:\n  reserve: 20\ndeal:\n  hand_size: 20\nmatch:\n  targets: [100, 100]\n  default_target: 50\n";
        let source = parse_source("t.yaml", yaml, &BTreeMap::new()).unwrap();
        let base = base_of(&[&source]).unwrap();
        let errors = build_ruleset(&base, &base.sections, &base.hooks).unwrap_err();
        let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(text.len(), 4, "{text:#?}");
        assert!(
            text[0].starts_with("t.yaml:5:12: `melds.set_max` (3) is less than"),
            "{text:#?}"
        );
        assert!(
            text[1].contains("the stock would have none to draw"),
            "{text:#?}"
        );
        assert!(text[2].contains("lists 100 points twice"), "{text:#?}");
        assert!(
            text[3].contains("`match.default_target` (50 points) is not one of"),
            "{text:#?}"
        );
    }
}
