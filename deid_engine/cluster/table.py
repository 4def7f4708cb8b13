"""Table input (CSV or Parquet): an id column, a text column, optionally a patient-id column.

The client plans partitions without loading the table: a CSV is scanned once
for record boundaries (quote-aware; a newline inside a quoted field does not
end a record) and cut into byte ranges of ``rows_per_partition`` records,
each fingerprinted by the sha256 of its bytes; a Parquet file is cut along
its row groups (a row group larger than a partition is sliced). Each task
reads only its range, calls the export's ``process_document`` for every row
and writes ``part-NNNNNN.csv`` / ``.parquet`` (same format as the input: the
text column redacted, the patient-id column pseudonymised like the export's
CSV id columns, other columns copied unchanged) atomically.

A row that cannot be redacted -- malformed (wrong number of fields, broken
quoting, not UTF-8), no id, no text, or a detector error -- is left out of the
output and listed (id or row number + reason); the other rows are written.

Reviewer decisions (``TaskContext.review``): a row is a document whose
doc_id is the sha256 of its text -- the doc_id of the same CSV cell reviewed
in the app -- so a touched row is redacted with its reviewed final spans
(``cluster.review.document_overrides``); with ``unreviewed="skip"`` a row
without them is left out and listed as skipped (``rows_skipped``).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import time
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..io.formats_extra import _csv_quote, parse_csv_cells, sniff_delimiter
from ..io.text import ReadError
from ..redact.export import FileResult, _pseudonym, process_document
from ..types import Document
from .manifest import RunState, atomic_write_bytes, fingerprint_of
from .plugin import LOADS, describe_pipeline, versions
from .task import TaskContext

TABLE_FORMATS = (".csv", ".parquet")
DEFAULT_ROWS_PER_PARTITION = 500
MANIFEST = "manifest.json"


class TableError(ValueError):
    """The table cannot be planned (unknown format, missing column, empty)."""


def table_format(path: Path) -> str:
    ext = Path(path).suffix.lower()
    if ext not in TABLE_FORMATS:
        raise TableError(f"table input must be .csv or .parquet, got {ext or '(none)'}")
    return ext[1:]


def part_name(pid: int, fmt: str) -> str:
    return f"part-{pid:06d}.{fmt}"


# --- CSV record boundaries ------------------------------------------------------------

def csv_records(lines: Iterable[bytes], start: int = 0) -> Iterator[tuple[int, int]]:
    """Byte ranges ``[a, b)`` of the CSV records in ``lines`` (which begin at offset ``start``).

    Quote-aware (RFC 4180: ``""`` inside a quoted field keeps the parity);
    blank lines between records are skipped; an unterminated quote runs to
    the end and yields one (malformed) record.
    """
    pos = rec = start
    odd = False
    for line in lines:
        if not odd and not line.strip():
            pos += len(line)
            rec = pos
            continue
        if line.count(b'"') & 1:
            odd = not odd
        pos += len(line)
        if not odd:
            yield rec, pos
            rec = pos
    if pos > rec:
        yield rec, pos


def _columns(header: list[str], wanted: dict[str, str | None]) -> dict[str, int | None]:
    folded = [h.strip().casefold() for h in header]
    out: dict[str, int | None] = {}
    for role, name in wanted.items():
        if not name:
            out[role] = None
            continue
        try:
            out[role] = folded.index(name.strip().casefold())
        except ValueError:
            raise TableError(f"column {name!r} ({role}) not in the table header") from None
    return out


def _csv_header(raw: bytes) -> tuple[str, list[str]]:
    text = raw.decode("utf-8-sig")
    delim = sniff_delimiter(text)
    rows = parse_csv_cells(text, delim)
    if not rows:
        raise TableError("the CSV has no header")
    return delim, [c.value for c in rows[0]]


def plan_csv(path: Path, columns: dict[str, str | None], rows_per_partition: int) -> dict:
    """One pass over the file: record boundaries, partitions of ``rows_per_partition`` records."""
    parts: list[dict] = []
    total = 0
    with open(path, "rb") as f, open(path, "rb") as g:
        it = csv_records(f)
        first = next(it, None)
        if first is None:
            raise TableError("the CSV is empty")
        header_end = first[1]
        g.seek(0)
        delim, header = _csv_header(g.read(header_end))
        _columns(header, columns)
        start = end = header_end
        n = 0
        for a, b in it:
            if n == 0:
                start = a
            n += 1
            end = b
            if n >= rows_per_partition:
                parts.append(_csv_part(g, len(parts), start, end, total, n))
                total += n
                n = 0
        if n:
            parts.append(_csv_part(g, len(parts), start, end, total, n))
            total += n
    if not parts:
        raise TableError("the CSV has no rows")
    return {"mode": "table", "table_format": "csv", "header_end": header_end, "delimiter": delim, "header": len(header),
            "partitions": parts, "total_documents": total,
            "input_fingerprint": fingerprint_of([[p["id"], p["fingerprint"]] for p in parts])}


def _csv_part(f, pid: int, start: int, end: int, first_row: int, rows: int) -> dict:
    f.seek(start)
    h = hashlib.sha256()
    left = end - start
    while left > 0:
        b = f.read(min(left, 1 << 20))
        if not b:
            break
        h.update(b)
        left -= len(b)
    return {"id": pid, "start": start, "end": end, "first_row": first_row, "documents": rows,
            "fingerprint": h.hexdigest()[:32]}


def plan_parquet(path: Path, columns: dict[str, str | None], rows_per_partition: int) -> dict:
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    _columns(list(pf.schema_arrow.names), columns)
    st = Path(path).stat()
    parts: list[dict] = []
    total = 0
    for rg in range(pf.metadata.num_row_groups):
        md = pf.metadata.row_group(rg)
        rows = md.num_rows
        for off in range(0, rows, rows_per_partition):
            n = min(rows_per_partition, rows - off)
            parts.append({"id": len(parts), "row_group": rg, "offset": off, "documents": n, "first_row": total,
                          "fingerprint": fingerprint_of([st.st_size, st.st_mtime_ns, rg, off, n, md.total_byte_size])})
            total += n
    if not parts:
        raise TableError("the Parquet file has no rows")
    return {"mode": "table", "table_format": "parquet", "partitions": parts, "total_documents": total,
            "input_fingerprint": fingerprint_of([[p["id"], p["fingerprint"]] for p in parts])}


def plan_table(path: Path, id_column: str, text_column: str, patient_column: str | None,
               rows_per_partition: int = DEFAULT_ROWS_PER_PARTITION) -> dict:
    cols = {"id": id_column, "text": text_column, "patient": patient_column}
    if not id_column or not text_column:
        raise TableError("a table needs --id-column and --text-column")
    fmt = table_format(path)
    plan = (plan_csv if fmt == "csv" else plan_parquet)(Path(path), cols, max(1, int(rows_per_partition)))
    plan["columns"] = cols
    return plan


# --- one partition ----------------------------------------------------------------------

class _Acc:
    """Per-partition accumulation of record results into the export's ``FileResult``."""

    def __init__(self, name: str):
        self.res = FileResult(name, name)
        self.failures: list[dict] = []
        self.skipped: list[dict] = []
        self.review: dict[str, int] | None = None

    def ok(self, rid: str, text: str, r: Any, spans: list | None = None) -> None:
        res = self.res
        res.documents += 1
        res.characters += len(text)
        if spans is not None:
            res.reviewed_documents += 1
            res.review_spans += len(spans)
        for k, v in r.counts.items():
            res.counts[k] = res.counts.get(k, 0) + v
        scope = r.audit["date_shift_scope"]
        res.date_shift_scopes[scope] = res.date_shift_scopes.get(scope, 0) + 1
        res.verified = res.verified or r.audit["verified"]
        res.residuals.extend({"document": rid, **x} for x in r.residuals)

    def fail(self, rid: str | None, row: int, reason: str) -> None:
        self.failures.append({"id": rid, "row": row, "reason": reason})

    def skip(self, rid: str, row: int) -> None:
        self.skipped.append({"id": rid, "row": row, "reason": SKIP_REASON})


