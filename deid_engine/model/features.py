"""Token features: vocabularies, casing features and the text skeleton.

A document is tokenized with ``deid_engine.tokenize.tokenize`` (exact offsets)
and turned into arrays: word ids (lower-cased, digits -> ``0``), character ids
per token, a small vector of casing/shape/layout features, and the *text
skeleton* of Zhao et al. (2018): the token sequence where frequent words are
kept, rare words become ``<UNK>``, numbers become ``DIGIT``, and every line
break is an explicit ``#RETURN`` token, so the layout of a record ("Dr." at the
start of a line, a signature block) is visible to a second recurrent branch.
"""

from __future__ import annotations

import re
from collections import Counter
from operator import itemgetter
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping, Sequence

import numpy as np

from ..tokenize import Token, tokenize

PAD, UNK = "<PAD>", "<UNK>"
RETURN, DIGIT = "#RETURN", "DIGIT"
MAX_CHARS = 20
_DIGITS = re.compile(r"\d")
_START, _END, _TEXT = itemgetter(0), itemgetter(1), itemgetter(2)  # Token fields


def norm_word(text: str) -> str:
    """The word-embedding key: lower case, every digit replaced by ``0``."""
    return _DIGITS.sub("0", text.lower())


class Vocab:
    """A string <-> id table; id 0 is ``<PAD>``, id 1 is ``<UNK>``."""

    def __init__(self, items: Iterable[str] = ()):
        self.itos: list[str] = [PAD, UNK]
        self.stoi: dict[str, int] = {PAD: 0, UNK: 1}
        for it in items:
            self.add(it)

    def add(self, item: str) -> int:
        i = self.stoi.get(item)
        if i is None:
            i = self.stoi[item] = len(self.itos)
            self.itos.append(item)
        return i

    def get(self, item: str) -> int:
        return self.stoi.get(item, 1)

    def __len__(self) -> int:
        return len(self.itos)

    def to_json(self) -> list[str]:
        return list(self.itos)

    @classmethod
    def from_json(cls, items: Sequence[str]) -> "Vocab":
        v = cls()
        for it in items[2:]:
            v.add(it)
        return v


# --- casing / shape features ---------------------------------------------------

_ASCII_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))
STATIC_FEATURES = ("all_upper", "init_cap", "all_lower", "mixed_case", "has_digit", "all_digit",
                   "punct", "single_letter", "len1", "len2", "len3_4", "len5_8", "len9+", "non_ascii")
POSITION_FEATURES = ("line_start", "line_end", "after_blank_line", "upper_context")
N_FEATURES = len(STATIC_FEATURES) + len(POSITION_FEATURES)


def static_features(text: str) -> list[float]:
    if text.isascii():  # the same values from whole-string tests (ASCII: cased characters are the letters)
        has_letter = text.lower() != text.upper()
        up = text.isupper()
        n = len(text)
        init = has_letter and text[0].isupper() and not up
        low = text.islower()
        return [
            float(up and n - len(text.encode().translate(None, _ASCII_LETTERS)) > 1), float(init), float(low),
            float(has_letter and not (up or low or init)),
            float(any(map(str.isdigit, text))), float(text.isdigit()),
            float(not any(map(str.isalnum, text))), float(n == 1 and text.isalpha()),
            float(n == 1), float(n == 2), float(3 <= n <= 4), float(5 <= n <= 8), float(n >= 9),
            0.0,
        ]
    letters = [c for c in text if c.isalpha()]
    up = bool(letters) and all(c.isupper() for c in letters)
    low = bool(letters) and all(c.islower() for c in letters)
    init = bool(letters) and text[0].isupper() and not up
    n = len(text)
    return [
        float(up and len(letters) > 1), float(init), float(low), float(bool(letters) and not (up or low or init)),
        float(any(c.isdigit() for c in text)), float(text.isdigit()),
        float(not any(c.isalnum() for c in text)), float(n == 1 and text.isalpha()),
        float(n == 1), float(n == 2), float(3 <= n <= 4), float(5 <= n <= 8), float(n >= 9),
        float(any(ord(c) > 127 for c in text)),
    ]


# --- lexicon (gazetteer) features ------------------------------------------------

