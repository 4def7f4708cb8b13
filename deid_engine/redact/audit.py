"""The audit report of an export: ``audit.json`` and a readable ``audit.html``.

It records what was done, never what was removed: files (relative paths,
status, per-category counts, input/output sha256), options, model and lexicon
versions, review decisions applied, verification residuals (offsets, label,
detector -- no text), the project key's fingerprint, app version, timings.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import os
import platform
from pathlib import Path
from typing import Any, Sequence

REPORT_FORMAT = "deid-audit-1"


def app_version() -> str:
    try:
        from importlib.metadata import version

        return version("deid-studio")
    except Exception:
        return "0.1.0"


def _lexicon_version() -> str | None:
    try:
        from ..lexicons import lexicon_version

        return lexicon_version()
    except Exception:
        return None


def build_report(results: Sequence[Any], ctx: Any, *, in_dir: Path, ignored_files: int, seconds: float,
                 jobs: int, cancelled: bool, pipeline_problem: str = "", link_map: str | None = None,
                 review: dict | None = None) -> dict:
    """The report as a JSON-able dict (no PHI: counts, hashes, offsets, versions).

    ``review``: extra no-PHI facts for the ``review`` block (``deid redact``
    records whether and from which log reviewer decisions were applied).
    """
    files = [r.report() for r in results]
    counts: dict[str, int] = {}
    for r in results:
        for k, v in r.counts.items():
            counts[k] = counts.get(k, 0) + v
    residuals = [{"file": r.path, **x} for r in results for x in r.residuals]
    chars = sum(r.characters for r in results)
    ok = [r for r in results if r.status == "ok"]
    pipeline = None
    if ctx.pipeline is not None:
        try:
            pipeline = ctx.pipeline.describe()
        except Exception:
            pipeline = {"pipeline": getattr(ctx.pipeline, "name", "?")}
    for f in files:
        f["residuals"] = len(f["residuals"])
    return {
        "format": REPORT_FORMAT,
        "app": {"name": "DeID Studio", "version": app_version(), "python": platform.python_version()},
        "created": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "input_folder": in_dir.name,
        "status": "cancelled" if cancelled else "complete",
        "options": ctx.options.public(),
        "key_fingerprint": ctx.key_fingerprint,
        "pipeline": pipeline,
        "pipeline_problem": pipeline_problem,
        "lexicon_version": _lexicon_version(),
        "review": {
            "documents_with_decisions": sum(r.reviewed_documents for r in results),
            "spans_from_review": sum(r.review_spans for r in results),
            **(review or {}),
        },
        "totals": {
            "files": len(results),
            "files_ok": len(ok),
            "files_failed": sum(r.status == "failed" for r in results),
            "files_skipped": sum(r.status == "skipped" for r in results),
            "files_ignored_unsupported": ignored_files,
            "documents": sum(r.documents for r in results),
            "characters": chars,
            "replacements": sum(counts.values()),
            "counts": dict(sorted(counts.items())),
        },
        "verification": {
            "ran": any(r.verified for r in results),
            "residual_candidates": len(residuals),
            "note": "detections on the output that do not lie inside a replacement; review these",
            "residuals": residuals,
        },
        "timings": {
            "seconds": round(seconds, 3),
            "jobs": jobs,
            "files_per_second": round(len(results) / seconds, 2) if seconds > 0 else None,
            "chars_per_second": round(chars / seconds, 1) if seconds > 0 else None,
        },
        "link_map": link_map,
        "files": files,
    }


def render_html(report: dict) -> str:
    """A self-contained readable page of the report."""
    e = lambda v: html.escape(str(v))  # noqa: E731
    t = report["totals"]
    rows = []
    for f in report["files"]:
        counts = ", ".join(f"{k} {v}" for k, v in f["counts"].items())
        rows.append(
            f"<tr class='{e(f['status'])}'><td>{e(f['path'])}</td><td>{e(f['status'])}</td><td>{e(f['reason'] or f['note'])}</td>"
            f"<td>{f['documents']}</td><td>{f.get('reviewed_documents', 0)}</td><td>{e(counts)}</td><td>{f['residuals']}</td>"
            f"<td><code>{e(f['input_sha256'][:16])}</code></td><td><code>{e(f['output_sha256'][:16])}</code></td></tr>")
    res_rows = [f"<tr><td>{e(x['file'])}</td><td>{e(x.get('document', ''))}</td><td>{x['start']}–{x['end']}</td>"
                f"<td>{e(x['label'])}</td><td>{e(x['detector'])}</td></tr>"
                for x in report["verification"]["residuals"][:2000]]
    opts = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in report["options"].items())
    counts = "".join(f"<tr><th>{e(k)}</th><td>{v}</td></tr>" for k, v in t["counts"].items())
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>DeID Studio export audit</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse;margin:1em 0}}
td,th{{border:1px solid #bbb;padding:.25em .5em;text-align:left;vertical-align:top}}
tr.failed{{background:#fdd}}tr.skipped{{background:#ffd}}</style></head><body>
<h1>Export audit</h1>
<p>Status: <b>{e(report['status'])}</b> · created {e(report['created'])} · DeID Studio {e(report['app']['version'])}
· key fingerprint <code>{e(report['key_fingerprint'])}</code> · lexicons {e(report['lexicon_version'])}</p>
<p>Files: {t['files_ok']} exported, {t['files_failed']} failed, {t['files_skipped']} skipped,
{t['files_ignored_unsupported']} unsupported files left out. Documents: {t['documents']},
replacements: {t['replacements']}. Review decisions applied to {report['review']['documents_with_decisions']}
document(s) ({report['review']['spans_from_review']} spans). Time: {report['timings']['seconds']} s
with {report['timings']['jobs']} job(s).</p>
<h2>Options</h2><table>{opts}</table>
<h2>Pipeline</h2><pre>{e(json.dumps(report['pipeline'], indent=2))}</pre>{e(report['pipeline_problem'])}
<h2>Replacements by label</h2><table>{counts}</table>
<h2>Verification</h2><p>{report['verification']['residual_candidates']} residual candidate(s):
{e(report['verification']['note'])}.</p>
<table><tr><th>file</th><th>document</th><th>offsets</th><th>label</th><th>detector</th></tr>{''.join(res_rows)}</table>
<h2>Files</h2>
<table><tr><th>file</th><th>status</th><th>note</th><th>docs</th><th>reviewed docs</th><th>replacements</th><th>residuals</th>
<th>input sha256</th><th>output sha256</th></tr>{''.join(rows)}</table>
</body></html>
"""


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_report(out_dir: Path, report: dict) -> tuple[Path, Path]:
    """Write ``audit.json`` and ``audit.html`` atomically; return their paths."""
    from .export import AUDIT_HTML, AUDIT_JSON

    j, h = Path(out_dir) / AUDIT_JSON, Path(out_dir) / AUDIT_HTML
    _write(j, json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    _write(h, render_html(report))
    return j, h
