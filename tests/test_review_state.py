"""Review engine: the durable decision log, applying decisions, final spans, folder cache."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from deid_engine.pipeline import Pipeline
from deid_engine.review.decisions import DecisionLog, load_log
from deid_engine.review.session import ReviewSession
from deid_engine.review.state import (ACCEPTED, ADDED, IN_REVIEW, NOT_TAGGED, PENDING, REJECTED, RELABELLED,
                                      REVIEWED, TAGGED, apply_decisions, document_status, final_spans,
                                      occurrences, step_boundary)
from deid_engine.review.store import FolderStore, ProblemItem, ReadDocument, TaggedItem, scan_folder
from deid_engine.types import Decision, Document, Span

DOC = "a" * 64
DOC2 = "b" * 64


def dec(verdict, s, e, label="NAME", doc=DOC, prev=""):
    return Decision(doc, Span(s, e, label, "user:review"), verdict, previous_label=prev)


# --- apply_decisions ---------------------------------------------------------------

PRED = [Span(0, 4, "PATIENT", "tagger:en", 0.9), Span(10, 14, "DATE", "pattern:date", 0.4),
        Span(20, 25, "CITY", "lexicon:city", 0.7)]


@pytest.mark.parametrize("decisions, expected", [
    ([], {(0, 4): (PENDING, "PATIENT"), (10, 14): (PENDING, "DATE"), (20, 25): (PENDING, "CITY")}),
    ([dec("accept", 0, 4, "PATIENT")], {(0, 4): (ACCEPTED, "PATIENT")}),
    ([dec("reject", 0, 4, "PATIENT")], {(0, 4): (REJECTED, "PATIENT")}),
    ([dec("relabel", 0, 4, "DOCTOR", prev="PATIENT")], {(0, 4): (RELABELLED, "DOCTOR")}),
    ([dec("accept", 0, 4, "DOCTOR")], {(0, 4): (RELABELLED, "DOCTOR")}),
    ([dec("add", 30, 33, "AGE")], {(30, 33): (ADDED, "AGE")}),
    ([dec("add", 30, 33, "AGE"), dec("reject", 30, 33, "AGE")], {(30, 33): None}),
    ([dec("add", 30, 33, "AGE"), dec("relabel", 30, 33, "DATE")], {(30, 33): (ADDED, "DATE")}),
    ([dec("reject", 0, 4), dec("accept", 0, 4, "PATIENT")], {(0, 4): (ACCEPTED, "PATIENT")}),
    # boundary edit: reject old + add new
    ([dec("reject", 20, 25, "CITY"), dec("add", 18, 25, "CITY")],
     {(20, 25): (REJECTED, "CITY"), (18, 25): (ADDED, "CITY")}),
])
def test_apply_decisions_table(decisions, expected):
    got = {(r.start, r.end): (r.verdict, r.label) for r in apply_decisions(PRED, decisions)}
    for key, want in expected.items():
        if want is None:
            assert key not in got
        else:
            assert got[key] == want


def test_apply_decisions_ignores_decisions_past_the_text():
    rs = apply_decisions([], [dec("add", 5, 50)], text_length=20)
    assert rs == []


def test_final_spans_policy_and_overlap():
    rs = apply_decisions(PRED, [dec("reject", 0, 4), dec("add", 8, 16, "DATE")])
    spans = final_spans(rs)
    # rejected gone; the added span wins over the overlapping pending DATE; CITY pending kept
    assert [(s.start, s.end, s.label) for s in spans] == [(8, 16, "DATE"), (20, 25, "CITY")]
    assert [(s.start, s.end) for s in final_spans(rs, include_pending=False)] == [(8, 16)]
    assert [(s.start, s.end) for s in final_spans(rs, min_confidence=0.8)] == [(8, 16)]


def test_final_spans_keeps_uncovered_part_of_pending():
    rs = apply_decisions([Span(0, 10, "NAME", "tagger:en")], [dec("add", 0, 4, "PATIENT")])
    assert [(s.start, s.end) for s in final_spans(rs)] == [(0, 4), (4, 10)]


def test_document_status():
    assert document_status(False, []) == NOT_TAGGED
    assert document_status(True, []) == TAGGED
    assert document_status(True, [dec("accept", 0, 4)]) == IN_REVIEW
    assert document_status(True, [dec("accept", 0, 4)], "reviewed") == REVIEWED


@pytest.mark.parametrize("text, needle, want", [
    ("Smith saw Smith. Smithson no", "Smith", [(0, 5), (10, 15)]),
    ("call 555-1234 or 555-1234x", "555-1234", [(5, 13)]),
    ("Dr. O'Neil and O'Neil's", "O'Neil", [(4, 10), (15, 21)]),
    ("   ", " ", []),
])
def test_occurrences(text, needle, want):
    assert occurrences(text, needle) == want


@pytest.mark.parametrize("text, span, edge, grow, want", [
    ("Dr John Smith Jr here", (3, 7), "end", True, (3, 13)),
    ("Dr John Smith Jr here", (3, 13), "end", False, (3, 7)),
    ("Dr John Smith Jr here", (3, 7), "end", False, (3, 7)),  # never empty
    ("Dr John Smith Jr here", (8, 13), "start", True, (3, 13)),
    ("Dr John Smith Jr here", (3, 13), "start", False, (8, 13)),
    ("12/03/2019 at noon", (0, 5), "end", True, (0, 10)),
])
def test_step_boundary(text, span, edge, grow, want):
    assert step_boundary(text, *span, edge, grow) == want


# --- the log -----------------------------------------------------------------------

def test_log_roundtrip_undo_and_marks(tmp_path):
    path = tmp_path / "d.jsonl"
    lg = DecisionLog(path)
    ids = lg.append([dec("accept", 0, 4), dec("reject", 10, 14, "DATE")])
    lg.append([dec("add", 1, 2, "AGE", doc=DOC2)])
    lg.undo(ids[:1])
    lg.mark(DOC, "reviewed")
    lg.close()
    idx = load_log(path)
    assert [d.verdict for d in idx.for_doc(DOC)] == ["reject"]
    assert [d.verdict for d in idx.for_doc(DOC2)] == ["add"]
    assert idx.marks == {DOC: "reviewed"}
    for line in path.read_text().splitlines():
        json.loads(line)  # every line valid JSON


def test_log_tolerates_torn_last_line_and_appends_cleanly(tmp_path):
    path = tmp_path / "d.jsonl"
    lg = DecisionLog(path)
    lg.append([dec("accept", 0, 4)])
    lg.close()
    with open(path, "a") as f:
        f.write('{"doc_id": "' + DOC + '", "verdict": "acc')  # killed mid-write
    assert len(load_log(path).for_doc(DOC)) == 1
    lg = DecisionLog(path)
    lg.append([dec("reject", 10, 14)])
    lg.close()
    assert [d.verdict for d in load_log(path).for_doc(DOC)] == ["accept", "reject"]


def test_log_survives_os_exit(tmp_path):
    path = tmp_path / "d.jsonl"
    code = ("import os, sys; from deid_engine.review.decisions import DecisionLog;"
            "from deid_engine.types import Decision, Span;"
            f"lg = DecisionLog({str(path)!r});"
            f"lg.append([Decision({DOC!r}, Span(0, 4, 'NAME'), 'accept')]);"
            "os._exit(9)")
    r = subprocess.run([sys.executable, "-c", code])
    assert r.returncode == 9
    assert [d.verdict for d in load_log(path).for_doc(DOC)] == ["accept"]


def test_log_never_contains_span_text(tmp_path):
    path = tmp_path / "d.jsonl"
    doc = Document("Patient Zebulon Quagmire admitted")
    lg = DecisionLog(path)
    lg.append([Decision(doc.doc_id, Span(8, 24, "PATIENT"), "add")])
    lg.close()
    assert "Zebulon" not in path.read_text()


# --- session: undo/redo, occurrences --------------------------------------------------

def test_session_undo_redo_is_append_only(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    lg = DecisionLog(tmp_path / "d.jsonl")
    s = ReviewSession(folder, lg, store=FolderStore(folder, tmp_path / "store"))
    doc = Document("Seen by Dr Adams and Dr Adams again. Adamson no.")
    e, _ = s.add_document("n.txt", doc, (Span(11, 16, "DOCTOR", "lexicon:x", 0.6),))
    s.decide([s.make(e, Span(11, 16, "DOCTOR"), "accept")])
    assert s.reviewed(e)[0].verdict == ACCEPTED
    size = (tmp_path / "d.jsonl").stat().st_size
    s.undo()
    assert s.reviewed(e)[0].verdict == PENDING
    assert (tmp_path / "d.jsonl").stat().st_size > size  # undo appended, nothing rewritten
    s.redo()
    assert s.reviewed(e)[0].verdict == ACCEPTED
    occ = s.occurrence_decisions("Adams", "accept", "DOCTOR", [e])
    assert [(d.span.start, d.span.end, d.verdict) for d in occ] == [(24, 29, "add")]
    s.decide(occ)
    lg.close()
    idx = load_log(tmp_path / "d.jsonl")
    rs = apply_decisions(e.predicted, idx.for_doc(doc.doc_id))
    assert [(r.start, r.verdict) for r in rs] == [(11, ACCEPTED), (24, ADDED)]


# --- scanning a folder: cache, problems, changed on disk -------------------------------

class WordDetector:
    """Tags fixed words (test double with a real detect())."""

    name = "words"

    def __init__(self):
        self.calls = 0

    def load(self):
        pass

    def describe(self):
        return {"version": 1}

    def detect(self, doc):
        self.calls += 1
        return [Span(a, b, "PATIENT", "lexicon:test", 0.8) for a, b in occurrences(doc.text, "Quagmire")]


def _scan(folder, det, store):
    return list(scan_folder(folder, Pipeline([det], name="t"), store))


def test_scan_folder_caches_and_reports_problems(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text("Mr Quagmire seen.\n")
    (folder / "b.txt").write_bytes(b"\x00\x01\x02binary")
    (folder / "c.txt").write_text("")
    store = FolderStore(folder, tmp_path / "store")
    det = WordDetector()
    items = _scan(folder, det, store)
    probs = {i.key: i.problem.reason for i in items if isinstance(i, ProblemItem)}
    assert "binary" in probs["b.txt"] and "empty" in probs["c.txt"]
    tagged = [i for i in items if isinstance(i, TaggedItem)]
    assert [(s.start, s.end) for s in tagged[0].spans] == [(3, 11)]
    det2 = WordDetector()
    items2 = _scan(folder, det2, store)
    assert det2.calls == 0  # from the cache
    cached = [i for i in items2 if isinstance(i, ReadDocument)]
    assert cached[0].cached and cached[0].cached[0].start == 3


def test_changed_on_disk_is_flagged_and_old_decisions_not_applied(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text("Mr Quagmire seen.\n")
    lg = DecisionLog(tmp_path / "d.jsonl")
    store = FolderStore(folder, tmp_path / "store")
    s = ReviewSession(folder, lg, store=store)
    doc = Document((folder / "a.txt").read_text(), path=folder / "a.txt")
    e, _ = s.add_document("a.txt", doc, ())
    s.decide([s.make(e, Span(3, 11, "PATIENT"), "add")])
    s.save_manifest()
    assert not e.changed
    (folder / "a.txt").write_text("Mrs Quagmire seen today.\n")
    s2 = ReviewSession(folder, lg, store=store)
    doc2 = Document((folder / "a.txt").read_text(), path=folder / "a.txt")
    e2, _ = s2.add_document("a.txt", doc2, ())
    assert e2.changed
    assert s2.reviewed(e2) == []
    s2.save_manifest()
    s3 = ReviewSession(folder, lg, store=store)
    e3, _ = s3.add_document("a.txt", doc2, ())
    assert e3.changed  # still flagged until reviewed
    s3.mark(e3, "reviewed")
    assert not e3.changed


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(1, 8), st.sampled_from(["accept", "reject", "add", "relabel"]),
                          st.sampled_from(["NAME", "DATE", "AGE"])), max_size=12))
def test_final_spans_never_overlap_and_exclude_rejected(ops):
    preds = [Span(0, 5, "NAME"), Span(6, 12, "DATE"), Span(20, 26, "AGE")]
    decisions = [Decision(DOC, Span(a, a + n, lbl), v) for a, n, v, lbl in ops]
    rs = apply_decisions(preds, decisions)
    fs = final_spans(rs)
    for x, y in zip(fs, fs[1:]):
        assert x.end <= y.start
    rejected = [r for r in rs if r.verdict == REJECTED]
    confirmed = [r for r in rs if r.verdict in (ACCEPTED, ADDED, RELABELLED)]
    for r in rejected:
        # a rejected span's characters are redacted only if some other kept span covers them
        for i in range(r.start, r.end):
            if any(f.start <= i < f.end for f in fs):
                assert any(c.start <= i < c.end for c in confirmed) or any(
                    p.start <= i < p.end for p in rs if p.verdict == PENDING)


def test_pending_inside_a_confirmed_span_is_not_listed():
    preds = [Span(0, 6, "DOCTOR", "lexicon:x"), Span(7, 13, "DOCTOR", "lexicon:x"), Span(20, 25, "CITY")]
    rs = apply_decisions(preds, [dec("add", 0, 13, "NAME")])
    assert [(r.start, r.end, r.verdict) for r in rs] == [(0, 13, ADDED), (20, 25, PENDING)]
    rs = apply_decisions(preds, [dec("add", 0, 13, "NAME"), dec("reject", 0, 13, "NAME")])
    assert [(r.start, r.end) for r in rs] == [(0, 6), (7, 13), (20, 25)]  # back when the add is withdrawn


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20), st.integers(1, 6)), max_size=8),
       st.lists(st.tuples(st.integers(0, 20), st.integers(1, 8), st.sampled_from(["accept", "reject", "add", "relabel"]),
                          st.sampled_from(["NAME", "DATE"])), max_size=10))
def test_incremental_application_equals_full_recomputation(pred_pos, ops):
    from deid_engine.review.state import apply_incremental

    preds = [Span(a, a + n, "NAME", "tagger:x", 0.7) for a, n in pred_pos]
    pmap = {}
    for s in preds:
        pmap.setdefault((s.start, s.end), s)
    decisions = [Decision(DOC, Span(a, a + n, lbl), v) for a, n, v, lbl in ops]
    rs = apply_decisions(preds, [])
    keys = [(r.start, r.end) for r in rs]
    for k, d in enumerate(decisions):
        if not apply_incremental(rs, keys, pmap, sorted(pmap), d):
            rs = apply_decisions(preds, decisions[:k + 1])
            keys = [(r.start, r.end) for r in rs]
        assert rs == apply_decisions(preds, decisions[:k + 1])
        assert keys == [(r.start, r.end) for r in rs]
