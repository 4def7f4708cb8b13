"""Session 6 rules: identifiers said aloud, spoken years and ages, places of origin, replies to
questions in transcripts, field-labelled organisations, and the false positives fixed with them.

Must-match and must-not-match sentences were written for these tests (not copied from the probe
splits)."""

from __future__ import annotations

import pytest

from deid_engine.detect import spoken
from deid_engine.detect.patterns import PatternDetector
from deid_engine.pipeline import build_pipeline
from deid_engine.types import Document


@pytest.fixture(scope="module")
def pipe():
    return build_pipeline("default", "en").load()


@pytest.fixture(scope="module")
def pat():
    d = PatternDetector("en")
    d.load()
    return d


def _found(spans, text):
    return {(text[s.start:s.end], s.label) for s in spans}


def _pieces(spans, text):
    return {text[s.start:s.end] for s in spans}


# --- digit runs --------------------------------------------------------------------------------

@pytest.mark.parametrize("text,piece,label", [
    ("nurse: whats a good number for you\nmum: seven one eight five five five zero one four two",
     "seven one eight five five five zero one four two", "PHONE"),
    ("you can call me on oh seven seven double nine three one two four four", "oh seven seven double nine three one two four four", "PHONE"),
    ("the policy number is b q nine nine one two three four five", "nine nine one two three four five", "HEALTHPLAN"),
    ("her medicaid id is tk two two eight one nine zero four", "tk two two eight one nine zero four", "HEALTHPLAN"),
    ("the pump serial is z r seven seven four one eight", "seven seven four one eight", "DEVICE"),
    ("we live in austin texas seven eight seven zero four now", "seven eight seven zero four", "ZIP"),
    ("my zip is nine four one one oh", "nine four one one oh", "ZIP"),
    ("the claim reference is four four nine one two zero three", "four four nine one two zero three", "ACCOUNT"),
    ("and the chart number six six two zero one nine four k", "six six two zero one nine four k", "MEDICALRECORD"),
    ("so thats nine one seven 555 0134 right", "nine one seven 555 0134", "PHONE"),
    ("it was two eight four one nine three three zero five one i think", "two eight four one nine three three zero five one", "PHONE"),
    # "a repeat" is a test or a prescription booked, not a digit-span test read out
    ("come back to us in october for a repeat we will ring you is the mobile still zero eight seven five five five "
     "zero one three two", "zero eight seven five five five zero one three two", "PHONE"),
])
def test_spoken_digit_runs(text, piece, label):
    spans = spoken.digit_runs(text)
    assert (piece, label) in _found(spans, text)


@pytest.mark.parametrize("text", [
    "count with me one two three four five six",
    "now backwards five four three two one",
    "i am going to say some numbers repeat them after me seven two nine four one",
    "can you repeat these for me seven two nine four one",
    "bp 130 80 pulse 72 98 percent",                     # digit strings: the numeric patterns' business
    "take one or two at night and then two three times a day",
    "she had two five year olds and one seven year old",
])
def test_spoken_digit_runs_not_identifiers(text):
    assert spoken.digit_runs(text) == []


# --- e-mail addresses, house numbers, origins ------------------------------------------------

@pytest.mark.parametrize("text,piece", [
    ("send it to rosa underscore lima at example dot org please", "rosa underscore lima at example dot org"),
    ("its tomasz dot nowak seventy one at mailbox dot co dot uk", "tomasz dot nowak seventy one at mailbox dot co dot uk"),
    ("email me kbrennan at example dot ie", "kbrennan at example dot ie"),
])
def test_spoken_emails(text, piece):
    assert piece in _pieces(spoken.emails(text), text)


@pytest.mark.parametrize("text", ["have a look at nhs dot uk for advice", "we met at the park on saturday",
                                  "she is at home dot com is a website"])
def test_spoken_emails_not(text):
    assert spoken.emails(text) == []


@pytest.mark.parametrize("text,piece", [
    ("we are at twenty two maple grove road now", "twenty two maple grove road"),
    ("still at nine oh five larkin street apartment six b", "nine oh five larkin street apartment six b"),
    ("the address is three hundred willow court", "three hundred willow court"),
])
def test_spoken_house_numbers(text, piece):
    assert piece in _pieces(spoken.streets(text), text)


@pytest.mark.parametrize("text", ["he walks two miles down the road each morning",
                                  "it takes ten minutes to the main street", "three times the way round"])
def test_spoken_house_numbers_not(text):
    assert spoken.streets(text) == []


@pytest.mark.parametrize("text,found", [
    ("i came from tirana in albania when i was twenty", {("tirana", "CITY"), ("albania", "COUNTRY")}),
    ("my husband grew up in ballina", {("ballina", "CITY")}),
    ("we moved over from gujranwala in pakistan", {("gujranwala", "CITY"), ("pakistan", "COUNTRY")}),
])
def test_places_of_origin(text, found):
    assert found <= _found(spoken.origins(text), text)


@pytest.mark.parametrize("text", ["i came from work straight here", "when you came in thats fine",
                                  "the pain is from hemroids", "I came from Tirana", "he was born in nineteen sixty"])
def test_places_of_origin_not(text):
    assert spoken.origins(text) == []


# --- spoken years, ages, replies ------------------------------------------------------------------

@pytest.mark.parametrize("text,piece,label", [
    ("patient: twenty fourteen i think", "twenty fourteen", "DATE"),
    ("she was born twenty twenty three in march", "twenty twenty three", "DATE"),
    ("that was nineteen eighty seven or so", "nineteen eighty seven", "DATE"),
    ("the eleventh of may she moved", "eleventh of may", "DATE"),
    ("nurse: and remind me how old he is\nmum: seven", "seven", "AGE"),
    ("doctor: so that makes you\npatient: sixty one", "sixty one", "AGE"),
    ("my son teodor he is twelve and he loves football", "twelve", "AGE"),
    ("she's eighty one but she still drives", "eighty one", "AGE"),
])
def test_spoken_dates_and_ages(pat, text, piece, label):
    assert (piece, label) in _found(pat.detect(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("her vision is twenty twenty in both eyes", "twenty twenty"),
    ("he lifts nineteen twenty pounds", "nineteen twenty"),
    ("he is ten minutes late", "ten"),
    ("she is five weeks along now", "five"),
    ("the pain he is 7 out of 10", "7"),
    ("midwife: your due date is in june so you are thirty one weeks today", "thirty one"),
])
def test_spoken_dates_and_ages_not(pat, text, piece):
    assert piece not in _pieces(pat.detect(Document(text)), text)


def test_reply_to_work_question_is_a_profession(pipe):
    text = "doctor: what do you do for a living\npatient: um im a school bus driver out of the depot"
    assert ("school bus driver", "PROFESSION") in _found(pipe.run(Document(text)), text)
    text = "doctor: what work do you do\npatient: nothing at the moment"
    assert not [s for s in pipe.run(Document(text)) if s.label == "PROFESSION"]


