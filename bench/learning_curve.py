"""Learning curve of the review -> retrain loop on MEDDOCAN (simulated reviewer).

A simulated reviewer reviews MEDDOCAN train documents in rounds (cumulative
25, 50, 100, 250 by default): the current model tags each new document, the
reviewer accepts predictions that match a gold span exactly (relabelling when
the label differs), rejects the others and adds the missed gold spans, then
marks the document reviewed. Those decisions go through the app's own path
(``learn.examples``: decisions -> examples) and the model is retrained
(``learn.retrain.finetune``, replay included) on every document reviewed so
far, starting from the model adopted after the previous round. After each
round: strict entity F1 (labels, ``deid_engine.evaluate``) on MEDDOCAN dev
and the retraining wall time.

Start points: ``en`` (the English model, resources/models/en: Spanish words
and MEDDOCAN labels are new rows) and ``scratch`` (round 1 trains a new model,
later rounds fine-tune it).

    python bench/learning_curve.py                       # both starts, 25,50,100,250
    python bench/learning_curve.py --start en --rounds 10,25 --dev-limit 50   # quick

After the English start's last round, the start model and the final model are scored
on the PhysioNet dev split (English, tagger alone): what replay keeps (forgetting).

Every round's figures are printed as soon as they exist and appended to
``--log``. The last line is ``f1_at_100=X retrain_s_max=Y`` (English start).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deid_engine.learn.compare import evaluate_on  # noqa: E402
from deid_engine.learn.examples import ReviewedDoc, examples_from_reviews  # noqa: E402
from deid_engine.learn.retrain import RetrainConfig, finetune, load_replay  # noqa: E402
from deid_engine.model.data import load_folder  # noqa: E402
from deid_engine.model.io import TaggerModel  # noqa: E402
from deid_engine.resources import default_data_dir, resource_path  # noqa: E402
from deid_engine.types import Decision, Document, Span  # noqa: E402


def simulate_review(model, examples) -> list[ReviewedDoc]:
    """Decisions a perfect reviewer makes on the model's predictions."""
    preds = model.predict([e.text for e in examples]) if model is not None else [[] for _ in examples]
    out = []
    for ex, pr in zip(examples, preds):
        did = Document(ex.text).doc_id
        predicted = tuple(Span(a, b, lbl, "tagger", c) for a, b, lbl, c in pr)
        gold = {(s.start, s.end): s for s in ex.spans}
        now = time.time()
        decisions = []
        for p in predicted:
            g = gold.get((p.start, p.end))
            if g is None:
                decisions.append(Decision(did, p, "reject", now))
            else:
                decisions.append(Decision(did, p.with_label(g.label), "accept", now,
                                          previous_label=p.label if p.label != g.label else ""))
        pk = {(p.start, p.end) for p in predicted}
        for s in ex.spans:
            if (s.start, s.end) not in pk:
                decisions.append(Decision(did, Span(s.start, s.end, s.label, "user:review"), "add", now))
        out.append(ReviewedDoc(did, ex.text, ex.name, predicted, decisions, "reviewed"))
    return out


def drain(gen):
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value


def run_start(start: str, args, train_docs, dev, log) -> list[dict]:
    rows = []
    model = None
    base_dir = None
    if start == "en":
        base_dir = Path(args.base)
        if not (base_dir / "model.json").is_file():
            log(f"[{start}] no English model at {base_dir}: skipped")
            return rows
        model = TaggerModel.load(base_dir, map_location="cpu")
        model.meta.setdefault("model_id", "bundled-en")
        t0 = time.time()
        f1 = evaluate_on(model, dev)["strict"]["f1"]
        log(f"[{start}] round 0: reviewed 0  dev strict F1 {f1:.4f}  (eval {time.time() - t0:.0f}s)")
        rows.append({"start": start, "reviewed": 0, "f1": f1, "retrain_s": 0.0})
    reviewed: list[ReviewedDoc] = []
    rng = random.Random(args.seed)
    replay_cache = None
    for n in args.rounds:
        new = train_docs[len(reviewed):n]
        if not new:
            break
        t0 = time.time()
        reviewed += simulate_review(model, new)
        t_review = time.time() - t0
        exs = examples_from_reviews(reviewed)
        cfg = RetrainConfig(lang="es", max_seconds=args.max_seconds, seed=args.seed, threads=args.threads,
                            replay_ratio=args.replay_ratio, scratch_epochs=args.scratch_epochs,
                            epochs=args.epochs, min_steps=args.min_steps)
        replay = []
        if model is not None and args.replay_ratio > 0:
            if replay_cache is None:
                replay_cache, note = load_replay(base_dir, model.meta, rng, cfg.replay_max_docs, default_data_dir())
                log(f"[{start}] {note} ({len(replay_cache)} documents)")
            replay = replay_cache
        t0 = time.time()
        model = drain(finetune(model, exs, cfg, replay))
        t_train = time.time() - t0
        t0 = time.time()
        ev = evaluate_on(model, dev)
        row = {"start": start, "reviewed": len(reviewed), "f1": ev["strict"]["f1"], "p": ev["strict"]["precision"],
               "r": ev["strict"]["recall"], "token_recall": ev["token"]["recall"], "retrain_s": t_train,
               "epochs": (model.meta.get("finetune") or [{}])[-1].get("epochs_run"),
               "stopped": (model.meta.get("finetune") or [{}])[-1].get("stopped", "")}
        rows.append(row)
        log(f"[{start}] round: reviewed {len(reviewed):>3}  dev strict P {row['p']:.4f} R {row['r']:.4f} "
            f"F1 {row['f1']:.4f}  token R {row['token_recall']:.4f}  retrain {t_train:.0f}s"
            f" (epochs {row['epochs']}{', ' + row['stopped'] if row['stopped'] else ''})"
            f"  review-sim {t_review:.0f}s  eval {time.time() - t0:.0f}s")
    if start == "en" and model is not None and args.forgetting:
        _forgetting(base_dir, model, log)
    return rows


