"""Redaction policy filters: what the site's rules count as PHI.

``AgePolicyFilter``: HIPAA Safe Harbor (45 CFR 164.514(b)(2)(i)(C)) lists only ages
over 89 as identifiers; ages under 90 may stay in the data, and clinical research
usually needs them. The setting ``ages`` chooses:

- ``all`` (default; recall first, and what GDPR-style corpora such as MEDDOCAN annotate):
  every AGE span is kept;
- ``over89`` (Safe Harbor, the PhysioNet deid annotation guideline): an AGE span whose
  stated value is 89 or less is dropped; ages without a readable number stay (when in
  doubt, redact).

Spans added or accepted by the user are never dropped.
"""

from __future__ import annotations

import regex

from ..taxonomy import category_of, is_label
from ..types import Document, Span
from .merge import source_family

AGE_POLICIES = ("all", "over89")
_NUMBER = regex.compile(r"\d{1,3}")
_OVER_89_WORDS = regex.compile(r"(?i)\b(?:ninety|hundred|noventa|cien|ciento)")


def stated_age(text: str) -> int | None:
    """The age an AGE span states in digits (``82 yo`` -> 82, ``in her 80s`` -> 80), or None."""
    m = _NUMBER.search(text)
    if m is None:  # an age in words ("fifty nine"): the pattern detector's parser
        from .patterns import spelled_number
        return spelled_number(text)
    return int(m.group())


def allowed_by_safe_harbor(text: str) -> bool:
    """True when Safe Harbor lets this age stay: a number of 89 or less, no 'ninety'."""
    if _OVER_89_WORDS.search(text):
        return False
    v = stated_age(text)
    return v is not None and v <= 89


class AgePolicyFilter:
    name = "age_policy"

    def __init__(self, lang: str = "en", policy: str | None = None):
        self.lang = lang
        self.policy = policy

    def load(self) -> None:
        if self.policy is None:
            from ..config import load_settings

            try:
                self.policy = load_settings().ages
            except Exception:  # unreadable settings: the safe default
                self.policy = "all"
        if self.policy not in AGE_POLICIES:
            raise ValueError(f"unknown age policy {self.policy!r}; known: {', '.join(AGE_POLICIES)}")

    def describe(self) -> dict:
        if self.policy is None:  # name the policy in effect: it keys the review's prediction cache
            self.load()
        return {"ages": self.policy}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        if self.policy is None:
            self.load()
        if self.policy == "all":
            return spans
        text = document.text
        return [s for s in spans
                if not ((category_of(s.label) if is_label(s.label) else s.label) == "AGE"
                        and source_family(s.source) != "user"
                        and allowed_by_safe_harbor(text[s.start:s.end]))]
