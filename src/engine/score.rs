//! Scoring a hand, recording a deal into the match, the end of the match and the next dealer.

use std::sync::Arc;

use super::hooks::{
    DealerInfo, HandInfo, HandScore, HookError, Hooks, RecordInfo, ScorePart, SeatHand, SeatHands,
    TableResult, check_entries, check_hand_score,
};
use crate::cards::CardSet;
use crate::melds::{self, Arrangement, LayOff, meld_lists};
use crate::role::Role;
use crate::ruleset::{Ruleset, Target, Tie};
use crate::seat::{BySeat, Seat, Side, TableNo};

use super::error::{Overflow, StepError, add_i64, mul_i64};
use super::event::{Event, Events};
use super::game_score::{GameScore, ScoreEntry};
use super::identity::GameRef;
use super::layout::TableSeating;
use super::outcome::Outcome;
use super::state::{GameBonus, HandResult, Knock, MatchRecord, OpponentScore, Phase, State, Table};

/// What scoring the hand at one table reads besides the table: the hooks and the match so far.
pub(crate) struct Ending<'a> {
    pub rules: &'a Ruleset,
    pub hooks: &'a dyn Hooks,
    /// The game as of the action that ends the hand.
    pub game: GameRef,
    pub table_no: TableNo,
    pub hand_number: u32,
    pub record: &'a MatchRecord,
}

/// One defender at the end of a hand that went out, as scoring reads it.
pub(crate) struct Defender {
    /// The defender's role at the table.
    pub role: Role,
    /// The defender's arrangement after lay-offs.
    pub own: Arrangement,
    /// The defender's cards before laying off.
    pub cards: CardSet,
    pub laid_off: Vec<LayOff>,
}

/// A hand that went out, as scoring reads it.
pub(crate) struct WentOut<'a> {
    /// The knocker's role at the table.
    pub knocker: Role,
    pub knock: &'a Knock,
    /// The cards the knocker keeps (the discard taken out).
    pub knocker_cards: CardSet,
    /// Every opponent of the knocker, in turn order from the knocker's left.
    pub defenders: Vec<Defender>,
}

/// The plain data's score between the knocker and one defender: the outcome and the decision.
fn default_score(
    rules: &Ruleset,
    table: &Table,
    knock: &Knock,
    k_seat: Seat,
    d_seat: Seat,
    dd: u32,
) -> (Outcome, HandScore) {
    let kd = knock.deadwood;
    let base = |points: u32| ScorePart::new("base", i64::from(points));
    let bonus =
        |name: &str, points: u32| (points > 0).then(|| ScorePart::new(name, i64::from(points)));
    let (outcome, winner, parts) = match knock.outcome {
        Outcome::Gin => (
            Outcome::Gin,
            Some(k_seat),
            [Some(base(dd)), bonus("gin bonus", rules.gin_bonus)],
        ),
        Outcome::BigGin => (
            Outcome::BigGin,
            Some(k_seat),
            [
                Some(base(dd)),
                bonus(
                    "big gin bonus",
                    rules.big_gin_bonus.unwrap_or(rules.gin_bonus),
                ),
            ],
        ),
        _ if dd < kd || (dd == kd && rules.tie == Tie::Undercut) => (
            Outcome::Undercut,
            Some(d_seat),
            [
                Some(base(kd - dd)),
                bonus("undercut bonus", rules.undercut_bonus),
            ],
        ),
        _ if dd == kd && rules.tie == Tie::Wash => (Outcome::Wash, None, [None, None]),
        _ => (Outcome::Knock, Some(k_seat), [Some(base(dd - kd)), None]),
    };
    let parts: Vec<ScorePart> = parts.into_iter().flatten().collect();
    let boxes = u32::from(winner.is_some() && parts.iter().any(|p| p.points > 0));
    let decision = HandScore {
        winner,
        parts,
        multiplier: table.multiplier,
        boxes,
    };
    (outcome, decision)
}

