"""The review window: document list, colour-coded note, span table, keyboard review."""

from __future__ import annotations

import bisect
import logging
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QFontDatabase, QIcon, QKeySequence
from PySide6.QtWidgets import (QAbstractItemView, QAbstractSpinBox, QComboBox, QFileDialog, QHBoxLayout,
                               QHeaderView, QLabel, QLineEdit, QMainWindow, QMessageBox,
                               QProgressBar, QPushButton, QSplitter, QStyle, QTableView, QVBoxLayout,
                               QWidget)

from deid_engine.resources import resource_path, user_path
from deid_engine.review.state import EXPORTED, IN_REVIEW, PENDING, REVIEWED, TAGGED
from deid_engine.taxonomy import CATEGORIES

from .actions import CATEGORY_KEYS, ReviewController, export_available, preload_engine
from .dialogs import SettingsDialog, label_menu
from .help_overlay import HelpOverlay
from .highlighter import DocumentView, span_format
from .models import ENTRY_ROLE, DocumentFilterProxy, DocumentListModel, SpanTableModel
from .offsets import OffsetMap

log = logging.getLogger(__name__)

MAX_RECENT = 8
# Notes longer than LARGE_DOC characters are shown one part (about PAGE_CHARS, cut at a line
# break) at a time, so opening a 50 MB note does not freeze the window; the part follows the span.
LARGE_DOC = 2_000_000
PAGE_CHARS = 1_000_000
STATUS_FILTERS = (("All documents", ""), ("Not reviewed", "unreviewed"), ("Tagged", TAGGED),
                  ("In review", IN_REVIEW), ("Reviewed", REVIEWED), ("Exported", EXPORTED),
                  ("Changed on disk", "changed"), ("Problems", "problem"), ("Not tagged", "not tagged"))


def gui_settings() -> QSettings:
    """Window state and recent folders, kept in the user data folder (not the registry)."""
    return QSettings(str(user_path("gui.ini")), QSettings.Format.IniFormat)


class ClickableView(DocumentView):
    clicked = Signal(int)  # Qt position of a click without selection

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            self.clicked.emit(self.cursorForPosition(event.position().toPoint()).position())


class Legend(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 2, 0, 2)
        lay.setSpacing(4)
        for n, (name, cat) in enumerate(CATEGORIES.items(), 1):
            chip = QLabel(f"{n} {name}")
            chip.setToolTip(f"Key {n}: add the selection as {name} - {cat.description}")
            chip.setStyleSheet(f"background:{cat.colour}; color:#111; border-radius:3px; padding:1px 5px;")
            lay.addWidget(chip)
        lay.addSpacing(10)
        sample = QLabel("<span style='text-decoration:underline; font-weight:bold'>accepted</span> &nbsp; "
                        "<span style='color:#8A8A8A; text-decoration:line-through'>rejected</span> &nbsp; "
                        "<span style='background:#DCE9F5'>suggestion</span>")
        sample.setToolTip("Bold underlined: reviewed. Grey struck-out: rejected (not redacted). "
                          "Pale with dashed underline: low-confidence suggestion.")
        lay.addWidget(sample)
        lay.addStretch(1)


