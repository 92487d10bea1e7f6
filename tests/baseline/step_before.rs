//! `step` as it was before issue 28 made it faster: a test-only copy of `src/engine/step.rs`, kept
//! verbatim but for this header, the test at the end, the boxes that the state's lay-off phase
//! and the hand-over event now hold, and `ActionKind::resolve_jokers`, which the new step does
//! without and this copy keeps (at the end), so that a property test can compare the
//! new step with it on random actions, legal and illegal: the same result, the same error, the
//! same events, the same state. It is compiled into the library's unit tests only
//! (`src/engine/mod.rs` includes it under `#[cfg(test)]`), as `benches/baseline/` keeps the solver
//! as it was.
#![allow(dead_code)]

//! `step`: one action applied to a state, as a pure function. An action is checked, and all
//! it does decided, before anything changes: a refused action leaves the state as it was with
//! nothing to restore.

use super::hooks::Hooks;
use crate::cards::{Card, CardSet};
use crate::melds::{self, Arrangement, meld_lists};
use crate::role::Role;
use crate::ruleset::Ruleset;
use crate::seat::{Seat, TableNo};

use super::action::{Action, ActionKind, Source};
use super::deal::{self, Reshuffled};
use super::error::{IllegalAction, Overflow, StepError};
use super::event::Event;
use super::identity::GameRef;
use super::outcome::Outcome;
use super::play_rules::{self, AfterDiscard};
use super::score;
use super::state::{HandResult, Knock, MatchRecord, Phase, SeatLayOffs, State, Table};

/// The state after `action` and what it did. On error `state` is untouched and still playable.
pub(crate) fn step(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &State,
    action: &Action,
) -> Result<(State, Vec<Event>), StepError> {
    let mut next = state.clone();
    let mut events = Vec::with_capacity(3);
    apply(rules, hooks, &mut next, action, &mut events)?;
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
    let game = state.game.next();
    let t = match whose_turn(state, action)? {
        Turn::NextHand => {
            next_hand(rules, hooks, state, events)?;
            state.game = game;
            log(state, action);
            return Ok(());
        }
        Turn::Table(t) => t,
    };
    let ctx = TableCtx {
        rules,
        hooks,
        record: &state.record,
        game,
        seed: state.seed,
        deal: state.deal_number,
        table: t,
    };
    let table = &state.tables[t.index()];
    let checked = check(&ctx, table, action.seat, &action.kind)?;
    let entered = match &checked.next {
        Phase::Over { result } if ends_deal(state, t) => {
            Some(score::enter_last_result(rules, hooks, state, t, result)?)
        }
        _ => None,
    };
    commit(
        &ctx,
        &mut state.tables[t.index()],
        action.seat,
        checked,
        events,
    );
    state.game = game;
    if let Some(entered) = entered {
        score::record_deal(state, entered, events);
    }
    log(state, action);
    Ok(())
}

/// Every table of the deal but `t` is over, so the hand ending at `t` ends the deal.
fn ends_deal(state: &State, t: TableNo) -> bool {
    TableNo::all(state.tables.len())
        .zip(&state.tables)
        .all(|(n, table)| n == t || matches!(table.phase, Phase::Over { .. }))
}

/// Adds an accepted action to the state's log, if it keeps one.
fn log(state: &mut State, action: &Action) {
    if let Some(log) = &mut state.log {
        // Cloned straight into the log: `push(action.clone())` builds the copy on the stack
        // first and stalls reading it back, a third of a step's time.
        log.actions.extend_from_slice(std::slice::from_ref(action));
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
        if state.bots.contains_key(&seat) {
            return Err(IllegalAction::NotYourTurn {
                seat,
                waiting: state.to_act(),
            });
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
    pub hooks: &'a dyn Hooks,
    /// The match before this action.
    pub record: &'a MatchRecord,
    /// The game as of the action being played.
    pub game: GameRef,
    pub seed: u64,
    pub deal: u32,
    pub table: TableNo,
}

impl TableCtx<'_> {
    /// What scoring the hand at this table reads.
    fn ending(&self) -> score::Ending<'_> {
        score::Ending {
            rules: self.rules,
            hooks: self.hooks,
            game: self.game,
            table_no: self.table,
            hand_number: self.deal,
            record: self.record,
        }
    }
}

