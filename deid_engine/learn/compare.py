"""Old vs new model on the held-back reviewed documents (PHI-free figures only)."""

from __future__ import annotations

from typing import Any, Sequence

from ..evaluate import evaluate
from ..model.data import Example
from ..types import Span


def evaluate_on(model, examples: Sequence[Example]) -> dict[str, Any]:
    """Strict entity P/R/F1 (labels), binary token P/R/F1/F2, per-category token recall."""
    texts = {str(i): e.text for i, e in enumerate(examples)}
    gold = {str(i): list(e.spans) for i, e in enumerate(examples)}
    if model is None:
        preds: list[list[tuple[int, int, str, float]]] = [[] for _ in examples]
    else:
        preds = model.predict([e.text for e in examples])
    pred = {str(i): [Span(a, b, lbl, "tagger", c) for a, b, lbl, c in p] for i, p in enumerate(preds)}
    rep = evaluate(texts, gold, pred)
    d = rep.as_dict()
    return {"documents": len({getattr(e, "doc_id", e.name) for e in examples}),
            "examples": len(examples),
            "strict": {k: d["entity_strict_labeled"][k] for k in ("precision", "recall", "f1")},
            "token": {k: d["token"][k] for k in ("precision", "recall", "f1", "f2")},
            "category_recall": {k: v["recall"] for k, v in d["category_token_recall"].items()},
            "category_tokens": {k: v["tokens"] for k, v in d["category_token_recall"].items()}}


def compare_models(old, new, held_back: Sequence[Example]) -> dict[str, Any]:
    """Both models on the same held-back examples, plus the verdict the dialog suggests."""
    a = evaluate_on(old, held_back)
    b = evaluate_on(new, held_back)
    better = (b["strict"]["f1"] - a["strict"]["f1"], b["token"]["recall"] - a["token"]["recall"])
    return {"old": a, "new": b, "delta_strict_f1": round(better[0], 4),
            "delta_token_recall": round(better[1], 4),
            "suggest": "adopt" if better[0] >= 0 and better[1] >= -0.005 else "keep"}


def format_comparison(cmp: dict[str, Any]) -> str:
    """A plain-text side-by-side table (CLI, logs)."""
    if not cmp:
        return "no held-back documents: no comparison"
    a, b = cmp["old"], cmp["new"]
    rows = [f"held-back documents: {a['documents']}",
            f"{'':<28}{'active':>10}{'new':>10}"]
    for name, key, sub in (("strict entity P", "strict", "precision"), ("strict entity R", "strict", "recall"),
                           ("strict entity F1", "strict", "f1"), ("token recall", "token", "recall"),
                           ("token F2", "token", "f2")):
        rows.append(f"{name:<28}{a[key][sub]:>10.4f}{b[key][sub]:>10.4f}")
    cats = sorted(set(a["category_recall"]) | set(b["category_recall"]))
    for c in cats:
        rows.append(f"  recall {c:<19}{a['category_recall'].get(c, 0.0):>10.4f}{b['category_recall'].get(c, 0.0):>10.4f}")
    rows.append(f"suggestion: {cmp['suggest']}")
    return "\n".join(rows)