SKIP_REASON = "not reviewed (unreviewed=skip)"


def _redact_row(ctx: Any, rid: str, text: str, pid: str | None, spans: list | None = None) -> Any:
    meta: dict[str, Any] = {"format": "table", "record_id": rid}
    if pid:
        meta["patient_id"] = pid
    return process_document(Document(text, name=rid, metadata=meta), spans, ctx)


def _row_overrides(tctx: TaskContext, ctx: Any, rows: list[tuple[int, str, str]], acc: _Acc) -> dict[str, list]:
    """The reviewer's final spans for the touched rows ``(row number, id, text)`` of this partition."""
    if tctx.review is None:
        return {}
    from .review import document_overrides

    overrides, acc.review = document_overrides(
        ((f"{rid}@{row}", Document(text)) for row, rid, text in rows), ctx.pipeline, tctx.review)
    return overrides


def _spans_for(overrides: dict[str, list], text: str, ctx: Any) -> tuple[bool, list | None]:
    """(write the row?, its reviewed final spans or None for the detectors), as ``export_file`` decides."""
    spans = overrides.get(Document(text).doc_id) if overrides else None
    if spans is None and ctx.options.unreviewed == "skip":
        return False, None
    return True, None if spans is None else list(spans)


def _csv_partition(part: dict, plan: dict, tctx: TaskContext, acc: _Acc) -> tuple[bytes, str]:
    path = Path(tctx.in_path)
    cols = plan["columns"]
    ctx = tctx.export_context()
    pseudo = _pseudonym(tctx.key)
    with open(path, "rb") as f:
        header_raw = f.read(plan["header_end"])
        f.seek(part["start"])
        data = f.read(part["end"] - part["start"])
    delim, header = _csv_header(header_raw)
    idx = _columns(header, cols)
    newline = "\r\n" if header_raw.endswith(b"\r\n") else "\n"
    out = [header_raw.decode("utf-8")]
    half = part["documents"] // 2
    parsed: list[tuple[int, int, str, Any, str]] = []  # (index, row number, record text, cells, id)
    for i, (a, b) in enumerate(csv_records(io.BytesIO(data))):
        row_no = part["first_row"] + i + 1
        raw = data[a:b]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            parsed.append((i, row_no, "", None, "malformed row (not UTF-8)"))
            continue
        try:
            rows = parse_csv_cells(text, delim)
        except ReadError:
            parsed.append((i, row_no, "", None, "malformed row (unterminated quoted field)"))
            continue
        if len(rows) != 1 or len(rows[0]) != len(header):
            n = len(rows[0]) if len(rows) == 1 else sum(len(r) for r in rows)
            parsed.append((i, row_no, "", None, f"malformed row ({n} fields, expected {len(header)})"))
            continue
        parsed.append((i, row_no, text, rows[0], ""))
    overrides = _row_overrides(tctx, ctx, [(row_no, cells[idx["id"]].value, cells[idx["text"]].value)
                                           for _, row_no, _, cells, _ in parsed if cells is not None
                                           and cells[idx["id"]].value.strip()], acc)
    for i, row_no, text, cells, problem in parsed:
        if i == half:
            tctx.maybe_crash(int(part["id"]))
        if cells is None:
            acc.fail(None, row_no, problem)
            continue
        rid = cells[idx["id"]].value
        if not rid.strip():
            acc.fail(None, row_no, "missing id")
            continue
        tcell = cells[idx["text"]]
        if not tcell.value.strip():
            acc.fail(rid, row_no, "missing text")
            continue
        pcell = cells[idx["patient"]] if idx["patient"] is not None else None
        write, spans = _spans_for(overrides, tcell.value, ctx)
        if not write:
            acc.skip(rid, row_no)
            continue
        try:
            r = _redact_row(ctx, rid, tcell.value, pcell.value if pcell is not None else None, spans)
        except Exception as e:  # the reason names no PHI
            acc.fail(rid, row_no, f"redaction failed ({type(e).__name__})")
            continue
        acc.ok(rid, tcell.value, r, spans)
        repl = [(tcell.start, tcell.end, _csv_quote(r.text, delim, tcell.quoted))]
        if pcell is not None and pcell.value:
            repl.append((pcell.start, pcell.end, _csv_quote(pseudo(pcell.value), delim, pcell.quoted)))
        pieces, pos = [], 0
        for s, e, v in sorted(repl):
            pieces.append(text[pos:s])
            pieces.append(v)
            pos = e
        pieces.append(text[pos:])
        line = "".join(pieces)
        if not line.endswith("\n"):
            line += newline
        out.append(line)
    return "".join(out).encode("utf-8"), hashlib.sha256(data).hexdigest()


