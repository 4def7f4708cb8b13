"""Score a detector preset on a BRAT corpus split; print the evaluation table.

    python bench/rules_eval.py --corpus physionet --split train [--detectors rules]
    python bench/rules_eval.py --corpus meddocan --split dev --lang es

PhysioNet deid uses the project's fixed split (``deid_engine.splits``); MEDDOCAN
its own folders. ``--errors N`` prints N missed gold spans and N false
positives *with context* for error analysis on train only (never on dev: that
would leak PHI-free tuning signal into the held-out numbers, and the notes
contain surrogate PHI that should not be logged from dev).
The last line is ``token_p=.. token_r=.. token_f1=..``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from deid_engine.evaluate import evaluate
from deid_engine.io.brat import iter_brat_folder, taxonomy_labels
from deid_engine.pipeline import build_pipeline
from deid_engine.resources import default_data_dir
from deid_engine.splits import physionet_split
from deid_engine.taxonomy import category_of

# MEDDOCAN gold categories that the pattern detectors target.
PATTERN_LABELS = ("DATE", "AGE", "PHONE", "FAX", "EMAIL", "URL", "IPADDR", "STREET", "ZIP", "MEDICALRECORD",
                  "HEALTHPLAN", "ACCOUNT", "LICENSE", "IDNUM", "VEHICLE", "DEVICE")


def load_corpus(corpus: str, split: str, data: Path | None, limit: int):
    root = data or default_data_dir()
    if corpus == "physionet":
        folder = root / "physionet-deid" / "train"
        docs = [d for d in iter_brat_folder(folder, taxonomy_labels) if physionet_split(d.name) == split]
    else:
        folder = root / "meddocan" / split
        docs = list(iter_brat_folder(folder, taxonomy_labels))
    return docs[:limit] if limit else docs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", choices=("physionet", "meddocan"), default="physionet")
    ap.add_argument("--split", default="train")
    ap.add_argument("--detectors", default="rules")
    ap.add_argument("--lang", default=None)
    ap.add_argument("--data", type=Path, default=None)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--errors", type=int, default=0, help="print N misses and N false positives (train only)")
    ap.add_argument("--label", default="", help="restrict --errors to this gold/pred category")
    ap.add_argument("--folder", type=Path, default=None,
                    help="score this BRAT folder instead (all its notes; e.g. a calibration fold of train)")
    ap.add_argument("--recall-threshold", type=float, default=None,
                    help="tagger recall threshold (default: the model card's; 0 = Viterbi only)")
    ap.add_argument("--ages", choices=("all", "over89"), default=None,
                    help="age policy (default: the user's setting, 'all'); PhysioNet's guideline is over89")
    ap.add_argument("--places", choices=("all", "safe_harbor"), default=None,
                    help="place policy (default: the user's setting, 'all'); safe_harbor keeps US states and "
                         "countries, as PhysioNet's guideline does")
    ap.add_argument("--professions", choices=("all", "safe_harbor"), default=None,
                    help="profession policy (default: the user's setting, 'all'); safe_harbor keeps occupations, "
                         "as PhysioNet's guideline does (its gold marks none; gold spans are not changed)")
    ap.add_argument("--model", type=Path, default=None,
                    help="tagger model folder (default: the active/bundled model for --lang)")
    args = ap.parse_args(argv)
    lang = args.lang or ("es" if args.corpus == "meddocan" else "en")
    if args.folder is not None:
        docs = list(iter_brat_folder(args.folder, taxonomy_labels))[: args.limit or None]
    else:
        docs = load_corpus(args.corpus, args.split, args.data, args.limit)
    pipe = build_pipeline(args.detectors, lang=lang)
    if args.ages is not None:
        for f in pipe.filters:
            if f.name == "age_policy":
                f.policy = args.ages
    if args.places is not None:
        for f in pipe.filters:
            if f.name == "place_policy":
                f.policy = args.places
    if args.professions is not None:
        for f in pipe.filters:
            if f.name == "profession_policy":
                f.policy = args.professions
    if args.model is not None:
        for det in pipe.detectors:
            if hasattr(det, "path"):
                det.path = args.model
    pipe = pipe.load()
    if args.recall_threshold is not None:
        for det in pipe.detectors:
            if getattr(det, "model", None) is not None:
                det.model.meta["recall_threshold"] = args.recall_threshold or None
    t0 = time.perf_counter()
    texts, gold, pred = {}, {}, {}
    for d in docs:
        texts[d.name], gold[d.name] = d.text, list(d.spans)
        pred[d.name] = pipe.run(d.document)
    dt = time.perf_counter() - t0
    rep = evaluate(texts, gold, pred)
    print(f"corpus={args.folder or args.corpus} split={'-' if args.folder else args.split} detectors={args.detectors} lang={lang} docs={len(docs)} "
          f"model={args.model or 'default'} ages={args.ages or 'setting'} places={args.places or 'setting'} "
          f"professions={args.professions or 'setting'} seconds={dt:.2f}")
    print(rep.format_table())
    if args.corpus == "physionet" or args.folder:
        print("\nname labels (token recall):")
        for lbl in ("DOCTOR", "PATIENT", "RELATIVE"):
            r = rep.label_token_recall.get(lbl)
            if r and r.total:
                print(f"  {lbl:<16}{r.recall:>8.4f}{r.total:>8}")
    if args.corpus == "meddocan":
        print("\npattern categories (token recall):")
        for lbl in PATTERN_LABELS:
            r = rep.label_token_recall.get(lbl)
            if r and r.total:
                print(f"  {lbl:<16}{r.recall:>8.4f}{r.total:>8}")
    if args.errors:
        if args.split != "train" and args.folder is None:
            print("--errors is refused on non-train splits", file=sys.stderr)
        else:
            _errors(docs, pred, args.errors, args.label)
    t = rep.token
    print(f"token_p={t.precision:.4f} token_r={t.recall:.4f} token_f1={t.f1:.4f}")
    return 0


def _errors(docs, pred, n: int, label: str) -> None:
    rnd = random.Random(0)
    misses, fps = [], []
    for d in docs:
        ps = pred[d.name]
        for g in d.spans:
            if label and category_of(g.label) != label and g.label != label:
                continue
            if not any(p.overlaps(g) for p in ps):
                misses.append(_ctx(d.text, g))
        for p in ps:
            if label and category_of(p.label) != label and p.label != label:
                continue
            if not any(p.overlaps(g) for g in d.spans):
                fps.append(_ctx(d.text, p) + f"  <{p.source}>")
    print(f"\nmisses ({len(misses)}):")
    for m in rnd.sample(misses, min(n, len(misses))):
        print("  " + m)
    print(f"\nfalse positives ({len(fps)}):")
    for m in rnd.sample(fps, min(n, len(fps))):
        print("  " + m)


def _ctx(text: str, s) -> str:
    a = text[max(0, s.start - 30):s.start].replace("\n", " ")
    b = text[s.end:s.end + 20].replace("\n", " ")
    return f"{s.label:<10} ...{a}[[{text[s.start:s.end]}]]{b}..."


if __name__ == "__main__":
    raise SystemExit(main())
