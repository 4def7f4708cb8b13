"""Walking a folder of notes: every readable note, every problem named.

A bad file (binary, unreadable, undecodable, too large) becomes a
``FileProblem`` with its path and a PHI-free reason; the walk goes on.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

from ..types import Document, FileProblem
from .formats import READERS, read_document_file
from .text import DEFAULT_MAX_BYTES, ReadError


def scan_folder(folder: Path, extensions: tuple[str, ...] | None = None) -> tuple[list[Path], int]:
    """Note files under ``folder`` (recursive, sorted, hidden files and folders
    skipped) and how many other files were left out."""
    folder = Path(folder)
    exts = {e.lower() for e in (extensions or tuple(READERS))}
    out: list[Path] = []
    others = 0
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in files:
            if f.startswith("."):
                continue
            p = Path(root) / f
            if p.suffix.lower() in exts:
                out.append(p)
            else:
                others += 1
    return sorted(out), others


def list_note_files(folder: Path, extensions: tuple[str, ...] | None = None) -> list[Path]:
    """Note files under ``folder`` (recursive, sorted, hidden files skipped)."""
    return scan_folder(folder, extensions)[0]


def iter_folder(folder: Path, extensions: tuple[str, ...] | None = None,
                max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[Document | FileProblem]:
    """Yield each document of a folder, or a FileProblem for a file that failed.

    Documents carry ``relpath`` (path relative to ``folder``) in metadata.
    A reader's caveat (e.g. cp1252 fallback) is yielded as a warning
    FileProblem *before* the document.
    """
    folder = Path(folder)
    if not folder.is_dir():
        yield FileProblem(folder, "not a folder or not readable")
        return
    for path in list_note_files(folder, extensions):
        rel = path.relative_to(folder).as_posix()
        try:
            docs = read_document_file(path, max_bytes)
        except ReadError as e:
            yield FileProblem(path, str(e))
            continue
        except Exception as e:  # a reader bug must not stop the batch
            yield FileProblem(path, f"could not read ({type(e).__name__})")
            continue
        for doc in docs:
            meta = dict(doc.metadata)
            meta.setdefault("relpath", rel)
            if meta.get("warning"):
                yield FileProblem(path, str(meta["warning"]), warning=True)
            yield Document(doc.text, path=doc.path, name=doc.name, metadata=meta)