/// An action checked against its table, and all it does there.
pub(crate) struct Checked {
    role: Role,
    change: Change,
    /// The phase the table moves to: `Over`, with the result, when the action ends the hand.
    next: Phase,
}

/// What a checked action changes at its table before its phase.
enum Change {
    TookUpcard(Card),
    Passed,
    /// A draw, after the reshuffle that comes first when the stock is down to its reserve.
    Drew {
        from: Source,
        card: Card,
        reshuffled: Option<Box<Reshuffled>>,
    },
    Discarded(Card),
    /// Knocked or went gin: the discard (none for big gin), and the event that shows it.
    WentOut {
        discard: Option<Card>,
        shown: Box<Event>,
    },
    LaidOff(Box<Event>),
}

impl Checked {
    fn new(role: Role, change: Change, next: Phase) -> Result<Checked, StepError> {
        Ok(Checked { role, change, next })
    }
}

fn over(result: HandResult) -> Phase {
    Phase::Over {
        result: Box::new(result),
    }
}

/// Checks `kind` for `seat` at `table` and decides what it does, changing nothing. Inlined, as
/// is [`commit`], so that what it decides stays in registers rather than stalling on its way
/// through the stack.
#[inline(always)]
pub(crate) fn check(
    ctx: &TableCtx,
    table: &Table,
    seat: Seat,
    kind: &ActionKind,
) -> Result<Checked, StepError> {
    let rules = ctx.rules;
    let r = table.role(seat).ok_or(IllegalAction::SittingOut(seat))?;
    let taken = match table.phase {
        Phase::Discard { taken, .. } => taken,
        _ => None,
    };
    let resolved = resolve_jokers(kind, table.hands[r], taken);
    let kind = resolved.as_ref().unwrap_or(kind);
    let other = table.seat_after(r);
    let players = table.seats.len();
    let taking = |card, must_go_out| Phase::Discard {
        seat,
        taken: Some(card),
        must_go_out,
    };
    match (&table.phase, kind) {
        (Phase::UpcardOffer { .. }, ActionKind::TakeUpcard) => {
            let card = table.discard.top().ok_or(IllegalAction::DiscardPileEmpty)?;
            Checked::new(r, Change::TookUpcard(card), taking(card, false))
        }
        (Phase::UpcardOffer { passes, .. }, ActionKind::Pass) => {
            let passes = passes.saturating_add(1);
            let next = if usize::from(passes) < players {
                Phase::UpcardOffer {
                    seat: other,
                    passes,
                }
            } else {
                Phase::Draw {
                    seat: table.seats[Role::FIRST],
                    stock_only: true,
                }
            };
            Checked::new(r, Change::Passed, next)
        }
        (Phase::UpcardOffer { .. }, _) => Err(IllegalAction::DecideOnUpcard.into()),

        (
            Phase::Draw { .. },
            ActionKind::Draw {
                from: Source::Stock,
            },
        ) => {
            let (card, reshuffled) = stock_draw(ctx, table)?;
            let change = Change::Drew {
                from: Source::Stock,
                card,
                reshuffled,
            };
            let next = Phase::Discard {
                seat,
                taken: None,
                must_go_out: false,
            };
            Checked::new(r, change, next)
        }
        (
            Phase::Draw { stock_only, .. },
            ActionKind::Draw {
                from: Source::Discard,
            },
        ) => {
            if *stock_only {
                return Err(IllegalAction::StockOnly.into());
            }
            let card = table.discard.top().ok_or(IllegalAction::DiscardPileEmpty)?;
            Checked::new(r, pile_draw(card), taking(card, false))
        }
        (Phase::Draw { .. }, ActionKind::TakeUpcard) => Err(IllegalAction::UpcardNotOffered.into()),
        (Phase::Draw { .. }, ActionKind::Pass) => Err(IllegalAction::NothingToPass.into()),
        (Phase::Draw { .. }, ActionKind::LayOff { .. }) => Err(IllegalAction::NoLayOff.into()),
        (Phase::Draw { .. }, _) => Err(IllegalAction::MustDraw.into()),

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
            Checked::new(r, pile_draw(card), taking(card, true))
        }
        (Phase::LastDiscard { passes, .. }, ActionKind::Pass) => {
            let passes = passes.saturating_add(1);
            // Every player but the discarder may take it in turn.
            let next = if usize::from(passes) + 1 < players {
                Phase::LastDiscard {
                    seat: other,
                    passes,
                }
            } else {
                over(score::dead_result(&ctx.ending(), table)?)
            };
            Checked::new(r, Change::Passed, next)
        }
        (
            Phase::LastDiscard { .. },
            ActionKind::Draw {
                from: Source::Stock,
            },
        ) => Err(IllegalAction::StockExhausted(usize::from(rules.stock_reserve)).into()),
        (Phase::LastDiscard { .. }, _) => Err(IllegalAction::LastDiscardOnly.into()),

        (
            Phase::Discard {
                taken, must_go_out, ..
            },
            ActionKind::Discard { card },
        ) => {
            if *must_go_out {
                return Err(IllegalAction::MustGoOut.into());
            }
            check_discard(rules, table.hands[r], *taken, *card)?;
            // The stock decides what follows, and a discard leaves it as it is.
            let next = match play_rules::after_discard(rules, table) {
                AfterDiscard::Dead => over(score::dead_result(&ctx.ending(), table)?),
                AfterDiscard::LastDiscard => Phase::LastDiscard {
                    seat: other,
                    passes: 0,
                },
                AfterDiscard::Draw => Phase::Draw {
                    seat: other,
                    stock_only: false,
                },
            };
            Checked::new(r, Change::Discarded(*card), next)
        }
        (Phase::Discard { taken, .. }, ActionKind::Knock { discard, melds }) => {
            let limit = table.knock_limit.ok_or(IllegalAction::NoKnocking)?;
            check_discard(rules, table.hands[r], *taken, *discard)?;
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
            go_out(ctx, table, r, Some(*discard), arrangement, outcome)
        }
        (Phase::Discard { taken, .. }, ActionKind::Gin { discard, melds }) => match discard {
            Some(discard) => {
                check_discard(rules, table.hands[r], *taken, *discard)?;
                let kept = table.hands[r].without(*discard);
                let arrangement = arrange(rules, kept, melds.as_deref())?;
                if arrangement.deadwood > 0 {
                    return Err(IllegalAction::NotGin(arrangement.deadwood).into());
                }
                go_out(ctx, table, r, Some(*discard), arrangement, Outcome::Gin)
            }
            None => {
                if !play_rules::plays_big_gin(rules) {
                    return Err(IllegalAction::NoBigGin.into());
                }
                let arrangement = arrange(rules, table.hands[r], melds.as_deref())?;
                if arrangement.deadwood > 0 {
                    return Err(IllegalAction::NotBigGin.into());
                }
                go_out(ctx, table, r, None, arrangement, Outcome::BigGin)
            }
        },
        (Phase::Discard { .. }, ActionKind::Draw { .. }) => Err(IllegalAction::AlreadyDrew.into()),
        (Phase::Discard { .. }, ActionKind::TakeUpcard) => {
            Err(IllegalAction::UpcardNotOffered.into())
        }
        (Phase::Discard { .. }, ActionKind::Pass) => Err(IllegalAction::NothingToPass.into()),
        (Phase::Discard { .. }, _) => Err(IllegalAction::NoLayOff.into()),

        (Phase::LayOff { knock, .. }, ActionKind::LayOff { cards }) => {
            let pairs: Vec<(Card, Option<usize>)> =
                cards.iter().map(|c| (c.card, c.onto)).collect();
            let plan =
                melds::apply_lay_offs(&rules.melds, &knock.melds_now(), table.hands[r], &pairs)
                    .map_err(IllegalAction::from)?;
            let laid = Event::LaidOff {
                table: ctx.table,
                seat,
                cards: plan.lay_offs.clone(),
                melds: meld_lists(&rules.melds, &plan.own.melds),
                wilds: melds::stand_ins(&rules.melds, &plan.own.melds),
                onto_wilds: melds::stand_ins(&rules.melds, &plan.extended),
                deadwood: plan.own.deadwood,
            };
            let knocker = table
                .role(knock.knocker)
                .ok_or(IllegalAction::SittingOut(knock.knocker))?;
            let this = score::Defender {
                role: r,
                own: plan.own,
                cards: table.hands[r],
                laid_off: plan.lay_offs,
            };
            let next = if other == knock.knocker {
                let mut defenders = defenders_before(rules, table, knock);
                defenders.push(this);
                let result = score::hand_result(
                    &ctx.ending(),
                    table,
                    score::WentOut {
                        knocker,
                        knock,
                        knocker_cards: table.hands[knocker],
                        defenders,
                    },
                )?;
                over(result)
            } else {
                let mut knock = knock.clone();
                knock.laid_off.push(SeatLayOffs {
                    seat,
                    cards: this.laid_off,
                });
                Phase::LayOff { seat: other, knock }
            };
            Checked::new(r, Change::LaidOff(Box::new(laid)), next)
        }
        (Phase::LayOff { .. }, _) => Err(IllegalAction::MustLayOff.into()),
        (Phase::Over { .. }, _) => Err(IllegalAction::HandIsOver.into()),
    }
}

