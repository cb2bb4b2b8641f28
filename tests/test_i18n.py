"""Every string exists in every language: no untranslated or fuzzy catalog entry, and the catalogs hold every
string the code marks."""

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from referee.web.cli import extract

ROOT = Path(__file__).resolve().parents[1]
LANGS = ["es", "pt", "de"]


def catalog(lang):
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f)


@pytest.mark.parametrize("lang", LANGS)
def test_complete(lang):
    cat = catalog(lang)
    missing = [m.id for m in cat if m.id and (not m.string or (isinstance(m.string, tuple) and not all(m.string)))]
    fuzzy = [m.id for m in cat if m.id and m.fuzzy]
    assert missing == [] and fuzzy == []


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_kept(lang):
    import re
    for m in catalog(lang):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = set(re.findall(r"%\((\w+)\)s", ids[-1]))
        for s in strings:
            assert set(re.findall(r"%\((\w+)\)s", s)) <= wanted | {"num"}, (m.id, s)


def test_catalogs_hold_every_marked_string(tmp_path, monkeypatch):
    import referee.web.cli as cli
    monkeypatch.setattr(cli, "POT", tmp_path / "messages.pot")
    extract()
    with open(tmp_path / "messages.pot", "rb") as f:
        wanted = {m.id for m in read_po(f) if m.id}
    for lang in LANGS:
        have = {m.id for m in catalog(lang) if m.id}
        assert wanted - have == set(), f"{lang}: run `flask translate update` and translate the new strings"


def test_api_messages_follow_the_body_language(client):
    r = client.post("/api/v1/check", json={"ruleset": "liverpool", "hand": 1, "melds": [["ZZ"]], "lang": "de"})
    en = client.post("/api/v1/check", json={"ruleset": "liverpool", "hand": 1, "melds": [["ZZ"]]})
    assert r.status_code == 400 and r.json["error"]["message"] != en.json["error"]["message"]


@pytest.mark.parametrize("lang", ["en", "es", "pt", "de"])
def test_the_templates_gettext_words_as_jinjas_own_does(app, lang):
    """The templates' ``_`` is Jinja's newstyle gettext in one call, with strings that have no variables kept
    per catalog: in each language it gives what Jinja's own gives, variables escaped, a string kept for one
    language never shown in another."""
    from jinja2 import Environment

    from referee.web.i18n import catalog

    cases = [("Scores", {}), ("Down", {}), ("%(name)s wins.", {"name": "<b>Ann & Ben</b>"}),
             ("Hand %(n)s of %(total)s", {"n": 2, "total": 7}), ("no such string, 100%%", {})]
    for template in ('{{ _(s, **v) }}', '{{ gettext(s, **v) }}'):
        for text, variables in cases:
            with app.test_request_context(f"/?lang={lang}"):
                ours = app.jinja_env.from_string(template).render(s=text, v=variables)
                theirs = Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
                theirs.install_gettext_callables(  # type: ignore[attr-defined]
                    gettext=catalog().ugettext, ngettext=catalog().ungettext, newstyle=True)
                assert ours == theirs.from_string(template).render(s=text, v=variables), (lang, text)
    with app.test_request_context(f"/?lang={lang}"):
        words = app.jinja_env.from_string('{{ _("Scores") }}').render()
    with app.test_request_context("/?lang=en" if lang != "en" else "/?lang=de"):
        assert app.jinja_env.from_string('{{ _("Scores") }}').render() != words