def _parquet_partition(part: dict, plan: dict, tctx: TaskContext, acc: _Acc) -> tuple[bytes, str]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols = plan["columns"]
    ctx = tctx.export_context()
    pseudo = _pseudonym(tctx.key)
    pf = pq.ParquetFile(tctx.in_path)
    t = pf.read_row_group(part["row_group"]).slice(part["offset"], part["documents"])
    ids = t.column(cols["id"]).to_pylist()
    texts = t.column(cols["text"]).to_pylist()
    pids = t.column(cols["patient"]).to_pylist() if cols["patient"] else [None] * len(ids)
    h = hashlib.sha256(json.dumps([ids, texts, pids], default=str, ensure_ascii=False).encode("utf-8"))
    keep, new_texts = [], []
    half = len(ids) // 2
    overrides = _row_overrides(tctx, ctx, [(part["first_row"] + i + 1, str(rid), text)
                                           for i, (rid, text) in enumerate(zip(ids, texts))
                                           if rid is not None and str(rid).strip() and isinstance(text, str)], acc)
    for i, (rid, text, pid) in enumerate(zip(ids, texts, pids)):
        if i == half:
            tctx.maybe_crash(int(part["id"]))
        row_no = part["first_row"] + i + 1
        if rid is None or not str(rid).strip():
            acc.fail(None, row_no, "missing id")
            continue
        rid = str(rid)
        if not isinstance(text, str):
            acc.fail(rid, row_no, "missing text" if text is None else "malformed row (text is not a string)")
            continue
        if not text.strip():
            acc.fail(rid, row_no, "missing text")
            continue
        write, spans = _spans_for(overrides, text, ctx)
        if not write:
            acc.skip(rid, row_no)
            continue
        try:
            r = _redact_row(ctx, rid, text, None if pid in (None, "") else str(pid), spans)
        except Exception as e:
            acc.fail(rid, row_no, f"redaction failed ({type(e).__name__})")
            continue
        acc.ok(rid, text, r, spans)
        keep.append(i)
        new_texts.append(r.text)
    t = t.take(pa.array(keep, type=pa.int64()))
    names = t.column_names
    j = names.index(cols["text"])
    t = t.set_column(j, pa.field(cols["text"], pa.large_string() if pa.types.is_large_string(t.schema.field(j).type)
                                 else pa.string()), pa.array(new_texts, type=pa.large_string()
                                                             if pa.types.is_large_string(t.schema.field(j).type)
                                                             else pa.string()))
    if cols["patient"]:
        k = names.index(cols["patient"])
        vals = [None if v in (None, "") else pseudo(str(v)) for v in t.column(k).to_pylist()]
        t = t.set_column(k, pa.field(cols["patient"], pa.string()), pa.array(vals, type=pa.string()))
    buf = io.BytesIO()
    pq.write_table(t, buf)
    return buf.getvalue(), h.hexdigest()


