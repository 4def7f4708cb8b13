"""Nothing ever touches the network: the offline guard, and the whole workflow run with sockets blocked.

Every workflow test runs inside ``netguard.blocked()``: any Python-level
connection, DNS lookup, UDP send or TLS wrap raises *and is recorded*, and the
test fails on any recorded attempt (even one a library caught and ignored).
Parts whose module has not landed in the engine skip, naming the module.
A static test greps the source for network-capable imports.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import socket
import ssl
import sys
import urllib.request
from pathlib import Path

import pytest

from deid_engine import netguard
from deid_engine.types import Decision

ROOT = Path(__file__).resolve().parent.parent

NOTES = {
    "a/note1.txt": ("Patient: Mr. John Smith, MRN 4478123, admitted 03/14/2021.\n"
                    "Call (617) 555-0199 or jane.doe@example.org. Pneumonia, on amoxicillin.\n"),
    "a/note2.txt": "Seen by Dr. Emily Carter on 2021-03-16. SSN 123-45-6789. Afebrile.\n",
    "b/visit.txt": "Follow-up for Maria Garcia, age 67, phone 555-867-5309. Continue metformin.\n",
}
PHI = ["4478123", "03/14/2021", "(617) 555-0199", "jane.doe@example.org", "123-45-6789", "555-867-5309"]


def _need(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} has not landed yet: this part of the offline workflow is not tested")


@pytest.fixture
def offline():
    """Block the network for the test; fail if anything tried to use it."""
    was = netguard.is_blocked()
    netguard.unblock_network()
    with netguard.blocked() as made:
        yield made
    if was:
        netguard.block_network()
    assert not made, "network access attempted:\n" + "\n".join(map(str, made))


@pytest.fixture
def notes(tmp_path) -> Path:
    d = tmp_path / "notes"
    for rel, text in NOTES.items():
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(text, encoding="utf-8")
    return d


_PIPELINES: dict = {}


def _tag(folder: Path, preset: str = "default"):
    """Tag the notes; each preset's pipeline is loaded once per session (by the first test, offline)."""
    from deid_engine.io.folder import iter_folder, list_note_files
    from deid_engine.pipeline import TaggedDocument, build_pipeline, tag_documents

    if preset not in _PIPELINES:
        _PIPELINES[preset] = build_pipeline(preset, "en").load()
    pipeline = _PIPELINES[preset]
    out = [x for x in tag_documents(iter_folder(folder), pipeline, total=len(list_note_files(folder)))
           if isinstance(x, TaggedDocument)]
    assert len(out) == len(NOTES)
    return pipeline, out


def _review(tagged) -> dict:
    """Accept every prediction and add one span per document through the decision log; reload it."""
    _need("deid_engine.review")
    from deid_engine.review import DecisionLog, apply_decisions, final_spans, load_log
    from deid_engine.types import Span

    log = DecisionLog()
    decisions = []
    for t in tagged:
        for s in t.spans:
            decisions.append(Decision(t.document.doc_id, s, "accept", reviewer="test"))
        word = re.search(r"[A-Z][a-z]+", t.document.text)
        decisions.append(Decision(t.document.doc_id, Span(word.start(), word.end(), "OTHER", source="user"),
                                  "add", reviewer="test"))
    log.append(decisions)
    log.close()
    index = load_log(log.path)
    finals = {}
    for t in tagged:
        reviewed = apply_decisions(t.spans, index.for_doc(t.document.doc_id), len(t.document.text))
        finals[t.document.doc_id] = final_spans(reviewed)
        assert len(finals[t.document.doc_id]) >= len(t.spans)
    return finals


# --- the guard itself ------------------------------------------------------------

BLOCKED_CALLS = {
    "create_connection": lambda: socket.create_connection(("example.org", 443), timeout=1),
    "getaddrinfo": lambda: socket.getaddrinfo("example.org", 443),
    "gethostbyname": lambda: socket.gethostbyname("example.org"),
    "connect": lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).connect(("10.0.0.1", 80)),
    "connect_ex": lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).connect_ex(("10.0.0.1", 80)),
    "connect_ipv6": lambda: socket.socket(socket.AF_INET6, socket.SOCK_STREAM).connect(("::1", 80, 0, 0)),
    "loopback": lambda: socket.socket().connect(("127.0.0.1", 9)),
    "udp_sendto": lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("192.0.2.1", 53)),
    "bind": lambda: socket.socket().bind(("0.0.0.0", 0)),
    "ssl_wrap": lambda: ssl.create_default_context().wrap_socket(socket.socket(), server_hostname="example.org"),
    "urllib": lambda: urllib.request.urlopen("https://example.org/", timeout=1),
}