def test_you_must_be_names_the_patient(pipe):
    text = "hello there you must be gwenllian come through"
    assert "gwenllian" in _pieces(pipe.run(Document(text)), text)
    text = "you must be tired after that drive"
    assert not pipe.run(Document(text))


def test_driving_job_employer(pipe):
    text = "he drives the lorry for brennan haulage most weeks"
    assert {"brennan", "haulage"} <= {w for p in _pieces(pipe.run(Document(text)), text) for w in p.split()}
    assert not pipe.run(Document("she drives the car for an hour a day"))


# --- notes: addresses, fields, nicknames -------------------------------------------------------------

@pytest.mark.parametrize("text,piece,label", [
    ("Address: 41 Juniper Ct, Unit 2, Marietta 30062.", "Marietta", "CITY"),
    ("Address: 41 Juniper Ct, Unit 2, Marietta 30062.", "30062", "ZIP"),
    ("1200 Bay St, Ottawa, ON K1P 5N2", "ON", "STATE"),
    ("Employer: Bluewater Tile Supply\nInsurer: Granite State Mutual", "Bluewater Tile Supply", "ORGANIZATION"),
    ("Employer: Bluewater Tile Supply\nInsurer: Granite State Mutual", "Granite State Mutual", "ORGANIZATION"),
    ("Patient: Margaret Oyelaran (\"Peggy\"), 70", "Peggy", "PATIENT"),
    ("Disability claim #DC-2291-07 filed", "DC-2291-07", "ACCOUNT"),
    ("She had measles at 4 and was fine.", "4", "AGE"),
])
def test_note_patterns(pat, text, piece, label):
    assert (piece, label) in _found(pat.detect(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("Employer: None\nInsurance carrier: Medicare", "None"),
    ("Employer: None\nInsurance carrier: Medicare", "Medicare"),
    ("Symptoms for 6/52, worse in the last 2/52.", "6/52"),
    ("Symptoms for 6/52, worse in the last 2/52.", "2/52"),
    ("Cough for 5/7, no fever.", "5/7"),
])
def test_note_patterns_not(pat, text, piece):
    assert piece not in _pieces(pat.detect(Document(text)), text)


def test_dob_in_slash_52_stays_a_date(pat):
    text = "DOB 4/52, lives alone"
    assert "4/52" in _pieces(pat.detect(Document(text)), text)


# --- false positives fixed ---------------------------------------------------------------------------

@pytest.mark.parametrize("text,piece", [
    ("Seen with Dr Aoife Kinsella, MB FRCPI, today.", "FRCPI"),
    ("Letter from Dr Rhys Pugh, GP, Llandeilo.", "GP"),
    ("He is proud of his Polish roots and loves Scottish dancing.", "Scottish"),
    ("Results back. Flag as abnormal for Dr Osei.", "Flag"),
    ("Has her consent form been signed and scanned today?", "scanned"),
    ("Microcytic anaemia likely secondary to menorrhagia.", "menorrhagia"),
    ("Examination: BMI 31, BP 128/70.", "BMI 31"),
    ("Pain over the bicipital groove. Speed and Yergason tests positive.", "Speed"),
    ("speaker 1: your reading was over our cut off so we repeat it", "cut off"),
    ("[wife] he forgot to pay the phone bill again", "bill"),
])
def test_false_positives_fixed(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("Mrs Bridget Irish attended with her son.", "Irish"),
    ("Note from Mark Hennessy: pt stable.", "Mark Hennessy"),
    ("we drove to long beach for the weekend", "long beach"),
])
def test_false_positive_rules_keep_real_phi(pipe, text, piece):
    got = _pieces(pipe.run(Document(text)), text)
    assert piece in got or all(w in " ".join(got) for w in piece.split())


# --- second round (from the blind tuning split tune11) ---------------------------------------------

@pytest.mark.parametrize("text,pieces", [
    ("nurse: and the surname\ncaller: its nwachukwu n w a c h u k w u", {"nwachukwu", "n w a c h u k w u"}),
    ("Family name OYELARAN, O-Y-E-L-A-R-A-N.", {"OYELARAN", "O-Y-E-L-A-R-A-N"}),
])
def test_spelled_out_names(text, pieces):
    assert pieces <= _pieces(spoken.spelled_names(text), text)


@pytest.mark.parametrize("text", ["start amoxicillin a m o x i c i l l i n today", "the a b c of first aid",
                                  "she signed it b i d no wait t i d"])
def test_spelled_letters_that_are_no_name(text):
    assert spoken.spelled_names(text) == []


@pytest.mark.parametrize("text,piece,label", [
    ("nurse: date of birth\ncaller: third of the eleventh sixty two", "third of the eleventh sixty two", "DATE"),
    ("we moved here back in eighty four", "eighty four", "DATE"),
    ("he slipped on the ice on the second and hurt his wrist", "second", "DATE"),
    ("she has not slept since diwali", "diwali", "DATE"),
    ("our granddaughter Ffion will be six in March", "six", "AGE"),
    ("im nine ill be ten on my birthday", "ten", "AGE"),
    ("doctor: and your first name\npatient: ciaran but everyone says kieran", "ciaran", "PATIENT"),
    ("Lives with her son at Flat 9, Elm Court.", "Flat 9, Elm Court", "STREET"),
    ("yes apartment 12b on the third floor", "apartment 12b", "STREET"),
])
def test_second_round_patterns(pat, text, piece, label):
    assert (piece, label) in _found(pat.detect(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("back in ninety eight percent of cases", "ninety"),
    ("he lives on the ninth floor now", "ninth"),
    ("the scan will be ten in the morning", "ten"),
    ("doctor: whats your name\npatient: yes its fine", "fine"),
    ("flat 2 weeks after the fall", "flat 2"),
])
def test_second_round_patterns_not(pat, text, piece):
    assert piece not in _pieces(pat.detect(Document(text)), text)


@pytest.mark.parametrize("text,found", [
    ("my brother still lives out of dunboyne these days", {("dunboyne", "CITY")}),
    ("we stayed in chengdu for a year", {("chengdu", "CITY")}),
    ("still at 42 moss lane ballyhaunis", {("ballyhaunis", "CITY")}),
])
def test_places_after_living_cues(text, found):
    assert found <= _found(spoken.origins(text), text)


@pytest.mark.parametrize("text", ["she was out of breath and stayed in bed", "he lives in hope", "42 moss lane today"])
def test_places_after_living_cues_not(text):
    assert spoken.origins(text) == []


