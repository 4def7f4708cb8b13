"""Session 17: jobs of the patient or a relative that the cues missed (replies to "what did you work at" and kin, a
relative's job in zero-copula speech, a career's length before the job, "started ... as", a bracketed name before
"is a", "(a <job> at <employer>)" after a name, "Personal:" fields, "Mum 24, <job>", jobs named by a head noun with a
noun in front ("private-hire driver", "home attendant", "farmworker"), capitalised unit abbreviations inside the job
("ER nurse"), a named firm after "with" making an ambiguous job word one) and an employer after "w/".
Own phrasings, not the probe sentences: what must be found, and what clinical text must not turn into a job."""

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
    # the reply to a work question
    ("doctor: what did you work at\npatient: plumber wi the council for thirty year", "plumber"),
    ("[doctor] right and what's the work\n[patient] boilermaker at the refinery, two weeks on", "boilermaker"),
    ("[doctor] did your father work over there\n[son] he was a fisherman his whole life", "fisherman"),
    ("dr: so what did you do for work\npt: mi was a housekeeper by a big hotel downtown", "housekeeper"),
    # a relative's job in a transcript with an interpreter
    ("doctor: does anyone help her at home\ninterpreter: she says her son in toronto is a nurse and he calls", "nurse"),
    # zero copula after a relative named in the sentence (a clinical job is the relative's)
    ("pt: mi granddaughter kezia live by me she a nurse a kings county", "nurse"),
    # a career's length, then the job
    ("[patient] twenty years machinist at the plant before my back went", "machinist"),
    # a head that names a trade only with a noun in front, and one-word compounds
    ("her husband is a tuk-tuk driver in the old town", "tuk-tuk driver"),
    ("my niece she's a home attendant for an agency in the bronx", "home attendant"),
    ("pt is a packhouse worker, seasonal", "packhouse worker"),
    ("she says she is a farmworker in the valley", "farmworker"),
    # a new job: "started ... as", "starts as"
    ("Tired since she started nights as an ICU nurse at Lakeview General.", "ICU nurse"),
    ("needs TB test - starts as a dental hygienist next week", "dental hygienist"),
    # a named firm of two capitalised words after "with" makes "manager" a job
    ("Ms Okafor is a senior tax manager with Brightwater & Cole, long hours.", "senior tax manager"),
    # a bracketed name between the relation word and "is a"
    ("Dad (Tomasz Nowak) is a roofer, works away most weeks.", "roofer"),
    # "(a <job> at <employer>)" after a name
    ("Priya (a pharmacist at Oakleigh Pharmacy) visited this evening.", "pharmacist"),
    # a "Personal:" field, and a relation word with an age before the job
    ("Personal: homemaker; husband is a tailor. Vegetarian.", "homemaker"),
    ("Social: Dad 31, electrician at Volt Bros, away during the week.", "electrician"),
])
def test_session17_found(pipe, text, job):
    assert job in _spans(pipe, text, "PROFESSION")


@pytest.mark.parametrize("text", [
    # the part someone had in a crash, and how someone drives or works
    "19 yo F restrained driver, MVC at 40 mph, airbags deployed",
    "she is a hard worker and a good mum",
    "he is a careful driver, no tickets",
    "he is a coworker of my wife",
    "she is a co-worker of mine",
    # "start ... as" with a drug or a setting
    "started metformin as a trial",
    "started ASA as a blood thinner",
    "started her on lasix as an outpatient",
    # a length of time before no job, or before a care-team role
    "10 years smoker, quit 2015",
    "Hx: 15 years diabetic, on insulin",
    "seen 2 years nurse practitioner follow up",
    # "with" and one capitalised word: a condition
    "pt is a poor historian with Dementia and HTN",
    # a bracketed role after a credential is the care team
    "the RN (a nurse at Mercy West) called back",
    # zero copula without a job
    "my son he a good boy he call me every day",
    # questions that are not about work
    "did you work out today\npatient: yes i was a bit tired after",
    "what's the work up so far\npatient: nothing yet",
    "Personal history: mixed diet, sleep normal, no addictions",
    "Social: Mum 24, single parent, lives with her own mother",
])
def test_session17_not_job(pipe, text):
    assert not _spans(pipe, text, "PROFESSION"), _spans(pipe, text, "PROFESSION")


@pytest.mark.parametrize("text,org", [
    ("he's a courier w/ swift parcel, out on the road all day", "swift parcel"),
    ("she is a cashier w/ Northgate Foods, weekends", "Northgate Foods"),
])
def test_session17_employer_after_w_slash(pipe, text, org):
    assert org in _spans(pipe, text, "ORGANIZATION")


@pytest.mark.parametrize("text", [
    "pt is a welder w/ copd, 40 pk yr hx",
    "she is a teacher with chronic back pain",
    "he is a bus driver with ms",
    "pt is a roofer w/ sleep apnea",
    "pt is a nurse with copd",
    "she is a cleaner w/ asthma, uses inhaler",
])
def test_session17_condition_after_with_is_no_employer(pipe, text):
    assert not _spans(pipe, text, "ORGANIZATION"), _spans(pipe, text, "ORGANIZATION")
