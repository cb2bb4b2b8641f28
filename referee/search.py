"""Searching the rules as players ask: a question typed at the table ("can I lay off the turn I go down",
«quantas compras posso fazer») finds the sections that answer it, best first.

Each language has its own analysis: words are cut at word boundaries, lower-cased, German umlauts written the
German way (ä → ae, ß → ss: "Kaeufe" is "Käufe"), stemmed by the language's Snowball stemmer ("bajarme" and
"me bajo" are both "baj"), then stripped of accents. Common words of a question ("can", "posso", "wer") are
dropped, and the table's own words are joined to the documents' (``words.toml``: "curinga" is "coringa",
"rauskommen" is "ausgehen"), each group once, kept with the rules texts. Sections are ranked by BM25 (a
heading's words count three times); a result's snippet is the stretch of its text that holds the most of the
question's words, each one marked.

Pure: the web layer renders the rules pages, gives their sections to ``Index`` once per language, and asks it.

>>> idx = Index("en", [Doc("liverpool", "rule-buy-limit", "How many buys", "At most three buys a hand."),
...                    Doc("liverpool", "rule-aces", "Aces", "An ace is high or low.")])
>>> [h.doc.anchor for h in idx.search("how many times can I buy")]
['rule-buy-limit']
"""

from __future__ import annotations

import math
import re
import tomllib
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import snowballstemmer

WORDS_FILE = Path(__file__).resolve().parent / "rulebook" / "words.toml"
STEMMERS = {"en": "english", "es": "spanish", "pt": "portuguese", "de": "german"}
WORD = re.compile(r"\w+")
GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
K1, B = 1.2, 0.75  # BM25's usual constants
HEADING_WEIGHT = 3  # a heading's words count as often as this in its section
SYNONYM_WEIGHT = 0.7  # a word the question did not type, from its group of table words
SNIPPET_WORDS = 28  # about two lines on a phone


@dataclass(frozen=True)
class Doc:
    family: str
    anchor: str
    heading: str
    text: str
    weight: float = 1.0  # a glossary entry answers less than the rule it names: below 1


@dataclass
class Hit:
    doc: Doc
    score: float
    snippet: list[tuple[str, bool]] = field(default_factory=list)  # (text, marked) in order
    lead: bool = False  # the snippet starts inside the text


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@lru_cache(maxsize=None)
def _table(language: str) -> tuple[frozenset[str], tuple[tuple[tuple[str, ...], ...], ...]]:
    """The language's common words and groups of table words, as the analysis writes them."""
    data = tomllib.loads(WORDS_FILE.read_text(encoding="utf-8")).get(language, {})
    analyzer = Analyzer(language, frozenset(), ())
    stop = frozenset(t for w in data.get("common", "").split() for t in analyzer.terms(w, keep_common=True))
    groups = []
    for line in data.get("groups", []):
        alternatives = tuple(tuple(analyzer.terms(alt, keep_common=True)) for alt in line.split("|"))
        groups.append(tuple(a for a in alternatives if a))
    return stop, tuple(groups)


class Analyzer:
    """A language's way from text to search terms."""

    def __init__(self, language: str, common: frozenset[str], groups: tuple[tuple[tuple[str, ...], ...], ...]):
        self.language = language
        self.stemmer = snowballstemmer.stemmer(STEMMERS.get(language, "english"))
        self.common = common
        self.groups = groups
        self.seen: dict[str, str] = {}  # word -> term: the rules pages use a few thousand words, again and again

    @classmethod
    def of(cls, language: str) -> Analyzer:
        common, groups = _table(language)
        return cls(language, common, groups)

    def term(self, word: str) -> str:
        found = self.seen.get(word)
        if found is None:
            w = word.casefold()
            if self.language == "de":
                w = w.translate(GERMAN)
            found = self.seen[word] = _fold(self.stemmer.stemWord(w))
        return found

    def words(self, text: str) -> list[tuple[str, int, int]]:
        """Each word of ``text`` as (term, start, end); common words too."""
        return [(self.term(m.group()), m.start(), m.end()) for m in WORD.finditer(text)]

    def terms(self, text: str, keep_common: bool = False) -> list[str]:
        return [t for t, _, _ in self.words(text) if keep_common or t not in self.common]

    def query(self, text: str) -> list[dict[str, float]]:
        """The question as concepts, each a set of terms with weights, any one of which answers for it: each
        word typed, and each group of table words the question uses (a group is used when every word of one of
        its alternatives is in the question), its typed words at full weight, its others a little less."""
        typed = [t for t, _, _ in self.words(text)]
        present = set(typed)
        concepts: list[dict[str, float]] = []
        covered: set[str] = set()
        for group in self.groups:
            used = [alt for alt in group if set(alt) <= present]
            if not used:
                continue
            concept: dict[str, float] = {}
            for alt in group:
                for t in alt:
                    if t not in self.common:
                        concept[t] = 1.0 if any(t in u for u in used) else max(concept.get(t, 0), SYNONYM_WEIGHT)
            covered.update(t for alt in used for t in alt)
            if concept:
                concepts.append(concept)
        for t in dict.fromkeys(typed):
            if t not in self.common and t not in covered:
                concepts.append({t: 1.0})
        return concepts


