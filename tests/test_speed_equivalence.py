"""Session 9 speed-ups: the fast forms give exactly what the plain per-character forms give."""

from __future__ import annotations

import random

from deid_engine.detect.lexicon import LexiconDetector
from deid_engine.detect.spoken import _speech_case
from deid_engine.model.features import static_features

_ALPHABET = [chr(i) for i in range(128)] + ["é", "Ä", "ǅ", "Ⓐ", "ſ", "٣", "İ", "ß"]


def _strings(n: int, seed: int = 5):
    rng = random.Random(seed)
    yield from ("a", "A", "Ab", "AB", "ab", "aB", "A1", "1", "12", "a'b", "O'Brien", ".", "CO2", "11th", "ÄB", "éa")
    for _ in range(n):
        yield "".join(rng.choice(_ALPHABET if rng.random() < 0.1 else _ALPHABET[:128])
                      for _ in range(rng.randint(1, 8)))


def _static_reference(text: str) -> list[float]:
    letters = [c for c in text if c.isalpha()]
    up = bool(letters) and all(c.isupper() for c in letters)
    low = bool(letters) and all(c.islower() for c in letters)
    init = bool(letters) and text[0].isupper() and not up
    n = len(text)
    return [
        float(up and len(letters) > 1), float(init), float(low), float(bool(letters) and not (up or low or init)),
        float(any(c.isdigit() for c in text)), float(text.isdigit()),
        float(not any(c.isalnum() for c in text)), float(n == 1 and text.isalpha()),
        float(n == 1), float(n == 2), float(3 <= n <= 4), float(5 <= n <= 8), float(n >= 9),
        float(any(ord(c) > 127 for c in text)),
    ]


def test_static_features_equal_the_per_character_form():
    for s in _strings(20_000):
        assert static_features(s) == _static_reference(s), s


def test_case_mode_and_speech_case_equal_the_plain_counts():
    import regex

    up_rx, low_rx = regex.compile(r"\p{Lu}"), regex.compile(r"\p{Ll}")
    plain_mode = LexiconDetector._case_mode.__wrapped__
    for s in _strings(3_000, seed=9):
        text = s * 3
        up, low = len(up_rx.findall(text)), len(low_rx.findall(text))
        expect = "none" if up + low == 0 else "upper" if up / (up + low) > 0.7 else \
            "lower" if up / (up + low) < 0.02 else "mixed"
        assert plain_mode(text) == expect, text
        head = text[:4000]
        assert _speech_case(text) == (sum(c.isupper() for c in head)
                                      <= 0.03 * max(1, sum(c.isalpha() for c in head)))


def test_regex_memo_functions_equal_regex():
    import regex

    from deid_engine.detect import regex_memo

    cases = [(r"a(b)", "xab xab", 0), (r"(?i)AB", "ab Ab", 0), (r"x", "X y", regex.IGNORECASE), (r"[-]", "a-b-c", 0),
             (r"(?m)^\w+$", "one\ntwo", 0), (r"['’](?:m|s)$", "it’s", regex.I | regex.V1), (r"\b", "a b", 0)]
    for pat, s, fl in cases * 2:  # second round: from the memo
        assert repr(regex_memo.search(pat, s, fl)) == repr(regex.search(pat, s, fl))
        assert repr(regex_memo.match(pat, s, fl)) == repr(regex.match(pat, s, fl))
        assert repr(regex_memo.fullmatch(pat, s, fl)) == repr(regex.fullmatch(pat, s, fl))
        assert regex_memo.split(pat, s, flags=fl) == regex.split(pat, s, flags=fl)
        assert regex_memo.findall(pat, s, fl) == regex.findall(pat, s, fl)
        assert [m.span() for m in regex_memo.finditer(pat, s, fl)] == [m.span() for m in regex.finditer(pat, s, fl)]
        assert regex_memo.sub(pat, "-", s, flags=fl) == regex.sub(pat, "-", s, flags=fl)
        assert regex_memo.subn(pat, "-", s, flags=fl) == regex.subn(pat, "-", s, flags=fl)
    assert regex_memo.search(r"\L<w>", "a cat", w=["cat"]).group() == "cat"  # named lists: regex itself
    assert regex_memo.IGNORECASE == regex.IGNORECASE and regex_memo.escape("a.b") == regex.escape("a.b")


def test_loading_a_pipeline_leaves_the_garbage_collector_alone():
    """The app may load and drop several pipelines: only batch processes opt in to the GC tuning."""
    import subprocess
    import sys

    code = ("import gc\nfrom deid_engine.pipeline import build_pipeline, tune_gc_for_batch\n"
            "t = gc.get_threshold(); build_pipeline('rules', 'en').load()\n"
            "assert gc.get_threshold() == t and gc.get_freeze_count() == 0\n"
            "tune_gc_for_batch(); assert gc.get_threshold()[0] >= 5000 and gc.get_freeze_count() > 0\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
