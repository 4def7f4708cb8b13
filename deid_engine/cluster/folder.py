"""Folder-tree input: partitions of files, each exported with the export's ``export_file``.

A partition is a run of consecutive files (sorted relative paths) of at most
``files_per_partition`` files and ``bytes_per_partition`` bytes. Its input
fingerprint hashes (path, size, mtime) of its files. The task calls
``export_file`` for every file -- the same function ``deid redact`` and the
desktop export use -- so the output is byte-identical to theirs. With reviewer
decisions (``TaskContext.review``) it first computes the final spans of the
touched documents of its files (``cluster.review.folder_overrides``, as
``deid redact`` does for the whole folder) and passes them as overrides.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from ..redact.export import export_file, list_export_files, output_relpath
from .manifest import RunState, fingerprint_of
from .plugin import LOADS, describe_pipeline, versions
from .task import TaskContext

DEFAULT_FILES_PER_PARTITION = 100
DEFAULT_BYTES_PER_PARTITION = 64 << 20


def plan_folder(in_dir: Path, out_dir: Path | None, overwrite: bool, files_per_partition: int = DEFAULT_FILES_PER_PARTITION,
                bytes_per_partition: int = DEFAULT_BYTES_PER_PARTITION) -> dict:
    """Partitions of the export's files under ``in_dir``; targets that already exist are noted.

    ``out_dir=None`` skips that check (re-planning only to compare input fingerprints).
    """
    files, ignored = list_export_files(in_dir)
    parts: list[dict] = []
    cur: list[tuple[str, int, int]] = []
    size = 0

    def flush() -> None:
        nonlocal cur, size
        if cur:
            parts.append({"id": len(parts), "files": [f for f, _, _ in cur], "documents": len(cur),
                          "fingerprint": fingerprint_of(cur)})
        cur, size = [], 0

    preexisting = []
    for p in files:
        st = p.stat()
        rel = p.relative_to(in_dir).as_posix()
        if out_dir is not None and not overwrite and (out_dir / output_relpath(rel)).exists():
            preexisting.append(rel)  # export_file reports these as skipped, as a plain export does
        if cur and (len(cur) >= files_per_partition or size + st.st_size > bytes_per_partition):
            flush()
        cur.append((rel, st.st_size, st.st_mtime_ns))
        size += st.st_size
    flush()
    return {"mode": "folder", "partitions": parts, "ignored_files": ignored, "preexisting": preexisting,
            "total_documents": len(files),
            "input_fingerprint": fingerprint_of([[p["id"], p["fingerprint"]] for p in parts])}


def run_folder_partition(part: dict, tctx: TaskContext, preexisting: tuple[str, ...] = ()) -> dict:
    """Export the files of one partition; write its part record; return it (no PHI, no key)."""
    t0, c0, p0 = time.perf_counter(), time.thread_time(), time.process_time()
    in_dir, out_dir = Path(tctx.in_path), Path(tctx.out_dir)
    owned = tctx.export_context(overwrite=True)     # targets this run planned: ours to (re)write
    theirs = tctx.export_context(overwrite=tctx.options.overwrite)
    pre = set(preexisting)
    overrides: dict = {}
    review = None
    if tctx.review is not None:  # the reviewer's final spans for the touched documents of these files
        from ..redact.export import _read
        from .review import folder_overrides

        overrides, review = folder_overrides(in_dir, part["files"], lambda p: _read(p, owned.options),
                                             owned.pipeline, tctx.review)
    results, outputs = [], {}
    half = len(part["files"]) // 2
    for i, rel in enumerate(part["files"]):
        if i == half:
            tctx.maybe_crash(int(part["id"]))
        ctx = theirs if rel in pre else owned
        r = export_file(in_dir / rel, in_dir, out_dir, ctx, overrides)
        if r.status == "ok":
            outputs[r.output] = r.output_sha256
        results.append(r.report())
    rec = {
        "partition": int(part["id"]),
        "fingerprint": part["fingerprint"],
        "outputs": outputs,
        "files": results,
        "documents": sum(r["documents"] for r in results),
        "characters": sum(r["characters"] for r in results),
        "failures": [{"id": r["path"], "reason": r["reason"]} for r in results if r["status"] == "failed"],
        "review": review,
        "pipeline": describe_pipeline(owned.pipeline, tctx.preset, tctx.lang),
        "worker_pid": os.getpid(),
        "pipeline_loads_in_process": LOADS[0],
        "versions": versions(),
        "seconds": round(time.perf_counter() - t0, 3),
        "cpu_seconds_task_thread": round(time.thread_time() - c0, 3),
        "cpu_seconds_process": round(time.process_time() - p0, 3),
    }
    RunState(out_dir).write_part(rec)
    return rec


def folder_file_results(records: list[dict]) -> list[Any]:
    """The export's ``FileResult`` objects back from part records (for ``audit.build_report``)."""
    from ..redact.export import FileResult

    return [FileResult(**f) for rec in records for f in rec["files"]]
