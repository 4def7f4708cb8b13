"""Central data types shared from detector to export.

Every type here is a frozen dataclass that checks itself on construction, so an
invalid span or decision fails where it is made, not three layers later.
Nothing here imports anything else of ours.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, Mapping

VERDICTS = ("accept", "reject", "add", "relabel")
Verdict = Literal["accept", "reject", "add", "relabel"]


def text_hash(text: str) -> str:
    """The content hash that identifies a document (sha256 of its UTF-8 text)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class Span:
    """A labelled region of a document's text.

    ``start``/``end`` are Python ``str`` indices, end-exclusive. ``source`` names
    the detector that produced it; ``confidence`` is in [0, 1].
    """

    start: int
    end: int
    label: str
    source: str = ""
    confidence: float = 1.0
    explanation: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.start, int) or not isinstance(self.end, int):
            raise TypeError(f"span offsets must be int, got {self.start!r}, {self.end!r}")
        if isinstance(self.start, bool) or isinstance(self.end, bool):
            raise TypeError("span offsets must be int, not bool")
        if self.start < 0 or self.end <= self.start:
            raise ValueError(f"invalid span offsets [{self.start}, {self.end})")
        if not isinstance(self.label, str) or not self.label:
            raise ValueError("span label must be a non-empty string")
        conf = float(self.confidence)
        if not (0.0 <= conf <= 1.0):
            raise ValueError(f"span confidence must be in [0, 1], got {self.confidence!r}")
        object.__setattr__(self, "confidence", conf)

    @property
    def length(self) -> int:
        return self.end - self.start

    def overlaps(self, other: "Span") -> bool:
        return self.start < other.end and other.start < self.end

    def contains(self, other: "Span") -> bool:
        return self.start <= other.start and other.end <= self.end

    def slice(self, text: str) -> str:
        return text[self.start : self.end]

    def with_label(self, label: str) -> "Span":
        return replace(self, label=label)

    def with_bounds(self, start: int, end: int) -> "Span":
        return replace(self, start=start, end=end)

    def key(self) -> tuple[int, int, str]:
        return (self.start, self.end, self.label)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"start": self.start, "end": self.end, "label": self.label}
        if self.source:
            d["source"] = self.source
        if self.confidence != 1.0:
            d["confidence"] = round(self.confidence, 4)
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Span":
        return cls(
            start=int(d["start"]),
            end=int(d["end"]),
            label=str(d["label"]),
            source=str(d.get("source", "")),
            confidence=float(d.get("confidence", 1.0)),
        )


@dataclass(frozen=True, slots=True)
class Document:
    """A note's text with where it came from.

    ``doc_id`` is the sha256 of the text, so review decisions follow the content
    even when a file is renamed. ``name`` is the file name without extension (the
    id used in prediction files). ``metadata`` is read-only.
    """

    text: str
    path: Path | None = None
    name: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    doc_id: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError("document text must be str")
        if self.path is not None and not isinstance(self.path, Path):
            object.__setattr__(self, "path", Path(self.path))
        if not self.name and self.path is not None:
            object.__setattr__(self, "name", self.path.stem)
        object.__setattr__(self, "metadata", MappingProxyType(dict(self.metadata)))
        computed = text_hash(self.text)
        if self.doc_id and self.doc_id != computed:
            raise ValueError("doc_id does not match the document text")
        object.__setattr__(self, "doc_id", computed)

    def check_span(self, span: Span) -> None:
        if span.end > len(self.text):
            raise ValueError(f"span [{span.start}, {span.end}) outside text of length {len(self.text)}")


@dataclass(frozen=True, slots=True)
class AnnotatedDocument:
    """A document with a set of spans (gold annotations or predictions)."""

    document: Document
    spans: tuple[Span, ...] = ()

    def __post_init__(self) -> None:
        spans = tuple(sorted(self.spans, key=lambda s: (s.start, s.end, s.label)))
        for s in spans:
            self.document.check_span(s)
        object.__setattr__(self, "spans", spans)

    @property
    def text(self) -> str:
        return self.document.text

    @property
    def name(self) -> str:
        return self.document.name


@dataclass(frozen=True, slots=True)
class Decision:
    """A fact a reviewer stated about a span of a document.

    ``accept``: the predicted span is PHI as labelled. ``reject``: it is not PHI.
    ``add``: a span the detectors missed. ``relabel``: the span is PHI with
    ``span.label`` (``previous_label`` records what it was).
    """

    doc_id: str
    span: Span
    verdict: Verdict
    at: float = field(default_factory=time.time)
    reviewer: str = ""
    previous_label: str = ""

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if not isinstance(self.doc_id, str) or len(self.doc_id) != 64:
            raise ValueError("decision doc_id must be a sha256 hex digest")
        if not isinstance(self.span, Span):
            raise TypeError("decision span must be a Span")

    def to_json(self) -> dict[str, Any]:
        d = {"doc_id": self.doc_id, "verdict": self.verdict, "at": self.at, **self.span.to_json()}
        if self.reviewer:
            d["reviewer"] = self.reviewer
        if self.previous_label:
            d["previous_label"] = self.previous_label
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Decision":
        return cls(
            doc_id=str(d["doc_id"]),
            span=Span.from_json(d),
            verdict=d["verdict"],
            at=float(d.get("at", 0.0)),
            reviewer=str(d.get("reviewer", "")),
            previous_label=str(d.get("previous_label", "")),
        )


@dataclass(frozen=True, slots=True)
class Progress:
    """A step of long work: ``done`` of ``total`` units (``total`` 0 if unknown)."""

    done: int
    total: int
    message: str = ""
    started_at: float = 0.0

    @property
    def fraction(self) -> float:
        return (self.done / self.total) if self.total else 0.0

    def eta_seconds(self, now: float | None = None) -> float | None:
        if not self.started_at or not self.done or not self.total:
            return None
        elapsed = (now if now is not None else time.time()) - self.started_at
        return elapsed / self.done * (self.total - self.done)


class Cancelled(Exception):
    """Raised inside long work when the user cancelled it."""


@dataclass(frozen=True, slots=True)
class FileProblem:
    """A file that could not be read or written, with a reason free of PHI."""

    path: Path
    reason: str
    warning: bool = False  # True: the file was read, but with a caveat

    def __str__(self) -> str:
        kind = "warning" if self.warning else "error"
        return f"{kind}: {self.path}: {self.reason}"
