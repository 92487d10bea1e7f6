// The table in the browser: a client of the public HTTP API (v1/...) like any other frontend.
// No rule lives here: legality, melds, deadwood and scores all come from the server's answers.
"use strict";

const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };
const RANKS = "A23456789TJQK";
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
const OUTCOMES = { gin: "gin", big_gin: "big gin", knock: "a knock", undercut: "an undercut", wash: "a wash", dead: "a dead hand" };

const $ = (id) => document.getElementById(id);

// What the page holds: the rulesets offered, and the game as of the server's last answer.
const G = {
  rulesets: [],
  seat: 0,          // the seat this page plays
  seats: 2,         // how many seats the game has
  key: null,        // its seat key, on servers with --seat-keys
  keys: {},         // pass and play: every seat's key
  hotseat: false,   // pass and play: the page plays every seat, in turn
  shown: null,      // pass and play: the seat whose hand is on the screen (null: covered)
  legal: [],        // what this seat may do now
  bots: {},         // seat -> level, as dealt
  ruleset: null,    // {id, options}
  rawState: null,   // the state exactly as the server sent it (JSON text)
  snap: null,       // the last snapshot (parsed)
  view: null,       // this seat's view in it
  analysis: null,   // POST v1/hands/analyze of this seat's hand
  selected: [],     // selected cards of the hand
  drawn: null,      // the card this seat just drew
  tables: {},       // per table: dealer, seats, last move, last result (from events)
  busy: false,
};

// ---- talking to the server --------------------------------------------------------------------

class Refusal extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

async function call(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (G.key && path !== "v1/games") headers.Authorization = `Bearer ${G.key}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body });
  } catch (e) {
    throw new Refusal(0, { title: "The server does not answer", detail: String(e) });
  }
  const text = await res.text();
  if (!res.ok) {
    let problem;
    try { problem = JSON.parse(text); } catch { problem = { title: `HTTP ${res.status}`, detail: text }; }
    throw new Refusal(res.status, problem);
  }
  return text;
}

// The raw JSON text of a top-level field: a plain state holds 64-bit numbers (the seed) that
// JavaScript numbers would round, and the server wants the state back verbatim.
function rawField(text, name) {
  let i = 0;
  const ws = () => { while (/\s/.test(text[i])) i++; };
  const str = () => { const s = i; i++; while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1; i++; return text.slice(s, i); };
  const value = () => {
    ws();
    const s = i;
    if (text[i] === '"') { str(); return text.slice(s, i); }
    if (text[i] === "{" || text[i] === "[") {
      let depth = 0;
      do {
        const c = text[i];
        if (c === '"') { str(); continue; }
        if (c === "{" || c === "[") depth++;
        if (c === "}" || c === "]") depth--;
        i++;
      } while (depth > 0 && i < text.length);
      return text.slice(s, i);
    }
    while (i < text.length && !/[,}\]\s]/.test(text[i])) i++;
    return text.slice(s, i);
  };
  ws();
  if (text[i] !== "{") return null;
  i++;
  for (;;) {
    ws();
    if (text[i] !== '"') return null;
    const key = JSON.parse(str());
    ws();
    i++; // ':'
    const v = value();
    if (key === name) return v;
    ws();
    if (text[i] !== ",") return null;
    i++;
  }
}

// ---- cards ------------------------------------------------------------------------------------

// A card on the wire is rank then suit ("TD"), or "JK" for a joker; any other code is shown as
// it is rather than breaking the page.
const JOKER = "JK";
const isJoker = (c) => c === JOKER;
const known = (c) => typeof c === "string" && c.length === 2 && RANKS.includes(c[0]) && c[1] in SUITS;

function cardName(c) {
  if (isJoker(c)) return "joker";
  if (!known(c)) return `card ${c}`;
  return `${RANK_NAMES[c[0]] || c[0]} of ${SUITS[c[1]][1]}`;
}

function cardText(c) {
  if (isJoker(c)) return "Joker";
  if (!known(c)) return String(c);
  return `${c[0] === "T" ? "10" : c[0]}${SUITS[c[1]][0]}`;
}

// A card face drawn by the page: the rank and suit in the corner, the suit large in the middle; a
// joker shows a star and the word down its side.
function cardEl(c, tag = "span", small = true) {
  const el = document.createElement(tag);
  const red = known(c) && "DH".includes(c[1]);
  el.className = `card${small ? " small" : ""}${red ? " red" : ""}${isJoker(c) ? " joker" : ""}`;
  el.dataset.card = c;
  if (tag === "span") el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(c));
  el.title = cardName(c);
  const [corner, suit, middle] = isJoker(c) ? ["J", "★", "★"]
    : known(c) ? [c[0] === "T" ? "10" : c[0], SUITS[c[1]][0], SUITS[c[1]][0]]
    : [String(c), "", "?"];
  const r = document.createElement("span");
  r.className = "r";
  r.textContent = corner;
  const s = document.createElement("span");
  s.className = "s";
  s.textContent = suit;
  el.append(r, s);
  if (!small) {
    const pip = document.createElement("span");
    pip.className = "pip";
    pip.setAttribute("aria-hidden", "true");
    pip.textContent = middle;
    el.append(pip);
    if (isJoker(c)) {
      const word = document.createElement("span");
      word.className = "word";
      word.setAttribute("aria-hidden", "true");
      word.textContent = "JOKER";
      el.append(word);
    }
  }
  return el;
}

// n card backs in a row, for cards the page may not see.
function backsEl(n, label) {
  const span = document.createElement("span");
  span.className = "backs";
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", label);
  span.dataset.count = n;
  for (let i = 0; i < n; i++) {
    const b = document.createElement("span");
    b.className = "back small";
    span.append(b);
  }
  return span;
}

function cardsLine(cards) {
  const span = document.createElement("span");
  for (const c of cards) span.append(cardEl(c));
  return span;
}

// Aces first, kings last, then by suit; jokers (and codes the page does not know) after them all.
const rankOf = (c) => (known(c) ? RANKS.indexOf(c[0]) : RANKS.length);
const byRank = (a, b) => rankOf(a) - rankOf(b) || "CDHS".indexOf(a[1]) - "CDHS".indexOf(b[1]) || (a < b ? -1 : a > b ? 1 : 0);

// ---- words ------------------------------------------------------------------------------------

function who(seat, capital = true) {
  if (G.hotseat) return `${capital ? "Seat" : "seat"} ${seat}`;
  if (seat === G.seat) return capital ? "You" : "you";
  const level = G.bots[seat];
  return `${capital ? "Seat" : "seat"} ${seat}${level ? ` (${level} bot)` : ""}`;
}

function sideName(scores, i) {
  if (scores.teams) {
    const seats = scores.teams[i];
    return seats.includes(G.seat)
      ? `Your team (${seats.map((s) => (s === G.seat ? "you" : `seat ${s}`)).join(" & ")})`
      : `Team of seats ${seats.join(" & ")}`;
  }
  return i === G.seat && !G.hotseat ? "You" : `Seat ${i}`;
}

function limitText(limit) {
  return limit === null || limit === undefined ? "gin only (no knocking)" : `knock with ${limit} or less`;
}

function meldsText(melds) {
  return melds.length ? melds.map((m) => m.map(cardText).join(" ")).join(" · ") : "none";
}

function eventText(e, multiTable) {
  const at = multiTable && e.table !== undefined ? ` (table ${e.table + 1})` : "";
  const s = e.seat;
  switch (e.type) {
    case "dealt":
      return `${who(e.dealer)} dealt${at}. Upcard ${cardText(e.upcard)}; ${limitText(e.knock_limit)}` +
        `${e.multiplier > 1 ? `; every score ×${e.multiplier}` : ""}.`;
    case "took_upcard": return `${who(s)} took the upcard ${cardText(e.card)}${at}.`;
    case "passed": return `${who(s)} passed${at}.`;
    case "drew":
      if (e.from === "discard") return `${who(s)} took ${cardText(e.card)} from the discard pile${at}.`;
      return `${who(s)} drew ${e.card ? cardText(e.card) + " " : "a card "}from the stock${at}.`;
    case "discarded": return `${who(s)} discarded ${cardText(e.card)}${at}.`;
    case "reshuffled": return `The discard pile was shuffled into a new stock of ${e.cards} cards${at}.`;
    case "knocked":
      return `${who(s)} knocked${at}, discarding ${cardText(e.discard)}, with ${e.deadwood} deadwood. Melds: ${meldsText(e.melds)}.`;
    case "went_gin":
      return `${who(s)} went ${e.big_gin ? "big gin" : "gin"}${at}${e.discard ? `, discarding ${cardText(e.discard)}` : ""}. Melds: ${meldsText(e.melds)}.`;
    case "laid_off":
      return e.cards.length
        ? `${who(s)} laid off ${e.cards.map((l) => cardText(l.card)).join(" ")}${at}; deadwood left ${e.deadwood}.`
        : `${who(s)} laid off nothing${at}; deadwood ${e.deadwood}.`;
    case "hand_over": {
      if (e.outcome === "dead") return `The hand is dead${at}: nobody scores.`;
      const pairs = pairsOf(e);
      if (pairs[0].seat === undefined) return `Hand over${at}: ${pairText(pairs[0])}`;
      return `Hand over${at}. ${pairs.map((a) => `Against ${who(a.seat, false)}: ${pairText(a)}`).join(" ")}`;
    }
    case "scored": {
      const sc = G.snap ? G.snap.scores : { totals: [] };
      return `Scored: ${e.entries.map((x) => `${sideName(sc, x.side)} +${x.points}${sc.columns ? ` in game ${x.game + 1}` : ""}`).join(", ")}.`;
    }
    case "match_over": {
      const sc = G.snap ? G.snap.scores : { totals: e.totals };
      if (!e.winners.length) return "The match is over: drawn.";
      const names = sc.teams
        ? [...new Set(e.winners.map((w) => sc.teams.findIndex((t) => t.includes(w))))].map((i) => sideName(sc, i))
        : e.winners.map((w) => who(w));
      return `Match over: ${names.join(" and ")} ${names.length === 1 && names[0] === "You" ? "win" : "won"}. Final totals ${e.totals.join(" – ")}.`;
    }
    default:
      return `${e.type.replace(/_/g, " ")}${s !== undefined ? ` (${who(s, false)})` : ""}.`;
  }
}

function turnText() {
  if (covered()) return [`Seat ${G.seat} to play: pass the screen.`, false];
  const [text, yours] = turnWords();
  return [G.hotseat && yours ? text.replace(/^Your turn/, `Seat ${G.seat}'s turn`) : text, yours];
}

