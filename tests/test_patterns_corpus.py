"""Regression guard: the rules pipeline on corpus samples keeps the recall measured.

Floors were measured on the first 400 PhysioNet train-split notes (token recall
0.867, precision 0.885; DATE 0.978, NAME 0.868, LOCATION 0.563) and the first
100 MEDDOCAN train notes (token recall 0.926, precision 0.954), and set a few
points below.
"""

from __future__ import annotations

import pytest

from deid_engine.evaluate import evaluate
from deid_engine.io.brat import iter_brat_folder, taxonomy_labels
from deid_engine.pipeline import build_pipeline
from deid_engine.splits import physionet_split

pytestmark = pytest.mark.needs_data


def _score(docs, lang):
    pipe = build_pipeline("rules", lang).load()
    return evaluate({d.name: d.text for d in docs}, {d.name: list(d.spans) for d in docs},
                    {d.name: pipe.run(d.document) for d in docs})


def test_physionet_train_sample_recall_floor(physionet_train):
    docs = [d for d in iter_brat_folder(physionet_train, taxonomy_labels) if physionet_split(d.name) == "train"][:400]
    rep = _score(docs, "en")
    assert rep.token.recall >= 0.84
    assert rep.token.precision >= 0.85
    assert rep.category_token_recall["DATE"].recall >= 0.95
    assert rep.category_token_recall["NAME"].recall >= 0.83
    assert rep.category_token_recall["LOCATION"].recall >= 0.5
    assert rep.category_token_recall["CONTACT"].recall >= 0.9


def test_meddocan_train_sample_recall_floor(meddocan_train):
    docs = list(iter_brat_folder(meddocan_train, taxonomy_labels))[:100]
    rep = _score(docs, "es")
    assert rep.token.recall >= 0.90
    assert rep.token.precision >= 0.93
    for cat in ("DATE", "AGE", "CONTACT", "ID"):
        assert rep.category_token_recall[cat].recall >= 0.92, cat
