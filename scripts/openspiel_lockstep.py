#!/usr/bin/env python3
"""Lock-step benchmark: gin-rules bots against OpenSpiel's simple gin rummy bot.

Run by hand (not in CI); it needs the PyPI package `open_spiel` (`import pyspiel`) and a
gin-rules server, or the binary to start one:

    nice -n 10 python3 scripts/openspiel_lockstep.py --bin target/debug/gin-rules \
        --level strong --hands 2000 --seed 1

    python3 scripts/openspiel_lockstep.py --server http://127.0.0.1:8080 --level basic --hands 200

Each deck is dealt in both engines: in OpenSpiel through the chance outcomes this script chooses
(player 0 is dealt its ten cards, then player 1, then the upcard, then each stock draw in order),
in gin-rules as an explicit `deck` in its documented order (seat 1 deals, so seat 0, the
non-dealer, is OpenSpiel's player 0 and gets deck[0], deck[2], ...). The game is played under
scripts/openspiel-gin.yaml, OpenSpiel's rules written as an authored ruleset. One seat is
OpenSpiel's SimpleGinRummyBot, the other a gin-rules bot of `--level` (its decisions come from
`POST /v1/games/suggest`); each deck is played twice, once with each bot in each seat. Every
action is applied in both engines, and before every decision the script checks that both
engines agree on the legal actions (mapped between the encodings), both hands, the stock size,
the discard pile and its top card; at the end of the hand, on the points. Each disagreement is
printed with its deck and moves and counted. A hand one engine could not go on with is left out of
the figures; a hand whose points differ stays in, each engine's points in its own column.

Figures: hands, hand wins per side, points per hand of the gin-rules bot (mean and standard
error), and matches to 100: the hands, in the order played (each deck with one seating, then
the other), are added up into consecutive matches until a side reaches 100 points; matches
therefore see both seatings alike. Intervals are Wilson 95 %. As the two hands of a deck mostly
fall in one match, a deck's luck mostly cancels within it; matches of independent deals are also
given, exact over the points of the hands played (each hand as likely as any other, dealt until
a side has 100), with a 95 % interval by drawing the decks again.

`--results FILE` writes every hand's result as a JSON line; `--report FILE...` plays nothing and
reports on the hands of such files taken together (several seeds, say).
"""

import argparse
import http.client
import json
import math
import random
import socket
import subprocess
import sys
import time
import urllib.parse
from collections import Counter
from pathlib import Path

import pyspiel

HERE = Path(__file__).resolve().parent
RULESET_YAML = (HERE / "openspiel-gin.yaml").read_text()

RANKS = "A23456789TJQK"
OS_SUITS = "SCDH"  # OpenSpiel's card = suit * 13 + rank, suits in this order
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56