function turnWords() {
  const { snap, view } = G;
  if (snap.status === "match_over") return ["The match is over.", false];
  const mine = myLegal();
  const has = (t) => mine.some((a) => a.type === t);
  const either = (...words) => words.filter(Boolean).join(" or ").replace(/ or (?=.* or )/g, ", ");
  if (view.phase === "upcard_offer" && (has("take_upcard") || has("pass"))) {
    return [`Your turn: ${either(has("take_upcard") && "take the upcard", has("pass") && "pass")}.`, true];
  }
  const stock = mine.some((a) => a.type === "draw" && a.from === "stock");
  const pile = mine.some((a) => a.type === "draw" && a.from === "discard");
  if (stock || pile) {
    return [`Your turn: ${either(stock && "draw from the stock", pile && "take the discard", has("pass") && "pass")}.`, true];
  }
  if (view.phase === "last_discard" && has("pass")) return ["Your turn: take the last discard to go out, or pass.", true];
  if (has("discard") || has("knock") || has("gin")) {
    const outs = [has("knock") && "knock", has("gin") && "go gin"].filter(Boolean);
    return [`Your turn: choose a card to ${has("discard") ? "discard" : ""}${outs.length ? `${has("discard") ? ", or " : ""}${outs.join(" or ")}` : ""}.`, true];
  }
  if (has("lay_off")) {
    const some = mine.some((a) => a.type === "lay_off" && a.cards.length);
    return [some ? "Your turn: lay off cards onto the knocker's melds, or lay off nothing." : "Your turn: none of your cards fits the knocker's melds; lay off nothing.", true];
  }
  if (has("next_hand")) return ["The hand is over: deal the next hand.", true];
  const waiting = snap.to_act.filter((s) => s !== G.seat);
  if (view.sitting_out) return [`You sit out this hand${waiting.length ? `; waiting for ${waiting.map((s) => who(s, false)).join(", ")}` : ""}.`, false];
  return [`Waiting for ${waiting.map((s) => who(s, false)).join(" and ") || "the other players"}.`, false];
}

// ---- the game ---------------------------------------------------------------------------------

// What the seat on the screen may do: nothing while the screen is covered for the next player.
function myLegal() {
  return G.snap && covered() ? [] : G.legal;
}

