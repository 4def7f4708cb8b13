"""Surrogates: shape preserved, never the original, consistent under a key."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_engine.redact import dates
from deid_engine.redact.surrogates import generate, keyed_surrogate
from deid_engine.taxonomy import LABELS

KEY = bytes(range(32))


def _shape(s: str) -> str:
    return re.sub(r"[A-Z]", "A", re.sub(r"[a-z]", "a", re.sub(r"\d", "9", s)))


@pytest.mark.parametrize("label,original,pattern", [
    ("PATIENT", "J. Smith", r"^[A-Z]\. [A-Z][a-z'’ -]+$"),
    ("PATIENT", "SMITH", r"^[A-Z'’ -]+$"),
    ("PATIENT", "smith", r"^[a-z'’ -]+$"),
    ("PATIENT", "Smith, John", r"^[A-Z][\w'’ -]+, [A-Z][\w'’ -]+$"),
    ("DOCTOR", "Dr. Mary Jones", r"^Dr\. [A-Z]\w+ [A-Z][\w'’ -]+$"),
    ("DATE", "10/11/60", r"^\d{1,2}/\d{1,2}/\d\d$"),
    ("DATE", "2060-10-11", r"^\d{4}-\d\d-\d\d$"),
    ("DATE", "Oct 11", r"^[A-Z][a-z]{2} \d{1,2}$"),
    ("DATE", "11th of October", r"^\d{1,2}(st|nd|rd|th) of [A-Z][a-z]+$"),
    ("DATE", "7/22", r"^\d{1,2}/\d{1,2}$"),
    ("DATE", "Spring of 2010", r"^Spring of \d{4}$"),
    ("PHONE", "410-955-1234", r"^[2-9]\d\d-\d{3}-\d{4}$"),
    ("PHONE", "(410) 955 1234", r"^\([2-9]\d\d\) \d{3} \d{4}$"),
    ("MEDICALRECORD", "AB-123456", r"^[A-Z]{2}-\d{6}$"),
    ("EMAIL", "john.smith@jhu.edu", r"^[a-z]+\.[a-z]+@example\.(com|org|net)$"),
    ("URL", "http://www.jhu.edu/x", r"^http://www\.[a-z]+\.example\.(com|org|net)/[a-z]$"),
    ("IPADDR", "10.1.2.3", r"^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d+$"),
    ("AGE", "67", r"^\d\d$"),
    ("AGE", "92", r"^90\+$"),
    ("STATE", "MD", r"^[A-Z]{2}$"),
    ("ZIP", "21205", r"^\d{5}$"),
    ("LOCATION", "GH", r"^[A-Z]{2}$"),
    ("CITY", "BALTIMORE", r"^[A-Z .'-]+$"),
])
def test_shape_table(label, original, pattern):
    for seed in range(20):
        out = generate(label, original, random.Random(seed))
        assert out != original
        assert re.match(pattern, out), (label, original, out)


def test_spanish_dates_and_names():
    out = generate("DATE", "12 de diciembre de 2016", random.Random(3), lang="es")
    assert re.match(r"^\d{1,2} de (enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|"
                    r"noviembre|diciembre) de \d{4}$", out), out
    from deid_engine.redact.surrogates import word_list
    es = {w.casefold() for w in word_list("first_names_es_female") + word_list("first_names_es_male")}
    for seed in range(10):
        first = generate("PATIENT", "María García", random.Random(seed), lang="es").split()[0]
        assert first.casefold() in es


def test_keyed_name_parts_consistent():
    full = keyed_surrogate("PATIENT", "John Smith", KEY)
    first, last = full.split()
    assert keyed_surrogate("DOCTOR", "J. Smith", KEY) == f"{first[0]}. {last}"
    assert keyed_surrogate("PATIENT", "SMITH", KEY) == last.upper()
    assert keyed_surrogate("RELATIVE", "Smith, John", KEY) == f"{last}, {first}"
    assert keyed_surrogate("PATIENT", "john", KEY) == first.lower()
    assert keyed_surrogate("PATIENT", "John Smith", bytes(32)) != full  # another key, another mapping


@given(label=st.sampled_from(LABELS), original=st.text(min_size=1, max_size=30))
@settings(max_examples=300, deadline=None)
def test_never_raises_never_returns_original(label, original):
    out = generate(label, original, random.Random(0))
    assert isinstance(out, str) and out
    if any(c.isalnum() for c in original):
        assert out != original
    assert keyed_surrogate(label, original, KEY) == keyed_surrogate(label, original, KEY)


@given(st.dates(min_value=__import__("datetime").date(1900, 1, 1),
                max_value=__import__("datetime").date(2090, 12, 31)),
       st.sampled_from(["%m/%d/%Y", "%Y-%m-%d", "%B %d, %Y", "%d %b %Y", "%m/%d/%y"]),
       st.integers(-365, 365))
def test_shift_keeps_format_and_moves_by_offset(d, fmt, offset):
    import datetime as dt
    text = d.strftime(fmt)
    shifted = dates.shift_text(text, offset)
    assert shifted is not None
    assert _shape(shifted).replace("9", "") == _shape(text).replace("9", "") or fmt in ("%B %d, %Y", "%d %b %Y")
    back = [e.value for e in dates.find_dates(shifted)][0]
    year = back.year
    if fmt == "%m/%d/%y":
        assert year % 100 == (d + dt.timedelta(days=offset)).year % 100
    else:
        assert dt.date(back.year, back.month, back.day) == d + dt.timedelta(days=offset)