@pytest.mark.parametrize("text,piece", [
    ("Pt is a 38 y/o firefighter with the Leeds Fire Service, seen today.", "Leeds Fire Service"),
    ("Works as an electrician with Coastal Grid Solutions.", "Coastal Grid Solutions"),
    ("his claim was denied by harbour mutual again", "harbour mutual"),
])
def test_employers_and_insurers(pipe, text, piece):
    assert piece in _pieces(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("She was covered by Medicare until June.", "Medicare"),
    ("Sliding scale, covered by SSRI.", "SSRI"),
    ("Dr Ciara Nolan MB BCh BAO MRCPI", "BCh BAO MRCPI"),
    ("Disease activity (DAS28 3.2) improved.", "DAS28"),
    ("She is in 5th grade at a local school.", "5th"),
    ("Crohn's disease, Harvey-Bradshaw index 3.", "Harvey-Bradshaw"),
    ("cc: Dr Ann Ruiz, Rheumatologist, Tralee", "Rheumatologist"),
    ("Her aunt May may come along next week.", "May may"),
])
def test_second_round_false_positives(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


def test_coach_and_member_id(pipe):
    text = "Plays hurling; Coach Eamon minds her inhaler."
    assert "Eamon" in _pieces(pipe.run(Document(text)), text)
    text = "Insurance: Lakeshore Health Plan   Member ID: LHP220917733   DOS 11/02/2026"
    assert "LHP220917733" in _pieces(pipe.run(Document(text)), text)
    text = "Adaeze here. My friends call me Daze."
    assert "Daze" in _pieces(pipe.run(Document(text)), text)


# --- third round (from the blind tuning splits tune8 and tune12) -----------------------------------------

@pytest.mark.parametrize("text,piece,label", [
    ("DOB: 14.03.1951 (75 y) seen today", "75", "AGE"),
    ("refill for maria ruiz 64f.", "64", "AGE"),
    ("[doctor] and youre forty one now\n[patient] yeah forty one", "forty one", "AGE"),
    ("patient: they got married in sixty eight", "sixty eight", "DATE"),
    ("Address: 7 Quay Street, Kinvara, Co. Galway H91 T2K8", "Kinvara", "CITY"),
    ("Address: 7 Quay Street, Kinvara, Co. Galway H91 T2K8", "H91 T2K8", "ZIP"),
    ("CT chest (accession no. CT-26-114093) clear", "CT-26-114093", "IDNUM"),
    ("drives a blue Fiesta, reg KP21 XWD", "KP21 XWD", "VEHICLE"),
    ("who is covering 7 west tonight", "7 west", "DEPARTMENT"),
    ("back up to four north after the scan", "four north", "DEPARTMENT"),
    ("mrs b in bed 6 wants her tablets", "b", "PATIENT"),
    ("pt kt mrn 5521907 needs bloods", "kt", "PATIENT"),
    ("Patient: Yes, ID HCX 40917733.", "HCX 40917733", "IDNUM"),
    ("Refer Amina Yusuf (NHS 943 476 5919), 52, bus driver for the council", "52", "AGE"),
    ("CPSO #8827161", "8827161", "LICENSE"),
])
def test_third_round_patterns(pat, text, piece, label):
    assert (piece, label) in _found(pat.detect(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("vitamin d, mr a and b", "a"),
    ("[midwife] you are thirty weeks now\n[patient] thirty and two days", "thirty"),
    ("his bp was one forty over\npatient: eighty", "eighty"),
    ("married in sixty eight days", "sixty eight"),
    ("walk to the east side of the ward", "east"),
])
def test_third_round_patterns_not(pat, text, piece):
    assert piece not in _pieces(pat.detect(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("pacemaker check, whos covering 4 south tonight", "whos covering"),
    ("she takes it 0800 1200 1600 daily", "1200"),
    ("Nursing handover CCU bay 3 Mr Lee", "bay"),
    ("son is on his way, mob 07700 900123", "mob"),
    ("Hartlepool TS24 8PB\nNeurology clinic, Ward 6", "Neurology clinic"),
    # an xfail under the session-11 model (its PHI mass on 'food bank' passed recall threshold 0.4); passes with the
    # session-15 model
    ("she works at the food bank on fridays", "food bank"),
])
def test_third_round_false_positives(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


def test_third_round_employers(pipe):
    text = "retired fitter i was with western rail for thirty years"
    assert "western rail" in _pieces(pipe.run(Document(text)), text)
    text = "im a cashier at the sunrise market near us"
    assert {"sunrise", "market"} <= {w for p in _pieces(pipe.run(Document(text)), text) for w in p.split()}
    assert not [s for s in pipe.run(Document("PAP has been 30-40/16-20 with RA 9-12.")) if s.label == "ORGANIZATION"]


# --- ICU notes (errors read on a second calibration fold of PhysioNet train, patients % 5 == 2) --------------

@pytest.mark.parametrize("text,piece", [
    ("PACER CHECKED. DDD SET AT 60.", "DDD"),
    ("PATIENT SEEN BY CVICU TEAM THIS AM", "CVICU"),
    ("on PS 12/5/35% overnight", "12/5"),
    ("discussed spiritual services with family", "spiritual"),
    ("Pt is a 61 y/o male admitted with variceal bleed.", "variceal"),
])
def test_icu_false_positives(pipe, text, piece):
    assert not [s for s in pipe.run(Document(text)) if piece in text[s.start:s.end]]


def test_icu_names_kept(pipe):
    for text, piece in [("DR VINER SPOKE TO HER", "VINER"), ("MR DEXTER WORSENED THRU NOC", "DEXTER"),
                        ("HO Quill notified, no changes", "Quill")]:
        assert piece in _pieces(pipe.run(Document(text)), text)
    text = "transferred to a bed on wexbury campus today"
    assert any("wexbury" in p for p in _pieces(pipe.run(Document(text)), text))
    text = "ASKED FOR RABBI- RABBI LEVY CAME TO SPEAK"
    assert "RABBI" not in _pieces(pipe.run(Document(text)), text)
    assert not pipe.run(Document("resident and fellow eval the patient"))


@pytest.mark.parametrize("text,piece,label", [
    ("they moved him to room seven twelve on friday", "seven twelve", "LOCATION_OTHER"),
    ("yes apartment nine c on the left", "apartment nine c", "STREET"),
    ("ins is cigna member id u55120938", "cigna", "ORGANIZATION"),
    ("Harbourfront Clinic, Halifax, NS\nPatient: Ada Roy", "NS", "STATE"),
])
def test_fourth_round_patterns(pat, text, piece, label):
    assert (piece, label) in _found(pat.detect(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("insurance is fine for now", "fine"),
    ("ins is medicaid", "medicaid"),
    ("ON examination the chest was clear", "ON"),
])
def test_fourth_round_patterns_not(pat, text, piece):
    assert piece not in _pieces(pat.detect(Document(text)), text)


# --- fifth round (from the blind tuning split tune13) -------------------------------------------------------

@pytest.mark.parametrize("text,piece,label", [
    ("Two children aged 9 and 13. Lives off Bay Road.", "13", "AGE"),
    ("patient: my name is deepa rao i am forty one years", "forty one", "AGE"),
    ("PPSN: 1234567TA  GP: Dr Hill", "1234567TA", "SSN"),
    ("via interpreter (ID LNG-5521) today", "LNG-5521", "IDNUM"),
    ("Hospital No: KMC/2025/11873   Date: 1/2/2026", "KMC/2025/11873", "MEDICALRECORD"),
    ("Consultant, GMC 6612093, typed by", "6612093", "LICENSE"),
    ("drives a ute, rego DFK 19P for work", "DFK 19P", "VEHICLE"),
    ("so hes seventy one hell be seventy two come june", "seventy two", "AGE"),
    ("the new roster starts the ninth so", "ninth", "DATE"),
    ("we live in gwarinpa now", "gwarinpa", "CITY"),
])
def test_fifth_round_patterns(pipe, text, piece, label):
    assert (piece, label) in _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("Family dog Rocco sleeps on the bed.", "Rocco"),
    ("Loves his guinea pig Nacho and Lego.", "Nacho"),
    ("hey yall come on back", "yall"),
    ("Date: Friday 20 November 2026", "Friday"),
    ("focus improved (5 of 9 items)", "5 of 9"),
    ("Smokes 10/day, 2-3 cigarettes at night", "2-3"),
    ("Parkinson's on Sinemet 25/100 TDS", "Sinemet 25"),
    ("leaflet given in Malayalam and English", "Malayalam"),
    ("since the first of the month he has", "first"),
    ("i am ten years sober now", "ten"),
])
def test_fifth_round_false_positives(pipe, text, piece):
    assert not [s for s in pipe.run(Document(text)) if text[s.start:s.end] == piece]


