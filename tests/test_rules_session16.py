"""Age and date rules from the errors of two fresh tuning splits (session 16: tune51 outpatient notes and
transcripts, tune52 nursing notes). Own phrasings, not the probe sentences: what must be found, what must not."""

from __future__ import annotations

import pytest

from deid_engine.pipeline import build_pipeline
from deid_engine.types import Document


@pytest.fixture(scope="module")
def pipe():
    return build_pipeline("default", "en").load()


def _found(spans, text):
    return {(text[s.start:s.end], s.label) for s in spans}


def _pieces(spans, text):
    return {text[s.start:s.end] for s in spans}


def _ages(spans, text):
    return {text[s.start:s.end] for s in spans if s.label == "AGE"}


@pytest.mark.parametrize("text,ages", [
    # ages listed in brackets after a group of children or siblings
    ("Social: married, three kids (4, 7 and 11), works from home.", {"4", "7", "11"}),
    ("has two sons (seven and ten) who live with their mother", {"seven", "ten"}),
    ("lives w/ husband and 2 daughters (ava 6, grace 9), no pets", {"6", "9"}),
    ("GRANDCHILDREN (3 & 5 YO) VISIT ON WEEKENDS", {"3", "5"}),
    # the youngest or the oldest child
    ("FOUR CHILDREN AT HOME, OLDEST 15, ALL WELL.", {"15"}),
    ("Two boys; the eldest is 9 and has asthma too.", {"9"}),
    ("her youngest, 2, is in daycare", {"2"}),
    # a relative's death at an age
    ("FH: mother expired at 54 from breast ca.", {"54"}),
    ("Grandfather, a smoker, expired at 70 of lung cancer.", {"70"}),
    # a relative, maybe named, then a pronoun or "who" and the age, in lower-case speech
    ("patient: my brother owen he's nine was sick first", {"nine"}),
    ("patient: yeah her daughter who is twelve goes to the same school", {"twelve"}),
    ("doctor: and your husband who was 50 when he had the stent", {"50"}),
    ("dad: our girl she's 6 and she won't eat", {"6"}),
    # age and sex at the start of a lower-case nursing note
    ("nsg note 0700-1900\n58f s/p lap chole, pod 1", {"58"}),
    ("npn 11p-7a bed 12\n73m w/ chf exacerbation,on lasix gtt", {"73"}),
    ("npn 7a-7p rm 4 81f, aspiration pna", {"81"}),
])
def test_session16_ages(pipe, text, ages):
    assert ages <= _ages(pipe.run(Document(text)), text)


def test_session16_names_in_group_list(pipe):
    text = "lives w/ wife and 2 sons (toby 14, sam 17), all healthy"
    found = _found(pipe.run(Document(text)), text)
    assert {("toby", "RELATIVE"), ("sam", "RELATIVE"), ("14", "AGE"), ("17", "AGE")} <= found


