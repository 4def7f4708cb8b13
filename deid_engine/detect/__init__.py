"""Detectors: one explicit registry of every detector the pipeline can run.

``DETECTORS`` maps a detector name to a factory ``(lang) -> Detector``. The
factories import lazily so that importing this package stays cheap (the GUI
starts fast; torch loads only when the tagger is used).
"""

from __future__ import annotations

from typing import Callable

from .base import Detector, SpanFilter

DetectorFactory = Callable[[str], Detector]

# name -> factory(lang). Filled in below, in one place; nothing registers itself.
DETECTORS: dict[str, DetectorFactory] = {}

# Named detector sets that ``deid tag --detectors`` and the app accept.
PRESETS: dict[str, tuple[str, ...]] = {}

__all__ = ["Detector", "SpanFilter", "DETECTORS", "PRESETS", "FILTERS"]

# name -> factory(lang) of post-merge filters (e.g. the protected-terms filter).
FILTERS: dict[str, Callable[[str], SpanFilter]] = {}


def _age_policy(lang: str) -> SpanFilter:
    from .policy import AgePolicyFilter

    return AgePolicyFilter(lang)


def _numeric_context(lang: str) -> SpanFilter:
    from .vetoes import NumericContextFilter

    return NumericContextFilter(lang)


def _name_extent(lang: str) -> SpanFilter:
    from .extent import NameExtentFilter

    return NameExtentFilter(lang)


def _weak_words(lang: str) -> SpanFilter:
    from .vetoes import WeakWordFilter

    return WeakWordFilter(lang)


def _pattern(lang: str) -> Detector:
    from .patterns import PatternDetector

    return PatternDetector(lang)


def _lexicon(lang: str) -> Detector:
    from .lexicon import LexiconDetector

    return LexiconDetector(lang)


def _tagger(lang: str) -> Detector:
    from .tagger import TaggerDetector

    return TaggerDetector(lang)


def _protected(lang: str) -> SpanFilter:
    from .protected import ProtectedTermsFilter

    return ProtectedTermsFilter(lang)


DETECTORS["pattern"] = _pattern
DETECTORS["lexicon"] = _lexicon
DETECTORS["tagger"] = _tagger
PRESETS["rules"] = ("pattern", "lexicon")
PRESETS["tagger"] = ("tagger",)
PRESETS["default"] = ("tagger", "pattern", "lexicon")
FILTERS["protected"] = _protected
FILTERS["age_policy"] = _age_policy
FILTERS["numeric_context"] = _numeric_context
FILTERS["name_extent"] = _name_extent
FILTERS["weak_words"] = _weak_words
