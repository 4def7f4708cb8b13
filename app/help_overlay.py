"""The keyboard help overlay (F1 or ?): a panel over the window listing every key."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from deid_engine.taxonomy import CATEGORIES

KEYMAP: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("Move", (
        ("J / K", "next / previous span"),
        ("N / Shift+N", "next / previous unreviewed document"),
        ("Ctrl+PgDown / Ctrl+PgUp", "next / previous document"),
        ("Click", "make the span under the mouse current"),
    )),
    ("Decide", (
        ("A or Enter", "accept the current span"),
        ("R or Delete", "reject the current span (not PHI)"),
        ("Shift+A", "accept all remaining spans of the document"),
        ("1 - 8", "add the selected text as category 1-8 (below)"),
        ("L then 1 - 8", "change the current span's category"),
        ("Shift+L", "pick a label or subtype from a menu"),
        ("E / Shift+E", "repeat the verdict on every occurrence (document / folder)"),
        ("Ctrl+Enter", "mark the document reviewed (again: not reviewed)"),
    )),
    ("Boundaries", (
        ("Alt+Right / Alt+Left", "grow / shrink the span's end by a word"),
        ("Alt+Shift+Left / Alt+Shift+Right", "grow / shrink the span's start by a word"),
    )),
    ("Other", (
        ("Ctrl+Z / Ctrl+Shift+Z", "undo / redo"),
        ("Ctrl+O / Ctrl+E", "open a folder / export redacted copies"),
        ("Ctrl+F", "filter the document list"),
        ("F5 / Esc", "tag the folder again / cancel the running job"),
        ("F1 or ?", "show or hide this help"),
    )),
)


def _listed_keys() -> set[str]:
    out: set[str] = set()
    for _, keys in KEYMAP:
        for k, _what in keys:
            for part in k.replace(" or ", " / ").replace(" then ", " / ").split(" / "):
                out.add(part.strip().lower())
    return out


def extra_keys(window) -> list[tuple[str, str]]:
    """(key, description) of the window's actions whose shortcut KEYMAP does not mention."""
    listed = _listed_keys()
    out = []
    for a in window.actions():
        seqs = [q.toString() for q in a.shortcuts() if not q.isEmpty()]
        if not seqs or any(x.lower() in listed for x in seqs):
            continue
        if all(x.isdigit() for x in seqs):
            continue
        text = a.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(".")
        out.append((" / ".join(seqs), text))
    return out


class HelpOverlay(QWidget):
    """Covers its parent with a dimmed panel; any key or click closes it."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("helpOverlay")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._built = False
        self.hide()
        parent.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if obj is self.parent() and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.parent().rect())
        return False

    def _build(self) -> None:
        """Lay out the keys: ``KEYMAP`` plus any window action with a key it does not list
        (actions other parts of the app add, e.g. the Model menu)."""
        sections = list(KEYMAP)
        extra = extra_keys(self.parent())
        if extra:
            sections.append(("More", tuple(extra)))
        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 30, 40, 30)
        panel = QWidget(self)
        panel.setObjectName("helpPanel")
        panel.setStyleSheet("#helpPanel { background: #FDFDFD; border: 1px solid #999; border-radius: 8px; }"
                            "QLabel { color: #111; }")
        outer.addStretch(1)
        outer.addWidget(panel, 0, Qt.AlignmentFlag.AlignHCenter)
        outer.addStretch(1)
        box = QVBoxLayout(panel)
        box.setContentsMargins(24, 18, 24, 18)
        title = QLabel("<b style='font-size:15pt'>Keyboard</b> &nbsp; (press any key to close)")
        box.addWidget(title)
        cols = QHBoxLayout()
        cols.setSpacing(36)
        box.addLayout(cols)
        grids = []
        for _ in range(2):
            g = QGridLayout()
            g.setHorizontalSpacing(16)
            g.setVerticalSpacing(4)
            cols.addLayout(g)
            grids.append([g, 0])
        for n, (section, keys) in enumerate(sections):
            g, r = grids[n % 2]
            head = QLabel(f"<b>{section}</b>")
            if r:
                head.setContentsMargins(0, 12, 0, 0)
            g.addWidget(head, r, 0, 1, 2)
            r += 1
            for k, what in keys:
                g.addWidget(QLabel(f"<code>{k}</code>"), r, 0, Qt.AlignmentFlag.AlignTop)
                g.addWidget(QLabel(what), r, 1, Qt.AlignmentFlag.AlignTop)
                r += 1
            grids[n % 2][1] = r
        for g, r in grids:
            g.setRowStretch(r, 1)
        cats = QLabel("Categories: " + " &nbsp; ".join(
            f"<span style='background:{c.colour}'>&nbsp;{i} {name}&nbsp;</span>"
            for i, (name, c) in enumerate(CATEGORIES.items(), 1)))
        cats.setContentsMargins(0, 12, 0, 0)
        box.addWidget(cats)
        self._built = True

    def toggle(self) -> None:
        if not self._built:
            self._build()
        if self.isVisible():
            self.hide()
        else:
            self.setGeometry(self.parent().rect())
            self.show()
            self.raise_()
            self.setFocus()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(0, 0, 0, 110))
        p.end()

    def event(self, event) -> bool:
        # While shown, every key closes the overlay instead of running a review shortcut.
        if event.type() == QEvent.Type.ShortcutOverride and self.isVisible():
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event) -> None:
        self.hide()
        event.accept()

    def mousePressEvent(self, event) -> None:
        self.hide()
        event.accept()
