//! The rules table: the rows of the documented comparison (knocking, how a hand ends, hand score,
//! lay-offs and undercuts, end of the stock, other options) plus the match and the form, each
//! rendered from the resolved ruleset, its hooks and its options, never written per variant.

use serde::Serialize;

use crate::cards::{Card, Rank, Suit};
use crate::ruleset::{AceRank, AfterWash, NextDealer, Ruleset, StockEnd, Tie};

use super::fields::{self, count_words};
use super::info::HookInfo;
use super::script::HookPoint;
use super::variant::Variant;

/// One row of the rules table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct RulesRow {
    /// The rule's heading (Knocking, How a hand ends, ...).
    pub row: String,
    /// The rule as this ruleset plays it, in words.
    pub text: String,
}

fn row(name: &str, text: String) -> RulesRow {
    RulesRow {
        row: name.to_string(),
        text,
    }
}

/// How a hook is named in a sentence: "the hook `knock_limit` (oklahoma.rhai, option `oklahoma`)".
fn hook_ref(v: &Variant, h: &HookInfo) -> String {
    let from = if v.options.iter().any(|o| o.id == h.from) {
        format!("option `{}`", h.from)
    } else {
        format!("ruleset `{}`", h.from)
    };
    format!("the hook `{}` ({}, {from})", h.point, h.script)
}

/// "the hook ... : rule" or "the hook ...".
fn hook_rule(v: &Variant, h: &HookInfo) -> String {
    match &h.rule {
        Some(rule) => format!("{}: {}", hook_ref(v, h), rule.trim().trim_end_matches('.')),
        None => hook_ref(v, h),
    }
}

fn can_knock(v: &Variant) -> bool {
    v.ruleset.knock_limit.is_some() || v.hook(HookPoint::KnockLimit).is_some()
}

fn knocking(v: &Variant) -> String {
    if let Some(h) = v.hook(HookPoint::KnockLimit) {
        return format!(
            "Allowed when your deadwood is at most the knock limit of the hand, set at the deal by {}.",
            hook_rule(v, h)
        );
    }
    match v.ruleset.knock_limit {
        None => "Not allowed, whatever your deadwood: only gin goes out.".into(),
        Some(n) => fields::KNOCK_LIMIT.say(n),
    }
}

fn stock_cards(n: u8) -> String {
    match n {
        0 => "the stock is empty".into(),
        1 => "one card is left in the stock".into(),
        n => format!("{} cards are left in the stock", count_words(n.into())),
    }
}

fn hand_ends(v: &Variant) -> String {
    let r = &v.ruleset;
    let mut s = if can_knock(v) {
        "A player knocks or goes gin".to_string()
    } else {
        "A player goes gin".to_string()
    };
    if r.big_gin_bonus.is_some() {
        let held = match r.hand_size_at(usize::from(r.table_players)) + 1 {
            11 => "eleven".to_string(),
            n => fields::count_words(n.into()),
        };
        s.push_str(&format!(
            " (or big gin: all {held} cards melded, going out without a discard)"
        ));
    }
    match r.stock_end {
        StockEnd::DeadHand => s.push_str(&format!(
            ", or the hand is dead: once {}, a discard without going out ends it with no score.",
            stock_cards(r.stock_reserve)
        )),
        StockEnd::LastDiscardToGoOut => s.push_str(&format!(
            ", or, once {}, the next discard may be taken only to go out, and the hand is dead if nobody does.",
            stock_cards(r.stock_reserve)
        )),
        StockEnd::Reshuffle => s.push_str(
            ". The stock never ends a hand: it is rebuilt from the discard pile (see end of the stock).",
        ),
    }
    s.push_str(&format!(
        " Whatever the stock, {}.",
        fields::TURN_LIMIT.say(r.turn_limit)
    ));
    s
}

fn reserve_rule(n: u8) -> String {
    format!("Rule in force: {}", fields::RESERVE.say(n))
}

fn plural(n: u8, word: &str) -> String {
    if n == 1 {
        format!("one {word}")
    } else {
        format!("{} {word}s", count_words(n.into()))
    }
}

