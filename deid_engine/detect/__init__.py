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


def _lazy(module: str, cls: str) -> Callable[[str], object]:
    """A factory ``(lang) -> cls(lang)`` that imports ``.module`` only when called."""

    def make(lang: str):
        from importlib import import_module

        return getattr(import_module(f".{module}", __name__), cls)(lang)

    make.__name__ = f"make_{cls}"
    return make


DETECTORS["pattern"] = _lazy("patterns", "PatternDetector")
DETECTORS["lexicon"] = _lazy("lexicon", "LexiconDetector")
DETECTORS["tagger"] = _lazy("tagger", "TaggerDetector")
DETECTORS["profession"] = _lazy("profession", "ProfessionDetector")
PRESETS["rules"] = ("pattern", "lexicon", "profession")
PRESETS["tagger"] = ("tagger",)
PRESETS["default"] = ("tagger", "pattern", "lexicon", "profession")
# Applied in this order after merging (see pipeline.Pipeline._finish).
FILTERS["protected"] = _lazy("protected", "ProtectedTermsFilter")
FILTERS["field_labels"] = _lazy("vetoes", "FieldLabelFilter")
FILTERS["numeric_context"] = _lazy("vetoes", "NumericContextFilter")  # before age_policy: it relabels ages
FILTERS["age_policy"] = _lazy("policy", "AgePolicyFilter")
FILTERS["place_policy"] = _lazy("policy", "PlacePolicyFilter")
FILTERS["name_extent"] = _lazy("extent", "NameExtentFilter")
FILTERS["place_extent"] = _lazy("place_extent", "PlaceExtentFilter")
FILTERS["place_labels"] = _lazy("place_labels", "PlaceLabelFilter")
FILTERS["contact_labels"] = _lazy("contact_labels", "ContactLabelFilter")
FILTERS["weak_words"] = _lazy("vetoes", "WeakWordFilter")
FILTERS["name_roles"] = _lazy("roles", "NameRoleFilter")
FILTERS["name_repeat"] = _lazy("extent", "NameRepeatFilter")
# last: the other filters see the same spans whichever occupations the policy keeps
FILTERS["profession_policy"] = _lazy("policy", "ProfessionPolicyFilter")
