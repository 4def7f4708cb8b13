"""``deid redact`` with ``--cluster`` or a table input: hands over to ``run``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def cmd_batch(args: argparse.Namespace, options) -> int:
    from .folder import DEFAULT_FILES_PER_PARTITION
    from .manifest import PlanMismatch
    from .run import print_result, redact_folder, redact_table
    from .table import DEFAULT_ROWS_PER_PARTITION, TableError

    src = Path(args.input)
    common = dict(cluster=args.cluster or None, retries=args.retries, max_partitions=args.max_partitions,
                  preset=args.detectors)
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
    print_result(res)
    if not res.complete:
        return 1
    return 0
