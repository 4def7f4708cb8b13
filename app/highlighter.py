"""Colouring PHI in the document view.

``SpanHighlighter`` is a ``QSyntaxHighlighter``: Qt asks it per text block,
and it finds the block's spans with a bisect, so a huge document costs only
what is laid out. Spans arrive in Qt positions (``app.offsets`` converts).

Styles: pending prediction = category colour; suggestion (confidence below
the threshold) = pale colour with a dashed underline; accepted / added /
relabelled = category colour, bold, solid underline; rejected = grey,
struck out. The current span gets an outline drawn by ``DocumentView``.
"""

from __future__ import annotations

import bisect

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QSyntaxHighlighter, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from deid_engine.review.state import ACCEPTED, ADDED, PENDING, REJECTED, RELABELLED
from deid_engine.taxonomy import colour_of


def _pale(colour: QColor, amount: float = 0.55) -> QColor:
    return QColor(int(colour.red() + (255 - colour.red()) * amount),
                  int(colour.green() + (255 - colour.green()) * amount),
                  int(colour.blue() + (255 - colour.blue()) * amount))


def span_format(label: str, verdict: str, confidence: float, threshold: float) -> QTextCharFormat:
    f = QTextCharFormat()
    base = QColor(colour_of(label))
    if verdict == REJECTED:
        f.setForeground(QColor("#8A8A8A"))
        f.setFontStrikeOut(True)
        return f
    if verdict == PENDING and confidence < threshold:
        f.setBackground(_pale(base))
        f.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
        f.setUnderlineColor(base.darker(170))
        return f
    f.setBackground(base)
    f.setForeground(QColor("#111111"))
    if verdict in (ACCEPTED, ADDED, RELABELLED):
        f.setFontWeight(QFont.Weight.Bold)
        f.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        f.setUnderlineColor(QColor("#111111"))
    return f


class SpanHighlighter(QSyntaxHighlighter):
    def __init__(self, document):
        super().__init__(document)
        self._starts: list[int] = []
        self._items: list[tuple[int, int, QTextCharFormat]] = []
        self._max_len = 0

    def set_ranges(self, items: list[tuple[int, int, QTextCharFormat]], rehighlight: bool = True,
                   dirty: list[tuple[int, int]] | None = None) -> None:
        """Set ``(qt_start, qt_end, format)`` items; re-colour all or only the ``dirty`` Qt ranges."""
        items = sorted(items, key=lambda t: (t[0], t[1]))
        self._items = items
        self._starts = [t[0] for t in items]
        self._max_len = max((t[1] - t[0] for t in items), default=0)
        if not rehighlight:
            return
        if dirty is None:
            self.rehighlight()
            return
        doc = self.document()
        done: set[int] = set()
        for a, b in dirty:
            blk = doc.findBlock(a)
            while blk.isValid() and blk.position() <= b:
                if blk.blockNumber() not in done:
                    done.add(blk.blockNumber())
                    self.rehighlightBlock(blk)
                blk = blk.next()

    def highlightBlock(self, text: str) -> None:
        if not self._items:
            return
        blk = self.currentBlock()
        pos = blk.position()
        end = pos + blk.length()
        i = bisect.bisect_left(self._starts, pos - self._max_len)
        j = bisect.bisect_left(self._starts, end)
        for a, b, fmt in self._items[i:j]:
            if b <= pos or a >= end:
                continue
            s = max(a, pos) - pos
            e = min(b, end) - pos
            self.setFormat(s, e - s, fmt)


class DocumentView(QPlainTextEdit):
    """Read-only note view that outlines the current span."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setReadOnly(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                     | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setTabStopDistance(4 * self.fontMetrics().horizontalAdvance(" "))
        self.highlighter = SpanHighlighter(self.document())
        self._current: tuple[int, int] | None = None
        self.setUndoRedoEnabled(False)

    def set_current(self, qt_range: tuple[int, int] | None, scroll: bool = True) -> None:
        self._current = qt_range
        if qt_range and scroll:
            c = QTextCursor(self.document())
            c.setPosition(min(qt_range[1], self.document().characterCount() - 1))
            self.setTextCursor(c)
            c.setPosition(qt_range[0])
            self.setTextCursor(c)
            self.ensureCursorVisible()
        self.viewport().update()

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if not self._current:
            return
        a, b = self._current
        n = self.document().characterCount() - 1
        a, b = max(0, min(a, n)), max(0, min(b, n))
        if b <= a:
            return
        ca, cb = QTextCursor(self.document()), QTextCursor(self.document())
        ca.setPosition(a)
        cb.setPosition(b)
        ra, rb = self.cursorRect(ca), self.cursorRect(cb)
        p = QPainter(self.viewport())
        p.setPen(QPen(QColor("#1A1A8C"), 2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        if ra.top() == rb.top():
            p.drawRect(QRect(ra.left() - 2, ra.top() - 1, rb.left() - ra.left() + 4, ra.height() + 2))
        else:
            right = self.viewport().width() - 2
            p.drawLine(ra.left() - 2, ra.top() - 1, ra.left() - 2, ra.bottom() + 1)
            p.drawLine(ra.left() - 2, ra.top() - 1, right, ra.top() - 1)
            p.drawLine(ra.left() - 2, ra.bottom() + 1, right, ra.bottom() + 1)
            p.drawLine(rb.left() + 2, rb.top() - 1, rb.left() + 2, rb.bottom() + 1)
            p.drawLine(2, rb.top() - 1, rb.left() + 2, rb.top() - 1)
            p.drawLine(2, rb.bottom() + 1, rb.left() + 2, rb.bottom() + 1)
        p.end()
