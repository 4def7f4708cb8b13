"""The compiled-pattern cache (deid_engine.rxcache): a pattern rebuilt from its stored code must
behave exactly like a freshly compiled one; per-note and user patterns must never reach the
disk; a damaged, stale or unwritable cache must fall back to compiling without raising."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import regex

from deid_engine import cache, rxcache

ROOT = Path(__file__).resolve().parent.parent

PATTERNS = [
    (r"(?i)\b(?:dr|doctor)\.?\s+(?P<name>[A-Z][a-z]+)", 0),
    (r"(?<=\bMRN[:# ]{0,3})\d{6,10}\b", 0),
    (r"""\b(?P<m>0?[1-9]|1[0-2])/(?P<d>[0-2]?\d|3[01])(?:/(?P<y>\d{2,4}))?\b  # month/day[/year]""", regex.VERBOSE),
    (r"\p{Lu}\p{Ll}+(?:[-'’]\p{Lu}\p{Ll}+)*", 0),
    (r"^(?:history|hpi):", regex.IGNORECASE | regex.MULTILINE),
    (r"(?:colou?r){e<=1}", 0),  # fuzzy
    (r"(?r)\d+", 0),  # reverse
    (r"café|naïve", regex.IGNORECASE),
]
TEXTS = [
    "Seen by Dr. Smith and doctor O'Brien-Jones; MRN: 12345678. 3/14/2021 and 12/1.",
    "HISTORY: colr of skin normal, naive CAFÉ 42 then 7\nhpi: Müller-Lüdenscheid 99",
]


def _matches(p, text):
    return [(m.span(), m.groups(), m.groupdict()) for m in p.finditer(text)]


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.delenv("DEID_NO_CACHE", raising=False)
    rxcache._reset_for_tests()
    yield
    rxcache._reset_for_tests()


def _cache_file() -> Path:
    return cache.cache_dir() / f"regex-{rxcache.FORMAT}.json"


def test_rebuilt_patterns_behave_like_compiled_ones(fresh):
    first = [rxcache.compile(p, f) for p, f in PATTERNS]
    assert rxcache.seal()
    assert _cache_file().is_file()
    rxcache._reset_for_tests()  # a new start: the table is read from disk
    again = [rxcache.compile(p, f) for p, f in PATTERNS]
    assert rxcache.stats()["hits"] == len(PATTERNS) and rxcache.stats()["misses"] == 0
    for (pat, flags), a, b in zip(PATTERNS, first, again):
        ref = regex.compile(pat, flags)
        assert b.pattern == ref.pattern and b.flags == ref.flags and b.groupindex == ref.groupindex
        assert b.groups == ref.groups
        for t in TEXTS:
            assert _matches(b, t) == _matches(ref, t) == _matches(a, t)
            assert b.sub("#", t) == ref.sub("#", t)


def test_nothing_compiled_after_seal_or_per_note_is_stored(fresh):
    rxcache.compile(r"\bstatic\b")
    rxcache.compile(r"\b(?:Ngozi|Okafor)\b", cache_pattern=False)  # a note's own names
    rxcache.compile(r"\b\L<names>\b", names=["Zebedee"])  # named lists: never stored
    assert rxcache.seal()
    p = rxcache.compile(r"\bWilhelmina\b")  # after seal: a note is being read
    assert p.search("Wilhelmina came") is not None
    assert not rxcache.seal()  # nothing more is written in this process
    body = _cache_file().read_text(encoding="ascii")
    assert "static" in body
    for secret in ("Ngozi", "Okafor", "Zebedee", "Wilhelmina"):
        assert secret not in body


