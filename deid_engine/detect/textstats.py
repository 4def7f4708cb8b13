"""Character counts of a text, computed in C: the same numbers as
``sum(c.isupper() for c in s)`` and ``sum(c.isalpha() for c in s)``.

For ASCII text (``str.isascii`` is O(1) in CPython) a character is upper case exactly when
it is ``A``-``Z`` and alphabetic exactly when it is ``A``-``Z`` or ``a``-``z``, so the counts
are length differences after ``bytes.translate`` deletes those bytes; other text is counted
with ``map`` over the same ``str`` predicates."""

from __future__ import annotations

_UPPER = bytes(range(ord("A"), ord("Z") + 1))
_ALPHA = _UPPER + bytes(range(ord("a"), ord("z") + 1))


def count_upper(s: str) -> int:
    """``sum(c.isupper() for c in s)``."""
    if s.isascii():
        b = s.encode("ascii")
        return len(b) - len(b.translate(None, _UPPER))
    return sum(map(str.isupper, s))


def count_alpha(s: str) -> int:
    """``sum(c.isalpha() for c in s)``."""
    if s.isascii():
        b = s.encode("ascii")
        return len(b) - len(b.translate(None, _ALPHA))
    return sum(map(str.isalpha, s))


def count_alpha_upper(s: str) -> tuple[int, int]:
    """(letters, upper-case letters): ``len([c for c in s if c.isalpha()])`` and
    ``sum(c.isupper() for c in s if c.isalpha())``."""
    if s.isascii():
        b = s.encode("ascii")
        return len(b) - len(b.translate(None, _ALPHA)), len(b) - len(b.translate(None, _UPPER))
    letters = [c for c in s if c.isalpha()]
    return len(letters), sum(map(str.isupper, letters))
