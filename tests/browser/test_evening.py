"""An evening at the table at 390×844: whole games in Spanish and in German through the screens, with a second
phone on the view link the whole time; the taps a hand takes; ending early, undo and redo; the screen kept
awake; sharing a link; and the setup screen following the family."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from referee.families import FAMILIES, resolve
from tests.browser.browserkit import PHONE, block, fits_phone, save, shot, tap
from tests.kit import said

pytestmark = pytest.mark.browser

POINTS = {"A": 15, "K": 10, "Q": 10, "J": 10, "10": 10, "JK": 15, **{str(n): 5 for n in range(2, 10)}}
# hand -> (seat who goes out, {seat: ranks tapped})
PLAN = {
    1: (0, {1: ["A", "K"], 2: ["7"], 3: ["JK", "2", "3"]}),
    2: (1, {0: ["Q"], 2: ["A", "A"], 3: ["9"]}),
    3: (2, {0: ["5"], 1: ["10", "J"], 3: ["K", "K"]}),
    4: (3, {0: ["2"], 1: ["3"], 2: ["4", "JK"]}),
    5: (0, {1: ["8"], 2: ["9"], 3: ["A"]}),
    6: (1, {0: ["6"], 2: ["7"], 3: ["8", "9"]}),
    7: (0, {1: ["K"], 2: ["Q"], 3: ["J"]}),
}
LANGS = {
    "es": {"names": ["Lucía", "Mateo", "Sofía", "Martín"], "renamed": "Mateo José", "locale": "es-ES"},
    "de": {"names": ["Jürgen", "Anna", "Lukas", "Greta"], "renamed": "Anna-Lena", "locale": "de-DE"},
}


def seen_down(word: str) -> re.Pattern[str]:
    """The gone-down label as a reader sees it: the soft hyphens that let a narrow header break are not seen."""
    return re.compile("✓\\s*" + "\u00ad?".join(map(re.escape, word.replace("\u00ad", ""))))

def totals_after(n: int) -> dict[int, int]:
    t = {seat: 0 for seat in range(4)}
    for h in range(1, n + 1):
        for seat, ranks in PLAN[h][1].items():
            t[seat] += sum(POINTS[r] for r in ranks)
    return t


def totals_on(page) -> list[int]:
    return [int(page.locator("#board table.scores tbody tr").nth(i).locator("td.total").inner_text())
            for i in range(4)]


@pytest.mark.parametrize("lang", ["es", "de"])
def test_a_whole_game_in_the_readers_language(browser, live_server, lang):
    words = LANGS[lang]
    names = list(words["names"])
    host = browser.new_context(viewport=PHONE, locale=words["locale"])
    page = host.new_page()
    page.goto(f"{live_server}/?lang={lang}")
    page.click("form.start button.primary")
    for i, name in enumerate(names):
        page.locator("input[name=name]").nth(i).fill(name)
    page.click("button[value=start]")
    expect(page.locator("#board")).to_have_attribute("data-hand", re.compile(r"^1-"))
    assert fits_phone(page)
    shot(page, f"evening-{lang}-01-hand1")

    page.click("a[href$='/share']")
    view_url = page.locator("textarea.link-text").first.input_value()
    page.go_back()
    viewer = browser.new_context(viewport=PHONE, locale=words["locale"])
    vpage = viewer.new_page()
    vpage.goto(view_url)  # the viewer reads in its phone's language, and stays open all game
    expect(vpage.locator("#board")).to_have_attribute("data-hand", re.compile(r"^1-"))

    for n in range(1, 8):
        out, leftovers = PLAN[n]
        if n == 2:  # a buy, and someone goes down: the button says so, in both states
            row = page.locator("#board tbody tr").nth(3)
            expect(row.locator("button.down-toggle .state")).to_have_text(said("Not down", lang))
            page.locator("#board tbody tr").nth(2).locator("td.buys button").first.click()
            expect(page.locator("#board tbody tr").nth(2).locator(".count")).to_have_text(re.compile(r"^1/"))
            page.locator("#board tbody tr").nth(3).locator("button.down-toggle").click()
            expect(page.locator("#board tbody tr").nth(3).locator("button.down-toggle .state")).to_have_text(
                seen_down(said("Down", lang)))
            expect(vpage.locator("#board tbody tr").nth(3).locator(".down-state")).to_have_text(
                seen_down(said("Down", lang)), timeout=15000)
            shot(page, f"evening-{lang}-02-buy-and-down")
            shot(vpage, f"evening-{lang}-03-viewer-down")
        if n == 4:  # a name corrected during the game
            page.click("a[href$='/players']")
            page.fill("#name-1", words["renamed"])
            page.locator("form.rename").nth(1).locator("button").click()
            expect(page.locator(".flash")).to_contain_text(words["renamed"])  # (waits for the page the form opens)
            shot(page, f"evening-{lang}-04-players")
            page.click("a.back")
            names[1] = words["renamed"]
            expect(vpage.locator("#board")).to_contain_text(words["renamed"], timeout=15000)
        page.get_by_label(names[out], exact=True).check()
        went_out = block(page, out)
        assert went_out.bounding_box()["height"] < 90  # folded to its legend (a pad is four times that)
        for seat, ranks in leftovers.items():
            tap(page, seat, *ranks)
            expect(block(page, seat).locator("output.penalty")).to_have_text(f"= {sum(POINTS[r] for r in ranks)}")
        if n == 1:
            page.locator("#record").scroll_into_view_if_needed()
            shot(page, f"evening-{lang}-05-record-hand1")
        save(page)
        if n < 7:
            expect(page.locator("#board")).to_have_attribute("data-hand", re.compile(rf"^{n + 1}-"))
        else:
            expect(page.locator(".final .winner")).to_be_visible()
        if n == 1:
            scores = [sum(POINTS[r] for r in PLAN[1][1].get(seat, [])) for seat in range(4)]
            assert page.inner_text(".flash").strip() == said(
                "Hand %(hand)s saved: %(list)s", lang, hand=1,
                list=", ".join(f"{name} +{score}" for name, score in zip(names, scores)))
        assert totals_on(page) == list(totals_after(n).values())
        if n < 7:
            expect(vpage.locator("#board")).to_have_attribute("data-hand", re.compile(rf"^{n + 1}-"), timeout=15000)
        else:
            expect(vpage.locator(".final .winner")).to_be_visible(timeout=15000)
        assert totals_on(vpage) == list(totals_after(n).values()) if n < 7 else True
        if n == 3:
            shot(vpage, f"evening-{lang}-06-viewer-hand4")

    final = totals_after(7)
    for p in (page, vpage):
        expect(p.locator(".final .winner")).to_contain_text(said("%(name)s wins.", lang, name=names[0]))
        rows = p.locator("table.standings tbody tr")
        assert rows.count() == 4
        assert [rows.nth(i).locator("td.place").inner_text().strip() for i in range(4)] == ["1", "2", "3", "4"]
        assert p.locator("table.standings tbody").inner_text().count("★") == 1
        assert int(rows.nth(0).locator("td.total").inner_text()) == min(final.values())
        assert fits_phone(p)
    shot(page, f"evening-{lang}-07-final")
    shot(vpage, f"evening-{lang}-08-viewer-final")
    page.locator("#by-hand").scroll_into_view_if_needed()
    shot(page, f"evening-{lang}-09-by-hand")
    page.locator("#hand-3 a.correct-link").click()
    assert block(page, 2).get_attribute("class").split().count("went-out") == 1
    shot(page, f"evening-{lang}-10-correct")
    viewer.close()
    host.close()


def test_a_hand_takes_at_most_21_taps(browser, live_server):
    """Four players, 15 leftover cards: who went out (1 tap), every card (15), a tap on the name of each player
    whose cards are next (the pad starts on the first who has cards), save (1): within cards + players + 2."""
    ctx = browser.new_context(viewport=PHONE, locale="en-GB")
    page = ctx.new_page()
    page.goto(f"{live_server}/new?lang=en")
    for i, name in enumerate(["Ann", "Ben", "Cy", "Dee"]):
        page.locator("input[name=name]").nth(i).fill(name)
    page.click("button[value=start]")
    taps = 0

    def press(locator):
        nonlocal taps
        taps += 1
        locator.click()

    cards = {0: ["A", "K", "Q", "J", "10"], 2: ["9", "8", "7", "6", "5"], 3: ["4", "3", "2", "JK", "A"]}
    press(page.get_by_label("Ben", exact=True))  # Ben, in the second seat, went out
    went_out = block(page, 1).bounding_box()
    assert went_out["height"] < 90, went_out  # nothing to scroll past: his block is its legend alone
    for seat, ranks in cards.items():
        name = block(page, seat).locator(".seat-tab")
        if name.get_attribute("aria-pressed") != "true":
            press(name)
        for r in ranks:
            press(page.locator(f"#record .rank-pad button[data-rank='{r}']"))
    assert sum(len(r) for r in cards.values()) == 15
    shot(page, "evening-taps-before-save")
    with page.expect_navigation():
        press(page.locator("#record button.primary"))
    assert taps <= 15 + 4 + 2, taps
    expect(page.locator(".flash")).to_contain_text("Hand 1 saved")
    assert totals_on(page) == [55, 0, 25, 45]
    ctx.close()


def test_end_early_undo_and_redo(browser, live_server):
    ctx = browser.new_context(viewport=PHONE, locale="pt-BR")
    page = ctx.new_page()
    page.goto(f"{live_server}/new?lang=pt")
    page.click("button[value=start]")
    page.click("a[href$='/share']")
    view_url = page.locator("textarea.link-text").first.input_value()
    page.go_back()
    vctx = browser.new_context(viewport=PHONE, locale="pt-BR")
    vpage = vctx.new_page()
    vpage.goto(view_url)
    for _ in range(2):
        page.get_by_label(said("Player %(n)s", "pt", n=1), exact=True).check()
        for seat in (1, 2, 3):
            tap(page, seat, str(seat + 4))
        save(page)
    # undo the second hand: its cards come back in the form, and redo is offered
    page.click("form.undo button")
    expect(page.locator("#board")).to_have_attribute("data-hand", re.compile(r"^2-"))
    assert [page.locator(f"#cards_{s}").input_value() for s in (1, 2, 3)] == ["5", "6", "7"]
    expect(block(page, 1).locator(".chip")).to_have_count(1)
    expect(page.locator("form.redo button")).to_contain_text(
        said("Redo: %(what)s", "pt", what=said("Hand %(hand)s recorded", "pt", hand=2)))
    shot(page, "evening-pt-undone-hand-refilled")
    page.click("form.redo button")
    expect(page.locator("#board")).to_have_attribute("data-hand", re.compile(r"^3-"))
    # the table stops after hand 2
    page.locator("details.end-early summary").click()
    page.locator("details.end-early button").click()
    expect(page.locator(".final .ended-early")).to_have_text(said("Ended after hand %(n)s of %(total)s.", "pt", n=2, total=7))
    expect(vpage.locator(".final .ended-early")).to_be_visible(timeout=15000)
    shot(page, "evening-pt-ended-early")
    shot(vpage, "evening-pt-viewer-ended-early")
    page.click("form.undo button")
    expect(page.locator("#board")).to_have_attribute("data-hand", re.compile(r"^3-"))
    expect(vpage.locator("#board")).to_have_attribute("data-hand", re.compile(r"^3-"), timeout=15000)
    vctx.close()
    ctx.close()


WAKE_LOCK_STUB = """
window.__wake = {requests: 0, releases: 0};
const fake = {request: (kind) => {
  window.__wake.requests += 1;
  const sentinel = new EventTarget();
  sentinel.released = false;
  sentinel.release = () => { sentinel.released = true; window.__wake.releases += 1;
                             sentinel.dispatchEvent(new Event('release')); return Promise.resolve(); };
  return Promise.resolve(sentinel);
}};
Object.defineProperty(Navigator.prototype, 'wakeLock', {get: () => fake, configurable: true});
let hidden = false;
Object.defineProperty(Document.prototype, 'visibilityState', {get: () => hidden ? 'hidden' : 'visible',
                                                              configurable: true});
