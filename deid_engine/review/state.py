"""Applying review decisions to predicted spans (pure functions).

Verdict rules, applied in log order, keyed by the span's ``(start, end)``:

- ``accept``/``add`` at a predicted position: ``accepted`` (``relabelled`` if
  the label differs); elsewhere: ``added`` (source ``user:review``).
- ``relabel``: ``relabelled`` on a prediction, ``added`` with the new label on
  an added span.
- ``reject``: a prediction becomes ``rejected`` (kept, shown struck out);
  an added span disappears.
- A later decision on the same position replaces the earlier one.
- A pending prediction wholly inside a confirmed span is not listed (it is
  already covered; there is nothing left to decide about it).

A boundary edit is a ``reject`` of the old position plus an ``add`` of the
new one (both in one undo step), so the log stays a list of plain facts.

``final_spans`` is what an export redacts: accepted, added and relabelled
spans, plus pending predictions unless the policy skips them; reviewed spans
win over overlapping pending ones.
"""

from __future__ import annotations

import bisect
import re
from typing import Iterable, NamedTuple, Sequence

from ..types import Decision, Span

PENDING = "pending"
ACCEPTED = "accepted"
REJECTED = "rejected"
ADDED = "added"
RELABELLED = "relabelled"
REVIEW_VERDICTS = (PENDING, ACCEPTED, REJECTED, ADDED, RELABELLED)

USER_SOURCE = "user:review"

# Document status, in the order a document moves through them.
NOT_TAGGED = "not tagged"
TAGGED = "tagged"
IN_REVIEW = "in review"
REVIEWED = "reviewed"
EXPORTED = "exported"
STATUSES = (NOT_TAGGED, TAGGED, IN_REVIEW, REVIEWED, EXPORTED)


class ReviewedSpan(NamedTuple):
    """A span with its review verdict; ``predicted`` is the detector's span, if any.

    A named tuple (immutable, cheap to create: notes with 100k+ spans stay fast).
    """

    span: Span
    verdict: str
    predicted: Span | None = None

    @property
    def start(self) -> int:
        return self.span.start

    @property
    def end(self) -> int:
        return self.span.end

    @property
    def label(self) -> str:
        return self.span.label

    @property
    def is_pending(self) -> bool:
        return self.verdict == PENDING

    @property
    def redacted(self) -> bool:
        return self.verdict != REJECTED


def apply_decisions(predicted: Iterable[Span], decisions: Iterable[Decision],
                    text_length: int | None = None) -> list[ReviewedSpan]:
    """Reviewed spans (sorted by position) after applying ``decisions`` in order.

    Decisions reaching past ``text_length`` (when given) are ignored.
    """
    decisions = list(decisions)
    preds: dict[tuple[int, int], Span] = {}
    for s in predicted:
        preds.setdefault((s.start, s.end), s)
    if not decisions:
        return [ReviewedSpan(s, PENDING, s) for _, s in sorted(preds.items(), key=_first)]
    state: dict[tuple[int, int], ReviewedSpan] = {k: ReviewedSpan(s, PENDING, s) for k, s in preds.items()}
    for d in decisions:
        if text_length is not None and d.span.end > text_length:
            continue
        key = (d.span.start, d.span.end)
        new = decide_one(preds.get(key), d)
        if new is None:
            state.pop(key, None)
        else:
            state[key] = new
    out = [r for _, r in sorted(state.items(), key=_first)]
    return _drop_superseded(out)


def _first(item):
    return item[0]


def decide_one(pred: Span | None, d: Decision) -> ReviewedSpan | None:
    """The reviewed span at ``d``'s position after ``d`` (None: nothing there any more)."""
    sp = d.span
    if d.verdict == "reject":
        return ReviewedSpan(pred, REJECTED, pred) if pred is not None else None
    if pred is not None:
        verdict = ACCEPTED if sp.label == pred.label else RELABELLED
        return ReviewedSpan(pred.with_label(sp.label), verdict, pred)
    return ReviewedSpan(Span(sp.start, sp.end, sp.label, USER_SOURCE), ADDED, None)


def apply_incremental(reviewed: list[ReviewedSpan], keys: list[tuple[int, int]],
                      preds: dict[tuple[int, int], Span], pred_keys: list[tuple[int, int]],
                      d: Decision) -> bool:
    """Apply one decision to ``reviewed`` in place, in O(log n) plus a list insert.

    ``keys`` is the parallel list of ``(start, end)`` of ``reviewed``;
    ``pred_keys`` the sorted positions of ``preds``. Returns False, changing
    nothing, when the decision could hide or reveal other predictions (a span
    confirmed or un-confirmed over predictions inside it); the caller then
    recomputes with ``apply_decisions``. When True, the result equals the full
    recomputation.
    """
    key = (d.span.start, d.span.end)
    new = decide_one(preds.get(key), d)
    i = bisect.bisect_left(keys, key)
    here = i < len(keys) and keys[i] == key
    old = reviewed[i] if here else None
    confirmed = (ACCEPTED, ADDED, RELABELLED)
    if _inside(pred_keys, key) and ((new is not None and new.verdict in confirmed)
                                    or (old is not None and old.verdict in confirmed)):
        return False
    if new is not None and new.verdict in confirmed and _inside(keys, key):
        return False
    if new is None:
        if here:
            del reviewed[i]
            del keys[i]
    elif here:
        reviewed[i] = new
    else:
        reviewed.insert(i, new)
        keys.insert(i, key)
    return True


