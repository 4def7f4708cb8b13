"""Reviewer decisions on the cluster: ``deid redact --cluster`` (and table input) == ``deid redact``.

A small folder reviewed "in the app" (decision log: accept, reject, add,
relabel, reviewed marks, an undone decision, a CSV cell; the app's prediction
cache for one note holding a span the rules do not find) is redacted by the
local path and on Dask (LocalCluster, and in-process partitions): the files
are byte-identical, the audit's review block is the same and names no PHI,
``--unreviewed skip`` keeps the same documents, the originals are untouched,
a resume with other decisions is refused, and a task that cannot see the
decisions fails instead of redacting without them.
"""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from deid_engine.cli import main  # noqa: E402
from deid_engine.cluster.manifest import PlanMismatch  # noqa: E402
from deid_engine.cluster.review import ReviewRef, build_review_data  # noqa: E402
from deid_engine.cluster.run import connect, redact_folder, redact_table  # noqa: E402
from deid_engine.pipeline import build_pipeline  # noqa: E402
from deid_engine.redact.dates import shift_text  # noqa: E402
from deid_engine.redact.export import ExportContext, ExportOptions, _read, date_offset  # noqa: E402
from deid_engine.redact.keys import load_or_create_key  # noqa: E402
from deid_engine.review.decisions import DecisionLog, load_log  # noqa: E402
from deid_engine.review.store import FolderStore, pipeline_version  # noqa: E402
from deid_engine.types import Decision, Document, Span  # noqa: E402

A = "Pt John Smith seen 03/04/2021 at Mercy Hospital. Call 617-555-0199. Nickname Zorbquell.\n"
B = "Follow up with Dr. Alan Grant on 5/6/2022. Email alan@example.org.\n"
C = "Pt Robert Paulson, 54 yo, admitted from Springfield on 2/2/2020.\n"
E = "Mother Clara Oswin called 555-201-3344 about the visit on 7/8/2023.\n"
F = "Seen on Wednesday by the night nurse Bobbie at Lakeside Clinic, room 12.\n"
CSV = ("id,note\n"
       "1,Patient nickname Zorbquell came in today with her husband and was seen by Dr. Alan Grant.\n"
       "2,Follow up in two weeks with the nurse practitioner for a wound check and dressing change.\n"
       "3,Mother Clara Oswin called about the dressing change and will bring her on Monday.\n")
PHI = ("John", "Smith", "Zorbquell", "Mercy", "617-555", "Alan", "Grant", "alan@", "03/04/2021", "Robert",
       "Paulson", "Springfield", "Clara", "Oswin", "555-201", "Bobbie", "Lakeside", "Wednesday")
RULES = ["--detectors", "rules"]


def at(text: str, needle: str) -> tuple[int, int]:
    i = text.index(needle)
    return i, i + len(needle)


def dec(text: str, needle: str, verdict: str, label: str, previous: str = "") -> Decision:
    a, b = at(text, needle)
    return Decision(Document(text).doc_id, Span(a, b, label, "user:review"), verdict, time.time(), "t", previous)


def cell(folder: Path, needle: str) -> str:
    (text,) = [d.text for d in _read(folder / "d.csv", ExportOptions()) if needle in d.text]
    return text


def tree(d: Path) -> dict[str, bytes]:
    """Output files, without the audit and the run state."""
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*"))
            if p.is_file() and ".deid-run" not in p.parts and not p.name.startswith("audit.")}


