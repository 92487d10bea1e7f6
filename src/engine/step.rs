//! `step`: one action applied to a state, as a pure function.

use super::hooks::Hooks;
use crate::cards::{Card, CardSet};
use crate::melds::{self, Arrangement, meld_lists};
use crate::role::Role;
use crate::ruleset::Ruleset;
use crate::seat::{Seat, TableNo};

use super::action::{Action, ActionKind, Source};
use super::deal;
use super::error::{IllegalAction, Overflow, StepError};
use super::event::Event;
use super::identity::GameRef;
use super::outcome::Outcome;
use super::play_rules::{self, AfterDiscard};
use super::score;
use super::state::{HandResult, Knock, Phase, State, Table};

/// The state after `action` and what it did. On error `state` is untouched and still playable.
pub(crate) fn step(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &State,
    action: &Action,
) -> Result<(State, Vec<Event>), StepError> {
    let turn = whose_turn(state, action)?;
    let mut next = state.clone();
    next.game = state.game.next();
    let mut events = Vec::with_capacity(3);
    match turn {
        Turn::NextHand => next_hand(rules, hooks, &mut next, &mut events)?,
        Turn::Table(t) => {
            let ctx = TableCtx::new(rules, &next, next.game, t);
            play(
                &ctx,
                &mut next.tables[t.index()],
                action.seat,
                &action.kind,
                &mut events,
            )?;
            if next.is_between_hands() {
                score::record_deal(rules, hooks, &mut next, &mut events)?;
            }
        }
    }
    log(&mut next, action);
    Ok((next, events))
}

/// [`step`] in place, for simulations that need no copy of each state: applies `action` to
/// `state` and appends what happened to `events`. On error neither is changed.
pub(crate) fn apply(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &mut State,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<(), StepError> {
    let game = state.game;
    let t = match whose_turn(state, action)? {
        Turn::NextHand => {
            next_hand(rules, hooks, state, events)?;
            state.game = game.next();
            log(state, action);
            return Ok(());
        }
        Turn::Table(t) => t,
    };
    let ctx = TableCtx::new(rules, state, game.next(), t);
    let mark = events.len();
    let before = state.tables[t.index()].clone();
    if let Err(e) = play(
        &ctx,
        &mut state.tables[t.index()],
        action.seat,
        &action.kind,
        events,
    ) {
        state.tables[t.index()] = before;
        events.truncate(mark);
        return Err(e);
    }
    state.game = game.next();
    if state.is_between_hands()
        && let Err(e) = score::record_deal(rules, hooks, state, events)
    {
        state.tables[t.index()] = before;
        state.game = game;
        events.truncate(mark);
        return Err(e);
    }
    log(state, action);
    Ok(())
}

/// Adds an accepted action to the state's log, if it keeps one.
fn log(state: &mut State, action: &Action) {
    if let Some(log) = &mut state.log {
        log.actions.push(action.clone());
    }
}

/// What an action is about: the next deal, or a turn at table `t`.
enum Turn {
    NextHand,
    Table(TableNo),
}

fn whose_turn(state: &State, action: &Action) -> Result<Turn, IllegalAction> {
    if state.is_over() {
        return Err(IllegalAction::MatchOver);
    }
    let seat = action.seat;
    if !state.has_seat(seat) {
        return Err(IllegalAction::NoSuchSeat(seat));
    }
    if let ActionKind::NextHand = action.kind {
        if !state.is_between_hands() {
            return Err(IllegalAction::HandNotOver);
        }
        return Ok(Turn::NextHand);
    }
    if state.is_between_hands() {
        return Err(IllegalAction::HandIsOver);
    }
    let Some(t) = state.table_of(seat) else {
        return Err(IllegalAction::SittingOut(seat));
    };
    if state.tables[t.index()].to_act() != Some(seat) {
        return Err(IllegalAction::NotYourTurn {
            seat,
            waiting: state.to_act(),
        });
    }
    Ok(Turn::Table(t))
}

fn next_hand(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &mut State,
    events: &mut Vec<Event>,
) -> Result<(), StepError> {
    let dealer = score::next_dealer(rules, hooks, state)?;
    let before = state.deal_number;
    state.deal_number = before
        .checked_add(1)
        .ok_or(Overflow("the number of deals"))?;
    match deal::deal_all(rules, hooks, state, dealer, &[]) {
        Ok(dealt) => {
            events.extend(dealt);
            Ok(())
        }
        Err(e) => {
            state.deal_number = before;
            Err(e.into())
        }
    }
}

pub(crate) struct TableCtx<'a> {
    pub rules: &'a Ruleset,
    /// The game as of the action being played.
    pub game: GameRef,
    pub seed: u64,
    pub deal: u32,
    pub table: TableNo,
}