def run_table_partition(part: dict, tctx: TaskContext, plan: dict) -> dict:
    """Redact one partition of the table; write ``part-NNNNNN.<fmt>`` and the part record; return it."""
    t0, c0, p0 = time.perf_counter(), time.thread_time(), time.process_time()
    out_dir = Path(tctx.out_dir)
    fmt = plan["table_format"]
    name = part_name(int(part["id"]), fmt)
    acc = _Acc(name)
    target = out_dir / name
    fn = _csv_partition if fmt == "csv" else _parquet_partition
    data, in_hash = fn(part, plan, tctx, acc)
    atomic_write_bytes(target, data)
    res = acc.res
    res.input_sha256 = in_hash
    res.output_sha256 = hashlib.sha256(data).hexdigest()
    res.counts = dict(sorted(res.counts.items()))
    if acc.failures:
        res.note = f"{len(acc.failures)} row(s) not written: " + "; ".join(
            f"{f['id'] if f['id'] is not None else 'row ' + str(f['row'])}: {f['reason']}" for f in acc.failures[:20])
    if acc.skipped:
        res.note = (res.note + "; " if res.note else "") + f"{len(acc.skipped)} row(s) skipped ({SKIP_REASON})"
    res.seconds = round(time.perf_counter() - t0, 6)
    rec = {
        "partition": int(part["id"]),
        "fingerprint": part["fingerprint"],
        "outputs": {name: res.output_sha256},
        "files": [res.report()],
        "documents": res.documents,
        "characters": res.characters,
        "rows_in": part["documents"],
        "failures": acc.failures,
        "skipped": acc.skipped,
        "review": acc.review,
        "pipeline": describe_pipeline(ctx_pipeline(tctx), tctx.preset, tctx.lang),
        "worker_pid": os.getpid(),
        "pipeline_loads_in_process": LOADS[0],
        "versions": versions(),
        "seconds": round(time.perf_counter() - t0, 3),
        "cpu_seconds_task_thread": round(time.thread_time() - c0, 3),
        "cpu_seconds_process": round(time.process_time() - p0, 3),
    }
    RunState(out_dir).write_part(rec)
    return rec