/// Scores a hand that went out: against each defender, the plain data's decision, then the
/// `score_hand` hook's.
pub(crate) fn hand_result(
    end: &Ending,
    table: &Table,
    out: WentOut,
) -> Result<HandResult, StepError> {
    let rules = end.rules;
    let k_seat = table.seats[out.knocker];
    let kd = out.knock.deadwood;
    let k_deadwood = out.knocker_cards.minus_all(&out.knock.melds);
    let hands = || {
        let mut hands: Vec<SeatHand> = Seat::all(rules.seats).map(SeatHand::sitting_out).collect();
        hands[k_seat.index()] = SeatHand {
            seat: k_seat,
            playing: true,
            melds: meld_lists(&rules.melds, &out.knock.melds),
            deadwood_cards: k_deadwood.to_vec(),
            deadwood_before: kd,
            deadwood: kd,
            laid_off: Vec::new(),
        };
        for d in &out.defenders {
            let d_seat = table.seats[d.role];
            hands[d_seat.index()] = SeatHand {
                seat: d_seat,
                playing: true,
                melds: meld_lists(&rules.melds, &d.own.melds),
                deadwood_cards: d.own.unmelded.to_vec(),
                deadwood_before: melds::least_deadwood(&rules.melds, d.cards),
                deadwood: d.own.deadwood,
                laid_off: d.laid_off.clone(),
            };
        }
        hands
    };
    let mut scores = Vec::with_capacity(out.defenders.len());
    for d in &out.defenders {
        let d_seat = table.seats[d.role];
        let (outcome, default) =
            default_score(rules, table, out.knock, k_seat, d_seat, d.own.deadwood);
        let info = hand_info(
            end,
            table,
            outcome,
            (Some(k_seat), Some(d_seat)),
            SeatHands::new(&hands),
            default,
        );
        let decision = decide(end, &info, &[k_seat, d_seat])?;
        let outcome = match (outcome, decision.winner) {
            (Outcome::Gin | Outcome::BigGin, Some(_)) => outcome,
            (_, None) => Outcome::Wash,
            (_, Some(w)) if w == k_seat => Outcome::Knock,
            (_, Some(_)) => Outcome::Undercut,
        };
        scores.push((d_seat, outcome, decision));
    }
    let mut result = match scores.as_slice() {
        [(_, outcome, decision)] => result_of(end, decision, *outcome)?,
        _ => table_of_many(end, k_seat, &scores)?,
    };
    result.deadwood[k_seat] = kd;
    result.melds[k_seat] = meld_lists(&rules.melds, &out.knock.melds);
    result.deadwood_cards[k_seat] = k_deadwood.to_vec();
    for d in out.defenders {
        let d_seat = table.seats[d.role];
        result.deadwood[d_seat] = d.own.deadwood;
        result.melds[d_seat] = meld_lists(&rules.melds, &d.own.melds);
        result.deadwood_cards[d_seat] = d.own.unmelded.to_vec();
        result.laid_off.extend(d.laid_off);
    }
    Ok(result)
}

/// The result at a table of three or four: each opponent's score, every seat's points, and as
/// the winner the seat that scored most (the knocker, then turn order, on a tie).
fn table_of_many(
    end: &Ending,
    knocker: Seat,
    scores: &[(Seat, Outcome, HandScore)],
) -> Result<HandResult, StepError> {
    let mut points = BySeat::filled(end.rules.seats, 0i64);
    let mut against = Vec::with_capacity(scores.len());
    for (seat, outcome, decision) in scores {
        let (total, parts) = scored(decision)?;
        if let Some(w) = decision.winner {
            points[w] = add_i64(points[w], total, "the hand's score")?;
        }
        against.push(OpponentScore {
            seat: *seat,
            outcome: *outcome,
            winner: decision.winner,
            points: total,
            parts,
            boxes: decision.boxes,
        });
    }
    let mut winner: Option<Seat> = None;
    for w in std::iter::once(knocker).chain(scores.iter().map(|s| s.0)) {
        let scored_any = against.iter().any(|a| a.winner == Some(w));
        if scored_any && winner.is_none_or(|best| points[w] > points[best]) {
            winner = Some(w);
        }
    }
    let won = |a: &&OpponentScore| a.winner.is_some() && a.winner == winner;
    // How the hand ended for the seat that scored most.
    let outcome = against
        .iter()
        .find(won)
        .map_or(Outcome::Wash, |a| a.outcome);
    let parts = against
        .iter()
        .filter(won)
        .flat_map(|a| a.parts.clone())
        .collect();
    let boxes = against.iter().filter(won).map(|a| a.boxes).sum();
    let seats = end.rules.seats;
    Ok(HandResult {
        game: end.game,
        table: end.table_no,
        outcome,
        winner,
        points,
        deadwood: BySeat::filled(seats, 0),
        melds: BySeat::filled(seats, Vec::new()),
        deadwood_cards: BySeat::filled(seats, Vec::new()),
        laid_off: Vec::new(),
        against,
        multiplier: scores.first().map_or(1, |s| s.2.multiplier),
        parts,
        boxes,
    })
}

