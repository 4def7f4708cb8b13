"""Protected-terms filter: eponyms and drugs are not names unless context says person."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_engine.detect.protected import ProtectedTermsFilter
from deid_engine.lexicons import add_user_term
from deid_engine.pipeline import build_pipeline
from deid_engine.types import Document, Span

FIXTURE = Path(__file__).parent / "fixtures" / "no_phi_sentences.txt"


def run_filter(text: str, word: str, label: str = "PATIENT", source: str = "tagger:en") -> list[Span]:
    f = ProtectedTermsFilter("en")
    f.load()
    start = text.index(word)
    return f.filter(Document(text), [Span(start, start + len(word), label, source, 0.9)])


@pytest.mark.parametrize("text,word", [
    ("History of Parkinson's disease.", "Parkinson"),
    ("Foley catheter in place.", "Foley"),
    ("Foley draining well.", "Foley"),
    ("Swan-Ganz catheter advanced.", "Swan-Ganz"),
    ("Hodgkin lymphoma in remission.", "Hodgkin"),
    ("Alzheimers dementia.", "Alzheimers"),
    ("Bell palsy resolving.", "Bell"),
    ("CROHN DISEASE FLARE.", "CROHN"),
    ("Homans sign negative.", "Homans"),
    ("Glasgow coma scale 15.", "Glasgow"),
    ("ALKPHOS 120 today.", "ALKPHOS"),
    ("BUN 45 CR 2.1", "CR"),
    ("Started on Coumadin.", "Coumadin"),
    ("warfarin held.", "warfarin"),
    ("Parkinsons disease.", "Parkinsons"),
    ("enfermedad de Crohn activa", "Crohn"),
])
def test_medical_terms_dropped(text, word):
    assert run_filter(text, word) == []
    assert run_filter(text, word, "CITY") == []


@pytest.mark.parametrize("text,word", [
    ("Mr. Parkinson was admitted.", "Parkinson"),
    ("Dr. Foley placed the line.", "Foley"),
    ("Paged Dr Murphy about the labs.", "Murphy"),
    ("Seen by Foley, MD.", "Foley"),
    ("Edward visited today.", "Edward"),
])
def test_person_context_keeps(text, word):
    assert len(run_filter(text, word)) == 1


@pytest.mark.parametrize("text,word", [
    ("Test de Coombs directo negativo.", "Coombs"),
    ("Carcinoma renal grado 2 de Fuhrman.", "Fuhrman"),
    ("Se sospecha un síndrome de Frey.", "Frey"),
    ("Ergometría con protocolo de Bruce.", "Bruce"),
    ("Hoffmann sign positive.", "Hoffmann"),
])
def test_lexicon_names_in_eponym_slots_dropped(text, word):
    assert run_filter(text, word, source="lexicon:name") == []


@pytest.mark.parametrize("text,word", [
    ("Llamó la hija de Martina.", "Martina"),
    ("Valorada por la Dra. Bruce en consulta.", "Bruce"),
])
def test_lexicon_names_outside_eponym_slots_kept(text, word):
    assert len(run_filter(text, word, source="lexicon:name")) == 1


def test_non_name_spans_and_pattern_spans_untouched():
    t = "Foley on 10/11/60"
    f = ProtectedTermsFilter("en")
    spans = [Span(0, 5, "PATIENT", "pattern:es_field_nombre"), Span(9, 17, "DATE", "pattern:date_numeric")]
    assert f.filter(Document(t), spans) == spans


def test_user_lists(_user_dir):
    add_user_term("protected", "Zorblax")
    add_user_term("always_redact", "Acme Clinic")
    f = ProtectedTermsFilter("en")
    f.load()
    t = "Zorblax given at Acme Clinic today; acme clinic called."
    spans = f.filter(Document(t), [Span(0, 7, "PATIENT", "tagger:en")])
    assert [(s.slice(t), s.source) for s in spans] == [("Acme Clinic", "user:always_redact"),
                                                         ("acme clinic", "user:always_redact")]


def test_always_redact_wins_overlap(_user_dir):
    add_user_term("always_redact", "Calvert")
    f = ProtectedTermsFilter("en")
    t = "From Calvert Hospital."
    out = f.filter(Document(t), [Span(5, 21, "HOSPITAL", "lexicon:facility", 0.8)])
    assert [(s.slice(t), s.source) for s in out] == [("Calvert", "user:always_redact"), ("Hospital", "lexicon:facility")]


def _sentences() -> list[str]:
    return [ln for ln in FIXTURE.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]


def test_fixture_has_200_sentences():
    assert len(_sentences()) >= 200


def test_rules_find_nothing_in_phi_free_sentences():
    pipe = build_pipeline("rules", "en").load()
    hits = []
    for line in _sentences():
        for s in pipe.run(Document(line)):
            hits.append((line, s.slice(line), s.label, s.source))
    assert hits == []


def test_rules_find_nothing_in_phi_free_note():
    # the same sentences as one note (case mode and context differ from single lines)
    pipe = build_pipeline("rules", "en").load()
    text = "\n".join(_sentences())
    spans = pipe.run(Document(text))
    assert [(s.slice(text), s.label, s.source) for s in spans] == []


_PIPES: dict[str, object] = {}


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["Dr.", "Foley", "Parkinson's", "disease", "wife", "Mary", "MAY", "10/11/60",
                                 "617-555-1234", "MRN:", "1234567", "in", "Boston", "Hospital", "Calvert", "\n",
                                 ",", "NASS:", "26 63514095", "Calle", "Mayor", "12", "70 años", "BP", "120/80"]),
                max_size=25), st.sampled_from(["en", "es"]))
def test_rules_pipeline_spans_valid(words, lang):
    pipe = _PIPES.get(lang) or _PIPES.setdefault(lang, build_pipeline("rules", lang).load())
    text = " ".join(words)
    spans = pipe.run(Document(text))
    for s in spans:
        assert 0 <= s.start < s.end <= len(text)
        assert s.slice(text) == text[s.start:s.end]
    for a, b in zip(spans, spans[1:]):
        assert a.end <= b.start


def test_place_after_a_strong_place_cue_is_kept():
    # "Denver" is also an eponym (Denver shunt): after "lives in" it is the city
    text = "his son lives in denver and is the proxy"
    a = text.index("denver")
    f = ProtectedTermsFilter("en")
    f.load()
    assert len(f.filter(Document(text), [Span(a, a + 6, "CITY", "lexicon:city", 0.75)])) == 1
    text2 = "Denver shunt revised"
    assert f.filter(Document(text2), [Span(0, 6, "CITY", "lexicon:city", 0.75)]) == []