@pytest.mark.parametrize("name", sorted(BLOCKED_CALLS))
def test_guard_blocks_and_records(name):
    netguard.unblock_network()
    with netguard.blocked() as made:
        with pytest.raises(OSError) as exc:
            BLOCKED_CALLS[name]()
    assert made, f"{name} was not recorded"
    err = getattr(exc.value, "reason", exc.value)  # urllib wraps it in URLError
    assert isinstance(err, netguard.NetworkBlockedError) and "offline" in str(err)
    assert not netguard.is_blocked()


def test_guard_keeps_local_sockets_working():
    netguard.unblock_network()
    with netguard.blocked() as made:
        a, b = socket.socketpair()
        a.sendall(b"ping")
        assert b.recv(4) == b"ping"
        a.close(), b.close()
        if hasattr(socket, "AF_UNIX"):
            import tempfile

            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "s")
                srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                srv.bind(path)
                srv.listen(1)
                cli = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                cli.connect(path)
                conn, _ = srv.accept()
                cli.sendall(b"ok")
                assert conn.recv(2) == b"ok"
                for s in (conn, cli, srv):
                    s.close()
    assert not made


def test_guard_optional_loopback_and_restore():
    real_connect = socket.socket.connect
    netguard.unblock_network()
    with netguard.blocked(allow_loopback=True) as made:
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)
        cli = socket.create_connection(srv.getsockname(), timeout=5)
        cli.close(), srv.close()
        with pytest.raises(netguard.NetworkBlockedError):
            socket.create_connection(("192.0.2.1", 80), timeout=1)
    assert [a.kind for a in made] == ["socket.create_connection"]
    assert socket.socket.connect is real_connect and not netguard.is_blocked()


def test_blocked_attempt_is_logged_without_document_text(caplog):
    netguard.unblock_network()
    with netguard.blocked() as made, caplog.at_level("WARNING", logger="deid_engine.netguard"):
        with pytest.raises(OSError):
            socket.create_connection(("telemetry.example.com", 443))
    assert made[0].target == "telemetry.example.com:443"
    assert "test_no_network.py" in made[0].caller
    assert "telemetry.example.com" in caplog.text


# --- the app switches itself offline -------------------------------------------------

def test_app_sets_offline_environment(monkeypatch):
    for k in netguard.OFFLINE_ENV:
        monkeypatch.delenv(k, raising=False)
    monkeypatch.delenv(netguard.ENV_SWITCH, raising=False)
    from app import main as app_main

    netguard.unblock_network()
    try:
        app_main._offline_environment()
        for k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE", "HF_HUB_DISABLE_TELEMETRY",
                  "DO_NOT_TRACK"):
            assert os.environ.get(k) == "1", k
        assert netguard.is_blocked(), "the app must block the network at start-up"
    finally:
        netguard.unblock_network()
    monkeypatch.setenv(netguard.ENV_SWITCH, "off")
    try:
        app_main._offline_environment()
        assert not netguard.is_blocked()
    finally:
        netguard.unblock_network()


# --- the whole workflow with sockets blocked ----------------------------------------------

def test_open_and_tag_offline(notes, offline):
    pipeline, tagged = _tag(notes)
    assert sum(len(t.spans) for t in tagged) >= len(PHI)


def test_tagger_offline(notes, offline):
    from deid_engine.detect import DETECTORS

    if "tagger" not in DETECTORS:
        pytest.skip("no 'tagger' detector registered in deid_engine.detect yet (deid_engine.model)")
    try:
        _, tagged = _tag(notes, "tagger")
    except (FileNotFoundError, OSError) as e:
        if isinstance(e, netguard.NetworkBlockedError):
            raise
        pytest.skip(f"the tagger's model is not available: {type(e).__name__}")
    assert any(t.spans for t in tagged)


def test_review_offline(notes, offline):
    _, tagged = _tag(notes)
    finals = _review(tagged)
    assert all(finals.values())


def test_export_offline(notes, tmp_path, offline):
    _need("deid_engine.redact.export")
    from deid_engine.redact.export import ExportOptions, ExportSummary, export_folder

    pipeline, tagged = _tag(notes)
    overrides = _review(tagged) if importlib.util.find_spec("deid_engine.review") else None
    out = tmp_path / "out"
    items = list(export_folder(notes, out, ExportOptions(lang="en"), pipeline=pipeline, overrides=overrides))
    summary = items[-1]
    assert isinstance(summary, ExportSummary) and summary.files_ok == len(NOTES)
    for rel, text in NOTES.items():
        assert (notes / rel).read_text(encoding="utf-8") == text
        red = (out / rel).read_text(encoding="utf-8")
        for phi in PHI:
            assert phi not in red
    assert (out / "audit.json").is_file()


