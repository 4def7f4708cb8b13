"""JSONL annotations: one ``{"id", "text", "spans": [...]}`` object per line.

Prediction files omit ``text``; gold files carry it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterable, Iterator

from ..types import AnnotatedDocument, Document, Span


@dataclass(frozen=True, slots=True)
class Record:
    id: str
    spans: tuple[Span, ...]
    text: str | None = None

    def to_json(self) -> dict:
        d: dict = {"id": self.id}
        if self.text is not None:
            d["text"] = self.text
        d["spans"] = [s.to_json() for s in self.spans]
        return d

    def to_annotated(self) -> AnnotatedDocument:
        if self.text is None:
            raise ValueError(f"record {self.id!r} has no text")
        return AnnotatedDocument(Document(self.text, name=self.id), self.spans)

    @classmethod
    def from_annotated(cls, doc: AnnotatedDocument, with_text: bool = True) -> "Record":
        return cls(doc.name, doc.spans, doc.text if with_text else None)


def iter_jsonl(path: Path) -> Iterator[Record]:
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                d = json.loads(line)
                spans = tuple(Span.from_json(s) for s in d.get("spans", []))
                yield Record(str(d["id"]), spans, d.get("text"))
            except (ValueError, KeyError, TypeError) as e:
                raise ValueError(f"{path}:{lineno}: bad JSONL record ({type(e).__name__}: {e})") from None


def read_jsonl(path: Path) -> list[Record]:
    return list(iter_jsonl(path))


def write_record(f: IO[str], record: Record) -> None:
    f.write(json.dumps(record.to_json(), ensure_ascii=False) + "\n")


def write_jsonl(path: Path, records: Iterable[Record]) -> int:
    """Write records atomically (temp file, then rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    n = 0
    with open(tmp, "w", encoding="utf-8") as f:
        for r in records:
            write_record(f, r)
            n += 1
    os.replace(tmp, path)
    return n
