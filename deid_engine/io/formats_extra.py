"""Readers and redacted-copy writers for .docx, .rtf, .pdf and .csv notes.

Each reader returns ``list[Document]`` (registered in ``formats.READERS``);
each writer takes the original file and the edits made to each of its
documents (``redact.operators.Edit``, in the document's text coordinates) and
writes the redacted copy:

- **.docx** (python-docx): the text is every ``w:t`` of every paragraph of
  the body (tables, text boxes, hyperlinks), headers, footers, footnotes,
  endnotes and comments, paragraphs joined by ``\\n``; tabs and breaks read
  as ``\\t``/``\\n``. A replacement goes into the first text node its span
  touches; the rest of the span is cut from the following nodes, so run
  formatting stays. Tracked deletions are emptied, comment/revision authors
  and core properties cleared, leaking hyperlink targets and field codes
  blanked.
- **.rtf** (striprtf): read as plain text; values replaced in place in the
  RTF source when that provably reads back right (formatting kept), else
  written as a new, plain RTF document (formatting lost).
- **.pdf** (pypdf): text of each page, pages separated by form feeds;
  written as UTF-8 text (no permissive PDF writer is bundled).
- **.csv**: one document per cell of the text columns (``#row.column`` in
  the name; metadata ``row``, ``column``); the writer re-writes only those
  cells in the raw file, so every other byte (quoting, line endings, other
  columns) is kept. Text columns: given, or those whose values look like
  free text. Identifier columns can be named to be pseudonymised.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from ..types import Document
from .text import DEFAULT_MAX_BYTES, ReadError, decode_bytes, encode_text


def _check_size(path: Path, max_bytes: int) -> bytes:
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise ReadError(f"file too large ({size / 1e6:.1f} MB > {max_bytes / 1e6:.0f} MB limit)")
        return path.read_bytes()
    except ReadError:
        raise
    except FileNotFoundError:
        raise ReadError("file not found") from None
    except PermissionError:
        raise ReadError("permission denied") from None
    except OSError as e:
        raise ReadError(f"cannot read ({e.strerror or type(e).__name__})") from None


# --- docx ------------------------------------------------------------------------

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_W = "{%s}" % W_NS
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


@dataclass
class _Node:
    element: object | None  # a w:t element, or None for a virtual char (tab/break)
    start: int
    end: int


_NOTE_RELS = ("/footnotes", "/endnotes", "/comments")


def _docx_parts(document) -> list:
    """The XML roots holding text: body, each distinct header/footer, footnotes, endnotes, comments.

    Parts python-docx does not parse (footnotes, endnotes) are parsed here and
    remembered on the document so ``_docx_commit`` can write them back.
    """
    cached = getattr(document, "_deid_roots", None)
    if cached is not None:
        return cached
    roots = [document.element.body]
    seen = set()
    for section in document.sections:
        for hf in (section.header, section.footer, section.first_page_header, section.first_page_footer,
                   section.even_page_header, section.even_page_footer):
            try:
                if hf.is_linked_to_previous:
                    continue
                part = hf.part
            except Exception:
                continue
            if id(part) in seen:
                continue
            seen.add(id(part))
            roots.append(hf._element)
    blob_parts = []
    for rel in document.part.rels.values():
        if rel.is_external or not rel.reltype.endswith(_NOTE_RELS):
            continue
        part = rel.target_part
        el = getattr(part, "_element", None)
        if el is None:
            from lxml import etree

            el = etree.fromstring(part.blob)
            blob_parts.append((part, el))
        roots.append(el)
    document._deid_roots = roots
    document._deid_blob_parts = blob_parts
    return roots


def _docx_commit(document) -> None:
    """Write back the parts parsed by ``_docx_parts`` from raw bytes."""
    from lxml import etree

    for part, el in getattr(document, "_deid_blob_parts", []):
        part._blob = etree.tostring(el, xml_declaration=True, encoding="UTF-8", standalone=True)


def _docx_layout(document) -> tuple[str, list[_Node]]:
    """The document text and the text nodes with their offsets in it."""
    pieces: list[str] = []
    nodes: list[_Node] = []
    pos = 0
    first = True
    for root in _docx_parts(document):
        for p in root.iter(_W + "p"):
            if not first:
                pieces.append("\n")
                pos += 1
            first = False
            for el in p.iter(_W + "t", _W + "tab", _W + "br", _W + "cr"):
                owner = next(el.iterancestors(_W + "p"), None)
                if owner is not p:
                    continue
                if el.tag == _W + "t":
                    # w:tab inside w:tabs (paragraph properties) is a tab stop, not text
                    txt = el.text or ""
                    nodes.append(_Node(el, pos, pos + len(txt)))
                    pieces.append(txt)
                    pos += len(txt)
                else:
                    parent = el.getparent()
                    if parent is None or parent.tag != _W + "r":
                        continue
                    ch = "\t" if el.tag == _W + "tab" else "\n"
                    nodes.append(_Node(None, pos, pos + 1))
                    pieces.append(ch)
                    pos += 1
    return "".join(pieces), nodes


def read_docx(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> list[Document]:
    data = _check_size(Path(path), max_bytes)
    try:
        import docx

        document = docx.Document(io.BytesIO(data))
    except Exception as e:
        raise ReadError(f"not a readable .docx ({type(e).__name__})") from None
    text, _ = _docx_layout(document)
    return [Document(text, path=Path(path), metadata={"format": "docx"})]


def apply_edits_to_nodes(text_nodes: list[_Node], old_text: str, edits: Sequence) -> None:
    """Rewrite the ``w:t`` nodes so the concatenated text carries the edits."""
    edits = sorted(edits, key=lambda e: e.start)
    placed = [False] * len(edits)
    for node in text_nodes:
        if node.element is None:
            continue
        a, b = node.start, node.end
        touching = [(i, e) for i, e in enumerate(edits) if e.start < b and a < e.end]
        if not touching:
            continue
        out = []
        pos = a
        for i, e in touching:
            s, t = max(a, e.start), min(b, e.end)
            out.append(old_text[pos:s])
            if not placed[i]:  # the replacement goes into the first node the span touches
                out.append(e.replacement)
                placed[i] = True
            pos = t
        out.append(old_text[pos:b])
        el = node.element
        el.text = "".join(out)  # type: ignore[attr-defined]
        el.set(_XML_SPACE, "preserve")  # type: ignore[attr-defined]
    # An edit that touches only virtual chars (tab/break): put it into the next text node.
    for i, e in enumerate(edits):
        if placed[i]:
            continue
        after = [n for n in text_nodes if n.element is not None and n.start >= e.end]
        before = [n for n in text_nodes if n.element is not None and n.end <= e.start]
        target = after[0] if after else (before[-1] if before else None)
        if target is None:
            raise ValueError("no text node to hold a replacement")
        el = target.element
        if after:
            el.text = e.replacement + (el.text or "")  # type: ignore[attr-defined]
        else:
            el.text = (el.text or "") + e.replacement  # type: ignore[attr-defined]
        el.set(_XML_SPACE, "preserve")  # type: ignore[attr-defined]


def write_docx(src: Path, docs: Sequence[tuple[Document, Sequence]]) -> bytes:
    """``src`` with the edits of its one document applied, formatting kept (file bytes)."""
    import docx

    (doc, edits), = docs
    document = docx.Document(str(src))
    text, nodes = _docx_layout(document)
    if text != doc.text:
        raise ValueError("document changed since it was read")
    apply_edits_to_nodes(nodes, text, edits)
    originals = {" ".join(text[e.start:e.end].split()).casefold() for e in edits}
    originals = {o for o in originals if len(o) >= 3}

    def leaks(value: str) -> bool:
        v = " ".join(value.split()).casefold()
        return "mailto:" in v or any(o in v for o in originals)

    for root in _docx_parts(document):
        for el in root.iter(_W + "delText"):  # tracked deletions: hidden, but still in the file
            el.text = ""
        for el in root.iter(_W + "instrText"):  # field codes, e.g. HYPERLINK "mailto:..."
            if el.text and leaks(el.text):
                el.text = " "
        for el in root.iter():  # authors of comments and tracked changes are people's names
            for attr in (_W + "author", _W + "initials"):
                if el.get(attr):
                    el.set(attr, "")
    for part in {id(p): p for p in [document.part, *[r.target_part for r in document.part.rels.values()
                                                      if not r.is_external]]}.values():
        rels = getattr(part, "rels", {})
        for rel in list(rels.values()):
            if rel.is_external and "hyperlink" in rel.reltype and leaks(rel.target_ref):
                rel._target = "#redacted"
    cp = document.core_properties
    for attr in ("author", "last_modified_by", "title", "subject", "keywords", "comments", "category",
                 "content_status", "identifier", "version"):
        try:
            setattr(cp, attr, "")
        except Exception:
            pass
    _docx_commit(document)
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


# --- rtf -------------------------------------------------------------------------

def read_rtf(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> list[Document]:
    data = _check_size(Path(path), max_bytes)
    try:
        raw = data.decode("latin-1")  # RTF is 7-bit with escapes; latin-1 never fails
        if not raw.lstrip().startswith("{\\rtf"):
            raise ReadError("not an RTF file")
        from striprtf.striprtf import rtf_to_text

        text = rtf_to_text(raw, errors="ignore")
    except ReadError:
        raise
    except Exception as e:
        raise ReadError(f"not a readable .rtf ({type(e).__name__})") from None
    return [Document(text, path=Path(path), metadata={"format": "rtf"})]


def rtf_escape(text: str) -> str:
    out = []
    for ch in text:
        o = ord(ch)
        if ch in "\\{}":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\par\n")
        elif ch == "\r":
            continue
        elif ch == "\t":
            out.append("\\tab ")
        elif o < 128:
            out.append(ch)
        else:
            for unit in ch.encode("utf-16-le").hex(" ", 2).split():
                v = int(unit[2:4] + unit[0:2], 16)
                out.append(f"\\u{v - 65536 if v > 32767 else v}?")
    return "".join(out)


def write_rtf(redacted_text: str) -> bytes:
    """A plain RTF document holding the redacted text (formatting is not carried over)."""
    body = rtf_escape(redacted_text)
    rtf = "{\\rtf1\\ansi\\ansicpg1252\\deff0\\uc1{\\fonttbl{\\f0\\fswiss Arial;}}\\f0\\fs22\n" + body + "\n}\n"
    return rtf.encode("ascii")


def _rtf_literal(text: str) -> str | None:
    """How ``text`` appears in RTF source when written plainly (cp1252 escapes), or None."""
    out = []
    for ch in text:
        if ch in "\\{}":
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 128:
            out.append(ch)
        else:
            try:
                b = ch.encode("cp1252")
            except UnicodeEncodeError:
                return None
            out.append("\\'%02x" % b[0])
    return "".join(out)


_RTF_INFO = re.compile(r"\{\\info\b")


def _drop_group(src: str, m_start: int) -> str:
    depth = 0
    i = m_start
    while i < len(src):
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return src[:m_start] + src[i + 1:]
        i += 1
    return src


def write_rtf_in_place(src: Path, doc: Document, edits: Sequence, redacted_text: str) -> tuple[bytes, bool]:
    """The original RTF with each PHI string replaced in the source, formatting kept.

    Used only when it is provably right: the result must read back (striprtf)
    as exactly ``redacted_text`` and contain no original string anywhere
    (``\\info`` metadata is dropped). Otherwise falls back to ``write_rtf``.
    Returns (bytes, kept_formatting).
    """
    try:
        raw = Path(src).read_bytes().decode("latin-1")
        m = _RTF_INFO.search(raw)
        if m:
            raw = _drop_group(raw, m.start())
        pairs: dict[str, str] = {}
        for e in edits:
            original = doc.text[e.start:e.end]
            if pairs.get(original, e.replacement) != e.replacement:
                raise ValueError("one value, two replacements")
            pairs[original] = e.replacement
        new = raw
        for original in sorted(pairs, key=len, reverse=True):
            lit, rep = _rtf_literal(original), rtf_escape(pairs[original])
            if lit is None or lit not in new:
                raise ValueError("value not found literally")
            new = new.replace(lit, rep)
        from striprtf.striprtf import rtf_to_text

        if rtf_to_text(new, errors="ignore") != redacted_text:
            raise ValueError("round trip differs")
        low = new.casefold()
        if any(len(o.strip()) >= 3 and (_rtf_literal(o) or o).casefold() in low for o in pairs):
            raise ValueError("original still present")
        return new.encode("latin-1"), True
    except Exception:
        return write_rtf(redacted_text), False


# --- pdf -------------------------------------------------------------------------

def read_pdf(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> list[Document]:
    data = _check_size(Path(path), max_bytes)
    try:
        from pypdf import PdfReader

        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise ReadError("encrypted PDF")
        pages = [(pg.extract_text() or "") for pg in reader.pages]
    except ReadError:
        raise
    except Exception as e:
        raise ReadError(f"not a readable .pdf ({type(e).__name__})") from None
    text = "\f".join(pages)
    if not text.strip():
        raise ReadError("PDF has no text layer (scanned image?)")
    return [Document(text, path=Path(path), metadata={"format": "pdf", "pages": len(pages)})]


def pdf_output_name(name: str) -> str:
    """Redacted PDFs are written as text: ``note.pdf`` -> ``note.pdf.txt``."""
    return name + ".txt"


# --- csv -------------------------------------------------------------------------

@dataclass(frozen=True)
class Cell:
    row: int        # 0 = header
    col: int
    start: int      # raw range in the file text (quotes included)
    end: int
    value: str
    quoted: bool


def sniff_delimiter(text: str) -> str:
    head = text[:4096]
    counts = {d: head.split("\n", 1)[0].count(d) for d in (",", ";", "\t", "|")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def parse_csv_cells(text: str, delimiter: str = ",") -> list[list[Cell]]:
    """RFC 4180 cells with their raw ranges in ``text`` (CRLF, LF or CR rows)."""
    rows: list[list[Cell]] = []
    row: list[Cell] = []
    i, n = 0, len(text)
    r = 0
    while i <= n:
        start = i
        if i < n and text[i] == '"':
            j = i + 1
            buf = []
            while True:
                k = text.find('"', j)
                if k < 0:
                    raise ReadError("CSV: unterminated quoted field")
                buf.append(text[j:k])
                if k + 1 < n and text[k + 1] == '"':
                    buf.append('"')
                    j = k + 2
                    continue
                j = k + 1
                break
            end = j
            # anything after the closing quote up to the delimiter belongs to the field
            while end < n and text[end] not in (delimiter, "\n", "\r"):
                end += 1
            row.append(Cell(r, len(row), start, end, "".join(buf) + text[j:end], True))
            i = end
        else:
            j = i
            while j < n and text[j] not in (delimiter, "\n", "\r"):
                j += 1
            row.append(Cell(r, len(row), start, j, text[i:j], False))
            i = j
        if i >= n:
            rows.append(row)
            break
        if text[i] == delimiter:
            i += 1
            continue
        # end of row
        if text[i] == "\r" and i + 1 < n and text[i + 1] == "\n":
            i += 2
        else:
            i += 1
        rows.append(row)
        row = []
        r += 1
        if i >= n:
            break
    return [rw for rw in rows if not (len(rw) == 1 and rw[0].value == "" and not rw[0].quoted)]


_ID_HEADER = re.compile(r"(?i)(^|[_\s-])(id|mrn|patient|subject|record|encounter)([_\s-]|$)")


def free_text_columns(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    """Columns whose values look like free text (mostly several words, or long)."""
    out = []
    for j, _name in enumerate(header):
        vals = [r[j] for r in rows if j < len(r) and r[j].strip()]
        if not vals:
            continue
        wordy = sum(1 for v in vals if len(v.split()) >= 3 or len(v) >= 40)
        if wordy / len(vals) >= 0.5:
            out.append(j)
    return out


def csv_layout(text: str, columns: Sequence[str] | None = None) -> tuple[str, list[list[Cell]], list[int]]:
    delim = sniff_delimiter(text)
    rows = parse_csv_cells(text, delim)
    if not rows:
        return delim, rows, []
    header = [c.value for c in rows[0]]
    if columns:
        wanted = {c.strip().casefold() for c in columns}
        cols = [j for j, h in enumerate(header) if h.strip().casefold() in wanted]
        missing = wanted - {header[j].strip().casefold() for j in cols}
        if missing:
            raise ReadError(f"CSV: {len(missing)} requested column(s) not in the header")
    else:
        cols = free_text_columns(header, [[c.value for c in r] for r in rows[1:]])
    return delim, rows, cols


def read_csv(path: Path, max_bytes: int = DEFAULT_MAX_BYTES, columns: Sequence[str] | None = None,
             id_columns: Sequence[str] = ()) -> list[Document]:
    path = Path(path)
    decoded = decode_bytes(_check_size(path, max_bytes))
    delim, rows, cols = csv_layout(decoded.text, columns)
    if not rows:
        return []
    header = [c.value for c in rows[0]]
    id_idx = [j for j, h in enumerate(header) if h.strip().casefold() in {c.casefold() for c in id_columns}]
    docs = []
    for r in rows[1:]:
        pid = r[id_idx[0]].value if id_idx and id_idx[0] < len(r) else None
        for j in cols:
            if j >= len(r) or not r[j].value:
                continue
            meta = {"format": "csv", "encoding": decoded.encoding, "row": r[j].row, "column": header[j],
                    "col_index": j}
            if pid:
                meta["patient_id"] = pid
            if decoded.warning:
                meta["warning"] = decoded.warning
            docs.append(Document(r[j].value, path=path, name=f"{path.stem}#{r[j].row}.{header[j]}", metadata=meta))
    return docs


def _csv_quote(value: str, delimiter: str, was_quoted: bool) -> str:
    if was_quoted or any(c in value for c in (delimiter, '"', "\n", "\r")):
        return '"' + value.replace('"', '""') + '"'
    return value


def write_csv(src: Path, cell_values: Mapping[tuple[int, int], str],
              id_columns: Sequence[str] = (), pseudonym=None) -> bytes:
    """Rewrite only the given cells (``(row, col) -> new value``) of ``src``; id columns pseudonymised."""
    decoded = decode_bytes(Path(src).read_bytes())
    text = decoded.text
    delim = sniff_delimiter(text)
    rows = parse_csv_cells(text, delim)
    header = [c.value for c in rows[0]] if rows else []
    id_idx = {j for j, h in enumerate(header) if h.strip().casefold() in {c.casefold() for c in id_columns}}
    repl: list[tuple[int, int, str]] = []
    for r in rows[1:]:
        for c in r:
            if (c.row, c.col) in cell_values:
                repl.append((c.start, c.end, _csv_quote(cell_values[(c.row, c.col)], delim, c.quoted)))
            elif c.col in id_idx and c.value and pseudonym is not None:
                repl.append((c.start, c.end, _csv_quote(pseudonym(c.value), delim, c.quoted)))
    parts, pos = [], 0
    for a, b, v in sorted(repl):
        parts.append(text[pos:a])
        parts.append(v)
        pos = b
    parts.append(text[pos:])
    return encode_text("".join(parts), decoded.encoding)


# Registered in formats.READERS.
EXTRA_READERS = {".docx": read_docx, ".rtf": read_rtf, ".pdf": read_pdf, ".csv": read_csv}
