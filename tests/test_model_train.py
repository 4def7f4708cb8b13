"""The training loop learns a tiny synthetic task; save/load round trip; windows."""

import json
import random

import pytest

import numpy as np
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_engine.model.data import Example, bio_tags, tag_names, tags_to_spans, windows
from collections import Counter

from deid_engine.model.features import skeleton_threshold
from deid_engine.model.io import TaggerModel
from deid_engine.model.train import TrainConfig, run
from deid_engine.tokenize import tokenize
from deid_engine.types import Span

FIRST = ["John", "Mary", "Ahmed", "Olga", "Peter", "Linda", "Carlos", "Mei"]
LAST = ["Smith", "Brown", "Nguyen", "Garcia", "Okafor", "Miller", "Kowalski", "Patel"]


def _synthetic(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        date = f"{rng.randint(1, 12)}/{rng.randint(1, 28)}/{rng.randint(1990, 2024)}"
        pre = "Seen by Dr. "
        text = f"{pre}{name} on {date} for chest pain. Vitals stable."
        a = len(pre)
        d = text.index(date)
        out.append(Example(text, [Span(a, a + len(name), "DOCTOR"), Span(d, d + len(date), "DATE")]))
    return out


def _cfg(tmp_path, **kw):
    base = dict(data=[], lang="en", out=str(tmp_path / "m"), epochs=8, seed=3, augment=0,
                case_variants=False, visit_notes=None, glove=False, batch=8, lr=0.01, threads=1,
                train_examples=_synthetic(60, 1), dev_examples=_synthetic(10, 2), window=12, overlap=4)
    base.update(kw)
    return TrainConfig(**base)


def test_tiny_training_learns_and_round_trips(tmp_path):
    model = run(_cfg(tmp_path))
    dm = model.meta["dev_metrics"]
    assert dm["token"]["f1"] > 0.9, dm["token"]
    text = "Seen by Dr. Olga Nguyen on 4/5/2001 for chest pain."
    spans = model.predict([text])[0]
    got = {(text[a:b], lbl) for a, b, lbl, _ in spans}
    assert ("Olga Nguyen", "DOCTOR") in got and ("4/5/2001", "DATE") in got
    # save/load with weights_only=True gives identical predictions
    state = torch.load(tmp_path / "m" / "model.pt", weights_only=True)
    assert all(isinstance(v, torch.Tensor) for v in state.values())
    again = TaggerModel.load(tmp_path / "m", map_location="cpu")
    assert again.predict([text]) == model.predict([text])
    assert 0.0 < min(c for *_, c in spans) <= 1.0


def test_training_is_reproducible(tmp_path):
    a = run(_cfg(tmp_path / "a", epochs=2))
    b = run(_cfg(tmp_path / "b", epochs=2))
    for (k, v), (k2, v2) in zip(a.net.state_dict().items(), b.net.state_dict().items()):
        assert k == k2 and torch.equal(v, v2)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(0, 2000), size=st.integers(5, 300), frac=st.floats(0.0, 0.49))
def test_windows_keep_every_token_exactly_once(n, size, frac):
    overlap = int(size * frac)
    wins = windows(n, size, overlap)
    covered = np.zeros(n, int)
    for a, b, ka, kb in wins:
        assert 0 <= a <= ka <= kb <= b <= n and b - a <= max(size, 0) or n <= size
        covered[ka:kb] += 1
    assert (covered == 1).all()


def test_long_note_is_not_truncated(tmp_path):
    model = run(_cfg(tmp_path, epochs=1))
    text = " ".join(["Seen by Dr. John Smith on 3/4/2020 for pain."] * 400)
    n_tokens = len(tokenize(text))
    assert n_tokens > 10 * model.window
    spans = model.predict([text])[0]
    assert all(0 <= a < b <= len(text) for a, b, *_ in spans)
    enc = model.featurizer.encode(text)
    assert len(enc.tokens) == n_tokens and enc.skel_pos[-1] < len(enc.skel)


def test_bio_round_trip():
    text = "Dr. John Smith saw Mary on 3/4."
    toks = tokenize(text)
    tags = tag_names(["DATE", "DOCTOR", "PATIENT"])
    idx = {t: i for i, t in enumerate(tags)}
    spans = [Span(4, 14, "DOCTOR"), Span(19, 23, "PATIENT"), Span(27, 30, "DATE")]
    ids = bio_tags(toks, spans, idx)
    back = [(a, b, l) for a, b, l, _ in tags_to_spans(toks, ids, tags)]
    assert back == [(4, 14, "DOCTOR"), (19, 23, "PATIENT"), (27, 30, "DATE")]


def test_skeleton_threshold_covers_one_minus_r():
    counts = Counter({"the": 50, "patient": 30, "was": 10, "x": 5, "y": 3, "z": 2})
    t = skeleton_threshold(counts, 0.1)
    kept = sum(c for c in counts.values() if c >= t)
    assert kept >= 0.9 * sum(counts.values())
    # a larger threshold would no longer cover 1 - r
    higher = [c for c in counts.values() if c > t]
    assert sum(c for c in counts.values() if c >= min(higher, default=10**9)) < 0.9 * sum(counts.values())


