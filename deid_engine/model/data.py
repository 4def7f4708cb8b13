"""Training examples, BIO tags, windows over long notes, and batching."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from ..io.brat import iter_brat_folder, taxonomy_labels
from ..splits import physionet_split
from ..tokenize import Token
from ..types import Span
from .features import Encoded

_PHYSIONET_NAME = re.compile(r"p\d+-n\d+$")


@dataclass
class Example:
    """A text with gold spans (taxonomy labels)."""

    text: str
    spans: list[Span]
    name: str = ""
    origin: str = ""  # corpus or augmentation that produced it


def load_folder(folder: Path | str, split: str | None = None) -> list[Example]:
    """A BRAT folder as examples. For PhysioNet-named notes, ``split`` ('train',
    'dev' or None = all) selects by ``physionet_split``."""
    out = []
    for d in iter_brat_folder(Path(folder), taxonomy_labels):
        if split and _PHYSIONET_NAME.match(d.name) and physionet_split(d.name) != split:
            continue
        out.append(Example(d.text, list(d.spans), d.name, origin=Path(folder).name))
    return out


def is_physionet(examples: Sequence[Example]) -> bool:
    return bool(examples) and all(_PHYSIONET_NAME.match(e.name) for e in examples)


# --- tags ----------------------------------------------------------------------

def tag_names(labels: Sequence[str]) -> list[str]:
    return ["O"] + [f"{p}-{lbl}" for lbl in labels for p in ("B", "I")]


def bio_tags(tokens: Sequence[Token], spans: Iterable[Span], tag_index: dict[str, int],
             ignore: str | None = None) -> np.ndarray:
    """Tag ids per token: a token inside a span (by overlap) gets B-/I- of its label.
    Tokens of a span labelled ``ignore`` get -1: the CRF loss leaves them free (any tag)."""
    tags = np.zeros(len(tokens), dtype=np.int64)
    starts = np.fromiter((t.start for t in tokens), dtype=np.int64, count=len(tokens))
    ends = np.fromiter((t.end for t in tokens), dtype=np.int64, count=len(tokens))
    for s in sorted(spans, key=lambda s: (s.start, s.end)):
        free = ignore is not None and s.label == ignore
        if not free and f"B-{s.label}" not in tag_index:
            continue
        lo = int(np.searchsorted(ends, s.start, side="right"))
        hi = int(np.searchsorted(starts, s.end, side="left"))
        if hi <= lo:
            continue
        if tags[lo:hi].any():  # overlapping gold: keep the first
            continue
        if free:
            tags[lo:hi] = -1
            continue
        tags[lo] = tag_index[f"B-{s.label}"]
        tags[lo + 1 : hi] = tag_index[f"I-{s.label}"]
    return tags


def tags_to_spans(tokens: Sequence[Token], tags: Sequence[int], tag_names_: Sequence[str],
                  probs: np.ndarray | None = None) -> list[tuple[int, int, str, float]]:
    """BIO tag ids -> (start, end, label, confidence); a stray I- starts a span.

    Confidence is the mean over the span's tokens of the marginal of the tag
    the decoder chose (``probs`` is (N,) or None)."""
    out = []
    cur = None  # [start_tok, end_tok, label]
    for i, tid in enumerate(tags):
        name = tag_names_[tid]
        if name == "O":
            if cur:
                out.append(cur)
            cur = None
            continue
        p, lbl = name.split("-", 1)
        if p == "B" or cur is None or cur[2] != lbl:
            if cur:
                out.append(cur)
            cur = [i, i, lbl]
        else:
            cur[1] = i
    if cur:
        out.append(cur)
    res = []
    for a, b, lbl in out:
        conf = float(probs[a : b + 1].mean()) if probs is not None else 1.0
        res.append((tokens[a].start, tokens[b].end, lbl, min(max(conf, 0.0), 1.0)))
    return res


# --- windows -------------------------------------------------------------------

def windows(n: int, size: int = 200, overlap: int = 50) -> list[tuple[int, int, int, int]]:
    """Windows over ``n`` tokens: (start, end, keep_start, keep_end).

    Consecutive windows overlap by ``overlap`` tokens; each token's prediction
    is kept from exactly one window, the one where it is most central (the
    boundary between two windows is the middle of their overlap). The keep
    ranges partition ``[0, n)``.
    """
    if n <= size:
        return [(0, n, 0, n)]
    stride = size - overlap
    starts = list(range(0, n - size, stride)) + [n - size]
    wins = []
    for i, a in enumerate(starts):
        b = a + size
        ka = 0 if i == 0 else (a + wins[-1][1]) // 2
        kb = n if i == len(starts) - 1 else (starts[i + 1] + b) // 2
        wins.append([a, b, ka, kb])
    return [tuple(w) for w in wins]  # type: ignore[misc]


@dataclass
class Window:
    enc: Encoded
    a: int
    b: int
    tags: np.ndarray | None = None
    key: tuple = field(default_factory=tuple)


def collate(items: Sequence[Window], device="cpu") -> tuple[dict, "torch.Tensor | None"]:
    """Pad windows into one batch dict of tensors for ``TaggerNet`` (+ tags if present)."""
    import torch

    arrays, tags = collate_arrays(items)
    t = lambda x: torch.from_numpy(x).to(device)  # noqa: E731
    return {k: t(v) for k, v in arrays.items()}, (t(tags) if tags is not None else None)


def collate_arrays(items: Sequence[Window], with_types: bool = False) -> tuple[dict, np.ndarray | None]:
    """Pad windows into one batch dict of numpy arrays (+ tags if present). With ``with_types`` and every
    window's encoding carrying type keys, the batch also holds ``types`` (B, L) (-1 on padding), which the numpy
    runtime's ``emissions`` accepts."""
    B = len(items)
    L = max(w.b - w.a for w in items)
    spans = []
    for w in items:
        sa = int(w.enc.skel_pos[w.a])
        sb = int(w.enc.skel_pos[w.b - 1]) + 1
        spans.append((sa, sb))
    S = max(sb - sa for sa, sb in spans)
    C = items[0].enc.chars.shape[1]
    F = items[0].enc.feats.shape[1]
    words = np.zeros((B, L), np.int64)
    chars = np.zeros((B, L, C), np.int64)
    feats = np.zeros((B, L, F), np.float32)
    mask = np.zeros((B, L), bool)
    skel = np.zeros((B, S), np.int64)
    skel_pos = np.zeros((B, L), np.int64)
    skel_mask = np.zeros((B, S), bool)
    tags = np.zeros((B, L), np.int64)
    has_tags = items[0].tags is not None
    for i, (w, (sa, sb)) in enumerate(zip(items, spans)):
        n = w.b - w.a
        e = w.enc
        words[i, :n] = e.words[w.a : w.b]
        chars[i, :n] = e.chars[w.a : w.b]
        feats[i, :n] = e.feats[w.a : w.b]
        mask[i, :n] = True
        skel[i, : sb - sa] = e.skel[sa:sb]
        skel_mask[i, : sb - sa] = True
        skel_pos[i, :n] = e.skel_pos[w.a : w.b] - sa
        if has_tags:
            tags[i, :n] = w.tags[w.a : w.b]
    batch = {"words": words, "chars": chars, "feats": feats, "mask": mask,
             "skel": skel, "skel_pos": skel_pos, "skel_mask": skel_mask}
    if with_types and all(w.enc.types is not None for w in items):
        types = np.full((B, L), -1, np.int64)
        for i, w in enumerate(items):
            types[i, : w.b - w.a] = w.enc.types[w.a : w.b]
        batch["types"] = types
    return batch, (tags if has_tags else None)
