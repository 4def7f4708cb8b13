"""The English probe set (tests/fixtures/english_probe) and its bench (bench/probe_eval.py)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_engine.taxonomy import is_label

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("probe_eval", ROOT / "bench" / "probe_eval.py")
probe_eval = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("probe_eval", probe_eval)
_spec.loader.exec_module(probe_eval)

FILES = [probe_eval.PROBE_DIR / "tune.txt", probe_eval.PROBE_DIR / "check.txt"]
TUNE2 = probe_eval.PROBE_DIR / "tune2.txt"
TUNE3 = probe_eval.PROBE_DIR / "tune3.txt"
TUNE4 = probe_eval.PROBE_DIR / "tune4.txt"
TUNE5 = probe_eval.PROBE_DIR / "tune5.txt"
TUNE6 = probe_eval.PROBE_DIR / "tune6.txt"  # transcripts only
TUNE7 = probe_eval.PROBE_DIR / "tune7.txt"  # session 5, writer blind to the detectors
TUNE8 = probe_eval.PROBE_DIR / "tune8.txt"  # session 5, tuning split (errors may be fitted)
TUNE9 = probe_eval.PROBE_DIR / "tune9.txt"  # session 6, blind-written tuning split
TUNE10 = probe_eval.PROBE_DIR / "tune10.txt"  # session 6, blind-written, report only
TUNE11 = probe_eval.PROBE_DIR / "tune11.txt"  # session 6, blind-written tuning split
TUNE12 = probe_eval.PROBE_DIR / "tune12.txt"  # session 6, blind-written tuning split (queries)
TUNE13 = probe_eval.PROBE_DIR / "tune13.txt"  # session 6, blind-written tuning split (dialects, speech)
TUNE14 = probe_eval.PROBE_DIR / "tune14.txt"  # session 7, blind-written tuning split (US settings)
TUNE15 = probe_eval.PROBE_DIR / "tune15.txt"  # session 7, blind-written tuning split (UK/IE/AU/NZ/CA)
TUNE16 = probe_eval.PROBE_DIR / "tune16.txt"  # session 7, blind-written, report only
TUNE17 = probe_eval.PROBE_DIR / "tune17.txt"  # session 7, blind-written tuning split (transcripts)
TUNE18 = probe_eval.PROBE_DIR / "tune18.txt"  # session 7, blind-written, report only (transcripts)
TUNE19 = probe_eval.PROBE_DIR / "tune19.txt"  # session 8, blind-written tuning split (transcripts)
TUNE20 = probe_eval.PROBE_DIR / "tune20.txt"  # session 8, blind-written, report only (transcripts)
TUNE21 = probe_eval.PROBE_DIR / "tune21.txt"  # session 8, blind-written tuning split (outpatient notes, queries)
TUNE22 = probe_eval.PROBE_DIR / "tune22.txt"  # session 8, blind-written tuning split (lower-case transcripts)
TUNE23 = probe_eval.PROBE_DIR / "tune23.txt"  # session 8, blind-written tuning split (queries, US outpatient notes)
TUNE24 = probe_eval.PROBE_DIR / "tune24.txt"  # session 8, blind-written tuning split (transcripts, queries)
TUNE25 = probe_eval.PROBE_DIR / "tune25.txt"  # session 8, blind-written tuning split (lower-case transcripts, queries)
TUNE26 = probe_eval.PROBE_DIR / "tune26.txt"  # session 8, blind-written tuning split (outpatient notes, queries)
TUNE27 = probe_eval.PROBE_DIR / "tune27.txt"  # session 9, blind-written tuning split (outpatient notes, transcripts)
TUNE28 = probe_eval.PROBE_DIR / "tune28.txt"  # session 9, blind-written tuning split (lower-case transcripts, queries)
TUNE29 = probe_eval.PROBE_DIR / "tune29.txt"  # session 9, blind-written tuning split (queries, messages, letters, nursing)
TUNE30 = probe_eval.PROBE_DIR / "tune30.txt"  # session 9, blind-written, report only (outpatient, transcripts, queries)
TUNE31 = probe_eval.PROBE_DIR / "tune31.txt"  # session 10, blind-written tuning split (lower-case transcripts, queries)
TUNE32 = probe_eval.PROBE_DIR / "tune32.txt"  # session 10, blind-written tuning split (people of several roles)
TUNE33 = probe_eval.PROBE_DIR / "tune33.txt"  # session 10, blind-written, report only (outpatient, transcripts, queries)
TUNE34 = probe_eval.PROBE_DIR / "tune34.txt"  # session 11, blind-written, report only (outpatient, transcripts, queries)
TUNE35 = probe_eval.PROBE_DIR / "tune35.txt"  # session 12, blind-written, report only (outpatient, letters, transcripts, queries)
TUNE36 = probe_eval.PROBE_DIR / "tune36.txt"  # session 13, blind-written tuning split (ICU nursing notes, transcripts, queries)
TUNE38 = probe_eval.PROBE_DIR / "tune38.txt"  # session 13, blind-written tuning split (ICU and ward nursing notes)
TUNE39 = probe_eval.PROBE_DIR / "tune39.txt"  # session 13, blind-written tuning split (nursing notes: family, discharge)
TUNE37 = probe_eval.PROBE_DIR / "tune37.txt"  # session 13, blind-written, report only (every kind, nursing notes too)
TUNE40 = probe_eval.PROBE_DIR / "tune40.txt"  # session 14, blind-written tuning split (nursing notes by many hands)
TUNE41 = probe_eval.PROBE_DIR / "tune41.txt"  # session 14, blind-written tuning split (clinician queries, transcripts)
TUNE42 = probe_eval.PROBE_DIR / "tune42.txt"  # session 14, blind-written, report only (every kind)
TUNE43 = probe_eval.PROBE_DIR / "tune43.txt"  # session 14, blind-written tuning split (nursing notes)
TUNE44 = probe_eval.PROBE_DIR / "tune44.txt"  # session 14, blind-written, report only (nursing, outpatient, transcripts, queries)
TUNE45 = probe_eval.PROBE_DIR / "tune45.txt"  # session 15, blind-written, report only (every kind, portal messages too)
TUNE46 = probe_eval.PROBE_DIR / "tune46.txt"  # session 15, blind-written tuning split (nursing notes by many hands)
TUNE47 = probe_eval.PROBE_DIR / "tune47.txt"  # session 15, blind-written tuning split (transcripts, outpatient, queries)
TUNE48 = probe_eval.PROBE_DIR / "tune48.txt"  # session 15, blind-written tuning split (nursing notes outside the ICU)
TUNE49 = probe_eval.PROBE_DIR / "tune49.txt"  # session 15, blind-written tuning split (lower-case transcripts, queries)
TUNE50 = probe_eval.PROBE_DIR / "tune50.txt"  # session 16, blind-written, report only (nursing, outpatient, letters, transcripts, queries)
TUNE51 = probe_eval.PROBE_DIR / "tune51.txt"  # session 16, blind-written tuning split (outpatient, letters, queries, messages, transcripts)
TUNE52 = probe_eval.PROBE_DIR / "tune52.txt"  # session 16, blind-written tuning split (ICU nursing notes, precision traps)
TUNE53 = probe_eval.PROBE_DIR / "tune53.txt"  # session 16, blind-written tuning split (lower-case transcripts, queries)
TUNE55 = probe_eval.PROBE_DIR / "tune55.txt"  # session 17, blind-written, report only (transcripts, queries, outpatient, nursing)
TUNE56 = probe_eval.PROBE_DIR / "tune56.txt"  # session 17, blind-written tuning split (lower-case visit transcripts, queries)
TUNE57 = probe_eval.PROBE_DIR / "tune57.txt"  # session 17, blind-written tuning split (outpatient, letters, nursing, queries)
TUNE58 = probe_eval.PROBE_DIR / "tune58.txt"  # session 18, blind-written tuning split (ICU nursing, transcripts, queries, outpatient)
TUNE59 = probe_eval.PROBE_DIR / "tune59.txt"  # session 18, blind-written report-only split (transcripts, queries, outpatient, letters)
TUNE54 = probe_eval.PROBE_DIR / "tune54.txt"  # session 16, blind-written tuning split (nursing, outpatient, discharge, messages)
MARK = re.compile(r"\[\[([^\[\]|]+)\|([A-Z_]+)\]\]")
LAST_LINE = re.compile(r"^token_p=\d\.\d{4} token_r=\d\.\d{4} token_f1=\d\.\d{4}$")


def _raw_texts(path: Path) -> dict[str, str]:
    """Marked text of each probe text, split on the headers independently of the parser."""
    out, cur = {}, None
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^=== (\S+) (\S+)$", line)
        if m:
            cur = m.group(1)
            out[cur] = []
        elif cur is not None:
            out[cur].append(line)
    return {k: "\n".join(v) for k, v in out.items()}


def test_parse_text_offsets():
    text, spans = probe_eval.parse_text("Dr. [[Hope|DOCTOR]] saw [[Ann Lee|PATIENT]], [[45|AGE]] yo, on [[3/4/2021|DATE]].")
    assert text == "Dr. Hope saw Ann Lee, 45 yo, on 3/4/2021."
    assert [(text[s.start:s.end], s.label) for s in spans] == [
        ("Hope", "DOCTOR"), ("Ann Lee", "PATIENT"), ("45", "AGE"), ("3/4/2021", "DATE")]


@pytest.mark.parametrize("bad", [
    "[[Hope|NOTALABEL]]", "[[Hope|NAME]]", "[[ Hope|DOCTOR]]", "[[Hope|DOCTOR]", "[[Hope]]", "x ]] y",
])
def test_parse_text_rejects_bad_markup(bad):
    with pytest.raises(probe_eval.ProbeFormatError):
        probe_eval.parse_text(bad)


_plain = st.text(alphabet=st.characters(blacklist_characters="[]|", blacklist_categories=("Cs",)), max_size=12)
_inner = _plain.map(str.strip).filter(bool)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_plain, _inner, st.sampled_from(probe_eval.PROBE_LABELS)), max_size=6), _plain)
def test_parse_text_roundtrip(parts, tail):
    marked = "".join(f"{pre}[[{inner}|{lab}]]" for pre, inner, lab in parts) + tail
    text, spans = probe_eval.parse_text(marked)
    assert text == "".join(pre + inner for pre, inner, _ in parts) + tail
    assert [(text[s.start:s.end], s.label) for s in spans] == [(i, lab) for _, i, lab in parts]


def test_parse_probe_file_rules(tmp_path):
    p = tmp_path / "p.txt"
    p.write_text("# comment\n=== a1 query\nnotes for [[Ann|PATIENT]]\n=== a2 letter\n# note\n\nDear [[Bo|PATIENT]],\n\n",
                 encoding="utf-8")
    items = probe_eval.parse_probe(p)
    assert [(i, k, t) for i, k, t, _ in items] == [("a1", "query", "notes for Ann"), ("a2", "letter", "Dear Bo,")]
    p.write_text("=== a1 query\nx\n=== a1 query\ny\n", encoding="utf-8")
    with pytest.raises(probe_eval.ProbeFormatError, match="duplicate"):
        probe_eval.parse_probe(p)
    p.write_text("=== a1 poem\nx\n", encoding="utf-8")
    with pytest.raises(probe_eval.ProbeFormatError, match="kind"):
        probe_eval.parse_probe(p)


@pytest.mark.parametrize("path", FILES + [TUNE2, TUNE3, TUNE4, TUNE5, TUNE6, TUNE7, TUNE8, TUNE9, TUNE10,
                                             TUNE11, TUNE12, TUNE13, TUNE14, TUNE15, TUNE16, TUNE17, TUNE18, TUNE19, TUNE20, TUNE21, TUNE22, TUNE23, TUNE24, TUNE25, TUNE26, TUNE27, TUNE28, TUNE29, TUNE30, TUNE31, TUNE32, TUNE33, TUNE34, TUNE35, TUNE36, TUNE37, TUNE38, TUNE39, TUNE40, TUNE41, TUNE42, TUNE43, TUNE44, TUNE45, TUNE46, TUNE47, TUNE48, TUNE49, TUNE50, TUNE51, TUNE52, TUNE53, TUNE54, TUNE55, TUNE56, TUNE57, TUNE58, TUNE59],
                         ids=lambda p: p.stem)
def test_probe_file_is_well_formed(path):
    items = probe_eval.parse_probe(path)
    raw = _raw_texts(path)
    assert len(items) >= {TUNE2: 30, TUNE3: 25, TUNE4: 30, TUNE5: 15, TUNE6: 10, TUNE7: 18, TUNE8: 20, TUNE9: 24, TUNE10: 24, TUNE11: 24, TUNE12: 24, TUNE13: 24, TUNE14: 24, TUNE15: 24, TUNE16: 24, TUNE17: 24, TUNE18: 24, TUNE19: 24, TUNE20: 24, TUNE21: 24, TUNE22: 24, TUNE23: 24, TUNE24: 24, TUNE25: 24, TUNE26: 24, TUNE27: 24, TUNE28: 24, TUNE29: 24, TUNE30: 24, TUNE31: 24, TUNE32: 24, TUNE33: 24, TUNE34: 24, TUNE35: 24, TUNE36: 24, TUNE37: 24, TUNE38: 24, TUNE39: 24, TUNE40: 24, TUNE41: 24, TUNE42: 24, TUNE43: 24, TUNE44: 24, TUNE45: 24, TUNE46: 24, TUNE47: 24, TUNE48: 24, TUNE49: 24, TUNE50: 24, TUNE51: 24, TUNE52: 24, TUNE53: 24, TUNE54: 24, TUNE55: 24, TUNE56: 24, TUNE57: 24, TUNE58: 24, TUNE59: 24}.get(path, 35)
    assert {k for _, k, _, _ in items} == ({"transcript"} if path == TUNE6 else
                                           {"nursing"} if path in (TUNE38, TUNE39, TUNE40, TUNE43, TUNE46, TUNE48, TUNE52) else
                                           {"outpatient", "letter", "transcript", "query", "nursing"} if path == TUNE50 else
                                           {"outpatient", "letter", "transcript", "query", "message"} if path == TUNE51 else
                                           {"outpatient", "transcript", "query", "nursing"} if path == TUNE44 else
                                           {"outpatient", "transcript", "query", "nursing", "message"} if path == TUNE45 else
                                           {"outpatient", "transcript", "query"} if path == TUNE47 else
                                           {"outpatient", "transcript", "query", "discharge", "nursing"} if path == TUNE42 else
                                           {"outpatient", "query"} if path in (TUNE23, TUNE26) else
                                           {"transcript", "query"} if path in (TUNE24, TUNE25, TUNE28, TUNE31, TUNE41, TUNE49, TUNE53) else
                                           {"nursing", "outpatient", "discharge", "message"} if path == TUNE54 else
                                           {"transcript", "query", "outpatient", "nursing"} if path == TUNE55 else
                                           {"transcript", "query"} if path == TUNE56 else
                                           {"outpatient", "letter", "nursing", "query"} if path == TUNE57 else
                                           {"nursing", "transcript", "query", "message", "outpatient", "letter"} if path == TUNE58 else
                                           {"transcript", "query", "message", "outpatient", "letter"} if path == TUNE59 else
                                           {"outpatient", "letter", "transcript", "query"} if path == TUNE32 else
                                           {"outpatient", "letter", "transcript", "query", "message"} if path == TUNE35 else
                                           {"query", "message", "letter", "discharge", "nursing"} if path == TUNE29 else
                                           {"outpatient", "transcript", "query"} if path in (TUNE9, TUNE10, TUNE11, TUNE12, TUNE13, TUNE14, TUNE15, TUNE16, TUNE17, TUNE18, TUNE19, TUNE20, TUNE21, TUNE22, TUNE27, TUNE30, TUNE33, TUNE34)
                                           else set(probe_eval.KINDS))
    for doc_id, kind, text, spans in items:
        marked = MARK.findall(raw[doc_id])
        assert [(text[s.start:s.end], s.label) for s in spans] == marked, doc_id
        for s in spans:
            piece = text[s.start:s.end]
            assert s.label in probe_eval.PROBE_LABELS and is_label(s.label)
            assert piece == piece.strip() and piece
            # guideline: titles stay outside name spans; an age is the number only
            assert not re.match(r"(?i)(dr|mr|mrs|ms|miss|prof)\.?\s", piece), (doc_id, piece)
            if s.label == "AGE":
                assert not re.search(r"(?i)year|old|\byo\b|y/o", piece), (doc_id, piece)
        assert all(a.end <= b.start for a, b in zip(spans, spans[1:])), doc_id


def test_ids_unique_and_splits_disjoint():
    tune, check, *others = (probe_eval.parse_probe(p) for p in FILES + [TUNE2, TUNE3, TUNE4, TUNE5, TUNE6, TUNE7,
                                                                         TUNE8, TUNE9, TUNE10, TUNE11, TUNE12, TUNE13, TUNE14, TUNE15, TUNE16, TUNE17, TUNE18, TUNE19, TUNE20, TUNE21, TUNE22, TUNE23, TUNE24, TUNE25, TUNE26, TUNE27, TUNE28, TUNE29, TUNE30, TUNE31, TUNE32, TUNE33, TUNE34, TUNE35, TUNE36, TUNE37, TUNE38, TUNE39, TUNE40, TUNE41, TUNE42, TUNE43, TUNE44, TUNE45, TUNE46, TUNE47, TUNE48, TUNE49, TUNE50, TUNE51, TUNE52, TUNE53, TUNE54, TUNE55, TUNE56, TUNE57, TUNE58, TUNE59])
    rest = [it for o in others for it in o]
    ids = [i for i, *_ in tune + check + rest]
    assert len(ids) == len(set(ids))
    assert not {t for _, _, t, _ in tune + rest} & {t for _, _, t, _ in check}



def test_bench_smoke_rules(capsys):
    assert probe_eval.main(["--detectors", "rules", "--limit", "6", "--errors", "2"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("probe=tune detectors=rules") and "texts=6" in out[0]
    assert any(line.startswith("binary token") for line in out)
    assert LAST_LINE.match(out[-1])


@pytest.mark.parametrize("split", ["check", "both", "tune7", "tune10", "tune16", "tune18", "tune20", "tune30", "tune33", "tune34", "tune35", "tune37", "tune42", "tune44", "tune45", "tune50", "tune55", "tune59"])
def test_errors_refused_on_check(split, capsys):
    assert probe_eval.main(["--split", split, "--errors", "3", "--detectors", "rules"]) == 2
    assert "refused" in capsys.readouterr().err
