"""Qt item models over a ``ReviewSession``: the document list and the span table."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor

from deid_engine.review.session import Entry, ReviewSession
from deid_engine.review.state import (ACCEPTED, ADDED, EXPORTED, IN_REVIEW, PENDING, REJECTED,
                                      RELABELLED, REVIEWED, TAGGED, ReviewedSpan)
from deid_engine.taxonomy import colour_of

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
STATUS_ROLE = Qt.ItemDataRole.UserRole + 2
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 3

STATUS_ORDER = {"problem": 0, "changed": 1, "not tagged": 2, TAGGED: 3, IN_REVIEW: 4, REVIEWED: 5,
                EXPORTED: 6}


def entry_status(session: ReviewSession, e: Entry) -> str:
    """The status word of a list row ("problem" and "changed" outrank the review status)."""
    if e.problem:
        return "problem"
    if e.changed:
        return "changed"
    return session.status(e)


class DocumentListModel(QAbstractTableModel):
    """Rows are the session's entries; revealed in batches (``fetchMore``) for big folders."""

    COLUMNS = ("Document", "Status", "PHI", "Left")
    BATCH = 500

    def __init__(self, session: ReviewSession | None = None, parent=None):
        super().__init__(parent)
        self.session = session
        self._shown = 0
        self._row_of: dict[str, int] = {}

    def set_session(self, session: ReviewSession | None) -> None:
        self.beginResetModel()
        self.session = session
        self._shown = 0
        self._row_of = {}
        self.endResetModel()
        self.entries_appended()

    def entries_appended(self) -> None:
        """Show newly appended entries right away while the list is short; later ones on fetchMore."""
        total = len(self.session.entries) if self.session else 0
        if self._shown < total and self._shown < self.BATCH:
            self._reveal(min(total, self.BATCH) - self._shown)

    def _reveal(self, n: int) -> None:
        if n <= 0:
            return
        first = self._shown
        self.beginInsertRows(QModelIndex(), first, first + n - 1)
        for i in range(first, first + n):
            self._row_of[self.session.entries[i].key] = i
        self._shown += n
        self.endInsertRows()

    def fetch_all(self) -> None:
        if self.session:
            self._reveal(len(self.session.entries) - self._shown)

    def canFetchMore(self, parent=QModelIndex()) -> bool:
        if parent.isValid() or self.session is None:
            return False
        return self._shown < len(self.session.entries)

    def fetchMore(self, parent=QModelIndex()) -> None:
        if parent.isValid() or self.session is None:
            return
        self._reveal(min(self.BATCH, len(self.session.entries) - self._shown))

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else self._shown

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

    def entry(self, row: int) -> Entry | None:
        if self.session and 0 <= row < self._shown:
            return self.session.entries[row]
        return None

    def row_of(self, key: str) -> int:
        return self._row_of.get(key, -1)

    def refresh_keys(self, keys) -> None:
        rows = [self._row_of[k] for k in keys if k in self._row_of]
        if rows:
            self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), self.columnCount() - 1))

    def refresh_all(self) -> None:
        if self._shown:
            self.dataChanged.emit(self.index(0, 0), self.index(self._shown - 1, self.columnCount() - 1))

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        e = self.entry(index.row())
        if e is None:
            return None
        col = index.column()
        s = self.session
        if role == ENTRY_ROLE:
            return e
        status = entry_status(s, e)
        if role == STATUS_ROLE:
            return status
        tagged = e.document is not None and e.predicted is not None
        if role in (Qt.ItemDataRole.DisplayRole, SORT_ROLE):
            if col == 0:
                return e.key
            if col == 1:
                if role == SORT_ROLE:
                    return STATUS_ORDER.get(status, 9)
                return status
            if col == 2:
                n = s.counts(e)[0] if tagged else None
                return (n if n is not None else -1) if role == SORT_ROLE else ("" if n is None else str(n))
            if col == 3:
                n = s.counts(e)[1] if tagged else None
                return (n if n is not None else -1) if role == SORT_ROLE else ("" if n is None else str(n))
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == 3:
                return "Predictions still to review"
            if col == 2:
                return "Spans that the export will redact"
            if e.problem:
                return f"Cannot be reviewed: {e.problem}"
            if e.changed:
                return "The file's text changed since the last session; decisions made on the old text are not applied."
            if e.warning:
                return f"Read with a warning: {e.warning}"
            return None
        if role == Qt.ItemDataRole.ForegroundRole:
            if e.problem:
                return QBrush(QColor("#A61B1B"))
            if e.changed:
                return QBrush(QColor("#9A5B00"))
            if status in (REVIEWED, EXPORTED):
                return QBrush(QColor("#2E6B30"))
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (2, 3):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class DocumentFilterProxy(QSortFilterProxyModel):
    """Text filter on the document name plus a status filter ("" = all)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._status = ""
        self.setSortRole(SORT_ROLE)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(0)

    def set_status_filter(self, status: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9
            self.beginFilterChange()
            self._status = status
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._status = status
            self.invalidateFilter()

    def filterAcceptsRow(self, row, parent) -> bool:
        if not super().filterAcceptsRow(row, parent):
            return False
        if not self._status:
            return True
        idx = self.sourceModel().index(row, 0, parent)
        st = self.sourceModel().data(idx, STATUS_ROLE)
        if self._status == "unreviewed":
            return st in ("not tagged", TAGGED, IN_REVIEW, "changed")
        return st == self._status


VERDICT_TEXT = {PENDING: "pending", ACCEPTED: "accepted", REJECTED: "rejected", ADDED: "added",
                RELABELLED: "relabelled"}


class SpanTableModel(QAbstractTableModel):
    """The reviewed spans of the current document."""

    COLUMNS = ("Text", "Label", "Conf.", "Source", "Verdict")

    def __init__(self, parent=None):
        super().__init__(parent)
        self.text = ""
        self.rows: list[ReviewedSpan] = []
        self.threshold = 0.5

    def set_spans(self, text: str, rows: list[ReviewedSpan], threshold: float = 0.5) -> None:
        self.beginResetModel()
        self.text = text
        self.rows = list(rows)
        self.threshold = threshold
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not (0 <= index.row() < len(self.rows)):
            return None
        r = self.rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                t = " ".join(self.text[r.start:r.end].split())
                return t if len(t) <= 60 else t[:57] + "..."
            if col == 1:
                return r.label
            if col == 2:
                return f"{r.span.confidence:.2f}"
            if col == 3:
                return r.span.source or "-"
            if col == 4:
                v = VERDICT_TEXT.get(r.verdict, r.verdict)
                if r.verdict == PENDING and r.span.confidence < self.threshold:
                    v = "suggestion"
                return v
        if role == Qt.ItemDataRole.DecorationRole and col == 1:
            return QColor(colour_of(r.label))
        if role == Qt.ItemDataRole.ForegroundRole and r.verdict == REJECTED:
            return QBrush(QColor("#888888"))
        if role == Qt.ItemDataRole.FontRole and r.verdict == REJECTED:
            from PySide6.QtGui import QFont

            f = QFont()
            f.setStrikeOut(True)
            return f
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
