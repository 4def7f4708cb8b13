"""Context vetoes for short numbers that any detector took for a date.

The pattern detectors already refuse ``5/5`` after ``PEEP``, ``4/10`` pain scores,
``1 1/2 hours``, clock times such as ``until 2100`` and quantities such as
``1900 cc`` (``patterns.not_date_context`` / ``not_year_context``). The neural tagger
has no such checks: on a calibration fold of the PhysioNet training notes (a tagger
trained without them) a third of its false positives were exactly these shapes.
``NumericContextFilter`` applies the same vetoes to DATE spans from the other
detectors when the span is only a short numeric shape (``m/d``, ``m-d``, ``hhmm``);
dates with a year, month names or any letters are never touched, nor are spans the
user added. A CONTACT span shaped ``1900-0700`` (two clock times: a shift) is dropped too.
"""

from __future__ import annotations

from functools import lru_cache

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..taxonomy import category_of, is_label
from ..types import Document, Span
from .merge import source_family
from .patterns import NUMBER_WORDS_RE, MONTH_NAMES, _transfer_here, not_date_context, not_year_context, spelled_number
from .spoken import DERIVED_WORD as _DERIVED_WORD

_MONTH_DAY = regex.compile(r"\d{1,2}[/-]\d{1,2}")
_NUM_RUN_CHARS = "0123456789/.-"
_FOUR = regex.compile(r"\d{4}")
_TIME_RANGE = regex.compile(r"(\d{4})\s*[-–]\s*(\d{4})")


def _hhmm(s: str) -> bool:
    return int(s[:2]) <= 23 and int(s[2:]) <= 59


def vetoed_phone(text: str, span: Span) -> bool:
    """``1900-0700``: a shift (two clock times), not a phone number; nor is a lone ``0700``."""
    s = text[span.start:span.end]
    m = _TIME_RANGE.fullmatch(s)
    if m and _hhmm(m.group(1)) and _hhmm(m.group(2)):
        return True
    digits = "".join(c for c in s if c.isdigit())
    return len(digits) == 4 and regex.fullmatch(r"\d{4}[-–]?", s) is not None and _hhmm(digits)


def _time_or_extension(text: str, span: Span) -> bool:
    """``organ bank called @ [1520]``: a clock time after "@"/"at"; ``voicemail, ext [4471]``, ``CM [X2216]``: a
    bare internal extension (the guideline leaves it; an extension after a phone number stays: ``... 0780 x45``)."""
    s = text[span.start:span.end]
    before = text[max(0, span.start - 14):span.start]
    if regex.fullmatch(r"\d{4}", s) and _hhmm(s) and regex.search(r"(?i)(?:@|\bat)[ \t]*$", before):
        return True
    m = regex.fullmatch(r"(\d{4})[ \t]+\d{3}", s)
    if m and _hhmm(m.group(1)) and regex.search(r"(?i)(?:@|\bat)[ \t]*$", before):
        return True  # "CK DRAWN AT 1515 373": a clock time and a value, no seven-digit number is written 4 + 3
    if not (regex.fullmatch(r"(?i)x[ \t]?\d{3,5}", s) or (
            regex.fullmatch(r"\d{3,5}", s) and regex.search(r"(?i)\b(?:ext|extn|extension|x)\.?[ \t]*#?[ \t]*$", before))):
        return False
    return not regex.search(r"\d[ \t.,-]*(?:(?i:ext|extn|extension|x)\.?[ \t]*#?[ \t]*)?$", before)


def _numeric_run(text: str, a: int, b: int) -> tuple[int, int]:
    """The maximal run of digits, slashes, dots and dashes around [a, b)."""
    while a > 0 and text[a - 1] in _NUM_RUN_CHARS:
        a -= 1
    while b < len(text) and text[b] in _NUM_RUN_CHARS:
        b += 1
    while b > a and text[b - 1] in "/.-":
        b -= 1
    return a, b


_FUNCTION_WORDS = frozenset("and or of to the in on at by for with from a an as is was".split())
_TWO = regex.compile(r"(\d{1,4})[/-](\d{1,4})")
_THREE = regex.compile(r"(\d{1,4})[/-](\d{1,4})[/-](\d{1,4})")


def _impossible_date(run: str) -> bool:
    """``135/27``, ``21/20``, ``3/2/1500``: slashed numbers with no month/day(/year) reading in
    either order; month/year (``8/88``, ``3/2019``) and day/month (``13/10``) readings count."""
    def md(x: int, y: int) -> bool:
        return 1 <= x <= 12 and 1 <= y <= 31

    def year(t: str) -> bool:
        return len(t) == 2 or (len(t) == 4 and 1900 <= int(t) <= 2099)

    m = _TWO.fullmatch(run)
    if m:
        x, y = int(m.group(1)), int(m.group(2))
        return not (md(x, y) or md(y, x) or (1 <= x <= 12 and year(m.group(2))) or (year(m.group(1)) and 1 <= y <= 12))
    m = _THREE.fullmatch(run)
    if m:
        x, y, z = int(m.group(1)), int(m.group(2)), m.group(3)
        if len(m.group(1)) == 4 and 1900 <= x <= 2099 or len(z) == 4 and 1900 <= int(z) <= 2099:
            return False  # a full year makes it a date, even with a typo in the day ("0/10/2017")
        return not (year(z) and (md(x, y) or md(y, x)))
    return False


_DATE_WORDS = frozenset("""
january february march april may june july august september october november december jan feb mar apr jun jul
aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri
sat sun weekend christmas xmas easter thanksgiving halloween new year years year's eve day valentine valentines
valentine's diwali hanukkah hanukah chanukah passover eid ramadan patrick patrick's paddy's paddys anzac boxing
mothers mother's fathers father's bonfire fawkes remembrance veterans juneteenth labor labour memorial independence
spring summer fall autumn winter noel first second third fourth fifth sixth seventh eighth ninth tenth eleventh
twelfth twentieth thirtieth zero oh one two three four five six seven eight nine ten eleven twelve thirteen fourteen
fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand
o ides lunar chinese mlk luther king presidents good friday whitsun st saint yom kippur rosh hashanah kwanzaa holi
lent advent purim vaisakhi navratri pentecost ascension epiphany michaelmas solstice equinox shrove pancake ash
""".split())


def _drug_then_number(s: str) -> bool:
    words = regex.findall(r"\p{L}{3,}", s)
    if not words or not regex.search(r"\d", s):
        return False
    from ..lexicons import load_lexicon

    global _DRUGS
    if _DRUGS is None:
        try:
            _DRUGS = frozenset(x.casefold() for x in load_lexicon("drugs"))
        except KeyError:
            _DRUGS = frozenset()
    return all(w.casefold() in _DRUGS for w in words)


_DRUGS: frozenset[str] | None = None


_ETA_TIME = regex.compile(r"(?i)(?:eta[ \t]+)?(?:[01]\d|2[0-3])[0-5]\d")
_AGE_SEX_HEAD = regex.compile(r"(\d{1,3})[ \t]?[MF](?![\p{L}\p{N}])")


def _listed_place_word(s: str) -> bool:
    """One or two words, all letters, that the town or country lists hold (``peru``, ``new jersey``)."""
    from .lexicon import norm, one_word_place_names

    words = s.split()
    if not words or len(words) > 2 or not all(w.isalpha() for w in words):
        return False
    return all(norm(w) in one_word_place_names() for w in words) and \
        not any(w.casefold() in _DATE_WORDS for w in words)


def _no_date_word(s: str) -> bool:
    """English: ``CCU [bay] 3``: no digit and no word of a date (month, weekday, holiday, ordinal, number)."""
    return not any(c.isdigit() for c in s) and not any(
        w.casefold().strip(".'’") in _DATE_WORDS or w.casefold().endswith(("teenth", "tieth"))
        for w in regex.findall(r"[\p{L}'’.]+", s))


# vitamins, hormones, vertebrae and disease classes written as a capital letter and digits (never a date)
_CLINICAL_CODE = regex.compile(r"B(?:1|2|3|6|9|12)|D[23]|K[12]|T[34]|[CTLS]\d{1,2}|[AB][1-3]|[TNM][0-4][a-c]?|G[1-4]|ST[1-9]|CD\d{1,2}")


_ORDINAL = (r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
            r"\d{1,2}(?:st|nd|rd|th))")
_COUNT_UNIT = r"(?:days?|nights?|weeks?|months?|doses?|cycles?|rounds?|trimesters?|sessions?|attempts?|shifts?)"
_ORDINAL_UNIT = regex.compile(r"(?i)(?:the[ \t]+)?" + _ORDINAL + r"[ \t]+" + _COUNT_UNIT)
_UNIT_AFTER = regex.compile(r"(?i)[ \t]+(?:(?:or|to|-|and)[ \t]*" + _ORDINAL + r"[ \t]+)?" + _COUNT_UNIT + r"\b")
_MONTH_AFTER = regex.compile(r"(?i)[ \t]+of[ \t]+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b")


def _ordinal_count(text: str, span: Span) -> bool:
    """An ordinal before a unit of time or treatment counts, it names no date: ``the third day
    of antibiotics``, ``the [third] or fourth day``, ``her second week``; ``the 14th day of March``
    (a month follows) stays a date."""
    piece = text[span.start:span.end].strip()
    m = _ORDINAL_UNIT.fullmatch(piece)
    if m:
        return not _MONTH_AFTER.match(text, span.end)
    if regex.fullmatch(r"(?i)(?:the[ \t]+)?" + _ORDINAL, piece):
        m = _UNIT_AFTER.match(text, span.end)
        return bool(m) and not _MONTH_AFTER.match(text, m.end())
    return False


_SHIFT = regex.compile(r"(?:7-3|3-11|11-7|7-7|7-11|11-11)")
_SHIFT_BEFORE = regex.compile(r"(?i)\b(?:nsg|nursing|npn|note|notes|shift|psych|stepdown|step-down|icu|micu|sicu|ccu|csru|"
                              r"nicu|picu|ward|unit|floor|rehab|l&d|ed|er|medicine|surgery|tele|telemetry)\b[ \t:,-]{0,3}$")


def vetoed_date(text: str, span: Span) -> bool:
    """True when the DATE span is a bare short number whose context says it is not a date.

    A span that is only part of a numeric expression (``[1]/3``, ``5.[6]/67``, ``5[/5]``)
    is judged as the whole expression; a decimal point inside it (``5.6/2.62``) or a
    mixed fraction after it (``[1] 1/2 hours``) means a measurement.
    """
    s = text[span.start:span.end]
    if s.strip().casefold() in _FUNCTION_WORDS:
        return True  # "CVA in 94 [and] 00": a word between two dates is not one
    if regex.fullmatch(r"(?i)(?:mon|tues|wednes|thurs|fri|satur|sun)days?", s.strip()):
        return True  # "Date: [Friday] 20 November 2026": a weekday alone is no PHI
    if _SHIFT.fullmatch(s.strip()) and (
            _SHIFT_BEFORE.search(text[max(0, span.start - 40):span.start])
            or regex.match(r"(?i)[ \t]*shift\b", text[span.end:span.end + 8])):
        return True  # "adol psych 3-11.", "NSG NOTE 11-7", "7-3 shift": a nursing shift, not March 11th
    if _CLINICAL_CODE.fullmatch(s.strip()):
        return True  # "TFTs, B12", "Montreal A2 L3 B1", "T4": a vitamin, a vertebra, a class, no date
    if regex.search(r"(?i)\b(?:bleep|pager|ext|extn|extension)\.?[ \t]*#?[ \t]*$", text[max(0, span.start - 12):span.start]):
        return True  # "Bleep 3341", "ext. 2204": an internal number
    if regex.fullmatch(r"\d{1,2}[ \t]+of[ \t]+\d{1,2}", s.strip()):
        return True  # "(6 of 9 items)": a count
    if regex.match(r"[ \t]*(?:/[ \t]*(?:day|d|wk|week|hr|h|min)\b|(?:cigarettes?|cigs?|drinks?|beers?|pints?|glasses|cans|"
                   r"packs?|puffs?|units|cups|joints)\b)", text[span.end:span.end + 14]) or \
            regex.fullmatch(r"\d{1,3}/", s.strip()) and regex.match(r"(?i)(?:day|d|wk|week)\b", text[span.end:span.end + 5]):
        return True  # "Smokes 5/day", "2-3 cigarettes per day": an amount
    if _drug_then_number(s):
        return True  # "on Sinemet 25/100 TDS": a dose
    if regex.fullmatch(r"(?i)(?:(?:post-?op|hospital|illness|antibiotic|abx|treatment)[ \t]+)?day[ \t]*#?[ \t]*\d{1,3}", s.strip()):
        return True  # "on day 3", "post-op day 2": a count of days, not a calendar date
    if _ordinal_count(text, span):
        return True  # "on the third day of antibiotics", "the third or fourth day": a count, not a date
    if s and all(c in _NUM_RUN_CHARS for c in s):
        a, b = _numeric_run(text, span.start, span.end)
        if text[b:b + 1] == "%" or text[b:b + 2] == " %":
            return True  # "PS 10/5/40%": ventilator settings ending in a percentage
        if text[a:a + 1] in ("/", "-") and a > 0 and text[a - 1].isalnum():
            return True  # "6F[/8]F", "135[/27]"-like fragments glued to a word: a size or a ratio
        if _impossible_date(text[a:b]):
            return True  # "B/P 135/27", "(21/20)", "3/2/1500": no calendar reading
        if (a, b) != (span.start, span.end) and b > a:
            whole = text[a:b]
            if "." in whole.strip(".") and not regex.fullmatch(r"\d{1,2}\.\d{1,2}\.\d{2,4}", whole):
                return True
            if whole.count("/") + whole.count("-") > 2:
                return True  # "5-6/3-4/0-80": a run of values
            if regex.fullmatch(r"\d{1,2}[ \t]*-[ \t]*\d{1,2}/10", whole.strip()):
                return True  # "pain is rated as 7-8/10": a pain range
            return vetoed_date(text, span.with_bounds(a, b)) if (a, b) != (span.start, span.end) else False
        if regex.fullmatch(r"\d{1,2}", s) and regex.match(r"[ \t]+\d/\d\b", text[span.end:span.end + 6]):
            return True  # "1 1/2 hours"
    if regex.fullmatch(r"\d{1,2}[ \t]+\d{1,2}/\d{1,2}", s.strip()):
        return not_date_context(text, span.start, span.end)  # "drove 1 1/2 hrs", "born at 31 2/7 weeks": a mixed number
    if regex.fullmatch(r"\d{1,2}", s):
        before = text[max(0, span.start - 24):span.start]
        if regex.match(r"[ \t]*(?:min|mins|minutes?|hours?|hrs?|h\b|days?|weeks?|wks?|[ap]\.?m\b|o'?clock|"
                       r"years?|yrs?|months?|times|x\b|noon\b|midnight\b|[-]?vessels?\b)", text[span.end:span.end + 10], regex.I):
            return True  # "tell her 10 min", "in 2 days": a time or a duration
        if regex.search(r"(?i)\b(?:grade|day|level|stage|step|cycle|floor|page|item|question|score|class|year|"
                        r"week|bed|room|bay|(?:dinner|lunch|breakfast|supper|brunch|tea)\s+at|home\s+by|back\s+by)[ \t]*$",
                        before):
            return True  # "grade 10", "on day 5", "dinner at 6"
        if regex.search(r"(?i)\b(?:normal|range|is|was|were|are|came|come|runs?|running|sits?|sitting)[ \t]+(?:back[ \t]+)?"
                        r"(?:at|around|about)[ \t]*$", before):
            return True  # "the high end of normal at 94", "it was at 94": a value, not a year
        if regex.search(r"(?i)\b(?:day|d|d#|dose|cycle|week|wk)[ \t#]*\d{1,2}[ \t]*(?:of|/)[ \t]*$", before):
            return True  # "AUGMENTIN DAY8 OF 14", "(D#7 OF 14)": a course count
    if regex.fullmatch(r"(?i)\d{1,3}(?:st|nd|rd|th)(?:[ \t]+(?:percentile|centile))?", s) and (
            regex.search(r"(?i)centile$", s) or regex.match(r"(?i)[ \t]*(?:percentile|centile|%ile)\b", text[span.end:span.end + 12])):
        return True  # "55th percentile", "60th centile": a growth centile, not a day
    if s.casefold() == "may" and regex.search(r"(?i)\bwhom\s+it\s+$", text[max(0, span.start - 12):span.start]):
        return True  # "To Whom It May Concern"
    if regex.search(r"(?:^|\s)may$", s) and regex.match(
            r"[ \t]+(?:be|have|come|need|want|not|also|help|take|get|go|feel|call|ring|attend|visit|bring|join|stay|"
            r"require|benefit|consider|try|see|do|use|start|stop|continue|return|wish|like)\b", text[span.end:span.end + 12]):
        return True  # "His older sister May may come": the verb, not the month
    if regex.fullmatch(r"(?i)\d{1,2}(?:st|nd|rd|th)", s) and regex.match(
            r"(?i)[ \t]+(?:grade|year|form|class|floor|birthday|attempt|time|place|cycle|round|dose|line|trimester|"
            r"day[ \t]+of[ \t]+(?:admission|stay|illness|treatment|therapy|life)|night|shift|hospital[ \t]+day|post-?op|"
            r"percentile|centile|generation|child|pregnancy|admission|visit)\b", text[span.end:span.end + 30]):
        return True  # "She is in 4th grade", "her 5th birthday": an ordinal, not a day of a month
    if _MONTH_DAY.fullmatch(s):
        if regex.search(r"\d[.,]$", text[max(0, span.start - 2):span.start]) or \
                regex.match(r"[.,]\d", text[span.end:span.end + 2]):
            return True  # "H/H 33.8/11.2": decimals around it
        return not_date_context(text, span.start, span.end)  # "8/88" (month/year) is a date too
    if _FOUR.fullmatch(s) and not 1800 <= int(s) <= 2099 and int(s[:2]) <= 23 and int(s[2:]) <= 59:
        return True  # "she takes it 0700 1100 1500": clock times; no year reads 0700 or 1100
    if _FOUR.fullmatch(s):
        hh, mm = int(s[:2]), int(s[2:])
        return hh <= 23 and mm <= 59 and not_year_context(text, span.start, span.end)
    return False