function showProblem(err) {
  const box = $("problem");
  box.replaceChildren();
  const p = err.problem || { title: "Error", detail: String(err) };
  const strong = document.createElement("strong");
  strong.textContent = p.title || "Refused";
  box.append(strong, document.createTextNode(": " + (p.detail || "")));
  const code = p.reason || p.type;
  if (code) {
    const c = document.createElement("code");
    c.id = "problem-reason";
    c.textContent = code;
    box.append(document.createTextNode(" "), c);
  }
  if (p.type === "stale-state") {
    box.append(document.createTextNode(" This game was played on in another tab or window: reload the page to carry on from its latest move."));
  }
  box.dataset.reason = p.reason || "";
  box.dataset.type = p.type || "";
  box.hidden = false;
}

function clearProblem() {
  $("problem").hidden = true;
  $("problem").replaceChildren();
}

async function guarded(work) {
  if (G.busy) return;
  G.busy = true;
  document.body.dataset.busy = "1";
  try {
    clearProblem();
    await work();
  } catch (e) {
    showProblem(e);
  } finally {
    G.busy = false;
    document.body.dataset.busy = "";
  }
}

async function loadRulesets() {
  const list = JSON.parse(await call("GET", "v1/rulesets"));
  G.rulesets = list;
  const sel = $("ruleset");
  sel.replaceChildren();
  for (const r of list) {
    const o = document.createElement("option");
    o.value = r.id;
    o.textContent = `${r.name} (${r.seats} players)`;
    sel.append(o);
  }
  fillRuleset();
}

function fillRuleset() {
  const r = G.rulesets.find((x) => x.id === $("ruleset").value);
  if (!r) return;
  $("summary").textContent = r.summary;
  const box = $("options");
  box.replaceChildren();
  const legend = document.createElement("legend");
  legend.textContent = r.options.length ? "Options" : "No options";
  box.append(legend);
  for (const o of r.options) {
    const label = document.createElement("label");
    const cb = document.createElement("input");
    cb.type = "checkbox";
    cb.name = "option";
    cb.value = o.id;
    const small = document.createElement("small");
    small.textContent = ` ${o.summary}`;
    label.append(cb, ` ${o.name}`, small);
    box.append(label);
  }
  const t = $("target");
  t.replaceChildren();
  for (const target of r.targets || [r.default_target]) {
    if (target === undefined || target === null) continue;
    const o = document.createElement("option");
    o.value = JSON.stringify(target);
    o.textContent = target === "single_hand" ? "one hand" : `${target} points`;
    o.selected = target === r.default_target;
    t.append(o);
  }
}

async function deal() {
  const r = G.rulesets.find((x) => x.id === $("ruleset").value);
  if (!r) return;
  if (G.snap && G.snap.status !== "match_over" &&
      !window.confirm("Deal a new game? The game you are playing stays under \u201cUnfinished games\u201d, to resume later.")) return;
  const options = [...document.querySelectorAll("#options input:checked")].map((i) => i.value);
  const level = $("level").value;
  const bots = {};
  G.hotseat = level === "people";
  G.shown = null;
  G.seat = 0;
  if (!G.hotseat) for (let s = 0; s < r.seats; s++) if (s !== G.seat) bots[String(s)] = level;
  const req = { ruleset: r.id, options, as_seat: G.seat };
  if (!G.hotseat) req.bots = bots;
  if ($("target").value) req.target = JSON.parse($("target").value);
  G.key = null;
  const text = await call("POST", "v1/games", JSON.stringify(req));
  const snap = JSON.parse(text);
  G.keys = Object.fromEntries((snap.seats || []).map((s) => [s.seat, s.key]));
  G.key = G.keys[G.seat] || null;
  G.bots = Object.fromEntries(Object.entries(bots).map(([k, v]) => [Number(k), v]));
  G.ruleset = { id: r.id, name: r.name, options };
  G.seats = r.seats;
  G.level = G.hotseat ? "basic" : level;
  G.tables = {};
  G.id = snap.game.id;
  $("more").open = false;
  await accept(text, snap);
}

async function act(action) {
  if (!G.rawState) return;
  const body = `{"state":${G.rawState},"action":${JSON.stringify({ seat: G.seat, ...action })}}`;
  const text = await call("POST", "v1/games/step", body);
  await accept(text, JSON.parse(text));
}

async function accept(text, snap) {
  G.rawState = rawField(text, "state");
  G.snap = snap;
  G.view = null;
  if (G.hotseat) await passTheScreen(snap);
  const seen = snap.views.find((v) => v.seat === G.seat);
  G.view = seen || G.view;
  G.legal = seen || !G.view ? snap.legal_actions.filter((a) => a.seat === G.seat) : G.view.legal_actions;
  G.selected = [];
  G.drawn = null;
  for (const e of snap.events) {
    if (e.type === "drew" && e.seat === G.seat && e.card) G.drawn = e.card;
    if (e.type === "took_upcard" && e.seat === G.seat) G.drawn = e.card;
    if (e.type === "drew" && e.seat === G.seat && e.from === "discard") G.drawn = e.card;
    const t = e.table ?? (e.type === "match_over" || e.type === "scored" ? null : 0);
    if (t === null) continue;
    const table = (G.tables[t] ||= { last: null, result: null });
    if (e.type === "dealt") Object.assign(table, { dealer: e.dealer, seats: e.seats, upcard: e.upcard, limit: e.knock_limit, result: null, knocker: undefined });
    if (e.type === "hand_over") table.result = e;
    if (e.type === "knocked" || e.type === "went_gin") table.knocker = e.seat;
    if (e.type === "dealt") table.top = e.upcard;
    if (e.type === "discarded") table.top = e.card;
    if ((e.type === "knocked" || e.type === "went_gin") && e.discard) table.top = e.discard;
    if (e.type === "took_upcard" || (e.type === "drew" && e.from === "discard")) table.top = null;
    table.last = e;
  }
  G.analysis = null;
  const hand = G.view ? G.view.hand : [];
  if (hand.length) { // the server reads the hand size of the ruleset's table
    try {
      G.analysis = JSON.parse(await call("POST", "v1/hands/analyze",
        JSON.stringify({ cards: hand, ruleset: G.ruleset.id, options: G.ruleset.options })));
    } catch (e) {
      G.analysis = null; // the hand is still shown, ungrouped
    }
  }
  if (G.view && G.view.phase === "discard" && G.analysis) {
    // The best discard that a legal action lets go (the card just taken may have to stay).
    const best = G.analysis.best_discards.find((c) => G.legal.some((a) => a.card === c || a.discard === c));
    if (best) G.selected = [best];
  }
  $("hint-text").hidden = true;
  save(text);
  render();
  animate(snap.events);
  announce([...snap.events.map((e) => eventText(e, Object.keys(G.tables).length > 1)), turnText()[0]].join(" "));
}

