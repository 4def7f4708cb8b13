"""Name extents: leading initials and hyphenated parts join the name span."""

from __future__ import annotations

import pytest

from deid_engine.detect.extent import NameExtentFilter
from deid_engine.types import Document, Span


def _grow(text: str, name: str, label: str = "DOCTOR", source: str = "lexicon:name", others=()) -> list[str]:
    a = text.index(name)
    spans = [Span(a, a + len(name), label, source, 0.8), *others]
    return [text[s.start:s.end] for s in NameExtentFilter("en").filter(Document(text), spans)]


@pytest.mark.parametrize("text,name,grown", [
    ("BP DROPPED WITH ELEVATED PAPS, J SMITH ORDERED EPI", "SMITH", "J SMITH"),
    ("INCREASING EARLIER -> B. CLIFFORD MD AWARE", "CLIFFORD", "B. CLIFFORD"),
    ("EKG done. Seen by J. Yi, MD. Pain to right", "Yi", "J. Yi"),
    ("Resp- 1720- Stord-Painter MD performed pleurodesis", "Painter", "Stord-Painter"),
    ("Francis G. Levine, RRT", "Levine", "G. Levine"),
    ("Seen by A. Smith today", "Smith", "A. Smith"),
])
def test_initials_and_hyphenated_parts_join(text, name, grown):
    assert _grow(text, name) == [grown]


@pytest.mark.parametrize("text,name", [
    ("THIS IS A SMITH FAMILY MATTER", "SMITH"),     # bare A is the article
    ("1L BICARB GIVEN; 20G JONES", "JONES"),       # G glued to a number
    ("status post-Smith repair", "Smith"),          # a lower-case word before the hyphen
    ("PT IS AWARE. SMITH CALLED", "SMITH"),         # a period ends the sentence before
])
def test_no_growth(text, name):
    assert _grow(text, name) == [name]


def test_never_grows_into_another_span_or_a_user_span():
    text = "on 3/4 J SMITH ordered"
    date = Span(3, 6, "DATE", "pattern:date", 0.9)
    assert _grow(text, "SMITH", others=[date]) == ["3/4", "J SMITH"]
    a = text.index("SMITH")
    out = NameExtentFilter("en").filter(Document(text), [Span(a, a + 5, "DOCTOR", "user:add")])
    assert [text[s.start:s.end] for s in out] == ["SMITH"]


@pytest.mark.parametrize("text,name,trimmed", [
    ("show me labs for maria gonzalez mrn 4471923", "maria gonzalez mrn", "maria gonzalez"),
    ("any notes on robert o'neil dob 03/14/1952?", "robert o'neil dob", "robert o'neil"),
    ("Seen by Anan Gupta MD today", "Anan Gupta MD", "Anan Gupta"),
    ("did he go to st. vincent's today", ". vincent", "vincent"),
])
def test_names_shed_field_words_credentials_and_punctuation(text, name, trimmed):
    assert _grow(text, name) == [trimmed]


@pytest.mark.parametrize("text,name,kept", [
    ("Came in with partner Lior today", "partner Lior", "Lior"),
    ("the nurse Ayaan comes on fridays", "nurse Ayaan", "Ayaan"),
    ("DAUGHTER KATE CALLED", "DAUGHTER KATE", "KATE"),
    ("Referred by Dr. Osei for review", "Dr. Osei", "Osei"),
    ("her brother Tomas Ruiz visited", "brother Tomas Ruiz", "Tomas Ruiz"),
])
def test_leading_role_and_relation_words_are_shed(text, name, kept):
    assert _grow(text, name, "RELATIVE") == [kept]


@pytest.mark.parametrize("text,name", [
    ("Dr Miles Nurse reviewed the wound", "Miles Nurse"),   # a surname that is a role word, at the end
    ("Nurse", "Nurse"),                                       # alone, nothing after it: nothing to shed
])
def test_role_words_inside_names_stay(text, name):
    assert _grow(text, name) == [name]


def test_role_word_span_before_a_name_is_dropped():
    text = "Seen with her partner Lior and the coordinator Dana Reyes."
    a, b, c = text.index("partner"), text.index("Lior"), text.index("coordinator")
    others = (Span(b, b + 4, "RELATIVE", "tagger:en", 0.9),)
    assert _grow(text, "partner", "RELATIVE", "tagger:en", others) == ["Lior"]
    d = text.index("Dana Reyes")
    got = _grow(text, "coordinator", "RELATIVE", "tagger:en", (Span(d, d + 10, "DOCTOR", "tagger:en", 0.9),))
    assert got == ["Dana Reyes"]
    # a capitalised role word alone, with no name after it, stays (it may be a surname)
    assert _grow("Paged Dr Fellow twice", "Fellow") == ["Fellow"]


