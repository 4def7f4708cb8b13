"""Throughput of batch redaction: plain single process vs Dask local:1 vs local:2.

Builds N notes (default 5,000) from the PhysioNet deid training notes
(repeated as needed; written to a temp folder at run time, deleted after),
then redacts them with the ``default`` pipeline preset and the export's
default options (surrogates, per-patient date shift, verification pass):

- ``single``: ``export_folder`` in this process (what plain ``deid redact`` does);
- ``local:1`` / ``local:2``: ``deid_engine.cluster.run.redact_folder`` on a
  LocalCluster of 1 / 2 single-thread worker processes.

Two figures per configuration: ``warm`` (pipeline loaded / cluster up and
plugin loaded before the clock starts: the steady-state rate that decides an
archive-scale run) and ``end_to_end`` (including pipeline load, and for the
cluster its start-up). The last line gives the warm rates::

    docs_per_s_single=A docs_per_s_1w=B docs_per_s_2w=C speedup_2w=D

Usage: python bench/scale.py [--notes 5000] [--partition-size 50] [--data DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def loadavg() -> str:
    try:
        return "/".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def build_notes(src: Path, n: int, dest: Path) -> tuple[int, int]:
    notes = sorted(src.glob("*.txt"))
    if not notes:
        raise SystemExit(f"no notes in {src}")
    chars = 0
    texts = [(p.stem, p.read_text(encoding="utf-8")) for p in notes]
    for i in range(n):
        stem, text = texts[i % len(texts)]
        rep = i // len(texts)
        sub = dest / f"batch{i // 1000:02d}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"{stem}-r{rep}.txt").write_text(text, encoding="utf-8")
        chars += len(text)
    return n, chars


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--notes", type=int, default=5000)
    ap.add_argument("--partition-size", type=int, default=50, help="files per partition")
    ap.add_argument("--preset", default="default")
    ap.add_argument("--data", default=None, help="data dir (default: DEID_DATA_DIR or ../shared/data)")
    ap.add_argument("--single-threads", type=int, default=1,
                    help="torch threads of the single process (1 = like a worker; 0 = torch's default)")
    args = ap.parse_args()
    if args.single_threads > 0:
        os.environ["OMP_NUM_THREADS"] = str(args.single_threads)

    from deid_engine.cluster.manifest import RunState
    from deid_engine.cluster.plugin import PipelinePlugin
    from deid_engine.cluster.run import _ensure_plugin, connect, redact_folder
    from deid_engine.pipeline import build_pipeline
    from deid_engine.redact.export import ExportOptions, ExportSummary, export_folder
    from deid_engine.resources import default_data_dir

    data = Path(args.data) if args.data else default_data_dir()
    src = data / "physionet-deid" / "train"
    key = bytes(range(32))  # a fixed benchmark key (nothing secret here)
    options = ExportOptions(detectors=args.preset)
    tmp = Path(tempfile.mkdtemp(prefix="deid-scale-"))
    try:
        in_dir = tmp / "in"
        docs, chars = build_notes(src, args.notes, in_dir)
        print(f"notes={docs} chars={chars} source={src.name} (PhysioNet deid train, repeated); "
              f"preset={args.preset} detectors={','.join(build_pipeline(args.preset).detector_names)}; "
              f"partition_size={args.partition_size} files; cpus={os.cpu_count()}; load_before={loadavg()}")
        warm: dict[str, float] = {}
        e2e: dict[str, float] = {}

        # single process: what plain `deid redact` runs
        t0 = time.perf_counter()
        pipe = build_pipeline(args.preset).load()
        if "torch" in sys.modules:
            import torch

            if args.single_threads > 0:
                torch.set_num_threads(args.single_threads)
            print(f"single process: torch threads {torch.get_num_threads()}")
        load_s = time.perf_counter() - t0
        t1, c1 = time.perf_counter(), time.process_time()
        summary = None
        for item in export_folder(in_dir, tmp / "single", options, pipeline=pipe, key=key):
            if isinstance(item, ExportSummary):
                summary = item
        warm["single"] = time.perf_counter() - t1
        cpu_single = time.process_time() - c1
        e2e["single"] = load_s + warm["single"]
        assert summary is not None and summary.files_ok == docs, summary
        print(f"single: warm {warm['single']:.1f}s ({docs / warm['single']:.1f} docs/s, "
              f"{chars / warm['single']:.0f} chars/s); pipeline load {load_s:.1f}s; "
              f"end_to_end {docs / e2e['single']:.1f} docs/s; cpu {1000 * cpu_single / docs:.2f} ms/doc; "
              f"load={loadavg()}")
        del pipe

        for n in (1, 2):
            name = f"local:{n}"
            t0 = time.perf_counter()
            with connect(name) as client:
                _ensure_plugin(client, PipelinePlugin(args.preset, options.lang))
                up = time.perf_counter() - t0
                t1, c1 = time.perf_counter(), time.process_time()
                res = redact_folder(in_dir, tmp / f"w{n}", options, key=key, cluster=client,
                                    files_per_partition=args.partition_size, progress=False)
                warm[name] = time.perf_counter() - t1
                client_cpu = time.process_time() - c1
            e2e[name] = up + warm[name]
            state = RunState(tmp / f"w{n}")
            recs = state.records(state.load_plan()["partitions"])
            worker_cpu = sum(r["cpu_seconds_process"] for r in recs)
            assert res.complete and res.documents == docs, res
            print(f"{name}: warm {warm[name]:.1f}s ({docs / warm[name]:.1f} docs/s, {chars / warm[name]:.0f} chars/s); "
                  f"cluster start + pipeline load {up:.1f}s; end_to_end {docs / e2e[name]:.1f} docs/s; "
                  f"partitions {res.partitions}; cpu: workers {1000 * worker_cpu / docs:.2f} ms/doc + client/scheduler "
                  f"{1000 * client_cpu / docs:.2f} ms/doc; load={loadavg()}")
        same = all(
            (tmp / "single" / p.relative_to(in_dir)).read_bytes() == (tmp / "w2" / p.relative_to(in_dir)).read_bytes()
            for p in list(in_dir.rglob("*.txt"))[:500])
        print(f"outputs identical (first 500 files, single vs local:2): {same}")
        rate = {k: docs / v for k, v in warm.items()}
        rate_e = {k: docs / v for k, v in e2e.items()}
        print(f"end_to_end: docs_per_s_single={rate_e['single']:.1f} docs_per_s_1w={rate_e['local:1']:.1f} "
              f"docs_per_s_2w={rate_e['local:2']:.1f} speedup_2w={rate_e['local:2'] / rate_e['single']:.2f}")
        print(f"docs_per_s_single={rate['single']:.1f} docs_per_s_1w={rate['local:1']:.1f} "
              f"docs_per_s_2w={rate['local:2']:.1f} speedup_2w={rate['local:2'] / rate['single']:.2f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