def test_cli_redact_offline(notes, tmp_path, offline, capsys):
    _need("deid_engine.redact.cli")
    from deid_engine.cli import main

    assert main(["redact", str(notes), str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "a" / "note1.txt").is_file()


@pytest.mark.slow
def test_retrain_offline(notes, tmp_path, offline, monkeypatch):
    _need("deid_engine.learn.retrain")
    _need("deid_engine.learn.examples")
    from deid_engine.learn.examples import ReviewedDoc
    from deid_engine.learn.retrain import RetrainConfig, retrain_from_reviews
    from deid_engine.review import load_log

    monkeypatch.setenv("DEID_DATA_DIR", str(tmp_path / "no-corpora"))  # no replay from corpora
    _, tagged = _tag(notes)
    _review(tagged)
    index = load_log()
    docs = [ReviewedDoc(t.document.doc_id, t.document.text, t.document.name, t.spans,
                        index.for_doc(t.document.doc_id), "reviewed") for t in tagged]
    from dataclasses import fields

    small = dict(lang="en", epochs=1, scratch_epochs=1, min_steps=5, max_seconds=10, threads=1,
                 replay_max_docs=10, glove=False)
    cfg = RetrainConfig(**{k: v for k, v in small.items() if k in {f.name for f in fields(RetrainConfig)}})
    events = [e for e in retrain_from_reviews(docs, "en", cfg) if isinstance(e, dict)]
    assert events and events[-1]["event"] == "done"


def test_gui_smoke_offline(tmp_path):
    """The real window (controller, worker threads) opens, tags and exports with its own guard on."""
    _need("deid_engine.redact.export")
    sys.path.insert(0, str(ROOT))
    try:
        import build_installer as bi
    finally:
        sys.path.remove(str(ROOT))
    r = bi.run_app([sys.executable, "-m", "app.main"], tmp_path, "gui", timeout=300)
    assert r.get("ok"), r.get("error") or r["_stderr"][-2000:]
    assert r["netguard"] is True and r["network_attempts"] == []
    assert not r["_problems"], r["_problems"]
    report = (tmp_path / "gui" / "report.json").read_text(encoding="utf-8")
    assert not [phi for phi in bi.FIXTURE_PHI if phi in report], "the smoke report must name no PHI"


# --- static: no network code in the source ------------------------------------------------

NETWORK_IMPORTS = re.compile(
    r"^\s*(?:import|from)\s+(urllib\.request|urllib3|http\.client|http\.server|requests|httpx|aiohttp|"
    r"ftplib|smtplib|socketserver|xmlrpc|websocket[s]?|paramiko)\b"
    r"|\bsocket\.create_connection\b|\bQtNetwork\b|\bQNetworkAccessManager\b|\burlopen\s*\(",
    re.M)


def test_no_network_code_in_source():
    offenders = []
    for pkg in ("deid_engine", "app"):
        for p in sorted((ROOT / pkg).rglob("*.py")):
            if p.name == "netguard.py" and p.parent.name == "deid_engine":
                continue
            text = p.read_text(encoding="utf-8", errors="replace")
            for m in NETWORK_IMPORTS.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                offenders.append(f"{p.relative_to(ROOT)}:{line}: {m.group(0).strip()}")
    assert not offenders, "network-capable code outside deid_engine/netguard.py:\n" + "\n".join(offenders)


CLUSTER_IMPORTS = re.compile(r"^\s*(?:import|from)\s+(dask|distributed)\b", re.M)


def test_cluster_networking_stays_in_the_research_package_and_out_of_the_bundle():
    """Dask (TCP between workers) is only for ``deid redact --cluster``: never in the app or the bundle."""
    offenders = []
    for pkg in ("deid_engine", "app"):
        for p in sorted((ROOT / pkg).rglob("*.py")):
            if p.relative_to(ROOT).parts[:2] == ("deid_engine", "cluster"):
                continue
            if CLUSTER_IMPORTS.search(p.read_text(encoding="utf-8", errors="replace")):
                offenders.append(str(p.relative_to(ROOT)))
    assert not offenders, f"dask/distributed imported outside deid_engine/cluster: {offenders}"
    sys.path.insert(0, str(ROOT))
    try:
        import build_installer as bi
    finally:
        sys.path.remove(str(ROOT))
    assert "deid_engine.cluster" in bi.SKIP_MODULES
    assert {"dask", "distributed", "PySide6.QtNetwork", "requests", "urllib3"} <= set(bi.EXCLUDES)
    assert not [m for m in bi.hidden_imports() if m.startswith("deid_engine.cluster")]


def test_static_check_catches_offenders():
    bad = "import requests\nfrom http.client import HTTPConnection\ns = socket.create_connection(a)\n"
    assert len(NETWORK_IMPORTS.findall(bad)) == 3
    good = "import socket  # for AF_UNIX\nfrom urllib.parse import quote\nimport http\n"
    assert not NETWORK_IMPORTS.findall(good)
