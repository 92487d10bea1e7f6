"""A whole match, every seat, against a gin-rules server; standard library only.
Usage: python3 examples/play.py [BASE_URL] [RULESET] [TARGET]   (localhost:8080 standard 100)"""
import json, sys, urllib.error, urllib.request

BASE, RULESET, TARGET = (sys.argv[1:] + ["http://localhost:8080", "standard", "100"][len(sys.argv) - 1:])[:3]

def call(path, body):
    req = urllib.request.Request(BASE + path, json.dumps(body).encode(), {"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as refused:  # application/problem+json: type, detail, ...
        sys.exit(f"{path}: {refused.code} {json.load(refused)}")

def choose(snap):
    acts = snap["legal_actions"]
    of = lambda kind: [a for a in acts if a["type"] == kind]
    if of("gin") or of("knock") or of("next_hand"):
        return (of("gin") or of("knock") or of("next_hand"))[0]
    if of("lay_off"):
        return max(of("lay_off"), key=lambda a: len(a["cards"]))
    if of("discard"):  # the discard that leaves the least deadwood, as /v1/hands/analyze says
        hand = next(v["hand"] for v in snap["views"] if v["seat"] == acts[0]["seat"])
        best = call("/v1/hands/analyze", {"cards": hand, "ruleset": RULESET})["best_discards"]
        return next((a for a in of("discard") if a["card"] in best), of("discard")[0])
    return next((a for a in acts if a.get("from") == "stock"), (of("pass") or acts)[0])

snap = call("/v1/games", {"ruleset": RULESET, "target": TARGET if TARGET == "single_hand" else int(TARGET), "seed": 42})
while snap["status"] != "match_over":
    snap = call("/v1/games/step", {"state": snap["state"], "action": choose(snap)})
    for event in (e for e in snap["events"] if e["type"] in ("hand_over", "match_over")):
        print(event["type"], event.get("outcome", ""), "winners:", event.get("winners", event.get("winner")))
print("final scores:", snap["scores"]["totals"])