/// A dead hand: nobody scores, and no multiplier applies. The `score_hand` hook sees it (each
/// player's best arrangement) and may only leave it so.
pub(crate) fn dead_result(end: &Ending, table: &Table) -> Result<HandResult, StepError> {
    let rules = end.rules;
    let hands = || {
        let mut hands: Vec<SeatHand> = Seat::all(rules.seats).map(SeatHand::sitting_out).collect();
        for r in table.seats.roles() {
            let seat = table.seats[r];
            let own = melds::best_arrangement(&rules.melds, table.hands[r]);
            hands[seat.index()] = SeatHand {
                seat,
                playing: true,
                melds: meld_lists(&rules.melds, &own.melds),
                deadwood_cards: own.unmelded.to_vec(),
                deadwood_before: own.deadwood,
                deadwood: own.deadwood,
                laid_off: Vec::new(),
            };
        }
        hands
    };
    let default = HandScore::nobody(1);
    let info = hand_info(
        end,
        table,
        Outcome::Dead,
        (None, None),
        SeatHands::new(&hands),
        default,
    );
    let decision = decide(end, &info, table.seats.as_slice())?;
    if decision.winner.is_some() {
        return Err(hook_refused(
            "score_hand",
            "named a winner of a dead hand; a dead hand scores nothing (return `()`)".into(),
        )
        .into());
    }
    Ok(result_of(end, &decision, Outcome::Dead)?)
}

fn hand_info<'a>(
    end: &Ending<'a>,
    table: &Table,
    outcome: Outcome,
    (knocker, opponent): (Option<Seat>, Option<Seat>),
    hands: SeatHands<'a>,
    default: HandScore,
) -> HandInfo<'a> {
    HandInfo {
        hand_number: end.hand_number,
        table: end.table_no,
        seating: TableSeating {
            dealer: table.dealer,
            players: table.seats,
        },
        outcome,
        knocker,
        opponent,
        knock_limit: table.knock_limit,
        upcard: table.upcard,
        stock: table.stock.len() as u32,
        turns: table.turns,
        hands,
        layout: &end.record.layout,
        games: &end.record.games,
        default,
    }
}

/// The `score_hand` hook's decision, checked against the seats it is between when it is not
/// the default.
fn decide(end: &Ending, info: &HandInfo, between: &[Seat]) -> Result<HandScore, StepError> {
    let decision = end.hooks.score_hand(info)?;
    if decision != info.default {
        check_hand_score(&decision, between).map_err(|m| hook_refused("score_hand", m))?;
    }
    Ok(decision)
}

/// The points `decision` scores (the multiplier applied) and the parts that show them.
fn scored(decision: &HandScore) -> Result<(i64, Vec<ScorePart>), Overflow> {
    if decision.winner.is_none() {
        return Ok((0, Vec::new()));
    }
    let total = decision
        .base()
        .checked_mul(i64::from(decision.multiplier))
        .filter(|&p| u32::try_from(p).is_ok())
        .ok_or(Overflow("the hand's score"))?;
    Ok((total, decision.shown_parts()))
}

/// The hand's result as `decision` scores it: the winner's points are the sum of the parts shown.
fn result_of(end: &Ending, decision: &HandScore, outcome: Outcome) -> Result<HandResult, Overflow> {
    let seats = end.rules.seats;
    let mut points = BySeat::filled(seats, 0);
    let (total, parts) = scored(decision)?;
    if let Some(w) = decision.winner {
        points[w] = total;
    }
    Ok(HandResult {
        game: end.game,
        table: end.table_no,
        outcome,
        winner: decision.winner,
        points,
        deadwood: BySeat::filled(seats, 0),
        melds: BySeat::filled(seats, Vec::new()),
        deadwood_cards: BySeat::filled(seats, Vec::new()),
        laid_off: Vec::new(),
        against: Vec::new(),
        multiplier: decision.multiplier,
        parts,
        boxes: decision.boxes,
    })
}

/// The results of the tables that are over, as hooks see them.
pub(crate) fn table_results(tables: &[Table]) -> Vec<TableResult> {
    let mut results = Vec::with_capacity(tables.len());
    for t in tables {
        if let Phase::Over { result } = &t.phase {
            table_result(t, result, &mut results);
        }
    }
    results
}