# Membership of a token in the bundled public-domain lexicons (resources/lexicons):
# a known first name, a surname (the 10,000 most frequent US Census surnames, or any),
# a place name, a medical word (terms, drugs, abbreviations), a medical eponym, an
# everyday English word. In lower-case speech the casing features say nothing, and a
# word that is both a first name and an everyday word ("grace", "will") is a case the
# context must settle: the tagger sees both facts and learns from the context which one
# holds. Optional per model (card key ``lexicon_features``); older models have none.
LEXICON_FEATURES = ("lex_first_name", "lex_surname_common", "lex_surname", "lex_place",
                    "lex_medical", "lex_eponym", "lex_common_word")
LEXICON_FEATURES_VERSION = 1
_SURNAME_COMMON = 10_000
_LEXICON_GROUPS: dict[str, tuple[str, ...]] = {
    "lex_first_name": ("first_names_en", "first_names_world"),
    "lex_surname": ("surnames_en",),
    "lex_place": ("cities_us", "states_us", "countries_en"),
    "lex_medical": ("medical_terms", "drugs", "medical_abbreviations"),
    "lex_eponym": ("medical_eponyms",),
    "lex_common_word": ("common_words_en",),
}


class LexiconFeatures:
    """Word -> 0/1 vector over ``LEXICON_FEATURES`` (case-insensitive; only
    single-word entries count: a token is one word)."""

    names = LEXICON_FEATURES

    def __init__(self, groups: Mapping[str, Iterable[str]]):
        self._sets = {name: frozenset(w.casefold() for w in groups.get(name, ()) if w and " " not in w)
                      for name in LEXICON_FEATURES}

    def vector(self, text: str) -> list[float]:
        key = text.casefold()
        return [float(key in self._sets[name]) for name in LEXICON_FEATURES]

    @classmethod
    def bundled(cls) -> "LexiconFeatures":
        return _bundled_lexicon_features()

    def describe(self) -> dict:
        return {"version": LEXICON_FEATURES_VERSION, "names": list(LEXICON_FEATURES)}


@lru_cache(maxsize=1)
def _bundled_lexicon_features() -> LexiconFeatures:
    from ..lexicons import load_lexicon

    groups: dict[str, list[str]] = {}
    for name, lexicons in _LEXICON_GROUPS.items():
        items: list[str] = []
        for lex in lexicons:
            try:
                items.extend(load_lexicon(lex))
            except KeyError:
                pass
        groups[name] = items
    try:
        groups["lex_surname_common"] = list(load_lexicon("surnames_en")[:_SURNAME_COMMON])
    except KeyError:
        groups["lex_surname_common"] = []
    return LexiconFeatures(groups)


def lexicon_features_from_card(card: Mapping) -> "LexiconFeatures | None":
    """The lexicon features a model card asks for (None for models without them)."""
    spec = card.get("lexicon_features")
    if not spec:
        return None
    if spec.get("version") != LEXICON_FEATURES_VERSION or list(spec.get("names", [])) != list(LEXICON_FEATURES):
        raise ValueError(f"model needs lexicon features {spec}, this engine has version "
                         f"{LEXICON_FEATURES_VERSION} {list(LEXICON_FEATURES)}")
    return LexiconFeatures.bundled()


def skeleton_threshold(counts: Counter, r: float) -> int:
    """The text-skeleton frequency threshold ``t`` for the factor ``r``.

    Words are kept in the skeleton when seen at least ``t`` times. ``t`` is the
    largest count such that the kept words still cover at least ``1 - r`` of
    the training tokens (our reading of Zhao et al. 2018, Eq. 4: about a
    fraction ``r`` of the running text becomes ``<UNK>``).
    """
    total = sum(counts.values())
    if not total:
        return 1
    by_count: Counter = Counter()
    for c in counts.values():
        by_count[c] += c
    covered = 0
    # walk thresholds from high to low; the first one reaching 1 - r is the largest valid t
    for t in sorted(by_count, reverse=True):
        covered += by_count[t]
        if covered >= (1.0 - r) * total:
            return t
    return 1


def skeleton_key(text: str) -> str:
    return DIGIT if text.isdigit() else norm_word(text)


@dataclass
class Encoded:
    """A tokenized document as arrays (``N`` tokens, ``S`` skeleton steps)."""

    tokens: list[Token]
    words: np.ndarray      # (N,) int64
    chars: np.ndarray      # (N, MAX_CHARS) int64
    feats: np.ndarray      # (N, N_FEATURES [+ len(LEXICON_FEATURES)]) float32
    skel: np.ndarray       # (S,) int64, tokens plus #RETURN markers
    skel_pos: np.ndarray   # (N,) int64, index of each token in ``skel``
    # (N,) int64: the token's spelling as a key of the featurizer that encoded it (equal keys: equal words, chars
    # and static features), or None; the numpy runtime projects each distinct (spelling, layout) once
    types: np.ndarray | None = None


