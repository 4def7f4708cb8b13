"""Session 17, round 2: job and age rules from the remaining misses of the readable tuning splits (a job with its
employer after "w/" in brackets, a job after "unemployed"/"laid off", "I'm a <job> myself, at <employer>", an age cue
with three words before the job, "he works at X, hes a <clinical job>"; ages: the reply to "how old does that make
you" and its self-correction, age and sex glued in capitals after a name or after "(mrn ...)", an operation "at
<tens>", an age said with the birthday next, an age with its unit before "dob", "came over ... when i was nine" no longer taken for a blood pressure).
Own phrasings, not the probe sentences: what must be found, and what must not."""

from __future__ import annotations

import pytest

from deid_engine.pipeline import build_pipeline
from deid_engine.types import Document


@pytest.fixture(scope="module")
def pipe():
    return build_pipeline("default", "en").load()


def _spans(pipe, text, label):
    return {text[s.start:s.end] for s in pipe.run(Document(text)) if s.label == label}


@pytest.mark.parametrize("text,job", [
    ("S/P FALL FROM SCAFFOLD AT WORK (ELECTRICIAN W/ BRIGHTLINE POWER). GCS 15", "ELECTRICIAN"),
    ("lives alone. pt unemployed welder, laid off from the mill in march.", "welder"),
    ("wife reports pt is laid off machinist, looking for work", "machinist"),
    ("RELATIVE: I'm his son, Dev. I'm a pharmacist myself, at Greenway Pharmacy, so I can help.", "pharmacist"),
    ("Patient is a 61 year old left-handed middle school math teacher admitted for rehab", "middle school math teacher"),
    ("my wife sandra she works at st lukes shes a respiratory therapist so she knows", "respiratory therapist"),
])
def test_jobs_found(pipe, text, job):
    assert job in _spans(pipe, text, "PROFESSION")


@pytest.mark.parametrize("text,word", [
    # a clinician introducing themself, or at a generic place: no employer
    ("i'm a nurse, at the hospital we see this a lot", "nurse"),
    ("hi i'm the nurse myself, at this clinic", "nurse"),
    # "unemployed" before something that is no job
    ("pt unemployed, lives with mother", "lives"),
    ("pt is unemployed smoker, drinks daily", "smoker"),
    # "she is a nurse" about the care team: no workplace said of her
    ("the doctor said she is a nurse so she can check", "nurse"),
    # a bracket with "w/" that is clinical, not a job
    ("(PAIN W/ MOVEMENT) CONTROLLED", "PAIN"),
])
def test_jobs_not_found(pipe, text, word):
    assert not any(word in s for s in _spans(pipe, text, "PROFESSION"))


@pytest.mark.parametrize("text,age", [
    ("doctor and how old does that make you\npatient um sixty two", "sixty two"),
    ("DOCTOR: And how old does that make you?\nPATIENT: Oh, seventy-two? No, seventy-four.", "seventy-four"),
    ("DOCTOR: And how old does that make you?\nPATIENT: Oh, seventy-two? No, seventy-four.", "seventy-two"),
    ("doctor how old are you\npatient fifty six no wait fifty seven", "fifty seven"),
    ("CODE: RM 4 ER, PT OKAFOR, JAMES 79M FROM HOME, ON WARFARIN", "79"),
    ("pt lena ortiz (mrn 5567120) 63f copd on 2l at home", "63"),
    ("my uncle had his leg cut off at seventy and he still drives", "seventy"),
    ("mom had a new knee put in at sixty five", "sixty five"),
    ("and priya is twelve her birthday is next week", "twelve"),
    ("we moved over here when i was eight my mother was a teacher", "eight"),
    ("msg from dad re daughter lily chen, 7 yrs, dob 3/2/19. cough x3 days", "7"),
    ("(22 mo, DOB 01/05/24) seen for otitis", "22"),
])
def test_ages_found(pipe, text, age):
    assert age in _spans(pipe, text, "AGE")


@pytest.mark.parametrize("text,word", [
    # times and doses, not ages
    ("the drain was removed at ten past four", "ten"),
    ("picc removed at 10 this morning", "10"),
    ("foley put in at twenty past six", "twenty"),
    # metres walked in capitals
    ("AMBULATED 30M WITH WALKER, TOLERATED WELL", "30"),
    # a blood pressure is still no age
    ("bp was one forty over ninety when i was there", "ninety"),
    ("her pressure is one twenty over eighty her birthday is friday", "eighty"),
    # a dose corrected, not an age
    ("take twenty no thirty milligrams daily", "thirty"),
    # a duration before the date of birth, not an age
    ("smoked for 20 yrs, dob 1/2/60", "20"),
])
def test_ages_not_found(pipe, text, word):
    assert not any(word in s for s in _spans(pipe, text, "AGE"))
