"""One-click export: a redacted copy of a folder plus an audit report.

``process_document(doc, spans, ctx)`` is the *one* per-record code path: the
desktop app, ``deid redact`` and a cluster run all call it. It is pure -- its
result depends only on the document, the spans and the context (options +
project key + pipeline) -- so any number of processes give byte-identical
output: surrogates and date offsets come from HMAC(project key, value), not
from counters or shared state.

``export_folder`` walks a folder, reads each note (.txt/.docx/.rtf/.pdf/.csv),
calls ``process_document`` for each of its documents, writes the redacted
copy under the same relative path (atomically, never into the input folder,
never over an existing file unless asked), re-runs the detectors over the
output (verification), and writes ``audit.json`` / ``audit.html`` (no PHI).
It is a generator of ``Progress | FileProblem | ExportSummary``.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from ..io.folder import scan_folder
from ..io.formats import READERS
from ..io.formats_extra import pdf_output_name, read_csv, write_csv, write_docx, write_rtf_in_place
from ..io.text import DEFAULT_MAX_BYTES, ReadError, encode_text
from ..types import Document, FileProblem, Progress, Span
from .dates import offset_from_seed
from .keys import fingerprint, load_or_create_key, normalise, seed_int, short_code
from .operators import OPERATORS, Edit, counts_by_label, make_operator, redact, sha256_text, taxonomy_label

log = logging.getLogger(__name__)

DATE_SHIFT_MODES = ("per_patient", "per_export", "none")
UNREVIEWED_MODES = ("redact", "skip")
AUDIT_JSON = "audit.json"
AUDIT_HTML = "audit.html"
LINK_MAP = "linkmap.enc"


@dataclass(frozen=True)
class ExportOptions:
    """Everything that decides what an export writes (and nothing secret but the link-map password)."""

    operator: str = "surrogate"          # surrogate | tag | liu | placeholder | mask
    date_shift: str = "per_patient"      # per_patient | per_export | none
    unreviewed: str = "redact"           # redact (pipeline predictions) | skip
    lang: str = "en"
    detectors: str = "rules"             # preset used when no pipeline object is given
    overwrite: bool = False
    csv_columns: tuple[str, ...] = ()    # () = columns that look like free text
    csv_id_columns: tuple[str, ...] = ()  # patient-id columns: give the date offset, get pseudonymised
    patient_id_pattern: str = r"^(p\d+)-n\d+"  # on the document name; group 1 is the patient
    date_shift_min_days: int = 30
    date_shift_max_days: int = 365
    export_salt: str = ""                # seeds the per-export offset (and patients without an id)
    fine_tags: bool = False              # tag operator: [PATIENT] instead of [NAME]
    verify: bool = True                  # re-run the detectors over the output
    max_bytes: int = DEFAULT_MAX_BYTES
    link_map_password: str | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.operator not in OPERATORS:
            raise ValueError(f"operator must be one of {OPERATORS}, got {self.operator!r}")
        if self.date_shift not in DATE_SHIFT_MODES:
            raise ValueError(f"date_shift must be one of {DATE_SHIFT_MODES}, got {self.date_shift!r}")
        if self.unreviewed not in UNREVIEWED_MODES:
            raise ValueError(f"unreviewed must be one of {UNREVIEWED_MODES}, got {self.unreviewed!r}")
        if not 0 < self.date_shift_min_days <= self.date_shift_max_days:
            raise ValueError("date shift range must satisfy 0 < min <= max")
        re.compile(self.patient_id_pattern)
        object.__setattr__(self, "csv_columns", tuple(self.csv_columns))
        object.__setattr__(self, "csv_id_columns", tuple(self.csv_id_columns))

    def public(self) -> dict[str, Any]:
        """The options as recorded in the audit report (no password)."""
        d = asdict(self)
        d.pop("link_map_password", None)
        d["link_map"] = bool(self.link_map_password)
        d["csv_columns"] = list(self.csv_columns)
        d["csv_id_columns"] = list(self.csv_id_columns)
        return d


@dataclass
class ExportContext:
    """Options + the project key + the pipeline used for unreviewed documents and verification."""

    options: ExportOptions
    key: bytes = field(repr=False)
    pipeline: Any = None  # deid_engine.pipeline.Pipeline | None

    @classmethod
    def create(cls, options: ExportOptions, pipeline: Any = None, key: bytes | None = None,
               key_path: Path | None = None) -> "ExportContext":
        return cls(options, key if key is not None else load_or_create_key(key_path), pipeline)

    @property
    def key_fingerprint(self) -> str:
        return fingerprint(self.key)

    @property
    def collect_links(self) -> bool:
        return bool(self.options.link_map_password)


@dataclass(frozen=True)
class RecordResult:
    """What ``process_document`` made of one document. Only ``text``/``links`` hold (surrogate/PHI) text."""

    name: str
    doc_id: str
    text: str
    spans: tuple[Span, ...]
    edits: tuple[Edit, ...]
    counts: dict[str, int]
    input_sha256: str
    output_sha256: str
    audit: dict[str, Any]
    residuals: tuple[dict[str, Any], ...] = ()
    links: tuple[dict[str, str], ...] = ()  # original -> replacement; only when a link map is asked for
    seconds: float = field(default=0.0, compare=False)  # timing only; not part of the result


# --- per-record ------------------------------------------------------------------

def patient_id(doc: Document, options: ExportOptions) -> str | None:
    """``metadata["patient_id"]``, else group 1 of ``patient_id_pattern`` on the name, else None."""
    pid = doc.metadata.get("patient_id")
    if pid not in (None, ""):
        return str(pid)
    name = doc.name.split("#", 1)[0]
    m = re.match(options.patient_id_pattern, name)
    if m:
        return m.group(1) if m.groups() else m.group(0)
    return None


def date_offset(doc: Document, ctx: ExportContext) -> tuple[int | None, str]:
    """The day offset for ``doc`` and its scope (``patient``, ``export`` or ``none``)."""
    o = ctx.options
    if o.date_shift == "none":
        return None, "none"
    pid = patient_id(doc, o) if o.date_shift == "per_patient" else None
    scope = ("patient", normalise(pid)) if pid else ("export", o.export_salt)
    seed = seed_int(ctx.key, "date-offset", *scope)
    return offset_from_seed(seed, o.date_shift_min_days, o.date_shift_max_days), scope[0]


def _residuals(red_text: str, out_spans: Sequence[Span], doc: Document, pipeline: Any) -> list[dict[str, Any]]:
    """Detections on the output that are not inside a replacement we wrote (no text)."""
    found = pipeline.run(Document(red_text, path=doc.path, name=doc.name, metadata=doc.metadata))
    out = []
    for s in found:
        if any(r.start <= s.start and s.end <= r.end for r in out_spans):
            continue
        out.append({"start": s.start, "end": s.end, "label": taxonomy_label(s.label), "detector": s.source})
    return out


def process_document(doc: Document, spans: Sequence[Span] | None, ctx: ExportContext) -> RecordResult:
    """Redact one document: the one code path of the app, the CLI and the cluster.

    ``spans`` are the final (reviewed) spans; ``None`` runs ``ctx.pipeline``.
    The result is a pure function of (doc, spans, ctx.options, ctx.key, pipeline).
    """
    t0 = time.perf_counter()
    source = "review"
    if spans is None:
        if ctx.pipeline is None:
            raise ValueError("no spans and no pipeline to detect them")
        spans = ctx.pipeline.run(doc)
        source = "pipeline"
    offset, scope = date_offset(doc, ctx)
    op = make_operator(ctx.options.operator, ctx.key, ctx.options.lang, date_offset=offset,
                       fine_tags=ctx.options.fine_tags)
    red = redact(doc.text, spans, op)
    residuals: list[dict[str, Any]] = []
    verified = False
    if ctx.options.verify and ctx.pipeline is not None:
        residuals = _residuals(red.text, red.spans, doc, ctx.pipeline)
        verified = True
    counts = counts_by_label(red.spans)
    links: tuple[dict[str, str], ...] = ()
    if ctx.collect_links:
        links = tuple({"label": taxonomy_label(e.label), "original": doc.text[e.start:e.end],
                       "replacement": e.replacement} for e in red.edits)
    audit = {
        "spans_from": source,
        "spans": len(red.spans),
        "counts": counts,
        "date_shift_scope": scope,
        "verified": verified,
        "residuals": len(residuals),
    }
    return RecordResult(doc.name, doc.doc_id, red.text, red.spans, red.edits, counts, doc.doc_id,
                        sha256_text(red.text), audit, tuple(residuals), links, time.perf_counter() - t0)


# --- per-file ----------------------------------------------------------------------

@dataclass
class FileResult:
    """One input file's outcome (no PHI, except ``links`` when a link map was asked for)."""

    path: str                 # relative to the input folder (POSIX)
    output: str = ""          # relative to the output folder
    status: str = "ok"        # ok | failed | skipped
    reason: str = ""
    documents: int = 0
    characters: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    input_sha256: str = ""
    output_sha256: str = ""
    reviewed_documents: int = 0
    review_spans: int = 0
    residuals: list[dict[str, Any]] = field(default_factory=list)
    verified: bool = False
    date_shift_scopes: dict[str, int] = field(default_factory=dict)
    note: str = ""
    seconds: float = 0.0
    links: list[dict[str, str]] = field(default_factory=list)

    def report(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("links")
        return d


def output_relpath(rel: str) -> str:
    return pdf_output_name(rel) if rel.lower().endswith(".pdf") else rel


def _sha256_bytes(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def _atomic_write(path: Path, data: bytes, overwrite: bool) -> None:
    """Write ``data`` to ``path`` via a temp file; refuse to replace an existing file unless ``overwrite``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        if overwrite:
            os.replace(tmp, path)
            return
        try:
            os.link(tmp, path)  # atomic and exclusive: fails if path exists
        except FileExistsError:
            raise
        except OSError:  # no hard links on this file system
            if path.exists():
                raise FileExistsError(str(path)) from None
            os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _read(path: Path, options: ExportOptions) -> list[Document]:
    ext = path.suffix.lower()
    if ext == ".csv":
        return read_csv(path, options.max_bytes, columns=options.csv_columns or None,
                        id_columns=options.csv_id_columns)
    reader = READERS.get(ext)
    if reader is None:
        raise ReadError(f"unsupported file type {ext or '(none)'}")
    return reader(path, options.max_bytes)


def _pseudonym(key: bytes) -> Callable[[str], str]:
    return lambda v: "ID-" + short_code(key, "csv-id", normalise(v), length=10)


def export_file(path: Path, in_dir: Path, out_dir: Path, ctx: ExportContext,
                overrides: Mapping[str, Sequence[Span]] | None = None) -> FileResult:
    """Export one file: read, ``process_document`` each document, write the copy. Never raises."""
    t0 = time.perf_counter()
    rel = path.relative_to(in_dir).as_posix()
    res = FileResult(rel, output_relpath(rel))
    o = ctx.options
    overrides = overrides or {}
    try:
        target = out_dir / res.output
        if target.exists() and not o.overwrite:
            res.status, res.reason = "skipped", "output already exists (overwrite not allowed)"
            return res
        raw = path.read_bytes()
        res.input_sha256 = _sha256_bytes(raw)
        docs = _read(path, o)
        if not docs and path.suffix.lower() != ".csv":
            raise ReadError("no text")
        results: list[tuple[Document, RecordResult]] = []
        unreviewed = [d for d in docs if d.doc_id not in overrides]
        if unreviewed and o.unreviewed == "skip":
            res.status = "skipped"
            res.reason = f"{len(unreviewed)} of {len(docs)} document(s) not reviewed (unreviewed=skip)"
            return res
        if unreviewed and ctx.pipeline is None:
            res.status, res.reason = "failed", "no detectors available for unreviewed documents"
            return res
        for d in docs:
            spans = overrides.get(d.doc_id)
            if spans is not None:
                res.reviewed_documents += 1
                res.review_spans += len(spans)
            r = process_document(d, None if spans is None else list(spans), ctx)
            results.append((d, r))
            res.documents += 1
            res.characters += len(d.text)
            for k, v in r.counts.items():
                res.counts[k] = res.counts.get(k, 0) + v
            scope = r.audit["date_shift_scope"]
            res.date_shift_scopes[scope] = res.date_shift_scopes.get(scope, 0) + 1
            res.verified = res.verified or r.audit["verified"]
            for x in r.residuals:
                res.residuals.append({"document": d.name if len(docs) > 1 else "", **x})
            if ctx.collect_links:
                res.links.extend({"file": rel, **x} for x in r.links)
        res.counts = dict(sorted(res.counts.items()))
        fmt = docs[0].metadata.get("format", "txt") if docs else "csv"
        if fmt == "docx":
            data = write_docx(path, [(d, r.edits) for d, r in results])
        elif fmt == "rtf":
            (d, r), = results
            data, kept = write_rtf_in_place(path, d, r.edits, r.text)
            res.note = "RTF: values replaced in place, formatting kept" if kept else (
                "RTF rewritten as plain RTF: formatting not kept")
        elif fmt == "pdf":
            data = results[0][1].text.encode("utf-8")
            res.note = "PDF text written as UTF-8 .txt (layout not kept)"
        elif fmt == "csv":
            cells = {(d.metadata["row"], d.metadata["col_index"]): r.text for d, r in results}
            data = write_csv(path, cells, o.csv_id_columns, _pseudonym(ctx.key))
            cols = sorted({str(d.metadata["column"]) for d in docs})
            res.note = f"CSV columns redacted: {', '.join(cols) or 'none (no free-text column found)'}" + (
                f"; id columns pseudonymised: {', '.join(o.csv_id_columns)}" if o.csv_id_columns else "")
        else:
            (d, r), = results
            data = encode_text(r.text, str(d.metadata.get("encoding", "utf-8")))
        _atomic_write(target, data, o.overwrite)
        res.output_sha256 = _sha256_bytes(data)
    except FileExistsError:
        res.status, res.reason = "skipped", "output already exists (overwrite not allowed)"
    except ReadError as e:
        res.status, res.reason = "failed", str(e)
    except Exception as e:  # one bad file never stops the batch; the reason names no PHI
        log.debug("export failed for a file", exc_info=False)
        res.status, res.reason = "failed", f"export failed ({type(e).__name__})"
    finally:
        res.seconds = round(time.perf_counter() - t0, 6)
    if res.status != "ok":
        res.links = []
    return res


# --- worker processes -----------------------------------------------------------------

_STATE: dict[str, Any] = {}


def _worker_init(blob: bytes) -> None:
    # Never raise here: a failing initializer makes multiprocessing respawn workers forever.
    try:
        state = pickle.loads(blob)
        ctx: ExportContext = state["ctx"]
        if ctx.pipeline is None and state.get("pipeline_spec"):
            from ..pipeline import build_pipeline

            name, lang = state["pipeline_spec"]
            ctx.pipeline = build_pipeline(name, lang)
        if ctx.pipeline is not None:
            ctx.pipeline.load()
            from ..pipeline import tune_gc_for_batch

            tune_gc_for_batch()
        _STATE.update(state)
    except Exception as e:
        _STATE["error"] = f"worker could not start ({type(e).__name__})"


def _worker_run(rel: str) -> FileResult:
    s = _STATE
    if "error" in s:
        return FileResult(rel, output_relpath(rel), "failed", s["error"])
    return export_file(s["in_dir"] / rel, s["in_dir"], s["out_dir"], s["ctx"], s["overrides"])


# --- folder ----------------------------------------------------------------------------

@dataclass(frozen=True)
class ExportSummary:
    out_dir: Path
    report_path: Path
    html_path: Path
    files_ok: int
    files_failed: int
    files_skipped: int
    documents: int
    characters: int
    counts: dict[str, int]
    residuals: int
    seconds: float
    cancelled: bool = False
    link_map_path: Path | None = None

    @property
    def files(self) -> int:
        return self.files_ok + self.files_failed + self.files_skipped


def check_folders(in_dir: Path, out_dir: Path) -> tuple[Path, Path]:
    """Resolved (in, out); ValueError if they are the same or one is inside the other."""
    i, o = Path(in_dir).resolve(), Path(out_dir).resolve()
    if not i.is_dir():
        raise FileNotFoundError(f"input folder not found: {in_dir}")
    if i == o:
        raise ValueError("the output folder must not be the input folder")
    if i in o.parents:
        raise ValueError("the output folder must not be inside the input folder")
    if o in i.parents:
        raise ValueError("the input folder must not be inside the output folder")
    return i, o


def list_export_files(in_dir: Path) -> tuple[list[Path], int]:
    """Files with a reader (sorted) and how many other files were left out."""
    return scan_folder(in_dir)


def _pipeline_for(options: ExportOptions, pipeline: Any, needed: bool) -> tuple[Any, str]:
    if pipeline is not None:
        return pipeline, ""
    if not needed:
        return None, ""
    try:
        from ..pipeline import build_pipeline

        p = build_pipeline(options.detectors, options.lang)
        p.load()
        return p, ""
    except Exception as e:
        return None, f"detectors {options.detectors!r} unavailable ({type(e).__name__})"


def export_folder(in_dir: Path, out_dir: Path, options: ExportOptions, *, pipeline: Any = None,
                  overrides: Mapping[str, Sequence[Span]] | None = None,
                  cancelled: Callable[[], bool] = lambda: False, jobs: int = 1,
                  key: bytes | None = None,
                  review: Mapping[str, Any] | None = None) -> Iterator[Progress | FileProblem | ExportSummary]:
    """Write a redacted copy of ``in_dir`` into ``out_dir`` with ``audit.json``/``audit.html``.

    Yields ``Progress`` after each file, a ``FileProblem`` for each failed or
    skipped file, and finally one ``ExportSummary``. ``overrides`` maps
    doc_id -> final reviewed spans (``review``: no-PHI facts about where they
    came from, for the audit's ``review`` block). ``jobs > 1`` uses worker processes and
    writes exactly the same files as ``jobs=1``. On cancel, files already
    written stay, the report says ``cancelled`` and the summary is yielded.
    """
    from . import audit as _audit

    in_dir, out_dir = check_folders(in_dir, out_dir)
    overrides = dict(overrides or {})
    started = time.time()
    t0 = time.perf_counter()
    files, ignored = list_export_files(in_dir)
    needs_pipeline = options.verify or options.unreviewed == "redact"
    pipe, pipe_problem = _pipeline_for(options, pipeline, needs_pipeline)
    ctx = ExportContext.create(options, pipe, key=key)
    out_dir.mkdir(parents=True, exist_ok=True)
    rels = [p.relative_to(in_dir).as_posix() for p in files]
    results: list[FileResult] = []
    was_cancelled = False

    def handle(r: FileResult) -> Iterator[Progress | FileProblem]:
        results.append(r)
        if r.status != "ok":
            yield FileProblem(in_dir / r.path, r.reason, warning=r.status == "skipped")
        yield Progress(len(results), len(rels), "export", started)

    jobs = max(1, int(jobs))
    if jobs > 1 and len(rels) > 1:
        import multiprocessing as mp

        state: dict[str, Any] = {"in_dir": in_dir, "out_dir": out_dir, "overrides": overrides}
        try:
            blob = pickle.dumps({**state, "ctx": ctx})
        except Exception:  # an unpicklable pipeline: workers build it from its preset
            blob = pickle.dumps({**state, "ctx": ExportContext(options, ctx.key, None),
                                 "pipeline_spec": (getattr(pipe, "name", options.detectors),
                                                   getattr(pipe, "lang", options.lang)) if pipe else None})
        pool = mp.get_context("spawn").Pool(min(jobs, len(rels)), initializer=_worker_init, initargs=(blob,))
        try:
            for r in pool.imap(_worker_run, rels, chunksize=max(1, min(16, len(rels) // (jobs * 8) or 1))):
                yield from handle(r)
                if cancelled():
                    was_cancelled = True
                    break
        finally:
            if was_cancelled:
                pool.terminate()
            else:
                pool.close()
            pool.join()
            if was_cancelled:  # a terminated worker may leave its temp file behind
                for part in out_dir.rglob(".*.part"):
                    try:
                        part.unlink()
                    except OSError:
                        pass
    else:
        for rel in rels:
            if cancelled():
                was_cancelled = True
                break
            yield from handle(export_file(in_dir / rel, in_dir, out_dir, ctx, overrides))
    seconds = time.perf_counter() - t0
    link_path = None
    if options.link_map_password and not was_cancelled:
        from .linkmap import write_link_map

        link_path = write_link_map(out_dir / LINK_MAP, [x for r in results for x in r.links],
                                   options.link_map_password)
    report = _audit.build_report(results, ctx, in_dir=in_dir, ignored_files=ignored, seconds=seconds,
                                 jobs=jobs, cancelled=was_cancelled, pipeline_problem=pipe_problem,
                                 link_map=link_path.name if link_path else None,
                                 review=dict(review) if review else None)
    json_path, html_path = _audit.write_report(out_dir, report)
    counts: dict[str, int] = {}
    for r in results:
        for k, v in r.counts.items():
            counts[k] = counts.get(k, 0) + v
    yield ExportSummary(
        out_dir, json_path, html_path,
        files_ok=sum(r.status == "ok" for r in results),
        files_failed=sum(r.status == "failed" for r in results),
        files_skipped=sum(r.status == "skipped" for r in results),
        documents=sum(r.documents for r in results),
        characters=sum(r.characters for r in results),
        counts=dict(sorted(counts.items())),
        residuals=sum(len(r.residuals) for r in results),
        seconds=seconds, cancelled=was_cancelled, link_map_path=link_path)
