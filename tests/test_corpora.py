"""Acceptance checks on the real corpora (skipped where ../shared/data is absent)."""

import subprocess
import sys

import pytest

from deid_engine.io.brat import format_ann, iter_brat_folder, parse_ann, read_brat_folder, taxonomy_labels
from deid_engine.taxonomy import is_label


def test_physionet_reads_into_taxonomy(physionet_train):
    docs = read_brat_folder(physionet_train, taxonomy_labels)
    assert len(docs) == 1624
    spans = [s for d in docs for s in d.spans]
    assert len(spans) == 1243
    assert all(is_label(s.label) for s in spans)


def test_meddocan_brat_roundtrip_identical(meddocan_train):
    n = 0
    for d in iter_brat_folder(meddocan_train):
        again = parse_ann(format_ann(d), len(d.text))
        assert sorted(s.key() for s in again) == sorted(s.key() for s in d.spans), d.name
        n += 1
    assert n == 500


def test_cli_convert_then_evaluate_is_perfect(physionet_train, tmp_path):
    pred = tmp_path / "gold.jsonl"
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    run = lambda *a: subprocess.run([sys.executable, "-m", "deid_engine.cli", *a],  # noqa: E731
                                    check=True, capture_output=True, text=True).stdout
    run("convert", str(physionet_train), str(pred))
    out = run("evaluate", "--gold", str(physionet_train), "--pred", str(pred), "--json", str(tmp_path / "r.json"))
    import json

    r = json.loads((tmp_path / "r.json").read_text())
    for k in ("token", "entity_strict_labeled", "entity_relaxed"):
        assert (r[k]["precision"], r[k]["recall"], r[k]["f1"]) == (1.0, 1.0, 1.0), k
    assert "binary token" in out
    run("evaluate", "--gold", str(physionet_train), "--pred", str(empty), "--json", str(tmp_path / "e.json"))
    r = json.loads((tmp_path / "e.json").read_text())
    assert r["token"]["recall"] == 0.0


@pytest.mark.parametrize("split", ["train", "dev"])
def test_meddocan_gold_spans_cover_the_annotated_text(split, meddocan_train, meddocan_dev):
    """Every span read from MEDDOCAN covers exactly the text its .ann line quotes.

    Some MEDDOCAN files start with a UTF-8 BOM that the .ann offsets count: reading
    them without the shift put every gold span one character to the right.
    """
    folder = meddocan_train if split == "train" else meddocan_dev
    checked = 0
    for d in iter_brat_folder(folder):
        quoted = [line.split("\t")[2] for line in (folder / f"{d.name}.ann").read_text(encoding="utf-8").splitlines()
                  if line.startswith("T") and ";" not in line.split("\t")[1]]
        got = sorted(d.text[s.start:s.end] for s in d.spans)
        assert got == sorted(quoted), d.name
        checked += len(got)
    assert checked > 5000
