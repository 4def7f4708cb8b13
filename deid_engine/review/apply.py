"""Reviewer decisions for an export made outside the app (``deid redact``).

The app's export passes ``ReviewSession.overrides()`` to ``export_folder``.
:func:`review_overrides` builds the same mapping without the GUI: it reads
the input folder the way the export reads it (so ``doc_id`` is per extracted
document: one per file, one per CSV cell, ...), puts every document the
reviewer touched (decisions, or a ``reviewed``/``exported`` mark) into a
``ReviewSession`` with the pipeline's predictions, and returns that session's
``overrides()``. Decisions are applied by the very code the app uses
(``state.apply_decisions`` then ``final_spans(include_pending=True)``).

Predictions come from the folder's review cache (``store.FolderStore``) when
it holds them for this exact pipeline version, as in the app; otherwise the
document is tagged now. Either way a decision lands: an ``add`` needs no
prediction, and a ``reject`` of a span the model no longer predicts changes
nothing. A touched document that cannot be tagged is left out (the export
then treats it as unreviewed and fails or skips its file: never a silent
redaction with the predictions missing). Nothing here writes to the log, the
cache or the manifest. No PHI in any message.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..types import Document, Span
from .decisions import LogIndex
from .session import ReviewSession
from .store import FolderStore, folder_key, pipeline_version

log = logging.getLogger(__name__)

REVIEWED_MARKS = ("reviewed", "exported")


@dataclass
class ReviewOverrides:
    """Final spans by doc_id for the export, and counts for messages and the audit (no text)."""

    overrides: dict[str, list[Span]] = field(default_factory=dict)
    documents: int = 0        # documents (of the input) whose final spans come from the review
    files: int = 0            # files holding at least one of them
    from_cache: int = 0       # touched documents whose predictions came from the review cache
    tagged: int = 0           # touched documents tagged now
    failed: int = 0           # touched documents that could not be tagged (left to the export)
    unreadable: int = 0       # files that could not be read here (the export reports them)


class _NoStore:
    """Stands in for the folder store: no manifest is read or written."""

    def load_manifest(self) -> dict[str, dict]:
        return {}

    def save_manifest(self, documents: dict[str, dict]) -> None:
        pass


def touched(index: LogIndex, doc_id: str, reviewed_only: bool = False) -> bool:
    """True when the export takes ``doc_id``'s spans from the review (as ``ReviewSession.overrides``)."""
    marked = index.marks.get(doc_id) in REVIEWED_MARKS
    return marked if reviewed_only else (marked or bool(index.decisions.get(doc_id)))


def has_review_data(index: LogIndex) -> bool:
    """True if the log holds any decision or reviewed/exported mark."""
    return any(index.decisions.values()) or any(m in REVIEWED_MARKS for m in index.marks.values())


def cached_predictions(folder: Path, pipeline: Any) -> dict[str, tuple[Span, ...]]:
    """The app's prediction cache for ``folder`` and this pipeline version ({} if none; never creates it)."""
    from ..resources import user_path

    root = user_path("folders", folder_key(folder))
    if not (root / "predictions.jsonl").is_file():
        return {}
    try:
        return FolderStore(folder, root=root).load_predictions(pipeline_version(pipeline))
    except OSError:
        return {}


def _tag(pipeline: Any, docs: Sequence[Document], batch: int = 16) -> list[list[Span] | None]:
    """Predictions per document (None where tagging failed), batched like the app's scan."""
    out: list[list[Span] | None] = []
    for i in range(0, len(docs), batch):
        part = list(docs[i:i + batch])
        try:
            out.extend(list(s) for s in pipeline.run_many(part))
            continue
        except Exception:
            pass
        for d in part:
            try:
                out.append(list(pipeline.run(d)))
            except Exception as e:  # no PHI in the message
                log.error("tagging a reviewed document failed (%s)", type(e).__name__)
                out.append(None)
    return out


