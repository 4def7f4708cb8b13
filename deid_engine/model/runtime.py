"""The tagger's forward pass in numpy: tagging on a CPU without importing torch.

Importing torch costs about a second and a half on the 2-core target machine, most of a
cold start; the network is small (one BiLSTM of 64 units per direction, a skeleton BiLSTM
of 32, a character CNN), so plain numpy runs it as fast as torch's single-threaded CPU
kernels. :class:`NumpyTaggerNet` computes exactly what ``network.TaggerNet.emissions``
computes in evaluation mode (float32; the equivalence is tested to 1e-5 on random and
real weights), reading the weights from ``model.pt`` with the torch-free reader in
``weights.py``.

Which runtime tags is decided by :func:`choose_runtime`: ``DEID_RUNTIME=torch|numpy``
when set; otherwise torch when an NVIDIA driver is installed (a GPU torch can use),
numpy everywhere else. Training always uses torch.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

from .crf_np import marginals_scaled_np, viterbi_np
from .features import N_FEATURES, STATIC_FEATURES


def gpu_driver_present() -> bool:
    """An NVIDIA driver is installed (checked without importing torch or loading CUDA)."""
    if sys.platform.startswith("linux"):
        return os.path.exists("/proc/driver/nvidia/version")
    if sys.platform == "win32":
        root = os.environ.get("SystemRoot", r"C:\Windows")
        return os.path.exists(os.path.join(root, "System32", "nvcuda.dll"))
    return False  # macOS: no CUDA; the CPU runtime


def choose_runtime(requested: str | None = None) -> str:
    """``"torch"`` or ``"numpy"``: ``requested`` or ``DEID_RUNTIME`` if given, else torch
    only when a GPU driver is present (torch then uses the GPU when it sees one)."""
    r = (requested or os.environ.get("DEID_RUNTIME", "") or "auto").strip().lower()
    if r in ("torch", "numpy"):
        return r
    return "torch" if gpu_driver_present() else "numpy"


def _sigmoid_scaled_gates(w: np.ndarray, hidden: int) -> np.ndarray:
    """Rows of a (4H, ...) LSTM gate block reordered from torch's (i, f, g, o) to (i, f, o, g),
    the sigmoid gates' rows halved: then one ``tanh`` over all four gates gives
    ``sigmoid(x) = (1 + tanh(x / 2)) / 2`` for i, f, o and ``tanh`` for g."""
    h = hidden
    return np.concatenate([0.5 * w[: 2 * h], 0.5 * w[3 * h:], w[2 * h: 3 * h]], 0)


class _BiLSTM:
    """One bidirectional single-layer LSTM (torch's equations and gate order)."""

    def __init__(self, state: dict[str, np.ndarray], prefix: str):
        wih, whh, b = [], [], []
        for sfx in ("_l0", "_l0_reverse"):
            w_ih = state[f"{prefix}.weight_ih{sfx}"].astype(np.float32)
            h = w_ih.shape[0] // 4
            w_hh = state[f"{prefix}.weight_hh{sfx}"].astype(np.float32)
            bias = (state[f"{prefix}.bias_ih{sfx}"] + state[f"{prefix}.bias_hh{sfx}"]).astype(np.float32)
            wih.append(_sigmoid_scaled_gates(w_ih, h).T)      # (D, 4H)
            whh.append(_sigmoid_scaled_gates(w_hh, h).T)      # (H, 4H)
            b.append(_sigmoid_scaled_gates(bias, h))
        self.hidden = h
        self.w_ih_dir = np.ascontiguousarray(np.stack(wih))        # (2, D, 4H)
        self.w_hh = np.ascontiguousarray(np.stack(whh))            # (2, H, 4H)
        self.bias_dir = np.stack(b)[:, None, None, :]              # (2, 1, 1, 4H)

    def __call__(self, x: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """x (B, T, D) float32, lengths (B,) -> outputs (B, T, 2H); zeros past each length."""
        B, T, D = x.shape
        H = self.hidden
        if T == 0 or B == 0:
            return np.zeros((B, T, 2 * H), np.float32)
        full = bool((lengths == T).all())
        # the reverse direction reads each sequence from its own last valid step
        if full:
            xr = x[:, ::-1]
        else:
            t_idx = np.arange(T)
            rev = np.where(t_idx[None] < lengths[:, None], lengths[:, None] - 1 - t_idx[None], t_idx[None])  # (B, T)
            rows = np.arange(B)[:, None]
            xr = x[rows, rev]
        # time-major inputs of both directions, projected in one product per direction: (2, T, B, 4H)
        xt = np.empty((2, T, B, D), np.float32)
        xt[0] = x.transpose(1, 0, 2)
        xt[1] = xr.transpose(1, 0, 2)
        steps = np.matmul(xt.reshape(2, T * B, D), self.w_ih_dir).reshape(2, T, B, 4 * H)
        return self._recur(steps, lengths)

    def run_gathered(self, fwd: np.ndarray, bwd: np.ndarray, idx: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """As ``__call__`` when the projected inputs are rows of tables: step t of sequence b reads row
        ``idx[b, t]`` of ``fwd`` (inputs times the forward weights, (U, 4H)) and of ``bwd`` (the backward ones).
        The steps are gathered straight into time-major order; no (B, T, D) input is built."""
        B, T = idx.shape
        H = self.hidden
        if T == 0 or B == 0:
            return np.zeros((B, T, 2 * H), np.float32)
        steps = np.empty((2, T, B, 4 * H), np.float32)
        np.take(fwd, idx.T, axis=0, out=steps[0])
        if bool((lengths == T).all()):
            np.take(bwd, idx[:, ::-1].T, axis=0, out=steps[1])
        else:
            t_idx = np.arange(T)
            rev = np.where(t_idx[None] < lengths[:, None], lengths[:, None] - 1 - t_idx[None], t_idx[None])
            np.take(bwd, idx[np.arange(B)[:, None], rev].T, axis=0, out=steps[1])
        return self._recur(steps, lengths)

    def _recur(self, steps: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """The recurrence over projected inputs (2, T, B, 4H) (overwritten) -> outputs (B, T, 2H)."""
        _, T, B, _ = steps.shape
        H = self.hidden
        full = bool((lengths == T).all())
        if not full:
            t_idx = np.arange(T)
            rev = np.where(t_idx[None] < lengths[:, None], lengths[:, None] - 1 - t_idx[None], t_idx[None])  # (B, T)
            rows = np.arange(B)[:, None]
        steps += self.bias_dir
        h = np.zeros((2, B, H), np.float32)
        c = np.zeros((2, B, H), np.float32)
        hs = np.empty((2, T, B, H), np.float32)
        w_hh = self.w_hh
        for t in range(T):
            g = steps[:, t]
            g += np.matmul(h, w_hh)
            np.tanh(g, out=g)
            s = g[..., : 3 * H]
            s *= 0.5
            s += 0.5                                                # sigmoid of the i, f, o gates
            c *= g[..., H: 2 * H]
            c += g[..., :H] * g[..., 3 * H:]
            h = np.tanh(c)
            h *= g[..., 2 * H: 3 * H]
            hs[:, t] = h
        out = np.empty((B, T, 2 * H), np.float32)
        out[..., :H] = hs[0].transpose(1, 0, 2)
        if full:
            out[..., H:] = hs[1, ::-1].transpose(1, 0, 2)
            return out
        out[..., H:] = hs[1].transpose(1, 0, 2)[rows, rev]
        out[~(t_idx[None] < lengths[:, None])] = 0.0
        return out


class NumpyTaggerNet:
    """``TaggerNet``'s inference in numpy (same config, same state dict)."""

    runtime = "numpy"

    def __init__(self, cfg, state: dict[str, np.ndarray]):
        self.cfg = cfg
        f32 = lambda k: np.ascontiguousarray(state[k], dtype=np.float32)  # noqa: E731
        self.word_emb = f32("word_emb.weight")
        if cfg.use_char:
            self.char_emb = f32("char_emb.weight")
            w = f32("char_cnn.weight")                                  # (filters, char_dim, k)
            self.char_k = w.shape[2]
            self.char_w = np.ascontiguousarray(w.transpose(2, 1, 0).reshape(-1, w.shape[0]))  # (k*char_dim, filters)
            self.char_b = f32("char_cnn.bias")
        self.lstm = _BiLSTM(state, "lstm")
        if cfg.use_skeleton:
            self.skel_emb = f32("skel_emb.weight")
            self.skel_lstm = _BiLSTM(state, "skel_lstm")
        self.proj_w = np.ascontiguousarray(f32("proj.weight").T)
        self.proj_b = f32("proj.bias")
        self._crf = tuple(np.asarray(state[f"crf.{k}"], dtype=np.float64) for k in ("start", "end", "trans"))

    @classmethod
    def load(cls, folder: Path | str, cfg) -> "NumpyTaggerNet":
        from .weights import read_state_dict

        return cls(cfg, read_state_dict(Path(folder) / "model.pt"))

    def crf_params(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self._crf

    def _char_features(self, chars: np.ndarray) -> np.ndarray:
        """chars (N, C) -> max-pooled char-CNN features (N, filters); padding ignored."""
        N, C = chars.shape
        k = self.char_k
        pad = k // 2
        e = self.char_emb[chars]                                        # (N, C, d)
        d = e.shape[2]
        ep = np.zeros((N, C + 2 * pad, d), np.float32)
        ep[:, pad: pad + C] = e
        cols = np.concatenate([ep[:, j: j + C] for j in range(k)], 2)   # (N, C, k*d), torch's cross-correlation
        cf = (cols.reshape(N * C, k * d) @ self.char_w).reshape(N, C, -1)
        cf += self.char_b
        cf[chars == 0] = -1e4
        cf = cf.max(1)
        cf[cf < -1e3] = 0.0
        return cf

    CHAR_CACHE_ROWS = 60_000  # distinct spellings whose char-CNN features are kept (about 12 MB)

    def _cached_char_features(self, uniq: np.ndarray) -> np.ndarray:
        """``_char_features`` of distinct character rows, each spelling computed once per process: a
        spelling's features depend on its characters only, and notes repeat most of their words."""
        if not hasattr(self, "_cc_index"):
            self._cc_index: dict[bytes, int] = {}
            self._cc_store = np.empty((self.CHAR_CACHE_ROWS, self.char_b.shape[0]), np.float32)
            self._cc_used = 0  # rows of the store written (a spelling given twice in one call takes two)
        index = self._cc_index
        keys = [r.tobytes() for r in uniq]
        rows = np.fromiter((index.get(k, -1) for k in keys), np.int64, len(keys))
        miss = np.flatnonzero(rows < 0)
        if miss.size == 0:
            return self._cc_store[rows]
        fresh = self._char_features(uniq[miss])
        room = self.CHAR_CACHE_ROWS - self._cc_used
        if room >= miss.size:
            n = self._cc_used
            self._cc_store[n: n + miss.size] = fresh
            self._cc_used = n + miss.size
            for j, i in enumerate(miss):
                index.setdefault(keys[i], n + j)
            rows[miss] = np.arange(n, n + miss.size)
            return self._cc_store[rows]
        out = np.empty((len(keys), fresh.shape[1]), np.float32)  # cache full: serve hits, compute the rest
        hit = rows >= 0
        out[hit] = self._cc_store[rows[hit]]
        out[miss] = fresh
        return out

    # the layout features (line start, line end, blank line before, note in capitals): the only inputs of a token
    # that its spelling does not fix
    _LAYOUT = slice(len(STATIC_FEATURES), N_FEATURES)

    def emissions(self, words, chars, feats, mask, skel=None, skel_pos=None, skel_mask=None, types=None) -> np.ndarray:
        """As ``TaggerNet.emissions`` in eval mode, on numpy arrays -> (B, L, K) float32.

        With ``types`` (the featurizer's spelling keys, see ``collate_arrays``) each distinct spelling-and-layout
        row is built and multiplied by the LSTM's input weights once per batch (notes repeat most of their words:
        about a third of the rows are distinct), and the skeleton branch's inputs come from a table of its
        vocabulary's projections; the arithmetic per row is the plain path's."""
        B, L = words.shape
        if types is not None and self.cfg.use_char and feats.shape[2] >= self._LAYOUT.stop:
            return self._emissions_by_type(words, chars, feats, mask, skel, skel_pos, skel_mask, types)
        parts = [self.word_emb[words], feats.astype(np.float32, copy=False)]
        if self.cfg.use_char:
            flat = np.ascontiguousarray(chars.reshape(B * L, chars.shape[2]))
            if flat.shape[0]:
                keys = flat.view(np.dtype((np.void, flat.dtype.itemsize * flat.shape[1]))).ravel()
                _, first, inv = np.unique(keys, return_index=True, return_inverse=True)
                cf = self._cached_char_features(flat[first])[inv.reshape(-1)]
            else:
                cf = np.zeros((0, self.char_b.shape[0]), np.float32)
            parts.append(cf.reshape(B, L, -1))
        x = np.concatenate(parts, 2)
        outs = [self.lstm(x, mask.sum(1))]
        if self.cfg.use_skeleton:
            sh = self.skel_lstm(self.skel_emb[skel], skel_mask.sum(1))  # (B, S, 2Hs)
            outs.append(np.take_along_axis(sh, skel_pos[:, :, None], 1))
        h = np.concatenate(outs, 2)
        em = h.reshape(B * L, -1) @ self.proj_w
        em += self.proj_b
        return em.reshape(B, L, -1)

    def _emissions_by_type(self, words, chars, feats, mask, skel, skel_pos, skel_mask, types) -> np.ndarray:
        B, L = words.shape
        lengths = mask.sum(1)
        # a key per (spelling, layout): the four layout features are 0/1
        lay = feats[:, :, self._LAYOUT]
        code = (lay[..., 0] + 2 * lay[..., 1] + 4 * lay[..., 2] + 8 * lay[..., 3]).astype(np.int64)
        keys = np.where(mask, types * 16 + code, -1).reshape(-1)
        uniq, first, inv = np.unique(keys, return_index=True, return_inverse=True)
        wf, cf_rows, ff = words.reshape(-1)[first], chars.reshape(B * L, -1)[first], feats.reshape(B * L, -1)[first]
        cf_rows = np.ascontiguousarray(cf_rows)  # distinct spellings can share a row (long words keep their ends)
        ck = cf_rows.view(np.dtype((np.void, cf_rows.dtype.itemsize * cf_rows.shape[1]))).ravel()
        _, cfirst, cinv = np.unique(ck, return_index=True, return_inverse=True)
        cf = self._cached_char_features(cf_rows[cfirst])[cinv.reshape(-1)]
        x = np.concatenate([self.word_emb[wf], ff.astype(np.float32, copy=False), cf], 1)     # (U, D)
        w = self.lstm.w_ih_dir
        outs = [self.lstm.run_gathered(x @ w[0], x @ w[1], inv.reshape(B, L), lengths)]
        if self.cfg.use_skeleton:
            tables = getattr(self, "_skel_tables", None)
            if tables is None:  # the skeleton vocabulary's inputs times each direction's weights
                ws = self.skel_lstm.w_ih_dir
                tables = self._skel_tables = (self.skel_emb @ ws[0], self.skel_emb @ ws[1])
            sh = self.skel_lstm.run_gathered(tables[0], tables[1], skel, skel_mask.sum(1))
            outs.append(np.take_along_axis(sh, skel_pos[:, :, None], 1))
        h = np.concatenate(outs, 2)
        em = h.reshape(B * L, -1) @ self.proj_w
        em += self.proj_b
        return em.reshape(B, L, -1)

    def decode(self, batch: dict, with_marginals: bool = True):
        """Best paths (B, L) int64 and, optionally, marginals (B, L, K) float32."""
        em = self.emissions(**batch).astype(np.float64)
        return decode_arrays(em, batch["mask"], self._crf, with_marginals)


def decode_arrays(em: np.ndarray, mask: np.ndarray, params, with_marginals: bool = True):
    """Viterbi paths and float32 marginals from float64 emissions and CRF ``params``."""
    paths = viterbi_np(em, mask, *params)
    marg = marginals_scaled_np(em, mask, *params).astype(np.float32) if with_marginals else None
    return paths, marg