@pytest.mark.parametrize("text,piece", [
    # a procedure's date before its surgeon; an admission's date after its route
    ("R hip fx, s/p orif 1/2 by dr abernathy, wbat", "1/2"),
    ("lap chole 3/4 by dr hahn, tolerating diet", "3/4"),
    ("copd flare, adm via ed 1/4. prev adm 2019", "1/4"),
    ("ADMITTED THROUGH THE ER 2/3, STABLE SINCE", "2/3"),
])
def test_session16_dates(pipe, text, piece):
    assert (piece, "DATE") in _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    # counts of children, gestations, sizes: no ages
    ("3 children (2 boys, 1 girl), all well", "2"),
    ("3 children (2 boys, 1 girl), all well", "1"),
    ("kids (2) at home with dad", "2"),
    ("twins (33 and 34 wks) in nicu", "33"),
    ("the youngest 2 are twins", "2"),
    ("oldest 3 children live nearby", "3"),
    ("her youngest, 2 years ago, moved out", "2"),
    # the patient's death at a time
    ("pt expired at 10, family at bedside", "10"),
    ("daughter was present when pt expired at 11", "11"),
    # a relative and a number that is no age: units, heights, times, scores, "one of", age differences
    ("my son he's 6 feet tall now", "6"),
    ("my dad he's five foot eight", "five"),
    ("her brother who is 4 years older", "4"),
    ("my wife she's 5 minutes away", "5"),
    ("my daughter she's 9 to 5 at the bank", "9"),
    ("my son who is one of the best in his class", "one"),
    ("my daughter she's 10 out of 10 on pain today", "10"),
    ("my mom she's 3 times a day with the inhaler", "3"),
    ("his sister she's seven months pregnant", "seven"),
    ("the baby she's 7 pounds 2 ounces", "7"),
    ("my son he's 5 10 now, taller than me", "5"),
    ("my husband he's six two and skinny", "six"),
    ("my brother he was 2 for 2 at the plate", "2"),
    # metres walked, rates, catheters: no age and sex
    ("walked 50m with walker, tolerated well", "50"),
    ("ambulated 40m w/ assist x1", "40"),
    ("pt walked 30m.", "30"),
    ("neuro checks: 15m, then q1h", "15"),
    ("flush q15m w/ ns", "15"),
    ("16f foley placed", "16"),
])
def test_session16_not_age(pipe, text, piece):
    assert piece not in _ages(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    # fractions, scores, vent settings, pressures and visual acuities: no dates
    ("gave 1/2 tab by mouth", "1/2"),
    ("ate 2/3 of her tray", "2/3"),
    ("give 1/2 per md order", "1/2"),
    ("strength 4/5 in all ext", "4/5"),
    ("weaned to ps 5/5 by rt", "5/5"),
    ("bp 112/70 hr 80", "112/70"),
    ("Visual acuity 6/18 R, 6/12 L", "6/18"),
    ("Visual acuity 6/18 R, 6/12 L", "6/12"),
    ("VA 6/9 OD, 6/24 OS", "6/9"),
    ("VA 6/9 OD, 6/24 OS", "6/24"),
    ("6/12 vision with glasses", "6/12"),
])
def test_session16_not_date(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


def test_session16_kept(pipe):
    # what the new vetoes must leave alone: a date after an overdose, an appointment at the VA or an eye clinic
    text = "ADMITTED FOR SI AFTER OD ON 6/3. CALM TODAY"
    assert ("6/3", "DATE") in _found(pipe.run(Document(text)), text)
    text = "f/u at the VA 6/18 for his hearing aids"
    assert ("6/18", "DATE") in _found(pipe.run(Document(text)), text)
    text = "referred to eye clinic 6/12, appt letter sent"
    assert ("6/12", "DATE") in _found(pipe.run(Document(text)), text)
    text = "fell 6/12 R hip fx, orif planned"
    assert ("6/12", "DATE") in _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,want", [
    # the author's and typist's initials of a letter (staff)
    ("Yours sincerely\nDr A Okafor\nDictated AO / typed KM 12/03/2025", {("AO", "DOCTOR"), ("KM", "DOCTOR")}),
    ("Dictated but not read. Transcribed by: RT", {("RT", "DOCTOR")}),
    ("Ref: PH/jw", {("PH/jw", "DOCTOR")}),
])
def test_session16_dictation_initials(pipe, text, want):
    assert want <= _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("the typed BP log is attached to the chart", "BP"),
    ("reference range: HB 120-150", "HB"),
])
def test_session16_not_dictation_initials(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


def test_session16_weakness_grade_is_no_date(pipe):
    text = "R shoulder: empty can + with weakness 4/5, drop arm negative"
    assert "4/5" not in _pieces(pipe.run(Document(text)), text)
    text = "c/o weakness since 4/5, worse today"
    assert "4/5" in _pieces(pipe.run(Document(text)), text)


def test_session16_net_balance_is_no_url(pipe):
    text = "foley w/ good uo,see flowsheet.net neg 1.8l @ 1700"
    assert "flowsheet.net" not in _pieces(pipe.run(Document(text)), text)
    text = "results are on riverbendclinic.net for you"
    assert "riverbendclinic.net" in _pieces(pipe.run(Document(text)), text)


# -- tune53/tune54 (session 16, R4) -------------------------------------------------------------

@pytest.mark.parametrize("text,want", [
    ("my granddaughter shes gonna be nine in june", ("nine", "AGE")),
    ("born in fifty one so that makes me seventy four and im tired", ("seventy four", "AGE")),
    ("doctor how old are you patient mi fifty eight", ("fifty eight", "AGE")),
    ("Mum collecting brother (7) from school", ("7", "AGE")),
    ("i do roofing mostly in the summer", ("roofing", "PROFESSION")),
    ("she does hair at a salon on main", ("hair", "PROFESSION")),
    ("my wife she cleans houses for a living", ("cleans houses", "PROFESSION")),
    ("right now i drive for uber at night", ("uber", "ORGANIZATION")),
    ("his cousin he a mechanic at jiffy lube", ("mechanic", "PROFESSION")),
])
def test_session16_speech_ages_and_jobs(pipe, text, want):
    assert want in _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("i did my hair this morning", "hair"),
    ("she does her nails every week", "nails"),
    ("its gonna be ten minutes", "ten"),
    ("that makes me sick every time", "sick"),
    ("plan: 3rd trop at 0400, am lytes", "3rd"),
    ("CIRRHOSIS, CHILD-PUGH B, MELD 14, ASCITES", "14"),
    ("L RIB FX 4-7, SMALL PTX", "4-7"),
    ("Dr Pilkington FY1, bleep 4412", "4412"),
    ("discharge Modified Rankin 3", "Rankin"),
    ("wells 1 cha2ds2-vasc 4", "cha"),
    ("wife went home (40 min drive), wants a call", "40 min drive"),
    ("pt was a seamstress for 40 yrs. plan: diuresis", "yrs"),
    ("patient buenos dias doctor", "buenos dias"),
    ("el azucar bien alta like three hundred", "alta"),
])
def test_session16_not_phi_r4(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,want", [
    ("my brother works at the mayo in the lab", ("mayo", "HOSPITAL")),
    ("they took him to county and he waited all night", ("county", "HOSPITAL")),
    ("had her gallbladder out at memorial last year", ("memorial", "HOSPITAL")),
    ("the xray was done at the royal on tuesday", ("royal", "HOSPITAL")),
    ("everybody calls mi shorty", ("shorty", "PATIENT")),
    ("its padraig thats p a d r a i g", ("p a d r a i g", "PATIENT")),
])
def test_session16_nicknames_and_spelled_names(pipe, text, want):
    assert want in _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("we were at the mercy of the weather", "mercy"),
    ("in general she is well", "general"),
    ("they live out in the county", "county"),
    ("hold the mayo on that sandwich", "mayo"),
    ("went to county jail for a week", "county"),
])
def test_session16_not_hospital_nicknames(pipe, text, piece):
    assert not any(text[s.start:s.end] == piece and s.label == "HOSPITAL" for s in pipe.run(Document(text)))


