"""The learning loop: decisions -> examples, export, registry, fine-tuning, uncertainty."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from deid_engine.learn import registry
from deid_engine.learn.active import order_spans, rank_by_uncertainty, span_uncertainty
from deid_engine.learn.examples import (ReviewedDoc, examples_from_review, examples_from_reviews, export_examples,
                                        from_folders, from_session, holdout_ids)
from deid_engine.model.data import bio_tags, tag_names
from deid_engine.tokenize import tokenize
from deid_engine.types import Decision, Document, Span

TEXT = ("Patient John Smith was seen today. He lives in Boston.\n"
        "Follow-up with Dr Okafor on 12/03/2024. Aspirin daily.\n"
        "Contact Mary at home.")


def _span(text: str, s: str, label: str, source: str = "tagger:en", conf: float = 0.9, nth: int = 0) -> Span:
    i = -1
    for _ in range(nth + 1):
        i = text.index(s, i + 1)
    return Span(i, i + len(s), label, source, conf)


def _doc_id(text: str) -> str:
    return Document(text).doc_id


def _dec(text: str, span: Span, verdict: str, label: str | None = None) -> Decision:
    return Decision(_doc_id(text), span.with_label(label or span.label), verdict, time.time())


def _preds(text=TEXT):
    return (_span(text, "John Smith", "PATIENT"), _span(text, "Boston", "CITY"),
            _span(text, "Okafor", "DOCTOR"), _span(text, "12/03/2024", "DATE"), _span(text, "Aspirin", "PATIENT"),
            _span(text, "Mary", "PATIENT"))


# --- decisions -> examples ---------------------------------------------------------

def test_fully_reviewed_document_all_verdicts():
    p = _preds()
    john, boston, okafor, date, aspirin, mary = p
    added = _span(TEXT, "Dr Okafor", "DOCTOR", "user:review", 1.0)
    decisions = [_dec(TEXT, john, "accept"), _dec(TEXT, boston, "relabel", "LOCATION"),
                 _dec(TEXT, aspirin, "reject"), _dec(TEXT, okafor, "reject"), _dec(TEXT, added, "add"),
                 _dec(TEXT, date, "accept"), _dec(TEXT, mary, "accept", "RELATIVE")]
    rd = ReviewedDoc(_doc_id(TEXT), TEXT, "note1", p, decisions, "reviewed")
    exs = examples_from_review(rd)
    assert len(exs) == 1 and exs[0].text == TEXT and exs[0].offset == 0
    got = {(TEXT[s.start:s.end], s.label) for s in exs[0].spans}
    assert got == {("John Smith", "PATIENT"), ("Boston", "LOCATION"), ("Dr Okafor", "DOCTOR"),
                   ("12/03/2024", "DATE"), ("Mary", "RELATIVE")}
    # rejected spans are negative examples: their tokens are tagged O
    assert {TEXT[s.start:s.end] for s in exs[0].rejected} == {"Aspirin", "Okafor"}
    labels = sorted({s.label for s in exs[0].spans})
    tags = tag_names(labels)
    toks = tokenize(exs[0].text)
    tg = bio_tags(toks, exs[0].spans, {t: i for i, t in enumerate(tags)})
    by_text = {t.text: tags[tg[i]] for i, t in enumerate(toks)}
    assert by_text["Aspirin"] == "O"
    assert by_text["Dr"] == "B-DOCTOR" and by_text["Okafor"] == "I-DOCTOR"
    assert by_text["Boston"] == "B-LOCATION"


def test_partly_reviewed_only_decided_sentences_pending_excluded():
    p = _preds()
    john, boston, okafor, date, aspirin, mary = p
    # in review (not marked): sentence 1 decided; line 2 has a decided and a pending span; line 3 untouched
    decisions = [_dec(TEXT, john, "accept"), _dec(TEXT, okafor, "accept")]
    rd = ReviewedDoc(_doc_id(TEXT), TEXT, "n", p, decisions, None)
    exs = examples_from_review(rd)
    texts = [e.text for e in exs]
    assert texts == ["Patient John Smith was seen today."]
    assert [(e.text[s.start:s.end], s.label) for e in exs for s in e.spans] == [("John Smith", "PATIENT")]
    # accepting the date and rejecting Aspirin completes line 2's first sentence; Boston's sentence pending
    decisions += [_dec(TEXT, date, "accept")]
    exs = examples_from_review(ReviewedDoc(_doc_id(TEXT), TEXT, "n", p, decisions, None))
    assert [e.text for e in exs] == ["Patient John Smith was seen today.", "Follow-up with Dr Okafor on 12/03/2024."]
    assert exs[1].offset == TEXT.index("Follow-up")
    for e in exs:  # shifted offsets point at the same characters
        for s in e.spans:
            assert TEXT[e.offset + s.start:e.offset + s.end] == e.text[s.start:s.end]


def test_marked_reviewed_with_pending_span_leaves_that_sentence_out():
    p = _preds()
    decisions = [_dec(TEXT, s, "accept") for s in p if TEXT[s.start:s.end] != "Mary"]
    rd = ReviewedDoc(_doc_id(TEXT), TEXT, "n", p, decisions, "reviewed")
    exs = examples_from_review(rd)
    joined = " ".join(e.text for e in exs)
    assert "Mary" not in joined and "Boston" in joined and "Aspirin" in joined
    # a span-free sentence of a reviewed document is taught (all O)
    assert any("He lives in Boston." in e.text for e in exs)


def test_untouched_document_teaches_nothing():
    rd = ReviewedDoc(_doc_id(TEXT), TEXT, "n", _preds(), [], None)
    assert examples_from_review(rd) == []


def test_span_across_sentences_merges_blocks():
    text = "Seen by Dr. A. Jones. Then home. Pending here: Zed."
    sp = _span(text, "Dr. A. Jones", "DOCTOR", "user:review", 1.0)
    pend = _span(text, "Zed", "PATIENT")
    rd = ReviewedDoc(_doc_id(text), text, "n", (pend,), [_dec(text, sp, "add")], None)
    exs = examples_from_review(rd)
    assert len(exs) == 1
    e = exs[0]
    assert e.text[e.spans[0].start:e.spans[0].end] == "Dr. A. Jones"
    assert "Zed" not in e.text


@pytest.mark.parametrize("seed", range(20))
def test_regions_never_contain_pending_and_spans_stay_aligned(seed):
    rng = random.Random(seed)
    words = ["Ann", "Bo", "seen", "today", ".", "\n", "x", "Lee", "Dr", "on", "12/01/2020", ","]
    text = " ".join(rng.choice(words) for _ in range(60))
    toks = tokenize(text)
    preds = []
    pos = 0
    while pos < len(toks):
        if rng.random() < 0.25:
            k = rng.randint(1, 3)
            a, b = toks[pos].start, toks[min(pos + k, len(toks)) - 1].end
            preds.append(Span(a, b, rng.choice(["PATIENT", "DATE"]), "tagger:en", rng.random()))
            pos += k + 1
        else:
            pos += 1
    did = _doc_id(text)
    decisions = [Decision(did, s, rng.choice(["accept", "reject"]), time.time()) for s in preds if rng.random() < 0.6]
    for mark in (None, "reviewed"):
        rd = ReviewedDoc(did, text, "n", tuple(preds), decisions, mark)
        pending = [r for r in rd.reviewed_spans() if r.is_pending]
        for e in examples_from_review(rd):
            a, b = e.offset, e.offset + len(e.text)
            assert text[a:b] == e.text
            assert not any(r.start < b and a < r.end for r in pending)
            for s in e.spans:
                assert 0 <= s.start < s.end <= len(e.text)


def test_holdout_split_is_fixed_per_document():
    ids = [f"{i:064x}" for i in range(200)]
    h1 = holdout_ids(ids[:50])
    h2 = holdout_ids(ids)
    assert h1 <= h2 and h2 & set(ids[:50]) == h1
    assert 0.1 < len(h2) / len(ids) < 0.3
    assert holdout_ids(ids[:3])  # small sets still hold one back


# --- sources: a review session on a real folder -------------------------------------------

def _session_folder(tmp_path: Path):
    from deid_engine.review.session import ReviewSession

    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXT, encoding="utf-8")
    other = "Nothing to see. Seen by Dr Lee."
    (folder / "b.txt").write_text(other, encoding="utf-8")
    ses = ReviewSession(folder)
    for key, txt, preds in (("a.txt", TEXT, _preds()), ("b.txt", other, (_span(other, "Lee", "DOCTOR"),))):
        e, _ = ses.add_document(key, Document(txt, path=folder / key))
        ses.set_predictions(key, preds)
        ses.store.append_predictions([(e.doc_id, tuple(preds))], "v1")
    ses.save_manifest()
    ea = ses.by_key["a.txt"]
    ses.decide([ses.make(ea, r.span, "accept") for r in ses.reviewed(ea) if r.span.label != "PATIENT" or
                "John" in TEXT[r.start:r.end]])
    ses.decide([ses.make(ea, _span(TEXT, "Aspirin", "PATIENT"), "reject"),
                ses.make(ea, _span(TEXT, "Mary", "PATIENT"), "reject")])
    ses.mark(ea, "reviewed")
    return folder, ses


def test_from_session_and_from_folders_agree(tmp_path):
    folder, ses = _session_folder(tmp_path)
    a = from_session(ses)
    b = from_folders()  # the folder is found through its manifest in the user data dir
    assert [d.doc_id for d in a] == [d.doc_id for d in b] == [_doc_id(TEXT)]
    ea, eb = examples_from_reviews(a), examples_from_reviews(b)
    assert [(e.text, e.spans) for e in ea] == [(e.text, e.spans) for e in eb]
    assert len(ea) == 1 and {TEXT[s.start:s.end] for s in ea[0].spans} == {"John Smith", "Boston", "Okafor",
                                                                          "12/03/2024"}


def test_export_brat_and_jsonl(tmp_path):
    from deid_engine.io.brat import read_brat_folder
    from deid_engine.io.jsonl import read_jsonl

    folder, ses = _session_folder(tmp_path)
    exs = examples_from_reviews(from_session(ses))
    n = export_examples(exs, tmp_path / "brat", "brat")
    assert n == 1
    docs = read_brat_folder(tmp_path / "brat")
    assert docs[0].text == TEXT and [(s.start, s.end, s.label) for s in docs[0].spans] == \
        [(s.start, s.end, s.label) for s in exs[0].spans]
    export_examples(exs, tmp_path / "r.jsonl", "jsonl")
    recs = read_jsonl(tmp_path / "r.jsonl")
    assert recs[0].text == TEXT and [s.key() for s in recs[0].spans] == [s.key() for s in exs[0].spans]
    with pytest.raises(ValueError):
        export_examples(exs, tmp_path / "x", "csv")


def test_cli_export_reviews(tmp_path, capsys):
    from deid_engine.cli import main

    folder, ses = _session_folder(tmp_path)
    out = tmp_path / "out.jsonl"
    assert main(["export-reviews", "--format", "jsonl", "--folder", str(folder), str(out)]) == 0
    rec = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert rec["text"] == TEXT and len(rec["spans"]) == 4


# --- registry ----------------------------------------------------------------------

class _FakeModel:
    def __init__(self):
        self.meta = {}

    def save(self, folder):
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "model.pt").write_bytes(b"x")
        (folder / "model.json").write_text(json.dumps({"format": "deid-tagger.v1", **self.meta}))
        return folder


def test_registry_save_list_activate_rollback(tmp_path):
    assert registry.active_id("en") == ""
    v1 = registry.save_version(_FakeModel(), "en", {"comparison": {}})
    time.sleep(0.01)
    v2 = registry.save_version(_FakeModel(), "en", parent=v1.id)
    assert [v.id for v in registry.list_versions("en")] == sorted([v1.id, v2.id])
    assert str(v1.path).startswith(str(Path(tmp_path).parent)) or v1.path.is_dir()
    assert (v1.path / "metrics.json").is_file() and (v1.path / "model.pt").is_file()
    assert registry.active_id("en") == ""  # saving does not adopt
    registry.activate("en", v1.id)
    registry.activate("en", v2.id)
    assert registry.active_id("en") == v2.id and registry.active_model_dir("en") == v2.path
    assert registry.describe_active("en")["model_id"] == v2.id
    assert registry.rollback("en") == v1.id
    assert registry.rollback("en") == ""
    assert registry.active_id("en") == "" and registry.active_id("es") == ""
    with pytest.raises(KeyError):
        registry.activate("en", "nope")
    registry.activate("en", v2.id)
    import shutil

    shutil.rmtree(v2.path)  # a vanished version falls back to bundled
    assert registry.active_id("en") == ""


def test_tagger_model_dir_follows_registry(tmp_path):
    from deid_engine.detect.tagger import model_dir

    v = registry.save_version(_FakeModel(), "es")
    assert model_dir("es") != v.path
    registry.activate("es", v.id)
    assert model_dir("es") == v.path
    registry.rollback("es")
    assert model_dir("es") != v.path


# --- uncertainty ------------------------------------------------------------------------

def test_uncertainty_ordering():
    a = [Span(0, 3, "PATIENT", "tagger:en", 0.99)]
    b = [Span(0, 3, "PATIENT", "tagger:en", 0.55), Span(5, 8, "DATE", "pattern:date", 0.1)]
    c: list[Span] = []
    scores = [span_uncertainty(x) for x in (a, b, c)]
    assert scores[1] == pytest.approx(0.45) and scores[2] == 0.0
    assert rank_by_uncertainty(["a", "b", "c"], scores) == ["b", "a", "c"]
    spans = [Span(0, 1, "X", "t", 0.9), Span(2, 3, "X", "t", 0.2), Span(4, 5, "X", "t", 0.5)]
    assert [s.confidence for s in order_spans(spans)] == [0.2, 0.5, 0.9]


def test_collect_reviewed_adds_other_folders(tmp_path):
    from deid_engine.learn.examples import collect_reviewed
    from deid_engine.review.session import ReviewSession

    folder, ses = _session_folder(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    txt = "Seen by Dr Lee today."
    (other / "x.txt").write_text(txt, encoding="utf-8")
    s2 = ReviewSession(other, log=ses.log, index=ses.index)
    e, _ = s2.add_document("x.txt", Document(txt, path=other / "x.txt"))
    s2.decide([s2.make(e, _span(txt, "Lee", "DOCTOR", "user:review", 1.0), "add")])
    s2.save_manifest()
    got = collect_reviewed(ses)
    assert [d.doc_id for d in got] == [_doc_id(TEXT), _doc_id(txt)]
    assert [d.doc_id for d in collect_reviewed(ses, other_folders=False)] == [_doc_id(TEXT)]
