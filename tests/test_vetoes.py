"""Numeric-context vetoes on DATE/CONTACT spans from the tagger and the lexicon."""

from __future__ import annotations

import pytest

from deid_engine.detect.vetoes import NumericContextFilter
from deid_engine.types import Document, Span


def _kept(text: str, piece: str, label: str = "DATE", source: str = "tagger:en") -> bool:
    a = text.index(piece)
    f = NumericContextFilter("en")
    f.load()
    return bool(f.filter(Document(text), [Span(a, a + len(piece), label, source, 0.6)]))


@pytest.mark.parametrize("text,piece", [
    ("Social- Family visited until 2100. Plan- continue", "2100"),
    ("Nursing note 1900>>0700 S- stable", "1900"),
    ("ID: BC + staph aureus 4/4 bottles. Sensitive to", "4/4"),
    ("urgent cath after experiencing 6/10 cp after riding", "6/10"),
    ("FELL ASLEEP AFTER 1 1/2 HOURS OF TREATMENT", "1/2"),
    ("rales up 1/4 on R and at bases", "1/4"),
    ("H/H 33.8/11.2 stable", "8/11"),
    ("Pt remained on PEEP 5/5 overnight", "5/5"),
    ("HAS RALES 1/3 UP BILAT.", "1"),
    ("HAS RALES 1/3 UP BILAT.", "/3"),
    ("co/ci improved to 5-6/3-4/0-80 and has", "6"),
    ("am co/ci---5.6/2.62, svr 564", "6"),
    ("FELL ASLEEP AFTER 1 1/2 HOURS OF TREATMENT", "1"),
])
def test_clinical_numbers_are_not_dates(text, piece):
    assert not _kept(text, piece)


@pytest.mark.parametrize("text,piece", [
    ("Admitted on 3/14 with chest pain.", "3/14"),
    ("CABG in 1998, stents 2004.", "1998"),
    ("Seen 2/14/2020 by Dr. Ames", "2/14/2020"),
    ("PMH: CAD, AVR 8/88, DDD PMR", "8/88"),
    ("s/p pelvic fx 4/97, right arm fx 5/97", "4/97"),
    ("Admitted 10/12/2019 from home", "12"),   # part of a full date: judged whole, kept
    ("Seen 3.4.2020 in clinic", "3.4.2020"),
    ("Family visited until 2100.", "until"),  # not a number: untouched
])
def test_real_dates_kept(text, piece):
    assert _kept(text, piece)


def test_shift_is_not_a_phone_but_phones_stay():
    assert not _kept("Nursing note for MICU 1900-0700 Neuro: alert", "1900-0700", "PHONE")
    assert not _kept("Nursing Note (0700am-1900hrs) Neuro", "0700", "PHONE")
    assert not _kept("Nursing note for 1900-0700 Micu A", "1900-", "PHONE")
    assert _kept("Daughter cell 410-322-1419 called", "410-322-1419", "PHONE")


def test_user_and_pattern_spans_untouched():
    text = "Social- Family visited until 2100."
    assert _kept(text, "2100", source="user:add")
    assert _kept(text, "2100", source="pattern:year_bare")


def _weak(text: str, piece: str, conf: float, label: str = "DOCTOR", lang: str = "en") -> bool:
    from deid_engine.detect.vetoes import WeakWordFilter

    a = text.index(piece)
    return bool(WeakWordFilter(lang).filter(Document(text), [Span(a, a + len(piece), label, "tagger:en", conf)]))


@pytest.mark.parametrize("text,piece", [
    ("dr healey took husband and son's questions", "took"),
    ("Wife and lawyer (Wil) aware", "lawyer"),
    ("unable to be placed, seen by urology.", "urology"),
])
def test_weak_tagger_guesses_that_are_words_are_dropped(text, piece):
    assert not _weak(text, piece, 0.3)


def test_names_confident_spans_and_spanish_stay():
    assert _weak("ambulated with walker around unit", "walker", 0.3)  # Walker is a surname
    assert _weak("seen by urology today", "urology", 0.9)             # confident: the model's call
    assert _weak("dr healey took husband", "took", 0.3, lang="es")
    assert _weak("visited by Alittle today", "Alittle", 0.3)          # not a known word
