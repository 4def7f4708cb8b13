"""Plan, run (in this process or on a Dask cluster), resume and report a batch redaction.

``redact_folder`` and ``redact_table`` are the entry points (``deid redact``
calls them). With ``cluster=None`` the partitions run one after another in
this process; with ``cluster="local:N"`` a ``LocalCluster`` of N single-thread
worker processes is started on the loopback interface (no dashboard); with
``cluster="tcp://HOST:PORT"`` (or ``tls://``) an existing scheduler is used.
The partition functions and their outputs are the same in every case.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator

from ..redact.export import ExportContext, ExportOptions, check_folders
from ..redact.keys import fingerprint, load_or_create_key
from .folder import (DEFAULT_BYTES_PER_PARTITION, DEFAULT_FILES_PER_PARTITION, folder_file_results, plan_folder,
                     run_folder_partition)
from .manifest import PlanMismatch, RunState, atomic_write_json, fingerprint_of, sweep_stale_temps
from .review import ReviewData, audit_facts, merge_stats, publish, withdraw
from .plugin import client_policies
from .table import DEFAULT_ROWS_PER_PARTITION, MANIFEST, plan_table, run_table_partition, table_manifest
from .task import TaskContext

log = logging.getLogger(__name__)

DEFAULT_RETRIES = 3

# Dask settings for the LocalCluster we start (nannies pass them to the worker processes).
WORKER_CONFIG = {
    # loopback-only HTTP servers Dask always starts: serve nothing
    "distributed.scheduler.http.routes": [],
    "distributed.worker.http.routes": [],
    # the statistical profiler samples the task thread every 10 ms: ~10-20 % of a pure-Python task
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "200ms",
    # Dask sets MALLOC_TRIM_THRESHOLD_=65536 in workers, which also turns off glibc's dynamic mmap
    # threshold: every large numpy/torch temporary is mmap'ed and unmapped again (~25 % more CPU
    # per note with the tagger). Keep glibc's defaults (None unsets it).
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
}


@dataclass
class RunResult:
    """What a run did (no PHI)."""

    out_dir: Path
    report_path: Path
    html_path: Path
    manifest_path: Path | None
    partitions: int
    partitions_run: list[int]
    partitions_skipped: list[int]
    partitions_failed: list[dict]
    documents: int
    characters: int
    records_failed: list[dict]
    seconds: float
    complete: bool
    workers: int
    counts: dict[str, int] = field(default_factory=dict)
    review: dict[str, Any] = field(default_factory=dict)  # the audit's review block (counts only)
    review_stats: dict[str, int] = field(default_factory=dict)  # merged part-record review counts
    records_skipped: int = 0  # table rows left out by --unreviewed skip


# --- connecting ----------------------------------------------------------------------------

def parse_cluster(spec: str) -> tuple[str, Any]:
    """``local:N`` -> ("local", N); ``tcp://host:port`` / ``tls://...`` -> ("address", spec)."""
    s = spec.strip()
    if s.startswith("local:"):
        try:
            n = int(s.split(":", 1)[1])
        except ValueError:
            raise ValueError(f"--cluster local:N needs a number of workers, got {spec!r}") from None
        if n < 1:
            raise ValueError("--cluster local:N needs N >= 1")
        return "local", n
    if s.startswith(("tcp://", "tls://")):
        return "address", s
    raise ValueError(f"--cluster must be local:N or tcp://HOST:PORT, got {spec!r}")


def _allow_cluster_network(kind: str, target: Any) -> None:
    """If the offline guard is on in this process, let through what the cluster needs (loopback only for local)."""
    try:
        from .. import netguard
    except Exception:
        return
    if not getattr(netguard, "is_blocked", lambda: False)():
        return
    if kind == "local":
        netguard.block_network(allow_loopback=True)
    else:
        log.warning("network enabled for the Dask scheduler given with --cluster (explicit user choice)")
        netguard.unblock_network()


