"""Age policy: 'all' keeps every age; 'over89' (HIPAA Safe Harbor) keeps only ages over 89.
Place and profession policies: 'safe_harbor' keeps states and countries, and occupations."""

from __future__ import annotations

import pytest

from deid_engine.config import load_settings, save_settings, updated
from deid_engine.detect.policy import AgePolicyFilter, allowed_by_safe_harbor
from deid_engine.pipeline import build_pipeline
from deid_engine.types import Document, Span


@pytest.mark.parametrize("text,allowed", [
    ("82", True), ("89 yo", True), ("in her 80s", True), ("5 meses", True),
    ("90", False), ("92 y/o", False), ("104", False), ("ninety-one", False), ("noventa y dos años", False),
    ("sesenta años", False),  # no readable number: when in doubt, redact
])
def test_safe_harbor_reading(text, allowed):
    assert allowed_by_safe_harbor(text) is allowed


def _run(policy: str, text: str, spans: list[Span]) -> list[str]:
    f = AgePolicyFilter("en", policy)
    f.load()
    return [text[s.start:s.end] for s in f.filter(Document(text), spans)]


def test_over89_drops_young_ages_but_keeps_other_phi_and_user_spans():
    text = "82 yo man, sister 93 yo, seen 3/4/2020; Dr. Ames. Father 60 yo."
    spans = [Span(0, 2, "AGE", "pattern:age_yo"), Span(18, 20, "AGE", "pattern:age_yo"),
             Span(30, 38, "DATE", "pattern:date"), Span(44, 48, "DOCTOR", "lexicon:name"),
             Span(57, 59, "AGE", "user:add")]
    assert _run("over89", text, spans) == ["93", "3/4/2020", "Ames", "60"]
    assert _run("all", text, spans) == ["82", "93", "3/4/2020", "Ames", "60"]


def test_unknown_policy_is_refused():
    with pytest.raises(ValueError):
        AgePolicyFilter("en", "some").load()


def test_pipeline_follows_the_setting():
    text = "This is a 67 yo woman; her mother is 95 years old."
    assert load_settings().ages == "all"
    got = {text[s.start:s.end] for s in build_pipeline("rules", "en").load().run(Document(text)) if s.label == "AGE"}
    assert got == {"67", "95"}
    save_settings(updated(load_settings(), ages="over89"))
    got = {text[s.start:s.end] for s in build_pipeline("rules", "en").load().run(Document(text)) if s.label == "AGE"}
    assert got == {"95"}


# -- places: HIPAA Safe Harbor keeps states and countries ---------------------------------

def _places(policy: str, text: str, pieces: list[tuple[str, str, str]]) -> list[str]:
    from deid_engine.detect.policy import PlacePolicyFilter

    spans = []
    for piece, label, source in pieces:
        a = text.index(piece)
        spans.append(Span(a, a + len(piece), label, source))
    f = PlacePolicyFilter("en", policy)
    f.load()
    return [text[s.start:s.end] for s in f.filter(Document(text), spans)]


def test_safe_harbor_keeps_states_and_countries_only():
    text = ("Sister in California, went home to NH, wife in Bermuda; visiting from Fla. "
            "Lives in Towson, MD near Dundalk. Flew to New York. Seen at Mercy Hospital. Cousin Georgia called.")
    pieces = [("California", "LOCATION", "tagger:en"), ("NH", "LOCATION", "tagger:en"),
              ("Bermuda", "COUNTRY", "lexicon:country"), ("Fla", "LOCATION", "tagger:en"),
              ("Towson, MD", "CITY", "pattern:city_state"), ("Dundalk", "LOCATION", "tagger:en"),
              ("New York", "LOCATION", "tagger:en"), ("Mercy Hospital", "HOSPITAL", "lexicon:facility"),
              ("Georgia", "RELATIVE", "tagger:en")]
    assert _places("safe_harbor", text, pieces) == ["Towson, MD", "Dundalk", "New York", "Mercy", "Georgia"]  # the head stays out
    assert len(_places("all", text, pieces)) == len(pieces)


def test_safe_harbor_never_drops_the_users_spans():
    assert _places("safe_harbor", "moved to Ohio", [("Ohio", "STATE", "user:add")]) == ["Ohio"]


def test_unknown_place_policy_is_refused():
    from deid_engine.detect.policy import PlacePolicyFilter

    with pytest.raises(ValueError):
        PlacePolicyFilter("en", "none").load()


def test_pipeline_follows_the_place_setting():
    text = "She moved here from Ohio last year."
    pipe = build_pipeline("rules", "en").load()
    assert any(s.label in ("STATE", "LOCATION") for s in pipe.run(Document(text))), "the lexicon finds Ohio"
    assert load_settings().places == "all"
    save_settings(updated(load_settings(), places="safe_harbor"))
    pipe = build_pipeline("rules", "en").load()
    assert not any(text[s.start:s.end] == "Ohio" for s in pipe.run(Document(text)))
    assert pipe.describe()["detectors"]["place_policy"] == {"places": "safe_harbor"}  # keys the review cache