def everything(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def audit(d: Path) -> dict:
    return json.loads((d / "audit.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def client():
    with connect("local:2") as c:
        yield c


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("reviewed") / "notes"
    (d / "sub").mkdir(parents=True)
    for name, text in (("a.txt", A), ("b.txt", B), ("f.txt", F), ("sub/c.txt", C), ("sub/e.txt", E),
                       ("d.csv", CSV)):
        (d / name).write_text(text, encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def log_path(folder, tmp_path_factory) -> Path:
    """The reviewer's log: accept, reject, add, relabel; marks; an undone decision; a document elsewhere."""
    preds = {(s.start, s.end): s.label for s in build_pipeline("rules", "en").run(Document(A))}
    assert preds.get(at(A, "Mercy Hospital")) == "HOSPITAL" and preds.get(at(A, "617-555-0199")) == "PHONE"
    path = tmp_path_factory.mktemp("log") / "decisions.jsonl"
    log = DecisionLog(path)
    log.append([dec(A, "Mercy Hospital", "reject", "HOSPITAL"),
                dec(A, "Zorbquell", "add", "RELATIVE"),
                dec(A, "617-555-0199", "relabel", "IDNUM", previous="PHONE"),
                dec(B, "Alan Grant", "accept", "DOCTOR"),
                dec(cell(folder, "Zorbquell"), "Zorbquell", "add", "PATIENT"),
                dec("A note in another folder about Ann Lee.", "Ann Lee", "add", "PATIENT")])
    undone = log.append([dec(C, "Springfield", "reject", "CITY")])
    log.undo(undone)  # C stays untouched
    log.mark(Document(E).doc_id, "reviewed")
    log.mark(Document(F).doc_id, "reviewed")
    log.mark(Document(cell(folder, "Clara Oswin")).doc_id, "reviewed")
    log.close()
    return path


def app_cache(folder: Path) -> None:
    """The app's prediction cache (this user dir) for F holds a span the rules do not find: 'Wednesday'."""
    pipe = build_pipeline("rules", "en").load()
    spans = sorted([*pipe.run(Document(F)), Span(*at(F, "Wednesday"), "DATE", "tagger:en")],
                   key=lambda s: s.start)
    FolderStore(folder.resolve()).append_predictions([(Document(F).doc_id, tuple(spans))], pipeline_version(pipe))


def redact(src: Path, out: Path, log: Path, *extra: str) -> int:
    decisions = [] if "--no-decisions" in extra else ["--decisions", str(log)]
    return main(["redact", str(src), str(out), *RULES, *decisions, *extra])


# --- folder: CLI, local == cluster ------------------------------------------------------------

@pytest.mark.parametrize("operator", ["surrogate", "tag"])
def test_cli_cluster_equals_local_with_decisions(folder, log_path, tmp_path, capsys, operator):
    before = everything(folder)
    app_cache(folder)
    op = ["--operator", operator]
    assert redact(folder, tmp_path / "local", log_path, *op) == 0
    local_err = capsys.readouterr().err
    assert redact(folder, tmp_path / "cluster", log_path, *op, "--cluster", "local:2", "--partition-size", "2") == 0
    cap = capsys.readouterr()
    assert redact(folder, tmp_path / "plain", log_path, *op, "--no-decisions") == 0
    local, clustered, plain = tree(tmp_path / "local"), tree(tmp_path / "cluster"), tree(tmp_path / "plain")
    assert sorted(local) == ["a.txt", "b.txt", "d.csv", "f.txt", "sub/c.txt", "sub/e.txt"]
    assert clustered == local  # byte-identical
    # the decisions changed the output: reject kept, add/relabel applied, the cached span used
    a = local["a.txt"].decode("utf-8")
    assert "Mercy Hospital" in a and "Zorbquell" not in a and "617-555-0199" not in a
    assert "Mercy Hospital" not in plain["a.txt"].decode("utf-8") and "Zorbquell" in plain["a.txt"].decode("utf-8")
    # the app's cached span ('Wednesday', DATE) used: one more DATE replacement in f.txt than without decisions
    lf, pf = local["f.txt"].decode("utf-8"), plain["f.txt"].decode("utf-8")
    dates = {n: {f["path"]: f["counts"].get("DATE", 0) for f in audit(tmp_path / n)["files"]} for n in ("local", "plain")}
    assert dates["local"]["f.txt"] == dates["plain"]["f.txt"] + 1 and "Wednesday" in pf
    if operator == "tag":
        assert lf == pf.replace("Wednesday", "[DATE]")
    else:  # date-shifted by this key's offset (random key: 1 in 7 is a multiple of 7 days, keeping 'Wednesday')
        opts = ExportOptions(operator="surrogate", date_shift="per_patient", detectors="rules")
        (doc,) = _read(folder / "f.txt", opts)
        offset, _ = date_offset(doc, ExportContext.create(opts))
        assert lf == pf.replace("Wednesday", shift_text("Wednesday", offset)), offset
    assert "Zorbquell" not in local["d.csv"].decode("utf-8") and "Zorbquell" in plain["d.csv"].decode("utf-8")
    if operator == "tag":
        assert "Call [ID]." in a and "Call [CONTACT]." in plain["a.txt"].decode("utf-8")
    assert local["sub/c.txt"] == plain["sub/c.txt"]  # untouched (its only decision was undone)
    # the audits say the same about the review
    la, ca = audit(tmp_path / "local"), audit(tmp_path / "cluster")
    assert la["review"] == ca["review"]
    assert ca["review"]["decisions"] == "applied" and ca["review"]["documents_with_decisions"] == 6
    assert ca["review"]["predictions_from_cache"] == 1 and ca["review"]["predictions_tagged"] == 5
    assert {f["path"]: f["reviewed_documents"] for f in ca["files"]} == \
        {f["path"]: f["reviewed_documents"] for f in la["files"]} == \
        {"a.txt": 1, "b.txt": 1, "d.csv": 2, "f.txt": 1, "sub/c.txt": 0, "sub/e.txt": 1}
    assert ca["cluster"]["partitions"] == 3 and ca["cluster"]["review_documents_shipped"] == 7
    assert "applied to 6 document(s) in 5 file(s)" in local_err and "applied to 6 document(s) in 5 file(s)" in cap.err
    assert everything(folder) == before  # originals untouched
    out = tmp_path / "cluster"
    texts = [cap.err, cap.out, local_err] + [p.read_text(encoding="utf-8") for p in
                                            [out / "audit.json", out / "audit.html", *(out / ".deid-run").rglob("*.json")]]
    for text in texts:
        for phi in PHI:
            assert phi not in text, phi


# --- folder: API, in-process and on the cluster; --unreviewed skip ----------------------------

def test_unreviewed_skip_same_documents_on_the_cluster(folder, log_path, tmp_path, client):
    assert redact(folder, tmp_path / "local", log_path, "--unreviewed", "skip") == 0
    key = load_or_create_key()
    index = load_log(log_path)
    opts = ExportOptions(detectors="rules", unreviewed="skip")
    data = build_review_data(index, reviewed_only=True, cache_folder=folder.resolve(), log_name=log_path.name)
    assert data.documents == 3  # only the marked documents are shipped
    for name, cl in (("inproc", None), ("dask", client)):
        res = redact_folder(folder, tmp_path / name, opts, key=key, cluster=cl, files_per_partition=2,
                            progress=False, review=data)
        assert res.complete
        assert tree(tmp_path / name) == tree(tmp_path / "local")
        assert audit(tmp_path / name)["review"] == audit(tmp_path / "local")["review"]
    assert sorted(tree(tmp_path / "local")) == ["f.txt", "sub/e.txt"]  # d.csv has an unreviewed cell
    status = {f["path"]: f["status"] for f in audit(tmp_path / "dask")["files"]}
    assert status == {f["path"]: f["status"] for f in audit(tmp_path / "local")["files"]}
    assert audit(tmp_path / "dask")["review"]["reviewed_only"] is True


def test_resume_needs_the_same_decisions(folder, log_path, tmp_path):
    key = load_or_create_key()
    opts = ExportOptions(detectors="rules", operator="tag")
    data = build_review_data(load_log(log_path), reviewed_only=False, cache_folder=folder.resolve())
    clean = redact_folder(folder, tmp_path / "clean", opts, key=key, files_per_partition=2, progress=False,
                          review=data)
    first = redact_folder(folder, tmp_path / "out", opts, key=key, files_per_partition=2, progress=False,
                          review=data, max_partitions=1)
    assert clean.complete and not first.complete
    more = tmp_path / "more.jsonl"
    more.write_bytes(log_path.read_bytes())
    log = DecisionLog(more)
    log.append([dec(C, "Springfield", "reject", "CITY")])
    log.close()
    other = build_review_data(load_log(more), reviewed_only=False, cache_folder=folder.resolve())
    assert other.fingerprint != data.fingerprint
    with pytest.raises(PlanMismatch, match="another"):
        redact_folder(folder, tmp_path / "out", opts, key=key, files_per_partition=2, progress=False, review=other)
    with pytest.raises(PlanMismatch):  # dropping the decisions is a change too
        redact_folder(folder, tmp_path / "out", opts, key=key, files_per_partition=2, progress=False)
    second = redact_folder(folder, tmp_path / "out", opts, key=key, files_per_partition=2, progress=False,
                           review=data)
    assert second.complete and len(second.partitions_skipped) == 1
    assert tree(tmp_path / "out") == tree(tmp_path / "clean")
    assert audit(tmp_path / "out")["review"] == audit(tmp_path / "clean")["review"]


def test_a_task_without_the_decisions_fails_instead_of_ignoring_them(folder, tmp_path):
    from deid_engine.cluster.folder import plan_folder, run_folder_partition
    from deid_engine.cluster.task import TaskContext

    plan = plan_folder(folder.resolve(), None, False, 2)
    tctx = TaskContext(ExportOptions(detectors="rules"), b"k" * 32, "rules", "en", str(folder.resolve()),
                       str(tmp_path / "out"), review=ReviewRef("deid-review-missing", "0" * 32, 3))
    with pytest.raises(RuntimeError, match="not available"):
        run_folder_partition(plan["partitions"][0], tctx)
    assert not (tmp_path / "out").exists()


def test_review_payload_holds_only_touched_documents_and_no_text(folder, log_path):
    index = load_log(log_path)
    data = build_review_data(index, reviewed_only=False, cache_folder=folder.resolve())
    ids = {Document(t).doc_id for t in (A, B, E, F, cell(folder, "Zorbquell"), cell(folder, "Clara Oswin"),
                                          "A note in another folder about Ann Lee.")}
    assert set(data.decisions) | set(data.marks) == ids  # not C: its decision was undone
    assert Document(C).doc_id not in data.decisions
    assert "Decision" not in repr(data) and "617" not in repr(data) and repr(data).startswith("ReviewData(7 ")
    blob = json.dumps({k: [d.to_json() for d in v] for k, v in data.decisions.items()})
    for phi in PHI:
        assert phi not in blob
    marked = build_review_data(index, reviewed_only=True, cache_folder=folder.resolve())
    assert set(marked.decisions) | set(marked.marks) == {Document(t).doc_id for t in
                                                         (E, F, cell(folder, "Clara Oswin"))}
    assert marked.fingerprint != data.fingerprint


# --- table input ----------------------------------------------------------------------------------

def table_rows(d: Path) -> dict[str, dict]:
    rows = {}
    for p in sorted(d.glob("part-*.csv")):
        for r in csv.DictReader(io.StringIO(p.read_text(encoding="utf-8"))):
            rows[r["id"]] = r
    return rows


def test_table_rows_get_the_cells_reviewed_spans(folder, log_path, tmp_path, client):
    """d.csv as a table: the reviewed cell is redacted exactly as in the folder export; cluster == in-process."""
    src = folder / "d.csv"
    tag = ["--operator", "tag", "--id-column", "id", "--text-column", "note", "--partition-size", "2"]
    assert redact(folder, tmp_path / "folder", log_path, "--operator", "tag") == 0
    assert redact(src, tmp_path / "table", log_path, *tag) == 0
    assert redact(src, tmp_path / "plain", log_path, *tag, "--no-decisions") == 0
    exported = list(csv.DictReader(io.StringIO((tmp_path / "folder" / "d.csv").read_text(encoding="utf-8"))))
    rows, plain = table_rows(tmp_path / "table"), table_rows(tmp_path / "plain")
    assert [rows[r["id"]]["note"] for r in exported] == [r["note"] for r in exported]
    assert "Zorbquell" not in rows["1"]["note"] and "Zorbquell" in plain["1"]["note"]
    assert rows["2"] == plain["2"]
    rep = audit(tmp_path / "table")
    assert rep["review"]["decisions"] == "applied" and rep["review"]["documents_with_decisions"] == 2
    key = load_or_create_key()
    opts = ExportOptions(detectors="rules", operator="tag", date_shift="none")
    data = build_review_data(load_log(log_path), reviewed_only=False, cache_folder=folder.resolve())
    res = redact_table(src, tmp_path / "dask", opts, id_column="id", text_column="note", key=key, cluster=client,
                       rows_per_partition=2, progress=False, review=data)
    assert res.complete and tree(tmp_path / "dask") == tree(tmp_path / "table")
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(list(csv.DictReader(io.StringIO(CSV)))), tmp_path / "d.parquet")
    res = redact_table(tmp_path / "d.parquet", tmp_path / "pq", opts, id_column="id", text_column="note", key=key,
                       progress=False, review=data)
    got = {r["id"]: r["note"] for r in pq.read_table(tmp_path / "pq" / "part-000000.parquet").to_pylist()}
    assert res.complete and got == {k: r["note"] for k, r in rows.items()}
    text = (tmp_path / "table" / "audit.json").read_text(encoding="utf-8") + \
        (tmp_path / "table" / "manifest.json").read_text(encoding="utf-8")
    for phi in PHI:
        assert phi not in text


def test_table_unreviewed_skip_keeps_only_reviewed_rows(folder, log_path, tmp_path, capsys):
    src = folder / "d.csv"
    assert redact(src, tmp_path / "out", log_path, "--operator", "tag", "--id-column", "id", "--text-column", "note",
                  "--unreviewed", "skip") == 0
    rows = table_rows(tmp_path / "out")
    assert sorted(rows) == ["3"]  # the only row marked reviewed
    assert "Clara" not in rows["3"]["note"]
    man = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert man["rows_in"] == 3 and man["rows_written"] == 1 and man["rows_skipped"] == 2 and man["rows_failed"] == 0
    assert [(s["id"], s["reason"]) for s in man["skipped"]] == [("1", "not reviewed (unreviewed=skip)"),
                                                                ("2", "not reviewed (unreviewed=skip)")]
    rep = audit(tmp_path / "out")
    assert rep["review"]["reviewed_only"] is True
    assert [s["id"] for s in rep["records_skipped"]] == ["1", "2"] and rep["records_failed"] == []
    assert "2 row(s) skipped (not reviewed" in capsys.readouterr().out


def test_killed_worker_gets_the_decisions_again_and_payload_is_withdrawn(folder, log_path, tmp_path, client):
    key = load_or_create_key()
    opts = ExportOptions(detectors="rules", operator="tag")
    data = build_review_data(load_log(log_path), reviewed_only=False, cache_folder=folder.resolve())
    clean = redact_folder(folder, tmp_path / "clean", opts, key=key, files_per_partition=2, progress=False,
                          review=data)
    marker = tmp_path / "crashed"
    res = redact_folder(folder, tmp_path / "out", opts, key=key, cluster=client, files_per_partition=2,
                        progress=False, review=data, crash_once=(str(marker), 1))
    assert marker.exists(), "the worker was not killed"
    assert clean.complete and res.complete and not res.partitions_failed
    assert tree(tmp_path / "out") == tree(tmp_path / "clean")  # the restarted worker had the decisions
    assert audit(tmp_path / "out")["review"] == audit(tmp_path / "clean")["review"]
    plugins = client.run(lambda dask_worker: sorted(dask_worker.plugins))
    assert plugins and not any(n.startswith("deid-review-") for names in plugins.values() for n in names)
