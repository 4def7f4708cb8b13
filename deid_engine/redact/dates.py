"""Dates inside a DATE span: find them, then shift or replace them in their own format.

``find_dates(text, lang)`` locates every date expression of a span
(``10/11/60``, ``2060-10-11``, ``Oct 11``, ``11th of October``, ``Spring of
2010``, ``12 de diciembre de 2016``, ``7/22``, ``1992``, ``'92``, ``Monday``
...) as ``DateExpr`` objects with the fields it states (year, month, day,
weekday, season) and how each field is written. ``rewrite(text, fn, lang)``
renders each expression again, in exactly its original format (zero padding,
2/4-digit years, month names full/abbreviated, case, ordinal suffixes,
language), with new field values from ``fn``; text between expressions is
kept. ``shift_text`` is the date-shifting ``fn``; ``random_text`` draws a
random date of the same shape. Both return ``None`` when no date is found, so
the caller can fall back to a shape-preserving surrogate.

Partial dates shift through a fixed reference: a day and month without year
use the non-leap year 2001 (2000 for 29 February); a month alone uses its
15th; a year alone (or a season and year) moves by the offset's *year
effect*, ``(2 July 2001 + offset).year - 2001``, the same for every year, so
intervals between years survive. Times of day are kept.
"""

from __future__ import annotations

import calendar
import datetime as dt
import random
from dataclasses import dataclass, replace
from typing import Callable

import regex as re

MONTHS = {
    "en": ["january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december"],
    "es": ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
           "septiembre", "octubre", "noviembre", "diciembre"],
}
MONTH_ABBR = {
    "en": ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
    "es": ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"],
}
WEEKDAYS = {
    "en": ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
    "es": ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
}
WEEKDAY_ABBR = {
    "en": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
    "es": ["lun", "mar", "mié", "jue", "vie", "sáb", "dom"],
}
SEASONS = {"spring", "summer", "fall", "autumn", "winter", "primavera", "verano", "otoño", "invierno"}

# name (lower case) -> (kind, number, lang, form); one table per language, the
# note's language is asked first ("may", "mar" are English and Spanish).
_WORDS_BY_LANG: dict[str, dict[str, tuple[str, int, str, str]]] = {}
for _lang in ("en", "es"):
    _tbl = _WORDS_BY_LANG.setdefault(_lang, {})
    for _i, _w in enumerate(MONTHS[_lang]):
        _tbl.setdefault(_w, ("month", _i + 1, _lang, "full"))
    for _i, _w in enumerate(MONTH_ABBR[_lang]):
        _tbl.setdefault(_w, ("month", _i + 1, _lang, "abbr"))
    for _i, _w in enumerate(WEEKDAYS[_lang]):
        _tbl.setdefault(_w, ("weekday", _i, _lang, "full"))
    for _i, _w in enumerate(WEEKDAY_ABBR[_lang]):
        _tbl.setdefault(_w, ("weekday", _i, _lang, "abbr"))
_WORDS: dict[str, tuple[str, int, str, str]] = {**_WORDS_BY_LANG["es"], **_WORDS_BY_LANG["en"]}
_EXTRA = {"sept": ("month", 9, "en", "abbr"), "setiembre": ("month", 9, "es", "full"),
          "tues": ("weekday", 1, "en", "abbr"), "thur": ("weekday", 3, "en", "abbr"),
          "thurs": ("weekday", 3, "en", "abbr"), "miercoles": ("weekday", 2, "es", "full"),
          "sabado": ("weekday", 5, "es", "full")}
for _w, _v in _EXTRA.items():
    _WORDS.setdefault(_w, _v)
    _WORDS_BY_LANG[_v[2]].setdefault(_w, _v)


def _word(w: str, lang: str) -> tuple[str, int, str, str]:
    low = w.lower()
    return _WORDS_BY_LANG.get(lang, {}).get(low) or _WORDS[low]


def _alt(words) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


_MON = _alt(w for w, v in _WORDS.items() if v[0] == "month")
_WD = _alt(w for w, v in _WORDS.items() if v[0] == "weekday")
_SEA = _alt(SEASONS)
_ORD = r"(?:st|nd|rd|th|º|°|ª)"
_Y = r"(?:\d{4}|'\d{2}|’\d{2})"
_NB = r"(?<![\p{L}\p{N}])"   # no letter/digit before
_NA = r"(?![\p{L}\p{N}])"    # no letter/digit after
_NAD = r"(?!\d)"

