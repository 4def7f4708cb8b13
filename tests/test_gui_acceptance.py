"""Acceptance: review one real note entirely from the keyboard, SIGKILL the app, reopen: all there.

Runs the window in child processes (offscreen) on 200 PhysioNet train notes copied to a temp folder.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

REVIEW = textwrap.dedent("""
    import json, sys, time
    sys.path.insert(0, ROOT)
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextCursor
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from app.main_window import MainWindow
    w = MainWindow(); w.show(); w.activateWindow()
    w.open_folder(FOLDER)
    t0 = time.time()
    while w.controller.job_running() and time.time() - t0 < 300:
        app.processEvents(); time.sleep(0.005)
    app.processEvents()
    c = w.controller
    # the first note with at least 3 predicted spans
    e = next(x for x in c.session.entries if x.predicted and len(x.predicted) >= 3)
    c.set_current(e); app.processEvents()
    w.view.setFocus()
    K = Qt.Key; M = Qt.KeyboardModifier
    QTest.keyClick(w.view, K.Key_A)                  # accept the first span
    QTest.keyClick(w.view, K.Key_R)                  # reject the second
    QTest.keyClick(w.view, K.Key_L); QTest.keyClick(w.view, K.Key_8)   # relabel the third as OTHER
    QTest.keyClick(w.view, K.Key_J)
    QTest.keyClick(w.view, K.Key_Right, M.AltModifier)  # grow its end by a word
    # add a missed span: the first word of the note, as LOCATION
    text = e.text
    import re
    m = re.search(r"[A-Za-z]{3,}", text)
    a, b = w.offsets.range_to_qt(m.start(), m.end())
    cur = w.view.textCursor(); cur.setPosition(a); cur.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
    w.view.setTextCursor(cur)
    QTest.keyClick(w.view, K.Key_3)
    QTest.keyClick(w.view, K.Key_Z, M.ControlModifier)   # undo the add
    QTest.keyClick(w.view, K.Key_Z, M.ControlModifier | M.ShiftModifier)  # and redo it
    QTest.keyClick(w.view, K.Key_A, M.ShiftModifier)     # accept everything left
    QTest.keyClick(w.view, K.Key_Return, M.ControlModifier)  # mark reviewed
    app.processEvents()
    state = {"doc_id": e.doc_id, "key": e.key, "status": c.session.status(e),
             "spans": sorted([r.start, r.end, r.label, r.verdict] for r in c.session.reviewed(e))}
    open(OUT, "w").write(json.dumps(state))
    print("READY", flush=True)
    time.sleep(600)
""")

CHECK = textwrap.dedent("""
    import json, sys, time
    sys.path.insert(0, ROOT)
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from app.main_window import MainWindow
    w = MainWindow(); w.show()
    w.open_folder(FOLDER)
    t0 = time.time()
    while w.controller.job_running() and time.time() - t0 < 300:
        app.processEvents(); time.sleep(0.005)
    app.processEvents()
    want = json.load(open(OUT))
    s = w.controller.session
    e = s.by_key[want["key"]]
    got = {"doc_id": e.doc_id, "key": e.key, "status": s.status(e),
           "spans": sorted([r.start, r.end, r.label, r.verdict] for r in s.reviewed(e))}
    tagged_from_cache = all(x.predicted is not None for x in s.entries if x.document is not None)
    print(json.dumps({"same": got == want, "cache": tagged_from_cache, "n": len(want["spans"])}))
""")


@pytest.mark.slow
def test_keyboard_review_kill_reopen(tmp_path, physionet_train):
    folder = tmp_path / "notes"
    folder.mkdir()
    for p in sorted(physionet_train.glob("*.txt"))[:200]:
        shutil.copyfile(p, folder / p.name)
    env = dict(os.environ, DEID_USER_DIR=str(tmp_path / "user"), QT_QPA_PLATFORM="offscreen")
    out = tmp_path / "state.json"
    head = f"ROOT = {str(ROOT)!r}; FOLDER = {str(folder)!r}; OUT = {str(out)!r}\n"
    proc = subprocess.Popen([sys.executable, "-c", head + REVIEW], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        t0 = time.time()
        line = ""
        while time.time() - t0 < 300:
            line = proc.stdout.readline()
            if "READY" in line or proc.poll() is not None:
                break
        assert "READY" in line, proc.stderr.read()[-3000:] if proc.poll() is not None else "timeout"
        os.kill(proc.pid, signal.SIGKILL)  # no cleanup, no close event
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    want = json.loads(out.read_text())
    assert want["status"] == "reviewed"
    verdicts = {v for *_, v in want["spans"]}
    assert {"accepted", "rejected", "added"} <= verdicts and ("relabelled" in verdicts or "accepted" in verdicts)
    r = subprocess.run([sys.executable, "-c", head + CHECK], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["same"] and res["cache"], res
    print("acceptance:", want["key"], want["status"], [v for *_, v in want["spans"]], res)
