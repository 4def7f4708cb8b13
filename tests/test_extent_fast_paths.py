"""The name-repeat filter's ASCII fast paths give exactly the matches of the per-note alternations they replace."""

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_engine.detect import extent

# texts made of the characters the patterns care about, and names drawn from the same letters
_ALPHABET = "abAB kK'-.!?;,:)]\n\t0s#"
_texts = st.text(alphabet=_ALPHABET + "is was has phone", max_size=80)
_words = st.lists(st.text(alphabet="abkABK", min_size=1, max_size=4), min_size=1, max_size=5)


def _alt(words):
    return "|".join(regex.escape(w) for w in sorted(words, key=len, reverse=True))


@settings(max_examples=400, deadline=None)
@given(_texts, _words, st.booleans())
def test_find_words_ascii_matches_the_alternation(text, words, ignorecase):
    flags = regex.IGNORECASE if ignorecase else 0
    for after, forbid in ((r"[\p{L}\p{N}-]", extent._AFTER_NAME_ASCII), (r"[\p{L}'’-]", extent._AFTER_PLACE_ASCII)):
        rx = regex.compile(rf"(?<![\p{{L}}\p{{N}}'’-])(?:{_alt(words)})(?!{after})", flags)
        assert extent._find_words_ascii(text, dict.fromkeys(words), ignorecase, forbid) == \
            [m.span() for m in rx.finditer(text)]


@settings(max_examples=400, deadline=None)
@given(_texts, _words, st.booleans())
def test_word_name_scan_matches_the_alternation(text, words, mixed):
    flags = (0 if mixed else regex.IGNORECASE) | regex.MULTILINE
    forms = set(words) if mixed else {w.casefold() for w in words}
    rx = regex.compile(extent._WORD_NAME_SRC.replace("[A-Za-z]+", _alt(forms)), flags)
    want = [(m.lastgroup, m.span(m.lastgroup)) for m in rx.finditer(text)]
    fast = extent._WORD_NAME_ASCII if mixed else extent._WORD_NAME_ASCII_I
    got = [(m.lastgroup, m.span(m.lastgroup)) for m in fast.finditer(text)
           if (m.group(m.lastgroup) if mixed else m.group(m.lastgroup).lower()) in forms]
    assert got == want


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab c:.[\n\tso", max_size=60), st.lists(st.text(alphabet="abc", min_size=1, max_size=3),
                                                                  min_size=1, max_size=4))
def test_addressed_scan_matches_the_alternation(text, words):
    rx = regex.compile(extent._ADDRESSED_SRC.replace("(?:[a-z]+)", f"(?:{_alt(words)})", 1), regex.MULTILINE)
    got = [m.span() for m in extent._ADDRESSED_ASCII.finditer(text) if m.group() in set(words)]
    assert got == [m.span() for m in rx.finditer(text)]


def test_repeat_names_still_found_in_ascii_and_accented_text():
    from deid_engine.types import Document, Span

    f = extent.NameRepeatFilter("en")
    for name in ("Okonkwo", "Ólafsdóttir"):
        text = f"Pt {name} seen today. Called {name}'s daughter; {name}-like rash no."
        spans = [Span(3, 3 + len(name), "PATIENT", "tagger", 0.9)]
        out = f.filter(Document(text), spans)
        got = [(text[s.start:s.end], s.label) for s in out]
        assert got == [(name, "PATIENT"), (name, "PATIENT")], name


def test_a_word_name_said_to_someone_is_found_again_in_lower_case_speech():
    from deid_engine.types import Document, Span

    f = extent.NameRepeatFilter("en")
    for name in ("ivy", "rosé"):
        text = f"[doctor] hi {name} how are you\n[patient] fine\n[doctor] did you hit your head {name}\n[patient] no"
        start = text.index(name)
        out = f.filter(Document(text), [Span(start, start + len(name), "PATIENT", "tagger", 0.9)])
        assert [(s.start, s.label) for s in out] == [(start, "PATIENT"), (text.rindex(name), "PATIENT")], name
