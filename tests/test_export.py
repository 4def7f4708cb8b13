"""export_folder / process_document: safety rules, consistency, jobs, audit without PHI."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import pytest

from deid_engine.pipeline import Pipeline
from deid_engine.redact.export import (ExportContext, ExportOptions, ExportSummary, export_folder,
                                       process_document)
from deid_engine.redact.keys import fingerprint, load_or_create_key
from deid_engine.redact.linkmap import LinkMapError, decrypt_link_map
from deid_engine.types import Document, FileProblem, Span

KEY = bytes(range(32))
PHI = ["John Smith", "Smith", "Quartermain", "410-955-1234", "10/11/2060", "10/12/2060", "Mary Jones", "Baltimore"]


class StubDetector:
    """Finds the fixture's PHI by regex (tests only)."""

    name = "stub"
    _rx = re.compile(r"(?P<PATIENT>John Smith|Smith|Mary Jones)|(?P<HOSPITAL>Quartermain)|(?P<CITY>Baltimore)"
                     r"|(?P<PHONE>\d{3}-\d{3}-\d{4})|(?P<DATE>\d{1,2}/\d{1,2}/\d{4})")

    def load(self) -> None:
        pass

    def detect(self, doc):
        return [Span(m.start(), m.end(), m.lastgroup, "pattern:stub") for m in self._rx.finditer(doc.text)]


def stub_pipeline() -> Pipeline:
    return Pipeline([StubDetector()], name="stub")


def make_folder(root: Path) -> Path:
    d = root / "in"
    (d / "sub").mkdir(parents=True)
    (d / "p001-n001.txt").write_bytes(b"Pt John Smith seen 10/11/2060 at Quartermain.\r\nCall 410-955-1234.\r\n")
    (d / "p001-n002.txt").write_bytes("\ufeffSmith again on 10/12/2060 in Baltimore.\n".encode("utf-8"))
    (d / "sub" / "p002-n001.txt").write_bytes(b"Mary Jones, 10/11/2060; no John Smith here? yes Smith.\n")
    (d / "notes.ann").write_text("T1\tPTName 3 13\tJohn Smith\n", encoding="utf-8")  # never copied
    return d


def run(in_dir, out_dir, options=None, **kw) -> tuple[ExportSummary, list]:
    items = list(export_folder(in_dir, out_dir, options or ExportOptions(), key=KEY, **kw))
    assert isinstance(items[-1], ExportSummary)
    return items[-1], items


