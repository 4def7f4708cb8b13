"""Review decisions -> gold training examples (and BRAT / JSONL export of them).

What is taught, and what is not:

- Accepted, added and relabelled spans are gold PHI with their (final) label.
- Rejected spans are *negative examples*: their tokens are labelled ``O``.
- Unreviewed text is never taught as "not PHI". A document is cut into
  *blocks*: sentences (``tokenize.sentence_spans``, never crossing a line),
  merged when a span crosses them. A block is trainable when it holds no
  pending prediction and either the document is marked reviewed/exported or
  the block holds at least one decision. Maximal runs of trainable blocks
  become examples (text slices with shifted spans); everything else is left
  out of training entirely (no loss at all).

So a document marked reviewed teaches everything except the sentences where
a prediction was left pending; a document still in review teaches only the
sentences the reviewer decided something in, completely.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from ..model.data import Example
from ..review.decisions import LogIndex, iter_records, load_log
from ..review.state import ACCEPTED, ADDED, PENDING, REJECTED, RELABELLED, ReviewedSpan, apply_decisions
from ..tokenize import sentence_spans
from ..types import AnnotatedDocument, Decision, Document, Span

log = logging.getLogger(__name__)

CONFIRMED = (ACCEPTED, ADDED, RELABELLED)
ORIGIN = "reviews"


@dataclass
class ReviewedDoc:
    """A document with its predictions, its decisions and its status mark."""

    doc_id: str
    text: str
    name: str = ""
    predicted: tuple[Span, ...] = ()
    decisions: list[Decision] = field(default_factory=list)
    mark: str | None = None  # "reviewed" | "exported" | None

    @property
    def fully_reviewed(self) -> bool:
        return self.mark in ("reviewed", "exported")

    def reviewed_spans(self) -> list[ReviewedSpan]:
        return apply_decisions(self.predicted, self.decisions, len(self.text))


@dataclass
class ReviewExample(Example):
    """An ``Example`` cut from a reviewed document, with where it came from."""

    doc_id: str = ""
    offset: int = 0  # where ``text`` starts in the document
    rejected: list[Span] = field(default_factory=list)  # negative examples (taught as O), shifted


# --- blocks -----------------------------------------------------------------

def _blocks(text: str, spans: Sequence[ReviewedSpan]) -> list[list[int]]:
    """Sentence blocks ``[start, end]``; sentences joined by a span are merged and
    every block is widened to contain the spans starting in it."""
    import bisect

    units = [list(u) for u in sentence_spans(text)]
    if not units:
        return []
    starts = [u[0] for u in units]
    links = [False] * len(units)  # links[k]: unit k is merged with unit k + 1
    for r in spans:
        i = max(0, bisect.bisect_right(starts, r.start) - 1)
        j = max(0, bisect.bisect_left(starts, r.end) - 1)
        for k in range(i, j):
            links[k] = True
    merged: list[list[int]] = []
    cur = list(units[0])
    for k in range(1, len(units)):
        if links[k - 1]:
            cur[1] = max(cur[1], units[k][1])
        else:
            merged.append(cur)
            cur = list(units[k])
    merged.append(cur)
    bstarts = [b[0] for b in merged]
    for r in spans:
        b = merged[max(0, bisect.bisect_right(bstarts, r.start) - 1)]
        b[0], b[1] = min(b[0], r.start), max(b[1], r.end)
    return merged


def trainable_regions(text: str, reviewed: Sequence[ReviewedSpan], fully_reviewed: bool) -> list[tuple[int, int]]:
    """Character ranges of ``text`` that may be trained on (see module docstring)."""
    blocks = _blocks(text, reviewed)
    if not blocks:
        return []
    ok = []
    for a, b in blocks:
        inside = [r for r in reviewed if r.start < b and a < r.end]
        pending = any(r.verdict == PENDING for r in inside)
        decided = any(r.verdict != PENDING for r in inside)
        ok.append(not pending and (fully_reviewed or decided))
    regions: list[tuple[int, int]] = []
    cur: list[int] | None = None
    for (a, b), good in zip(blocks, ok):
        if good:
            if cur is None:
                cur = [a, b]
            else:
                cur[1] = b
        elif cur is not None:
            regions.append((cur[0], cur[1]))
            cur = None
    if cur is not None:
        regions.append((cur[0], cur[1]))
    return regions


def examples_from_review(rd: ReviewedDoc) -> list[ReviewExample]:
    """The training examples one reviewed document yields (possibly none)."""
    reviewed = rd.reviewed_spans()
    if not rd.fully_reviewed and not any(r.verdict != PENDING for r in reviewed):
        return []
    regions = trainable_regions(rd.text, reviewed, rd.fully_reviewed)
    out = []
    gold = sorted((r.span for r in reviewed if r.verdict in CONFIRMED), key=lambda s: (s.start, s.end))
    neg = [r.span for r in reviewed if r.verdict == REJECTED]
    whole = len(regions) == 1 and not rd.text[: regions[0][0]].strip() and not rd.text[regions[0][1]:].strip()
    for a, b in regions:
        if whole:
            a, b = 0, len(rd.text)
        spans = [Span(s.start - a, s.end - a, s.label, "user:review") for s in gold if a <= s.start and s.end <= b]
        rej = [Span(s.start - a, s.end - a, s.label, s.source) for s in neg if a <= s.start and s.end <= b]
        name = rd.name or rd.doc_id[:16]
        if not whole:
            name = f"{name}@{a}-{b}"
        out.append(ReviewExample(rd.text[a:b], spans, name, ORIGIN, doc_id=rd.doc_id, offset=a, rejected=rej))
    return out


def examples_from_reviews(docs: Iterable[ReviewedDoc]) -> list[ReviewExample]:
    out: list[ReviewExample] = []
    for rd in docs:
        out.extend(examples_from_review(rd))
    return out


# --- held-back split ----------------------------------------------------------

HOLDOUT_SEED = 7
HOLDOUT_FRACTION = 0.2


def _h(doc_id: str, seed: int) -> int:
    return int(hashlib.sha256(f"{seed}:{doc_id}".encode()).hexdigest()[:12], 16)


def holdout_ids(doc_ids: Iterable[str], seed: int = HOLDOUT_SEED, fraction: float = HOLDOUT_FRACTION) -> set[str]:
    """The reviewed documents held back for comparison (never trained on).

    A document is held back when a seeded hash of its id falls under
    ``fraction``: fixed per document, so it never moves between train and
    held-back as more documents are reviewed. With three or more documents and
    none selected, the one with the smallest hash is held back.
    """
    ids = sorted(set(doc_ids))
    cut = int(fraction * (1 << 48))
    out = {d for d in ids if _h(d, seed) < cut}
    if not out and len(ids) >= 3:
        out = {min(ids, key=lambda d: _h(d, seed))}
    return out


def split_examples(examples: Sequence[ReviewExample], seed: int = HOLDOUT_SEED,
                   fraction: float = HOLDOUT_FRACTION) -> tuple[list[ReviewExample], list[ReviewExample]]:
    """(train, held_back) by document id."""
    held = holdout_ids((e.doc_id for e in examples), seed, fraction)
    return [e for e in examples if e.doc_id not in held], [e for e in examples if e.doc_id in held]


# --- where reviewed documents come from ----------------------------------------

def from_session(session) -> list[ReviewedDoc]:
    """Reviewed documents of an open ``ReviewSession`` (decided or marked)."""
    out, seen = [], set()
    for e in session.entries:
        if e.document is None or e.doc_id in seen:
            continue
        decisions = session.index.for_doc(e.doc_id)
        mark = session.index.marks.get(e.doc_id)
        if not decisions and mark not in ("reviewed", "exported"):
            continue
        seen.add(e.doc_id)
        out.append(ReviewedDoc(e.doc_id, e.text, e.key, tuple(e.predicted or ()), decisions, mark))
    return out


def known_folders() -> list[Path]:
    """Folders the app has opened (from the per-folder manifests), existing ones only."""
    from ..resources import user_path

    root = user_path("folders")
    out = []
    if root.is_dir():
        for m in sorted(root.glob("*/manifest.json")):
            try:
                f = Path(json.loads(m.read_text(encoding="utf-8")).get("folder", ""))
            except (OSError, ValueError):
                continue
            if str(f) and f.is_dir() and f not in out:
                out.append(f)
    return out


def _latest_predictions(path: Path) -> dict[str, tuple[Span, ...]]:
    out: dict[str, tuple[Span, ...]] = {}
    for rec in iter_records(path):
        try:
            out[str(rec["doc_id"])] = tuple(Span.from_json(s) for s in rec["spans"])
        except (KeyError, TypeError, ValueError):
            continue
    return out


def from_folders(folders: Iterable[Path] | None = None, index: LogIndex | None = None,
                 log_path: Path | None = None) -> list[ReviewedDoc]:
    """Reviewed documents found in ``folders`` (default: every folder the app opened).

    Decisions come from the user's decision log; predictions from each folder's
    cache (the latest cached prediction of the document, whatever the model).
    """
    from ..io.folder import iter_folder
    from ..review.store import FolderStore

    idx = index if index is not None else load_log(log_path)
    wanted = {d for d, ds in idx.decisions.items() if ds} | {d for d, m in idx.marks.items()
                                                             if m in ("reviewed", "exported")}
    out: list[ReviewedDoc] = []
    seen: set[str] = set()
    for folder in (list(folders) if folders is not None else known_folders()):
        folder = Path(folder)
        if not folder.is_dir():
            log.warning("reviewed folder not found: skipped")
            continue
        preds = _latest_predictions(FolderStore(folder).predictions_path)
        for item in iter_folder(folder):
            if not isinstance(item, Document) or item.doc_id not in wanted or item.doc_id in seen:
                continue
            seen.add(item.doc_id)
            out.append(ReviewedDoc(item.doc_id, item.text, str(item.metadata.get("relpath", item.name)),
                                   preds.get(item.doc_id, ()), idx.for_doc(item.doc_id),
                                   idx.marks.get(item.doc_id)))
    return out


# --- export -----------------------------------------------------------------------

def _safe_name(name: str) -> str:
    keep = "".join(c if (c.isalnum() or c in "-_.@") else "_" for c in name)
    return keep.strip("._") or "doc"


def to_annotated(examples: Iterable[ReviewExample]) -> Iterator[AnnotatedDocument]:
    used: set[str] = set()
    for e in examples:
        name = _safe_name(e.name)
        base, n = name, 1
        while name in used:
            n += 1
            name = f"{base}-{n}"
        used.add(name)
        yield AnnotatedDocument(Document(e.text, name=name), tuple(e.spans))


def export_examples(examples: Sequence[ReviewExample], out: Path, fmt: str) -> int:
    """Write examples as a BRAT folder (``fmt='brat'``) or one JSONL file (``'jsonl'``)."""
    out = Path(out)
    if fmt == "brat":
        from ..io.brat import write_brat_folder

        return write_brat_folder(out, to_annotated(examples))
    if fmt == "jsonl":
        from ..io.jsonl import Record, write_jsonl

        return write_jsonl(out, (Record.from_annotated(d) for d in to_annotated(examples)))
    raise ValueError(f"unknown format {fmt!r} (brat or jsonl)")


def collect_reviewed(session=None, other_folders: bool = True) -> list[ReviewedDoc]:
    """Reviewed documents of the open ``session`` (its in-memory state wins) plus, when
    ``other_folders``, those of every other folder the app opened (read from disk)."""
    docs = from_session(session) if session is not None else []
    if other_folders:
        seen = {d.doc_id for d in docs}
        here = Path(session.folder).resolve() if session is not None else None
        others = [f for f in known_folders() if here is None or f.resolve() != here]
        if others:
            docs += [d for d in from_folders(others) if d.doc_id not in seen]
    return docs