def _category(label: str) -> str:
    return category_of(label) if is_label(label) else label


class NumericContextFilter:
    name = "numeric_context"

    def __init__(self, lang: str = "en"):
        self.lang = lang

    def load(self) -> None:
        return None

    def describe(self) -> dict:
        return {"vetoes": "patterns.not_date_context / not_year_context on tagger and lexicon DATE spans"}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        text = document.text
        out = []
        for s in spans:
            if source_family(s.source) not in ("user", "pattern"):
                cat = _category(s.label)
                if (cat == "DATE" and vetoed_date(text, s)) or (cat == "CONTACT" and vetoed_phone(text, s)):
                    continue
                if self.lang == "en" and cat in ("CONTACT", "ID", "OTHER") and _time_or_extension(text, s):
                    continue
                if self.lang == "en" and _score_or_code(text, s, cat):
                    continue
                if self.lang == "en" and cat == "DATE" and _no_date_word(text[s.start:s.end]):
                    if _listed_place_word(text[s.start:s.end]):
                        out.append(Span(s.start, s.end, "LOCATION", s.source, s.confidence, s.explanation))
                    continue  # "CCU [bay] 3"; "has hashimoto in [peru]": a place the tagger called a date
                if self.lang == "en" and cat == "DATE" and _ETA_TIME.fullmatch(text[s.start:s.end]) and (
                        text[s.start:s.start + 3].casefold() == "eta"
                        or regex.search(r"(?i)\beta[ \t]+$", text[max(0, s.start - 5):s.start])):
                    continue  # "driving from albany, eta 2000": an arrival time
                if self.lang == "en" and cat in ("ID", "OTHER") and text[s.start:s.end] in ("M", "F") \
                        and regex.search(r"\d$", text[max(0, s.start - 1):s.start]):
                    continue  # "77[M] unwitnessed fall": the sex after an age, not an identifier
                if self.lang == "en" and cat in ("ID", "OTHER", "CONTACT"):
                    m = _AGE_SEX_HEAD.match(text[s.start:s.end])
                    if m and 0 < int(m.group(1)) <= 120 and not regex.search(r"[#:][ \t]*$", text[max(0, s.start - 3):s.start]):
                        out.append(Span(s.start, s.start + m.end(1), "AGE", s.source, s.confidence, s.explanation))
                        continue  # "MRN 44821907 77M unwitnessed fall": an age and a sex, not a number
            if source_family(s.source) != "user" and _category(s.label) == "DATE":
                s = _trim_time_tail(text, s)
                if self.lang == "en" and source_family(s.source) != "pattern" and _age_after_name(text, s, spans):
                    s = Span(s.start, s.end, "AGE", s.source, s.confidence, s.explanation)
            out.append(s)
        if self.lang == "en":
            added = _ages_after_names(text, out)
            if added:
                out = sorted([*out, *added], key=lambda x: (x.start, x.end))
        return out


# "Krzysztof Zielinski, [71], MRN", "Mele Tupou ([34])", "my father Ernesto Dominguez is [79] and":
# the English tagger has no AGE label and calls a bare number after a name a DATE
_AGE_LINK = regex.compile(r"(?:[ \t]*,[ \t]*|[ \t]*\([ \t]*|[ \t]+(?:is|was|aged?|turned|turns|now)[ \t]+)")
_AGE_END = regex.compile(r"(?:[ \t]*(?:[),;]|\.(?!\d)|$)|[ \t]+(?:and|who|with|was|is|has|lives|y/?o|years?|yrs?)\b)",
                         regex.IGNORECASE | regex.MULTILINE)


def _age_after_name(text: str, s: Span, spans: list[Span]) -> bool:
    """A DATE span that is only a number of 1-125 years right after a NAME span, linked by a
    comma, a parenthesis or ``is``/``aged``, and followed by the end of that aside (not a unit:
    ``Smith, 20 mg``): an age."""
    piece = text[s.start:s.end]
    if not (piece.isdigit() and len(piece) <= 3 and 0 < int(piece) <= 125):
        return False
    for n in spans:
        if n.end <= s.start and s.start - n.end <= 12 and _category(n.label) == "NAME":
            m = _AGE_LINK.match(text, n.end)
            if m is not None and m.end() == s.start and _AGE_END.match(text, s.end):
                return True
    return False


# the aside after a name that holds an age nobody tagged: ", 83," / " (93)" / " ("Des"), 91," / ", now 11."
_AGE_ASIDE = regex.compile(r"(?:[ \t]*\([^()\n]{1,25}\))?(?:[ \t]*,[ \t]*(?:now[ \t]+|aged?[ \t]+)?|[ \t]*\([ \t]*)"
                           r"(?P<a>\d{1,3})(?![\d.,:/%-]\d)")
_AGE_ASIDE_END = regex.compile(r"[ \t]*(?:[),;]|\.(?!\d)|$)", regex.MULTILINE)
# "father Ernesto Dominguez is [79] and", "Her brother Mohamed is [7];", "Isla will be [five] in August"
_AGE_IS = regex.compile(rf"[ \t]+(?:is|was|turned|turns|will[ \t]+be)[ \t]+(?:now[ \t]+|only[ \t]+|just[ \t]+|almost[ \t]+|"
                        rf"nearly[ \t]+)?(?P<a>\d{{1,3}}|(?i:{NUMBER_WORDS_RE})(?:[ \t]+and[ \t]+a[ \t]+half)?)"
                        rf"(?=[ \t]*(?:[),;]|\.(?!\d)|$)|[ \t]+(?:and|years?|yrs?|y/?o|yo|months?[ \t]+old|in[ \t]+{MONTH_NAMES}|"
                        rf"next|this[ \t]+(?:year|month|week)|on[ \t]+(?:monday|tuesday|wednesday|thursday|friday|saturday|"
                        rf"sunday))\b(?![ \t]+(?:a|an|the|of)\b))", regex.MULTILINE | regex.IGNORECASE)
_NEXT_NUMBER = regex.compile(r"[ \t]*[,;][ \t]*\d")


def _ages_after_names(text: str, spans: list[Span]) -> list[Span]:
    """AGE spans for a bare number of 1-125 in an aside right after a person's name that no
    detector tagged: ``Pt is Hemi Tawhiri, [83], NHI``, ``joyce ann mcbride ([93])``,
    ``Desmond Kilpatrick ("Des"), [91], by``, ``Hope, now [9].`` The aside must close right
    after the number (``,`` ``)`` ``;`` ``.`` or the line's end): not a unit (``Smith, 20 mg``),
    not a list of numbers (``Jones, 12, 14``), not a span already found. Or the name is the
    subject of ``is``/``was``/``will be`` and the number (in digits or words) ends the clause or is
    followed by ``and``, ``years``, ``in <month>``: ``brother Mohamed is [7];``, ``Obinna is [two and
    a half].``, ``Isla will be [five] in August`` (not ``is 2 doors down``, ``is one of``)."""
    if not spans:
        return []
    starts = [x.start for x in spans]
    import bisect

    out = []
    for n in spans:
        if _category(n.label) != "NAME":
            continue
        m = _AGE_ASIDE.match(text, n.end)
        if m is not None:
            a, b = m.span("a")
            if _AGE_ASIDE_END.match(text, b) is None or _NEXT_NUMBER.match(text, b):
                continue
        else:
            m = _AGE_IS.match(text, n.end)
            if m is None:
                continue
            a, b = m.span("a")
        piece = m.group("a")
        v = int(piece) if piece.isdigit() else spelled_number(piece)
        if v is None or not (0 < v <= 125):
            continue
        k = bisect.bisect_left(starts, b)
        if any(spans[j].start < b and a < spans[j].end for j in range(max(0, k - 8), min(len(spans), k + 1))):
            continue  # something already covers the number
        out.append(Span(a, b, "AGE", "pattern:age_aside", 0.75, "a number in an aside right after a name"))
    return out


# a date span that runs into the hour of a clock time: "03/14/2024 [07]:00"
_TIME_TAIL = regex.compile(r"[ \t]+(?:[01]?\d|2[0-3])$")
_TIME_REST = regex.compile(r":[0-5]\d\b")


def _trim_time_tail(text: str, s: Span) -> Span:
    """A DATE span whose last piece is the hour of a clock time (``03/14/2024 07`` before
    ``:00``) ends before that hour: times are not PHI, and half a time is noise to a reviewer."""
    piece = text[s.start:s.end]
    m = _TIME_TAIL.search(piece)
    if m is None or m.start() == 0 or not _TIME_REST.match(text, s.end):
        return s
    return Span(s.start, s.start + m.start(), s.label, s.source, s.confidence, s.explanation)


# all-caps words that are dates ("MAY", "JUNE", "XMAS", weekday and month abbreviations)
_DATE_ACRONYMS = frozenset({"jan", "feb", "mar", "apr", "may", "jun", "june", "jul", "july", "aug", "sep", "sept",
                            "oct", "nov", "dec", "xmas", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri",
                            "sat", "sun", "noel"})
_SERVICE_NUMBERS = frozenset({"911", "988", "999", "111", "112", "000", "211", "311", "411", "511", "811", "1737", "13 11 14"})
_MEASURES = (r"(?:rate|pulse|weight|height|bmi|bp|hr|rr|gcs|inr|wt|ht|temp|sats?|spo2|sao2|a1c|hba1c|egfr|hb|hgb|plt|wbc|crp|psa|tsh|"
             r"bsl|bm|cbg|pefr|fev1|map|cvp|etco2|fio2|peep|k|na)")
_MEASURE_VALUE = regex.compile(rf"(?i){_MEASURES}[ \t:=]*\d{{1,3}}(?:\.\d+)?")
_MEASURE_BEFORE = regex.compile(rf"(?i)\b{_MEASURES}[ \t:=]*(?:of[ \t]+|was[ \t]+|is[ \t]+)?$")
# an instrument or test named with a hyphenated number: "PHQ-9 17", "GAD-7 12", "PCL-5"
_INSTRUMENT_BEFORE = regex.compile(r"\b\p{Lu}[\p{Lu}\p{Ll}]{1,6}-$")


def _score_or_code(text: str, s: Span, cat: str) -> bool:
    """Numbers and codes the tagger took for PHI: the number of a scale and its score
    (``PHQ-[9 17]``), a scale name glued to its number (``[PHQ]-9``, ``[HbA]1c``), a bare
    internal extension (``x[4472]``)."""
    piece = text[s.start:s.end]
    if cat == "DATE" and regex.fullmatch(r"\p{Lu}{2,4}", piece) and piece.casefold() not in _DATE_ACRONYMS:
        return True  # "GP", "ENT": an acronym is no date
    if cat == "DATE" and (_MEASURE_VALUE.fullmatch(piece) or (
            regex.fullmatch(r"\d{1,3}(?:\.\d+)?", piece) and _MEASURE_BEFORE.search(text, max(0, s.start - 12), s.start))):
        return True  # "BMI 27", "HR 88": a measurement, not a date
    if cat == "DATE" and regex.fullmatch(r"\d{1,2}(?:[ \t]+\d{1,3})?", piece) and \
            _INSTRUMENT_BEFORE.search(text, max(0, s.start - 9), s.start):
        return True
    if cat in ("DATE", "LOCATION", "NAME") and regex.fullmatch(r"[\p{L}]{2,6}", piece) and \
            regex.match(r"-?\d{1,2}(?![\d-])", text[s.end:s.end + 4]) and sum(c.isupper() for c in piece) >= 2:
        return True  # "PHQ-9", "HbA1c", "GAD-7": a code, not a word
    if cat == "CONTACT" and piece in _SERVICE_NUMBERS:
        return True  # "Veterans Crisis Line (988, press 1)", "call 911": a public service number, no one's phone
    if cat == "CONTACT" and s.label in ("PHONE", "FAX", "CONTACT"):
        if regex.fullmatch(r"\d{3,5}", piece) and regex.search(r"(?i)(?:\bx|\bext\.?|\bextension)[ \t]*$",
                                                                  text[max(0, s.start - 12):s.start]):
            return True  # a bare internal extension
    return False


