"""Place extents: the ``St.`` of ``St. Mary's`` and the ``St`` of ``Main St`` belong to the place.

The tagger and the lexicon find the distinctive word of a place name (``Mary's``,
``Vincent``, ``Main``) more easily than the abbreviation beside it, and the left-over
piece both leaks structure (``St. [LOCATION]`` says "a Saint's hospital") and makes
the span disagree with how reviewers mark places. ``PlaceExtentFilter`` (English)
grows LOCATION spans that are not the user's:

- to the left over ``St.``, ``St``, ``Saint``, ``Ste.``, ``Mt.``, ``Mount``, ``Ft.``, ``Fort``
  when that word starts a phrase (line start, punctuation, a lower-case word or a place
  cue such as ``to``/``at``/``from`` before it), so ``Main St Boston`` does not give its
  ``St`` to ``Boston``; a NAME span there (``St. Joseph``) is a place and is relabelled;
- over a possessive ``'s`` cut in half (``Mary'`` -> ``Mary's``);
- to the right over a capitalised street suffix (``Main`` -> ``Main St``, ``Elm Avenue``)
  when the span is a generic LOCATION or STREET.

Spans never grow into another span.
"""

from __future__ import annotations

from dataclasses import replace

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..taxonomy import category_of, is_label
from ..types import Document, Span
from .merge import source_family

_SAINT_BEFORE = regex.compile(r"(?i)(?<![\p{L}\p{N}])(?P<w>st|saint|ste|mt|mount|ft|fort)(?P<dot>\.)?[ \t]{1,2}$")
_PHRASE_START = frozenset({"to", "at", "from", "in", "into", "of", "the", "and", "or", "via", "near", "by", "for",
                           "with", "per", "on"})
_STREET_AFTER = regex.compile(
    r"[ \t]{1,2}(?P<w>St|ST|Street|STREET|Ave|AVE|Avenue|AVENUE|Rd|RD|Road|ROAD|Blvd|BLVD|Boulevard|Ln|LN|Lane|LANE|"
    r"Way|WAY|Pl|Place|Ct|Court|Cres|Crescent|Terrace|Pkwy|Parkway|Hwy|Highway|Dr\.?(?=[ \t]*(?:[,.\n]|$)))"
    r"(?P<dot>\.(?![ \t]+\p{Lu}\p{Ll}))?(?![\p{L}\p{N}])")


# kinds of care facility written as an abbreviation: nursing home, skilled nursing / assisted living / long-term /
# extended care facility, nursing facility, transitional care unit, sub-acute / acute rehab, inpatient rehab
_FACILITY_KINDS = frozenset({"NH", "SNF", "ALF", "AL", "LTC", "LTAC", "LTACH", "ECF", "NF", "ICF", "TCU", "SAR", "ARU",
                             "IRF", "LTCF"})


_RESIDENCE_WORD = regex.compile(r"(?i)\b(?:terrace|manor|house|village|gardens?|home|homes|place|court|commons|lodge|"
                                r"care|living|residence|retirement|pointe?|towers?|heights|ridge|estates?|center|centre)\b")


def _cat(label: str) -> str:
    return category_of(label) if is_label(label) else label


class PlaceExtentFilter:
    name = "place_extent"

    def __init__(self, lang: str = "en"):
        self.lang = lang

    def load(self) -> None:
        return None

    def describe(self) -> dict:
        return {"grows": "LOCATION spans over St./Saint/Mt./Ft. before them, a cut possessive and a street suffix"}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        if self.lang != "en" or not spans:
            return spans
        text = document.text
        ordered = sorted(spans, key=lambda s: (s.start, s.end))
        out: list[Span] = []
        for k, s in enumerate(ordered):
            cat = _cat(s.label)
            if source_family(s.source) == "user" or cat not in ("LOCATION", "NAME"):
                out.append(s)
                continue
            prev_end = max((o.end for o in out), default=0)
            next_start = ordered[k + 1].start if k + 1 < len(ordered) else len(text)
            start, end, label = s.start, s.end, s.label
            m = _SAINT_BEFORE.search(text, max(prev_end, start - 10), start)
            if m and text[start:start + 1].isupper() and self._starts_phrase(text, m.start("w")):
                start, label = m.start("w"), (label if cat == "LOCATION" else "LOCATION")
            if cat == "NAME" and label == s.label:
                out.append(s)  # only a Saint's name becomes a place
                continue
            if text[end - 1:end] in ("'", "’") and text[end:end + 1] in ("s", "S") and \
                    not regex.match(r"[\p{L}\p{N}]", text[end + 1:end + 2]) and end + 1 <= next_start:
                end += 1  # "Mary'" -> "Mary's"
            if label in ("LOCATION", "STREET"):
                a = _STREET_AFTER.match(text, end)
                if a and a.end() <= next_start and text[s.start:s.end][:1].isupper():
                    end = a.end()
            if cat == "LOCATION" and self._facility_kind_aside(text, start, end, out):
                continue  # "BROOKSIDE TERRACE (NH)": the kind of facility after its name, no place of its own
            out.append(s if (start, end, label) == (s.start, s.end, s.label) else
                       replace(s, start=start, end=end, label=label))
        return out

    @staticmethod
    def _facility_kind_aside(text: str, start: int, end: int, before: list[Span]) -> bool:
        """``Brookside Terrace (NH)``, ``Oak Manor (SNF)``: a facility-type abbreviation in brackets right
        after a name (nursing home, skilled nursing, assisted living, rehab) says what the place is. Not
        after a town, where NH and AL are states (``Concord (NH)``): those two only after a hospital or a name
        that reads as a residence (``Terrace``, ``Manor``, ``House``)."""
        code = text[start:end].upper()
        if code not in _FACILITY_KINDS or text[start - 1:start] != "(" or text[end:end + 1] != ")":
            return False
        if not regex.search(r"\p{L}[ \t]*$", text[max(0, start - 40):start - 1]):
            return False
        if code not in ("NH", "AL"):
            return True
        prev = before[-1] if before else None
        return prev is not None and text[prev.end:start - 1].strip() == "" and (
            prev.label == "HOSPITAL" or _RESIDENCE_WORD.search(text[prev.start:prev.end]) is not None)

    @staticmethod
    def _starts_phrase(text: str, i: int) -> bool:
        """Whether the word at ``i`` opens a phrase: nothing, punctuation, a lower-case word or a
        place cue before it on the line (``to St. Mary's``), not a capitalised word (``Main St``)."""
        line_start = text.rfind("\n", 0, i) + 1
        before = text[line_start:i].rstrip(" \t")
        if not before or not before[-1].isalnum():
            return True
        w = regex.search(r"[\p{L}\p{N}]+$", before).group()
        return w.islower() or w.casefold() in _PHRASE_START
