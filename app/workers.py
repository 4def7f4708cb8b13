"""Running engine generators off the GUI thread.

A ``GeneratorWorker`` drives an engine generator (``Progress`` items and
results) in a ``QThreadPool`` thread. Results are delivered in batches (at
most every ``batch_ms``) so the GUI applies many cheaply instead of being
flooded; progress is throttled the same way. ``cancel()`` sets a flag that the
generator checks between items (it is passed in as ``cancelled``).

``Lane`` is a one-thread pool: everything that runs a model (tagging,
export) goes through the same lane, one job at a time.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from typing import Callable, Iterator

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from deid_engine.types import Cancelled, Progress

log = logging.getLogger(__name__)


class WorkerSignals(QObject):
    progress = Signal(object)  # Progress
    results = Signal(list)  # a batch of non-Progress items
    error = Signal(str)  # a PHI-free message
    finished = Signal(bool)  # True if cancelled


class GeneratorWorker(QRunnable):
    def __init__(self, make: Callable[[Callable[[], bool]], Iterator], name: str = "job",
                 batch_ms: int = 60):
        super().__init__()
        self.setAutoDelete(False)
        self.make = make
        self.name = name
        self.batch_s = batch_ms / 1000.0
        self.signals = WorkerSignals()
        self._cancel = threading.Event()
        self.done = threading.Event()  # the worker thread has finished
        self.delivered = False  # ... and the GUI thread has received every signal (finished last)
        # runs on the GUI thread after every queued result (a QRunnable method would not be called)
        self.signals.finished.connect(lambda _cancelled, w=self: setattr(w, "delivered", True))

    def cancel(self) -> None:
        self._cancel.set()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def run(self) -> None:  # worker thread
        batch: list = []
        last_emit = time.monotonic()
        last_progress = None
        cancelled = False
        try:
            for item in self.make(self.is_cancelled):
                if isinstance(item, Progress):
                    last_progress = item
                else:
                    batch.append(item)
                now = time.monotonic()
                if now - last_emit >= self.batch_s:
                    self._flush(batch, last_progress)
                    batch, last_progress, last_emit = [], None, now
                if self._cancel.is_set():
                    cancelled = True
                    break
        except Cancelled:
            cancelled = True
        except Exception as e:  # the message shown names the error type only (no PHI in logs)
            log.error("%s failed: %s at %s", self.name, type(e).__name__, _where(e))  # no message: may hold PHI
            self._flush(batch, last_progress)
            batch, last_progress = [], None
            self.signals.error.emit(f"{self.name} failed: {type(e).__name__}. See the log for details.")
        self._flush(batch, last_progress)
        self.done.set()
        self.signals.finished.emit(cancelled)

    def _flush(self, batch: list, progress) -> None:
        if batch:
            self.signals.results.emit(batch)
        if progress is not None:
            self.signals.progress.emit(progress)


class Lane(QObject):
    """A serialized queue of workers (one thread)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        # A busy worker thread holds the GIL for up to the switch interval (5 ms by default)
        # each time the GUI thread asks for it; 1 ms keeps painting and keys snappy.
        sys.setswitchinterval(min(sys.getswitchinterval(), 0.001))
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._live: set[GeneratorWorker] = set()

    def submit(self, worker: GeneratorWorker) -> GeneratorWorker:
        self._live.add(worker)
        worker.signals.finished.connect(lambda _c, w=worker: self._live.discard(w))
        self.pool.start(worker)
        return worker

    def busy(self) -> bool:
        return any(not w.done.is_set() for w in self._live)

    def cancel_all(self) -> None:
        for w in list(self._live):
            w.cancel()

    def wait(self, msecs: int = -1) -> bool:
        return self.pool.waitForDone(msecs)


def _where(e: BaseException) -> str:
    """``file:line`` where an exception was raised (for logs that must not carry its message)."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return "?"
    import os

    return f"{os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}"
