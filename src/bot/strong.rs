//! `strong`: counts what its seat has seen, values each draw and discard by the deadwood it can
//! expect after its next draw (the exact solver over every unseen card, so cards that would
//! complete melds count), keeps back cards the opponent can meld (those they took from the pile
//! and their neighbours), and weighs knocking now against playing on for gin or a lower count.

mod knock;
mod odds;
mod reading;
mod rollout;
mod settle;

use std::ops::Range;

use crate::cards::{Card, CardSet};
use crate::engine::{Action, SeatView};
use crate::melds;
use crate::ruleset::{Ruleset, StockEnd};

use super::Decision;
use super::seen::{Options, Seen, list, plain_why};
use knock::{KnockOdds, guesses, knock_odds};
use odds::Odds;

/// The weights `strong` plays by. [`Tuning::STRONG`] is the level; other values let a bot writer
/// seat a variant of it (`examples/versus_previous.rs` seats the level as it was).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// Deadwood points a discard costs per unit of chance that the opponent can meld it (midway
    /// through the stock; less early, more late).
    pub danger: f64,
    /// Discards per drawn card worth looking at beyond the drawn card itself.
    pub discards_per_draw: usize,
    /// Added to every card's value when valuing a hand that only gin (or a knock limit below 5)
    /// takes out: then what matters is how many cards are left unmelded.
    pub per_card_gin: u8,
    /// Added to every card's value when a knock may leave more: the number of cards left unmelded
    /// still decides how soon the hand goes out, and then how low it can go.
    pub per_card_knock: u8,
    /// How much of knocking's value is kept by playing on a turn without gin (1: the risk of the
    /// opponent going out first is paid for by the undercuts a low count then brings).
    pub play_on_keeps: f64,
    /// Guesses of the opponent's hand (by weight) that read its last discard for the danger of
    /// the cards in hand (at most 2 000); 0 reads nothing.
    pub reading: usize,
    /// Whether playing on instead of knocking counts the opponent's next turn as the reading's
    /// guesses play it (their going out, and the undercut it may bring).
    pub their_turn: bool,
    /// The most worlds each of the best discards is played out in before one is chosen; 0 plays
    /// none out.
    pub rollouts: usize,
    /// How many of the best discards (by the count above) are played out.
    pub rollout_keeps: usize,
    /// How many standard errors a played-out keep must gain over the best by cost to be chosen.
    pub rollout_z: f64,
    /// Only keeps within this many points of cost of the best are played out.
    pub rollout_margin: f64,
    /// The keep least likely to feed the opponent (least danger) within this many points of cost
    /// of the best is played out too.
    pub rollout_safe_margin: f64,
    /// Worlds are played out this many at a time for every keep still in the running.
    pub rollout_batch: usize,
    /// A keep drops out of the running once it trails the best by cost by this many standard
    /// errors.
    pub rollout_drop: f64,
    /// No further batch is played once it would bring the hands played out in a decision above
    /// this many.
    pub rollout_budget: usize,
}

impl Tuning {
    pub const STRONG: Tuning = Tuning {
        danger: 6.0,
        discards_per_draw: 2,
        per_card_gin: 30,
        per_card_knock: 25,
        play_on_keeps: 1.0,
        reading: 150,
        their_turn: true,
        rollouts: 500,
        rollout_keeps: 6,
        rollout_z: 1.5,
        rollout_margin: 5.0,
        rollout_safe_margin: 8.0,
        rollout_batch: 50,
        rollout_drop: 1.0,
        rollout_budget: 900,
    };

