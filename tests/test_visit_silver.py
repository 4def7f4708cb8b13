"""bench/visit_silver.py: silver recall of ACI-Bench metadata names and ages (invented fixture)."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import visit_silver  # noqa: E402


def _write(path: Path, rows: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def test_visit_silver_counts_metadata_values(tmp_path, capsys):
    folder = tmp_path / "clinical-visit-notes" / "aci-bench"
    folder.mkdir(parents=True)
    _write(folder / "train.csv", [{
        "dataset": "virtassist", "encounter_id": "X001",
        "dialogue": "[doctor] hi , bartholomew . i'm gon na check your knee .\n[patient] okay .\n"
                    "[doctor] bartholomew is a 57-year-old male seen by dr. quimby .",
        "note": "Bartholomew Okonkwo is a 57-year-old male. Strength is 5/5 on the left."}])
    _write(folder / "train_metadata.csv", [{
        "dataset": "virtassist", "encounter_id": "X001", "id": "VA001", "doctor_name": "Dr. Quimby",
        "patient_gender": "male", "patient_age": "57.0", "patient_firstname": "Bartholomew",
        "patient_familyname": "Okonkwo", "cc": "", "2nd_complaints": ""}])
    items = visit_silver.encounters(folder)
    assert [(k, dict(v)) for _, k, _, v in items][0][1] == {
        "patient_firstname": "Bartholomew", "patient_familyname": "Okonkwo", "doctor_name": "Quimby", "age": "57"}
    assert visit_silver.main(["--data-dir", str(tmp_path), "--detectors", "rules", "--show", "other"]) == 0
    out = capsys.readouterr().out
    last = out.strip().splitlines()[-1]
    assert last.startswith("silver_recall=") and "texts=2" in last
    assert "'gon'" not in out and "'5/5'" not in out  # no false positives on the tokenised dialogue


def test_visit_silver_without_data(tmp_path, capsys):
    assert visit_silver.main(["--data-dir", str(tmp_path)]) == 2
    assert "no ACI-Bench files" in capsys.readouterr().err
