"""The pipeline: detectors -> merge -> filters, one document at a time.

``Pipeline.run(doc)`` returns the merged spans. ``tag_documents`` is the
generator that long-running callers (CLI progress bars, the GUI worker, the
batch export) drive; it yields ``Progress`` and ``TaggedDocument`` items and
never touches a GUI.
"""

from __future__ import annotations

import gc
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from .detect import DETECTORS, FILTERS, PRESETS, Detector, SpanFilter
from .detect.merge import DEFAULT_PRIORITY, join_adjacent, resolve, source_family
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
    priority: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_PRIORITY))
    delimiters: frozenset[str] = frozenset()  # source families whose spans are never reshaped
    _loaded: bool = False

    def load(self) -> "Pipeline":
        if not self._loaded:
            for d in self.detectors:
                d.load()
            for f in self.filters:
                bind = getattr(f, "bind", None)
                if callable(bind):  # a filter that reuses a detector's tables (place_labels: the place lexicon)
                    bind(self.detectors)
                f.load()
            self._loaded = True
            from . import rxcache

            rxcache.seal()  # store the rules' compiled patterns for the next start; nothing after this
        return self

    @property
    def detector_names(self) -> list[str]:
        return [d.name for d in self.detectors]

    def describe(self) -> dict:
        """Versions for audit reports (no PHI)."""
        out: dict = {"pipeline": self.name, "lang": self.lang, "detectors": {},
                     "merge": {"priority": dict(self.priority), "delimiters": sorted(self.delimiters)}}
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
        return self._finish(doc, self.detect_raw(doc))

    def run_many(self, docs: Sequence[Document]) -> list[list[Span]]:
        """``run`` over several documents; detectors that offer ``detect_many``
        (the neural tagger) see them all at once, which batches their work."""
        self.load()
        raw: list[list[Span]] = [[] for _ in docs]
        for d in self.detectors:
            many = getattr(d, "detect_many", None)
            found = many(list(docs)) if callable(many) else [d.detect(doc) for doc in docs]
            for i, (doc, spans) in enumerate(zip(docs, found)):
                for s in spans:
                    if s.end > len(doc.text):
                        raise ValueError(f"detector {d.name} returned a span outside the text")
                raw[i].extend(spans)
        return [self._finish(doc, spans) for doc, spans in zip(docs, raw)]

    def _finish(self, doc: Document, raw: list[Span]) -> list[Span]:
        spans = merge_spans(raw, doc.text, self.priority, self.delimiters)
        if self.lang == "en":
            spans = _split_at_line_breaks(spans, doc.text)
        for f in self.filters:
            spans = f.filter(doc, spans)
        return _one_per_extent(spans, self.priority)


def _split_at_line_breaks(spans: list[Span], text: str) -> list[Span]:
    """A detector's span that runs over a line break (``Ada Obi\nConsultant Paediatric``,
    ``LE65 9ZX\nTel``) becomes one span per line; the filters then judge each piece (a title or
    a field word on the next line is dropped there). The user's spans are left as they are."""
    out: list[Span] = []
    for s in spans:
        piece = text[s.start:s.end]
        if "\n" not in piece or source_family(s.source) == "user":
            out.append(s)
            continue
        pos = s.start
        for line in piece.split("\n"):
            a, b = pos, pos + len(line)
            pos = b + 1
            while a < b and not text[a].isalnum():
                a += 1
            while b > a and not text[b - 1].isalnum():
                b -= 1
            if b > a:
                out.append(Span(a, b, s.label, s.source, s.confidence, s.explanation))
    return out


def _one_per_extent(spans: list[Span], priority: dict[str, int]) -> list[Span]:
    """Filters that reshape spans can land two on the same characters (a label word moved onto
    the number it labels, ``bay`` -> ``2``, beside the pattern's ``2``): keep the one whose source
    ranks first (then the most confident), in the original order."""
    best: dict[tuple[int, int], Span] = {}
    for s in spans:
        k = (s.start, s.end)
        o = best.get(k)
        if o is None or (priority.get(source_family(s.source), 0), s.confidence) > \
                (priority.get(source_family(o.source), 0), o.confidence):
            best[k] = s
    if len(best) == len(spans):
        return spans
    keep = {id(s) for s in best.values()}
    return [s for s in spans if id(s) in keep]


def merge_spans(spans: Iterable[Span], text: str, priority: dict[str, int] | None = None,
                delimiters: Iterable[str] = ()) -> list[Span]:
    return join_adjacent(resolve(spans, text, priority or DEFAULT_PRIORITY, delimiters), text)


# Per-language source ranking for overlaps. The Spanish tagger is trained on the
# annotation conventions of MEDDOCAN and delimits entities far better than the
# Spanish patterns (strict F1 0.91 vs 0.79 on MEDDOCAN dev), so its boundaries
# win there; in English the patterns keep the lead for identifier shapes.
LANG_PRIORITY: dict[str, dict[str, int]] = {
    "es": {**DEFAULT_PRIORITY, "tagger": 60},
}
# ... and its spans are final: rules only add entities where it found none (on MEDDOCAN
# train, reshaping tagger spans with rule spans cost strict F1; see docs/tagger.md).
LANG_DELIMITERS: dict[str, frozenset[str]] = {"es": frozenset({"tagger"})}


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
    return Pipeline(dets, flt, name=preset, lang=lang, priority=dict(LANG_PRIORITY.get(lang, DEFAULT_PRIORITY)),
                    delimiters=LANG_DELIMITERS.get(lang, frozenset()))