window.__setHidden = (h) => { hidden = h; document.dispatchEvent(new Event('visibilitychange')); };
"""


def test_screen_stays_awake_with_a_toggle(browser, live_server):
    ctx = browser.new_context(viewport=PHONE, locale="de-DE")
    ctx.add_init_script(WAKE_LOCK_STUB)
    page = ctx.new_page()
    page.goto(f"{live_server}/new?lang=de")
    page.click("button[value=start]")
    toggle = page.locator("#wake-toggle")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_text(said("Keep the screen on", "de"))
    expect(toggle).to_have_attribute("aria-pressed", "true")  # on by default
    shot(page, "evening-de-wake-lock-on")
    assert page.evaluate("window.__wake") == {"requests": 1, "releases": 0}
    page.evaluate("window.__setHidden(true)")  # the phone is put away: the lock is let go
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("window.__wake.releases") == 1
    page.evaluate("window.__setHidden(false)")  # and taken again when the page is back
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.__wake.requests") == 2
    toggle.click()  # turned off by hand: stays off, also after a reload
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.locator("#wake-toggle")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("window.__wake.requests") == 0
    page.locator("#wake-toggle").click()
    expect(page.locator("#wake-toggle")).to_have_attribute("aria-pressed", "true")
    ctx.close()

    plain = browser.new_context(viewport=PHONE, locale="de-DE")
    plain.add_init_script("Object.defineProperty(Navigator.prototype, 'wakeLock', {get: () => undefined});")
    page = plain.new_page()
    page.goto(f"{live_server}/new?lang=de")
    page.click("button[value=start]")
    expect(page.locator("#wake-toggle")).to_be_hidden()  # no API, no toggle that would do nothing
    plain.close()


SHARE_STUB = """
window.__shared = null;
Navigator.prototype.share = function (data) { window.__shared = data; return Promise.resolve(); };
"""


def test_share_copy_and_send(browser, live_server):
    ctx = browser.new_context(viewport=PHONE, locale="es-ES", permissions=["clipboard-read", "clipboard-write"])
    ctx.add_init_script(SHARE_STUB)
    page = ctx.new_page()
    page.goto(f"{live_server}/new?lang=es")
    page.click("button[value=start]")
    page.click("a[href$='/share']")
    boxes = page.locator(".share-link")
    view = boxes.first  # the view link comes first
    link = view.locator("textarea.link-text").input_value()
    box = view.locator("textarea.link-text").bounding_box()
    assert view.locator("textarea.link-text").evaluate("t => t.scrollHeight <= t.clientHeight + 1")  # all of it
    assert box["width"] <= PHONE["width"] and fits_phone(page)
    view.locator("button.copy-link").click()
    expect(view.locator(".copied")).to_have_text(said("Copied.", "es"))
    assert page.evaluate("navigator.clipboard.readText()") == link
    view.locator("button.send-link").click()
    assert page.evaluate("window.__shared.url") == link
    shot(page, "evening-es-share")
    ctx.close()


def test_setup_follows_the_family_at_once(browser, live_server):
    ctx = browser.new_context(viewport=PHONE, locale="de-DE")
    page = ctx.new_page()
    page.goto(f"{live_server}/new?lang=de")
    for _ in range(4):
        page.click("button[value=add]")
    expect(page.locator("input[name=name]")).to_have_count(8)
    eight = resolve("liverpool", players=8)
    expect(page.locator(".pack")).to_have_text(said(
        "Shuffle %(decks)s decks and %(jokers)s jokers together (%(cards)s cards) for %(n)s players.", "de",
        decks=eight.decks, jokers=eight.jokers, cards=eight.pack_size, n=8))
    page.select_option("#family", "contract")  # Contract rummy seats 3 to 5
    expect(page.locator(".pack.too-many")).to_contain_text(said(
        "%(family)s is for %(lo)s to %(hi)s players; this table has %(n)s.", "de", family=FAMILIES["contract"].name,
        lo=3, hi=5, n=8))
    expect(page.locator(".players-limit")).to_contain_text(said("%(lo)s to %(hi)s players", "de", lo=3, hi=5))
    expect(page.locator("button[value=add]")).to_have_count(0)
    shot(page, "evening-de-setup-too-many")
    for _ in range(3):
        page.locator("button[value^='remove:']").last.click()
    five = resolve("contract", players=5)
    expect(page.locator(".pack")).to_have_text(said(
        "Shuffle %(decks)s decks and %(jokers)s jokers together (%(cards)s cards) for %(n)s players.", "de",
        decks=five.decks, jokers=five.jokers, cards=five.pack_size, n=5))
    expect(page.locator(".pack.too-many")).to_have_count(0)
    shot(page, "evening-de-setup-five")
    ctx.close()
