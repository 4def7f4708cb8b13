"""Fine-tuning from review examples on synthetic notes (tiny, fast models)."""

from __future__ import annotations

import random
import time

import pytest
import torch

from deid_engine.learn.compare import compare_models, evaluate_on, format_comparison
from deid_engine.learn.examples import ReviewedDoc
from deid_engine.learn.retrain import RetrainConfig, extend_model, finetune, retrain_from_reviews
from deid_engine.model.data import Example, collate, Window
from deid_engine.types import Cancelled, Decision, Document, Span

FIRST = ["John", "Mary", "Ahmed", "Lucia", "Peter", "Olga", "Carlos", "Mei", "Sara", "Tom", "Anna", "Ivan"]
LAST = ["Smith", "Brown", "Garcia", "Okafor", "Nguyen", "Patel", "Kowalski", "Dubois", "Rossi", "Berg"]
HOSP = ["Mercy Hospital", "Riverside Clinic", "Saint Anne Hospital", "Lakeview Medical Center", "Northgate Clinic"]


def make(rng: random.Random, hosp: bool = True, n: int = 2) -> Example:
    parts, spans, pos = [], [], 0
    for _ in range(n):
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        date = f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/20{rng.randint(10, 24)}"
        if hosp:
            tpl = [("Patient ", None), (name, "PATIENT"), (" was admitted to ", None), (rng.choice(HOSP), "HOSPITAL"),
                   (" on ", None), (date, "DATE"), (". Vitals stable.\n", None)]
        else:
            tpl = [("Patient ", None), (name, "PATIENT"), (" seen on ", None), (date, "DATE"), (". No distress.\n", None)]
        for t, lbl in tpl:
            if lbl:
                spans.append(Span(pos, pos + len(t), lbl))
            parts.append(t)
            pos += len(t)
    return Example("".join(parts), spans, f"s{rng.random():.8f}", "synthetic")


@pytest.fixture(scope="module")
def base():
    from deid_engine.model.train import TrainConfig, run

    rng = random.Random(1)
    cfg = TrainConfig(data=[], lang="en", epochs=10, fixed_epochs=True, glove=False, augment=0, case_variants=False,
                      visit_notes=None, hidden=16, batch=8, threads=2,
                      train_examples=[make(rng, hosp=False) for _ in range(24)], dev_examples=[])
    return run(cfg)


def _drain(gen):
    events = []
    while True:
        try:
            events.append(next(gen))
        except StopIteration as stop:
            return stop.value, events


def test_extend_model_keeps_old_rows(base):
    texts = ["Patient Zebediah Quux was admitted to Mercy Hospital on 01/02/2020."]
    new, added = extend_model(base, texts, ["HOSPITAL", "PATIENT"], glove=False)
    assert added["tags"] == 2 and added["words"] >= 3
    assert new.tags[: len(base.tags)] == base.tags and new.words.itos[: len(base.words)] == base.words.itos
    # on text made only of known words, the old tags' emissions are unchanged
    old_text = "Patient John Smith seen on 01/02/2020. No distress."
    w_old = Window(base.featurizer.encode(old_text), 0, len(base.featurizer.encode(old_text).tokens))
    w_new = Window(new.featurizer.encode(old_text), 0, len(new.featurizer.encode(old_text).tokens))
    base.net.eval(), new.net.eval()
    with torch.no_grad():
        e_old = base.net.emissions(**collate([w_old])[0])
        e_new = new.net.emissions(**collate([w_new])[0])
    assert torch.allclose(e_old, e_new[..., : len(base.tags)], atol=1e-5)


def test_finetune_learns_a_new_label_and_keeps_old_ones(base):
    rng = random.Random(2)
    train = [make(rng) for _ in range(16)]
    held = [make(rng) for _ in range(8)]
    before = evaluate_on(base, held)
    model, events = _drain(finetune(base, train, RetrainConfig(epochs=4, min_steps=40, batch=8, augment=0,
                                                               glove=False, max_seconds=300),
                                    replay=[make(rng, hosp=False) for _ in range(6)]))
    after = evaluate_on(model, held)
    assert "HOSPITAL" in model.labels
    assert after["strict"]["f1"] > before["strict"]["f1"] + 0.2, (before, after)
    assert after["category_recall"].get("LOCATION", 0) > 0.5
    cmp = compare_models(base, model, held)
    assert cmp["suggest"] == "adopt" and "held-back documents" in format_comparison(cmp), format_comparison(cmp)
    assert any(isinstance(e, dict) and e.get("event") == "trained" for e in events)
    assert model.meta["finetune"][-1]["reviewed_examples"] == 16


