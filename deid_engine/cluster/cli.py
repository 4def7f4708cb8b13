"""``deid redact`` with ``--cluster`` or a table input: hands over to ``run`` (with the reviewer decisions)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def cmd_batch(args: argparse.Namespace, options, index=None, log_path: Path | None = None) -> int:
    """Run the batch; ``index`` is the loaded decision log (None: ``--no-decisions``)."""
    from .folder import DEFAULT_FILES_PER_PARTITION
    from .manifest import PlanMismatch
    from .review import build_review_data
    from .run import print_result, redact_folder, redact_table
    from .table import DEFAULT_ROWS_PER_PARTITION, TableError

    src = Path(args.input)
    reviewed_only = options.unreviewed == "skip"  # as the app and the local path
    review, note = None, None
    if index is None:
        note = {"decisions": "ignored (--no-decisions)"}
        print("deid redact: reviewer decisions not applied (--no-decisions)", file=sys.stderr)
    else:
        cache_folder = src.resolve().parent if src.is_file() else src.resolve()
        review = build_review_data(index, reviewed_only=reviewed_only, cache_folder=cache_folder,
                                   log_name=log_path.name if log_path else "")
    common = dict(cluster=args.cluster or None, retries=args.retries, max_partitions=args.max_partitions,
                  preset=args.detectors, review=review, review_note=note)
    try:
        if src.is_file():
            if not (args.id_column and args.text_column):
                print("deid redact: a table input needs --id-column and --text-column", file=sys.stderr)
                return 2
            res = redact_table(src, Path(args.output), options, id_column=args.id_column,
                               text_column=args.text_column, patient_column=args.patient_column,
                               rows_per_partition=args.partition_size or DEFAULT_ROWS_PER_PARTITION, **common)
        else:
            if args.text_column or args.id_column:
                print("deid redact: --id-column/--text-column need a .csv or .parquet file as input",
                      file=sys.stderr)
                return 2
            res = redact_folder(src, Path(args.output), options,
                                files_per_partition=args.partition_size or DEFAULT_FILES_PER_PARTITION, **common)
    except (PlanMismatch, TableError) as e:
        print(f"deid redact: {e}", file=sys.stderr)
        return 2
    if review is not None:
        print(review_message(res, review, table=src.is_file()), file=sys.stderr)
    print_result(res)
    if not res.complete:
        return 1
    return 0


def review_message(res, review, table: bool = False) -> str:
    """One stderr line on the decisions applied (counts only), like the local path's."""
    st = res.review_stats
    where = "row(s)" if table else f"document(s) in {st.get('files', 0)} file(s)"
    msg = (f"deid redact: reviewer decisions applied to {st.get('documents', 0)} {where} "
           f"(log {review.log_name}; {review.documents} reviewed document(s) shipped to the workers; predictions "
           f"{st.get('from_cache', 0)} from the review cache, {st.get('tagged', 0)} tagged now"
           + ("; only documents marked reviewed, --unreviewed skip" if review.reviewed_only else "") + ")")
    if st.get("failed"):
        msg += f"; {st['failed']} reviewed document(s) could not be tagged and are treated as unreviewed"
    return msg
