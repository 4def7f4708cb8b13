"""Session 18 (tune58): rules from the misses and false positives of the tune58 tuning split. Own phrasings, not the
probe sentences: what must be found, and what must not."""

from __future__ import annotations

import pytest

from deid_engine.pipeline import build_pipeline
from deid_engine.types import Document


@pytest.fixture(scope="module")
def pipe():
    return build_pipeline("default", "en").load()


def _spans(pipe, text, label=None):
    return {text[s.start:s.end] for s in pipe.run(Document(text)) if label is None or s.label == label}


def _cats(pipe, text):
    from deid_engine.taxonomy import category_of

    return {(text[s.start:s.end], category_of(s.label)) for s in pipe.run(Document(text))}


@pytest.mark.parametrize("text,value,cat", [
    # a town before a province and a Canadian postcode, after a street or a suite
    ("Clinic Office, 12 Elgin Street, Kingston, ON K7L 2W3", "Kingston", "LOCATION"),
    ("Harbour Family Health, 40 Brock Street\nKingston, ON K7L 2W3", "Kingston", "LOCATION"),
    # a town after a place preposition and a state code, the sentence going on
    ("plan: discharge to Oak Manor in Normal, IL on Friday if stable", "Normal", "LOCATION"),
    ("her son drove up from Hope, AR last night", "Hope", "LOCATION"),
    # a lower-case town that is an everyday word, after "lives in", closed by punctuation
    ("social: son visiting, lives in mobile, flew in today", "mobile", "LOCATION"),
    # an employer in capitals after "<job> @"
    ("PT IS 44 YO M, DISHWASHER @ GOLDEN DRAGON BUFFET IN KENNER, BURN TO HAND", "GOLDEN DRAGON BUFFET",
     "LOCATION"),
    # an employer in a bracketed job, though its name is a device maker
    ("Mum Ada (quality engineer at Medtronic) visiting after work.", "Medtronic", "LOCATION"),
    # ages
    ('Pt: Rosalind Tkachenko ("Roz"), 52 F   DOB 02/11/1974', "52", "AGE"),
    ("mom: this is kayden him is six now and he coughs at night", "six", "AGE"),
    ("mom: he had the croup when him was three at the childrens", "three", "AGE"),
    # a bed space number
    ("NICU: twin B in bed space 14, on CPAP", "14", "LOCATION"),
    # festivals and a Spanish date in words
    ("flying to Osaka for Obon next month", "Obon", "DATE"),
    ("we will come back after tet because the family is there", "tet", "DATE"),
    ("pt: el quince de marzo the same as my sister", "el quince de marzo", "DATE"),
    # a first name greeting the reader at the start of a message
    ("Dawn - INR 3.9 today for Mr Oyelaran, repeat sent", "Dawn", "NAME"),
    # names after a kin word
    ("Twin A home w/ grandma Adebisi after discharge", "Adebisi", "NAME"),
    ("WORRIED ABOUT HIS CAT, NEIGHBOR WALTER FEEDING IT.", "WALTER", "NAME"),
    # an interpreter's number after the name; a staff name before its role in brackets
    ("FAMILY SPEAKS PORTUGUESE, INTERPRETER LUCIANA #5520 PRESENT", "5520", "ID"),
    ("DRESSING CHANGED W/ MARISOL (WOUND RN) @ 1400", "MARISOL", "NAME"),
    # round 2: a lower-case country after a place word, a title + name + "the <role>", a numbered public school
    ("patient: and then we all went over to scotland for work", "scotland", "LOCATION"),
    ("mom: and mister okafor the coach said he can play", "okafor", "NAME"),
    ("mom: he goes to ps 207 in the mornings", "ps 207", "LOCATION"),
])
def test_found(pipe, text, value, cat):
    assert (value, cat) in _cats(pipe, text)


@pytest.mark.parametrize("text,job", [
    ("pt: my son andres he's studying to be a paramedic at the community college", "paramedic"),
    ("other son kevin is a pharmacist in tampa, calls daily", "pharmacist"),
    ("Owns and runs Lakeview Feed & Seed in Dothan (farm supply owner). Wife present.", "farm supply owner"),
])
def test_jobs_found(pipe, text, job):
    assert job in _spans(pipe, text, "PROFESSION")


@pytest.mark.parametrize("text,word", [
    # device makers before a device
    ("MAP 70. ST JUDE ICD INTERROGATED, NO SHOCKS", "JUDE"),
    ("Seen at St Jude Medical Center (not to be confused with her St. Jude pacemaker).", "Jude pacemaker"),
    # a kin word as the subject, the ADA diet, an adjective about the patient, a word said again
    ("he is fourteen he says papa is grumpy now", "papa"),
    ("ATE 3/4 LUNCH (ADA 1800), NO NAUSEA", "ADA"),
    ("NEIGHBOR FRANK FEEDING IT. PT FRANK ABOUT WANTING TO GO HOME", "FRANK ABOUT"),
    ("patient: ah i'm grand doctor grand just the cough", "grand just"),
    # a bare ordinal answered, a given name after "the"
    ("doctor: is this the third baby\nhusband: yes third we have two girls", "third"),
    # no town: "mobile home", a person before a credential, a bracket with no job
    ("pt lives in mobile home w/ wife", "mobile"),
    ("seen in clinic today by Jane Smith, MD for review", "Jane Smith"),
    # "tet" as tetanus, a holiday word with no cue
    ("needs tet shot, tet booster given", "tet"),
    # a name word at the start that is no first name
    ("Plan - INR 4.2 today, recheck", "Plan"),
    # "@" before a time or a common place
    ("TYLENOL 650 GIVEN @ 1100 BY RN", "1100 BY RN"),
    ("RETIRED MACHINIST @ HOME X 2 YRS", "HOME"),
    # a drug before a bracket, an interpreter's minutes
    ("PAIN CONTROLLED W/ TYLENOL (PRN RN)", "TYLENOL"),
    ("interpreter used for 20 min", "20"),
    # round 2: pressure support, a country that is a first name, hospital rooms, stents, lab words, faith, aids
    ("vent: wean to ps 10 overnight", "ps 10"),
    ("dtr slept in the family lounge overnight", "family lounge"),
    ("s/p cath w/ des x2 to rca", "des"),
    ("K 6.2 (hemolyzed?) will repeat", "hemolyzed"),
    ("my brother says i got to have faith and keep going", "faith"),
    ("Wife Lorna to bring walker from home tomorrow.", "walker"),
])
def test_not_found(pipe, text, word):
    spans = _spans(pipe, text)
    if word in ("Jane Smith",):
        assert ("Jane Smith", "LOCATION") not in _cats(pipe, text)
        return
    assert not any(word in s or s in word.split() and s == word for s in spans), spans


def test_name_after_have_is_kept(pipe):
    # "have grace show you": a name doing something, not the virtue
    text = "doctor: thats great have grace show you and bring the list"
    assert "grace" in _spans(pipe, text)


def test_country_word_that_is_a_name_is_no_country(pipe):
    text = "doctor: did you talk to jordan about it"
    assert ("jordan", "LOCATION") not in _cats(pipe, text)


def test_device_maker_word_kept_as_hospital(pipe):
    text = "transferred from St Jude Hospital yesterday"
    assert "St Jude Hospital" in _spans(pipe, text)


def test_kin_then_medical_word_in_capitals(pipe):
    # "frank blood": a medical word after a kin word is not a name
    text = "FOLEY: SON FRANK BLOOD NOTED, MD AWARE"
    assert "FRANK" not in _spans(pipe, text)
