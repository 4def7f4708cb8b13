"""docx / rtf / pdf / csv: read, redact, write back with formatting and other bytes kept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_engine.io.formats import READERS, read_document_file
from deid_engine.io.formats_extra import parse_csv_cells, rtf_escape
from deid_engine.pipeline import Pipeline
from deid_engine.redact.export import ExportOptions, ExportSummary, export_folder
from deid_engine.types import Span

KEY = bytes(range(32))


class Stub:
    name = "stub"
    rx = re.compile(r"(?P<PATIENT>John Smith|Smith)|(?P<PHONE>\d{3}-\d{3}-\d{4})")

    def load(self):
        pass

    def detect(self, doc):
        return [Span(m.start(), m.end(), m.lastgroup, "pattern:stub") for m in self.rx.finditer(doc.text)]


def export(d: Path, out: Path, **opts) -> ExportSummary:
    items = list(export_folder(d, out, ExportOptions(**opts), key=KEY, pipeline=Pipeline([Stub()])))
    return items[-1]


def test_readers_registered():
    for ext in (".txt", ".docx", ".rtf", ".pdf", ".csv"):
        assert ext in READERS


def make_docx(path: Path) -> None:
    import docx

    d = docx.Document()
    p = d.add_paragraph()
    p.add_run("Patient ")
    r = p.add_run("John Sm")  # the name crosses runs with different formatting
    r.bold = True
    r2 = p.add_run("ith")
    r2.italic = True
    p.add_run(" phoned 410-955-1234 today.")
    t = d.add_table(rows=1, cols=2)
    t.cell(0, 0).text = "Contact"
    t.cell(0, 1).text = "Smith"
    d.sections[0].header.paragraphs[0].text = "Chart of John Smith"
    d.core_properties.author = "Dr Who Wrote It"
    d.save(str(path))


def test_docx_round_trip(tmp_path):
    import docx

    d = tmp_path / "in"
    d.mkdir()
    make_docx(d / "note.docx")
    (doc,) = read_document_file(d / "note.docx")
    assert "Patient John Smith phoned" in doc.text and "Chart of John Smith" in doc.text
    s = export(d, tmp_path / "out", operator="tag")
    assert s.files_ok == 1
    out = docx.Document(str(tmp_path / "out" / "note.docx"))
    p = out.paragraphs[0]
    assert p.text == "Patient [NAME] phoned [CONTACT] today."
    runs = p.runs
    assert runs[1].bold and runs[1].text == "[NAME]"  # replacement in the first run of the span
    assert runs[2].text == "" and runs[2].italic  # the rest of the span cut from the next run
    assert out.tables[0].cell(0, 1).text == "[NAME]" and out.tables[0].cell(0, 0).text == "Contact"
    assert out.sections[0].header.paragraphs[0].text == "Chart of [NAME]"
    assert out.core_properties.author == ""
    (again,) = read_document_file(tmp_path / "out" / "note.docx")
    assert "Smith" not in again.text


def test_csv_columns_kept_byte_exact(tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    raw = ('id;note;score\r\n'
           '7;"John Smith said ""hi"" today, call 410-955-1234";3\r\n'
           '8;Smith came back later today again;4\r\n'
           '9;;5\r\n')
    (d / "t.csv").write_bytes(raw.encode("utf-8"))
    docs = read_document_file(d / "t.csv")
    assert [x.metadata["row"] for x in docs] == [1, 2] and docs[0].metadata["column"] == "note"
    assert docs[0].text == 'John Smith said "hi" today, call 410-955-1234'
    s = export(d, tmp_path / "out", operator="tag", csv_id_columns=("id",))
    assert s.files_ok == 1
    out = (tmp_path / "out" / "t.csv").read_bytes().decode("utf-8")
    lines = out.split("\r\n")
    assert lines[0] == "id;note;score" and lines[1].endswith(";3") and lines[3].endswith(";;5")
    assert '"[NAME] said ""hi"" today, call [CONTACT]"' in lines[1]
    assert lines[2].split(";")[1] == "[NAME] came back later today again"
    assert lines[1].startswith("ID-") and "7;" not in lines[1][:3]  # id pseudonymised
    s2 = export(d, tmp_path / "out2", operator="tag", csv_columns=("score",), verify=False)
    assert (tmp_path / "out2" / "t.csv").read_bytes().decode().split("\r\n")[1].startswith('7;"John Smith')


@given(st.lists(st.lists(st.text(alphabet='ab ,"\n\r;x', max_size=6), min_size=2, max_size=2), min_size=1, max_size=5))
@settings(max_examples=200, deadline=None)
def test_csv_parser_matches_stdlib(rows):
    import csv
    import io

    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows(rows)
    text = buf.getvalue()
    got = [[c.value for c in r] for r in parse_csv_cells(text, ",")]
    want = [r for r in csv.reader(io.StringIO(text, newline=""))]
    assert got == [w for w in want if w != [""] and w != []]
    for r in parse_csv_cells(text, ","):
        for c in r:
            raw = text[c.start:c.end]
            assert raw == (c.value if not c.quoted else '"' + c.value.replace('"', '""') + '"')


def test_rtf_round_trip(tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    (d / "n.rtf").write_text(r"{\rtf1\ansi{\fonttbl{\f0 Arial;}}\f0 Patient {\b John Smith}\par phoned 410-955-1234 caf\'e9\par}",
                             encoding="latin-1")
    (doc,) = read_document_file(d / "n.rtf")
    assert "John Smith" in doc.text and "café" in doc.text
    s = export(d, tmp_path / "out", operator="tag")
    assert s.files_ok == 1
    (back,) = read_document_file(tmp_path / "out" / "n.rtf")
    assert "[NAME]" in back.text and "Smith" not in back.text and "café" in back.text
    raw = (tmp_path / "out" / "n.rtf").read_text(encoding="latin-1")
    assert "{\\b [NAME]}" in raw and "\\fonttbl" in raw  # replaced in place: formatting kept
    import json

    assert "in place" in json.loads(s.report_path.read_text())["files"][0]["note"]


def test_rtf_info_dropped_and_fallback(tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    (d / "a.rtf").write_text(r"{\rtf1\ansi{\info{\author John Smith}}Patient John Smith\par}", encoding="latin-1")
    # the name split by a formatting group cannot be replaced in place: plain RTF fallback
    (d / "b.rtf").write_text(r"{\rtf1\ansi Patient John {\b Smith} ok\par}", encoding="latin-1")
    s = export(d, tmp_path / "out", operator="tag")
    assert s.files_ok == 2
    for n in ("a.rtf", "b.rtf"):
        raw = (tmp_path / "out" / n).read_text(encoding="latin-1")
        assert "Smith" not in raw and "John" not in raw, n
        (back,) = read_document_file(tmp_path / "out" / n)
        assert "[NAME]" in back.text
    assert rtf_escape("a{b}\\ é") == "a\\{b\\}\\\\ \\u233?"


def _make_pdf(path: Path, text: str) -> None:
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    w = PdfWriter()
    page = w.add_blank_page(612, 792)
    font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject("/Helvetica")})
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject(
        {NameObject("/F1"): w._add_object(font)})})
    stream = DecodedStreamObject()
    stream.set_data(f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode("latin-1"))
    page[NameObject("/Contents")] = w._add_object(stream)
    with open(path, "wb") as f:
        w.write(f)


def test_pdf_written_as_text(tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    _make_pdf(d / "n.pdf", "Patient John Smith phoned 410-955-1234")
    (doc,) = read_document_file(d / "n.pdf")
    assert "John Smith" in doc.text
    s = export(d, tmp_path / "out", operator="tag")
    assert s.files_ok == 1
    out = (tmp_path / "out" / "n.pdf.txt").read_text(encoding="utf-8")
    assert "[NAME]" in out and "Smith" not in out
    import json

    report = json.loads(s.report_path.read_text())
    assert "PDF" in report["files"][0]["note"]


def test_docx_hyperlink_targets_and_fields_redacted(tmp_path):
    import docx
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from docx.oxml.ns import qn
    from docx.oxml import OxmlElement

    d = tmp_path / "in"
    d.mkdir()
    doc = docx.Document()
    p = doc.add_paragraph("Mail ")
    rid = doc.part.relate_to("mailto:john.smith@example.org", RT.HYPERLINK, is_external=True)
    h = OxmlElement("w:hyperlink")
    h.set(qn("r:id"), rid)
    r = OxmlElement("w:r")
    t = OxmlElement("w:t")
    t.text = "John Smith"
    r.append(t)
    h.append(r)
    p._p.append(h)
    doc.save(str(d / "h.docx"))
    (read,) = read_document_file(d / "h.docx")
    assert read.text == "Mail John Smith"  # hyperlink text is read too
    export(d, tmp_path / "out", operator="tag")
    import zipfile

    z = zipfile.ZipFile(tmp_path / "out" / "h.docx")
    blob = b"".join(z.read(n) for n in z.namelist())
    assert b"john.smith" not in blob.lower() and b"John Smith" not in blob


def test_docx_comments_are_read_and_redacted(tmp_path):
    import docx
    import zipfile

    d = tmp_path / "in"
    d.mkdir()
    doc = docx.Document()
    p = doc.add_paragraph("Seen today.")
    if not hasattr(doc, "add_comment"):
        pytest.skip("python-docx without comment support")
    doc.add_comment(p.runs, text="Call John Smith at 410-955-1234", author="Reviewer", initials="R")
    doc.save(str(d / "c.docx"))
    (read,) = read_document_file(d / "c.docx")
    assert "John Smith" in read.text
    export(d, tmp_path / "out", operator="tag")
    z = zipfile.ZipFile(tmp_path / "out" / "c.docx")
    blob = b"".join(z.read(n) for n in z.namelist())
    assert b"John Smith" not in blob and b"410-955-1234" not in blob and b"Reviewer" not in blob
