"""The BiLSTM-CRF network with a character CNN and a text-skeleton branch.

Main branch input per token: word embedding ++ char-CNN (max-pooled) ++
casing/layout features -> BiLSTM. Skeleton branch (Zhao et al. 2018): the
skeleton sequence (with ``#RETURN`` steps) -> embedding -> its own BiLSTM; the
outputs at each real token's skeleton position are concatenated with the main
branch and projected to CRF emissions.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

import numpy as np

from .config import NetConfig  # noqa: F401  (re-exported: training code imports it from here)
from .crf import CRF, marginals_scaled_np, viterbi_np


class TaggerNet(nn.Module):
    def __init__(self, cfg: NetConfig):
        super().__init__()
        self.cfg = cfg
        self.word_emb = nn.Embedding(cfg.n_words, cfg.word_dim, padding_idx=0)
        d_in = cfg.word_dim + cfg.n_feats
        if cfg.use_char:
            self.char_emb = nn.Embedding(cfg.n_chars, cfg.char_dim, padding_idx=0)
            self.char_cnn = nn.Conv1d(cfg.char_dim, cfg.char_filters, cfg.char_kernel, padding=cfg.char_kernel // 2)
            d_in += cfg.char_filters
        self.lstm = nn.LSTM(d_in, cfg.hidden, batch_first=True, bidirectional=True)
        d_out = 2 * cfg.hidden
        if cfg.use_skeleton:
            self.skel_emb = nn.Embedding(cfg.n_skel, cfg.skel_dim, padding_idx=0)
            self.skel_lstm = nn.LSTM(cfg.skel_dim, cfg.skel_hidden, batch_first=True, bidirectional=True)
            d_out += 2 * cfg.skel_hidden
        self.drop = nn.Dropout(cfg.dropout)
        self.proj = nn.Linear(d_out, cfg.n_tags)
        self.crf = CRF(cfg.n_tags)

    @staticmethod
    def _run_lstm(lstm: nn.LSTM, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        if bool((lengths == x.shape[1]).all()):
            return lstm(x)[0]
        packed = pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, _ = lstm(packed)
        return pad_packed_sequence(out, batch_first=True, total_length=x.shape[1])[0]

    def _char_features(self, chars: torch.Tensor) -> torch.Tensor:
        """chars (N, C) -> max-pooled char-CNN features (N, filters); padding ignored."""
        ce = self.char_emb(chars).transpose(1, 2)                             # (N, char_dim, C)
        cf = self.char_cnn(ce)                                                # (N, filters, C)
        pad = chars.unsqueeze(1) == 0
        # without autograd the fresh convolution output is filled in place (same values, no copy)
        cf = (cf.masked_fill(pad, -1e4) if torch.is_grad_enabled() else cf.masked_fill_(pad, -1e4)).amax(2)
        return torch.where(cf < -1e3, torch.zeros_like(cf), cf)

    def emissions(self, words, chars, feats, mask, skel=None, skel_pos=None, skel_mask=None) -> torch.Tensor:
        """words (B, L), chars (B, L, C), feats (B, L, F), mask (B, L); skel (B, S),
        skel_pos (B, L), skel_mask (B, S) -> emissions (B, L, K)."""
        B, L = words.shape
        parts = [self.word_emb(words), feats]
        if self.cfg.use_char:
            flat = chars.view(B * L, chars.shape[2])                          # (B*L, C)
            if self.training:
                cf = self._char_features(flat)
            else:  # inference: each distinct token spelling once (punctuation, common words repeat)
                uniq, inv = _unique_rows(flat)
                cf = self._char_features(uniq)[inv]
            parts.append(cf.view(B, L, -1))
        x = self.drop(torch.cat(parts, 2))                                    # (B, L, d_in)
        h = self._run_lstm(self.lstm, x, mask.sum(1))                         # (B, L, 2H)
        outs = [h]
        if self.cfg.use_skeleton:
            se = self.drop(self.skel_emb(skel))                               # (B, S, skel_dim)
            sh = self._run_lstm(self.skel_lstm, se, skel_mask.sum(1))         # (B, S, 2Hs)
            idx = skel_pos.unsqueeze(2).expand(B, L, sh.shape[2])
            outs.append(sh.gather(1, idx))                                    # (B, L, 2Hs)
        return self.proj(self.drop(torch.cat(outs, 2)))

    def loss(self, batch: dict, tags: torch.Tensor) -> torch.Tensor:
        em = self.emissions(**batch)
        return self.crf.nll(em, tags, batch["mask"])

    def crf_params(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The CRF's start, end and transition scores as float64 arrays."""
        c = self.crf
        return (c.start.detach().double().cpu().numpy(), c.end.detach().double().cpu().numpy(),
                c.trans.detach().double().cpu().numpy())

    def decode(self, batch: dict, with_marginals: bool = True):
        """Best paths (B, L) and, optionally, marginals (B, L, K)."""
        em = self.emissions(**batch)
        if not torch.is_grad_enabled() and em.device.type == "cpu":
            return decode_np(em.double().numpy(), batch["mask"].numpy(), self.crf_params(), with_marginals)
        paths = self.crf.viterbi(em, batch["mask"])
        marg = self.crf.marginals(em, batch["mask"]) if with_marginals else None
        return paths, marg


def decode_np(em: np.ndarray, mask: np.ndarray, params, with_marginals: bool = True):
    """Viterbi paths and marginals from numpy emissions (B, L, K) and CRF ``params``
    (start, end, trans): numpy recursions have a fraction of torch's per-op
    overhead on short CPU batches."""
    paths = torch.from_numpy(viterbi_np(em, mask, *params))
    marg = torch.from_numpy(marginals_scaled_np(em, mask, *params)).float() if with_marginals else None
    return paths, marg


def _unique_rows(flat: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Distinct rows of a 2-D integer tensor and the inverse index (like
    ``torch.unique(dim=0)``; on CPU a byte-view ``np.unique``, several times faster)."""
    if flat.device.type != "cpu" or flat.shape[0] == 0:
        return torch.unique(flat, dim=0, return_inverse=True)
    a = np.ascontiguousarray(flat.numpy())
    keys = a.view(np.dtype((np.void, a.dtype.itemsize * a.shape[1]))).ravel()
    _, first, inv = np.unique(keys, return_index=True, return_inverse=True)
    return torch.from_numpy(a[first]), torch.from_numpy(inv.reshape(-1).astype(np.int64))
