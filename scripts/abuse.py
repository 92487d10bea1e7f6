#!/usr/bin/env python3
"""Worst-case requests against a running gin-rules server while /healthz is probed.

Sends the costly and slow requests of issue 10 (each at most 256 KiB), IN_FLIGHT at a time, for
DURATION seconds, plus bodies that trickle in a byte a second; meanwhile a separate process asks
/healthz every 10 ms on a fresh connection. Prints each case's answers and times and the health
latencies, and exits 1 when /healthz ever took over the limit, an answer was a 5xx other than
503 server-busy, a case got an answer it should not, or the server stopped answering.

With --pid (the server's process id), first the cost cases of issue 23, one request at a time:
the server's CPU time per request (from /proc/PID/task/*/schedstat) for a three-player game whose
hands strong bots can never finish while the human sits out (the endless hand, then the stuck
game continued), and its resident memory (VmRSS) after 1 000 distinct maximal authored rulesets
sent to check and deal. Fails when a request cost more than 50 ms of CPU, an answer left no human
to act, or the memory passed 128 MiB.

Standard library only. Usage: abuse.py http://127.0.0.1:PORT [--duration 20] [--in-flight 8]
[--pid PID]
"""

import argparse
import http.client
import json
import multiprocessing
import os
import socket
import sys
import threading
import time
import urllib.parse

HEALTH_LIMIT_MS = 50.0
BODY_LIMIT = 256 * 1024
CPU_LIMIT_MS = 50.0
RSS_LIMIT_KB = 128 * 1024