// ---- motion and announcements -----------------------------------------------------------------

// A short movement for what just happened (CSS keeps it still under prefers-reduced-motion).
function animate(events) {
  const did = new Set(events.map((e) => e.type));
  const replay = (el, on) => {
    if (!el) return;
    el.classList.remove("arrive");
    if (!on) return;
    void el.offsetWidth; // restarts the animation
    el.classList.add("arrive");
  };
  replay($("pile-top"), did.has("discarded") || did.has("knocked") || did.has("went_gin"));
  replay(document.querySelector("#hand button.new"), did.has("drew") || did.has("took_upcard"));
  replay($("knock"), did.has("knocked"));
  document.querySelectorAll("#result .laidoff").forEach((el) => replay(el, did.has("laid_off")));
}

// What happened, for screen readers: the ARIA live region reads it out.
function announce(text) {
  $("announce").textContent = text;
}

// ---- keeping games across reloads ---------------------------------------------------------------

// localStorage holds each game this browser plays: the server's last answer (the state in it),
// the seat keys and how it was dealt. Keys stay in storage and request headers, never in a URL.
const STORE = "gin-rules.play.games";
const CURRENT = "gin-rules.play.current";

function stored() {
  try {
    const games = JSON.parse(localStorage.getItem(STORE) || "{}");
    return games && typeof games === "object" ? games : {};
  } catch {
    return {};
  }
}

function save(text) {
  if (!G.id) return;
  const games = stored();
  games[G.id] = {
    text, keys: G.keys, seat: G.hotseat ? 0 : G.seat, hotseat: G.hotseat, bots: G.bots, ruleset: G.ruleset,
    seats: G.seats, level: G.level, tables: G.tables, over: G.snap.status === "match_over", saved: Date.now(),
  };
  try {
    localStorage.setItem(STORE, JSON.stringify(games));
    localStorage.setItem(CURRENT, G.id);
  } catch {
    // storage full or refused: the game goes on, it only will not survive a reload
  }
  listGames();
}

async function resume(id) {
  const g = stored()[id];
  if (!g) return;
  Object.assign(G, {
    id, keys: g.keys || {}, seat: g.seat, hotseat: g.hotseat, shown: null, bots: g.bots || {}, ruleset: g.ruleset,
    seats: g.seats, level: g.level, tables: g.tables || {},
  });
  G.key = G.keys[G.seat] || null;
  await accept(g.text, JSON.parse(g.text));
}

function forget(id) {
  const games = stored();
  delete games[id];
  localStorage.setItem(STORE, JSON.stringify(games));
  listGames();
}

// The unfinished games other than the one on the table, newest first.
function listGames() {
  const games = Object.entries(stored()).filter(([id, g]) => !g.over && id !== G.id).sort((a, b) => b[1].saved - a[1].saved);
  const box = $("saved");
  box.hidden = !games.length;
  const list = $("saved-list");
  list.replaceChildren();
  for (const [id, g] of games) {
    const li = document.createElement("li");
    li.dataset.game = id;
    const when = new Date(g.saved).toLocaleString();
    const against = g.hotseat ? "pass and play" : `against ${g.level} bots`;
    li.append(document.createTextNode(`${g.ruleset ? g.ruleset.name : "a game"}, ${against}, last played ${when} `));
    const go = document.createElement("button");
    go.type = "button";
    go.textContent = "Resume";
    go.className = "resume";
    go.addEventListener("click", () => {
      if (G.snap && G.snap.status !== "match_over" &&
          !window.confirm("Resume that game? The game you are playing stays under \u201cUnfinished games\u201d.")) return;
      guarded(() => resume(id));
    });
    const drop = document.createElement("button");
    drop.type = "button";
    drop.textContent = "Forget";
    drop.className = "forget";
    drop.addEventListener("click", () => forget(id));
    li.append(go, " ", drop);
    list.append(li);
  }
}

// Pass and play: the screen goes to the first seat that is to act (a seat key answers for its own
// seat only, so the page then asks for that seat's view with that seat's key).
async function passTheScreen(snap) {
  if (snap.status === "match_over") return;
  const acting = snap.to_act.find((s) => snap.legal_actions.some((a) => a.seat === s)) ?? snap.to_act[0];
  if (acting === undefined) return;
  G.seat = acting;
  G.key = G.keys[acting] || null;
  if (!snap.views.some((v) => v.seat === acting)) {
    G.view = JSON.parse(await call("POST", "v1/games/view", `{"state":${G.rawState},"seat":${acting}}`));
  }
}

// ---- what the buttons do ----------------------------------------------------------------------

function pickOne() {
  return G.selected[G.selected.length - 1] || null;
}

// The legal action a control stands for now, or undefined: a control sends exactly an action the
// server listed as legal, so the page never builds a request of its own making.
function legalFor(id) {
  const mine = myLegal();
  const card = pickOne();
  const find = (type, fields = {}) => mine.find((a) => a.type === type && Object.entries(fields).every(([k, v]) => a[k] === v));
  switch (id) {
    case "draw-stock": return find("draw", { from: "stock" });
    case "draw-discard": return find("draw", { from: "discard" });
    case "take-upcard": return find("take_upcard");
    case "pass": return find("pass");
    case "discard": return card ? find("discard", { card }) : undefined;
    case "knock-btn": return card ? find("knock", { discard: card }) : undefined;
    case "gin": return (card && find("gin", { discard: card })) || find("gin", { discard: null });
    case "lay-off": {
      const chosen = [...G.selected].sort().join(" ");
      return chosen ? mine.find((a) => a.type === "lay_off" && a.cards.map((l) => l.card).sort().join(" ") === chosen) : undefined;
    }
    case "next-hand": return find("next_hand");
    default: return undefined;
  }
}

function isLegal(id) {
  return id === "hint" ? myLegal().length > 0 : legalFor(id) !== undefined;
}

// Runs a control's command if it stands for a legal action now (a disabled control does nothing,
// by click or by key).
function perform(id) {
  if (!isLegal(id)) return;
  guarded(id === "hint" ? hint : () => act(legalFor(id)));
}

