"""The network's hyperparameters (torch-free: the numpy runtime reads them too)."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass
class NetConfig:
    n_words: int
    n_chars: int
    n_skel: int
    n_feats: int
    n_tags: int
    word_dim: int = 50
    char_dim: int = 25
    char_filters: int = 50
    char_kernel: int = 3
    hidden: int = 64
    skel_dim: int = 32
    skel_hidden: int = 32
    dropout: float = 0.4
    use_char: bool = True
    use_skeleton: bool = True

    def to_json(self) -> dict:
        return asdict(self)
