"""Compiled regular expressions kept from one start to the next.

The rule modules compile ~450 ``regex`` patterns when a pipeline loads. ``regex`` parses and
optimises each one in pure Python: about half a second of every start, the same work each
time. ``regex`` can rebuild a compiled pattern from its compiled code alone (that is how its
patterns unpickle: ``_regex.compile(*pattern._pickled_data)``), which takes microseconds.
``compile()`` here returns the pattern ``regex.compile`` would, rebuilt from a stored code
when one exists; ``seal()`` (called when a pipeline has loaded) stores the codes compiled so
far for the next start.

Privacy and safety rules:
- only patterns compiled **before** ``seal()`` are stored, i.e. the rule modules' own patterns
  while importing and loading, before any note is read; after ``seal()`` nothing more is
  recorded in this process;
- a pattern compiled with ``cache_pattern=False`` is never stored (the rules build their
  per-note patterns, e.g. the names found in a note, and the user's always-redact list that
  way), nor one with named lists, non-``str`` source, or the LOCALE / DEBUG flags;
- the file is JSON (loading it cannot run code), keyed by the Python, Unicode and ``regex``
  versions, with a CRC-32 of its body; every entry's fields are type-checked before use and
  any failure (absent, stale, damaged, unreadable, read-only folder, full disk) falls back to
  compiling, logged at DEBUG level only;
- it lives beside the derived-table cache (``deid_engine.cache.cache_dir()``) and
  ``DEID_NO_CACHE=1`` turns it off.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import tempfile
import zlib
from typing import Any

import regex as _regex
from regex import _regex as _core  # the C module: compile(pattern, flags, code, ...)

log = logging.getLogger(__name__)

FORMAT = 1
MAX_ENTRIES = 6000  # beyond this, only the entries this process used are kept
_SLOW_FLAGS = int(_regex.LOCALE | _regex.DEBUG)

_table: dict[tuple[str, int], tuple] | None = None  # (pattern, flags) -> _pickled_data; loaded on first use
_new: dict[tuple[str, int], tuple] = {}  # compiled in this process before seal()
_used: set[tuple[str, int]] = set()
_recording = True
_stats = {"hits": 0, "misses": 0}


def _file():
    from . import cache

    return cache.cache_dir() / f"regex-{FORMAT}.json"


def _env() -> str:
    from . import cache

    return cache._env_digest()


def _enabled() -> bool:
    from . import cache

    return cache.enabled()


def _decode_entry(e: Any) -> tuple:
    """One stored entry -> the argument tuple of ``_regex.compile``; raises on any mismatch."""
    (pattern, flags, code, group_index, index_group, req_offset, req_chars, req_flags, group_count) = e
    if not (type(pattern) is str and type(flags) is int and type(code) is str and type(req_offset) is int
            and type(req_flags) is int and type(group_count) is int and type(group_index) is dict
            and type(index_group) is list and type(req_chars) is list):
        raise TypeError("entry fields")
    gi = {}
    for k, v in group_index.items():
        if type(v) is not int:
            raise TypeError("group index")
        gi[k] = v
    ig = {}
    for k, v in index_group:
        if type(k) is not int or type(v) is not str:
            raise TypeError("index group")
        ig[k] = v
    if not all(type(c) is int for c in req_chars):
        raise TypeError("required chars")
    return (pattern, flags, base64.b64decode(code, validate=True), gi, ig, {}, [], req_offset,
            tuple(req_chars), req_flags, group_count)


def _encode_entry(data: tuple) -> list:
    (pattern, flags, code, group_index, index_group, named_lists, named_list_indexes, req_offset, req_chars,
     req_flags, group_count) = data
    if named_lists or named_list_indexes or type(code) is not bytes:
        raise TypeError("not storable")
    return [pattern, flags, base64.b64encode(code).decode("ascii"), dict(group_index),
            [[k, v] for k, v in index_group.items()], req_offset, list(req_chars or ()), req_flags, group_count]


def _load() -> dict[tuple[str, int], tuple]:
    global _table
    if _table is not None:
        return _table
    _table = {}
    if not _enabled():
        return _table
    try:
        raw = _file().read_bytes()
    except Exception:  # no cache yet, no folder, unreadable
        return _table
    try:
        head, sep, body = raw.partition(b"\n")
        meta = json.loads(head)
        if not (sep and isinstance(meta, dict) and meta.get("format") == FORMAT and meta.get("env") == _env()
                and meta.get("crc32") == zlib.crc32(body)):
            raise ValueError("stale or damaged")
        entries = json.loads(body)
        if type(entries) is not list:
            raise TypeError("body")
        table = {}
        for e in entries:  # [flags compile() was called with, *stored fields]
            if type(e) is not list or not e or type(e[0]) is not int:
                raise TypeError("entry")
            data = _decode_entry(e[1:])
            table[(data[0], e[0])] = data
        _table = table
    except Exception as e:
        log.debug("regex cache unusable (%s); compiling", type(e).__name__)
        _table = {}
    return _table


def compile(pattern, flags=0, ignore_unused=False, cache_pattern=None, **kwargs):  # noqa: A001 - regex's name
    """``regex.compile(pattern, flags, ...)``, rebuilt from a stored compiled code when there is one."""
    flags = int(flags)
    if kwargs or ignore_unused or cache_pattern is False or type(pattern) is not str or flags & _SLOW_FLAGS:
        return _regex.compile(pattern, flags, ignore_unused=ignore_unused, cache_pattern=cache_pattern, **kwargs)
    key = (pattern, flags)
    data = _load().get(key)
    if data is not None:
        try:
            p = _core.compile(*data)
            _stats["hits"] += 1
            _used.add(key)
            return p
        except Exception as e:  # a damaged entry: forget it and compile
            log.debug("regex cache entry unusable (%s)", type(e).__name__)
            _table.pop(key, None)
    p = _regex.compile(pattern, flags, cache_pattern=cache_pattern)
    _stats["misses"] += 1
    if _recording:
        try:
            data = p._pickled_data
            _encode_entry(data)  # storable?
            _new[key] = data
            _used.add(key)
        except Exception:
            pass
    return p


def seal() -> bool:
    """Store what was compiled so far (if anything new) and stop recording for this process.
    Returns True when the file was written."""
    global _recording
    was, _recording = _recording, False
    if not (was and _new and _enabled()):
        _new.clear()
        return False
    table = dict(_load())
    table.update(_new)
    if len(table) > MAX_ENTRIES:  # stale patterns from older code: keep what this process used
        table = {k: v for k, v in table.items() if k in _used}
    tmp = None
    try:
        entries = []
        for (pattern, flags), data in table.items():
            entries.append([flags, *_encode_entry(data)])
        body = json.dumps(entries, ensure_ascii=True, separators=(",", ":")).encode("ascii")
        head = json.dumps({"format": FORMAT, "env": _env(), "crc32": zlib.crc32(body), "n": len(entries)},
                          ensure_ascii=True).encode("ascii")
        target = _file()
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".regex-", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(head + b"\n" + body)
        os.replace(tmp, target)
        tmp = None
        global _table
        _table = table
        _new.clear()
        return True
    except Exception as e:  # read-only home, full disk: the cache is optional
        log.debug("regex cache not written (%s)", type(e).__name__)
        return False
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def stats() -> dict[str, int]:
    """Hits and misses in this process (for benchmarks and tests)."""
    return dict(_stats, stored=len(_table or {}), recording=int(_recording))


def _reset_for_tests() -> None:
    global _table, _recording
    _table = None
    _new.clear()
    _used.clear()
    _recording = True
    _stats.update(hits=0, misses=0)
