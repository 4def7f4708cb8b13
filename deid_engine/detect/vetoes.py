"""Context vetoes for short numbers that any detector took for a date.

The pattern detectors already refuse ``5/5`` after ``PEEP``, ``4/10`` pain scores,
``1 1/2 hours``, clock times such as ``until 2100`` and quantities such as
``1900 cc`` (``patterns.not_date_context`` / ``not_year_context``). The neural tagger
has no such checks: on a calibration fold of the PhysioNet training notes (a tagger
trained without them) a third of its false positives were exactly these shapes.
``NumericContextFilter`` applies the same vetoes to DATE spans from the other
detectors when the span is only a short numeric shape (``m/d``, ``m-d``, ``hhmm``);
dates with a year, month names or any letters are never touched, nor are spans the
user added. A CONTACT span shaped ``1900-0700`` (two clock times: a shift) is dropped too.
"""

from __future__ import annotations

import regex

from ..taxonomy import category_of, is_label
from ..types import Document, Span
from .merge import source_family
from .patterns import not_date_context, not_year_context

_MONTH_DAY = regex.compile(r"\d{1,2}[/-]\d{1,2}")
_FOUR = regex.compile(r"\d{4}")
_TIME_RANGE = regex.compile(r"(\d{4})\s*[-–]\s*(\d{4})")


def _hhmm(s: str) -> bool:
    return int(s[:2]) <= 23 and int(s[2:]) <= 59


def vetoed_phone(text: str, span: Span) -> bool:
    """``1900-0700``: a shift (two clock times), not a phone number."""
    m = _TIME_RANGE.fullmatch(text[span.start:span.end])
    return bool(m and _hhmm(m.group(1)) and _hhmm(m.group(2)))


def vetoed_date(text: str, span: Span) -> bool:
    """True when the DATE span is a bare short number whose context says it is not a date."""
    s = text[span.start:span.end]
    if _MONTH_DAY.fullmatch(s):
        if regex.search(r"\d[.,]$", text[max(0, span.start - 2):span.start]) or \
                regex.match(r"[.,]\d", text[span.end:span.end + 2]):
            return True  # "H/H 33.8/11.2": decimals around it
        return not_date_context(text, span.start, span.end)  # "8/88" (month/year) is a date too
    if _FOUR.fullmatch(s):
        hh, mm = int(s[:2]), int(s[2:])
        return hh <= 23 and mm <= 59 and not_year_context(text, span.start, span.end)
    return False


def _category(label: str) -> str:
    return category_of(label) if is_label(label) else label


class NumericContextFilter:
    name = "numeric_context"

    def __init__(self, lang: str = "en"):
        self.lang = lang

    def load(self) -> None:
        return None

    def describe(self) -> dict:
        return {"vetoes": "patterns.not_date_context / not_year_context on tagger and lexicon DATE spans"}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        text = document.text
        out = []
        for s in spans:
            if source_family(s.source) not in ("user", "pattern"):
                cat = _category(s.label)
                if (cat == "DATE" and vetoed_date(text, s)) or (cat == "CONTACT" and vetoed_phone(text, s)):
                    continue
            out.append(s)
        return out