    /// These weights with some changed, from `name=value` pairs separated by commas (the names
    /// of the fields): `"danger=8,per_card_knock=25"`.
    pub fn with(mut self, changes: &str) -> Result<Tuning, String> {
        for change in changes.split(',').filter(|c| !c.trim().is_empty()) {
            let (name, value) = change
                .split_once('=')
                .ok_or_else(|| format!("{change:?} is not name=value"))?;
            let (name, value) = (name.trim(), value.trim());
            let bad = |e: &dyn std::fmt::Display| format!("{name}: {value:?} is not a value ({e})");
            match name {
                "danger" => self.danger = value.parse().map_err(|e| bad(&e))?,
                "discards_per_draw" => {
                    self.discards_per_draw = value.parse().map_err(|e| bad(&e))?
                }
                "per_card_gin" => self.per_card_gin = value.parse().map_err(|e| bad(&e))?,
                "per_card_knock" => self.per_card_knock = value.parse().map_err(|e| bad(&e))?,
                "play_on_keeps" => self.play_on_keeps = value.parse().map_err(|e| bad(&e))?,
                "reading" => self.reading = value.parse().map_err(|e| bad(&e))?,
                "their_turn" => self.their_turn = value.parse().map_err(|e| bad(&e))?,
                "rollouts" => self.rollouts = value.parse().map_err(|e| bad(&e))?,
                "rollout_keeps" => self.rollout_keeps = value.parse().map_err(|e| bad(&e))?,
                "rollout_z" => self.rollout_z = value.parse().map_err(|e| bad(&e))?,
                "rollout_margin" => self.rollout_margin = value.parse().map_err(|e| bad(&e))?,
                "rollout_safe_margin" => {
                    self.rollout_safe_margin = value.parse().map_err(|e| bad(&e))?
                }
                "rollout_batch" => self.rollout_batch = value.parse().map_err(|e| bad(&e))?,
                "rollout_drop" => self.rollout_drop = value.parse().map_err(|e| bad(&e))?,
                "rollout_budget" => self.rollout_budget = value.parse().map_err(|e| bad(&e))?,
                _ => {
                    return Err(format!(
                        "{name:?} is not a weight (danger, discards_per_draw, per_card_gin, per_card_knock, play_on_keeps, reading, rollout_batch, rollout_budget, rollout_drop, rollout_keeps, rollout_margin, rollout_safe_margin, rollout_z, rollouts, their_turn)"
                    ));
                }
            }
        }
        Ok(self)
    }
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning::STRONG
    }
}

pub fn decide(tuning: &Tuning, rules: &Ruleset, view: &SeatView, first: &Action) -> Decision {
    let seen = Seen::of(view);
    let options = Options::of(view);
    let mut odds = Odds::new(&rules.melds, &seen, view.knock_limit, tuning);
    let asked = seen
        .hand
        .union(seen.top.map_or(CardSet::EMPTY, CardSet::single));
    let reading = reading::read(
        &odds,
        &seen,
        view.knock_limit,
        asked,
        tuning.reading,
        seen.fingerprint(view),
    );
    odds.read = reading.as_ref().map(|r| (asked, r.danger));
    let bot = Strong {
        tuning,
        rules,
        view,
        seen,
        odds,
        options,
        reading,
    };
    let picked = match view.phase {
        "upcard_offer" | "draw" => bot.draw(),
        "last_discard" => bot.last_discard(),
        "discard" => bot.discard(),
        "lay_off" => view
            .legal_actions
            .last()
            .map(|a| (a.clone(), plain_why(a, view))),
        _ => None,
    };
    let (action, why) = picked.unwrap_or_else(|| (first.clone(), plain_why(first, view)));
    Decision { action, why }
}

struct Strong<'a> {
    tuning: &'a Tuning,
    rules: &'a Ruleset,
    view: &'a SeatView,
    seen: Seen,
    odds: Odds<'a>,
    options: Options<'a>,
    reading: Option<reading::Reading>,
}

/// One way to keep ten cards: discard `card`, then expect `expected` deadwood after the next draw.
#[derive(Clone, Copy, Debug)]
struct Keep {
    card: Card,
    expected: f64,
    danger: f64,
}

/// A keep that the played-out worlds preferred to the best by cost.
#[derive(Clone, Copy, Debug)]
struct Played {
    /// The best keep's discard by cost.
    over: Card,
    /// Points a hand more than that keep, on average over the worlds.
    gain: f64,
    worlds: usize,
}

impl Keep {
    /// `danger` already carries the weight of the moment and the scale of the values.
    fn cost(&self) -> f64 {
        self.expected + self.danger
    }
}

