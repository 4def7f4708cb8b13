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
    # joining adds only short same-line gaps between spans, and the bare hyphen or apostrophe
    # that joins two name pieces ("Al" + "Khatib", merge.join_adjacent)
    extra = _covered(out) - _covered(spans)
    name_chars = {i for s in out if s.label in ("PATIENT", "DOCTOR", "NAME") for i in range(s.start, s.end)}
    assert all(TEXT[i] in " \t" or (TEXT[i] in "-'\u2019" and i in name_chars) for i in extra)


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


# --- pieces of one name or place (the English tagger's PhysioNet convention: one span per word) ---

def _res(text, spans):
    return [(text[s.start:s.end], s.label, s.source.split(":")[0]) for s in merge_spans(spans, text)]


def test_covering_span_joins_tagger_name_pieces():
    t = "Seen by Rosa Ibarra today."
    spans = [Span(8, 12, "DOCTOR", "tagger:en", 0.9), Span(13, 19, "DOCTOR", "tagger:en", 0.8),
             Span(8, 19, "PATIENT", "lexicon:name", 0.6)]
    assert _res(t, spans) == [("Rosa Ibarra", "DOCTOR", "tagger")]  # the tagger's label: it read the context


def test_covering_span_joins_place_pieces_and_names_the_subtype():
    t = "Admitted to Saint Agnes Medical Center yesterday"
    spans = [Span(12, 17, "LOCATION", "tagger:en", 0.9), Span(18, 38, "LOCATION", "tagger:en", 0.9),
             Span(12, 38, "HOSPITAL", "lexicon:facility", 0.7)]
    assert _res(t, spans) == [("Saint Agnes Medical Center", "HOSPITAL", "tagger")]
    # a covering span that reaches past the pieces takes the union
    t2 = "Aoife Marie Fitzgerald-Nwosu was seen"
    spans2 = [Span(0, 11, "PATIENT", "tagger:en"), Span(12, 22, "PATIENT", "tagger:en"),
              Span(0, 28, "PATIENT", "lexicon:name")]
    assert _res(t2, spans2) == [("Aoife Marie Fitzgerald-Nwosu", "PATIENT", "tagger")]


def test_pieces_of_other_kinds_are_not_joined():
    # a name span over a place piece and a name piece: two entities of two categories
    t = "Boston Smith"
    spans = [Span(0, 6, "CITY", "tagger:en"), Span(7, 12, "PATIENT", "tagger:en"), Span(0, 12, "PATIENT", "lexicon:name")]
    assert [x[0] for x in _res(t, spans)] == ["Boston", "Smith"]
    # dates are not joined (a shifted date is parsed from its span)
    t = "12/01/2020 - 12/05/2020"
    spans = [Span(0, 10, "DATE", "pattern:date"), Span(13, 23, "DATE", "pattern:date"), Span(0, 23, "DATE", "tagger:en")]
    assert [x[0] for x in _res(t, spans)] == ["12/01/2020", "12/05/2020"]
    # not over a line break
    t = "Rosa\nIbarra"
    spans = [Span(0, 4, "DOCTOR", "tagger:en"), Span(5, 11, "DOCTOR", "tagger:en"), Span(0, 11, "DOCTOR", "lexicon:name")]
    assert [x[0] for x in _res(t, spans)] == ["Rosa", "Ibarra"]


def test_a_name_said_twice_stays_two_mentions():
    t = "relative karen karen walsh im her daughter"
    spans = [Span(9, 14, "RELATIVE", "tagger:en"), Span(15, 26, "RELATIVE", "tagger:en"),
             Span(9, 26, "RELATIVE", "lexicon:name")]
    assert [x[0] for x in _res(t, spans)] == ["karen", "karen walsh"]
    t = "emeka emeka is here"
    assert [x[0] for x in _res(t, [Span(0, 5, "PATIENT", "lexicon:name"), Span(6, 11, "PATIENT", "lexicon:name")])] \
        == ["emeka", "emeka"]


def test_adjacent_tagger_pieces_join_for_names_only():
    t = "Dr Mark Ostrowski, Springfield IL"
    spans = [Span(3, 7, "DOCTOR", "tagger:en"), Span(8, 17, "DOCTOR", "tagger:en"),
             Span(19, 30, "LOCATION", "tagger:en"), Span(31, 33, "LOCATION", "tagger:en")]
    assert [x[0] for x in _res(t, spans)] == ["Mark Ostrowski", "Springfield", "IL"]


def test_spanish_delimiter_mode_does_not_join_pieces():
    t = "Juan Pérez García"
    spans = [Span(0, 4, "PATIENT", "tagger:es"), Span(5, 10, "PATIENT", "tagger:es"),
             Span(0, 17, "PATIENT", "lexicon:name")]
    out = resolve(spans, t, ES_PRIORITY, delimiters={"tagger"})
    assert [t[s.start:s.end] for s in out] == ["Juan", "Pérez"]
    # and two Spanish tagger name spans side by side stay two (MEDDOCAN marks whole names)
    assert [t[s.start:s.end] for s in join_adjacent(out, t)] == ["Juan", "Pérez"]


def test_name_pieces_join_over_a_bare_hyphen():
    t = "Zainab Al-Khatib came"
    spans = [Span(0, 9, "PATIENT", "tagger:en"), Span(10, 16, "DOCTOR", "tagger:en")]
    assert _res(t, spans) == [("Zainab Al-Khatib", "PATIENT", "tagger")]
    t = "ward 4-5 today"  # not names: stay apart
    spans = [Span(5, 6, "DATE", "tagger:en"), Span(7, 8, "DATE", "tagger:en")]
    assert [x[0] for x in _res(t, spans)] == ["4", "5"]