class Server:
    def __init__(self, base):
        u = urllib.parse.urlsplit(base)
        self.host, self.port = u.hostname, u.port or 80

    def request(self, method, path, body=None, content_type="application/json", timeout=60):
        """(status, problem type or None, body bytes, seconds)."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        headers = {}
        if body is not None:
            headers["content-type"] = content_type
        start = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=headers)
            res = conn.getresponse()
            data = res.read()
            took = time.perf_counter() - start
            kind = None
            if res.getheader("content-type", "").startswith("application/problem+json"):
                try:
                    kind = json.loads(data).get("type")
                except ValueError:
                    kind = "unreadable-problem"
            return res.status, kind, data, took
        finally:
            conn.close()

    def post(self, path, value):
        status, kind, data, _ = self.request("POST", path, json.dumps(value).encode())
        if status >= 300:
            sys.exit(f"setup: POST {path} answered {status} {kind}: {data[:300]!r}")
        return json.loads(data)


# --- the cases -------------------------------------------------------------------------------

KNOCKER = "5S 6S 7S 9H 9D 9C JC QC KC AD".split()
DEFENDER = "2C 3D 4H 8S TD 4S 8H 3C 2H 4D".split()
ALL_CARDS = [r + s for s in "CDHS" for r in "A23456789TJQK"]


def lay_off_deal(server):
    """A standard deal of a fixed deck: seat 1 holds 5S6S7S 9H9D9C JCQCKC AD, the stock starts 2D."""
    deck = []
    for a, b in zip(KNOCKER, DEFENDER):
        deck += [a, b]
    deck += ["KD", "2D"]
    deck += [c for c in ALL_CARDS if c not in deck]
    return server.post("/v1/games", {"ruleset": "standard", "target": 100, "dealer": 0, "deck": deck})


def lay_off_state(server):
    """A real standard lay-off: seat 1 knocked with 5S6S7S 9H9D9C JCQCKC, seat 0 to lay off."""
    snap = lay_off_deal(server)
    for action in [
        {"seat": 1, "type": "pass"},
        {"seat": 0, "type": "pass"},
        {"seat": 1, "type": "draw", "from": "stock"},
        {"seat": 1, "type": "knock", "discard": "2D"},
    ]:
        snap = server.post("/v1/games/step", {"state": snap["state"], "action": action})
    state = snap["state"]
    if state["tables"][0]["phase"]["name"] != "lay_off":
        sys.exit(f"setup: not a lay-off: {state['tables'][0]['phase']}")
    return state


def long_log(state):
    """`state` (the lay-off deal, before any action) with a log that plays legally for as many
    actions as a request holds, but whose tables are still those of the deal: the check plays the
    whole log again before it finds the difference. Seat 1 draws 2D from the stock and discards
    it; from then on each player takes the discard and throws back the card they took on their
    turn before (2D, 2C, AD round and round), a hand that never ends."""
    actions = ["1 pass", "0 pass", "1 stock", "1 discard 2D", "0 pile", "0 discard 2C", "1 pile", "1 discard AD"]
    cycle = ["2D", "2C", "AD"]
    bad = json.loads(json.dumps(state))
    turn, size = 0, len(json.dumps(bad)) + 200
    while size < BODY_LIMIT - 100:
        seat = turn % 2
        for a in (f"{seat} pile", f"{seat} discard {cycle[turn % 3]}"):
            actions.append(a)
            size += len(a) + 4
        turn += 1
    bad["log"]["actions"] = actions
    return bad


def yaml_ruleset(rid, extra=""):
    return f"id: {rid}\nname: {rid}\nsummary: An abusive ruleset.\nextends: standard\n{extra}"


def quoted_ruleset(rid, size):
    """An authored ruleset of about `size` bytes of JSON within the 64 KiB limits of its YAML and
    scripts: comments of `"`, which JSON doubles, in the YAML and then in a script."""
    quotes = size // 2
    in_yaml = min(quotes, 63_000)
    scripts = {}
    if quotes > in_yaml:
        scripts["pad.rhai"] = "// " + '"' * (quotes - in_yaml) + "\n"
    return {"yaml": yaml_ruleset(rid) + "# " + '"' * in_yaml + "\n", "scripts": scripts}


HOOKS = ["knock_limit", "score_multiplier", "match_layout", "seating", "record_result", "next_dealer"]


def hooks_yaml(script):
    lines = ["hooks:"]
    for h in HOOKS:
        lines += [f"  {h}:", f"    script: {script}", "    rule: abusive"]
    return "\n".join(lines) + "\n"


def every_hook(body):
    """A script whose six hooks all run `body` first."""
    return "".join(f"fn {h}(ctx) {{\n{body}\n    ctx[\"default\"]\n}}\n" for h in HOOKS)


COSTLY_LOOP = """    let s = "a";
    s.pad(4000, "ab");
    let a = [];
    a.pad(1000, 7);
    loop {
        let t = s;
        t.replace("a", "b");
        a.reverse();
    }"""

PRINT_FLOOD = """    let s = "x";
    s.pad(8000, "y");
    loop { print(s); debug(s); }"""

STRING_GROWTH = """    let a = "a";
    a.pad(8000, "a");
    let t = "b";
    t.pad(8000, "b");
    loop { let c = a; c.replace("a", t); }"""


def cases(server):
    """name -> (method, path, body bytes or None, content type, allowed statuses)."""
    layoff = lay_off_state(server)
    knock = layoff["tables"][0]["phase"]["knock"]
    melds = knock["melds"]
    blown = json.loads(json.dumps(layoff))
    blown["tables"][0]["phase"]["knock"]["melds"] = melds * 80
    out = {}

    def add(name, method, path, value, allowed, content_type="application/json"):
        body = None if value is None else (value if isinstance(value, bytes) else json.dumps(value).encode())
        if body is not None and len(body) > BODY_LIMIT:
            sys.exit(f"case {name}: body of {len(body)} bytes is over the limit")
        out[name] = (method, path, body, content_type, allowed)

    add("layoff-melds-x80-view", "POST", "/v1/games/view", {"state": blown, "seat": 0}, {422})
    add(
        "layoff-melds-x80-step",
        "POST",
        "/v1/games/step",
        {"state": blown, "action": {"seat": 0, "type": "lay_off", "cards": [{"card": "KS", "onto": 0}]}},
        {422},
    )
    long = long_log(lay_off_deal(server)["state"])
    add("log-20k-actions-view", "POST", "/v1/games/view", {"state": long, "seat": 0}, {422})
    add(
        "log-20k-actions-step",
        "POST",
        "/v1/games/step",
        {"state": long, "action": {"seat": 1, "type": "pass"}},
        {422},
    )
    opts = "options:\n" + "".join(f"  o{i}: {{}}\n" for i in range(4000))
    add("options-4000-check", "POST", "/v1/rulesets/check", {"yaml": yaml_ruleset("many-options", opts)}, {200, 422})
    opts = "options:\n" + "".join(f"  o{i}: {{}}\n" for i in range(1000))
    add("options-1000-deal", "POST", "/v1/games", {"ruleset": {"yaml": yaml_ruleset("many-options-deal", opts)}, "seed": 1}, {201, 422})
    # One 200 KB script name (a YAML anchor) used by the six hooks and by ten options.
    name = "s" * 200_000 + ".rhai"
    hooks = hooks_yaml("*name").replace("script: *name", f"script: &name {name}", 1)
    opts = "options:\n" + "".join(
        f"  o{i}:\n    name: O{i}\n    summary: x\n    hooks:\n      knock_limit:\n        script: *name\n        rule: x\n"
        for i in range(10)
    )
    add("script-name-200k-check", "POST", "/v1/rulesets/check", {"yaml": yaml_ruleset("long-name", hooks + opts)}, {422})
    for case, body in [("hook-loops", COSTLY_LOOP), ("print-flood", PRINT_FLOOD), ("string-growth", STRING_GROWTH)]:
        rs = {"yaml": yaml_ruleset(case, hooks_yaml("abuse.rhai")), "scripts": {"abuse.rhai": every_hook(body)}}
        add(f"{case}-deal", "POST", "/v1/games", {"ruleset": rs, "seed": 1}, {422})
        add(f"{case}-check", "POST", "/v1/rulesets/check", rs, {200, 422})
    add("ruleset-190k-deal", "POST", "/v1/games", {"ruleset": quoted_ruleset("big", 190_000), "seed": 1}, {201})
    add("ruleset-254k-deal", "POST", "/v1/games", {"ruleset": quoted_ruleset("huge", 254_000), "seed": 1}, {422})
    add("text-plain-body", "POST", "/v1/games", b'{"seed": 1}', {415}, content_type="text/plain")
    add("form-body", "POST", "/v1/games", b"seed=1", {415}, content_type="application/x-www-form-urlencoded")
    add("get-rulesets-check", "GET", "/v1/rulesets/check", None, {405})
    add("ordinary-deal", "POST", "/v1/games", {"ruleset": "standard", "seed": 7}, {201})
    return out


# --- cost cases (issue 23): CPU per request and memory, one request at a time ------------------


def cpu_ns(pid):
    """CPU time of every thread of the process so far, in nanoseconds."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def endless_yaml(rid):
    """Three players; no knocking, no big gin, sets of exactly three, runs of thirteen, the stock
    reshuffled: hands no bot ever finishes."""
    return (
        f"id: {rid}\nname: Endless\nsummary: Hands nobody finishes.\nextends: three-player\n"
        "knocking:\n  allowed: false\nscoring:\n  big_gin: false\n"
        "melds:\n  set_min: 3\n  set_max: 3\n  run_min: 13\nstock:\n  end: reshuffle\n"
    )