def _place_after(text: str, s: Span) -> bool:
    from .protected import place_follows

    return place_follows(text, s.end)


# "Bill No: OPB/26/118402" (the span holds "Bill No" or "Bill"): a bill number follows
_BILL_NUMBER = regex.compile(r"(?i)(?:(?<=no\.?)|[ \t]+(?:no\b\.?|number\b|#))[ \t]*[:#]?[ \t]*[\p{L}\d/-]*\d")
# "frank" before a sign or a finding means "obvious" ("frank haematuria", "frank pus", "frank breech")
_FRANK_MEDICAL = regex.compile(r"frank[ \t]+(?:blood|bloody|bleeding|ha?ematuria|ha?emoptysis|haematemesis|hematemesis|"
                               r"mela?ena|pus|purulen\w*|rupture|delirium|breech|psychosis|hypotension|shock|"
                               r"peritonitis|ischa?emia|necrosis|aspiration|coffee|bright|red|sepsis|infection)\b")


# said in speech, never a person or a place: laughter, exclamations, greetings and fillers of many Englishes
_INTERJECTIONS = frozenset({"haha", "hahaha", "hahah", "hehe", "lol", "ah", "ahh", "aah", "ay", "ayy", "ay ay", "oh", "ooh",
                            "eh", "ey", "hmm", "hola", "gracias", "kasi", "naku", "ay naku", "opo", "abeg", "oya",
                            "knock knock", "kindly", "mijo", "mija",
                            # Spanish words in English speech that a name list or the tagger takes for names (session 16)
                            "pero", "pues", "bien", "muy", "alta", "azucar", "azúcar", "tambien", "también", "entonces",
                            "bueno", "verdad", "ahorita", "oye", "mira", "cyaan", "mwen"})
_SPANISH_FUNCTION = frozenset({"que", "el", "la", "los", "las", "se", "de", "del", "y", "mi", "por", "para", "con", "lo",
                               "le", "les", "un", "una", "no", "es", "muy"})
# Spanish words that open a clause or phrase and never a name ("desde la cosecha de uva", "tengo dolor de la espalda")
_SPANISH_OPENERS = frozenset({"desde", "hasta", "porque", "cuando", "donde", "tengo", "tiene", "tienes", "tenemos",
                              "estoy", "estaba", "pero", "también", "tambien", "siempre", "nunca", "ayer", "hoy",
                              "ahora", "antes", "despues", "después", "durante", "sin", "sobre", "entre", "hacia",
                              "según", "segun", "para", "que"})


@lru_cache(maxsize=1)
def _spanish_words() -> frozenset[str]:
    from ..lexicons import load_lexicon

    return frozenset(w.casefold() for w in load_lexicon("common_words_es"))


@lru_cache(maxsize=1)
def _given_names_any() -> frozenset[str]:
    from ..lexicons import load_lexicon

    return frozenset(w.casefold() for li in ("first_names_en", "first_names_es", "first_names_world") for w in load_lexicon(li))


@lru_cache(maxsize=1)
def _place_phrases() -> frozenset[str]:
    from ..lexicons import load_lexicon

    return frozenset(w.casefold() for li in ("cities_us", "cities_world_en", "cities_es") for w in load_lexicon(li))


# --- session 18 (tune58) ----------------------------------------------------------------------------
# "lives in mobile, drove up": a town after a strong place cue, not a phone field's label
_S18B_LIVES_BEFORE = regex.compile(r"(?i)\b(?:lives|living|lived|resides|residing|moved|relocated|raised|born)[ \t]+"
                                   r"(?:in|to|from)[ \t]+$")


def _s18b_town_cued(text: str, s: Span) -> bool:
    return _S18B_LIVES_BEFORE.search(text[max(0, s.start - 20):s.start]) is not None \
        and regex.match(r"[ \t]*[:#]?[ \t]*\d", text[s.end:s.end + 4]) is None


_S18B_KIN_VERB_AFTER = regex.compile(r"[ \t]+(?:is|was|says|said|has|had|does|did|died|passed|lives|lived|comes|came|"
                                     r"went|goes|gets|got|will|would|can|could|keeps|tells|told|wants|likes|loves)\b")
# the ADA diet and its calories: "(ADA 1800)", "ADA 2000 kcal diet", "ADA diet"
_S18B_DIET_AFTER = regex.compile(r"(?i)[ \t]*(?:\d{4}\b|(?:cal|kcal|calorie|carb|consistent[ \t]+carb|diabetic)?"
                                 r"[ \t]*diet\b)")
_S18B_ORDINAL_WORD = regex.compile(r"(?i)(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)")
_S18B_ANSWER_BEFORE = regex.compile(r"(?i)(?:^|[ \t:,])(?:yes|yeah|yep|no|nope|her|his|my|our|their|your)[ \t,]+$")
# "PT FRANK ABOUT WANTING TO GO HOME", "pt anxious about": an adjective about the patient, not a therapist's name
_S18B_PT_BEFORE = regex.compile(r"(?i)(?<![\p{L}])(?:pt|patient)[ \t]+$")
_S18B_ABOUT_AFTER = regex.compile(r"(?i)[ \t]+(?:about|regarding|re|with[ \t]+(?:family|staff|team))\b")
_S18B_ADJ_NAMES = frozenset({"frank", "candid", "earnest", "joy", "hope", "grace", "honest", "sunny", "rich", "rusty",
                             "happy", "merry", "patience"})


def _s18b_not_a_name(text: str, s: Span) -> bool:
    """Tagger and lexicon NAME spans that are words in their context (session 18, tune58)."""
    if _category(s.label) != "NAME":
        return False
    w = text[s.start:s.end]
    low = w.casefold()
    if w.islower() and low in _KIN_WORDS and _S18B_KIN_VERB_AFTER.match(text, s.end) \
            and not regex.search(r"(?i)\b(?:named|called|name[ \t]+is)[ \t]+$", text[max(0, s.start - 12):s.start]):
        return True  # "he says papa is quiet now": the kin word as the subject, not a name
    if low in _S18B_VIRTUES and w.islower() and _S18B_VIRTUE_BEFORE.search(text[max(0, s.start - 12):s.start]) \
            and _S18B_VIRTUE_AFTER.match(text, s.end):  # (not "have grace show you": a name doing something)
        return True  # "she says i got to have faith and eat less salt"
    if w.islower() and low in _S18B_AIDS and _S18B_AID_BEFORE.search(text[max(0, s.start - 12):s.start]):
        return True  # "Son-in-law to bring walker from home"
    if w in ("ADA", "Ada") and _S18B_DIET_AFTER.match(text, s.end) is not None:
        return True  # "TOL 1/2 BREAKFAST (ADA 1800)": the diabetic diet
    if low in _S18B_ADJ_NAMES and _S18B_PT_BEFORE.search(text[max(0, s.start - 10):s.start]) \
            and _S18B_ABOUT_AFTER.match(text, s.end):
        return True  # "PT FRANK ABOUT WANTING TO GO HOME"
    if w.islower() and regex.match(r"[ \t]+\p{L}", text[s.end:s.end + 2]) and regex.search(
            rf"(?i)(?<![\p{{L}}]){regex.escape(w)}[ \t,]+(?:doctor|doc|nurse)[ \t,]+$", text[max(0, s.start - 30):s.start]):
        return True  # "i'm grand doctor grand apart from": the word said again after addressing the doctor
    return False


# everyday rooms of a hospital ("family lounge", "the waiting room"): no place that identifies
_S18B_ROOM_WORDS = frozenset("""family families patient patients parent parents visitor visitors staff waiting day quiet
tv sitting dining break consult consultation conference family's parents' lounge room area cafeteria lobby hallway
corridor chapel kitchen bathroom""".split())
_S18B_ROOM_HEADS = frozenset("lounge room area cafeteria lobby hallway corridor chapel kitchen bathroom".split())
# things said of a person's faith or hope ("got to have faith", "lost hope"), not their name
_S18B_VIRTUE_BEFORE = regex.compile(r"(?i)\b(?:have|has|had|keep|keeping|kept|lose|losing|lost|little|no|some|much|"
                                    r"of|strong|great|your|our|full[ \t]+of)[ \t]+$")
_S18B_VIRTUE_AFTER = regex.compile(r"(?i)[ \t]*(?:[,.;:!?]|$|(?:and|in|that|it|for|but|so|then|now)\b)",
                                   regex.MULTILINE)
_S18B_VIRTUES = frozenset({"faith", "hope", "patience", "charity", "grace", "joy", "mercy"})
# walking aids and other things a relative brings from home
_S18B_AIDS = frozenset({"walker", "cane", "wheelchair", "crutches", "commode", "rollator", "dentures", "glasses",
                        "scooter", "hearing aids", "cpap", "bipap"})
# a verb of bringing or using, or a determiner, before the aid ("to bring walker", "uses cane"; not "seen by walker")
_S18B_AID_BEFORE = regex.compile(r"(?i)\b(?:bring|brings|brought|bringing|use|uses|used|using|with|w/|needs?|his|"
                                 r"her|their|own|a|the|new|rolling|no)[ \t]+$")
# drug-eluting and bare-metal stents: "w/ des x2 to lad", "BMS TO RCA"
_S18B_STENT_AFTER = regex.compile(r"(?i)[ \t]*(?:x[ \t]*\d|\d[ \t]*x\b|stents?\b|to[ \t]+(?:the[ \t]+)?(?:lad|lcx|rca|om\d?|"
                                  r"d\d|diag|pda|ramus|lm|svg|left|right|prox|mid|distal)\b)")


def _s18b_not_a_place(text: str, s: Span) -> bool:
    """Tagger places that are rooms, stents or lab words (session 18, tune58)."""
    if source_family(s.source) != "tagger" or _category(s.label) != "LOCATION":
        return False
    w = text[s.start:s.end]
    words = w.casefold().split()
    if len(words) >= 2 and words[-1] in _S18B_ROOM_HEADS and all(x in _S18B_ROOM_WORDS for x in words):
        return True  # "dtr spent nite in family lounge"
    if w.casefold() in ("des", "bms") and _S18B_STENT_AFTER.match(text, s.end):
        return True  # "cath at mercy w/ des x2 to lad"
    if w.islower() and len(w) >= 7 and regex.fullmatch(r"\p{Ll}+(?:lyzed|lysed|ized|ised|ated)", w):
        return True  # "K 6.1 (hemolyzed?)": a lab word, not a place
    return False


def _s18b_not_a_date(text: str, s: Span) -> bool:
    """``husband: yes third we have two boys``: a bare ordinal answered, not a date."""
    return source_family(s.source) == "tagger" and _category(s.label) == "DATE" \
        and _S18B_ORDINAL_WORD.fullmatch(text[s.start:s.end]) is not None \
        and _S18B_ANSWER_BEFORE.search(text[max(0, s.start - 10):s.start]) is not None