impl TableCtx<'_> {
    fn new<'a>(rules: &'a Ruleset, state: &State, game: GameRef, t: TableNo) -> TableCtx<'a> {
        TableCtx {
            rules,
            game,
            seed: state.seed,
            deal: state.deal_number,
            table: t,
        }
    }
}

/// Plays `kind` for `seat` at `table`. On error the table may be half changed: callers play on
/// a copy or restore it.
pub(crate) fn play(
    ctx: &TableCtx,
    table: &mut Table,
    seat: Seat,
    kind: &ActionKind,
    events: &mut Vec<Event>,
) -> Result<(), StepError> {
    let rules = ctx.rules;
    let t = ctx.table;
    let r = table.role(seat).ok_or(IllegalAction::SittingOut(seat))?;
    let other = table.seats[r.other()];
    match (table.phase.clone(), kind) {
        (Phase::UpcardOffer { .. }, ActionKind::TakeUpcard) => {
            let card = table.discard.pop().ok_or(IllegalAction::DiscardPileEmpty)?;
            table.hands[r].insert(card);
            table.taken[r].insert(card);
            events.push(Event::TookUpcard {
                table: t,
                seat,
                card,
            });
            table.phase = Phase::Discard {
                seat,
                taken: Some(card),
                must_go_out: false,
            };
        }
        (Phase::UpcardOffer { passes, .. }, ActionKind::Pass) => {
            events.push(Event::Passed { table: t, seat });
            table.phase = if passes == 0 {
                Phase::UpcardOffer {
                    seat: other,
                    passes: 1,
                }
            } else {
                Phase::Draw {
                    seat: table.seats[Role::First],
                    stock_only: true,
                }
            };
        }
        (Phase::UpcardOffer { .. }, _) => return Err(IllegalAction::DecideOnUpcard.into()),

        (Phase::Draw { stock_only, .. }, ActionKind::Draw { from }) => {
            let card = match from {
                Source::Stock => {
                    let exhausted = IllegalAction::StockExhausted(usize::from(rules.stock_reserve));
                    if !play_rules::may_draw_stock(rules, table) {
                        return Err(exhausted.into());
                    }
                    if play_rules::reshuffles_before_draw(rules, table) {
                        let cards = deal::reshuffle(ctx.seed, ctx.deal, t, table)?;
                        events.push(Event::Reshuffled { table: t, cards });
                    }
                    table.stock.pop().ok_or(exhausted)?
                }
                Source::Discard => {
                    if stock_only {
                        return Err(IllegalAction::StockOnly.into());
                    }
                    let card = table.discard.pop().ok_or(IllegalAction::DiscardPileEmpty)?;
                    table.taken[r].insert(card);
                    card
                }
            };
            table.hands[r].insert(card);
            events.push(Event::Drew {
                table: t,
                seat,
                from: *from,
                card: Some(card),
            });
            table.phase = Phase::Discard {
                seat,
                taken: (*from == Source::Discard).then_some(card),
                must_go_out: false,
            };
        }
        (Phase::Draw { .. }, ActionKind::TakeUpcard) => {
            return Err(IllegalAction::UpcardNotOffered.into());
        }
        (Phase::Draw { .. }, ActionKind::Pass) => return Err(IllegalAction::NothingToPass.into()),
        (Phase::Draw { .. }, ActionKind::LayOff { .. }) => {
            return Err(IllegalAction::NoLayOff.into());
        }
        (Phase::Draw { .. }, _) => return Err(IllegalAction::MustDraw.into()),

        (
            Phase::LastDiscard { .. },
            ActionKind::Draw {
                from: Source::Discard,
            },
        ) => {
            let card = table.discard.top().ok_or(IllegalAction::DiscardPileEmpty)?;
            if !play_rules::can_go_out_with(rules, table.knock_limit, table.hands[r], card) {
                return Err(IllegalAction::LastDiscardOnly.into());
            }
            table.discard.pop();
            table.hands[r].insert(card);
            table.taken[r].insert(card);
            events.push(Event::Drew {
                table: t,
                seat,
                from: Source::Discard,
                card: Some(card),
            });
            table.phase = Phase::Discard {
                seat,
                taken: Some(card),
                must_go_out: true,
            };
        }
        (Phase::LastDiscard { .. }, ActionKind::Pass) => {
            events.push(Event::Passed { table: t, seat });
            end_dead(ctx, table, events);
        }
        (
            Phase::LastDiscard { .. },
            ActionKind::Draw {
                from: Source::Stock,
            },
        ) => {
            return Err(IllegalAction::StockExhausted(usize::from(rules.stock_reserve)).into());
        }
        (Phase::LastDiscard { .. }, _) => return Err(IllegalAction::LastDiscardOnly.into()),

        (
            Phase::Discard {
                taken, must_go_out, ..
            },
            ActionKind::Discard { card },
        ) => {
            if must_go_out {
                return Err(IllegalAction::MustGoOut.into());
            }
            check_discard(rules, table.hands[r], taken, *card)?;
            table.hands[r].remove(*card);
            table.taken[r].remove(*card);
            table.discard.push(*card);
            events.push(Event::Discarded {
                table: t,
                seat,
                card: *card,
            });
            table.phase = match play_rules::after_discard(rules, table) {
                AfterDiscard::Dead => {
                    end_dead(ctx, table, events);
                    return Ok(());
                }
                AfterDiscard::LastDiscard => Phase::LastDiscard { seat: other },
                AfterDiscard::Draw => Phase::Draw {
                    seat: other,
                    stock_only: false,
                },
            };
        }
        (Phase::Discard { taken, .. }, ActionKind::Knock { discard, melds }) => {
            let limit = table.knock_limit.ok_or(IllegalAction::NoKnocking)?;
            check_discard(rules, table.hands[r], taken, *discard)?;
            let kept = table.hands[r].without(*discard);
            let arrangement = arrange(rules, kept, melds.as_deref())?;
            if arrangement.deadwood > u32::from(limit) {
                return Err(IllegalAction::OverKnockLimit {
                    deadwood: arrangement.deadwood,
                    limit,
                }
                .into());
            }
            let outcome = if arrangement.deadwood == 0 {
                Outcome::Gin
            } else {
                Outcome::Knock
            };
            go_out(ctx, table, r, Some(*discard), arrangement, outcome, events)?;
        }
        (Phase::Discard { taken, .. }, ActionKind::Gin { discard, melds }) => match discard {
            Some(discard) => {
                check_discard(rules, table.hands[r], taken, *discard)?;
                let kept = table.hands[r].without(*discard);
                let arrangement = arrange(rules, kept, melds.as_deref())?;
                if arrangement.deadwood > 0 {
                    return Err(IllegalAction::NotGin(arrangement.deadwood).into());
                }
                go_out(
                    ctx,
                    table,
                    r,
                    Some(*discard),
                    arrangement,
                    Outcome::Gin,
                    events,
                )?;
            }
            None => {
                if !play_rules::plays_big_gin(rules) {
                    return Err(IllegalAction::NoBigGin.into());
                }
                let arrangement = arrange(rules, table.hands[r], melds.as_deref())?;
                if arrangement.deadwood > 0 {
                    return Err(IllegalAction::NotBigGin.into());
                }
                go_out(ctx, table, r, None, arrangement, Outcome::BigGin, events)?;
            }
        },
        (Phase::Discard { .. }, ActionKind::Draw { .. }) => {
            return Err(IllegalAction::AlreadyDrew.into());
        }
        (Phase::Discard { .. }, ActionKind::TakeUpcard) => {
            return Err(IllegalAction::UpcardNotOffered.into());
        }
        (Phase::Discard { .. }, ActionKind::Pass) => {
            return Err(IllegalAction::NothingToPass.into());
        }
        (Phase::Discard { .. }, _) => return Err(IllegalAction::NoLayOff.into()),

        (Phase::LayOff { knock, .. }, ActionKind::LayOff { cards }) => {
            let pairs: Vec<(Card, Option<usize>)> =
                cards.iter().map(|c| (c.card, c.onto)).collect();
            let plan = melds::apply_lay_offs(&rules.melds, &knock.melds, table.hands[r], &pairs)
                .map_err(IllegalAction::from)?;
            events.push(Event::LaidOff {
                table: t,
                seat,
                cards: plan.lay_offs.clone(),
                melds: meld_lists(&rules.melds, &plan.own.melds),
                deadwood: plan.own.deadwood,
            });
            let result = score::hand_result(
                rules,
                ctx.game,
                table,
                t,
                r.other(),
                &knock,
                &plan.own,
                plan.lay_offs,
            )?;
            end_hand(table, result, events);
        }
        (Phase::LayOff { .. }, _) => return Err(IllegalAction::MustLayOff.into()),
        (Phase::Over { .. }, _) => return Err(IllegalAction::HandIsOver.into()),
    }
    Ok(())
}