_PATTERNS: list[tuple[str, str]] = [
    # 2060-10-11, 2060/10/11
    ("ymd", rf"{_NB}(?P<y>\d{{4}})(?P<s>[-/.])(?P<m>\d{{1,2}})(?P=s)(?P<d>\d{{1,2}}){_NAD}"),
    # Monday, 11th of October 2010 / 12 de diciembre de 2016 / 11 Oct. 2010
    ("dmy_text", rf"{_NB}(?:(?P<wd>{_WD})\.?,?\s+(?:the\s+|el\s+)?)?(?P<d>\d{{1,2}})(?P<ord>{_ORD})?"
                 rf"(?:\s+of|\s+de|-)?\s*(?P<mon>{_MON})(?P<dot>\.)?"
                 rf"(?:(?P<ysep>,?\s*(?:de(?:l)?\s+)?|-)(?P<y>{_Y}){_NA})?{_NA}"),
    # Monday, October 11th, 2010 / Oct 11 / oct. 11 '92
    ("mdy_text", rf"{_NB}(?:(?P<wd>{_WD})\.?,?\s+)?(?P<mon>{_MON})(?P<dot>\.)?\s*(?:the\s+)?"
                 rf"(?P<d>\d{{1,2}})(?P<ord>{_ORD})?{_NAD}(?:(?P<ysep>,?\s*)(?P<y>{_Y}){_NA})?"),
    # October 2010 / diciembre de 2016 / Oct '92
    ("my_text", rf"{_NB}(?P<mon>{_MON})(?P<dot>\.)?(?P<ysep>,?\s*(?:de(?:l)?\s+|of\s+)?)(?P<y>{_Y}){_NA}"),
    # Spring of 2010 / primavera de 2010
    ("season_y", rf"{_NB}(?P<season>{_SEA})(?P<ysep>,?\s*(?:of\s+|de(?:l)?\s+)?)(?P<y>{_Y}){_NA}"),
    # 10/11/60, 10-11-2060, 11.10.1960
    ("abY", rf"{_NB}(?P<a>\d{{1,2}})(?P<s>[-/.])(?P<b>\d{{1,2}})(?P=s)(?P<y>\d{{4}}|\d{{2}}){_NAD}"),
    # 10/2060
    ("mY", rf"{_NB}(?P<m>\d{{1,2}})(?P<s>[-/.])(?P<y>\d{{4}}){_NAD}"),
    # 7/22, 22/7, 7-8
    ("ab", rf"{_NB}(?P<a>\d{{1,2}})(?P<s>[-/.])(?P<b>\d{{1,2}}){_NAD}"),
    # month or weekday alone
    ("mon", rf"{_NB}(?P<mon>{_MON}){_NA}"),
    ("wd", rf"{_NB}(?P<wd>{_WD}){_NA}"),
    ("season", rf"{_NB}(?P<season>{_SEA}){_NA}"),
    # 1992, '92
    ("y", rf"{_NB}(?P<y>(?:1[6-9]|2[0-2])\d\d|'\d{{2}}|’\d{{2}}){_NAD}"),
    # 2nd, 20th
    ("d_ord", rf"{_NB}(?P<d>\d{{1,2}})(?P<ord>st|nd|rd|th|º|ª){_NA}"),
]
# Each alternative is compiled on its own (group names repeat); the earliest match wins.
_COMPILED = [(kind, re.compile(p, re.IGNORECASE)) for kind, p in _PATTERNS]
_TIME = re.compile(r"(?<!\d)\d{1,2}:\d{2}(?::\d{2})?(?!\d)")
_BARE = re.compile(r"\s*(?P<n>\d{1,2})\s*")


@dataclass(frozen=True, slots=True)
class PartialDate:
    """The fields a date expression states (``None`` when absent)."""

    year: int | None = None
    month: int | None = None
    day: int | None = None
    weekday: int | None = None  # 0 = Monday
    season: str | None = None


