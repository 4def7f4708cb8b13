"""The append-only review log: every decision is on disk before the UI moves on.

One JSONL file under the user data directory (``decisions/decisions.jsonl``)
holds the decisions of every folder, keyed by the document's content hash
(``doc_id``), so a renamed or moved file keeps its decisions and a file whose
text changed does not inherit decisions made on other text.

Line kinds (``kind`` key; absent means ``decision``):

- ``decision``: ``Decision.to_json()`` plus a unique ``id``.
- ``undo``: ``{"kind": "undo", "ids": [...], "at": t}`` withdraws earlier
  decisions. Redo appends the same decisions again with new ids. The file is
  never rewritten, so undo is itself a fact in the log.
- ``status``: ``{"kind": "status", "doc_id", "status", "at"}`` with status
  ``reviewed`` | ``unreviewed`` | ``exported``.

Each append is written, flushed and ``os.fsync``-ed at once. Reading skips a
torn line (a kill mid-write) and the next append starts on a fresh line.
Lines carry offsets and labels only; the span text is never written here.
Readers must use :func:`load_log` (raw ``undo`` lines are not decisions).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from ..resources import user_path
from ..types import Decision

log = logging.getLogger(__name__)

STATUS_MARKS = ("reviewed", "unreviewed", "exported")


def default_log_path() -> Path:
    p = user_path("decisions", "decisions.jsonl")
    p.parent.mkdir(parents=True, exist_ok=True)
    return p


def new_id() -> str:
    return uuid.uuid4().hex[:16]


class DecisionLog:
    """Appends decisions, undos and status marks durably (write, flush, fsync)."""

    def __init__(self, path: Path | None = None):
        self.path = Path(path) if path else default_log_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._fh = None

    def _open(self):
        if self._fh is None:
            # A torn last line (killed mid-write) must not swallow the next record.
            needs_newline = False
            try:
                with open(self.path, "rb") as f:
                    f.seek(0, os.SEEK_END)
                    if f.tell() > 0:
                        f.seek(-1, os.SEEK_END)
                        needs_newline = f.read(1) != b"\n"
            except FileNotFoundError:
                pass
            self._fh = open(self.path, "a", encoding="utf-8", newline="\n")
            if needs_newline:
                self._fh.write("\n")
        return self._fh

    def _write(self, records: Iterable[dict]) -> None:
        with self._lock:
            fh = self._open()
            for r in records:
                fh.write(json.dumps(r, ensure_ascii=True, separators=(",", ":")) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def append(self, decisions: Iterable[Decision]) -> list[str]:
        """Append decisions durably; return their ids (for undo)."""
        recs = []
        for d in decisions:
            recs.append({"id": new_id(), **d.to_json()})
        if recs:
            self._write(recs)
        return [r["id"] for r in recs]

    def undo(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        if ids:
            self._write([{"kind": "undo", "ids": ids, "at": time.time()}])

    def mark(self, doc_id: str, status: str) -> None:
        if status not in STATUS_MARKS:
            raise ValueError(f"status must be one of {STATUS_MARKS}")
        self._write([{"kind": "status", "doc_id": doc_id, "status": status, "at": time.time()}])

    def close(self) -> None:
        with self._lock:
            if self._fh is not None:
                self._fh.close()
                self._fh = None


def iter_records(path: Path) -> Iterator[dict]:
    """Parsed lines of a log; torn or corrupt lines are skipped (and counted in the log file)."""
    try:
        f = open(path, "r", encoding="utf-8", errors="replace", newline="\n")
    except FileNotFoundError:
        return
    bad = 0
    with f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                bad += 1
                continue
            if isinstance(rec, dict):
                yield rec
            else:
                bad += 1
    if bad:
        log.warning("decision log %s: skipped %d unreadable line(s)", path.name, bad)


@dataclass
class LogIndex:
    """The effective content of a log: decisions per document (undos applied) and status marks."""

    decisions: dict[str, list[Decision]] = field(default_factory=dict)
    ids: dict[str, list[str]] = field(default_factory=dict)  # parallel to decisions
    marks: dict[str, str] = field(default_factory=dict)

    def for_doc(self, doc_id: str) -> list[Decision]:
        return list(self.decisions.get(doc_id, ()))

    def add(self, ids: list[str], decisions: list[Decision]) -> None:
        for i, d in zip(ids, decisions):
            self.decisions.setdefault(d.doc_id, []).append(d)
            self.ids.setdefault(d.doc_id, []).append(i)

    def remove(self, ids: Iterable[str]) -> None:
        gone = set(ids)
        for doc_id in list(self.ids):
            keep = [(i, d) for i, d in zip(self.ids[doc_id], self.decisions[doc_id]) if i not in gone]
            self.ids[doc_id] = [i for i, _ in keep]
            self.decisions[doc_id] = [d for _, d in keep]

    def mark(self, doc_id: str, status: str) -> None:
        if status == "unreviewed":
            self.marks.pop(doc_id, None)
        else:
            self.marks[doc_id] = status


def load_log(path: Path | None = None) -> LogIndex:
    """Read a log into its effective state (decisions in log order, undos applied)."""
    path = Path(path) if path else default_log_path()
    idx = LogIndex()
    where: dict[str, str] = {}  # id -> doc_id
    for rec in iter_records(path):
        kind = rec.get("kind", "decision")
        try:
            if kind == "decision":
                d = Decision.from_json(rec)
                rid = str(rec.get("id") or new_id())
                idx.add([rid], [d])
                where[rid] = d.doc_id
            elif kind == "undo":
                ids = [str(i) for i in rec.get("ids", [])]
                for doc_id in {where[i] for i in ids if i in where}:
                    keep = [(i, d) for i, d in zip(idx.ids[doc_id], idx.decisions[doc_id]) if i not in ids]
                    idx.ids[doc_id] = [i for i, _ in keep]
                    idx.decisions[doc_id] = [d for _, d in keep]
            elif kind == "status":
                idx.mark(str(rec["doc_id"]), str(rec["status"]))
        except (KeyError, TypeError, ValueError):
            log.warning("decision log %s: skipped an invalid record", path.name)
    return idx
