"""The "Model" menu: retrain from reviews, compare & adopt, roll back, protected terms, uncertainty order.

``install_learning(window)`` adds everything to a ``MainWindow`` (one call);
the rest of the window is untouched. Training runs on the controller's lane
(one model job at a time) through ``GeneratorWorker``, with progress, ETA
and cancel in the status bar like tagging.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHeaderView, QLabel, QTableWidget,
                               QTableWidgetItem, QVBoxLayout)

from deid_engine.learn import registry

from .workers import GeneratorWorker

log = logging.getLogger(__name__)

JOB = "Retraining"


def _pct(x) -> str:
    return "-" if x is None else f"{100 * float(x):.1f}"


class CompareDialog(QDialog):
    """Active vs new model on the held-back reviewed documents; Adopt or Discard."""

    def __init__(self, comparison: dict, version_id: str, lang: str, notes=(), parent=None):
        super().__init__(parent)
        self.setWindowTitle("Compare models")
        self.version_id, self.lang = version_id, lang
        self.choice = ""
        lay = QVBoxLayout(self)
        old, new = comparison.get("old"), comparison.get("new")
        if old and new:
            head = (f"Measured on {new['documents']} reviewed document(s) held back from training "
                    f"(never trained on). Figures in %.")
        else:
            head = "Too few reviewed documents to hold some back: no comparison is possible yet."
        self.header = QLabel(head)
        self.header.setWordWrap(True)
        lay.addWidget(self.header)
        rows = []
        if old and new:
            rows += [("Strict entity precision", old["strict"]["precision"], new["strict"]["precision"]),
                     ("Strict entity recall", old["strict"]["recall"], new["strict"]["recall"]),
                     ("Strict entity F1", old["strict"]["f1"], new["strict"]["f1"]),
                     ("Token recall (leaks)", old["token"]["recall"], new["token"]["recall"]),
                     ("Token F2", old["token"]["f2"], new["token"]["f2"])]
            for c in sorted(set(old["category_recall"]) | set(new["category_recall"])):
                rows.append((f"Recall: {c}", old["category_recall"].get(c), new["category_recall"].get(c)))
        self.table = QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels(["Metric", "Active model", "New model"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for i, (name, a, b) in enumerate(rows):
            self.table.setItem(i, 0, QTableWidgetItem(name))
            for j, v in ((1, a), (2, b)):
                it = QTableWidgetItem(_pct(v))
                it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if a is not None and b is not None and j == 2 and abs(b - a) > 1e-9:
                    it.setForeground(Qt.GlobalColor.darkGreen if b > a else Qt.GlobalColor.red)
                self.table.setItem(i, j, it)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        lay.addWidget(self.table)
        if comparison.get("suggest"):
            s = ("The new model is at least as good on your notes: adopting it is suggested."
                 if comparison["suggest"] == "adopt" else
                 "The new model is not better on your held-back notes: keeping the active one is suggested.")
            self.suggestion = QLabel(s)
            self.suggestion.setWordWrap(True)
            lay.addWidget(self.suggestion)
        for n in notes or ():
            if n:
                lab = QLabel(f"Note: {n}")
                lab.setWordWrap(True)
                lay.addWidget(lab)
        bb = QDialogButtonBox()
        self.adopt_button = bb.addButton("&Adopt new model", QDialogButtonBox.ButtonRole.AcceptRole)
        self.discard_button = bb.addButton("&Discard", QDialogButtonBox.ButtonRole.RejectRole)
        bb.accepted.connect(self.adopt)
        bb.rejected.connect(self.discard)
        lay.addWidget(bb)
        (self.adopt_button if comparison.get("suggest", "adopt") == "adopt" else self.discard_button).setDefault(True)
        self.resize(520, 460)

    def adopt(self) -> None:
        registry.activate(self.lang, self.version_id)
        self.choice = "adopt"
        self.accept()

    def discard(self) -> None:
        registry.delete_version(self.lang, self.version_id)
        self.choice = "discard"
        self.reject()


class LearningActions(QObject):
    """The learning-loop actions of one main window."""

    def __init__(self, window):
        super().__init__(window)
        self.win = window
        self.ctl = window.controller
        self.worker: GeneratorWorker | None = None
        self.result: dict | None = None
        self.dialog: CompareDialog | None = None
        self.auto_show = True  # tests set False and inspect ``result``

    @property
    def lang(self) -> str:
        return self.ctl.settings.lang

    # --- retraining -----------------------------------------------------
    def retrain(self, cfg=None) -> bool:
        from deid_engine.learn.examples import collect_reviewed, from_session
        from deid_engine.learn.retrain import RetrainConfig, retrain_from_reviews

        ctl = self.ctl
        if ctl.session is None:
            ctl.message.emit("Open a folder and review some documents first.")
            return False
        if ctl.job_running():
            ctl.message.emit("A job is already running; cancel it first.")
            return False
        docs = from_session(ctl.session)
        if not docs:
            ctl.message.emit("No reviewed documents yet: decide some spans or mark documents reviewed first.")
            return False
        lang = self.lang
        cfg = cfg or RetrainConfig(lang=lang)
        self.result = None
        session = ctl.session

        def job(cancelled):
            # the other folders' reviewed documents are read in the worker thread
            return retrain_from_reviews(collect_reviewed(session), lang, cfg, cancelled)

        worker = GeneratorWorker(job, name=JOB)
        worker.signals.results.connect(self._on_results)
        worker.signals.progress.connect(ctl._on_progress)
        worker.signals.error.connect(lambda msg: ctl.error.emit(JOB, msg))
        worker.signals.finished.connect(self._on_finished)
        self.worker = worker
        ctl._start_job(worker, JOB)
        ctl.message.emit(f"Retraining on the reviewed documents ({len(docs)} in this folder) in the background "
                         "(Esc cancels).")
        return True

    def _on_results(self, batch: list) -> None:
        for item in batch:
            if isinstance(item, dict) and item.get("event") == "done":
                self.result = item

    def _on_finished(self, cancelled: bool) -> None:
        self.ctl.jobChanged.emit(False, JOB)
        if cancelled:
            self.ctl.message.emit("Retraining cancelled; the active model is unchanged.")
            return
        if self.result and self.result.get("version"):
            self.ctl.message.emit("Retraining finished: compare the models to adopt or discard the new one.")
            if self.auto_show:
                self.show_compare()

    def show_compare(self) -> None:
        if not self.result:
            last = self.latest_unadopted()
            if last is None:
                self.ctl.message.emit("No new model to compare: retrain from reviews first.")
                return
            self.result = {"version": last.id, "comparison": last.metrics.get("comparison") or {},
                           "notes": last.metrics.get("notes") or []}
        r = self.result
        self.dialog = CompareDialog(r.get("comparison") or {}, r["version"], self.lang, r.get("notes") or [],
                                    self.win)
        self.dialog.finished.connect(self._after_compare)
        self.dialog.open()

    def latest_unadopted(self):
        vs = registry.list_versions(self.lang)
        act = registry.active_id(self.lang)
        vs = [v for v in vs if v.id != act]
        return vs[-1] if vs else None

    def _after_compare(self, _code: int) -> None:
        d = self.dialog
        if d is None:
            return
        if d.choice == "adopt":
            self._model_changed(f"Adopted model {d.version_id}. Press F5 to tag the remaining documents with it.")
        elif d.choice == "discard":
            self.ctl.message.emit("New model discarded; the active model is unchanged.")
        self.result = None

    def rollback(self) -> None:
        prev = registry.rollback(self.lang)
        self._model_changed(f"Rolled back to model {prev or 'bundled'}.")

    def _model_changed(self, msg: str) -> None:
        self.ctl.pipeline = None  # rebuilt (with the new model) on the next tagging
        self.update_status()
        self.ctl.message.emit(msg)

    def update_status(self, *_args) -> None:
        lab = self.win.model_label
        base = lab.text().split(" | tagger ")[0]
        vid = registry.active_id(self.lang)
        lab.setText(f"{base} | tagger {vid or 'bundled'}")

    # --- rejections teach: protected terms ------------------------------------------
    def protect_current(self) -> bool:
        from deid_engine.lexicons import add_user_term

        ctl = self.ctl
        r = ctl.current_span()
        if r is None or ctl.current is None:
            ctl.message.emit("Select a span first (J/K), reject it (R), then press P to protect its text.")
            return False
        term = ctl.current.text[r.start:r.end]
        if r.verdict != "rejected":
            ctl.reject()
        try:
            new = add_user_term("protected", term)
        except ValueError:
            return False
        ctl.pipeline = None
        # the term itself is PHI-free by the reviewer's judgement, but status messages never echo text
        ctl.message.emit("Added to your protected terms (never redacted from now on)." if new
                         else "Already in your protected terms.")
        return True

    # --- active learning --------------------------------------------------------------
    def order_by_uncertainty(self) -> None:
        from deid_engine.learn.active import order_entries_by_uncertainty

        s = self.ctl.session
        if s is None:
            return
        order_entries_by_uncertainty(s)
        self.win.doc_list.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.win.doc_model.set_session(s)
        self.win._select_list_row()
        self.ctl.message.emit("Documents ordered by model uncertainty (least certain unreviewed first).")


def install_learning(window) -> LearningActions:
    """Add the Model menu, the P key and the status-bar model id to ``window``."""
    la = LearningActions(window)
    window.learning = la
    la.act_retrain = window._act("&Retrain from reviews...", la.retrain, ["Ctrl+Shift+T"],
                                 "Fine-tune the model on your reviewed documents (in the background)")
    la.act_compare = window._act("&Compare && adopt...", la.show_compare, [],
                                 "Compare the newest retrained model with the active one")
    la.act_rollback = window._act("Roll &back model", la.rollback, [], "Go back to the previously active model")
    la.act_protect = window._act("Reject && add to &protected terms", la.protect_current, ["P"],
                                 "Reject the span and never redact its text again", review=True)
    la.act_uncertain = window._act("Order documents by &uncertainty", la.order_by_uncertainty, [],
                                   "Least certain unreviewed documents first (review them first)")
    m = window.menuBar().addMenu("&Model")
    for a in (la.act_retrain, la.act_compare, la.act_rollback, None, la.act_uncertain, None, la.act_protect):
        m.addAction(a) if a else m.addSeparator()
    # keep the Help menu last
    menus = [a for a in window.menuBar().actions() if a.menu() is not None]
    help_act = next((a for a in menus if a.text().replace("&", "") == "Help"), None)
    if help_act is not None:
        window.menuBar().removeAction(help_act)
        window.menuBar().addAction(help_act)
    window.controller.pipelineChanged.connect(la.update_status)
    la.update_status()
    return la
