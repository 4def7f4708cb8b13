"""CLI of the learning loop: ``deid export-reviews``, ``deid models``, ``deid train --from-reviews``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_export_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export-reviews", help="export review decisions as gold annotations (BRAT or JSONL)")
    p.add_argument("out", help="output folder (brat) or .jsonl file (jsonl)")
    p.add_argument("--format", choices=["brat", "jsonl"], default="jsonl")
    p.add_argument("--folder", action="append", default=None,
                   help="reviewed folder of notes (repeatable; default: every folder the app opened)")
    p.set_defaults(func=cmd_export_reviews)


def cmd_export_reviews(args: argparse.Namespace) -> int:
    from .examples import examples_from_reviews, export_examples, from_folders

    docs = from_folders([Path(f) for f in args.folder] if args.folder else None)
    exs = examples_from_reviews(docs)
    n = export_examples(exs, Path(args.out), args.format)
    print(f"{len(docs)} reviewed document(s) -> {n} example(s), "
          f"{sum(len(e.spans) for e in exs)} gold span(s), "
          f"{sum(len(e.rejected) for e in exs)} rejected span(s) taught as O -> {args.out}", file=sys.stderr)
    return 0


def add_models_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("models", help="list, activate or roll back retrained tagger models")
    p.add_argument("action", choices=["list", "activate", "rollback", "active"])
    p.add_argument("id", nargs="?", default="", help="version id for activate ('bundled' for the shipped model)")
    p.add_argument("--lang", default="en", choices=["en", "es"])
    p.set_defaults(func=cmd_models)


def cmd_models(args: argparse.Namespace) -> int:
    from . import registry

    if args.action == "list":
        act = registry.active_id(args.lang)
        print(f"{'*' if not act else ' '} bundled")
        for v in registry.list_versions(args.lang):
            cmp = (v.metrics.get("comparison") or {}).get("new") or {}
            f1 = cmp.get("strict", {}).get("f1")
            print(f"{'*' if v.id == act else ' '} {v.id}  parent={v.parent or 'bundled'}"
                  + (f"  heldout_strict_f1={f1:.4f}" if f1 is not None else ""))
    elif args.action == "activate":
        vid = "" if args.id in ("", "bundled") else args.id
        registry.activate(args.lang, vid)
        print(f"active: {vid or 'bundled'}")
    elif args.action == "rollback":
        print(f"active: {registry.rollback(args.lang) or 'bundled'}")
    else:
        print(json.dumps(registry.describe_active(args.lang)))
    return 0


def add_from_reviews_args(p: argparse.ArgumentParser) -> None:
    """Options ``deid train`` gains for ``--from-reviews``."""
    g = p.add_argument_group("retraining from review decisions")
    g.add_argument("--from-reviews", action="store_true",
                   help="fine-tune the active model on reviewed documents (with replay), save it as a new "
                        "version and compare it with the active one on held-back reviewed documents")
    g.add_argument("--folder", action="append", default=None,
                   help="reviewed folder (repeatable; default: every folder the app opened)")
    g.add_argument("--dump", default=None, help="also export the examples: brat:FOLDER or jsonl:FILE")
    g.add_argument("--base", default="active", help="'active' (default), 'none' (from scratch) or a model folder")
    g.add_argument("--max-seconds", type=float, default=270.0, help="training time budget")
    g.add_argument("--activate", action="store_true", help="adopt the new model if it is not worse on held-back")


def cmd_train_from_reviews(args: argparse.Namespace) -> int:
    from . import registry
    from .compare import format_comparison
    from .examples import examples_from_reviews, export_examples, from_folders
    from .retrain import RetrainConfig, retrain_from_reviews

    docs = from_folders([Path(f) for f in args.folder] if args.folder else None)
    if args.dump:
        fmt, _, out = args.dump.partition(":")
        if fmt not in ("brat", "jsonl") or not out:
            raise ValueError("--dump takes brat:FOLDER or jsonl:FILE")
        n = export_examples(examples_from_reviews(docs), Path(out), fmt)
        print(f"wrote {n} example(s) to {out}", file=sys.stderr)
    cfg = RetrainConfig(lang=args.lang, seed=args.seed, threads=args.threads, max_seconds=args.max_seconds)
    base = {"active": "active", "none": None}.get(args.base, args.base)
    gen = retrain_from_reviews(docs, args.lang, cfg, base_dir=base)
    last = 0.0
    import time

    while True:
        try:
            item = next(gen)
        except StopIteration as stop:
            res = stop.value
            break
        if isinstance(item, dict):
            ev = item.get("event")
            if ev != "done" and (ev != "epoch" or item.get("epoch", 0) % 5 == 1):
                print(json.dumps(item), file=sys.stderr)
            continue
        now = time.time()
        if now - last > 5 or not item.total:
            last = now
            eta = item.eta_seconds() if item.total else None
            print(f"{item.message} {item.done}/{item.total or '?'}" + (f" eta {eta:.0f}s" if eta else ""),
                  file=sys.stderr)
    for n in res.notes:
        print(f"note: {n}", file=sys.stderr)
    print(format_comparison(res.comparison))
    vid = res.version.id if res.version else ""
    print(f"saved model version {vid} ({args.lang}); adopt with: deid models activate {vid} --lang {args.lang}")
    if args.activate and vid and (not res.comparison or res.comparison.get("suggest") == "adopt"):
        registry.activate(args.lang, vid)
        print(f"active: {vid}")
    return 0