@pytest.mark.parametrize("text,piece", [
    ("admitted from University of Maryland Medical Center", "Maryland"),
    ("PRESENTED TO U OF MD MED CENTER", "MD"),
    ("Pt admitted to U Maryland ER w/ chest pain", "Maryland"),
    ("transferred from Georgia Regional yesterday", "Georgia"),
])
def test_safe_harbor_keeps_states_that_name_an_institution(text, piece):
    assert _places("safe_harbor", text, [(piece, "LOCATION", "tagger:en")]) == [piece]


@pytest.mark.parametrize("text,piece,label,kept", [
    ("PLAN- TRANSFER TO QUARTERMAIN 2 IN AM.", "QUARTERMAIN 2", "HOSPITAL", "QUARTERMAIN"),
    ("transfer to quartermain 6.", "quartermain 6", "LOCATION", "quartermain"),
    ("back to GH 7 today", "GH 7", "LOCATION", "GH"),
    ("to Ward 5B today", "Ward 5B", "DEPARTMENT", "Ward 5B"),           # the number is all there is
    ("moved to MICU 7", "MICU 7", "DEPARTMENT", "MICU 7"),
    ("Lives at 12 Main St 4", "12 Main St 4", "STREET", "12 Main St 4"),  # an address
    ("in bed 12", "12", "LOCATION_OTHER", "12"),
])
def test_safe_harbor_leaves_the_floor_number_after_a_building(text, piece, label, kept):
    assert _places("safe_harbor", text, [(piece, label, "tagger:en")]) == [kept]
    assert _places("all", text, [(piece, label, "tagger:en")]) == [piece]
    assert _places("safe_harbor", text, [(piece, label, "user:add")]) == [piece]


@pytest.mark.parametrize("country", ["ENGLAND", "Scotland", "Wales", "the UK", "Northern Ireland"])
def test_safe_harbor_counts_the_home_nations_as_countries(country):
    text = f"DAUGHTER HERE FROM {country} FOR THE WEEK"
    assert _places("safe_harbor", text, [(country, "COUNTRY", "tagger:en")]) == []
    assert _places("all", text, [(country, "COUNTRY", "tagger:en")]) == [country]


def test_safe_harbor_drops_a_possessive_state():
    text = "given a brief overview of this towson maryland's facility"
    assert _places("safe_harbor", text, [("maryland's", "STATE", "lexicon:state")]) == []
    assert _places("all", text, [("maryland's", "STATE", "lexicon:state")]) == ["maryland's"]


@pytest.mark.parametrize("text,piece,label,kept", [
    ("ADMITTED IN TRANSFER FROM CALVERT HOSPITAL FOR MS CHANGES", "CALVERT HOSPITAL", "HOSPITAL", "CALVERT"),
    ("pt taken to kernan hosp. she sustained", "kernan hosp", "HOSPITAL", "kernan"),
    ("transfer @ 1820 from Kessler Medical Center. Pt is alert", "Kessler Medical Center", "HOSPITAL", "Kessler"),
    ("f/u w/ Chester River Heart Center, phone # given", "Chester River Heart Center", "HOSPITAL", "Chester River"),
    ("PRESENTED TO U OF MD MED CENTER ON 9/14", "U OF MD MED CENTER", "HOSPITAL", "U OF MD"),
    ("He lives at Carpenter Assisted living with an aide", "Carpenter Assisted living", "HOSPITAL", "Carpenter"),
    ("WORKS AT HARFORD MEMORIAL HOSPITAL", "HARFORD MEMORIAL HOSPITAL", "HOSPITAL", "HARFORD MEMORIAL"),
    ("came to GH EW with family", "GH EW", "LOCATION", "GH"),
    ("admit from BALTMORE rehab, where", "BALTMORE rehab", "HOSPITAL", "BALTMORE"),
    ("transferred from Sacred Heart yesterday", "Sacred Heart", "HOSPITAL", "Sacred Heart"),   # no head word
    ("seen at the Medical Center today", "Medical Center", "HOSPITAL", "Medical Center"),      # nothing else
    ("seen at Hospital of St Raphael", "Hospital of St Raphael", "HOSPITAL", "Hospital of St Raphael"),
    ("taken to St. Hospital", "St. Hospital", "HOSPITAL", "St. Hospital"),                     # a title left alone
    ("Lives at 12 Hospital Road", "12 Hospital Road", "STREET", "12 Hospital Road"),
])
def test_safe_harbor_leaves_the_generic_head_of_a_facility_out(text, piece, label, kept):
    """PhysioNet's guideline marks the name alone: 'Calvert [Hospital]'. The default policy keeps the head."""
    assert _places("safe_harbor", text, [(piece, label, "tagger:en")]) == [kept]
    assert _places("all", text, [(piece, label, "tagger:en")]) == [piece]
    assert _places("safe_harbor", text, [(piece, label, "user:add")]) == [piece]


