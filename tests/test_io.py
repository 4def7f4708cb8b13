import codecs
import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from deid_engine.io.brat import format_ann, parse_ann, read_brat_folder, write_brat_folder
from deid_engine.io.folder import iter_folder
from deid_engine.io.jsonl import Record, read_jsonl, write_jsonl
from deid_engine.io.text import ReadError, decode_bytes, encode_text
from deid_engine.types import AnnotatedDocument, Document, FileProblem, Span


def test_parse_ann_discontinuous_and_notes():
    ann = "T1\tDate 0 4\t7/22\n#1\tAnnotatorNotes T1\tnote\nT2\tHCPName 5 8;10 12\tab cd\nR1\tRel Arg1:T1 Arg2:T2\nT3\tBad\n"
    spans = parse_ann(ann, 20)
    assert [(s.start, s.end, s.label) for s in spans] == [(0, 4, "Date"), (5, 8, "HCPName"), (10, 12, "HCPName")]


def test_parse_ann_skips_out_of_range():
    assert parse_ann("T1\tDate 0 40\tx\n", 10) == []


@pytest.mark.parametrize("bom, codec", [(codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le")])
def test_brat_offsets_count_the_bom(tmp_path, bom, codec):
    # BRAT (and MEDDOCAN's files) count a leading byte-order mark as a character;
    # the decoded text drops it, so the gold spans must move left by one.
    text = "Nombre: Blanca.\nFecha: 05/03/1996."
    (tmp_path / "n.txt").write_bytes(bom + text.encode(codec))
    (tmp_path / "n.ann").write_text("T1\tNOMBRE_SUJETO_ASISTENCIA 9 15\tBlanca\n"
                                    "T2\tFECHAS 24 34\t05/03/1996\n", encoding="utf-8")
    doc = read_brat_folder(tmp_path)[0]
    assert doc.text == text
    assert [doc.text[s.start:s.end] for s in doc.spans] == ["Blanca", "05/03/1996"]


def test_brat_folder_roundtrip(tmp_path):
    doc = AnnotatedDocument(Document("Seen by Dr Smith\r\non 7/22.", name="n1"),
                            (Span(11, 16, "DOCTOR"), Span(21, 25, "DATE")))
    write_brat_folder(tmp_path, [doc])
    back = read_brat_folder(tmp_path)
    assert back[0].text == doc.text
    assert [s.key() for s in back[0].spans] == [s.key() for s in doc.spans]


_text = st.text(alphabet=st.sampled_from(list("abcXYZ 019\n\t\r.,é😀")), min_size=1, max_size=80)


@st.composite
def annotated(draw):
    text = draw(_text)
    n = len(text)
    spans = set()
    for _ in range(draw(st.integers(0, 5))):
        a = draw(st.integers(0, n - 1))
        b = draw(st.integers(a + 1, n))
        spans.add(Span(a, b, draw(st.sampled_from(["DATE", "NAME", "CALLE"]))))
    return AnnotatedDocument(Document(text, name="doc"), tuple(spans))


@given(annotated())
@settings(max_examples=100, deadline=None)
def test_brat_ann_roundtrip_property(doc):
    spans = parse_ann(format_ann(doc), len(doc.text))
    assert sorted(s.key() for s in spans) == sorted(s.key() for s in doc.spans)


@given(annotated())
@settings(max_examples=50, deadline=None)
def test_jsonl_roundtrip_property(tmp_path_factory, doc):
    p = tmp_path_factory.mktemp("j") / "x.jsonl"
    write_jsonl(p, [Record.from_annotated(doc)])
    back = read_jsonl(p)[0].to_annotated()
    assert back.text == doc.text and back.spans == doc.spans


def test_jsonl_prediction_format(tmp_path):
    p = tmp_path / "pred.jsonl"
    write_jsonl(p, [Record("p001-n001", (Span(0, 4, "DATE", "pattern:date", 0.9),))])
    d = json.loads(p.read_text())
    assert d["id"] == "p001-n001" and d["spans"][0]["start"] == 0 and d["spans"][0]["label"] == "DATE"
    assert "text" not in d


@pytest.mark.parametrize("data,enc,text", [
    ("héllo".encode("utf-8"), "utf-8", "héllo"),
    (codecs.BOM_UTF8 + "héllo".encode("utf-8"), "utf-8-sig", "héllo"),
    (codecs.BOM_UTF16_LE + "héllo\r\n".encode("utf-16-le"), "utf-16", "héllo\r\n"),
    (codecs.BOM_UTF16_BE + "héllo".encode("utf-16-be"), "utf-16", "héllo"),
])
def test_decode(data, enc, text):
    d = decode_bytes(data)
    assert (d.text, d.encoding, d.warning) == (text, enc, "")


def test_decode_cp1252_fallback_warns():
    d = decode_bytes("café – ok".encode("cp1252"))
    assert d.text == "café – ok" and d.encoding == "cp1252" and "cp1252" in d.warning


def test_decode_binary_rejected():
    with pytest.raises(ReadError, match="binary"):
        decode_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")


def test_encode_roundtrip_bytes():
    for data in [codecs.BOM_UTF8 + b"a\r\nb", codecs.BOM_UTF16_LE + "x\r\n".encode("utf-16-le"), b"plain"]:
        d = decode_bytes(data)
        assert encode_text(d.text, d.encoding) == data


def test_folder_reports_bad_files_and_goes_on(tmp_path):
    (tmp_path / "a.txt").write_text("Seen by Dr Smith", encoding="utf-8")
    (tmp_path / "b.txt").write_bytes(b"\x00\x01\x02binary")
    (tmp_path / "c.txt").write_bytes("caf\xe9".encode("latin-1"))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "d.txt").write_text("", encoding="utf-8")
    (tmp_path / "e.ann").write_text("ignored", encoding="utf-8")
    items = list(iter_folder(tmp_path))
    docs = [i for i in items if isinstance(i, Document)]
    probs = [i for i in items if isinstance(i, FileProblem)]
    assert sorted(d.metadata["relpath"] for d in docs) == ["a.txt", "c.txt", "sub/d.txt"]
    errors = [p for p in probs if not p.warning]
    warnings = [p for p in probs if p.warning]
    assert [p.path.name for p in errors] == ["b.txt"] and "binary" in errors[0].reason
    assert [p.path.name for p in warnings] == ["c.txt"]


def test_folder_missing():
    items = list(iter_folder(Path("/nonexistent/folder")))
    assert len(items) == 1 and isinstance(items[0], FileProblem)


def test_unreadable_file(tmp_path):
    import os

    p = tmp_path / "locked.txt"
    p.write_text("x")
    p.chmod(0)
    try:
        if os.access(p, os.R_OK):
            pytest.skip("running as root: permissions are not enforced")
        items = list(iter_folder(tmp_path))
        assert isinstance(items[0], FileProblem) and "permission" in items[0].reason
    finally:
        p.chmod(0o644)