fn pile_draw(card: Card) -> Change {
    Change::Drew {
        from: Source::Discard,
        card,
        reshuffled: None,
    }
}

/// The stock's top card, after the reshuffle that the rules make first when the stock is down to
/// its reserve.
#[inline(always)]
fn stock_draw(ctx: &TableCtx, table: &Table) -> Result<(Card, Option<Box<Reshuffled>>), StepError> {
    let rules = ctx.rules;
    let exhausted = IllegalAction::StockExhausted(usize::from(rules.stock_reserve));
    if !play_rules::may_draw_stock(rules, table) {
        return Err(exhausted.into());
    }
    if !play_rules::reshuffles_before_draw(rules, table) {
        return Ok((table.stock.top().ok_or(exhausted)?, None));
    }
    let reshuffled = deal::reshuffled(ctx.seed, ctx.deal, ctx.table, table)?;
    let card = reshuffled.stock.top().ok_or(exhausted)?;
    Ok((card, Some(Box::new(reshuffled))))
}

/// Does to `table` what `check` decided, and says so in `events`.
#[inline(always)]
fn commit(
    ctx: &TableCtx,
    table: &mut Table,
    seat: Seat,
    checked: Checked,
    events: &mut Vec<Event>,
) {
    let (t, r) = (ctx.table, checked.role);
    match checked.change {
        Change::TookUpcard(card) => {
            table.discard.pop();
            let held = table.hands[r].put(card);
            table.taken[r].put(held);
            table.turns = table.turns.saturating_add(1);
            events.push(Event::TookUpcard {
                table: t,
                seat,
                card,
            });
        }
        Change::Passed => events.push(Event::Passed { table: t, seat }),
        Change::Drew {
            from,
            card,
            reshuffled,
        } => {
            if let Some(new) = reshuffled {
                table.stock = new.stock;
                table.discard = new.discard;
                table.reshuffles = new.count;
                events.push(Event::Reshuffled {
                    table: t,
                    cards: new.cards,
                });
            }
            let held = table.hands[r].put(card);
            match from {
                Source::Stock => table.stock.pop(),
                Source::Discard => {
                    table.taken[r].put(held);
                    table.discard.pop()
                }
            };
            table.turns = table.turns.saturating_add(1);
            events.push(Event::Drew {
                table: t,
                seat,
                from,
                card: Some(card),
            });
        }
        Change::Discarded(card) => {
            discard(table, r, card);
            events.push(Event::Discarded {
                table: t,
                seat,
                card,
            });
        }
        Change::WentOut { discard: d, shown } => {
            if let Some(card) = d {
                discard(table, r, card);
            }
            events.push(*shown);
        }
        Change::LaidOff(laid) => events.push(*laid),
    }
    if let Phase::Over { result } = &checked.next {
        events.push(Event::HandOver(Box::new(HandResult::clone(result))));
    }
    table.phase = checked.next;
}

