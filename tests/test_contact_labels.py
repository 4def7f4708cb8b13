"""ContactLabelFilter: a PHONE span that a fax or health-plan cue names becomes FAX or HEALTHPLAN."""

import pytest

from deid_engine.detect.contact_labels import ContactLabelFilter
from deid_engine.types import Document, Span


def _label(text: str, number: str, source: str = "pattern:phone_us") -> str:
    a = text.rindex(number)
    out = ContactLabelFilter("en").filter(Document(text), [Span(a, a + len(number), "PHONE", source, 0.9)])
    assert (out[0].start, out[0].end) == (a, a + len(number))
    return out[0].label


@pytest.mark.parametrize("text,number,want", [
    ("Tel: 0161 496 0732   Fax: 0161 496 0733", "0161 496 0733", "FAX"),
    ("Ph (07) 5550 1842  Fax (07) 5550 1843  reception@example.org", "(07) 5550 1843", "FAX"),
    ("form faxed to Puget Freight Lines HR at (253) 555-0186.", "(253) 555-0186", "FAX"),
    ("need to fax the referal to 0161 496 0192", "0161 496 0192", "FAX"),
    ("Medical aid: Discovery Health, member no. 418 220 9716", "418 220 9716", "HEALTHPLAN"),
    ("CHI ............. 2103886541\nUnit no. N48221", "2103886541", "HEALTHPLAN"),
    ("Health card: 0034 882 019   Study no.: PSG-24-0611", "0034 882 019", "HEALTHPLAN"),
])
def test_cued_numbers(text, number, want):
    assert _label(text, number) == want


@pytest.mark.parametrize("text,number", [
    ("Tel: 0161 496 0732   Fax: 0161 496 0733", "0161 496 0732"),   # the fax cue comes after this number
    ("the fax machine is broken, call 555-0123", "555-0123"),         # a phone cue nearer the number
    ("Fax 0161 496 0733 Tel 0161 496 0732", "0161 496 0732"),
    ("call me on 555-0199 after six", "555-0199"),
    ("member of staff\nTel 555-0142", "555-0142"),                    # the cue is on another line
])
def test_phones_stay_phones(text, number):
    assert _label(text, number) == "PHONE"


def test_user_spans_and_spanish_are_left_alone():
    text = "Fax: 0161 496 0733"
    a = text.index("0161")
    user = [Span(a, len(text), "PHONE", "user", 1.0)]
    assert ContactLabelFilter("en").filter(Document(text), user) == user
    es = [Span(a, len(text), "PHONE", "pattern:phone_es", 0.9)]
    assert ContactLabelFilter("es").filter(Document(text), es) == es


@pytest.mark.parametrize("text,piece,label", [
    ("MRN 4471829 seen today", "4471829", "MEDICALRECORD"),
    ("Hospital number: K552190", "K552190", "MEDICALRECORD"),
    ("NHS number 943 476 5919", "943 476 5919", "HEALTHPLAN"),
    ("account no 88231", "88231", "ACCOUNT"),
    ("his plate is kx19 abc", "kx19 abc", "VEHICLE"),
    ("pacemaker serial PX-22819", "PX-22819", "DEVICE"),
    ("NPI 1234567893", "1234567893", "LICENSE"),
    ("ssn 123-45-6789", "123-45-6789", "SSN"),
    ("email me at a.b@x.org", "a.b@x.org", "EMAIL"),
    ("see www.example.org", "www.example.org", "URL"),
    ("username jdoe77", "jdoe77", "USERNAME"),
    ("ref 77812", "77812", "IDNUM"),                              # no cue: another identifying number
    ("the code is four four nine two", "four four nine two", "IDNUM"),   # digits said aloud
    ("MRN 12345, phone 555 0101 then 8812", "8812", "IDNUM"),   # another number between the cue and this one
])
def test_tagger_other_identifiers_get_their_kind(text, piece, label):
    from deid_engine.detect.contact_labels import ContactLabelFilter

    a = text.index(piece)
    s = Span(a, a + len(piece), "OTHER", "tagger:en", 0.9)
    assert ContactLabelFilter("en").filter(Document(text), [s])[0].label == label


@pytest.mark.parametrize("source,label", [("user:add", "OTHER"), ("pattern:x", "OTHER")])
def test_only_tagger_other_spans_are_relabelled(source, label):
    from deid_engine.detect.contact_labels import ContactLabelFilter

    text = "MRN 4471829 seen today"
    s = Span(4, 11, "OTHER", source, 0.9)
    assert ContactLabelFilter("en").filter(Document(text), [s])[0].label == label


def test_other_without_digits_or_cue_stays_other():
    from deid_engine.detect.contact_labels import ContactLabelFilter

    text = "she is known as the duchess on the ward"
    a = text.index("the duchess")
    s = Span(a, a + len("the duchess"), "OTHER", "tagger:en", 0.9)
    assert ContactLabelFilter("en").filter(Document(text), [s])[0].label == "OTHER"