@dataclass(frozen=True, slots=True)
class Field:
    """How one field is written: its place in the span and its form."""

    start: int
    end: int
    kind: str       # year2 | year4 | month_num | month_name | day | weekday | ordinal | season
    width: int = 0  # 2 when written with a leading zero (zero padding), else 1; years: 2 or 4
    lang: str = "en"
    form: str = ""  # full | abbr for names
    case: str = ""  # upper | lower | title


@dataclass(frozen=True, slots=True)
class DateExpr:
    start: int
    end: int
    value: PartialDate
    fields: tuple[Field, ...]


def _case(s: str) -> str:
    letters = [c for c in s if c.isalpha()]
    if letters and all(c.isupper() for c in letters):
        return "upper" if len(letters) > 1 else "title"
    if letters and all(c.islower() for c in letters):
        return "lower"
    return "title"


def apply_case(s: str, case: str) -> str:
    if case == "upper":
        return s.upper()
    if case == "lower":
        return s.lower()
    return s[:1].upper() + s[1:].lower()


def _pad(digits: str) -> int:
    return 2 if len(digits) > 1 and digits[0] == "0" else 1


def _year_from(text: str) -> tuple[int, str, int]:
    """(year, kind, width) from '1992', '92', "'92"."""
    digits = text.lstrip("'’")
    if len(digits) == 4:
        return int(digits), "year4", 4
    yy = int(digits)
    return (2000 + yy if yy <= 30 else 1900 + yy), "year2", 2


def _valid_day(y: int | None, m: int | None, d: int) -> bool:
    if not 1 <= d <= 31:
        return False
    if m is None:
        return True
    return d <= calendar.monthrange(y if y is not None else 2000, m)[1]


def _parse(kind: str, m: "re.Match", lang: str) -> DateExpr | None:
    g = m.groupdict()
    fields: list[Field] = []
    year = month = day = weekday = None
    season = None

    def grp(name):
        return g.get(name), (m.start(name), m.end(name)) if g.get(name) is not None else (0, 0)

    if g.get("y") is not None:
        y_txt = g["y"]
        year, ykind, width = _year_from(y_txt)
        off = len(y_txt) - len(y_txt.lstrip("'’"))
        fields.append(Field(m.start("y") + off, m.end("y"), ykind, width))
    if g.get("mon") is not None:
        w = g["mon"]
        k, n, wl, form = _word(w, lang)
        month = n
        fields.append(Field(m.start("mon"), m.end("mon"), "month_name", 0, wl, form, _case(w)))
    if g.get("wd") is not None:
        w = g["wd"]
        k, n, wl, form = _word(w, lang)
        weekday = n
        fields.append(Field(m.start("wd"), m.end("wd"), "weekday", 0, wl, form, _case(w)))
    if g.get("season") is not None:
        season = g["season"]
        fields.append(Field(m.start("season"), m.end("season"), "season", 0, "", "", _case(season)))
    if g.get("m") is not None:
        month = int(g["m"])
        fields.append(Field(m.start("m"), m.end("m"), "month_num", _pad(g["m"])))
    if g.get("d") is not None:
        day = int(g["d"])
        fields.append(Field(m.start("d"), m.end("d"), "day", _pad(g["d"])))
    if g.get("ord") is not None:
        fields.append(Field(m.start("ord"), m.end("ord"), "ordinal", 0, "", "", _case(g["ord"])))
    if g.get("a") is not None and g.get("y") is None and 1 <= int(g["a"]) <= 12 and int(g["b"]) > 31:
        # 8/87: month and two-digit year
        year, ykind, width = _year_from(g["b"])
        month = int(g["a"])
        fields.append(Field(m.start("a"), m.end("a"), "month_num", _pad(g["a"])))
        fields.append(Field(m.start("b"), m.end("b"), ykind, width))
    elif g.get("a") is not None:
        a, b = int(g["a"]), int(g["b"])
        month_first = lang != "es"
        if month_first and a > 12 and b <= 12:
            month_first = False
        elif not month_first and b > 12 and a <= 12:
            month_first = True
        (mm, mspan), (dd, dspan) = (((a, "a"), (b, "b")) if month_first else ((b, "b"), (a, "a")))
        month, day = mm, dd
        fields.append(Field(m.start(mspan), m.end(mspan), "month_num", _pad(g[mspan])))
        fields.append(Field(m.start(dspan), m.end(dspan), "day", _pad(g[dspan])))
    if month is not None and not 1 <= month <= 12:
        return None
    if day is not None:
        if not 1 <= day <= 31:
            return None
        if month is not None and not _valid_day(year, month, day):
            day = calendar.monthrange(year if year is not None else 2000, month)[1]  # 2/31 typo: clamp
    if kind == "y" and year is not None and fields[0].kind == "year2" and not g["y"][0] in "'’":
        return None
    fields.sort(key=lambda f: f.start)
    nums = [f for f in fields if f.kind in ("month_num", "day")]
    if nums:
        # Zero padding is a property of the format: padded if any field shows a leading
        # zero, or if every field is two digits wide in ISO order; else not padded.
        texts = [m.string[f.start:f.end] for f in nums]
        padded = any(f.width == 2 for f in nums) or (kind == "ymd" and all(len(t) == 2 for t in texts))
        if any(len(t) == 1 for t in texts):
            padded = any(f.width == 2 for f in nums)
        fields = [replace(f, width=2 if padded else 1) if f.kind in ("month_num", "day") else f
                  for f in fields]
    return DateExpr(m.start(), m.end(), PartialDate(year, month, day, weekday, season), tuple(fields))