@pytest.mark.parametrize("text,want", [
    ("fax to oakview snf 555-0133 attn marisol re discharge meds", ("marisol", "DOCTOR")),
    ("Referral for Aoife, 41, a dental nurse, with recurrent migraine", ("dental nurse", "PROFESSION")),
    ("chest pain began at work (crane operator at harbor steel)", ("crane operator", "PROFESSION")),
])
def test_session16_attention_and_job_cues(pipe, text, want):
    assert want in _found(pipe.run(Document(text)), text)


def test_session16_attention_to_a_department_is_no_name(pipe):
    text = "Attn: Billing department, re invoice"
    assert not any(s.label == "DOCTOR" for s in pipe.run(Document(text)))


@pytest.mark.parametrize("text,want", [
    ("mi auntie she eighty six and still cooking", ("eighty six", "AGE")),
    ("my nan she a hundred and one doctor", ("hundred and one", "AGE")),
    ("patient mi a security guard with metro transit", ("security guard", "PROFESSION")),
    ("the kids ava whos nine and leo", ("nine", "AGE")),
])
def test_session16_zero_copula_and_kids(pipe, text, want):
    assert want in _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("he forty minutes late for his appointment", "forty"),
    ("then a six minute walk test next week", "six minute walk"),
    ("she calls her paati every sunday", "paati"),
])
def test_session16_not_phi_r7(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,want", [
    ("patient: mi a mason mi work all over kingston", ("mason", "PROFESSION")),
    ("now my daughter is dental hygienist in tampa", ("dental hygienist", "PROFESSION")),
    ("we live out in springfield mass since the kids", ("mass", "STATE")),
])
def test_session16_r8_found(pipe, text, want):
    assert want in _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("mrn 00482917 k 6.1 hemolyzed? repeat", "k 6.1 hemolyzed"),
    ("my son is sick today", "sick"),
    ("referred to mass general for the biopsy", "mass"),
])
def test_session16_r8_not_phi(pipe, text, piece):
    assert not any(text[s.start:s.end] == piece and s.label in ("IDNUM", "OTHER", "PROFESSION", "STATE")
                   for s in pipe.run(Document(text)))
