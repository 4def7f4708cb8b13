"""Render the review window's main states to PNG (docs/screenshots/) from fake fixture notes.

    QT_QPA_PLATFORM=offscreen python tools/render_screenshots.py [OUT_DIR]

Uses a throw-away user data folder and the real "default" pipeline; the notes
below are invented (no corpus text).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

NOTES = {
    "2024-03-14_icu_nursing.txt": (
        "ICU NURSING NOTE  03/14/2024 07:00\r\n"
        "Pt: Harold Pemberton, 67 y/o M, MRN 4471829, admitted from Riverside Community Hospital.\r\n"
        "Attending: Dr. Alicia Moreno.  Contact wife Joan Pemberton at (617) 555-0142.\r\n"
        "\r\n"
        "NEURO:\tA&O x3, follows commands, PERRLA.\r\n"
        "CV:\tNSR 70-80s, SBP 110-130, no ectopy.\r\n"
        "RESP:\t2L NC, sats 96%, LS clear bilaterally.\r\n"
        "GI/GU:\tTolerating clears, foley draining clear yellow urine.\r\n"
        "SOCIAL:\tLives in Springfield with wife; retired machinist. Daughter visiting 03/15.\r\n"
        "PLAN:\tContinue lasix, recheck lytes in AM, PT consult. Call Dr. Moreno w/ changes.\r\n"),
    "2024-03-15_progress.txt": (
        "PROGRESS NOTE 3/15/2024\n"
        "Mr. Pemberton seen and examined. Afebrile overnight. Seen with Dr. Moreno.\n"
        "Email from daughter (kpemberton@example.org) re: discharge planning.\n"
        "Follow-up with cardiology clinic on 04/02/2024.\n"),
    "2024-03-16_discharge.txt": (
        "DISCHARGE SUMMARY\n"
        "Discharged home 03/16/2024 with wife. Follow-up: Dr. Moreno, (617) 555-0199.\n"
        "Medications reconciled. No new allergies.\n"),
    "2024-03-17_social_work.txt": (
        "SOCIAL WORK NOTE\n"
        "Met with patient and wife Joan at bedside. Home at 42 Elm Street, Springfield, MA 01103.\n"
        "Insurance ID HP-552-301-77 verified.\n"),
    "scanned_page.txt": None,  # binary: listed with its reason
    "blank_note.txt": "",
}


def make_folder(root: Path) -> Path:
    folder = root / "ward-7B-march"
    folder.mkdir(parents=True)
    for name, text in NOTES.items():
        if text is None:
            (folder / name).write_bytes(b"%PDF-1.4\x00\x00\x01\x02 binary scan")
        else:
            (folder / name).write_bytes(text.encode("utf-8"))
    return folder


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="deid-shots-"))
    os.environ["DEID_USER_DIR"] = str(tmp / "user")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextCursor
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    from app.main_window import MainWindow

    def pump(ms: int = 50) -> None:
        end = time.time() + ms / 1000
        while time.time() < end:
            app.processEvents()

    def shot(w, name: str) -> None:
        pump(80)
        path = out / name
        w.grab().save(str(path))
        print(path)

    win = MainWindow()
    from dataclasses import replace

    # a higher suggestion threshold than the default, so the pictures show the suggestion style too
    win.controller.settings = replace(win.controller.settings, suggestion_threshold=0.8)
    win.resize(1360, 820)
    win.show()
    win.activateWindow()
    pump()
    shot(win, "01_empty_window.png")

    folder = make_folder(tmp)
    win.open_folder(folder)
    t0 = time.time()
    while win.controller.job_running() and time.time() - t0 < 60:
        pump(20)
    pump(100)
    shot(win, "02_tagged_folder.png")

    c = win.controller
    view = win.view
    QTest.keyClick(view, Qt.Key.Key_A)  # accept the first span
    QTest.keyClick(view, Qt.Key.Key_R)  # reject the next one

    def select(needle: str, nth: int = 0):
        text = c.current.text
        i = -1
        for _ in range(nth + 1):
            i = text.index(needle, i + 1)
        a, b = win.offsets.range_to_qt(i, i + len(needle))
        cur = view.textCursor()
        cur.setPosition(a)
        cur.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
        view.setTextCursor(cur)

    for needle, key in (("Harold Pemberton", Qt.Key.Key_1), ("Alicia Moreno", Qt.Key.Key_1),
                        ("Riverside Community Hospital", Qt.Key.Key_3)):
        if needle in c.current.text and not any(c.current.text[r.start:r.end] == needle for r in c.reviewed()):
            select(needle)
            QTest.keyClick(view, key)
    QTest.keyClick(view, Qt.Key.Key_J)
    shot(win, "03_review_in_progress.png")

    QTest.keyClick(view, Qt.Key.Key_F1)
    shot(win, "04_help_overlay.png")
    QTest.keyClick(win.help_overlay, Qt.Key.Key_Escape)
    win.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
