"""The Detector protocol.

A detector has a ``name``, an explicit ``load()`` (reading lexicons or model
weights; constructors do no work), and ``detect(document) -> list[Span]``.
Each span's ``source`` starts with the detector's family (``pattern``,
``lexicon``, ``tagger``, ``user``) so merging can rank sources.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..types import Document, Span


@runtime_checkable
class Detector(Protocol):
    name: str

    def load(self) -> None:
        """Load whatever the detector needs; idempotent."""

    def detect(self, document: Document) -> list[Span]:
        """Spans of PHI found in ``document.text``."""


class SpanFilter(Protocol):
    """A step after merging that may drop or change spans (e.g. protected terms)."""

    name: str

    def load(self) -> None: ...

    def filter(self, document: Document, spans: list[Span]) -> list[Span]: ...
