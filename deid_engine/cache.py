"""A disk cache of data derived from the bundled lexicons (normalised name sets, term pools).

Building these tables means ~300k ``norm`` calls and set/dict inserts at every
start-up; reading them back is a JSON parse. ``derived(name, ...)`` returns the
tables from the cache when a valid entry exists, else builds them and stores
them for the next start.

Safety rules:
- the format is plain text that loading cannot run (never pickle from a
  user-writable folder): one JSON header line ``{"format", "key", "crc32",
  "sections": [[name, count], ...]}`` then the UTF-8 body, the sections'
  lines joined by ``\n`` and the sections by NUL; the body's CRC-32 and every
  section's line count must match, so a truncated or damaged file is detected
  and rebuilt;
- the key hashes the source lexicon files (``items.txt`` + ``exceptions.txt``),
  the source of the modules that derive the tables (any code edit invalidates
  it), the Python, ``regex`` and Unicode versions and ``FORMAT``;
- every failure (no cache, stale, corrupt, unreadable, read-only or full
  disk) falls back to building, logged at DEBUG level only; nothing here raises
  except the ``build`` callable itself.

The cache lives in platformdirs' user cache folder (``<DEID_USER_DIR>/cache``
when that is set). ``DEID_NO_CACHE=1`` turns it off (build every time).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import tempfile
import unicodedata
import zlib
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable

log = logging.getLogger(__name__)

FORMAT = 2
_SUFFIX = ".txt"
Sections = dict[str, list[str]]  # name -> lines (no "\n" or NUL inside a line)


def cache_dir() -> Path:
    """Where derived tables are stored (not created here)."""
    env = os.environ.get("DEID_USER_DIR")
    if env:
        return Path(env) / "cache"
    import platformdirs

    from .resources import APP_AUTHOR, APP_NAME

    return Path(platformdirs.user_cache_dir(APP_NAME, APP_AUTHOR)) / "derived"


def enabled() -> bool:
    return os.environ.get("DEID_NO_CACHE", "").strip().lower() in ("", "0", "false", "no")


_digests: dict[tuple, str] = {}  # file identities (path, size, mtime) -> digest, this process only


def lexicon_digest(names: Iterable[str]) -> str:
    """SHA-256 over the bundled files of the named lexicons (a missing file hashes as absent).
    Re-hashed only when a file's path, size or modification time changes."""
    from .resources import resource_path

    paths = [resource_path("lexicons", name, fn) for name in names for fn in ("items.txt", "exceptions.txt")]
    ident = []
    for p in paths:
        try:
            st = p.stat()
            ident.append((str(p), st.st_size, st.st_mtime_ns))
        except OSError:
            ident.append((str(p), None, None))
    memo = _digests.get(tuple(ident))
    if memo is not None:
        return memo
    h = hashlib.sha256()
    for p in paths:
        h.update(f"{p.parent.name}/{p.name}\0".encode())
        try:
            data = p.read_bytes()
        except OSError:
            h.update(b"-\0")
            continue
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    digest = h.hexdigest()
    if len(_digests) > 16:
        _digests.clear()
    _digests[tuple(ident)] = digest
    return digest


def code_digest(modules: Iterable[ModuleType]) -> str:
    """SHA-256 over the source of ``modules``; in a frozen build (no sources on disk) the
    package version plus the executable's size and mtime stand in for it."""
    h = hashlib.sha256()
    for mod in modules:
        h.update(mod.__name__.encode() + b"\0")
        f = getattr(mod, "__file__", None) or ""
        data = None
        if f.endswith(".py"):
            try:
                data = Path(f).read_bytes()
            except OSError:
                data = None
        if data is None:
            from . import __version__

            try:
                st = os.stat(sys.executable)
                exe = f"{st.st_size}:{st.st_mtime_ns}"
            except OSError:
                exe = "?"
            data = f"frozen:{__version__}:{sys.executable}:{exe}".encode()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _env_digest() -> str:
    import regex

    return f"{FORMAT}|{sys.version}|{unicodedata.unidata_version}|{getattr(regex, '__version__', '?')}"


def make_key(name: str, lexicons: Iterable[str], modules: Iterable[ModuleType], extra: str = "") -> str:
    h = hashlib.sha256()
    for part in (name, _env_digest(), lexicon_digest(lexicons), code_digest(modules), extra):
        h.update(part.encode("utf-8") + b"\0")
    return h.hexdigest()


def _path(name: str, key: str) -> Path:
    return cache_dir() / f"{name}-{key[:32]}{_SUFFIX}"


