//! `step`: one action applied to a state, as a pure function. An action is checked, and all
//! it does decided, before anything changes: a refused action leaves the state as it was with
//! nothing to restore.

use super::hooks::Hooks;
use crate::cards::{Card, CardSet};
use crate::melds::{self, Arrangement, meld_lists};
use crate::role::Role;
use crate::ruleset::Ruleset;
use crate::seat::{Seat, TableNo};

use super::action::{Action, ActionKind, Source, discard_named};
use super::deal::{self, Reshuffled};
use super::error::{IllegalAction, Overflow, StepError};
use super::event::{Event, Events, push_in_place};
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
///
/// Inlined into its caller for the plain turns that make most of a hand (see [`plain_turn`]):
/// such a step then returns an `Ok` the caller sees, with no call and no drop of its result.
/// Every other action goes the general way, out of line.
#[inline(always)]
pub(crate) fn apply(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &mut State,
    action: &Action,
    events: &mut impl Events,
) -> Result<(), StepError> {
    if let Some(t) = acting_table(state, action)
        && plain_turn(rules, &mut state.tables[t.index()], t, action, events)
    {
        state.game = state.game.next();
        log_plain(state, action);
        return Ok(());
    }
    apply_general(rules, hooks, state, action, events)
}

/// [`apply`] for any action that is not a plain turn, or that [`plain_turn`] leaves to the
/// general checks (which then refuse it or play it).
#[inline(never)]
fn apply_general(
    rules: &Ruleset,
    hooks: &dyn Hooks,
    state: &mut State,
    action: &Action,
    events: &mut impl Events,
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

/// Most of a hand's steps, done in place at table `t` and said in `events`: a draw that needs no
/// reshuffle, a discard that leaves the hand going. Checked as [`check`] checks them, but
/// without building what it decides, which costs most of such a step. False, with nothing
/// changed, for any other action and for any of these that [`check`] refuses: the general path
/// takes them.
#[inline(always)]
fn plain_turn(
    rules: &Ruleset,
    table: &mut Table,
    t: TableNo,
    action: &Action,
    events: &mut impl Events,
) -> bool {
    let seat = action.seat;
    let Some(r) = table.role(seat) else {
        return false;
    };
    match (&table.phase, &action.kind) {
        (Phase::Draw { stock_only, .. }, &ActionKind::Draw { from }) => {
            let top = match from {
                Source::Stock
                    if play_rules::may_draw_stock(rules, table)
                        && !play_rules::reshuffles_before_draw(rules, table) =>
                {
                    table.stock.top()
                }
                Source::Discard if !stock_only => table.discard.top(),
                _ => None,
            };
            let Some(card) = top else {
                return false;
            };
            draw(table, r, from, card);
            set_plain_phase(
                table,
                Phase::Discard {
                    seat,
                    taken: (from == Source::Discard).then_some(card),
                    must_go_out: false,
                },
            );
            events.push_with(|| Event::Drew {
                table: t,
                seat,
                from,
                card: Some(card),
            });
            true
        }
        (
            &Phase::Discard {
                taken,
                must_go_out: false,
                ..
            },
            &ActionKind::Discard { card },
        ) => {
            let card = discard_named(table.hands[r], taken, card);
            if check_discard(rules, table.hands[r], taken, card).is_err() {
                return false;
            }
            let Some(next) = going_on_after_discard(rules, table, table.seat_after(r)) else {
                return false;
            };
            discard(table, r, card);
            set_plain_phase(table, next);
            events.push_with(|| Event::Discarded {
                table: t,
                seat,
                card,
            });
            true
        }
        _ => false,
    }
}

/// Replaces the phase of a plain turn (a draw or a discard, which own nothing on the heap) with
/// `next`. Forgetting the old phase rather than dropping it skips a call to the drop of a phase,
/// which the compiler does not see is empty here; were it not, the phase would only leak.
#[inline(always)]
fn set_plain_phase(table: &mut Table, next: Phase) {
    debug_assert!(matches!(
        table.phase,
        Phase::Draw { .. } | Phase::Discard { .. }
    ));
    std::mem::forget(std::mem::replace(&mut table.phase, next));
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

/// [`log`] for an action that [`plain_turn`] played (a draw or a discard): the copy is built
/// from its fields, which needs no call to clone an action.
#[inline(always)]
fn log_plain(state: &mut State, action: &Action) {
    if let Some(log) = &mut state.log {
        let (seat, actions) = (action.seat, &mut log.actions);
        match action.kind {
            ActionKind::Draw { from } => push_in_place(actions, || Action {
                seat,
                kind: ActionKind::Draw { from },
            }),
            ActionKind::Discard { card } => push_in_place(actions, || Action {
                seat,
                kind: ActionKind::Discard { card },
            }),
            _ => actions.push(action.clone()),
        }
    }
}

/// The table where `action`'s seat is to act, for an action of a turn: what [`whose_turn`]
/// finds for it, by the shortest way. A seat that a table waits for is a seat of the match, and
/// its hand (so the deal and the match) is not over.
#[inline(always)]
fn acting_table(state: &State, action: &Action) -> Option<TableNo> {
    if let ActionKind::NextHand = action.kind {
        return None;
    }
    TableNo::all(state.tables.len())
        .zip(&state.tables)
        .find_map(|(n, t)| (t.to_act() == Some(action.seat)).then_some(n))
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
    events: &mut impl Events,
) -> Result<(), StepError> {
    let dealer = score::next_dealer(rules, hooks, state)?;
    let before = state.deal_number;
    state.deal_number = before
        .checked_add(1)
        .ok_or(Overflow("the number of deals"))?;
    match deal::deal_all(rules, hooks, state, dealer, &[]) {
        Ok(dealt) => {
            events.append(dealt);
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
    // The card a discard names: `"JK"` names a joker of the hand. Melds and lay-offs resolve
    // their jokers as they are checked.
    let named = |card| discard_named(table.hands[r], taken, card);
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
            let card = named(*card);
            check_discard(rules, table.hands[r], *taken, card)?;
            let next = match going_on_after_discard(rules, table, other) {
                Some(next) => next,
                None => over(score::dead_result(&ctx.ending(), table)?),
            };
            Checked::new(r, Change::Discarded(card), next)
        }
        (Phase::Discard { taken, .. }, ActionKind::Knock { discard, melds }) => {
            let limit = table.knock_limit.ok_or(IllegalAction::NoKnocking)?;
            let discard = named(*discard);
            check_discard(rules, table.hands[r], *taken, discard)?;
            let kept = table.hands[r].without(discard);
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
            go_out(ctx, table, r, Some(discard), arrangement, outcome)
        }
        (Phase::Discard { taken, .. }, ActionKind::Gin { discard, melds }) => match discard {
            Some(discard) => {
                let discard = named(*discard);
                check_discard(rules, table.hands[r], *taken, discard)?;
                let kept = table.hands[r].without(discard);
                let arrangement = arrange(rules, kept, melds.as_deref())?;
                if arrangement.deadwood > 0 {
                    return Err(IllegalAction::NotGin(arrangement.deadwood).into());
                }
                go_out(ctx, table, r, Some(discard), arrangement, Outcome::Gin)
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

/// The phase after a discard that does not go out, `other` playing next; `None` when the hand is
/// dead. The stock decides, and a discard leaves it as it is.
#[inline(always)]
fn going_on_after_discard(rules: &Ruleset, table: &Table, other: Seat) -> Option<Phase> {
    match play_rules::after_discard(rules, table) {
        AfterDiscard::Dead => None,
        AfterDiscard::LastDiscard => Some(Phase::LastDiscard {
            seat: other,
            passes: 0,
        }),
        AfterDiscard::Draw => Some(Phase::Draw {
            seat: other,
            stock_only: false,
        }),
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
    events: &mut impl Events,
) {
    let (t, r) = (ctx.table, checked.role);
    match checked.change {
        Change::TookUpcard(card) => {
            table.discard.pop();
            let held = table.hands[r].put(card);
            table.taken[r].put(held);
            table.turns = table.turns.saturating_add(1);
            events.push_with(|| Event::TookUpcard {
                table: t,
                seat,
                card,
            });
        }
        Change::Passed => events.push_with(|| Event::Passed { table: t, seat }),
        Change::Drew {
            from,
            card,
            reshuffled,
        } => {
            if let Some(new) = reshuffled {
                table.stock = new.stock;
                table.discard = new.discard;
                table.reshuffles = new.count;
                events.push_with(|| Event::Reshuffled {
                    table: t,
                    cards: new.cards,
                });
            }
            draw(table, r, from, card);
            events.push_with(|| Event::Drew {
                table: t,
                seat,
                from,
                card: Some(card),
            });
        }
        Change::Discarded(card) => {
            discard(table, r, card);
            events.push_with(|| Event::Discarded {
                table: t,
                seat,
                card,
            });
        }
        Change::WentOut { discard: d, shown } => {
            if let Some(card) = d {
                discard(table, r, card);
            }
            events.push_with(|| *shown);
        }
        Change::LaidOff(laid) => events.push_with(|| *laid),
    }
    if let Phase::Over { result } = &checked.next {
        events.push_with(|| Event::HandOver(result.clone()));
    }
    table.phase = checked.next;
}

/// `card` from the top of the stock or the discard pile into the hand of `r`.
#[inline(always)]
fn draw(table: &mut Table, r: Role, from: Source, card: Card) {
    let held = table.hands[r].put(card);
    match from {
        Source::Stock => table.stock.pop(),
        Source::Discard => {
            table.taken[r].put(held);
            table.discard.pop()
        }
    };
    table.turns = table.turns.saturating_add(1);
}

#[inline(always)]
fn discard(table: &mut Table, r: Role, card: Card) {
    table.hands[r].remove(card);
    if card.is_joker() {
        discard_joker(table, r);
    } else {
        table.taken[r].remove(card);
    }
    table.discard.push(card);
}

/// What [`discard`] does to the hand and the cards known taken when the card is a joker.
#[cold]
fn discard_joker(table: &mut Table, r: Role) {
    // The jokers are alike: what is known is how many of those held were taken from the pile,
    // and both sets name their jokers from the first.
    let hand = table.hands[r].jokers_first();
    let held = hand.intersect(CardSet::JOKERS).len() as usize;
    let taken = table.taken[r];
    let known = taken.intersect(CardSet::JOKERS).iter().take(held).collect();
    table.hands[r] = hand;
    table.taken[r] = taken.minus(CardSet::JOKERS).union(known).jokers_first();
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

#[inline]
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
