// A one-hand Straight Gin game and a Standard match to 100, every seat, through openapi-fetch's
// client typed by src/schema.d.ts (generated from openapi/openapi.json by openapi-typescript).
// Usage: node dist/play.js [BASE_URL]   (env GIN_RULES_URL, else http://localhost:8080)
// Exits non-zero on any error answer.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type Action = Schemas["Action"];
type Snapshot = Schemas["Snapshot"];
type Of<K extends Action["type"]> = Extract<Action, { type: K }>;

const MAX_STEPS = 5000; // a Standard match to 100 takes a few hundred

class Refused extends Error {}

const base = process.argv[2] ?? process.env["GIN_RULES_URL"] ?? "http://localhost:8080";
const client = createClient<paths>({ baseUrl: base });

// What openapi-fetch answers: the body of a success, or the problem of an error answer.
type Answer<T> =
  | { data: T; error?: never; response: Response }
  | { data?: never; error: Schemas["Problem"]; response: Response };

// The answer's body when the server accepted the request; a Refused naming the problem otherwise.
function accepted<T>(what: string, answer: Answer<T>): T {
  if (answer.error === undefined) {
    return answer.data;
  }
  const { type, detail } = answer.error;
  throw new Refused(`${what}: ${answer.response.status} ${type}: ${detail}`);
}

function only<K extends Action["type"]>(acts: Action[], kind: K): Of<K>[] {
  return acts.filter((a): a is Of<K> => a.type === kind);
}

const list = (xs: readonly unknown[]): string => `[${xs.join(", ")}]`;

// gin > knock > next hand > the biggest lay-off > the best discard > draw from the stock > pass.
async function choose(snap: Snapshot, ruleset: string): Promise<Action> {
  const acts = snap.legal_actions;
  const first = only(acts, "gin")[0] ?? only(acts, "knock")[0] ?? only(acts, "next_hand")[0];
  if (first !== undefined) {
    return first;
  }
  const layOffs = only(acts, "lay_off");
  if (layOffs.length > 0) {
    return layOffs.reduce((best, a) => (a.cards.length > best.cards.length ? a : best));
  }
  const discards = only(acts, "discard");
  const discard = discards[0];
  if (discard !== undefined) {
    // the discard that leaves the least deadwood, as /v1/hands/analyze says
    const hand = snap.views.find((v) => v.seat === discard.seat)?.hand;
    if (hand === undefined) {
      throw new Refused(`no view of seat ${discard.seat}`);
    }
    const analysis = accepted(
      "analyze",
      await client.POST("/v1/hands/analyze", { body: { cards: hand, ruleset } }),
    );
    return discards.find((a) => analysis.best_discards.includes(a.card)) ?? discard;
  }
  const next = only(acts, "draw").find((a) => a.from === "stock") ?? only(acts, "pass")[0] ?? acts[0];
  if (next === undefined) {
    throw new Refused(`no legal action while the match is ${snap.status}`);
  }
  return next;
}

async function play(ruleset: string, target: Schemas["Target"], seed: number): Promise<Snapshot> {
  console.log(`${ruleset} to ${target}, seed ${seed}`);
  let snap = accepted("create", await client.POST("/v1/games", { body: { ruleset, target, seed } }));
  for (let steps = 1; snap.status !== "match_over"; steps++) {
    if (steps > MAX_STEPS) {
      throw new Refused(`${ruleset}: no end after ${MAX_STEPS} actions`);
    }
    const action = await choose(snap, ruleset);
    snap = accepted("step", await client.POST("/v1/games/step", { body: { state: snap.state, action } }));
    for (const event of snap.events) {
      if (event.type === "hand_over") {
        const winner = event.winner ?? "nobody";
        console.log(`  hand_over ${event.outcome}: winner ${winner}, points ${list(event.points)}`);
      } else if (event.type === "match_over") {
        console.log(`  match_over: winners ${list(event.winners)}, totals ${list(event.totals)}`);
      }
    }
  }
  console.log(`  ${snap.game.move} actions, final totals ${list(snap.scores.totals)}`);
  return snap;
}

try {
  await play("straight-gin", "single_hand", 14); // seed 14: this policy goes gin
  await play("standard", 100, 42);
} catch (error) {
  console.error(error instanceof Refused ? `refused: ${error.message}` : error);
  process.exit(1);
}