class WeakWordFilter:
    """Drop the tagger's low-confidence one-word NAME/LOCATION guesses that are plain words.

    Spans under ``max_confidence`` come from the recall threshold (a token the Viterbi
    path left as O but whose PHI marginal passed it). When such a span is one word that
    the English word list or the medical vocabulary knows (``took``, ``lawyer``,
    ``urology``, ``anoxia``) and that no name list contains, it is dropped. Names that
    are also words (``Walker``, ``Rose``) stay, as do all confident spans. English only:
    the Spanish tagger runs without a recall threshold.
    """

    name = "weak_words"

    def __init__(self, lang: str = "en", max_confidence: float = 0.5):
        self.lang = lang
        self.max_confidence = max_confidence
        self._words: frozenset[str] | None = None
        self._names: frozenset[str] | None = None
        self._places: frozenset[str] = frozenset()
        self._all_names: frozenset[str] | None = None
        self._undoubled: frozenset[str] = frozenset()

    def load(self) -> None:
        """Nothing to do up front: the word lists load on the first weak span (keeps start-up fast)."""

    def _load_lists(self) -> None:
        """The word and name tables, built once per start-up (read from the derived-data cache)."""
        if self._words is not None:
            return
        t = _weak_tables()
        self._words, self._names, self._places = t["words"], t["names"], t["places"]
        self._all_names, self._undoubled = t["all_names"], t["undoubled"]

    def _split_word(self, text: str, s: Span) -> bool:
        """A lower-case one-word name that, joined to the word before or after it, makes a drug's name, exactly or
        within one typing slip (two for long ones): speech-to-text split the word (``met forman``, ``fura semide``)."""
        piece = text[s.start:s.end]
        if len(piece) < 3 or not piece.isalpha() or not piece.islower():
            return False
        prev = _SPLIT_PREV.search(text, max(0, s.start - 16), s.start)
        nxt = _SPLIT_NEXT.match(text, s.end, min(len(text), s.end + 16))
        if prev is None and nxt is None:
            return False
        for joined in (prev.group(1) + piece if prev else None, piece + nxt.group(1) if nxt else None):
            if joined is None or len(joined) < 6:
                continue
            if joined in _drug_names() or (len(joined) >= 8 and _near_drug(joined)):
                return True
        return False

    def _spanish_phrase(self, piece: str) -> bool:
        """A lower-case phrase of two or more words, at least half of them common Spanish words and one a Spanish
        function word, no word a listed name and the phrase no listed place (``que dios la bendiga``, ``el azucar``;
        not ``maria de la cruz``, ``el paso``)."""
        words = piece.split()
        if len(words) < 2 or not piece.islower():
            return False
        from .lexicon import one_word_place_names

        spanish = _spanish_words()
        if sum(w in spanish for w in words) * 2 < len(words) or not any(w in _SPANISH_FUNCTION for w in words):
            return False
        if words[0] in _SPANISH_OPENERS:
            return True  # "desde la cosecha de uva": a preposition or verb that opens no name
        self._load_lists()
        if any(w in self._all_name_set() for w in words if w not in spanish) or \
                any(w in _given_names_any() for w in words if w not in _SPANISH_FUNCTION):
            return False  # "maria de la cruz", "rosa de la luz": given names made of words are names
        places = _place_phrases()
        return piece not in places and not any(w in one_word_place_names() for w in words if w not in _SPANISH_FUNCTION)

    def _misspelt_word(self, text: str, s: Span) -> bool:
        """``Famliy``, ``Remians``, ``geltinous``, ``interpert``: one tagger word that no word or
        name list holds but that is one typing slip (two neighbouring letters swapped, one letter
        missing or one too many) from a dictionary word of five letters or more that is no name.

        The tagger's character features take such unknown spellings for names. Substitutions are
        not counted (``Lomish``/``lowish``: a surname), nor words with a title or relation word
        before, a credential after or a hyphen joining them to another word (``Stord-Painter MD``).
        A LOCATION must stand alone (``childrens mercy`` stays); in capitals only a swap counts
        (``BEDISDE``; ``Riverbend`` stays).
        """
        w = text[s.start:s.end]
        if not regex.fullmatch(r"\p{L}{5,}", w) or not w.isascii():
            return False
        if text[s.start - 1:s.start] == "-" or text[s.end:s.end + 1] == "-":
            return False
        if not self._span_free_of_name_cues(text, s):
            return False
        return self._slip_of_word(w, swap_only=_category(s.label) == "LOCATION" and not w.islower())

    def _span_free_of_name_cues(self, text: str, s: Span) -> bool:
        """No title or relation word before the span, no credential after it, no care role in apposition."""
        prev = regex.search(r"([\p{L}']+)\.?[ \t,]*$", text[max(0, s.start - 24):s.start])
        if prev and prev.group(1).casefold().removesuffix("'s") in _NAME_CUE_WORDS:
            return False
        if regex.match(r"[ \t,]*(?:MD|M\.D\.|RN|NP|PA|DO|RRT|PhD)\b", text[s.end:s.end + 8]):
            return False
        from .spoken import _STAFF_APPOS

        m = _STAFF_APPOS.match(text[s.start:s.end + 60].lower())
        if m is not None and m.end("n") == s.end - s.start:
            return False  # "i ask eilidh our district nurse": a care role in apposition names a person
        return True

    def _slip_of_word(self, w: str, swap_only: bool = False) -> bool:
        """``w`` is no listed word, name or one-word place, but one typing slip from a dictionary word of five
        letters or more that is no name: two neighbouring letters swapped, one letter missing or one too many,
        a double letter moved or lost, or (for words of seven letters or more) two inner letters missing
        (``inially``, ``anesthia``). With ``swap_only`` only a swap counts (``BEDISDE``; a place name in
        capitals one letter away from a word, ``RIVERBEND``, stays)."""
        self._load_lists()
        from .lexicon import norm, one_word_place_names

        n = norm(w)
        if n in self._words or n in self._all_name_set() or n in one_word_place_names():
            return False  # "harrogate" is a town, not a slip for "arrogate"
        split = [(n[:i], n[i:]) for i in range(len(n) + 1)]
        near = {a + b[1] + b[0] + b[2:] for a, b in split if len(b) > 1 and b[0] != b[1]}
        if not swap_only:
            near |= {a + b[1:] for a, b in split if b}
            near |= {a + c + b for a, b in split for c in "abcdefghijklmnopqrstuvwxyz"}
        if any(len(x) >= 5 and x in self._words and x not in self._all_names for x in near):
            return True
        if swap_only:
            return False
        if _undouble(n) in self._undoubled:
            return True  # "tommorow", "occured": a double letter moved or lost
        return len(n) >= 7 and _two_letters_missing(n)  # same first and last letter: "inially", not "marist"

    def _misspelt_phrase(self, text: str, s: Span) -> bool:
        """``COMANDS INCOSISTENLY``, ``transverse myelitis excacerbated``: a tagger span of two to four words,
        all in one case, each a dictionary word that is no name or a typing slip of one (``_slip_of_word``),
        at least one a slip; no title or relation word before, no credential after."""
        piece = text[s.start:s.end]
        words = piece.split()
        if not 2 <= len(words) <= 4 or not piece.isascii() or not (piece.islower() or piece.isupper()):
            return False
        if _category(s.label) != "NAME" and s.label not in ("LOCATION", "LOCATION_OTHER"):
            return False  # "medcare pharmacy", "bayou teche chemical": a named business keeps its odd spelling
        if not all(regex.fullmatch(r"\p{L}+", x) for x in words):
            return False
        if not self._span_free_of_name_cues(text, s):
            return False
        self._load_lists()
        from .lexicon import norm

        slips = 0
        for x in words:
            n = norm(x)
            if n in self._words and n not in self._all_names:
                continue
            if len(x) >= 5 and self._slip_of_word(x):
                slips += 1
                continue
            return False
        return slips > 0


    def _speech_artifact(self, text: str, s: Span) -> bool:
        """A name span that is a piece of speech, not a person: a contraction of a function word
        (``let's``, ``i'll``, ``you're``, ``they've``), a half of a tokenised contraction (``gon na``,
        ``wan na``, ``lem me``), a false start or a filler (``mel- um``), a dictionary word used as a verb
        before its object pronoun (``doctor gave me``, ``tell him``), a long derived word no name list
        holds (``multifactorial``, ``arthrogram``, ``telehealth``) or the DAX dictation assistant."""
        from .lexicon import norm

        piece = text[s.start:s.end]
        if _function_contraction(piece):
            return True
        low = piece.casefold()
        nxt = _SPLIT_CONTRACTION_TAIL.get(low)
        if nxt and regex.match(r"[ \t]+" + nxt + r"\b", text[s.end:s.end + 5]):
            return True
        toks = piece.split()
        if len(toks) > 1 and (any(t.casefold().strip(".,") in _FILLERS for t in toks)
                              or any(t.endswith("-") for t in toks)):
            return True
        if regex.fullmatch(r"\p{L}+", piece) and low in _SENTENCE_OPENERS \
                and regex.search(r"(?:^|[.?!])[ \t\n]*$", text[max(0, s.start - 3):s.start]):
            return True  # "Hi miss. How old are you?", "Good afternoon, doctor. My granddaughter": a new sentence
        if regex.fullmatch(r"\p{Ll}+", piece) and low in _VERBS_AFTER_DOCTOR \
                and regex.search(r"(?i)\b(?:doctor|dr\.?|doc|nurse|physician|surgeon|gp)[ \t]+$", text[max(0, s.start - 12):s.start]):
            return True  # "my old doctor knows", "this other doctor gave you injections": a verb after its subject
        if low in ("prov", "reg", "regn", "registration", "provider", "client") and regex.match(
                r"\.?[ \t]*(?:no\b|number\b|#|code\b|id\b)", text[s.end:s.end + 10], regex.IGNORECASE):
            return True  # "FRACGP, Prov. No. 2471836B", "OPD Reg. No.": the label of a number
        if low in _MODALS and regex.match(r"[ \t]+(?:he|she|it|i|you|we|they|that|this|there)\b", text[s.end:s.end + 6]):
            return True  # "Thank you, doctor. Will he be home for Eid?": a question, not Will
        if low == "dax" and piece in ("dax", "DAX"):
            return True  # "i'd like to tell dax a little bit about you": the ambient dictation assistant
        if regex.fullmatch(r"\p{Ll}{3,}", piece) and _OBJECT_PRONOUN_AFTER.match(text, s.end):
            self._load_lists()
            if norm(piece) in self._words:
                return True
        if regex.fullmatch(r"\p{Ll}{7,}", piece) and _DERIVED_WORD.search(low):
            self._load_lists()
            if norm(piece) not in self._all_names:
                return True
        return False

    def _all_name_set(self) -> frozenset[str]:
        self._load_lists()
        return self._all_names

    def _unknown_acronym(self, text: str, s: Span, mixed: list[bool]) -> bool:
        """``TW``, ``MICUA``, ``RISBE``: a 2-5 letter word in capitals in a mixed-case note, with no
        title before it, that no name list holds. In mixed-case notes names are written with
        capitals only when known surnames are set off (``Patricia WAITE``)."""
        w = text[s.start:s.end]
        if not (2 <= len(w) <= 5 and w.isalpha() and w.isupper()):
            return False
        if regex.search(r"(?i)\b(?:dr|drs|mr|mrs|ms|miss|prof|nurse)\.?[ \t]*$", text[max(0, s.start - 8):s.start]):
            return False
        if not mixed:
            from .lexicon import LexiconDetector

            mixed.append(LexiconDetector._case_mode(text) == "mixed")
        if not mixed[0]:
            return False
        from .lexicon import norm

        return norm(w) not in self._all_name_set()

    def describe(self) -> dict:
        return {"max_confidence": self.max_confidence}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        if self.lang != "en":
            return spans
        from .lexicon import norm

        text = document.text
        out = []
        mixed: list[bool] = []  # this note's case mode, computed on the first span in capitals
        from .protected import _listed_among_names

        listed = _listed_among_names(sorted(spans, key=lambda x: x.start), text, set())  # "tom, lily and ahmed"
        for s in spans:
            if source_family(s.source) in ("tagger", "lexicon") and (_s18b_not_a_name(text, s) or _s18b_not_a_date(text, s)
                                                                      or _s18b_not_a_place(text, s)):
                continue  # session 18: "papa is quiet", "(ADA 1800)", "yes third", "PT FRANK ABOUT", "grand doctor grand"
            if source_family(s.source) != "user" and _category(s.label) == "NAME" and _laterality_site(text, s):
                continue  # "VIA R FEM", "PICC L BASILIC": a side and a body site, not an initial and a surname
            if source_family(s.source) != "user" and _category(s.label) == "LOCATION" and _clock_time_place(text, s):
                continue  # "ARRIVED AT 1645", "AT 1300 W/ RT": a time of day, not a place
            if (source_family(s.source) == "tagger" and s.confidence < self.max_confidence
                    and _category(s.label) in ("NAME", "LOCATION") and (s.start, s.end) not in listed):
                w = text[s.start:s.end].strip()
                if regex.fullmatch(r"\p{L}+", w) and not (_category(s.label) == "LOCATION" and _place_after(text, s)):
                    self._load_lists()
                    n = norm(w)
                    if n in self._words and n not in self._names and not (
                            _category(s.label) == "NAME" and _titled_after_relation(text, s.start, w)):
                        continue
            if (source_family(s.source) == "tagger" and _category(s.label) == "LOCATION"
                    and regex.fullmatch(r"\p{Ll}+", text[s.start:s.end]) and not _place_after(text, s)
                    and not _BUSINESS_AFTER.match(text, s.end)
                    and not any(o is not s and (s.start - 2 <= o.end <= s.start or s.end <= o.start <= s.end + 2)
                                for o in spans)):  # a piece of a longer place ("franklin square hosp")
                # a lower-case everyday word guessed as a place at any confidence: "on the ward",
                # "stuck on the bridge", "pass on to chaplaincy"; lower-case town names are not words
                self._load_lists()
                n = norm(text[s.start:s.end])
                if n in self._words and (
                        n not in self._places or _ARTICLE_BEFORE.search(text[max(0, s.start - 12):s.start])):
                    continue
            if (source_family(s.source) == "tagger" and _category(s.label) == "LOCATION"
                    and all(w in _VAGUE_PLACE_WORDS or w in _VAGUE_FACILITY_WORDS
                            for w in text[s.start:s.end].casefold().split())
                    and any(w in _VAGUE_PLACE_WORDS for w in text[s.start:s.end].casefold().split())):
                # "admitted to local hospital", "to an outside hosp": no place is named (the tagger that
                # learnt whole entities gives the phrase as one span, the older one gave its words)
                continue
            if (source_family(s.source) == "tagger" and _category(s.label) in ("NAME", "LOCATION")
                    and not (_category(s.label) == "LOCATION" and any(
                        o is not s and (s.start - 2 <= o.end <= s.start or s.end <= o.start <= s.end + 2) for o in spans))
                    and (self._misspelt_word(text, s) or self._misspelt_phrase(text, s))):
                continue  # "Famliy is very involved", "brown geltinous": a misspelt word, not a person
            if (_category(s.label) in ("NAME", "LOCATION") and source_family(s.source) in ("tagger", "lexicon")
                    and text[s.start:s.end].strip().casefold() in _INTERJECTIONS):
                continue  # "doctor haha okay", "knock knock its faith", "ay doctor", "hola doctora": speech, not a person
            if (self.lang == "en" and _category(s.label) in ("NAME", "LOCATION") and source_family(s.source) == "tagger"
                    and self._spanish_phrase(text[s.start:s.end])):
                continue  # "she says gracias doctora que dios la bendiga": Spanish words in English speech
            if (_category(s.label) == "LOCATION" and source_family(s.source) in ("tagger", "lexicon", "pattern")
                    and _transfer_here(text, s.start, s.end)):
                continue  # "ST. MARGARET'S, TX HERE SAME DAY": transferred here
            if (source_family(s.source) == "tagger" and _category(s.label) in ("NAME", "LOCATION")
                    and regex.sub(r"[ \t-]+", "", text[s.start:s.end].casefold()) in _GROUP_KIN_WORDS):
                continue  # "Staying with inlaws": relatives, not a person or a place
            if (source_family(s.source) in ("tagger", "lexicon") and _not_phi_token(text, s)) or (
                    source_family(s.source) == "pattern" and _category(s.label) == "NAME" and _honorific(text, s)):
                continue  # "DOL 4", "SWAN #S Q4H", "Date: Sun, 22 Nov", "ADA diet", "Smt. Lalitha", "Dad's Medicare"
            if source_family(s.source) in ("tagger", "lexicon") and _not_phi_in_context(text, s):
                continue  # "3rd trop", "MELD 14", "RIB FX 4-7", "bleep 4412", "Modified Rankin", "cha2ds2", "40 min drive"
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) in ("NAME", "LOCATION")
                    and text[s.start:s.end].casefold() in _FAITH_WORDS):
                continue  # "she is adventist", "we have the puja on diwali": a faith or a rite, not a person or a place
            if source_family(s.source) in ("tagger", "lexicon") and _category(s.label) == "NAME" and self._split_word(text, s):
                continue  # "the met forman", "fura semide": a drug's name split apart by speech-to-text
            if _category(s.label) == "NAME" and source_family(s.source) in ("tagger", "lexicon"):
                w = text[s.start:s.end].strip().casefold()
                if regex.fullmatch(r"bill(?:[ \t]+no\.?)?", w) and _BILL_NUMBER.match(text, s.end, min(len(text), s.end + 40)):
                    continue  # "Bill No: OPB/26/118402": a bill number, not a person
                if _FRANK_MEDICAL.match(w) or (w == "frank" and _FRANK_MEDICAL.match(w + text[s.end:s.end + 20].casefold())):
                    continue  # "frank haematuria", "frank blood": obvious, not a person
                if w in _LANGUAGES and not _NAME_CUE_BEFORE.search(text[max(0, s.start - 16):s.start]):
                    continue  # "speaks Cantonese", "Mandarin interpreter": a language, not a person
                if w in _DEMONYMS and regex.match(r"[ \t]+\p{Ll}", text[s.end:s.end + 3]) \
                        and not _NAME_CUE_BEFORE.search(text[max(0, s.start - 16):s.start]):
                    continue  # "loves Irish dancing", "a Scottish accent": an adjective, not a person
                if w in _IMPERATIVES and regex.match(r"[ \t]+(?:as|it|this|that|these|the|for|down|urgent)\b",
                                                     text[s.end:s.end + 9]) \
                        and regex.search(r"(?:^|[.?!:;]|\n)[ \t\-*•]*$", text[max(0, s.start - 6):s.start]):
                    continue  # "Mark as urgent for Dr Pereira", "Bill it to": an instruction opening a sentence
                if w in _EQUIPMENT and (_EQUIPMENT_BEFORE.search(text[max(0, s.start - 24):s.start])
                                        or regex.match(r"[ \t]*/[ \t]*\p{L}", text[s.end:s.end + 4])):
                    continue  # "ambulated with walker", "WALKER/COMMODE ordered": equipment
            if (source_family(s.source) == "tagger" and _category(s.label) == "NAME"
                    and regex.fullmatch(r"\p{Ll}{3,}", text[s.start:s.end])
                    and not regex.search(r"(?i)\b(?:dr|mr|mrs|ms|miss|mister|nurse|named|called)\.?[ \t]*$",
                                         text[max(0, s.start - 10):s.start])):
                if not mixed:
                    from .lexicon import LexiconDetector

                    mixed.append(LexiconDetector._case_mode(text) == "mixed")
                if mixed[0]:
                    self._load_lists()
                    n = norm(text[s.start:s.end])
                    if n in self._words and n not in self._names:
                        continue  # "Is her POLST scanned": a lower-case word in a capitalised note is no name
            if (source_family(s.source) == "tagger" and _category(s.label) in ("NAME", "LOCATION")
                    and regex.fullmatch(r"\p{Ll}{4,}", text[s.start:s.end])
                    and _CONDITION_SLOT.search(text[max(0, s.start - 24):s.start])):
                self._load_lists()
                if norm(text[s.start:s.end]) not in self._places and norm(text[s.start:s.end]) not in self._names:
                    continue  # "anaemia secondary to menorrhagia": a condition, not a place
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) == "NAME"
                    and _verb_or_noun_use(text, s)):
                self._load_lists()
                if norm(text[s.start:s.end]) in self._words:
                    continue
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) in ("NAME", "DATE", "LOCATION")
                    and text[s.start:s.end].casefold() in _BARE_CONTRACTIONS
                    and (_category(s.label) != "LOCATION" or text[s.start:s.end].casefold() not in _CONTRACTION_NOUNS)):
                continue  # speech-to-text "thats", "youre", "dont": contractions without the apostrophe
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) == "LOCATION"
                    and regex.search(r"(?i)\b(?:allergic|allergy|allergies|intolerant|intolerance|reaction|sensitive|"
                                     r"sensitivity)[ \t]+(?:to|of)[ \t]+$", text[max(0, s.start - 24):s.start])):
                continue  # "i am allergic to sulphur": a substance, not Sulphur (Louisiana)
            if (source_family(s.source) == "tagger" and _category(s.label) in ("NAME", "LOCATION")
                    and text[s.start:s.end].casefold() in _PROGRAM_NAMES):
                continue  # "(OHIP 5584-217-903-KT)", "on Medicaid": a public health programme, not a place or a person
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) == "NAME"
                    and self._speech_artifact(text, s)):
                continue  # "[doctor] let's", "i'm gon na", "mel- um", "doctor gave me", "multifactorial", "dax"
            if regex.fullmatch(r"[ \t]*['’]?[sS]?[ \t]*", text[s.start:s.end]) and source_family(s.source) != "user":
                continue  # "Mr Raghunathan['s] clinic": a possessive ending alone names nothing
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) in ("NAME", "LOCATION")
                    and (_greeting(text[s.start:s.end])
                         or _greeting(text[s.start:s.end] + " " + text[s.end:s.end + 24].split(maxsplit=1)[0]
                                      if text[s.end:s.end + 24].strip() else ""))):
                continue  # "kia ora", "G'day", "Wa alaikum": a greeting, not a person or a place
            if (source_family(s.source) == "tagger" and _category(s.label) in ("NAME", "LOCATION")
                    and regex.fullmatch(r"\p{Ll}+(?:[ \t]+\p{Ll}+){1,2}", text[s.start:s.end])
                    and text[s.start:s.end].split()[0] in _BARE_CONTRACTIONS):
                self._load_lists()
                rest = text[s.start:s.end].split()[1:]
                if all(norm(w) in self._words and norm(w) not in self._names for w in rest):
                    continue  # "whos covering 5 north": a clause, not a place (but "im hector": a name after "im")
            if (_category(s.label) == "LOCATION" and source_family(s.source) in ("tagger", "lexicon")
                    and text[s.start:s.end].casefold().rstrip(".") in ("hosp", "hospital", "unit", "ward", "clinic")
                    and regex.match(r"(?i)\.?[ \t]*(?:no\b|#|number\b|num\b|id\b)", text[s.end:s.end + 8])):
                continue  # "Hosp no: K0048213": the label of a record number, not a place
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) in ("NAME", "LOCATION")
                    and _only_job_title(text[s.start:s.end])):
                continue  # "Consultant Paediatrician", "Senior Medical Officer": a job title under a signature
            if (source_family(s.source) == "tagger" and _category(s.label) in ("NAME", "LOCATION")
                    and regex.fullmatch(r"\p{Lu}{2,6}-?\d{1,3}[a-z]?", text[s.start:s.end])):
                continue  # "(DAS28 4.1 today)", "PHQ9", "CD4": a score or a marker, not a place
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) == "NAME"
                    and (_PET_BEFORE.search(text, max(0, s.start - 24), s.start)
                         or text[s.start:s.end].casefold() in _PET_WORDS)):
                continue  # "Family dog Bruno", "guinea pig Churro", "Kelpie called Dusty": pets are no PHI
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) == "LOCATION"
                    and text[s.start:s.end].casefold() in _LANGUAGES
                    and regex.search(r"(?i)\b(?:english|language|languages|translated|translation|interpreter|speaks?|"
                                     r"written|spoken|leaflet|sheet|version|handouts?|pamphlets?|brochures?|"
                                     r"materials?|instructions|info|information|subtitles?)\b",
                                     text[max(0, s.start - 40):min(len(text), s.end + 40)])):
                continue  # "activation sheet given in Kannada and English": a language, not a place
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) in ("NAME", "LOCATION")
                    and _only_credentials(text[s.start:s.end], s.label)):
                continue  # "Hélène Bergeron, MD FRCPC", "Dr Breathnach, GP, Slane": letters after a name, no place
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) in ("NAME", "LOCATION")
                    and text[s.start:s.end].casefold() in ("grand", "great", "step", "god")
                    and regex.match(r"(?i)[ \t-]*(?:-?grand[ \t-]*)?(?:daughters?|sons?|child|children|kids?|mother|father|"
                                    r"ma|pa|parents?|nieces?|nephews?|aunt|uncle|dad|mom|mum)\b", text[s.end:s.end + 20])):
                continue  # "GRAND DAUGHTER AND HUSBAND", "great grandson": a relation word in two pieces
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) == "NAME"
                    and regex.fullmatch(r"\p{Lu}{2,4}s", text[s.start:s.end])):
                continue  # "LEs anasarcic", "ABGs": the plural of an acronym
            if (source_family(s.source) == "tagger" and _category(s.label) == "NAME"
                    and regex.fullmatch(r"(?i)[a-z]{0,4}(?:icu|ccu|hdu|pacu)", text[s.start:s.end])
                    and text[s.start:s.end].isupper()):
                continue  # "SEEN BY NSICU TEAM": a unit, not a person
            if (source_family(s.source) == "tagger" and _category(s.label) == "NAME"
                    and self._unknown_acronym(text, s, mixed)):
                continue  # "TW inversions", "note for MICUA": capitals in mixed-case text, on no name list
            if (source_family(s.source) == "tagger" and _category(s.label) == "NAME"
                    and text[s.start:s.end].casefold().rstrip(".") in _ROLE_ABBREVIATIONS
                    and not regex.search(r"(?i)\b(?:dr|mr|mrs|ms|miss)\.?[ \t]*$", text[max(0, s.start - 6):s.start])):
                continue  # "assessed by rrt, rn and md", "Dorothy Joy, MSW", "Dgtr. here": a role, not a name
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) == "NAME"
                    and _turn_opening_word(text, s)):
                self._load_lists()
                n = norm(text[s.start:s.end])
                if n in self._words and n not in self._names:
                    continue
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) == "NAME"
                    and _SPECIALTY_ADJECTIVE.fullmatch(text[s.start:s.end])
                    and _CLINICIAN_NOUN_AFTER.match(text, s.end)):
                continue  # "Consultant Orthopaedic Surgeon": a specialty, not a name
            if (source_family(s.source) == "tagger" and _category(s.label) in ("NAME", "LOCATION", "DATE")
                    and text[s.start:s.end] in ("MAR", "eMAR", "MARs")):
                continue  # "isn't on the MAR": the medication administration record
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) in ("LOCATION", "NAME")
                    and text[s.start:s.end].casefold().rstrip(".") in ("ext", "extn", "x")
                    and regex.match(r"[ \t]*\d", text[s.end:s.end + 3])):
                continue  # "chaplain ext 2204": an extension
            if (source_family(s.source) == "tagger" and _category(s.label) == "DATE"
                    and regex.fullmatch(r"(?i)\d{1,2}[ \t]*(?:years?|months?|weeks?|days?|yrs?|mos?|wks?)",
                                        text[s.start:s.end])
                    and regex.search(r"(?i)\b(?:in|for|over|within|after|every|about|x)[ \t]+$",
                                     text[max(0, s.start - 8):s.start])):
                continue  # "Next well visit in 1 year": a duration
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) == "NAME"
                    and text[s.start:s.end].casefold() in _KIN_WORDS
                    and regex.search(r"(?i)\b(?:his|her|my|your|their|our|the)[ \t]+$", text[max(0, s.start - 8):s.start])):
                continue  # "I'm his nan, Aroha": the relation, not the name
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) in ("NAME", "LOCATION")
                    and text[s.start:s.end].casefold().rstrip(".") in _TITLE_ONLY
                    and regex.match(r"\.?[ \t]+\p{Lu}", text[s.end:s.end + 4])):
                continue  # "Attends mass; [Fr] Tom Keaveney": a title before a name is not part of it
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) in ("NAME", "LOCATION")
                    and (regex.fullmatch(r"(?i)(?:st\.?|saint)[ \t]+john['’]?s[ \t]+wort", text[s.start:s.end])
                         or (text[s.start:s.end].casefold() == "mary"
                             and regex.search(r"(?i)\bhail[ \t]+$", text[max(0, s.start - 6):s.start])))):
                continue  # "takes st johns wort" (a herb), "the whole hail mary" (a prayer)
            if (source_family(s.source) in ("tagger", "lexicon") and _category(s.label) == "NAME"
                    and text[s.start:s.end].casefold() == "grace"
                    and (regex.search(r"(?i)\b(?:god['’]?s|by[ \t]+the|saving|state[ \t]+of)[ \t]+$",
                                      text[max(0, s.start - 12):s.start])
                         or regex.match(r"(?i)[ \t]+(?:period|periods|days?)\b", text[s.end:s.end + 10]))):
                continue  # "by gods grace", "a 30-day grace period": the word, not the name
            if (source_family(s.source) == "tagger" and _category(s.label) == "DATE"
                    and regex.fullmatch(r"\d{1,2}", text[s.start:s.end]) and int(text[s.start:s.end]) <= 12
                    and regex.search(r"(?i)\b(?:til|till|until)[ \t]+$", text[max(0, s.start - 8):s.start])):
                continue  # "at bedside til 5": a clock time
            if (source_family(s.source) == "tagger" and _category(s.label) == "DATE"
                    and regex.fullmatch(r"\d{1,3}(?:\.\d+)?", text[s.start:s.end])
                    and regex.search(r"(?i)(?:\b(?:under|over|above|below|less[ \t]+than|more[ \t]+than|greater[ \t]+than|"
                                     r"at[ \t]+least|at[ \t]+most)|[<>≤≥]=?)[ \t]*$", text[max(0, s.start - 14):s.start])):
                continue  # "flag any egfr under 30": a threshold, not a date
            if (source_family(s.source) == "tagger" and _category(s.label) == "LOCATION"
                    and text[s.start:s.end].casefold() in _ROOM_WORDS
                    and regex.match(r"[ \t]+(?:\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
                                    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty)\b)",
                                    text[s.end:s.end + 12], regex.IGNORECASE)):
                continue  # "youre in bay four": the room word; the number is the room
            if (source_family(s.source) in ("tagger", "pattern") and _category(s.label) in ("NAME", "LOCATION")
                    and " " in text[s.start:s.end].strip()):
                cut = _trailing_contraction(text, s)
                if cut is not None:
                    s = cut  # "leith links medical practice [youre] speaking to": the clause after the name
            out.append(s)
        return out