def find_dates(text: str, lang: str = "en") -> list[DateExpr]:
    """Every date expression in ``text``, left to right, not overlapping.

    A span that is only a 1-2 digit number is read as a day of the month
    (<= 31) or a two-digit year (> 31). Times of day are never dates.
    """
    bare = _BARE.fullmatch(text)
    if bare:
        n = int(bare.group("n"))
        a, b = bare.start("n"), bare.end("n")
        if n > 31:
            y, k, w = _year_from(bare.group("n"))
            return [DateExpr(a, b, PartialDate(year=y), (Field(a, b, k, w),))]
        if n >= 1:
            return [DateExpr(a, b, PartialDate(day=n), (Field(a, b, "day", _pad(bare.group("n"))),))]
        return []
    blocked = [(t.start(), t.end()) for t in _TIME.finditer(text)]
    out: list[DateExpr] = []
    pos = 0
    while pos < len(text):
        best: tuple[int, int, DateExpr] | None = None
        for order, (kind, rx) in enumerate(_COMPILED):
            for m in rx.finditer(text, pos):
                if any(a < m.end() and m.start() < b for a, b in blocked):
                    continue
                expr = _parse(kind, m, lang)
                if expr is None:
                    continue
                cand = (m.start(), order, expr)
                if best is None or (cand[0], cand[1]) < (best[0], best[1]):
                    best = cand
                break
        if best is None:
            break
        out.append(best[2])
        pos = best[2].end
    return out


# --- rendering -----------------------------------------------------------------