async function hint() {
  const body = `{"state":${G.rawState},"seat":${G.seat},"level":${JSON.stringify(G.level)}}`;
  const s = JSON.parse(await call("POST", "v1/games/suggest", body));
  const h = $("hint-text");
  const what = actionText(s.action);
  h.textContent = `Hint: ${what[0].toUpperCase()}${what.slice(1)}${s.why ? `: ${yourWords(s.why)}` : "."}`;
  h.hidden = false;
  announce(h.textContent);
}

// A bot's reason ("Discarded KS: it leaves the least deadwood (5).") told to the player, in the
// page's card notation: the part after the bot's own action, in the second person.
function yourWords(why) {
  const split = why.indexOf(": ");
  const head = split < 0 ? "" : why.slice(0, split);
  let reason = split < 0 ? why : why.slice(split + 2);
  const left = /^Left ([A2-9TJQK][CDHS])$/.exec(head);
  if (left) reason = reason.replace(/^it\b/, `taking ${left[1]}`);
  return reason
    .replace(/\b([A2-9TJQK][CDHS]|JK)\b/g, (c) => cardText(c))
    .replace(/\bI have\b/g, "you have").replace(/\bI\b/g, "you")
    .replace(/\bmy\b/g, "your").replace(/\bme\b/g, "you")
    .replace(/\bthe opponent\b/g, "your opponent")
    .replace(/\bthey took\b/g, "your opponent took");
}

function actionText(a) {
  switch (a.type) {
    case "draw": return a.from === "stock" ? "draw from the stock" : "take the discard";
    case "take_upcard": return "take the upcard";
    case "pass": return "pass";
    case "discard": return `discard ${cardText(a.card)}`;
    case "knock": return `knock, discarding ${cardText(a.discard)}`;
    case "gin": return a.discard ? `go gin, discarding ${cardText(a.discard)}` : "go big gin";
    case "lay_off": return a.cards.length ? `lay off ${a.cards.map((l) => cardText(l.card)).join(" ")}` : "lay off nothing";
    case "next_hand": return "deal the next hand";
    default: return a.type;
  }
}

// ---- drawing the table ------------------------------------------------------------------------

function render() {
  const { snap, view } = G;
  $("table").hidden = false;
  if (!view) return;
  document.body.dataset.phase = view.phase;
  document.body.dataset.status = snap.status;
  const [turn, yours] = turnText();
  $("turn").textContent = turn;
  $("turn").className = yours ? "yours" : "";
  const facts = [
    G.ruleset.name + (G.ruleset.options.length ? ` + ${G.ruleset.options.join(", ")}` : ""),
    view.table !== undefined && snap.views.length && G.tables[1] ? `table ${view.table + 1}` : null,
    `dealer: ${who(view.dealer, false)}`,
    `knock limit: ${view.knock_limit === null ? "gin only" : view.knock_limit}`,
    view.multiplier > 1 ? `scores ×${view.multiplier}` : null,
  ].filter(Boolean);
  $("facts").textContent = facts.join(" · ");
  $("facts").dataset.knockLimit = view.knock_limit === null ? "none" : String(view.knock_limit);

  renderCover();
  renderOpponents();
  renderPiles();
  renderKnock();
  renderHand();
  renderActions();
  renderResult();
  renderEvents();
  renderScores();
  renderTables();
  $("game-id").textContent = `Game ${snap.game.id}, move ${snap.game.move}; ` +
    (G.key ? "this page acts with the seat key the server gave it (the server checks every move against it)."
      : "this server gives no seat keys: the page holds the whole state of the game.");
}

// Pass and play: when the turn goes to another seat, its hand stays off the screen (not even in
// the page) until that player says they hold the screen.
function covered() {
  return G.hotseat && G.shown !== G.seat && G.snap.status !== "match_over";
}

function renderCover() {
  const hide = covered();
  $("cover").hidden = !hide;
  $("hand-panel").hidden = hide;
  if (!hide) return;
  $("cover-title").textContent = `Pass the screen to seat ${G.seat}`;
  $("reveal").textContent = `I am seat ${G.seat}: show my hand`;
}

function reveal() {
  if (!covered()) return;
  G.shown = G.seat;
  render();
  announce(turnText()[0]);
  const first = document.querySelector("#hand button") || document.querySelector("#actions button:not([hidden]):not(:disabled)");
  if (first) first.focus();
}

function renderOpponents() {
  const box = $("opponents");
  box.replaceChildren();
  const h = document.createElement("h2");
  h.textContent = G.hotseat ? "The other players" : "Your opponents";
  box.append(h);
  const players = new Map(G.view.players.map((p) => [p.seat, p]));
  const teams = G.snap.scores.teams;
  const myTeam = teams ? teams.find((t) => t.includes(G.seat)) : null;
  // The players at this table in the order the server lists them, then every other seat.
  const others = [...players.keys()];
  for (let seat = 0; seat < G.seats; seat++) if (seat !== G.seat && !players.has(seat)) others.push(seat);
  for (const seat of others) {
    const p = players.get(seat);
    const div = document.createElement("div");
    div.className = "opp";
    div.dataset.seat = seat;
    const name = document.createElement("p");
    name.className = "who";
    name.textContent = `${who(seat)}${myTeam && myTeam.includes(seat) ? ", your partner" : ""}`;
    div.append(name);
    const shown = G.view.result && G.view.result.outcome !== "dead";
    if (p && shown) {
      div.append(document.createTextNode(`${p.hand_size} cards, face up in the showdown below`));
    } else if (p) {
      if (G.snap.to_act.includes(seat) && G.snap.status !== "match_over" && G.view.phase !== "over") {
        name.append(document.createTextNode(" · to play"));
        div.classList.add("acting");
      }
      const hidden = p.hand_size - p.known_cards.length;
      const row = document.createElement("div");
      row.className = "opp-hand";
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = `${p.hand_size} cards`;
      row.append(backsEl(Math.max(0, hidden), `${hidden} cards you cannot see`));
      if (p.known_cards.length) row.append(cardsLine(p.known_cards));
      row.append(count);
      div.append(row);
      if (p.known_cards.length) {
        const note = document.createElement("small");
        note.textContent = `Face up: ${p.known_cards.map(cardText).join(" ")}, taken from the discard pile.`;
        div.append(note);
      }
    } else {
      const at = Object.entries(G.tables).find(([id, t]) => Number(id) !== G.view.table && t.seats && t.seats.includes(seat));
      div.append(document.createTextNode(at ? `plays at table ${Number(at[0]) + 1}`
        : seat === G.view.dealer ? "deals and sits out this hand" : "sits out this hand"));
    }
    box.append(div);
  }
}

