"""Cluster runs (deid_engine.cluster) on a LocalCluster of 2 worker processes, rules preset.

One cluster for the whole module. Checks: byte-identical to the single-process
path (folder and table), consistent surrogates/date shifts across workers and
runs, a killed worker loses nothing, resume after an interruption, bad rows
reported while the rest is written, the key never written anywhere.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("distributed")
pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

from deid_engine.cluster.manifest import RunState  # noqa: E402
from deid_engine.cluster.run import connect, redact_folder, redact_table  # noqa: E402
from deid_engine.cluster.table import csv_records  # noqa: E402
from deid_engine.redact.export import ExportOptions, export_folder  # noqa: E402
from deid_engine.redact.keys import fingerprint  # noqa: E402

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))
OPTIONS = ExportOptions(detectors="rules")

TEMPLATE = ("Seen {date} by Dr. Mary Jones at Quartermain Hospital, MRN {mrn}.\n"
            "Call 410-955-1234. Lives in Baltimore, age 67. Note {n}: stable, plan unchanged.\n")
SAME = "Follow-up 03/14/2091 with Dr. Mary Jones at Quartermain Hospital.\n"


def note(n: int) -> str:
    return TEMPLATE.format(date=f"0{1 + n % 9}/1{n % 10}/2091", mrn=4455000 + n, n=n)


@pytest.fixture(scope="module")
def client():
    with connect("local:2") as c:  # the production set-up: loopback, no dashboard, 1 thread per worker
        yield c


@pytest.fixture(scope="module")
def notes_dir(tmp_path_factory) -> Path:
    """14 notes of 3 patients in two sub-folders; every note also holds the same sentence ``SAME``."""
    d = tmp_path_factory.mktemp("notes")
    for n in range(14):
        pid = n % 3
        sub = d / ("icu" if n % 2 else "ward")
        sub.mkdir(exist_ok=True)
        (sub / f"p{pid:03d}-n{n:03d}.txt").write_text(note(n) + SAME, encoding="utf-8")
    (d / "ignored.bin").write_bytes(b"\x00\x01")
    return d


def files_of(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*"))
            if p.is_file() and ".deid-run" not in p.parts and not p.name.startswith("audit.")}


def audit_core(d: Path) -> dict:
    """audit.json without what legitimately differs between runs (time, worker count, cluster block)."""
    a = json.loads((d / "audit.json").read_text(encoding="utf-8"))
    for k in ("created", "timings", "cluster", "records_failed"):
        a.pop(k, None)
    for f in a["files"]:
        f.pop("seconds")
    return a


def table_rows(n: int = 23) -> list[dict]:
    return [{"note_id": f"n{i:03d}", "mrn": f"MRN{i % 4:04d}", "ward": "7B", "text": note(i) + SAME} for i in range(n)]


def write_csv(path: Path, rows: list[dict]) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), quoting=csv.QUOTE_MINIMAL)
        w.writeheader()
        w.writerows(rows)
    return path


@pytest.fixture(scope="module")
def single_folder(notes_dir, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("single") / "out"
    items = list(export_folder(notes_dir, out, OPTIONS, key=KEY))
    assert items[-1].files_ok == 14
    return out


@pytest.fixture(scope="module")
def cluster_folder(notes_dir, tmp_path_factory, client) -> Path:
    out = tmp_path_factory.mktemp("cluster") / "out"
    res = redact_folder(notes_dir, out, OPTIONS, key=KEY, cluster=client, files_per_partition=3, progress=False)
    assert res.complete and res.partitions == 5 and len(res.partitions_run) == 5
    return out


# --- one code path: byte-identical ----------------------------------------------------------

def test_folder_cluster_is_byte_identical_to_single_process(single_folder, cluster_folder):
    a, b = files_of(single_folder), files_of(cluster_folder)
    assert sorted(a) == sorted(b) and len(a) == 14
    assert a == b
    assert audit_core(single_folder) == audit_core(cluster_folder)
    rep = json.loads((cluster_folder / "audit.json").read_text(encoding="utf-8"))
    assert rep["cluster"]["workers"] == 2 and rep["status"] == "complete"
    assert rep["cluster"]["versions_match_client"] and len(rep["cluster"]["worker_versions"]) == 1
    assert rep["totals"]["files_ignored_unsupported"] == 1


def test_partitions_ran_on_both_workers_with_one_pipeline_load_each(cluster_folder):
    plan = RunState(cluster_folder).load_plan()
    recs = [RunState(cluster_folder).read_part(p["id"]) for p in plan["partitions"]]
    assert len({r["worker_pid"] for r in recs}) == 2
    assert all(r["pipeline_loads_in_process"] == 1 for r in recs)  # once per worker, not per task


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_table_cluster_is_byte_identical_to_single_process(tmp_path, client, fmt):
    rows = table_rows()
    if fmt == "csv":
        src = write_csv(tmp_path / "notes.csv", rows)
    else:
        src = tmp_path / "notes.parquet"
        pq.write_table(pa.Table.from_pylist(rows), src, row_group_size=10)
    kw = dict(id_column="note_id", text_column="text", patient_column="mrn", key=KEY, rows_per_partition=4,
              progress=False)
    single = redact_table(src, tmp_path / "single", OPTIONS, **kw)
    clustered = redact_table(src, tmp_path / "cluster", OPTIONS, cluster=client, **kw)
    assert single.complete and clustered.complete and clustered.workers == 2
    a, b = files_of(tmp_path / "single"), files_of(tmp_path / "cluster")
    assert a == b
    assert audit_core(tmp_path / "single") == audit_core(tmp_path / "cluster")
    man = json.loads((tmp_path / "cluster" / "manifest.json").read_text(encoding="utf-8"))
    assert man["rows_in"] == man["rows_written"] == 23 and man["complete"]
    parts = [tmp_path / "cluster" / p["path"] for p in man["partitions"]]
    if fmt == "csv":
        out = [r for p in parts for r in csv.DictReader(open(p, encoding="utf-8", newline=""))]
    else:
        out = [r for p in parts for r in pq.read_table(p).to_pylist()]
    assert [r["note_id"] for r in out] == [r["note_id"] for r in rows]
    assert all(r["ward"] == "7B" for r in out)
    for r in out:
        for phi in ("Mary Jones", "Quartermain", "410-955-1234", "Baltimore", "MRN000"):
            assert phi not in r["text"] and phi not in r["mrn"]
        assert r["mrn"].startswith("ID-")


# --- consistency without coordination -----------------------------------------------------

def _same_sentence(text: str) -> str:
    return text.splitlines()[-1]


def test_surrogates_and_shifts_identical_across_workers_and_runs(cluster_folder, notes_dir, tmp_path, client):
    outs = files_of(cluster_folder)
    by_patient: dict[str, set[str]] = {}
    for rel, data in outs.items():
        pid = re.search(r"(p\d+)-n", rel).group(1)
        by_patient.setdefault(pid, set()).add(_same_sentence(data.decode("utf-8")))
    # one patient -> one rendering of the shared sentence (same surrogate doctor/hospital, same shifted date),
    # although that patient's notes were processed by both workers
    assert all(len(v) == 1 for v in by_patient.values()), by_patient
    lines = {next(iter(v)) for v in by_patient.values()}
    assert len(lines) == 3  # per-patient shifts differ
    surrogate_doctor = {re.search(r"with (Dr\. [^,]+?) at", line).group(1) for line in lines}
    assert len(surrogate_doctor) == 1 and "Mary Jones" not in next(iter(surrogate_doctor))
    # another run, same key: identical; another key: different
    again = redact_folder(notes_dir, tmp_path / "again", OPTIONS, key=KEY, cluster=client, files_per_partition=5,
                          progress=False)
    assert again.complete and files_of(tmp_path / "again") == outs
    other = redact_folder(notes_dir, tmp_path / "other", OPTIONS, key=OTHER_KEY, cluster=client,
                          files_per_partition=3, progress=False)
    other_files = files_of(tmp_path / "other")
    assert other.complete and other_files.keys() == outs.keys()
    assert all(other_files[k] != outs[k] for k in outs)
    rep = json.loads((tmp_path / "other" / "audit.json").read_text(encoding="utf-8"))
    assert rep["key_fingerprint"] == fingerprint(OTHER_KEY)


def test_key_is_never_written(cluster_folder, tmp_path, client):
    src = write_csv(tmp_path / "t.csv", table_rows(6))
    redact_table(src, tmp_path / "o", OPTIONS, id_column="note_id", text_column="text", key=KEY, cluster=client,
                 rows_per_partition=2, progress=False)
    for d in (cluster_folder, tmp_path / "o"):
        for p in d.rglob("*"):
            if p.is_file():
                data = p.read_bytes()
                assert KEY not in data and KEY.hex().encode() not in data and KEY.hex().upper().encode() not in data


# --- faults ------------------------------------------------------------------------------------

def test_killed_worker_loses_nothing(notes_dir, cluster_folder, tmp_path, client):
    marker = tmp_path / "crashed"
    res = redact_folder(notes_dir, tmp_path / "out", OPTIONS, key=KEY, cluster=client, files_per_partition=3,
                        progress=False, crash_once=(str(marker), 2))
    assert marker.exists(), "the worker was not killed"
    assert res.complete and not res.partitions_failed
    out = files_of(tmp_path / "out")
    assert out == files_of(cluster_folder)  # every file exactly once, same bytes as a clean run
    assert not [p for p in (tmp_path / "out").rglob("*.part")]
    assert audit_core(tmp_path / "out") == audit_core(cluster_folder)


def test_resume_skips_complete_partitions_and_equals_clean_run(tmp_path, client):
    src = write_csv(tmp_path / "notes.csv", table_rows())
    kw = dict(id_column="note_id", text_column="text", patient_column="mrn", key=KEY, rows_per_partition=4,
              progress=False)
    clean = redact_table(src, tmp_path / "clean", OPTIONS, cluster=client, **kw)
    first = redact_table(src, tmp_path / "out", OPTIONS, cluster=client, max_partitions=2, **kw)
    assert not first.complete and len(first.partitions_run) == 2
    man = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert not man["complete"] and len(man["partitions"]) == 2
    audit = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    assert audit["status"] == "cancelled"
    # a worker killed while writing leaves a temp file; a damaged output is redone
    done = sorted(first.partitions_run)
    victim = tmp_path / "out" / f"part-{done[0]:06d}.csv"
    victim.write_bytes(victim.read_bytes()[:10])
    todo = min(set(range(6)) - set(done))
    (tmp_path / "out" / f".part-{todo:06d}.csv.999.part").write_bytes(b"half")
    second = redact_table(src, tmp_path / "out", OPTIONS, cluster=client, **kw)
    assert second.complete
    assert second.partitions_skipped == [done[1]]
    assert sorted(second.partitions_run) == sorted(set(range(6)) - {done[1]})
    assert files_of(tmp_path / "out") == files_of(tmp_path / "clean")
    assert audit_core(tmp_path / "out") == audit_core(tmp_path / "clean")
    third = redact_table(src, tmp_path / "out", OPTIONS, cluster=client, **kw)
    assert third.partitions_run == [] and len(third.partitions_skipped) == 6 and clean.complete


def test_resume_refuses_other_options_or_key(tmp_path):
    src = write_csv(tmp_path / "notes.csv", table_rows(5))
    kw = dict(id_column="note_id", text_column="text", rows_per_partition=2, progress=False)
    redact_table(src, tmp_path / "out", OPTIONS, key=KEY, max_partitions=1, **kw)
    with pytest.raises(ValueError, match="another"):
        redact_table(src, tmp_path / "out", OPTIONS, key=OTHER_KEY, **kw)
    with pytest.raises(ValueError, match="another"):
        redact_table(src, tmp_path / "out", ExportOptions(detectors="rules", operator="tag"), key=KEY, **kw)


def test_bad_rows_reported_and_others_written(tmp_path, client):
    good = [f'n{i},MRN1,"{note(i)}"\n' for i in range(6)]
    lines = ["note_id,mrn,text\n", good[0], good[1],
             'n90,MRN1,"Dr. Mary Jones",extra field\n',   # malformed: 4 fields
             "n91,MRN1,\n",                               # missing text
             good[2], ',MRN1,"Seen by Dr. Mary Jones"\n',  # missing id
             good[3], good[4], good[5]]
    src = tmp_path / "bad.csv"
    src.write_text("".join(lines), encoding="utf-8")
    res = redact_table(src, tmp_path / "out", OPTIONS, id_column="note_id", text_column="text",
                       patient_column="mrn", key=KEY, cluster=client, rows_per_partition=3, progress=False)
    assert res.complete
    reasons = {(f["id"], f["row"]): f["reason"] for f in res.records_failed}
    assert reasons == {(None, 3): "malformed row (4 fields, expected 3)", ("n91", 4): "missing text",
                       (None, 6): "missing id"}
    man = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert man["rows_in"] == 9 and man["rows_written"] == 6 and man["rows_failed"] == 3
    written = [r for p in man["partitions"]
               for r in csv.DictReader(open(tmp_path / "out" / p["path"], encoding="utf-8", newline=""))]
    assert [r["note_id"] for r in written] == [f"n{i}" for i in range(6)]
    assert all("Mary Jones" not in r["text"] for r in written)
    audit = (tmp_path / "out" / "audit.json").read_text(encoding="utf-8")
    assert "Mary Jones" not in audit and "missing text" in audit
    assert json.loads(audit)["records_failed"][0]["reason"].startswith("malformed")


def test_parquet_null_text_reported(tmp_path):
    rows = [{"id": 1, "text": note(1)}, {"id": 2, "text": None}, {"id": 3, "text": note(3)}]
    src = tmp_path / "t.parquet"
    pq.write_table(pa.Table.from_pylist(rows), src)
    res = redact_table(src, tmp_path / "out", OPTIONS, id_column="id", text_column="text", key=KEY, progress=False)
    assert [(f["id"], f["reason"]) for f in res.records_failed] == [("2", "missing text")]
    t = pq.read_table(tmp_path / "out" / "part-000000.parquet")
    assert t.column("id").to_pylist() == [1, 3]
    assert "Quartermain" not in " ".join(t.column("text").to_pylist())


def test_csv_record_boundaries_respect_quotes():
    data = b'id,text\n1,"line one\nline two"\n\n2,"say ""hi""\nnow"\r\n3,plain\n4,"open\n'
    recs = [data[a:b] for a, b in csv_records(data.splitlines(keepends=True))]
    assert recs == [b"id,text\n", b'1,"line one\nline two"\n', b'2,"say ""hi""\nnow"\r\n', b"3,plain\n",
                    b'4,"open\n']


def test_cli_cluster_and_table(tmp_path, notes_dir, single_folder, monkeypatch):
    from deid_engine.cli import main
    from deid_engine.redact.keys import KEY_FILE

    user = tmp_path / "user"
    user.mkdir()
    (user / KEY_FILE).write_bytes(KEY)
    monkeypatch.setenv("DEID_USER_DIR", str(user))
    assert main(["redact", str(notes_dir), str(tmp_path / "f"), "--cluster", "local:1", "--partition-size", "5",
                 "--detectors", "rules"]) == 0
    assert files_of(tmp_path / "f") == files_of(single_folder)
    src = write_csv(tmp_path / "t.csv", table_rows(5))
    assert main(["redact", str(src), str(tmp_path / "t"), "--id-column", "note_id", "--text-column", "text",
                 "--detectors", "rules"]) == 0
    assert (tmp_path / "t" / "part-000000.csv").exists() and (tmp_path / "t" / "manifest.json").exists()
    assert main(["redact", str(src), str(tmp_path / "t2")]) == 2


def test_cluster_spec_and_task_context_hide_the_key():
    from deid_engine.cluster.run import parse_cluster
    from deid_engine.cluster.task import TaskContext

    assert parse_cluster("local:3") == ("local", 3)
    assert parse_cluster("tcp://10.0.0.5:8786") == ("address", "tcp://10.0.0.5:8786")
    for bad in ("local:0", "local:x", "10.0.0.5:8786", "http://h:1"):
        with pytest.raises(ValueError):
            parse_cluster(bad)
    r = repr(TaskContext(OPTIONS, KEY, "rules", "en", "/in", "/out"))
    assert KEY.hex() not in r and repr(KEY) not in r and str(list(KEY)) not in r


@pytest.mark.slow
def test_killed_client_resumes_to_the_clean_output(tmp_path, notes_dir, single_folder):
    """SIGKILL the whole `deid redact --cluster local:2` process group mid-run, re-run: same output as a clean run."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from deid_engine.redact.keys import KEY_FILE

    user = tmp_path / "user"
    user.mkdir()
    (user / KEY_FILE).write_bytes(KEY)
    env = {**os.environ, "DEID_USER_DIR": str(user)}
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "deid_engine.cli", "redact", str(notes_dir), str(out), "--cluster", "local:2",
           "--partition-size", "1", "--detectors", "rules"]
    proc = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    parts = out / ".deid-run" / "parts"
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None and len(list(parts.glob("*.json"))) < 2:
        time.sleep(0.05)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = len(list(parts.glob("*.json")))
    assert done_before >= 1
    rerun = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert f"skipped (already complete) {done_before}" in rerun.stdout
    assert files_of(out) == files_of(single_folder)
    core = audit_core(out)
    # the CLI also records where reviewer decisions came from (none in this user dir)
    assert core["review"].pop("decisions") == "applied" and core["review"].pop("predictions_tagged") == 0
    for k in ("decision_log", "reviewed_only", "predictions_from_cache", "reviewed_documents_not_tagged"):
        core["review"].pop(k)
    assert core == audit_core(single_folder)


