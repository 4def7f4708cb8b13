"""Pipeline batching: run_many equals run; tag_documents batches and survives failures."""

from pathlib import Path

from deid_engine.pipeline import Pipeline, TaggedDocument, tag_documents
from deid_engine.types import Document, FileProblem, Progress, Span


class Digits:
    """Marks every digit run as an ID; counts how it was called."""

    name = "digits"

    def __init__(self):
        self.batches: list[int] = []

    def load(self):
        pass

    def detect(self, doc):
        import re

        return [Span(m.start(), m.end(), "IDNUM", "pattern:test") for m in re.finditer(r"\d+", doc.text)]

    def detect_many(self, docs):
        self.batches.append(len(docs))
        if any("BOOM" in d.text for d in docs):
            raise RuntimeError("boom")
        return [self.detect(d) for d in docs]


class Boom:
    name = "boom"

    def load(self):
        pass

    def detect(self, doc):
        if "BOOM" in doc.text:
            raise RuntimeError("no")
        return []


def _docs(n):
    return [Document(f"note {i} has id {1000 + i}", name=f"n{i}") for i in range(n)]


def test_run_many_equals_run():
    p = Pipeline([Digits()])
    docs = _docs(5)
    assert p.run_many(docs) == [p.run(d) for d in docs]


def test_tag_documents_batches_grow_and_first_result_is_alone():
    det = Digits()
    out = list(tag_documents(_docs(20), Pipeline([det]), total=20))
    tagged = [o for o in out if isinstance(o, TaggedDocument)]
    assert [t.document.name for t in tagged] == [f"n{i}" for i in range(20)]
    assert det.batches[0] == 1 and max(det.batches) > 1 and sum(det.batches) == 20
    assert isinstance(out[-1], Progress) and out[-1].done == 20


def test_a_failing_document_does_not_stop_the_batch():
    docs = _docs(6)
    docs.insert(3, Document("BOOM 12", name="bad", path=Path("bad.txt")))
    out = list(tag_documents([*docs, FileProblem(Path("x.bin"), "binary file")],
                             Pipeline([Digits(), Boom()]), total=8))
    tagged = [o.document.name for o in out if isinstance(o, TaggedDocument)]
    problems = [o for o in out if isinstance(o, FileProblem)]
    assert "bad" not in tagged and len(tagged) == 6
    assert {p.path.name for p in problems} == {"bad.txt", "x.bin"}
    assert all("boom" not in p.reason.lower() or "RuntimeError" in p.reason for p in problems)


def test_deid_tag_jobs_gives_the_same_predictions_as_one_process(tmp_path):
    from deid_engine.cli import main
    from deid_engine.io.jsonl import read_jsonl

    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(7):
        (notes / f"n{i}.txt").write_text(f"Seen by Dr. John Smith on 3/{i + 1}/2021. Call 617-555-01{i}9.\n" * (i + 1),
                                         encoding="utf-8")
    (notes / "bad.txt").write_bytes(b"\x00\x01binary")
    assert main(["tag", str(notes), "--out", str(tmp_path / "one.jsonl"), "--detectors", "rules",
                 "--allow-problems"]) == 0
    assert main(["tag", str(notes), "--out", str(tmp_path / "two.jsonl"), "--detectors", "rules",
                 "--allow-problems", "--jobs", "2"]) == 0
    one = [(r.id, [s.key() for s in r.spans]) for r in read_jsonl(tmp_path / "one.jsonl")]
    two = [(r.id, [s.key() for s in r.spans]) for r in read_jsonl(tmp_path / "two.jsonl")]
    assert one == two and len(one) == 7 and all(spans for _, spans in one)


def test_no_two_spans_on_the_same_characters():
    """A filter that moves a label word's span onto the number it labels ('bay' -> '2') must not leave
    two spans on '2': the pattern's is kept."""
    from deid_engine.pipeline import _one_per_extent
    from deid_engine.detect.merge import DEFAULT_PRIORITY
    from deid_engine.types import Span

    a = Span(9, 10, "LOCATION_OTHER", "tagger:en", 0.99)
    b = Span(9, 10, "LOCATION_OTHER", "pattern:room_number", 0.7)
    c = Span(0, 5, "DATE", "tagger:en", 0.5)
    assert _one_per_extent([c, a, b], DEFAULT_PRIORITY) == [c, b]
    assert _one_per_extent([c, b], DEFAULT_PRIORITY) == [c, b]
    d = Span(9, 10, "LOCATION_OTHER", "user:add", 1.0)
    assert _one_per_extent([a, d, b], DEFAULT_PRIORITY) == [d]


def test_pipeline_output_has_one_span_per_extent():
    from deid_engine.pipeline import build_pipeline
    from deid_engine.types import Document

    p = build_pipeline("rules", "en").load()
    for text in ("moved to bay 2 today", "Pt in bed 4, room 12B; seen 3/4/2020 by Dr. Ames"):
        spans = p.run(Document(text))
        assert len({(s.start, s.end) for s in spans}) == len(spans)


