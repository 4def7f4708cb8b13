"""GUI responsiveness while a 1,000-note folder is read and tagged in the background.

    QT_QPA_PLATFORM=offscreen python bench/gui_latency.py [--notes 1000] [--preset default]

Builds a temporary folder from ../shared/data/physionet-deid/train notes (or
synthetic notes if the corpus is absent), opens it in the review window with
a fresh user data folder (nothing cached), and while tagging runs a 10 ms
QTimer records the gaps between its ticks. A stall is a gap minus the 10 ms
period. It also reports the time until the first document was shown.
Last line: ``worst_stall_ms=N p99_stall_ms=N``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def build_folder(dest: Path, n: int) -> str:
    from deid_engine.resources import default_data_dir

    src = default_data_dir() / "physionet-deid" / "train"
    dest.mkdir(parents=True)
    if src.is_dir():
        notes = sorted(src.glob("*.txt"))[:n]
        for p in notes:
            shutil.copyfile(p, dest / p.name)
        return f"{len(notes)} PhysioNet train notes"
    rng = random.Random(0)
    words = "pt stable overnight seen by dr smith on 03/14 call 555-0142 bp 120/80 hr 80 resp clear".split()
    for i in range(n):
        (dest / f"note{i:05d}.txt").write_text(" ".join(rng.choice(words) for _ in range(300)) + "\n")
    return f"{n} synthetic notes"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--notes", type=int, default=1000)
    ap.add_argument("--preset", default="default")
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="deid-gui-bench-"))
    os.environ["DEID_USER_DIR"] = str(tmp / "user")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        what = build_folder(tmp / "notes", args.notes)
        from PySide6.QtCore import QElapsedTimer, QTimer
        from PySide6.QtWidgets import QApplication

        app = QApplication.instance() or QApplication([])
        from app import actions
        from app.main_window import MainWindow

        if args.preset != "default":
            from deid_engine.pipeline import build_pipeline

            actions.build_default_pipeline = lambda lang: (build_pipeline(args.preset, lang), "")
        win = MainWindow()
        win.resize(1360, 820)
        win.show()
        gaps: list[float] = []
        clock = QElapsedTimer()
        last = [0.0]
        first_shown = [None]

        when: list[float] = []

        def tick():
            now = clock.nsecsElapsed() / 1e6
            gaps.append(now - last[0])
            when.append(now)
            last[0] = now
            c = win.controller
            if first_shown[0] is None and c.current is not None and c.current.predicted is not None:
                first_shown[0] = now

        timer = QTimer()
        timer.setInterval(10)
        timer.timeout.connect(tick)
        clock.start()
        timer.start()
        t0 = time.perf_counter()
        win.open_folder(tmp / "notes")
        while time.perf_counter() - t0 < args.timeout:
            app.processEvents()
            if not win.controller.job_running() and time.perf_counter() - t0 > 0.5:
                break
            time.sleep(0.001)
        total = time.perf_counter() - t0
        # process any last queued batches, then stop measuring
        for _ in range(20):
            app.processEvents()
        timer.stop()
        s = win.controller.session
        ndocs = sum(1 for e in s.entries if e.document is not None)
        ntag = sum(1 for e in s.entries if e.predicted is not None)
        stalls = sorted(max(0.0, g - 10.0) for g in gaps[1:])
        worst = stalls[-1] if stalls else 0.0
        p99 = stalls[int(0.99 * (len(stalls) - 1))] if stalls else 0.0
        print(f"folder: {what}; pipeline: {actions.pipeline_label(win.controller.pipeline)}")
        print(f"documents read: {ndocs}, tagged: {ntag}, problems: {sum(1 for e in s.entries if e.problem)}")
        print(f"open+read+tag wall time: {total:.1f} s; first document shown tagged after "
              f"{(first_shown[0] or float('nan')) / 1000:.2f} s")
        print(f"timer ticks: {len(gaps)}; stalls over 50 ms: {sum(1 for x in stalls if x > 50)}; "
              f"over 200 ms: {sum(1 for x in stalls if x > 200)}")
        win.close()
        top = sorted(zip(gaps[1:], when[1:]), reverse=True)[:3]
        print("largest stalls (ms, ended at ms after opening): "
              + ", ".join(f"{g - 10:.0f} at {t:.0f}" for g, t in top))
        print(f"worst_stall_ms={worst:.0f} p99_stall_ms={p99:.0f}")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