class Index:
    """The sections of one language's rules pages, ready to be searched (BM25)."""

    def __init__(self, language: str, docs: list[Doc]):
        self.analyzer = Analyzer.of(language)
        self.docs = docs
        self.words = [self.analyzer.words(d.text) for d in docs]  # (term, start, end): for the snippets
        self.tf: list[Counter[str]] = []
        self.lengths: list[int] = []
        df: Counter[str] = Counter()
        common = self.analyzer.common
        for d, words in zip(docs, self.words):
            counts = Counter(t for t, _, _ in words if t not in common)
            for t in self.analyzer.terms(d.heading):
                counts[t] += HEADING_WEIGHT
            self.tf.append(counts)
            self.lengths.append(sum(counts.values()))
            df.update(counts.keys())
        n = len(docs)
        self.idf = {t: math.log(1 + (n - k + 0.5) / (k + 0.5)) for t, k in df.items()}
        self.average = (sum(self.lengths) / n) if n else 1.0

    def _term_score(self, i: int, t: str) -> float:
        f = self.tf[i].get(t)
        if not f:
            return 0.0
        return self.idf[t] * f * (K1 + 1) / (f + K1 * (1 - B + B * self.lengths[i] / self.average))

    def search(self, question: str, limit: int = 10) -> list[Hit]:
        concepts = self.analyzer.query(question)
        if not concepts:
            return []
        hits = []
        for i, d in enumerate(self.docs):
            score = sum(max(w * self._term_score(i, t) for t, w in c.items()) for c in concepts) * d.weight
            if score > 0:
                hits.append((score, i))
        hits.sort(key=lambda h: -h[0])  # (stable: equal scores stay in page order)
        weights: dict[str, float] = {}
        for c in concepts:
            for t, w in c.items():
                weights[t] = max(weights.get(t, 0.0), w)
        out = []
        for score, i in hits[:limit]:
            parts, lead = self.snippet(i, weights)
            out.append(Hit(self.docs[i], score, parts, lead))
        return out

    def snippet(self, i: int, weights: dict[str, float]) -> tuple[list[tuple[str, bool]], bool]:
        """The stretch of a section's text with the most of the question's words (its own before the group's),
        each one marked; and whether it starts inside the text."""
        text, words = self.docs[i].text, self.words[i]
        if not words:
            return [], False
        inside: Counter[str] = Counter()
        value = 0.0
        best, best_at = -1.0, 0
        for j, (t, _, _) in enumerate(words):  # a window of SNIPPET_WORDS words sliding along the text
            if t in weights:
                inside[t] += 1
                if inside[t] == 1:
                    value += weights[t]
            if j >= SNIPPET_WORDS:
                gone = words[j - SNIPPET_WORDS][0]
                if gone in weights:
                    inside[gone] -= 1
                    if inside[gone] == 0:
                        value -= weights[gone]
            at = max(0, j - SNIPPET_WORDS + 1)
            if value > best + 1e-9:
                best, best_at = value, at
        first = max(0, best_at - 3) if best_at else 0  # a few words of context before the first match
        window = words[first:first + SNIPPET_WORDS]
        start = 0 if first == 0 else window[0][1]
        out: list[tuple[str, bool]] = []
        at = start
        for t, s, e in window:
            if t in weights:
                if s > at:
                    out.append((text[at:s], False))
                out.append((text[s:e], True))
                at = e
        end = window[-1][2]
        if end > at:
            out.append((text[at:end], False))
        return out, start > 0
