"""``deid redact`` applies the reviewer's saved decisions exactly as the app's export does."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from deid_engine.cli import main
from deid_engine.pipeline import build_pipeline
from deid_engine.redact.export import ExportOptions, _read, list_export_files
from deid_engine.review.decisions import DecisionLog, default_log_path, load_log
from deid_engine.types import Decision, Document, Span

A = "Pt John Smith seen 03/04/2021 at Mercy Hospital. Call 617-555-0199. Nickname Zorbquell.\n"
B = "Follow up with Dr. Alan Grant on 5/6/2022. Email alan@example.org.\n"
CSV = ("id,note\n"
       "1,Patient nickname Zorbquell came in today with her husband and was seen by Dr. Alan Grant.\n"
       "2,Follow up in two weeks with the nurse practitioner for a wound check and dressing change.\n")
PHI = ("John", "Smith", "Zorbquell", "Mercy", "617-555", "Alan", "Grant", "alan@", "03/04/2021")


def at(text: str, needle: str) -> tuple[int, int]:
    i = text.index(needle)
    return i, i + len(needle)


def rules_spans(text: str) -> list[Span]:
    return build_pipeline("rules", "en").run(Document(text))


def decide(log: DecisionLog, text: str, needle: str, verdict: str, label: str, previous: str = "") -> None:
    a, b = at(text, needle)
    log.append([Decision(Document(text).doc_id, Span(a, b, label, "user:review"), verdict, time.time(), "t",
                         previous)])


@pytest.fixture
def folder(tmp_path) -> Path:
    d = tmp_path / "notes"
    d.mkdir()
    (d / "a.txt").write_text(A, encoding="utf-8")
    (d / "b.txt").write_text(B, encoding="utf-8")
    (d / "c.csv").write_text(CSV, encoding="utf-8")
    return d


def csv_cell(folder: Path, needle: str) -> str:
    docs = _read(folder / "c.csv", ExportOptions())
    (text,) = [d.text for d in docs if needle in d.text]
    return text


def review(folder: Path, log: DecisionLog | None = None) -> DecisionLog:
    """A reviewer's session: reject a hospital, add a missed name, relabel a phone, add in a CSV cell."""
    preds = {(s.start, s.end): s.label for s in rules_spans(A)}
    assert preds.get(at(A, "Mercy Hospital")) == "HOSPITAL"  # fixture preconditions
    assert preds.get(at(A, "617-555-0199")) == "PHONE"
    za, zb = at(A, "Zorbquell")
    assert not any(a < zb and za < b for a, b in preds)
    log = log or DecisionLog()
    decide(log, A, "Mercy Hospital", "reject", "HOSPITAL")
    decide(log, A, "Zorbquell", "add", "RELATIVE")
    decide(log, A, "617-555-0199", "relabel", "IDNUM", previous="PHONE")
    cell = csv_cell(folder, "Zorbquell")
    decide(log, cell, "Zorbquell", "add", "PATIENT")
    log.close()
    return log


def redact(folder: Path, out: Path, *extra: str) -> int:
    return main(["redact", str(folder), str(out), "--detectors", "rules", "--operator", "tag", *extra])