def test_a_state_code_after_a_town_is_a_state_unless_safe_harbor():
    text = "TRANSFERRED FROM QUINEBAUG VALLEY HOSP IN PUTNAM, CT W/ SAH"
    assert _places("all", text, [("PUTNAM", "CITY", "tagger:en")]) == ["PUTNAM", "CT"]
    assert _places("safe_harbor", text, [("PUTNAM", "CITY", "tagger:en")]) == ["PUTNAM"]


def test_a_state_in_an_institution_name_does_not_spread():
    from deid_engine.detect.extent import NameRepeatFilter

    text = "Transferred from University of Maryland. Family lives in Maryland."
    a = text.index("Maryland")
    out = NameRepeatFilter("en").filter(Document(text), [Span(a, a + 8, "HOSPITAL", "tagger:en", 0.9)])
    assert len(out) == 1


def test_a_lower_case_state_after_a_lower_case_town():
    text = "dtr dawn from manchester,nh offered to have the pt stay"
    assert _places("all", text, [("manchester", "CITY", "tagger:en")]) == ["manchester", "nh"]
    assert _places("all", "Seen in Boston,me too", [("Boston", "CITY", "tagger:en")]) == ["Boston"]


# -- professions: HIPAA Safe Harbor does not list occupations ---------------------------

def _professions(policy: str, text: str, pieces: list[tuple[str, str, str]], lang: str = "en") -> list[str]:
    from deid_engine.detect.policy import ProfessionPolicyFilter

    spans = []
    for piece, label, source in pieces:
        a = text.index(piece)
        spans.append(Span(a, a + len(piece), label, source))
    f = ProfessionPolicyFilter(lang, policy)
    f.load()
    return [text[s.start:s.end] for s in f.filter(Document(text), spans)]


def test_profession_safe_harbor_drops_occupations_but_keeps_other_phi_and_user_spans():
    text = "Retired welder, 67 yo, from Ohio; wife Ann is a teacher; son works as a plumber."
    pieces = [("welder", "PROFESSION", "pattern:profession"), ("67", "AGE", "pattern:age_yo"),
              ("Ohio", "STATE", "lexicon:state"), ("Ann", "RELATIVE", "tagger:en"),
              ("teacher", "PROFESSION", "tagger:en"), ("plumber", "PROFESSION", "user:review")]
    assert _professions("safe_harbor", text, pieces) == ["67", "Ohio", "Ann", "plumber"]
    assert _professions("all", text, pieces) == [p for p, _, _ in pieces]


def test_profession_safe_harbor_applies_to_spanish_too():
    text = "Paciente de 45 años, trabaja como albañil en Madrid."
    pieces = [("45 años", "AGE", "pattern:es_age"), ("albañil", "PROFESSION", "pattern:profession"),
              ("Madrid", "CITY", "lexicon:city")]
    assert _professions("safe_harbor", text, pieces, "es") == ["45 años", "Madrid"]
    assert _professions("all", text, pieces, "es") == ["45 años", "albañil", "Madrid"]


def test_unknown_profession_policy_is_refused():
    from deid_engine.detect.policy import ProfessionPolicyFilter

    with pytest.raises(ValueError, match="profession policy"):
        ProfessionPolicyFilter("en", "over89").load()


def test_pipeline_follows_the_profession_setting():
    text = "He works as a plumber, 67 yo, from Ohio."
    assert load_settings().professions == "all"
    pipe = build_pipeline("rules", "en").load()
    assert "plumber" in {text[s.start:s.end] for s in pipe.run(Document(text))}
    assert pipe.describe()["detectors"]["profession_policy"] == {"professions": "all"}
    save_settings(updated(load_settings(), professions="safe_harbor"))
    pipe = build_pipeline("rules", "en").load()
    assert {text[s.start:s.end] for s in pipe.run(Document(text))} == {"67", "Ohio"}
    assert pipe.describe()["detectors"]["profession_policy"] == {"professions": "safe_harbor"}  # keys the review cache


def test_profession_setting_from_the_environment(monkeypatch):
    from deid_engine.detect.policy import ProfessionPolicyFilter

    monkeypatch.setenv("DEID_SETTING_PROFESSIONS", "safe_harbor")
    assert load_settings().professions == "safe_harbor"
    f = ProfessionPolicyFilter("en")
    assert f.describe() == {"professions": "safe_harbor"}
    monkeypatch.setenv("DEID_SETTING_PROFESSIONS", "bogus")  # an unknown value in the settings: the safe default
    assert ProfessionPolicyFilter("en").describe() == {"professions": "all"}
    monkeypatch.delenv("DEID_SETTING_PROFESSIONS")
    assert load_settings().professions == "all"


def test_profession_policy_runs_last():
    from deid_engine.detect import FILTERS

    assert list(FILTERS)[-1] == "profession_policy"
