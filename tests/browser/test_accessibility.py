"""Accessibility on every page: axe-core finds nothing serious or critical, tap targets are at least 44 px,
and the pages still work at 200% zoom."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.browserkit import save, shot, tap

pytestmark = pytest.mark.browser
axe = Axe()

# every screen: static pages, then the scoreboard's (made by the fixture below)
PAGES = ["/", "/rules", "/rules/liverpool", "/rules/progressive?lang=es", "/rules/contract?lang=de",
         "/rules/compare?lang=pt", "/rules/search?q=joker", "/referee/check", "/referee/arrange", "/referee/layoff",
         "/referee/swap", "/referee/buy", "/referee/table", "/new", "/games", "/import"]
GAME_PAGES = ["{edit}", "{view}", "{edit}/history", "{edit}/share", "{edit}/sheet", "{edit}/hands/1", "{done}",
              "{edit}/players", "{done}/players", "/g/no-such-game?lang=de", "{group}", "{group_view}", "{group}/new",
              "{group}/share", "{group}/roster?lang=pt"]

SMALL_TARGETS = """
() => {
  const out = [];
  const inText = el => el.tagName === 'A' && el.closest('p, li, td, dd, blockquote') &&
      el.parentElement.textContent.trim() !== el.textContent.trim();
  for (const el of document.querySelectorAll('a[href], button, select, textarea, input:not([type=hidden]), summary')) {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || el.closest('[hidden]')) continue;
    if (inText(el)) continue;  // links inside a sentence are exempt (WCAG 2.5.8)
    let target = el;
    if (el.type === 'radio' || el.type === 'checkbox') target = el.closest('label') || el;
    const r = target.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.height < 44 - 0.5 || r.width < 44 - 0.5) out.push(`${el.tagName} "${(el.textContent || el.value || el.name || '').trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return out;
}
"""


# the pages a table uses most, checked in each of the four languages (the others in one)
EVERY_LANGUAGE = ["{edit}", "{view}", "{edit}/share", "/referee/check", "/referee/arrange", "/referee/table", "{group}",
                  "{group_view}", "/new", "{group}/new", "/rules", "/rules/liverpool", "/rules/compare"]
LANGUAGES = ["en", "es", "pt", "de"]
# axe's rules that are not run unless asked: a control whose name does not contain the words it shows
AXE_OPTIONS = {"rules": {"label-content-name-mismatch": {"enabled": True}}}

IDLE_FOCUS = """
() => [...document.querySelectorAll('[tabindex]')]
  .filter(el => el.tabIndex >= 0 && el.offsetParent !== null)
  .filter(el => !el.matches('a[href], button, input, select, textarea, summary, .scroll[role=region]'))
  .map(el => el.tagName + ' ' + el.className + ' "' + el.textContent.trim().slice(0, 20) + '"')
"""


def with_lang(path: str, lang: str) -> str:
    return path + ("&" if "?" in path else "?") + f"lang={lang}"


@pytest.fixture(scope="module")
def game_urls(browser, live_server):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = ctx.new_page()
    urls = {}
    for key in ("edit", "done"):
        page.goto(f"{live_server}/new?lang=en")
        page.click("button[value=start]")
        urls[key] = page.url.replace(live_server, "")
        hands = 7 if key == "done" else 1
        for _ in range(hands):
            page.get_by_label("Player 1", exact=True).check()
            for seat in range(1, 4):
                tap(page, seat, "K")
            save(page)
    page.goto(f"{live_server}{urls['edit']}/share")
    urls["view"] = page.locator("textarea.link-text").first.input_value().replace(live_server, "")
    group = page.request.post(f"{live_server}/api/v1/groups", data={"name": "Quinta-feira"}).json()
    for names in (["Ana", "Beto", "Carla"], ["Ana", "Beto", "Dani"]):
        g = page.request.post(f"{live_server}/api/v1/games", data={
            "ruleset": "liverpool", "players": names, "group": group["id"], "group_token": group["edit_token"]}).json()
        page.request.post(f"{live_server}/api/v1/games/{g['id']}/hands", headers={
            "Authorization": f"Bearer {g['edit_token']}"}, data={"hand": 1, "out": names[0],
                                                                 "leftovers": {n: ["K"] for n in names[1:]}})
    urls["group"], urls["group_view"] = f"/groups/{group['edit_token']}", f"/groups/{group['view_token']}"
    ctx.close()
    return urls


def all_pages(game_urls):
    return PAGES + [p.format(**game_urls) for p in GAME_PAGES]


def test_axe_finds_nothing_serious(page, live_server, game_urls):
    found = {}
    paths = all_pages(game_urls) + [with_lang(p.format(**game_urls), lang) for p in EVERY_LANGUAGE
                                    for lang in LANGUAGES]
    for path in paths:
        page.goto(live_server + path)
        result = axe.run(page, options=AXE_OPTIONS)
        bad = [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
               for v in result.response["violations"] if v["impact"] in ("serious", "critical")]
        if bad:
            found[path] = bad
    assert found == {}


def test_axe_on_a_verdict(page, live_server):
    page.goto(f"{live_server}/referee/check?lang=de")
    page.fill("#melds", "7H 7D 8S | 5C 6C 8C 9C")
    page.click("button.primary")
    page.wait_for_selector("#verdict .verdict")
    result = axe.run(page, options=AXE_OPTIONS)
    assert [v["id"] for v in result.response["violations"] if v["impact"] in ("serious", "critical")] == []


def test_tap_targets_are_big_enough(page, live_server, game_urls):
    small = {}
    paths = all_pages(game_urls) + [with_lang(p.format(**game_urls), lang) for p in EVERY_LANGUAGE
                                    for lang in LANGUAGES]
    for path in paths:
        page.goto(live_server + path)
        found = page.evaluate(SMALL_TARGETS)
        if found:
            small[path] = found
    assert small == {}


def test_nothing_takes_the_focus_that_does_nothing(page, live_server, game_urls):
    """Every tab stop is a control (a link, a button, a field) or a table's scrolling box, which the keyboard
    scrolls: a player's name is not one, though a tap shows it whole."""
    idle = {}
    for path in all_pages(game_urls):
        page.goto(live_server + path)
        found = page.evaluate(IDLE_FOCUS)
        if found:
            idle[path] = found
    assert idle == {}


@pytest.mark.parametrize("width", [640])
def test_usable_at_200_percent_zoom(browser, live_server, game_urls, width):
    """A laptop at 200% zoom shows 640 CSS px: nothing may need sideways scrolling of the page."""
    ctx = browser.new_context(viewport={"width": width, "height": 400}, locale="en-GB")
    page = ctx.new_page()
    wide = {}
    for path in all_pages(game_urls):
        page.goto(live_server + path)
        if page.evaluate("document.documentElement.scrollWidth") > width:
            wide[path] = page.evaluate("document.documentElement.scrollWidth")
    shot(page, "zoom-200-sheet")
    ctx.close()
    assert wide == {}


def test_large_text_on_a_phone(browser, live_server, game_urls):
    """The phone's text size at 200%: the page still reflows in 390 px (tables may scroll inside their box)."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB", bypass_csp=True)
    page = ctx.new_page()
    wide = {}
    for path in all_pages(game_urls):
        page.goto(live_server + path)
        page.add_style_tag(content="html { font-size: 200% !important; }")
        if page.evaluate("document.documentElement.scrollWidth") > 390:
            wide[path] = page.evaluate("document.documentElement.scrollWidth")
    page.goto(live_server + game_urls["edit"])
    page.add_style_tag(content="html { font-size: 200% !important; }")
    shot(page, "text-200-game")
    ctx.close()
    assert wide == {}


def test_suits_differ_by_more_than_colour(page, live_server):
    page.goto(f"{live_server}/referee/check?lang=en")
    suits = page.locator(".pick-suit")
    labels = [suits.nth(i).inner_text() for i in range(4)]
    assert len(set(labels)) == 4  # four different shapes, not four colours of one
    assert [suits.nth(i).get_attribute("aria-label") for i in range(4)] == ["spades", "hearts", "diamonds", "clubs"]