def tree(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_decisions_applied_by_default(folder, tmp_path, capsys):
    before = tree(folder)
    review(folder)
    capsys.readouterr()
    assert redact(folder, tmp_path / "out") == 0
    err = capsys.readouterr().err
    assert redact(folder, tmp_path / "plain", "--no-decisions") == 0
    out = (tmp_path / "out" / "a.txt").read_text(encoding="utf-8")
    plain = (tmp_path / "plain" / "a.txt").read_text(encoding="utf-8")
    # rejected prediction kept, added span redacted, relabel changes the tag
    assert "Mercy Hospital" in out and "Mercy Hospital" not in plain
    assert "Zorbquell" not in out and "Zorbquell" in plain
    assert "617-555-0199" not in out and "Call [ID]." in out and "Call [CONTACT]." in plain
    assert "John Smith" not in out and "03/04/2021" not in out  # pending predictions still redacted
    # a note without decisions is redacted exactly as before (and as with --no-decisions)
    assert (tmp_path / "out" / "b.txt").read_bytes() == (tmp_path / "plain" / "b.txt").read_bytes()
    # the CSV cell's doc_id is the extracted cell's, as in the app
    assert "Zorbquell" not in (tmp_path / "out" / "c.csv").read_text(encoding="utf-8")
    assert "Zorbquell" in (tmp_path / "plain" / "c.csv").read_text(encoding="utf-8")
    assert tree(folder) == before  # originals untouched
    report = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    assert report["review"]["decisions"] == "applied" and report["review"]["documents_with_decisions"] == 2
    per_file = {f["path"]: f["reviewed_documents"] for f in report["files"]}
    assert per_file == {"a.txt": 1, "b.txt": 0, "c.csv": 1}
    plain_report = json.loads((tmp_path / "plain" / "audit.json").read_text(encoding="utf-8"))
    assert plain_report["review"]["documents_with_decisions"] == 0
    assert plain_report["review"]["decisions"].startswith("ignored")
    assert "applied to 2 document(s) in 2 file(s)" in err
    for text in (err, (tmp_path / "out" / "audit.json").read_text(encoding="utf-8"),
                 (tmp_path / "out" / "audit.html").read_text(encoding="utf-8")):
        for phi in PHI:
            assert phi not in text


def test_same_spans_as_the_apps_session(folder, tmp_path, capsys):
    """The CLI's overrides equal ``ReviewSession.overrides()`` after the app scanned the folder."""
    from deid_engine.review.apply import review_overrides
    from deid_engine.review.session import ReviewSession
    from deid_engine.review.store import FolderStore, ReadDocument, TaggedItem, scan_folder

    review(folder)
    log = DecisionLog()
    pipe = build_pipeline("rules", "en")
    session = ReviewSession(folder, log, load_log(log.path), FolderStore(folder))
    for item in scan_folder(folder, pipe, session.store):
        if isinstance(item, ReadDocument):
            session.add_document(item.key, item.document, item.cached)
        elif isinstance(item, TaggedItem):
            session.set_predictions(item.key, item.spans)
    app = session.overrides()
    options = ExportOptions(detectors="rules")
    files, _ = list_export_files(folder.resolve())
    for use_cache in (True, False):  # from the app's prediction cache, or tagged again: same spans
        ro = review_overrides(folder.resolve(), lambda p: _read(p, options), files, load_log(log.path),
                              lambda: build_pipeline("rules", "en").load(), use_cache=use_cache)
        assert ro.overrides == app and len(app) == 2
        assert (ro.from_cache, ro.tagged) == ((2, 0) if use_cache else (0, 2))
    assert session.overrides(reviewed_only=True) == {}
    capsys.readouterr()
    assert redact(folder, tmp_path / "out") == 0  # the CLI reads the app's cache too
    assert "predictions 2 from the review cache, 0 tagged now" in capsys.readouterr().err


def test_reviewed_mark_and_unreviewed_skip(folder, tmp_path):
    log = DecisionLog()
    decide(log, A, "Mercy Hospital", "reject", "HOSPITAL")  # decided, not marked reviewed
    log.mark(Document(B).doc_id, "reviewed")  # marked reviewed without a decision
    log.close()
    assert redact(folder, tmp_path / "all") == 0
    assert redact(folder, tmp_path / "plain", "--no-decisions") == 0
    # a mark alone: its predictions are the final spans
    assert (tmp_path / "all" / "b.txt").read_bytes() == (tmp_path / "plain" / "b.txt").read_bytes()
    assert "Mercy Hospital" in (tmp_path / "all" / "a.txt").read_text(encoding="utf-8")
    # --unreviewed skip (as the app): only documents marked reviewed are exported
    assert redact(folder, tmp_path / "skip", "--unreviewed", "skip") == 0
    assert sorted(tree(tmp_path / "skip")) == ["audit.html", "audit.json", "b.txt"]
    report = json.loads((tmp_path / "skip" / "audit.json").read_text(encoding="utf-8"))
    assert report["review"]["reviewed_only"] is True
    assert {f["path"]: f["status"] for f in report["files"]} == {"a.txt": "skipped", "b.txt": "ok",
                                                                  "c.csv": "skipped"}


def test_decisions_path_and_jobs(folder, tmp_path, capsys):
    other = tmp_path / "elsewhere" / "log.jsonl"
    other.parent.mkdir()
    review(folder, DecisionLog(other))
    assert not load_log(default_log_path()).decisions  # the default log is empty
    assert redact(folder, tmp_path / "default") == 0
    assert "Zorbquell" in (tmp_path / "default" / "a.txt").read_text(encoding="utf-8")
    assert redact(folder, tmp_path / "one", "--decisions", str(other)) == 0
    assert redact(folder, tmp_path / "two", "--decisions", str(other), "--jobs", "2") == 0
    one, two = tree(tmp_path / "one"), tree(tmp_path / "two")
    assert "Zorbquell" not in one["a.txt"].decode("utf-8")
    assert {k: v for k, v in one.items() if not k.startswith("audit")} == \
        {k: v for k, v in two.items() if not k.startswith("audit")}
    capsys.readouterr()
    assert redact(folder, tmp_path / "x", "--decisions", str(tmp_path / "missing.jsonl")) == 2
    assert "does not exist" in capsys.readouterr().err


def test_stale_reject_and_out_of_range_decisions_are_harmless(folder, tmp_path):
    log = DecisionLog()
    doc_id = Document(A).doc_id
    log.append([Decision(doc_id, Span(0, 2, "OTHER"), "reject"),  # no prediction there
                Decision(doc_id, Span(5, 5000, "OTHER"), "add")])  # past the end: ignored
    log.close()
    assert redact(folder, tmp_path / "out") == 0
    assert redact(folder, tmp_path / "plain", "--no-decisions") == 0
    assert tree(tmp_path / "out")["a.txt"] == tree(tmp_path / "plain")["a.txt"]


def test_cluster_applies_decisions_too(folder, tmp_path, capsys):
    """--cluster no longer refuses: same files as the local path (details in tests/test_cluster_decisions.py)."""
    review(folder)
    assert redact(folder, tmp_path / "local") == 0
    capsys.readouterr()
    assert redact(folder, tmp_path / "out", "--cluster", "local:1") == 0
    err = capsys.readouterr().err
    assert "applied to 2 document(s) in 2 file(s)" in err
    got = {k: v for k, v in tree(tmp_path / "out").items() if not k.startswith((".deid-run", "audit."))}
    assert got == {k: v for k, v in tree(tmp_path / "local").items() if not k.startswith("audit.")}
    for phi in PHI:
        assert phi not in err
