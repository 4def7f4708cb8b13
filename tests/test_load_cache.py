"""The derived-data cache (deid_engine.cache) behind LexiconDetector.load and the protected filter.

A cache hit must give exactly the tables a fresh build gives; a stale, damaged,
foreign or unwritable cache must fall back to building without raising or warning.
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

import pytest

from deid_engine import cache
from deid_engine.detect import protected
from deid_engine.detect.lexicon import LexiconDetector
from deid_engine.pipeline import build_pipeline
from deid_engine.resources import resource_path
from deid_engine.types import Document

TABLES = ("first", "surname", "common", "medical", "words", "first_world", "places", "place_rank", "place_first",
          "_buckets", "job_heads", "facility_heads", "head_first", "_titles")

TEXTS = [
    "Pt seen by Dr. Smith on 3/4/2021. Wife Mary called from Boston, MA. MRN 1234567.",
    "PATIENT JOHN DOE, 92 YO, TRANSFERRED FROM MERCY HOSPITAL. FOLEY IN PLACE. PARKINSON'S DISEASE.",
    "spoke with daughter linda re: plan. lives in springfield. parkinsons noted. call 555-123-4567.",
    "Mr. Parkinson was admitted to Calvert Hospital; son Ed updated. Swan-Ganz placed by Dr. Alvarez.",
]


def _tables(det: LexiconDetector) -> dict:
    return {k: getattr(det, k) for k in TABLES}


def _built(lang: str = "en", monkeypatch=None) -> dict:
    monkeypatch.setenv("DEID_NO_CACHE", "1")
    d = LexiconDetector(lang)
    d.load()
    monkeypatch.delenv("DEID_NO_CACHE")
    return _tables(d)


def _cached(lang: str = "en") -> dict:
    d = LexiconDetector(lang)
    d.load()
    return _tables(d)


def _files(name: str) -> list[Path]:
    d = cache.cache_dir()
    return sorted(d.glob(f"{name}-*.txt")) if d.is_dir() else []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_roundtrip_equals_fresh_build(lang, monkeypatch):
    fresh = _built(lang, monkeypatch)
    assert not _files(f"lexicon-{lang}")  # DEID_NO_CACHE: nothing written
    first = _cached(lang)  # miss: builds and writes
    assert len(_files(f"lexicon-{lang}")) == 1
    hit = _cached(lang)  # hit: read back
    for k in TABLES:
        assert first[k] == fresh[k], k
        assert hit[k] == fresh[k], k
        assert type(hit[k]) is type(fresh[k]), k


def test_cache_file_is_plain_text_with_checked_header():
    _cached()
    (p,) = _files("lexicon-en")
    raw = p.read_bytes()
    assert raw.startswith(b'{"format": ')
    assert b"\n" in raw and not raw.startswith(b"\x80")  # not a pickle


def test_user_protected_terms_apply_after_the_cache(monkeypatch):
    from deid_engine.lexicons import add_user_term

    world = sorted(_cached()["first_world"])[0]  # cache written without user terms
    add_user_term("protected", "Alvarez")
    add_user_term("protected", world.title())
    d = LexiconDetector("en")
    d.load()
    assert "alvarez" in d.medical and world in d.medical and world not in d.first_world
    monkeypatch.setenv("DEID_NO_CACHE", "1")
    fresh = LexiconDetector("en")
    fresh.load()
    assert _tables(d) == _tables(fresh)


def test_protected_terms_roundtrip(monkeypatch):
    monkeypatch.setenv("DEID_NO_CACHE", "1")
    protected._load_terms.cache_clear()
    fresh = protected._load_terms()
    monkeypatch.delenv("DEID_NO_CACHE")
    protected._load_terms.cache_clear()
    miss = protected._load_terms()
    protected._load_terms.cache_clear()
    hit = protected._load_terms()
    protected._load_terms.cache_clear()
    assert len(_files("protected-terms")) == 1
    assert miss == fresh and hit == fresh
    assert all(type(a) is type(b) for a, b in zip(hit, fresh))


def test_stale_cache_is_rebuilt_when_a_lexicon_changes(tmp_path, monkeypatch):
    res = tmp_path / "resources"
    shutil.copytree(resource_path("lexicons"), res / "lexicons")
    monkeypatch.setenv("DEID_RESOURCES", str(res))
    from deid_engine.lexicons import load_lexicon

    load_lexicon.cache_clear()
    try:
        assert "qzxwvbrook" not in _cached()["surname"]
        old = _files("lexicon-en")
        with (res / "lexicons" / "surnames_en" / "items.txt").open("a", encoding="utf-8") as f:
            f.write("Qzxwvbrook\n")
        load_lexicon.cache_clear()
        t = _cached()
        assert "qzxwvbrook" in t["surname"]
        new = _files("lexicon-en")
        assert len(new) == 1 and new != old  # the stale entry was replaced
        assert "qzxwvbrook" in _cached()["surname"]  # and the new one is read back
    finally:
        load_lexicon.cache_clear()


def test_code_change_changes_the_key():
    import deid_engine.detect.lexicon as lex
    import deid_engine.detect.protected as prot

    a = cache.make_key("x", ["drugs"], [lex])
    assert a == cache.make_key("x", ["drugs"], [lex])
    assert a != cache.make_key("x", ["drugs"], [lex, prot])
    assert a != cache.make_key("x", ["drugs", "surnames_en"], [lex])


@pytest.mark.parametrize("damage", ["truncate", "flip", "header", "empty", "garbage", "wrong_key"])
def test_damaged_cache_is_ignored_and_rewritten(damage, monkeypatch, caplog):
    fresh = _built("en", monkeypatch)
    _cached()
    (p,) = _files("lexicon-en")
    raw = p.read_bytes()
    if damage == "truncate":
        raw = raw[: len(raw) // 2]
    elif damage == "flip":
        i = len(raw) - 1000
        raw = raw[:i] + bytes([raw[i] ^ 0x01]) + raw[i + 1:]
    elif damage == "header":
        raw = b"{not json" + raw[raw.index(b"\n"):]
    elif damage == "empty":
        raw = b""
    elif damage == "garbage":
        raw = os.urandom(5000)
    elif damage == "wrong_key":
        raw = raw.replace(b'"key": "', b'"key": "0', 1)
    p.write_bytes(raw)
    with caplog.at_level(logging.DEBUG):
        t = _cached()
    assert t == fresh
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    (p2,) = _files("lexicon-en")
    assert p2.read_bytes() != raw  # rewritten
    assert _cached() == fresh


def test_well_formed_entry_with_wrong_types_is_rebuilt(monkeypatch):
    fresh = _built("en", monkeypatch)
    d = LexiconDetector("en")
    key = cache.make_key("lexicon-en", __import__("deid_engine.lexicons", fromlist=["x"]).lexicon_names(),
                         [__import__("deid_engine.detect.lexicon", fromlist=["x"])])
    sections = d._tables_to_lines(fresh)
    sections["surname.v"] = ["not-a-number"] * len(sections["surname.v"])
    assert cache.write("lexicon-en", key, sections)
    assert cache.read("lexicon-en", key) is not None  # intact file ...
    assert _cached() == fresh  # ... but undecodable: rebuilt


def test_section_counts_are_checked():
    assert cache.write("t", "k1", {"a": ["x", "", "y"], "b": [], "c": [""]})
    assert cache.read("t", "k1") == {"a": ["x", "", "y"], "b": [], "c": [""]}
    assert cache.read("t", "k2") is None  # another key: not this file
    assert not cache.write("t", "k3", {"a": ["line\nbreak"]})
    assert not cache.write("t", "k3", {"a": ["nul\0"]})
    assert cache.read("t", "k3") is None


@pytest.mark.parametrize("how", ["dir_is_a_file", "replace_fails", "mkstemp_fails"])
def test_unwritable_cache_dir_falls_back(how, monkeypatch, caplog, tmp_path):
    fresh = _built("en", monkeypatch)
    if how == "dir_is_a_file":
        cache.cache_dir().parent.mkdir(parents=True, exist_ok=True)
        cache.cache_dir().write_text("not a folder")
    elif how == "replace_fails":
        def boom(*a, **k):
            raise OSError(28, "No space left on device")
        monkeypatch.setattr(cache.os, "replace", boom)
    else:
        def boom2(*a, **k):
            raise PermissionError(13, "Read-only file system")
        monkeypatch.setattr(cache.tempfile, "mkstemp", boom2)
    with caplog.at_level(logging.DEBUG):
        assert _cached() == fresh
        assert _cached() == fresh
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    if how != "dir_is_a_file":
        assert not list(cache.cache_dir().glob("*"))  # no temp files left behind


def test_pipeline_spans_identical_with_and_without_cache(monkeypatch):
    docs = [Document(t) for t in TEXTS]
    monkeypatch.setenv("DEID_NO_CACHE", "1")
    protected._load_terms.cache_clear()
    ref = build_pipeline("rules", "en").load().run_many(docs)
    monkeypatch.delenv("DEID_NO_CACHE")
    protected._load_terms.cache_clear()
    miss = build_pipeline("rules", "en").load().run_many(docs)
    protected._load_terms.cache_clear()
    hit = build_pipeline("rules", "en").load().run_many(docs)
    protected._load_terms.cache_clear()
    assert ref == miss == hit
    assert any(ref)


def test_cache_dir_follows_deid_user_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("DEID_USER_DIR", str(tmp_path / "u"))
    assert cache.cache_dir() == tmp_path / "u" / "cache"
    monkeypatch.delenv("DEID_USER_DIR")
    assert cache.cache_dir().name == "derived"


def test_frozen_build_keys_on_version_and_executable(monkeypatch, tmp_path):
    import types

    mod = types.ModuleType("deid_engine.fake_frozen")
    mod.__file__ = str(tmp_path / "missing" / "fake.pyc")  # PyInstaller: no source on disk
    a = cache.code_digest([mod])
    assert a == cache.code_digest([mod])
    monkeypatch.setattr(cache.sys, "executable", str(tmp_path / "other-exe"))
    assert cache.code_digest([mod]) != a


def test_no_cache_folder_at_all_still_loads(monkeypatch):
    def nowhere():
        raise RuntimeError("no user cache folder on this system")

    monkeypatch.setattr(cache, "cache_dir", nowhere)
    fresh = _built("en", monkeypatch)
    assert _cached() == fresh


def test_load_errors_propagate_and_load_is_idempotent(tmp_path):
    """Pipeline.load stays sequential: a detector's error reaches the caller unchanged, and a
    failed load can be retried (nothing is marked loaded)."""
    from deid_engine.detect.tagger import TaggerDetector
    from deid_engine.pipeline import Pipeline

    pipe = Pipeline([LexiconDetector("en"), TaggerDetector("en", path=tmp_path / "missing")])
    for _ in range(2):
        with pytest.raises(FileNotFoundError, match="no tagger model for language 'en'"):
            pipe.load()
        assert not pipe._loaded
    ok = build_pipeline("rules", "en")
    assert ok.load() is ok and ok.load() is ok and ok._loaded


def test_protected_dictionary_roundtrip(monkeypatch):
    monkeypatch.setenv("DEID_NO_CACHE", "1")
    protected._load_dictionary.cache_clear()
    fresh = protected._load_dictionary()
    monkeypatch.delenv("DEID_NO_CACHE")
    try:
        for _ in range(2):  # miss (writes), then hit
            protected._load_dictionary.cache_clear()
            got = protected._load_dictionary()
            assert got == fresh and type(got) is frozenset
        assert len(_files("protected-dictionary")) == 1
    finally:
        protected._load_dictionary.cache_clear()