fn hand_score(v: &Variant) -> String {
    let r = &v.ruleset;
    let mut s = fields::GIN_BONUS.say(r.gin_bonus);
    let big_gin = r.big_gin_bonus.map(|b| fields::BIG_GIN_BONUS.say(b));
    if can_knock(v) {
        if let Some(b) = big_gin {
            s.push_str(&format!("; big gin, {b}"));
        }
        s.push_str(". A knock scores the difference between the two deadwood counts.");
    } else {
        if let Some(b) = big_gin {
            s.push_str(&format!(" (big gin: {b})"));
        }
        s.push_str(", the only way to score.");
    }
    if let Some(h) = v.hook(HookPoint::ScoreHand) {
        s.push_str(&format!(
            " Each hand's score (its winner, named parts, multiplier and boxes) is then decided by {}.",
            hook_rule(v, h)
        ));
    }
    if let Some(h) = v.hook(HookPoint::ScoreMultiplier) {
        s.push_str(&format!(
            " Every score of a hand, bonuses included, is multiplied as {}.",
            hook_rule(v, h)
        ));
    }
    s
}

fn lay_offs(v: &Variant) -> String {
    let r = &v.ruleset;
    let mut s = if can_knock(v) {
        let mut s = if r.lay_offs {
            "After a knock the defender may lay off cards onto the knocker's melds".to_string()
        } else {
            "After a knock the defender may not lay off".to_string()
        };
        let then = if r.lay_offs { " then" } else { "" };
        let cmp = if r.tie == Tie::Undercut {
            "not higher"
        } else {
            "lower"
        };
        s.push_str(&format!(
            "; if their deadwood is{then} {cmp} than the knocker's, it is an undercut: {}.",
            fields::UNDERCUT_BONUS.say(r.undercut_bonus)
        ));
        if r.tie == Tie::Wash {
            s.push_str(" An equal deadwood is a wash: nobody scores.");
        }
        s
    } else {
        "Nobody knocks, so there is nothing to lay off and no undercut.".to_string()
    };
    if r.lay_off_after_gin {
        s.push_str(" After gin the defender lays off too.");
    } else {
        s.push_str(" Nobody lays off on gin.");
    }
    if r.table_players > 2 {
        s.push_str(
            " A knock or gin ends the hand for the whole table: each opponent in turn from the knocker's left is a defender (laying off onto the cards laid off before too), and the hand is scored between the knocker and each opponent; gin scores against every opponent.",
        );
    }
    s
}

/// An option on offer (not in force) that changes the stock end to `end`.
fn option_setting_stock(v: &Variant, end: StockEnd) -> Option<String> {
    v.option_stock_ends
        .iter()
        .find(|(id, e)| *e == end && !v.options.iter().any(|p| p.id == *id))
        .map(|(id, _)| id.clone())
}

fn stock_end(v: &Variant, reshuffle_option: Option<String>) -> String {
    let r = &v.ruleset;
    let n = r.stock_reserve;
    match r.stock_end {
        StockEnd::DeadHand => {
            let mut s = format!(
                "{} A discard that leaves {} in the stock, without going out, ends the hand with no score: a draw in a one-hand game, a new deal by the same dealer in a longer one.",
                reserve_rule(n),
                plural(n, "card")
            );
            if let Some(o) = reshuffle_option {
                s.push_str(&format!(
                    " The discard pile is not reshuffled into a new stock unless the option `{o}` is chosen."
                ));
            } else {
                s.push_str(" The discard pile is never reshuffled.");
            }
            s
        }
        StockEnd::LastDiscardToGoOut => format!(
            "{} Once a draw leaves {}, the next discard may be taken only to go out; if nobody goes out the hand is dead, with no score.",
            reserve_rule(n),
            plural(n, "card")
        ),
        StockEnd::Reshuffle => format!(
            "Rule in force: reshuffle. When {}, the discard pile but its top card is shuffled into a new stock and play goes on.",
            stock_cards(n)
        ),
    }
}