def test_relative_job_in_brackets(pipe):
    text = "Lives with mum Kerrie Doyle (47, teacher's aide) and her brother."
    assert ("teacher's aide", "PROFESSION") in _found(pipe.run(Document(text)), text)


# --- ICU notes, second fold (patients % 5 == 3) ----------------------------------------------------------------

@pytest.mark.parametrize("text,piece,label", [
    ("Pt received from university of vermont medical center today.", "university of vermont medical center", "HOSPITAL"),
    ("TRANSFERRED FROM U OF MD MED CENTER ON 9/14", "U OF MD MED CENTER", "HOSPITAL"),
    ("Niece, Rosa Diaz of Dundalk visited today.", "Dundalk", "CITY"),
    ("PMHX MI in 97 and 03, HTN.", "03", "DATE"),
])
def test_fold3_patterns(pat, text, piece, label):
    assert (piece, label) in _found(pat.detect(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("the university of life taught him", "university of life"),
    ("Daughter, Ann Lee of course visited", "course"),
])
def test_fold3_patterns_not(pat, text, piece):
    assert piece not in _pieces(pat.detect(Document(text)), text)


def test_ordinal_day_of_admission_is_no_date(pipe):
    text = "DEVELOPED A PNEUMONIA ON 3RD DAY OF ADMISSION."
    assert "3RD" not in _pieces(pipe.run(Document(text)), text)


def test_titled_lower_case_surnames_and_this_month(pat):
    text = "okay mister oyelowo and you are having the free camp on the twenty fifth of this month"
    found = _found(pat.detect(Document(text)), text)
    assert ("oyelowo", "PATIENT") in found and ("twenty fifth", "DATE") in found
    text = "miss feeling well, mrs tired today, since the first of the month"
    assert not pat.detect(Document(text))


@pytest.mark.parametrize("text,name,label", [
    ("every friday with his compadre chuy [son] its only once", "chuy", "RELATIVE"),
    ("the meemaw darlene says i told you it was her ear", "darlene", "RELATIVE"),
    ("patient: yes my son bao is six he is in first grade", "bao", "RELATIVE"),  # BAO is also a degree
])
def test_session7_kin_words_and_short_names(pipe, text, name, label):
    got = _found(pipe.run(Document(text)), text)
    assert (name, label) in got, got


# --- session 7: addresses abroad, registers, spoken health numbers, greetings ------------------------