def _repeat(text: str, name: str, label: str = "PATIENT", conf: float = 0.8) -> list[tuple[str, str]]:
    from deid_engine.detect.extent import NameRepeatFilter

    a = text.index(name)
    out = NameRepeatFilter("en").filter(Document(text), [Span(a, a + len(name), label, "lexicon:name", conf)])
    return [(text[s.start:s.end], s.label) for s in out]


def test_a_name_found_once_is_found_again():
    text = "Doctor: Call me Mr. Oyelaran. Patient: Thanks. Doctor: So, Oyelaran, any pain? Oyelaran's wife agrees."
    got = _repeat(text, "Oyelaran")
    assert got.count(("Oyelaran", "PATIENT")) == 3
    lower = "nurse: hi, my name is tamsin. patient: tamsin, where is the loo"
    assert _repeat(lower, "tamsin", "DOCTOR") == [("tamsin", "DOCTOR"), ("tamsin", "DOCTOR")]


@pytest.mark.parametrize("text,name", [
    ("Mrs. Grace Obi came in. Grace under pressure, she said.", "Grace"),          # an English word
    ("Seen with Mr. Addison. Addison's disease was ruled out.", "Addison"),        # an eponym
    ("Mr. Oyelaran called. Oyelarangbe is a different family.", "Oyelaran"),       # whole words only
    ("Dr. Quist reviewed. quist was a typo", "Quist"),                            # mixed case: same case only
])
def test_repeats_need_a_real_name_and_whole_words(text, name):
    assert len(_repeat(text, name)) == 1


def test_low_confidence_names_are_not_spread():
    assert len(_repeat("Ms Oyelaran? Oyelaran", "Oyelaran", conf=0.3)) == 1


@pytest.mark.parametrize("text,name,kept", [
    ("Hi Dr Mbeki - quick question about bed 12", "Mbeki - quick", "Mbeki"),
    ("Seen by Anna Lund today in clinic", "Anna Lund today", "Anna Lund"),
    ("Consultant: Pieter van der Berg, cardiology", "Pieter van der Berg", "Pieter van der Berg"),
    ("Referred by Maria da Silva for review", "Maria da Silva", "Maria da Silva"),
    ("seen by dr smith today", "dr smith today", "smith today"),   # lower-case name: no case signal
])
def test_capitalised_names_shed_lower_case_tails(text, name, kept):
    assert _grow(text, name) == [kept]


def test_lower_case_hyphen_part_stays_in_a_name():
    assert _grow("family meeting with Dr. Retterer-moore and RN", "Retterer-moore") == ["Retterer-moore"]


def test_lower_case_copy_of_a_name_in_mixed_text():
    text = "Chat log\nTemitope: can you see bed 4?\nRoberto: yes, on my way, thanks temitope"
    got = _repeat(text, "Temitope", "DOCTOR")
    assert got.count(("temitope", "DOCTOR")) == 1
    # a lower-case copy that opens a sentence, or a copy that is an English word, is not taken
    assert len(_repeat("Seen by Dr. Quist. quist is spelt wrong here.", "Quist")) == 1
    assert len(_repeat("Mrs. Hope Adebayo came. She has hope.", "Hope")) == 1


def test_plural_title_drs_is_trimmed_from_a_name():
    from deid_engine.detect.extent import NameExtentFilter
    from deid_engine.types import Document, Span

    text = "Seen by Drs. Quist and Marlow today."
    a, b = text.index("Drs"), text.index("Quist") + 5
    out = NameExtentFilter("en").filter(Document(text), [Span(a, b, "DOCTOR", "tagger:en", 0.9)])
    assert [text[s.start:s.end] for s in out] == ["Quist"]


@pytest.mark.parametrize("text,name,grown", [
    ("weaned to 40% overnight. s. roberto rrt", "roberto", "s. roberto"),   # after a sentence end
    ("abg improved\nk. halvorsen rn", "halvorsen", "k. halvorsen"),          # at a line start
])
def test_lower_case_initial_with_period_joins_in_lower_case_notes(text, name, grown):
    assert _grow(text, name) == [grown]


def test_lower_case_middle_initial_after_a_first_name():
    text = "report given to barbara j. halvorsen rn"
    a = text.index("barbara")
    first = Span(a, a + len("barbara"), "DOCTOR", "tagger:en", 0.8)
    assert _grow(text, "halvorsen", others=(first,)) == ["barbara", "j. halvorsen"]


@pytest.mark.parametrize("text,name", [
    ("pt turned, k. halvorsen rn", "halvorsen"),             # after a comma
    ("given 2 units a. halvorsen rn", "halvorsen"),          # "a." is the article
    ("Weaned to 40%. s. Roberto RRT", "Roberto"),            # mixed-case text
    ("pt resting. s. Roberto aware", "Roberto"),             # the name is capitalised
])
def test_lower_case_initial_decoys(text, name):
    assert _grow(text, name) == [name]