# credentials and the nurses' abbreviations for relatives: never a name on their own
_ROLE_ABBREVIATIONS = frozenset("""md rn np pa rrt lpn msw lcsw licsw pharmd rph crnp cnm crna aprn bsn phd dds dpm
facc facs pa-c ot pt slp cna emt ems dgtr dtr dau husb hsb bro sis gf bf
rabbi priest chaplain pastor imam deacon reverend rev minister
vvi ddd aai vdd ddi doo voo hoh dnr dni cmo nad""".split())


# post-nominal letters and roles written after a clinician's name; the first set is never a place or a person
_CREDENTIALS_ONLY = frozenset("""diplomate npi absm abim abfm abpn abp faap facp facc facs facog faafp cwocn cwon cwcn ccrn cdce cde
mdcn cpso cpsm cpsbc cpsa cpss cpsns cpsnb cpsnl cmq mcnz mcrn nmbi hpcsa gphc gmc imc nmc ahpra hcpc mb bch bao bchir bds mch mmed mrcpi frcpc frcp frcs frcsc frcsi fracp fracs fracgp mrcgp mrcp mrcpch mrcs frcpi mrcpi
frcog mrcog facp facs facc faap fccp mbbs mbchb mbbch bchir micgp frcgp ccfp fcfp dch drcog dfsrh gp rgn rmn rsci
mph msc bsc phd pharmd dnp fnp anp crnp aprn lcsw licsw msw rrt lpn cnm crna bsn dpt otr slp ccc-slp psyd""".split())
# letters that are also US state abbreviations (MD, PA, DE, CO ...): a credential only beside one of the above
_CREDENTIALS_AMBIGUOUS = frozenset("md do pa rn np ma ms ot pt dc od rd".split())


# body sites after a side ("R FEM", "L BASILIC", "RIGHT IJ"): lines, sheaths and access points in nursing notes
_BODY_SITES = frozenset("""fem femoral basilic cephalic brachial radial ulnar subclavian subclav sc ij ej jugular groin
antecubital ac forearm wrist hand arm leg foot thigh chest lung lungs base bases hip knee shoulder flank pleural pedal
dp pt ankle heel calf elbow breast eye ear nare naris neck scalp temporal fa sheath aline a-line picc cvl tlc ivc
tka tha tkr thr bka aka orif fx""".split())
_LATERAL = regex.compile(r"(?i)(?:l|r|lt|rt|left|right)\.?[ \t]+(?P<w>[\p{L}-]+)")


def _laterality_site(text: str, s: Span) -> bool:
    m = _LATERAL.fullmatch(text[s.start:s.end])
    return m is not None and m.group("w").casefold() in _BODY_SITES


# a clock time (hhmm) after a time word, alone or with a trailing "W/ ..." note: "AT 1645", "AT 1300 W/ RT"
_CLOCK_PLACE = regex.compile(r"(?P<t>(?:[01]\d|2[0-3])[0-5]\d|12[ \t]?[nN])(?:[ \t]+W/.*)?")  # "at 12n": noon
_AT_BEFORE = regex.compile(r"(?i)(?:\b(?:at|by|until|since|from|after|before|(?:back[ \t]+)?to[ \t]+bed)|@)[ \t]*$")


_GROUP_KIN_WORDS = frozenset({"inlaws", "inlaw", "grandkids", "stepkids", "grandchildren", "greatgrandchildren"})
# session 16: tokens the tagger or a name list takes for PHI that never are
_DAY_COUNT_BEFORE = regex.compile(r"(?i)\b(?:dol|pod|hd|hosp(?:ital)?[ \t]+day|day[ \t]+of[ \t]+life|post[- ]?op[ \t]+day)"
                                  r"[ \t#:]*$")
