"""A linear-chain CRF: negative log-likelihood, Viterbi decoding, marginals.

Shapes: ``B`` batch, ``L`` sequence length, ``K`` number of tags.
``emissions`` is ``(B, L, K)``; ``mask`` is ``(B, L)`` bool with every
sequence's valid positions first (left-aligned, at least one valid step).
All recursions run over the time axis and are vectorised over the batch.
"""

from __future__ import annotations

import torch
from torch import nn


class CRF(nn.Module):
    def __init__(self, num_tags: int):
        super().__init__()
        self.num_tags = num_tags
        self.start = nn.Parameter(torch.zeros(num_tags))        # (K,)
        self.end = nn.Parameter(torch.zeros(num_tags))          # (K,)
        self.trans = nn.Parameter(torch.zeros(num_tags, num_tags))  # (K_from, K_to)

    # --- scores -------------------------------------------------------------
    def score(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Unnormalised score of the tag path ``tags`` (B, L) -> (B,)."""
        B, L, _ = emissions.shape
        m = mask.float()
        emit = emissions.gather(2, tags.unsqueeze(2)).squeeze(2)          # (B, L)
        s = self.start[tags[:, 0]] + (emit * m).sum(1)                    # (B,)
        if L > 1:
            tr = self.trans[tags[:, :-1], tags[:, 1:]]                    # (B, L-1)
            s = s + (tr * m[:, 1:]).sum(1)
        last = mask.long().sum(1) - 1                                     # (B,)
        s = s + self.end[tags.gather(1, last.unsqueeze(1)).squeeze(1)]
        return s

    def _forward_alpha(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Forward log-potentials alpha (B, L, K); masked steps copy the previous alpha."""
        B, L, K = emissions.shape
        alpha = self.start.unsqueeze(0) + emissions[:, 0]                 # (B, K)
        out = [alpha]
        for t in range(1, L):
            nxt = torch.logsumexp(alpha.unsqueeze(2) + self.trans.unsqueeze(0), dim=1) + emissions[:, t]
            alpha = torch.where(mask[:, t].unsqueeze(1), nxt, alpha)      # (B, K)
            out.append(alpha)
        return torch.stack(out, 1)

    def log_partition(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """log Z per sequence (B,)."""
        alpha = self._forward_alpha(emissions, mask)
        return torch.logsumexp(alpha[:, -1] + self.end.unsqueeze(0), dim=1)

    def nll(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Mean negative log-likelihood over the batch (scalar).

        A tag of -1 marks a position whose label is unknown (partial annotation): the
        likelihood then sums over every path that agrees with the known tags
        (Tsuboi et al. 2008), i.e. log Z of the constrained lattice replaces the gold
        path's score."""
        logz = self.log_partition(emissions, mask)
        free = (tags < 0) & mask
        if not bool(free.any()):
            return (logz - self.score(emissions, tags, mask)).mean()
        allowed = torch.nn.functional.one_hot(tags.clamp(min=0), self.num_tags).bool() | free.unsqueeze(2)
        constrained = emissions.masked_fill(~allowed, -1e4)
        return (logz - self.log_partition(constrained, mask)).mean()

    # --- inference ----------------------------------------------------------
    def viterbi(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Best tag path (B, L); positions beyond a sequence's length are 0."""
        B, L, K = emissions.shape
        score = self.start.unsqueeze(0) + emissions[:, 0]                 # (B, K)
        backs = []
        for t in range(1, L):
            cand = score.unsqueeze(2) + self.trans.unsqueeze(0)           # (B, K_from, K_to)
            best, idx = cand.max(1)                                       # (B, K)
            nxt = best + emissions[:, t]
            m = mask[:, t].unsqueeze(1)
            score = torch.where(m, nxt, score)
            # on masked steps point every tag at itself so backtracking passes through
            ident = torch.arange(K, device=emissions.device).expand(B, K)
            backs.append(torch.where(m, idx, ident))
        score = score + self.end.unsqueeze(0)
        best_last = score.argmax(1)                                       # (B,)
        path = [best_last]
        cur = best_last
        for bp in reversed(backs):
            cur = bp.gather(1, cur.unsqueeze(1)).squeeze(1)
            path.append(cur)
        path.reverse()
        tags = torch.stack(path, 1)                                       # (B, L)
        return tags * mask.long()

    def marginals(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Posterior p(tag_t = k | x) by forward-backward (B, L, K); 0 beyond length."""
        B, L, K = emissions.shape
        alpha = self._forward_alpha(emissions, mask)                      # (B, L, K)
        lengths = mask.long().sum(1)                                      # (B,)
        beta = torch.zeros(B, L, K, dtype=emissions.dtype, device=emissions.device)
        b = self.end.unsqueeze(0).expand(B, K)                            # (B, K) at last valid step
        last = lengths - 1
        for t in range(L - 1, -1, -1):
            is_last = (last == t).unsqueeze(1)
            inside = (t < last).unsqueeze(1)
            if t < L - 1:
                nb = torch.logsumexp(self.trans.unsqueeze(0) + (emissions[:, t + 1] + b).unsqueeze(1), dim=2)
            else:
                nb = b
            b = torch.where(is_last, self.end.unsqueeze(0).expand(B, K), torch.where(inside, nb, b))
            beta[:, t] = b
        logz = torch.logsumexp(alpha[:, -1] + self.end.unsqueeze(0), dim=1)  # (B,)
        post = torch.exp(alpha + beta - logz.view(B, 1, 1))
        return post * mask.unsqueeze(2).to(post.dtype)


# --- numpy inference: in ``crf_np`` (torch-free, so tagging never imports torch); re-exported here ----
from .crf_np import _lse, marginals_np, marginals_scaled_np, viterbi_np  # noqa: E402,F401
