"""The CRF against brute-force enumeration of every tag path on tiny inputs."""

import itertools

import pytest
import torch

from deid_engine.model.crf import CRF


def _crf(K, seed):
    g = torch.Generator().manual_seed(seed)
    crf = CRF(K)
    with torch.no_grad():
        crf.start.copy_(torch.randn(K, generator=g))
        crf.end.copy_(torch.randn(K, generator=g))
        crf.trans.copy_(torch.randn(K, K, generator=g))
    em = torch.randn(3, 4, K, generator=g, dtype=torch.float32)
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0], [1, 0, 0, 0]], dtype=torch.bool)
    return crf, em.double(), mask


def _brute(crf, em, n):
    """All paths of length n for one sequence: (scores dict)."""
    K = em.shape[-1]
    out = {}
    for path in itertools.product(range(K), repeat=n):
        s = crf.start[path[0]] + crf.end[path[-1]] + sum(em[i, p] for i, p in enumerate(path))
        s = s + sum(crf.trans[a, b] for a, b in zip(path, path[1:]))
        out[path] = float(s)
    return out


@pytest.mark.parametrize("K,seed", [(2, 0), (3, 1), (4, 2)])
def test_partition_viterbi_marginals_match_brute_force(K, seed):
    crf, em, mask = _crf(K, seed)
    crf = crf.double()
    with torch.no_grad():
        logz = crf.log_partition(em, mask)
        best = crf.viterbi(em, mask)
        marg = crf.marginals(em, mask)
    for b in range(em.shape[0]):
        n = int(mask[b].sum())
        scores = _brute(crf, em[b], n)
        ref_z = torch.logsumexp(torch.tensor(list(scores.values()), dtype=torch.float64), 0)
        assert abs(float(logz[b]) - float(ref_z)) < 1e-9
        ref_path = max(scores, key=scores.get)
        assert tuple(best[b, :n].tolist()) == ref_path
        assert best[b, n:].eq(0).all()
        # marginals: sum of path probabilities with tag k at position t
        for t in range(n):
            for k in range(K):
                p = sum(torch.exp(torch.tensor(s, dtype=torch.float64) - ref_z) for path, s in scores.items() if path[t] == k)
                assert abs(float(marg[b, t, k]) - float(p)) < 1e-9
        assert marg[b, n:].eq(0).all()
        # score of a path equals the brute-force score
        path = torch.tensor([list(ref_path) + [0] * (em.shape[1] - n)])
        s = crf.score(em[b : b + 1], path, mask[b : b + 1])
        assert abs(float(s) - scores[ref_path]) < 1e-9


def test_nll_is_nonnegative_and_trains():
    torch.manual_seed(0)
    crf = CRF(3)
    em = torch.randn(2, 5, 3, requires_grad=True)
    tags = torch.tensor([[0, 1, 2, 1, 0], [2, 2, 1, 0, 0]])
    mask = torch.tensor([[1] * 5, [1, 1, 1, 0, 0]], dtype=torch.bool)
    loss = crf.nll(em, tags, mask)
    assert float(loss) >= 0
    loss.backward()
    assert crf.trans.grad is not None and em.grad is not None


@pytest.mark.parametrize("K,seed", [(2, 3), (5, 4)])
def test_numpy_inference_matches_torch(K, seed):
    from deid_engine.model.crf import marginals_np, viterbi_np

    crf, em, mask = _crf(K, seed)
    crf = crf.double()
    args = (crf.start.detach().numpy(), crf.end.detach().numpy(), crf.trans.detach().numpy())
    with torch.no_grad():
        assert (viterbi_np(em.numpy(), mask.numpy(), *args) == crf.viterbi(em, mask).numpy()).all()
        assert abs(marginals_np(em.numpy(), mask.numpy(), *args) - crf.marginals(em, mask).numpy()).max() < 1e-9


@pytest.mark.parametrize("K,seed", [(2, 5), (4, 6), (15, 7)])
def test_scaled_marginals_match_log_space(K, seed):
    """The scaled-probability forward-backward equals the log-space one, also with
    extreme scores (no overflow / underflow) and ragged lengths."""
    import numpy as np

    from deid_engine.model.crf import marginals_np, marginals_scaled_np

    rng = np.random.default_rng(seed)
    B, L = 6, 30
    for scale in (1.0, 25.0):
        em = rng.normal(0, scale, (B, L, K))
        trans = rng.normal(0, scale, (K, K))
        start, end = rng.normal(0, scale, K), rng.normal(0, scale, K)
        mask = np.zeros((B, L), bool)
        for b, n in enumerate([L, 1, 2, 17, L - 1, 5]):
            mask[b, :n] = True
        a = marginals_np(em, mask, start, end, trans)
        s = marginals_scaled_np(em, mask, start, end, trans)
        assert np.isfinite(s).all()
        assert np.abs(a - s).max() < 1e-8
        assert np.allclose(s.sum(2)[mask], 1.0)
        assert (s[~mask] == 0).all()


