"""Which kind of number: a fax or a health-plan number that a phone pattern took (``contact_labels`` filter).

The phone patterns read the shape of a number, not its cue, so ``Fax: 0161 496 0733``,
``faxed to (253) 555-0186`` and ``member no. 418 220 9716`` come out as ``PHONE``. Reviewers,
surrogates and labelled scores need the kind. ``ContactLabelFilter`` (English) relabels a
``PHONE`` span (never the user's) when the words right before it on the same line say what it is:

- **FAX**: ``Fax``, ``Fax:``, ``F:``, ``faxed to``, ``fax it to``, ``fax the referral to``;
- **HEALTHPLAN**: ``member no.``, ``health card``, ``Medicare number``, ``NHS number``, ``CHI``,
  ``IHI``, ``NHF card``, ``policy number``, ``medical aid``.

A ``Tel`` / ``Ph`` / ``phone`` / ``mobile`` cue nearer to the number wins: the number is a phone.

The English tagger (since session 11) also emits ``OTHER`` for identifiers: its tag set is PhysioNet's,
and the probe texts it learnt from had their identifier and contact labels mapped to ``OTHER``. Such a
tagger span (never the user's, never a pattern's) gets the kind its form or the nearest cue on the same
line before it states (``ID_CUES``: ``MRN`` -> MEDICALRECORD, ``NHS number`` -> HEALTHPLAN, ``account`` ->
ACCOUNT, ``plate`` -> VEHICLE, ``serial`` -> DEVICE, ``NPI`` -> LICENSE, ``SSN`` -> SSN, ``username`` ->
USERNAME; an ``@`` -> EMAIL, ``www.`` / ``http`` -> URL); with no cue, a span with a digit is IDNUM.
"""

from __future__ import annotations

from dataclasses import replace

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..types import Document, Span

_FAX_WORD = regex.compile(r"(?i)\b(?:fax(?:ed|ing)?|f(?=[ \t]*:)|facsimile)\b")
_PLAN_WORD = regex.compile(r"(?i)\b(?:member(?:ship)?|policy|subscriber|health[ \t]*card|medicare|medicaid|nhs|chi|ihi|nhi|"
                           r"nhf|ohip|medical[ \t]+aid|insurance|insurer|caresource|health[ \t]+(?:id|number))\b")
_PHONE_WORD = regex.compile(r"(?i)\b(?:tel|telephone|ph|phone|mob|mobile|cell|call|ring|text|contact|direct[ \t]+line|"
                            r"switchboard|reception|extension|ext)\b")


# cue words before an identifier, nearest wins (our own lists, Apache-2.0)
ID_CUES: tuple[tuple[str, regex.Pattern], ...] = (
    ("MEDICALRECORD", regex.compile(r"(?i)\b(?:mrn|m\.r\.n\.?|medical[ \t]+record|record[ \t]+(?:no|number|#)|hospital[ \t]+"
                                    r"(?:no|number|id)|hosp[ \t]+no|urn|ur[ \t]+(?:no|number)|chart(?:[ \t]+(?:no|number))?|"
                                    r"unit[ \t]+number|patient[ \t]+(?:id|number)|pt[ \t]+id|h/n|hn|case[ \t]+number)\b")),
    ("HEALTHPLAN", _PLAN_WORD),
    ("ACCOUNT", regex.compile(r"(?i)\b(?:account|acct|a/c|encounter|visit[ \t]+(?:no|number|id)|claim|invoice|billing|"
                              r"csn|fin|episode[ \t]+(?:no|number))\b")),
    ("SSN", regex.compile(r"(?i)\b(?:ssn|social[ \t]+security|social[ \t]+insurance|sin|ni[ \t]+number|"
                          r"national[ \t]+insurance|ppsn?|pps[ \t]+number|tfn)\b")),
    ("VEHICLE", regex.compile(r"(?i)\b(?:plate|plates|rego|reg(?:istration)?[ \t]+(?:no|number|plate)|vin|car|van|truck|"
                              r"vehicle)\b")),
    ("DEVICE", regex.compile(r"(?i)\b(?:serial|s/n|device|pacemaker|implant|pump|defibrillator|icd|model[ \t]+(?:no|number))\b")),
    ("LICENSE", regex.compile(r"(?i)\b(?:licen[cs]e|npi|dea|gmc|nmc|ahpra|mcnz|imc|provider[ \t]+(?:no|number)|"
                              r"prescriber[ \t]+(?:no|number)|certificate)\b")),
    ("USERNAME", regex.compile(r"(?i)\b(?:user[ \t]*name|login|log[ \t]+in|user[ \t]+id|handle)\b")),
)


def id_kind(text: str, s: Span) -> str | None:
    """The kind of identifier a tagger ``OTHER`` span is, from its form or the nearest cue before it."""
    piece = text[s.start:s.end]
    if "@" in piece:
        return "EMAIL"
    if regex.match(r"(?i)(?:https?://|www\.)", piece):
        return "URL"
    line_start = text.rfind("\n", 0, s.start) + 1
    lo = max(line_start, s.start - 48)
    best: tuple[int, str] | None = None
    for label, pat in ID_CUES:
        for m in pat.finditer(text, lo, s.start):
            if best is None or m.end() > best[0]:
                best = (m.end(), label)
    if best is not None and not regex.search(r"\d{3}", text[best[0]:s.start]):
        return best[1]
    if any(c.isdigit() for c in piece) or all(w in _SPOKEN_DIGITS for w in piece.casefold().split()):
        return "IDNUM"
    return None


_SPOKEN_DIGITS = frozenset("zero oh o one two three four five six seven eight nine double triple".split())


class ContactLabelFilter:
    name = "contact_labels"

    def __init__(self, lang: str = "en"):
        self.lang = lang

    def load(self) -> None:
        return None

    def describe(self) -> dict:
        return {"relabels": "PHONE after a fax cue -> FAX, after a health-plan cue -> HEALTHPLAN; "
                            "a tagger OTHER identifier -> its kind by form or cue (IDNUM by default)",
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
            elif s.label == "OTHER" and s.source.startswith("tagger"):
                label = id_kind(text, s)
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
