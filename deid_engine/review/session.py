"""A folder under review: documents, predictions, decisions, undo/redo (no Qt).

Undo/redo: an in-memory stack of steps. A step is the list of decisions one
user action appended (accept-all and "apply everywhere" are one step). Undo
appends an ``undo`` record naming those decision ids; redo appends the same
decisions again (new ids). The log file is never rewritten, and the stack is
not kept across sessions (the decisions are).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..types import Decision, Document, Span
from .decisions import DecisionLog, LogIndex, load_log
from .state import (EXPORTED, NOT_TAGGED, PENDING, REJECTED, REVIEWED, ReviewedSpan, apply_decisions,
                    apply_incremental,
                    document_status, final_spans, occurrences)
from .store import FolderStore


@dataclass(eq=False)
class Entry:
    """One row of the document list."""

    key: str
    path: Path | None = None
    document: Document | None = None
    predicted: tuple[Span, ...] | None = None  # None: not tagged yet
    problem: str = ""  # a reason the file cannot be reviewed
    warning: str = ""  # read with a caveat
    changed: bool = False  # text differs from what the last session saw
    _reviewed: list[ReviewedSpan] | None = field(default=None, repr=False)
    _counts: tuple[int, int] | None = field(default=None, repr=False)
    _keys: list[tuple[int, int]] | None = field(default=None, repr=False)
    _preds: dict | None = field(default=None, repr=False)
    _pred_keys: list[tuple[int, int]] | None = field(default=None, repr=False)

    def invalidate(self) -> None:
        self._reviewed = None
        self._counts = None
        self._keys = None

    @property
    def name(self) -> str:
        return self.key

    @property
    def doc_id(self) -> str:
        return self.document.doc_id if self.document else ""

    @property
    def text(self) -> str:
        return self.document.text if self.document else ""


@dataclass
class Step:
    doc_ids: set[str]
    ids: list[str]
    decisions: list[Decision]


class ReviewSession:
    """Everything the review window shows about one folder, with durable decisions."""

    def __init__(self, folder: Path, log: DecisionLog | None = None, index: LogIndex | None = None,
                 store: FolderStore | None = None, reviewer: str = ""):
        self.folder = Path(folder)
        self.log = log or DecisionLog()
        self.index = index if index is not None else load_log(self.log.path)
        self.store = store or FolderStore(self.folder)
        self.reviewer = reviewer
        self.entries: list[Entry] = []
        self.by_key: dict[str, Entry] = {}
        self.by_doc: dict[str, list[Entry]] = {}
        self._manifest = self.store.load_manifest()
        self._undo: list[Step] = []
        self._redo: list[Step] = []

    # --- filling -------------------------------------------------------
    def _entry(self, key: str) -> tuple[Entry, bool]:
        e = self.by_key.get(key)
        if e is not None:
            return e, False
        e = Entry(key)
        self.by_key[key] = e
        self.entries.append(e)
        return e, True

    def add_document(self, key: str, doc: Document, cached: tuple[Span, ...] | None = None) -> tuple[Entry, bool]:
        e, new = self._entry(key)
        e.document, e.path, e.problem = doc, doc.path, ""
        e.predicted = cached
        e._preds = None
        e.invalidate()
        same = self.by_doc.setdefault(doc.doc_id, [])
        if e not in same:
            same.append(e)
        seen = self._manifest.get(key)
        if seen and seen.get("doc_id") != doc.doc_id:
            e.changed = True
            self._manifest[key] = {"doc_id": doc.doc_id, "changed_from": seen.get("doc_id")}
        elif seen and seen.get("changed_from"):
            e.changed = self.index.marks.get(doc.doc_id) not in ("reviewed", "exported")
        else:
            self._manifest[key] = {"doc_id": doc.doc_id}
        return e, new

    def add_problem(self, key: str, path: Path | None, reason: str, warning: bool = False) -> tuple[Entry, bool]:
        e, new = self._entry(key)
        e.path = path
        if warning:
            e.warning = reason
        else:
            e.problem = reason
        return e, new

    def set_predictions(self, key: str, spans: Iterable[Span]) -> Entry | None:
        e = self.by_key.get(key)
        if e is not None:
            e.predicted = tuple(spans)
            e._preds = None
            e.invalidate()
        return e

    def save_manifest(self) -> None:
        self.store.save_manifest(self._manifest)

    # --- reading state -------------------------------------------------
    def reviewed(self, e: Entry) -> list[ReviewedSpan]:
        if e.document is None:
            return []
        if e._reviewed is None:
            e._reviewed = apply_decisions(e.predicted or (), self.index.for_doc(e.doc_id), len(e.text))
            e._keys = [(r.start, r.end) for r in e._reviewed]
        return e._reviewed

    def _apply_cached(self, e: Entry, d: Decision) -> None:
        """Bring ``e``'s cached reviewed spans up to date with one new decision (or drop the cache)."""
        if e._reviewed is None or e._keys is None:
            return
        if d.span.end > len(e.text):
            return
        if e._preds is None:
            preds: dict = {}
            for s in e.predicted or ():
                preds.setdefault((s.start, s.end), s)
            e._preds = preds
            e._pred_keys = sorted(preds)
        if not apply_incremental(e._reviewed, e._keys, e._preds, e._pred_keys, d):
            e.invalidate()
        else:
            e._counts = None

    def counts(self, e: Entry) -> tuple[int, int]:
        """(spans not rejected, i.e. to be redacted; predictions still pending), cached."""
        if e._counts is None and e._reviewed is None and not self.index.decisions.get(e.doc_id):
            n = len(e.predicted or ())  # nothing decided: every (merged, disjoint) prediction is pending
            e._counts = (n, n)
        if e._counts is None:
            rs = self.reviewed(e)
            pending = sum(1 for r in rs if r.verdict == PENDING)
            rejected = sum(1 for r in rs if r.verdict == REJECTED)
            e._counts = (len(rs) - rejected, pending)
        return e._counts

    def status(self, e: Entry) -> str:
        if e.document is None:
            return NOT_TAGGED
        return document_status(e.predicted is not None, self.index.decisions.get(e.doc_id, ()),
                               self.index.marks.get(e.doc_id))

    def is_unreviewed(self, e: Entry) -> bool:
        return e.document is not None and self.status(e) not in (REVIEWED, EXPORTED)

    def final_spans(self, e: Entry, include_pending: bool = True, min_confidence: float = 0.0) -> list[Span]:
        return final_spans(self.reviewed(e), include_pending, min_confidence)

    def overrides(self, reviewed_only: bool = False) -> dict[str, list[Span]]:
        """Final spans for the export, by doc_id: documents the reviewer touched.

        A document counts when it has decisions or is marked reviewed
        (``reviewed_only``: only when marked). Its pending predictions are
        included (recall first). Untouched documents are left to the export's
        own ``unreviewed`` policy.
        """
        out: dict[str, list[Span]] = {}
        for e in self.entries:
            if e.document is None:
                continue
            marked = self.index.marks.get(e.doc_id) in ("reviewed", "exported")
            touched = marked or bool(self.index.decisions.get(e.doc_id))
            if (marked if reviewed_only else touched):
                out[e.doc_id] = self.final_spans(e, include_pending=True)
        return out

    # --- deciding ------------------------------------------------------
    def _invalidate(self, doc_ids: Iterable[str]) -> None:
        for d in doc_ids:
            for e in self.by_doc.get(d, ()):
                e.invalidate()

    def decide(self, decisions: list[Decision]) -> set[str]:
        """Append decisions (one undo step); return the affected doc ids."""
        if not decisions:
            return set()
        ids = self.log.append(decisions)
        self.index.add(ids, decisions)
        docs = {d.doc_id for d in decisions}
        self._undo.append(Step(docs, ids, decisions))
        self._redo.clear()
        for d in decisions:
            for e in self.by_doc.get(d.doc_id, ()):
                self._apply_cached(e, d)
        return docs

    def make(self, e: Entry, span: Span, verdict: str, previous_label: str = "") -> Decision:
        return Decision(e.doc_id, Span(span.start, span.end, span.label, span.source, span.confidence),
                        verdict, time.time(), self.reviewer, previous_label)

    def undo(self) -> set[str] | None:
        if not self._undo:
            return None
        step = self._undo.pop()
        self.log.undo(step.ids)
        self.index.remove(step.ids)
        self._redo.append(step)
        self._invalidate(step.doc_ids)
        return step.doc_ids

    def redo(self) -> set[str] | None:
        if not self._redo:
            return None
        step = self._redo.pop()
        now = time.time()
        again = [Decision(d.doc_id, d.span, d.verdict, now, d.reviewer, d.previous_label) for d in step.decisions]
        ids = self.log.append(again)
        self.index.add(ids, again)
        self._undo.append(Step(step.doc_ids, ids, again))
        self._invalidate(step.doc_ids)
        return step.doc_ids

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def mark(self, e: Entry, status: str) -> None:
        self.log.mark(e.doc_id, status)
        self.index.mark(e.doc_id, status)
        if status in ("reviewed", "exported"):
            e.changed = False

    # --- "apply to all occurrences" -------------------------------------
    def occurrence_decisions(self, needle: str, verdict: str, label: str,
                             entries: Iterable[Entry]) -> list[Decision]:
        """Decisions that repeat ``verdict`` on every whole-word occurrence of ``needle``.

        Accept/add: a predicted or added span exactly there is accepted with
        ``label``; elsewhere a span is added. Reject: spans exactly there are
        rejected. Occurrences overlapping a different span are left alone.
        """
        out: list[Decision] = []
        for e in entries:
            if e.document is None:
                continue
            rs = {(r.start, r.end): r for r in self.reviewed(e)}
            spans_sorted = sorted(rs.values(), key=lambda r: r.start)
            for a, b in occurrences(e.text, needle):
                r = rs.get((a, b))
                if verdict == "reject":
                    if r is not None and r.verdict != REJECTED:
                        out.append(self.make(e, r.span, "reject"))
                    continue
                if r is not None:
                    if r.verdict == PENDING or r.verdict == REJECTED or r.label != label:
                        out.append(self.make(e, r.span.with_label(label), "accept",
                                             previous_label=r.label if r.label != label else ""))
                    continue
                if any(x.start < b and a < x.end and x.verdict != REJECTED for x in spans_sorted):
                    continue
                out.append(self.make(e, Span(a, b, label, "user:review"), "add"))
        return out