@pytest.mark.parametrize("text,piece,label", [
    ("[Patient] 7 Merrigal Street, Wagga. [Doctor] Thanks.", "Wagga", "CITY"),
    ("Address: Unit 4/17 Casuarina Drive, Yeppoon QLD 4703", "Yeppoon", "CITY"),
    ("Address: 38 Pukeko Street, Rotorua 3010    Ph: 027 555 0133", "3010", "ZIP"),
    ("Dr Colm O Dalaigh, MCRN 418822 Tel 094 555 0101", "418822", "LICENSE"),
    ("Paul-Emile Gagnon, MD CCFP, CPSM 31884", "31884", "LICENSE"),
    ("ive got your nhi here j k w four four nine two is that right", "j k w four four nine two", "HEALTHPLAN"),
    ("Emeka agreed his car (LK09 XRT) will be sold.", "LK09 XRT", "VEHICLE"),
    ("S: 41 F here for hypertension follow up", "41", "AGE"),
    ("CC: 67 M with chest pain", "67", "AGE"),
])
def test_session7_patterns(pipe, text, piece, label):
    assert (piece, label) in _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("Address: Unit 4/17 Casuarina Drive, Yeppoon QLD 4703", "4/"),         # a unit number, no date
    ("Addenbrooke's: attention 16/18, memory 12/26, fluency 7/14, language 22/26", "12/26"),  # sub-scores
    ("Addenbrooke's: attention 16/18, memory 12/26, fluency 7/14, language 22/26", "7/14"),
    ("[Doctor] G'day, is that Zbigniew? [Patient] Yeah, g'day doc.", "g'day"),
    ("kia ora doc everyone calls me tip", "kia ora"),
    ("Assalamu alaikum. GP: Wa alaikum salaam. Can I just", "Wa"),
    ("we did it on the machine this arvo, 134 over 82", "arvo"),
    ("- Salt reduction handout in Tagalog.", "Tagalog"),
    pytest.param("the code is four four nine two", "four four nine two",  # four digits without a named cue
                 marks=pytest.mark.xfail(strict=True, reason="session 11 model: the tagger, taught spoken identifiers "
                                         "by the probe splits, calls an uncued spoken code OTHER (recall first)")),
    ("Temp 98 F with chills", "98"),
])
def test_session7_not_phi(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece,label", [
    ("Readmitted to unit 9/3 w/ pulmonary edema.", "9/3", "DATE"),       # "unit" is a ward here
    ("BP 120/80, seen 3/4 and 5/6, GCS 15/15", "5/6", "DATE"),           # a date list is no score list
    ("mother this is mai shes my 6 year old", "mai", "RELATIVE"),          # Mai is a name, not a greeting
])
def test_session7_still_phi(pipe, text, piece, label):
    assert piece in _pieces(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece,label", [
    ("DOB 04/01/1958   GMS no. L0427731   PPSN 7734129TA", "L0427731", "HEALTHPLAN"),
    ("GMS medical card no. 4481027T.  Non-smoker.", "4481027T", "HEALTHPLAN"),
    ("NHI: ZAC4417", "ZAC4417", "HEALTHPLAN"),
    ("Two children, ages 6 and 4, the older at school", "6", "AGE"),
    ("five-a-side on Wednesdays with Cotmanhay Ladies FC.  Examination", "Cotmanhay Ladies FC", "ORGANIZATION"),
    # an xfail under the session-11 model (its LOCATION span ran on over 'five k'); passes with the session-15 model
    ("i was meant to be runnin the ennistymon harriers five k on sunday", "ennistymon harriers", "ORGANIZATION"),
])
def test_session7_ids_ages_clubs(pipe, text, piece, label):
    assert (piece, label) in _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("K+ 4.0 MG+ 1.8 - 2 GMS MGSO4 ORDERED", "MGSO4"),          # grams of magnesium sulphate
    ("TD CO notified", "TD CO"),
    ("Dr Olumide Hope, Gastroenterology Advanced Trainee AHPRA MED0001847261", "Gastroenterology Advanced Trainee"),
    ("Dr: Hi, I am Dr Whitfield-Osei, the certified medical examiner today.", "medical examiner"),
    ("Veterans Crisis Line (988, press 1) reviewed.", "988"),
    ("ECG: AF, ventricular rate 92, normal QRS.", "92"),
])
def test_session7_more_not_phi(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("the fourteenth of december doctor: yes the ninth unless we need to", "ninth"),
    ("he was admitted in march [daughter] yes the third he was in room four", "third"),
    ("and you were in vietnam in sixty eight thats right army", "sixty eight"),
    ("we got married in seventy one and moved in eighty", "seventy one"),
])
def test_session7_spoken_dates(pipe, text, piece):
    assert (piece, "DATE") in _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("yes the third one is better", "third"),                    # no month or booking talked about
    ("okay so the second thing is your sugar", "second"),
    ("he was diagnosed in sixty eight percent of cases", "sixty eight"),
    ("served in the army in forty people", "forty"),
])
def test_session7_not_spoken_dates(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece,label", [
    ("yeah i know im thirty five i cant keep doing this", "thirty five", "AGE"),
    ("son: youre seventy nine dad patient: seventy nine", "seventy nine", "AGE"),
    ("come on through youre in chair eleven today", "eleven", "LOCATION_OTHER"),
])
def test_session7_transcript_ages_chairs(pipe, text, piece, label):
    assert (piece, label) in _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("patient: hang on my neighbour gwen is here she does my box neighbour: hello doctor", "neighbour"),
    ("tell him about my face gwen neighbour: oh yes she thinks", "gwen neighbour"),
    ("nurse: take the tablets three a day\npatient: will do\nnurse: good", "will do"),
    ("youre in chair eleven today patient: kia ora um wheres wheres losa", "kia ora um"),
    ("im twenty minutes away i think", "twenty"),
    ("sit in the chair two times a day", "two"),
])
def test_session7_transcript_not_phi(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece,label", [
    ("verify the insurance is it still gateway kids health plan caller: yes", "gateway kids health plan", "ORGANIZATION"),
    ("is the medical aid still umoya health yes the number is", "umoya health", "ORGANIZATION"),
    ("for bilal haddad?? bluewater health denied claim clm-22", "bluewater health", "ORGANIZATION"),
    ("the eircode here [daughter] f ninety four k two x seven its the bungalow", "f ninety four k two x seven", "ZIP"),
    ("twelve ballarat road maidstone vic three zero one two [midwife] and", "three zero one two", "ZIP"),
])
def test_session7_spoken_insurers_postcodes(text, piece, label):
    assert (piece, label) in _found(spoken.find(text), text)


@pytest.mark.parametrize("text", [
    "your insurance is still the same",
    "the insurance is with mental health care",
    "the medicare cover is fine",
    "the eircode is on the letter i think",
    "whats your zip code its six three one three five",  # five digits: the digit-run detector's
])
def test_session7_spoken_insurers_postcodes_not(text):
    assert not [s for s in spoken.find(text) if s.source in ("pattern:spoken_insurer", "pattern:spoken_postcode")]


@pytest.mark.parametrize("text,piece,label", [
    ("okay dante can you give me your date of birth\neleven twelve eighty nine\nthank you", "eleven twelve eighty nine", "DATE"),
    ("[nurse] whats the eircode here\n[daughter] f ninety four k two x seven its the bungalow", "f ninety four k two x seven", "ZIP"),
    ("Lives at 218 Lorne St, Apt 4, Sudbury P3C 4R7 with her husband", "Sudbury", "CITY"),
])
def test_session7_replies_on_the_next_line(pipe, text, piece, label):
    assert (piece, label) in _found(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("childhood asthma, on Clenil 100 micrograms two puffs", "Clenil"),
    ("fissured dermatitis of the palmar fingers", "palmar"),
])
def test_session7_medical_words(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("thank you so much destiny", "destiny"),
    ("see you in three months walt", "walt"),
    ("alright take care rosalind", "rosalind"),
    ("[doctor] okay take care grace\n[patient] bye", "grace"),
])
def test_session7_farewell_names(text, piece):
    assert (piece, "PATIENT") in _found(spoken.find(text), text)


@pytest.mark.parametrize("text", [
    "see you next week then", "take care now", "see you on monday", "thank you so much indeed",
    "see you in june", "see you soon love", "see you in a bit mark",   # a word-name needs the short farewell
    "thanks so much hope you feel better", "Thank you so much Destiny",  # capitalised: the tagger's job
])
def test_session7_not_farewell_names(text):
    assert not [s for s in spoken.find(text) if s.source == "pattern:spoken_farewell"]


@pytest.mark.parametrize("text,piece", [
    ("its the bungalow past ballintra on the ballyshannon road", "ballintra"),
    ("we live out past wapato on the farm", "wapato"),
    ("he went out in hamerton yesterday", "hamerton"),
])
def test_session7_countryside_directions(text, piece):
    assert (piece, "CITY") in _found(spoken.find(text), text)


@pytest.mark.parametrize("text", [
    "the pain is out past midnight", "the pain went right past the knee", "we drove out in the rain",
])
def test_session7_countryside_directions_not(text):
    assert not [s for s in spoken.find(text) if s.source == "pattern:spoken_origin"]


def test_session7_miss_a_dose_is_no_title():
    text = "inr up so i want her to miss tonights dose and tomorrows"
    assert not spoken.titled_names(text)
    text = "okay thank you miss oyelowo"
    assert [text[s.start:s.end] for s in spoken.titled_names(text)] == ["oyelowo"]
    # "mr arthrogram", "mr enterography": magnetic resonance, not a title
    assert not spoken.titled_names("next radiographs mr arthrogram of the right hip and an mr enterography")