impl Strong<'_> {
    /// Weight of the opponent's interest: it grows as the hand goes on and they near going out.
    fn danger_weight(&self) -> f64 {
        let first_stock = self.seen.first_stock(self.rules).max(1);
        let gone = first_stock.saturating_sub(self.seen.stock) as f64 / first_stock as f64;
        self.tuning.danger * self.odds.scale.sqrt() * (0.5 + gone)
    }

    /// Every discard from the eleven cards `hand` among `allowed`, valued by the deadwood expected
    /// after the next draw and the risk of feeding the opponent.
    fn keeps(&self, hand: CardSet, allowed: impl Iterator<Item = Card>) -> Vec<Keep> {
        let w = self.danger_weight();
        allowed
            .map(|card| Keep {
                card,
                expected: self.odds.expected(hand.without(card)),
                danger: w * self.odds.danger(card),
            })
            .collect()
    }

    /// Keeps by cost, least first (ties: the higher card goes first).
    fn order(&self, a: &Keep, b: &Keep) -> std::cmp::Ordering {
        let value = |k: &Keep| self.rules.melds.value(k.card);
        a.cost().total_cmp(&b.cost()).then(value(b).cmp(&value(a)))
    }

    /// The keep of least cost.
    fn best(&self, keeps: &[Keep]) -> Option<Keep> {
        keeps.iter().copied().min_by(|a, b| self.order(a, b))
    }

    /// Of the best few keeps by cost and the safest of the good ones, the one that scores most
    /// when the hand is played out in the same worlds (at a table of two; else the best by
    /// cost), and when that is not the best by cost, how much more it scored there than that one.
    fn played_out(&self, keeps: &[Keep]) -> Option<(Keep, Option<Played>)> {
        let mut sorted = keeps.to_vec();
        sorted.sort_by(|a, b| self.order(a, b));
        let &best = sorted.first()?;
        let safest = sorted
            .iter()
            .filter(|k| k.cost() <= best.cost() + self.tuning.rollout_safe_margin)
            .min_by(|a, b| a.danger.total_cmp(&b.danger))
            .copied();
        sorted.truncate(self.tuning.rollout_keeps.max(1));
        sorted.retain(|k| {
            k.card == best.card || k.cost() <= best.cost() + self.tuning.rollout_margin
        });
        if let Some(s) = safest
            && !sorted.iter().any(|k| k.card == s.card)
        {
            sorted.push(s);
        }
        if self.tuning.rollouts < 2 || sorted.len() < 2 || self.seen.players != 2 {
            return Some((best, None));
        }
        let worlds = self.worlds();
        if worlds.is_empty() {
            return Some((best, None));
        }
        let (points, played) = race(self.tuning, sorted.len(), worlds.len(), |i, batch| {
            let k = sorted[i];
            let kept = self.seen.hand.without(k.card);
            worlds[batch]
                .iter()
                .map(|w| rollout::play_out(self.rules, self.view.knock_limit, w, kept, k.card))
                .collect()
        });
        let first = points[0].as_deref().unwrap_or_default();
        let mut chosen: Option<(Keep, Played)> = None;
        for (k, p) in sorted.iter().zip(&points).skip(1) {
            let Some(p) = p else { continue };
            let (mean, se) = gain(p, first);
            // Another keep must beat the best by cost clearly, not by the luck of few worlds.
            let clear = mean > self.tuning.rollout_z * se;
            if clear && chosen.is_none_or(|(_, p)| mean > p.gain) {
                let played = Played {
                    over: best.card,
                    gain: mean,
                    worlds: played,
                };
                chosen = Some((*k, played));
            }
        }
        Some(chosen.map_or((best, None), |(k, p)| (k, Some(p))))
    }

    /// The worlds decisions are played out in: the reading's guesses of the opponent's hand
    /// (else the knock's), each with one order of the stock.
    fn worlds(&self) -> Vec<rollout::World> {
        let seed = self.seen.fingerprint(self.view);
        let hands = match &self.reading {
            Some(r) => r.hands(),
            None => guesses(self.rules, &self.odds, &self.seen, seed),
        };
        rollout::worlds(
            &hands,
            &self.odds.unseen,
            self.seen.stock,
            self.tuning.rollouts,
            seed,
        )
    }

    /// Upcard offer or draw: take the top card when the hand it makes is better than what the
    /// stock can be expected to bring.
    fn draw(&self) -> Option<(Action, String)> {
        let leave = self.options.leave();
        let (Some(take), Some(top)) = (self.options.take(), self.seen.top) else {
            let a = leave.or(self.options.legal.first())?;
            return Some((a.clone(), plain_why(a, self.view)));
        };
        let Some(leave) = leave else {
            return Some((take.clone(), plain_why(take, self.view)));
        };
        let hand = self.seen.hand;
        let allowed = hand
            .iter()
            .chain((self.rules.discard_taken_card).then_some(top));
        let with_top = self.best(&self.keeps(hand.with(top), allowed));
        let from_stock = self.stock_value(hand);
        match with_top {
            Some(k) if k.cost() < from_stock => Some((
                take.clone(),
                format!(
                    "Took {top}: with it, discarding {}, my hand has better chances than with a card from the stock.",
                    k.card
                ),
            )),
            _ => Some((
                leave.clone(),
                format!("Left {top}: a card from the stock is likely to do more for my hand."),
            )),
        }
    }

    /// What drawing from the stock is worth to the ten cards `hand`: over every unseen card, the
    /// best discard after it (the card itself or the hand's best discards), valued as a keep.
    fn stock_value(&self, hand: CardSet) -> f64 {
        let unseen = &self.odds.unseen;
        if unseen.is_empty() {
            return f64::from(melds::least_deadwood(&self.rules.melds, hand));
        }
        let w = self.danger_weight();
        let as_is = self.odds.expected(hand);
        let mut total = 0.0;
        for &c in unseen {
            let eleven = hand.with(c);
            let mut after = melds::analyze_discards(&self.odds.eval, eleven).after_discard;
            after.retain(|&(d, _)| d != c);
            after.sort_by_key(|&(d, dw)| (dw, std::cmp::Reverse(self.rules.melds.value(d))));
            let mut best = as_is + w * self.odds.danger(c);
            for &(d, _) in after.iter().take(self.tuning.discards_per_draw) {
                let keep = Keep {
                    card: d,
                    expected: self.odds.expected(eleven.without(d)),
                    danger: w * self.odds.danger(d),
                };
                best = best.min(keep.cost());
            }
            total += best;
        }
        total / unseen.len() as f64
    }

    /// The stock is down to its reserve: the last discard may be taken only to go out.
    fn last_discard(&self) -> Option<(Action, String)> {
        match self.options.take() {
            Some(a) => Some((
                a.clone(),
                "Took the last discard: it lets me go out before the hand dies.".into(),
            )),
            None => self.options.leave().map(|a| {
                (
                    a.clone(),
                    "Passed: the last discard does not let me go out.".into(),
                )
            }),
        }
    }

    /// After drawing: gin when possible, else knock or play on, and which card to discard.
    fn discard(&self) -> Option<(Action, String)> {
        let gins: Vec<_> = self.options.gins().collect();
        if let Some((a, _)) = gins.iter().find(|(_, d)| d.is_none()) {
            return Some(((*a).clone(), "Went big gin: all eleven cards meld.".into()));
        }
        if let Some((a, Some(d))) = gins.first() {
            return Some((
                (*a).clone(),
                format!("Went gin, discarding {d}: every card I keep is melded."),
            ));
        }
        let hand = self.seen.hand;
        let keeps = self.keeps(hand, self.options.discards().map(|(_, c)| c));
        let played = self.played_out(&keeps);
        let play_on = played.map(|(k, _)| k);
        let knock = self.best_knock(hand);
        if let Some((action, deadwood, odds)) = knock {
            let why = self.knock_or_play_on(play_on, deadwood, &odds);
            match why {
                Ok(why) => return Some((action.clone(), why)),
                Err(why) => {
                    if let Some(k) = play_on
                        && let Some((a, _)) = self.options.discards().find(|&(_, c)| c == k.card)
                    {
                        return Some((a.clone(), format!("Discarded {}: {why}", k.card)));
                    }
                    return Some((action.clone(), plain_why(action, self.view)));
                }
            }
        }
        let (k, played) = played?;
        let (a, _) = self.options.discards().find(|&(_, c)| c == k.card)?;
        let why = match played {
            Some(p) => format!(
                "Discarded {}: played out in {} deals of the cards I have not seen, it scores {:.1} a hand more than discarding {}.",
                k.card, p.worlds, p.gain, p.over
            ),
            None => self.discard_why(&keeps, k),
        };
        Some((a.clone(), why))
    }

    /// The knock that leaves the least deadwood, with what it is worth.
    fn best_knock(&self, hand: CardSet) -> Option<(&Action, u32, KnockOdds)> {
        let analysis = melds::analyze_discards(&self.rules.melds, hand);
        let after = |c: Card| {
            analysis
                .after_discard
                .iter()
                .find(|&&(d, _)| d == c)
                .map_or(u32::MAX, |&(_, dw)| dw)
        };
        let (action, card) = self
            .options
            .knocks()
            .min_by_key(|&(_, c)| (after(c), std::cmp::Reverse(self.rules.melds.value(c))))?;
        let seed = self.seen.fingerprint(self.view);
        let opponents = guesses(self.rules, &self.odds, &self.seen, seed);
        let odds = knock_odds(self.rules, hand.without(card), &opponents);
        Some((action, after(card), odds))
    }

    /// `Ok(why)` to knock now, `Err(why)` to play on.
    fn knock_or_play_on(
        &self,
        play_on: Option<Keep>,
        deadwood: u32,
        odds: &KnockOdds,
    ) -> Result<String, String> {
        let Some(keep) = play_on else {
            return Ok(format!("Knocked with {deadwood} deadwood: I must go out."));
        };
        let rest = self.seen.hand.without(keep.card);
        let outs = self.odds.gin_outs(rest);
        let unseen = self.odds.unseen.len().max(1);
        // A stock that is reshuffled never runs out.
        let left = match self.rules.stock_end {
            StockEnd::Reshuffle => usize::MAX,
            _ => self
                .seen
                .stock
                .saturating_sub(usize::from(self.rules.stock_reserve)),
        };
        let turns = (left / 2).clamp(0, 3) as i32;
        let gin_chance = 1.0 - (1.0 - outs as f64 / unseen as f64).powi(turns);
        let gin_value = f64::from(self.rules.gin_bonus) + odds.opponent_deadwood;
        let alone = gin_chance * gin_value
            + (1.0 - gin_chance) * self.tuning.play_on_keeps * odds.value.max(0.0);
        // Should the opponent go out on its next turn, that is what playing on brings: an
        // undercut when this hand is the lower.
        let reading = self.reading.as_ref().filter(|_| self.tuning.their_turn);
        let theirs = reading.and_then(|r| {
            r.their_turn(
                self.rules,
                &self.odds.unseen,
                self.view.knock_limit,
                keep.card,
                rest,
            )
        });
        let play_on_value = theirs.map_or(alone, |t| t.out * t.worth + (1.0 - t.out) * alone);
        let knock = odds.value >= play_on_value;
        if let Some(t) = theirs
            && knock != (odds.value >= alone)
        {
            let out = 100.0 * t.out;
            return if knock {
                Ok(format!(
                    "Knocked with {deadwood} deadwood: the opponent looks close to going out ({out:.0}%), and I would lose more then."
                ))
            } else {
                Err(format!(
                    "I could knock with {deadwood}, but the opponent looks close to going out ({out:.0}%), and my count would undercut them."
                ))
            };
        }
        if knock {
            Ok(format!(
                "Knocked with {deadwood} deadwood: the opponent should hold about {:.0} and an undercut looks unlikely ({:.0}%).",
                odds.opponent_deadwood,
                100.0 * odds.undercut
            ))
        } else if odds.value < 0.0 {
            Err(format!(
                "I could knock with {deadwood} but an undercut looks likely ({:.0}%), so I play on for a lower count.",
                100.0 * odds.undercut
            ))
        } else {
            Err(format!(
                "I could knock with {deadwood}, but {outs} unseen cards would give me gin, which is worth more."
            ))
        }
    }

    fn discard_why(&self, keeps: &[Keep], keep: Keep) -> String {
        let plain = keeps
            .iter()
            .min_by(|a, b| a.expected.total_cmp(&b.expected));
        let unseen = self.odds.unseen.len();
        let known = self.seen.opponent_known;
        match plain {
            Some(p) if p.card != keep.card && p.danger > keep.danger => {
                let because = if known.is_empty() {
                    String::new()
                } else {
                    format!(" (they took {})", list(known.iter()))
                };
                format!(
                    "Discarded {}: {} could help the opponent{because}, so I keep it back.",
                    keep.card, p.card
                )
            }
            _ => format!(
                "Discarded {}: it keeps the best chances of melds with the {unseen} cards I have not seen.",
                keep.card
            ),
        }
    }
}

