"""redact(): PHI replaced, everything else byte-identical and in order; operators; date shifting."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from deid_engine.redact import dates
from deid_engine.redact.operators import OPERATORS, make_operator, name_identity, redact
from deid_engine.types import Span

KEY = bytes(range(32))
LABELS = ["PATIENT", "DOCTOR", "DATE", "PHONE", "AGE", "CITY", "HOSPITAL", "MEDICALRECORD", "EMAIL", "OTHER"]


@st.composite
def text_and_spans(draw):
    text = draw(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=200))
    n = draw(st.integers(0, 8))
    spans = []
    for _ in range(n):
        a = draw(st.integers(0, len(text) - 1))
        b = draw(st.integers(a + 1, len(text)))
        spans.append(Span(a, b, draw(st.sampled_from(LABELS)), draw(st.sampled_from(["pattern:x", "tagger:y", "user"]))))
    return text, spans


@given(text_and_spans(), st.sampled_from(OPERATORS), st.sampled_from([None, 45, -200]))
@settings(max_examples=300, deadline=None)
def test_redact_properties(ts, operator, offset):
    text, spans = ts
    red = redact(text, spans, make_operator(operator, KEY, date_offset=offset))
    # Every output span is a replacement; between them the text is copied in order, unchanged.
    pos_in = pos_out = 0
    assert len(red.edits) == len(red.spans)
    for e, s in zip(red.edits, red.spans):
        assert text[pos_in:e.start] == red.text[pos_out:s.start]
        assert red.text[s.start:s.end] == e.replacement
        assert s.end - s.start == len(e.replacement) > 0
        original = text[e.start:e.end]
        if any(c.isalnum() for c in original) and operator != "mask":
            # the original never survives at its place (a year/season the offset does not move may)
            if not (offset is not None and s.label == "DATE" and dates.find_dates(original)):
                assert e.replacement != original
        pos_in, pos_out = e.end, s.end
    assert text[pos_in:] == red.text[pos_out:]
    # replacements do not overlap and are in order
    for a, b in zip(red.spans, red.spans[1:]):
        assert a.end <= b.start
    # every character claimed by an input span (with a letter/digit) was replaced
    covered = set()
    for e in red.edits:
        covered.update(range(e.start, e.end))
    for s in spans:
        for i in range(s.start, s.end):
            if text[i].isalnum():
                assert i in covered


def test_operator_outputs():
    text = "Pt John Smith seen 10/11/2060 by Dr. J. Smith. Smith ok, call 410-955-1234."
    spans = [Span(3, 13, "PATIENT"), Span(19, 29, "DATE"), Span(33, 45, "DOCTOR"), Span(47, 52, "PATIENT"),
             Span(62, 74, "PHONE")]
    tag = redact(text, spans, make_operator("tag", KEY)).text
    assert tag == "Pt [NAME] seen [DATE] by [NAME]. [NAME] ok, call [CONTACT]."
    fine = redact(text, spans, make_operator("tag", KEY, fine_tags=True)).text
    assert fine == "Pt [PATIENT] seen [DATE] by [DOCTOR]. [PATIENT] ok, call [PHONE]."
    assert redact(text, spans, make_operator("liu", KEY)).text.startswith("Pt <*<NAME*> seen <*<DATE*>")
    mask = redact(text, spans, make_operator("mask", KEY)).text
    assert len(mask) == len(text) and "Smith" not in mask and mask[3:13] == "*" * 10
    ph = redact(text, spans, make_operator("placeholder", KEY)).text
    import re

    codes = re.findall(r"\[(?:PATIENT|DOCTOR)-([0-9A-F]{6})\]", ph)
    assert len(codes) == 3 and len(set(codes)) == 1  # John Smith / Dr. J. Smith / Smith: one person
    sur = redact(text, spans, make_operator("surrogate", KEY, date_offset=30))
    out = sur.text
    assert "Smith" not in out and "410-955-1234" not in out
    assert "11/10/2060" in out  # 10/11/2060 + 30 days, same format
    first, last = out[3:].split(" seen")[0].split()
    assert f"Dr. {first[0]}. {last}." in out and f" {last} ok" in out


def test_name_identity():
    assert name_identity("John Smith") == name_identity("Dr. J. Smith") == name_identity("Smith, John") == "smith"


def test_placeholder_stable_across_calls_and_keys():
    op = make_operator("placeholder", KEY)
    s = Span(0, 5, "PATIENT")
    assert op(s, "Smith") == make_operator("placeholder", KEY)(s, "SMITH")
    assert op(s, "Smith") != make_operator("placeholder", bytes(32))(s, "Smith")


@given(st.lists(st.dates(min_value=dt.date(1950, 1, 1), max_value=dt.date(2080, 12, 31)), min_size=2, max_size=6),
       st.integers(30, 365), st.booleans())
@settings(max_examples=200, deadline=None)
def test_date_shift_preserves_intervals(ds, mag, neg):
    offset = -mag if neg else mag
    op = make_operator("tag", KEY, date_offset=offset)
    text = " and ".join(d.strftime("%m/%d/%Y") for d in ds)
    spans = []
    pos = 0
    for d in ds:
        s = d.strftime("%m/%d/%Y")
        i = text.index(s, pos)
        spans.append(Span(i, i + len(s), "DATE"))
        pos = i + len(s)
    red = redact(text, spans, op)
    got = [dt.datetime.strptime(red.text[s.start:s.end], "%m/%d/%Y").date() for s in red.spans]
    assert len(got) == len(ds)
    assert [g - got[0] for g in got] == [d - ds[0] for d in ds]  # intervals survive
    for g, d in zip(got, ds):
        assert g - d == dt.timedelta(days=offset)


def test_partial_dates_and_formats_shift():
    cases = {
        "Oct 11": "Nov 10", "11th of October": "10th of November", "7/22": "8/21",
        "2060-10-11": "2060-11-10", "12 de diciembre de 2016": "11 de enero de 2017",
        "Spring of 2010": "Spring of 2010", "OCTOBER 11, 2060": "NOVEMBER 10, 2060",
    }
    for src, want in cases.items():
        lang = "es" if " de " in src else "en"
        assert dates.shift_text(src, 30, lang) == want, src
    assert dates.year_effect(300) == 1 and dates.year_effect(-200) == -1 and dates.year_effect(100) == 0
    assert dates.shift_text("1992", 300) == "1993"
    assert dates.shift_text("6/30-7/2", 2) == "7/2-7/4"
    assert dates.shift_text("Christmas", 30) is None


def test_unparsable_date_gets_surrogate_and_age_cap():
    op = make_operator("surrogate", KEY, date_offset=40)
    out = op(Span(0, 9, "DATE"), "Christmas")
    assert out != "Christmas" and out
    assert op(Span(0, 2, "AGE"), "93") == "90+"
    assert op(Span(0, 5, "AGE"), "93 yo") == "90+ yo"
    young = op(Span(0, 2, "AGE"), "45")
    assert young.isdigit() and int(young) <= 89 and young != "45"
