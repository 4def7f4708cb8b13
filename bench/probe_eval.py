"""Score the app's pipeline on the hand-written English probe set (docs/probe.md).

    python bench/probe_eval.py [--split tune|check|both] [--detectors default|rules|tagger]
                               [--ages all|over89] [--places all|safe_harbor]
                               [--professions all|safe_harbor] [--errors N]

The probe set (tests/fixtures/english_probe/{tune,check}.txt) is invented text
of kinds we have no annotated corpus for: outpatient notes, lower-case visit
transcripts, clinician queries, discharge summaries, letters, messages (plus a
few nursing notes). PHI is marked inline as ``[[text|LABEL]]``; a text starts
with a line ``=== <id> <kind>``.

The pipeline is built with ``build_pipeline(preset, lang="en")`` as the app
does; ``--ages`` fixes the age policy (default ``all``, the app's default
setting) instead of reading the user's settings. With ``over89`` gold ages of
89 and under are dropped too (the policy says they are not PHI). ``--places`` and
``--professions`` likewise: ``safe_harbor`` drops gold STATE/COUNTRY spans, and
gold PROFESSION spans, respectively.

``--errors N`` prints N misses and N false positives with context; it is
refused on any split that includes ``check`` (exit 2): check is for reporting
only, nobody tunes on it. The last line is ``token_p=.. token_r=.. token_f1=..``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

from deid_engine.detect.policy import allowed_by_safe_harbor
from deid_engine.evaluate import evaluate
# the reader lives in the engine (deid train --inline reads the same files); re-exported here
from deid_engine.io.inline import INLINE_LABELS as PROBE_LABELS  # noqa: F401
from deid_engine.io.inline import KINDS
from deid_engine.io.inline import InlineFormatError as ProbeFormatError  # noqa: F401
from deid_engine.io.inline import parse_inline_file as parse_probe
from deid_engine.io.inline import parse_inline_text as parse_text  # noqa: F401
from deid_engine.pipeline import build_pipeline
from deid_engine.taxonomy import category_of, is_label
from deid_engine.types import Document, Span

PROBE_DIR = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "english_probe"
# Splits kept for reporting: their errors are never printed (nobody tunes on them).
REPORT_ONLY = {"check", "tune7", "tune10", "tune16", "tune18", "tune20", "tune30", "tune33", "tune34", "tune35", "tune37", "tune42", "tune44", "tune45", "tune50", "tune55", "tune59"}
SPLITS = {"tune": ("tune",), "tune2": ("tune2",), "tune3": ("tune3",), "tune4": ("tune4",), "tune5": ("tune5",), "tune6": ("tune6",), "tune7": ("tune7",), "tune8": ("tune8",), "tune9": ("tune9",), "tune10": ("tune10",), "tune11": ("tune11",), "tune12": ("tune12",), "tune13": ("tune13",), "tune14": ("tune14",), "tune15": ("tune15",), "tune16": ("tune16",), "tune17": ("tune17",), "tune18": ("tune18",), "tune19": ("tune19",), "tune20": ("tune20",), "tune21": ("tune21",), "tune22": ("tune22",), "tune23": ("tune23",), "tune24": ("tune24",), "tune25": ("tune25",), "tune26": ("tune26",), "tune27": ("tune27",), "tune28": ("tune28",), "tune29": ("tune29",), "tune30": ("tune30",), "tune31": ("tune31",), "tune32": ("tune32",), "tune33": ("tune33",), "tune34": ("tune34",), "tune35": ("tune35",), "tune36": ("tune36",), "tune37": ("tune37",), "tune38": ("tune38",), "tune39": ("tune39",), "tune40": ("tune40",), "tune41": ("tune41",), "tune42": ("tune42",), "tune43": ("tune43",), "tune44": ("tune44",), "tune45": ("tune45",), "tune46": ("tune46",), "tune47": ("tune47",), "tune48": ("tune48",), "tune49": ("tune49",), "tune50": ("tune50",), "tune51": ("tune51",), "tune52": ("tune52",), "tune53": ("tune53",), "tune54": ("tune54",), "tune55": ("tune55",), "tune56": ("tune56",), "tune57": ("tune57",), "tune58": ("tune58",), "tune59": ("tune59",), "check": ("check",), "both": ("tune", "check")}
def load(split: str, files: list[Path] | None = None) -> list[tuple[str, str, str, list[Span]]]:
    paths = files or [PROBE_DIR / f"{s}.txt" for s in SPLITS[split]]
    out = []
    for p in paths:
        for doc_id, kind, text, spans in parse_probe(p):
            out.append((f"{p.stem}:{doc_id}" if len(paths) > 1 else doc_id, kind, text, spans))
    return out


def _is_age(label: str) -> bool:
    return (category_of(label) if is_label(label) else label) == "AGE"


def _is_profession(label: str) -> bool:
    return (category_of(label) if is_label(label) else label) == "PROFESSION"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=tuple(SPLITS), default="tune")
    ap.add_argument("--detectors", default="default", help="preset (default, rules, tagger) or detector names")
    ap.add_argument("--ages", choices=("all", "over89"), default="all")
    ap.add_argument("--places", choices=("all", "safe_harbor"), default="all",
                    help="place policy; safe_harbor also drops gold STATE/COUNTRY spans")
    ap.add_argument("--professions", choices=("all", "safe_harbor"), default="all",
                    help="profession policy; safe_harbor also drops gold PROFESSION spans")
    ap.add_argument("--errors", type=int, default=0, help="print N misses and N false positives (tune only)")
    ap.add_argument("--kind", default="", help="score only texts of this kind")
    ap.add_argument("--limit", type=int, default=0, help="score only the first N texts")
    ap.add_argument("--file", type=Path, action="append", default=None,
                    help="score this probe-format file instead of the split (repeatable)")
    ap.add_argument("--model", type=Path, default=None,
                    help="tagger model folder (default: the active/bundled English model)")
    ap.add_argument("--recall-threshold", type=float, default=None,
                    help="tagger recall threshold (default: the model card's; 0 = Viterbi only)")
    ap.add_argument("--stats", action="store_true", help="print text/word/span counts per kind and label, no scoring")
    args = ap.parse_args(argv)
    if args.stats:
        return _stats(args.split, args.file)
    if args.errors and args.file is None and set(SPLITS[args.split]) & REPORT_ONLY:
        print(f"error: --errors is refused on {args.split} (report only; nobody tunes on it)",
              file=sys.stderr)
        return 2

    items = load(args.split, args.file)
    if args.kind:
        items = [it for it in items if it[1] == args.kind]
    if args.limit:
        items = items[: args.limit]
    if args.ages == "over89":
        items = [(i, k, t, [s for s in sp if not (_is_age(s.label) and allowed_by_safe_harbor(t[s.start:s.end]))])
                 for i, k, t, sp in items]

    if args.places == "safe_harbor":
        items = [(i, k, t, [s for s in sp if s.label not in ("STATE", "COUNTRY")]) for i, k, t, sp in items]
    if args.professions == "safe_harbor":
        items = [(i, k, t, [s for s in sp if not _is_profession(s.label)]) for i, k, t, sp in items]

    pipe = build_pipeline(args.detectors, lang="en")
    for f in pipe.filters:
        if f.name == "age_policy":
            f.policy = args.ages
        if f.name == "place_policy":
            f.policy = args.places
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
    texts, gold, pred, kinds = {}, {}, {}, {}
    for doc_id, kind, text, spans in items:
        texts[doc_id], gold[doc_id], kinds[doc_id] = text, spans, kind
        pred[doc_id] = pipe.run(Document(text, name=doc_id))
    dt = time.perf_counter() - t0
    rep = evaluate(texts, gold, pred)
    src = ",".join(str(p) for p in args.file) if args.file else args.split
    print(f"probe={src} detectors={args.detectors} lang=en ages={args.ages} places={args.places} "
          f"professions={args.professions} texts={len(items)} "
          f"gold_spans={sum(len(v) for v in gold.values())} seconds={dt:.2f}")
    print(rep.format_table())

    print(f"\n{'by kind':<14}{'texts':>6}{'tokens':>8}{'R':>8}{'P':>8}{'F1':>8}{'F2':>8}")
    by_kind: dict[str, list[str]] = defaultdict(list)
    for doc_id, kind in kinds.items():
        by_kind[kind].append(doc_id)
    for kind in [k for k in KINDS if k in by_kind]:
        ids = by_kind[kind]
        r = evaluate({i: texts[i] for i in ids}, gold, pred).token
        print(f"  {kind:<12}{len(ids):>6}{r.tp + r.fn:>8}{r.recall:>8.4f}{r.precision:>8.4f}{r.f1:>8.4f}{r.f2:>8.4f}")

    if args.errors:
        _errors(items, pred, args.errors)
    t = rep.token
    print(f"token_p={t.precision:.4f} token_r={t.recall:.4f} token_f1={t.f1:.4f}")
    return 0


def _stats(split: str, files: list[Path] | None) -> int:
    """Counts per kind (texts, words, spans) and per label, for each file of the split."""
    paths = files or [PROBE_DIR / f"{s}.txt" for s in SPLITS[split]]
    for p in paths:
        items = parse_probe(p)
        print(f"{p.name}: {len(items)} texts, {sum(len(t.split()) for _, _, t, _ in items)} words, "
              f"{sum(len(sp) for *_, sp in items)} spans")
        print(f"  {'kind':<12}{'texts':>6}{'words':>7}{'spans':>7}{'lower':>7}")
        for kind in KINDS:
            its = [it for it in items if it[1] == kind]
            lower = sum(1 for _, _, t, _ in its if t == t.lower())
            print(f"  {kind:<12}{len(its):>6}{sum(len(t.split()) for _, _, t, _ in its):>7}"
                  f"{sum(len(sp) for *_, sp in its):>7}{lower:>7}")
        labels: dict[str, int] = defaultdict(int)
        for *_, sp in items:
            for s in sp:
                labels[s.label] += 1
        print("  labels: " + ", ".join(f"{k} {v}" for k, v in sorted(labels.items(), key=lambda kv: -kv[1])))
    return 0


def _errors(items, pred, n: int) -> None:
    rnd = random.Random(0)
    misses, fps = [], []
    for doc_id, kind, text, spans in items:
        ps = pred[doc_id]
        for g in spans:
            if not any(p.overlaps(g) for p in ps):
                misses.append(f"{doc_id:<6}{kind:<11}" + _ctx(text, g))
        for p in ps:
            if not any(p.overlaps(g) for g in spans):
                fps.append(f"{doc_id:<6}{kind:<11}" + _ctx(text, p) + f"  <{p.source}>")
    print(f"\nmisses ({len(misses)}):")
    for m in rnd.sample(misses, min(n, len(misses))):
        print("  " + m)
    print(f"\nfalse positives ({len(fps)}):")
    for m in rnd.sample(fps, min(n, len(fps))):
        print("  " + m)


def _ctx(text: str, s: Span) -> str:
    a = text[max(0, s.start - 30):s.start].replace("\n", " ")
    b = text[s.end:s.end + 20].replace("\n", " ")
    return f"{s.label:<14} ...{a}[[{text[s.start:s.end]}]]{b}..."


if __name__ == "__main__":
    raise SystemExit(main())