def test_recall_threshold_only_adds_spans(tmp_path):
    model = run(_cfg(tmp_path, epochs=2))
    texts = ["Seen by Dr. Olga Nguyen on 4/5/2001 for chest pain.", "Vitals stable. Mei called."]
    base = model.predict(texts, recall_threshold=None)
    low = model.predict(texts, recall_threshold=0.05)
    for b, l in zip(base, low):
        assert set(b) <= set(l)
        assert all(0 <= c <= 1 for *_, c in l)


def test_ensemble_members_vote_and_round_trip(tmp_path):
    """A model with a voting member (another seed) saves, loads and predicts; its
    marginals are those of the log-linear pool (averaged CRF scores); a member with
    another tag list is refused; a fine-tuned copy without members drops the key."""
    a = run(_cfg(tmp_path, out=str(tmp_path / "a"), seed=3))
    b = run(_cfg(tmp_path, out=str(tmp_path / "b"), seed=4))
    ens = TaggerModel(a.net, a.words, a.chars, a.skeleton, a.tags, a.meta, a.window, a.overlap, members=[b])
    text = "Seen by Dr. Mei Okafor on 7/8/2011 for chest pain. Vitals stable."
    got = ens.predict([text])[0]
    assert {(text[s:e], lbl) for s, e, lbl, _ in got} >= {("Mei Okafor", "DOCTOR"), ("7/8/2011", "DATE")}
    ens.save(tmp_path / "ens")
    card = json.loads((tmp_path / "ens" / "model.json").read_text())
    assert card["ensemble"]["members"] == ["members/m1"]
    again = TaggerModel.load(tmp_path / "ens", map_location="cpu")
    assert len(again.members) == 1 and again.predict([text]) == ens.predict([text])
    # pooled decoding == decoding the averaged scores by hand
    from deid_engine.model.data import Window, collate
    from deid_engine.model.network import decode_np

    enc = a.featurizer.encode(text)
    w = Window(enc, 0, len(enc.tokens), key=(0, 0, len(enc.tokens)))
    with torch.inference_mode():
        ba, _ = collate([w])
        bb, _ = collate([Window(b.featurizer.encode(text, enc.tokens), 0, len(enc.tokens))])
        em = (a.net.emissions(**ba) + b.net.emissions(**bb)).double().numpy() / 2
        params = tuple((x + y) / 2 for x, y in zip(a.net.crf_params(), b.net.crf_params()))
        ref_paths, ref_marg = decode_np(em, ba["mask"].numpy(), params)
        paths, marg = ens._pooled_decode(ba, [w], [None if ens._same_features(b) else [b.featurizer.encode(text, enc.tokens)]],
                                         "cpu", True)
    assert (paths.numpy() == ref_paths.numpy()).all()
    assert torch.allclose(marg, ref_marg, atol=1e-6)
    # members must share the tag list
    b.tags = b.tags[:-1]
    with pytest.raises(ValueError):
        TaggerModel(a.net, a.words, a.chars, a.skeleton, a.tags, a.meta, members=[b])
    # a copy built from the ensemble's meta (the learning loop's fine-tune) has no members
    single = TaggerModel(a.net, a.words, a.chars, a.skeleton, a.tags, dict(card))
    single.save(tmp_path / "single")
    assert "ensemble" not in json.loads((tmp_path / "single" / "model.json").read_text())


def test_weight_averaging_learns_and_is_recorded(tmp_path):
    """--average-from: the evaluated / saved weights are the running mean of the
    end-of-epoch weights from that epoch on (early stopping and fixed epochs)."""
    model = run(_cfg(tmp_path, average_from=3))
    hist = model.meta["training"]["history"]
    assert [h.get("averaged_epochs") for h in hist][:4] == [None, None, 1, 2]
    assert model.meta["dev_metrics"]["token"]["f1"] > 0.9
    fixed = run(_cfg(tmp_path, out=str(tmp_path / "f"), average_from=7, epochs=8, fixed_epochs=True))
    assert fixed.meta["training"]["history"][-1]["averaged_epochs"] == 2
    text = "Seen by Dr. Olga Nguyen on 4/5/2001 for chest pain."
    assert TaggerModel.load(tmp_path / "f", map_location="cpu").predict([text]) == fixed.predict([text])


def test_vocab_from_shares_the_encoding(tmp_path):
    """--vocab-from: a member trained with another model's vocabularies encodes
    text identically, so an ensemble of the two encodes once."""
    a = run(_cfg(tmp_path, out=str(tmp_path / "a")))
    b = run(_cfg(tmp_path, out=str(tmp_path / "b"), seed=5, vocab_from=str(tmp_path / "a")))
    assert b.words.itos == a.words.itos and b.skeleton.itos == a.skeleton.itos
    ens = TaggerModel(a.net, a.words, a.chars, a.skeleton, a.tags, a.meta, members=[b])
    assert ens._same_features(b)
    assert ens.predict(["Seen by Dr. Mei Okafor on 7/8/2011."])[0]


