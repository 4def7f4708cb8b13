"""PlaceLabelFilter: a generic LOCATION span gets the subtype its own words and the words around it state."""

import pytest

from deid_engine.detect.place_labels import PlaceLabelFilter
from deid_engine.pipeline import build_pipeline
from deid_engine.types import Document, Span


@pytest.fixture(scope="module")
def flt():
    f = PlaceLabelFilter("en")
    f.load()
    return f


def _label(flt, text: str, piece: str, label: str = "LOCATION", source: str = "tagger:en") -> str:
    a = text.index(piece)
    out = flt.filter(Document(text), [Span(a, a + len(piece), label, source, 0.8)])
    assert (out[0].start, out[0].end) == (a, a + len(piece))  # only the label ever changes
    return out[0].label


@pytest.mark.parametrize("text,piece,want", [
    # a care word last, or a centre of care
    ("Follow-up with Cedar Hills Pediatrics in 2 days", "Cedar Hills Pediatrics", "HOSPITAL"),
    ("His GP at Pendle Rise Surgery is asking.", "Pendle Rise Surgery", "HOSPITAL"),
    ("local practice, Kells Medical Centre.", "Kells Medical Centre", "HOSPITAL"),
    ("he died at glenwood general", "glenwood general", "HOSPITAL"),
    ("Coronary angiography at Windsor Regional; PCI", "Windsor Regional", "HOSPITAL"),
    ("To: Harpeth Valley Heart Associates, Attn: Dr. Castel", "Harpeth Valley Heart Associates", "HOSPITAL"),
    ("referral to Finger Lakes Neurosurgical Associates.", "Finger Lakes Neurosurgical Associates", "HOSPITAL"),
    ("admitted from Maplewood Nursing Home", "Maplewood Nursing Home", "HOSPITAL"),
    ("records from Pinewood Family Health", "Pinewood Family Health", "HOSPITAL"),
    ("pull last echo done at st. joseph's in march", "st. joseph's", "HOSPITAL"),
    ("I'm a care assistant at Beechwood Lodge so I can't", "Beechwood Lodge", "HOSPITAL"),
    # organisations: schools, churches, shops, employers, insurers
    ("My son has a note from Hawthorne Elementary saying", "Hawthorne Elementary", "ORGANIZATION"),
    ("line cook at Ruby's Diner and brother", "Ruby's Diner", "ORGANIZATION"),
    ("bank teller at Manchester Credit Union", "Manchester Credit Union", "ORGANIZATION"),
    ("security guard at the Meridian Shopping Centre and", "Meridian Shopping Centre", "ORGANIZATION"),
    ("wife: to bethel pentecostal tabernacle every sunday", "bethel pentecostal tabernacle", "ORGANIZATION"),
    ("Wife to visit after work at Lockheed Martin.", "Lockheed Martin", "ORGANIZATION"),
    ("receptionist at Parkview Dental. Admitted", "Parkview Dental", "ORGANIZATION"),  # an employer
    ("Is your insurance still through Illinois Care Partners?", "Illinois Care Partners", "ORGANIZATION"),
    ("need it for his Prairie Shield Health appeal", "Prairie Shield Health", "ORGANIZATION"),
    ("the meeting after mass at st teresas on sunday", "st teresas", "ORGANIZATION"),
    ("veterinarian at Oak Park Animal Hospital with eczema", "Oak Park Animal Hospital", "ORGANIZATION"),
    # streets, regions, other places
    ("send it to the house on carrick road", "carrick road", "STREET"),
    ("He lives alone on Calle Luna in town", "Calle Luna", "STREET"),
    ("I live at 14 Cole Street now", "14 Cole Street", "STREET"),
    ("WIC through Montgomery County health department", "Montgomery County", "STATE"),
    ("she is the best neighbour in saskatchewan", "saskatchewan", "STATE"),
    ("If you move away from Leicestershire, please", "Leicestershire", "STATE"),
    ("Red Willow Behavioral Health, McCook, NE", "NE", "STATE"),
    ("Born in 1933, in Macon, Georgia.", "Georgia", "STATE"),
    ("up at takitimu marae on saturday", "takitimu marae", "LOCATION_OTHER"),
    ("transfer from st vincent's to cvicu bed 4", "cvicu", "DEPARTMENT"),
    # listed places; unlisted towns by their cue
    ("He grew up in Kunming, China, and moved", "Kunming", "CITY"),
    ("Lives in Twickenham. Plan: 6 sessions", "Twickenham", "CITY"),
    ("My mum is flying in from Enugu, Nigeria in March", "Nigeria", "COUNTRY"),
    ("she drove me from fenwick", "fenwick", "CITY"),
    ("my cousin eitan in haifa", "haifa", "CITY"),
    ("certificate for work im at bunnings in capalaba on the tills", "capalaba", "CITY"),
    ("Lives with wife Sahra and children in St. Cloud.", "St. Cloud", "CITY"),
    # session 10, later: a clinician at the place, a care or school word first, an institute of a medical field
    ("also refer you to doctor raghavendra at jayadeva for the ecg", "jayadeva", "HOSPITAL"),
    ("pull notes for crohns seen by dr adeyemi in may at st agnes", "st agnes", "HOSPITAL"),
    ("Dr Hugo Baptiste-Roy, endocrinology, Hôpital de Hull", "Hôpital de Hull", "HOSPITAL"),
    ("a 7-year-old girl in second class at Scoil Mhuire Naofa, referred", "Scoil Mhuire Naofa", "ORGANIZATION"),
    ("Renata Salgado, MD\nNeurology, Greene Valley Neuroscience Institute", "Greene Valley Neuroscience Institute",
     "HOSPITAL"),
])
def test_subtype(flt, text, piece, want):
    assert _label(flt, text, piece) == want


@pytest.mark.parametrize("text,piece", [
    # a town's name used for its hospital: no guess
    ("She had previously been reviewed at Beaumont. Bloods", "Beaumont"),
    ("any beds on 6 north for transfer from glenfield", "glenfield"),
    # nothing says which kind of place
    ("we're over by the Riverpoint building", "Riverpoint"),
    ("That was at Kessler Institute, no, sorry", "Kessler Institute"),
])
def test_left_generic(flt, text, piece):
    assert _label(flt, text, piece) == "LOCATION"


def test_only_generic_spans_of_detectors_change(flt):
    text = "seen at Kells Medical Centre today"
    a = text.index("Kells")
    b = a + len("Kells Medical Centre")
    assert _label(flt, text, "Kells Medical Centre", label="CITY") == "CITY"  # a subtype is kept
    assert _label(flt, text, "Kells Medical Centre", source="user") == "LOCATION"  # the user's label is kept
    names = [Span(a, b, "PATIENT", "tagger:en", 0.9)]
    assert flt.filter(Document(text), names) == names


def test_spanish_is_untouched():
    f = PlaceLabelFilter("es")
    text = "ingresó en el Hospital Clínico"
    s = [Span(14, len(text), "LOCATION", "tagger:es", 0.9)]
    assert f.filter(Document(text), s) == s


def test_pipeline_shares_the_lexicon_table():
    pipe = build_pipeline("rules", lang="en").load()
    flt = next(f for f in pipe.filters if f.name == "place_labels")
    lex = next(d for d in pipe.detectors if d.name == "lexicon")
    assert flt.places is lex.places