def read(name: str, key: str) -> Sections | None:
    """The cached sections for ``(name, key)``, or None when absent, stale or damaged."""
    try:
        raw = _path(name, key).read_bytes()
    except Exception:  # absent, unreadable, or no cache folder at all
        return None
    try:
        head, sep, body = raw.partition(b"\n")
        if not sep:
            raise ValueError("no header")
        meta = json.loads(head)
        if not (isinstance(meta, dict) and meta.get("format") == FORMAT and meta.get("key") == key
                and meta.get("crc32") == zlib.crc32(body)):
            raise ValueError("stale or damaged")
        names = meta["sections"]
        parts = body.decode("utf-8").split("\0")
        if type(names) is not list or len(parts) != len(names):
            raise ValueError("section count")
        out: Sections = {}
        for (sec, n), text in zip(names, parts):
            lines = text.split("\n") if n else []
            if type(sec) is not str or len(lines) != n or sec in out:
                raise ValueError("section size")
            out[sec] = lines
        return out
    except Exception as e:  # damaged: ignore (it is rewritten after the rebuild)
        log.debug("derived cache %s unusable (%s); rebuilding", name, type(e).__name__)
        return None


def write(name: str, key: str, sections: Sections) -> bool:
    """Store ``sections`` atomically; drop older entries of ``name``. Returns False (and logs at
    DEBUG) when a line holds a newline or NUL, the folder is not writable or the disk is full."""
    tmp = None
    try:
        d = cache_dir()
        texts = []
        for sec, lines in sections.items():
            text = "\n".join(lines)  # TypeError unless every line is a str
            if "\0" in text or text.count("\n") != max(0, len(lines) - 1):
                raise ValueError("a line holds a newline or NUL")
            texts.append(text)
        body = "\0".join(texts).encode("utf-8")
        head = json.dumps({"format": FORMAT, "key": key, "crc32": zlib.crc32(body),
                           "sections": [[sec, len(lines)] for sec, lines in sections.items()]},
                          ensure_ascii=True).encode()
        d.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}-", suffix=".tmp", dir=d)
        with os.fdopen(fd, "wb") as f:
            f.write(head + b"\n" + body)
        target = _path(name, key)
        os.replace(tmp, target)
        tmp = None
        for old in d.glob(f"{name}-*{_SUFFIX}"):
            if old != target:
                try:
                    old.unlink()
                except OSError:
                    pass
        return True
    except Exception as e:  # read-only home, full disk, odd file system: the cache is optional
        log.debug("derived cache %s not written (%s)", name, type(e).__name__)
        return False
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def derived(name: str, *, lexicons: Iterable[str], modules: Iterable[ModuleType],
            build: Callable[[], Any], encode: Callable[[Any], Sections], decode: Callable[[Sections], Any],
            extra: str = "") -> Any:
    """``build()``'s result, read from the cache when a valid entry exists.

    ``encode`` turns the built value into sections (name -> lines), ``decode`` turns them
    back into a value equal to ``build()``'s; a ``decode`` failure counts as a damaged entry.
    """
    if not enabled():
        return build()
    try:
        key = make_key(name, lexicons, modules, extra)
    except Exception as e:  # e.g. an unreadable module source: just build
        log.debug("derived cache %s: no key (%s)", name, type(e).__name__)
        return build()
    data = read(name, key)
    if data is not None:
        try:
            return decode(data)
        except Exception as e:
            log.debug("derived cache %s undecodable (%s); rebuilding", name, type(e).__name__)
    value = build()
    try:
        data = encode(value)
    except Exception as e:  # a bug in encode must not stop the detector from loading
        log.debug("derived cache %s not encodable (%s)", name, type(e).__name__)
        return value
    write(name, key, data)
    return value


# --- encodings of common tables as sections (decoders raise on a mismatch: a damaged entry) ---

def put_int_dict(out: Sections, name: str, d: dict[str, int]) -> None:
    out[name + ".k"] = list(d)
    if not all(type(x) is int for x in d.values()):
        raise TypeError("expected integer values")
    out[name + ".v"] = list(map(str, d.values()))


def get_int_dict(sections: Sections, name: str) -> dict[str, int]:
    keys, vals = sections[name + ".k"], list(map(int, sections[name + ".v"]))
    if len(keys) != len(vals):
        raise ValueError("count mismatch")
    return dict(zip(keys, vals))


def put_tuple_dict(out: Sections, name: str, d: dict[tuple[str, ...], Any]) -> None:
    """``{(token, ...): str or int}``; tokens must be tab-free and tuples non-empty."""
    if not all(k and not any("\t" in x for x in k) for k in d):
        raise ValueError("empty tuple or a tab in a token")
    out[name + ".k"] = ["\t".join(k) for k in d]
    out[name + ".v"] = [str(x) for x in d.values()]


def get_tuple_dict(sections: Sections, name: str, value_type: type) -> dict[tuple[str, ...], Any]:
    keys = [tuple(k.split("\t")) for k in sections[name + ".k"]]
    vals = sections[name + ".v"]
    if value_type is int:
        vals = list(map(int, vals))
    if len(keys) != len(vals):
        raise ValueError("count mismatch")
    return dict(zip(keys, vals))


def put_lists_dict(out: Sections, name: str, d: dict[str, list[str]]) -> None:
    out[name + ".keys"] = list(d)
    for i, v in enumerate(d.values()):
        out[f"{name}.{i}"] = list(v)


def get_lists_dict(sections: Sections, name: str) -> dict[str, list[str]]:
    return {k: sections[f"{name}.{i}"] for i, k in enumerate(sections[name + ".keys"])}