def test_finetune_cancel(base):
    rng = random.Random(3)
    calls = {"n": 0}

    def cancelled():
        calls["n"] += 1
        return calls["n"] > 5

    with pytest.raises(Cancelled):
        _drain(finetune(base, [make(rng) for _ in range(8)], RetrainConfig(glove=False, augment=0), cancelled=cancelled))


def test_token_entropy_ranks_unfamiliar_text_higher(base):
    from deid_engine.learn.active import document_uncertainty, token_entropies

    texts = ["Patient John Smith seen on 01/02/2020. No distress.", "Xq Zorblat vexed quom Plinth Ober 7.7 zz"]
    ents = token_entropies(base, texts)
    assert [len(e) for e in ents] == [len(base.featurizer.encode(t).tokens) for t in texts]
    s = document_uncertainty(base, texts)
    assert s[1] > s[0]


def test_retrain_from_reviews_saves_an_inactive_version(base, tmp_path):
    from deid_engine.learn import registry

    base_dir = base.save(tmp_path / "base")
    rng = random.Random(4)
    docs = []
    for _ in range(12):
        ex = make(rng)
        did = Document(ex.text).doc_id
        preds = tuple(s for s in ex.spans if s.label != "HOSPITAL")
        decisions = [Decision(did, s, "accept" if s.label != "HOSPITAL" else "add", time.time()) for s in ex.spans]
        docs.append(ReviewedDoc(did, ex.text, ex.name, preds, decisions, "reviewed"))
    cfg = RetrainConfig(epochs=2, min_steps=10, batch=8, augment=0, glove=False, max_seconds=40)
    res, events = _drain(retrain_from_reviews(docs, "en", cfg, base_dir=base_dir))
    done = [e for e in events if isinstance(e, dict) and e.get("event") == "done"][0]
    assert done["version"] == res.version.id
    assert registry.active_id("en") == ""  # not adopted until the user says so
    assert (res.version.path / "model.pt").is_file() and (res.version.path / "metrics.json").is_file()
    assert res.comparison["old"]["documents"] >= 1
    ex = [e for e in events if isinstance(e, dict) and e.get("event") == "examples"][0]
    assert ex["heldout_documents"] >= 1 and ex["train_documents"] + ex["heldout_documents"] == 12
    assert any("no replay" in n for n in res.notes)
    registry.activate("en", res.version.id)
    from deid_engine.detect.tagger import TaggerDetector

    t = TaggerDetector("en")
    assert t.describe()["model_id"] == res.version.id


@pytest.mark.slow
def test_cli_train_from_reviews(base, tmp_path, capsys):
    """``deid train --from-reviews`` on a reviewed folder: dump, retrain, compare, activate."""
    from deid_engine.cli import main
    from deid_engine.learn import registry
    from deid_engine.review.session import ReviewSession

    base_dir = base.save(tmp_path / "base")
    folder = tmp_path / "notes"
    folder.mkdir()
    rng = random.Random(5)
    ses = ReviewSession(folder)
    for i in range(6):
        ex = make(rng)
        (folder / f"n{i}.txt").write_text(ex.text, encoding="utf-8")
        e, _ = ses.add_document(f"n{i}.txt", Document(ex.text, path=folder / f"n{i}.txt"))
        ses.decide([ses.make(e, s, "add") for s in ex.spans])
        ses.mark(e, "reviewed")
    ses.save_manifest()
    dump = tmp_path / "dump.jsonl"
    rc = main(["train", "--from-reviews", "--base", str(base_dir), "--dump", f"jsonl:{dump}", "--max-seconds", "30",
               "--activate"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "saved model version" in out and "held-back documents" in out
    assert len(dump.read_text(encoding="utf-8").splitlines()) == 6
    assert len(registry.list_versions("en")) == 1
