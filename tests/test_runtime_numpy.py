"""The numpy runtime: the tagger's forward pass without torch gives torch's answers."""

import io
import os
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch

from deid_engine.model import runtime as rt
from deid_engine.model.config import NetConfig
from deid_engine.model.data import Window, collate, collate_arrays, windows
from deid_engine.model.io import TaggerModel
from deid_engine.model.network import TaggerNet
from deid_engine.model.weights import UnsupportedWeights, read_state_dict
from deid_engine.resources import resource_path

ROOT = Path(__file__).resolve().parent.parent
TEXTS = [
    "Seen by Dr. Olga Nguyen on 4/5/2001 for chest pain.",
    "PT'S WIFE MARY CALLED 555-123-4567 ON 7/22.\nWILL F/U W/ DR. KAPLAN.\n\n" * 40,  # several windows
    "",
    "x",
    "pull notes for jane doe dob 4/5/1960",
]


def _random_net(seed: int, **kw) -> TaggerNet:
    torch.manual_seed(seed)
    cfg = NetConfig(n_words=50, n_chars=30, n_skel=20, n_feats=7, n_tags=5, word_dim=8, char_dim=6,
                    char_filters=9, char_kernel=3, hidden=10, skel_dim=5, skel_hidden=4, **kw)
    net = TaggerNet(cfg)
    with torch.no_grad():  # CRF scores and biases away from zero, so every term matters
        for p in net.parameters():
            p.add_(torch.randn_like(p) * 0.3)
    return net.eval()


def _random_batch(seed: int, B=5, L=17, C=7, S=23, F=7):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, L + 1, B)
    lengths[0] = L                                     # one full row, the others padded
    words = rng.integers(1, 50, (B, L))
    chars = rng.integers(1, 30, (B, L, C))
    chars[:, :, 4:] *= rng.integers(0, 2, (B, L, C - 4))   # padding inside tokens
    feats = rng.random((B, L, F)).astype(np.float32)
    mask = np.arange(L)[None] < lengths[:, None]
    s_len = np.minimum(lengths + rng.integers(0, 6, B), S)
    skel = rng.integers(1, 20, (B, S))
    skel_mask = np.arange(S)[None] < s_len[:, None]
    skel_pos = np.stack([np.sort(rng.choice(sl, n, replace=False)).tolist() + [0] * (L - n)
                         for n, sl in zip(lengths, s_len)])
    for a in (words, chars, feats):
        a[~mask] = 0
    skel[~skel_mask] = 0
    return {"words": words, "chars": chars, "feats": feats, "mask": mask, "skel": skel,
            "skel_pos": skel_pos.astype(np.int64), "skel_mask": skel_mask}


@pytest.mark.parametrize("kw", [{}, {"use_char": False}, {"use_skeleton": False}])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_numpy_emissions_equal_torch(tmp_path, kw, seed):
    net = _random_net(seed, **kw)
    torch.save({k: v.detach().clone() for k, v in net.state_dict().items()}, tmp_path / "model.pt")
    npnet = rt.NumpyTaggerNet.load(tmp_path, net.cfg)
    batch = _random_batch(seed)
    with torch.inference_mode():
        ref = net.emissions(**{k: torch.from_numpy(v) for k, v in batch.items()}).numpy()
        got = npnet.emissions(**batch)
    m = batch["mask"]
    assert got.shape == ref.shape and got.dtype == np.float32
    assert np.abs(got - ref)[m].max() < 1e-5
    # CRF decoding on the same emissions: the same paths and marginals
    paths, marg = npnet.decode(batch)
    with torch.inference_mode():
        tpaths, tmarg = net.decode({k: torch.from_numpy(v) for k, v in batch.items()})
    assert (paths[m] == tpaths.numpy()[m]).all()
    assert np.abs(marg - tmarg.numpy()).max() < 1e-5


def test_state_dict_reader_equals_torch_load(tmp_path):
    net = _random_net(3)
    state = {k: v.detach().clone() for k, v in net.state_dict().items()}
    state["a_view"] = state["proj.weight"].t()           # a non-contiguous tensor (strides)
    state["a_slice"] = state["word_emb.weight"][3:7, 2:5]  # an offset into a shared storage
    state["a_long"] = torch.arange(6, dtype=torch.int64).reshape(2, 3)
    state["a_scalar"] = torch.tensor(2.5)
    torch.save(state, tmp_path / "w.pt")
    got = read_state_dict(tmp_path / "w.pt")
    ref = torch.load(tmp_path / "w.pt", weights_only=True)
    assert list(got) == list(ref)
    for k in ref:
        assert got[k].shape == tuple(ref[k].shape) and np.array_equal(got[k], ref[k].numpy()), k