def _forgetting(base_dir: Path, model, log) -> None:
    """English skills before and after the Spanish rounds: the start model and the last
    fine-tuned one, tagger alone, on the PhysioNet dev split (replay's purpose)."""
    folder = default_data_dir() / "physionet-deid" / "train"
    if not folder.is_dir():
        log("[en] forgetting: PhysioNet corpus absent, not measured")
        return
    docs = load_folder(folder, split="dev")
    for name, m in (("start", TaggerModel.load(base_dir, map_location="cpu")), ("after", model)):
        ev = evaluate_on(m, docs)
        log(f"[en] forgetting, PhysioNet dev ({len(docs)} notes), {name}: token P {ev['token']['precision']:.4f} "
            f"R {ev['token']['recall']:.4f} F1 {ev['token']['f1']:.4f}  strict F1 {ev['strict']['f1']:.4f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--start", choices=["en", "scratch", "both"], default="both")
    ap.add_argument("--rounds", default="25,50,100,250", help="cumulative reviewed documents after each round")
    ap.add_argument("--base", default=str(resource_path("models", "en")), help="English start model folder")
    ap.add_argument("--data", default=str(default_data_dir() / "meddocan"))
    ap.add_argument("--dev-limit", type=int, default=0, help="evaluate on the first N dev documents (0 = all)")
    ap.add_argument("--max-seconds", type=float, default=270.0, help="retraining time budget per round")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--min-steps", type=int, default=300)
    ap.add_argument("--scratch-epochs", type=int, default=15)
    ap.add_argument("--replay-ratio", type=float, default=0.5)
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: auto, 1 on a busy machine)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--log", default="/tmp/deid_learning_curve.log")
    ap.add_argument("--no-forgetting", dest="forgetting", action="store_false",
                    help="skip the English-start model's PhysioNet dev check after the last round")
    args = ap.parse_args()
    args.rounds = sorted({int(x) for x in args.rounds.split(",") if x.strip()})
    logf = open(args.log, "a", encoding="utf-8")

    def log(msg: str) -> None:
        line = f"{time.strftime('%H:%M:%S')} {msg}"
        print(line, flush=True)
        logf.write(line + "\n")
        logf.flush()

    data = Path(args.data)
    train_docs = load_folder(data / "train")
    random.Random(args.seed).shuffle(train_docs)
    dev = load_folder(data / "dev")
    if args.dev_limit:
        dev = dev[: args.dev_limit]
    log(f"learning curve: rounds {args.rounds}, dev {len(dev)} docs, budget {args.max_seconds:.0f}s/round, "
        f"threads {args.threads}")
    starts = ["en", "scratch"] if args.start == "both" else [args.start]
    all_rows = []
    for s in starts:
        all_rows += run_start(s, args, train_docs, dev, log)
    print()
    print(f"{'start':<9}{'reviewed':>9}{'dev strict F1':>15}{'retrain s':>11}")
    for r in all_rows:
        print(f"{r['start']:<9}{r['reviewed']:>9}{r['f1']:>15.4f}{r['retrain_s']:>11.0f}")
    en = [r for r in all_rows if r["start"] == "en" and r["reviewed"] > 0]
    at100 = next((r["f1"] for r in en if r["reviewed"] == 100), float("nan"))
    tmax = max((r["retrain_s"] for r in en), default=math.nan)
    line = f"f1_at_100={at100:.4f} retrain_s_max={tmax:.0f}"
    log(line)
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