def tag_documents(items: Iterable[Document | FileProblem], pipeline: Pipeline, total: int = 0,
                  cancelled: Callable[[], bool] = lambda: False, progress_every: float = 0.2,
                  batch_chars: int = 60_000, batch_docs: int = 64) -> Iterator[Progress | TaggedDocument | FileProblem]:
    """Tag documents, yielding results, problems and progress.

    Documents are tagged in batches (``Pipeline.run_many``) so the neural tagger
    runs many windows per step; the first batch holds one document and batches
    double up to ``batch_docs`` documents / ``batch_chars`` characters, so the
    first result arrives at once. A failure inside a batch is retried document
    by document; a document that still fails becomes a FileProblem (the rest
    goes on).
    """
    pipeline.load()
    started = time.time()
    state = {"last": 0.0, "done": 0}
    limit = 1
    batch: list[Document] = []
    size = 0

    def flush() -> Iterator[Progress | TaggedDocument | FileProblem]:
        t0 = time.perf_counter()
        try:
            results: list[list[Span] | Exception] = list(pipeline.run_many(batch))
        except Exception:
            results = []
            for doc in batch:
                try:
                    results.append(pipeline.run(doc))
                except Exception as e:  # keep the batch going; the reason names no PHI
                    log.error("tagging failed for a document (%s)", type(e).__name__)
                    results.append(e)
        per_doc = (time.perf_counter() - t0) / max(1, len(batch))
        for doc, res in zip(batch, results):
            if isinstance(res, Exception):
                yield FileProblem(doc.path or Path(doc.name), f"tagging failed ({type(res).__name__})")
            else:
                yield TaggedDocument(doc, tuple(res), per_doc)
            state["done"] += 1
        now = time.time()
        if now - state["last"] >= progress_every or (total and state["done"] >= total):
            state["last"] = now
            yield Progress(state["done"], total, "tagging", started)

    for item in items:
        if cancelled():
            raise Cancelled()
        if isinstance(item, FileProblem):
            yield item
            if not item.warning:
                state["done"] += 1
            continue
        batch.append(item)
        size += len(item.text)
        if len(batch) >= limit or size >= batch_chars:
            yield from flush()
            batch, size = [], 0
            limit = min(limit * 2, batch_docs)
    if batch:
        if cancelled():
            raise Cancelled()
        yield from flush()


def tune_gc_for_batch() -> None:
    """For a process that loads one pipeline and then tags a batch (``deid tag``/``redact`` workers, Dask
    workers, bench/speed.py); not for the app, which may load and drop several pipelines in one session.

    What is loaded by then (lexicon tables, compiled patterns, the model) lives as long as the process:
    ``gc.freeze`` moves it out of the cyclic collector's reach, or every full collection re-traverses it
    (~0.4 s per 1,600 notes; objects are still freed by reference counting). Tagging makes many
    short-lived objects (tokens, spans): a youngest-generation threshold of 5,000 instead of 700 lets
    most die before a collection looks at them (GC 0.67 -> 0.1 s over PhysioNet train)."""
    gc.freeze()
    young, middle, old = gc.get_threshold()
    if 0 < young < 5000:
        gc.set_threshold(5000, middle, old)


# --- several processes -------------------------------------------------------------

_WORKER_PIPELINE: Pipeline | None = None


def _worker_init(preset: str, lang: str) -> None:
    global _WORKER_PIPELINE
    _WORKER_PIPELINE = build_pipeline(preset, lang).load()
    tune_gc_for_batch()


def _worker_run(texts: list[str]) -> list[list[Span]]:
    assert _WORKER_PIPELINE is not None
    return _WORKER_PIPELINE.run_many([Document(t) for t in texts])


def tag_documents_parallel(items: Iterable[Document | FileProblem], preset: str, lang: str, jobs: int,
                           chunk_docs: int = 32, chunk_chars: int = 120_000
                           ) -> Iterator[TaggedDocument | FileProblem]:
    """``tag_documents`` over ``jobs`` worker processes, in input order.

    Each worker builds the pipeline once (one torch thread each, as the tagger sets
    it) and tags chunks of documents; at most ``2 * jobs`` chunks are in flight, so a
    large folder streams through bounded memory. Spans are identical to one process:
    the same pipeline runs on the same texts. Problems pass through in order.
    """
    import multiprocessing as mp
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    ctx = mp.get_context("spawn")  # torch and fork do not mix
    pending: deque = deque()  # (future | None, [Document | FileProblem, ...])

    def chunks() -> Iterator[list[Document | FileProblem]]:
        cur: list[Document | FileProblem] = []
        size = 0
        for it in items:
            cur.append(it)
            if isinstance(it, Document):
                size += len(it.text)
            if sum(isinstance(x, Document) for x in cur) >= chunk_docs or size >= chunk_chars:
                yield cur
                cur, size = [], 0
        if cur:
            yield cur

    def drain_one() -> Iterator[TaggedDocument | FileProblem]:
        fut, chunk = pending.popleft()
        found = iter(fut.result() if fut is not None else [])
        for it in chunk:
            if isinstance(it, Document):
                yield TaggedDocument(it, tuple(next(found)))
            else:
                yield it

    with ProcessPoolExecutor(max(1, jobs), mp_context=ctx, initializer=_worker_init,
                             initargs=(preset, lang)) as pool:
        for chunk in chunks():
            texts = [it.text for it in chunk if isinstance(it, Document)]
            pending.append((pool.submit(_worker_run, texts) if texts else None, chunk))
            while len(pending) >= 2 * max(1, jobs):
                yield from drain_one()
        while pending:
            yield from drain_one()