def review_overrides(in_dir: Path, read: Callable[[Path], list[Document]], files: Iterable[Path],
                     index: LogIndex, get_pipeline: Callable[[], Any], *, reviewed_only: bool = False,
                     use_cache: bool = True,
                     cache: Mapping[str, Sequence[Span]] | None = None) -> ReviewOverrides:
    """What ``ReviewSession.overrides(reviewed_only)`` gives for ``in_dir`` after the app's review.

    ``read(path) -> list[Document]`` must be the export's reader (same
    options), ``files`` the export's file list, ``get_pipeline()`` the run's
    pipeline (same preset and language); it is called only when some
    document of the folder was touched. ``cache`` (doc_id -> predictions of
    this pipeline version) replaces the app's cache of ``in_dir`` (a cluster
    worker gets it from the client); ``use_cache=False`` tags everything.
    """
    in_dir = Path(in_dir)
    unreadable = 0
    found: list[tuple[str, Document]] = []
    files_of: dict[str, set[str]] = {}
    for path in files:
        rel = Path(path).relative_to(in_dir).as_posix()
        try:
            docs = read(Path(path))
        except Exception:  # the export reports unreadable files itself
            unreadable += 1
            continue
        seen = 0
        for doc in docs:
            seen += 1
            if not doc.text.strip():  # the session never lists empty documents
                continue
            if touched(index, doc.doc_id, reviewed_only):
                key = rel if seen == 1 else f"{rel}#{seen}"
                found.append((key, doc))
                files_of.setdefault(doc.doc_id, set()).add(rel)

    def get_cache(pipeline: Any) -> Mapping[str, Sequence[Span]]:
        if cache is not None:
            return cache
        return cached_predictions(in_dir, pipeline) if use_cache else {}

    res = overrides_for_documents(found, index, get_pipeline, reviewed_only=reviewed_only, folder=in_dir,
                                  get_cache=get_cache)
    res.unreadable = unreadable
    res.files = len({r for d, rels in files_of.items() if d in res.overrides for r in rels})
    return res


def overrides_for_documents(documents: Iterable[tuple[str, Document]], index: LogIndex,
                            get_pipeline: Callable[[], Any], *, reviewed_only: bool = False,
                            folder: Path | None = None,
                            get_cache: Callable[[Any], Mapping[str, Sequence[Span]]] | None = None
                            ) -> ReviewOverrides:
    """``ReviewSession.overrides`` for ``(key, document)`` pairs (keys unique, e.g. ``rel#n``).

    Only documents the reviewer touched (and with text) are considered;
    ``get_pipeline()`` is called only if there is one. Predictions come from
    ``get_cache(pipeline)`` (doc_id -> spans) when it holds them, else the
    pipeline tags them now. ``files`` of the result is left at 0.
    """
    res = ReviewOverrides()
    found = [(k, d) for k, d in documents if d.text.strip() and touched(index, d.doc_id, reviewed_only)]
    if not found:
        return res
    pipeline = get_pipeline()
    cache = get_cache(pipeline) if get_cache is not None else {}
    preds: dict[str, list[Span] | None] = {}
    todo: list[Document] = []
    queued: set[str] = set()
    for _, doc in found:
        if doc.doc_id in preds or doc.doc_id in queued:
            continue
        hit = cache.get(doc.doc_id)
        if hit is not None:
            preds[doc.doc_id] = list(hit)
            res.from_cache += 1
        else:
            todo.append(doc)
            queued.add(doc.doc_id)
    if todo:
        for doc, spans in zip(todo, _tag(pipeline, todo)):
            preds[doc.doc_id] = spans
            if spans is None:
                res.failed += 1
            else:
                res.tagged += 1
    session = ReviewSession(Path(folder) if folder is not None else Path("."), log=_ReadOnlyLog(), index=index,
                            store=_NoStore())
    for key, doc in found:
        spans = preds.get(doc.doc_id)
        if spans is None:
            continue
        session.add_document(key, doc, cached=tuple(spans))
    res.overrides = session.overrides(reviewed_only=reviewed_only)
    res.documents = sum(1 for _, d in found if d.doc_id in res.overrides)
    return res


class _ReadOnlyLog:
    """A log the session may hold but never writes to (``deid redact`` only reads decisions)."""

    path = None

    def append(self, decisions):  # pragma: no cover - never called by review_overrides
        raise RuntimeError("read-only decision log")

    undo = mark = append

    def close(self) -> None:
        pass
