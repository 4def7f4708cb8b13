"""Named review actions: the only place the GUI reaches the engine.

``ReviewController`` owns the ``ReviewSession`` of the open folder, the
current document and span, and the background lane. Widgets call its
methods (``accept()``, ``add(label, start, end)`` ...) and redraw on its
signals. Every decision is in the durable log before a signal goes out.
Offsets here are Python ``str`` offsets; the view converts (``app.offsets``).
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from dataclasses import fields as dc_fields
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from deid_engine.config import Settings, load_settings, save_settings
from deid_engine.review.decisions import DecisionLog, load_log
from deid_engine.review.session import Entry, ReviewSession
from deid_engine.review.state import EXPORTED, PENDING, REJECTED, REVIEWED, ReviewedSpan, step_boundary
from deid_engine.review.store import FolderStore, ProblemItem, ReadDocument, TaggedItem, scan_folder
from deid_engine.taxonomy import CATEGORIES, is_label
from deid_engine.types import Progress, Span

from .workers import GeneratorWorker, Lane

log = logging.getLogger(__name__)

CATEGORY_KEYS: tuple[str, ...] = tuple(CATEGORIES)  # 1..8 in taxonomy order
EXPORT_MODULE = "deid_engine.redact.export"
MAX_ADD_CHARS = 400  # guards against adding a whole note by accident (Ctrl+A, then a digit)


def _reviewer_name() -> str:
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # no user name on this system
        return ""


def export_available() -> bool:
    try:
        return importlib.util.find_spec(EXPORT_MODULE) is not None
    except (ImportError, ValueError):
        return False


def preload_engine() -> None:
    """Import the tagger's runtime on the GUI thread while the window is being built.

    A first heavy import on the tagging thread holds the interpreter lock long
    enough to freeze the window just after a folder is opened; at start-up the
    same cost is part of the launch instead. On a CPU the tagger runs in numpy
    and torch is not imported at all (``deid_engine/model/runtime.py``); torch
    is preloaded only where it will tag (a GPU driver, or ``DEID_RUNTIME=torch``).
    """
    try:
        from deid_engine.model import runtime

        if runtime.choose_runtime() == "torch":
            import torch  # noqa: F401
    except ImportError:  # a rules-only build
        pass


def build_default_pipeline(lang: str):
    """The "default" preset, or an empty pipeline (and the reason) when none is registered."""
    from deid_engine.pipeline import Pipeline, build_pipeline

    try:
        return build_pipeline("default", lang), ""
    except Exception as e:  # nothing registered yet, or a detector failed to build
        log.warning("default pipeline unavailable (%s); using an empty pipeline", type(e).__name__)
        return Pipeline([], [], name="empty", lang=lang), (
            "No detectors are available in this build: nothing is tagged automatically; "
            "add PHI by hand.")


def pipeline_label(pipeline) -> str:
    names = getattr(pipeline, "detector_names", [])
    if not names:
        return "no detectors"
    return f"{pipeline.name} ({', '.join(names)}, {pipeline.lang})"


class ReviewController(QObject):
    sessionChanged = Signal()  # a folder was opened (or closed)
    entriesAdded = Signal()
    entriesChanged = Signal(list)  # document keys whose row changed
    currentChanged = Signal()  # another document is current
    spansChanged = Signal(object)  # list of dirty (start, end) Python ranges, or None for all
    currentSpanChanged = Signal()
    progress = Signal(object)  # Progress
    jobChanged = Signal(bool, str)  # running, description
    message = Signal(str)
    error = Signal(str, str)  # title, text (PHI-free)
    exportDone = Signal(object)
    pipelineChanged = Signal(str)

    def __init__(self, settings: Settings | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.settings = settings or load_settings()
        self.lane = Lane(self)
        self.session: ReviewSession | None = None
        self.current: Entry | None = None
        self.current_pos: tuple[int, int] | None = None
        self.job: GeneratorWorker | None = None
        self.job_name = ""
        self.pipeline = None
        self.pipeline_note = ""
        self._log: DecisionLog | None = None
        self._index = None
        self._pipeline_lock = threading.Lock()

    # --- folder ----------------------------------------------------------
    def _decision_log(self) -> DecisionLog:
        if self._log is None:
            self._log = DecisionLog()
            self._index = load_log(self._log.path)
        return self._log

    def open_folder(self, folder: Path | str, tag: bool = True) -> bool:
        folder = Path(folder)
        if not folder.is_dir():
            self.error.emit("Open folder", f"Not a folder or not readable:\n{folder}")
            return False
        self.close_folder()
        dlog = self._decision_log()
        self.session = ReviewSession(folder, dlog, self._index, FolderStore(folder),
                                     reviewer=_reviewer_name())
        self.current = None
        self.current_pos = None
        self.sessionChanged.emit()
        self.currentChanged.emit()
        self.message.emit(f"Opened {folder}")
        if tag:
            self.start_tagging()
        return True

    def close_folder(self) -> None:
        self.cancel_job(wait=True)
        if self.session is not None:
            try:
                self.session.save_manifest()
            except OSError as e:
                log.warning("could not save the folder manifest (%s)", type(e).__name__)
        self.session = None
        self.current = None
        self.current_pos = None

    def shutdown(self) -> None:
        self.close_folder()
        if self._log is not None:
            self._log.close()

    # --- background work -------------------------------------------------
    def _ensure_pipeline(self):
        """The pipeline for the current language (built once; any thread; signals are queued)."""
        with self._pipeline_lock:
            if self.pipeline is None or self.pipeline.lang != self.settings.lang:
                self.pipeline, self.pipeline_note = build_default_pipeline(self.settings.lang)
                self.pipelineChanged.emit(pipeline_label(self.pipeline))
                if self.pipeline_note:
                    self.message.emit(self.pipeline_note)
            return self.pipeline

    def start_tagging(self) -> None:
        if self.session is None:
            return
        if self.job_running():
            self.message.emit("A job is already running; cancel it first.")
            return
        session = self.session
        max_bytes = int(self.settings.max_file_mb) * 1024 * 1024

        def run(cancelled):
            # built on the worker thread: importing detector modules must not stall the window
            pipeline = self._ensure_pipeline()
            return scan_folder(session.folder, pipeline, session.store, cancelled, max_bytes)

        worker = GeneratorWorker(run, name="Tagging")
        worker.signals.results.connect(lambda batch, s=session: self._on_scan_results(s, batch))
        worker.signals.progress.connect(self._on_progress)
        worker.signals.error.connect(lambda msg: self.error.emit("Tagging", msg))
        worker.signals.finished.connect(lambda c, s=session: self._on_scan_finished(s, c))
        self._start_job(worker, "Tagging")

    def _start_job(self, worker: GeneratorWorker, name: str) -> None:
        self.job = worker
        self.job_name = name
        self.jobChanged.emit(True, name)
        self.lane.submit(worker)

    def cancel_job(self, wait: bool = False) -> None:
        if self.job is not None and not self.job.done.is_set():
            self.job.cancel()
            if wait:
                self.job.done.wait(30)

    def job_running(self) -> bool:
        """True until the GUI thread has received the job's last result and its end."""
        return self.job is not None and not self.job.delivered

    def _on_progress(self, p: Progress) -> None:
        self.progress.emit(p)

    def _on_scan_results(self, session: ReviewSession, batch: list) -> None:
        if session is not self.session:
            return
        added = False
        changed: list[str] = []
        current_dirty = False
        for item in batch:
            if isinstance(item, ReadDocument):
                e, new = session.add_document(item.key, item.document, item.cached)
                added |= new
                changed.append(e.key)
            elif isinstance(item, TaggedItem):
                e = session.set_predictions(item.key, item.spans)
                if e is not None:
                    changed.append(e.key)
                    current_dirty |= e is self.current
            elif isinstance(item, ProblemItem):
                p = item.problem
                e, new = session.add_problem(item.key, p.path, p.reason, p.warning)
                added |= new
                changed.append(e.key)
                current_dirty |= e is self.current
        if added:
            self.entriesAdded.emit()
        if changed:
            self.entriesChanged.emit(changed)
        if self.current is None:
            first = next((e for e in session.entries if e.document is not None), None)
            if first is not None:
                self.set_current(first)
        elif current_dirty:
            if self.current_pos is None:
                self._select_first_span()
            self.spansChanged.emit(None)
            self.currentSpanChanged.emit()

    def _on_scan_finished(self, session: ReviewSession, cancelled: bool) -> None:
        if session is self.session:
            try:
                session.save_manifest()
            except OSError as e:
                self.error.emit("Folder state", f"Could not save the folder state ({type(e).__name__}).")
            n = sum(1 for e in session.entries if e.problem)
            msg = "Tagging cancelled" if cancelled else "Tagging finished"
            if n:
                msg += f"; {n} file(s) could not be read (see the list)"
            self.message.emit(msg)
        self.jobChanged.emit(False, "Tagging")

    # --- current document and span ----------------------------------------
    def set_current(self, entry: Entry | None) -> None:
        if entry is self.current:
            return
        self.current = entry
        self.current_pos = None
        if entry is not None and entry.problem:
            self.message.emit(f"{entry.key}: {entry.problem}")
        self._select_first_span()
        self.currentChanged.emit()
        self.currentSpanChanged.emit()

    def reviewed(self) -> list[ReviewedSpan]:
        if self.session is None or self.current is None:
            return []
        return self.session.reviewed(self.current)

    def current_span(self) -> ReviewedSpan | None:
        if self.current_pos is None:
            return None
        for r in self.reviewed():
            if (r.start, r.end) == self.current_pos:
                return r
        return None

    def current_index(self) -> int:
        rs = self.reviewed()
        for i, r in enumerate(rs):
            if (r.start, r.end) == self.current_pos:
                return i
        return -1

    def _select_first_span(self) -> None:
        rs = self.reviewed()
        first = next((r for r in rs if r.verdict == PENDING), rs[0] if rs else None)
        self.current_pos = (first.start, first.end) if first else None

    def select_span(self, index: int) -> None:
        rs = self.reviewed()
        if 0 <= index < len(rs):
            self.current_pos = (rs[index].start, rs[index].end)
            self.currentSpanChanged.emit()

    def select_at(self, offset: int) -> bool:
        """Make the span under Python offset ``offset`` current (click in the text)."""
        for r in self.reviewed():
            if r.start <= offset < r.end:
                self.current_pos = (r.start, r.end)
                self.currentSpanChanged.emit()
                return True
        return False

    def next_span(self, step: int = 1) -> None:
        rs = self.reviewed()
        if not rs:
            self.message.emit("No spans in this document.")
            return
        i = self.current_index()
        if i < 0:
            pos = self.current_pos[0] if self.current_pos else -1
            i = next((k for k, r in enumerate(rs) if r.start > pos), len(rs)) - (1 if step > 0 else 0)
        j = min(max(i + step, 0), len(rs) - 1)
        self.current_pos = (rs[j].start, rs[j].end)
        self.currentSpanChanged.emit()

    def _advance_after(self, pos: tuple[int, int] | None) -> None:
        """After a decision, go to the next pending span after ``pos`` (else stay)."""
        rs = self.reviewed()
        start = pos[0] if pos else -1
        nxt = next((r for r in rs if r.start > start and r.verdict == PENDING), None)
        if nxt is None:
            nxt = next((r for r in rs if r.verdict == PENDING), None)
        if nxt is not None:
            self.current_pos = (nxt.start, nxt.end)
        elif pos is not None and any((r.start, r.end) == pos for r in rs):
            self.current_pos = pos
        else:
            self.current_pos = None if not rs else (rs[0].start, rs[0].end)
        self.currentSpanChanged.emit()

    # --- decisions ----------------------------------------------------------
    def _can_decide(self) -> bool:
        if self.session is None or self.current is None or self.current.document is None:
            self.message.emit("Open a folder and select a document first.")
            return False
        return True

    def _commit(self, decisions, dirty, advance_from=None, keep=None) -> None:
        try:
            doc_ids = self.session.decide(decisions)
        except OSError as e:
            self.error.emit("Saving decision", f"The decision could not be saved ({type(e).__name__}). "
                            "Check the disk and try again; nothing was recorded.")
            return
        self._after_change(doc_ids, dirty)
        if keep is not None:
            self.current_pos = keep
            self.currentSpanChanged.emit()
        else:
            self._advance_after(advance_from)

    def _after_change(self, doc_ids, dirty) -> None:
        keys = [e.key for d in doc_ids for e in self.session.by_doc.get(d, ())]
        self.entriesChanged.emit(keys)
        if self.current is not None and self.current.doc_id in doc_ids:
            self.spansChanged.emit(dirty)

    def accept(self) -> None:
        if not self._can_decide():
            return
        r = self.current_span()
        if r is None:
            self.message.emit("No current span.")
            return
        self._commit([self.session.make(self.current, r.span, "accept")], [(r.start, r.end)], (r.start, r.end))

    def reject(self) -> None:
        if not self._can_decide():
            return
        r = self.current_span()
        if r is None:
            self.message.emit("No current span.")
            return
        self._commit([self.session.make(self.current, r.span, "reject")], [(r.start, r.end)], (r.start, r.end))

    def accept_all(self) -> None:
        if not self._can_decide():
            return
        pend = [r for r in self.reviewed() if r.verdict == PENDING]
        if not pend:
            self.message.emit("Nothing left to accept in this document.")
            return
        self._commit([self.session.make(self.current, r.span, "accept") for r in pend],
                     [(r.start, r.end) for r in pend], keep=self.current_pos)
        self.message.emit(f"Accepted {len(pend)} span(s).")

    def add(self, label: str, start: int, end: int, snap: bool = True) -> bool:
        """Add a missed span over Python offsets [start, end) (widened to whole words)."""
        if not self._can_decide():
            return False
        if not is_label(label):
            self.message.emit(f"Unknown label {label}.")
            return False
        text = self.current.text
        start, end = max(0, min(start, end)), min(len(text), max(start, end))
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if snap:
            from deid_engine.tokenize import snap_to_tokens

            start, end = snap_to_tokens(text, start, end)
        if end <= start:
            self.message.emit("Select some text first.")
            return False
        if end - start > MAX_ADD_CHARS:
            self.message.emit(f"The selection is too long for one PHI span ({end - start} characters; "
                              f"at most {MAX_ADD_CHARS}). Select the identifier itself.")
            return False
        self._commit([self.session.make(self.current, Span(start, end, label, "user:review"), "add")],
                     [(start, end)], keep=(start, end))
        self.message.emit(f"Added {label}.")
        return True

    def relabel(self, label: str) -> None:
        if not self._can_decide():
            return
        r = self.current_span()
        if r is None:
            self.message.emit("No current span to relabel.")
            return
        if not is_label(label):
            return
        d = self.session.make(self.current, r.span.with_label(label), "relabel", previous_label=r.label)
        self._commit([d], [(r.start, r.end)], keep=(r.start, r.end))
        self.message.emit(f"Relabelled as {label}.")

    def change_boundary(self, edge: str, grow: bool) -> None:
        """Grow or shrink the current span by one word: reject the old span, add the new one."""
        if not self._can_decide():
            return
        r = self.current_span()
        if r is None:
            self.message.emit("No current span.")
            return
        s, e = step_boundary(self.current.text, r.start, r.end, edge, grow)
        if (s, e) == (r.start, r.end):
            self.message.emit("The boundary cannot move further.")
            return
        label = r.label
        decisions = [self.session.make(self.current, r.span, "reject"),
                     self.session.make(self.current, Span(s, e, label, "user:review"), "add")]
        self._commit(decisions, [(min(s, r.start), max(e, r.end))], keep=(s, e))

    def apply_everywhere(self, folder: bool = False) -> None:
        """Repeat the current span's verdict on every occurrence of its text (document or folder)."""
        if not self._can_decide():
            return
        r = self.current_span()
        if r is None or r.verdict == PENDING:
            self.message.emit("Accept, reject or add the span first, then apply it everywhere.")
            return
        needle = self.current.text[r.start:r.end]
        verdict = "reject" if r.verdict == REJECTED else "accept"
        entries = [e for e in self.session.entries if e.document is not None] if folder else [self.current]
        decisions = self.session.occurrence_decisions(needle, verdict, r.label, entries)
        if not decisions:
            self.message.emit("No other occurrences to change.")
            return
        ndocs = len({d.doc_id for d in decisions})
        self._commit(decisions, None, keep=self.current_pos)
        where = f"{ndocs} document(s)" if folder else "this document"
        self.message.emit(f"{'Rejected' if verdict == 'reject' else 'Marked'} {len(decisions)} occurrence(s) in {where}.")

    def undo(self) -> None:
        self._step_history("undo")

    def redo(self) -> None:
        self._step_history("redo")

    def _step_history(self, which: str) -> None:
        """Undo or redo one step of the session's history."""
        if self.session is None:
            return
        title = which.capitalize()
        try:
            docs = getattr(self.session, which)()
        except OSError as e:
            self.error.emit(title, f"Could not write to the decision log ({type(e).__name__}).")
            return
        if docs is None:
            self.message.emit(f"Nothing to {which}.")
            return
        self._after_change(docs, None)
        if self.current_span() is None:
            self._advance_after(self.current_pos)
        else:
            self.currentSpanChanged.emit()
        self.message.emit("Undone." if which == "undo" else "Redone.")

    def toggle_reviewed(self) -> None:
        if not self._can_decide():
            return
        s = self.session.status(self.current)
        status = "unreviewed" if s in (REVIEWED, EXPORTED) else "reviewed"
        try:
            self.session.mark(self.current, status)
        except OSError as e:
            self.error.emit("Mark reviewed", f"Could not write to the decision log ({type(e).__name__}).")
            return
        self.entriesChanged.emit([e.key for e in self.session.by_doc.get(self.current.doc_id, ())])
        if status == "reviewed":
            self.message.emit("Marked reviewed.")
            self.next_unreviewed()
        else:
            self.message.emit("Marked not reviewed.")

    def next_unreviewed(self, step: int = 1, order: list[Entry] | None = None) -> bool:
        """Go to the next document not yet reviewed (in ``order``, the list's visible order)."""
        if self.session is None:
            return False
        order = order or self.session.entries
        try:
            i = order.index(self.current) if self.current in order else -1
        except ValueError:
            i = -1
        n = len(order)
        for k in range(1, n + 1):
            e = order[(i + step * k) % n]
            if e is not self.current and self.session.is_unreviewed(e):
                self.set_current(e)
                return True
        self.message.emit("Every document is reviewed.")
        return False

    # --- settings -----------------------------------------------------------
    def update_settings(self, settings: Settings) -> None:
        lang_changed = settings.lang != self.settings.lang
        policy_changed = (settings.ages, settings.places, settings.professions) != (
            self.settings.ages, self.settings.places, self.settings.professions)
        self.settings = settings
        try:
            save_settings(settings)
        except OSError as e:
            self.error.emit("Settings", f"Could not save the settings ({type(e).__name__}).")
        self.spansChanged.emit(None)
        if lang_changed and self.session is not None:
            self.pipeline = None
            self.message.emit("Language changed: the folder will be tagged with the new language's models.")
            self.start_tagging()
        elif policy_changed and self.session is not None:
            self.pipeline = None  # the policies are pipeline filters: predictions are re-made
            self.message.emit("Age, place or profession policy changed: the folder will be tagged again.")
            self.start_tagging()

    # --- export -------------------------------------------------------------
    def export(self, out_dir: Path) -> bool:
        """Export the open folder redacted into ``out_dir`` in the background (if this build has it)."""
        if self.session is None:
            self.message.emit("Open a folder first.")
            return False
        if not export_available():
            self.error.emit("Export", "Export is not available in this build.")
            return False
        if self.job_running():
            self.message.emit("Wait for the current job to finish (or cancel it) before exporting.")
            return False
        out_dir = Path(out_dir)
        try:
            if out_dir.resolve() == self.session.folder.resolve():
                self.error.emit("Export", "Choose an output folder different from the input folder.")
                return False
        except OSError:
            pass
        from deid_engine.redact import export as exp

        pipeline = self._ensure_pipeline()
        options = make_export_options(exp, self.settings)
        overrides = self.session.overrides(reviewed_only=self.settings.unreviewed == "skip")
        session = self.session
        in_dir = session.folder

        def run(cancelled):
            return exp.export_folder(in_dir, out_dir, options, pipeline=pipeline, overrides=overrides,
                                     cancelled=cancelled)

        worker = GeneratorWorker(run, name="Export")
        summary: list = []
        problems: list = []

        def on_results(batch):
            for item in batch:
                if type(item).__name__ == "FileProblem":
                    problems.append(item)
                else:
                    summary.append(item)

        def on_finished(cancelled, s=session):
            self.jobChanged.emit(False, "Export")
            if cancelled:
                self.message.emit("Export cancelled.")
                return
            if summary and s is self.session:
                bad = {Path(p.path).resolve() for p in problems}  # failed or skipped files
                for e in s.entries:
                    if e.document is None or e.path is None or Path(e.path).resolve() in bad:
                        continue
                    try:
                        s.mark(e, "exported")
                    except OSError:
                        break
                self.entriesChanged.emit([e.key for e in s.entries])
            self.exportDone.emit({"summary": summary[-1] if summary else None, "problems": problems,
                                  "out_dir": str(out_dir)})

        worker.signals.results.connect(on_results)
        worker.signals.progress.connect(self._on_progress)
        worker.signals.error.connect(lambda msg: self.error.emit("Export", msg))
        worker.signals.finished.connect(on_finished)
        self._start_job(worker, "Export")
        return True


def make_export_options(exp_module, settings: Settings):
    """Build the export module's options object from the settings fields it shares."""
    cls = getattr(exp_module, "ExportOptions", None)
    if cls is None:
        return None
    try:
        names = {f.name for f in dc_fields(cls)}
    except TypeError:
        return cls()
    vals = {}
    for f in dc_fields(settings):
        if f.name in names:
            vals[f.name] = getattr(settings, f.name)
    try:
        return cls(**vals)
    except (TypeError, ValueError):
        return cls()
