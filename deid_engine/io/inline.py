"""Inline-marked text: ``[[text|LABEL]]`` spans inside plain text.

The English probe set (docs/probe.md, ``tests/fixtures/english_probe``) is written
this way: a file holds several texts, each starting with a header line
``=== <id> <kind>``; lines before the first header, and ``#`` lines right after a
header, are comments. ``parse_inline_file`` returns ``(id, kind, text, spans)`` with
``Span`` offsets into the plain text; ``deid train --inline`` reads such files as
training data.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..taxonomy import is_label
from ..types import Span

KINDS = ("outpatient", "transcript", "query", "discharge", "letter", "message", "nursing")
# The labels the probe guideline uses (subtypes, plus the categories without subtypes).
INLINE_LABELS = ("PATIENT", "DOCTOR", "RELATIVE", "USERNAME", "PROFESSION", "HOSPITAL", "ORGANIZATION",
                 "DEPARTMENT", "STREET", "CITY", "STATE", "COUNTRY", "ZIP", "LOCATION_OTHER", "AGE", "DATE",
                 "PHONE", "FAX", "EMAIL", "URL", "IPADDR", "SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT",
                 "LICENSE", "VEHICLE", "DEVICE", "IDNUM")

_HEADER = re.compile(r"^=== (\S+) (\S+)\s*$")
_MARK = re.compile(r"\[\[([^\[\]|]+)\|([A-Z_]+)\]\]")


class InlineFormatError(ValueError):
    """The file breaks the markup rules (the message names the line)."""


def parse_inline_text(marked: str) -> tuple[str, list[Span]]:
    """Remove ``[[text|LABEL]]`` markup; return the plain text and gold spans on it."""
    out: list[str] = []
    spans: list[Span] = []
    pos = 0  # in ``marked``
    n = 0  # length of plain text so far
    for m in _MARK.finditer(marked):
        before = marked[pos:m.start()]
        out.append(before)
        n += len(before)
        inner, label = m.group(1), m.group(2)
        if label not in INLINE_LABELS or not is_label(label):
            raise InlineFormatError(f"unknown label {label!r}")
        if inner != inner.strip():
            raise InlineFormatError(f"span text has outer whitespace: {inner!r}")
        spans.append(Span(n, n + len(inner), label, source="gold"))
        out.append(inner)
        n += len(inner)
        pos = m.end()
    out.append(marked[pos:])
    text = "".join(out)
    if "[[" in text or "]]" in text:
        raise InlineFormatError("unbalanced or malformed [[...|LABEL]] markup")
    return text, spans


def parse_inline_file(path: Path | str) -> list[tuple[str, str, str, list[Span]]]:
    """Read an inline-marked file: ``[(id, kind, text, spans)]``.

    Leading/trailing blank lines of a text are dropped; an empty text, a bad
    header, an unknown kind, a duplicate id or broken markup raise
    ``InlineFormatError`` naming the line."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    items: list[tuple[str, str, str, list[Span]]] = []
    seen: set[str] = set()
    cur: tuple[str, str, int] | None = None
    body: list[str] = []

    def flush() -> None:
        if cur is None:
            return
        doc_id, kind, lineno = cur
        while body and not body[0].strip():
            body.pop(0)
        while body and not body[-1].strip():
            body.pop()
        if not body:
            raise InlineFormatError(f"line {lineno}: text {doc_id} is empty")
        try:
            text, spans = parse_inline_text("\n".join(body))
        except InlineFormatError as e:
            raise InlineFormatError(f"text {doc_id} (line {lineno}): {e}") from None
        items.append((doc_id, kind, text, spans))

    for i, line in enumerate(lines, 1):
        if line.startswith("==="):
            m = _HEADER.match(line)
            if not m:
                raise InlineFormatError(f"line {i}: bad header {line!r}")
            flush()
            doc_id, kind = m.group(1), m.group(2)
            if kind not in KINDS:
                raise InlineFormatError(f"line {i}: unknown kind {kind!r}")
            if doc_id in seen:
                raise InlineFormatError(f"line {i}: duplicate id {doc_id!r}")
            seen.add(doc_id)
            cur, body = (doc_id, kind, i), []
        elif cur is not None:
            if not body and line.startswith("#"):
                continue
            body.append(line)
    flush()
    return items


def inline_files(path: Path | str, exclude: set[str] | frozenset[str] = frozenset()) -> list[Path]:
    """``path`` itself if it is a file, else its ``*.txt`` files (sorted); files whose
    stem is in ``exclude`` are left out."""
    p = Path(path)
    files = [p] if p.is_file() else sorted(p.glob("*.txt"))
    return [f for f in files if f.stem not in exclude]