def test_deid_tag_policy_flags_apply_to_the_run_and_its_workers(tmp_path, monkeypatch):
    from deid_engine.cli import main
    from deid_engine.config import load_settings
    from deid_engine.io.jsonl import read_jsonl

    for k in ("AGES", "PLACES"):  # registered so that undo removes what the flags set for this process
        monkeypatch.setenv(f"DEID_SETTING_{k}", "all")
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(3):
        (notes / f"n{i}.txt").write_text(f"A 67 yo man, his father is 95 years old. Moved from Ohio in 2019. #{i}\n",
                                         encoding="utf-8")

    def words(path):
        text = (notes / "n0.txt").read_text(encoding="utf-8")
        rec = {r.id: r for r in read_jsonl(path)}["n0"]
        return {text[s.start:s.end] for s in rec.spans}

    assert main(["tag", str(notes), "--out", str(tmp_path / "all.jsonl"), "--detectors", "rules"]) == 0
    assert {"67", "95", "Ohio"} <= words(tmp_path / "all.jsonl")
    for jobs in ("1", "2"):
        out = tmp_path / f"sh{jobs}.jsonl"
        assert main(["tag", str(notes), "--out", str(out), "--detectors", "rules", "--jobs", jobs,
                     "--ages", "over89", "--places", "safe_harbor"]) == 0
        got = words(out)
        assert "95" in got and "67" not in got and "Ohio" not in got, (jobs, got)
    assert (load_settings().ages, load_settings().places) == ("over89", "safe_harbor")  # for this process only
    monkeypatch.undo()
    assert (load_settings().ages, load_settings().places) == ("all", "all")  # the settings file is untouched


def test_deid_redact_policy_flags(tmp_path, monkeypatch):
    from deid_engine.cli import main

    for k in ("AGES", "PLACES"):
        monkeypatch.setenv(f"DEID_SETTING_{k}", "all")
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text("A 67 yo man, his father is 95 years old. Moved from Ohio in 2019.\n", encoding="utf-8")
    assert main(["redact", str(notes), str(tmp_path / "out"), "--detectors", "rules", "--operator", "tag",
                 "--no-decisions", "--ages", "over89", "--places", "safe_harbor"]) == 0
    out = (tmp_path / "out" / "a.txt").read_text(encoding="utf-8")
    assert "67 yo" in out and "Ohio" in out and "95" not in out and "2019" not in out


def test_deid_tag_and_redact_professions_flag(tmp_path, monkeypatch):
    from deid_engine.cli import main
    from deid_engine.config import load_settings
    from deid_engine.io.jsonl import read_jsonl

    monkeypatch.setenv("DEID_SETTING_PROFESSIONS", "all")  # registered: undo removes what the flag sets
    notes = tmp_path / "notes"
    notes.mkdir()
    text = "A 67 yo retired welder from Ohio; he works as a plumber now.\n"
    for i in range(3):
        (notes / f"n{i}.txt").write_text(text, encoding="utf-8")

    def words(path):
        rec = {r.id: r for r in read_jsonl(path)}["n0"]
        return {text[s.start:s.end] for s in rec.spans}

    assert main(["tag", str(notes), "--out", str(tmp_path / "all.jsonl"), "--detectors", "rules"]) == 0
    assert {"67", "Ohio", "welder", "plumber"} <= words(tmp_path / "all.jsonl")
    for jobs in ("1", "2"):
        out = tmp_path / f"sh{jobs}.jsonl"
        assert main(["tag", str(notes), "--out", str(out), "--detectors", "rules", "--jobs", jobs,
                     "--professions", "safe_harbor"]) == 0
        got = words(out)
        assert {"67", "Ohio"} <= got and not {"welder", "plumber"} & got, (jobs, got)
    assert load_settings().professions == "safe_harbor"  # for this process only
    assert main(["redact", str(notes), str(tmp_path / "out"), "--detectors", "rules", "--operator", "tag",
                 "--no-decisions", "--professions", "safe_harbor"]) == 0
    out = (tmp_path / "out" / "n0.txt").read_text(encoding="utf-8")
    assert "welder" in out and "plumber" in out and "Ohio" not in out and "67 yo" not in out
    monkeypatch.undo()
    assert load_settings().professions == "all"  # the settings file is untouched


def test_spans_never_run_over_a_line_break():
    from deid_engine.pipeline import _split_at_line_breaks
    from deid_engine.types import Span

    text = "Yours sincerely,\nAda Obi\nConsultant Paediatrician\nRoyal Wyvern Hospital"
    a = text.index("Ada")
    b = text.index("Paediatrician") + len("Paediatrician")
    got = _split_at_line_breaks([Span(a, b, "DOCTOR", "tagger:en", 0.8)], text)
    assert [text[s.start:s.end] for s in got] == ["Ada Obi", "Consultant Paediatrician"]
    user = Span(a, b, "DOCTOR", "user:add", 1.0)
    assert _split_at_line_breaks([user], text) == [user]      # the reviewer's span is kept whole
    from deid_engine.pipeline import build_pipeline
    from deid_engine.types import Document

    spans = build_pipeline("default", "en").load().run(Document(text))
    assert not [s for s in spans if "\n" in text[s.start:s.end]]
    assert "Consultant Paediatrician" not in [text[s.start:s.end] for s in spans]