fn discard(table: &mut Table, r: Role, card: Card) {
    table.hands[r].remove(card);
    if card.is_joker() {
        // The jokers are alike: what is known is how many of those held were taken from the
        // pile, and both sets name their jokers from the first.
        let hand = table.hands[r].jokers_first();
        let held = hand.intersect(CardSet::JOKERS).len() as usize;
        let taken = table.taken[r];
        let known = taken.intersect(CardSet::JOKERS).iter().take(held).collect();
        table.hands[r] = hand;
        table.taken[r] = taken.minus(CardSet::JOKERS).union(known).jokers_first();
    } else {
        table.taken[r].remove(card);
    }
    table.discard.push(card);
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

/// Going out with `arrangement` (after discarding `discard`, if any): the defender lays off
/// next, or the hand is over.
fn go_out(
    ctx: &TableCtx,
    table: &Table,
    r: Role,
    discard: Option<Card>,
    arrangement: Arrangement,
    outcome: Outcome,
) -> Result<Checked, StepError> {
    let rules = ctx.rules;
    let seat = table.seats[r];
    let melds = meld_lists(&rules.melds, &arrangement.melds);
    let wilds = melds::stand_ins(&rules.melds, &arrangement.melds);
    let shown = match (outcome, discard) {
        (Outcome::Knock, Some(discard)) => Event::Knocked {
            table: ctx.table,
            seat,
            discard,
            melds,
            wilds,
            deadwood: arrangement.deadwood,
        },
        _ => Event::WentGin {
            table: ctx.table,
            seat,
            discard,
            melds,
            wilds,
            big_gin: outcome == Outcome::BigGin,
        },
    };
    let knock = Knock {
        knocker: seat,
        melds: arrangement.melds,
        deadwood: arrangement.deadwood,
        outcome,
        laid_off: Vec::new(),
    };
    let next = if play_rules::lays_off(rules, outcome) {
        Phase::LayOff {
            seat: table.seat_after(r),
            knock: Box::new(knock),
        }
    } else {
        let defenders = table
            .seats
            .after(r)
            .map(|d| score::Defender {
                role: d,
                own: melds::best_arrangement(&rules.melds, table.hands[d]),
                cards: table.hands[d],
                laid_off: Vec::new(),
            })
            .collect();
        let result = score::hand_result(
            &ctx.ending(),
            table,
            score::WentOut {
                knocker: r,
                knock: &knock,
                knocker_cards: discard.map_or(table.hands[r], |d| table.hands[r].without(d)),
                defenders,
            },
        )?;
        over(result)
    };
    let change = Change::WentOut {
        discard,
        shown: Box::new(shown),
    };
    Checked::new(r, change, next)
}

/// The defenders who laid off before the one laying off now, as scoring reads them: what they
/// kept, arranged with least deadwood.
fn defenders_before(rules: &Ruleset, table: &Table, knock: &Knock) -> Vec<score::Defender> {
    knock
        .laid_off
        .iter()
        .filter_map(|l| {
            let role = table.role(l.seat)?;
            let cards = table.hands[role];
            let laid: CardSet = l.cards.iter().map(|c| c.card).collect();
            Some(score::Defender {
                role,
                own: melds::best_arrangement(&rules.melds, cards.minus(laid)),
                cards,
                laid_off: l.cards.clone(),
            })
        })
        .collect()
}

/// The action with the joker it discards named as one `hand` holds (`"JK"` names either
/// joker; with both in hand, the one not `taken` this turn); `None` when nothing changes.
/// Melds and lay-offs resolve their jokers as they are checked.
fn resolve_jokers(kind: &ActionKind, hand: CardSet, taken: Option<Card>) -> Option<ActionKind> {
    let pool = match taken {
        Some(t) if t.is_joker() && hand.intersect(CardSet::JOKERS).len() == 2 => hand.without(t),
        _ => hand,
    };
    let named = |c: Card| Some(pool.resolve(c)).filter(|&h| h.bit() != c.bit());
    match kind {
        ActionKind::Discard { card } => Some(ActionKind::Discard {
            card: named(*card)?,
        }),
        ActionKind::Knock { discard, melds } => Some(ActionKind::Knock {
            discard: named(*discard)?,
            melds: melds.clone(),
        }),
        ActionKind::Gin {
            discard: Some(d),
            melds,
        } => Some(ActionKind::Gin {
            discard: Some(named(*d)?),
            melds: melds.clone(),
        }),
        _ => None,
    }
}

/// The new step against this one, on random actions tried at every state of random play.
#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::cards::Card;
    use crate::engine::hooks::{Hooks, NoHooks};
    use crate::engine::{
        Action, ActionKind, Event, Game, LayOffCard, Logging, NewGame, Source, State,
    };
    use crate::rules::Catalog;
    use crate::ruleset::{Ruleset, RulesetRef, StockEnd, Target};
    use crate::seat::Seat;

    /// Actions tried by `cargo test` (about two seconds); `STEP_BEFORE_ACTIONS=3000000 cargo test
    /// --lib step_before` tries millions.
    const ACTIONS: u64 = 100_000;

    /// Actions tried in one game at most, so that long matches leave room for many deals.
    const GAME_ACTIONS: u64 = 1500;

    type Form = (Arc<Ruleset>, Arc<dyn Hooks>, RulesetRef, Target);

    /// Plain variants with no hooks, and built-in forms whose hooks are scripts, each played to
    /// its shortest match so that hands follow one another.
    fn forms() -> Vec<Form> {
        let plain: Arc<dyn Hooks> = Arc::new(NoHooks);
        let s = Ruleset::standard;
        let mut out: Vec<Form> = [
            s(),
            Ruleset {
                knock_limit: None,
                ..s()
            },
            Ruleset {
                stock_end: StockEnd::LastDiscardToGoOut,
                ..s()
            },
            Ruleset {
                stock_end: StockEnd::Reshuffle,
                stock_reserve: 0,
                discard_taken_card: true,
                ..s()
            },
            Ruleset {
                upcard_offer: false,
                big_gin_bonus: None,
                lay_off_after_gin: true,
                ..s()
            },
            Ruleset {
                seats: 3,
                table_players: 3,
                stock_end: StockEnd::LastDiscardToGoOut,
                lay_off_after_gin: true,
                ..s()
            },
        ]
        .into_iter()
        .map(|r| {
            let target = Target::SingleHand;
            (
                Arc::new(r),
                plain.clone(),
                RulesetRef::named("test"),
                target,
            )
        })
        .collect();
        let catalog = Catalog::builtin();
        for (id, options) in [
            ("standard", &["oklahoma"][..]),
            ("standard", &["hollywood"]),
            ("standard", &["jokers-wild"]),
            ("straight-gin", &[]),
            ("four-player", &[]),
            ("three-player", &[]),
            ("oklahoma-four", &[]),
        ] {
            let reference = RulesetRef::new(id, options.iter().copied());
            let variant = catalog
                .resolve(&reference)
                .unwrap_or_else(|e| panic!("{id} {options:?}: {e}"));
            let target = variant
                .ruleset
                .match_rules
                .targets
                .iter()
                .copied()
                .filter(|&t| variant.check_target(t).is_ok())
                .min_by_key(|t| match t {
                    Target::Points(p) => *p,
                    Target::SingleHand => u32::MAX,
                })
                .unwrap_or(Target::SingleHand);
            out.push((
                variant.ruleset.clone(),
                variant.hooks.clone(),
                variant.reference.clone(),
                target,
            ));
        }
        out
    }

    /// A well-formed action, most often from a seat that may act, seldom a legal one.
    fn random_action(rng: &mut ChaCha8Rng, state: &State) -> Action {
        let seat = match state.to_act().first() {
            Some(&s) if rng.random_bool(0.8) => s,
            _ => Seat::new(rng.random_range(0..=state.seats() as u8)),
        };
        let hand: Vec<Card> = state
            .tables
            .iter()
            .flat_map(|t| t.role(seat).map(|r| t.hands[r]))
            .flatten()
            .collect();
        let card = |rng: &mut ChaCha8Rng| match hand.len() {
            n if n > 0 && rng.random_bool(0.8) => hand[rng.random_range(0..n)],
            _ => Card::deck_with(2)
                .nth(rng.random_range(0..54))
                .unwrap_or(Card::JOKERS[0]),
        };
        let melds = |rng: &mut ChaCha8Rng| {
            rng.random_bool(0.3).then(|| {
                hand.chunks(3)
                    .take(rng.random_range(0..4))
                    .map(<[Card]>::to_vec)
                    .collect()
            })
        };
        let kind = match rng.random_range(0..9) {
            0 => ActionKind::TakeUpcard,
            1 => ActionKind::Pass,
            2 => ActionKind::NextHand,
            3 => ActionKind::Draw {
                from: Source::Stock,
            },
            4 => ActionKind::Draw {
                from: Source::Discard,
            },
            5 => ActionKind::Discard { card: card(rng) },
            6 => ActionKind::Knock {
                discard: card(rng),
                melds: melds(rng),
            },
            7 => ActionKind::Gin {
                discard: rng.random_bool(0.8).then(|| card(rng)),
                melds: melds(rng),
            },
            _ => ActionKind::LayOff {
                cards: (0..rng.random_range(0..3))
                    .map(|_| LayOffCard {
                        card: card(rng),
                        onto: rng.random_bool(0.5).then(|| rng.random_range(0..4)),
                    })
                    .collect(),
            },
        };
        Action::new(seat, kind)
    }

    /// The new step (logged, without a log, and without a log or events) does to `game` and
    /// `bare` what the old one does to a copy of `game`'s state.
    fn same_as_before(form: &Form, game: &Game, bare: &Game, a: &Action) {
        let (rules, hooks, ..) = form;
        let mut old = game.state().clone();
        let mut old_events: Vec<Event> = Vec::new();
        let old_result = super::apply(rules, hooks.as_ref(), &mut old, a, &mut old_events);
        let mut new = game.clone();
        let mut new_events = Vec::new();
        let new_result = new.apply(a, &mut new_events);
        assert_eq!(new_result, old_result, "{a:?}");
        assert_eq!(new_events, old_events, "{a:?}");
        assert_eq!(new.state(), &old, "{a:?}");
        let mut unlogged = bare.clone();
        let mut bare_events = Vec::new();
        assert_eq!(unlogged.apply(a, &mut bare_events), old_result, "{a:?}");
        assert_eq!(bare_events, old_events, "{a:?}");
        let mut quiet = bare.clone();
        assert_eq!(quiet.apply_quiet(a), old_result, "{a:?}");
        assert_eq!(quiet.state(), unlogged.state(), "{a:?}");
        assert_eq!(unlogged.state(), &State { log: None, ..old }, "{a:?}");
    }

    /// Plays game `g` (random legal play with a bias to go out, logged and without a log side by
    /// side) until it ends or `budget` runs out, trying random actions at every step; the
    /// actions tried.
    fn play(g: u64, forms: &[Form], budget: u64) -> u64 {
        let form = &forms[(g % forms.len() as u64) as usize];
        let (rules, hooks, reference, target) = form;
        let mut rng = ChaCha8Rng::seed_from_u64(g);
        let mut deal = NewGame::seeded(reference.clone(), g);
        deal.target = Some(*target);
        let dealt = |logging| Game::deal_with(rules, hooks.as_ref(), deal.clone(), logging);
        let (Ok(logged), Ok(bare)) = (dealt(Logging::Kept), dealt(Logging::Off)) else {
            panic!("game {g} is not dealt");
        };
        assert_eq!(logged.events, bare.events);
        let (mut game, mut bare) = (logged.game, bare.game);
        let mut tried = 0;
        while tried < budget.min(GAME_ACTIONS) {
            let legal = game.legal_actions();
            if legal.is_empty() {
                break;
            }
            for _ in 0..4 {
                same_as_before(form, &game, &bare, &random_action(&mut rng, &game));
            }
            let going_out = legal
                .iter()
                .filter(|a| matches!(a.kind, ActionKind::Knock { .. } | ActionKind::Gin { .. }))
                .count();
            let a = match going_out {
                n if n > 0 && rng.random_bool(0.5) => legal
                    .iter()
                    .filter(|a| matches!(a.kind, ActionKind::Knock { .. } | ActionKind::Gin { .. }))
                    .nth(rng.random_range(0..n)),
                _ => legal.get(rng.random_range(0..legal.len())),
            }
            .cloned()
            .unwrap_or_else(|| legal[0].clone());
            same_as_before(form, &game, &bare, &a);
            tried += 5;
            let mut events = Vec::new();
            if let Err(e) = game.apply(&a, &mut events) {
                panic!("listed action {a:?} refused: {e}");
            }
            events.clear();
            if let Err(e) = bare.apply(&a, &mut events) {
                panic!("listed action {a:?} refused without a log: {e}");
            }
        }
        tried
    }

    #[test]
    fn step_does_what_it_did() {
        let actions = std::env::var("STEP_BEFORE_ACTIONS")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(ACTIONS);
        let forms = forms();
        let (mut tried, mut g) = (0, 0);
        while tried < actions {
            tried += play(g, &forms, actions - tried);
            g += 1;
        }
        eprintln!("{tried} actions in {g} games: the same as before");
    }
}
