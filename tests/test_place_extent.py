"""PlaceExtentFilter: St./Saint/Mt. before a place, a cut possessive and a street suffix join the span."""

import pytest
from hypothesis import given, strategies as st

from deid_engine.detect.place_extent import PlaceExtentFilter
from deid_engine.types import Document, Span


def _grow(text: str, piece: str, label: str = "LOCATION", source: str = "tagger:en", others=()):
    a = text.index(piece)
    spans = [Span(a, a + len(piece), label, source, 0.8)]
    for o in others:
        b = text.index(o)
        spans.append(Span(b, b + len(o), "DATE", "pattern:date", 0.9))
    out = PlaceExtentFilter("en").filter(Document(text), spans)
    s = next(x for x in out if x.source == source)
    return text[s.start:s.end], s.label


@pytest.mark.parametrize("text,piece,want", [
    ("plan to transfer to St. Mary's tomorrow", "Mary's", "St. Mary's"),
    ("TO GO BACK TO ST. JOSEPH ON TUESDAY", "JOSEPH", "ST. JOSEPH"),
    ("wishes to return to St Luke's after weaning", "Luke's", "St Luke's"),
    ("Saint Agnes Hospital called", "Agnes Hospital", "Saint Agnes Hospital"),
    ("lives near Mt. Airy with wife", "Airy", "Mt. Airy"),
    ("stationed at Fort Meade until May", "Meade", "Fort Meade"),
    ("transfer to St. Mary' s", "Mary'", "St. Mary'"),
    ("back to St. Anne's", "Anne'", "St. Anne's"),              # a cut possessive is made whole
    ("lives on Main St in Boston", "Main", "Main St"),           # a street suffix joins
    ("She lives on Elm Avenue. Her son visits.", "Elm", "Elm Avenue"),
    ("moved to Oak Rd, Dayton", "Oak", "Oak Rd"),
])
def test_place_grows(text, piece, want):
    assert _grow(text, piece)[0] == want


@pytest.mark.parametrize("text,piece", [
    ("came from Main St Boston yesterday", "Boston"),        # the St belongs to Main St
    ("lives on Main St. John visited him", "John"),          # a street's St before a visitor's name
    ("lives in Boston St Louis area", "Louis"),              # a capitalised word before St: not a phrase start
    ("seen by Smith today", "Smith"),                       # no neighbour word at all
    ("lives on Main street", "Main"),                       # lower-case 'street' after a capitalised word
])
def test_place_does_not_grow(text, piece):
    assert _grow(text, piece, label="RELATIVE" if "John" in text else "LOCATION")[0] == piece


def test_saints_name_becomes_a_place_and_other_names_stay():
    assert _grow("transferred to St. Joseph last night", "Joseph", label="PATIENT") == ("St. Joseph", "LOCATION")
    assert _grow("son Joseph called", "Joseph", label="RELATIVE") == ("Joseph", "RELATIVE")


def test_user_spans_and_neighbours_are_respected():
    assert _grow("to St. Mary's", "Mary's", source="user:add")[0] == "Mary's"
    # never grows into another span
    text = "lives on Main St 3/4 visit"
    assert _grow(text, "Main")[0] == "Main St"
    assert PlaceExtentFilter("es").filter(Document("a St. Mary's"), [Span(6, 12, "LOCATION", "tagger:es")]) \
        == [Span(6, 12, "LOCATION", "tagger:es")]


@given(st.text(alphabet="St.MaryMain 'sAveRd\n,", max_size=40), st.data())
def test_offsets_stay_inside_text_and_spans_never_overlap(text, data):
    if len(text) < 2:
        return
    n = data.draw(st.integers(1, 3))
    spans = []
    for _ in range(n):
        a = data.draw(st.integers(0, len(text) - 1))
        b = data.draw(st.integers(a + 1, len(text)))
        spans.append(Span(a, b, "LOCATION", "tagger:en", 0.5))
    spans = sorted(spans, key=lambda s: s.start)
    disjoint = [s for i, s in enumerate(spans) if all(s.start >= o.end for o in spans[:i])]
    out = PlaceExtentFilter("en").filter(Document(text), disjoint)
    assert len(out) == len(disjoint)
    for s in out:
        assert 0 <= s.start < s.end <= len(text)
    out = sorted(out, key=lambda s: s.start)
    for x, y in zip(out, out[1:]):
        assert x.end <= y.start


def _kept(text: str, name: str, name_label: str, aside: str) -> list[str]:
    a, b = text.index(name), text.index("(" + aside + ")") + 1
    spans = [Span(a, a + len(name), name_label, "tagger:en", 0.8), Span(b, b + len(aside), "LOCATION", "tagger:en", 0.8)]
    return [text[s.start:s.end] for s in PlaceExtentFilter("en").filter(Document(text), spans)]


@pytest.mark.parametrize("text,name,label,aside,kept", [
    ("ADMITTED 3/12 FROM BROOKSIDE TERRACE (NH) W/ UROSEPSIS.", "BROOKSIDE TERRACE", "STREET", "NH", False),
    ("from Oak Manor (SNF) for eval", "Oak Manor", "HOSPITAL", "SNF", False),
    ("back to Linden Court (ALF) on Friday", "Linden Court", "LOCATION", "ALF", False),
    ("moved here from Concord (NH) in May", "Concord", "LOCATION", "NH", True),   # a state after a town
    ("Lives in Mobile (AL) with son", "Mobile", "CITY", "AL", True),
])
def test_facility_kind_in_brackets_is_no_place(text, name, label, aside, kept):
    assert (aside in _kept(text, name, label, aside)) == kept