_DAY_ABBREVIATIONS = frozenset({"mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"})
_NAME_TITLES_OTHER = frozenset({"smt", "shri", "sri", "shrimati", "kumari", "km"})
_INSURANCE_PROGRAMS = frozenset({"medicare", "medicaid", "medigap", "medi-cal", "tricare", "masshealth",
                                 "champva", "medicare's", "medicaid's"})


def _not_phi_token(text: str, s: Span) -> bool:
    """A tagger or name-list span that is no identifier whatever the model thinks: a day count after DOL/POD/HD
    (``DOL 4``), a dosing frequency (``Q4H``, ``q6``), a weekday abbreviation opening a date (``Sun, 22 Nov``), a
    name before ``diet`` (``ADA diet``, ``Atkins diet``), an Indian honorific (``Smt.``, ``Shri``) and the name
    of a public insurance programme (``Medicare``)."""
    piece = text[s.start:s.end]
    low = piece.casefold().strip()
    cat = _category(s.label)
    if regex.fullmatch(r"\d{1,3}", piece) and cat in ("LOCATION", "ID", "DATE", "CONTACT") \
            and _DAY_COUNT_BEFORE.search(text[max(0, s.start - 24):s.start]):
        return True
    if regex.fullmatch(r"(?i)q\d{1,2}(?:h|hr|hrs|min)", piece) or (regex.fullmatch(r"(?i)q\d{1,2}", piece) and (
            regex.match(r"(?i)(?:h|hr|hrs|hours?|min)\b", text[s.end:s.end + 6]) is not None)):
        return True
    if cat != "NAME":
        return False
    if low in _DAY_ABBREVIATIONS and regex.match(r"\.?,?[ \t]+\d{1,2}(?:st|nd|rd|th)?[ \t]+\p{L}{3}", text[s.end:s.end + 12]):
        return True
    if regex.match(r"[ \t]+diets?\b", text[s.end:s.end + 7], regex.IGNORECASE) and not regex.search(
            r"(?i)\b(?:dr|mr|mrs|ms|miss)\.?[ \t]*$", text[max(0, s.start - 6):s.start]):
        return True
    if _honorific(text, s):
        return True
    return low in _INSURANCE_PROGRAMS and piece[:1].isupper()


_ORDINAL_NOUN_AFTER = regex.compile(r"(?i)[ \t]+(?:trop\w*|set|sets|dose|doses|degree|percentile|pct|centile|grade|"
                                    r"time|times|attempt|attempts|cycle|line|floor|round|episode|visit|trimester|toe|"
                                    r"finger|rib|ribs|ics|intercostal|cranial|nerve|tier|generation|place|opinion|"
                                    r"shift|call|page|unit|bolus|liter|litre|bag|ampule|amp|gen)\b")
_SCORE_NAME_BEFORE = regex.compile(r"(?i)\b(?:meld(?:-na)?|gcs|apache(?:[ \t]+ii)?|sofa|nihss|curb-?65|wells|cha2ds2-?vasc|"
                                   r"has-?bled|timi|grace|heart|child-?pugh|rass|cam-?icu|ciwa|cows|braden|morse|"
                                   r"mallampati|asa|ecog|kps|mrs|rankin|phq-?\d|gad-?\d|mmse|moca|audit|apgars?)"
                                   r"[ \t:=]*(?:score[ \t:=]*|of[ \t]+|was[ \t]+|is[ \t]+)?$")
_RIB_LEVEL_BEFORE = regex.compile(r"(?i)\b(?:ribs?|rib[ \t]+fx|rib[ \t]+fractures?|fx[ \t]+ribs?|levels?|vertebrae|"
                                  r"[ctls][ \t]*-?spine)[ \t:]*$")
_PAGER_BEFORE = regex.compile(r"(?i)\b(?:bleep|pager|beeper|page|pgr|bleeper)[ \t#:.]*(?:no\.?[ \t]*)?$")


def _not_phi_in_context(text: str, s: Span) -> bool:
    """Session 16 (tune53/tune54): a tagger or name-list span that its neighbours show is no identifier: an ordinal
    before a count noun (``3rd trop``, ``2nd dose``, ``95th pct``), a number after a score's name (``MELD 14``), a
    rib or vertebral range (``RIB FX 4-7``), an internal pager (``bleep 4412``), an eponym after ``modified``
    (``Modified Rankin``), a name glued to digits (``cha2ds2``), a travel time (``40 min drive``)."""
    piece = text[s.start:s.end]
    cat = _category(s.label)
    before = text[max(0, s.start - 24):s.start]
    if cat == "DATE" and regex.fullmatch(r"(?i)\d{1,3}(?:st|nd|rd|th)", piece) and _ORDINAL_NOUN_AFTER.match(text, s.end):
        return True
    if cat in ("DATE", "ID", "CONTACT", "LOCATION") and regex.fullmatch(r"\d{1,3}(?:\.\d)?", piece) \
            and _SCORE_NAME_BEFORE.search(before):
        return True
    if cat == "DATE" and regex.fullmatch(r"\d{1,2}[ \t]*[-–][ \t]*\d{1,2}", piece) and _RIB_LEVEL_BEFORE.search(before):
        return True
    if cat in ("ID", "CONTACT") and regex.fullmatch(r"\d{3,5}", piece) and _PAGER_BEFORE.search(before):
        return True
    if cat == "NAME" and regex.search(r"(?i)\bmodified[ \t]+$", before):
        return True
    if cat == "NAME" and regex.match(r"\d", text[s.end:s.end + 1]) and regex.fullmatch(r"\p{L}{2,5}", piece):
        return True
    if cat == "LOCATION" and regex.fullmatch(r"(?i)(?:\d{1,3}[ \t]*)?min(?:ute)?s?[ \t]+(?:drive|walk|ride)", piece):
        return True
    if cat in ("ID", "OTHER", "CONTACT") and _LAB_VALUE.match(piece):
        return True  # "mrn 00482917 k 6.1 hemolyzed": a lab value, not a number of a record
    if cat == "DATE" and _SPELLED_DURATION.fullmatch(piece) and regex.match(
            r"(?i)[ \t]+(?:years?|yrs?|months?|weeks?|days?)\b(?![ \t]+old\b)", text[s.end:s.end + 16]):
        return True  # "pipefitter twenty six years": a duration
    # session 17 (tune56/tune57)
    if cat in ("LOCATION", "NAME") and (_GRADED_SCALE.fullmatch(piece) or (
            _GRADED_SCALE_SAH.fullmatch(piece) and _SAH_CONTEXT.search(text[max(0, s.start - 60):s.start]))):
        return True  # "HUNT-HESS 3", "FISHER 3" after SAH, "Mallampati 2": a graded scale, not a place or a person
    if cat in ("LOCATION", "NAME") and (piece.casefold() in _GENERIC_SERVICES or (
            piece.casefold() == "gen" and regex.match(r"(?i)[ \t]+(?:med|surg|peds|paeds|medicine|surgery)\b", text[s.end:s.end + 12]))):
        return True  # "Ward 7C (Gen Med)": a service
    if cat == "DATE" and regex.fullmatch(r"\d{1,2}(?:st|nd|rd|th)", piece) and regex.match(r"[ \t]*\)", text[s.end:s.end + 3]) \
            and regex.search(r"(?i)(?:\(\d{1,2}(?:st|nd|rd|th)?[ \t]*[-–][ \t]*|(?:cm|mm|kg|g|lbs?|oz)[ \t]*\()$", before):
        return True  # "HC 46.8 cm (50-75th)": a centile
    if cat == "DATE" and _drug_dose(text, s, piece):
        return True  # "hydrocortisone 15/5": a split dose
    return False


_GRADED_SCALE = regex.compile(r"(?i)(?:modified[ \t]+)?(?:(?:hunt[ \t]*[-/][ \t]*hess|hunt[ \t]+(?:and|&)[ \t]+hess|wfns|"
                              r"spetzler[ \t]*-?[ \t]*martin|salter[ \t]*-?[ \t]*harris|nyha)"
                              r"(?:[ \t]+(?:grade|class|stage|score|type))?(?:[ \t:]*(?:[0-9]|i{1,3}|iv|v)[a-c]?)?"
                              r"|(?:mallampati|gleason|killip|tanner|hinchey|gustilo|schatzker|bosniak)"
                              r"(?:[ \t]+(?:grade|class|stage|score|type))?[ \t:]*(?:[0-9](?:[ \t]*\+[ \t]*[0-9])?|i{1,3}|iv|v)[a-c]?)")
_GRADED_SCALE_SAH = regex.compile(r"(?i)(?:modified[ \t]+)?fisher(?:[ \t]+(?:grade|scale|score))?[ \t:]*[0-4]")
_SAH_CONTEXT = regex.compile(r"(?i)\b(?:sah|subarachnoid|hunt[ \t-]*(?:and[ \t]+|&[ \t]*)?hess|wfns|aneurysm\w*)\b")
_GENERIC_SERVICES = frozenset({"gen med", "gen surg", "gen peds", "gen paeds", "gen medicine", "med surg", "med-surg",
                               "medsurg", "acute med", "gen surgery", "general med", "gim"})


# faiths, their members and rites, said alone (not "First Baptist Church", a named place)
_FAITH_WORDS = frozenset("""adventist adventists baptist baptists methodist methodists catholic catholics lutheran
lutherans pentecostal pentecostals presbyterian presbyterians mormon mormons muslim muslims hindu hindus sikh sikhs
jewish buddhist buddhists evangelical evangelicals anglican anglicans episcopalian episcopalians quaker quakers
amish mennonite mennonites jain jains parsi zoroastrian rastafarian rasta puja pooja novena shabbat iftar seder
rosary""".split())
_SPLIT_PREV = regex.compile(r"(?<![\p{L}'’-])(\p{Ll}{2,}) $")
_SPLIT_NEXT = regex.compile(r" (\p{Ll}{2,})(?![\p{L}'’-])")


@lru_cache(maxsize=1)
def _drugs_by_prefix() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for w in _drug_names():
        if len(w) >= 7 and w.isalpha():
            out.setdefault(w[:2], []).append(w)
    return {k: tuple(v) for k, v in out.items()}


def _near_drug(word: str) -> bool:
    """A drug's name within one edit (two for words of 11 letters or more), same first two letters."""
    from rapidfuzz.distance import Levenshtein

    k = 1 if len(word) < 11 else 2
    return any(abs(len(d) - len(word)) <= k and Levenshtein.distance(word, d, score_cutoff=k) <= k
               for d in _drugs_by_prefix().get(word[:2], ()))


@lru_cache(maxsize=1)
def _drug_names() -> frozenset[str]:
    from ..lexicons import load_lexicon

    return frozenset(w.casefold() for w in load_lexicon("drugs"))


def _drug_dose(text: str, s: Span, piece: str) -> bool:
    """``hydrocortisone 15/5``: two numbers after a drug's name that no month/day reading allows are a split dose."""
    m = regex.fullmatch(r"(\d{1,3})/(\d{1,3})", piece)
    if not m or (1 <= int(m.group(1)) <= 12 and 1 <= int(m.group(2)) <= 31):
        return False
    w = regex.search(r"(\p{L}[\p{L}-]{3,})[ \t]+$", text[max(0, s.start - 30):s.start])
    return bool(w and w.group(1).casefold() in _drug_names())


_LAB_VALUE = regex.compile(r"(?i)(?:k|na|cl|mg|ca|phos|hgb|hb|hct|wbc|plt|cr|creat|bun|glu|gluc|inr|ptt|lactate|trop|"
                           r"tsh|a1c|alb|ast|alt|co2|hco3|ph)[ \t:=]*\d{1,4}(?:\.\d+)?(?![\d/-])")
