"""A trained tagger: network + vocabularies + labels; save, load, predict.

On disk a model is a folder with ``model.pt`` (the ``state_dict``, loaded with
``torch.load(..., weights_only=True)``) and ``model.json`` (format
``deid-tagger.v1``: vocabularies, tag list, hyperparameters, skeleton ``r`` and
``t``, tokenizer version, training provenance and dev metrics).

A model may carry *members* (Liu et al.'s voting taggers): further model folders
under ``members/`` named by the card's ``ensemble.members``, each a complete
model with the same tag list (typically another training seed). They vote by
log-linear pooling: the members' CRF scores (emissions and transitions) are
averaged, so the ensemble is itself a CRF whose distribution is the normalised
geometric mean of the members'; Viterbi and marginals run once on the pooled
scores. Members whose vocabularies equal the main model's share its encoding.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Sequence

import contextlib
import logging

import numpy as np

from ..tokenize import TOKENIZER_VERSION
from .config import NetConfig
from .data import Window, collate, collate_arrays, tags_to_spans, windows
from .features import Featurizer, Vocab, lexicon_features_from_card

log = logging.getLogger(__name__)

FORMAT = "deid-tagger.v1"


def auto_threads() -> int:
    """2 torch threads, or 1 when the load exceeds the cores: torch's thread pool
    spins under contention (one thread measured 10-20x faster on a busy 2-core machine)."""
    import os

    cores = min(2, os.cpu_count() or 1)
    try:
        if os.getloadavg()[0] > (os.cpu_count() or 1) - 0.5:
            return 1
    except (OSError, AttributeError):
        pass
    return cores


def device():
    import torch

    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


class TaggerModel:
    """Everything needed to tag text; ``predict`` handles windows and batching."""

    def __init__(self, net, words: Vocab, chars: Vocab, skeleton: Vocab,
                 tags: Sequence[str], meta: dict[str, Any] | None = None,
                 window: int = 200, overlap: int = 50, members: Sequence["TaggerModel"] = ()):
        self.net = net
        self.words, self.chars, self.skeleton = words, chars, skeleton
        self.tags = list(tags)
        self.meta = {k: v for k, v in (meta or {}).items() if k != "ensemble"}
        self.window, self.overlap = window, overlap
        self.featurizer = Featurizer(words, chars, skeleton, lexicon_features_from_card(self.meta))
        self.members: list[TaggerModel] = []
        for m in members:
            self.add_member(m)

    def add_member(self, member: "TaggerModel") -> None:
        """Add a voting member (same tag list; its own vocabularies are allowed)."""
        if member.tags != self.tags:
            raise ValueError("ensemble members must have the same tag list")
        if member.members:
            raise ValueError("ensemble members cannot have members of their own")
        self.members.append(member)

    def _same_features(self, other: "TaggerModel") -> bool:
        return (other.words.itos == self.words.itos and other.chars.itos == self.chars.itos
                and other.skeleton.itos == self.skeleton.itos
                and other.meta.get("lexicon_features") == self.meta.get("lexicon_features"))

    @property
    def runtime(self) -> str:
        """``"numpy"`` or ``"torch"``: which implementation runs the network."""
        return getattr(self.net, "runtime", "torch")

    @property
    def labels(self) -> list[str]:
        return sorted({t[2:] for t in self.tags if t != "O"})

    # --- prediction ---------------------------------------------------------
    def predict(self, texts: Sequence[str], batch_size: int = 48, with_marginals: bool = True,
                recall_threshold: float | None = None) -> list[list[tuple[int, int, str, float]]]:
        """Spans (start, end, label, confidence) per text. Long texts are split into
        overlapping windows, batched across texts; nothing is truncated.

        ``recall_threshold`` (default: the model card's ``recall_threshold``, else
        none): tokens the Viterbi path leaves as O but whose marginal probability
        of being PHI (1 - P(O)) reaches it become spans too (recall first); their
        label is the most probable PHI label and their confidence that PHI mass."""
        if recall_threshold is None:
            recall_threshold = self.meta.get("recall_threshold")
        if not with_marginals:
            recall_threshold = None
        nets = [self] + self.members
        numpy_rt = self.runtime == "numpy"
        if numpy_rt:
            dev, ctx = None, contextlib.nullcontext()
        else:
            import torch

            for m in nets:
                m.net.eval()
            dev, ctx = next(self.net.parameters()).device, torch.inference_mode()
        encs = [self.featurizer.encode(t) for t in texts]
        # members' encodings (tokens shared; arrays shared when the vocabularies are equal)
        m_encs = [None if self._same_features(m) else
                  [m.featurizer.encode(t, e.tokens) for t, e in zip(texts, encs)] for m in self.members]
        items: list[Window] = []
        for di, e in enumerate(encs):
            n = len(e.tokens)
            if not n:
                continue
            for a, b, ka, kb in windows(n, self.window, self.overlap):
                items.append(Window(e, a, b, key=(di, ka, kb)))
        # similar lengths together: less padding
        order = sorted(range(len(items)), key=lambda i: items[i].b - items[i].a)
        doc_tags = [np.zeros(len(e.tokens), np.int64) for e in encs]
        doc_prob = [np.ones(len(e.tokens), np.float32) for e in encs]
        n_lab = len(self.labels)
        lab_of_tag = np.array([-1] + [self.labels.index(t[2:]) for t in self.tags[1:]])
        tag_to_lab = np.zeros((len(self.tags), n_lab), np.float32)   # (K, labels) one-hot, O row zero
        tag_to_lab[np.arange(1, len(self.tags)), lab_of_tag[1:]] = 1.0
        doc_lab = [np.zeros((len(e.tokens), n_lab), np.float32) for e in encs] if recall_threshold else None
        with ctx:
            for s in range(0, len(order), batch_size):
                chunk = [items[i] for i in order[s : s + batch_size]]
                if numpy_rt:
                    batch, _ = collate_arrays(chunk, with_types=True)
                    if self.members:
                        paths_np, marg_np = self._pooled_decode_arrays(batch, chunk, m_encs, with_marginals)
                    else:
                        paths_np, marg_np = self.net.decode(batch, with_marginals)
                else:
                    batch, _ = collate(chunk, dev)
                    if self.members:
                        paths, marg = self._pooled_decode(batch, chunk, m_encs, dev, with_marginals)
                    else:
                        paths, marg = self.net.decode(batch, with_marginals)
                    paths_np = paths.cpu().numpy()
                    marg_np = marg.cpu().numpy() if marg is not None else None
                if marg_np is not None:
                    chosen = np.take_along_axis(marg_np, paths_np[:, :, None], 2)[:, :, 0]
                for j, w in enumerate(chunk):
                    di, ka, kb = w.key
                    doc_tags[di][ka:kb] = paths_np[j, ka - w.a : kb - w.a]
                    if marg_np is not None:
                        doc_prob[di][ka:kb] = chosen[j, ka - w.a : kb - w.a]
                        if doc_lab is not None:
                            mj = marg_np[j, ka - w.a : kb - w.a]            # (n, K)
                            doc_lab[di][ka:kb] = mj @ tag_to_lab
        out = []
        for i, e in enumerate(encs):
            spans = tags_to_spans(e.tokens, doc_tags[i], self.tags, doc_prob[i])
            if doc_lab is not None:
                spans = sorted(spans + self._uncertain_spans(e.tokens, doc_tags[i], doc_lab[i], recall_threshold))
            out.append(spans)
        return out

    def _pooled_decode_arrays(self, batch: dict, chunk: list[Window], m_encs, with_marginals: bool):
        """``_pooled_decode`` in the numpy runtime."""
        from .runtime import decode_arrays

        ems = [self.net.emissions(**batch)]
        params = [self.net.crf_params()]
        for m, encs_m in zip(self.members, m_encs):
            mb = batch if encs_m is None else \
                collate_arrays([Window(encs_m[w.key[0]], w.a, w.b, key=w.key) for w in chunk])[0]
            ems.append(m.net.emissions(**mb))
            params.append(m.net.crf_params())
        em = np.stack(ems).mean(0).astype(np.float64)
        pooled = tuple(np.mean([p[i] for p in params], 0) for i in range(3))
        return decode_arrays(em, batch["mask"], pooled, with_marginals)

    def _pooled_decode(self, batch: dict, chunk: list[Window], m_encs, dev, with_marginals: bool):
        """Decode one batch with the members' CRF scores averaged (log-linear pooling)."""
        import torch

        from .network import decode_np

        ems = [self.net.emissions(**batch)]
        params = [self.net.crf_params()]
        for m, encs_m in zip(self.members, m_encs):
            if encs_m is None:  # same vocabularies: same arrays
                mb = batch
            else:
                mb, _ = collate([Window(encs_m[w.key[0]], w.a, w.b, key=w.key) for w in chunk], dev)
            ems.append(m.net.emissions(**mb))
            params.append(m.net.crf_params())
        em = torch.stack(ems).mean(0)
        if em.device.type != "cpu" or torch.is_grad_enabled():
            crf = self.net.crf
            start, end, trans = (torch.from_numpy(np.mean([p[i] for p in params], 0)).to(em) for i in range(3))
            saved = (crf.start.data, crf.end.data, crf.trans.data)
            try:  # pooled scores through the torch CRF (GPU path)
                crf.start.data, crf.end.data, crf.trans.data = start, end, trans
                paths = crf.viterbi(em, batch["mask"])
                marg = crf.marginals(em, batch["mask"]) if with_marginals else None
            finally:
                crf.start.data, crf.end.data, crf.trans.data = saved
            return paths, marg
        pooled = tuple(np.mean([p[i] for p in params], 0) for i in range(3))
        return decode_np(em.double().numpy(), batch["mask"].numpy(), pooled, with_marginals)

    def _uncertain_spans(self, tokens, tags, lab, threshold: float) -> list[tuple[int, int, str, float]]:
        """Runs of O-tagged tokens whose PHI probability reaches ``threshold``."""
        phi = lab.sum(1)
        hot = (tags == 0) & (phi >= threshold)
        out = []
        i, n = 0, len(tokens)
        while i < n:
            if not hot[i]:
                i += 1
                continue
            j = i
            while j + 1 < n and hot[j + 1]:
                j += 1
            label = self.labels[int(lab[i : j + 1].sum(0).argmax())]
            conf = float(np.clip(phi[i : j + 1].mean(), 0.0, 1.0))
            if any(c.isalnum() for t in tokens[i : j + 1] for c in t.text):
                out.append((tokens[i].start, tokens[j].end, label, conf))
            i = j + 1
        return out

    # --- persistence --------------------------------------------------------
    def card(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "tokenizer": TOKENIZER_VERSION,
            "tags": self.tags,
            "net": self.net.cfg.to_json(),
            "window": self.window,
            "overlap": self.overlap,
            "vocab": {"words": self.words.to_json(), "chars": self.chars.to_json(),
                      "skeleton": self.skeleton.to_json()},
            **{k: v for k, v in self.meta.items() if k not in ("vocab", "net", "tags", "ensemble")},
            **({"ensemble": {"pooling": "log-linear",
                             "members": [f"members/m{i + 1}" for i in range(len(self.members))]}}
               if self.members else {}),
        }

    def save(self, folder: Path | str) -> Path:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        import torch

        if self.runtime != "torch":
            raise ValueError("a model loaded for the numpy runtime cannot be saved; load it with runtime='torch'")
        state = {k: v.detach().cpu().clone() for k, v in self.net.state_dict().items()}
        torch.save(state, folder / "model.pt")
        for i, m in enumerate(self.members):
            m.save(folder / "members" / f"m{i + 1}")
        card = self.card()
        card.setdefault("saved", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        (folder / "model.json").write_text(json.dumps(card, ensure_ascii=False, indent=1), encoding="utf-8")
        return folder

    @classmethod
    def load(cls, folder: Path | str, map_location=None, runtime: str = "torch") -> "TaggerModel":
        """A saved model. ``runtime`` ``"torch"`` (training, evaluation, GPU) or ``"numpy"``
        (CPU tagging without importing torch, ``runtime.py``); ``"auto"`` picks by
        ``runtime.choose_runtime``. A weights file the numpy reader does not understand
        falls back to torch."""
        folder = Path(folder)
        card = json.loads((folder / "model.json").read_text(encoding="utf-8"))
        if card.get("format") != FORMAT:
            raise ValueError(f"{folder}: not a {FORMAT} model")
        if card.get("tokenizer") != TOKENIZER_VERSION:
            raise ValueError(f"{folder}: model built for tokenizer {card.get('tokenizer')}, "
                             f"this engine has {TOKENIZER_VERSION}")
        if runtime == "auto":
            from .runtime import choose_runtime

            runtime = choose_runtime()
        net = None
        if runtime == "numpy":
            from .runtime import NumpyTaggerNet
            from .weights import UnsupportedWeights

            try:
                net = NumpyTaggerNet.load(folder, NetConfig(**card["net"]))
            except UnsupportedWeights as e:
                log.warning("numpy runtime cannot read %s (%s); using torch", folder.name, e)
                runtime = "torch"
        if net is None:
            import torch

            from .network import TaggerNet

            net = TaggerNet(NetConfig(**card["net"]))
            state = torch.load(folder / "model.pt", map_location=map_location or device(), weights_only=True)
            net.load_state_dict(state)
            net.to(map_location or device()).eval()
        v = card["vocab"]
        meta = {k: val for k, val in card.items() if k not in ("vocab",)}
        members = []
        for rel in (card.get("ensemble") or {}).get("members", []):
            sub = (folder / rel).resolve()
            if folder.resolve() not in sub.parents:
                raise ValueError(f"{folder}: ensemble member outside the model folder: {rel}")
            members.append(cls.load(sub, map_location, runtime=runtime))
        return cls(net, Vocab.from_json(v["words"]), Vocab.from_json(v["chars"]),
                   Vocab.from_json(v["skeleton"]), card["tags"], meta,
                   window=card.get("window", 200), overlap=card.get("overlap", 50), members=members)