def test_shipped_models_read_without_torch():
    for lang in ("en", "es"):
        path = resource_path("models", lang) / "model.pt"
        if not path.is_file():
            pytest.skip("no shipped model")
        got = read_state_dict(path)
        ref = torch.load(path, weights_only=True)
        assert all(np.array_equal(got[k], ref[k].numpy()) for k in ref)


def test_reader_refuses_anything_but_tensors(tmp_path):
    """Only the rebuild function, storage types and OrderedDict are resolved (like weights_only)."""
    torch.save({"w": torch.zeros(2), "note": "text"}, tmp_path / "mixed.pt")
    with pytest.raises(UnsupportedWeights):
        read_state_dict(tmp_path / "mixed.pt")

    class Evil:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    with zipfile.ZipFile(tmp_path / "evil.pt", "w") as z:
        z.writestr("model/data.pkl", pickle.dumps({"w": Evil()}, protocol=2))
        z.writestr("model/byteorder", "little")
    with pytest.raises(UnsupportedWeights):
        read_state_dict(tmp_path / "evil.pt")
    (tmp_path / "legacy.pt").write_bytes(b"\x80\x02not a zip")
    with pytest.raises(UnsupportedWeights):
        read_state_dict(tmp_path / "legacy.pt")


def test_unreadable_weights_fall_back_to_torch(tmp_path, monkeypatch):
    src = resource_path("models", "en")
    if not (src / "model.json").is_file():
        pytest.skip("no shipped model")
    (tmp_path / "model.json").write_bytes((src / "model.json").read_bytes())
    # the legacy (non-zip) torch format: torch reads it, the numpy reader does not
    torch.save(torch.load(src / "model.pt", weights_only=True), tmp_path / "model.pt",
               _use_new_zipfile_serialization=False)
    m = TaggerModel.load(tmp_path, runtime="numpy")
    assert m.runtime == "torch"
    assert m.predict([TEXTS[0]]) == TaggerModel.load(src, runtime="numpy").predict([TEXTS[0]])


def test_shipped_model_predicts_the_same_in_both_runtimes():
    path = resource_path("models", "en")
    if not (path / "model.json").is_file():
        pytest.skip("no shipped model")
    t = TaggerModel.load(path, runtime="torch")
    n = TaggerModel.load(path, runtime="numpy")
    assert (t.runtime, n.runtime) == ("torch", "numpy")
    got_t, got_n = t.predict(TEXTS), n.predict(TEXTS)
    assert [[s[:3] for s in d] for d in got_n] == [[s[:3] for s in d] for d in got_t]
    for dt, dn in zip(got_t, got_n):
        assert all(abs(a[3] - b[3]) < 1e-4 for a, b in zip(dt, dn))
    assert any(got_n)
    with pytest.raises(ValueError):
        n.save(Path("/nonexistent/never-written"))


def test_ensemble_pools_the_same_in_both_runtimes(tmp_path):
    """Members (Liu et al.'s voting) decode from averaged scores in numpy as in torch."""
    path = resource_path("models", "en")
    if not (path / "model.json").is_file():
        pytest.skip("no shipped model")
    a = TaggerModel.load(path)
    b = TaggerModel.load(path)
    with torch.no_grad():
        for p in b.net.parameters():
            p.mul_(0.9)
    TaggerModel(a.net, a.words, a.chars, a.skeleton, a.tags, a.meta, members=[b]).save(tmp_path / "ens")
    t = TaggerModel.load(tmp_path / "ens", runtime="torch")
    n = TaggerModel.load(tmp_path / "ens", runtime="numpy")
    assert n.members and n.members[0].runtime == "numpy"
    assert [[s[:3] for s in d] for d in n.predict(TEXTS)] == [[s[:3] for s in d] for d in t.predict(TEXTS)]


def test_collate_arrays_matches_collate():
    path = resource_path("models", "en")
    if not (path / "model.json").is_file():
        pytest.skip("no shipped model")
    m = TaggerModel.load(path, runtime="numpy")
    e = m.featurizer.encode(TEXTS[1])
    items = [Window(e, a, b) for a, b, _, _ in windows(len(e.tokens), 60, 10)]
    arrays, _ = collate_arrays(items)
    tensors, _ = collate(items)
    assert arrays.keys() == tensors.keys()
    assert all(np.array_equal(arrays[k], tensors[k].numpy()) for k in arrays)