_SPELLED_DURATION = regex.compile(r"(?i)(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|"
                                  r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[ \t-]+(?:one|two|three|"
                                  r"four|five|six|seven|eight|nine))?)")


def _honorific(text: str, s: Span) -> bool:
    """``wife Smt. Lalitha``: the honorific before a name, not the name."""
    return text[s.start:s.end].casefold().strip().rstrip(".") in _NAME_TITLES_OTHER and \
        regex.match(r"\.?[ \t]+\p{Lu}", text[s.end:s.end + 4]) is not None


def _clock_time_place(text: str, s: Span) -> bool:
    piece = text[s.start:s.end]
    return s.label not in ("ZIP", "STREET") or "W/" in piece.upper() or piece[:2] == "12" and piece[-1:] in "nN" \
        if _CLOCK_PLACE.fullmatch(piece) and _AT_BEFORE.search(text[max(0, s.start - 10):s.start]) else False


def _only_credentials(piece: str, label: str) -> bool:
    words = [w.casefold().strip(".") for w in regex.split(r"[\s,/]+", piece) if w.strip(".")]
    if len(words) == 1 and piece.islower():
        return False  # "my son bao": post-nominal letters are written in capitals; one lower-case word is a name
    if not words or not all(w in _CREDENTIALS_ONLY or w in _CREDENTIALS_AMBIGUOUS for w in words):
        return False
    return any(w in _CREDENTIALS_ONLY for w in words)  # "MD" alone: the role-abbreviation rule (titles kept)


# a word right before a name that makes it one whatever its spelling ("Dr. Remians", "wife Famliy")
_NAME_CUE_WORDS = frozenset("""dr drs doctor mr mrs ms miss mister prof nurse wife husband son daughter mother father
sister brother mom mum dad aunt uncle niece nephew cousin grandson granddaughter grandmother grandfather partner
friend neighbor neighbour fiance fiancee boyfriend girlfriend named called by per""".split())


_RELATION_BEFORE = regex.compile(r"(?i)\b(?:dr|mr|mrs|ms|miss|mister|prof|wife|husband|son|daughter|mother|father|"
                                 r"sister|brother|mom|mum|dad|aunt|auntie|uncle|niece|nephew|cousin|grandson|"
                                 r"granddaughter|grandmother|grandfather|partner|friend|neighbou?r|fianc[eé]e?|"
                                 r"boyfriend|girlfriend|stepson|stepdaughter|carer|caregiver)\.?[ \t]+$")


def _titled_after_relation(text: str, start: int, word: str) -> bool:
    """``Came with his wife Mere,``: a capitalised word right after a relation word or a title, in a
    note written in mixed case, names the person even when it is also a dictionary word."""
    if not (word[:1].isupper() and word[1:].islower()):
        return False
    if _RELATION_BEFORE.search(text, max(0, start - 16), start) is None:
        return False
    from .textstats import count_alpha_upper

    window = text[max(0, start - 300):start + 300]
    letters, upper = count_alpha_upper(window)
    return 0 < upper < 0.5 * letters


_VAGUE_PLACE_WORDS = frozenset({"local", "nearby", "another", "other", "outside", "same", "different",
                                "previous", "former", "new", "home", "rehab", "hospital"})
# generic facility words that may follow a vague word in a span that still names no place ("outside hosp")
_VAGUE_FACILITY_WORDS = frozenset({"hosp", "hospitals", "facility", "clinic", "center", "centre", "er", "ed",
                                   "nursing", "care", "unit", "the", "an", "a"})


# languages and the equipment words that are also surnames (our own lists, Apache-2.0)
_LANGUAGES = frozenset("""
english spanish cantonese mandarin chinese vietnamese korean japanese tagalog russian ukrainian polish kannada
malayalam marathi kannadiga igbo yoruba hausa twi patois maori samoan tongan fijian konkani sinhala sinhalese
portuguese creole haitian french german italian greek arabic farsi persian dari pashto urdu hindi punjabi
bengali gujarati tamil telugu somali amharic tigrinya swahili hmong khmer lao thai burmese nepali turkish
armenian albanian bosnian serbian croatian romanian hungarian czech hebrew yiddish asl eng engl
hokkien teochew hakka shanghainese taishanese toisanese fuzhounese ilocano ilokano cebuano visayan bisaya ilonggo
hiligaynon kapampangan waray malay bahasa indonesian javanese kurdish kurmanji sorani uzbek kazakh tajik georgian
azerbaijani azeri wolof fula fulani pulaar mandinka bambara lingala kinyarwanda kirundi luganda xhosa afrikaans
sesotho setswana ndebele chichewa nyanja oromo oromifa quechua aymara guarani nahuatl mixteco mixtec zapotec
kiche k'iche q'anjob'al triqui chuukese marshallese palauan chamorro hawaiian bislama gaelic
basque galician flemish swedish norwegian danish icelandic finnish estonian latvian lithuanian slovak
slovenian macedonian bulgarian belarusian mongolian tibetan uyghur rohingya oriya odia assamese sindhi saraiki
balochi dhivehi cree ojibwe navajo lakota inuktitut yupik krio pidgin
""".split())
_DEMONYMS = frozenset("""
irish scottish welsh british english american canadian mexican australian french german italian spanish
polish dutch swedish danish norwegian finnish russian ukrainian greek turkish chinese japanese korean indian
pakistani nigerian ghanaian kenyan somali ethiopian jamaican cuban brazilian filipino vietnamese thai
portuguese lebanese syrian iranian afghan egyptian moroccan african asian european caribbean latino latina
hispanic celtic gaelic nordic
""".split())
_PET_WORDS = frozenset("""dog dogs cat cats puppy kitten pet pets kelpie beagle labrador collie terrier spaniel poodle
retriever shepherd husky dachshund chihuahua pug boxer greyhound whippet lurcher budgie parrot hamster rabbit
gerbil tortoise""".split())
_PET_BEFORE = regex.compile(r"(?i)\b(?:dog|dogs|cat|cats|puppy|kitten|pet|guinea[ \t]+pig|rabbit|hamster|budgie|parrot|"
                            r"horse|pony|tortoise|kelpie|beagle|labrador|lab|collie|terrier|spaniel|poodle|retriever|"
                            r"shepherd|husky|dachshund|chihuahua|pug|greyhound|whippet|lurcher)[ \t,]+"
                            r"(?:(?:called|named|is|was)[ \t]+)?$")
_IMPERATIVES = frozenset({"mark", "flag", "bill", "note", "chase", "book", "file", "forward", "copy", "page"})
# a lower-case word in these slots names a condition ("secondary to menorrhagia", "c/w cellulitis")
_CONDITION_SLOT = regex.compile(r"(?i)\b(?:secondary\s+to|due\s+to|consistent\s+with|suggestive\s+of|c/w|r/o|"
                                r"admitted\s+(?:with|for)|presented\s+with|presenting\s+with|complaining\s+of|c/o|"
                                r"found\s+to\s+have|h/o|s/p|episode\s+of|episodes\s+of|"
                                r"rule\s+out|history\s+of|hx\s+of|diagnosis\s+of|diagnosed\s+with|treated\s+for|"
                                r"signs\s+of|symptoms\s+of|presumed|likely|possible|probable|query|(?<![\p{L}\p{N})])\?)[ \t]+$")
_NAME_CUE_BEFORE = regex.compile(r"(?i)\b(?:mr|mrs|ms|miss|dr|named|name is|called)\.?[ \t]+$")
_EQUIPMENT = frozenset({"walker", "cane", "crutch", "crutches", "commode", "brace"})
_EQUIPMENT_BEFORE = regex.compile(r"(?i)(?:\b(?:with|a|the|his|her|their|using|uses|use|rolling|wheeled|"
                                  r"front-wheeled|new|own|needs|need|ordered|w/)[ \t]+|/[ \t]*)$")


# "by the shell station", "the kroger store": a brand that is also a word
_BUSINESS_AFTER = regex.compile(r"(?i)[ \t]+(?:station|store|shop|pharmacy|market|supermarket|garage|plant|mill|"
                                r"factory|hotel|motel|restaurant|cafe|diner|pub|club|gym|mall|depot|warehouse)\b")
_ARTICLE_BEFORE = regex.compile(r"(?i)(?<![\p{L}'’])(?:the|a|an|this|that|our|your|my|his|her|their)[ \t]+$")


# a lower-case word right after a modal or an article is a verb or a noun, not a name:
# "I'll mark it down", "will bill the insurer", "send the bill"; speech-to-text drops the apostrophe ("ill mark it")
_MODAL_OR_ARTICLE = regex.compile(
    r"(?i)(?:(?<![\p{L}'’])(?:will|would|shall|should|can|could|must|might|may|the|a|an|this|that|these|those"
    r"|some|any|no|ill|youll|theyll|itll|let[ \t]+me|let[ \t]+us|lets|let['’]s)|\p{L}['’]ll)[ \t]+$")


_SPECIALTY_ADJECTIVE = regex.compile(
    r"(?i)(?:orthop(?:a|ae)?edic|cardiac|cardiothoracic|thoracic|vascular|plastic|colorectal|spinal|"
    r"p(?:a|ae)?ediatric|obstetric|gyn(?:a|ae)?ecological|trauma|breast|hepatobiliary|renal|respiratory|geriatric|"
    r"palliative|neurological|urological|dermatological|ophthalmic|maxillofacial|bariatric|endocrine|"
    r"upper[ -]gi|transplant|stroke|diabetes|diabetic|rheumatology|oncology)")
_CLINICIAN_NOUN_AFTER = regex.compile(r"(?i)[ \t]+(?:surgeon|physician|nurse|consultant|specialist|registrar|therapist|"
                                      r"practitioner|team|service|fellow|resident|sister|matron)\b")


def _function_contraction(w: str) -> bool:
    """``let's``, ``i'm``, ``you're``, ``don't``: a function word with its contraction (never a name)."""
    m = _APOSTROPHE_CONTRACTION.fullmatch(w)
    return bool(m) and (m.group(1).casefold() in _CONTRACTION_BASES or m.group(2)[:1] in "nN")


def _trailing_contraction(text: str, s: Span) -> Span | None:
    """The span without a bare contraction at its end (``... practice youre``) or its start
    (``im hector``), or None."""
    piece = text[s.start:s.end]
    start, end = s.start, s.end
    m = regex.search(r"[ \t]+(\p{L}+)[ \t]*$", piece)
    if m and m.group(1).casefold() in _BARE_CONTRACTIONS and m.group(1).casefold() not in ("its", "lets", "hes"):
        end = s.start + m.start()
    m = regex.search(r"[ \t]+(\p{L}+['’]\p{L}{1,2})[ \t]*$", piece)
    if m and _function_contraction(m.group(1)):
        end = s.start + m.start()  # "gabriel i'm", "maria you're"
    m = regex.match(r"[ \t]*(\p{L}+)[ \t]+", piece)
    if m and m.group(1).islower() and m.group(1) in _BARE_CONTRACTIONS and s.start + m.end() < end:
        start = s.start + m.end()
    m = regex.match(r"[ \t]*(\p{L}+),?[ \t]+", piece)
    if m and m.group(1).casefold() in _CLOSINGS and s.start + m.end() < end and source_family(s.source) == "tagger":
        start = s.start + m.end()  # "Cheers, Hamish", "Hi Tom": the greeting or closing is no part of the name
    m = regex.match(r"[ \t]*(\p{L}+['’]\p{L}{1,2})[ \t]+", piece)
    if m and _function_contraction(m.group(1)) and s.start + m.end() < end:
        start = s.start + m.end()  # "i'm gabriel"
    if (start, end) == (s.start, s.end):
        return None
    return Span(start, end, s.label, s.source, s.confidence, s.explanation)


# "let's", "i'll", "you're", "how's": a function word and a contraction ("tyler's" may be a name)
_APOSTROPHE_CONTRACTION = regex.compile(r"(\p{L}+?)(['’](?:s|ll|ve|re|d|m)|n['’]t)", regex.IGNORECASE)
_CONTRACTION_BASES = frozenset("""let i you we they he she it that what there here who where how when why this
wha y""".split())
# words that open a sentence and are never a name there (after "miss." or "doctor." the title ended a sentence)
_SENTENCE_OPENERS = frozenset("""how what when where why who which whose my your our their his her its this that these
those there here it i we you they she he okay ok okey well so yes yeah no now then and but or if please thank thanks
let lets sorry oh um uh alright right sure good great fine cheers regards sincerely dear hello hey hi morning evening
afternoon tell take come go give sit call hold show try keep lie stand breathe""".split())
_PROGRAM_NAMES = frozenset({"medicare", "medicaid", "medi-cal", "tricare", "ohip", "msp", "ramq", "nhs", "hse", "acc",
                           "pbs", "obamacare", "snap", "wic", "ssi", "ssdi"})
_CLOSINGS = frozenset({"cheers", "thanks", "regards", "dear", "hi", "hello", "hey", "bye", "love", "sincerely",
                       "warmly", "best"})
_MODALS = frozenset({"will", "can", "could", "would", "should", "shall", "may", "might", "must", "did", "does", "do",
                     "is", "are", "was", "were", "has", "have", "had"})
# verbs that follow "doctor" as its subject in lower-case speech ("my doctor said", "the doctor knows")
_VERBS_AFTER_DOCTOR = frozenset("""said says told tells gave gives give knows knew thinks thought wants wanted put puts
sent sends called calls asked asks recommended recommends suggested suggests prescribed prescribes ordered orders
mentioned mentions explained explains did does wrote writes checked checks looked looks took takes made makes
referred refers started starts stopped stops changed changes increased decreased saw sees felt feels found finds
has had is was wanted agreed agrees believes believed kept keeps moved switched upped lowered doubled halved
cleared signed discharged admitted comes come came""".split())
# the first halves of contractions that PTB-style tokenisation splits ("gon na", "wan na", "got ta", "lem me")
_SPLIT_CONTRACTION_TAIL = {"gon": "na", "wan": "na", "got": "ta", "lem": "me", "gim": "me", "whad": "ya"}
_FILLERS = frozenset({"um", "umm", "uh", "uhh", "er", "erm", "hmm", "hm", "mm", "mhm", "uh-huh"})
# a verb's object right after the word: "doctor gave me", "tell him", "sue them", "mark it"
_OBJECT_PRONOUN_AFTER = regex.compile(r"[ \t]+(?:me|him|us|them|it(?![ \t]*(?:is|was|['’]?s)\b))\b(?![ \t]*['’])")

# contractions that speech-to-text writes without the apostrophe (never a name)
_BARE_CONTRACTIONS = frozenset("""thats whats its im ive youre youve dont cant wont didnt isnt hes shes theres lets weve
theyre wasnt doesnt couldnt wouldnt shouldnt havent hasnt arent werent hows wheres whos youll theyll shell itll
thatll ain aint gonna wanna gotta yall yalls likkle deh yah dinnae cannae didnae wouldnae ehn teh pon nuh seh
abeg wahala innit""".split())
# titles before a name: never a name or a place on their own
_TITLE_ONLY = frozenset({"fr", "rev", "revd", "mr", "mrs", "ms", "mx", "dr", "prof", "sr", "br", "fra", "sra", "srta",
                         "pastor", "reverend", "father", "imam", "rabbi", "deacon", "coach"})
# kin words: "his nan", "my nana" name a relation, not a person
_KIN_WORDS = frozenset({"nan", "nana", "nanna", "nanny", "gran", "granny", "grandma", "grandpa", "grandad", "granddad",
                        "mum", "mom", "mam", "mammy", "mummy", "mommy", "dad", "daddy", "papa", "pop", "pops", "moko",
                        "mokopuna", "koro", "kuia", "whanau", "abuela", "abuelo", "abuelita", "nonna", "nonno", "baba",
                        "bubbe", "zayde", "aunty", "auntie", "uncle", "sis", "bro",
                        # session 17: kin words of other languages said in English ("my lola had it", "her tita")
                        "lola", "lolo", "tita", "tito", "kuya", "manang", "manong", "tia", "tio", "tía", "tío", "bibi",
                        "dadi", "nani", "dada", "amma", "appa", "paati", "thatha", "ammachi", "oma", "opa", "yaya",
                        "mamie", "papie", "mémé", "pépé", "mama", "mamma", "nonni", "babushka", "dedushka", "halmoni",
                        "harabeoji", "obaachan", "ojiichan", "jiddo", "teta", "sitto", "khala", "khalu", "chacha",
                        "chachi", "mamu", "mami", "buwa", "abuelito"})
# bare contractions that are also nouns ("the shell station", "the well")
_CONTRACTION_NOUNS = frozenset({"shell", "well", "hell", "wed", "ill", "its", "lets", "id", "were", "shed", "wont", "cant"})
# greetings and everyday words of other languages and dialects said in English visits ("kia ora", "g'day",
# "Assalamu alaikum", "this arvo", "used tae"): never a name or a place, alone or together
_GREETINGS = frozenset("""g'day gday g’day kia ora hooroo arvo tae assalamu asalamu salaam alaikum alaykum dias días tardes noches
namaste shalom hola gracias bonjour merci danke ciao obrigado obrigada aloha mahalo talofa
spasibo dziekuje dziękuję habari jambo sawubona mabuhay salamat inshallah mashallah alhamdulillah
wallahi aye och whanau sat sri akal mornin mornin' mornin’ evenin evenin' evenin’ howdy hiya heya""".split())
# ... and the short words that only count beside one of them ("Wa alaikum salaam"; "Mai", "Ta", "Tak" are names)
_GREETING_PARTS = frozenset("wa um umm uh er erm oh ah doc buenos buenas dias días tardes noches".split())
def _greeting(piece: str) -> bool:
    words = [w.strip(".,!?;:") for w in regex.split(r"[ \t]+", piece.casefold().strip())]
    if not piece.strip():
        return False
    return all(w in _GREETINGS or w in _GREETING_PARTS for w in words) and any(w in _GREETINGS for w in words)


# a speaker label at the start of a line: "Dr: Lovely. Now ...", "Patient: Great, thanks."
_TURN_LABEL_BEFORE = regex.compile(r"(?im)^[ \t]*(?:dr|doctor|doc|nurse|patient|pt|clinician|physician|provider|np|rn|"
                                   r"relative|mother|father|mom|mum|dad|caller|client|[dp])[ \t]*:[ \t]*$")


_TITLE_WORDS = frozenset("""consultant senior junior medical officer specialist clinical lead head chief associate
assistant attending registrar resident fellow nurse practitioner physician surgeon matron sister charge staff
director manager coordinator advanced principal trainee house general practitioner gp locum honorary visiting
emeritus professor lecturer doctor of in and the examiner certified""".split())
_TITLE_SUFFIX = regex.compile(r"(?i)\p{L}{2,}(?:ologist|iatrist|iatrician|ician|therapist|ographer|wife|ology|iatry|iatrics|"
                              r"medicine|surgery)")


def _only_job_title(piece: str) -> bool:
    """``Consultant Paediatrician``, ``Senior Medical Officer``, ``Clinical Nurse Specialist``: every
    word a rank or a specialty (two words at least, one of them a specialty or a rank noun)."""
    words = regex.findall(r"\p{L}+", piece)
    if len(words) == 1 and piece[:1].isupper() and regex.fullmatch(
            r"(?i)\p{L}{4,}(?:ologist|iatrist|iatrician|ician|urgeon|ographer|otherapist|therapist)", words[0]):
        return True  # "cc: Dr Hamish Drummond, Gastroenterologist, Cairns Hospital": a specialty, not a place
    if len(words) < 2 or not (piece[:1].isupper() or piece.casefold() in ("medical examiner", "medical officer")):
        return False
    return all(w.casefold() in _TITLE_WORDS or _TITLE_SUFFIX.fullmatch(w) or w.casefold() in _CREDENTIALS_ONLY
               or _SPECIALTY_ADJECTIVE.fullmatch(w) for w in words) and \
        any(w.casefold() in ("consultant", "officer", "specialist", "registrar", "practitioner", "physician",
                             "surgeon", "director", "manager", "coordinator", "nurse", "lecturer", "professor",
                             "trainee", "examiner", "fellow", "resident")
            or _TITLE_SUFFIX.fullmatch(w) for w in words)


_DOUBLE = regex.compile(r"(.)\1+")


@lru_cache(maxsize=4096)
def _two_letters_missing(n: str) -> bool:
    """``n`` is a common word of eight letters or more, no name, with two of its letters left out."""
    from rapidfuzz import process
    from rapidfuzz.distance import Indel

    words = _long_common_words_by_length().get(len(n) + 2)
    if not words:
        return False
    return any(x[0] == n[0] and x[-1] == n[-1] and Indel.distance(n, x) <= 2
               for x, _, _ in process.extract_iter(n, words, scorer=Indel.distance, score_cutoff=2))


@lru_cache(maxsize=1)
def _long_common_words_by_length() -> dict[int, list[str]]:
    """Common English words (SCOWL sizes 10-35) of eight letters or more that are no name, by length: two
    letters missing is a slip only of a common word (the full word list also holds ``zomarist``, ``patuline``)."""
    from ..lexicons import load_lexicon
    from .lexicon import norm

    t = _weak_tables()
    out: dict[int, list[str]] = {}
    for x in {norm(w) for w in load_lexicon("common_words_en")}:
        if len(x) >= 8 and x.isalpha() and x not in t["all_names"]:
            out.setdefault(len(x), []).append(x)
    for v in out.values():
        v.sort()
    return out


def _undouble(w: str) -> str:
    """``tommorow`` -> ``tomorow``: every run of one letter written once."""
    return _DOUBLE.sub(r"\1", w)


_WEAK_TABLES = ("words", "names", "places", "all_names", "undoubled")
_WEAK_LEXICONS = ("words_en", "medical_terms", "medical_abbreviations", "drugs", "first_names_en",
                  "first_names_world", "surnames_en", "cities_us", "states_us", "countries_en")


@lru_cache(maxsize=1)
def _weak_tables() -> dict[str, frozenset[str]]:
    """The tables, once per process (read-only; the bundled lexicons do not change while it runs)."""
    import sys

    from .. import cache
    from .lexicon import norm

    return cache.derived("weak-words", lexicons=_WEAK_LEXICONS,
                         modules=(sys.modules[__name__], sys.modules[norm.__module__]),
                         build=_build_weak_tables, encode=lambda d: {k: sorted(v) for k, v in d.items()},
                         decode=lambda d: {k: frozenset(d[k]) for k in _WEAK_TABLES})


def _build_weak_tables() -> dict[str, frozenset[str]]:
    """WeakWordFilter's tables: dictionary words (English + medical), frequent names (the Census
    surname list also holds Lawyer, Took ...), every listed name, one-word places, and the
    dictionary words of five letters or more that are no name with double letters written once."""
    from ..lexicons import load_lexicon
    from .lexicon import norm

    words = {norm(w) for w in load_lexicon("words_en")}
    for li in ("medical_terms", "medical_abbreviations", "drugs"):
        words |= {norm(w) for w in load_lexicon(li)}
    names = {norm(w) for w in load_lexicon("first_names_en")[:1000]}
    names |= {norm(w) for w in load_lexicon("surnames_en")[:2000]}
    all_names = {norm(x) for li in ("first_names_en", "first_names_world", "surnames_en") for x in load_lexicon(li)}
    places = {norm(w) for li in ("cities_us", "states_us", "countries_en") for w in load_lexicon(li) if " " not in w.strip()}
    undoubled = {_undouble(x) for x in words if len(x) >= 5 and x not in all_names}
    return {"words": frozenset(words), "names": frozenset(names), "places": frozenset(places),
            "all_names": frozenset(all_names), "undoubled": frozenset(undoubled)}


def _turn_opening_word(text: str, s: Span) -> bool:
    """``Dr: Lovely.``: one word opening a speaker's turn and closed by punctuation is an
    interjection, not a name (the caller still requires it to be a dictionary word no frequent
    name list holds, so ``Patient: Rose.`` stays)."""
    if not regex.fullmatch(r"\p{L}+", text[s.start:s.end]) or not regex.match(r"[ \t]*[.!,]", text[s.end:s.end + 2]):
        return False
    line_start = text.rfind("\n", 0, s.start) + 1
    return _TURN_LABEL_BEFORE.match(text, line_start, s.start) is not None and \
        _TURN_LABEL_BEFORE.fullmatch(text[line_start:s.start]) is not None


def _verb_or_noun_use(text: str, s: Span) -> bool:
    w = text[s.start:s.end]
    if not regex.fullmatch(r"\p{Ll}+", w):
        return False  # capitalised or ALL-CAPS spans are left alone
    before = text[max(0, s.start - 12):s.start]
    if w in ("bill", "bills") and _BILL_BEFORE.search(text[max(0, s.start - 16):s.start]):
        return True  # "paid the gas bill twice", "phone bill"
    return bool(_MODAL_OR_ARTICLE.search(before))


_BILL_BEFORE = regex.compile(r"(?i)\b(?:bulk|gas|phone|electric|electricity|water|hospital|medical|power|heating|cable|"
                             r"er|ed|ambulance|lab|dental|icu|surgery|pharmacy|"
                             r"tax|cell|credit\s+card|card|energy|council|rent|vet|doctor'?s|pay|paid|pays|my|your|his|"
                             r"her|their|our)[ \t]+$")


# --- form-field labels --------------------------------------------------------------

# Words that name a field of a form or a header ("MRN:", "DOB", "Age", "NHS no.") and are never
# PHI themselves. Every detector, the tagger most, sometimes marks them, alone ("MRN" before an
# identifier) or at the edge of the value ("DOB 3/4/1950").
FIELD_LABEL_WORDS = frozenset({
    "mrn", "ssn", "acct", "acc", "account", "accnt", "dob", "d.o.b", "age", "born", "sex", "gender", "bleep", "pager",
    "id", "no", "nr", "num", "number", "#", "tel", "telephone", "phone", "ph", "fax", "mob", "mobile",
    "cell", "email", "e-mail", "gmc", "npi", "nhs", "dea", "chi", "ihi", "hic", "medicare", "medicaid",
    "policy", "member", "group", "claim", "visit", "encounter", "enc", "csn", "fin", "har", "unit",
    "date", "of", "birth", "yo", "y/o", "yrs", "years", "old", "pt", "patient", "name", "dx", "hosp",
})
# labels that may stand alone as a span and be dropped; the rest ("of", "date", "no") only count
# next to one of these ("date of birth", "NHS no.")
_LABEL_HEADS = frozenset({
    "mrn", "ssn", "acct", "acc", "accnt", "dob", "d.o.b", "age", "born", "sex", "gender", "id",
    "tel", "telephone", "phone", "mobile", "mob", "email", "e-mail", "fax", "cpso", "bleep", "pager", "gmc", "npi", "nhs", "dea", "chi", "ihi", "hic", "csn", "fin", "har",
    "birth", "yo", "y/o",
    # national health and registration numbers' labels: "NHI ZKT4821", "PPSN 7734129TA", "MCRN 418822"
    "nhi", "ppsn", "pps", "gms", "ohip", "ramq", "phn", "urn", "mcrn", "ahpra", "imc", "nmc",
})
# one-word labels of place fields ("Ward:", "Unit:", "Location:")
_PLACE_FIELD_LABELS = frozenset({"ward", "unit", "location", "department", "dept", "site", "service", "specialty",
                                 "speciality", "facility", "clinic", "hospital", "practice", "floor", "area"})
_LABEL_TOKEN = regex.compile(r"[\p{L}\p{N}/.\-]+|#")
# the separator after a leading label (or before a trailing one): space, colon, '#', '.', never a bare
# hyphen or nothing ("MRN-4471" may be how the identifier is written)
_LABEL_SEP = regex.compile(r"[\s:#.,()]+")
_STATE_AFTER_TOWN = regex.compile(r",[ \t]*[A-Z]{2}(?:[ \t]+\d{5}(?:-\d{4})?)?(?![\p{L}\p{N}])")
_SEX_MARK = regex.compile(r"(?i)(?:\d{1,3}[ \t]*(?:y/?o|yrs?|years?(?:[ \t-]old)?)?[ \t,/-]*|(?:sex|gender)[ \t]*:?[ \t]*)$")


# room, bed and bay words: the guideline marks the number only ("bay [3]", "room [412]")
_ROOM_WORDS = frozenset({"room", "rm", "bed", "bay", "cubicle", "cube", "floor", "level", "lvl", "stall"})
_ROOM_NUMBER = regex.compile(r"[ \t]*(?:#|no\.?|number)?[ \t]*([A-Z]?\d{1,4}[A-Za-z]?)\b")


def _label_word(w: str) -> str:
    return w.casefold().rstrip(".:")


def _only_labels(words: list[str]) -> bool:
    ws = [_label_word(w) for w in words]
    return bool(ws) and all(w in FIELD_LABEL_WORDS for w in ws) and any(w in _LABEL_HEADS for w in ws)


class FieldLabelFilter:
    """Drop spans that are only form-field labels; trim labels off the edges of value spans.

    A span made only of field-label words (``MRN``, ``dob``, ``Age``, ``GMC number``, ``born``) is
    dropped; a place span that is only ``room``/``bed``/``bay`` before a number moves onto the
    number (LOCATION_OTHER; "at the Bay" stays); an ID, CONTACT, DATE or AGE span that starts or ends with such words separated from
    the value by a space, colon, ``#`` or period (``MRN 12345``, ``DOB: 3/4/1950``) keeps only the
    value, and only when the value left has a digit (the identifier itself is never cut). A NAME
    span that is a lone ``M``/``F`` after an age or ``Sex:`` is a sex marker and is dropped. STATE
    spans (``Boise, ID``) and the user's spans are never touched.
    """

    name = "field_labels"
    _VALUE_CATS = ("ID", "CONTACT", "DATE", "AGE")

    def __init__(self, lang: str = "en"):
        self.lang = lang

    def load(self) -> None:
        return None

    def describe(self) -> dict:
        return {"labels": len(FIELD_LABEL_WORDS)}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        if self.lang != "en":
            return spans
        text = document.text
        out = []
        for s in spans:
            if source_family(s.source) == "user" or s.label == "STATE":
                out.append(s)
                continue
            piece = text[s.start:s.end]
            words = _LABEL_TOKEN.findall(piece)
            if _only_labels(words) and not (_category(s.label) == "LOCATION" and _STATE_AFTER_TOWN.match(text, s.end)) \
                    and not (s.label in ("CITY", "LOCATION") and _s18b_town_cued(text, s)):
                continue  # (not "700 Port Blvd, Mobile, AL 36602": a town before its state)
            cat = _category(s.label)
            if cat == "LOCATION" and len(words) == 1 and _label_word(words[0]) in _PLACE_FIELD_LABELS \
                    and regex.match(r"[ \t]*:", text[s.end:s.end + 3]):
                continue  # "Ward: General Medicine", "Location: ...": the field's label, not a place
            if cat == "LOCATION" and words and all(_label_word(w) in _ROOM_WORDS for w in words):
                m = _ROOM_NUMBER.match(text, s.end)
                if m:  # "in bay 3" with only "bay" marked: the number is the location
                    out.append(Span(m.start(1), m.end(1), "LOCATION_OTHER", s.source, s.confidence, s.explanation))
                    continue
            if cat in self._VALUE_CATS:
                s = self._trim(text, s, digit=True)
            elif cat == "NAME":
                s = self._trim(text, s, digit=False)  # "M   MRN": the tagger ran into the next field
                if text[s.start:s.end] in ("M", "F", "m", "f") and _SEX_MARK.search(
                        text[max(0, s.start - 24):s.start]):
                    continue
            out.append(s)
        return out

    @staticmethod
    def _trim(text: str, s: Span, digit: bool) -> Span:
        """Labels off the edges; the value left must hold a digit (``digit``) or a letter."""
        def value(x: int, y: int) -> bool:
            return any(c.isdigit() if digit else c.isalpha() for c in text[x:y])

        a, b = s.start, s.end
        toks = [(m.start() + a, m.end() + a) for m in _LABEL_TOKEN.finditer(text[a:b])]
        # leading labels: a run of label words with at least one head ("NHS no.", "Date of birth")
        k = 0
        while k < len(toks) and _label_word(text[toks[k][0]:toks[k][1]]) in FIELD_LABEL_WORDS:
            k += 1
        if not any(_label_word(text[x:y]) in _LABEL_HEADS for x, y in toks[:k]):
            k = 0
        if 0 < k < len(toks):
            sep = text[toks[k - 1][1]:toks[k][0]]
            last = text[toks[k - 1][0]:toks[k - 1][1]]
            if (_LABEL_SEP.fullmatch(sep) or (not sep and last[-1:] in ".:#")) \
                    and value(toks[k][0], b):
                a = toks[k][0]
        # trailing labels ("4471 DOB"): the same test mirrored
        rest = [t for t in toks if t[0] >= a]
        k = len(rest)
        while k > 0 and _label_word(text[rest[k - 1][0]:rest[k - 1][1]]) in FIELD_LABEL_WORDS:
            k -= 1
        if 0 < k < len(rest) and any(_label_word(text[x:y]) in _LABEL_HEADS for x, y in rest[k:]):
            sep = text[rest[k - 1][1]:rest[k][0]]
            if _LABEL_SEP.fullmatch(sep) and value(a, rest[k - 1][1]):
                b = rest[k - 1][1]
        return s if (a, b) == (s.start, s.end) else s.with_bounds(a, b)