def ctx_pipeline(tctx: TaskContext) -> Any:
    from .plugin import worker_pipeline

    return worker_pipeline(tctx.preset, tctx.lang, tctx.policies)


def table_manifest(plan: dict, records: list[dict], input_name: str, key_fingerprint: str, complete: bool) -> dict:
    """``manifest.json`` of a table output: the partition files in order, with rows and hashes (no PHI)."""
    by_id = {r["partition"]: r for r in records}
    parts = []
    for p in plan["partitions"]:
        r = by_id.get(p["id"])
        if r is None:
            continue
        (path, digest), = r["outputs"].items()
        parts.append({"id": p["id"], "path": path, "sha256": digest, "input_fingerprint": p["fingerprint"],
                      "rows_in": r["rows_in"], "rows_written": r["documents"], "rows_failed": len(r["failures"]),
                      "rows_skipped": len(r.get("skipped", []))})
    return {
        "format": "deid-table-manifest-1",
        "input": input_name,
        "input_format": plan["table_format"],
        "columns": plan["columns"],
        "complete": complete,
        "key_fingerprint": key_fingerprint,
        "partitions": parts,
        "rows_in": sum(p["rows_in"] for p in parts),
        "rows_written": sum(p["rows_written"] for p in parts),
        "rows_failed": sum(p["rows_failed"] for p in parts),
        "rows_skipped": sum(p["rows_skipped"] for p in parts),
        "failures": [{"partition": r["partition"], **f} for r in records for f in r["failures"]],
        "skipped": [{"partition": r["partition"], **f} for r in records for f in r.get("skipped", [])],
    }