/// Plays `keeps` keeps (the best by cost first) out in `worlds` worlds, a batch at a time, while
/// two or more are in the running and the budget allows; `play(keep, batch)` gives a keep's points
/// in a batch of worlds. Each keep's points world by world (`None` for one that dropped out,
/// clearly behind the first), and how many worlds were played.
fn race(
    t: &Tuning,
    keeps: usize,
    worlds: usize,
    mut play: impl FnMut(usize, Range<usize>) -> Vec<f64>,
) -> (Vec<Option<Vec<f64>>>, usize) {
    let mut points: Vec<Option<Vec<f64>>> = vec![Some(Vec::new()); keeps];
    let (mut played, mut spent) = (0usize, 0usize);
    loop {
        let running = points.iter().filter(|p| p.is_some()).count();
        let upto = played.saturating_add(t.rollout_batch.max(1)).min(worlds);
        let cost = running * (upto - played);
        if running < 2 || upto == played || (played > 0 && spent + cost > t.rollout_budget) {
            return (points, played);
        }
        for (i, p) in points.iter_mut().enumerate() {
            if let Some(p) = p {
                p.extend(play(i, played..upto));
            }
        }
        (played, spent) = (upto, spent + cost);
        let (first, rest) = points.split_at_mut(1);
        let first = first[0].as_deref().unwrap_or_default();
        for p in rest {
            if let Some(q) = p {
                let (mean, se) = gain(q, first);
                if mean + t.rollout_drop * se < 0.0 {
                    *p = None;
                }
            }
        }
    }
}