def test_lexicon_features_train_save_load_and_card(tmp_path):
    """A model trained with gazetteer features records them in its card, encodes
    with them after loading, and predicts the same."""
    from deid_engine.model.features import LEXICON_FEATURES, N_FEATURES

    model = run(_cfg(tmp_path, lexicon_features=True, epochs=6))
    assert model.net.cfg.n_feats == N_FEATURES + len(LEXICON_FEATURES)
    card = json.loads((tmp_path / "m" / "model.json").read_text(encoding="utf-8"))
    assert card["lexicon_features"]["names"] == list(LEXICON_FEATURES)
    again = TaggerModel.load(tmp_path / "m", map_location="cpu")
    assert again.featurizer.lexicon is not None
    text = "Seen by Dr. Olga Nguyen on 4/5/2001 for chest pain."
    assert again.predict([text]) == model.predict([text])
    enc = again.featurizer.encode(text)
    assert enc.feats.shape[1] == N_FEATURES + len(LEXICON_FEATURES)
    # a model without them keeps the old width
    plain = run(_cfg(tmp_path / "p", epochs=1))
    assert plain.featurizer.lexicon is None and plain.featurizer.encode(text).feats.shape[1] == N_FEATURES


def test_model_card_with_unknown_lexicon_features_is_refused(tmp_path):
    run(_cfg(tmp_path, lexicon_features=True, epochs=1))
    p = tmp_path / "m" / "model.json"
    card = json.loads(p.read_text(encoding="utf-8"))
    card["lexicon_features"]["version"] = 999
    p.write_text(json.dumps(card), encoding="utf-8")
    with pytest.raises(ValueError, match="lexicon features"):
        TaggerModel.load(tmp_path / "m", map_location="cpu")


def test_inline_training_data_maps_labels_and_is_recorded(tmp_path):
    """``--inline`` files (the probe format) join the training notes: fine labels train the
    corpus's tag (a hospital trains nothing here: the tag set has no LOCATION), labels without
    a tag are left free, held-out files are excluded, and the card records what was read."""
    rng = random.Random(5)
    lines = ["# inline training texts for a test"]
    for i in range(40):
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        lines += [f"=== x{i} transcript",
                  f"discussed with [[{name}|DOCTOR]] at [[Mercy General|HOSPITAL]] she is [[{rng.randint(20, 80)}|AGE]] now"]
    folder = tmp_path / "inline"
    folder.mkdir()
    (folder / "train_me.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "held_out.txt").write_text("=== h1 query\nnotes for [[Ann Lee|PATIENT]]\n", encoding="utf-8")
    model = run(_cfg(tmp_path, inline=[str(folder)], inline_exclude=["held_out"], epochs=10))
    assert model.labels == ["DATE", "DOCTOR"]
    tr = model.meta["training"]
    assert tr["inline"] == [str(folder)] and tr["inline_exclude"] == ["held_out"]
    assert tr["inline_documents"] == 40
    text = "discussed with Mei Okafor at Mercy General she is 54 now"
    got = {(text[a:b], lbl) for a, b, lbl, _ in model.predict([text], recall_threshold=None)[0]}
    assert ("Mei Okafor", "DOCTOR") in got


def test_extra_labels_free_the_corpus_spans_the_rules_find():
    """With ``extra_labels`` (AGE here) an age the corpus left unmarked is left free in corpus
    examples (the rule detectors find it), never over a gold span; inline examples are untouched."""
    from deid_engine.model.train import IGNORE, INLINE_ORIGIN, free_rule_spans

    text = "Seen by Dr. Olga Nguyen. 45 year old man, chest pain."
    corpus = Example(text, [Span(12, 23, "DOCTOR")], "n1", origin="physionet")
    inline = Example(text, [Span(12, 23, "DOCTOR")], "x1", origin=INLINE_ORIGIN + "t")
    got = free_rule_spans([corpus, inline], {"AGE"}, "en")
    free = [(text[s.start:s.end]) for s in got[0].spans if s.label == IGNORE]
    assert free == ["45"]
    assert got[0].spans[0] == Span(12, 23, "DOCTOR")
    assert got[1] is inline
    # the tag ids: the age's token is free (-1), the rest as before
    labels = ["AGE", "DOCTOR"]
    index = {t: i for i, t in enumerate(tag_names(labels))}
    tg = bio_tags(tokenize(text), got[0].spans, index, ignore=IGNORE)
    assert -1 in tg.tolist() and index["B-DOCTOR"] in tg.tolist() and index["B-AGE"] not in tg.tolist()
