"""Fuzzing the whole pipeline with texts assembled from the shapes clinical text has: dates with times of
day, ISO timestamps, numbers with units, ratios, identifiers, titles, names, punctuation and line breaks.

Session 15 found that an ISO date followed by a time (``2004-11-26 06:52``) made a date check raise and
the whole note fail to tag; character-level fuzzing (tests/test_patterns.py) cannot reach such shapes,
which need a valid year, month and day next to each other. Every detector must return spans inside the
text for any such text, and no pattern's check may fail (the pattern detector keeps a match whose check
raises and logs the pattern's name: that log line is a bug report, so it fails the test here).
"""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deid_engine.pipeline import build_pipeline
from deid_engine.types import Document

FRAGMENTS = [
    # dates and times in the shapes exports and notes use
    "2004-11-26 06:52", "2019-03-07T14:30", "2019-03-07T14:30:59", "2004/11/26 06:52:10", "2004.11.26",
    "11/26/2004", "26.11.2004", "11-26-04", "3/14", "3-14", "14/3", "03/1997", "'97", "1997", "Nov 26",
    "26th November 2004", "november twenty sixth", "2004-13-40 25:61", "0700", "07:00", "7:00 pm", "@ 1520",
    "1999-", "-2004", "2004--11", "2004-11-", "12/31/1999 23:59", "00/00/0000",
    # numbers that look like dates or identifiers
    "120/80", "2/5", "1 1/2", "5/7", "98.6", "10^9/L", "x4471", "ext 4471", "(617) 555-0143", "617.555.0143",
    "555-0143", "+44 20 7946 0958", "MRN 0048-22917", "#12345678", "123-45-6789", "192.168.0.1", "999.999.1.1",
    "1HGCM82633A004352", "G1P1", "APGARS 8/9", "x", "#", "-", "/", "@",
    # words, names, titles, places
    "Dr.", "dr", "Mr", "MRS", "RN", "--cw rn", "pt", "PT IS A", "son", "wife", "Jones", "JONES", "grace",
    "Will", "Parkinson's", "Foley", "St. Mary's Hospital", "Boston, MA 02114", "MICU", "rm 512", "bed 3",
    "aged 81", "81f", "81 yo", "ninety one", "the", "and", "seen", "on", "at", "called", "aware",
    # punctuation and layout
    ".", ",", ":", ";", "(", ")", "[", "]", "'", '"', "\n", "\n\n", "\t", "  ", "é", "ß", "٣",
]


@pytest.fixture(scope="module")
def pipes():
    return {lang: build_pipeline("default", lang).load() for lang in ("en", "es")}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=16),
       st.lists(st.sampled_from(["", " ", " ", "  ", "\n", ", "]), min_size=16, max_size=16))
def test_pipeline_never_fails_and_spans_stay_inside(pipes, caplog, parts, gaps):
    text = "".join(p + g for p, g in zip(parts, gaps))
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        for lang, pipe in pipes.items():
            for s in pipe.run(Document(text)):
                assert 0 <= s.start < s.end <= len(text), (lang, s)
    failed = [r.getMessage() for r in caplog.records if "check failed" in r.getMessage()]
    assert not failed, failed


@pytest.mark.parametrize("text", [
    "Collected 2004-11-26 06:52 by lab.", "seen 2019-03-07T14:30 in clinic", "2004/11/26 06:52:10 signed",
])
def test_iso_date_with_a_time_is_one_date(pipes, text, caplog):
    with caplog.at_level(logging.WARNING):
        spans = pipes["en"].run(Document(text))
    assert any(s.label == "DATE" and text[s.start:s.end].startswith(("2004", "2019")) for s in spans)
    assert not [r for r in caplog.records if "check failed" in r.getMessage()]