function renderPiles() {
  const v = G.view;
  $("stock-count").textContent = v.stock_count;
  $("stock").dataset.depth = Math.min(4, Math.ceil(v.stock_count / 8));
  $("stock").setAttribute("aria-label", `The stock, ${v.stock_count} cards: draw from it`);
  const top = $("pile-top");
  top.replaceChildren();
  top.className = "card empty";
  delete top.dataset.card;
  top.setAttribute("aria-label", "The discard pile is empty");
  if (v.discard_top) {
    const c = cardEl(v.discard_top, "span", false);
    top.append(...c.childNodes);
    top.className = c.className;
    top.dataset.card = v.discard_top;
    top.setAttribute("aria-label", `The discard pile, ${cardName(v.discard_top)} on top: take it`);
  }
  const under = $("pile-under");
  under.replaceChildren(...v.discard_pile.slice(-4, -1).map((c) => cardEl(c)));
  const pile = $("pile");
  pile.replaceChildren(v.discard_pile.length ? cardsLine(v.discard_pile) : document.createTextNode("empty"));
}

function renderKnock() {
  const box = $("knock");
  const k = G.view.knock;
  box.hidden = !k;
  box.replaceChildren();
  if (!k) return;
  const h = document.createElement("h2");
  h.textContent = `${who(k.knocker)} knocked with ${k.deadwood} deadwood: the melds to lay off onto`;
  box.append(h);
  k.melds.forEach((m, i) => {
    const p = document.createElement("p");
    p.className = "meldline";
    p.append(document.createTextNode(`meld ${i + 1}: `), cardsLine(m));
    box.append(p);
  });
}

function renderHand() {
  const v = G.view;
  const a = G.analysis;
  const box = $("hand");
  box.replaceChildren();
  if (covered()) return;
  const groups = [];
  if (a) {
    const placed = new Set();
    for (const m of a.melds) { groups.push(["meld", m]); m.forEach((c) => placed.add(c)); }
    const dead = a.unmelded.slice().sort(byRank);
    dead.forEach((c) => placed.add(c));
    const rest = v.hand.filter((c) => !placed.has(c)).sort(byRank);
    if (dead.length) groups.push(["deadwood", dead]);
    if (rest.length) groups.push(["to discard", rest]);
  } else if (v.hand.length) {
    groups.push(["hand", v.hand.slice()]);
  }
  const chosen = v.phase === "discard" || v.phase === "lay_off";
  if (v.result) {
    groups.length = 0;
    const note = document.createElement("p");
    note.textContent = "Your cards are face up in the showdown below, as the server melded them.";
    box.append(note);
  }
  for (const [label, cards] of groups) {
    const g = document.createElement("div");
    g.className = "group";
    g.dataset.group = label;
    const cs = document.createElement("div");
    cs.className = "cards";
    for (const c of cards) {
      const b = cardEl(c, "button", false);
      b.type = "button";
      if (chosen) b.setAttribute("aria-pressed", G.selected.includes(c) ? "true" : "false");
      if (c === G.drawn) b.classList.add("new");
      if (a && v.phase === "discard" && a.best_discards.includes(c)) b.classList.add("best");
      b.addEventListener("click", () => toggle(c));
      b.addEventListener("dblclick", () => { G.selected = [c]; perform("discard"); });
      cs.append(b);
    }
    const small = document.createElement("small");
    small.textContent = label;
    g.append(cs, small);
    box.append(g);
  }
  let dw = "";
  if (v.sitting_out) {
    dw = "you sit out this hand";
  } else if (v.result) {
    dw = `deadwood ${v.result.deadwood[v.seat]} as scored`;
  } else if (a && a.best_discards.length) {
    dw = `deadwood ${a.deadwood} after discarding ${a.best_discards.map(cardText).join(" or ")}`;
  } else if (v.deadwood !== null && v.deadwood !== undefined) {
    dw = `deadwood ${v.deadwood}`;
  }
  $("hand-title").textContent = G.hotseat ? `Seat ${G.seat}'s hand` : "Your hand";
  $("hand").setAttribute("aria-label", G.hotseat ? `Seat ${G.seat}'s hand` : "Your hand");
  $("deadwood").textContent = dw ? `· ${dw}` : "";
  $("deadwood").dataset.deadwood = a && a.best_discards.length ? a.deadwood : (v.deadwood ?? "");
}

// Choosing a card: one card to discard (clicking the chosen card keeps it chosen), or several to
// lay off (a click adds or removes one).
function toggle(card) {
  const phase = G.view && G.view.phase;
  if (phase === "lay_off") {
    G.selected = G.selected.includes(card) ? G.selected.filter((c) => c !== card) : [...G.selected, card];
  } else if (phase === "discard") {
    G.selected = [card];
  } else {
    return;
  }
  for (const b of document.querySelectorAll("#hand button")) {
    b.setAttribute("aria-pressed", G.selected.includes(b.dataset.card) ? "true" : "false");
  }
  renderActions();
}

function renderActions() {
  const mine = myLegal();
  const types = new Set(mine.map((a) => a.type));
  const phase = G.view.phase;
  const over = G.snap.status === "match_over";
  const inHand = ["upcard_offer", "draw", "discard", "last_discard"].includes(phase) && !G.view.sitting_out;
  const show = {
    "draw-stock": phase === "draw" || types.has("draw"),
    "draw-discard": phase === "draw" || types.has("draw"),
    "take-upcard": phase === "upcard_offer" || types.has("take_upcard"),
    pass: phase === "upcard_offer" || phase === "last_discard" || types.has("pass"),
    discard: inHand || types.has("discard"),
    "knock-btn": inHand || types.has("knock"),
    gin: inHand || types.has("gin"),
    "lay-off": types.has("lay_off") && mine.some((a) => a.type === "lay_off" && a.cards.length),
    "next-hand": types.has("next_hand"),
    hint: !over && mine.length > 0,
  };
  for (const [id, visible] of Object.entries(show)) {
    const b = $(id);
    b.hidden = !visible || over;
    b.disabled = !isLegal(id);
    b.classList.toggle("legal", !b.disabled);
  }
  $("stock").disabled = !isLegal("draw-stock");
  $("pile-top").disabled = !(isLegal("take-upcard") || isLegal("draw-discard"));
  const discard = legalFor("discard");
  const knock = legalFor("knock-btn");
  $("discard").textContent = discard ? `Discard ${cardText(discard.card)}` : "Discard";
  $("knock-btn").textContent = knock ? `Knock, discarding ${cardText(knock.discard)}` : "Knock";
  const gin = legalFor("gin");
  $("gin").textContent = gin ? (gin.discard ? `Gin, discarding ${cardText(gin.discard)}` : "Big gin") : "Gin";
  const lo = $("layoffs");
  lo.replaceChildren();
  for (const a of mine.filter((x) => x.type === "lay_off")) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "legal-layoff";
    b.textContent = a.cards.length
      ? `Lay off ${a.cards.map((l) => `${cardText(l.card)}${l.onto !== undefined ? ` onto meld ${l.onto + 1}` : ""}`).join(", ")}`
      : "Lay off nothing";
    b.dataset.cards = a.cards.map((l) => l.card).join(" ");
    b.addEventListener("click", () => guarded(() => act(a)));
    lo.append(b);
  }
}

