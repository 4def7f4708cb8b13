"""Reviewer decisions on the cluster: the same final spans as ``deid redact`` without ``--cluster``.

The client reads the decision log once and keeps only what workers need
(:func:`build_review_data`): for every document the reviewer touched (it has
decisions or a ``reviewed``/``exported`` mark; with ``--unreviewed skip`` only
marked ones), keyed by ``doc_id``, its decisions (offsets and labels, never
text), its mark, and the app's cached predictions for it. That payload is
shipped once per worker as a ``distributed.WorkerPlugin`` (kept by the
scheduler, so a restarted or late worker gets it too); tasks carry only a
:class:`ReviewRef` (plugin name, counts). A task reads its own documents,
finds the touched ones and computes their final spans with
``review.apply`` -- the code the local path and the app use -- then exports
with them as overrides. A task that cannot find the payload fails (it never
silently redacts without the decisions).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..review.apply import REVIEWED_MARKS, ReviewOverrides, overrides_for_documents, review_overrides, touched
from ..review.decisions import LogIndex
from ..types import Decision, Document, Span
from .manifest import fingerprint_of

log = logging.getLogger(__name__)

try:  # the base class when distributed is installed; a plain object otherwise
    from distributed.diagnostics.plugin import WorkerPlugin as _Base
except Exception:  # pragma: no cover - dask not installed: plugin unused
    _Base = object

STAT_KEYS = ("documents", "files", "from_cache", "tagged", "failed")


@dataclass(frozen=True, eq=False)
class ReviewData:
    """The part of a decision log a run needs, by doc_id (offsets and labels only, no text)."""

    decisions: dict[str, tuple[Decision, ...]] = field(default_factory=dict, repr=False)
    marks: dict[str, str] = field(default_factory=dict, repr=False)
    # pipeline version (review.store.pipeline_version) -> doc_id -> the app's cached predictions
    predictions: dict[str, dict[str, tuple[Span, ...]]] = field(default_factory=dict, repr=False)
    reviewed_only: bool = False
    log_name: str = ""

    def __repr__(self) -> str:  # never the decisions (Dask may print task arguments)
        return f"ReviewData({self.documents} document(s), reviewed_only={self.reviewed_only})"

    @property
    def documents(self) -> int:
        return len(set(self.decisions) | set(self.marks))

    @property
    def fingerprint(self) -> str:
        """Changes whenever a final span could (decisions, marks, cached predictions, reviewed_only)."""
        return fingerprint_of({
            "reviewed_only": self.reviewed_only,
            "decisions": {k: [d.to_json() for d in v] for k, v in sorted(self.decisions.items())},
            "marks": dict(sorted(self.marks.items())),
            "predictions": {v: {k: [s.to_json() for s in spans] for k, spans in sorted(c.items())}
                            for v, c in sorted(self.predictions.items())},
        })

    def index(self) -> LogIndex:
        """The payload as a ``LogIndex`` (built once per process; ``review.apply`` only reads it)."""
        idx = self.__dict__.get("_index")
        if idx is None:
            idx = LogIndex()
            for doc_id, ds in self.decisions.items():
                idx.add([f"{doc_id[:8]}-{i}" for i in range(len(ds))], list(ds))
            for doc_id, m in self.marks.items():
                idx.mark(doc_id, m)
            object.__setattr__(self, "_index", idx)
        return idx

    def __getstate__(self) -> dict:  # ship the payload, not the derived index
        return {k: v for k, v in self.__dict__.items() if k != "_index"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def cache_for(self, pipeline: Any) -> dict[str, tuple[Span, ...]]:
        from ..review.store import pipeline_version

        return self.predictions.get(pipeline_version(pipeline), {})


def build_review_data(index: LogIndex, *, reviewed_only: bool, cache_folder: Path | None = None,
                      log_name: str = "") -> ReviewData:
    """Keep the touched documents' decisions and marks and their predictions cached for ``cache_folder``."""
    ids = set(index.marks) | {d for d, ds in index.decisions.items() if ds}
    keep = sorted(d for d in ids if touched(index, d, reviewed_only))
    decisions = {d: tuple(index.decisions[d]) for d in keep if index.decisions.get(d)}
    marks = {d: index.marks[d] for d in keep if index.marks.get(d) in REVIEWED_MARKS}
    predictions: dict[str, dict[str, tuple[Span, ...]]] = {}
    if keep and cache_folder is not None:
        predictions = _cached(Path(cache_folder), set(keep))
    return ReviewData(decisions, marks, predictions, reviewed_only, log_name)


