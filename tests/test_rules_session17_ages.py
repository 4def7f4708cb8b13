"""Age rules from the errors of two fresh tuning splits (session 17: tune56 lower-case transcripts and queries,
tune57 outpatient and nursing notes). Own phrasings, not the probe sentences: what must be found, what must not."""

from __future__ import annotations

import pytest

from deid_engine.detect.patterns import age_over_89, spelled_number
from deid_engine.detect.policy import allowed_by_safe_harbor
from deid_engine.pipeline import build_pipeline
from deid_engine.types import Document


@pytest.fixture(scope="module")
def pipe():
    return build_pipeline("default", "en").load()


def _ages(spans, text):
    return {text[s.start:s.end] for s in spans if s.label == "AGE"}


@pytest.mark.parametrize("text,age", [
    # a person dead at an age
    ("pt: her dead at ninety one cancer she had", "ninety one"),
    ("FH: father dead at 70, MI", "70"),
    # "turned" with a person subject and a when after it
    ("son: she turned eighty on diwali we had a party", "eighty"),
    ("i just turned 45 in march and everything hurts", "45"),
    # a hedge before the reply to "how old"
    ("[doctor] how old is your mother\n[son] i think ninety two but she says ninety", "ninety two"),
    ("dr: and how old is he\nwife: maybe sixty", "sixty"),
    # a self-correction after an age
    ("doctor: how old are you\npatient: sixty eight nah sixty nine", "sixty nine"),
    # a relative, maybe named, then the pronoun without a verb (a number in words)
    ("my grandson marcus he fourteen he loves football", "fourteen"),
    ("and my sister she fifteen now", "fifteen"),
    # a group of children, then a named child and the pronoun
    ("three boys tomas he's nine at st pius and the baby", "nine"),
    # a named person's age in words, then a new clause with he / she
    ("the eldest maria is twenty five she lives in tucson", "twenty five"),
    ("and then we call him beto is twelve he plays trumpet", "twelve"),
    # a relative's Nth birthday without "birthday"
    ("we go to lagos for his father's seventieth in june", "seventieth"),
    ("we flew home for my dads eightieth.", "eightieth"),
    ("it is her mum's 90th next week", "90"),
    ("we celebrated her twenty first, all of us", "twenty first"),
    # a query that opens with age and sex run together
    ("82f dementia, fall at home, ct head?", "82"),
    ("5m bronchiolitis day 3, feeding poorly", "5"),
    # lower-case age slash sex after a name
    ("pt rose tan 77/f bed 4. for ct", "77"),
    ("handover: pt liam kelly 34/m, alert", "34"),
    # a listed relative and a bare age
    ("Social: Dad 41, truck driver, smokes outside", "41"),
    ("Lives with husband 71; son 45 nearby.", "71"),
    # a parent's age in brackets
    ("FHx: father (72) with T2DM, mother (69) well", "72"),
    ("FHx: father (72) with T2DM, mother (69) well", "69"),
    # a well-child heading with more words before the age
    ("WELL CHILD / PLUNKET CHECK - 6 WEEKS\nBaby well", "6"),
])
def test_session17_ages(pipe, text, age):
    assert age in _ages(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    # a death at a clock time
    ("pronounced dead at 5 by dr lee", "5"),
    ("found dead at 6 by the night staff", "6"),
    # "turned" without an age
    ("she turned 90 degrees in bed", "90"),
    ("pt turned q2h, skin intact", "2"),
    # no second number after a self-correction word
    ("patient: sixty eight nah not really", "not"),
    # a relative and a number in words that is no age
    ("my son he two weeks late with the rent", "two"),
    ("my daughter she one of the nurses there", "one"),
    ("my husband he ten minutes away", "ten"),
    # "X is N he/she" where X is no name
    ("the bus is ten he said", "ten"),
    ("the wait is thirty she thinks", "thirty"),
    ("your sugar is twelve she said", "twelve"),
    ("the room is twelve he is on the left", "twelve"),
    # ordinals that are no birthday
    ("her mother's second husband", "second"),
    ("his 10th cycle of chemo", "10"),
    ("on the twentieth she comes in", "twentieth"),
    ("my fifteenth visit here", "fifteenth"),
    ("her twenty first dose of abx", "twenty first"),
    # metres, minutes, months and catheter sizes at a line start
    ("6m walk test: 300m, sats 91%", "6"),
    ("5m later pt settled", "5"),
    ("3m f/u in clinic", "3"),
    ("6f sheath removed, pressure held", "6"),
    # a rate per minute
    ("rr 22/m, sats 94% on ra", "22"),
    ("resp 18/m. afebrile", "18"),
    # a relative and a count, a relative and a number that is no bare age
    ("brother 2 yrs older, well", "2"),
    ("son at 2, daughter at 4", "2"),
])
def test_session17_not_age(pipe, text, piece):
    assert piece not in _ages(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,value,over", [
    ("ninetieth", 90, True),
    ("eightieth", 80, False),
    ("twenty first", 21, False),
    ("hundredth", 100, True),
    ("one hundred and first", 101, True),
])
def test_session17_ordinal_ages_have_a_value(text, value, over):
    assert spelled_number(text) == value
    assert age_over_89(text) is over
    assert allowed_by_safe_harbor(text) is not over


@pytest.mark.parametrize("text,age", [
    ("Lives with wife (71), independent", "71"),
    ("Family: grandmother (88) in a rest home", "88"),
])
def test_session17_relative_in_brackets(pipe, text, age):
    assert age in _ages(pipe.run(Document(text)), text)
