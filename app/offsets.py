"""The one place that converts Python ``str`` offsets to Qt document positions and back.

Python indexes code points; a ``QTextDocument`` indexes UTF-16 code units and
turns every line break into one block separator. Two things therefore shift
positions: a character outside the BMP (an emoji) takes two Qt positions, and
the ``\\r`` of a ``\\r\\n`` pair disappears (a lone ``\\r`` becomes one
separator, so it does not shift). Tabs and everything else map one to one.

``OffsetMap(text)`` precomputes the shifting characters (none, for most
notes: then both conversions are the identity) and converts in O(log k).
"""

from __future__ import annotations

import bisect
import re

_SHIFTERS = re.compile("[\U00010000-\U0010FFFF]|\r(?=\n)")


class OffsetMap:
    __slots__ = ("base", "length", "qt_length", "_pos", "_cum")

    def __init__(self, text: str, start: int = 0, end: int | None = None):
        """Map ``text[start:end]`` (the part shown in Qt) to Qt positions 0..qt_length.

        Python offsets stay absolute (offsets into ``text``); ``end`` should not
        split a ``\r\n`` pair.
        """
        end = len(text) if end is None else end
        self.base = start
        self.length = end - start
        pos: list[int] = []
        cum: list[int] = [0]  # cum[k]: shift of Python offsets after the first k shifters
        for m in _SHIFTERS.finditer(text, start, end):
            pos.append(m.start() - start)
            cum.append(cum[-1] + (-1 if m.group() == "\r" else 1))
        self._pos = pos
        self._cum = cum
        self.qt_length = self.length + cum[-1]

    @property
    def identity(self) -> bool:
        return not self._pos

    def to_qt(self, offset: int) -> int:
        """Qt position of Python offset ``offset`` (clamped to the shown part)."""
        offset = max(0, min(offset - self.base, self.length))
        if not self._pos:
            return offset
        k = bisect.bisect_left(self._pos, offset)
        return offset + self._cum[k]

    def _rel_to_qt(self, rel: int) -> int:
        if not self._pos:
            return rel
        return rel + self._cum[bisect.bisect_left(self._pos, rel)]

    def to_py(self, position: int, round_up: bool = False) -> int:
        """Python offset of Qt position ``position``.

        A position inside a surrogate pair rounds down to the character's start
        (``round_up``: to its end, for the end of a selection).
        """
        if not self._pos:
            return self.base + max(0, min(position, self.length))
        position = max(0, min(position, self.qt_length))
        lo, hi = 0, self.length
        # smallest offset whose Qt position is >= position
        while lo < hi:
            mid = (lo + hi) // 2
            if self._rel_to_qt(mid) < position:
                lo = mid + 1
            else:
                hi = mid
        if self._rel_to_qt(lo) > position and not round_up:
            lo -= 1
        return self.base + lo

    def contains(self, start: int, end: int) -> bool:
        """True if ``[start, end)`` overlaps the shown part."""
        return start < self.base + self.length and end > self.base

    def range_to_qt(self, start: int, end: int) -> tuple[int, int]:
        return self.to_qt(start), self.to_qt(end)

    def range_to_py(self, start: int, end: int) -> tuple[int, int]:
        return self.to_py(start), self.to_py(end, round_up=True)
