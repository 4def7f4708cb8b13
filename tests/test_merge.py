"""Merge property tests: output never overlaps and covers only input characters."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from deid_engine.detect.merge import join_adjacent, resolve
from deid_engine.pipeline import merge_spans
from deid_engine.types import Span

TEXT = "Dr. John Smith saw Mrs Mary Jones on 10/11/60 at Calvert Hospital, tel 617-555-1234.  ok"

span_st = st.builds(
    lambda a, ln, lab, src, c: Span(a, min(len(TEXT), a + ln), lab, src, c),
    st.integers(0, len(TEXT) - 1), st.integers(1, 25),
    st.sampled_from(["PATIENT", "DOCTOR", "DATE", "HOSPITAL", "PHONE", "NAME"]),
    st.sampled_from(["pattern:x", "lexicon:name", "tagger:en", "user:add", ""]),
    st.floats(0, 1))


def _covered(spans):
    return {i for s in spans for i in range(s.start, s.end)}


@settings(max_examples=300, deadline=None)
@given(st.lists(span_st, max_size=12))
def test_resolve_never_overlaps_and_covers_only_inputs(spans):
    out = resolve(spans, TEXT)
    out_sorted = sorted(out, key=lambda s: s.start)
    for a, b in zip(out_sorted, out_sorted[1:]):
        assert a.end <= b.start
    assert _covered(out) <= _covered(spans)
    for s in out:  # every output piece keeps a letter or digit
        assert any(c.isalnum() for c in TEXT[s.start:s.end])
    inputs = {(s.start, s.end) for s in spans}
    for s in out:  # remainders (pieces that are not whole inputs) carry no edge whitespace
        if (s.start, s.end) not in inputs:
            assert not TEXT[s.start].isspace() and not TEXT[s.end - 1].isspace()


@settings(max_examples=300, deadline=None)
@given(st.lists(span_st, max_size=12))
def test_merge_spans_never_overlaps(spans):
    out = merge_spans(spans, TEXT)
    for a, b in zip(out, out[1:]):
        assert a.end <= b.start
    # joining adds only short same-line gaps between spans
    extra = _covered(out) - _covered(spans)
    assert all(TEXT[i] in " \t" for i in extra)


def test_user_outranks_pattern_outranks_lexicon():
    a = Span(0, 10, "PATIENT", "lexicon:name", 1.0)
    b = Span(0, 10, "DATE", "pattern:x", 0.5)
    c = Span(0, 10, "DOCTOR", "user:add", 0.1)
    assert [s.label for s in resolve([a, b, c], TEXT)] == ["DOCTOR"]
    assert [s.label for s in resolve([a, b], TEXT)] == ["DATE"]


def test_join_adjacent_names():
    t = "John Smith"
    out = join_adjacent([Span(0, 4, "PATIENT", "lexicon:name"), Span(5, 10, "PATIENT", "lexicon:name")], t)
    assert [(s.start, s.end) for s in out] == [(0, 10)]


ES_PRIORITY = {"user": 100, "tagger": 60, "pattern": 50, "lexicon": 30}


@settings(max_examples=300, deadline=None)
@given(st.lists(span_st, max_size=12))
def test_delimiter_spans_come_out_whole(spans):
    """With the tagger as delimiter, the other detectors never cut a tagger span: every tagger
    input character is still covered (by the tagger's span, by a pattern that agreed with it or
    extended it, or by a higher-ranked user span), and a tagger span grows only over a
    closed-grammar pattern (dates, ages) that contains it."""
    from deid_engine.detect.merge import EXTENDABLE_LABELS

    out = resolve(spans, TEXT, ES_PRIORITY, delimiters={"tagger"})
    out_sorted = sorted(out, key=lambda s: s.start)
    for a, b in zip(out_sorted, out_sorted[1:]):
        assert a.end <= b.start
    tag_in = _covered([s for s in spans if s.source.startswith("tagger")])
    tag_out = _covered([s for s in out if s.source.startswith("tagger")])
    ext = _covered([s for s in spans if s.source.startswith("pattern") and s.label in EXTENDABLE_LABELS])
    assert tag_out <= tag_in | ext
    assert {i for i in tag_in if TEXT[i].isalnum()} <= _covered(out)


def test_delimiter_blocks_growth_and_remainders():
    text = "Calle Mayor 5, 3ºB, Madrid"
    tagger = Span(0, 17, "STREET", "tagger:es", 0.9)        # "Calle Mayor 5, 3º"
    pattern = Span(0, 18, "STREET", "pattern:es_street", 0.9)  # one character longer
    lexicon = Span(20, 26, "CITY", "lexicon:city", 0.6)
    out = resolve([tagger, pattern, lexicon], text, ES_PRIORITY, delimiters={"tagger"})
    assert [(s.start, s.end, s.source) for s in out] == [(0, 17, "tagger:es"), (20, 26, "lexicon:city")]
    grown = resolve([tagger, pattern, lexicon], text, ES_PRIORITY)  # default: the union wins
    assert (grown[0].start, grown[0].end) == (0, 18)
