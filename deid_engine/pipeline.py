"""The pipeline: detectors -> merge -> filters, one document at a time.

``Pipeline.run(doc)`` returns the merged spans. ``tag_documents`` is the
generator that long-running callers (CLI progress bars, the GUI worker, the
batch export) drive; it yields ``Progress`` and ``TaggedDocument`` items and
never touches a GUI.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from .detect import DETECTORS, FILTERS, PRESETS, Detector, SpanFilter
from .detect.merge import join_adjacent, resolve
from .types import Cancelled, Document, FileProblem, Progress, Span

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TaggedDocument:
    document: Document
    spans: tuple[Span, ...]
    seconds: float = 0.0


@dataclass
class Pipeline:
    """An ordered, named list of detectors plus post-merge filters."""

    detectors: list[Detector]
    filters: list[SpanFilter] = field(default_factory=list)
    name: str = "custom"
    lang: str = "en"
    _loaded: bool = False

    def load(self) -> "Pipeline":
        if not self._loaded:
            for d in self.detectors:
                d.load()
            for f in self.filters:
                f.load()
            self._loaded = True
        return self

    @property
    def detector_names(self) -> list[str]:
        return [d.name for d in self.detectors]

    def describe(self) -> dict:
        """Versions for audit reports (no PHI)."""
        out: dict = {"pipeline": self.name, "lang": self.lang, "detectors": {}}
        for d in [*self.detectors, *self.filters]:
            info = getattr(d, "describe", None)
            out["detectors"][d.name] = info() if callable(info) else {}
        return out

    def detect_raw(self, doc: Document) -> list[Span]:
        self.load()
        spans: list[Span] = []
        for d in self.detectors:
            found = d.detect(doc)
            for s in found:
                if s.end > len(doc.text):
                    raise ValueError(f"detector {d.name} returned a span outside the text")
            spans.extend(found)
        return spans

    def run(self, doc: Document) -> list[Span]:
        spans = merge_spans(self.detect_raw(doc), doc.text)
        for f in self.filters:
            spans = f.filter(doc, spans)
        return spans


def merge_spans(spans: Iterable[Span], text: str) -> list[Span]:
    return join_adjacent(resolve(spans, text), text)


def build_pipeline(preset: str = "default", lang: str = "en", names: Iterable[str] | None = None,
                   filters: bool = True) -> Pipeline:
    """A pipeline from a preset name (``rules``, ``tagger``, ``default``) or detector names.

    A comma-separated ``preset`` (``pattern,lexicon``) names detectors directly.
    """
    if names is None:
        if preset in PRESETS:
            names = PRESETS[preset]
        else:
            names = [n.strip() for n in preset.split(",") if n.strip()]
    dets: list[Detector] = []
    for n in names:
        if n not in DETECTORS:
            raise KeyError(f"unknown detector {n!r}; known: {', '.join(sorted(DETECTORS)) or 'none'}")
        dets.append(DETECTORS[n](lang))
    flt: list[SpanFilter] = []
    if filters:
        flt = [f(lang) for f in FILTERS.values()]
    return Pipeline(dets, flt, name=preset, lang=lang)


def tag_documents(items: Iterable[Document | FileProblem], pipeline: Pipeline, total: int = 0,
                  cancelled: Callable[[], bool] = lambda: False,
                  progress_every: float = 0.2) -> Iterator[Progress | TaggedDocument | FileProblem]:
    """Tag documents one by one, yielding results, problems and progress.

    A detector failure on one document becomes a FileProblem (the batch goes on).
    """
    pipeline.load()
    started = time.time()
    last = 0.0
    done = 0
    for item in items:
        if cancelled():
            raise Cancelled()
        if isinstance(item, FileProblem):
            yield item
            if not item.warning:
                done += 1
            continue
        t0 = time.perf_counter()
        try:
            spans = pipeline.run(item)
        except Exception as e:  # keep the batch going; the reason names no PHI
            log.exception("tagging failed for %s", item.path or item.name)
            yield FileProblem(item.path or item.name, f"tagging failed ({type(e).__name__})")  # type: ignore[arg-type]
        else:
            yield TaggedDocument(item, tuple(spans), time.perf_counter() - t0)
        done += 1
        now = time.time()
        if now - last >= progress_every or (total and done == total):
            last = now
            yield Progress(done, total, "tagging", started)