// ---- the showdown -----------------------------------------------------------------------------

// The seats that played the hand that ended: those the deal named, else those the result mentions.
function resultSeats(r) {
  const t = G.tables[r.table ?? 0];
  if (t && t.seats) return t.seats.slice();
  return r.points.map((_, i) => i).filter((i) => (r.melds[i] || []).length || r.deadwood[i] || i === r.winner);
}

// Who knocked (and so whose melds took the lay-offs): the knock seen in the events, else the
// winner of a knock or the other player of an undercut.
function knockerOf(r, seats) {
  const t = G.tables[r.table ?? 0];
  if (t && t.knocker !== undefined) return t.knocker;
  return r.outcome === "undercut" ? seats.find((s) => s !== r.winner) : r.winner;
}

function renderResult() {
  const box = $("result");
  const r = G.view.result;
  box.hidden = !r;
  box.replaceChildren();
  if (!r) return;
  box.dataset.outcome = r.outcome;
  const h = document.createElement("h2");
  h.textContent = eventText({ type: "hand_over", ...r }, false);
  box.append(h);
  const seats = resultSeats(r);
  const knocker = knockerOf(r, seats);
  const laidOff = r.laid_off || [];
  const sides = document.createElement("div");
  sides.className = "sides";
  for (const s of seats) sides.append(showdownSide(r, s, s === knocker ? laidOff : [], laidOff));
  box.append(sides);
  box.append(scoreParts(r));
}

// One player's hand face up: the melds as the server arranged them (with the cards laid off onto
// them), then the deadwood the result lists. A dead hand is shown by nobody: your own cards face
// up, the others' as backs (with the cards they took from the pile).
function showdownSide(r, seat, onto, laidOff) {
  const div = document.createElement("div");
  div.className = "side";
  div.dataset.seat = seat;
  const name = document.createElement("h3");
  name.textContent = `${who(seat)}: deadwood ${r.deadwood[seat]}, ${r.points[seat]} point${r.points[seat] === 1 ? "" : "s"}`;
  div.append(name);
  const melds = r.melds[seat] || [];
  const row = document.createElement("div");
  row.className = "melds";
  melds.forEach((m, i) => {
    const meld = document.createElement("span");
    meld.className = "meld";
    meld.dataset.meld = i;
    meld.append(...m.map((c) => cardEl(c, "span", false)));
    for (const l of onto.filter((x) => x.onto === i)) {
      const c = cardEl(l.card, "span", false);
      c.classList.add("laidoff");
      c.dataset.laidOff = "1";
      c.setAttribute("aria-label", `${cardName(l.card)}, laid off`);
      meld.append(c);
    }
    row.append(meld);
  });
  if (!melds.length) row.append(document.createTextNode("no melds"));
  div.append(row);

  const shown = new Set([...melds.flat(), ...laidOff.map((l) => l.card)]);
  const view = G.snap.views.find((v) => v.seat === seat);
  const player = G.view.players.find((p) => p.seat === seat);
  const dead = document.createElement("div");
  dead.className = "deadwood-cards";
  const label = document.createElement("small");
  label.textContent = "deadwood";
  dead.append(label);
  const faceUp = r.outcome !== "dead" && r.deadwood_cards ? r.deadwood_cards[seat] : null;
  if (faceUp) {
    dead.append(...faceUp.slice().sort(byRank).map((c) => cardEl(c, "span", false)));
    if (!faceUp.length) dead.append(document.createTextNode(" none"));
  } else if (view) {
    const cards = view.hand.filter((c) => !shown.has(c)).sort(byRank);
    dead.append(...cards.map((c) => cardEl(c, "span", false)));
    if (!cards.length) dead.append(document.createTextNode(" none"));
  } else if (player) {
    const ownLaidOff = laidOff.filter((l) => (l.seat === undefined ? !onto.length : l.seat === seat)).length;
    const known = player.known_cards.filter((c) => !shown.has(c));
    const unseen = Math.max(0, player.hand_size - melds.flat().length - ownLaidOff - known.length);
    dead.append(...known.map((c) => cardEl(c, "span", false)));
    if (unseen) dead.append(backsEl(unseen, `${unseen} cards the server does not show`));
    if (!known.length && !unseen) dead.append(document.createTextNode(" none"));
  }
  div.append(dead);
  return div;
}

// A part's name as a label: "knock bonus" reads "Knock bonus".
function partLabel(p) {
  const name = p.name || "part";
  return name.charAt(0).toUpperCase() + name.slice(1);
}

// How a hand scored between two players: against each opponent of the knocker at a table of three
// or four (`against`, each naming its `seat`), else the hand's own result.
function pairsOf(r) {
  if ((r.against || []).length) return r.against;
  return [{ outcome: r.outcome, winner: r.winner, parts: r.parts, points: r.winner == null ? 0 : r.points[r.winner] }];
}

// Who won how between two players, and the points: "Seat 1 wins by a knock, 2 points (Base 1 ·
// Multiplier x2 1)."
function pairText(a) {
  if (a.winner == null) return `${OUTCOMES[a.outcome] || a.outcome}, nobody scores.`;
  const parts = (a.parts || []).length > 1 ? ` (${partsText(a.parts)})` : "";
  return `${who(a.winner)} ${a.winner === G.seat ? "win" : "wins"} by ${OUTCOMES[a.outcome] || a.outcome}, ` +
    `${a.points} point${a.points === 1 ? "" : "s"}${parts}.`;
}

