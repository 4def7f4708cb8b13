"""The table-driven ``Featurizer.encode`` must equal the per-token reference encoding exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_engine.model.features import Featurizer, Vocab
from deid_engine.model.features import RETURN, DIGIT

FIELDS = ("words", "chars", "feats", "skel", "skel_pos")


def _featurizer() -> Featurizer:
    words = Vocab(["patient", "seen", "on", "dr", "smith", "no", "distress", "0", "00", "/", ".", ","])
    chars = Vocab(list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./,"))
    skel = Vocab([RETURN, DIGIT, "patient", "seen", "on", ".", "/"])
    return Featurizer(words, chars, skel)


def _same(f: Featurizer, text: str) -> None:
    a, b = f.encode(text), f.encode_reference(text)
    assert a.tokens == b.tokens
    for k in FIELDS:
        x, y = getattr(a, k), getattr(b, k)
        assert x.dtype == y.dtype and x.shape == y.shape, k
        assert np.array_equal(x, y), (k, text)


@pytest.mark.parametrize("text", [
    "", " ", "\n\n", "a", "Patient seen on 28/02/2014. No distress.\nPatient Ahmed Berg seen on 28/02/2014.",
    "\r\rA B\r\nC\n\n\nD", "X\ud800Y\nz", "ALL CAPS NOTE\nWITH A NAME\n\nDR SMITH", "\n\nStarts after a blank line",
    "Hi\n\n\n\nthere  \t\n x", "Zorblat Zorblat zorblat ZORBLAT", "a" * 50 + " " + "b" * 21, "mixed\r\nline\rends\n",
])
def test_encode_equals_reference(text):
    f = _featurizer()
    _same(f, text)
    _same(f, text)  # second time: every type comes from the tables


def test_new_spellings_repeated_in_one_document_keep_their_own_rows():
    """Regression: two mentions of a spelling first seen in this document, then another new one."""
    f = _featurizer()
    _same(f, "Qwerty / Qwerty / Asdf / Asdf / Zxcv 12 12 13")


def test_tables_reset_between_documents_only():
    f = _featurizer()
    f._MAX_TYPES = 8
    for text in ["one two three four five", "six seven eight nine ten eleven", "one six twelve thirteen one"]:
        _same(f, text)
    assert len(f._ids) <= 8 or len(f._ids) == len(set("six seven eight nine ten eleven".split()))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["Patient", "SEEN", "on", "12", "/", ".", "\n", "\n\n", "\r", "\r\n", " ", "Óscar",
                                 "O'Brien", "Smith's", "B12", "3rd", "x", "Dr.", "\t", "ZZZ", "zz9"]), max_size=40))
def test_encode_equals_reference_property(parts):
    f = _featurizer()
    text = " ".join(parts)
    _same(f, text)
    _same(f, text[::-1])


def _lex_featurizer() -> Featurizer:
    from deid_engine.model.features import LexiconFeatures

    f = _featurizer()
    lex = LexiconFeatures({"lex_first_name": ["Grace", "Ahmed"], "lex_surname": ["Berg", "Smith"],
                           "lex_common_word": ["grace", "no"], "lex_place": ["New York", "Boston"]})
    return Featurizer(f.words, f.chars, f.skeleton, lex)


@pytest.mark.parametrize("text", ["", "Patient Ahmed Berg seen.\nGRACE said no", "grace grace Grace\n\nboston new york"])
def test_encode_with_lexicon_features_equals_reference(text):
    f = _lex_featurizer()
    _same(f, text)
    _same(f, text)


def test_lexicon_features_are_case_insensitive_single_words():
    from deid_engine.model.features import LEXICON_FEATURES, N_FEATURES

    f = _lex_featurizer()
    enc = f.encode("GRACE Berg new york Boston zorblat")
    col = {n: N_FEATURES + i for i, n in enumerate(LEXICON_FEATURES)}
    lex = enc.feats
    assert lex[0, col["lex_first_name"]] == 1 and lex[0, col["lex_common_word"]] == 1
    assert lex[1, col["lex_surname"]] == 1 and lex[1, col["lex_first_name"]] == 0
    assert lex[2, col["lex_place"]] == 0 and lex[3, col["lex_place"]] == 0  # multi-word entries do not count
    assert lex[4, col["lex_place"]] == 1
    assert not lex[5, N_FEATURES:].any()


def test_bundled_lexicon_features_know_common_cases():
    from deid_engine.model.features import LEXICON_FEATURES, LexiconFeatures

    lex = LexiconFeatures.bundled()
    v = dict(zip(LEXICON_FEATURES, lex.vector("metoprolol")))
    assert v["lex_medical"] == 1 and v["lex_first_name"] == 0
    v = dict(zip(LEXICON_FEATURES, lex.vector("Okafor")))
    assert v["lex_surname"] == 1 and v["lex_common_word"] == 0
    v = dict(zip(LEXICON_FEATURES, lex.vector("grace")))
    assert v["lex_first_name"] == 1 and v["lex_common_word"] == 1
