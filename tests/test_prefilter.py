"""Literal pre-checks (``deid_engine.detect.prefilter``): a scan is skipped only where the
expression cannot match."""

from __future__ import annotations

import random

import regex

from deid_engine.detect.patterns import PatternDetector
from deid_engine.detect.prefilter import literal_prefilter
from deid_engine.detect.textstats import count_alpha, count_alpha_upper, count_upper


def test_requirements_of_simple_shapes():
    pf = literal_prefilter(r"\b(?:employed|hired)\s+as\b", regex.IGNORECASE)
    assert pf is not None and set(pf.ci) == {"employed", "hired"} and not pf.cs
    pf = literal_prefilter(r"\b(?:Ward|Unit)\b")
    assert set(pf.cs) == {"Ward", "Unit"} and not pf.ci
    pf = literal_prefilter(r"(?i)\b(?:abc|abd)e")
    assert set(pf.ci) == {"abce", "abde"}
    assert literal_prefilter(r"\d{5}") is None  # no literal
    assert literal_prefilter(r"(?:foo)?bar\d|\d") is None  # a branch without a literal
    assert literal_prefilter(r"ab") is None  # too short to filter
    assert literal_prefilter(r"\p{L}+ston\b") is not None  # \p{..}: one character, no literal
    assert literal_prefilter(r"[[:alpha:]]xyz") is None  # regex-only set syntax: no pre-check
    assert literal_prefilter(r"(?:abc){e<=1}") is None  # fuzzy matching: no pre-check


def test_case_insensitive_literals_only_filter_ascii_text():
    pf = literal_prefilter(r"strasse", regex.IGNORECASE | regex.FULLCASE | regex.VERSION1)
    text = "Hauptstraße 5"
    assert pf.may_match(text, text.lower())  # non-ASCII text: always scanned
    text = "Main STRASSE 5"
    assert pf.may_match(text, text.lower())
    text = "Main road 5"
    assert not pf.may_match(text, text.lower())


_ALPHABET = list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \t\n.,;:'’-()/") + \
    ["Ward", "Unit", "ward", " east", "the first", "employed as", "age 45", "in 1999 and ", "Co. Cork", "Dr. Lee",
     "January", "april", "nineteen", "Suite 4", "MRN", "ID", "of Boston", "-old", "www.", "ſ", "K", "é"]


def test_pattern_prefilters_are_sound_on_random_text():
    det = PatternDetector("en")
    det.load()
    rng = random.Random(7)
    pairs = [(pf, rx) for (_, rx, _), pf in zip(det._compiled, det._prefilters) if pf is not None]
    pairs += [(pf, r) for r, pf in det._trigger_prefilters.items() if pf is not None]
    assert len(pairs) > 20
    for _ in range(300):
        text = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 60)))
        low = text.lower()
        for pf, rx in pairs:
            if not pf.may_match(text, low):
                assert rx.search(text) is None, (rx.pattern, text)


def test_text_counts_equal_the_plain_sums():
    rng = random.Random(3)
    chars = [chr(i) for i in range(0x2000)] + ["Ⓐ", "ǅ", "ſ", "İ"]
    for _ in range(2000):
        s = "".join(rng.choice(chars) if rng.random() < 0.2 else chr(rng.randrange(128)) for _ in range(rng.randint(0, 40)))
        assert count_upper(s) == sum(c.isupper() for c in s)
        assert count_alpha(s) == sum(c.isalpha() for c in s)
        letters = [c for c in s if c.isalpha()]
        assert count_alpha_upper(s) == (len(letters), sum(c.isupper() for c in letters))


def test_cached_prefilters_read_back_equal(tmp_path, monkeypatch):
    monkeypatch.setenv("DEID_USER_DIR", str(tmp_path))
    monkeypatch.delenv("DEID_NO_CACHE", raising=False)
    from deid_engine.detect.prefilter import cached_prefilters

    sources = [(r"\b(?:Ward|Unit)\b", 0), (r"\d{5}", 0), (r"(?i)employed\s+as", regex.IGNORECASE | regex.VERSION1),
               (r"\b(?:Ward|Unit)\b", 0)]
    first = cached_prefilters("test", sources)  # built and stored
    assert list((tmp_path / "cache").glob("prefilters-test-*.txt"))
    again = cached_prefilters("test", sources)  # read back
    expect = [literal_prefilter(s, f) for s, f in sources]
    for a, b, c in zip(first, again, expect):
        assert (a is None and b is None and c is None) or (a.cs, a.ci) == (b.cs, b.ci) == (c.cs, c.ci)