// The parts on one line: "Base 6 · Knock bonus 10".
function partsText(parts) {
  return parts.map((p) => `${partLabel(p)} ${p.points}`).join(" · ");
}

// The hand's points in the parts the server names (the base, bonuses, what a multiplier or a
// ruleset's hook added): they sum to the winner's points. At a table of three or four, a group of
// rows for each opponent of the knocker, each with its winner.
function scoreParts(r) {
  const table = document.createElement("table");
  table.id = "score-parts";
  const caption = document.createElement("caption");
  caption.textContent = "How the hand scored";
  table.append(caption);
  const row = (label, value, kind, group) => {
    const tr = document.createElement("tr");
    tr.dataset.part = kind;
    tr.dataset.group = group;
    const th = document.createElement("th");
    th.scope = kind === "against" ? "rowgroup" : "row";
    th.textContent = label;
    tr.append(th);
    if (value !== null) {
      tr.dataset.value = value;
      const td = document.createElement("td");
      td.textContent = String(value);
      tr.append(td);
    } else {
      th.colSpan = 2;
    }
    table.append(tr);
    return tr;
  };
  pairsOf(r).forEach((a, i) => {
    if (a.seat !== undefined) row(`Against ${who(a.seat, false)}`, null, "against", i);
    for (const p of a.parts || []) row(partLabel(p), p.points, "part", i);
    const nobody = a.winner == null;
    const total = row(nobody ? "Nobody scores" : `${who(a.winner)} ${a.winner === G.seat && !G.hotseat ? "score" : "scores"}`,
      nobody ? 0 : a.points, "total", i);
    if (!nobody) total.dataset.winner = a.winner;
  });
  return table;
}

function renderEvents() {
  const list = $("events");
  list.replaceChildren();
  const multi = G.snap.scores.teams !== undefined || Object.keys(G.tables).length > 1;
  for (const e of G.snap.events) {
    const li = document.createElement("li");
    li.dataset.type = e.type;
    if (e.upcard) li.dataset.upcard = e.upcard;
    li.textContent = eventText(e, multi);
    list.append(li);
  }
}

function renderScores() {
  const sc = G.snap.scores;
  const box = $("scores");
  box.replaceChildren();
  const h = document.createElement("h2");
  h.textContent = "Scores";
  box.append(h);
  const table = document.createElement("table");
  table.id = "score-table";
  const head = document.createElement("tr");
  const cols = sc.columns || [];
  const heads = [sc.teams ? "Team" : "Player", ...cols.map((c, i) => `game ${i + 1}${c.closed ? " (closed)" : ""}`), "total", "hands won"];
  for (const t of heads) { const th = document.createElement("th"); th.textContent = t; head.append(th); }
  table.append(head);
  sc.totals.forEach((total, i) => {
    const tr = document.createElement("tr");
    const cells = [sideName(sc, i), ...cols.map((c) => c.points[i]), total, sc.hands_won[i]];
    cells.forEach((v, j) => {
      const td = document.createElement("td");
      td.textContent = v;
      if (j > 0 && j <= cols.length && cols[j - 1].closed) td.className = "closed";
      tr.append(td);
    });
    table.append(tr);
  });
  box.append(table);
  for (const b of sc.bonuses || []) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = `Game ${b.game + 1} closed, won by ${sideName(sc, b.winner)}: bonus ${b.game_bonus.join(" / ")}, boxes ${b.boxes.join(" / ")}` +
      `${b.shutout > 1 ? `, shutout ×${b.shutout}` : ""}; with bonuses ${b.totals.join(" / ")}.`;
    box.append(p);
  }
}

function renderTables() {
  const ids = Object.keys(G.tables).map(Number).sort();
  const box = $("tables");
  box.hidden = ids.length < 2;
  box.replaceChildren();
  if (ids.length < 2) return;
  const h = document.createElement("h2");
  h.textContent = "Both tables";
  box.append(h);
  for (const id of ids) {
    const t = G.tables[id];
    const div = document.createElement("div");
    div.className = "minitable";
    const felt = document.createElement("span");
    felt.className = "felt";
    felt.append(t.top ? cardEl(t.top) : backsEl(1, "the discard pile's top card is not known here"));
    const p = document.createElement("p");
    p.dataset.table = id;
    const seats = t.seats ? t.seats.map((s) => who(s, false)).join(" and ") : "";
    const mine = G.view && G.view.table === id ? " (yours)" : "";
    p.textContent = `Table ${id + 1}${mine}: ${seats}; ${limitText(t.limit)}. ` +
      `Last: ${t.last ? eventText(t.last, false) : "—"}` +
      (t.result && t.result !== t.last ? ` Result: ${eventText(t.result, false)}` : "");
    div.append(felt, p);
    box.append(div);
  }
}

// ---- keyboard ---------------------------------------------------------------------------------

function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const tag = (ev.target && ev.target.tagName) || "";
  if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
  if (!G.snap) return;
  if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
    const cards = [...document.querySelectorAll("#hand button")];
    if (!cards.length) return;
    const at = cards.indexOf(document.activeElement);
    const next = at < 0 ? 0 : (at + (ev.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
    cards[next].focus();
    ev.preventDefault();
    return;
  }
  const key = ev.key.toLowerCase();
  let id = [...document.querySelectorAll("#actions button")].find((b) => b.dataset.key === key && !b.hidden)?.id;
  if (key === "p") id = isLegal("take-upcard") ? "take-upcard" : "draw-discard";
  if (!id) return;
  ev.preventDefault();
  perform(id);
}

// ---- start ------------------------------------------------------------------------------------

function start() {
  for (const b of document.querySelectorAll("#actions button")) b.addEventListener("click", () => perform(b.id));
  $("stock").addEventListener("click", () => perform("draw-stock"));
  $("reveal").addEventListener("click", reveal);
  $("pile-top").addEventListener("click", () => perform(isLegal("take-upcard") ? "take-upcard" : "draw-discard"));
  $("ruleset").addEventListener("change", fillRuleset);
  $("setup").addEventListener("submit", (ev) => { ev.preventDefault(); guarded(deal); });
  document.addEventListener("keydown", onKey);
  guarded(async () => {
    await loadRulesets();
    const id = localStorage.getItem(CURRENT);
    const g = id && stored()[id];
    if (g && !g.over) await resume(id);
    listGames();
  }).then(() => { document.body.dataset.ready = "1"; });
}

document.addEventListener("DOMContentLoaded", start);
