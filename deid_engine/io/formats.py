"""Readers for every note format, in one explicit table.

A reader takes a path and returns the documents in it (a CSV yields one
document per row; other formats one per file) or raises ``ReadError`` with a
PHI-free reason. Each document's metadata records what a writer needs to put
the redacted text back in the same shape (``format``, ``encoding`` ...).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..types import Document
from .text import DEFAULT_MAX_BYTES, ReadError, read_text_file

Reader = Callable[[Path, int], list[Document]]


def read_txt(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> list[Document]:
    decoded = read_text_file(path, max_bytes)
    meta = {"format": "txt", "encoding": decoded.encoding}
    if decoded.warning:
        meta["warning"] = decoded.warning
    return [Document(decoded.text, path=Path(path), metadata=meta)]


# Extension (lower case, with dot) -> reader. Other formats register here.
READERS: dict[str, Reader] = {
    ".txt": read_txt,
    ".text": read_txt,
    ".note": read_txt,
}


def _register_extra() -> None:
    from .formats_extra import EXTRA_READERS

    for ext, reader in EXTRA_READERS.items():
        READERS.setdefault(ext, reader)


_register_extra()


def supported_extensions() -> tuple[str, ...]:
    return tuple(sorted(READERS))


def read_document_file(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> list[Document]:
    reader = READERS.get(Path(path).suffix.lower())
    if reader is None:
        raise ReadError(f"unsupported file type {Path(path).suffix or '(none)'}")
    return reader(Path(path), max_bytes)