def card_to_os(card):
    return OS_SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def os_to_card(n):
    return RANKS[n % 13] + OS_SUITS[n // 13]


def os_token_to_card(tok):
    return tok[0].upper() + tok[1].upper()


class Disagreement(Exception):
    pass


class Server:
    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.host, self.port = u.hostname, u.port or 80
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def post(self, path, body):
        """POST a JSON body: (status, answer). A dropped keep-alive connection is opened again once."""
        data = json.dumps(body)
        try:
            self.conn.request("POST", path, data, {"Content-Type": "application/json"})
            resp = self.conn.getresponse()
        except (http.client.HTTPException, ConnectionError):
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
            self.conn.request("POST", path, data, {"Content-Type": "application/json"})
            resp = self.conn.getresponse()
        return resp.status, json.loads(resp.read())


def start_server(binary):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    proc = subprocess.Popen(
        [binary, "serve", "--addr", f"127.0.0.1:{port}", "--workers", "1", "--engine-threads", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            c.request("GET", "/healthz")
            if c.getresponse().status == 200:
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit(f"the server {binary} did not start")


class MeldTable:
    """OpenSpiel's meld actions (56..240) by their cards, read from its action strings."""

    def __init__(self, game):
        state = game.new_initial_state()
        self.by_cards = {}
        self.cards_of = {}
        for a in range(MELD_BASE, game.num_distinct_actions()):
            text = state.action_to_string(0, a).split("Action: ")[1]
            cards = frozenset(os_token_to_card(text[i : i + 2]) for i in range(0, len(text), 2))
            self.by_cards[cards] = a
            self.cards_of[a] = cards

    def action(self, meld):
        cards = frozenset(meld)
        if cards not in self.by_cards:
            raise Disagreement(f"OpenSpiel has no meld {sorted(cards)}")
        return self.by_cards[cards]


class OsView:
    """What this script reads of an OpenSpiel state (from its ToString)."""

    def __init__(self, state):
        text = str(state)
        self.phase = None
        self.stock = None
        self.upcard = None
        self.discard_pile = []
        grids = []
        self.laid = [set(), set()]  # cards a player has laid in melds (out of its grid)
        player = None
        in_grid = False
        for line in text.splitlines():
            if line.startswith(("Player0:", "Player1:")):
                player = int(line[6])
            elif line.startswith("Layed melds:") and player is not None:
                for meld in line.split(":", 1)[1].split():
                    self.laid[player] |= {os_token_to_card(meld[i : i + 2]) for i in range(0, len(meld), 2)}
            elif line.startswith("Phase: "):
                self.phase = line.split(": ", 1)[1].strip()
            elif line.startswith("Stock size: "):
                parts = line.split()
                self.stock = int(parts[2])
                up = parts[4]
                self.upcard = None if up == "XX" else os_token_to_card(up)
            elif line.startswith("Discard pile:"):
                rest = line.split(":", 1)[1].strip()
                self.discard_pile = [os_token_to_card(rest[i : i + 2]) for i in range(0, len(rest), 2)]
            elif line.startswith("+--"):
                if not in_grid:
                    grids.append(set())
                in_grid = not in_grid
            elif in_grid and line.startswith("|"):
                row = line[1:27]
                for i in range(0, len(row), 2):
                    tok = row[i : i + 2]
                    if tok.strip():
                        grids[-1].add(os_token_to_card(tok))
        self.hands = grids


def os_canonical(state):
    """OpenSpiel's legal actions as the shared vocabulary of the two engines."""
    view = OsView(state)
    legal = state.legal_actions()
    out = set()
    if view.phase in ("FirstUpcard", "Draw"):
        for a in legal:
            out.add({DRAW_UPCARD: "take", DRAW_STOCK: "stock", PASS: "pass"}[a])
    elif view.phase == "Wall":
        for a in legal:
            out.add({KNOCK: "take", PASS: "pass"}[a])
    elif view.phase == "Discard":
        for a in legal:
            if a < 52:
                out.add(("discard", os_to_card(a)))
        if KNOCK in legal:
            probe = state.clone()
            probe.apply_action(KNOCK)
            out |= {("out", os_to_card(a)) for a in probe.legal_actions()}
    elif view.phase == "Knock":
        out |= {("out", os_to_card(a)) for a in legal if a < 52}
    elif view.phase == "Layoff":
        out |= {("lay_off", os_to_card(a)) for a in legal if a < 52}
    return view, out


def gr_canonical(snapshot):
    out = set()
    view = snapshot["views"][snapshot["to_act"][0]]
    for a in snapshot["legal_actions"]:
        t = a["type"]
        if t == "take_upcard":
            out.add("take")
        elif t == "pass":
            out.add("pass")
        elif t == "draw":
            out.add("stock" if a["from"] == "stock" else "take")
        elif t == "discard":
            out.add(("discard", a["card"]))
        elif t in ("knock", "gin"):
            out.add(("out", a["discard"]))
    return view, out


def compare(snapshot, os_state, layable):
    """Raise Disagreement naming every difference at a decision point."""
    problems = []
    gview, gset = gr_canonical(snapshot)
    oview, oset = os_canonical(os_state)
    seat = snapshot["to_act"][0]
    if os_state.current_player() != seat:
        problems.append(f"to act: gin-rules seat {seat}, OpenSpiel player {os_state.current_player()}")
    if gview["phase"] == "lay_off":
        # gin-rules lists the best lay-off only (it accepts any legal one): compare the cards
        # that can be laid off one at a time, probed by the caller.
        oset_cards = {c for _, c in oset}
        if oset_cards != layable:
            problems.append(f"cards to lay off: OpenSpiel {sorted(oset_cards)}, gin-rules {sorted(layable)}")
    elif gset != oset:
        problems.append(
            f"legal actions: only gin-rules {sorted(map(str, gset - oset))}, "
            f"only OpenSpiel {sorted(map(str, oset - gset))}"
        )
    for s in (0, 1):
        gh = set(snapshot["views"][s]["hand"])
        oh = oview.hands[s] | oview.laid[s]
        if gh != oh:
            problems.append(f"seat {s} hand: gin-rules {sorted(gh)}, OpenSpiel {sorted(oh)}")
    if gview["stock_count"] != oview.stock:
        problems.append(f"stock: gin-rules {gview['stock_count']}, OpenSpiel {oview.stock}")
    os_pile = oview.discard_pile + ([oview.upcard] if oview.upcard else [])
    if oview.phase in ("FirstUpcard", "Draw", "Wall"):
        if gview.get("discard_top") != oview.upcard:
            problems.append(f"discard top: gin-rules {gview.get('discard_top')}, OpenSpiel {oview.upcard}")
        if list(gview.get("discard_pile", [])) != os_pile:
            problems.append(f"discard pile: gin-rules {gview.get('discard_pile')}, OpenSpiel {os_pile}")
    elif set(gview.get("discard_pile", [])) != set(os_pile):
        problems.append(f"discard pile: gin-rules {gview.get('discard_pile')}, OpenSpiel {os_pile}")
    if problems:
        raise Disagreement("; ".join(problems))


class Hand:
    """One deck played in lock-step, `gr_seat` being the gin-rules bot's seat."""

    def __init__(self, server, game, melds, deck, gr_seat, level):
        self.server, self.melds, self.deck, self.gr_seat, self.level = server, melds, deck, gr_seat, level
        self.moves = []
        self.knock = None
        self.os = game.new_initial_state()
        order = deck[0:20:2] + deck[1:20:2] + [deck[20]]
        for c in order:
            self.os.apply_action(card_to_os(c))
        self.next_stock = 21
        self.bot = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - gr_seat)
        self.bot.restart()
        status, snap = server.post(
            "/v1/games",
            {"ruleset": {"yaml": RULESET_YAML, "scripts": {}}, "deck": deck, "dealer": 1, "seed": 1},
        )
        if status != 201:
            sys.exit(f"the deal failed: {status} {snap}")
        self.snap = snap

    def os_apply(self, action):
        if action not in self.os.legal_actions():
            raise Disagreement(
                f"OpenSpiel refuses {self.os.action_to_string(self.os.current_player(), action)} "
                f"(legal: {[self.os.action_to_string(self.os.current_player(), a) for a in self.os.legal_actions()]})"
            )
        self.os.apply_action(action)
        if self.os.is_chance_node():
            self.os.apply_action(card_to_os(self.deck[self.next_stock]))
            self.next_stock += 1

    def gr_step(self, action):
        status, snap = self.server.post("/v1/games/step", {"state": self.snap["state"], "action": action})
        if status != 200:
            raise Disagreement(f"gin-rules refused {json.dumps(action)}: {snap.get('detail')}")
        self.snap = snap
        self.moves.append(action)
        for e in snap["events"]:
            if e["type"] in ("knocked", "went_gin"):
                self.knock = e
        return snap

    def phase(self):
        return self.snap["views"][self.snap["to_act"][0]]["phase"]

    def gr_layable(self):
        """The defender's cards gin-rules accepts laid off alone (onto some meld of the knocker)."""
        seat = self.snap["to_act"][0]
        out = set()
        for card in self.snap["views"][seat]["hand"]:
            for onto in range(len(self.knock["melds"])):
                action = {"seat": seat, "type": "lay_off", "cards": [{"card": card, "onto": onto}]}
                status, _ = self.server.post(
                    "/v1/games/step", {"state": self.snap["state"], "action": action}
                )
                if status == 200:
                    out.add(card)
                    break
        return out

    def event(self, kind):
        for e in self.snap["events"]:
            if e["type"] == kind:
                return e
        return None

    def play(self):
        while self.snap["status"] != "match_over":
            if self.os.is_terminal():
                raise Disagreement("OpenSpiel's hand is over, gin-rules' is not")
            layable = self.gr_layable() if self.phase() == "lay_off" else set()
            compare(self.snap, self.os, layable)
            seat = self.snap["to_act"][0]
            if seat == self.gr_seat:
                self.gr_move(seat)
            else:
                self.os_move(seat)
        over = self.event("hand_over")
        self.os_defender_shows(over)
        if not self.os.is_terminal():
            raise Disagreement("gin-rules' hand is over, OpenSpiel's is not")
        points = over["points"]
        returns = self.os.returns()
        mismatch = None
        if abs(returns[0] - (points[0] - points[1])) > 1e-9:
            mismatch = (
                f"points: gin-rules {points} ({over['outcome']}, deadwood {over.get('deadwood')}), "
                f"OpenSpiel returns {returns}"
            )
        return over, returns, mismatch

    def os_defender_shows(self, over):
        """After gin OpenSpiel still has the defender lay its melds (and pass), where gin-rules
        arranges them itself and ends the hand: play those moves in OpenSpiel alone."""
        if self.os.is_terminal() or self.knock is None or OsView(self.os).phase != "Layoff":
            return
        seat = self.os.current_player()
        if seat != self.gr_seat:
            while not self.os.is_terminal():
                self.os_apply(self.bot_action())
            return
        for m in over["melds"][seat]:
            self.os_apply(self.melds.action(m))
        self.os_apply(PASS)

    def gr_move(self, seat):
        status, sug = self.server.post(
            "/v1/games/suggest", {"state": self.snap["state"], "seat": seat, "level": self.level}
        )
        if status != 200:
            raise Disagreement(f"suggest failed: {sug.get('detail')}")
        action = sug["action"]
        phase = self.snap["views"][seat]["phase"]
        t = action["type"]
        self.gr_step(action)
        if t == "take_upcard":
            self.os_apply(DRAW_UPCARD)
        elif t == "pass":
            self.os_apply(PASS)
        elif t == "draw":
            if action["from"] == "stock":
                self.os_apply(DRAW_STOCK)
            elif phase == "last_discard":
                self.os_apply(KNOCK)  # OpenSpiel's wall: knocking takes the upcard
            else:
                self.os_apply(DRAW_UPCARD)
        elif t == "discard":
            self.os_apply(card_to_os(action["card"]))
        elif t in ("knock", "gin"):
            shown = self.event("knocked") or self.event("went_gin")
            if OsView(self.os).phase != "Knock":
                self.os_apply(KNOCK)
            self.os_apply(card_to_os(action["discard"]))
            for m in shown["melds"]:
                self.os_apply(self.melds.action(m))
            self.os_apply(PASS)
        elif t == "lay_off":
            self.os_lay_off([c["card"] for c in (action.get("cards") or [])])
            over = self.event("hand_over")
            for m in over["melds"][seat]:
                self.os_apply(self.melds.action(m))
            self.os_apply(PASS)
        else:
            raise Disagreement(f"gin-rules bot played {json.dumps(action)}, which OpenSpiel has no move for")

    def os_lay_off(self, cards):
        left = list(cards)
        while left:
            legal = self.os.legal_actions()
            for c in left:
                if card_to_os(c) in legal:
                    self.os_apply(card_to_os(c))
                    left.remove(c)
                    break
            else:
                raise Disagreement(f"OpenSpiel does not take the lay-off of {left}")
        self.os_apply(PASS)

    def bot_action(self):
        a = self.bot.step(self.os)
        self.moves.append({"openspiel": self.os.action_to_string(self.os.current_player(), a)})
        return a

    def os_move(self, seat):
        view = OsView(self.os)
        a = self.bot_action()
        if view.phase in ("FirstUpcard", "Draw"):
            self.os_apply(a)
            if a == DRAW_UPCARD:
                t = (
                    {"type": "take_upcard"}
                    if view.phase == "FirstUpcard"
                    else {"type": "draw", "from": "discard"}
                )
            elif a == DRAW_STOCK:
                t = {"type": "draw", "from": "stock"}
            else:
                t = {"type": "pass"}
            self.gr_step({"seat": seat, **t})
        elif view.phase == "Wall":
            self.os_apply(a)
            if a == PASS:
                self.gr_step({"seat": seat, "type": "pass"})
            else:
                self.gr_step({"seat": seat, "type": "draw", "from": "discard"})
        elif view.phase == "Discard" and a != KNOCK:
            self.os_apply(a)
            self.gr_step({"seat": seat, "type": "discard", "card": os_to_card(a)})
        elif view.phase in ("Discard", "Knock"):
            if a == KNOCK:
                self.os_apply(a)
                a = self.bot_action()
            discard = os_to_card(a)
            self.os_apply(a)
            melds = []
            while True:
                a = self.bot_action()
                self.os_apply(a)
                if a == PASS:
                    break
                melds.append(sorted(self.melds.cards_of[a]))
            kind = "knock"
            for la in self.snap["legal_actions"]:
                if la["type"] in ("knock", "gin") and la.get("discard") == discard:
                    kind = la["type"]
            self.gr_step({"seat": seat, "type": kind, "discard": discard, "melds": melds})
        elif view.phase == "Layoff":
            laid = []
            while a != PASS:
                laid.append(os_to_card(a))
                self.os_apply(a)
                a = self.bot_action()
            self.os_apply(a)
            self.gr_step({"seat": seat, "type": "lay_off", "cards": [{"card": c} for c in laid]})
            # The defender shows its melds in OpenSpiel, then passes; gin-rules arranges them.
            while not self.os.is_terminal():
                self.os_apply(self.bot_action())
        else:
            raise Disagreement(f"OpenSpiel's phase {view.phase} has no gin-rules counterpart")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=200, help="hands to play (each deck is played twice)")
    ap.add_argument("--level", choices=["random", "basic", "strong"], default="strong")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--server", help="URL of a running gin-rules server")
    ap.add_argument("--bin", help="gin-rules binary to start (when no --server)")
    ap.add_argument("--target", type=int, default=100, help="match target")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--results", help="also write every hand's result to this file, a JSON line each")
    ap.add_argument(
        "--report",
        nargs="+",
        metavar="FILE",
        help="play nothing: report on the hands of earlier --results files, taken together",
    )
    args = ap.parse_args()
    if args.report:
        report_files(args)
        return

    proc = None
    url = args.server
    if url is None:
        if args.bin is None:
            sys.exit("give --server URL or --bin PATH")
        proc, url = start_server(args.bin)
    try:
        run(args, Server(url))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()


def run(args, server):
    game = pyspiel.load_game("gin_rummy")
    melds = MeldTable(game)
    rng = random.Random(args.seed)
    cards = [r + s for s in "CDHS" for r in RANKS]
    results = []  # one Result a hand that both engines played to its end
    broken = []  # hands one engine could not go on with
    mismatched = []  # hands played to the end whose points differ
    saved = []  # what --results keeps of the hands left out of the figures
    started = time.time()
    n = 0
    deck_no = 0
    while n < args.hands:
        deck = cards[:]
        rng.shuffle(deck)
        for gr_seat in (0, 1):
            if n >= args.hands:
                break
            n += 1
            hand = None
            try:
                hand = Hand(server, game, melds, deck, gr_seat, args.level)
                over, returns, mismatch = hand.play()
            except Disagreement as e:
                broken.append(str(e).split(":")[0])
                saved.append({"seed": args.seed, "deck": deck_no, "broken": broken[-1]})
                show_disagreement(deck_no, gr_seat, deck, str(e), hand)
                continue
            if mismatch:
                who = "gin-rules" if over["winner"] == gr_seat else "OpenSpiel"
                mismatched.append(f"points differ after a {over['outcome']} by {who}")
                show_disagreement(deck_no, gr_seat, deck, mismatch, hand)
                saved.append({"seed": args.seed, "deck": deck_no, "mismatch": mismatched[-1]})
            pts = over["points"]
            results.append(
                {
                    "seed": args.seed,
                    "level": args.level,
                    "deck": deck_no,
                    "gr": pts[gr_seat] - pts[1 - gr_seat],
                    "os": returns[gr_seat],
                    "outcome": over["outcome"],
                    "winner": None
                    if over["outcome"] == "dead"
                    else ("gin-rules" if over["winner"] == gr_seat else "OpenSpiel"),
                }
            )
            if not args.quiet and n % 100 == 0:
                print(f"{n} hands, {time.time() - started:.0f} s", file=sys.stderr, flush=True)
        deck_no += 1
    if args.results:
        with open(args.results, "w") as f:
            for line in saved + results:
                f.write(json.dumps(line) + "\n")
    report(args, results, broken, mismatched, time.time() - started)


def report_files(args):
    """The report over the hands of several `--results` files (a deck is known by its seed)."""
    results, broken, mismatched, seeds = [], [], [], set()
    for path in args.report:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                seeds.add(r["seed"])
                if "broken" in r:
                    broken.append(r["broken"])
                elif "mismatch" in r:
                    mismatched.append(r["mismatch"])
                else:
                    r["deck"] = (r["seed"], r["deck"])
                    results.append(r)
    args.seed = ", ".join(str(s) for s in sorted(seeds))
    args.level = ", ".join(sorted({r["level"] for r in results}))
    report(args, results, broken, mismatched, None)


def show_disagreement(deck_no, gr_seat, deck, what, hand):
    moves = hand.moves if hand else []
    print(
        f"DISAGREEMENT deck {deck_no} (gin-rules bot in seat {gr_seat}, seat 1 deals): {what}\n"
        f"  deck: {' '.join(deck)}\n  moves: {json.dumps(moves)}",
        flush=True,
    )


def mean_se(xs):
    n = len(xs)
    if n < 2:
        return float("nan"), float("nan")
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def matches(net, target):
    """Consecutive hands added up into matches to `target`: (won by gin-rules, played)."""
    won = played = 0
    a = b = 0
    for x in net:
        a += max(x, 0)
        b += max(-x, 0)
        if a >= target or b >= target:
            played += 1
            won += a > b
            a = b = 0
    return won, played


def independent_matches(net, target):
    """The chance that gin-rules wins a match to `target` whose hands are dealt independently,
    each scoring like one of `net` drawn at random: exact, over the points each side has. A hand
    that scores nothing leaves the score as it is, so it is left out."""
    counts = Counter(round(x) for x in net if round(x) != 0)
    total = sum(counts.values())
    if not total:
        return float("nan")
    steps = [(x, c / total) for x, c in counts.items()]
    win = [[0.0] * target for _ in range(target)]  # win[a][b]: gin-rules has a, OpenSpiel b
    for a in reversed(range(target)):
        row = win[a]
        for b in reversed(range(target)):
            p = 0.0
            for x, q in steps:
                if x > 0:
                    p += q if a + x >= target else q * win[a + x][b]
                elif b - x < target:
                    p += q * row[b - x]
            row[b] = p
    return win[0][0]


def independent_interval(results, scoring, target, rounds=100, seed=0):
    """A 95 % bootstrap interval of `independent_matches`, the decks drawn again with
    replacement (both seatings of a deck together)."""
    by_deck = {}
    for r in results:
        by_deck.setdefault(r["deck"], []).append(r[scoring])
    decks = list(by_deck.values())
    rng = random.Random(seed)
    draws = sorted(
        independent_matches([x for _ in decks for x in rng.choice(decks)], target)
        for _ in range(rounds)
    )
    return draws[int(0.025 * rounds)], draws[min(rounds - 1, int(0.975 * rounds))]


def wilson(k, n, z=1.96):
    if n == 0:
        return float("nan"), float("nan")
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def report(args, results, broken, mismatched, seconds):
    hands = len(results)
    played = hands + len(broken)
    print(
        f"\ngin-rules `{args.level}` against OpenSpiel's SimpleGinRummyBot, {played} hands, seed {args.seed}\n"
    )
    print("| figure | value |\n|---|---|")
    print(f"| hands played to the end in both engines | {hands} of {played} |")
    print(f"| disagreements: a hand one engine could not go on with | {len(broken)} |")
    print(f"| disagreements: points differ at the end | {len(mismatched)} |")
    for kind in sorted(set(broken + mismatched)):
        print(f"| - {kind} | {(broken + mismatched).count(kind)} |")
    if not hands:
        return
    wins = {w: sum(1 for r in results if r["winner"] == w) for w in ("gin-rules", "OpenSpiel", None)}
    lo, hi = wilson(wins["gin-rules"], hands)
    print(
        f"| hands won: gin-rules / OpenSpiel / dead | {wins['gin-rules']} / {wins['OpenSpiel']} / {wins[None]} "
        f"(gin-rules {wins['gin-rules'] / hands:.1%}, 95 % [{lo:.1%}, {hi:.1%}]) |"
    )
    for scoring in ("gr", "os"):
        net = [r[scoring] for r in results]
        m, se = mean_se(net)
        won, n = matches(net, args.target)
        lo, hi = wilson(won, n)
        name = "gin-rules' scoring" if scoring == "gr" else "OpenSpiel's returns"
        print(f"| points a hand, gin-rules bot, {name} | {m:+.2f} ± {se:.2f} (s.e.) |")
        if n:
            print(
                f"| matches to {args.target} won by gin-rules, {name} | {won} of {n}: "
                f"{won / n:.1%} (95 % [{lo:.1%}, {hi:.1%}]) |"
            )
        p = independent_matches(net, args.target)
        lo, hi = independent_interval(results, scoring, args.target)
        print(
            f"| matches to {args.target} won by gin-rules as independent deals, {name} | "
            f"{p:.1%} (95 % bootstrap over decks [{lo:.1%}, {hi:.1%}]) |"
        )
    # Where the points come from: each outcome's hands and the gin-rules bot's points in them
    # (gin-rules' scoring), in total and as a share of a hand over all hands.
    outcomes = {}
    for r in results:
        key = r["outcome"] if r["winner"] is None else f"{r['winner']} {r['outcome']}"
        count, points = outcomes.get(key, (0, 0))
        outcomes[key] = (count + 1, points + r["gr"])
    for key, (count, points) in sorted(outcomes.items()):
        print(f"| outcome: {key} | {count} hands, {points:+d} points ({points / hands:+.2f} a hand) |")
    if seconds is not None:
        print(f"| wall time | {seconds:.0f} s ({seconds / played:.2f} s a hand) |")


if __name__ == "__main__":
    main()
