"""Bundled word lists (names, places, medical terms) and the user's own lists.

Bundled lexicons are ``resources/lexicons/<name>/items.txt`` (one UTF-8 entry
per line, built by ``tools/build_lexicons.py``; sources in SOURCES.md), with an
optional ``exceptions.txt`` of entries to ignore. They are read once and
cached.

User lists live in the user data directory (``lists/<kind>.txt``), never in
the bundle: ``protected`` (terms never to redact) and ``always_redact``
(terms always to redact). They are re-read when the file changes.
"""

from __future__ import annotations

import hashlib
import threading
from functools import lru_cache
from pathlib import Path

from .resources import resource_path, user_path

USER_LIST_KINDS = ("protected", "always_redact")

_lock = threading.Lock()


def _read_lines(path: Path) -> list[str]:
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def lexicon_dir() -> Path:
    return resource_path("lexicons")


def lexicon_names() -> tuple[str, ...]:
    """Names of the bundled lexicons (folders holding an items.txt)."""
    d = lexicon_dir()
    if not d.is_dir():
        return ()
    return tuple(sorted(p.name for p in d.iterdir() if (p / "items.txt").is_file()))


@lru_cache(maxsize=None)
def load_lexicon(name: str) -> tuple[str, ...]:
    """Entries of lexicon ``name`` in file order, minus its exceptions.

    Raises KeyError for an unknown lexicon.
    """
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise KeyError(f"invalid lexicon name {name!r}")
    p = resource_path("lexicons", name, "items.txt")
    if not p.is_file():
        raise KeyError(f"unknown lexicon {name!r}; known: {', '.join(lexicon_names())}")
    items = _read_lines(p)
    exc = {e.casefold() for e in _read_lines(resource_path("lexicons", name, "exceptions.txt"))}
    if exc:
        items = [i for i in items if i.casefold() not in exc]
    return tuple(items)


@lru_cache(maxsize=1)
def lexicon_version() -> str:
    """A short hash over every bundled lexicon file (for audit reports)."""
    h = hashlib.sha256()
    d = lexicon_dir()
    if d.is_dir():
        for p in sorted(d.rglob("*.txt")):
            h.update(p.relative_to(d).as_posix().encode())
            h.update(b"\0")
            h.update(p.read_bytes())
    return "lex-" + h.hexdigest()[:16]


# --- user lists ----------------------------------------------------------------

def user_list_path(kind: str) -> Path:
    if kind not in USER_LIST_KINDS:
        raise ValueError(f"user list kind must be one of {USER_LIST_KINDS}, got {kind!r}")
    return user_path("lists", f"{kind}.txt")


_user_cache: dict[Path, tuple[float, int, tuple[str, ...]]] = {}


def user_list(kind: str) -> tuple[str, ...]:
    """The user's terms of ``kind`` ("protected" or "always_redact"), file order, no duplicates."""
    p = user_list_path(kind)
    try:
        st = p.stat()
    except OSError:
        return ()
    with _lock:
        hit = _user_cache.get(p)
        if hit and hit[0] == st.st_mtime and hit[1] == st.st_size:
            return hit[2]
        seen: set[str] = set()
        items = []
        for t in _read_lines(p):
            k = t.casefold()
            if k not in seen:
                seen.add(k)
                items.append(t)
        val = tuple(items)
        _user_cache[p] = (st.st_mtime, st.st_size, val)
        return val


def add_user_term(kind: str, term: str) -> bool:
    """Append ``term`` to the user's list; False if it was already there."""
    term = " ".join(str(term).split())
    if not term:
        raise ValueError("empty term")
    p = user_list_path(kind)
    if term.casefold() in {t.casefold() for t in user_list(kind)}:
        return False
    p.parent.mkdir(parents=True, exist_ok=True)
    with _lock:
        with p.open("a", encoding="utf-8") as f:
            f.write(term + "\n")
        _user_cache.pop(p, None)
    return True


def remove_user_term(kind: str, term: str) -> bool:
    """Remove ``term`` (case-insensitive) from the user's list; False if absent."""
    p = user_list_path(kind)
    items = user_list(kind)
    keep = [t for t in items if t.casefold() != term.strip().casefold()]
    if len(keep) == len(items):
        return False
    with _lock:
        p.write_text("".join(t + "\n" for t in keep), encoding="utf-8")
        _user_cache.pop(p, None)
    return True


def user_lists_version() -> str:
    """A short hash of the user's lists (for audit reports; the terms themselves are not logged)."""
    h = hashlib.sha256()
    for kind in USER_LIST_KINDS:
        h.update(kind.encode())
        for t in user_list(kind):
            h.update(b"\0" + t.encode("utf-8"))
    return "user-" + h.hexdigest()[:12]