/// The arrangement a player shows: theirs, checked, or the best one.
fn arrange(
    rules: &Ruleset,
    cards: CardSet,
    melds: Option<&[Vec<Card>]>,
) -> Result<Arrangement, IllegalAction> {
    match melds {
        Some(m) => Ok(melds::check_arrangement(&rules.melds, cards, m)?),
        None => Ok(melds::best_arrangement(&rules.melds, cards)),
    }
}

fn check_discard(
    rules: &Ruleset,
    hand: CardSet,
    taken: Option<Card>,
    card: Card,
) -> Result<(), IllegalAction> {
    if !hand.contains(card) {
        return Err(IllegalAction::NotInHand(card));
    }
    if !play_rules::discardable(rules, hand, taken).contains(card) {
        return Err(IllegalAction::TakenCard(card));
    }
    Ok(())
}

fn go_out(
    ctx: &TableCtx,
    table: &mut Table,
    r: Role,
    discard: Option<Card>,
    arrangement: Arrangement,
    outcome: Outcome,
    events: &mut Vec<Event>,
) -> Result<(), Overflow> {
    let rules = ctx.rules;
    let t = ctx.table;
    let seat = table.seats[r];
    if let Some(card) = discard {
        table.hands[r].remove(card);
        table.taken[r].remove(card);
        table.discard.push(card);
    }
    let shown = meld_lists(&rules.melds, &arrangement.melds);
    events.push(match (outcome, discard) {
        (Outcome::Knock, Some(discard)) => Event::Knocked {
            table: t,
            seat,
            discard,
            melds: shown,
            deadwood: arrangement.deadwood,
        },
        _ => Event::WentGin {
            table: t,
            seat,
            discard,
            melds: shown,
            big_gin: outcome == Outcome::BigGin,
        },
    });
    let knock = Knock {
        knocker: seat,
        melds: arrangement.melds,
        deadwood: arrangement.deadwood,
        outcome,
    };
    if play_rules::lays_off(rules, outcome) {
        table.phase = Phase::LayOff {
            seat: table.seats[r.other()],
            knock,
        };
    } else {
        let own = melds::best_arrangement(&rules.melds, table.hands[r.other()]);
        let result = score::hand_result(rules, ctx.game, table, t, r, &knock, &own, Vec::new())?;
        end_hand(table, result, events);
    }
    Ok(())
}

fn end_dead(ctx: &TableCtx, table: &mut Table, events: &mut Vec<Event>) {
    let result = score::dead_result(ctx.rules, ctx.game, ctx.table);
    end_hand(table, result, events);
}

fn end_hand(table: &mut Table, result: HandResult, events: &mut Vec<Event>) {
    events.push(Event::HandOver(result.clone()));
    table.phase = Phase::Over {
        result: Box::new(result),
    };
}