def _ordinal(day: int, lang: str, case: str, original: str) -> str:
    if original in ("º", "°", "ª"):
        return original
    if 10 <= day % 100 <= 20:
        suf = "th"
    else:
        suf = {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return suf.upper() if case == "upper" or (original.isupper() and len(original) > 1) else suf


def _render_field(f: Field, old: str, v: PartialDate) -> str:
    if f.kind == "year4" and v.year is not None:
        return f"{v.year:04d}"
    if f.kind == "year2" and v.year is not None:
        return f"{v.year % 100:02d}"
    if f.kind == "month_num" and v.month is not None:
        return f"{v.month:0{f.width}d}" if f.width > 1 else str(v.month)
    if f.kind == "day" and v.day is not None:
        return f"{v.day:0{f.width}d}" if f.width > 1 else str(v.day)
    if f.kind == "month_name" and v.month is not None:
        lang = f.lang if f.lang in MONTHS else "en"
        name = (MONTHS if f.form == "full" else MONTH_ABBR)[lang][v.month - 1]
        return apply_case(name, f.case)
    if f.kind == "weekday" and v.weekday is not None:
        lang = f.lang if f.lang in WEEKDAYS else "en"
        name = (WEEKDAYS if f.form == "full" else WEEKDAY_ABBR)[lang][v.weekday]
        return apply_case(name, f.case)
    if f.kind == "ordinal" and v.day is not None:
        return _ordinal(v.day, f.lang, f.case, old)
    if f.kind == "season" and v.season:
        return apply_case(v.season, f.case)
    return old


def render(text: str, expr: DateExpr, value: PartialDate) -> str:
    """The expression ``text[expr.start:expr.end]`` written again with ``value``."""
    out = []
    pos = expr.start
    for f in expr.fields:
        out.append(text[pos:f.start])
        out.append(_render_field(f, text[f.start:f.end], value))
        pos = f.end
    out.append(text[pos:expr.end])
    return "".join(out)


def rewrite(text: str, fn: Callable[[PartialDate], PartialDate], lang: str = "en") -> str | None:
    """``text`` with every date expression re-rendered by ``fn``; None if none found."""
    exprs = find_dates(text, lang)
    if not exprs:
        return None
    out = []
    pos = 0
    for e in exprs:
        out.append(text[pos:e.start])
        out.append(render(text, e, fn(e.value)))
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


# --- shifting ------------------------------------------------------------------

_REF = dt.date(2001, 7, 2)


def year_effect(offset_days: int) -> int:
    """How many years a year-only date moves under ``offset_days`` (same for every year)."""
    return (_REF + dt.timedelta(days=offset_days)).year - _REF.year


def shift_value(v: PartialDate, offset_days: int) -> PartialDate:
    """``v`` moved by ``offset_days``, through the fixed references for partial dates."""
    delta = dt.timedelta(days=offset_days)
    if v.month is not None and v.day is not None:
        ref_year = v.year if v.year is not None else (2000 if (v.month, v.day) == (2, 29) else 2001)
        d = dt.date(ref_year, v.month, v.day) + delta
        wd = d.weekday() if v.year is not None else (
            (v.weekday + offset_days) % 7 if v.weekday is not None else None)
        return PartialDate(d.year if v.year is not None else None, d.month, d.day, wd, v.season)
    if v.month is not None:
        d = dt.date(v.year if v.year is not None else 2001, v.month, 15) + delta
        return PartialDate(d.year if v.year is not None else None, d.month, None,
                           (v.weekday + offset_days) % 7 if v.weekday is not None else None, v.season)
    if v.day is not None:  # a day of an unknown month: through January 2001
        d = dt.date(2001, 1, v.day) + delta
        return replace(v, day=d.day, weekday=(v.weekday + offset_days) % 7 if v.weekday is not None else None)
    return PartialDate(v.year + year_effect(offset_days) if v.year is not None else None, None, None,
                       (v.weekday + offset_days) % 7 if v.weekday is not None else None, v.season)


def shift_text(text: str, offset_days: int, lang: str = "en") -> str | None:
    """The dates of ``text`` shifted by ``offset_days`` in their own format (None: no date)."""
    return rewrite(text, lambda v: shift_value(v, offset_days), lang)


def random_value(v: PartialDate, rng: random.Random) -> PartialDate:
    """A random value with the same fields as ``v`` (every stated field changes when it can)."""
    year = month = day = weekday = None
    if v.year is not None:
        year = v.year + rng.choice([-3, -2, -1, 1, 2, 3])
    if v.month is not None:
        month = rng.choice([m for m in range(1, 13) if m != v.month])
    if v.day is not None:
        last = calendar.monthrange(year if year is not None else 2001, month or 1)[1] if month else 28
        day = rng.choice([d for d in range(1, last + 1) if d != v.day] or [1])
    if v.weekday is not None:
        if year is not None and month is not None and day is not None:
            weekday = dt.date(year, month, day).weekday()
        else:
            weekday = rng.choice([w for w in range(7) if w != v.weekday])
    return PartialDate(year, month, day, weekday, v.season)


def random_text(text: str, rng: random.Random, lang: str = "en") -> str | None:
    """The dates of ``text`` replaced by random dates of the same format (None: no date)."""
    return rewrite(text, lambda v: random_value(v, rng), lang)


def offset_from_seed(seed: int, min_days: int = 30, max_days: int = 365) -> int:
    """A non-zero day offset in ±[min_days, max_days] derived from an integer seed."""
    span = max_days - min_days + 1
    mag = min_days + (seed >> 1) % span
    return mag if seed & 1 else -mag
