"""The /play page in a real browser: Debian's chromium, headless, driven by Playwright.

    python play_page.py PLAIN_URL KEYED_URL OUT_DIR

PLAIN_URL is a server as `cargo run --release` starts it (plain states); KEYED_URL one with a
secret, --seat-keys and a replay guard. Every game is played through the page's own controls
(clicks and keys), never through the API; screenshots of each case go to OUT_DIR. The browser is
the one at $CHROMIUM (default /usr/bin/chromium): Playwright never downloads one here.
"""

import os
import sys
import time
import traceback

from playwright.sync_api import sync_playwright

PLAIN, KEYED, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
LEVEL = os.environ.get("PLAY_LEVEL", "basic")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)


def open_page(browser, url, width=1000, height=900):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    # Only the server itself is ever asked for anything.
    page.outside = []
    page.on("request", lambda r: None if r.url.startswith(url) or r.url.startswith("data:")
            else page.outside.append(r.url))
    page.goto(f"{url}/play")
    page.wait_for_selector("body[data-ready='1']")
    return page


def settle(page):
    # A selector, not a script: the page's Content-Security-Policy forbids eval, which
    # wait_for_function would need.
    page.wait_for_selector("body:not([data-busy='1'])", state="attached")


def problem(page):
    box = page.locator("#problem")
    return box.inner_text() if box.is_visible() else ""


def deal(page, ruleset, target=None, options=(), level=LEVEL):
    page.select_option("#ruleset", ruleset)
    for o in options:
        page.check(f"#options input[value='{o}']")
    if target is not None:
        page.select_option("#target", f"{target}" if isinstance(target, int) else f'"{target}"')
    page.select_option("#level", level)
    page.click("#deal")
    settle(page)
    check(not problem(page), f"the deal was refused: {problem(page)}")
    check(page.locator("#table").is_visible(), "no table after the deal")


def legal(page, sel):
    loc = page.locator(sel)
    return loc.is_visible() and "legal" in (loc.get_attribute("class") or "")


def click(page, sel):
    page.click(sel)
    settle(page)
    p = problem(page)
    check(not p, f"{sel} was refused: {p}")


def play_turn(page):
    """One action of this seat through the page's buttons; False once the match is over."""
    if page.get_attribute("body", "data-status") == "match_over":
        return False
    if legal(page, "#next-hand"):
        click(page, "#next-hand")
    elif legal(page, "#pass"):
        click(page, "#pass")
    elif legal(page, "#draw-stock"):
        click(page, "#stock")  # the stock itself is a button too
    elif page.get_attribute("body", "data-phase") == "discard":
        # The page selects a best discard; go out when the server allows it.
        for sel in ("#gin", "#knock-btn", "#discard"):
            if legal(page, sel):
                click(page, sel)
                break
        else:
            raise Failed("no legal discard offered in the discard phase")
    elif page.locator("#layoffs button").count():
        buttons = page.locator("#layoffs button")
        best = max(range(buttons.count()),
                   key=lambda i: len((buttons.nth(i).get_attribute("data-cards") or "").split()))
        buttons.nth(best).click()
        settle(page)
        check(not problem(page), f"lay-off refused: {problem(page)}")
    else:
        raise Failed(f"nothing to do: {page.inner_text('#turn')}")
    return True


def play_match(page, limit=4000):
    hands = 0
    for _ in range(limit):
        if page.locator("#result").is_visible() and legal(page, "#next-hand"):
            hands += 1
        if not play_turn(page):
            return hands + 1
    raise Failed(f"no end after {limit} actions")