def _inside(sorted_keys: list[tuple[int, int]], key: tuple[int, int]) -> bool:
    """True if another position in ``sorted_keys`` lies within ``key``."""
    j = bisect.bisect_left(sorted_keys, (key[0], -1))
    while j < len(sorted_keys) and sorted_keys[j][0] < key[1]:
        k = sorted_keys[j]
        if k != key and k[1] <= key[1]:
            return True
        j += 1
    return False


def _drop_superseded(rs: list[ReviewedSpan]) -> list[ReviewedSpan]:
    """Hide pending predictions lying wholly inside a confirmed span (e.g. "Alicia" inside an
    added "Alicia Moreno"): the confirmed span already redacts them, nothing is left to review."""
    confirmed = [r for r in rs if r.verdict in (ACCEPTED, ADDED, RELABELLED)]
    if not confirmed:
        return rs
    starts = [r.start for r in confirmed]
    reach = []  # reach[i]: the furthest end among confirmed[:i + 1]
    m = -1
    for r in confirmed:
        m = max(m, r.end)
        reach.append(m)
    out = []
    for r in rs:
        if r.verdict == PENDING:
            i = bisect.bisect_right(starts, r.start) - 1
            if i >= 0 and reach[i] >= r.end:  # positions are unique, so this is another span
                continue
        out.append(r)
    return out


def final_spans(reviewed: Sequence[ReviewedSpan], include_pending: bool = True,
                min_confidence: float = 0.0) -> list[Span]:
    """The spans an export redacts, non-overlapping, sorted.

    Confirmed spans (accepted/added/relabelled) claim their characters first;
    pending predictions (if included and at least ``min_confidence``) keep only
    the parts no confirmed span covers. O(n log n).
    """
    confirmed = sorted((r.span for r in reviewed if r.verdict in (ACCEPTED, ADDED, RELABELLED)),
                       key=lambda s: (s.start, -s.end))
    out: list[Span] = []
    union: list[tuple[int, int]] = []  # merged confirmed intervals, sorted and disjoint
    reach = -1
    for s in confirmed:
        a = max(s.start, reach)
        if a < s.end:
            out.append(s if a == s.start else s.with_bounds(a, s.end))
        if union and s.start <= union[-1][1]:
            union[-1] = (union[-1][0], max(union[-1][1], s.end))
        else:
            union.append((s.start, s.end))
        reach = max(reach, s.end)
    if include_pending:
        pending = sorted((r.span for r in reviewed if r.verdict == PENDING and r.span.confidence >= min_confidence),
                         key=lambda s: (s.start, -s.end))
        ustarts = [u[0] for u in union]
        reach = -1
        for s in pending:
            a = max(s.start, reach)
            reach = max(reach, s.end)
            if a >= s.end:
                continue
            for x, y in _gaps(union, ustarts, a, s.end):
                out.append(s if (x, y) == (s.start, s.end) else s.with_bounds(x, y))
    out.sort(key=lambda s: (s.start, s.end))
    return out


def _gaps(union: list[tuple[int, int]], starts: list[int], a: int, b: int) -> list[tuple[int, int]]:
    """Parts of [a, b) outside the sorted disjoint intervals ``union``."""
    gaps, cur = [], a
    i = max(0, bisect.bisect_right(starts, a) - 1)
    while i < len(union) and union[i][0] < b:
        ua, ub = union[i]
        if ub > cur:
            if ua > cur:
                gaps.append((cur, ua))
            cur = max(cur, ub)
            if cur >= b:
                break
        i += 1
    if cur < b:
        gaps.append((cur, b))
    return gaps


def document_status(tagged: bool, decisions: Sequence[Decision], mark: str | None = None) -> str:
    """``not tagged`` | ``tagged`` | ``in review`` | ``reviewed`` | ``exported``."""
    if mark == "exported":
        return EXPORTED
    if mark == "reviewed":
        return REVIEWED
    if decisions:
        return IN_REVIEW
    return TAGGED if tagged else NOT_TAGGED


def pending_count(reviewed: Sequence[ReviewedSpan]) -> int:
    return sum(1 for r in reviewed if r.verdict == PENDING)


def occurrences(text: str, needle: str) -> list[tuple[int, int]]:
    """Positions of ``needle`` in ``text`` not inside a longer word (case-sensitive)."""
    if not needle.strip():
        return []
    pat = re.escape(needle)
    if needle[0].isalnum():
        pat = r"(?<![^\W_])" + pat
    if needle[-1].isalnum():
        pat = pat + r"(?![^\W_])"
    return [(m.start(), m.end()) for m in re.finditer(pat, text)]


_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def step_boundary(text: str, start: int, end: int, edge: str, grow: bool) -> tuple[int, int]:
    """Move one edge of ``[start, end)`` by one word; the span never becomes empty.

    ``edge`` is ``"end"`` or ``"start"``; ``grow`` widens the span outward to
    the next word, otherwise the edge word is dropped. Only a window around the
    span is scanned, so this is cheap in huge documents.
    """
    lo, hi = max(0, start - 400), min(len(text), end + 400)
    words = [(m.start(), m.end()) for m in _WORD.finditer(text, lo, hi)]
    full = [w for w in words if start <= w[0] and w[1] <= end]
    if edge == "end":
        if grow:
            nxt = [w for w in words if w[0] >= end]
            return (start, nxt[0][1]) if nxt else (start, end)
        return (start, full[-2][1]) if len(full) >= 2 else (start, end)
    if grow:
        prev = [w for w in words if w[1] <= start]
        return (prev[-1][0], end) if prev else (start, end)
    return (full[1][0], end) if len(full) >= 2 else (start, end)
