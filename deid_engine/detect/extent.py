"""Name extents: an initial or a hyphenated first part before a name belongs to it.

Every detector finds ``SMITH`` in ``J SMITH ORDERED`` or ``Painter`` in
``Stord-Painter MD`` more easily than the piece in front of it, and a left-over
initial is still an identifier (``J.`` + the unit + the date narrow a clinician
down). ``NameExtentFilter`` grows NAME spans (not the user's) to the left over
a capital initial (``J``, ``B.``) that starts a word, and, in mixed-case text,
over a capitalised word joined by a hyphen. ``A`` and ``I`` need a period
(``A. Smith``): bare they are words. Spans never grow into another span. A name
span also sheds what a detector ran into: trailing field words and credentials
(``mrn``, ``dob``, ``MD``, ``RN``) and edge punctuation (``. vincent``).
"""

from __future__ import annotations

import regex

from ..taxonomy import category_of, is_label
from ..types import Document, Span
from .merge import source_family

# words that end a name span when a detector ran past the name ("maria gonzalez mrn 447...")
_TRAILING = regex.compile(r"(?i)(?:[ \t,]+(?:mrn|dob|d\.o\.b|ssn|mr#|id|acct|md|m\.d|rn|np|pa-c|phd|rrt|dds))+[.:#]?$")
_INITIAL = regex.compile(r"(?<![\w'’/&.\-])(?P<i>[A-Z])(?P<dot>\.)?[ \t]{0,2}$")
_HYPHEN_PART = regex.compile(r"(?<![\w\-])(?P<w>[A-Z][a-z]{2,})-$")


def _cat(label: str) -> str:
    return category_of(label) if is_label(label) else label


class NameExtentFilter:
    name = "name_extent"

    def __init__(self, lang: str = "en"):
        self.lang = lang

    def load(self) -> None:
        return None

    def describe(self) -> dict:
        return {"grows": "NAME spans over a leading initial or hyphenated part"}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        text = document.text
        ordered = sorted(spans, key=lambda s: s.start)
        out: list[Span] = []
        prev_end = 0
        for s in ordered:
            new = s
            if _cat(s.label) == "NAME" and source_family(s.source) != "user":
                start = s.start
                while True:
                    window = text[max(prev_end, start - 24):start]
                    m = _INITIAL.search(window)
                    if m and (m.group("dot") or m.group("i") not in "AI") and (m.group("dot") or window.endswith(" ")):
                        start = start - len(window) + m.start("i")
                        continue
                    h = _HYPHEN_PART.search(window)
                    if h and any(c.islower() for c in text[s.start:s.end]):
                        start = start - len(window) + h.start("w")
                        continue
                    break
                end = s.end
                piece = text[start:end]
                m = _TRAILING.search(piece)
                if m and m.start() > 0:
                    end = start + m.start()
                while start < end and text[start] in ".,;:-'\"( \t":
                    start += 1  # ". vincent": a span never starts with punctuation
                while end > start + 1 and text[end - 1] in ",;:-( \t":
                    end -= 1
                if (start, end) != (s.start, s.end) and end > start:
                    new = s.with_bounds(start, end)
            out.append(new)
            prev_end = max(prev_end, new.end)
        return out
