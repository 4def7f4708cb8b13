"""Active learning: review the documents (and spans) the model is least sure about first.

Two measures:

- ``token_entropies(model, texts)``: the entropy of each token's CRF marginal
  distribution (forward-backward over the same windows ``predict`` uses).
  A document's score (``document_uncertainty``) is the mean of its top 10 % most
  uncertain tokens (at least 5), so one short unsure name in a long note still
  counts, while long certain boilerplate does not dilute it away.
- ``span_uncertainty(spans)``: without running the model, from the cached
  predictions: ``1 - min confidence`` of the document's tagger spans (the CRF
  marginal mean the tagger stores on each span). Cheap; used by the app's
  "Sort by uncertainty" when the model is not loaded.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from ..types import Span


def token_entropies(model, texts: Sequence[str], batch_size: int = 48) -> list[np.ndarray]:
    """Per-token marginal entropy (nats) for each text (either runtime, ``model/runtime.py``)."""
    import contextlib

    from ..model.data import Window, collate, collate_arrays, windows

    numpy_rt = getattr(model, "runtime", "torch") == "numpy"
    if numpy_rt:
        from ..model.crf_np import marginals_scaled_np

        dev, ctx = None, contextlib.nullcontext()
    else:
        import torch

        model.net.eval()
        dev, ctx = next(model.net.parameters()).device, torch.inference_mode()
    encs = [model.featurizer.encode(t) for t in texts]
    items = []
    for di, e in enumerate(encs):
        n = len(e.tokens)
        for a, b, ka, kb in (windows(n, model.window, model.overlap) if n else []):
            items.append(Window(e, a, b, key=(di, ka, kb)))
    out = [np.zeros(len(e.tokens), np.float32) for e in encs]
    order = sorted(range(len(items)), key=lambda i: items[i].b - items[i].a)
    with ctx:
        for s in range(0, len(order), batch_size):
            chunk = [items[i] for i in order[s : s + batch_size]]
            if numpy_rt:
                batch, _ = collate_arrays(chunk)
                em = model.net.emissions(**batch).astype(np.float64)
                marg = np.maximum(marginals_scaled_np(em, batch["mask"], *model.net.crf_params()), 1e-9)
                ent = -(marg * np.log(marg)).sum(2)
            else:
                batch, _ = collate(chunk, dev)
                em = model.net.emissions(**batch)
                marg = model.net.crf.marginals(em, batch["mask"]).clamp_min(1e-9)
                ent = (-(marg * marg.log()).sum(2)).cpu().numpy()
            for j, w in enumerate(chunk):
                di, ka, kb = w.key
                out[di][ka:kb] = ent[j, ka - w.a : kb - w.a]
    return out


def entropy_score(ent: np.ndarray, top: float = 0.1, min_k: int = 5) -> float:
    if ent.size == 0:
        return 0.0
    k = min(ent.size, max(min_k, int(round(top * ent.size))))
    return float(np.sort(ent)[-k:].mean())


def document_uncertainty(model, texts: Sequence[str]) -> list[float]:
    return [entropy_score(e) for e in token_entropies(model, texts)]


def span_uncertainty(spans: Iterable[Span], sources: tuple[str, ...] = ("tagger",)) -> float:
    """``1 - min confidence`` over spans from ``sources`` (all spans if none match)."""
    spans = list(spans)
    pick = [s for s in spans if s.source.split(":", 1)[0] in sources] or spans
    if not pick:
        return 0.0
    return float(1.0 - min(s.confidence for s in pick))


def rank_by_uncertainty(keys: Sequence[str], scores: Sequence[float]) -> list[str]:
    """Keys, most uncertain first (ties keep the given order)."""
    order = sorted(range(len(keys)), key=lambda i: (-scores[i], i))
    return [keys[i] for i in order]


def order_spans(spans: Sequence, pending_first: bool = True) -> list:
    """Reviewed spans with the least confident pending ones first (then the rest by position)."""
    def key(r):
        pend = getattr(r, "is_pending", True)
        span = getattr(r, "span", r)
        return (0 if (pend or not pending_first) else 1, span.confidence, span.start)

    return sorted(spans, key=key)


def order_entries_by_uncertainty(session) -> list[str]:
    """Reorder a ``ReviewSession``'s entries in place: unreviewed documents first, most
    uncertain first (``span_uncertainty`` of their pending predictions; untagged
    documents after tagged ones); then the reviewed ones in their old order.
    Returns the new key order."""
    from ..review.state import PENDING

    scored = []
    for i, e in enumerate(session.entries):
        if e.document is None or not session.is_unreviewed(e):
            group, score = 2, 0.0
        elif e.predicted is None:
            group, score = 1, 0.0
        else:
            pend = [r.span for r in session.reviewed(e) if r.verdict == PENDING]
            group, score = 0, span_uncertainty(pend)
        scored.append((group, -score, i, e))
    scored.sort(key=lambda t: t[:3])
    session.entries[:] = [t[3] for t in scored]
    return [e.key for e in session.entries]
