"""The Model menu: compare & adopt dialog, rollback, P (protected terms), uncertainty order, retrain job."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from app import actions as actions_mod  # noqa: E402
from app.learn_dialogs import CompareDialog  # noqa: E402
from app.main_window import MainWindow  # noqa: E402
from deid_engine.learn import registry  # noqa: E402
from deid_engine.pipeline import Pipeline  # noqa: E402
from deid_engine.types import Span  # noqa: E402

NOTES = {
    "a.txt": "Pt Quagmire seen by Dr Hollis.\nAspirin given. Quagmire stable.\n",
    "b.txt": "Dr Hollis reviewed labs. Pt Zorn stable.\n",
    "c.txt": "No identifiers here besides Boston.\n",
}


class FixtureDetector:
    name = "fixture"
    WORDS = {"Quagmire": ("PATIENT", 0.9), "Hollis": ("DOCTOR", 0.85), "Aspirin": ("PATIENT", 0.8),
             "Zorn": ("PATIENT", 0.35), "Boston": ("CITY", 0.6)}

    def load(self):
        pass

    def describe(self):
        return {"version": "fixture-1"}

    def detect(self, doc):
        return [Span(m.start(), m.end(), lbl, "tagger:en", c) for w, (lbl, c) in self.WORDS.items()
                for m in re.finditer(re.escape(w), doc.text)]


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(actions_mod, "build_default_pipeline",
                        lambda lang: (Pipeline([FixtureDetector()], name="fixture", lang=lang), ""))
    folder = tmp_path / "notes"
    folder.mkdir()
    for k, v in NOTES.items():
        (folder / k).write_text(v, encoding="utf-8")
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.open_folder(folder)
    qtbot.waitUntil(lambda: not w.controller.job_running(), timeout=10000)
    return w


class _Fake:
    meta: dict = {}

    def save(self, folder):
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "model.pt").write_bytes(b"x")
        (folder / "model.json").write_text(json.dumps({"format": "deid-tagger.v1"}))


CMP = {"old": {"documents": 3, "strict": {"precision": 0.8, "recall": 0.6, "f1": 0.686},
               "token": {"precision": 0.8, "recall": 0.7, "f1": 0.75, "f2": 0.72},
               "category_recall": {"NAME": 0.6, "DATE": 0.9}},
       "new": {"documents": 3, "strict": {"precision": 0.9, "recall": 0.85, "f1": 0.874},
               "token": {"precision": 0.9, "recall": 0.9, "f1": 0.9, "f2": 0.9},
               "category_recall": {"NAME": 0.88, "DATE": 0.92}},
       "delta_strict_f1": 0.19, "delta_token_recall": 0.2, "suggest": "adopt"}


def test_compare_dialog_adopt_and_discard(qtbot, win):
    v1 = registry.save_version(_Fake(), "en", {"comparison": CMP})
    d = CompareDialog(CMP, v1.id, "en", ["replay from train"], win)
    qtbot.addWidget(d)
    cells = {d.table.item(r, 0).text(): (d.table.item(r, 1).text(), d.table.item(r, 2).text())
             for r in range(d.table.rowCount())}
    assert cells["Strict entity F1"] == ("68.6", "87.4") and cells["Recall: NAME"] == ("60.0", "88.0")
    assert d.adopt_button.isDefault()
    qtbot.mouseClick(d.adopt_button, Qt.MouseButton.LeftButton)
    assert registry.active_id("en") == v1.id and d.choice == "adopt"
    v2 = registry.save_version(_Fake(), "en")
    d2 = CompareDialog({}, v2.id, "en", [], win)
    qtbot.addWidget(d2)
    assert "Too few" in d2.header.text()
    qtbot.mouseClick(d2.discard_button, Qt.MouseButton.LeftButton)
    assert not v2.path.exists() and registry.active_id("en") == v1.id


def test_model_menu_rollback_and_status(qtbot, win):
    titles = [a.text().replace("&", "") for a in win.menuBar().actions()]
    assert "Model" in titles and titles[-1] == "Help"
    v = registry.save_version(_Fake(), "en")
    registry.activate("en", v.id)
    win.learning.update_status()
    assert f"tagger {v.id}" in win.model_label.text()
    win.learning.act_rollback.trigger()
    assert registry.active_id("en") == "" and win.model_label.text().endswith("tagger bundled")


def test_p_rejects_and_protects_the_span_text(qtbot, win):
    from deid_engine.lexicons import user_list

    c = win.controller
    e = c.session.by_key["a.txt"]
    c.set_current(e)
    r = next(r for r in c.reviewed() if e.text[r.start:r.end] == "Aspirin")
    c.select_span(c.reviewed().index(r))
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_P)
    assert "Aspirin" in user_list("protected")
    got = {e.text[x.start:x.end]: x.verdict for x in c.session.reviewed(e)}
    assert got["Aspirin"] == "rejected"


def test_order_by_uncertainty(qtbot, win):
    c = win.controller
    c.session.mark(c.session.by_key["c.txt"], "reviewed")
    win.learning.act_uncertain.trigger()
    order = [e.key for e in win.visible_entries()]
    assert order == ["b.txt", "a.txt", "c.txt"]  # Zorn 0.35 < Aspirin 0.8; reviewed last


def test_retrain_job_runs_and_offers_comparison(qtbot, win, monkeypatch):
    from deid_engine.learn.retrain import RetrainConfig

    monkeypatch.setattr(registry, "active_model_dir", lambda lang: None)  # no shipped model: from scratch
    c = win.controller
    for key in NOTES:
        e = c.session.by_key[key]
        c.session.decide([c.session.make(e, r.span, "accept") for r in c.session.reviewed(e)])
        c.session.mark(e, "reviewed")
    la = win.learning
    la.auto_show = False
    assert la.retrain(RetrainConfig(lang="en", scratch_epochs=1, glove=False, augment=0, max_seconds=60))
    qtbot.waitUntil(lambda: not c.job_running(), timeout=120000)
    assert la.result and la.result["version"]
    assert registry.active_id("en") == ""
    la.show_compare()
    assert la.dialog is not None and la.dialog.version_id == la.result["version"]
    la.dialog.adopt()
    assert registry.active_id("en") == la.dialog.version_id
