"""``deid redact IN_DIR OUT_DIR``: one-click redact-and-export from the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .operators import OPERATORS


def add_parser(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser("redact", help="write a redacted copy of a folder with an audit report")
    r.add_argument("input", help="folder of notes (.txt .docx .rtf .pdf .csv)")
    r.add_argument("output", help="folder to write the redacted copy into (not inside the input)")
    r.add_argument("--operator", choices=OPERATORS, default="surrogate")
    r.add_argument("--date-shift", choices=["per_patient", "per_export", "none"], default=None,
                   help="shift dates (default: per_patient with --operator surrogate, else none)")
    r.add_argument("--unreviewed", choices=["redact", "skip"], default="redact",
                   help="documents the reviewer did not touch: redact with the detectors (default) or skip; "
                        "skip writes only documents marked reviewed in the app (a file holding any other "
                        "document is left out, and so is such a table row), with or without --cluster")
    r.add_argument("--lang", choices=["en", "es"], default="en")
    r.add_argument("--detectors", default="default",
                   help="detector preset: default (tagger + rules, as in the app), rules (faster, lower recall), tagger")
    r.add_argument("--jobs", type=int, default=1, help="worker processes (same output for any number)")
    from ..cli import add_policy_args

    add_policy_args(r)
    r.add_argument("--overwrite", action="store_true", help="replace existing files in the output folder")
    r.add_argument("--csv-columns", default="", help="comma-separated CSV text columns (default: auto)")
    r.add_argument("--csv-id-columns", default="", help="comma-separated CSV patient-id columns")
    r.add_argument("--link-map-password-file",
                   help="write linkmap.enc (original -> replacement), encrypted with the password in this file")
    r.add_argument("--no-verify", action="store_true", help="skip the verification pass over the output")
    dg = r.add_mutually_exclusive_group()
    dg.add_argument("--decisions", metavar="PATH",
                    help="decision log whose reviewer decisions to apply (default: the app's own log, as the "
                         "app's export does); applied the same way with --cluster and table inputs (a table row "
                         "matches a reviewed CSV cell with the same text). For a long cluster run pass a copy: "
                         "a resume with changed decisions is refused")
    dg.add_argument("--no-decisions", action="store_true",
                    help="ignore reviewer decisions: every document follows --unreviewed")
    c = r.add_argument_group("batch / cluster (deid_engine.cluster; see docs/cluster.md; same output as without "
                             "--cluster, reviewer decisions included)")
    c.add_argument("--cluster", metavar="local:N|tcp://HOST:PORT",
                   help="run on Dask: local:N starts N worker processes on this machine; tcp://HOST:PORT "
                        "uses a running scheduler. Resumable: re-run the same command to finish a run")
    c.add_argument("--id-column", help="table input (.csv/.parquet file): the record id column")
    c.add_argument("--text-column", help="table input: the free-text column to redact")
    c.add_argument("--patient-column", help="table input: patient id column (date shift per patient; pseudonymised)")
    c.add_argument("--partition-size", type=int, default=None,
                   help="files (folder) or rows (table) per partition (default 100 files / 500 rows)")
    c.add_argument("--retries", type=int, default=3, help="Dask retries of a partition whose task failed")
    c.add_argument("--max-partitions", type=int, default=None, help=argparse.SUPPRESS)  # testing: stop early
    r.set_defaults(func=cmd_redact)


def _split(v: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in v.split(",") if x.strip())


def cmd_redact(args: argparse.Namespace) -> int:
    from ..cli import _progress, apply_policy_args

    apply_policy_args(args)
    from ..types import FileProblem, Progress
    from .export import ExportOptions, ExportSummary, export_folder

    password = None
    if args.link_map_password_file:
        password = Path(args.link_map_password_file).read_text(encoding="utf-8").strip()
        if not password:
            print("deid redact: the link-map password file is empty", file=sys.stderr)
            return 2
    date_shift = args.date_shift or ("per_patient" if args.operator == "surrogate" else "none")
    options = ExportOptions(operator=args.operator, date_shift=date_shift, unreviewed=args.unreviewed,
                            lang=args.lang, detectors=args.detectors, overwrite=args.overwrite,
                            csv_columns=_split(args.csv_columns), csv_id_columns=_split(args.csv_id_columns),
                            verify=not args.no_verify, link_map_password=password)
    index, log_path = None, None
    if not args.no_decisions:
        from ..review.decisions import default_log_path, load_log

        log_path = Path(args.decisions) if args.decisions else default_log_path()
        if args.decisions and not log_path.is_file():
            print("deid redact: the decision log given with --decisions does not exist", file=sys.stderr)
            return 2
        index = load_log(log_path)
    if args.cluster or args.text_column or Path(args.input).is_file():
        from ..cluster.cli import cmd_batch

        # the workers apply the same decisions (deid_engine.cluster.review): same output as without --cluster
        return cmd_batch(args, options, index, log_path)
    overrides, pipeline, review = _review_overrides(args, options, index, log_path)
    if overrides is None and review is None:
        return 2
    bar = _progress(None, total=0, desc="redact", unit="file")
    summary = None
    for item in export_folder(Path(args.input), Path(args.output), options, pipeline=pipeline,
                              overrides=overrides, jobs=args.jobs, review=review):
        if isinstance(item, Progress):
            if hasattr(bar, "total") and bar.total != item.total:
                bar.total = item.total
            if hasattr(bar, "update"):
                bar.update(item.done - bar.n)
        elif isinstance(item, FileProblem):
            msg = str(item)
            if hasattr(bar, "write"):
                bar.write(msg, file=sys.stderr)
            else:
                print(msg, file=sys.stderr)
        elif isinstance(item, ExportSummary):
            summary = item
    if hasattr(bar, "close"):
        bar.close()
    assert summary is not None
    print(f"files ok {summary.files_ok} / failed {summary.files_failed} / skipped {summary.files_skipped}; "
          f"{summary.documents} documents, {sum(summary.counts.values())} replacements, "
          f"{summary.residuals} residual candidates; {summary.seconds:.1f}s")
    print(f"report: {summary.report_path}")
    if summary.link_map_path:
        print(f"link map (encrypted): {summary.link_map_path}")
    total_failure = summary.files and summary.files_ok == 0 and summary.files_failed > 0
    return 1 if total_failure or summary.cancelled else 0


def _review_overrides(args: argparse.Namespace, options, index, log_path: Path | None):
    """(overrides, pipeline built for them or None, audit review facts); (None, None, None) on error.

    The final spans of every document the reviewer touched, exactly as the
    app's export computes them (``deid_engine.review.apply``). Prints one
    summary line on stderr (counts only).
    """
    from .export import _read, check_folders, list_export_files

    if index is None:
        print("deid redact: reviewer decisions not applied (--no-decisions)", file=sys.stderr)
        return {}, None, {"decisions": "ignored (--no-decisions)"}
    from ..review.apply import ReviewOverrides, has_review_data, review_overrides

    in_dir, _ = check_folders(Path(args.input), Path(args.output))
    reviewed_only = options.unreviewed == "skip"  # as the app: skip keeps only documents marked reviewed
    built: list = []

    def get_pipeline():
        from ..pipeline import build_pipeline

        p = build_pipeline(options.detectors, options.lang)
        p.load()
        built.append(p)
        return p

    ro = ReviewOverrides()
    if has_review_data(index):
        files, _ = list_export_files(in_dir)
        try:
            ro = review_overrides(in_dir, lambda p: _read(p, options), files, index, get_pipeline,
                                  reviewed_only=reviewed_only)
        except KeyError:
            raise  # an unknown preset: reported like any other run
        except Exception as e:  # no PHI: the type only
            print(f"deid redact: the detectors needed to apply the reviewer decisions are unavailable "
                  f"({type(e).__name__}); fix them or pass --no-decisions", file=sys.stderr)
            return None, None, None
    msg = (f"deid redact: reviewer decisions applied to {ro.documents} document(s) in {ro.files} file(s) "
           f"(log {log_path.name}; predictions {ro.from_cache} from the review cache, {ro.tagged} tagged now"
           + ("; only documents marked reviewed, --unreviewed skip" if reviewed_only else "") + ")")
    if ro.failed:
        msg += f"; {ro.failed} reviewed document(s) could not be tagged and are treated as unreviewed"
    print(msg, file=sys.stderr)
    review = {"decisions": "applied", "decision_log": log_path.name, "reviewed_only": reviewed_only,
              "predictions_from_cache": ro.from_cache, "predictions_tagged": ro.tagged,
              "reviewed_documents_not_tagged": ro.failed}
    return ro.overrides, (built[0] if built else None), review