/// How much more `a` scored than `b`, world by world: the mean and its standard error.
fn gain(a: &[f64], b: &[f64]) -> (f64, f64) {
    let n = a.len().min(b.len());
    if n == 0 {
        return (0.0, 0.0);
    }
    let diffs = || a.iter().zip(b).map(|(x, y)| x - y);
    let mean = diffs().sum::<f64>() / n as f64;
    let var = diffs().map(|d| (d - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0).max(1.0);
    (mean, (var / n as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keep 1 trails the first by 10 a world, keep 2 leads it by 1 in every other world, keep 3
    /// scores the same: each batch costs a world per keep still running.
    #[test]
    fn a_race_drops_a_keep_clearly_behind_and_stops_at_its_budget() {
        let t = Tuning {
            rollout_batch: 10,
            rollout_budget: 100,
            rollout_drop: 1.0,
            ..Tuning::STRONG
        };
        let mut calls = 0;
        let (points, played) = race(&t, 4, 500, |keep, batch| {
            calls += batch.len();
            batch
                .map(|w| match keep {
                    1 => -10.0,
                    2 => (w % 2) as f64,
                    _ => 0.0,
                })
                .collect()
        });
        // 4 keeps for the first batch, then 3 for two more; a fourth would pass the budget.
        assert_eq!((played, calls), (30, 40 + 30 + 30));
        assert!(points[1].is_none());
        assert_eq!(points[2].as_ref().map(Vec::len), Some(30));
        assert_eq!(
            gain(points[2].as_deref().unwrap_or_default(), &[0.0; 30]).0,
            0.5
        );
        // Without a budget every world is played; with one keep, none.
        let all = Tuning {
            rollout_budget: usize::MAX,
            ..t
        };
        assert_eq!(race(&all, 2, 45, |_, b| vec![0.0; b.len()]).1, 45);
        assert_eq!(race(&all, 1, 45, |_, b| vec![0.0; b.len()]).1, 0);
    }

    #[test]
    fn a_gain_is_the_mean_difference_world_by_world_with_its_standard_error() {
        assert_eq!(
            gain(&[3.0, 5.0, 7.0], &[1.0, 1.0, 1.0]),
            (4.0, (4.0f64 / 3.0).sqrt())
        );
        assert_eq!(gain(&[2.0, 2.0], &[1.0, 1.0]), (1.0, 0.0));
        assert_eq!(gain(&[], &[1.0]), (0.0, 0.0));
    }

    #[test]
    fn weights_change_by_name_and_a_wrong_one_is_named() {
        let t = Tuning::STRONG.with("danger=8, per_card_knock=30");
        assert_eq!(
            t,
            Ok(Tuning {
                danger: 8.0,
                per_card_knock: 30,
                ..Tuning::STRONG
            })
        );
        let e = Tuning::STRONG.with("dangr=8").err().unwrap_or_default();
        assert!(e.contains("\"dangr\" is not a weight"), "{e}");
        let e = Tuning::STRONG.with("danger=lots").err().unwrap_or_default();
        assert!(e.contains("danger: \"lots\" is not a value"), "{e}");
    }
}