@pytest.mark.parametrize("text,piece", [
    ("may need a surgical opinion (Broström repair) later.", "Broström"),
    ("Assessment: Addenbrooke's Cognitive Examination III 82/100", "Addenbrooke"),
    ("Exercise ECG: 7 min Bruce protocol, 1.5 mm", "Bruce"),
    ("i would like to do the dix hallpike test at the end", "dix"),
    ("Pt is Hemi Tawhiri, 83, NHI ZKT4821.", "NHI"),
])
def test_session7_eponym_procedures_and_id_labels(pipe, text, piece):
    assert piece not in _pieces(pipe.run(Document(text)), text)


@pytest.mark.parametrize("text,piece", [
    ("Seen by Dr Jones for the procedure today", "Jones"),
    ("She was admitted to Addenbrooke's Hospital in Cambridge.", "Cambridge"),
    ("Mrs Bruce attended with her husband", "Bruce"),
])
def test_session7_names_before_procedures_stay(pipe, text, piece):
    assert piece in _pieces(pipe.run(Document(text)), text)


def test_session7_can_i_call_you(pipe):
    text = "hello marta and can i call you halyna patient: everybody calls me"
    assert ("halyna", "PATIENT") in _found(pipe.run(Document(text)), text)
    for text in ("can i call you tomorrow about the results", "i will call you monday", "ill call you back later"):
        assert not pipe.run(Document(text))


# --- session 8: plates, British postcodes, spelled replies, names spoken to -----------------------

@pytest.mark.parametrize("text,piece,label", [
    ("she was yelling at the guy actually his plate was eight k q l two zero nine i gave it to officer",
     "eight k q l two zero nine", "VEHICLE"),
    ("the police rang asking is this your car c x oh nine f g h they found it in a lay by", "c x oh nine f g h", "VEHICLE"),
    ("reception: are you still at twenty seven easter road\ncaller: yes e h six five d p\nreception: so", "e h six five d p", "ZIP"),
    ("reception: could you spell the surname for me\ncaller: w r o b e l\nreception: and your date of birth",
     "w r o b e l", "PATIENT"),
    ("clinician: dafydd what did you do for work\npatient: quarryman forty one years", "dafydd", "PATIENT"),
    ("gp: morning ivy its doctor tapsell from the practice", "ivy", "PATIENT"),
    ("gp: hi graham hello ivy how are you feeling today", "ivy", "PATIENT"),
])
def test_spoken_codes_and_names_session8(text, piece, label):
    assert (piece, label) in _found(spoken.find(text), text)


@pytest.mark.parametrize("text", [
    "its a b c easy as one two three",
    "my car is a two door and i drive it to work",
    "doctor: so what brings you in today\npatient: well my knee\ndoctor: okay tell me more",
    "nurse: morning all how are you\ndoctor: ventolin how often do you use it",
    "doctor: hello there how are you doing",
    "doctor: right grace is what we all need",            # a dictionary word after "right": not a vocative slot
    "Doctor: Dafydd, what did you do for work?",           # capitalised text: the tagger's job
    "could you spell that for me\npatient: sure its on the card",
])
def test_spoken_codes_and_names_session8_not(text):
    assert not [s for s in spoken.find(text) if s.source in ("pattern:spoken_plate", "lexicon:spoken_vocative",
                                                             "pattern:spelled_name", "pattern:spoken_postcode")]


@pytest.mark.parametrize("text,piece,label", [
    ("they found it in a lay by outside llanberis clinician: that must", "llanberis", "CITY"),
    ("she had the same thing with her first one in abuja yes", "abuja", "CITY"),
    ("my address is plot fourteen olusegun close ikeja yes and if i dont", "ikeja", "CITY"),
    ("and will the glucometer be covered by evergreen hmo my enrollee number is", "evergreen hmo", "ORGANIZATION"),
    ("do you have your insurance card yeah its blue oak health member id", "blue oak health", "ORGANIZATION"),
])
def test_spoken_places_and_insurers_session8(text, piece, label):
    assert (piece, label) in _found(spoken.find(text), text)


@pytest.mark.parametrize("text", [
    "we went to a farm near the river",
    "the other one in the cupboard",
    "is that covered by the nhs",
    "the cost is covered by my insurance",
])
def test_spoken_places_and_insurers_session8_not(text):
    assert not [s for s in spoken.find(text) if s.source in ("pattern:spoken_origin", "pattern:spoken_insurer")]


@pytest.mark.parametrize("text,piece,label", [
    ("clinician: dafydd what did you do for work\npatient: quarryman forty one years at the quarry", "quarryman", "PROFESSION"),
    ("ive been working doubles at peach state distribution im a forklift operator", "peach state distribution",
     "ORGANIZATION"),
    ("i need to tell my work i am dental nurse at bright smile dental on leith walk", "bright smile dental", "ORGANIZATION"),
    ("that would help our minister eifion from capel bethel to visit", "eifion", "RELATIVE"),
    ("when my missus fell pregnant with our little fella kobi hes three now", "kobi", "RELATIVE"),
    ("gp: morning ivy its doctor tapsell\nson: come in\ngp: did you hit your head ivy\npatient: no", "ivy", "PATIENT"),
])
def test_pipeline_session8(pipe, text, piece, label):
    got = [(text[s.start:s.end], s.label) for s in pipe.run(Document(text))]
    assert got.count((piece, label)) >= 1
    if piece == "ivy":
        assert got.count(("ivy", "PATIENT")) == 2  # the name said to her again, closing a turn


@pytest.mark.parametrize("text,piece", [
    ("doctor: what do you do for work\npatient: whatever i can find mostly", "whatever"),
    ("son: she wont use the zimmer frame in the house", "zimmer"),
    ("Mr Anand Raghunathan, Consultant Orthopaedic Surgeon, Lunesdale Hospital", "Orthopaedic"),
    ("her daughter chioma at bedside til 5", "5"),
    ("right now youre in bay four and after the xray", "bay"),
    ("the prime minister said so", "said"),
    ("gp: morning ivy its doctor tapsell\npatient: i planted the ivy last year", "the ivy"),
])
def test_pipeline_session8_not(pipe, text, piece):
    a = text.index(piece)
    b = a + len(piece)
    spans = pipe.run(Document(text))
    if piece == "the ivy":
        a = b - 3
    assert not [s for s in spans if s.start < b and a < s.end and s.start >= a - 1]