class Featurizer:
    """Turns text into ``Encoded`` arrays with fixed vocabularies.

    Each distinct token spelling is analysed once and stored as a row of small
    per-type tables (word id, character ids, casing features, skeleton id); a
    document is then encoded with array indexing, and its layout features (line
    starts and ends, blank lines, ``#RETURN`` steps) come from cumulative counts
    of line breaks. ``encode_reference`` is the plain per-token loop the tables
    must reproduce exactly (tested)."""

    _MAX_TYPES = 300_000

    def __init__(self, words: Vocab, chars: Vocab, skeleton: Vocab, lexicon: LexiconFeatures | None = None):
        self.words, self.chars, self.skeleton = words, chars, skeleton
        self.lexicon = lexicon
        self.n_feats = N_FEATURES + (len(LEXICON_FEATURES) if lexicon is not None else 0)
        self._return_id = skeleton.get(RETURN)
        self._reset_types()

    def _reset_types(self) -> None:
        self._ids: dict[str, int] = {}
        self._generation = getattr(self, "_generation", -1) + 1  # type keys of different tables never meet
        cap = 4096
        self._tw = np.zeros(cap, np.int64)                       # word id
        self._tc = np.zeros((cap, MAX_CHARS), np.int64)          # character ids
        self._tf = np.zeros((cap, len(STATIC_FEATURES)), np.float32)
        self._ts = np.zeros(cap, np.int64)                       # skeleton id
        self._tu = np.zeros(cap, bool)                           # counts as "upper" for the capitals flag
        self._tl = np.zeros((cap, self.n_feats - N_FEATURES), np.float32)  # lexicon features

    def _add_type(self, text: str) -> int:
        k = self._ids.get(text)
        if k is not None:  # a new spelling seen twice in one document
            return k
        k = len(self._ids)
        if k >= len(self._tw):  # grow the tables (doubling)
            n = 2 * len(self._tw)
            self._tw = np.resize(self._tw, n)
            self._ts = np.resize(self._ts, n)
            self._tu = np.resize(self._tu, n)
            self._tc = np.concatenate([self._tc, np.zeros_like(self._tc)])
            self._tf = np.concatenate([self._tf, np.zeros_like(self._tf)])
            self._tl = np.concatenate([self._tl, np.zeros_like(self._tl)])
        w, row, st, sk = self._type_info(text)
        self._tw[k], self._tc[k], self._tf[k], self._ts[k] = w, row, st, sk
        if self.lexicon is not None:
            self._tl[k] = self.lexicon.vector(text)
        self._tu[k] = bool(st[0] or (st[1] and len(text) == 1))
        self._ids[text] = k
        return k

    def _type_info(self, text: str):
        w = self.words.get(norm_word(text))
        row = np.zeros(MAX_CHARS, dtype=np.int64)
        cs = text if len(text) <= MAX_CHARS else text[: MAX_CHARS // 2] + text[-MAX_CHARS // 2 :]
        row[: len(cs)] = [self.chars.get(c) for c in cs]
        return w, row, static_features(text), self.skeleton.get(skeleton_key(text))

    def encode(self, text: str, tokens: list[Token] | None = None) -> Encoded:
        toks = tokenize(text) if tokens is None else tokens
        n = len(toks)
        ns = len(STATIC_FEATURES)
        if not n:
            return self.encode_reference(text, toks)
        if len(self._ids) + n > self._MAX_TYPES:  # bounded memory; never reset within a document
            self._reset_types()
        id_list = list(map(self._ids.get, map(_TEXT, toks)))
        if None in id_list:
            id_list = [self._add_type(t.text) if k is None else k for k, t in zip(id_list, toks)]
        ids = np.array(id_list, dtype=np.int64)
        starts = np.fromiter(map(_START, toks), np.int64, n)
        ends = np.fromiter(map(_END, toks), np.int64, n)
        words = self._tw[ids]
        chars = self._tc[ids]
        feats = np.zeros((n, self.n_feats), dtype=np.float32)
        feats[:, :ns] = self._tf[ids]
        if self.lexicon is not None:
            feats[:, N_FEATURES:] = self._tl[ids]
        # line breaks in the gap before each token: LF count, else CR count (old Mac files)
        prev_end = np.concatenate(([0], ends[:-1]))
        if "\n" in text or "\r" in text:
            cp = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
            lf = np.concatenate(([0], np.cumsum(cp == 10)))
            nl = lf[starts] - lf[prev_end]
            if "\r" in text:
                cr = np.concatenate(([0], np.cumsum(cp == 13)))
                nl = np.where(nl > 0, nl, cr[starts] - cr[prev_end])
        else:
            nl = np.zeros(n, np.int64)
        line_start = nl > 0
        line_start[0] = True
        feats[line_start, ns] = 1.0
        ends_line = np.zeros(n, bool)
        ends_line[:-1] = line_start[1:]
        ends_line[-1] = True
        feats[ends_line, ns + 1] = 1.0
        feats[nl >= 2, ns + 2] = 1.0
        # notes written in capitals: initial capitals carry no information there
        alpha = self._tf[ids, :4].any(axis=1)
        n_alpha = int(alpha.sum())
        if n_alpha and int((self._tu[ids] & alpha).sum()) / n_alpha > 0.6:
            feats[:, ns + 3] = 1.0
        # skeleton: up to two #RETURN steps before each token that starts a line
        rets = np.minimum(nl, 2)
        skel_pos = np.arange(n, dtype=np.int64) + np.cumsum(rets)
        skel = np.full(n + int(rets.sum()), self._return_id, dtype=np.int64)
        skel[skel_pos] = self._ts[ids]
        return Encoded(list(toks), words, chars, feats, skel, skel_pos, ids + (self._generation << 32))

    def encode_reference(self, text: str, tokens: list[Token] | None = None) -> Encoded:
        """The per-token definition of the encoding (slow; ``encode`` must equal it)."""
        toks = tokenize(text) if tokens is None else tokens
        n = len(toks)
        words = np.zeros(n, dtype=np.int64)
        chars = np.zeros((n, MAX_CHARS), dtype=np.int64)
        feats = np.zeros((n, self.n_feats), dtype=np.float32)
        skel: list[int] = []
        skel_pos = np.zeros(n, dtype=np.int64)
        ns = len(STATIC_FEATURES)
        prev_end = 0
        n_alpha = n_upper = 0
        for i, t in enumerate(toks):
            w, row, st, sk = self._type_info(t.text)
            words[i] = w
            chars[i] = row
            feats[i, :ns] = st
            if self.lexicon is not None:
                feats[i, N_FEATURES:] = self.lexicon.vector(t.text)
            if st[0] or st[1] or st[2] or st[3]:
                n_alpha += 1
                n_upper += int(st[0] or (st[1] and len(t.text) == 1))
            gap = text[prev_end : t.start]
            nl = gap.count("\n") + (gap.count("\r") if "\n" not in gap else 0)
            if nl or i == 0:
                feats[i, ns] = 1.0  # line_start
                if i:
                    feats[i - 1, ns + 1] = 1.0  # line_end
                if nl >= 2:
                    feats[i, ns + 2] = 1.0
                for _ in range(min(nl, 2)):
                    skel.append(self._return_id)
            skel_pos[i] = len(skel)
            skel.append(sk)
            prev_end = t.end
        if n:
            feats[n - 1, ns + 1] = 1.0
            if n_alpha and n_upper / n_alpha > 0.6:
                feats[:, ns + 3] = 1.0
        return Encoded(list(toks), words, chars, feats, np.asarray(skel, dtype=np.int64), skel_pos)


def build_vocabs(texts: Iterable[str], r: float = 0.2, glove_words: Sequence[str] = (),
                 min_char_count: int = 2, max_words: int = 60_000) -> tuple[Vocab, Vocab, Vocab, int]:
    """Word, character and skeleton vocabularies from training texts.

    Words: every training word plus ``glove_words`` (already frequency-ordered)
    up to ``max_words``. Returns (words, chars, skeleton, t).
    """
    wc: Counter = Counter()
    cc: Counter = Counter()
    sc: Counter = Counter()
    for text in texts:
        for t in tokenize(text):
            wc[norm_word(t.text)] += 1
            sc[skeleton_key(t.text)] += 1
            cc.update(t.text)
    words = Vocab(w for w, _ in wc.most_common())
    for w in glove_words:
        if len(words) >= max_words:
            break
        words.add(w)
    chars = Vocab(c for c, n in cc.most_common() if n >= min_char_count)
    t = skeleton_threshold(sc, r)
    skel = Vocab([RETURN, DIGIT])
    for w, n in sc.most_common():
        if n >= t:
            skel.add(w)
    return words, chars, skel, t