def maximal_ruleset(i):
    """An authored ruleset at the limits, distinct for each `i`: 64 KiB of script of nested calls
    (what compiles to the most memory found, about 67 times its text; in a helper the hook does
    not call, so that dealing costs the compile alone) and a YAML file of 64 options."""
    head = f"fn knock_limit(ctx) {{ 10 }}\nprivate fn unused(n) {{\n    let m = {i};\n"
    line = "    f(f(f(f(f(f(f(f(n))))))));\n"
    tail = "    m\n}\nprivate fn f(x) { x }\n"
    room = 64 * 1024 - len("k.rhai") - len(head) - len(tail) - 1
    script = head + line * (room // len(line)) + tail
    # 63 options of its own, and the inherited `oklahoma` let replace the hook it binds: 64 in all.
    options = "  oklahoma:\n    replaces: [knock_limit]\n" + "".join(f"  o{j}:\n    name: Option {j} of {i}\n    summary: x\n    knocking:\n      knock_limit: {j % 11}\n" for j in range(63))
    yaml = (
        f"id: max-{i}\nname: Maximal {i}\nsummary: An authored ruleset at the limits.\nextends: standard\n"
        "hooks:\n  knock_limit:\n    script: k.rhai\n    rule: ten\noptions:\n" + options
    )
    return {"yaml": yaml, "scripts": {"k.rhai": script}}


def cost_cases(server, pid, count):
    """Runs the cost cases; their failures."""
    failed = []

    def timed(method, path, value):
        body = json.dumps(value).encode()
        before = cpu_ns(pid)
        status, kind, data, took = server.request(method, path, body)
        return status, kind, data, (cpu_ns(pid) - before) / 1e6, took * 1000

    print("== cost cases: one request at a time, the server's CPU time per request")
    ruleset = {"yaml": endless_yaml("endless")}
    server.request("POST", "/v1/rulesets/check", json.dumps(ruleset).encode())
    cpus = []
    snap = None
    for seed in range(1, 6):
        deal = {"ruleset": ruleset, "seed": seed, "dealer": 0, "target": 100, "bots": {"1": "strong", "2": "strong"}}
        status, kind, data, cpu, wall = timed("POST", "/v1/games", deal)
        if status != 201:
            failed.append(f"endless-hand deal: {status} {kind}: {data[:200]!r}")
            continue
        snap = json.loads(data)
        cpus.append(cpu)
        dead = sum(1 for e in snap["events"] if e.get("type") == "hand_over" and e.get("outcome") == "dead")
        if 0 not in snap["to_act"] and snap["status"] != "match_over":
            failed.append(f"endless-hand deal (seed {seed}): no human to act: {snap['to_act']}")
        if dead != 1:
            failed.append(f"endless-hand deal (seed {seed}): {dead} dead hands, expected 1")
    if cpus:
        print(f"{'endless hand, deal':<26} {len(cpus)} deals, CPU per request median {sorted(cpus)[len(cpus) // 2]:.1f} ms, max {max(cpus):.1f} ms")
    steps = []
    for _ in range(5):
        if snap is None:
            break
        status, kind, data, cpu, wall = timed("POST", "/v1/games/step", {"state": snap["state"], "action": {"seat": 0, "type": "next_hand"}})
        if status != 200:
            failed.append(f"stuck game, next hand: {status} {kind}: {data[:200]!r}")
            break
        snap = json.loads(data)
        steps.append(cpu)
        if 0 not in snap["to_act"] and snap["status"] != "match_over":
            failed.append(f"stuck game: no human to act after a next hand: {snap['to_act']}")
    if steps:
        print(f"{'stuck game, next hand':<26} {len(steps)} steps, CPU per request median {sorted(steps)[len(steps) // 2]:.1f} ms, max {max(steps):.1f} ms")
    for name, values in [("endless-hand deal", cpus), ("stuck-game step", steps)]:
        if values and max(values) > CPU_LIMIT_MS:
            failed.append(f"{name}: a request took {max(values):.1f} ms of CPU (limit {CPU_LIMIT_MS:.0f} ms)")

    start_rss = rss_kb(pid)
    peak = start_rss
    t0 = time.perf_counter()
    first_use = []
    for i in range(count):
        rs = maximal_ruleset(i)
        if i % 2 == 0:
            status, kind, data, cpu, _ = timed("POST", "/v1/rulesets/check", rs)
            ok = status == 200
        else:
            status, kind, data, cpu, _ = timed("POST", "/v1/games", {"ruleset": rs, "seed": i})
            ok = status == 201
        first_use.append(cpu)
        if not ok:
            failed.append(f"maximal ruleset {i}: {status} {kind}: {data[:200]!r}")
            break
        if i % 50 == 49:
            peak = max(peak, rss_kb(pid))
    end_rss = rss_kb(pid)
    peak = max(peak, end_rss)
    took = time.perf_counter() - t0
    print(f"{'maximal rulesets':<26} {count} distinct (check, deal) in {took:.1f} s: RSS {start_rss / 1024:.1f} MiB before, peak {peak / 1024:.1f} MiB, {end_rss / 1024:.1f} MiB after")
    first_use.sort()
    if first_use:
        print(f"{'maximal ruleset, first use':<26} CPU per request median {first_use[len(first_use) // 2]:.1f} ms, max {first_use[-1]:.1f} ms (compiling it: not bounded by the budget)")
    if peak > RSS_LIMIT_KB:
        failed.append(f"maximal rulesets: RSS reached {peak / 1024:.1f} MiB (limit {RSS_LIMIT_KB // 1024} MiB)")
    return failed


# --- health probe (a process of its own: the load's threads must not delay it) ----------------


def probe(host, port, stop, results):
    # The instrument runs before the load (as root; else as it can), so that what it measures is
    # the server's delay, not its own on a busy machine.
    try:
        os.nice(-5)
    except OSError:
        pass
    lat = []
    failures = 0
    while not stop.is_set():
        start = time.perf_counter()
        try:
            conn = http.client.HTTPConnection(host, port, timeout=5)
            conn.request("GET", "/healthz")
            res = conn.getresponse()
            res.read()
            conn.close()
            if res.status != 200:
                failures += 1
        except OSError:
            failures += 1
        lat.append((time.perf_counter() - start) * 1000)
        time.sleep(0.01)
    results.put((lat, failures))


# --- trickling bodies -------------------------------------------------------------------------


def trickle(host, port, out):
    """Sends headers, then one byte a second of a 100-byte body; how the server ends it."""
    start = time.perf_counter()
    s = socket.create_connection((host, port), timeout=60)
    s.sendall(
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    )
    answer = b""
    s.settimeout(1.0)
    sent = 0
    while time.perf_counter() - start < 60:
        try:
            chunk = s.recv(4096)
            if not chunk:
                break
            answer += chunk
            if b"\r\n\r\n" in answer:
                break
        except socket.timeout:
            try:
                s.sendall(b" ")
                sent += 1
            except OSError:
                break
        except OSError:
            break
    took = time.perf_counter() - start
    s.close()
    status = answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/") else "closed"
    out.append((status, took, sent))


# --- main -----------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--in-flight", type=int, default=8)
    ap.add_argument("--trickles", type=int, default=2)
    ap.add_argument("--body-timeout", type=float, default=10.0)
    ap.add_argument("--pid", type=int, help="the server's process id: run the cost cases first")
    ap.add_argument("--rulesets", type=int, default=1000, help="distinct maximal rulesets of the memory case")
    args = ap.parse_args()
    server = Server(args.base)
    cost_failed = cost_cases(server, args.pid, args.rulesets) if args.pid else []
    table = cases(server)
    names = list(table)

    stop = multiprocessing.Event()
    results = multiprocessing.Queue()
    prober = multiprocessing.Process(target=probe, args=(server.host, server.port, stop, results))
    prober.start()
    os.nice(5)
    time.sleep(0.5)

    stats = {n: {"statuses": {}, "times": []} for n in names}
    lock = threading.Lock()
    deadline = time.perf_counter() + args.duration
    errors = []

    def worker(k):
        i = k
        while time.perf_counter() < deadline:
            name = names[i % len(names)]
            i += 1
            method, path, body, ctype, _ = table[name]
            try:
                status, kind, _, took = server.request(method, path, body, ctype)
                key = f"{status} {kind}" if kind else str(status)
            except OSError as e:
                took, key = 0.0, f"no answer ({e.__class__.__name__})"
                with lock:
                    errors.append(f"{name}: {e}")
            with lock:
                st = stats[name]
                st["statuses"][key] = st["statuses"].get(key, 0) + 1
                st["times"].append(took)

    trickled = []
    threads = [threading.Thread(target=trickle, args=(server.host, server.port, trickled)) for _ in range(args.trickles)]
    threads += [threading.Thread(target=worker, args=(k,)) for k in range(args.in_flight)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(0.3)
    stop.set()
    lat, health_failures = results.get(timeout=30)
    prober.join()

    failed = []
    print(f"{'case':<26} {'answers':<44} {'median':>8} {'max':>8}")
    for name in names:
        st = stats[name]
        times = sorted(st["times"])
        if not times:
            continue
        med = times[len(times) // 2] * 1000
        mx = times[-1] * 1000
        answers = ", ".join(f"{k} x{v}" for k, v in sorted(st["statuses"].items()))
        print(f"{name:<26} {answers:<44} {med:>6.0f}ms {mx:>6.0f}ms")
        allowed = table[name][4]
        for key in st["statuses"]:
            code = key.split(" ")[0]
            if not code.isdigit():
                failed.append(f"{name}: {key}")
            elif int(code) == 503 and key.endswith("server-busy"):
                continue
            elif int(code) >= 500 or int(code) not in allowed:
                failed.append(f"{name}: answered {key}, expected {sorted(allowed)}")
    for status, took, sent in trickled:
        print(f"{'trickled body (1 byte/s)':<26} {status:<44} {took * 1000:>6.0f}ms ({sent} bytes sent)")
        if status not in ("408", "closed") or took > args.body_timeout + 3:
            failed.append(f"trickled body: {status} after {took:.1f} s")

    lat.sort()
    n = len(lat)
    if n == 0:
        failed.append("no health probe answered")
    else:
        p50, p99, mx = lat[n // 2], lat[min(n - 1, int(n * 0.99))], lat[-1]
        print(f"/healthz during the abuse: {n} probes, p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {mx:.1f} ms, {health_failures} failed")
        if mx > HEALTH_LIMIT_MS:
            failed.append(f"/healthz took {mx:.1f} ms (limit {HEALTH_LIMIT_MS:.0f} ms)")
        if health_failures:
            failed.append(f"/healthz failed {health_failures} times")
    for e in errors[:5]:
        failed.append(e)
    failed += cost_failed
    try:
        status, _, _, _ = server.request("GET", "/healthz", timeout=5)
        if status != 200:
            failed.append(f"/healthz answers {status} after the abuse")
    except OSError as e:
        failed.append(f"the server does not answer after the abuse: {e}")
    if failed:
        print("FAILED:\n  " + "\n  ".join(failed))
        sys.exit(1)
    print("ok: /healthz stayed under 50 ms, no server error")


if __name__ == "__main__":
    main()