@pytest.mark.parametrize("text,piece,label", [
    ("its eighteen kinfauns drive g fifteen seven t u midwife: okay", "g fifteen seven t u", "ZIP"),
    ("thats right ll fifty seven three a x [audiologist] so", "ll fifty seven three a x", "ZIP"),
    ("corby yeah wife: yes n n seventeen two e h physio: can", "n n seventeen two e h", "ZIP"),
    ("[patient] oh yes yes gwilym gwilym pritchard [audiologist] and", "gwilym pritchard", "PATIENT"),
    ("[daughter] yes sian sian roberts i live", "sian roberts", "PATIENT"),
    ("doctor: hey come on in so youre kofi amankwah patient: yeah thats me", "kofi amankwah", "PATIENT"),
    ("doctor: close were at the guildwood memory clinic can you tell me the", "guildwood memory clinic", "HOSPITAL"),
    ("ring the after hours line for wheatbelt palliative care service or ring me", "wheatbelt palliative care service",
     "HOSPITAL"),
    ("which hospital were we in patient: the hospital sunnybrook doctor: close", "sunnybrook", "HOSPITAL"),
    ("we moved papamoa in march", "papamoa", "CITY"),
])
def test_spoken_session8_second_round(text, piece, label):
    assert (piece, label) in _found(spoken.find(text), text)


@pytest.mark.parametrize("text", [
    "im on my third go at it and i am six two a b",
    "yes yes really really good",
    "so youre feeling better today",
    "so youre mark twain right",           # listed names and words: the tagger's call
    "the the hospital said",
    "go to the sleep clinic tomorrow",
    "at the local memory clinic",
    "the hospital was great",
    "we moved house last year",
])
def test_spoken_session8_second_round_not(text):
    assert not [s for s in spoken.find(text) if s.source in ("pattern:spoken_postcode", "lexicon:spoken_repeat",
                                                             "pattern:spoken_facility", "pattern:spoken_origin")]


@pytest.mark.parametrize("text,want", [
    ("patient: i had osgood schlatter when i was like twelve", set()),
    ("so today ill do the modified ashworth on the arm", set()),
    ("three and then school by gods grace she is still going", set()),
    ("Attends mass; Fr Tom Keaveney is aware", {"Tom Keaveney"}),
    ("rye lane and the youth leader tunde is nice okay", {"tunde"}),
    ("Mr Ashworth came in with his wife", {"Ashworth"}),
])
def test_pipeline_session8_names(pipe, text, want):
    got = {text[s.start:s.end] for s in pipe.run(Document(text)) if s.label in ("PATIENT", "DOCTOR", "RELATIVE")}
    assert got == want


@pytest.mark.parametrize("text,want", [
    ("doctor: come on in have a seat so you're farida right patient: yes", {"farida"}),
    ("so youre kofi amankwah patient: yeah thats me", {"kofi amankwah"}),
    ("you're right patient: yes", set()),
    ("first child was delivered by caesarean at the regional", set()),
    ("so since your family is korean i'm going to check a blood test because i'm careful", set()),
])
def test_pipeline_session8_third_round(pipe, text, want):
    got = {text[s.start:s.end] for s in pipe.run(Document(text)) if s.label in ("PATIENT", "DOCTOR", "RELATIVE")}
    assert got == want


def test_pipeline_threshold_is_no_date(pipe):
    text = "message from darko and flag any egfr under 30 please"
    assert not [s for s in pipe.run(Document(text)) if text[s.start:s.end] == "30"]


def test_pipeline_credentials_after_signature(pipe):
    text = "Sincerely, Olamide Ajayi, MD, Diplomate ABSM NPI 1457093318"
    got = {text[s.start:s.end] for s in pipe.run(Document(text))}
    assert "Olamide Ajayi" in got and not any("ABSM" in g for g in got)


def test_pipeline_insurer_through_work(pipe):
    text = "doctor: what your insurance covers patient: we have blue horizon health through my job"
    assert ("blue horizon health", "ORGANIZATION") in {(text[s.start:s.end], s.label) for s in pipe.run(Document(text))}


@pytest.mark.parametrize("text,piece,label", [
    ("so is your insurance still superior healthplan daughter: yes", "superior healthplan", "ORGANIZATION"),
    ("g me at work i do nights im a healthcare assistant at kings college hospital", "healthcare assistant", "PROFESSION"),
    ("my number is seven one eight five five five zero one four two", "seven one eight five five five zero one four two",
     "PHONE"),
])
def test_pipeline_session8_fourth_round(pipe, text, piece, label):
    assert (piece, label) in {(text[s.start:s.end], s.label) for s in pipe.run(Document(text))}


@pytest.mark.parametrize("text,piece", [
    ("unsafe you can text shout on eight five two five eight or ring childline", "eight five two five eight"),
    ("Attends mass; Fr Tom Keaveney is aware", "Fr"),
    ("hi im a nurse at this clinic", "nurse"),
])
def test_pipeline_session8_fourth_round_not(pipe, text, piece):
    assert piece not in {text[s.start:s.end] for s in pipe.run(Document(text))}


@pytest.mark.parametrize("text,piece", [
    ("not on the MAR since mar 3", "MAR"),
    ("chaplain ext 2204 says no answer", "ext"),
    ("- Next well visit in 1 year.", "1 year"),
    ("it's my moko, Hemi. I'm his nan, Aroha Ngata. Nurse: hi", "nan"),
    ("he says the er bill from 1/7/24 went to collections", "bill"),
    ("Attends Zion Lutheran Church on Sundays; Pastor Hal Ekberg checks in", "Pastor"),
])
def test_pipeline_session8_fifth_round_not(pipe, text, piece):
    assert piece not in {text[s.start:s.end] for s in pipe.run(Document(text))}


@pytest.mark.parametrize("text,piece", [
    ("the address we have is fourteen church view ballincollig county cork is that", "fourteen church view"),
    ("forty two maple crescent in brampton patient: no we moved", "brampton"),
    ("yes northgate poultry on dixie road i am", "northgate poultry"),
    ("around his mouth and his pal oisin from the creche had", "oisin"),
])
def test_pipeline_session8_fifth_round(pipe, text, piece):
    assert piece in {text[s.start:s.end] for s in pipe.run(Document(text))}


@pytest.mark.parametrize("text,piece,label", [
    ("i will ask dolores our case manager to ring you", "dolores", "DOCTOR"),
    ("halve the cilazapril and ask aroha the district nurse", "aroha", "DOCTOR"),
    ("labs since 2/3 pls - thats nkechi obi bed 12 on cvicu", "nkechi obi", "PATIENT"),
    ("and ours was born nineteen forty six in jalandhar doctor: and", "jalandhar", "CITY"),
])
def test_spoken_session8_sixth_round(text, piece, label):
    assert (piece, label) in _found(spoken.find(text), text)


@pytest.mark.parametrize("text", ["ask the nurse", "the sats in bed 4 dropped", "what about the one in bed 2",
                                  "check the patient in bed 4"])
def test_spoken_session8_sixth_round_not(text):
    assert not [s for s in spoken.find(text) if s.source in ("lexicon:spoken_staff", "lexicon:spoken_bed")]


