"""Export speed: 1,000 PhysioNet notes, surrogate operator, jobs=1 and jobs=2.

Notes are read from ../shared/data/physionet-deid/train at run time and copied
to a temporary folder (repeated if fewer than --n). Two span sources:
``gold`` (the BRAT annotations as reviewed overrides; no detection, no
verification) and ``rules`` (the rules preset detects, then verifies the output).

    /work/venv/bin/python bench/export_speed.py [--n 1000] [--modes gold,rules] [--jobs 1,2]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from deid_engine.io.brat import iter_brat_folder, taxonomy_labels
from deid_engine.redact.export import ExportOptions, ExportSummary, export_folder
from deid_engine.resources import default_data_dir


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--modes", default="gold,rules")
    ap.add_argument("--jobs", default="1,2")
    args = ap.parse_args()
    src = default_data_dir() / "physionet-deid" / "train"
    if not src.is_dir():
        print(f"corpus not found: {src}", file=sys.stderr)
        return 2
    docs = list(iter_brat_folder(src, taxonomy_labels))
    tmp = Path(tempfile.mkdtemp(prefix="deid-bench-"))
    try:
        import os

        os.environ.setdefault("DEID_USER_DIR", str(tmp / "user"))
        inp = tmp / "in"
        inp.mkdir()
        overrides = {}
        for i in range(args.n):
            d = docs[i % len(docs)]
            name = d.name if i < len(docs) else f"{d.name}-r{i // len(docs)}"
            with open(inp / f"{name}.txt", "w", encoding="utf-8", newline="") as f:
                f.write(d.text)
            overrides[d.document.doc_id] = list(d.spans)
        chars = sum(len(docs[i % len(docs)].text) for i in range(args.n))
        print(f"{args.n} notes, {chars} chars, {sum(len(v) for v in overrides.values())} gold spans (distinct docs)")
        for mode in args.modes.split(","):
            for jobs in (int(j) for j in args.jobs.split(",")):
                out = tmp / f"out-{mode}-{jobs}"
                if mode == "gold":
                    opts = ExportOptions(operator="surrogate", unreviewed="skip", verify=False)
                    kw = {"overrides": overrides}
                else:
                    opts = ExportOptions(operator="surrogate", detectors="rules", verify=True)
                    kw = {}
                t0 = time.perf_counter()
                summary = None
                for item in export_folder(inp, out, opts, jobs=jobs, **kw):
                    if isinstance(item, ExportSummary):
                        summary = item
                dt = time.perf_counter() - t0
                assert summary is not None
                print(f"mode={mode:5s} jobs={jobs}: {summary.files_ok} ok / {summary.files_failed} failed / "
                      f"{summary.files_skipped} skipped; {sum(summary.counts.values())} replacements; "
                      f"{summary.residuals} residual candidates; {dt:.2f}s = {summary.files_ok / dt:.1f} files/s, "
                      f"{summary.characters / dt:,.0f} chars/s")
            outs = [tmp / f"out-{mode}-{j}" for j in args.jobs.split(",")]
            if len(outs) > 1:
                same = all(_tree(outs[0]) == _tree(o) for o in outs[1:])
                print(f"mode={mode}: outputs identical across jobs: {same}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def _tree(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*"))
            if p.is_file() and not p.name.startswith("audit.")}


if __name__ == "__main__":
    sys.exit(main())
