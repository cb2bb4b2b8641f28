"""What readers see: labels and words, never the API's option names or the contract notation, and one word for
one thing in each language (the glossary in docs/i18n.md)."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from referee import rulebook
from referee.families import FAMILIES, OPTIONS

ROOT = Path(__file__).resolve().parent.parent
LANGS = rulebook.LANGS

# names a reader must never see: the options' and variants' API names and the option values that are words
IDENTIFIERS = sorted({o.name for o in OPTIONS.values()} | {v.id for f in FAMILIES.values() for v in f.variants}
                     | {str(c) for o in OPTIONS.values() for c in o.choices if isinstance(c, str)})
WITH_UNDERSCORE = re.compile(r"\b(%s)\b" % "|".join(re.escape(i) for i in IDENTIFIERS if "_" in i))
NOTATION = re.compile(r"\b[SR]\d{1,2}\b")  # the app's contract notation: S3, R4, R7
COUNTED_MELDS = re.compile(  # "2 sets of 3", "1 escalera de 7", "1 Sequenz zu 7": counts are words, not figures
    r"\b\d+[ \u00a0]+(sets?|runs?|grupos?|escaleras?|trincas?|sequências?|Buch|Bücher|Sequenz(en)?)\b", re.I)


class Visible(HTMLParser):
    """The text a reader sees (and hears: titles, labels), apart from the document's own score-sheet shorthand."""

    SKIP = {"script", "style"}

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.code: list[str] = []
        self.stack: list[tuple[str, bool]] = []

    def _hidden(self) -> bool:
        return any(skip for _, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        void = tag in ("input", "br", "img", "meta", "link", "hr")
        skip = tag in self.SKIP or "shorthand" in (a.get("class") or "").split()
        if not self._hidden() and not skip:
            self.text += [a[k] for k in ("title", "aria-label", "placeholder", "alt") if a.get(k)]
        if not void:
            self.stack.append((tag, skip))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if not self._hidden():
            self.text.append(data)
            if any(t == "code" for t, _ in self.stack):
                self.code.append(data.strip())


def visible(html: str) -> Visible:
    v = Visible()
    v.feed(html)
    return v


def a_game(client) -> tuple[str, str]:
    """A five-player Liverpool game with a hand played, a buy and a player down: the game screen as it looks
    in play, with its hand-by-hand table and edit links. Returns the edit and the view paths."""
    g = client.post("/api/v1/games", json={"ruleset": "liverpool",
                                           "players": ["Ann", "Ben", "Cy", "Dee", "Eve"]}).get_json()
    auth = {"Authorization": f"Bearer {g['edit_token']}"}
    r = client.post(f"/api/v1/games/{g['id']}/hands", headers=auth, json={
        "hand": 1, "out": "Cy", "leftovers": {"Ann": ["AH", "JK"], "Ben": ["7"], "Dee": ["K"], "Eve": ["2"]}})
    assert r.status_code == 201, r.get_json()
    assert client.post(f"/api/v1/games/{g['id']}/buys", headers=auth, json={"hand": 2, "player": "Dee"}).status_code == 201
    edit = f"/g/{g['edit_token']}"
    assert client.post(f"{edit}/down", data={"seat": "4", "hand": "2", "down": "1"}).status_code in (200, 302, 303)
    return edit, f"/g/{g['view_token']}"


def a_group(client) -> tuple[str, str, str]:
    """A group with a finished Progressive game and one in play: its stats, charts, head to head and games list.
    Returns the group's edit and view paths and the finished game's id."""
    grp = client.post("/api/v1/groups", json={"name": "Thursday table"}).get_json()
    names = ["Ann", "Ben", "Cy", "Dee"]
    ids = []
    for hands in (7, 1):
        g = client.post("/api/v1/games", json={"ruleset": "progressive", "players": names, "group": grp["id"],
                                               "group_token": grp["edit_token"]}).get_json()
        for h in range(1, hands + 1):
            out = names[h % 4]
            r = client.post(f"/api/v1/games/{g['id']}/hands", headers={"Authorization": f"Bearer {g['edit_token']}"},
                            json={"hand": h, "out": out, "leftovers": {n: ["K", "7"] for n in names if n != out}})
            assert r.status_code == 201, r.get_json()
        ids.append(g["id"])
    return f"/groups/{grp['edit_token']}", f"/groups/{grp['view_token']}", ids[0]


def form_token(client, path: str) -> dict[str, str]:
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', client.get(path).get_data(as_text=True))
    return {"csrf_token": token.group(1)} if token else {}


# the referee's forms, each with an input that draws a verdict (a refusal, reasons and the rule they rest on)
VERDICTS = {
    "/referee/check": {"family": "liverpool", "hand": "2", "melds": "7h 7d JK\n5c 6c 8c 9c"},
    "/referee/arrange": {"family": "progressive", "hand": "1", "cards": "7h 7d 7s 9c 9d JK 2c 4h 5h Kh"},
    "/referee/layoff": {"family": "contract", "hand": "1", "meld": "5c 6c 7c 8c", "cards": "9c", "down": "y",
                        "same_turn": "y"},
    "/referee/swap": {"family": "progressive", "hand": "1", "meld": "5c JK 7c 8c", "card": "6c"},
    "/referee/buy": {"family": "contract", "hand": "1", "seats": "Ann\nBen\nCy\nDee", "current": "Ann",
                     "callers": "Cy, Dee", "buys_used": "Cy 3"},
}


def pages(client, lang):
    """Every page and screen a reader sees, as GET paths, plus the referee's verdicts (POSTed)."""
    edit, view = a_game(client)
    paths = [f"/rules/{f}" for f in FAMILIES] + ["/rules/compare", "/rules", "/", "/new", "/referee/", "/import",
                                                "/games"]
    paths += [f"/new?family={f}" for f in FAMILIES]
    paths += [edit, view, f"{edit}/history", f"{edit}/share", f"{edit}/sheet", f"{edit}/hands/1"]
    paths += [f"/referee/{mode}?family={f}" for mode in ("check", "arrange", "layoff", "swap", "buy") for f in FAMILIES]
    paths += [f"/rules/search?q={q}" for q in ("joker", "comodín", "coringa", "buy", "compra", "Kauf", "hand", "10",
                                               "option", "Tisch", "mesa")]
    group, group_view, game_id = a_group(client)
    paths += ["/groups", "/groups/new", "/groups/import", group, group_view, f"{group}?family=progressive",
              f"{group}/new", f"{group}/share", f"{group_view}/share", f"{group}/roster"]
    for path in paths:
        sep = "&" if "?" in path else "?"
        r = client.get(f"{path}{sep}lang={lang}")
        assert r.status_code == 200, path
        yield path, visible(r.get_data(as_text=True))
    for path, form in VERDICTS.items():
        r = client.post(f"{path}?lang={lang}", data=form | form_token(client, path))
        html = r.get_data(as_text=True)
        assert r.status_code == 200 and 'class="verdict' in html, (path, r.status_code)
        yield path + " (verdict)", visible(html)
    # the error pages, and forms sent back with what was wrong in them
    for path, status in (("/no-such-page", 404), (f"{edit}/nope", 404), (f"{group}/games/nope", 404),
                         ("/groups/not-a-group", 404), (f"{edit}/undo", 405), (f"{view}/hands/1", 403)):
        r = client.get(f"{path}?lang={lang}")
        assert r.status_code == status, (path, r.status_code)
        yield f"{path} ({status})", visible(r.get_data(as_text=True))
    refusals = {"/new": {"family": "liverpool", "name": ["Ann", "Ann", ""], "opt_buy_limit": "-1"},
                "/referee/check": {"family": "contract", "hand": "1", "melds": "7x 7y ZZ"},
                f"{group}/new": {"family": "liverpool", "players": []},
                "/groups/new": {"name": ""}}
    for path, form in refusals.items():
        r = client.post(f"{path}?lang={lang}", data=form | form_token(client, path))
        html = r.get_data(as_text=True)
        assert r.status_code in (400, 422) and 'role="alert"' in html, (path, r.status_code)
        yield f"{path} (refused)", visible(html)


@pytest.mark.parametrize("lang", LANGS)
def test_no_option_names_on_pages(client, lang):
    for path, v in pages(client, lang):
        text = " ".join(v.text)
        assert not WITH_UNDERSCORE.search(text), (path, WITH_UNDERSCORE.search(text).group(0))
        assert not set(v.code) & set(IDENTIFIERS), (path, set(v.code) & set(IDENTIFIERS))


@pytest.mark.parametrize("lang", LANGS)
def test_no_contract_notation_in_rules_text(client, lang):
    for path, v in pages(client, lang):
        if re.match(r"/new\b|/groups/[^/ ]+/new\b", path):
            continue  # the setup screens (and a group's) explain the notation their contracts field takes
        text = "\n".join(v.text)  # one line per text node: a table cell's figure is not the next cell's count
        for pattern in (NOTATION, COUNTED_MELDS):
            found = pattern.search(text)
            assert not found, (path, found and text[max(0, found.start() - 60):found.end() + 20])


def test_the_tests_see_what_they_look_for():
    v = visible('<p title="buy_limit">S3 S3 <code>joker_swap</code></p><span class="shorthand">R7</span>'
                '<script>var x = "hand_size";</script>')
    text = " ".join(v.text)
    assert WITH_UNDERSCORE.search(text).group(0) == "buy_limit"
    assert NOTATION.search(text).group(0) == "S3" and "R7" not in text and "hand_size" not in text
    assert v.code == ["joker_swap"]
    assert COUNTED_MELDS.search("in der letzten 1 Sequenz zu 7") and COUNTED_MELDS.search("1 escalera de 7")


# ------------------------------------------------------------------------------ one word for one thing
def glossary() -> dict[str, list[tuple[str, list[str]]]]:
    """Per language: (the word used, [spellings not used]) from the tables of docs/i18n.md."""
    out: dict[str, list[tuple[str, list[str]]]] = {}
    lang = None
    for line in (ROOT / "docs" / "i18n.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^## .*\((en|es|pt|de)\)\s*$", line)
        if m:
            lang = m.group(1)
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if lang and line.startswith("|") and len(cells) == 5 and not set(cells[0]) <= {"-", " "} \
                and cells[0] != "concept":
            avoided = [w.strip().strip("*") for w in cells[3].split(",") if w.strip() and w.strip() != "—"]
            out.setdefault(lang, []).append((cells[2], avoided))
    return out


def catalog_text(lang: str) -> str:
    if lang == "en":
        return ""
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return "\n".join(m.string if isinstance(m.string, str) else "\n".join(m.string) for m in read_po(f) if m.id)


def test_glossary_lists_every_language():
    g = glossary()
    assert set(g) == set(LANGS) and all(len(rows) >= 5 for rows in g.values())
    assert sum(len(avoided) for rows in g.values() for _, avoided in rows) >= 8


@pytest.mark.parametrize("lang", LANGS)
def test_one_spelling_for_one_term(client, lang):
    seen = catalog_text(lang) + "\n".join(" ".join(v.text) for _, v in pages(client, lang))
    for used, avoided in glossary()[lang]:
        for word in avoided:
            found = re.search(r"(?<!\w)%s(?!\w)" % re.escape(word), seen, re.I)
            assert not found, f"{lang}: “{word}” is written “{used}” here (docs/i18n.md); found: " + \
                seen[max(0, found.start() - 60):found.end() + 20]


@pytest.mark.parametrize("lang", LANGS)
def test_no_markdown_left_in_rules_text(client, lang):
    """A "> " that did not become a note (a blockquote glued to its paragraph), or a stray "**" or "{{",
    is markup the reader sees."""
    for path, v in pages(client, lang):
        if not path.startswith("/rules"):
            continue
        for node in v.text:
            assert not re.search(r"(^|\s)>\s|\*\*|\{\{|\}\}", node), (path, node.strip()[:120])