def tree_bytes(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_export_basic_and_originals_untouched(tmp_path):
    d = make_folder(tmp_path)
    before = {k: hashlib.sha256(v).hexdigest() for k, v in tree_bytes(d).items()}
    out = tmp_path / "out"
    summary, items = run(d, out, pipeline=stub_pipeline())
    assert {k: hashlib.sha256(v).hexdigest() for k, v in tree_bytes(d).items()} == before
    assert (summary.files_ok, summary.files_failed, summary.files_skipped) == (3, 0, 0)
    files = tree_bytes(out)
    assert set(files) == {"p001-n001.txt", "p001-n002.txt", "sub/p002-n001.txt", "audit.json", "audit.html"}
    a = files["p001-n001.txt"]
    assert a.endswith(b".\r\n") and a.count(b"\r\n") == 2 and a.startswith(b"Pt ")
    assert files["p001-n002.txt"].startswith(b"\xef\xbb\xbf")  # BOM kept
    for k in ("p001-n001.txt", "p001-n002.txt", "sub/p002-n001.txt"):
        for phi in PHI:
            assert phi.encode() not in files[k], (k, phi)
    # consistency across files: the surname maps the same everywhere
    t1, t2 = a.decode(), files["p001-n002.txt"].decode("utf-8-sig")
    last = t1.split()[2]
    assert t2.startswith(last + " again")
    # same patient p001 -> same offset: 10/11 and 10/12 stay one day apart
    d1 = re.search(r"seen (\S+) at", t1).group(1)
    d2 = re.search(r"on (\S+) in", t2).group(1)
    import datetime as dt

    p = lambda s: dt.datetime.strptime(s, "%m/%d/%Y").date()  # noqa: E731
    assert p(d2) - p(d1) == dt.timedelta(days=1)


def test_audit_has_no_phi(tmp_path):
    d = make_folder(tmp_path)
    out = tmp_path / "out"
    summary, _ = run(d, out, ExportOptions(link_map_password="s3cret"), pipeline=stub_pipeline())
    report = json.loads(summary.report_path.read_text(encoding="utf-8"))
    html = summary.html_path.read_text(encoding="utf-8")
    raw = summary.report_path.read_text(encoding="utf-8")
    for phi in PHI + [w for p in PHI for w in p.split()]:
        assert phi not in raw and phi not in html, phi
    assert "s3cret" not in raw and "s3cret" not in html
    assert report["key_fingerprint"] == fingerprint(KEY) and KEY.hex() not in raw
    assert report["totals"]["files_ok"] == 3 and report["totals"]["counts"]["PATIENT"] >= 4
    assert report["files"][0]["input_sha256"] and report["files"][0]["output_sha256"]
    assert report["options"]["link_map"] is True and "link_map_password" not in report["options"]
    # the link map decrypts with the password only
    entries = decrypt_link_map(summary.link_map_path, "s3cret")
    assert any(e["original"] == "John Smith" for e in entries)
    with pytest.raises(LinkMapError):
        decrypt_link_map(summary.link_map_path, "wrong")
    assert b"John" not in summary.link_map_path.read_bytes()


def test_refuses_input_folder_and_overwrite(tmp_path):
    d = make_folder(tmp_path)
    for bad in (d, d / "sub" / "out", d / "x"):
        with pytest.raises(ValueError):
            list(export_folder(d, bad, ExportOptions(), key=KEY, pipeline=stub_pipeline()))
    with pytest.raises(ValueError):
        list(export_folder(d / "sub", d, ExportOptions(), key=KEY, pipeline=stub_pipeline()))
    out = tmp_path / "out"
    run(d, out, pipeline=stub_pipeline())
    (out / "p001-n001.txt").write_bytes(b"keep me")
    summary, items = run(d, out, pipeline=stub_pipeline())
    assert summary.files_skipped == 3 and summary.files_ok == 0
    assert (out / "p001-n001.txt").read_bytes() == b"keep me"
    assert any(isinstance(i, FileProblem) and "exists" in i.reason for i in items)
    summary, _ = run(d, out, ExportOptions(overwrite=True), pipeline=stub_pipeline())
    assert summary.files_ok == 3 and (out / "p001-n001.txt").read_bytes() != b"keep me"
    assert not [p for p in out.rglob("*.part")]


def test_failing_file_does_not_stop_batch(tmp_path):
    d = make_folder(tmp_path)
    (d / "bad.txt").write_bytes(b"\x00\x01\x02binary")
    (d / "broken.docx").write_bytes(b"not a zip")
    summary, items = run(d, tmp_path / "out", pipeline=stub_pipeline())
    assert summary.files_ok == 3 and summary.files_failed == 2
    problems = [i for i in items if isinstance(i, FileProblem)]
    assert {p.path.name for p in problems} == {"bad.txt", "broken.docx"}


def test_overrides_and_unreviewed_skip(tmp_path):
    d = make_folder(tmp_path)
    text = (d / "p001-n001.txt").read_text(encoding="utf-8", errors="strict")
    text = (d / "p001-n001.txt").read_bytes().decode("utf-8")
    doc_id = Document(text).doc_id
    overrides = {doc_id: [Span(3, 13, "PATIENT", "user")]}  # reviewer kept only the name
    summary, items = run(d, tmp_path / "out", ExportOptions(unreviewed="skip", verify=False), overrides=overrides)
    assert summary.files_ok == 1 and summary.files_skipped == 2
    out = (tmp_path / "out" / "p001-n001.txt").read_bytes().decode()
    assert "John Smith" not in out and "Quartermain" in out  # exactly the reviewed spans
    report = json.loads(summary.report_path.read_text())
    assert report["review"] == {"documents_with_decisions": 1, "spans_from_review": 1}


def test_jobs2_identical_to_jobs1(tmp_path):
    d = make_folder(tmp_path)
    for i in range(6):
        (d / f"p00{i}-n009.txt").write_text(f"John Smith {i} on 10/1{i}/2060 at Quartermain\n", encoding="utf-8")
    run(d, tmp_path / "o1", pipeline=stub_pipeline(), jobs=1)
    s2, _ = run(d, tmp_path / "o2", pipeline=stub_pipeline(), jobs=2)
    a = {k: v for k, v in tree_bytes(tmp_path / "o1").items() if not k.startswith("audit")}
    b = {k: v for k, v in tree_bytes(tmp_path / "o2").items() if not k.startswith("audit")}
    assert a == b and len(a) == 9 and s2.files_ok == 9


def test_process_document_pure_and_consistent():
    ctx = ExportContext(ExportOptions(), KEY, stub_pipeline())
    d1 = Document("John Smith called 410-955-1234", name="p007-n001")
    d2 = Document("Smith, John? J. Smith.", name="p009-n003")
    r1 = process_document(d1, None, ctx)
    assert process_document(d1, None, ctx) == r1
    r2 = process_document(d2, [Span(0, 11, "PATIENT"), Span(13, 21, "PATIENT")], ctx)
    first, last = r1.text.split(" called")[0].split()
    assert r2.text == f"{last}, {first}? {first[0]}. {last}."
    assert r1.counts == {"PATIENT": 1, "PHONE": 1} and r1.input_sha256 == d1.doc_id
    assert "John" not in json.dumps(r1.audit)


def test_project_key_created_once_with_0600(tmp_path):
    p = tmp_path / "k" / "project.key"
    k1 = load_or_create_key(p)
    assert len(k1) == 32 and load_or_create_key(p) == k1
    if os.name == "posix":
        assert (p.stat().st_mode & 0o777) == 0o600


def test_cli_rules_preset(tmp_path, physionet_train):
    from deid_engine.detect import PRESETS
    from deid_engine.cli import main

    if "rules" not in PRESETS:
        pytest.skip("the rules preset is not registered")
    d = tmp_path / "in"
    d.mkdir()
    for p in sorted(physionet_train.glob("*.txt"))[:12]:
        (d / p.name).write_bytes(p.read_bytes())
    pw = tmp_path / "pw.txt"
    pw.write_text("pw\n")
    assert main(["redact", str(d), str(tmp_path / "o1"), "--link-map-password-file", str(pw),
                 "--detectors", "rules"]) == 0
    assert main(["redact", str(d), str(tmp_path / "o2"), "--jobs", "2", "--operator", "placeholder",
                 "--detectors", "rules"]) == 0
    report = json.loads((tmp_path / "o1" / "audit.json").read_text())
    assert report["totals"]["files_ok"] == 12 and report["pipeline"]["pipeline"] == "rules"
    assert (tmp_path / "o1" / "linkmap.enc").exists()
    # total failure -> non-zero
    empty = tmp_path / "bad"
    empty.mkdir()
    (empty / "x.txt").write_bytes(b"\x00\x00")
    assert main(["redact", str(empty), str(tmp_path / "o3")]) == 1
    assert main(["redact", str(d), str(d / "inside")]) == 2


class LeakyDetector(StubDetector):
    """Also finds 'Quartermain' as HOSPITAL, which the reviewed spans below leave in."""


def test_verification_lists_residuals_without_text(tmp_path):
    d = make_folder(tmp_path)
    text = (d / "p001-n001.txt").read_bytes().decode("utf-8")
    overrides = {Document(text).doc_id: [Span(3, 13, "PATIENT", "user")]}
    summary, _ = run(d, tmp_path / "out", ExportOptions(unreviewed="skip"), overrides=overrides,
                     pipeline=stub_pipeline())
    report = json.loads(summary.report_path.read_text())
    res = report["verification"]["residuals"]
    assert report["verification"]["ran"] and summary.residuals == len(res) >= 3
    out = (tmp_path / "out" / "p001-n001.txt").read_bytes().decode()
    labels = {r["label"] for r in res}
    assert {"HOSPITAL", "PHONE", "DATE"} <= labels
    for r in res:
        assert set(r) == {"file", "document", "start", "end", "label", "detector"}
        assert not (3 <= r["start"] < 3 + len(out.split(" seen")[0]) - 3)  # never on our replacement
    assert "Quartermain" not in summary.report_path.read_text()


def test_cancel_stops_and_reports(tmp_path):
    d = make_folder(tmp_path)
    calls = {"n": 0}

    def cancelled():
        calls["n"] += 1
        return calls["n"] > 1

    summary, _ = run(d, tmp_path / "out", pipeline=stub_pipeline(), cancelled=cancelled)
    assert summary.cancelled and summary.files_ok == 1
    assert json.loads(summary.report_path.read_text())["status"] == "cancelled"


def test_spanish_surrogates_in_export(tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    (d / "caso1.txt").write_text("Paciente John Smith, ingresó el 12 de diciembre de 2016.\n", encoding="utf-8")

    class EsStub(StubDetector):
        _rx = re.compile(r"(?P<PATIENT>John Smith)|(?P<DATE>\d+ de diciembre de \d{4})")

    summary, _ = run(d, tmp_path / "out", ExportOptions(lang="es", date_shift="per_export"),
                     pipeline=Pipeline([EsStub()]))
    out = (tmp_path / "out" / "caso1.txt").read_text(encoding="utf-8")
    assert "John Smith" not in out and "diciembre de 2016" not in out
    assert re.search(r"el \d{1,2} de [a-z]+ de 20\d\d\.", out), out
    from deid_engine.redact.surrogates import word_list

    first = out.split("Paciente ")[1].split()[0]
    assert first in word_list("first_names_es_male") + word_list("first_names_es_female")


class BrokenDetector(StubDetector):
    def load(self) -> None:
        raise RuntimeError("model file missing")


def test_broken_pipeline_fails_files_not_batch(tmp_path):
    d = make_folder(tmp_path)
    for jobs in (1, 2):
        summary, items = run(d, tmp_path / f"out{jobs}", pipeline=Pipeline([BrokenDetector()]), jobs=jobs)
        assert summary.files_failed == 3 and summary.files_ok == 0
        assert all("model file missing" not in i.reason for i in items if isinstance(i, FileProblem))


def test_cli_redact_uses_the_apps_default_pipeline(tmp_path):
    from deid_engine.cli import main

    d = tmp_path / "in"
    d.mkdir()
    (d / "a.txt").write_text("Seen by Dr. John Smith on 3/4/2021. Call 617-555-0199.\n", encoding="utf-8")
    assert main(["redact", str(d), str(tmp_path / "out")]) == 0
    report = json.loads((tmp_path / "out" / "audit.json").read_text())
    assert report["pipeline"]["pipeline"] == "default"
    assert "tagger" in report["pipeline"]["detectors"]
    out = (tmp_path / "out" / "a.txt").read_text(encoding="utf-8")
    assert "Smith" not in out and "617-555-0199" not in out