@contextmanager
def connect(cluster: Any) -> Iterator[Any]:
    """A ``distributed.Client`` for ``cluster`` (a spec string or a Client), or None for in-process runs."""
    if cluster is None or cluster == "":
        yield None
        return
    if not isinstance(cluster, str):  # an existing Client
        yield cluster
        return
    kind, target = parse_cluster(cluster)
    _allow_cluster_network(kind, target)
    import dask
    from distributed import Client, LocalCluster

    if not log.isEnabledFor(logging.INFO):  # Dask's INFO chatter only with deid -v
        logging.getLogger("distributed").setLevel(logging.WARNING)
    if kind == "local":
        # loopback only; no dashboard; the HTTP servers Dask always starts serve no routes
        with dask.config.set(WORKER_CONFIG):
            lc = LocalCluster(n_workers=target, threads_per_worker=1, processes=True, host="127.0.0.1",
                              dashboard_address=None, worker_dashboard_address=None, silence_logs=logging.WARNING,
                              # the scheduler's (route-less) HTTP server: loopback, any free port, not 8787
                              scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"})
        client = Client(lc)
        try:
            yield client
        finally:
            client.close()
            lc.close()
    else:
        client = Client(target, timeout="30s")
        try:
            yield client
        finally:
            client.close()


def _n_workers(client: Any) -> int:
    if client is None:
        return 1
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:
        return 0


# --- the generic driver -------------------------------------------------------------------

class _Described:
    """Stands in for the pipeline in ``audit.build_report``: the workers' description."""

    def __init__(self, desc: dict | None):
        self._desc = desc

    def describe(self) -> dict | None:
        return self._desc


def _prepare(state: RunState, fresh_plan: Callable[[bool], dict], config: dict, overwrite: bool) -> dict:
    """Load a matching plan (resume) or make and save a new one."""
    cfg_fp = fingerprint_of(config)
    old = state.load_plan()
    if old is not None:
        same_cfg = old.get("config_fingerprint") == cfg_fp
        same_input = same_cfg and old.get("input_fingerprint") == fresh_plan(False)["input_fingerprint"]
        if same_cfg and same_input:
            return old
        if not overwrite:
            what = "options, key, reviewer decisions or partitioning" if not same_cfg else "input"
            raise PlanMismatch(f"the output folder holds an unfinished or finished run with another {what}; "
                               "use another output folder, or --overwrite to start again")
        state.reset()
    plan = fresh_plan(True)
    plan["config"] = config
    plan["config_fingerprint"] = cfg_fp
    state.save_plan(plan)
    return plan


def _scheduler_plugins(dask_scheduler: Any = None) -> list[str]:
    return list(getattr(dask_scheduler, "worker_plugins", {}) or {})


def _ensure_plugin(client: Any, plugin: Any) -> None:
    """Register the pipeline plugin unless the scheduler already has it (then workers hold a loaded pipeline)."""
    try:
        known = client.run_on_scheduler(_scheduler_plugins)
    except Exception:
        known = []
    if plugin.name not in known:
        client.register_plugin(plugin)


def _execute(state: RunState, plan: dict, task: Callable[..., dict], tctx: TaskContext, client: Any,
             extra: Callable[[dict], tuple], *, retries: int, max_partitions: int | None,
             progress: bool, check_hashes: bool) -> tuple[list[int], list[int], list[dict]]:
    """Run every incomplete partition; return (run, skipped, failed partitions)."""
    parts = plan["partitions"]
    pending, skipped = [], []
    for p in parts:
        (skipped if state.complete(p, check_hashes) is not None else pending).append(p)
    if max_partitions is not None:
        pending = pending[:max(0, int(max_partitions))]
    done: list[int] = []
    failed: list[dict] = []
    from ..cli import _progress

    bar = _progress(None, total=sum(p["documents"] for p in pending), desc="redact", unit="doc",
                    disable=None if progress else True)

    def advance(n: int) -> None:
        if hasattr(bar, "update"):
            bar.update(n)

    if client is None:
        for p in pending:
            try:
                rec = task(p, tctx, *extra(p))
            except Exception as e:  # a partition-level error: listed, the rest goes on
                failed.append({"partition": p["id"], "reason": f"partition failed ({type(e).__name__})"})
            else:
                done.append(rec["partition"])
            advance(p["documents"])
    else:
        from distributed import as_completed

        from .plugin import PipelinePlugin

        _ensure_plugin(client, PipelinePlugin(tctx.preset, tctx.lang, tctx.policies))
        run_id = fingerprint_of([plan["config_fingerprint"], plan["input_fingerprint"], time.time_ns()])[:10]
        futures = {}
        for p in pending:
            f = client.submit(task, p, tctx, *extra(p), key=f"deid-{run_id}-{p['id']:06d}", retries=retries,
                              pure=False)
            futures[f] = p
        for f in as_completed(list(futures)):
            p = futures[f]
            try:
                rec = f.result()
            except Exception as e:  # e.g. KilledWorker after every retry; never the task's arguments
                failed.append({"partition": p["id"], "reason": f"partition failed ({type(e).__name__})"})
            else:
                done.append(rec["partition"])
            advance(p["documents"])
            f.release()
    if hasattr(bar, "close"):
        bar.close()
    return sorted(done), [p["id"] for p in skipped], failed


def _finish(state: RunState, plan: dict, options: ExportOptions, key: bytes, *, in_path: Path, mode: str,
            seconds: float, workers: int, run: list[int], skipped: list[int], failed: list[dict],
            cluster_spec: str, review: ReviewData | None = None, review_note: dict | None = None) -> RunResult:
    from ..redact import audit as _audit

    records = state.records(plan["partitions"])
    complete = len(records) == len(plan["partitions"])
    if complete:
        sweep_stale_temps(state.out_dir)
    desc = next((r.get("pipeline") for r in records if r.get("pipeline")), None)
    ctx = ExportContext(options, key, _Described(desc))
    results = folder_file_results(records)
    record_failures = [{"partition": r["partition"], **f} for r in records for f in r.get("failures", [])]
    facts = audit_facts(review, merge_stats(records)) if review is not None else (dict(review_note or {}) or None)
    report = _audit.build_report(results, ctx, in_dir=in_path, ignored_files=plan.get("ignored_files", 0),
                                 seconds=seconds, jobs=workers, cancelled=not complete, review=facts)
    report["records_failed"] = record_failures if mode == "table" else []
    record_skips = [{"partition": r["partition"], **f} for r in records for f in r.get("skipped", [])]
    if mode == "table":
        report["records_skipped"] = record_skips
    from .plugin import versions

    seen = sorted({json.dumps(r.get("versions"), sort_keys=True) for r in records if r.get("versions")})
    mine = json.dumps(versions(), sort_keys=True)
    if any(v != mine for v in seen):
        log.warning("workers run other app/lexicon versions than this client: surrogates may differ")
    report["cluster"] = {
        "cluster": cluster_spec or "none (single process)",
        "workers": workers,
        "mode": mode,
        "partitions": len(plan["partitions"]),
        "partitions_complete": len(records),
        "partitions_run_now": len(run),
        "partitions_skipped_complete": len(skipped),
        "partitions_failed_now": failed,
        "worker_versions": [json.loads(v) for v in seen],
        "versions_match_client": all(v == mine for v in seen),
        "review_documents_shipped": review.documents if review is not None else 0,
    }
    json_path, html_path = _audit.write_report(state.out_dir, report)
    manifest_path = None
    if mode == "table":
        manifest_path = state.out_dir / MANIFEST
        atomic_write_json(manifest_path, table_manifest(plan, records, in_path.name, fingerprint(key), complete))
    counts: dict[str, int] = {}
    for r in results:
        for k, v in r.counts.items():
            counts[k] = counts.get(k, 0) + v
    return RunResult(state.out_dir, json_path, html_path, manifest_path, len(plan["partitions"]), run, skipped,
                     failed, sum(r.documents for r in results), sum(r.characters for r in results),
                     record_failures, seconds, complete, workers, dict(sorted(counts.items())),
                     report["review"], merge_stats(records), len(record_skips))


def _key(key: bytes | None, key_path: Path | None) -> bytes:
    return key if key is not None else load_or_create_key(key_path)


def _with_review(config: dict, review: ReviewData | None) -> dict:
    """The run's configuration plus the decisions' fingerprint (a resume with other decisions is refused)."""
    if review is not None and review.documents:
        config["review_fingerprint"] = review.fingerprint
    return config


@contextmanager
def _published(tctx: TaskContext, review: ReviewData | None, client: Any) -> Iterator[TaskContext]:
    """``tctx`` with a reference to ``review`` shipped to the workers for the duration of the run."""
    if review is None or not review.documents:
        yield tctx
        return
    ref = publish(review, fingerprint_of([tctx.out_dir, time.time_ns()])[:10], client)
    try:
        yield replace(tctx, review=ref)
    finally:
        withdraw(ref, client)


def redact_folder(in_dir: Path, out_dir: Path, options: ExportOptions, *, key: bytes | None = None,
                  key_path: Path | None = None, cluster: Any = None, preset: str | None = None,
                  files_per_partition: int = DEFAULT_FILES_PER_PARTITION,
                  bytes_per_partition: int = DEFAULT_BYTES_PER_PARTITION, retries: int = DEFAULT_RETRIES,
                  max_partitions: int | None = None, progress: bool = True, check_hashes: bool = True,
                  crash_once: tuple[str, int] | None = None, review: ReviewData | None = None,
                  review_note: dict | None = None) -> RunResult:
    """Redact a folder tree into ``out_dir`` partition by partition (resumable); write the audit.

    ``review``: the reviewer decisions to apply (``cluster.review.build_review_data``), giving the same
    final spans as ``deid redact`` without ``--cluster``; ``review_note``: the audit's review block
    when there is none (e.g. ``{"decisions": "ignored (--no-decisions)"}``).
    """
    if options.link_map_password:
        raise ValueError("a link map is not supported with --cluster (it would hold PHI across partitions)")
    in_dir, out_dir = check_folders(in_dir, out_dir)
    key = _key(key, key_path)
    preset = preset or options.detectors
    out_dir.mkdir(parents=True, exist_ok=True)
    state = RunState(out_dir)
    policies = client_policies()
    config = {"mode": "folder", "options": options.public(), "key_fingerprint": fingerprint(key), "preset": preset,
              "lang": options.lang, "files_per_partition": files_per_partition,
              "bytes_per_partition": bytes_per_partition, "policies": dict(policies)}
    _with_review(config, review)
    plan = _prepare(state, lambda new: plan_folder(in_dir, out_dir if new else None, options.overwrite,
                                                   files_per_partition, bytes_per_partition),
                    config, options.overwrite)
    pre = set(plan.get("preexisting", []))
    tctx = TaskContext(options, key, preset, options.lang, str(in_dir), str(out_dir), crash_once, policies=policies)
    t0 = time.perf_counter()
    with connect(cluster) as client, _published(tctx, review, client) as tctx:
        run, skipped, failed = _execute(
            state, plan, run_folder_partition, tctx, client,
            lambda p: (tuple(f for f in p["files"] if f in pre),),
            retries=retries, max_partitions=max_partitions, progress=progress, check_hashes=check_hashes)
        workers = _n_workers(client)
    return _finish(state, plan, options, key, in_path=in_dir, mode="folder", seconds=time.perf_counter() - t0,
                   workers=workers, run=run, skipped=skipped, failed=failed,
                   cluster_spec=cluster if isinstance(cluster, str) else ("client" if cluster else ""),
                   review=review, review_note=review_note)


def redact_table(in_path: Path, out_dir: Path, options: ExportOptions, *, id_column: str, text_column: str,
                 patient_column: str | None = None, key: bytes | None = None, key_path: Path | None = None,
                 cluster: Any = None, preset: str | None = None,
                 rows_per_partition: int = DEFAULT_ROWS_PER_PARTITION, retries: int = DEFAULT_RETRIES,
                 max_partitions: int | None = None, progress: bool = True, check_hashes: bool = True,
                 crash_once: tuple[str, int] | None = None, review: ReviewData | None = None,
                 review_note: dict | None = None) -> RunResult:
    """Redact the text column of a CSV/Parquet table into partition files + ``manifest.json`` + audit.

    ``review``/``review_note`` as for ``redact_folder``: a row is a document (doc_id = sha256 of its
    text, the same as that CSV cell reviewed in the app), and with ``unreviewed="skip"`` a row that
    is not reviewed is left out (listed as skipped).
    """
    if options.link_map_password:
        raise ValueError("a link map is not supported for table input")
    in_path, out_dir = Path(in_path).resolve(), Path(out_dir).resolve()
    if not in_path.is_file():
        raise FileNotFoundError(f"input table not found: {in_path}")
    if out_dir == in_path.parent or out_dir in in_path.parents:
        raise ValueError("the output folder must not contain the input table")
    key = _key(key, key_path)
    preset = preset or options.detectors
    out_dir.mkdir(parents=True, exist_ok=True)
    state = RunState(out_dir)
    policies = client_policies()
    config = {"mode": "table", "input": in_path.name, "options": options.public(), "key_fingerprint": fingerprint(key),
              "preset": preset, "lang": options.lang, "rows_per_partition": rows_per_partition,
              "columns": [id_column, text_column, patient_column], "policies": dict(policies)}
    _with_review(config, review)
    plan = _prepare(state, lambda new: plan_table(in_path, id_column, text_column, patient_column,
                                                  rows_per_partition), config, options.overwrite)
    slim = {k: v for k, v in plan.items() if k not in ("partitions", "config")}
    tctx = TaskContext(options, key, preset, options.lang, str(in_path), str(out_dir), crash_once, policies=policies)
    t0 = time.perf_counter()
    with connect(cluster) as client, _published(tctx, review, client) as tctx:
        run, skipped, failed = _execute(state, plan, run_table_partition, tctx, client, lambda p: (slim,),
                                        retries=retries, max_partitions=max_partitions, progress=progress,
                                        check_hashes=check_hashes)
        workers = _n_workers(client)
    return _finish(state, plan, options, key, in_path=in_path, mode="table", seconds=time.perf_counter() - t0,
                   workers=workers, run=run, skipped=skipped, failed=failed,
                   cluster_spec=cluster if isinstance(cluster, str) else ("client" if cluster else ""),
                   review=review, review_note=review_note)


def is_table_input(path: Path, text_column: str | None) -> bool:
    return bool(text_column) or (Path(path).is_file() and Path(path).suffix.lower() == ".parquet")


def print_result(res: RunResult, file: Any = None) -> None:
    file = file if file is not None else sys.stdout  # looked up now (not bound at import)
    print(f"partitions {res.partitions}: run {len(res.partitions_run)}, skipped (already complete) "
          f"{len(res.partitions_skipped)}, failed {len(res.partitions_failed)}; {res.documents} documents, "
          f"{sum(res.counts.values())} replacements, {len(res.records_failed)} record(s) not written"
          + (f", {res.records_skipped} row(s) skipped (not reviewed, --unreviewed skip)" if res.records_skipped else "")
          + "; "
          f"{res.workers} worker(s); {res.seconds:.1f}s" + ("" if res.complete else " -- INCOMPLETE: re-run to resume"),
          file=file)
    for f in res.records_failed[:50]:
        ident = f["id"] if f.get("id") is not None else f"row {f['row']}"
        print(f"  not written: {ident}: {f['reason']}", file=sys.stderr)
    if len(res.records_failed) > 50:
        print(f"  ... and {len(res.records_failed) - 50} more (see {res.report_path.name})", file=sys.stderr)
    for f in res.partitions_failed:
        print(f"  partition {f['partition']}: {f['reason']}", file=sys.stderr)
    print(f"report: {res.report_path}", file=file)
    if res.manifest_path:
        print(f"manifest: {res.manifest_path}", file=file)