def _cached(folder: Path, wanted: set[str]) -> dict[str, dict[str, tuple[Span, ...]]]:
    """The app's prediction cache of ``folder`` for ``wanted`` doc_ids, per pipeline version (never creates it)."""
    from ..resources import user_path
    from ..review.decisions import iter_records
    from ..review.store import folder_key

    path = user_path("folders", folder_key(folder)) / "predictions.jsonl"
    out: dict[str, dict[str, tuple[Span, ...]]] = {}
    try:
        if not path.is_file():
            return out
        for rec in iter_records(path):  # as FolderStore.load_predictions: the last record of a doc_id wins
            doc_id, version = str(rec.get("doc_id", "")), rec.get("version")
            if doc_id not in wanted or not isinstance(version, str):
                continue
            try:
                out.setdefault(version, {})[doc_id] = tuple(Span.from_json(s) for s in rec["spans"])
            except (KeyError, TypeError, ValueError):
                continue
    except OSError:
        return {}
    return out


# --- shipping -------------------------------------------------------------------------------

@dataclass(frozen=True)
class ReviewRef:
    """What a task carries: where to find the payload on its worker (no decisions)."""

    name: str
    fingerprint: str
    documents: int


_LOCAL: dict[str, ReviewData] = {}


def plugin_name(data: ReviewData, run_id: str) -> str:
    return f"deid-review-{data.fingerprint[:12]}-{run_id}"


class ReviewPlugin(_Base):  # type: ignore[misc, valid-type]
    """Holds the run's ``ReviewData`` on every worker (set up again on restarted or joining workers)."""

    def __init__(self, name: str, data: ReviewData):
        self.name = name
        self.data = data

    def __repr__(self) -> str:
        return f"ReviewPlugin({self.name}, {self.data!r})"

    def setup(self, worker: Any = None) -> None:
        pass


def publish(data: ReviewData, run_id: str, client: Any = None) -> ReviewRef:
    """Make ``data`` available to the tasks (this process, or every worker of ``client``)."""
    ref = ReviewRef(plugin_name(data, run_id), data.fingerprint, data.documents)
    if client is None:
        _LOCAL[ref.name] = data
    else:
        client.register_plugin(ReviewPlugin(ref.name, data))
    return ref


def withdraw(ref: ReviewRef, client: Any = None) -> None:
    """Free the payload after the run."""
    _LOCAL.pop(ref.name, None)
    if client is not None:
        try:
            client.unregister_worker_plugin(ref.name)
        except Exception:  # the run's result does not depend on it
            log.debug("could not unregister the review plugin")


def resolve(ref: ReviewRef) -> ReviewData:
    """The payload behind ``ref`` on this worker (or in this process); RuntimeError if missing."""
    from .plugin import _current_worker

    w = _current_worker()
    if w is not None:
        plugin = getattr(w, "plugins", {}).get(ref.name)
        if plugin is not None:
            return plugin.data
    data = _LOCAL.get(ref.name)
    if data is None or data.fingerprint != ref.fingerprint:
        raise RuntimeError("the reviewer decisions of this run are not available on this worker")
    return data


# --- on the worker -----------------------------------------------------------------------

def stats(res: ReviewOverrides) -> dict[str, int]:
    return {k: int(getattr(res, k)) for k in STAT_KEYS}


def folder_overrides(in_dir: Path, rels: Sequence[str], read: Callable[[Path], list[Document]], pipeline: Any,
                     ref: ReviewRef) -> tuple[dict[str, list[Span]], dict[str, int]]:
    """Final spans of the touched documents in these files (as the local path computes them)."""
    data = resolve(ref)
    res = review_overrides(Path(in_dir), read, [Path(in_dir) / r for r in rels], data.index(), lambda: pipeline,
                           reviewed_only=data.reviewed_only, cache=data.cache_for(pipeline))
    return res.overrides, stats(res)


def document_overrides(documents: Iterable[tuple[str, Document]], pipeline: Any,
                       ref: ReviewRef) -> tuple[dict[str, list[Span]], dict[str, int]]:
    """Final spans of the touched documents among ``(key, document)`` pairs (table rows)."""
    data = resolve(ref)
    docs = list(documents)
    res = overrides_for_documents(docs, data.index(), lambda: pipeline, reviewed_only=data.reviewed_only,
                                  get_cache=data.cache_for)
    res.files = 0
    return res.overrides, stats(res)


def merge_stats(records: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    out = {k: 0 for k in STAT_KEYS}
    for r in records:
        for k in STAT_KEYS:
            out[k] += int((r.get("review") or {}).get(k, 0))
    return out


def audit_facts(data: ReviewData, merged: Mapping[str, int]) -> dict[str, Any]:
    """The audit's ``review`` block, with the keys the local path writes (counts only)."""
    return {"decisions": "applied", "decision_log": data.log_name, "reviewed_only": data.reviewed_only,
            "predictions_from_cache": merged["from_cache"], "predictions_tagged": merged["tagged"],
            "reviewed_documents_not_tagged": merged["failed"]}

