"""Fine-tuning a tagger on reviewed documents, with replay, as a Progress generator.

``finetune(base, train_examples, cfg, replay=...)`` starts from ``base``'s
weights. ``extend_model`` first grows the model to the new data: every word,
character and frequent skeleton word of the new texts not in the vocabulary
gets a new embedding row (GloVe vector when known, else small random), every
new label gets new ``B-``/``I-`` tags (projection rows and CRF start/end/
transition entries initialised from the mean of the existing tags with the
same prefix); old rows are kept unchanged, so the model still reads what it
read before. Each epoch sees every reviewed window with PHI, a fraction of the
PHI-free ones, and as many replay windows (the base model's own training
data) as reviewed windows, so the model does not forget. ``base=None``
trains from scratch with ``model.train.train`` on the same examples.

``retrain_from_reviews`` is the whole loop the app and ``deid train
--from-reviews`` run: examples from decisions, held-back split, fine-tuning,
comparison of the new and the active model on the held-back documents, and
saving the new model as an inactive version (the user adopts it or not).
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np
import torch

from ..model.data import Example, Window, bio_tags, load_folder, windows
from ..model.features import Featurizer, Vocab, norm_word, skeleton_key
from ..model.io import TaggerModel, auto_threads, device
from ..model.train import length_batches, train_step
from ..model.network import NetConfig, TaggerNet
from ..tokenize import tokenize
from ..types import Cancelled, Progress

log = logging.getLogger(__name__)


@dataclass
class RetrainConfig:
    lang: str = "en"
    epochs: int = 30               # passes over the reviewed windows (at most)
    max_seconds: float = 270.0     # stop training (keeping the weights so far) after this
    lr: float = 2e-3
    batch: int = 16
    min_steps: int = 300           # small review sets: repeat them up to this many updates
    replay_ratio: float = 0.5      # replay windows per reviewed PHI window
    replay_max_docs: int = 400
    augment: int = 1               # surrogate-swapped copies of each reviewed example with PHI
    o_keep: float = 0.5            # fraction of PHI-free reviewed windows per epoch
    word_dropout: float = 0.05
    seed: int = 13
    threads: int = 0               # 0: model.train.auto_threads() (2, or 1 on a busy machine)
    scratch_epochs: int = 15       # when there is no base model
    glove: bool = True             # new word rows from GloVe when the package is installed


def _check(cancelled: Callable[[], bool]) -> None:
    if cancelled():
        raise Cancelled()


# --- growing a model -------------------------------------------------------------

def _glove_lookup():
    try:
        from ..model.train import _glove

        g = _glove()
    except Exception:  # training-time package missing: random init
        g = None
    if g is None:
        return None
    idx = {w: i for i, w in enumerate(g[0])}
    return lambda w: (np.asarray(g[1][idx[w]], dtype=np.float32) if w in idx else None)


def extend_model(base: TaggerModel, texts: Sequence[str], labels: Sequence[str], seed: int = 13,
                 glove: bool = True) -> tuple[TaggerModel, dict[str, int]]:
    """A copy of ``base`` with rows for the new words, characters, skeleton words and labels."""
    gen = torch.Generator().manual_seed(seed)
    words = Vocab.from_json(base.words.to_json())
    chars = Vocab.from_json(base.chars.to_json())
    skel = Vocab.from_json(base.skeleton.to_json())
    wc: Counter = Counter()
    cc: Counter = Counter()
    sc: Counter = Counter()
    for t in texts:
        for tok in tokenize(t):
            wc[norm_word(tok.text)] += 1
            sc[skeleton_key(tok.text)] += 1
            cc.update(tok.text)
    n_w0, n_c0, n_s0 = len(words), len(chars), len(skel)
    for w, _ in wc.most_common():
        words.add(w)
    for c, _ in cc.most_common():
        chars.add(c)
    t_skel = int((base.meta.get("skeleton") or {}).get("t", 2) or 2)
    for w, n in sc.most_common():
        if n >= t_skel:
            skel.add(w)
    tags = list(base.tags)
    for lbl in sorted(set(labels)):
        for p in ("B", "I"):
            if f"{p}-{lbl}" not in tags:
                tags.append(f"{p}-{lbl}")
    old_cfg = base.net.cfg
    cfg = NetConfig(**{**old_cfg.to_json(), "n_words": len(words), "n_chars": len(chars),
                       "n_skel": len(skel), "n_tags": len(tags)})
    net = TaggerNet(cfg)
    old = {k: v.detach().cpu() for k, v in base.net.state_dict().items()}
    new = net.state_dict()
    lookup = _glove_lookup() if glove else None
    with torch.no_grad():
        for k, v in old.items():
            if new[k].shape == v.shape:
                new[k].copy_(v)
        # embeddings: old rows copied, new rows GloVe or random at the old rows' scale
        def grow(key: str, n_old: int, itos: list[str] | None = None) -> int:
            if key not in old:
                return 0
            w_old = old[key]
            std = float(w_old[2:].std()) if w_old.shape[0] > 3 else 0.1
            w = new[key]
            w[:n_old] = w_old
            hits = 0
            for i in range(n_old, w.shape[0]):
                vec = lookup(itos[i]) if (lookup is not None and itos is not None) else None
                if vec is not None and vec.shape[0] == w.shape[1]:
                    w[i] = torch.from_numpy(np.array(vec, dtype=np.float32))
                    hits += 1
                else:
                    w[i] = torch.randn(w.shape[1], generator=gen) * std
            return hits
        glove_hits = grow("word_emb.weight", n_w0, words.itos)
        grow("char_emb.weight", n_c0)
        grow("skel_emb.weight", n_s0)
        # tags: projection rows and CRF entries of a new tag start as the mean over old tags of its prefix
        K0 = len(base.tags)
        pref = [t.split("-", 1)[0] for t in tags]  # "O", "B", "I"
        same = {p: [i for i in range(K0) if pref[i] == p] for p in ("O", "B", "I")}

        def mean_rows(t: torch.Tensor, p: str) -> torch.Tensor:
            ids = same[p] or list(range(K0))
            return t[ids].mean(0)

        W, bvec = new["proj.weight"], new["proj.bias"]
        W[:K0], bvec[:K0] = old["proj.weight"], old["proj.bias"]
        st, en, tr = new["crf.start"], new["crf.end"], new["crf.trans"]
        st[:K0], en[:K0] = old["crf.start"], old["crf.end"]
        tr.zero_()
        tr[:K0, :K0] = old["crf.trans"]
        # continuation scores of an old label (B-x -> I-x, I-x -> I-x) for new labels
        lab = lambda i: tags[i].split("-", 1)[1] if "-" in tags[i] else ""  # noqa: E731
        cont_bi = [old["crf.trans"][i, j] for i in same["B"] for j in same["I"] if lab(i) == lab(j)]
        cont_ii = [old["crf.trans"][i, i] for i in same["I"]]
        for k in range(K0, len(tags)):
            p = pref[k]
            W[k] = mean_rows(old["proj.weight"], p) + torch.randn(W.shape[1], generator=gen) * 0.01
            bvec[k] = mean_rows(old["proj.bias"].unsqueeze(1), p).squeeze(0)
            st[k] = mean_rows(old["crf.start"].unsqueeze(1), p).squeeze(0)
            en[k] = mean_rows(old["crf.end"].unsqueeze(1), p).squeeze(0)
        # transitions: a new tag's entries are the mean old transition of the same prefix pair
        # (between different labels), or the old same-label continuation for B-x -> I-x and I-x -> I-x
        ot = old["crf.trans"]
        table: dict[tuple[str, str], torch.Tensor] = {}
        for p_ in ("O", "B", "I"):
            for q_ in ("O", "B", "I"):
                vals = [ot[a_, b_] for a_ in same[p_] for b_ in same[q_]
                        if a_ != b_ and (lab(a_) != lab(b_) or "O" in (p_, q_))]
                table[(p_, q_)] = torch.stack(vals).mean() if vals else torch.tensor(0.0)
        cont = {"B": torch.stack(cont_bi).mean() if cont_bi else torch.tensor(0.0),
                "I": torch.stack(cont_ii).mean() if cont_ii else torch.tensor(0.0)}
        for k in range(len(tags)):
            for j in range(len(tags)):
                if k < K0 and j < K0:
                    continue
                if pref[j] == "I" and pref[k] in ("B", "I") and lab(k) == lab(j):
                    tr[k, j] = cont[pref[k]]
                else:
                    tr[k, j] = table[(pref[k], pref[j])]
    net.load_state_dict(new)
    model = TaggerModel(net, words, chars, skel, tags, dict(base.meta), base.window, base.overlap)
    added = {"words": len(words) - n_w0, "chars": len(chars) - n_c0, "skeleton": len(skel) - n_s0,
             "tags": len(tags) - K0, "glove_rows": glove_hits}
    return model, added


# --- replay -----------------------------------------------------------------------

def load_replay(model_dir: Path | None, meta: dict, rng: random.Random, max_docs: int,
                data_dir: Path | None = None) -> tuple[list[Example], str]:
    """Replay examples for a model: its recorded training folders (if present on this
    machine; PhysioNet: the train split), else ``replay.jsonl`` saved beside the model.
    Returns (examples, a PHI-free note of where they came from)."""
    folders = [Path(d) for d in (meta.get("training") or {}).get("data", [])]
    if not folders and meta.get("replay_data"):
        folders = [Path(d) for d in meta["replay_data"]]
    exs: list[Example] = []
    used = []
    for d in folders:
        cand = d if d.is_dir() else ((data_dir / d.name) if data_dir else None)
        if cand is None or not cand.is_dir():
            continue
        try:
            got = [e for e in load_folder(cand, split="train") if e.origin != "reviews"]
        except (OSError, ValueError):
            continue
        exs.extend(got)
        used.append(f"{cand.parent.name}/{cand.name}")
    note = f"replay from {', '.join(used)}" if used else ""
    if not exs and model_dir is not None and (Path(model_dir) / "replay.jsonl").is_file():
        from ..io.jsonl import iter_jsonl

        exs = [Example(r.text or "", list(r.spans), r.id, "replay") for r in iter_jsonl(Path(model_dir) / "replay.jsonl")
               if r.text]
        note = "replay from examples saved with the model"
    if not exs:
        return [], "no replay data on this machine: fine-tuned on the reviewed documents only"
    if len(exs) > max_docs:
        exs = rng.sample(exs, max_docs)
    return exs, note


# --- the fine-tuning loop -------------------------------------------------------------

def _encode_windows(model: TaggerModel, examples: Sequence[Example], tag_index: dict[str, int],
                    cancelled: Callable[[], bool]) -> tuple[list[Window], list[Window]]:
    feat = Featurizer(model.words, model.chars, model.skeleton, model.featurizer.lexicon)
    phi, o = [], []
    for e in examples:
        _check(cancelled)
        enc = feat.encode(e.text)
        n = len(enc.tokens)
        if not n:
            continue
        tg = bio_tags(enc.tokens, e.spans, tag_index)
        for a, b, _, _ in windows(n, model.window, model.overlap):
            (phi if tg[a:b].any() else o).append(Window(enc, a, b, tg))
    return phi, o


def finetune(base: TaggerModel | None, train_examples: Sequence[Example], cfg: RetrainConfig,
             replay: Sequence[Example] = (), cancelled: Callable[[], bool] = lambda: False
             ) -> Iterator[Progress | dict[str, Any]]:
    """Yield ``Progress`` and ``{"event": ...}`` dicts; return the new ``TaggerModel``.

    Cancellation (``cancelled()`` true) raises ``Cancelled`` between batches.
    """
    started = time.time()
    if not train_examples:
        raise ValueError("no reviewed examples to learn from")
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    np_rng = np.random.default_rng(cfg.seed)
    torch.set_num_threads(cfg.threads or auto_threads())
    if base is None:
        return (yield from _from_scratch(train_examples, cfg, cancelled))
    yield Progress(0, 0, "preparing examples", started)
    from ..model.augment import get_generator, swap_surrogates

    gen = get_generator()
    reviewed = list(train_examples)
    for ex in train_examples:
        if ex.spans:
            for _ in range(cfg.augment):
                reviewed.append(swap_surrogates(ex, rng, cfg.lang, gen))
    _check(cancelled)
    labels = sorted({s.label for e in reviewed for s in e.spans})
    model, added = extend_model(base, [e.text for e in reviewed], labels, cfg.seed, glove=cfg.glove)
    yield {"event": "extended", **added}
    tag_index = {t: i for i, t in enumerate(model.tags)}
    yield Progress(0, 0, "encoding", started)
    r_phi, r_o = _encode_windows(model, reviewed, tag_index, cancelled)
    # replay: encode only as many of its documents as the replay share needs (x3: not all have PHI)
    want = int(round(cfg.replay_ratio * max(1, len(r_phi))))
    rep_docs = list(replay)
    if len(rep_docs) > 3 * want + 10:
        rep_docs = rng.sample(rep_docs, 3 * want + 10)
    p_phi, p_o = _encode_windows(model, rep_docs, tag_index, cancelled) if (rep_docs and want) else ([], [])
    dev_ = device()
    net = model.net.to(dev_)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    n_rev = len(r_phi) + int(round(cfg.o_keep * len(r_o)))
    n_rep = min(len(p_phi) + len(p_o), int(round(cfg.replay_ratio * max(1, len(r_phi)))))
    steps_per_epoch = math.ceil((n_rev + n_rep) / cfg.batch)
    total = max(cfg.min_steps, steps_per_epoch * cfg.epochs)
    n_epochs = math.ceil(total / max(1, steps_per_epoch))
    step = 0
    t_train = time.time()
    history = []
    stopped = ""
    for epoch in range(1, n_epochs + 1):
        net.train()
        k = int(round(cfg.o_keep * len(r_o)))
        items = r_phi + ([r_o[i] for i in np_rng.choice(len(r_o), size=min(k, len(r_o)), replace=False)] if r_o else [])
        if n_rep:
            # replay: PHI windows first choice, topped up with PHI-free ones
            pick = list(np_rng.permutation(len(p_phi)))[:n_rep] if p_phi else []
            items += [p_phi[i] for i in pick]
            if len(pick) < n_rep and p_o:
                items += [p_o[i] for i in np_rng.choice(len(p_o), size=min(n_rep - len(pick), len(p_o)),
                                                          replace=False)]
        batches = length_batches(items, cfg.batch, rng)
        loss_sum = 0.0
        for bi, bw in enumerate(batches):
            _check(cancelled)
            # learning rate decays linearly to 10 % over the planned steps or the time budget
            done_frac = max(step / total, (time.time() - started) / max(1.0, cfg.max_seconds))
            for g in opt.param_groups:
                g["lr"] = cfg.lr * max(0.1, 1.0 - 0.9 * min(1.0, done_frac))
            loss_sum += train_step(net, opt, bw, dev_, cfg.word_dropout)
            step += 1
            if bi % 5 == 0 or bi == len(batches) - 1:
                yield Progress(step, total, f"fine-tuning: epoch {epoch}/{n_epochs}", t_train)
            if time.time() - started > cfg.max_seconds:
                stopped = "time budget"
                break
            if step >= total:
                break
        history.append({"epoch": epoch, "loss": round(loss_sum / max(1, len(batches)), 4),
                        "seconds": round(time.time() - started, 1)})
        yield {"event": "epoch", **history[-1]}
        if stopped:
            break
    net.eval()
    meta = dict(model.meta)
    meta["labels"] = model.labels
    ft = {"base_model": str(base.meta.get("model_id") or "bundled"), "reviewed_examples": len(train_examples),
          "reviewed_documents": len({getattr(e, "doc_id", e.name) for e in train_examples}),
          "replay_examples": len(rep_docs) if want else 0, "epochs_run": len(history), "stopped": stopped,
          "seconds": round(time.time() - started, 1), "added": added, "history": history,
          "config": asdict(cfg)}
    meta["finetune"] = [*meta.get("finetune", []), ft] if isinstance(meta.get("finetune"), list) else [ft]
    model.meta = meta
    yield {"event": "trained", "seconds": ft["seconds"], "epochs": len(history), "stopped": stopped}
    return model


def _from_scratch(train_examples: Sequence[Example], cfg: RetrainConfig, cancelled):
    """No base model: a full training run of ``model.train.train`` on the examples."""
    from ..model.train import TrainConfig, train

    tc = TrainConfig(data=[], lang=cfg.lang, epochs=cfg.scratch_epochs, glove=cfg.glove, seed=cfg.seed, augment=cfg.augment,
                     visit_notes=None, fixed_epochs=True, threads=cfg.threads, batch=cfg.batch,
                     train_examples=[Example(e.text, list(e.spans), e.name, e.origin) for e in train_examples],
                     dev_examples=[], command="retrain from reviews (no base model)")
    started = time.time()
    gen = train(tc)
    while True:
        _check(cancelled)
        try:
            item = next(gen)
        except StopIteration as stop:
            model = stop.value
            break
        yield item
    model.meta["finetune"] = [{"base_model": "none", "reviewed_examples": len(train_examples),
                               "epochs_run": model.meta.get("training", {}).get("epochs_run"),
                               "seconds": round(time.time() - started, 1), "config": asdict(cfg)}]
    return model


# --- the whole loop --------------------------------------------------------------

@dataclass
class RetrainResult:
    model: TaggerModel
    version: Any  # registry.ModelVersion
    comparison: dict[str, Any]
    notes: list[str]


def retrain_from_reviews(docs, lang: str, cfg: RetrainConfig | None = None,
                         cancelled: Callable[[], bool] = lambda: False,
                         base_dir: Path | None | str = "active", save: bool = True
                         ) -> Iterator[Progress | dict[str, Any]]:
    """Reviewed documents -> a new model version (saved, not activated) + comparison.

    ``base_dir``: "active" (the user's active model or the bundled one), a model
    folder, or None (train from scratch). Yields Progress and event dicts; the
    last dict is ``{"event": "done", "version": id, "comparison": {...}}``;
    returns a ``RetrainResult``.
    """
    from . import registry
    from .compare import compare_models
    from .examples import examples_from_reviews, split_examples

    cfg = cfg or RetrainConfig(lang=lang)
    cfg.lang = lang
    started = time.time()
    yield Progress(0, 0, "collecting reviewed documents", started)
    examples = examples_from_reviews(docs)
    train_ex, held = split_examples(examples)
    notes = []
    if not train_ex:
        raise ValueError("no reviewed documents to learn from yet (review some documents first)")
    if not held:
        notes.append("too few reviewed documents for a held-back comparison (need 3 or more)")
    yield {"event": "examples", "train_examples": len(train_ex), "heldout_examples": len(held),
           "train_documents": len({e.doc_id for e in train_ex}), "heldout_documents": len({e.doc_id for e in held})}
    base = None
    base_id = ""
    if base_dir == "active":
        base_dir = registry.active_model_dir(lang)
        base_id = registry.active_id(lang)
    if base_dir is not None:
        base = TaggerModel.load(base_dir, map_location="cpu")
        base.meta.setdefault("model_id", base_id or "bundled")
    replay: list[Example] = []
    if base is not None:
        replay, note = load_replay(Path(base_dir), base.meta, random.Random(cfg.seed), cfg.replay_max_docs,
                                   _data_dir())
        notes.append(note)
        if not replay:
            log.warning("retraining without replay: %s", note)
        yield {"event": "replay", "examples": len(replay), "note": note}
    model = yield from finetune(base, train_ex, cfg, replay, cancelled)
    _check(cancelled)
    yield Progress(0, 0, "comparing on held-back documents", started)
    comparison = compare_models(base, model, held) if held else {}
    version = None
    if save:
        version = registry.save_version(model, lang, {"comparison": comparison, "notes": notes,
                                                      "finetune": model.meta.get("finetune", [])[-1:]},
                                        parent=base_id)
    yield {"event": "done", "version": version.id if version else "", "comparison": comparison, "notes": notes,
           "seconds": round(time.time() - started, 1)}
    return RetrainResult(model, version, comparison, notes)


def _data_dir() -> Path | None:
    try:
        from ..config import load_settings

        return load_settings().data_path
    except Exception:  # settings unreadable: the default location
        from ..resources import default_data_dir

        return default_data_dir()