fn other_options(v: &Variant) -> String {
    let mut parts = Vec::new();
    if !v.options.is_empty() {
        parts.push(format!(
            "In force: {}.",
            v.options
                .iter()
                .map(|o| o.name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let offered: Vec<String> = v
        .allowed_options
        .iter()
        .filter(|o| !v.options.iter().any(|p| p.id == o.id))
        .map(|o| format!("{} (`{}`)", o.name, o.id))
        .collect();
    if offered.is_empty() {
        if v.options.is_empty() {
            parts.push("No options.".into());
        }
    } else {
        let label = if v.options.is_empty() {
            "Options"
        } else {
            "Also offered"
        };
        parts.push(format!("{label}: {}.", offered.join(", ")));
    }
    for r in &v.refused_options {
        let reason = r.reason.trim().trim_end_matches('.');
        parts.push(format!("Not with `{}` ({reason}).", r.id));
    }
    for (id, keys) in &v.option_replaces {
        let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        let wins = if v.options.iter().any(|o| o.id == *id) {
            "in force, its definition wins"
        } else {
            "when chosen, its definition wins"
        };
        parts.push(format!(
            "Option `{id}` replaces this ruleset's {} by the ruleset's leave ({wins}).",
            keys.join(", ")
        ));
    }
    parts.join(" ")
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// "One hand, or a game to 100 or 250 points".
fn targets_text(targets: &[crate::ruleset::Target]) -> String {
    use crate::ruleset::Target;
    let points: Vec<String> = targets
        .iter()
        .filter_map(|t| match t {
            Target::Points(p) => Some(p.to_string()),
            Target::SingleHand => None,
        })
        .collect();
    let single = targets.contains(&Target::SingleHand);
    match (single, points.is_empty()) {
        (true, true) => "One hand".into(),
        (true, false) => format!("One hand, or a game to {} points", or_list(&points)),
        (false, _) => format!("A game to {} points", or_list(&points)),
    }
}

fn match_row(v: &Variant) -> String {
    let r = &v.ruleset;
    let m = &r.match_rules;
    let mut s = format!(
        "{} (default: {}).",
        targets_text(&m.targets),
        m.default_target
    );
    for t in &v.refused_targets {
        s.push_str(&format!(
            " Not {}: {}.",
            t.target,
            t.reason.trim().trim_end_matches('.')
        ));
    }
    let bonuses: Vec<String> = [
        fields::GAME_BONUS.say(m.game_bonus),
        fields::BOX_BONUS.say(m.box_bonus),
        fields::SHUTOUT_MULTIPLIER.say(m.shutout_multiplier),
    ]
    .into_iter()
    .filter(|b| !b.is_empty())
    .collect();
    if !bonuses.is_empty() {
        s.push_str(&format!(
            " Bonuses at the end of a game: {}.",
            bonuses.join("; ")
        ));
    }
    for point in [HookPoint::MatchLayout, HookPoint::RecordResult] {
        if let Some(h) = v.hook(point) {
            let what = match point {
                HookPoint::MatchLayout => "Sides and games are set by",
                _ => "Hands are recorded into the match by",
            };
            s.push_str(&format!(" {what} {}.", hook_rule(v, h)));
        }
    }
    if let Some(h) = v.hook(HookPoint::NextDealer) {
        s.push_str(&format!(
            " The next dealer is chosen by {}.",
            hook_rule(v, h)
        ));
    } else {
        let who = match r.next_dealer {
            NextDealer::Loser => "The loser of a hand deals the next",
            NextDealer::Winner => "The winner of a hand deals the next",
            NextDealer::Alternate => "The deal alternates",
            NextDealer::NextInTurn => "The deal passes to the next seat",
        };
        let washes = r.tie == Tie::Wash || v.hook(HookPoint::ScoreHand).is_some();
        let after = match (washes, r.after_wash) {
            (false, _) => "after a dead hand the same dealer deals again",
            (true, AfterWash::SameDealer) => {
                "after a dead hand or a wash the same dealer deals again"
            }
            (true, AfterWash::NextInTurn) => {
                "after a dead hand the same dealer deals again; after a wash, the next seat"
            }
        };
        s.push_str(&format!(" {who}; {after}."));
    }
    s
}

const RANK_NAMES: [&str; 13] = [
    "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
    "king",
];

fn values_text(r: &Ruleset) -> String {
    let standard = crate::ruleset::MeldRules::standard().values;
    let changed: Vec<String> = (0..13)
        .filter(|&i| r.melds.values[i] != standard[i])
        .map(|i| format!("{} {}", RANK_NAMES[i], r.melds.values[i]))
        .collect();
    if changed.is_empty() {
        "Cards count their pips (ace 1, J Q K 10).".into()
    } else {
        format!(
            "Cards count their pips (ace 1, J Q K 10), except: {}.",
            changed.join(", ")
        )
    }
}

fn form(v: &Variant) -> String {
    let r = &v.ruleset;
    let players = usize::from(r.table_players);
    let mut s = format!(
        "{}, {}",
        fields::SEATS.say(r.seats),
        fields::HAND_SIZE.say(r.hand_size_at(players))
    );
    if let Some(h) = v.hook(HookPoint::Seating) {
        s.push_str(&format!(
            "; tables and who sits out are set by {}",
            hook_rule(v, h)
        ));
    } else if r.seats > r.table_players {
        let next = match r.table_players {
            2 => "two",
            _ => "three",
        };
        s.push_str(&format!(
            "; the dealer deals to the next {next} seats and sits the hand out"
        ));
    } else if players > 2 {
        s.push_str(
            "; one table: everyone plays every hand, in turn from the dealer's left, the dealer last",
        );
    }
    s.push('.');
    let dealer_sits_out = r.seats > r.table_players && v.hook(HookPoint::Seating).is_none();
    if r.upcard_offer && players > 2 {
        s.push_str(
            " The upcard is offered round the table from the dealer's left; when all pass, the first player draws from the stock.",
        );
    } else if r.upcard_offer && dealer_sits_out {
        s.push_str(
            " The upcard is offered to the seat after the dealer (the non-dealer's role), then to the other player (the dealer's role).",
        );
    } else if r.upcard_offer {
        s.push_str(" The upcard is offered to the non-dealer, then to the dealer.");
    } else {
        s.push_str(" No upcard offer: the non-dealer draws first.");
    }
    if r.discard_taken_card {
        s.push_str(" A card taken from the discard pile may be discarded at once.");
    } else {
        s.push_str(" A card taken from the discard pile may not be discarded in the same turn.");
    }
    let m = &r.melds;
    let ace = match (m.ace, m.wrap) {
        (AceRank::Low, _) => "the ace is low (A-2-3, not Q-K-A)",
        (AceRank::High, _) => "the ace is high (Q-K-A, not A-2-3)",
        (AceRank::Both, false) => "the ace is high or low (A-2-3 and Q-K-A), runs do not wrap",
        (AceRank::Both, true) => "the ace is high or low and runs go round the corner (K-A-2)",
    };
    s.push_str(&format!(
        " {}, {}; {ace}. {}",
        fields::SET_MIN.say_span(m.set_min.into(), m.set_max.into()),
        fields::RUN_MIN.say(m.run_min),
        values_text(r)
    ));
    s
}

/// The rules table of a variant: knocking, how a hand ends, hand score, lay-offs and undercuts,
/// end of the stock, other options, match, form.
pub fn rules_table(v: &Variant) -> Vec<RulesRow> {
    let reshuffle = if v.ruleset.stock_end == StockEnd::Reshuffle {
        None
    } else {
        option_setting_stock(v, StockEnd::Reshuffle)
    };
    let mut rows = vec![
        row("Knocking", knocking(v)),
        row("How a hand ends", hand_ends(v)),
        row("Hand score", hand_score(v)),
        row("Lay-offs and undercuts", lay_offs(v)),
        row("End of the stock", stock_end(v, reshuffle)),
        row("Other options", other_options(v)),
        row("Match", match_row(v)),
        row("Form", form(v)),
    ];
    if let Some(text) = wild_cards(&v.ruleset) {
        rows.push(row("Wild cards", text));
    }
    rows
}

/// The wild cards in words, or `None` when no card is wild.
fn wild_cards(r: &Ruleset) -> Option<String> {
    let w = r.melds.wilds?;
    let mut kinds = Vec::new();
    if w.cards.contains(Card::JOKERS[0]) {
        kinds.push(match r.jokers {
            1 => "the joker".to_string(),
            n => format!("the {} jokers", count_words(i64::from(n))),
        });
    }
    for rank in Rank::ALL {
        if w.cards.contains(Card::new(rank, Suit::Clubs)) {
            let name = RANK_NAMES[rank.index()];
            let plural = if name == "six" { "es" } else { "s" };
            kinds.push(format!("the {name}{plural}"));
        }
    }
    let joker = if r.jokers > 0 {
        format!(" An unmelded joker counts {}.", w.joker)
    } else {
        String::new()
    };
    let verb = if kinds.len() == 1 && r.jokers == 1 && w.cards.len() == 1 {
        "is"
    } else {
        "are"
    };
    Some(format!(
        "{} {verb} wild: a wild card stands for any card a meld lacks, and {}; it counts as wild even where it stands for itself, and may be laid off (a meld's wild cards take whichever places keep it a meld).{joker}",
        capitalised(&and_list(&kinds)),
        fields::MIN_NATURAL.say(w.min_natural)
    ))
}

fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::reserve_rule;
    use crate::engine::IllegalAction;

    #[test]
    fn a_stock_without_reserve_reads_as_english() {
        assert_eq!(
            reserve_rule(0),
            "Rule in force: every card of the stock may be drawn."
        );
        assert_eq!(
            reserve_rule(1),
            "Rule in force: the last card of the stock is never drawn."
        );
        assert_eq!(
            reserve_rule(2),
            "Rule in force: the last two cards of the stock are never drawn."
        );
        assert_eq!(
            IllegalAction::StockExhausted(0).to_string(),
            "the stock is empty"
        );
        assert_eq!(
            IllegalAction::StockExhausted(2).to_string(),
            "the stock is down to its last 2 cards, which are never drawn"
        );
    }
}
