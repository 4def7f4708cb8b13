"""NameRoleFilter: the NAME subtype the surrounding words state."""

import pytest

from deid_engine.detect.roles import NameRoleFilter, stated_role
from deid_engine.types import Document, Span


def _role(text: str, name: str) -> str | None:
    a = text.index(name)
    return stated_role(text, a, a + len(name))


@pytest.mark.parametrize("text,name,role", [
    ("Seen today by Dr. Farah Haddad in clinic.", "Farah Haddad", "DOCTOR"),
    ("discussed with doctor lindqvist this am", "lindqvist", "DOCTOR"),
    ("Plan reviewed with Tomas Ferreira, MD.", "Tomas Ferreira", "DOCTOR"),
    ("Signed: Keiko Mori RN", "Keiko Mori", "DOCTOR"),
    ("call from the cardiologist Ngozi Eze re: echo", "Ngozi Eze", "DOCTOR"),
    ("Attending: Rafael Ortiz\n", "Rafael Ortiz", "DOCTOR"),
    ("Her husband Bartholomew drove her in.", "Bartholomew", "RELATIVE"),
    ("my daughter's name is Ingrid", "Ingrid", "RELATIVE"),
    ("neighbour, Olusegun, has a key", "Olusegun", "RELATIVE"),
    ("HCP: Wanjiru Kamau (sister)", "Wanjiru Kamau", "RELATIVE"),
    ("Patient: Desmond Achterberg\nDOB 1/2/1950", "Desmond Achterberg", "PATIENT"),
    ("Patient name: Liesel Brandt, DOB 04/05/1961", "Liesel Brandt", "PATIENT"),
    ("RE: Casimir Nowak (MRN 44120)", "Casimir Nowak", "PATIENT"),
])
def test_stated_roles(text, name, role):
    assert _role(text, name) == role


@pytest.mark.parametrize("text,name", [
    ("Doctor: Dottie, how have you been?", "Dottie"),          # a speaker turn addressing someone
    ("Patient: Thanks, Mirela, that helps.", "Mirela"),
    ("SUPPORTIVE TO PT, JOHN STAYED ALL DAY", "JOHN"),          # a visitor after a comma
    ("DECISION MAKER FOR THIS PT. AGNES MUNROE OF HOSPICE", "AGNES MUNROE"),
    ("Mother: Aisha Rahman\n", "Aisha Rahman"),                # whose record? left alone
    ("Ottoline visited with flowers.", "Ottoline"),
])
def test_no_stated_role(text, name):
    assert _role(text, name) is None


def test_filter_relabels_and_spreads_only_clinician_roles():
    text = ("Dr. Okafor saw the patient. Okafor agreed with the plan.\n"
            "Mrs. Rahman came with her son Idris Rahman; Rahman family updated.")
    f = NameRoleFilter("en")
    spans = [Span(4, 10, "PATIENT", "tagger:en", 0.8),                      # Dr. [Okafor]
             Span(28, 34, "PATIENT", "tagger:en", 0.6),                     # [Okafor] agreed
             Span(text.index("Rahman"), text.index("Rahman") + 6, "PATIENT", "lexicon:name", 0.7),
             Span(text.index("Idris"), text.index("Idris") + 12, "PATIENT", "tagger:en", 0.7),
             Span(text.rindex("Rahman"), text.rindex("Rahman") + 6, "PATIENT", "tagger:en", 0.5)]
    got = [(text[s.start:s.end], s.label) for s in f.filter(Document(text), spans)]
    assert got == [("Okafor", "DOCTOR"), ("Okafor", "DOCTOR"), ("Rahman", "PATIENT"),
                   ("Idris Rahman", "RELATIVE"), ("Rahman", "PATIENT")]


def test_user_spans_and_other_labels_and_spanish_untouched():
    text = "Dr. Sanz llamó. Dr. 12/03/2020"
    spans = [Span(4, 8, "PATIENT", "user", 1.0), Span(20, 30, "DATE", "pattern:date", 0.9)]
    assert NameRoleFilter("en").filter(Document(text), spans) == spans
    assert NameRoleFilter("es").filter(Document(text), [Span(4, 8, "PATIENT", "tagger:es", 0.9)]) \
        == [Span(4, 8, "PATIENT", "tagger:es", 0.9)]