/// `result` of the hand at `table`, as hooks see it: one result, or at a table of three or four
/// one per opponent of the knocker.
fn table_result(table: &Table, result: &HandResult, out: &mut Vec<TableResult>) {
    let seating = TableSeating {
        dealer: table.dealer,
        players: table.seats,
    };
    let points = |p: i64| u32::try_from(p).unwrap_or(u32::MAX);
    if result.against.is_empty() {
        let loser = result
            .winner
            .and_then(|w| table.seats.iter().copied().find(|&s| s != w));
        out.push(TableResult {
            table: result.table,
            seating,
            outcome: result.outcome,
            winner: result.winner,
            loser,
            points: result
                .winner
                .and_then(|w| result.points.get(w))
                .map_or(0, |&p| points(p)),
            multiplier: result.multiplier,
            parts: result.parts.clone(),
            boxes: result.boxes,
        });
        return;
    }
    // The knocker is the one player no score is against.
    let knocker = table
        .seats
        .iter()
        .copied()
        .find(|&s| result.against.iter().all(|a| a.seat != s));
    for a in &result.against {
        let loser = match a.winner {
            Some(w) if w == a.seat => knocker,
            Some(_) => Some(a.seat),
            None => None,
        };
        out.push(TableResult {
            table: result.table,
            seating,
            outcome: a.outcome,
            winner: a.winner,
            loser,
            points: points(a.points),
            multiplier: result.multiplier,
            parts: a.parts.clone(),
            boxes: a.boxes,
        });
    }
}

fn hook_refused(hook: &str, message: String) -> HookError {
    HookError {
        hook: hook.into(),
        message,
    }
}

/// When the hand at table `t` ends with `result` and every other table is over: enters the
/// deal into the match (through the `record_result` hook), before the table changes.
pub(crate) fn enter_last_result(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &State,
    t: TableNo,
    result: &HandResult,
) -> Result<Entered, StepError> {
    let results: Vec<TableResult> = TableNo::all(state.tables.len()).zip(&state.tables).fold(
        Vec::new(),
        |mut out, (n, table)| {
            match &table.phase {
                _ if n == t => table_result(table, result, &mut out),
                Phase::Over { result } => table_result(table, result, &mut out),
                _ => {}
            }
            out
        },
    );
    enter_deal(
        rules,
        hooks,
        &state.record,
        state.target,
        state.deal_number,
        &results,
    )
}

/// Records an entered deal: the match's new record, the games that closed, and the end of the
/// match when all are closed.
pub(crate) fn record_deal(state: &mut State, done: Entered, events: &mut impl Events) {
    state.record = Arc::new(done.record);
    events.push_with(|| Event::Scored {
        entries: done.entries,
    });
    if let Some((winners, totals)) = done.over {
        events.push_with(|| Event::MatchOver {
            game: state.game,
            winners: winners.clone(),
            totals,
        });
        state.winners = Some(winners);
    }
}

/// A deal entered into the match.
pub(crate) struct Entered {
    pub record: MatchRecord,
    pub entries: Vec<ScoreEntry>,
    /// When the match ends with this deal: its winners and final totals per side.
    pub over: Option<(Vec<Seat>, Vec<i64>)>,
}

/// What entering a deal with `results` does to `record` (the match before the deal), as a pure
/// function: [`enter_last_result`] plays it, validation replays it.
pub(crate) fn enter_deal(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    record: &MatchRecord,
    target: Target,
    deal_number: u32,
    results: &[TableResult],
) -> Result<Entered, StepError> {
    let info = RecordInfo {
        hand_number: deal_number,
        target,
        layout: &record.layout,
        games: &record.games,
        results,
    };
    let entries = hooks.record_result(&info)?;
    check_entries(&entries, &record.layout, &record.games)
        .map_err(|m| hook_refused("record_result", m))?;
    let mut record = record.clone();
    // A hand is won once by a side, though at a table of three or four it scores against
    // several opponents (an entry each).
    let mut won: Vec<(usize, usize)> = Vec::new();
    for e in &entries {
        let game = &mut record.games[usize::from(e.game)];
        let side = e.side.index();
        game.points[side] = add_i64(game.points[side], i64::from(e.points), "a score")?;
        if game.boxes.len() < game.points.len() {
            game.boxes.resize(game.points.len(), 0);
        }
        game.boxes[side] = game.boxes[side]
            .checked_add(e.boxes)
            .ok_or(Overflow("a count of boxes"))?;
        if e.points > 0 && !won.contains(&(usize::from(e.game), side)) {
            won.push((usize::from(e.game), side));
            game.hands_won[side] = game.hands_won[side]
                .checked_add(1)
                .ok_or(Overflow("a count of hands won"))?;
        }
    }
    checked_totals(&record)?;
    let one_hand = target == Target::SingleHand;
    for g in 0..record.games.len() {
        if record.games[g].closed {
            continue;
        }
        let leader = leader(&record.games[g].points);
        let won = match target {
            Target::SingleHand => true,
            Target::Points(t) => leader.is_some_and(|(_, best)| best >= i64::from(t)),
        };
        if !won {
            continue;
        }
        record.games[g].closed = true;
        if let Some((side, _)) = leader
            && let Some(b) = classic_bonuses(rules, &record.games[g], g, side)?
        {
            record.bonuses.push(b);
        }
    }
    let mut over = None;
    if record.games.iter().all(|g| g.closed) {
        let finals = final_totals(&record)?;
        let all_dead = results.iter().all(|r| r.winner.is_none());
        let winners: Vec<Seat> = match leader(&finals) {
            Some((side, _)) if !(one_hand && all_dead) => {
                let mut seats = record.layout.sides[side.index()].clone();
                seats.sort_unstable();
                seats
            }
            _ => Vec::new(),
        };
        over = Some((winners, finals));
    }
    Ok(Entered {
        record,
        entries,
        over,
    })
}

