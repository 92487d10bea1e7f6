"""A one-hand Straight Gin game and a Standard match to 100, every seat, through the client that
openapi-python-client generates from openapi/openapi.json (into gin_rules_client/, beside this file).
Usage: python3 play.py [BASE_URL]   (env GIN_RULES_URL, else http://localhost:8080)
Exits non-zero on any error answer."""

from __future__ import annotations

import os
import sys
from typing import TypeVar

from gin_rules_client import AuthenticatedClient
from gin_rules_client.api.games import create, step
from gin_rules_client.api.hands import analyze
from gin_rules_client.models import (
    AnalyzeRequest,
    DiscardAction,
    DrawAction,
    GinAction,
    HandAnalysis,
    HandOverEvent,
    KnockAction,
    LayOffAction,
    MatchOverEvent,
    NewGameRequest,
    NextHandAction,
    PassAction,
    Problem,
    SingleHand,
    Snapshot,
    Source,
    Status,
    StepRequest,
    TakeUpcardAction,
)
from gin_rules_client.types import UNSET, Response

Action = (
    DiscardAction
    | DrawAction
    | GinAction
    | KnockAction
    | LayOffAction
    | NextHandAction
    | PassAction
    | TakeUpcardAction
)
T = TypeVar("T")
MAX_STEPS = 5000  # a Standard match to 100 takes a few hundred


class Refused(Exception):
    """The server answered with an error (application/problem+json), or with nothing we know."""


def answer(what: str, response: Response[Problem | T], want: type[T]) -> T:
    parsed = response.parsed
    if isinstance(parsed, want):
        return parsed
    if isinstance(parsed, Problem):
        raise Refused(f"{what}: {response.status_code.value} {parsed.type_}: {parsed.detail}")
    raise Refused(f"{what}: {response.status_code.value} {response.content[:300]!r}")


def choose(client: AuthenticatedClient, snap: Snapshot, ruleset: str) -> Action:
    """gin > knock > next hand > the biggest lay-off > the best discard > draw from the stock > pass."""
    acts = snap.legal_actions
    for kind in (GinAction, KnockAction, NextHandAction):
        for act in acts:
            if isinstance(act, kind):
                return act
    lay_offs = [a for a in acts if isinstance(a, LayOffAction)]
    if lay_offs:
        return max(lay_offs, key=lambda a: len(a.cards))
    discards = [a for a in acts if isinstance(a, DiscardAction)]
    if discards:  # the discard that leaves the least deadwood, as /v1/hands/analyze says
        seat = discards[0].seat
        hand = next(v.hand for v in snap.views if v.seat == seat)
        request = AnalyzeRequest(cards=hand, ruleset=ruleset)
        best = answer("analyze", analyze.sync_detailed(client=client, body=request), HandAnalysis)
        return next((a for a in discards if a.card in best.best_discards), discards[0])
    draws = [a for a in acts if isinstance(a, DrawAction) and a.from_ == Source.STOCK]
    passes = [a for a in acts if isinstance(a, PassAction)]
    if draws or passes:
        return (draws or passes)[0]
    if not acts:
        raise Refused(f"no legal action while the match is {snap.status.value}")
    return acts[0]


def play(client: AuthenticatedClient, ruleset: str, target: int | SingleHand, seed: int) -> Snapshot:
    print(f"{ruleset} to {target}, seed {seed}")
    request = NewGameRequest(ruleset=ruleset, target=target, seed=seed)
    snap = answer("create", create.sync_detailed(client=client, body=request), Snapshot)
    steps = 0
    while snap.status != Status.MATCH_OVER:
        steps += 1
        if steps > MAX_STEPS:
            raise Refused(f"{ruleset}: no end after {MAX_STEPS} actions")
        body = StepRequest(state=snap.state, action=choose(client, snap, ruleset))
        snap = answer("step", step.sync_detailed(client=client, body=body), Snapshot)
        for event in snap.events:
            if isinstance(event, HandOverEvent):
                winner = "nobody" if event.winner is None or event.winner is UNSET else event.winner
                print(f"  hand_over {event.outcome.value}: winner {winner}, points {event.points}")
            elif isinstance(event, MatchOverEvent):
                print(f"  match_over: winners {event.winners}, totals {event.totals}")
    print(f"  {snap.game.move} actions, final totals {snap.scores.totals}")
    return snap


def main() -> int:
    base = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GIN_RULES_URL", "http://localhost:8080")
    # openapi-python-client asks for an AuthenticatedClient wherever an operation lists a security
    # scheme, even the optional one of step and view; a server without seat keys ignores the header.
    with AuthenticatedClient(base_url=base, token="", prefix="", raise_on_unexpected_status=True) as client:
        try:
            play(client, "straight-gin", SingleHand.SINGLE_HAND, 14)  # seed 14: this policy goes gin
            play(client, "standard", 100, 42)
        except Refused as refused:
            print(f"refused: {refused}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
