"""Linear-chain CRF inference in numpy: Viterbi paths and forward-backward marginals.

Torch-free, so that tagging on a CPU never imports torch (``runtime.py``); the torch
``CRF`` module (``crf.py``) re-exports these for training-time evaluation. Shapes as in
``crf.py``: emissions ``(B, L, K)``, mask ``(B, L)`` bool with valid steps first.
"""

from __future__ import annotations


def _lse(x, axis):
    import numpy as np

    m = x.max(axis=axis, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(axis=axis, keepdims=True))).squeeze(axis)


def viterbi_np(em, mask, start, end, trans):
    """Numpy Viterbi: em (B, L, K) float, mask (B, L) bool -> paths (B, L) int64."""
    import numpy as np

    B, L, K = em.shape
    score = start[None] + em[:, 0]                                         # (B, K)
    backs = np.zeros((B, max(L - 1, 0), K), dtype=np.int64)
    ident = np.broadcast_to(np.arange(K), (B, K))
    full = mask.all(0)                                                     # (L,) steps no sequence has ended at
    # candidates laid out (B, K_to, K_from): the same sums, reduced along the contiguous last axis
    # (argmax keeps the first best K_from either way), the best values read by flat index
    trans_t = np.ascontiguousarray(trans.T)[None]                          # (1, K_to, K_from)
    flat = np.arange(B * K) * K                                            # row offsets in cand
    for t in range(1, L):
        cand = score[:, None, :] + trans_t                                 # (B, K_to, K_from)
        idx = cand.argmax(2)                                               # (B, K)
        best = cand.reshape(-1)[flat + idx.reshape(-1)].reshape(B, K)      # (B, K)
        if full[t]:  # the masked update below, without the selects
            score = best + em[:, t]
            backs[:, t - 1] = idx
            continue
        m = mask[:, t, None]
        score = np.where(m, best + em[:, t], score)
        backs[:, t - 1] = np.where(m, idx, ident)
    cur = (score + end[None]).argmax(1)                                    # (B,)
    path = np.zeros((B, L), dtype=np.int64)
    path[:, L - 1] = cur
    rows = np.arange(B)
    for t in range(L - 2, -1, -1):
        cur = backs[rows, t, cur]
        path[:, t] = cur
    return path * mask


def marginals_np(em, mask, start, end, trans):
    """Numpy forward-backward posteriors (B, L, K); 0 beyond each length."""
    import numpy as np

    B, L, K = em.shape
    alpha = np.zeros((B, L, K), dtype=em.dtype)
    a = start[None] + em[:, 0]
    alpha[:, 0] = a
    for t in range(1, L):
        nxt = _lse(a[:, :, None] + trans[None], 1) + em[:, t]
        a = np.where(mask[:, t, None], nxt, a)
        alpha[:, t] = a
    lengths = mask.sum(1)
    last = lengths - 1
    beta = np.zeros((B, L, K), dtype=em.dtype)
    b = np.broadcast_to(end[None], (B, K)).copy()
    for t in range(L - 1, -1, -1):
        if t < L - 1:
            nb = _lse(trans[None] + (em[:, t + 1] + b)[:, None, :], 2)
            b = np.where((last == t)[:, None], end[None], np.where((t < last)[:, None], nb, b))
        beta[:, t] = b
    logz = _lse(alpha[:, -1] + end[None], 1)
    post = np.exp(alpha + beta - logz[:, None, None])
    return post * mask[:, :, None]


def marginals_scaled_np(em, mask, start, end, trans):
    """Forward-backward posteriors (B, L, K) in scaled probability space.

    Same result as :func:`marginals_np` (to float rounding) at a fraction of the
    cost: each step is a (B, K) x (K, K) product instead of a log-sum-exp over
    (B, K, K). Potentials are shifted by their maxima before ``exp`` and every
    step is renormalised, so nothing overflows or underflows for any realistic
    score range; the shifts cancel when each position's posterior is normalised.
    """
    import numpy as np

    B, L, K = em.shape
    E = np.exp(em - em.max(axis=2, keepdims=True))                        # (B, L, K) in (0, 1]
    T = np.exp(trans - trans.max())                                       # (K, K)
    s0 = np.exp(start - start.max())
    e1 = np.exp(end - end.max())
    alpha = np.empty((B, L, K), dtype=em.dtype)
    a = s0[None] * E[:, 0]
    a /= a.sum(1, keepdims=True)
    alpha[:, 0] = a
    full = mask.all(0)                                                    # (L,) steps no sequence has ended at
    for t in range(1, L):
        nxt = (a @ T) * E[:, t]
        nxt /= np.maximum(nxt.sum(1, keepdims=True), 1e-300)
        a = nxt if full[t] else np.where(mask[:, t, None], nxt, a)
        alpha[:, t] = a
    last = mask.sum(1) - 1                                                # (B,)
    beta = np.empty((B, L, K), dtype=em.dtype)
    b = np.broadcast_to(e1[None], (B, K)).copy()
    beta[:, L - 1] = b
    T_t = T.T
    min_last = int(last.min()) if B else 0
    for t in range(L - 2, -1, -1):
        nb = (E[:, t + 1] * b) @ T_t
        nb /= np.maximum(nb.sum(1, keepdims=True), 1e-300)
        b = nb if t < min_last else np.where((t < last)[:, None], nb, e1[None])
        beta[:, t] = b
    post = alpha * beta
    post /= np.maximum(post.sum(2, keepdims=True), 1e-300)
    return post * mask[:, :, None]