def test_user_always_redact_terms_are_not_stored(fresh):
    from deid_engine import lexicons
    from deid_engine.detect.protected import ProtectedTermsFilter
    from deid_engine.pipeline import build_pipeline
    from deid_engine.types import Document

    lexicons.add_user_term("always_redact", "Quillfeather Ward")
    filt = ProtectedTermsFilter("en")
    filt.load()
    _, rx = filt._user_lists()  # compiled while the cache still records (before any seal)
    assert rx is not None and rx.search("to quillfeather ward") is not None
    pipe = build_pipeline("rules", lang="en").load()  # seals: the rules' patterns are stored
    text = "Moved to Quillfeather Ward today."
    assert any(text[s.start:s.end] == "Quillfeather Ward" for s in pipe.run(Document(text)))
    assert _cache_file().is_file()
    assert "Quillfeather" not in _cache_file().read_text(encoding="ascii")


@pytest.mark.parametrize("damage", ["truncate", "flip", "header", "types", "garbage"])
def test_damaged_cache_falls_back_to_compiling(fresh, damage):
    for p, f in PATTERNS:
        rxcache.compile(p, f)
    assert rxcache.seal()
    f = _cache_file()
    raw = f.read_bytes()
    head, _, body = raw.partition(b"\n")
    if damage == "truncate":
        f.write_bytes(raw[: len(raw) // 2])
    elif damage == "flip":
        f.write_bytes(head + b"\n" + body.replace(b"A", b"B", 3))
    elif damage == "header":
        f.write_bytes(b'{"format": 1}\n' + body)
    elif damage == "types":  # well-formed, right CRC, wrong field types
        entries = json.loads(body)
        entries[0][3] = 12
        body = json.dumps(entries).encode()
        meta = json.loads(head)
        import zlib

        meta["crc32"] = zlib.crc32(body)
        f.write_bytes(json.dumps(meta).encode() + b"\n" + body)
    else:
        f.write_bytes(os.urandom(512))
    rxcache._reset_for_tests()
    for (pat, flags) in PATTERNS:
        p = rxcache.compile(pat, flags)
        ref = regex.compile(pat, flags)
        for t in TEXTS:
            assert _matches(p, t) == _matches(ref, t)
    assert rxcache.stats()["hits"] == 0
    assert rxcache.seal()  # rewritten whole


def test_no_cache_setting_writes_nothing(fresh, monkeypatch):
    monkeypatch.setenv("DEID_NO_CACHE", "1")
    rxcache.compile(r"\bx\b")
    assert not rxcache.seal()
    assert not _cache_file().exists()


def test_unwritable_cache_folder_is_harmless(fresh, monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("DEID_USER_DIR", str(blocker))  # cache dir would be under a regular file
    p = rxcache.compile(r"\b\d{3}\b")
    assert not rxcache.seal()
    assert p.findall("1 22 333") == ["333"]


def test_pipeline_spans_identical_cold_and_warm(tmp_path):
    """Two fresh processes over the same user folder: the second reads every rule pattern from
    the cache (hits, no misses) and finds exactly the spans of the first."""
    code = (
        "import json,sys\n"
        "from deid_engine.pipeline import build_pipeline\n"
        "from deid_engine import rxcache\n"
        "from deid_engine.types import Document\n"
        "p = build_pipeline('rules', lang='en').load()\n"
        "st = rxcache.stats()\n"
        "texts = ['Pt seen by Dr. Smith on 3/4/2021. Wife Mary called from Boston, MA. MRN 1234567.',\n"
        "         'spoke with daughter linda re: plan. lives in springfield. call 555-123-4567.',\n"
        "         'she is 93 years old and works as a welder at the harbor view mill in tauranga']\n"
        "out = [[(s.start, s.end, s.label) for s in p.run(Document(t))] for t in texts]\n"
        "print(json.dumps({'spans': out, 'hits': st['hits'], 'misses': st['misses']}))\n"
    )
    env = dict(os.environ, DEID_USER_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    env.pop("DEID_NO_CACHE", None)
    runs = [json.loads(subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                                      text=True, check=True).stdout.strip().splitlines()[-1]) for _ in range(2)]
    assert runs[0]["misses"] > 100 and runs[0]["hits"] == 0
    assert runs[1]["hits"] >= runs[0]["misses"] - 5 and runs[1]["misses"] <= 5
    assert runs[0]["spans"] == runs[1]["spans"]
    assert any(runs[0]["spans"])
