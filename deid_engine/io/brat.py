"""BRAT standoff: ``NAME.txt`` plus ``NAME.ann`` with entity lines.

Entity lines look like ``T1<TAB>LABEL START END<TAB>TEXT``; a discontinuous
entity lists fragments ``START END;START END`` and is read as one span per
fragment. Relations, events, attributes and notes (``R``, ``E``, ``A``, ``#``
...) are skipped without error.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..taxonomy import to_taxonomy
from ..types import AnnotatedDocument, Document, Span
from .text import read_text_file

log = logging.getLogger(__name__)

LabelFn = Callable[[str], str]


def _identity(label: str) -> str:
    return label


def taxonomy_labels(label: str) -> str:
    return to_taxonomy(label)


def parse_ann(ann: str, text_len: int | None = None, label_fn: LabelFn = _identity,
              source: str = "gold", shift: int = 0) -> list[Span]:
    """Entity spans of an ``.ann`` file; ``shift`` is subtracted from every offset.

    ``shift`` is 1 when the ``.txt`` starts with a byte-order mark: BRAT counts the
    BOM as a character, the decoded text does not have it.
    """
    spans: list[Span] = []
    for lineno, line in enumerate(ann.splitlines(), 1):
        if not line.startswith("T"):
            continue
        parts = line.split("\t")
        if len(parts) < 2:
            log.warning("ann line %d: malformed entity line skipped", lineno)
            continue
        head = parts[1].split(" ", 1)
        if len(head) != 2:
            log.warning("ann line %d: entity without offsets skipped", lineno)
            continue
        label, offsets = head
        for frag in offsets.split(";"):
            try:
                a, b = (int(x) for x in frag.split())
            except ValueError:
                log.warning("ann line %d: bad offsets skipped", lineno)
                continue
            a, b = max(0, a - shift), b - shift
            if b <= a or (text_len is not None and b > text_len):
                log.warning("ann line %d: offsets outside the text skipped", lineno)
                continue
            spans.append(Span(a, b, label_fn(label), source=source))
    return spans


def read_brat_document(txt_path: Path, label_fn: LabelFn = _identity) -> AnnotatedDocument:
    txt_path = Path(txt_path)
    decoded = read_text_file(txt_path)
    doc = Document(decoded.text, path=txt_path, metadata={"encoding": decoded.encoding})
    ann_path = txt_path.with_suffix(".ann")
    spans: list[Span] = []
    if ann_path.exists():
        spans = parse_ann(ann_path.read_text(encoding="utf-8-sig"), len(doc.text), label_fn,
                          shift=decoded.bom_chars)
    return AnnotatedDocument(doc, tuple(spans))


def iter_brat_folder(folder: Path, label_fn: LabelFn = _identity) -> Iterator[AnnotatedDocument]:
    """Every ``*.txt`` of a folder (recursively) with its ``.ann``, sorted by path."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"not a folder: {folder}")
    for txt in sorted(folder.rglob("*.txt")):
        yield read_brat_document(txt, label_fn)


def read_brat_folder(folder: Path, label_fn: LabelFn = _identity) -> list[AnnotatedDocument]:
    return list(iter_brat_folder(folder, label_fn))


def format_ann(doc: AnnotatedDocument, label_fn: LabelFn = _identity) -> str:
    lines = []
    for i, s in enumerate(doc.spans, 1):
        frag = doc.text[s.start : s.end].replace("\r", " ").replace("\n", " ")
        lines.append(f"T{i}\t{label_fn(s.label)} {s.start} {s.end}\t{frag}")
    return "\n".join(lines) + ("\n" if lines else "")


def write_brat_document(folder: Path, doc: AnnotatedDocument, label_fn: LabelFn = _identity,
                        write_text: bool = True) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    name = doc.name or doc.document.doc_id[:16]
    if write_text:
        with open(folder / f"{name}.txt", "w", encoding="utf-8", newline="") as f:
            f.write(doc.text)
    ann = folder / f"{name}.ann"
    ann.write_text(format_ann(doc, label_fn), encoding="utf-8")
    return ann


def write_brat_folder(folder: Path, docs: Iterable[AnnotatedDocument],
                      label_fn: LabelFn = _identity) -> int:
    n = 0
    for d in docs:
        write_brat_document(folder, d, label_fn)
        n += 1
    return n