@pytest.mark.parametrize("text", ["i want you on ferro grad c one a day", "she said the whole hail mary with him",
                                  "his wife also says he takes st johns wort"])
def test_pipeline_session8_sixth_round_not(pipe, text):
    assert not [s for s in pipe.run(Document(text)) if s.label in ("PATIENT", "LOCATION", "RELATIVE", "DOCTOR")]


@pytest.mark.parametrize("text", ["ok go ahead with the injection. will the nurse call us", "did you manage to see the dietitian"])
def test_staff_apposition_needs_a_name(text):
    assert not [s for s in spoken.find(text) if s.source == "lexicon:spoken_staff"]


@pytest.mark.parametrize("text,piece", [
    ("ill ring you on friday and rangi will be back monday", "rangi"),
    ("oh no funmi from work had that", "funmi"),
    ("bridie next door looks in on him", "bridie"),
    ("are you sleeping ah terrible declan had to drive me home", "declan"),
    ("portland who you can lean on dasha from my church we go", "dasha"),
    ("if you need a hand rhodri is in work hes a claims handler", "rhodri"),
    ("how are things at home jonty keeps eating my food", "jonty"),
])
def test_subject_names(text, piece):
    # someone the speaker talks about, not the speaker: "every other person" (RELATIVE)
    assert (piece, "RELATIVE") in _found(spoken.find(text), text)


@pytest.mark.parametrize("text", ["the doctor will be back", "the pain will be better", "metformin will help",
                                  "smith says he is fine", "she will be back", "nobody from work came",
                                  "bld cx x2 sent, ua/c&s, sputums sent, given tylenol", "the pain keeps waking me",
                                  "metformin makes me sick", "my husband had to leave", "zopiclone keeps me up"])
def test_subject_names_not(text):
    assert not [s for s in spoken.find(text) if s.source == "lexicon:spoken_subject"]


def test_subject_after_an_article_is_a_thing():
    text = "and shes wheezy at night the creche rang me twice last week"
    assert not [s for s in spoken.find(text) if s.source == "lexicon:spoken_subject"]


@pytest.mark.parametrize("text,piece", [
    ("okay and how old is ruby now she just turned", "ruby"),
    ("does his sister have any symptoms nia shes three shes fine", "nia"),
    ("watched the news all day and called halyna in kharkiv over and over", "halyna"),
    ("the eleventh of march happy birthday ruby and is she at kindy", "ruby"),
    # session 10: "X and me", a self-introduction, two people named together
    ("i remember the morning that was the day thabo and me walked from the taxi rank", "thabo"),
    ("daughter: hello doctor hes in the lounge i am marietjie we spoke on the phone\nmy dad is not himself", "marietjie"),
    ("my chest is tight she says kokila and hansa come on thursdays for me", "hansa"),
    ("i was just having a few beers watching the game with dre and tyler at the pub then my knee went", "dre"),
])
def test_people_in_passing(text, piece):
    assert piece in [text[s.start:s.end] for s in spoken.people_in_passing(text)]


@pytest.mark.parametrize("text", ["how old is that car now", "the pain shes nine out of ten", "i called him in the end",
                                  "we visited rome last year", "how old is grace period", "she called mum on sunday",
                                  "Called Halyna in Kharkiv",
                                  # no first-person speech: a nursing note's lower-case lists stay unread
                                  "pt on levo and neo overnight, weaned levo and neo this am",
                                  "i think me and you and him and me went with mum and dad",
                                  "i gave metformin and ramipril and i stopped aspirin and me too"])
def test_people_in_passing_not(text):
    assert not spoken.people_in_passing(text)


@pytest.mark.parametrize("text,found_will", [
    ("physiotherapy will see him today and will will put in the referral", True),
    ("syndrome and today is day five will can you give us the", True),
    ("i will will it away", False), ("you will can you", False), ("the will says she left it all", False),
])
def test_will_before_a_modal_is_a_name(text, found_will):
    assert ("will" in [text[s.start:s.end] for s in spoken.people_in_passing(text)]) is found_will


_CONVO = ("doctor: how have you been since i saw you\npatient: not bad you know i went down with {x} on saturday "
          "and my knee went\ndoctor: and are you sleeping\npatient: yeah i am\n")


@pytest.mark.parametrize("name", ["callum", "gemma", "hamid"])
def test_bare_given_names_in_conversation(name):
    text = _CONVO.format(x=name)
    assert name in [text[s.start:s.end] for s in spoken.bare_given_names(text)]


@pytest.mark.parametrize("text", [
    _CONVO.format(x="the dog"),
    _CONVO.format(x="braxton hicks"),                                    # an eponym
    _CONVO.format(x="georgia"),                                          # a place
    "pt states i want to go home. i am tired. my back hurts. lg ami with successful intervention. + boel sounds",
    _CONVO.format(x="Callum").replace("doctor", "Doctor"),               # capitals: the note's own case decides
])
def test_bare_given_names_not(text):
    assert not [s for s in spoken.bare_given_names(text) if text[s.start:s.end] in ("braxton", "georgia", "ami", "boel", "callum", "Callum")]


def test_a_bare_name_takes_the_role_found_for_the_same_name():
    from deid_engine.pipeline import build_pipeline
    from deid_engine.types import Document

    text = ("doctor: so who have you brought with you today\nmum: this is my son teo he is seven\n"
            "doctor: hi teo and how are you feeling\nmum: i think you know teo has been coughing at night\n")
    spans = build_pipeline("rules", lang="en").load().run(Document(text))
    labels = {s.label for s in spans if text[s.start:s.end] == "teo"}
    assert len(labels) == 1


@pytest.mark.parametrize("text,org", [
    ("[physio] what are you training for\n[patient] league i play for te puke sports on saturdays", "te puke sports"),
    ("[patient] used to play footy for the cutters reserves years back", "cutters"),
    ("he plays for the riverton rapids under eighteen team", "riverton rapids"),
    ("[doctor] and are you still working\n[patient] yeah still at redbird second shift im a packer", "redbird"),
    ("dr: and are you still working\npt: yeah at bean there coffee in cameron im a barista", "bean there coffee"),
    ("[doctor] where are you working\n[patient] at northline freight off golden state boulevard", "northline freight"),
])
def test_teams_and_workplaces(text, org):
    assert [text[s.start:s.end] for s in spoken.teams_and_workplaces(text)] == [org]


@pytest.mark.parametrize("text", [
    "i play for fun mostly on sundays",
    "he plays for the under sixteens at wynberg heights",
    "[doctor] are you working\n[patient] yeah at home mostly",
    "[doctor] and work\n[patient] at the moment no",
    "we were at redbird last week for a meal",                       # no question about work before it
])
def test_teams_and_workplaces_not(text):
    assert not spoken.teams_and_workplaces(text)
