"""Operators and ``redact``: replace PHI spans, keep everything else byte for byte.

An operator is a callable ``(span, original) -> replacement``. The built-in
ones (see ``make_operator``):

- ``tag``: the category tag, ``[NAME]`` (``fine=True``: the label, ``[PATIENT]``);
- ``liu``: the Liu et al. style ``<*<NAME*>``;
- ``placeholder``: ``[PATIENT-3F2A9C]``, a stable code from HMAC(key, category,
  normalised original) -- names are coded by their surname, so ``John Smith``,
  ``J. Smith`` and ``Mr. Smith`` share one code. The code depends only on the
  key and the value, so numbering is identical in every file, run and worker
  (no counter, no shared state);
- ``mask``: ``*`` for every character (line breaks kept), same length;
- ``surrogate``: a realistic, keyed, consistent fake value (``surrogates``).

``with_date_shift`` wraps any operator so DATE spans are shifted by a fixed
offset in their own format instead. ``redact`` resolves overlapping spans
first (``detect.merge.resolve``) and returns the new text, the spans of the
replacements in it, and the edits in input coordinates (for format writers).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable, Iterable, Protocol, Sequence

import regex as re

from ..detect.merge import resolve
from ..taxonomy import category_of, is_label, to_taxonomy
from ..types import Span
from . import dates as _dates
from .keys import normalise, short_code
from .surrogates import _HONORIFICS, age_over_89, keyed_surrogate, shape_random, tag_for

OPERATORS = ("surrogate", "tag", "liu", "placeholder", "mask")


class Operator(Protocol):
    def __call__(self, span: Span, original: str) -> str: ...


@dataclass(frozen=True, slots=True)
class Edit:
    """A replacement in input coordinates: ``text[start:end]`` became ``replacement``."""

    start: int
    end: int
    replacement: str
    label: str


@dataclass(frozen=True, slots=True)
class Redacted:
    """The redacted text, the spans of the replacements in it, and the edits made."""

    text: str
    spans: tuple[Span, ...]
    edits: tuple[Edit, ...] = ()


def taxonomy_label(label: str) -> str:
    return label if is_label(label) else to_taxonomy(label)


def category(label: str) -> str:
    try:
        return category_of(taxonomy_label(label))
    except KeyError:
        return "OTHER"


def redact(text: str, spans: Iterable[Span], operator: Operator | Callable[[Span, str], str]) -> Redacted:
    """Replace every span of ``text`` with ``operator(span, original)``.

    Overlaps are resolved first. Text outside spans is copied unchanged and in
    order; the returned spans point at the replacements in the new text.
    """
    spans = list(spans)
    for s in spans:
        if s.end > len(text):
            raise ValueError(f"span [{s.start}, {s.end}) outside text of length {len(text)}")
    chosen = sorted(resolve(spans, text), key=lambda s: s.start)
    replacements = []
    for s in chosen:
        original = text[s.start:s.end]
        rep = operator(s, original)
        if not rep:
            rep = tag_for(taxonomy_label(s.label))
        replacements.append(rep)
    # One left-to-right join (equivalent to rewriting right to left, but linear).
    parts, pos = [], 0
    for s, rep in zip(chosen, replacements):
        parts.append(text[pos:s.start])
        parts.append(rep)
        pos = s.end
    parts.append(text[pos:])
    out = "".join(parts)
    new_spans, edits = [], []
    delta = 0
    for s, rep in zip(chosen, replacements):
        a = s.start + delta
        new_spans.append(Span(a, a + len(rep), s.label, s.source, s.confidence))
        edits.append(Edit(s.start, s.end, rep, s.label))
        delta += len(rep) - s.length
    return Redacted(out, tuple(new_spans), tuple(edits))


# --- operators -------------------------------------------------------------------

@dataclass(frozen=True)
class TagOperator:
    fine: bool = False

    def __call__(self, span: Span, original: str) -> str:
        lbl = taxonomy_label(span.label)
        return tag_for(lbl if self.fine else category(lbl))


@dataclass(frozen=True)
class LiuOperator:
    def __call__(self, span: Span, original: str) -> str:
        return f"<*<{category(span.label)}*>"


@dataclass(frozen=True)
class MaskOperator:
    char: str = "*"

    def __call__(self, span: Span, original: str) -> str:
        return "".join(c if c in "\r\n" else self.char for c in original)


_WORD = re.compile(r"\p{L}+(?:['’]\p{L}+)*")


def name_identity(original: str) -> str:
    """The part of a name that identifies the person across spellings: the surname.

    ``Smith, John`` -> ``smith``; ``Dr. John Smith`` / ``J. Smith`` -> ``smith``;
    a lone first name is its own identity.
    """
    honor = _HONORIFICS["en"] | _HONORIFICS["es"]
    head = original.split(",", 1)[0] if "," in original else original
    words = [w for w in _WORD.findall(head) if len(w) > 1 and normalise(w) not in honor]
    if not words:
        words = [w for w in _WORD.findall(original) if normalise(w) not in honor]
    if not words:
        return normalise(original)
    return normalise(words[0] if "," in original else words[-1])


@dataclass(frozen=True)
class PlaceholderOperator:
    key: bytes
    code_length: int = 6

    def __call__(self, span: Span, original: str) -> str:
        lbl = taxonomy_label(span.label)
        cat = category(lbl)
        ident = name_identity(original) if cat == "NAME" else normalise(original)
        code = short_code(self.key, "placeholder", cat, ident, length=self.code_length)
        return f"[{lbl}-{code}]"


@dataclass(frozen=True)
class SurrogateOperator:
    key: bytes
    lang: str = "en"

    def __call__(self, span: Span, original: str) -> str:
        return keyed_surrogate(taxonomy_label(span.label), original, self.key, self.lang)


@dataclass(frozen=True)
class DateShiftOperator:
    """DATE spans shifted by ``offset_days`` in their own format; others via ``inner``.

    A date the parser cannot read gets a keyed surrogate date of the same shape.
    """

    inner: Operator
    offset_days: int
    key: bytes
    lang: str = "en"

    def __call__(self, span: Span, original: str) -> str:
        if category(span.label) != "DATE":
            return self.inner(span, original)
        shifted = _dates.shift_text(original, self.offset_days, self.lang)
        if shifted is not None and shifted != original:
            return shifted
        if shifted == original and _dates.find_dates(original, self.lang):
            # a year (or season) the offset does not move: years alone are not PHI
            # under Safe Harbor, and changing them would break intervals
            return shifted
        return keyed_surrogate("DATE", original, self.key, self.lang)


def make_operator(name: str, key: bytes, lang: str = "en", *, date_offset: int | None = None,
                  fine_tags: bool = False) -> Operator:
    """The operator called ``name``; with ``date_offset`` DATE spans are shifted instead."""
    op: Operator
    if name == "tag":
        op = TagOperator(fine=fine_tags)
    elif name == "liu":
        op = LiuOperator()
    elif name == "placeholder":
        op = PlaceholderOperator(key)
    elif name == "mask":
        op = MaskOperator()
    elif name == "surrogate":
        op = SurrogateOperator(key, lang)
    else:
        raise ValueError(f"unknown operator {name!r}; choose one of {', '.join(OPERATORS)}")
    if date_offset is not None:
        op = DateShiftOperator(op, date_offset, key, lang)
    return op


def counts_by_label(spans: Sequence[Span]) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in spans:
        lbl = taxonomy_label(s.label)
        out[lbl] = out.get(lbl, 0) + 1
    return dict(sorted(out.items()))


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


__all__ = ["OPERATORS", "Operator", "Edit", "Redacted", "redact", "make_operator", "TagOperator",
           "LiuOperator", "MaskOperator", "PlaceholderOperator", "SurrogateOperator", "DateShiftOperator",
           "counts_by_label", "name_identity", "age_over_89", "shape_random"]
