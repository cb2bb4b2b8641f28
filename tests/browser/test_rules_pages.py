import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import fits_phone, shot
from tests.kit import said

pytestmark = pytest.mark.browser

FAMILIES = ["liverpool", "progressive", "contract"]
LANGS = ["en", "es", "pt", "de"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("family", FAMILIES)
def test_rules_page_reads_on_a_phone(page, live_server, family, lang):
    page.goto(f"{live_server}/rules/{family}?lang={lang}")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("h1").count() == 1
    assert page.locator("#rule-joker-swap").count() == 1
    assert fits_phone(page), "the page scrolls sideways at 390 px"
    shot(page, f"rules-{family}-{lang}")


def test_language_switch_is_remembered(page, live_server):
    page.goto(f"{live_server}/rules/liverpool")
    assert page.locator("html").get_attribute("lang") == "en"
    page.get_by_role("link", name="DE Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")  # (waits for the page the link opens)
    page.goto(f"{live_server}/rules/compare")
    assert page.locator("html").get_attribute("lang") == "de"
    assert fits_phone(page)
    shot(page, "compare-de")


def test_first_visit_follows_the_browser_language(browser, live_server):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="pt-BR")
    page = ctx.new_page()
    page.goto(f"{live_server}/")
    assert page.locator("html").get_attribute("lang") == "pt"
    ctx.close()


def test_search_finds_and_links_to_the_rule(page, live_server):
    page.goto(f"{live_server}/rules?lang=es")
    page.get_by_label(said("Search the rules", "es")).fill("comodin")
    page.get_by_role("button", name=said("Search", "es")).click()
    first = page.locator("ol.results a").first
    href = first.get_attribute("href")
    assert "#" in href
    first.click()
    page.wait_for_url(lambda url: "#" in url)  # the rule's place in its page
    shot(page, "search-es")


@pytest.mark.parametrize("lang, question, answer", [
    ("es", "¿puedo bajarme con comodines?", None),
    ("de", "wer bekommt die abgelegte Karte", "#rule-buy-priority"),
])
def test_a_question_as_typed_at_the_table(page, live_server, lang, question, answer):
    """A results page on a phone: ranked, the question's words marked in each snippet."""
    page.goto(f"{live_server}/rules/search?lang={lang}&q=" + question.replace(" ", "+").replace("?", "%3F"))
    results = page.locator("ol.results > li")
    assert results.count() >= 3
    assert page.locator("ol.results mark").count() >= 3
    if answer:
        assert results.first.locator("a").get_attribute("href").endswith(answer)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, f"search-results-{lang}")


@pytest.mark.parametrize("lang", LANGS)
def test_comparison_marks_sit_beside_their_values(page, live_server, lang):
    """On a phone each comparison row is a card of "family: value" lines; the * that marks the app's choice
    belongs after its value, not on a line of its own under the family's name."""
    page.goto(f"{live_server}/rules/compare?lang={lang}")
    astray = page.evaluate("""[...document.querySelectorAll('table.compare td .mark')].filter(m => {
        const td = m.closest('td'), value = td.querySelector(':scope > span');
        return !value || m.getBoundingClientRect().left < value.getBoundingClientRect().left; }).length""")
    marks = page.locator("table.compare td .mark").count()
    assert marks > 10 and astray == 0, (marks, astray)
    assert fits_phone(page)
    page.locator("table.compare td .mark").first.scroll_into_view_if_needed()
    shot(page, f"compare-marks-{lang}")