class MainWindow(QMainWindow):
    def __init__(self, controller: ReviewController | None = None):
        super().__init__()
        self.setWindowTitle("DeID Studio")
        self.setAcceptDrops(True)
        icon = resource_path("icons", "deid-studio.svg")
        if icon.is_file():
            self.setWindowIcon(QIcon(str(icon)))
        preload_engine()
        self.controller = controller or ReviewController(parent=self)
        self.offsets = OffsetMap("")
        self._relabel_mode = False
        self._formats: dict = {}
        self._loaded_key: str | None = None
        self._pages: list[int] = [0]
        self._page = 0
        self._build_models()
        self._build_ui()
        self._build_actions()
        self._connect()
        from .learn_dialogs import install_learning  # the Model menu (learning loop)

        self.learning = install_learning(self)
        self._restore()
        self._refresh_enabled()
        self._update_header()

    # --- construction ------------------------------------------------------
    def _build_models(self) -> None:
        self.doc_model = DocumentListModel(parent=self)
        self.doc_proxy = DocumentFilterProxy(self)
        self.doc_proxy.setSourceModel(self.doc_model)
        self.span_model = SpanTableModel(self)

    def _build_ui(self) -> None:
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(4, 4, 2, 4)
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter documents (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self.status_filter = QComboBox()
        for name, code in STATUS_FILTERS:
            self.status_filter.addItem(name, code)
        self.doc_list = QTableView()
        self.doc_list.setModel(self.doc_proxy)
        self.doc_list.setSortingEnabled(True)
        self.doc_list.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.doc_list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.doc_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.doc_list.verticalHeader().hide()
        self.doc_list.verticalHeader().setDefaultSectionSize(22)
        self.doc_list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.doc_list.setWordWrap(False)
        self.doc_list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        hh = self.doc_list.horizontalHeader()
        hh.setStretchLastSection(False)
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c, width in ((1, 70), (2, 34), (3, 34)):
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
            self.doc_list.setColumnWidth(c, width)
        self.doc_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        left.setMinimumWidth(320)
        lv.addWidget(self.filter_edit)
        lv.addWidget(self.status_filter)
        lv.addWidget(self.doc_list, 1)

        centre = QWidget()
        cv = QVBoxLayout(centre)
        cv.setContentsMargins(2, 4, 2, 4)
        self.doc_header = QLabel()
        self.doc_header.setTextFormat(Qt.TextFormat.RichText)
        self.legend = Legend()
        self.view = ClickableView()
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.setPlaceholderText("Open a folder of notes (Ctrl+O, or drop it here) to begin.")
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSizeF(max(font.pointSizeF(), 10.5))
        self.view.setFont(font)
        self.view.setTabStopDistance(8 * self.view.fontMetrics().horizontalAdvance(" "))
        cv.addWidget(self.doc_header)
        cv.addWidget(self.legend)
        cv.addWidget(self.view, 1)

        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(2, 4, 4, 4)
        self.span_header = QLabel("<b>Spans</b>")
        self.span_table = QTableView()
        self.span_table.setModel(self.span_model)
        self.span_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.span_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.span_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.span_table.verticalHeader().hide()
        self.span_table.verticalHeader().setDefaultSectionSize(22)
        self.span_table.setWordWrap(False)
        sh = self.span_table.horizontalHeader()
        sh.setStretchLastSection(False)
        sh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c, width in ((1, 110), (2, 42), (3, 110), (4, 76)):
            sh.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
            self.span_table.setColumnWidth(c, width)
        self.span_table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.span_table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        right.setMinimumWidth(440)
        rv.addWidget(self.span_header)
        rv.addWidget(self.span_table, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(centre)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 0)
        self.splitter.setSizes([340, 560, 460])
        self.setCentralWidget(self.splitter)

        sb = self.statusBar()
        self.folder_label = QLabel("No folder")
        self.progress_bar = QProgressBar()
        self.progress_bar.setMaximumWidth(180)
        self.progress_bar.setTextVisible(True)
        self.eta_label = QLabel()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Cancel the running job (Esc)")
        self.model_label = QLabel("Model: not loaded")
        sb.addPermanentWidget(self.folder_label, 1)
        sb.addPermanentWidget(self.eta_label)
        sb.addPermanentWidget(self.progress_bar)
        sb.addPermanentWidget(self.cancel_button)
        sb.addPermanentWidget(self.model_label)
        for w in (self.progress_bar, self.cancel_button, self.eta_label):
            w.hide()
        self.help_overlay = HelpOverlay(self)
        self.resize(1300, 800)

    def _act(self, text: str, slot, keys=(), tip: str = "", icon=None, review: bool = False) -> QAction:
        a = QAction(text, self)
        if icon is not None:
            a.setIcon(self.style().standardIcon(icon))
        seqs = [QKeySequence(k) for k in keys]
        if seqs:
            a.setShortcuts(seqs)
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        if tip:
            a.setToolTip(f"{tip} ({', '.join(keys)})" if keys else tip)
            a.setStatusTip(tip)
        if review:
            a.triggered.connect(lambda checked=False, f=slot: self._review_key(f))
        else:
            a.triggered.connect(lambda checked=False, f=slot: f())
        self.addAction(a)
        return a

    def _build_actions(self) -> None:
        S = QStyle.StandardPixmap
        c = self.controller
        self.act_open = self._act("&Open folder...", self.choose_folder, ["Ctrl+O"], "Open a folder of notes",
                                  S.SP_DialogOpenButton)
        self.act_tag = self._act("&Tag folder again", c.start_tagging, ["F5"],
                                 "Tag the documents not tagged yet", S.SP_BrowserReload)
        self.act_cancel = self._act("&Cancel job", self.cancel_or_escape, ["Esc"], "Cancel the running job",
                                    S.SP_BrowserStop)
        self.act_export = self._act("&Export redacted copy...", self.choose_export, ["Ctrl+E"],
                                    "Export redacted copies of the folder", S.SP_DialogSaveButton)
        self.act_settings = self._act("&Settings...", self.show_settings, ["Ctrl+,"], "Settings",
                                      S.SP_FileDialogDetailedView)
        self.act_quit = self._act("&Quit", self.close, ["Ctrl+Q"], "Quit")
        self.act_help = self._act("&Keyboard help", self.help_overlay.toggle, ["F1", "?"], "Show all keys",
                                  S.SP_DialogHelpButton)
        self.act_next = self._act("&Next span", lambda: c.next_span(1), ["J"], "Next span", review=True)
        self.act_prev = self._act("&Previous span", lambda: c.next_span(-1), ["K"], "Previous span", review=True)
        self.act_accept = self._act("&Accept", c.accept, ["A", "Return", "Enter"], "Accept the span", review=True)
        self.act_reject = self._act("&Reject", c.reject, ["R", "Delete"], "Reject the span (not PHI)", review=True)
        self.act_accept_all = self._act("Accept &all remaining", c.accept_all, ["Shift+A"],
                                        "Accept every pending span of the document", review=True)
        self.act_relabel = self._act("Re&label (then 1-8)", self.start_relabel, ["L"],
                                     "Change the category: press L then a number", review=True)
        self.act_label_menu = self._act("Relabel from &menu...", self.relabel_menu, ["Shift+L"],
                                        "Pick a label or subtype", review=True)
        self.act_digits = []
        for n, cat in enumerate(CATEGORY_KEYS, 1):
            self.act_digits.append(self._act(f"Add / relabel as {cat}", lambda cat=cat: self.digit(cat), [str(n)],
                                             f"Add the selection as {cat} (after L: relabel)", review=True))
        self.act_grow_end = self._act("Grow end by a word", lambda: c.change_boundary("end", True), ["Alt+Right"],
                                      "Extend the span's end by one word", review=True)
        self.act_shrink_end = self._act("Shrink end by a word", lambda: c.change_boundary("end", False),
                                        ["Alt+Left"], "Drop the span's last word", review=True)
        self.act_grow_start = self._act("Grow start by a word", lambda: c.change_boundary("start", True),
                                        ["Alt+Shift+Left"], "Extend the span's start by one word", review=True)
        self.act_shrink_start = self._act("Shrink start by a word", lambda: c.change_boundary("start", False),
                                          ["Alt+Shift+Right"], "Drop the span's first word", review=True)
        self.act_every_doc = self._act("Apply to all occurrences in &document", lambda: c.apply_everywhere(False),
                                       ["E"], "Repeat the verdict on every occurrence in this document",
                                       review=True)
        self.act_every_folder = self._act("Apply to all occurrences in &folder", lambda: c.apply_everywhere(True),
                                          ["Shift+E"], "Repeat the verdict on every occurrence in the folder",
                                          review=True)
        self.act_undo = self._act("&Undo", c.undo, ["Ctrl+Z"], "Undo the last decision")
        self.act_redo = self._act("&Redo", c.redo, ["Ctrl+Shift+Z", "Ctrl+Y"], "Redo")
        self.act_reviewed = self._act("Mark document &reviewed", c.toggle_reviewed, ["Ctrl+Return", "Ctrl+Enter"],
                                      "Mark the document reviewed and go to the next one",
                                      S.SP_DialogApplyButton)
        self.act_next_unrev = self._act("Next &unreviewed document", lambda: self.next_unreviewed(1), ["N"],
                                        "Next document not reviewed yet", review=True)
        self.act_prev_unrev = self._act("Previous unreviewed document", lambda: self.next_unreviewed(-1),
                                        ["Shift+N"], "Previous document not reviewed yet", review=True)
        self.act_next_doc = self._act("Next document", lambda: self.step_document(1), ["Ctrl+PgDown"],
                                      "Next document in the list")
        self.act_prev_doc = self._act("Previous document", lambda: self.step_document(-1), ["Ctrl+PgUp"],
                                      "Previous document in the list")
        self.act_filter = self._act("&Filter documents", self.focus_filter, ["Ctrl+F"], "Filter the list")

        mb = self.menuBar()
        m = mb.addMenu("&File")
        m.addAction(self.act_open)
        self.recent_menu = m.addMenu("Open &recent")
        m.addAction(self.act_tag)
        m.addAction(self.act_cancel)
        m.addSeparator()
        m.addAction(self.act_export)
        m.addSeparator()
        m.addAction(self.act_settings)
        m.addSeparator()
        m.addAction(self.act_quit)
        m = mb.addMenu("&Review")
        for a in (self.act_next, self.act_prev, None, self.act_accept, self.act_reject, self.act_accept_all, None,
                  self.act_relabel, self.act_label_menu):
            m.addAction(a) if a else m.addSeparator()
        add = m.addMenu("Add selection as")
        for a in self.act_digits:
            add.addAction(a)
        m.addSeparator()
        for a in (self.act_grow_end, self.act_shrink_end, self.act_grow_start, self.act_shrink_start, None,
                  self.act_every_doc, self.act_every_folder, None, self.act_undo, self.act_redo, None,
                  self.act_reviewed):
            m.addAction(a) if a else m.addSeparator()
        m = mb.addMenu("&Go")
        for a in (self.act_next_unrev, self.act_prev_unrev, self.act_next_doc, self.act_prev_doc, self.act_filter):
            m.addAction(a)
        m = mb.addMenu("&Help")
        m.addAction(self.act_help)
        about = QAction("&About DeID Studio", self)
        about.triggered.connect(self.show_about)
        m.addAction(about)

        tb = self.addToolBar("Main")
        tb.setObjectName("mainToolbar")
        tb.setIconSize(QSize(18, 18))
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for a in (self.act_open, self.act_tag, self.act_export, None, self.act_reviewed, None, self.act_settings,
                  self.act_help):
            tb.addAction(a) if a else tb.addSeparator()
        self.act_reviewed.setIconText("Mark reviewed")
        self.act_open.setIconText("Open folder")
        self.act_export.setIconText("Export")
        self.act_tag.setIconText("Tag")
        self.act_help.setIconText("Keys")
        if not export_available():
            self.act_export.setEnabled(False)
            self.act_export.setToolTip("Export is not available in this build.")
            self.act_export.setStatusTip("Export is not available in this build.")
        self._relabel_timer = QTimer(self)
        self._relabel_timer.setSingleShot(True)
        self._relabel_timer.setInterval(4000)
        self._relabel_timer.timeout.connect(self._end_relabel)

    def _connect(self) -> None:
        c = self.controller
        c.sessionChanged.connect(self._on_session)
        c.entriesAdded.connect(self._on_entries_added)
        c.entriesChanged.connect(self._on_entries_changed)
        c.currentChanged.connect(self._on_current_doc)
        c.spansChanged.connect(self._on_spans_changed)
        c.currentSpanChanged.connect(self._on_current_span)
        c.progress.connect(self._on_progress)
        c.jobChanged.connect(self._on_job)
        c.message.connect(lambda m: self.statusBar().showMessage(m, 6000))
        c.error.connect(self.show_error)
        c.exportDone.connect(self._on_export_done)
        c.pipelineChanged.connect(self._on_pipeline)
        self.filter_edit.textChanged.connect(self._on_filter)
        self.status_filter.currentIndexChanged.connect(self._on_filter)
        self.doc_list.selectionModel().currentRowChanged.connect(self._on_list_current)
        self.span_table.selectionModel().currentRowChanged.connect(self._on_span_row)
        self.view.clicked.connect(self._on_view_click)
        self.view.customContextMenuRequested.connect(self._view_menu)
        self.cancel_button.clicked.connect(c.cancel_job)

    def _restore(self) -> None:
        s = gui_settings()
        geo = s.value("geometry")
        if geo is not None:
            self.restoreGeometry(geo)
        st = s.value("splitter")
        if st is not None:
            self.splitter.restoreState(st)
            self.splitter.setSizes([max(w, 1) for w in self.splitter.sizes()])
        self._rebuild_recent()

    # --- folder ----------------------------------------------------------------
    def recent_folders(self) -> list[str]:
        v = gui_settings().value("recent", [])
        if isinstance(v, str):
            v = [v]
        return [str(x) for x in (v or [])]

    def _remember(self, folder: Path) -> None:
        rec = [str(folder)] + [f for f in self.recent_folders() if f != str(folder)]
        s = gui_settings()
        s.setValue("recent", rec[:MAX_RECENT])
        s.sync()
        self._rebuild_recent()

    def _rebuild_recent(self) -> None:
        self.recent_menu.clear()
        rec = self.recent_folders()
        for f in rec:
            a = self.recent_menu.addAction(f)
            a.triggered.connect(lambda checked=False, f=f: self.open_folder(f))
        self.recent_menu.setEnabled(bool(rec))

    def choose_folder(self) -> None:
        start = (self.recent_folders() or [str(Path.home())])[0]
        d = QFileDialog.getExistingDirectory(self, "Open a folder of notes", start)
        if d:
            self.open_folder(d)

    def open_folder(self, folder, tag: bool = True) -> bool:
        folder = Path(folder).expanduser()
        if self.controller.open_folder(folder, tag=tag):
            self._remember(folder.resolve())
            self.folder_label.setText(f"Folder: {folder}")
            self.setWindowTitle(f"DeID Studio - {folder.name}")
            self.view.setFocus()
            return True
        return False

    def dragEnterEvent(self, event) -> None:
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if any(u.isLocalFile() and Path(u.toLocalFile()).is_dir() for u in urls):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        for u in event.mimeData().urls():
            if u.isLocalFile() and Path(u.toLocalFile()).is_dir():
                self.open_folder(u.toLocalFile())
                event.acceptProposedAction()
                return

    # --- export / settings / errors ---------------------------------------------
    def choose_export(self) -> None:
        if self.controller.session is None:
            self.statusBar().showMessage("Open a folder first.", 5000)
            return
        d = QFileDialog.getExistingDirectory(self, "Export redacted copies into", str(Path.home()))
        if d:
            self.controller.export(Path(d))

    def _on_export_done(self, info: dict) -> None:
        n = len(info.get("problems") or [])
        summ = info.get("summary")
        text = f"Export finished into {info.get('out_dir')}."
        if summ is not None:
            text = (f"Exported {getattr(summ, 'files_ok', '?')} file(s) into {info.get('out_dir')}"
                    f" ({getattr(summ, 'files_failed', 0)} failed, {getattr(summ, 'files_skipped', 0)} skipped)."
                    f"\nAudit report: {getattr(summ, 'html_path', '')}")
            if getattr(summ, "residuals", 0):
                text += f"\nThe verification pass found {summ.residuals} possible leftover(s); see the report."
        if n:
            text += f"\n{n} file(s) had problems; see the audit report."
        box = QMessageBox(QMessageBox.Icon.Information, "Export", text, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def show_settings(self) -> None:
        dlg = SettingsDialog(self.controller.settings, self)
        if dlg.exec():
            self.controller.update_settings(dlg.result_settings())
            self._formats.clear()
            self._on_spans_changed(None)

    def show_error(self, title: str, text: str) -> None:
        self.statusBar().showMessage(f"{title}: {text.splitlines()[0]}", 10000)
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def show_about(self) -> None:
        QMessageBox.about(self, "About DeID Studio",
                          "DeID Studio - offline de-identification of clinical notes.\n"
                          "Decisions are saved as you make them. Licence: Apache-2.0.")

    def cancel_or_escape(self) -> None:
        if self.help_overlay.isVisible():
            self.help_overlay.hide()
        elif self._typing():
            self.view.setFocus()
        elif self._relabel_mode:
            self._end_relabel()
        elif self.controller.job_running():
            self.controller.cancel_job()
        else:
            self.view.setFocus()

    # --- keyboard review helpers ------------------------------------------------
    def _typing(self) -> bool:
        w = self.focusWidget()
        return isinstance(w, (QLineEdit, QAbstractSpinBox)) or (isinstance(w, QComboBox) and w.isEditable())

    def _review_key(self, fn) -> None:
        if self._typing():
            return
        fn()

    def selection_py(self) -> tuple[int, int] | None:
        cur = self.view.textCursor()
        if not cur.hasSelection():
            return None
        return self.offsets.range_to_py(cur.selectionStart(), cur.selectionEnd())

    def digit(self, label: str) -> None:
        sel = self.selection_py()
        if self._relabel_mode:
            self._end_relabel()
            self.controller.relabel(label)
        elif sel is not None:
            self.controller.add(label, *sel)
        else:
            self.statusBar().showMessage("Select text to add it, or press L then a number to relabel.", 5000)

    def start_relabel(self) -> None:
        if self.controller.current_span() is None:
            self.statusBar().showMessage("No current span to relabel.", 4000)
            return
        self._relabel_mode = True
        self._relabel_timer.start()
        self.statusBar().showMessage("Relabel: press 1-8 (" + ", ".join(
            f"{i} {c}" for i, c in enumerate(CATEGORY_KEYS, 1)) + "); Esc cancels")

    def _end_relabel(self) -> None:
        self._relabel_mode = False
        self._relabel_timer.stop()
        self.statusBar().clearMessage()

    def relabel_menu(self) -> None:
        r = self.controller.current_span()
        if r is None:
            return
        menu = label_menu(self, "Relabel as")
        pos = self.view.viewport().mapToGlobal(self.view.cursorRect().bottomLeft())
        act = menu.exec(pos)
        if act is not None and act.data():
            self.controller.relabel(act.data())

    def _view_menu(self, pos) -> None:
        menu = self.view.createStandardContextMenu()
        menu.addSeparator()
        sel = self.selection_py()
        if sel is not None:
            add = label_menu(menu, "Add selection as")
            add.triggered.connect(lambda a: a.data() and self.controller.add(a.data(), *sel))
            menu.addMenu(add)
        if self.controller.current_span() is not None:
            menu.addAction(self.act_accept)
            menu.addAction(self.act_reject)
            rel = label_menu(menu, "Relabel as")
            rel.triggered.connect(lambda a: a.data() and self.controller.relabel(a.data()))
            menu.addMenu(rel)
        menu.exec(self.view.viewport().mapToGlobal(pos))

    def visible_entries(self) -> list:
        out = []
        for r in range(self.doc_proxy.rowCount()):
            e = self.doc_proxy.data(self.doc_proxy.index(r, 0), ENTRY_ROLE)
            if e is not None:
                out.append(e)
        return out

    def next_unreviewed(self, step: int) -> None:
        order = self.visible_entries() or None
        self.controller.next_unreviewed(step, order)

    def step_document(self, step: int) -> None:
        order = [e for e in self.visible_entries() if e.document is not None]
        if not order:
            return
        cur = self.controller.current
        i = order.index(cur) if cur in order else -1
        self.controller.set_current(order[max(0, min(len(order) - 1, i + step))])

    def focus_filter(self) -> None:
        self.filter_edit.setFocus()
        self.filter_edit.selectAll()

    # --- reacting to the controller -----------------------------------------------
    def _on_session(self) -> None:
        self._loaded_key = None
        self.doc_model.set_session(self.controller.session)
        self._refresh_enabled()

    def _on_entries_added(self) -> None:
        self.doc_model.entries_appended()

    def _on_entries_changed(self, keys: list) -> None:
        self.doc_model.refresh_keys(keys)
        if self.controller.current is not None and self.controller.current.key in keys:
            self._update_header()

    def _on_filter(self, *args) -> None:
        self.doc_model.fetch_all()
        self.doc_proxy.setFilterFixedString(self.filter_edit.text())
        self.doc_proxy.set_status_filter(self.status_filter.currentData() or "")

    def _on_list_current(self, current, previous) -> None:
        e = self.doc_proxy.data(current, ENTRY_ROLE) if current.isValid() else None
        if e is not None and e is not self.controller.current:
            self.controller.set_current(e)

    def _select_list_row(self) -> None:
        e = self.controller.current
        if e is None:
            return
        row = self.doc_model.row_of(e.key)
        if row < 0:
            return
        idx = self.doc_proxy.mapFromSource(self.doc_model.index(row, 0))
        if idx.isValid():
            sm = self.doc_list.selectionModel()
            sm.blockSignals(True)
            sm.setCurrentIndex(idx, QItemSelectionModel.SelectionFlag.ClearAndSelect
                               | QItemSelectionModel.SelectionFlag.Rows)
            sm.blockSignals(False)
            self.doc_list.scrollTo(idx)
            self.doc_list.viewport().update()

    def _on_current_doc(self) -> None:
        e = self.controller.current
        self._end_relabel() if self._relabel_mode else None
        self._pages = [0]
        self._page = 0
        if e is None:
            self._loaded_key = None
            self.offsets = OffsetMap("")
            self.view.highlighter.set_ranges([], rehighlight=False)
            self.view.setPlainText("")
            self.span_model.set_spans("", [])
        else:
            text = e.text if e.document is not None else ""
            if len(text) > LARGE_DOC:
                self._pages = page_starts(text, PAGE_CHARS)
            r = self.controller.current_span()
            self._load_page(self._page_of(r.start) if r else 0)
            if e.document is None:
                self.view.setPlaceholderText(f"This file cannot be reviewed: {e.problem or 'not read yet'}")
            self.span_model.set_spans(text, self.controller.reviewed(), self.controller.settings.suggestion_threshold)
            self._loaded_key = e.key
        self._select_list_row()
        self._update_header()
        self._refresh_enabled()

    def _page_of(self, offset: int) -> int:
        return max(0, bisect.bisect_right(self._pages, offset) - 1)

    def _load_page(self, k: int) -> None:
        e = self.controller.current
        text = e.text if e is not None and e.document is not None else ""
        k = max(0, min(k, len(self._pages) - 1))
        start = self._pages[k]
        end = self._pages[k + 1] if k + 1 < len(self._pages) else len(text)
        self._page = k
        self.offsets = OffsetMap(text, start, end)
        self.view.highlighter.set_ranges(self._items(), rehighlight=False)
        self.view.setPlainText(text[start:end] if (start, end) != (0, len(text)) else text)

    def _items(self) -> list:
        thr = self.controller.settings.suggestion_threshold
        out = []
        rs = self.controller.reviewed()
        m = self.offsets
        lo, hi = m.base, m.base + m.length
        if lo > 0 or hi < len(self.controller.current.text if self.controller.current else ""):
            rs = [r for r in rs if r.end > lo and r.start < hi]
        for r in rs:
            sug = r.verdict == PENDING and r.span.confidence < thr
            key = (r.label, r.verdict, sug)
            fmt = self._formats.get(key)
            if fmt is None:
                fmt = self._formats[key] = span_format(r.label, r.verdict, r.span.confidence, thr)
            a, b = m.range_to_qt(r.start, r.end)
            out.append((a, b, fmt))
        return out

    def _on_spans_changed(self, dirty) -> None:
        e = self.controller.current
        if e is None or e.document is None:
            return
        if self._loaded_key != e.key:
            self._on_current_doc()
            return
        qt_dirty = None if dirty is None else [self.offsets.range_to_qt(a, b) for a, b in dirty]
        self.view.highlighter.set_ranges(self._items(), True, qt_dirty)
        self.span_model.set_spans(e.text, self.controller.reviewed(), self.controller.settings.suggestion_threshold)
        self._on_current_span()
        self._update_header()

    def _on_current_span(self) -> None:
        r = self.controller.current_span()
        if r is not None and len(self._pages) > 1 and not (
                self.offsets.base <= r.start < self.offsets.base + self.offsets.length):
            self._load_page(self._page_of(r.start))
            self._update_header()
        if r is None:
            self.view.set_current(None)
        else:
            self.view.set_current(self.offsets.range_to_qt(r.start, r.end))
        i = self.controller.current_index()
        sm = self.span_table.selectionModel()
        sm.blockSignals(True)
        if i >= 0:
            idx = self.span_model.index(i, 0)
            sm.setCurrentIndex(idx, QItemSelectionModel.SelectionFlag.ClearAndSelect
                               | QItemSelectionModel.SelectionFlag.Rows)
            self.span_table.scrollTo(idx)
        else:
            sm.clearSelection()
        sm.blockSignals(False)
        self.span_table.viewport().update()

    def _on_span_row(self, current, previous) -> None:
        if current.isValid():
            self.controller.select_span(current.row())

    def _on_view_click(self, qt_pos: int) -> None:
        self.controller.select_at(self.offsets.to_py(qt_pos))

    def _update_header(self) -> None:
        c = self.controller
        e = c.current
        if c.session is None or e is None:
            self.doc_header.setText("<b>No document</b>")
            self.span_header.setText("<b>Spans</b>")
            return
        if e.document is None:
            self.doc_header.setText(f"<b>{_esc(e.key)}</b> &mdash; <span style='color:#A61B1B'>"
                                    f"{_esc(e.problem or 'not read')}</span>")
            self.span_header.setText("<b>Spans</b>")
            return
        rs = c.reviewed()
        pending = sum(1 for r in rs if r.verdict == PENDING)
        status = c.session.status(e)
        extra = ""
        if e.changed:
            extra = " &mdash; <span style='color:#9A5B00'>changed on disk: earlier decisions not applied</span>"
        if e.predicted is None:
            extra += " &mdash; <i>waiting to be tagged</i>"
        if len(self._pages) > 1:
            extra += f" &mdash; part {self._page + 1} of {len(self._pages)} (large note)"
        self.doc_header.setText(f"<b>{_esc(e.key)}</b> &mdash; {status}{extra}")
        self.span_header.setText(f"<b>Spans</b> &nbsp; {len(rs)} total, {pending} to review")

    def _on_progress(self, p) -> None:
        if p.total:
            self.progress_bar.setRange(0, p.total)
            self.progress_bar.setValue(p.done)
        else:
            self.progress_bar.setRange(0, 0)
        eta = p.eta_seconds()
        text = f"{p.message.capitalize()} {p.done}/{p.total}"
        if eta is not None and p.done < p.total:
            text += f" - {_fmt_eta(eta)} left"
        self.eta_label.setText(text)

    def _on_job(self, running: bool, name: str) -> None:
        for w in (self.progress_bar, self.cancel_button, self.eta_label):
            w.setVisible(running)
        if running:
            self.progress_bar.setRange(0, 0)
            self.eta_label.setText(f"{name}...")
        self._refresh_enabled()
        self.doc_model.refresh_all()

    def _on_pipeline(self, label: str) -> None:
        note = self.controller.pipeline_note
        self.model_label.setText(f"Model: {label}")
        self.model_label.setStyleSheet("color:#A61B1B" if note else "")
        self.model_label.setToolTip(note or "The detectors tagging this folder")

    def _refresh_enabled(self) -> None:
        c = self.controller
        has = c.session is not None
        running = c.job_running()
        self.act_tag.setEnabled(has and not running)
        self.act_cancel.setEnabled(True)
        if export_available():
            self.act_export.setEnabled(has and not running)
        self.act_reviewed.setEnabled(has and c.current is not None and c.current.document is not None)

    def closeEvent(self, event) -> None:
        try:
            s = gui_settings()
            s.setValue("geometry", self.saveGeometry())
            s.setValue("splitter", self.splitter.saveState())
            s.sync()
        except Exception:  # settings are a convenience; closing must not fail
            log.warning("could not save the window state")
        self.controller.shutdown()
        super().closeEvent(event)


def page_starts(text: str, size: int) -> list[int]:
    """Start offsets of parts of about ``size`` characters, each starting after a line break."""
    starts = [0]
    while starts[-1] + size < len(text):
        nl = text.find("\n", starts[-1] + size)
        if nl < 0 or nl + 1 >= len(text):
            break
        starts.append(nl + 1)
    return starts


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _fmt_eta(sec: float) -> str:
    sec = int(sec + 0.5)
    if sec < 60:
        return f"{sec}s"
    m, s = divmod(sec, 60)
    if m < 60:
        return f"{m}m {s:02d}s"
    h, m = divmod(m, 60)
    return f"{h}h {m:02d}m"
