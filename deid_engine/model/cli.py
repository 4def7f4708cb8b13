"""``deid train``: train a tagger model from BRAT folders, with progress and ETA."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from .card import write_model_card


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help="train a neural PHI tagger (BiLSTM-CRF) from BRAT folders")
    p.add_argument("--data", action="append", default=[], help="BRAT folder (repeatable; required unless "
                   "--from-reviews)")
    p.add_argument("--lang", default="en", choices=["en", "es"])
    p.add_argument("--out", help="model folder to write (model.pt, model.json, MODEL_CARD.md); required unless "
                   "--from-reviews")
    p.add_argument("--dev", action="append", default=[], help="dev BRAT folder for early stopping (repeatable); "
                   "PhysioNet folders use the project's dev split when omitted")
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--no-skeleton", action="store_true", help="ablation: no text-skeleton branch")
    p.add_argument("--no-char", action="store_true", help="ablation: no character CNN")
    p.add_argument("--augment", type=int, default=1, help="surrogate-swapped copies per note with PHI")
    p.add_argument("--no-case-variants", action="store_true")
    p.add_argument("--visit-notes", default="auto",
                   help="clinical-visit-notes folder for PHI injection ('auto', or 'none')")
    p.add_argument("--visit-recipe", type=int, choices=(1, 2), default=2,
                   help="English out-of-domain augmentation: 1 silver passages + templates; 2 adds "
                        "conversational injection, speech-style variants and dialogues (model/conversational.py; default, "
                        "the shipped English model's recipe)")
    p.add_argument("--all", action="store_true", help="PhysioNet: train on the dev split too (no dev figures)")
    p.add_argument("--fixed-epochs", action="store_true", help="no early stopping: train exactly --epochs")
    p.add_argument("--r", type=float, default=0.2, help="text-skeleton factor r")
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--average-from", type=int, default=0,
                   help="average the weights of every epoch from this one on (SWA; 0: off)")
    p.add_argument("--vocab-from", help="reuse this model's vocabularies (a voting member then shares its encoding)")
    p.add_argument("--lexicon-features", action="store_true",
                   help="gazetteer input features from the bundled lexicons (first names, surnames, places, "
                        "medical words, eponyms, everyday words)")
    p.add_argument("--lexicon-dropout", type=float, default=0.3,
                   help="probability of hiding a token's lexicon features during training")
    p.add_argument("--o-keep", type=float, default=0.25, help="fraction of PHI-free windows used per epoch")
    p.add_argument("--threads", type=int, default=0, help="torch threads (0: auto, 2 or 1 on a busy machine)")
    p.add_argument("--inline", action="append", default=[],
                   help="inline-marked training texts ([[text|LABEL]], the probe format): a file or a folder of "
                        "*.txt (repeatable); labels are mapped onto the corpus's tag set, those it lacks (AGE, "
                        "PROFESSION for PhysioNet) are left unconstrained")
    p.add_argument("--extra-labels", default="",
                   help="comma-separated labels that inline data marks and the corpora do not (e.g. AGE,PROFESSION): "
                        "they join the tag set; in corpus notes the rule detectors' spans of them are left free")
    p.add_argument("--inline-exclude", default="",
                   help="comma-separated file stems to leave out of --inline folders (e.g. held-out splits)")
    from ..learn.cli import add_from_reviews_args

    add_from_reviews_args(p)
    p.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    from .train import TrainConfig, train

    if getattr(args, "from_reviews", False):
        from ..learn.cli import cmd_train_from_reviews

        return cmd_train_from_reviews(args)
    if not args.data or not args.out:
        raise ValueError("--data and --out are required (or use --from-reviews)")

    cfg = TrainConfig(
        data=args.data, lang=args.lang, out=args.out, dev=args.dev, epochs=args.epochs, seed=args.seed,
        skeleton=not args.no_skeleton, char=not args.no_char, augment=args.augment,
        case_variants=not args.no_case_variants,
        visit_notes=None if args.visit_notes == "none" else args.visit_notes, visit_recipe=args.visit_recipe,
        all_data=args.all, fixed_epochs=args.fixed_epochs, r=args.r, hidden=args.hidden, average_from=args.average_from, vocab_from=args.vocab_from,
        o_keep=args.o_keep, threads=args.threads,
        inline=args.inline, inline_exclude=[x for x in args.inline_exclude.split(",") if x],
        extra_labels=[x.strip().upper() for x in args.extra_labels.split(",") if x.strip()],
        lexicon_features=args.lexicon_features, lexicon_dropout=args.lexicon_dropout,
        command="deid train " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if len(sys.argv) > 2 else "",
    )
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        tqdm = None
    bar = None
    gen = train(cfg)  # saves the model into --out itself
    while True:
        try:
            item = next(gen)
        except StopIteration:
            break
        if isinstance(item, dict):
            if item.get("event") == "epoch":
                d = {k: v for k, v in item.items() if k in ("epoch", "loss", "dev_token_f2", "dev_strict_f1", "seconds")}
                tok = item.get("dev_token")
                if tok:
                    d["dev_token_P/R"] = f"{tok['precision']:.4f}/{tok['recall']:.4f}"
                msg = "epoch " + json.dumps(d)
                (bar.write(msg) if bar is not None else print(msg, file=sys.stderr))
            elif item.get("event") == "done":
                if bar is not None:
                    bar.close()
                print(json.dumps({"best_epoch": item["best_epoch"], "dev": (item.get("dev") or {}).get("token")}),
                      file=sys.stderr)
            continue
        if item.total and tqdm is not None:
            if bar is None:
                bar = tqdm(total=item.total, desc="train", unit="batch", file=sys.stderr, dynamic_ncols=True,
                           mininterval=2.0)
            bar.n = item.done
            bar.set_postfix_str(item.message, refresh=False)
            bar.refresh()
        elif not item.total:
            print(item.message, file=sys.stderr)
    write_model_card(Path(args.out))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0
