"""Throughput of a detector preset over real notes.

    python bench/speed.py [--detectors default] [--jobs 0] [--lang en] [--data DIR] [--limit N]

Runs ``build_pipeline(PRESET, lang)`` (default: the full pipeline, tagger + rules; any
preset or comma-separated detector names) over the notes of ``--data`` (default:
physionet-deid train; ``.txt`` files) through ``tag_documents`` (batched, as the app and
``deid tag`` do), and prints load time, characters/s, tokens/s and peak memory. By default
one worker process per CPU core tags interleaved shards at once (``deid tag --jobs N`` does
the same); ``--jobs 1`` measures a single process. The last line is exactly
``chars_per_s=N load_s=X peak_mb=N``.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

from deid_engine.pipeline import TaggedDocument, build_pipeline, tag_documents, tune_gc_for_batch
from deid_engine.resources import default_data_dir
from deid_engine.tokenize import tokenize
from deid_engine.types import Document


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--detectors", default="default")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--data", type=Path, default=None)
    ap.add_argument("--limit", type=int, default=0, help="at most N notes (0: all)")
    ap.add_argument("--repeat", type=int, default=1, help="passes over the notes")
    ap.add_argument("--jobs", type=int, default=0,
                    help="worker processes, one torch thread each (default 0: one per CPU core; 1: a single process)")
    ap.add_argument("--model", type=Path, default=None,
                    help="tagger model folder (default: the active/bundled model for --lang)")
    args = ap.parse_args(argv)
    folder = args.data or (default_data_dir() / ("meddocan/train" if args.lang == "es" else "physionet-deid/train"))
    files = sorted(Path(folder).rglob("*.txt"))
    if args.limit:
        files = files[: args.limit]
    if not files:
        print(f"no .txt notes under {folder}", file=sys.stderr)
        return 2
    docs = [Document(f.read_text(encoding="utf-8", errors="replace"), name=f.stem) for f in files]
    chars = sum(len(d.text) for d in docs)
    tokens = sum(len(tokenize(d.text)) for d in docs)

    if args.jobs <= 0:
        args.jobs = _cores()
    print(f"cores={_cores()} jobs={args.jobs}")
    if args.jobs > 1:
        return _parallel(args, docs, chars, tokens)
    t0 = time.perf_counter()
    pipe = _pipeline(args)
    load_s = time.perf_counter() - t0
    if docs:  # warm-up on one note (lazy caches), not timed
        pipe.run(docs[0])
    t1 = time.perf_counter()
    c1 = time.process_time()
    spans = 0
    for _ in range(args.repeat):  # the path the app and ``deid tag`` take: batched tagging
        for item in tag_documents(docs, pipe, total=len(docs)):
            if isinstance(item, TaggedDocument):
                spans += len(item.spans)
    run_s = max(time.perf_counter() - t1, 1e-9)
    cpu_s = max(time.process_time() - c1, 1e-9)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    peak_mb = peak_kb / 1024 if sys.platform != "darwin" else peak_kb / 1024 / 1024
    cps = chars * args.repeat / run_s
    print(f"preset={args.detectors} lang={args.lang} notes={len(docs)} chars={chars} tokens={tokens} "
          f"spans={spans // args.repeat}")
    print(f"load_s={load_s:.2f} run_s={run_s:.2f} tokens_per_s={tokens * args.repeat / run_s:.0f} "
          f"docs_per_s={len(docs) * args.repeat / run_s:.1f}")
    # CPU time is the fairer figure on a shared machine (wall time includes waiting for a core)
    print(f"cpu_s={cpu_s:.2f} cpu_chars_per_s={chars * args.repeat / cpu_s:.0f}")
    print(f"chars_per_s={cps:.0f} load_s={load_s:.2f} peak_mb={peak_mb:.0f}")
    return 0


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def _pipeline(args):
    pipe = build_pipeline(args.detectors, lang=args.lang)
    if args.model is not None:
        for det in pipe.detectors:
            if hasattr(det, "path"):
                det.path = args.model
    pipe.load()
    tune_gc_for_batch()  # as deid tag / redact workers and Dask workers do
    return pipe


def _shard(args, texts: list[str], barrier) -> tuple[float, float, float, int]:
    """One worker: load, warm up, wait for the others, then tag its shard."""
    t0 = time.perf_counter()  # load time includes importing the tagger's runtime (and torch where it is used)
    pipe = _pipeline(args)
    load_s = time.perf_counter() - t0
    docs = [Document(t) for t in texts]
    if docs:
        pipe.run(docs[0])
    barrier.wait()
    t1, c1 = time.perf_counter(), time.process_time()
    for _ in range(args.repeat):
        for item in tag_documents(docs, pipe, total=len(docs)):
            pass
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return load_s, time.perf_counter() - t1, time.process_time() - c1, peak_kb


def _parallel(args, docs: list[Document], chars: int, tokens: int) -> int:
    """``--jobs N``: N processes tag interleaved shards at the same time; wall
    time is the slowest shard's, so the figure is the whole machine's rate."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    ctx = mp.get_context("spawn")
    barrier = ctx.Manager().Barrier(args.jobs)
    shards = [[d.text for d in docs[i:: args.jobs]] for i in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs, mp_context=ctx) as pool:
        res = list(pool.map(_shard, [args] * args.jobs, shards, [barrier] * args.jobs))
    load_s = max(r[0] for r in res)
    run_s = max(max(r[1] for r in res), 1e-9)
    cpu_s = sum(r[2] for r in res)
    peak_mb = max(r[3] for r in res) / 1024
    cps = chars * args.repeat / run_s
    print(f"preset={args.detectors} lang={args.lang} notes={len(docs)} chars={chars} tokens={tokens} jobs={args.jobs}")
    print(f"load_s={load_s:.2f} run_s={run_s:.2f} tokens_per_s={tokens * args.repeat / run_s:.0f} "
          f"docs_per_s={len(docs) * args.repeat / run_s:.1f}")
    print(f"cpu_s={cpu_s:.2f} cpu_chars_per_s={chars * args.repeat / cpu_s:.0f} (per process)")
    print(f"chars_per_s={cps:.0f} load_s={load_s:.2f} peak_mb={peak_mb:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
