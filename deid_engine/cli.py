"""The ``deid`` command line.

Subcommands: ``convert`` (BRAT <-> JSONL), ``evaluate`` (gold vs predictions),
``tag`` (detect PHI in a folder). Other parts of the engine add theirs
(``train``, ``redact``) through ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Callable

from .io.brat import iter_brat_folder, taxonomy_labels, write_brat_folder
from .io.jsonl import Record, iter_jsonl, write_jsonl
from .taxonomy import LABEL_TABLES, to_native, to_taxonomy

log = logging.getLogger("deid")


def _progress(iterable, total=None, desc="", unit="doc", disable=None):
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        return iterable
    return tqdm(iterable, total=total, desc=desc, unit=unit, file=sys.stderr,
                disable=disable if disable is not None else not sys.stderr.isatty(), dynamic_ncols=True)


# --- convert ----------------------------------------------------------------

def cmd_convert(args: argparse.Namespace) -> int:
    src, dst = Path(args.input), Path(args.output)
    if src.is_dir():
        label_fn = taxonomy_labels if args.labels == "taxonomy" else (lambda x: x)
        n = write_jsonl(dst, (Record.from_annotated(d, with_text=not args.no_text)
                              for d in _progress(iter_brat_folder(src, label_fn), desc="convert")))
        print(f"wrote {n} documents to {dst}")
        return 0
    if src.suffix == ".jsonl":
        if args.labels == "taxonomy":
            label_fn = lambda x: x  # noqa: E731
        elif args.labels in LABEL_TABLES:
            label_fn = lambda x, s=args.labels: to_native(to_taxonomy(x), s)  # noqa: E731
        else:
            label_fn = lambda x: x  # noqa: E731
        n = write_brat_folder(dst, (r.to_annotated() for r in iter_jsonl(src)), label_fn)
        print(f"wrote {n} documents to {dst}")
        return 0
    print(f"deid convert: {src} is neither a BRAT folder nor a .jsonl file", file=sys.stderr)
    return 2


# --- evaluate ---------------------------------------------------------------

def _load_gold(path: Path):
    texts, gold = {}, {}
    if path.is_dir():
        for d in iter_brat_folder(path, taxonomy_labels):
            texts[d.name], gold[d.name] = d.text, list(d.spans)
    else:
        for r in iter_jsonl(path):
            if r.text is None:
                raise SystemExit(f"deid evaluate: gold record {r.id!r} has no text")
            texts[r.id] = r.text
            gold[r.id] = [s.with_label(to_taxonomy(s.label)) for s in r.spans]
    return texts, gold


def cmd_evaluate(args: argparse.Namespace) -> int:
    from .evaluate import evaluate

    texts, gold = _load_gold(Path(args.gold))
    pred = {r.id: [s.with_label(to_taxonomy(s.label)) for s in r.spans] for r in iter_jsonl(Path(args.pred))}
    unknown = set(pred) - set(texts)
    if unknown:
        print(f"warning: {len(unknown)} predicted documents are not in gold (ignored)", file=sys.stderr)
    report = evaluate(texts, gold, pred)
    print(report.format_table())
    if args.json:
        Path(args.json).write_text(json.dumps(report.as_dict(), indent=2), encoding="utf-8")
    return 0


# --- tag --------------------------------------------------------------------

def add_policy_args(p: argparse.ArgumentParser) -> None:
    """``--ages`` / ``--places`` / ``--professions``: this run's redaction policies (default: the user's settings)."""
    p.add_argument("--ages", choices=["all", "over89"], default=None,
                   help="which ages are PHI (over89: HIPAA Safe Harbor); default: the settings")
    p.add_argument("--places", choices=["all", "safe_harbor"], default=None,
                   help="which places are PHI (safe_harbor keeps US states and countries); default: the settings")
    p.add_argument("--professions", choices=["all", "safe_harbor"], default=None,
                   help="which occupations are PHI (safe_harbor keeps them: HIPAA Safe Harbor does not list "
                        "occupations); default: the settings")


def apply_policy_args(args: argparse.Namespace) -> None:
    from .config import override_for_run

    override_for_run(ages=getattr(args, "ages", None), places=getattr(args, "places", None),
                     professions=getattr(args, "professions", None))


def cmd_tag(args: argparse.Namespace) -> int:
    from .io.folder import iter_folder, list_note_files
    from .pipeline import TaggedDocument, build_pipeline, tag_documents, tag_documents_parallel
    from .types import FileProblem

    apply_policy_args(args)

    folder = Path(args.input)
    t0 = time.time()
    if args.jobs > 1:  # workers load the pipeline themselves
        build_pipeline(args.detectors, lang=args.lang)  # fail fast on an unknown preset
        load_s = 0.0
    else:
        pipeline = build_pipeline(args.detectors, lang=args.lang)
        pipeline.load()
        load_s = time.time() - t0
        from .pipeline import tune_gc_for_batch

        tune_gc_for_batch()  # one pipeline, one batch: this process ends with it
    total = len(list_note_files(folder))
    out = Path(args.out)
    problems = 0
    records = []
    chars = 0
    bar = _progress(None, total=total, desc="tag")
    items = (tag_documents_parallel(iter_folder(folder), args.detectors, args.lang, args.jobs) if args.jobs > 1
             else tag_documents(iter_folder(folder), pipeline, total=total))
    for item in items:
        if isinstance(item, TaggedDocument):
            rel = item.document.metadata.get("relpath", item.document.name)
            rid = str(Path(rel).with_suffix("")) if "#" not in item.document.name else item.document.name
            records.append(Record(rid, item.spans))
            chars += len(item.document.text)
            if hasattr(bar, "update"):
                bar.update(1)
        elif isinstance(item, FileProblem):
            print(str(item), file=sys.stderr)
            if not item.warning:
                problems += 1
                if hasattr(bar, "update"):
                    bar.update(1)
    if hasattr(bar, "close"):
        bar.close()
    write_jsonl(out, records)
    dt = time.time() - t0
    print(f"tagged {len(records)} documents ({chars} chars) in {dt:.1f}s "
          f"(load {load_s:.1f}s); {problems} files skipped; wrote {out}", file=sys.stderr)
    return 0 if not problems or args.allow_problems else 1


# --- entry point ------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="deid", description="DeID Studio: de-identify clinical notes offline.")
    p.add_argument("-v", "--verbose", action="store_true", help="log more (never PHI)")
    sub = p.add_subparsers(dest="command", required=True)

    c = sub.add_parser("convert", help="BRAT folder -> JSONL, or JSONL -> BRAT folder")
    c.add_argument("input")
    c.add_argument("output")
    c.add_argument("--labels", default="taxonomy",
                   help="taxonomy (default), native (keep as is), or a scheme to write back: "
                        + ", ".join(LABEL_TABLES))
    c.add_argument("--no-text", action="store_true", help="omit text from JSONL (prediction format)")
    c.set_defaults(func=cmd_convert)

    e = sub.add_parser("evaluate", help="score predictions against gold annotations")
    e.add_argument("--gold", required=True, help="BRAT folder or JSONL with text")
    e.add_argument("--pred", required=True, help="predictions JSONL")
    e.add_argument("--json", help="also write the report as JSON here")
    e.set_defaults(func=cmd_evaluate)

    t = sub.add_parser("tag", help="detect PHI in every note of a folder")
    t.add_argument("input", help="folder of notes")
    t.add_argument("--out", required=True, help="predictions JSONL to write")
    t.add_argument("--detectors", default="default", help="preset (rules, tagger, default) or names")
    t.add_argument("--lang", default="en", choices=["en", "es"])
    t.add_argument("--allow-problems", action="store_true", help="exit 0 even if some files were skipped")
    t.add_argument("--jobs", type=int, default=1,
                   help="worker processes (one torch thread each; 2 uses both cores of a 2-core machine)")
    add_policy_args(t)
    t.set_defaults(func=cmd_tag)

    for name, add in COMMANDS.items():
        add(sub)
    return p


# Subcommands defined in other modules: name -> function(subparsers) that adds it.
# Listed here, in one place, and imported only when the parser is built.
def _lazy(module: str, attr: str = "add_parser") -> Callable[[argparse._SubParsersAction], None]:
    def add(sub: argparse._SubParsersAction) -> None:
        import importlib

        getattr(importlib.import_module(module, __package__), attr)(sub)

    return add


COMMANDS: dict[str, Callable[[argparse._SubParsersAction], None]] = {
    "train": _lazy(".model.cli"),
    "export-reviews": _lazy(".learn.cli", "add_export_parser"),
    "models": _lazy(".learn.cli", "add_models_parser"),
    "redact": _lazy(".redact.cli"),
}


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (FileNotFoundError, KeyError, ValueError) as e:
        print(f"deid {args.command}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
