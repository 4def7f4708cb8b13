"""resolve() with delimiters (the Spanish mode): tagger spans are final, with two
exceptions: closed-grammar patterns may extend them, and growth needs agreeing labels."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from deid_engine.detect import merge
from deid_engine.pipeline import LANG_PRIORITY, build_pipeline
from deid_engine.types import Span

DELIM = ("tagger",)


def resolve(spans, text, delimiters=()):
    """merge.resolve with the Spanish ranking when delimiters are given (as the pipeline does)."""
    prio = LANG_PRIORITY["es"] if delimiters else merge.DEFAULT_PRIORITY
    return merge.resolve(spans, text, prio, delimiters)


def _spans(text, out):
    return [(text[s.start:s.end], s.label) for s in out]


def test_pattern_date_extends_the_taggers_piece():
    text = "Ingresó en marzo de 2019 por disnea."
    a = text.index("marzo")
    tagger = Span(text.index("2019"), text.index("2019") + 4, "DATE", "tagger:es", 0.9)
    pattern = Span(a, text.index("2019") + 4, "DATE", "pattern:es_date_text", 0.93)
    out = resolve([tagger, pattern], text, delimiters=DELIM)
    assert _spans(text, out) == [("marzo de 2019", "DATE")]
    assert out[0].source == "tagger:es"  # the tagger's span, grown to the pattern's bounds


def test_pattern_age_extends_the_taggers_piece():
    text = "Niño de 3 años y 2 meses con fiebre."
    a = text.index("3 años")
    tagger = Span(a, a + 6, "AGE", "tagger:es", 0.8)
    pattern = Span(a, text.index("meses") + 5, "AGE", "pattern:es_age", 0.9)
    assert _spans(text, resolve([tagger, pattern], text, delimiters=DELIM)) == [("3 años y 2 meses", "AGE")]


def test_agreeing_pattern_lends_its_source():
    text = "Nombre: Angelica.\nApellidos: Ruiz."
    a = text.index("Angelica")
    t = Span(a, a + 8, "PATIENT", "tagger:es", 0.7)
    p = Span(a, a + 8, "PATIENT", "pattern:es_field_nombre", 0.95)
    out = resolve([t, p], text, delimiters=DELIM)
    assert [(s.label, s.source, s.confidence) for s in out] == [("PATIENT", "pattern:es_field_nombre", 0.95)]
    # a lexicon hit or another label lends nothing
    lex = Span(a, a + 8, "PATIENT", "lexicon:name", 0.9)
    assert resolve([t, lex], text, delimiters=DELIM)[0].source == "tagger:es"
    other = Span(a, a + 8, "CITY", "pattern:x", 0.9)
    assert resolve([t, other], text, delimiters=DELIM)[0].source == "tagger:es"


def test_pattern_cue_sets_the_identifier_subtype():
    text = "Tel. 912 345 678. Fax: 912 345 679."
    a = text.index("912 345 679")
    t = Span(a, a + 11, "PHONE", "tagger:es", 0.8)
    p = Span(a, a + 11, "FAX", "pattern:es_fax", 0.97)
    assert [(s.label, s.source) for s in resolve([t, p], text, delimiters=DELIM)] == [("FAX", "pattern:es_fax")]
    # other categories keep the tagger's label (a place is not read from a cue)
    t2 = Span(0, 4, "CITY", "tagger:es", 0.8)
    p2 = Span(0, 4, "STATE", "pattern:x", 0.9)
    assert resolve([t2, p2], text, delimiters=DELIM)[0].label == "CITY"
    # a bare category from a pattern does not replace a subtype
    p3 = Span(a, a + 11, "CONTACT", "pattern:x", 0.9)
    assert resolve([t, p3], text, delimiters=DELIM)[0].label == "PHONE"


def test_spanish_pipeline_keeps_a_field_name_that_is_a_medical_word():
    from deid_engine.types import Document

    text = "Datos del paciente.\nNombre: Angelica.\nApellidos: Ruiz Gil.\nNHC: 123456."
    pipe = build_pipeline("rules", "es")
    pipe.detectors = [*pipe.detectors, _FixedTagger([Span(text.index("Angelica"), text.index("Angelica") + 8,
                                                          "PATIENT", "tagger:es", 0.8)])]
    got = [(text[s.start:s.end], s.label) for s in pipe.run(Document(text))]
    assert ("Angelica", "PATIENT") in got


class _FixedTagger:
    name = "tagger"

    def __init__(self, spans):
        self.spans = spans

    def load(self):
        pass

    def detect(self, doc):
        return list(self.spans)


def test_no_extension_for_other_labels_sources_or_shapes():
    text = "Calle Mayor 5, 2º izquierda, Madrid."
    t = Span(0, 13, "STREET", "tagger:es", 0.9)
    p = Span(0, 27, "STREET", "pattern:es_street", 0.9)
    assert _spans(text, resolve([t, p], text, delimiters=DELIM)) == [("Calle Mayor 5", "STREET")]
    text = "Visto el 12 de mayo de 2020 en consulta."
    a = text.index("12")
    t = Span(a, a + 11, "DATE", "tagger:es", 0.9)  # "12 de mayo "
    lex = Span(a, a + 19, "DATE", "lexicon:x", 0.9)
    assert _spans(text, resolve([t, lex], text, delimiters=DELIM)) == [(text[a:a + 11], "DATE")]
    # a pattern that only overlaps (does not contain) the tagger span changes nothing
    t = Span(text.index("mayo"), text.index("en consulta"), "DATE", "tagger:es", 0.9)
    p = Span(a, text.index("2020"), "DATE", "pattern:es_date_text", 0.9)
    assert _spans(text, resolve([t, p], text, delimiters=DELIM)) == [(text[t.start:t.end], "DATE")]
    # another label never extends (an age pattern over a tagger date)
    t = Span(a, a + 2, "DATE", "tagger:es", 0.9)
    p = Span(a, a + 10, "AGE", "pattern:x", 0.9)
    assert _spans(text, resolve([t, p], text, delimiters=DELIM)) == [("12", "DATE")]


def test_one_pattern_over_two_tagger_spans_does_not_extend():
    text = "Del 3 al 5 de junio de 2021 ingresado."
    t1 = Span(text.index("3"), text.index("3") + 1, "DATE", "tagger:es", 0.9)
    t2 = Span(text.index("5 de"), text.index(" ingresado"), "DATE", "tagger:es", 0.9)
    p = Span(text.index("3"), text.index(" ingresado"), "DATE", "pattern:x", 0.9)
    out = resolve([t1, t2, p], text, delimiters=DELIM)
    assert _spans(text, out) == [("3", "DATE"), ("5 de junio de 2021", "DATE")]


def test_growth_needs_agreeing_labels_with_delimiters():
    text = "Hospital San Rafael Avda. del Mar 21, Cádiz"
    fac = Span(0, 25, "HOSPITAL", "lexicon:facility", 0.6)  # over-extends into "Avda."
    street = Span(20, 36, "STREET", "pattern:es_street", 0.9)
    got = _spans(text, resolve([fac, street], text, delimiters=DELIM))
    assert got == [("Hospital San Rafael", "HOSPITAL"), ("Avda. del Mar 21", "STREET")]
    # without delimiters (English) one category still grows, as before
    got = _spans(text, resolve([fac, street], text))
    assert got == [("Hospital San Rafael Avda. del Mar 21", "STREET")]
    # equal labels still grow with delimiters
    a = Span(0, 12, "STREET", "lexicon:street", 0.5)
    assert len(resolve([a, street.with_bounds(8, 36)], text, delimiters=DELIM)) == 1


TEXT = "Varón de 45 años visto el 3 de enero de 2020 en el Hospital del Mar, Avda. Sol 4."
span_st = st.builds(
    lambda a, ln, lab, src: Span(a, min(len(TEXT), a + ln), lab, src, 0.8),
    st.integers(0, len(TEXT) - 1), st.integers(1, 30),
    st.sampled_from(["DATE", "AGE", "HOSPITAL", "STREET", "LOCATION"]),
    st.sampled_from(["pattern:x", "lexicon:x", "tagger:es"]))


@settings(max_examples=300, deadline=None)
@given(st.lists(span_st, max_size=10))
def test_delimiter_mode_never_overlaps_and_covers_only_inputs(spans):
    out = resolve(spans, TEXT, delimiters=DELIM)
    out = sorted(out, key=lambda s: s.start)
    for a, b in zip(out, out[1:]):
        assert a.end <= b.start
    covered = {i for s in spans for i in range(s.start, s.end)}
    assert {i for s in out for i in range(s.start, s.end)} <= covered


def test_spanish_pipeline_uses_delimiters():
    assert build_pipeline("rules", "es").delimiters == frozenset({"tagger"})
    assert build_pipeline("rules", "en").delimiters == frozenset()


def test_bare_surname_hit_dropped_only_beside_a_tagger_that_ran():
    text = "Campimetría Humphrey normal. Juan García acude."
    a = text.index("Humphrey")
    weak = Span(a, a + 8, "PATIENT", "lexicon:surname_only", 0.55)
    tag = Span(text.index("Juan"), text.index(" acude"), "PATIENT", "tagger:es", 0.9)
    assert [text[s.start:s.end] for s in resolve([weak, tag], text, delimiters=DELIM)] == ["Juan García"]
    # no tagger span in the text (rules preset, or the tagger found nothing): the hit stays
    assert [text[s.start:s.end] for s in resolve([weak], text, delimiters=DELIM)] == ["Humphrey"]
    # without delimiters (English) nothing changes
    assert len(resolve([weak, tag], text)) == 2