def test_choose_runtime(monkeypatch):
    monkeypatch.setenv("DEID_RUNTIME", "torch")
    assert rt.choose_runtime() == "torch"
    monkeypatch.setenv("DEID_RUNTIME", "numpy")
    assert rt.choose_runtime() == "numpy"
    monkeypatch.delenv("DEID_RUNTIME")
    monkeypatch.setattr(rt, "gpu_driver_present", lambda: True)
    assert rt.choose_runtime() == "torch"
    monkeypatch.setattr(rt, "gpu_driver_present", lambda: False)
    assert rt.choose_runtime() == "numpy"
    assert rt.choose_runtime("torch") == "torch"


def test_tagging_on_a_cpu_never_imports_torch():
    """The default pipeline loads and tags in a fresh process without importing torch."""
    if rt.gpu_driver_present():
        pytest.skip("a GPU driver is present: torch is the runtime here")
    code = ("import sys\n"
            "from deid_engine.pipeline import build_pipeline\n"
            "from deid_engine.types import Document\n"
            "p = build_pipeline('default', 'en'); p.load()\n"
            "spans = p.run(Document('Seen by Dr. John Smith on 3/4/2020 at Mercy Hospital.'))\n"
            "assert any(s.source.startswith('tagger') for s in spans), spans\n"
            "print('torch' in sys.modules)\n")
    env = {k: v for k, v in os.environ.items() if k != "DEID_RUNTIME"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"


def test_char_feature_cache_gives_the_uncached_features(tmp_path):
    """Each spelling's char-CNN features are computed once per process; a full cache still answers."""
    net = _random_net(5)
    torch.save({k: v.detach().clone() for k, v in net.state_dict().items()}, tmp_path / "model.pt")
    npnet = rt.NumpyTaggerNet.load(tmp_path, net.cfg)
    rows = np.random.default_rng(0).integers(0, 30, (40, 7))
    rows[:, 5:] = 0
    ref = npnet._char_features(rows)
    assert np.allclose(npnet._cached_char_features(rows), ref, atol=1e-6)
    assert np.allclose(npnet._cached_char_features(rows[::-1]), ref[::-1], atol=1e-6)  # all hits
    npnet.CHAR_CACHE_ROWS = len(npnet._cc_index) + 3                                 # nearly full
    more = np.random.default_rng(1).integers(1, 30, (20, 7))
    assert np.allclose(npnet._cached_char_features(np.concatenate([rows[:5], more])),
                       npnet._char_features(np.concatenate([rows[:5], more])), atol=1e-6)


def _shipped_numpy_model():
    folder = resource_path("models", "en")
    if not (folder / "model.pt").is_file():
        pytest.skip("no shipped model")
    return TaggerModel.load(folder, runtime="numpy")


def test_emissions_by_type_equal_the_plain_path():
    """The by-spelling projection (``types`` in the batch) gives the plain path's emissions exactly, for windows
    mixing notes, repeated words on different layouts, capitals, lower case and padding."""
    m = _shipped_numpy_model()
    texts = TEXTS + ["Mary Smith\nMary Smith\n\nMARY SMITH called. mary smith called.\n" * 3,
                     "supercalifragilisticexpialidocious supercalifragilisticexpialidocioux " * 5]
    encs = [m.featurizer.encode(t) for t in texts]
    items = [Window(e, a, b) for e in encs if len(e.tokens) for a, b, _ka, _kb in windows(len(e.tokens), 40, 10)]
    for s in range(0, len(items), 7):
        chunk = items[s:s + 7]
        plain, _ = collate_arrays(chunk)
        typed, _ = collate_arrays(chunk, with_types=True)
        assert "types" in typed and "types" not in plain
        mask = plain["mask"]
        assert np.array_equal(m.net.emissions(**plain)[mask], m.net.emissions(**typed)[mask])


def test_char_cache_survives_repeated_rows():
    """A spelling handed to the char-feature cache twice in one call takes two rows; later spellings never
    overwrite a row the index points to."""
    m = _shipped_numpy_model()
    net = m.net
    rng = np.random.default_rng(0)
    rows = rng.integers(1, 50, (6, 20))
    first = net._cached_char_features(np.concatenate([rows[:2], rows[:2]]))   # duplicates in one call
    later = net._cached_char_features(rows[2:])                                 # new spellings after them
    again = net._cached_char_features(rows)
    fresh = net._char_features(rows)
    assert np.allclose(again, fresh, atol=1e-6) and np.allclose(first[:2], fresh[:2], atol=1e-6)
    assert np.allclose(later, fresh[2:], atol=1e-6)