def test_workers_apply_the_clients_policies_not_their_own_settings(tmp_path):
    from deid_engine.cluster.plugin import PipelinePlugin, client_policies, plugin_name, worker_pipeline
    from deid_engine.config import load_settings, save_settings, updated
    from deid_engine.types import Document

    mine = (("age_policy", "over89"), ("place_policy", "safe_harbor"), ("profession_policy", "safe_harbor"))
    assert client_policies() == (("age_policy", "all"), ("place_policy", "all"),
                                 ("profession_policy", "all"))  # this process's settings
    plugin = PipelinePlugin("rules", "en", mine)
    plugin.setup()  # as on a worker whose own settings say "all"
    assert {f.name: f.policy for f in plugin.pipeline.filters if f.name.endswith("_policy")} == dict(mine)
    text = "82 yo man from Ohio; his father is 95 years old. He works as a plumber."
    found = {text[s.start:s.end] for s in plugin.pipeline.run(Document(text))}
    assert found == {"95"}
    assert plugin.name != plugin_name("rules", "en") and plugin.name == plugin_name("rules", "en", mine)
    local = worker_pipeline("rules", "en", mine)  # outside Dask: this process's cached pipeline
    assert {f.name: f.policy for f in local.filters if f.name.endswith("_policy")} == dict(mine)
    save_settings(updated(load_settings(), ages="over89"))
    assert client_policies()[0] == ("age_policy", "over89")
    save_settings(updated(load_settings(), professions="safe_harbor"))
    assert client_policies()[2] == ("profession_policy", "safe_harbor")
    assert plugin_name("rules", "en", client_policies()).endswith("-profession=safe_harbor")


def test_a_run_records_the_policies_and_resume_refuses_changed_ones(tmp_path, notes_dir):
    from deid_engine.config import load_settings, save_settings, updated

    save_settings(updated(load_settings(), ages="over89"))
    out = tmp_path / "out"
    res = redact_folder(notes_dir, out, OPTIONS, key=KEY, files_per_partition=5, max_partitions=1, progress=False)
    assert res is not None
    plan = RunState(out).load_plan()
    assert plan["config"]["policies"] == {"age_policy": "over89", "place_policy": "all", "profession_policy": "all"}
    save_settings(updated(load_settings(), ages="all"))
    with pytest.raises(ValueError, match="another"):
        redact_folder(notes_dir, out, OPTIONS, key=KEY, files_per_partition=5, progress=False)
