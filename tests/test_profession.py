"""ProfessionDetector: occupations only where a cue makes them someone's job."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_engine import lexicons
from deid_engine.detect import DETECTORS, PRESETS
from deid_engine.detect.profession import ProfessionDetector
from deid_engine.types import Document


@pytest.fixture(scope="module")
def en():
    d = ProfessionDetector("en")
    d.load()
    return d


@pytest.fixture(scope="module")
def es():
    d = ProfessionDetector("es")
    d.load()
    return d


def found(det, text):
    return [text[s.start:s.end] for s in det.detect(Document(text))]


# (text, expected span texts in order)
EN_MATCH = [
    ("She works as a dental hygienist in town.", ["dental hygienist"]),
    ("He worked as an electrician for thirty years.", ["electrician"]),
    ("Currently working as a forklift driver at the depot.", ["forklift driver"]),
    ("Lost his job as a line cook last spring.", ["line cook"]),
    ("Social: retired plumber, lives with wife.", ["plumber"]),
    ("Former coal miner with 40 pack-years.", ["coal miner"]),
    ("He is an ex-firefighter.", ["ex-firefighter"]),
    ("Occupation: welder", ["welder"]),
    ("OCCUPATION: HIGH SCHOOL TEACHER", ["HIGH SCHOOL TEACHER"]),
    ("Profession: tree surgeon", ["tree surgeon"]),
    ("A 58-year-old taxi driver presents with chest pain.", ["taxi driver"]),
    ("58 yo female accountant with migraine.", ["accountant"]),
    ("This 39 year old stonemason fell from a ladder.", ["stonemason"]),
    ("i'm a truck driver so i sit all day", ["truck driver"]),
    ("I'm the head chef at a small place downtown.", ["head chef"]),
    ("I was a nurse for twenty years before my back went.", ["nurse"]),
    ("She is a librarian and walks daily.", ["librarian"]),
    ("Pt is a retired nurse.", ["nurse"]),
    ("His daughter is a lawyer in Denver.", ["lawyer"]),
    ("He is a cabinetmaker by trade.", ["cabinetmaker"]),
    ("She has worked in construction since leaving school.", ["construction"]),
    ("He retired from the railroad as a conductor in 2010.", ["conductor"]),
    ("He worked as a welder and later a crane operator.", ["welder", "crane operator"]),
    ("Employment: part-time barista", ["barista"]),
    ("He works as a nurse's aide on nights.", ["nurse's aide"]),
    ("Works as a sandblaster at the yard.", ["sandblaster"]),  # unknown word with a job suffix after a strong cue
    ("Patient is a real estate agent who travels often.", ["real estate agent"]),
    ("Retired army sergeant, lives alone.", ["army sergeant"]),
    ("She works as an RN on a step-down unit.", ["RN"]),
    ("He's a bricklayer.", ["bricklayer"]),
    ("Works as a Costco forklift operator.", ["forklift operator"]),  # the employer's name stays out
]

EN_NO_MATCH = [
    "The nurse will call you tomorrow.",
    "Her doctor increased the dose.",
    "Physical therapist will see him this afternoon.",
    "Seen by the social worker re: placement.",
    "Hi, I'm the nurse practitioner working with Dr. Lee.",
    "I'm a medical student on the team today.",
    "Pt is a poor historian.",
    "Pt was the restrained driver in a rollover.",
    "He is a former smoker, quit in 2001.",
    "She is a heavy drinker.",
    "72 yo nursing home resident with fever.",
    "Occupation: retired",
    "Occupation: none",
    "I'm a little worried about the rash.",
    "Daughter who is a nurse asked about diuretics.",  # a relative's clinical role needs a work cue
    "Treated as an outpatient with oral antibiotics.",
    "The teacher called about his absences.",  # a job word alone is not a cue
    "Dr. Vance is the surgeon on call.",
    "Hello, I'm an RN and I will be with you today.",
    "She is a wonderful doctor and explained everything.",
    "He is the caretaker for his wife.",
]

ES_MATCH = [
    ("Mujer de 52 años, peluquera, sin alergias conocidas.", ["peluquera"]),
    ("Varón de 61 años, conductor de autobús, fumador.", ["conductor de autobús"]),
    ("Paciente de 33 años de edad, informático, que consulta por cefalea.", ["informático"]),
    ("Trabaja como camarera en un hotel de la costa.", ["camarera"]),
    ("Trabajaba de albañil hasta hace dos años.", ["albañil"]),
    ("De profesión fontanero, sin antecedentes.", ["fontanero"]),
    ("Carpintero de profesión, acude por herida en la mano.", ["Carpintero"]),
    ("Profesión: ingeniera agrónoma", ["ingeniera agrónoma"]),
    ("Ocupación: trabajador de la industria textil", ["trabajador de la industria textil"]),
    ("Es una mujer de 47 años, ex funcionaria de prisiones.", ["ex funcionaria de prisiones"]),
    ("Antecedentes: ex-minero con silicosis.", ["ex-minero"]),
    ("Varón de 70 años, agricultor jubilado.", ["agricultor"]),
    ("Estuvo contratado como soldador durante diez años.", ["soldador"]),
    ("Tuvo varios empleos como camarero, cocinero y repartidor.", ["camarero", "cocinero", "repartidor"]),
    ("Se dedica a las labores del hogar.", ["labores del hogar"]),
    ("Trabaja en la hostelería desde joven.", ["hostelería"]),
    ("Varón de 42 años, empleado en una fábrica de muebles, que acude", ["empleado en una fábrica de muebles"]),
    ("El paciente es taxista y fuma.", ["taxista"]),
    ("Mujer de 39 años, policía local en activo.", ["policía local"]),
]

ES_NO_MATCH = [
    "El médico de guardia valoró al paciente.",
    "La enfermera administró la medicación.",
    "Varón de 45 años, fumador, hipertenso, que acude por dolor.",
    "En estos momentos el paciente es dependiente para las actividades básicas.",
    "Se pautó tratamiento como en el ingreso previo.",
    "Trabaja en el Hospital General por las mañanas.",
    "Refiere exposición a humo de uso militar.",  # adjective, no cue
    "Ocupación: desempleado",
    "Varón de 50 años, natural de Lugo, sin antecedentes.",
    "Es portador de marcapasos desde 2015.",
]


@pytest.mark.parametrize("text,expected", EN_MATCH)
def test_english_must_match(en, text, expected):
    assert found(en, text) == expected


@pytest.mark.parametrize("text", EN_NO_MATCH)
def test_english_must_not_match(en, text):
    assert found(en, text) == []


@pytest.mark.parametrize("text,expected", ES_MATCH)
def test_spanish_must_match(es, text, expected):
    assert found(es, text) == expected


@pytest.mark.parametrize("text", ES_NO_MATCH)
def test_spanish_must_not_match(es, text):
    assert found(es, text) == []


def test_span_fields(en):
    text = "Occupation: welder"
    (s,) = en.detect(Document(text))
    assert (s.label, s.source) == ("PROFESSION", "pattern:profession")
    assert 0.5 < s.confidence <= 1.0 and "cue" in s.explanation and "welder" not in s.explanation


def test_registered_in_presets():
    assert "profession" in DETECTORS
    assert "profession" in PRESETS["rules"] and "profession" in PRESETS["default"]
    det = DETECTORS["profession"]("es")
    assert det.name == "profession"


def test_rules_pipeline_keeps_profession():
    from deid_engine.pipeline import build_pipeline

    pipe = build_pipeline("rules", lang="en")
    text = "Mr. Adeyemi is a 44-year-old bricklayer seen for back pain."
    spans = pipe.run(Document(text))
    assert any(text[s.start:s.end] == "bricklayer" and s.label == "PROFESSION" for s in spans)


@pytest.mark.parametrize("name", ["occupations_en", "occupations_es"])
def test_occupation_lexicons_clean(name):
    items = lexicons.load_lexicon(name)
    assert len(items) >= 300
    assert all(i == i.strip() and "\t" not in i for i in items)
    assert len({i.casefold() for i in items}) == len(items)


CUE_WORDS = ["works as a ", "retired ", "Occupation: ", "I'm a ", "de profesión ", "trabaja como ", "45-year-old ",
             "Varón de 40 años, ", " by trade", " jubilado", "ex-", ", ", " and ", "\n"]
JOBS = ["welder", "nurse", "bus driver", "camarera", "auxiliar de enfermería", "taxista", "the", "a", "MRI"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(CUE_WORDS + JOBS) | st.text(max_size=8), max_size=12), st.sampled_from(["en", "es"]))
def test_spans_are_valid(parts, lang):
    det = ProfessionDetector(lang)
    text = "".join(parts)
    spans = det.detect(Document(text))
    prev_end = -1
    for s in spans:
        assert 0 <= s.start < s.end <= len(text)
        assert s.start >= prev_end  # sorted, no overlaps
        assert text[s.start:s.end] == text[s.start:s.end].strip()
        assert s.label == "PROFESSION"
        prev_end = s.end


# --- session 4: relatives' jobs, spelled ages, brackets, transcripts (own phrasings) -----------

EN_MATCH_4 = [
    ("Her brother Tomasz is a carpenter in Leeds.", ["carpenter"]),
    ("my uncle, Festus, was a coal miner", ["coal miner"]),
    ("doctor ok\npatient my fiance jordan hes a baker", ["baker"]),
    ("Seen with mother Ines (hairdresser) today.", ["hairdresser"]),
    ("Guy Morel (44), plasterer, referred for back pain.", ["plasterer"]),
    ("A fifty-three-year-old bricklayer with chest pain.", ["bricklayer"]),
    ("63 yo F, retired librarian, here for follow-up", ["librarian"]),
    # a relative's clinical job in a transcript
    ("doctor: who helps you at home\npatient: my daughter, she's a midwife, pops in", ["midwife"]),
    ("[doctor] any family support?\n[patient] my husband's a paramedic so yes", ["paramedic"]),
    ("stenographer by trade", ["stenographer"]),
]
EN_NO_MATCH_4 = [
    # clinical roles said of the care team, or outside a transcript
    "Doctor: Nurse Abebe will take your bloods, she's a nurse practitioner.\nPatient: ok",
    "Daughter who is a nurse visited and asked about meds.",
    "pt's son is a nurse and is updating the family",
    "His wife's a big help at home.",
    "Father Chidi (HCP) at bedside.",
    "Bed 4 (12), comfortable, sleeping.",
    "my sister hes a",
]


@pytest.mark.parametrize("text,expected", EN_MATCH_4)
def test_english_session4_must_match(en, text, expected):
    assert found(en, text) == expected


@pytest.mark.parametrize("text", EN_NO_MATCH_4)
def test_english_session4_must_not_match(en, text):
    assert found(en, text) == []


@pytest.mark.parametrize("text,expected", [
    ("i am plasterer for ten years", ["plasterer"]),
    ("I'm bus driver, nights", ["bus driver"]),
    ("she is a careers adviser at the college", ["careers adviser"]),
])
def test_bare_first_person_and_advisers(en, text, expected):
    assert found(en, text) == expected


@pytest.mark.parametrize("text", ["i'm really cleaner than before", "i am nurse on this ward", "I'm driving home"])
def test_bare_first_person_decoys(en, text):
    assert found(en, text) == []


@pytest.mark.parametrize("text,expected", [
    ("he said Tomas is a carpenter by trade", ["carpenter"]),
    ("Doctor: And your wife?\nPatient: Ruth was a midwife for years.", ["midwife"]),
    ("Doctor: Mary is a nurse here.\nPatient: ok", []),       # staff, no relation word near
    ("Smith is a pleasant man.", []),
])
def test_name_subject_is_a(en, text, expected):
    assert found(en, text) == expected


@pytest.mark.parametrize("text,job", [
    ("she used to be a pharmacist back home", "pharmacist"),             # past: a life, not the care team
    ("shes 81 and used to be a seamstress so she knows", "seamstress"),
    ("He had been a welder for years", "welder"),
    ("lives with husband Arjun, a quantity surveyor, and son", "quantity surveyor"),
    ("Refer Chen Wei (MRN 30298115), 33, line cook at the Lotus", "line cook"),
    ("a retired magistrate, with a cough", "magistrate"),
    ("WIFE PHONED, SHE IS A MIDWIFE ON NIGHTS", "MIDWIFE"),             # a relative just named
])
def test_session5_profession_cues(en, text, job):
    assert job in found(en, text)


@pytest.mark.parametrize("text", [
    "she is a good doctor",
    "Seen by Dr. Patel, a cardiologist, today",                       # the care team
    "It used to be a problem at night",
    "Discussed with Anna, a nurse on the ward",
])
def test_session5_profession_non_cues(en, text):
    assert not found(en, text)


def test_name_apposition_leaves_an_age_to_the_age_cue(en):
    text = "Thank you for referring Marisa Quintero, a twenty-eight-year-old ski instructor at Eldora."
    assert found(en, text) == ["ski instructor"]


@pytest.mark.parametrize("text,expected", [
    ("doctor: so you are a truck driver okay thats important", ["truck driver"]),
    ("dr: so you are a mail carrier mom: twenty two years", ["mail carrier"]),
    ("i do the ladders mostly im a picker but this year", ["picker"]),
    ("he was a cattle hauler for forty years", ["cattle hauler"]),
    ("Father Rigoberto Ibarra is a milker at Rocking R Dairy", ["milker"]),
    ("HPI: Mr. Le is a 62-year-old nail salon owner with hypertension", ["nail salon owner"]),
    ("Social: Electrician with Riverina Power.", ["Electrician"]),
])
def test_english_session7_jobs(en, text, expected):
    assert found(en, text) == expected


@pytest.mark.parametrize("text", [
    "you are a good patient and you are a diabetic",
    "youre a star for doing this",
    "Social: Lives with wife. Nonsmoker.",
    "Social: Nurse visits weekly",        # a clinical role in a social history is the care team
])
def test_english_session7_not_jobs(en, text):
    assert found(en, text) == []


@pytest.mark.parametrize("text,expected", [
    ("[doctor] and what do you do [patient] cattle rancher my whole life the dogs", ["cattle rancher"]),
    ("nurse and what do you do\npatient retired electrician i was with northern rail", ["electrician"]),
    ("are you still working patient: yeah still a forklift driver at pacific freight lines", ["forklift driver"]),
    ("she showed me doctor: you were a pharmacist right so you know", ["pharmacist"]),
    ("Eeyes is a 66-year-old retired tool-and-die maker with stage IIIA", ["tool-and-die maker"]),
])
def test_english_session7_replies(en, text, expected):
    assert found(en, text) == expected


@pytest.mark.parametrize("text", [
    "yeah still a bit sore",
    "you are a nurse there",          # the care team, present tense
])
def test_english_session7_replies_not(en, text):
    assert found(en, text) == []


@pytest.mark.parametrize("text,job", [
    ("Mr. Parkinson is a 74-year-old retired piano tuner seen in follow-up.", "piano tuner"),
    ("HPI: Mr Pennock is a 65-year-old retired signalman who attends with his wife.", "signalman"),
    ("Mrs Sandhu is a pharmacy technician at Chalvey Pharmacy and works shifts.", "pharmacy technician"),
    ("midwife: and kwabena what do you do\nhusband: bus driver for northway buses", "bus driver"),
])
def test_session10_jobs(en, text, job):
    assert job in found(en, text)


@pytest.mark.parametrize("text", [
    "Seen by Dr Okafor. She is a nurse at this clinic and took the bloods.",
    "retired after thirty years and enjoys golf",
    "what do you do when the pain comes on",
])
def test_session10_not_jobs(en, text):
    assert not found(en, text)


@pytest.mark.parametrize("text,job", [
    ("S: Ms Mahlangu, 34, is a mining geologist employed by Tshipi Mining.", "mining geologist"),
    ("Family: mother Lakshmi (52) is a homemaker.", "homemaker"),
    ("patient: hes a claims handler at admiral in town", "claims handler"),
    ("patient: daddy was a coal miner forty years", "coal miner"),
    ("and my grandma was a seamstress", "seamstress"),
])
def test_session12_jobs(en, text, job):
    assert job in found(en, text)


@pytest.mark.parametrize("text", [
    "Seen today. Smith, 34, is a good historian.",       # an age aside, then no job
    "Her daughter Ama (12) is a great help at home",     # an age aside, then no job
    "Pt is a driver in a MVC, restrained.",              # 'driver' alone is not listed
])
def test_session12_not_jobs(en, text):
    assert not found(en, text)


@pytest.mark.parametrize("text,expected", [
    ("UPDATED BY DR. MURPHY. PT IS LONG HAUL TRUCK DRIVER FOR TRI-STATE FREIGHT.", ["LONG HAUL TRUCK DRIVER"]),
    ("Pt was roofer until last year.", ["roofer"]),
    ("Pt was church organist at St. Agatha's for years.", ["church organist"]),
    ("pt is retired teacher", ["teacher"]),
])
def test_session13_bare_job_after_patient(en, text, expected):
    """Nursing notes drop the article: 'PT IS <job>'."""
    assert found(en, text) == expected


@pytest.mark.parametrize("text", ["PT IS ALERT AND ORIENTED.", "Pt was sedated overnight.", "PT IS NURSE AWARE",
                                  "pt is full code", "PT WAS DNR/DNI", "Pt is spanish speaking"])
def test_session13_bare_patient_is_without_a_job(en, text):
    assert found(en, text) == []


@pytest.mark.parametrize("text,piece", [
    ("SOCIAL: PT IS A HIGH SCHOOL CHEMISTRY TEACHER AT EAST HOLLIS REGIONAL", "HIGH SCHOOL CHEMISTRY TEACHER"),
    ("patient lives at Whitman Village and was a seamstress at Durfee Mills for 30 yrs", "seamstress"),
    ("PT WORKED AS CAFETERIA AIDE AT GREENLEAF ELEMENTARY", "CAFETERIA AIDE"),
])
def test_session14_nursing_social_histories(text, piece):
    det = ProfessionDetector("en")
    assert any(text[s.start:s.end] == piece and s.label == "PROFESSION" for s in det.detect(Document(text)))


def test_session14_no_job_without_one():
    det = ProfessionDetector("en")
    assert not det.detect(Document("PT IS A PLEASANT 67 YO MAN"))
