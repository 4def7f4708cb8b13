"""Per-folder review state on disk: the predictions cache and the file manifest.

Both live under ``<user data>/folders/<key>/`` where ``key`` is a hash of the
folder's absolute path:

- ``predictions.jsonl``: one line per tagged document
  ``{"doc_id", "version", "spans": [...]}`` (offsets and labels, never text);
  the last line for a ``(doc_id, version)`` wins. ``version`` is a hash of the
  pipeline's ``describe()``, so a new model re-tags instead of reusing stale spans.
- ``manifest.json``: ``{document key: {"doc_id", "changed_from"?}}`` as seen
  last session; a key whose text hash differs from last time is flagged as
  changed on disk (its old decisions stay with the old hash).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from ..io.folder import iter_folder, list_note_files
from ..io.text import DEFAULT_MAX_BYTES
from ..resources import user_path
from ..types import Cancelled, Document, FileProblem, Progress, Span
from .decisions import iter_records

log = logging.getLogger(__name__)


def folder_key(folder: Path) -> str:
    return hashlib.sha256(str(Path(folder).resolve()).encode("utf-8", "surrogatepass")).hexdigest()[:20]


def pipeline_version(pipeline) -> str:
    """A short hash of what the pipeline is (detectors, versions, language)."""
    try:
        desc = pipeline.describe()
    except Exception:  # a detector without describe(): fall back to names
        desc = {"detectors": getattr(pipeline, "detector_names", [])}
    return hashlib.sha256(json.dumps(desc, sort_keys=True, default=str).encode()).hexdigest()[:12]


class FolderStore:
    def __init__(self, folder: Path, root: Path | None = None):
        self.folder = Path(folder)
        self.dir = Path(root) if root else user_path("folders", folder_key(self.folder))
        self.dir.mkdir(parents=True, exist_ok=True)
        self.predictions_path = self.dir / "predictions.jsonl"
        self.manifest_path = self.dir / "manifest.json"

    def load_predictions(self, version: str) -> dict[str, tuple[Span, ...]]:
        out: dict[str, tuple[Span, ...]] = {}
        for rec in iter_records(self.predictions_path):
            if rec.get("version") != version:
                continue
            try:
                out[str(rec["doc_id"])] = tuple(Span.from_json(s) for s in rec["spans"])
            except (KeyError, TypeError, ValueError):
                continue
        return out

    def append_predictions(self, items: list[tuple[str, tuple[Span, ...]]], version: str) -> None:
        if not items:
            return
        with open(self.predictions_path, "a", encoding="utf-8", newline="\n") as f:
            for doc_id, spans in items:
                f.write(json.dumps({"doc_id": doc_id, "version": version,
                                    "spans": [s.to_json() for s in spans]}, separators=(",", ":")) + "\n")
            f.flush()

    def load_manifest(self) -> dict[str, dict]:
        try:
            data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
            return {str(k): dict(v) for k, v in data.get("documents", {}).items()}
        except (FileNotFoundError, ValueError, AttributeError):
            return {}

    def save_manifest(self, documents: dict[str, dict]) -> None:
        tmp = self.manifest_path.with_suffix(".part")
        tmp.write_text(json.dumps({"folder": str(self.folder), "documents": documents}), encoding="utf-8")
        os.replace(tmp, self.manifest_path)


@dataclass(frozen=True, slots=True)
class ReadDocument:
    """A document read from the folder; ``cached`` holds its predictions if already tagged."""

    key: str
    document: Document
    cached: tuple[Span, ...] | None = None


@dataclass(frozen=True, slots=True)
class TaggedItem:
    key: str
    doc_id: str
    spans: tuple[Span, ...]
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class ProblemItem:
    key: str
    problem: FileProblem


def scan_folder(folder: Path, pipeline, store: FolderStore | None = None,
                cancelled: Callable[[], bool] = lambda: False, max_bytes: int = DEFAULT_MAX_BYTES,
                progress_every: float = 0.25) -> Iterator[Progress | ReadDocument | TaggedItem | ProblemItem]:
    """Read every note of ``folder`` (phase 1), then tag the ones not cached (phase 2).

    Phase 1 yields ``ReadDocument`` / ``ProblemItem`` so the list fills fast;
    phase 2 yields ``TaggedItem`` and appends each result to the cache. A
    detector failure on one document becomes a ``ProblemItem`` warning.
    """
    import time

    folder = Path(folder)
    version = pipeline_version(pipeline)
    cache = store.load_predictions(version) if store else {}
    paths = list_note_files(folder) if folder.is_dir() else []
    started = time.time()
    yield Progress(0, len(paths), "reading", started)
    todo: list[ReadDocument] = []
    seen_keys: dict[str, int] = {}
    last = 0.0
    nread = 0
    current_rel = None
    first_untagged = True
    for item in iter_folder(folder, max_bytes=max_bytes):
        if cancelled():
            raise Cancelled()
        if isinstance(item, FileProblem):
            try:
                rel = item.path.relative_to(folder).as_posix()
            except ValueError:
                rel = item.path.name
            if item.warning:
                yield ProblemItem(rel, item)
                continue
            nread += 1
            yield ProblemItem(rel, item)
            continue
        rel = str(item.metadata.get("relpath", item.name))
        n = seen_keys.get(rel, 0)
        seen_keys[rel] = n + 1
        key = rel if n == 0 else f"{rel}#{n + 1}"
        if rel != current_rel:
            nread += 1
            current_rel = rel
        if not item.text.strip():
            yield ProblemItem(key, FileProblem(item.path or Path(rel), "empty file (nothing to review)"))
            continue
        rd = ReadDocument(key, item, cache.get(item.doc_id))
        yield rd
        if rd.cached is None:
            if first_untagged:
                # the first document is tagged at once, so the reviewer can start while the rest is read
                first_untagged = False
                yield from _tag_one(rd, pipeline, store, version, 1, 1)
            else:
                todo.append(rd)
        now = time.time()
        if now - last >= progress_every:
            last = now
            yield Progress(nread, len(paths), "reading", started)
    total = len(todo)
    started = time.time()
    yield Progress(0, total, "tagging", started)
    if not total:
        return
    pipeline.load()
    pending: list[tuple[str, tuple[Span, ...]]] = []
    last = 0.0
    i = 0
    for batch in _batches(todo):
        if cancelled():
            if store:
                store.append_predictions(pending, version)
            raise Cancelled()
        t0 = time.perf_counter()
        try:  # batched: the neural tagger runs many windows per step
            results: list = list(pipeline.run_many([rd.document for rd in batch]))
        except Exception:
            results = []
            for rd in batch:
                try:
                    results.append(pipeline.run(rd.document))
                except Exception as e:  # one bad document must not stop the folder
                    results.append(e)
        per_doc = (time.perf_counter() - t0) / len(batch)
        for rd, res in zip(batch, results):
            i += 1
            if isinstance(res, Exception):  # no PHI in the reason
                log.error("tagging failed for document %d of %d (%s)", i, total, type(res).__name__)
                yield ProblemItem(rd.key, FileProblem(rd.document.path or Path(rd.key),
                                                      f"tagging failed ({type(res).__name__})", warning=True))
                continue
            spans = tuple(res)
            pending.append((rd.document.doc_id, spans))
            yield TaggedItem(rd.key, rd.document.doc_id, spans, per_doc)
        now = time.time()
        if store and (len(pending) >= 50 or now - last >= 1.0):
            store.append_predictions(pending, version)
            pending = []
        if now - last >= progress_every or i == total:
            last = now
            yield Progress(i, total, "tagging", started)
    if store:
        store.append_predictions(pending, version)


def _batches(docs: list[ReadDocument], max_docs: int = 16, max_chars: int = 40_000) -> Iterator[list[ReadDocument]]:
    """Consecutive groups small enough to keep the GUI's result batches quick."""
    batch: list[ReadDocument] = []
    size = 0
    for rd in docs:
        batch.append(rd)
        size += len(rd.document.text)
        if len(batch) >= max_docs or size >= max_chars:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _tag_one(rd: ReadDocument, pipeline, store: FolderStore | None, version: str, i: int,
             total: int) -> Iterator[TaggedItem | ProblemItem]:
    import time

    t0 = time.perf_counter()
    try:
        pipeline.load()
        spans = tuple(pipeline.run(rd.document))
    except Exception as e:  # no PHI in the reason
        log.error("tagging failed for document %d of %d (%s)", i, total, type(e).__name__)
        yield ProblemItem(rd.key, FileProblem(rd.document.path or Path(rd.key),
                                              f"tagging failed ({type(e).__name__})", warning=True))
        return
    if store:
        store.append_predictions([(rd.document.doc_id, spans)], version)
    yield TaggedItem(rd.key, rd.document.doc_id, spans, time.perf_counter() - t0)