@pytest.mark.parametrize("text,name,kept", [
    ("my stepdad Keith drove me", "stepdad Keith", "Keith"),
    ("my flatmate Maura found me", "flatmate Maura", "Maura"),
])
def test_more_relation_words_are_shed(text, name, kept):
    assert _grow(text, name, label="RELATIVE") == [kept]


@pytest.mark.parametrize("text,name,grown", [
    ("Hyacinth Beverley Campbell-Gayle was seen", "Hyacinth Beverley Campbell", "Hyacinth Beverley Campbell-Gayle"),
    ("LIAM O'CONNOR-DIAZ DOB 2/3/1990", "LIAM O'CONNOR", "LIAM O'CONNOR-DIAZ"),
    ("Zainab Al-Khatib came in", "Khatib", "Al-Khatib"),
    ("Chen Wei | MRN 4456", "Chen Wei |", "Chen Wei"),
    ("pt / Ruiz / seen", "/ Ruiz /", "Ruiz"),
])
def test_double_surnames_and_separators(text, name, grown):
    assert _grow(text, name, "PATIENT", "tagger:en") == [grown]


@pytest.mark.parametrize("text,name", [
    ("Smith-CT done today", "Smith"),           # two capitals: an abbreviation, not a surname
    ("Dr Smith-to review", "Smith"),           # a lower-case word
    ("Seen by Jones-Smith2 today", "Jones"),   # glued to a digit
])
def test_no_double_surname_growth(text, name):
    assert _grow(text, name) == [name]


@pytest.mark.parametrize("text,name,trimmed", [
    ("rectal tube placed per dr. white's order.", "white's", "white"),
    ("Seen by Dr. Patel’s team today.", "Patel’s", "Patel"),
    ("SOCIAL-phone call from son Rob-who states he will not come", "Rob-who", "Rob"),
    ("-> J. Chang PA into evaluate.", "J. Chang PA", "J. Chang"),
    ("Seen by Mary Smith LCSW today.", "Mary Smith LCSW", "Mary Smith"),
])
def test_names_end_before_a_possessive_or_a_glued_function_word(text, name, trimmed):
    assert _grow(text, name) == [trimmed]


@pytest.mark.parametrize("text,name", [
    ("[doctor] let's take a look at your knee", "let's"),   # a contraction: the vetoes judge it whole
    ("Mrs O'Neill is here; Ms D'Arcy too.", "O'Neill"),
    ("Jean-Paul Sartre called.", "Jean-Paul Sartre"),
    ("Mary-Kate called.", "Mary-Kate"),
])
def test_names_keep_apostrophes_and_hyphens_inside(text, name):
    assert _grow(text, name) == [name]


@pytest.mark.parametrize("text,place,label,copies", [
    ("PT TO QUARTERMAIN 3 TODAY. ON QUARTERMAIN 2 WITH HR 50S. F-MICU/QUARTERMAIN/CCU TEAMS. QUARTERMAIN3 CP.",
     "QUARTERMAIN", "HOSPITAL", 4),                               # a glued floor number stays out
    ("Transferred from Kessler ER. Kessler staff called back at noon.", "Kessler", "HOSPITAL", 2),
    ("lives in wetherby with her son. back to wetherby on friday", "wetherby", "CITY", 2),
])
def test_a_place_found_once_is_found_again(text, place, label, copies):
    assert _repeat(text, place, label).count((place, label)) == copies


@pytest.mark.parametrize("text,place,label", [
    ("Seen at Mercy Hospital. Mercy is a virtue.", "Mercy", "HOSPITAL"),                     # an English word
    ("Lives in Parkinson. Parkinson's disease suspected.", "Parkinson", "CITY"),             # an eponym
    ("Lives in Wetherby. Wetherbyshire is elsewhere.", "Wetherby", "CITY"),                  # whole words only
    ("Lives at 12 Oakfield Road. Oakfield school.", "12 Oakfield Road", "STREET"),           # street words stay
    ("Came from Kessler. Kessler again.", "Kessler", "HOSPITAL"),                            # below the confidence
])
def test_places_repeat_only_as_real_place_words(text, place, label):
    conf = 0.3 if text.startswith("Came") else 0.8
    assert len(_repeat(text, place, label, conf)) == 1


def test_a_word_name_repeats_only_where_a_person_fits():
    from deid_engine.detect.extent import NameRepeatFilter

    text = "dtr rose here today. the swelling rose overnight. rose's # 401-555-0176. rose is hcp."
    out = NameRepeatFilter("en").filter(Document(text), [Span(4, 8, "RELATIVE", "pattern:relative_word_name", 0.6)])
    got = [s.start for s in out]
    assert text.index("rose's") in got and text.index("rose is") in got
    assert text.index("rose overnight") not in got