def card_text(card):
    return ("10" if card[0] == "T" else card[0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[1]]


def shot(page, name):
    page.screenshot(path=os.path.join(OUT, f"{name}.png"), full_page=True)


def no_errors(page):
    check(not page.errors, f"script errors: {page.errors}")
    check(not page.outside, f"requests outside the server: {page.outside}")


# ---- the cases --------------------------------------------------------------------------------

def straight_gin_one_hand(browser):
    page = open_page(browser, PLAIN)
    deal(page, "straight-gin", target="single_hand")
    check("gin only" in page.inner_text("#facts"), "the knock limit in force is not shown")
    shot(page, "straight-gin-deal")
    hands = play_match(page)
    check(page.locator("#turn").inner_text() == "The match is over.", "not over")
    events = page.locator("#events li[data-type='match_over']")
    check(events.count() == 1 or page.locator("#events li[data-type='hand_over']").count() == 1,
          "the last move does not show how the hand ended")
    shot(page, "straight-gin-over")
    no_errors(page)
    return f"{hands} hand, {page.inner_text('#events li:last-child')}"


def standard_match_to_100(browser):
    page = open_page(browser, KEYED)
    deal(page, "standard", target=100)
    check("seat key" in page.inner_text("#game-id"), "the page holds no seat key")
    # Play to the first discard with a grouped hand: the README's picture.
    while page.get_attribute("body", "data-phase") != "discard":
        play_turn(page)
    check(page.locator("#hand .group[data-group='meld']").count() >= 0, "no groups")
    check(page.locator("#hand button").count() == 11, "11 cards after drawing")
    shot(page, "standard-in-play")
    hands = play_match(page)
    totals = [int(t) for t in page.locator("#score-table tr td:nth-child(2)").all_inner_texts()]
    check(max(totals) >= 100, f"a match to 100 over at {totals}")
    shot(page, "standard-match-over")
    no_errors(page)
    return f"{hands} hands, totals {totals}"


def three_players(browser):
    page = open_page(browser, PLAIN)
    deal(page, "three-player", target=100)
    opponents = page.locator("#opponents .opp").count()
    sitting_out = page.get_attribute("body", "data-phase") is not None and \
        "sit out" in page.inner_text("#hand-panel")
    check(opponents == 2, f"three players: {opponents} others shown")
    check("sits out" in page.inner_text("#opponents") or sitting_out, "nobody sits out")
    check(page.locator("#score-table tr").count() == 4, "three rows of scores")
    shot(page, "three-player-deal")
    for _ in range(3):
        play_turn(page)
    no_errors(page)
    return f"{opponents} opponents at your table, {'sitting out' if sitting_out else 'dealt in'}"


def four_players(browser):
    page = open_page(browser, PLAIN)
    deal(page, "four-player", target=125)
    check(page.locator("#tables").is_visible(), "both tables are not shown")
    check(page.locator("#tables p").count() == 2, "two tables")
    check(page.locator("#opponents .opp").count() == 3, "three others")
    check("your partner" in page.inner_text("#opponents"), "no partner shown")
    rows = page.locator("#score-table tr td:first-child").all_inner_texts()
    check(len(rows) == 2 and "Your team" in rows[0], f"team rows: {rows}")
    check(page.locator("#hand button").count() >= 10, "your hand")
    shot(page, "four-player-deal")
    for _ in range(3):
        play_turn(page)
    no_errors(page)
    return f"teams {rows}"


def hollywood_oklahoma(browser):
    page = open_page(browser, PLAIN)
    deal(page, "standard", target=100, options=("hollywood", "oklahoma"))
    heads = page.locator("#score-table th").all_inner_texts()
    check(sum(h.startswith("game ") for h in heads) == 3, f"three Hollywood columns: {heads}")
    limit = page.get_attribute("#facts", "data-knock-limit")
    upcard = page.get_attribute("#events li[data-type='dealt']", "data-upcard") or ""
    # Oklahoma: the upcard's value is the limit (an ace: gin only).
    value = {"A": "none", "T": "10", "J": "10", "Q": "10", "K": "10"}.get(upcard[:1], upcard[:1])
    check(limit == value, f"knock limit {limit} with the upcard {upcard}")
    if upcard.endswith("S"):
        check("×2" in page.inner_text("#facts"), "a spade upcard doubles the scores: not shown")
    shot(page, "hollywood-oklahoma-deal")
    no_errors(page)
    return f"columns {heads[1:4]}, knock limit {limit} (upcard {upcard})"


def illegal_click(browser):
    page = open_page(browser, PLAIN)
    deal(page, "standard", target=100)
    check(page.get_attribute("body", "data-phase") in ("upcard_offer", "draw"), "start of a hand")
    move = page.inner_text("#game-id")
    page.locator("#hand button").first.click()
    page.click("#discard")  # before drawing: the server refuses
    settle(page)
    text = problem(page)
    reason = page.get_attribute("#problem", "data-reason")
    check(reason in ("decide-on-upcard", "must-draw-first", "not-your-turn"), f"reason {reason!r}")
    check(len(text) > len(reason) + 10, f"the refusal says why: {text!r}")
    check(page.inner_text("#game-id") == move, "a refused action changed the game")
    shot(page, "illegal-click")
    # The game goes on from the same state with a legal action.
    play_turn(page)
    check(not problem(page), "the refusal stays after a legal action")
    no_errors(page)
    return f"{reason}: {text.splitlines()[0]}"


def keyboard_and_phone(browser):
    page = open_page(browser, PLAIN, width=390, height=844)
    deal(page, "standard", target=100)
    width = page.evaluate("document.scrollingElement.scrollWidth")
    check(width <= 390, f"the page is {width} px wide on a 390 px screen")
    moves = page.inner_text("#game-id")
    page.locator("body").focus()
    page.keyboard.press("h")  # a hint: POST /v1/games/suggest for this seat
    settle(page)
    hint = page.inner_text("#hint-text") if page.locator("#hint-text").is_visible() else ""
    check(hint.startswith("Hint (basic): "), f"no hint: {hint!r} {problem(page)}")
    for _ in range(3):
        if not legal(page, "#pass"):
            break
        page.keyboard.press("x")
        settle(page)
    if legal(page, "#draw-stock"):
        page.keyboard.press("s")
        settle(page)
    check(page.get_attribute("body", "data-phase") == "discard", "drawn by keys")
    page.locator("#hand button").first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    chosen = page.locator("#hand button[aria-pressed='true']").get_attribute("data-card")
    page.keyboard.press("d")
    settle(page)
    check(not problem(page), f"discard by keys refused: {problem(page)}")
    check(page.inner_text("#game-id") != moves, "no move made by keys")
    said = page.locator("#events li[data-type='discarded']").all_inner_texts()
    check(f"You discarded {card_text(chosen)}." in said, f"no discard of {chosen} in {said}")
    shot(page, "phone")
    no_errors(page)
    return f"{hint}; discarded {chosen} by keys; page width {width} px"


CASES = [straight_gin_one_hand, standard_match_to_100, three_players, four_players,
         hollywood_oklahoma, illegal_click, keyboard_and_phone]


def main():
    os.makedirs(OUT, exist_ok=True)
    passed = failed = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        for case in CASES:
            start = time.monotonic()
            try:
                said = case(browser)
                passed += 1
                print(f"ok   {case.__name__} ({time.monotonic() - start:.1f} s): {said}")
            except Exception as e:  # noqa: BLE001 - every failure is reported, then counted
                failed += 1
                print(f"FAIL {case.__name__} ({time.monotonic() - start:.1f} s): {e}")
                if not isinstance(e, Failed):
                    traceback.print_exc()
        browser.close()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
