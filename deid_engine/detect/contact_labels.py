"""Which kind of number: a fax or a health-plan number that a phone pattern took (``contact_labels`` filter).

The phone patterns read the shape of a number, not its cue, so ``Fax: 0161 496 0733``,
``faxed to (253) 555-0186`` and ``member no. 418 220 9716`` come out as ``PHONE``. Reviewers,
surrogates and labelled scores need the kind. ``ContactLabelFilter`` (English) relabels a
``PHONE`` span (never the user's) when the words right before it on the same line say what it is:

- **FAX**: ``Fax``, ``Fax:``, ``F:``, ``faxed to``, ``fax it to``, ``fax the referral to``;
- **HEALTHPLAN**: ``member no.``, ``health card``, ``Medicare number``, ``NHS number``, ``CHI``,
  ``IHI``, ``NHF card``, ``policy number``, ``medical aid``.

A ``Tel`` / ``Ph`` / ``phone`` / ``mobile`` cue nearer to the number wins: the number is a phone.
"""

from __future__ import annotations

from dataclasses import replace

import regex

from ..types import Document, Span

_FAX_WORD = regex.compile(r"(?i)\b(?:fax(?:ed|ing)?|f(?=[ \t]*:)|facsimile)\b")
_PLAN_WORD = regex.compile(r"(?i)\b(?:member(?:ship)?|policy|subscriber|health[ \t]*card|medicare|medicaid|nhs|chi|ihi|nhi|"
                           r"nhf|ohip|medical[ \t]+aid|insurance|insurer|caresource|health[ \t]+(?:id|number))\b")
_PHONE_WORD = regex.compile(r"(?i)\b(?:tel|telephone|ph|phone|mob|mobile|cell|call|ring|text|contact|direct[ \t]+line|"
                            r"switchboard|reception|extension|ext)\b")


class ContactLabelFilter:
    name = "contact_labels"

    def __init__(self, lang: str = "en"):
        self.lang = lang

    def load(self) -> None:
        return None

    def describe(self) -> dict:
        return {"relabels": "PHONE after a fax cue -> FAX, after a health-plan cue -> HEALTHPLAN",
                "active": self.lang == "en"}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        if self.lang != "en" or not spans:
            return spans
        text = document.text
        out = []
        for s in spans:
            if s.label == "PHONE" and not s.source.startswith("user"):
                label = self.kind(text, s.start)
                if label:
                    s = replace(s, label=label)
            out.append(s)
        return out

    @staticmethod
    def kind(text: str, start: int) -> str | None:
        line_start = text.rfind("\n", 0, start) + 1
        lo = max(line_start, start - 48)
        cues = [(m.end(), "FAX") for m in _FAX_WORD.finditer(text, lo, start)]
        cues += [(m.end(), "HEALTHPLAN") for m in _PLAN_WORD.finditer(text, lo, start)]
        if not cues:
            return None
        end, label = max(cues)
        between = text[end:start]
        if _PHONE_WORD.search(between) or regex.search(r"\d{3}", between):
            return None  # a phone cue or another number after the cue: this number is not the one it names
        return label
