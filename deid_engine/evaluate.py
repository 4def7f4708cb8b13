"""Evaluation with the metrics the de-identification literature reports.

- **binary token** P/R/F1: a token is a maximal run of letters and digits; it
  is PHI when any span overlaps it. Labels are ignored (what leaks is what
  matters).
- **entity strict**: exact boundaries, with labels (``labels_match``: equal, or
  one is the other's category) and without; **strict (exact)** also refuses a
  predicted category for a gold subtype (``LOCATION`` for ``HOSPITAL``), as an
  evaluation with the fine labels of i2b2 would.
- **entity relaxed**: any overlap counts (precision over predicted spans,
  recall over gold spans).
- **per-category token recall**: the leak report, one row per gold category
  (and per gold label).
- **F2** weighs recall twice as much as precision: the headline, since a
  missed identifier costs more than an over-redacted word.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .taxonomy import category_of, is_label, labels_match
from .tokenize import word_spans
from .types import Span


@dataclass
class PRF:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    # For overlap matching one prediction may cover several gold spans (or the
    # reverse): ``tp`` counts matched gold spans, ``tp_pred`` matched predictions.
    tp_pred: int | None = None

    @property
    def precision(self) -> float:
        tp = self.tp if self.tp_pred is None else self.tp_pred
        d = tp + self.fp
        return tp / d if d else (1.0 if self.fn == 0 else 0.0)

    @property
    def recall(self) -> float:
        d = self.tp + self.fn
        return self.tp / d if d else 1.0

    def f(self, beta: float = 1.0) -> float:
        p, r = self.precision, self.recall
        b2 = beta * beta
        return (1 + b2) * p * r / (b2 * p + r) if (p + r) else 0.0

    @property
    def f1(self) -> float:
        return self.f(1.0)

    @property
    def f2(self) -> float:
        return self.f(2.0)

    def add(self, other: "PRF") -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        if other.tp_pred is not None:
            self.tp_pred = (self.tp_pred or 0) + other.tp_pred

    def as_dict(self) -> dict:
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "precision": round(self.precision, 4),
                "recall": round(self.recall, 4), "f1": round(self.f1, 4), "f2": round(self.f2, 4)}


@dataclass
class Recall:
    hit: int = 0
    total: int = 0

    @property
    def recall(self) -> float:
        return self.hit / self.total if self.total else 1.0


@dataclass
class Report:
    documents: int = 0
    token: PRF = field(default_factory=PRF)
    strict_labeled: PRF = field(default_factory=PRF)
    strict_unlabeled: PRF = field(default_factory=PRF)
    strict_exact: PRF = field(default_factory=PRF)
    relaxed: PRF = field(default_factory=lambda: PRF(tp_pred=0))
    per_label_strict: dict[str, PRF] = field(default_factory=lambda: defaultdict(PRF))
    category_token_recall: dict[str, Recall] = field(default_factory=lambda: defaultdict(Recall))
    label_token_recall: dict[str, Recall] = field(default_factory=lambda: defaultdict(Recall))

    def as_dict(self) -> dict:
        return {
            "documents": self.documents,
            "token": self.token.as_dict(),
            "entity_strict_labeled": self.strict_labeled.as_dict(),
            "entity_strict_unlabeled": self.strict_unlabeled.as_dict(),
            "entity_strict_exact": self.strict_exact.as_dict(),
            "entity_relaxed": self.relaxed.as_dict(),
            "per_label_strict": {k: v.as_dict() for k, v in sorted(self.per_label_strict.items())},
            "category_token_recall": {k: {"recall": round(v.recall, 4), "tokens": v.total}
                                      for k, v in sorted(self.category_token_recall.items())},
            "label_token_recall": {k: {"recall": round(v.recall, 4), "tokens": v.total}
                                   for k, v in sorted(self.label_token_recall.items())},
        }

    def format_table(self) -> str:
        rows = [f"documents: {self.documents}", "",
                f"{'metric':<26}{'P':>8}{'R':>8}{'F1':>8}{'F2':>8}{'TP':>8}{'FP':>8}{'FN':>8}"]
        for name, m in (("binary token", self.token), ("entity strict (labels)", self.strict_labeled),
                        ("entity strict (no labels)", self.strict_unlabeled),
                        ("entity strict (exact)", self.strict_exact),
                        ("entity relaxed (overlap)", self.relaxed)):
            rows.append(f"{name:<26}{m.precision:>8.4f}{m.recall:>8.4f}{m.f1:>8.4f}{m.f2:>8.4f}"
                        f"{m.tp:>8}{m.fp:>8}{m.fn:>8}")
        rows += ["", f"{'token recall by category':<26}{'R':>8}{'tokens':>8}"]
        for k, v in sorted(self.category_token_recall.items()):
            rows.append(f"  {k:<24}{v.recall:>8.4f}{v.total:>8}")
        rows += ["", f"{'strict by gold label':<26}{'P':>8}{'R':>8}{'F1':>8}"]
        for k, m in sorted(self.per_label_strict.items()):
            rows.append(f"  {k:<24}{m.precision:>8.4f}{m.recall:>8.4f}{m.f1:>8.4f}")
        return "\n".join(rows)


def _covered(spans: list[Span], a: int, b: int, starts: list[int], max_len: int) -> Span | None:
    """A span overlapping [a, b), or None. ``spans`` sorted by start."""
    i = bisect.bisect_left(starts, b)
    lo = bisect.bisect_left(starts, a - max_len)
    for j in range(i - 1, max(lo, 0) - 1, -1):
        s = spans[j]
        if s.start < b and a < s.end:
            return s
    return None


class _Index:
    def __init__(self, spans: Iterable[Span]):
        self.spans = sorted(spans, key=lambda s: (s.start, s.end))
        self.starts = [s.start for s in self.spans]
        self.max_len = max((s.length for s in self.spans), default=0)

    def find(self, a: int, b: int) -> Span | None:
        return _covered(self.spans, a, b, self.starts, self.max_len)


def _category(label: str) -> str:
    return category_of(label) if is_label(label) else label


def evaluate_document(text: str, gold: Iterable[Span], pred: Iterable[Span], report: Report) -> None:
    gold = list(gold)
    pred = list(pred)
    report.documents += 1
    gi, pi = _Index(gold), _Index(pred)

    for a, b in word_spans(text):
        g = gi.find(a, b)
        p = pi.find(a, b)
        if g and p:
            report.token.tp += 1
        elif g:
            report.token.fn += 1
        elif p:
            report.token.fp += 1
        if g:
            for key, table in ((_category(g.label), report.category_token_recall),
                               (g.label, report.label_token_recall)):
                table[key].total += 1
                if p:
                    table[key].hit += 1

    pred_by_bounds: dict[tuple[int, int], list[Span]] = defaultdict(list)
    for p in pred:
        pred_by_bounds[(p.start, p.end)].append(p)
    gold_bounds = {(g.start, g.end) for g in gold}

    matched_labeled: set[int] = set()
    for g in gold:
        cands = pred_by_bounds.get((g.start, g.end), [])
        hit = next((p for p in cands if id(p) not in matched_labeled and labels_match(g.label, p.label)), None)
        per = report.per_label_strict[g.label]
        if hit is not None:
            matched_labeled.add(id(hit))
            report.strict_labeled.tp += 1
            per.tp += 1
        else:
            report.strict_labeled.fn += 1
            per.fn += 1
    for p in pred:
        if id(p) not in matched_labeled:
            report.strict_labeled.fp += 1
            g_same = [g for g in gold if (g.start, g.end) == (p.start, p.end)] if (p.start, p.end) in gold_bounds else []
            report.per_label_strict[g_same[0].label if g_same else p.label].fp += 1

    matched_exact: set[int] = set()
    for g in gold:
        generic = is_label(g.label) and category_of(g.label) == g.label
        hit = next((p for p in pred_by_bounds.get((g.start, g.end), [])
                    if id(p) not in matched_exact and (p.label == g.label or (generic and labels_match(g.label, p.label)))),
                   None)
        if hit is not None:
            matched_exact.add(id(hit))
            report.strict_exact.tp += 1
        else:
            report.strict_exact.fn += 1
    report.strict_exact.fp += len(pred) - len(matched_exact)

    pred_bounds = set(pred_by_bounds)
    report.strict_unlabeled.tp += len(gold_bounds & pred_bounds)
    report.strict_unlabeled.fn += len(gold_bounds - pred_bounds)
    report.strict_unlabeled.fp += len(pred_bounds - gold_bounds)

    # Relaxed: recall over gold spans overlapped by a prediction, precision over
    # predictions overlapping some gold span; tp counted on the recall side.
    r_hit = sum(1 for g in gold if pi.find(g.start, g.end))
    p_hit = sum(1 for p in pred if gi.find(p.start, p.end))
    report.relaxed.tp += r_hit
    report.relaxed.tp_pred = (report.relaxed.tp_pred or 0) + p_hit
    report.relaxed.fn += len(gold) - r_hit
    report.relaxed.fp += len(pred) - p_hit


def evaluate(texts: Mapping[str, str], gold: Mapping[str, Iterable[Span]],
             pred: Mapping[str, Iterable[Span]]) -> Report:
    """Score predictions against gold over the documents named in ``texts``.

    A document with no entry in ``pred`` counts as predicting nothing.
    """
    report = Report()
    for doc_id, text in texts.items():
        evaluate_document(text, gold.get(doc_id, ()), pred.get(doc_id, ()), report)
    return report