/// Points per side summed over the games, or what overflows.
pub(crate) fn checked_totals(record: &MatchRecord) -> Result<Vec<i64>, Overflow> {
    let mut totals = vec![0i64; record.layout.sides.len()];
    for g in &record.games {
        for (t, &p) in totals.iter_mut().zip(&g.points) {
            *t = add_i64(*t, p, "a match total")?;
        }
    }
    Ok(totals)
}

/// The side with the most points, if it leads alone.
pub(crate) fn leader(points: &[i64]) -> Option<(Side, i64)> {
    let best = points.iter().copied().max()?;
    let mut at_best = Side::all(points.len())
        .zip(points)
        .filter(|&(_, &p)| p == best);
    let (side, _) = at_best.next()?;
    at_best.next().is_none().then_some((side, best))
}

/// Each side's final total: every game's points, with that game's bonuses where awarded.
pub(crate) fn final_totals(record: &MatchRecord) -> Result<Vec<i64>, Overflow> {
    let mut totals = vec![0; record.layout.sides.len()];
    for (g, game) in record.games.iter().enumerate() {
        let with_bonus = record.bonuses.iter().find(|b| usize::from(b.game) == g);
        let points = with_bonus.map_or(&game.points, |b| &b.totals);
        for (t, &p) in totals.iter_mut().zip(points) {
            *t = add_i64(*t, p, "a final total")?;
        }
    }
    Ok(totals)
}

/// Game, box and shutout bonuses for a game that just closed, when the ruleset awards any.
pub(crate) fn classic_bonuses(
    rules: &Ruleset,
    game: &GameScore,
    index: usize,
    winner: Side,
) -> Result<Option<GameBonus>, Overflow> {
    let m = &rules.match_rules;
    if m.game_bonus == 0 && m.box_bonus == 0 && m.shutout_multiplier <= 1 {
        return Ok(None);
    }
    let n = game.points.len();
    let mut game_bonus = vec![0i64; n];
    game_bonus[winner.index()] = i64::from(m.game_bonus);
    let boxes = game
        .boxes
        .iter()
        .map(|&h| mul_i64(i64::from(h), i64::from(m.box_bonus), "a box bonus"))
        .collect::<Result<Vec<i64>, Overflow>>()?;
    let shut_out = game
        .points
        .iter()
        .enumerate()
        .all(|(s, &t)| s == winner.index() || t == 0);
    let shutout = if shut_out {
        m.shutout_multiplier.max(1)
    } else {
        1
    };
    let what = "a game's total with its bonuses";
    let mut totals = Vec::with_capacity(n);
    for s in 0..n {
        let total = add_i64(
            add_i64(game.points[s], game_bonus[s], what)?,
            boxes[s],
            what,
        )?;
        totals.push(if s == winner.index() {
            mul_i64(total, i64::from(shutout), what)?
        } else {
            total
        });
    }
    Ok(Some(GameBonus {
        game: index as u8,
        winner,
        game_bonus,
        boxes,
        shutout,
        totals,
    }))
}

/// Who deals the next deal (through the `next_dealer` hook).
pub(crate) fn next_dealer(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &State,
) -> Result<Seat, HookError> {
    let dealer = state.dealer;
    let results = table_results(&state.tables);
    let info = DealerInfo {
        seats: rules.seats,
        dealer,
        hand_number: state.deal_number,
        rule: rules.next_dealer,
        after_wash: rules.after_wash,
        layout: &state.record.layout,
        results: &results,
    };
    let next = hooks.next_dealer(&info)?;
    if !next.is_in(rules.seats) {
        return Err(hook_refused(
            "next_dealer",
            format!(
                "returned seat {next}, but the game has seats 0 to {}",
                rules.seats - 1
            ),
        ));
    }
    Ok(next)
}