@pytest.mark.parametrize("K,seed", [(2, 3), (3, 4), (4, 5)])
def test_partial_label_nll_sums_over_paths_that_agree(K, seed):
    """A -1 tag leaves that position free: the NLL is -log of the summed probability of
    every path that agrees with the known tags (brute force); with no -1 it is the usual NLL."""
    crf, em, mask = _crf(K, seed)
    crf = crf.double()
    g = torch.Generator().manual_seed(seed + 100)
    tags = torch.randint(0, K, (3, 4), generator=g)
    tags[0, 1] = -1
    tags[0, 2] = -1
    tags[1, 0] = -1
    with torch.no_grad():
        for b in range(3):
            n = int(mask[b].sum())
            scores = _brute(crf, em[b], n)
            ref_z = torch.logsumexp(torch.tensor(list(scores.values()), dtype=torch.float64), 0)
            known = tags[b, :n].tolist()
            agree = [s for p, s in scores.items() if all(k < 0 or k == q for k, q in zip(known, p))]
            ref = float(ref_z - torch.logsumexp(torch.tensor(agree, dtype=torch.float64), 0))
            got = float(crf.nll(em[b : b + 1], tags[b : b + 1], mask[b : b + 1]))
            assert abs(got - ref) < 1e-6
        full = tags.clamp(min=0)
        plain = crf.log_partition(em, mask) - crf.score(em, full, mask)
        assert abs(float(crf.nll(em, full, mask)) - float(plain.mean())) < 1e-9


def test_bio_tags_marks_ignored_spans_free():
    from deid_engine.model.data import bio_tags, tag_names
    from deid_engine.model.train import IGNORE, tagger_label
    from deid_engine.tokenize import tokenize
    from deid_engine.types import Span

    text = "Ana Ruiz, 45, a roofer, lives in Leeds"
    toks = tokenize(text)
    labels = ["LOCATION", "PATIENT"]
    index = {t: i for i, t in enumerate(tag_names(labels))}
    spans = [Span(0, 8, "PATIENT"), Span(10, 12, tagger_label("AGE", set(labels))),
             Span(16, 22, tagger_label("PROFESSION", set(labels))), Span(33, 38, tagger_label("CITY", set(labels)))]
    tg = bio_tags(toks, spans, index, ignore=IGNORE).tolist()
    words = [text[t.start:t.end] for t in toks]
    got = dict(zip(words, tg))
    assert got["Ana"] == index["B-PATIENT"] and got["Ruiz"] == index["I-PATIENT"]
    assert got["45"] == -1 and got["roofer"] == -1
    assert got["Leeds"] == index["B-LOCATION"]
    assert got["lives"] == 0
    # without the ignore marker an unknown label stays O (the old behaviour)
    assert bio_tags(toks, [Span(10, 12, "AGE")], index).tolist().count(-1) == 0


def test_tagger_label_maps_fine_labels_onto_a_coarse_tag_set():
    from deid_engine.model.train import IGNORE, tagger_label

    tagset = {"DATE", "DOCTOR", "LOCATION", "OTHER", "PATIENT", "PHONE", "RELATIVE"}
    assert tagger_label("DOCTOR", tagset) == "DOCTOR"
    assert tagger_label("HOSPITAL", tagset) == "LOCATION"
    assert tagger_label("ZIP", tagset) == "LOCATION"
    assert tagger_label("FAX", tagset) == "PHONE"
    assert tagger_label("EMAIL", tagset) == "OTHER"
    assert tagger_label("MEDICALRECORD", tagset) == "OTHER"
    assert tagger_label("AGE", tagset) == IGNORE
    assert tagger_label("PROFESSION", tagset) == IGNORE
    assert tagger_label("USERNAME", tagset) == IGNORE
    assert tagger_label("HOSPITAL", tagset | {"HOSPITAL"}) == "HOSPITAL"
