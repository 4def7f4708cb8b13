"""Pattern detectors for HIPAA identifiers (dates, ages, contacts, ID numbers, addresses).

Patterns are class data: ``Pattern(name, regex, label, score)`` with optional
``group`` (the part of the match that is the span), ``validate(span_text)``
(checksums: Luhn for NPI, SSN rules, DNI letter) and ``invalidate(text, start,
end)`` (context vetoes: ``BP 120/80`` or ``1/2 tab`` is not a date). Every
pattern is compiled once in ``load()`` and run with the ``regex`` package's
``timeout=`` so a pathological note cannot hang the batch.

English patterns live here; Spanish ones in ``patterns_es.py``. Span.source
is ``pattern:<pattern name>``. Ages: every age is tagged ``AGE``;
``age_over_89`` tells the redactor which ones HIPAA requires to be aggregated.
"""

from __future__ import annotations

import ipaddress
import logging
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..types import Document, Span
from . import spoken
from .prefilter import cached_prefilters

log = logging.getLogger(__name__)

Validate = Callable[[str], bool]
Invalidate = Callable[[str, int, int], bool]


@dataclass(frozen=True)
class Pattern:
    """One identifier shape. ``group`` selects the span inside the match."""

    name: str
    regex: str
    label: str
    score: float = 0.9
    group: int | str = 0
    validate: Validate | None = None
    invalidate: Invalidate | None = None
    flags: int = 0
    # Cheap pre-checks, one of which must hold for the pattern to run (None: always):
    # "abc" a lower-case substring, "w:abc" a whole lower-case word, "re:..." a
    # stdlib ``re`` search on the original text.
    triggers: tuple[str, ...] | None = None
    # A lookahead on the first character of every match (``(?=\d)``), put in
    # front so the engine skips impossible start positions (10-15x faster on
    # patterns that begin with a lookbehind).
    lead: str = ""


_TRADE_NOUNS = (r"drywall|hair|nails|security|roofing|plumbing|landscaping|construction|carpentry|masonry|concrete|"
                r"framing|welding|hvac|flooring|tile|tiling|daycare|childcare|housekeeping|janitorial|catering|"
                r"bookkeeping|lashes|tattoos|lawn[ \t]+care|home[ \t]+care|home[ \t]+health")
_GIG_COMPANIES = (r"amazon|uber|lyft|doordash|door[ \t]+dash|grubhub|instacart|ups|fedex|usps|dhl|postmates|"
                  r"uber[ \t]+eats|the[ \t]+post[ \t]+office")
# "see flowsheet.net neg 1.8l": a missing space before a fluid balance ("net negative"), not a web domain
_NET_BALANCE_AFTER = regex.compile(r"(?i)[ \t]*(?:neg|negative|pos|positive|even|balance|[-+~]?[ \t]*\d)")


# --- shared pieces ---------------------------------------------------------------

MONTHS_EN = (r"(?:jan(?:uary|\.)?|feb(?:ruary|\.)?|mar(?:ch|\.)?|apr(?:il|\.)?|may|june?|july?|"
             r"aug(?:ust|\.)?|sep(?:t(?:ember)?)?\.?|oct(?:ober|\.)?|nov(?:ember|\.)?|dec(?:ember|\.)?)(?![a-z])")
MONTHS_EN_FULL = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december|"
                  r"jan\.|feb\.|mar\.|apr\.|aug\.|sept?\.|oct\.|nov\.|dec\.)(?![a-z])")
WEEKDAYS_EN = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?"
DAY = r"(?:0?[1-9]|[12]\d|3[01])"
MONTH_NUM = r"(?:0?[1-9]|1[0-2])"
ORD = r"(?:st|nd|rd|th)"
YEAR4 = r"(?:1[89]\d\d|20\d\d)"
TIME = r"(?:\s*(?:at\s+|@\s*)?(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:\s*[ap]\.?m\.?)?)"

_DIGIT = regex.compile(r"\d")
_LOWER_WORD = re.compile(r"[a-z]+")
_INLINE_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")


def digits(s: str) -> str:
    return "".join(_DIGIT.findall(s))


def _before(text: str, start: int, n: int = 20) -> str:
    return text[max(0, start - n):start]


def _after(text: str, end: int, n: int = 20) -> str:
    return text[end:end + n]


# --- validators --------------------------------------------------------------------

def luhn_ok(number: str) -> bool:
    ds = [int(c) for c in digits(number)]
    if not ds:
        return False
    total = 0
    for i, d in enumerate(reversed(ds)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def npi_ok(number: str) -> bool:
    """A 10-digit NPI: Luhn over the number prefixed with 80840 (CMS rule)."""
    d = digits(number)
    return len(d) == 10 and d[0] in "12" and luhn_ok("80840" + d)


def ssn_ok(number: str) -> bool:
    """SSA rules: area not 000/666/9xx, group not 00, serial not 0000."""
    d = digits(number)
    if len(d) != 9:
        return False
    area, group, serial = d[:3], d[3:5], d[5:]
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def dea_ok(number: str) -> bool:
    """DEA registration: 2 letters + 7 digits; check digit from the first six."""
    s = number.strip().upper()
    if len(s) != 9 or not s[:2].isalpha() and not (s[0].isalpha() and s[1] == "9") or not s[2:].isdigit():
        return False
    d = [int(c) for c in s[2:]]
    check = (d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10
    return check == d[6]


def ip_ok(s: str) -> bool:
    try:
        ipaddress.ip_address(s)
    except ValueError:
        return False
    return True


_VIN_VAL = {**{str(i): i for i in range(10)},
            **dict(zip("ABCDEFGH", range(1, 9))), **dict(zip("JKLMN", range(1, 6))), "P": 7, "R": 9,
            **dict(zip("STUVWXYZ", range(2, 10)))}
_VIN_W = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def vin_ok(s: str) -> bool:
    """North-American VIN check digit (position 9)."""
    s = s.upper()
    if len(s) != 17 or any(c not in _VIN_VAL for c in s):
        return False
    if not any(c.isalpha() for c in s) or not any(c.isdigit() for c in s):
        return False
    total = sum(_VIN_VAL[c] * w for c, w in zip(s, _VIN_W))
    r = total % 11
    return s[8] == ("X" if r == 10 else str(r))


def has_digit(s: str) -> bool:
    return any(c.isdigit() for c in s)


_DATE_PARTS = regex.compile(r"\d+(?:[/.\-]\d+)*")


def md_ok(s: str) -> bool:
    """Two or three numeric date parts where one could be a month and the other a day (a time of day after
    an ISO date, ``2004-11-26 06:52`` or ``2019-03-07T14:30``, is not a part)."""
    m = _DATE_PARTS.match(s)
    if m is None:
        return False
    parts = [p for p in regex.split(r"[/.\-]", m.group()) if p]
    if len(parts) < 2:
        return False
    a, b = int(parts[0]), int(parts[1])
    if len(parts[0]) == 4:  # ISO y-m-d
        return len(parts) == 3 and 1 <= b <= 12 and 1 <= int(parts[2]) <= 31
    return (1 <= a <= 12 and 1 <= b <= 31) or (1 <= b <= 12 and 1 <= a <= 31)


# --- context vetoes -------------------------------------------------------------------

_NOT_DATE_BEFORE = regex.compile(
    r"(?i)(?:\b(?:b/?p|[sdn]?bps?|abp|nibp|nbp|art|a-line|map|pap|pas|pa|cvp|pcwp|rvp|lvp|cuff|pressures?|"
    r"ps|psv|peep|c?pap|bipap|ipap|epap|vent|ac|simv|imv|prvc|settings?|grade|motor|strength|grips?|"
    r"pupils?|perrla?|pain|score|gcs|ratio|i:e|x|apgars?|murmur|sem|rate|titers?|tv|vt|resp|rr|"
    r"co/ci|unloading|augmentation|moca|mmse|mocha|slums|phq-?\d*|gad-?\d*|epds|audit(?:-c)?|nihss|ecog|kps|sofa|"
    r"apache|ciwa|cows|braden|"
    r"morse|rass|cpot|cam|hads|pcl-?\d*|ipss|dass|mrs|asa|fim|barthel|tinetti|berg|frax|ess|stop-bang|"
    r"acuity|vision|visual|snellen)\b"
    r"[\s:=]*(?:(?:of|was|is|at|to|from|on|down|up|now|\d+(?:[./]\d+)*|[-~,])\s*){0,3}|[\d/])$")
_NOT_DATE_AFTER = regex.compile(
    r"(?i)^(?:[/\d]|\s*(?:tabs?|tablets?|caps?|pills?|amps?|vials?|units?|u\b|ns\b|nss?\b|strength|str\b|"
    r"dose|doses|cups?|of\b|murmur|sem\b|holo|systolic|pulses?|mmhg|mm\b|cm\b|kg|mg|mcg|ml|cc|l\b|"
    r"liters?|lpm|hours?|hrs?|min|x\b|pain|scale|times|strength|%|'s|s\b(?!/)|ratio|normal|saline|"
    # "6/18 acuity", "6/12 vision": a Snellen fraction
    r"acuity|vision|visual|"
    # "3/4 +" is an amount; "sputum 2/14 +GNR", "cx 9/11 + MRSA" is a culture result dated 2/14
    r"\+(?![ \t]?(?:ve\b|gram|gnr|gpc|gpr|gnb|mrsa|vre|c\.?[ \t]?diff|staph|strep|e\.?[ \t]?coli|yeast|for\b))|"
    r"days?\b|weeks?\b|wks?\b|months?\b|mos\b|years?\b|yrs?\b|business\s+days|points?\b|correct|abgs?\b|"
    r",?\s*(?:and\s+)?\d{2,3}\s*%|"
    r"assist|pap|peep|ps\b|cp\b|up\b|way\b|gallons?|bottles?|glass|on\b\s+\d|"
    # "CATH 1-2 VESSEL DZ", "3-4 Fr sheath": a count of vessels, a catheter size
    r"vessels?\b|vd\b|fr\b|french\b|stents?\b|grafts?\b|"
    # "2-3 cigarettes per day", "3-4 drinks a week": an amount
    r"cigarettes?|cigs?|drinks?|beers?|pints?|glasses|cans|packs?|puffs?|joints?|servings?|"
    # "(1/5 vodka daily)": a fifth of a gallon of spirits
    r"(?:of[ \t]+)?(?:vodka|whiske?y|gin|rum|wine|liquor|bourbon|scotch|tequila|brandy|etoh|alcohol)\b|"
    r"(?:per|a|an)\s+(?:day|week|night|month)\b))")


_FRACTIONS = frozenset({"1/2", "1/3", "1/4", "2/3", "2/4", "3/4", "2/2", "1/1", "3/3", "4/4"})
_DATE_CUE = regex.compile(r"(?i)(?:\b(?:on|since|until|from|of|dated?|d/c|dc'?d|admitted|admission|f/u|"
                          r"thru|through|to|returned|transferred|discharged?|surgery|cath|or|egd|cabg|ptca|pci|mri|cxr|"
                          r"echo|intubated|extubated|trach|peg|(?:flying|going|returning|back|flies|flew|heading)\s+home|"
                          # "orif 1/3 by dr x", "lap chole 2/3": a procedure's date; "adm via ed 2/3": an admission's
                          r"adm|admit|orif|tka|tkr|tha|thr|chole|appy|ercp|crani|craniotomy|laminectomy|"
                          r"colonoscopy|turp|stented)\s*[:.]?\s*|^\s*)$")
_ADMIT_VIA = regex.compile(r"(?i)\b(?:adm|admit|admitted|admission|presented|transferred|xfer'?d|brought|came)\s+(?:in\s+)?"
                           r"(?:via|through|thru|from|to|into)\s+(?:the\s+)?[\p{L}/]{2,10}\s*[:.]?\s*$")
# "orif 1/3 by dr lindahl": a procedure's date, said with its surgeon (no fraction or score is done by a doctor)
_BY_DOCTOR_AFTER = regex.compile(r"(?i)[ \t]+by[ \t]+(?:dr\b\.?|drs\b|md\b|doctor\b|surgeon\b|(?:the[ \t]+)?"
                                 r"(?:ortho\w*|surgical|surgery|gi|ir|cards|cardiology)[ \t]+(?:team|service|fellow|attending)\b)")
_VENT = regex.compile(r"(?i)\b(?:vent|cpap|c-pap|bipap|psv?|peep|ac|a/c|imv|simv|prvc|weaning|trialed|"
                      r"mode|settings?|fio2|flowby|mask\s+ventilation|pressure\s+support|sbt|rsbi|mmv)\b")


# dotted abbreviations that are no one's initials
_NOT_INITIALS = frozenset({"U.S.", "U.K.", "D.C.", "A.M.", "P.M.", "N.B.", "P.S.", "I.V.", "P.O.", "Q.D.", "B.I.D.",
                           "T.I.D.", "Q.I.D.", "N.P.O.", "E.R.", "O.R.", "I.M.", "S.Q.", "P.R.", "R.N.", "M.D.", "N.P.",
                           "P.A.", "D.O.", "E.D.", "I.C.U.", "U.A.", "C.T.", "G.I.", "O.T.", "P.T.", "S.W.", "V.A."})


def _vent_clause(before: str) -> str:
    """The part of the text before a number that a ventilator word there still governs: back to the last
    clause break where a new subject and its verb follow ("PASSES SBT, SWAN TO COME OUT [10/3]": the date of
    another clause; "AC, 10/5", "WEANED TO PS, WILL TRY 10/5" and "VENT SETTINGS: PS 10/5" keep theirs)."""
    m = None
    for m in _CLAUSE_BREAK.finditer(before):
        pass
    return before[m.end():] if m else before


# a comma or semicolon followed by a new clause with a verb ("SBT, SWAN TO COME OUT", "; plan to wean")
_CLAUSE_BREAK = regex.compile(r"(?i)[,;][ \t]*(?=(?:[\p{L}/]+[ \t]+){1,3}(?:to|will|is|was|are|were|d/c|dc|out|"
                              r"removed?|came|come|coming|placed|pulled)\b)|"
                              # a new sentence with its subject and verb: "5 PEEP. PT IS 58 YO M, ADMITTED [6/2]"
                              r"(?<!\b\p{L})\.\s+(?=(?:[\p{L}/]+[ \t]+){1,2}(?:is|was|are|were|has|had|admitted|"
                              r"transferred|came|went|seen)\b)")


def _improper_fraction(s: str) -> bool:
    """``11/6``: a numerator above the denominator (no amount reads so; a month/day does)."""
    m = regex.fullmatch(r"(\d{1,2})/(\d{1,2})", s)
    return bool(m) and int(m.group(1)) > int(m.group(2))


# British duration shorthand: days out of 7, months out of 12 ("3/7", "4/12")
_DURATION_SHORTHAND = regex.compile(r"(\d{1,2})/(7|12)")


def not_date_context(text: str, start: int, end: int) -> bool:
    """True when a short numeric 'date' is a pressure, ratio, dose, score or vent setting."""
    if _NOT_DATE_BEFORE.search(_before(text, start, 30)):
        return True
    s = text[start:end]
    m = _NOT_DATE_AFTER.match(_after(text, end, 20))
    if m and not (m.group().strip().casefold() == "of" and _improper_fraction(s)):
        return True  # "3/4 of the dose" is an amount; "SVD @ 0447 11/6 OF VIABLE FEMALE" is a date
    if s in _FRACTIONS and not _DATE_CUE.search(_before(text, start, 20)) and not _BY_DOCTOR_AFTER.match(text, end) \
            and not _ADMIT_VIA.search(_before(text, start, 36)):
        return True
    if s.endswith("/52") and not _DATE_CUE.search(_before(text, start, 20)) and \
            not regex.search(r"(?i)\b(?:dob|d\.o\.b|born|birth)\b[^\n]{0,12}$", _before(text, start, 24)):
        return True  # "6/52 tiredness", "repeat FBC in 4/52": weeks in British notes, not June 1952
    if s.endswith("/7") and len(s) <= 4 and regex.search(r"(?i)(?:\b(?:in|for|x|over|past|last|next|within|after|od|bd|bid|tds|"
                                                         r"tid|qds|qid|daily|nocte|mane|stat|prn)|~|\bapprox\.?)\s*$",
                                                         _before(text, start, 12)):
        return True  # "for 3/7", "in 5/7", "~3/7 dysuria": days
    m = _DURATION_SHORTHAND.fullmatch(s)
    if m and int(m.group(1)) <= int(m.group(2)) and (
            regex.search(r"(?i)(?:\b(?:for|x|over|past|last|within|in)|~|\bapprox\.?)[ \t]*$", _before(text, start, 12))
            or regex.match(r"(?i)[ \t]*(?:hx|h/o|history|ago|duration)\b", _after(text, end, 12))):
        return True  # "4/12 hx of bloody diarrhoea", "3rd in 12/12", "~3/7 dysuria": months or days, not a date
    if (_VENT.search(_vent_clause(_before(text, start, 40))) or _VENT.search((_after(text, end, 16).rsplit(None, 1) or [""])[0])) and s.split("/")[-1] in ("2", "3", "4", "5", "6", "7", "8", "10"):
        return True
    if s.endswith("/10") and (regex.search(r"(?i)pain|scale|score|discomfort|#\s*$|\b(?:cp|c/o|ha|h/a|headache|aches?|"
                                           r"hurts?|sore|soreness|rates?|rated|relief|relieved)\b",
                                           _before(text, start, 40))
                              or regex.search(r"(?i)pain|scale|score|discomfort", _after(text, end, 20))):
        return True
    if s.endswith("/5") and (_MUSCLE_GRADE.search(_before(text, start, 40)) or _MUSCLE_GRADE.search(_after(text, end, 30))
                             or regex.search(r"(?i)\bweak(?:ness)?[ \t:]*$", _before(text, start, 12))
                             or regex.match(r"(?i)[ \t]+(?:on[ \t]+the[ \t]+)?(?:left|right|bilat\w*|throughout|in[ \t]+all|"
                                            r"symmetric\w*|upper|lower|proximal|distal|arms?|legs?|[rl]?ue|[rl]?le|"
                                            r"hands?|feet|foot|[rl]ue|[rl]le|extremit\w*)\b", _after(text, end, 20))
                             or regex.search(r"(?i)\b(?:arms?|legs?|[rl]ue|[rl]le|ue|le)[ \t]*$", _before(text, start, 8))):
        return True  # "Strength is 4/5 on the right and 5/5 on the left", "3/5 abduction strength", "0/5 ARM, 2/5 LEG"
        return True  # "Strength is 4/5 on the right and 5/5 on the left", "3/5 abduction strength": a muscle grade
    if regex.fullmatch(r"[0-6]/7", s) and regex.search(r"(?<![\d/.])\b(?:2\d|3\d|4[0-4])[ \t]+$", _before(text, start, 8)):
        return True  # "CGA 29 3/7": a gestational age in weeks and days
    if s == "2/2" and regex.match(r"\s*(?:to\b|(?!(?:after|before|at|on|in|from|by|and|with|when|for|until|via|per|"
                                  r"am|pm)\b)[a-zA-Z]{2,})", _after(text, end, 10), regex.IGNORECASE):
        return True  # "2/2 CHF" = secondary to
    if regex.search(r"(?i)\b(?:apt|apartment|flat|suite|villa|townhouse)\.?[ \t]*$", _before(text, start, 14)) or (
            regex.search(r"\b(?:Unit|UNIT|Shop|Lot|U)\.?[ \t]*$", _before(text, start, 8))
            and regex.match(r"[ \t]+\p{Lu}\p{Ll}+", _after(text, end, 20))):
        return True  # "Unit 4/17 Casuarina Drive": a unit and a street number (not "to unit 9/3 w/ edema")
    if regex.search(r"(?i)\b(?:day|d#|cycle|week|wk)[ \t#]*$", _before(text, start, 8)) and \
            regex.fullmatch(r"(\d{1,2})/(\d{1,2})", s) and int(s.split("/")[0]) <= int(s.split("/")[1]):
        return True  # "vanco for mrsa in sputum, day 6/10": day 6 of a 10-day course
    if _score_list(text, start, end):
        return True
    if _SNELLEN.fullmatch(s) and (_EYE_BEFORE.search(_before(text, start, 40)) or _EYE_AFTER.match(text, end)):
        return True  # "VA 6/18 OD, 6/9 OS", "sees 6/12 with glasses": a visual acuity
    return False


_SNELLEN = regex.compile(r"6/(?:5|6|9|12|18|24|36|60)")
_EYE_BEFORE = regex.compile(r"(?i)\b(?:acuity|vision|visual|snellen|pinhole|unaided|aided|bcva|ucva|bscva|"
                            r"(?:va|od|os|ou)[ \t]*[:=]|va[ \t]+(?:od|os|ou|re|le|r|l|right|left)\b)")
_EYE_AFTER = regex.compile(r"(?i)[ \t]*(?:od|os|ou|re|le|r|l|right|left|both|bilat\w*|unaided|aided|corrected|uncorrected|"
                           r"pinhole|ph|cc|sc|with[ \t]+(?:glasses|specs|spectacles|correction|pinhole)|"
                           r"without[ \t]+(?:glasses|specs|spectacles|correction))\b(?![ \t]*(?:hip|knee|leg|arm|shoulder|"
                           r"ankle|wrist|hand|foot|side|sided|lung|chest|flank|groin|eye\s+pain))")


_MUSCLE_GRADE = regex.compile(r"(?i)strength|power|motor|muscle|reflex|grip|flexion|extension|abduction|adduction|"
                           r"dorsiflex|plantarflex|flexors|extensors|deltoid|biceps|triceps|quadriceps|hamstrings?|"
                           r"iliopsoas|\b(?:EHL|FHL|MRC)\b")
_FRACTION = regex.compile(r"(?<![\d/.])(\d{1,2})/(\d{1,2})(?![\d/])")
_NOT_SCORE_BEFORE = regex.compile(r"(?i)\b(?:on|since|from|until|till|til|by|dated|of|to|at|last|next|before|after|dob|"
                                  r"d\.o\.b|born|due|seen|admitted|discharged|from|wef|w/e|and|or|through|thru|"
                                  r"between|then|visit|visits|appt|appointment)\.?[ \t:]*$")


def _score_list(text: str, start: int, end: int) -> bool:
    """``attention 16/18, memory 12/26, fluency 7/14``: a line of sub-scores, one of them no date at all
    (a month or day past 31), makes its other bare fractions scores too (unless a date word leads them)."""
    if _NOT_SCORE_BEFORE.search(_before(text, start, 12)) or not regex.search(r"\p{L}[ \t:]*$", _before(text, start, 16)):
        return False
    ls = text.rfind("\n", 0, start) + 1
    le = text.find("\n", end)
    line = text[ls:le if le >= 0 else len(text)]
    others = [m for m in _FRACTION.finditer(line) if ls + m.start() != start]
    if len(others) < 2:
        return False
    return any(int(m.group(1)) > 31 or int(m.group(2)) > 31 or (int(m.group(1)) > 12 and int(m.group(2)) > 12)
               for m in others)


_TIME_BEFORE = regex.compile(r"(?i)(?:\b(?:at|@|approx\.?|approximately|around|by|until|til|till|since|from|"
                             r"about|between|time|hrs?|x|to|and|eta|notified|paged|called|informed|aware|updated)\s*|"
                             r"[@~>-]\s*|\d/\d{1,2}(?:/\d{2,4})?,?\s*)$")
_UNIT_AFTER = regex.compile(r"(?i)^\s*(?:-\s*\d|-*>|cc|ml|mls|mg|mcg|g\b|gm|kg|kcal|cal|calories|units?|u\b|"
                            r"hrs?\b|hours|h\b|meq|mmol|ppm|pm\b|am\b|%|l\b|lbs?|pounds|grams|dollars|\$|"
                            r"to\s+\d|-\s*\d)")


_YEAR_RANGE = regex.compile(r"\s*(?:-|–|to|through|thru|until|till)\s*((?:19|20)\d\d)\b")


def not_year_context(text: str, start: int, end: int) -> bool:
    """True when a bare 4-digit 'year' is a clock time (``at 1930``) or a quantity (``1900 cc``).
    ``2012 to 2015`` (a later year within 60 after it) is a span of years, not a fall from one
    quantity to another."""
    after = _after(text, end, 12)
    rng = _YEAR_RANGE.match(after)
    if rng and text[start:end].isdigit() and 0 < int(rng.group(1)) - int(text[start:end]) <= 60 \
            and not _UNIT_AFTER.match(text[end + rng.end():end + rng.end() + 12]):
        pass
    elif _UNIT_AFTER.match(after):
        return True
    four = text[start:end]
    if len(four) == 4 and four.isdigit() and not 1900 <= int(four) <= 2099:
        clockish = True  # "pronounced at 0342", "at 2217": no year reads that way
    else:
        clockish = int(text[end - 2:end]) % 5 == 0 if text[end - 2:end].isdigit() else True
    return clockish and bool(_TIME_BEFORE.search(_before(text, start, 16)))


_YEAR_CUE = regex.compile(
    r"(?i)(?:\b(?:in|since|during|circa|back|around|until|till|til|from|before|after|early|late|mid|"
    r"(?:that|it|this|which)\s+(?:was|were)|"
    r"year|years|yr|dx|dx'd|diagnosed|s/p|h/o|hx|history|mi|nstemi|stemi|"
    r"cabg|cva|tia|ptca|pci|stent(?:ed|s)?|avr|mvr|surgery|repair|replacement|arrest|admission|admitted|"
    r"transplant|resection|removal|removed|ablation|cardioversion|chole|appy|colectomy|mastectomy|"
    r"lobectomy|born|dob|married|retired|widowed|graduated|last|prior|previous|episode|class|of|its|it's|is|"
    r"year|summer|winter|spring|fall|cad|chf|htn|ca|cancer|copd|dm|niddm|iddm|pe|dvt|afib|pacer|ppm|icd|aicd)\b"
    r"[\s:,.-]*|(?:\b\d{1,2}(?:st|nd|rd|th)?|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?),\s*)$")


def weak_year_context(text: str, start: int, end: int) -> bool:
    """Vetoes a bare 20xx year unless something before it says 'year' (or an earlier year
    opens a range: ``from 2012 to 2015``)."""
    if not_year_context(text, start, end):
        return True
    before = _before(text, start, 24)
    if _YEAR_CUE.search(before):
        return False
    m = regex.search(r"\b((?:19|20)\d\d)\s*(?:–|to|through|thru|until|till)\s*$", before)
    return not (m and 0 < int(text[start:end]) - int(m.group(1)) <= 60)


_CATH_AFTER = regex.compile(r"(?i)^\s?[mf]?\s*(?:fr\b|french|foley|cath|catheter|sheath|cordis|introducer|ngt|ogt|"
                            r"tube|ett|trach|swan|picc|line|port|dobhoff|pigtail|chest\s*(?:tube|drain)|ct\b|mm|g\b|gauge)")


def catheter_size(text: str, start: int, end: int) -> bool:
    """``16F foley`` is a catheter size, not an age and sex."""
    return bool(_CATH_AFTER.match(_after(text, end, 14)))


_DISTANCE_BEFORE = regex.compile(r"(?i)\b(?:walk\w*|ambulat\w*|amb|ran|run|running|jog\w*|swam|swim\w*|crawl\w*|"
                                 r"distance|gait|x|approx\.?|approximately|another|additional|further|farther|total|"
                                 r"stairs?|steps?)[ \t]*$")
_MOBILITY_AFTER = regex.compile(r"(?i)[ \t]+(?:w/|with)[ \t]*(?:(?:a|an|the|his|her)[ \t]+)?(?:walker|rw|fww|rolling|"
                                r"cane|qc|rollator|frame|crutch\w*|assist\w*|asst|sba|cga|min|mod|max|stand\w*|pt\b|"
                                r"physio\w*|physical|gait|help|1|one|two|x)")


def distance_not_age(text: str, start: int, end: int) -> bool:
    """``walked 50m with walker``, ``ambulated 100m``: metres walked, not an age and sex (and ``16F foley``)."""
    return catheter_size(text, start, end) or _DISTANCE_BEFORE.search(_before(text, start, 24)) is not None \
        or _MOBILITY_AFTER.match(text, end + 1) is not None


# --- spelled-out numbers (ages, dialogue) --------------------------------------------

_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_NUMBER_WORDS = {**{w: i for i, w in enumerate(_UNITS)}, **{w: 10 * i for i, w in enumerate(_TENS) if w},
                 "fourty": 40}
_U19 = r"(?:one|two|three|four|five|six|seven|eight|nine)"
_TEENS = (r"(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)")
_TENS_RE = r"(?:twenty|thirty|fou?rty|fifty|sixty|seventy|eighty|ninety)"
_BELOW_100 = rf"(?:{_TENS_RE}(?:[\s-]+{_U19}\b)?|{_TEENS}|{_U19})"
# 1..199 in words: "ninety-one", "fifty nine", "one hundred and two", "a hundred"
NUMBER_WORDS_RE = (rf"(?:(?:(?:one|a)[\s-]+)?hundred(?:[\s-]+(?:and[\s-]+)?{_BELOW_100})?|{_BELOW_100})(?![\w-])")
# two-digit ages in words from twenty up ("sixty three", "ninety-one"): the shapes that rarely mean counts
# the same without the final lookahead, for compounds such as "forty-seven-year-old"
_NUMBER_WORDS_BARE = rf"(?:(?:(?:one|a)[\s-]+)?hundred(?:[\s-]+(?:and[\s-]+)?{_BELOW_100})?|{_BELOW_100})\b"
TENS_WORDS_RE = (rf"(?:(?:(?:one|a)[\s-]+)?hundred(?:[\s-]+(?:and[\s-]+)?{_BELOW_100})?|{_TENS_RE}(?:[\s-]+{_U19})?)"
                 rf"(?![\w-])")
_NUMBER_TOKEN = regex.compile(r"[a-z]+")
# one spoken number word of a date read out ("nine", "twelve", "eighty", "oh")
_SPOKEN_NUM = rf"(?:{_TEENS}|{_TENS_RE}|{_U19}|oh|o|zero|hundred|thousand)"


# ordinal number words read as their cardinal ("eightieth" -> "eighty", "hundredth" -> "hundred")
_ORDINAL_NUMBER_WORDS = {"first": "one", "second": "two", "third": "three", "fourth": "four", "fifth": "five",
                         "sixth": "six", "seventh": "seven", "eighth": "eight", "ninth": "nine", "tenth": "ten",
                         "eleventh": "eleven", "twelfth": "twelve", "hundredth": "hundred",
                         **{t[:-4] + "teenth": t[:-4] + "teen" for t in _UNITS if t.endswith("teen")},
                         **{t[:-1] + "ieth": t for t in _TENS if t}}


def spelled_number(text: str) -> int | None:
    """The value of the first number written in words in ``text`` (``ninety-one`` -> 91,
    ``one hundred and two`` -> 102, ``eighteen`` -> 18), or None. Used for age spans."""
    current, seen = 0, False
    for tok in _NUMBER_TOKEN.findall(text.casefold()):
        if tok.endswith("ies") and tok[:-3] + "y" in _NUMBER_WORDS:
            tok = tok[:-3] + "y"  # "seventies": the decade
        tok = _ORDINAL_NUMBER_WORDS.get(tok, tok)  # "ninetieth", "twenty first": an ordinal birthday
        if tok in ("and", "a"):
            continue
        if tok == "hundred":
            current = (current or 1) * 100
            seen = True
            continue
        v = _NUMBER_WORDS.get(tok)
        if v is None:
            if seen:
                break
            continue
        if seen and (v >= 10 and current % 100 != 0 or v < 10 and current % 10 != 0):
            break  # "two three": a second number starts
        current += v
        seen = True
    return current if seen else None


def _age_value(s: str) -> int | None:
    m = regex.search(r"\d{1,3}", s)
    if m:
        return int(m.group())
    return spelled_number(s)


def age_ok(s: str) -> bool:
    v = _age_value(s)
    return v is not None and 0 <= v <= 125


_AGE_WORDS = regex.compile(r"(?i)\b(?:ninety|one hundred|hundred)")


def age_over_89(text: str) -> bool:
    """True when an AGE span's text states an age above 89 (HIPAA: aggregate as 90+)."""
    v = _age_value(text)
    if v is not None:
        return v > 89
    return bool(_AGE_WORDS.search(text))


# --- ages outside the "NN-year-old" frame -------------------------------------------------

AGE_NUM = rf"(?:\d{{1,3}}|{NUMBER_WORDS_RE})"
# what follows a number that makes it a quantity, a time or a score, not an age
_NOT_AGE_AFTER = (r"(?!\s*(?:[%/:°]|\.\d|-\d|(?:mg|mcg|kg|g|gm|lbs?|cm|mm|ml|cc|l|units?|u|bpm|beats|breaths|mmhg|"
                  r"am|pm|a\.m|p\.m|o'?clock|hours?|hrs?|h|minutes?|mins?|seconds?|secs?|days?|weeks?|wks?|"
                  r"times|x|degrees?|percent|points?|out\s+of|over|pounds|kilos?|feet|ft|inches|miles|cigarettes|"
                  r"packs?|drinks|beers|steps|calories|dollars|bucks|this\s+(?:morning|afternoon|evening)|tonight|"
                  r"today|tomorrow|yesterday|sharp)\b))")
_AGE_EVENT = regex.compile(
    r"(?i)\b(?:died|dies|death|passed(?:\s+away)?|deceased|killed|diagnosed|dx'?d?|heart\s+attacks?|mi|stroke|"
    r"cva|onset|menarche|menopause|retired|married|widowed|emigrated|immigrated|adopted|gave\s+birth|"
    # "Father expired at 60": a relative's death (the patient's "expired at 10" is a time)
    r"(?:father|mother|dad|mom|mum|brother|sister|son|daughter|husband|wife|grandfather|grandmother|uncle|aunt|"
    r"parents?|siblings?|fa|mo|fhx?)(?:['’]s)?[ \t:,-]+(?:(?!(?:pt|patient|when|while|as|after|before|until|and)\b)"
    r"[\w'’]+[ \t,]+){0,2}expired|"
    r"(?:quit|started|stopped)\s+smoking|left\s+school|cancer|\w+ectomy|\w+otomy|\w+plasty|bypass|transplant|"
    r"disease|syndrome|fracture|broke|injury|accident|"
    r"(?:had|got|caught|developed)\s+(?:\w+\s+){0,3}"
    r"(?:disease|illness|infection|fever|measles|mumps|chickenpox|pneumonia|meningitis|asthma|surgery|operation))\b")


# "him dead at eighty", "Father dead at 70": a person dead at an age (not "pronounced dead at 14:32", "found dead at 6")
_DEAD_AT = regex.compile(r"(?i)(?<!\b(?:pronounced|declared|found|confirmed|certified|brought[ \t]+in)[ \t]+)\bdead[ \t]+at[ \t]+"
                         r"(?:(?:like|about|around|only|just|um|uh)[ \t]+)?$")


def no_age_event(text: str, start: int, end: int) -> bool:
    """Vetoes ``at 52`` unless a life event (died, diagnosed, heart attack, retired ...) precedes
    it in the same sentence: ``at 5`` is otherwise a time, a dose or a rate."""
    before = _before(text, start, 60)
    before = regex.split(r"[.;!?\n]", before)[-1]
    return _AGE_EVENT.search(before) is None and _DEAD_AT.search(before) is None


_VITAL_BEFORE = regex.compile(
    r"(?i)\b(?:rate|pulse|pressure|bp|sats?|saturation|oxygen|o2|temp|temperature|weight|weighs|glucose|sugars?|"
    r"a1c|score|level|count|number|reading|readings|dose|size|psa|inr|hemoglobin|potassium|sodium|"
    # "one forty over ninety", not the journey in "we came over on the boat when i was nine"
    r"(?<!\b(?:came|come|comes|coming|moved|move|went|go|going|flew|sailed)(?:[ \t]+(?:here|there))?[ \t]+)over)\b")


_NOT_PERSON_SUBJECTS = frozenset("""pain it that this which there what temp temperature fever number level score scale
rate hurt sugar sugars sats bp pressure weight count reading dose time price bill rent cost total age one mine
everything nothing something heart pulse oxygen glucose a1c""".split())


def not_a_person_before_is(text: str, start: int, end: int) -> bool:
    """Vetoes ``the pain is five now``: the word before ``is`` names a measurement or a thing, not a person."""
    m = regex.search(r"([a-z][a-z'’-]*)\s+(?:is|s)\s+(?:only\s+|just\s+|almost\s+|nearly\s+)?[a-z -]*$",
                     _before(text, start, 40), regex.IGNORECASE)
    if m and m.group(1).casefold() in _NOT_PERSON_SUBJECTS:
        return True
    return vital_sign_before(text, start, end)


_DEVICE_WORDS = regex.compile(r"(?i)\b(?:foley|catheter|cath|tube|drain|sheath|line|ett|ngt|ng|og|picc|cvc|cvl|trach|"
                           r"tracheostomy|shiley|portex|introducer|stent|cannula|quinton|mahurkar|pigtail|chest|size)[ \t]*$")


def french_size_before(text: str, start: int, end: int) -> bool:
    """Vetoes ``Chest Tube 28F``: a device before the number makes it a French size."""
    return _DEVICE_WORDS.search(_before(text, start, 24)) is not None


def vital_sign_before(text: str, start: int, end: int) -> bool:
    """Vetoes ``your heart rate is eighty four now``: a measurement named earlier in the clause."""
    clause = regex.split(r"[.;!?\n]", _before(text, start, 40))[-1]
    return _VITAL_BEFORE.search(clause) is not None


_PREGNANCY = regex.compile(r"(?i)\b(?:pregnan\w*|midwi(?:fe|ves)|gestation\w*|due\s+date|antenatal|prenatal|"
                           r"trimester|fundal|bump|obstetric\w*|booking\s+visit|edd|lmp)\b")
_WEEKS_TODAY = regex.compile(r"(?i)\s+(?:weeks?|wks?)(?:\s+(?:today|now|pregnant|along|gestation)\b|\s+and\s+\w+\s+days?\b|\+\d)")
_WEEKS_AFTER = regex.compile(r"(?i)\s+(?:weeks?|wks?)\b(?!\s+old)")


def gestation_weeks(text: str, start: int, end: int) -> bool:
    """Vetoes ``you are twenty eight weeks today`` in a pregnancy visit: weeks of gestation, not an age."""
    if _WEEKS_TODAY.match(text, end):
        return True  # "so you are about thirty two weeks today": a gestation said as such, no other cue needed
    return bool(_WEEKS_AFTER.match(text, end)) and \
        _PREGNANCY.search(text, max(0, start - 600), min(len(text), end + 300)) is not None


_ORG_FIELD_NONE = regex.compile(r"(?i)(?:none|n/?a|unknown|not\s+applicable|self|self-employed|retired|unemployed|"
                                r"medicare|medicaid|private|nil|same|home|yes|no)\b")


def org_field_doubt(text: str, start: int, end: int) -> bool:
    """``Employer: None``, ``Insurance carrier: Medicare``: no organisation to protect (programmes and
    placeholders), and a heading word after a line break is not a name."""
    return _ORG_FIELD_NONE.match(text, start) is not None


# a quantity under discussion in the turn before a bare number: weeks of pregnancy, a weight, a reading
_QUANTITY_BEFORE = regex.compile(r"(?i)\b(?:weeks?|wks?|days?|months?|pregnan\w*|gestation|cm|kg|kilos?|pounds|lbs|mg|"
                                 r"score|pressure|sugar|glucose|pulse|rate|reading|weigh\w*|temperature|sats?|level)\b")


def _all_common_words(s: str) -> bool:
    """Every word of ``s`` is an English or clinical dictionary word (``fine``, ``card details``)."""
    from .protected import _load_dictionary

    dictionary = _load_dictionary()
    words = [w.casefold() for w in regex.findall(r"\p{L}+", s)]
    return not words or all(w in dictionary for w in words)


# --- session 17 (tune56, tune57): more age shapes ---------------------------------------------

_SUBJECT_BEFORE_IS = regex.compile(r"(?i)([a-z][a-z'’-]*)[ \t]+is[ \t]+(?:(?:only|just|now)[ \t]+)?$")


def subject_no_name(text: str, start: int, end: int) -> bool:
    """Vetoes ``the bus is ten he said``: the word before ``is`` must look like a first name (a listed given
    name, or a word no plain or medical dictionary holds), and no measurement may open the clause."""
    m = _SUBJECT_BEFORE_IS.search(_before(text, start, 40))
    if m is None:
        return True
    w = m.group(1).casefold()
    if len(w) < 3 or w in _NOT_PERSON_SUBJECTS or w in _NOT_RELATIVE_NAME:
        return True
    if w in _plain_vocabulary() and w not in _given_names_all():
        return True
    return vital_sign_before(text, start, end)


_RATE_WORD_BEFORE = regex.compile(r"(?i)\b(?:rr|resp\w*|rate|hr|pulse|bpm|breaths?|br|sats?|spo2|vt|ve|mv|tv|peep|"
                                  r"fio2|map|cvp|drops?|gtts?|mcg|mg|units?|ml|cc|kg|at|of|over|x|times|q)\W*$")


def rate_before_slash(text: str, start: int, end: int) -> bool:
    """Vetoes ``rr 22/m``: a rate or an amount before ``N/m`` (per minute), not a person."""
    return _RATE_WORD_BEFORE.search(_before(text, start, 16)) is not None or vital_sign_before(text, start, end)


def age_in_range(s: str) -> bool:
    v = _age_value(s)
    return v is not None and 1 <= v <= 120


_HOW_OLD_SPEAKER = (r"(?:[A-Z][\w'’.-]*(?:[ \t]+[A-Z][\w'’.-]*)?[ \t]*:|(?i:patient|pt|mother|father|mom|mum|dad|"
                    r"parent|son|daughter|wife|husband|caregiver|carer|client|relative|grandmother|grandfather)\b:?|"
                    r"\[[ \t]*[A-Za-z][\w .'-]{0,20}\][ \t]*:?|(?i:speaker)[ \t]*\d{1,2}[ \t]*:?)")
_AGE_RELATIONS = (r"wife|husband|son|daughter|mother|father|mom|mum|dad|brother|sister|partner|boyfriend|girlfriend|kids|"
                   r"grandmother|grandfather|grandma|grandpa|grandad|granddad|nana|gran|grandson|granddaughter|niece|nephew|aunt|uncle|cousin|"
                   r"baby|boy|girl|kid|child|little\s+one|youngest|oldest|eldest|stepson|stepdaughter|twins?")
# "nine months", "18 months old": an age in months or weeks unless it is a pregnancy or a time span
_AGE_UNIT_FOLLOW = (r"(?:months?|mos?|weeks?|wks?)\b(?!\s+(?:pregnant|along|gestation|postpartum|post|ago|sober|clean|"
                    r"behind|late|overdue|ahead|early|in\s+arrears|arrears|off|on\s+(?:the|this|it)|"
                    r"out|later|from|since|after|before|of|in|into|early|premature|preterm|late|overdue|prem))")
# children or siblings named as a group: "her two kids (5 and 8)", "2 sons (danny 16, mike 19)"
_AGE_GROUPS = (r"kids|children|childrens|sons|daughters|boys|girls|grandchildren|grandkids|grandsons|granddaughters|"
               r"great-grandchildren|stepchildren|stepkids|stepsons|stepdaughters|twins|triplets|brothers|sisters|"
               r"siblings|nieces|nephews|dtrs|daus")
# one age in such a list: an optional first name, the number, an optional unit or sex ("danny 16", "9 yo", "3 mos", "16m")
_GROUP_AGE_NUM = rf"(?:\d{{1,2}}(?![\d/:]|\.\d)|{NUMBER_WORDS_RE})"
_GROUP_AGE_NAME = r"(?:(?!(?:and|ages?|aged|or|both|all|the|twins?)\b)\p{L}[\p{L}'’.-]*[ \t]+)"
_GROUP_AGE_UNIT = r"(?:[ \t]*(?:y/?o|yo|yrs?|years?(?:[ \t]+old)?|y|mos?|months?(?:[ \t]+old)?|[mf]))?(?![\p{L}\d])"
_GROUP_AGE_ITEM = rf"(?:{_GROUP_AGE_NAME}?{_GROUP_AGE_NUM}{_GROUP_AGE_UNIT})"
_GROUP_AGE_SEP = r"(?:[ \t]*(?:,[ \t]*(?:and|&)?|;|&|\band\b)[ \t]*)"
_GROUP_NAME = rf"(?!(?:{_AGE_RELATIONS}|one|ages?|aged|and|or|both|all|the|twins?)\b)\p{{L}}[\p{{L}}'’-]+"
_GROUP_AGE_OPEN = (rf"\b(?:{_AGE_GROUPS})[ \t]*,?[ \t]*\([ \t]*(?:(?:ages?|aged)[ \t]*:?[ \t]*)?")
_AGE_FILLER = (r"(?i:i'?m|i\s+am|he'?s|she'?s|he\s+is|she\s+is|i'?ll\s+be|he'?ll\s+be|she'?ll\s+be|um+|uh+|oh|"
               # "how old is she / [grandson] we think eighty seven": a hedge before the reply
               r"(?:we|i)\s+(?:think|believe|guess|reckon)|maybe|probably|around|like|"
               r"well|just|about|almost|nearly|turned|only|now|yes|yeah)")


# a relative listed with a bare age ("Social: Mum 24, barista", "lives with husband 71; son 45")
_BARE_RELATIONS = (r"\b(?:mum|mom|mother|dad|father|wife|husband|partner|son|daughter|brother|sister|grandmother|"
                   r"grandfather|grandma|grandpa|nana|aunt|uncle|niece|nephew|stepmother|stepfather|stepson|stepdaughter|"
                   r"boyfriend|girlfriend|fianc[eé]e?)")
# a relative or a group of children, maybe named (two words at most), then the pronoun: "his sister brielle she's",
# "two girls matilda she's", "her son mateo who is" (read as a lookbehind from "she", "he", "who")
_REL_NAME_BEFORE = (rf"\b(?:{_AGE_RELATIONS}|{_AGE_GROUPS})(?:-in-law)?(?:[ \t]+(?!(?:is|was|who|whos|"
                    r"she|shes|he|hes|and|but|so|because|cos|when|if|that|then|i|you|we|they|it|its|has|had|have)\b)"
                    r"[\p{L}'’-]+){0,2}[ \t]*,?[ \t]+")
# after such a relative's number: no unit, time, score, height, count or "of" ("he's 5 10", "2 for 2")
_REL_AGE_TAIL = (r"(?![\w'’\"”/-]|\.\d|[ \t]*[%:°/]|[ \t]*-[ \t]*\d)"
                 rf"{_NOT_AGE_AFTER}(?![ \t]+(?:\d|(?:{_U19}|{_TEENS}|{_TENS_RE})\b))(?![ \t]+(?:of|to|for|or|foot|feet|ft|inch|"
                 r"inches|in[ \t]+(?:the|a|an)|stone|st|floors?|doors?|"
                 r"blocks?|streets?|miles?|kms?|km|metres?|meters?|yards?|months?[ \t]+(?:pregnant|along|gestation|postpartum|post|"
                 r"ago|sober|clean|behind|late|overdue|early)|years?[ \t]+(?:older|younger|apart|ahead|behind|ago|since|sober|"
                 r"clean|married|divorced|into|on|off|out|in|with|now[ \t]+since)|grades?|points?|out|over|percent|per|"
                 r"tablets?|pills?|doses?|units?|sessions?|visits?|cycles?|rounds?|times?|shots?|kids|children|grandkids|"
                 r"thirty|fifteen|forty[ \t-]+five|twenty|ten|oh|o['’]?clock|a\.?m|p\.?m|in[ \t]+the[ \t]+(?:morning|evening|afternoon)|"
                 r"at[ \t]+night|hundred|thousand|million|k|grand|dollars?|bucks|quid)\b)")


# --- ordinal and month-only dates ------------------------------------------------------

ORD_WORDS = (r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|"
             r"fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|"
             r"(?:twenty|thirty)[\s-]+(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth))(?![\w-])")
# an ordinal that can be a birthday's age: "her mother's ninetieth", "his twenty first" (tenth and above)
ORDINAL_AGE = (r"(?:(?:twenty|thirty|fou?rty|fifty|sixty|seventy|eighty|ninety)[ \t-]+(?:first|second|third|fourth|fifth|"
               r"sixth|seventh|eighth|ninth)|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|"
               r"eighteenth|nineteenth|twentieth|thirtieth|fou?rtieth|fiftieth|sixtieth|seventieth|eightieth|ninetieth|"
               r"(?:one[ \t]+)?hundredth|(?:one[ \t]+|a[ \t]+)?hundred[ \t]+(?:and[ \t]+)?(?:first|second|third|fourth|"
               r"fifth|sixth|seventh|eighth|ninth|tenth))")
DAY_ORD = rf"(?:(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b|{ORD_WORDS})"
MONTH_NAMES = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
               r"(?![\w-])")
# whose Nth birthday: "her mother's", "my mothers", "his"; after the ordinal a clause break, a pronoun, a when, or
# "birthday" / "party", never a noun ("her mother's second husband", "his 10th cycle")
_ORD_AGE_OWNER = rf"\b(?:(?:{_AGE_RELATIONS})(?:-in-law)?['’]?s|his|her|my|your|their|our)[ \t]+"
_ORD_AGE_FOLLOW = (r"(?=[ \t]*(?:[.,;!?)]|$)|[ \t]+(?:birthday|bday|b-day|party|celebration|bash|do|her|his|my|their|our|"
                   r"your|she|he|they|we|i|next|this|last|coming|so|but|because|cos|doctor|doc|and[ \t]+(?:she|he|we|i|they)|"
                   rf"(?:in|on)[ \t]+(?:{MONTH_NAMES}|(?:mon|tues|wednes|thurs|fri|satur|sun)day))\b)")
_MONTH_CUE = (r"(?:in|since|until|till|til|by|last|next|early|late|mid|during|through|thru|from|before|after|"
              r"around|of|this|every|each|end\s+of|beginning\s+of|start\s+of|come)")
# "may" is a month only after these (not after "this", "which", "of": "this may seem", "which may")
_MAY_CUE = (r"(?:in|since|until|till|til|by|last|next|early|late|mid|during|through|thru|from|before|after|"
            r"around|end\s+of|beginning\s+of|start\s+of|middle\s+of)")
# what cannot follow a month name ("may be", "may need"): the modal verb
_MODAL_AFTER = (r"(?!\s+(?:be|have|has|had|need|want|not|also|require|cause|take|get|go|come|help|benefit|"
                r"consider|make|want|wish|still|well|just|never|only|try|give|use|see|feel|do|return|resume|"
                r"continue|change|start|stop|increase|decrease|lead|result|affect|include|indicate|reflect|"
                r"represent|explain|develop|occur|improve|worsen|recur|i|we|you|he|she|they|it)\b)")
# what may follow "the 14th" when it is a date: punctuation, the month, a clause word; not a noun
_DATE_TALK_BEFORE = regex.compile(r"(?i)\b(?:" + MONTH_NAMES + r"|appointment|appt|booked|book|scheduled|reschedule|"
                                   r"admitted|discharged|date|due|surgery|operation)")
_ORD_DATE_AFTER = (r"(?!\s+of\s+(?:the|every|each)\s+(?:month|year|week)\b)"
                   # "about the third or fourth day": two ordinals before a unit count days, no date is named
                   r"(?!\s*(?:or|to|and|-)\s*(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|"
                   r"eighth|ninth|tenth|eleventh|twelfth)\s+(?:days?|nights?|weeks?|months?|doses?|cycles?|rounds?)\b)"
                   r"(?=\s*(?:[.,;:!?)\n]|$)|\s+(?:of\s+(?:" + MONTH_NAMES + r"|this|next|last|the)\b|at\b|in\s+the\b|"
                   r"and\b|or\b|to\b|for\b|then\b|when\b|if\b|unless\b|so\b|but\b|is\b|was\b|works?\b|ok(?:ay)?\b|please\b|"
                   r"in\s+(?!a\s+row\b|line\b|command\b|charge\b)|"
                   r"right\b|instead\b|too\b|as\b|because\b|i\b|we\b|you\b|he\b|she\b|they\b|it\b|with\b|after\b|"
                   r"before\b|around\b|through\b|until\b|then\b|that\b|which\b|would\b|will\b|could\b|should\b|"
                   r"fine\b|good\b|great\b|doctor\b|dr\b|are\b|were\b|has\b|had\b|have\b|shows?\b|"
                   # "see you on the twenty second same time", "on the eleventh can you tell me"
                   r"same\s+time\b|can\s+(?:you|i|we)\b|could\s+(?:you|i|we)\b|now\b|yeah\b|yes\b|alright\b|sounds\b|suits?\b|"
                   # "on the twenty first out at limestone", "till the twenty second only"
                   r"out\s+(?:at|in|to|on)\b|only\b|"
                   r"[a-z]+ed\b(?<!\b(?:red|bed|infected|affected|involved)\b)))")


_PERSON_BEFORE = regex.compile(
    r"(?i)\b(?:wife|husband|partner|daughter|son|mother|mom|mum|father|dad|sister|brother|aunt|auntie|uncle|niece|"
    r"nephew|cousin|grandmother|grandma|granddaughter|friend|neighbou?r|mrs|ms|miss|mr|dr|nurse|named|called|"
    r"dear|patient|pt|client)\.?,?\s+$")
_ORDINAL_WORD = regex.compile(ORD_WORDS, regex.IGNORECASE)


def month_is_a_name(text: str, start: int, end: int) -> bool:
    """``my wife June``, ``June Okafor``: a month name used as a first name (a relation or title
    before it, or a surname after it)."""
    if _PERSON_BEFORE.search(_before(text, start, 16)):
        return True
    m = regex.match(r"[ \t]+([A-Z][a-z]+)\b(?!\.)", text[end:end + 20])
    if m is None or _ORDINAL_WORD.fullmatch(m.group(1)) or regex.fullmatch(WEEKDAYS_EN, m.group(1), regex.I) \
            or regex.fullmatch(MONTH_NAMES, m.group(1), regex.I):
        return False
    w = m.group(1).casefold()
    common, names, _ = _name_vocabulary()
    return w in names or w not in common  # "June Smith", "June Okafor"; not "June The ..."


_AU_NOT_TOWN = frozenset("""
pt patient the his her their with on at repeat repeated baseline post pre goal target level levels check checked
recheck initial last first next today am pm now then and or but was is heparin per ptt pt/inr
""".split())


def au_state_doubt(text: str, start: int, end: int) -> bool:
    """``Pt ACT 1200`` (activated clotting time), not a town, state and postcode."""
    m = regex.search(r"([A-Za-z]+),?[ \t]{1,2}(?:[A-Za-z]{2,3}[ \t]{1,2})?$", _before(text, start, 30))
    return m is None or m.group(1).casefold() in _AU_NOT_TOWN


# years and days said in words (speech-to-text): "two thousand and eight", "nineteen ninety two", "twenty nineteen",
# "O nine"; "February nineteen"
SPELLED_YEAR = (rf"(?:two[\s-]+thousand(?:[\s-]+(?:and[\s-]+)?(?:{_TEENS}|{_TENS_RE}(?:[\s-]+{_U19})?|{_U19}))?|"
                rf"nineteen[\s-]+(?:{_TENS_RE}(?:[\s-]+{_U19})?|hundred(?:[\s-]+and[\s-]+{_BELOW_100})?|"
                rf"(?:o|oh|zero)[\s-]+{_U19})|"
                rf"twenty[\s-]+(?:{_TEENS}|twenty(?:[\s-]+{_U19})?|(?:o|oh|zero)[\s-]+{_U19}))(?![\w-])")
SHORT_SPELLED_YEAR = rf"(?:(?:o|oh|zero)[\s-]+{_U19}|{_TENS_RE}(?:[\s-]+{_U19})?)(?![\w-])"
CARDINAL_DAY = rf"(?:{_TEENS}|twenty(?:[\s-]+{_U19})?|thirty(?:[\s-]+one)?|{_U19})(?![\w-])"
MONTHS_NO_MAY = (r"(?:january|february|march|april|june|july|august|september|october|november|december)"
                 r"(?![\w-])")


def ordinal_ok(s: str) -> bool:
    """``1st``/``2nd``/``3rd``/``21st`` but not ``1th``/``2st`` (a typo is not a date we can trust)."""
    m = regex.match(r"(\d{1,2})(st|nd|rd|th)$", s.strip().lower())
    if m is None:
        return True  # a word ordinal
    n, suf = int(m.group(1)), m.group(2)
    want = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return suf == want and 1 <= n <= 31


# --- named wards and units ---------------------------------------------------------------

_GENERIC_UNIT_WORDS = frozenset("""
intensive care critical coronary cardiac cardiothoracic cardiology surgical surgery medical medicine general
maternity labour labor delivery birthing burns burn stroke renal dialysis oncology haematology hematology
assessment observation admissions admission discharge day night high dependency neonatal newborn baby special
step-down stepdown rehabilitation rehab psychiatric psychiatry mental health acute trauma orthopaedic orthopedic
respiratory isolation private neuro neurology neurosurgical neuroscience neurosciences telemetry transplant short
stay long term elderly geriatric paediatric pediatric children's childrens women's womens men's male female mixed
recovery theatre theater endoscopy infusion ambulatory emergency decision clinical nursing home sleep pain
palliative hospice spinal cancer postnatal antenatal gynaecology gynecology urology ent eye dental plastics vascular
liver kidney hepatology gastro gastroenterology endocrine diabetes cystic fibrosis adolescent youth teenage
inpatient outpatient treatment procedure procedures imaging radiology research trials family patient patients
the this that our your his her their a an each every same other new old main east west north south upper lower
first second third ground floor level secure locked open closed forensic addiction detox eating disorders memory
dementia frailty ortho cardio infectious diseases plastic wound tissue viability metabolic enteral nutrition blood
transfusion bone marrow stem cell chemo chemotherapy radiotherapy catheter cath lab laboratory hyperbaric lung heart
chest decisions minor injuries injury urgent primary secondary tertiary regional national county state city
community mobile quarantine covid surge overflow escalation holding transit transfer lounge waiting reception
triage surgical medical step down cardiovascular thoracic vascular haemodialysis hemodialysis peritoneal
apheresis coronary-care high-dependency short-stay day-case outreach virtual ward unit wing pavilion his her
chronic postoperative post-operative preoperative pre-operative perioperative post-anaesthesia post-anesthesia
anaesthesia anesthesia anesthetic post-surgical observational medical-surgical med-surg progressive transitional
subacute sub-acute skilled extended residential supported assisted independent living memory-care behavioral
behavioural hospital hospitals clinic clinics centre center infirmary health-care healthcare""".split())


@lru_cache(maxsize=1)
def _medical_vocabulary() -> frozenset[str]:
    from ..lexicons import load_lexicon

    words: set[str] = set()
    for li in ("medical_terms", "medical_abbreviations"):
        words |= {w.casefold() for w in load_lexicon(li)}
    return frozenset(words)


def generic_unit_name(text: str, start: int, end: int) -> bool:
    """Vetoes ``Intensive Care Unit``, ``Surgical Ward``: every word before Ward/Unit is a
    generic clinical word; ``Dunmore Ward`` and ``Seahorse Unit`` are names. Vetoes ``Mason Ward``
    too: a first name before ``Ward`` is a person called Ward."""
    words = regex.findall(r"[\p{L}'’-]+", text[start:end])
    vocab = _medical_vocabulary()
    if words[-1] == "Ward" and words[0].casefold() in _name_vocabulary()[2]:
        return True
    common, names, _ = _name_vocabulary()
    first = words[0].casefold()
    if regex.search(r"(?:^|[.!?:]\s*|\n\s*)$", _before(text, start, 4)) and first in common and first not in names:
        return True  # "Attends Ward ...", "Transferred Unit": a sentence-initial word, not a ward's name
    return all(w.casefold() in _GENERIC_UNIT_WORDS or w.casefold() in vocab for w in words[:-1])


# --- field headers vs. dialogue ------------------------------------------------------------

_DIALOGUE_WORDS = frozenset("""
yes yeah yep no nope do try ok okay sure thanks thank you speaking doctor doc nurse hello hi hey morning afternoon
evening good fine well sorry please right alright pardon what who how why when where here there it's i'm
i i'll i've we're that's this that is am are was just not sir madam ma'am bye goodbye cheers great
naw nah yup aye mm hmm uh um
""".split())


_NOT_SIGNOFF = frozenset("""pt ok no md np pa per the and by am pm to at of in on my fyi or is as if so be we he
she it us an cc frcp frcpc frcs frcsc frcsi frcpi fracp fracs fracgp franzcp mrcgp mrcp mrcpch mrcs mrcpi frcog
mrcog facp facs facc faap fccp mbbs mbchb frcgp ccfp fcfp frcr frcpath frcem frcpch frcpsych mrcpsych""".split())


_US_STATE_CODES = frozenset("""AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH
NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR""".split())


# lower-case words that are also state codes: never a state before "plate" ("in plate", "or plate")
_LOWER_NOT_STATE = frozenset("in or me hi oh ok id la de al co ne pa wa ms md ga mo".split())


# kin and care words that own a phone in a note ("SON'S CELL", "dtr's #"): never the name
_KIN_WORDS = frozenset("""dtr pt pt's family niece nephew grandson granddaughter grandma grandpa stepson stepdaughter
fiance fiancee girlfriend boyfriend sil dil bil hcp proxy caregiver""".split())


def _relative_word_name(w: str) -> bool:
    """A first name among the 3,000 most frequent that is not a word of the note's grammar (``will``, ``may``),
    or, written with an initial capital, a word no dictionary holds (``Father Bao calls nightly``)."""
    n = w.casefold()
    if n in _NOT_RELATIVE_NAME:
        return False
    return n in _name_vocabulary()[2] or (w[:1].isupper() and w[1:].islower() and len(n) >= 3 and _unknown_words(n)
                                          and n not in _medical_abbreviations())


def _signoff_first_name(w: str) -> bool:
    """``amy d``: a frequent first name (not a word of the note's grammar) and an initial."""
    first = w.split()[0]
    return _relative_word_name(first) and first.casefold() not in _NOT_SIGNOFF


@lru_cache(maxsize=1)
def _medical_abbreviations() -> frozenset[str]:
    from ..lexicons import load_lexicon

    return frozenset(w.casefold() for w in load_lexicon("medical_abbreviations"))


def _role_caps_name(w: str) -> bool:
    """A listed name, or a word no plain or medical dictionary holds, that is no English word and no medical
    abbreviation (``JANICE``, ``GUNNAR``, ``OKAFOR``; not ``SKIP``, ``NOTE``, ``ABG``)."""
    n = w.casefold()
    if n in _name_vocabulary()[0] or n in _medical_abbreviations() or n in _NOT_SIGNOFF:
        return False
    return n in _name_vocabulary()[1] or (len(n) >= 4 and _unknown_words(n))


def _dash_initials(w: str) -> bool:
    """``--mt`` closing a line: initials, not an abbreviation or a word (``- npo``, ``--ok``)."""
    n = w.casefold()
    return n not in _NOT_SIGNOFF and n not in _name_vocabulary()[0] and n not in _medical_abbreviations()


_NOT_RELATIVE_NAME = frozenset("""will may can june april august an and are as at be but by for from has her his
how in is it its me my no not of on or our she so that the them then they this to too up us was we who why you your
also here there home now still very well just each both either all any other who""".split())


@lru_cache(maxsize=1)
def _name_vocabulary() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(common English words, frequent first names and surnames, frequent first names)."""
    from ..lexicons import load_lexicon

    common = frozenset(w.casefold() for w in load_lexicon("common_words_en"))
    first = frozenset(w.casefold() for w in load_lexicon("first_names_en")[:3000])
    names = {w.casefold() for w in load_lexicon("first_names_en")}
    names |= {w.casefold() for w in load_lexicon("surnames_en")[:5000]}
    return common, frozenset(names), first


_NOT_NICKNAME = frozenset("""
paati patti thatha thaatha nani nana dadi dada ammamma ammachi appachan lola lolo abuela abuelo abuelita abuelito tita tito
bibi babu mamaw papaw meemaw peepaw granny grampa gramps nonna nonno oma opa yaya
back later tomorrow today tonight anytime any if when on at at the after before first again sometime soon now please
dad mom mum mother father doc doctor nurse sir madam ma'am honey dear love sweetie names that this crazy old silly
son daughter husband wife brother sister friend neighbor neighbour partner boss aunt uncle cousin grandma grandpa
nan nana papa granny office work home cell mobile landline number directly do does did you is are and so to in about
as with or but""".split())


_NOT_STREET_WORD = frozenset("""
the and final last first second third next later then also again most more dose doses day days week weeks time
times attempt attempts trial trials visit visits cycle cycles round rounds floor floors grade stage line lines
""".split())


_NOT_STREET_NAME = frozenset("""
the a an my your his her our their its this that these those same other another next busy wrong whole one each every
back side dirt long open any some no to different new old right left far own private slip ring country toll quiet
gravel icy wet bumpy main high test memory fast slow last first second long-term short-term rocky bumpy home way
his hers what which whose
""".split())


def street_lower_doubt(text: str, start: int, end: int) -> bool:
    """Vetoes ``on the road``, ``down memory lane``, ``on my street``: the first word of a
    lower-case street name must be a name word, not a determiner or an ordinary adjective
    (``main`` only before ``street``)."""
    words = text[start:end].split()
    if regex.match(r"(?:route|highway|hwy|rte|interstate)$", words[0]):
        return False
    if words[0] == "main" and words[-1] == "street":
        return False
    return any(w.casefold() in _NOT_STREET_NAME for w in words[:-1])


_NOT_PERSON_WORDS = frozenset("""
road street avenue lane drive way place close court crescent terrace boulevard ward unit sister suite floor level bay
room bed hospital clinic centre center practice surgery school house home hall block building wing tower station
team group service services department program programme score scale grade stage class
""".split())


def not_a_person_before(text: str, start: int, end: int, sep: str = r",[ \t]$") -> bool:
    """Vetoes ``Stroud Green Road, 12, is``: the capitalised words before ``, N,`` (or ``(N)``) must
    look like a person's name (no street, unit or building word; not only dictionary words that no
    name list holds)."""
    m = regex.search(r"((?:\p{Lu}[\p{L}'’-]+[ \t]+){0,2}\p{Lu}[\p{L}'’-]+)(?:[ \t]*\([^()\n]{1,30}\))?" + sep,
                     text[max(0, start - 60):start])
    if not m:
        return True
    words = [w.casefold() for w in m.group(1).split()]
    if any(w in _NOT_PERSON_WORDS for w in words):
        return True
    common, names, _ = _name_vocabulary()
    return all(w in common and w not in names for w in words)


def corner_word_doubt(text: str, start: int, end: int) -> bool:
    """``on 2nd and final attempt``: the word beside the ordinal is no street name."""
    words = regex.findall(r"[A-Za-z]{3,}", text[start:end])
    return any(w.casefold() in _NOT_STREET_WORD for w in words if w.casefold() not in ("and", "st", "street", "ave",
                                                                                        "avenue"))


_NOT_SELF_NAME = frozenset("""not just only also actually really still here there now sorry the a an his her their
basically kind sort like um uh er erm well so yes yeah no okay ok fine good calling ringing speaking phoning with
back home going coming""".split())


_NOT_VOCATIVE_CAP = frozenset("""doctor dr sir madam maam ma'am mum mom dad mother father nurse love dear darling honey
mate team everyone everybody all folks guys friend son daughter ok okay yes no well so right thanks sorry please
good great sure fine monday tuesday wednesday thursday friday saturday sunday january february march april may june
july august september october november december today tomorrow tonight patient physician clinician mr mrs ms miss
first second third next then also however again too though anyway""".split())


def not_a_vocative_name(piece: str) -> bool:
    """A capitalised word in a vocative slot is a name only when a given-name list holds it
    (``Mae``, ``Dorothy``), not when it is a title, a month or a discourse word."""
    w = piece.casefold()
    return w in _NOT_VOCATIVE_CAP or w not in _given_names_all() or w in _place_names_lower()


@lru_cache(maxsize=1)
def _place_names_lower() -> frozenset[str]:
    from ..lexicons import load_lexicon

    out: set[str] = set()
    for name in ("states_us", "countries_en"):
        try:
            out |= {w.casefold() for w in load_lexicon(name)}
        except KeyError:
            pass
    return frozenset(out)


def not_a_self_name(piece: str) -> bool:
    """``im not his dad``, ``its just her mum``: a word that is no name before the relation."""
    words = piece.casefold().split()
    if not words or any(w in _NOT_SELF_NAME for w in words):
        return True
    common, names, _ = _name_vocabulary()
    return all(w in common and w not in names for w in words) and len(words) == 1 and words[0] in common \
        and words[0] not in _given_names_all()


@lru_cache(maxsize=1)
def _given_names_all() -> frozenset[str]:
    from ..lexicons import load_lexicon

    out = {w.casefold() for w in load_lexicon("first_names_en")}
    try:
        out |= {w.casefold() for w in load_lexicon("first_names_world")}
    except KeyError:
        pass
    return frozenset(out)


def not_a_nickname(text: str, start: int, end: int) -> bool:
    """Vetoes ``call me back``, ``call me tomorrow``: the word after ``call me`` must look like a
    name (a first name, or a word that is no common English word)."""
    w = text[start:end].casefold().rstrip("'’")
    if w in _NOT_NICKNAME:
        return True
    if text[start:start + 1].isupper() and not text[start:end].isupper() and \
            regex.match(r"[ \t]*(?:[.,;!?)\"”]|$)", text[end:end + 3]) and \
            regex.search(r"\p{Ll}", text[max(0, start - 40):start]):
        return False  # "Everyone calls me Daze.": a capitalised word closing the clause in a mixed-case text
    common, names, _ = _name_vocabulary()
    return w in common and w not in names


def not_a_name_reply(text: str, start: int, end: int) -> bool:
    """Vetoes ``Patient: Yes, speaking``: after a speaker label the rest of the line is a turn
    of speech when one of its words is a dialogue word or a common word that is no frequent name."""
    words = regex.findall(r"[\p{L}'’]+", text[start:end])
    if not words:
        return True
    common, names, _ = _name_vocabulary()
    for w in words:
        k = w.casefold().replace("’", "'")
        if k in _DIALOGUE_WORDS and not (w[:1].isupper() and k in names):
            return True
        if k in common and k not in names:
            return True
    return False


# a speaker's turn of several words at the start of a line ("doctor: where does he live in india")
_LONG_TURN = regex.compile(r"(?im)^[ \t]*(?:\[[a-z ]{2,20}\]|(?:doctor|dr|doc|physician|clinician|provider|nurse|patient|pt|"
                           r"son|daughter|wife|husband|mother|father|mom|mum|dad|interpreter|caregiver|parent|guardian|"
                           r"partner|sister|brother|grandson|granddaughter)[ \t]*:)[ \t]*\S+(?:[ \t]+\S+){3}")


def _turn_of_a_dialogue(text: str, start: int, end: int) -> bool:
    """``patient: madurai tamil nadu`` in a lower-case transcript is the patient's answer, not a name field: the value is
    in lower case and the text has at least three turns of four words or more."""
    if not text[start:end].islower():
        return False
    n = 0
    for _ in _LONG_TURN.finditer(text):
        n += 1
        if n >= 3:
            return True
    return False


_STREET_WORD = regex.compile(r"\p{L}[\p{L}'’]*")
_PREPOSITIONS = frozenset({"by", "per", "to", "at", "in", "on", "of", "with", "for", "from", "and", "or", "x"})


@lru_cache(maxsize=1)
def _plain_vocabulary() -> frozenset[str]:
    from ..lexicons import load_lexicon

    words: set[str] = set()
    for li in ("common_words_en", "medical_terms", "medical_abbreviations", "drugs"):
        words |= {w.casefold() for w in load_lexicon(li)}
    return frozenset(words)


def _unknown_words(piece: str) -> bool:
    """Every word of ``piece`` is one no plain or medical dictionary holds (also as a plural)."""
    plain = _plain_vocabulary()
    words = regex.findall(r"[\p{L}'’-]+", piece.casefold())
    return bool(words) and all(w not in plain and w.rstrip("s") not in plain and w.removesuffix("es") not in plain
                               and w.replace("’", "'").split("'")[0] not in plain for w in words)


def street_vocabulary(text: str, start: int, end: int) -> bool:
    """Vetoes ``3 WAY FOLEY``, ``50 BY DR``: street words that are all ordinary or medical words,
    unless they are Title-case (``123 Main St``)."""
    m = regex.match(r"\d+[A-Z]?(?:-\d+)?\s+", text[start:end])
    body = text[start + (m.end() if m else 0):end]
    words = _STREET_WORD.findall(body)
    if len(words) < 2:
        return True
    name_words = words[:-1]
    if regex.match(r"(?i)(?:apt|apartment|suite|ste|unit|fl|floor)$", name_words[-1]) and len(name_words) > 2:
        name_words = name_words[:-2]
    if name_words and name_words[-1].casefold() in _PREPOSITIONS:
        return True
    if any(w[:1].isupper() and w[1:].islower() for w in name_words):
        return False
    if m is not None and len(digits(m.group())) == 1 and words[-1] in ("ST", "CT", "DR", "PL", "CIR", "TER"):
        return True  # "3 EPISODES ST", "2 MEDIASTINAL CT": a count, then ST segment / chest tube
    vocab = _plain_vocabulary()
    return all(w.casefold() in vocab or w.casefold() in _PREPOSITIONS for w in name_words)


# First digit of the ZIP codes of each state (USPS national areas 0-9).
_ZIP_AREA = {
    **dict.fromkeys(("CT", "MA", "ME", "NH", "NJ", "PR", "RI", "VT"), "0"), **dict.fromkeys(("DE", "NY", "PA"), "1"),
    **dict.fromkeys(("DC", "MD", "NC", "SC", "VA", "WV"), "2"), **dict.fromkeys(("AL", "FL", "GA", "MS", "TN"), "3"),
    **dict.fromkeys(("IN", "KY", "MI", "OH"), "4"), **dict.fromkeys(("IA", "MN", "MT", "ND", "SD", "WI"), "5"),
    **dict.fromkeys(("IL", "KS", "MO", "NE"), "6"), **dict.fromkeys(("AR", "LA", "OK", "TX"), "7"),
    **dict.fromkeys(("AZ", "CO", "ID", "NM", "NV", "UT", "WY"), "8"),
    **dict.fromkeys(("AK", "CA", "HI", "OR", "WA"), "9"),
}
_STATE_NAME_ABBR = {
    "alabama": "AL", "alaska": "AK", "arizona": "AZ", "arkansas": "AR", "california": "CA", "colorado": "CO",
    "connecticut": "CT", "delaware": "DE", "district of columbia": "DC", "florida": "FL", "georgia": "GA",
    "hawaii": "HI", "idaho": "ID", "illinois": "IL", "indiana": "IN", "iowa": "IA", "kansas": "KS",
    "kentucky": "KY", "louisiana": "LA", "maine": "ME", "maryland": "MD", "massachusetts": "MA", "michigan": "MI",
    "minnesota": "MN", "mississippi": "MS", "missouri": "MO", "montana": "MT", "nebraska": "NE", "nevada": "NV",
    "new hampshire": "NH", "new jersey": "NJ", "new mexico": "NM", "new york": "NY", "north carolina": "NC",
    "north dakota": "ND", "ohio": "OH", "oklahoma": "OK", "oregon": "OR", "pennsylvania": "PA",
    "puerto rico": "PR", "rhode island": "RI", "south carolina": "SC", "south dakota": "SD", "tennessee": "TN",
    "texas": "TX", "utah": "UT", "vermont": "VT", "virginia": "VA", "washington": "WA", "west virginia": "WV",
    "wisconsin": "WI", "wyoming": "WY",
}


def zip_fits_state(state: str, zip_code: str) -> bool:
    """True when the ZIP's first digit is the state's USPS area (``ID 83702`` yes, ``ID 40718`` no:
    an identifier after ``ID``). Unknown states pass."""
    st = state.strip().upper() if len(state.strip()) == 2 else _STATE_NAME_ABBR.get(state.strip().casefold(), "")
    area = _ZIP_AREA.get(st)
    return area is None or not zip_code[:1].isdigit() or zip_code[0] == area


_ZIP_AFTER = regex.compile(r",?\s{1,3}(\d{5})")
_STATE_BEFORE = regex.compile(r"(\b[A-Z]{2}|[A-Z][a-z]+(?: [A-Za-z][a-z]+){0,2}),?\s{1,3}$")


def state_zip_mismatch(text: str, start: int, end: int) -> bool:
    """For a STATE span: the ZIP after it belongs to another area."""
    m = _ZIP_AFTER.match(text, end)
    return m is not None and not zip_fits_state(text[start:end], m.group(1))


def zip_state_mismatch(text: str, start: int, end: int) -> bool:
    """For a ZIP span after a state: the state before it is of another area."""
    before = _before(text, start, 30)
    m = _STATE_BEFORE.search(before)
    if m is None:
        return False
    st = m.group(1)
    for k in range(len(st)):  # the longest state name that ends the text before
        tail = st[k:]
        if (k == 0 or st[k - 1] == " ") and (tail.casefold() in _STATE_NAME_ABBR or tail in _ZIP_AREA):
            return not zip_fits_state(tail, text[start:end])
    return False


_CITY_STATE_ZIP = regex.compile(r",\s{1,2}([A-Z]{2}|[A-Z][a-z]+(?: [A-Za-z][a-z]+){0,2}),?\s{1,3}(\d{5})")


def _person_name(words: list[str]) -> bool:
    """``Jane Smith``: a frequent first name, then a frequent surname (a signature, not a town)."""
    if len(words) < 2:
        return False
    _, names, first = _name_vocabulary()
    return words[0].casefold() in first and words[-1].casefold() in names


def city_zip_mismatch(text: str, start: int, end: int) -> bool:
    """For a CITY span before ``, ST 12345``: the ZIP does not fit the state; before ``, MD``
    or ``, PA`` at a line end, a person's name is a signature with a credential."""
    m = _CITY_STATE_ZIP.match(text, end)
    if m is not None:
        return not zip_fits_state(m.group(1), m.group(2))
    if regex.match(r",\s{1,2}(?:MD|PA|DO)\b", text[end:end + 6]):
        return True  # "Anil Deshpande, MD": a credential far more often than Maryland
    return _person_name(regex.findall(r"[\p{L}'’]+", text[start:end]))


_CITY_BEFORE_STATE = regex.compile(r"((?:[A-Z][a-z]+|[A-Z]{2,})(?:[ -](?:[A-Z][a-z]+|[A-Z]{2,})){0,2}),\s{1,2}$")


def state_line_end_doubt(text: str, start: int, end: int) -> bool:
    """For ``City, ST`` at a line end: vetoes ``Jane Smith, MD`` (a name and a credential)."""
    if text[start:end] in ("MD", "PA"):
        return True  # a credential after a name far more often than Maryland
    m = _CITY_BEFORE_STATE.search(_before(text, start, 40))
    return m is None or _person_name(regex.findall(r"[\p{L}'’]+", m.group(1)))


_NOT_TOWN_AFTER_IN = {"summary", "brief", "addition", "short", "total", "general", "particular", "person", "clinic",
                      "office", "conclusion", "fact", "practice", "care", "charge", "consultation", "attendance"}


def _transfer_here(text: str, start: int, end: int) -> bool:
    """``TX HERE SAME DAY``: in a nursing note "tx here" is a transfer (not Texas)."""
    return text[start:end] in ("TX", "Tx", "tx") and regex.match(r"(?i)[ \t]+here\b", text[end:end + 8]) is not None


def state_after_town_doubt(text: str, start: int, end: int) -> bool:
    """For ``in Silver Spring, MD.``: the words between the cue and the comma are a person's name
    (``in Jane Smith, MD's care``) or an everyday phrase (``in Summary, PA ...``)."""
    if _transfer_here(text, start, end):
        return True  # "BORN 11/28 @ ST. MARGARET'S, TX HERE SAME DAY": a transfer, not Texas
    m = _CITY_BEFORE_STATE.search(_before(text, start, 40))
    if m is None:
        return True
    words = regex.findall(r"[\p{L}'’]+", m.group(1))
    return not words or words[0].casefold() in _NOT_TOWN_AFTER_IN or _person_name(words)


_NOT_HOUSE_LINE = {"tablet", "tablets", "capsule", "capsules", "puff", "puffs", "drop", "drops", "unit", "units",
                   "dose", "doses", "time", "times", "day", "days", "week", "weeks", "month", "months", "year",
                   "years", "hour", "hours", "minute", "minutes", "patient", "patients", "child", "children", "bed",
                   "beds", "sachet", "sachets", "spray", "sprays", "vial", "vials", "ampoule", "ampoules", "mg", "ml",
                   "morning", "evening", "night", "daily", "weekly", "monthly", "nightly", "today", "tomorrow",
                   "yesterday", "total", "other", "none", "yes", "no", "left", "right", "both", "and", "or", "with",
                   "twice", "once", "then", "stat", "prn", "only", "each", "every", "per", "ward", "room", "floor"}


# last words of street names, British and American (hand-written): "Beck Side", "Fell Gate", "Mill Brow"
_HOUSE_STREET_WORDS = {"street", "st", "road", "rd", "lane", "ln", "avenue", "ave", "drive", "dr", "way", "close",
                       "court", "ct", "crescent", "terrace", "place", "pl", "gardens", "grove", "mews", "row", "hill",
                       "green", "park", "side", "gate", "walk", "view", "rise", "end", "bank", "brow", "fold", "croft",
                       "yard", "square", "parade", "wynd", "vale", "meadow", "meadows", "fields", "lea", "heights",
                       "cottages", "farm", "house", "lodge", "boulevard", "blvd", "circle", "pike", "highway", "hwy",
                       "parkway", "trail", "loop", "run", "ridge", "hollow", "chase", "approach", "quay", "wharf",
                       "common", "causeway", "brae", "hey", "hall", "manor", "cottage", "barton", "nook", "garth"}


def house_line_doubt(text: str, start: int, end: int) -> bool:
    """For the town of ``12 Beck Side, Staveley``: the words after the house number must end in a street word
    and the line must not be a dose, count or schedule (``2 Tablets Daily, Morning``)."""
    line_start = text.rfind("\n", 0, start) + 1
    street = text[line_start:start].rstrip(" \t,")
    words = regex.findall(r"\p{L}+", street)
    if not words or words[-1].casefold() not in _HOUSE_STREET_WORDS:
        return True
    return any(w.casefold() in _NOT_HOUSE_LINE for w in regex.findall(r"\p{L}+", text[line_start:end]))


def not_phone_context(text: str, start: int, end: int) -> bool:
    """Lab panels and ranges that look like numbers with separators."""
    b = _before(text, start, 12).lower()
    return bool(regex.search(r"(?:mrn|mr#|record|acct|account|ssn|dob|lot|#\s*of)\s*[:#]?\s*$", b))


# --- English patterns ---------------------------------------------------------------------

P = Pattern
I_ = regex.IGNORECASE

EN_PATTERNS: tuple[Pattern, ...] = (
    # dates --------------------------------------------------------------------
    P("date_iso", rf"(?<![\d/.-]){YEAR4}[-/.](?:0?[1-9]|1[0-2])[-/.]{DAY}(?:[T ](?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?)?"
      rf"(?![\d/])", "DATE", 0.97, validate=md_ok),
    P("date_numeric", rf"(?<![\d/.:'-])(?<![xX])(?:{DAY}|{MONTH_NUM})(?P<sep>[/.-]){DAY}(?P=sep)(?:{YEAR4}|\d{{2}})"
      rf"(?![\d/%]|\.\d|-\d)", "DATE", 0.95, validate=md_ok,
      invalidate=lambda t, s, e: _VENT.search(_before(t, s, 30)) is not None),
    P("date_month_day", rf"(?<![\d/.:,=+'’])(?<!\d[-xX])(?<![xX])(?<!\b[xX]\s){MONTH_NUM}/{DAY}(?![\d/]|\.\d|\s*[+%])", "DATE", 0.75,
      validate=md_ok, invalidate=not_date_context),
    # also after a procedure or an event ("s/p cath 3-18 w/ stent", "CABG 4-2", "intubated 12-3")
    P("date_month_day_dash", rf"(?i)(?<=\b(?:on|since|until|from|of|dated?|d/c|dc'd|admitted|adm|admit|cath|cabg|ptca|pci|"
      rf"surgery|stented|intubated|extubated|transferred|diagnosed|dx|mvc|mva|fell|trach|peg|egd|colonoscopy|biopsy|"
      rf"s/p[ \t]+\p{{L}}{{2,12}})\s+)"
      rf"{MONTH_NUM}-{DAY}(?![\d-]|/\d|\.\d)", "DATE", 0.6, validate=md_ok, invalidate=not_date_context),
    P("date_month_year", rf"(?<![\d/.:-])(?:0?[1-9]|1[0-2])/(?:{YEAR4}|\d{{2}})(?![\d/])", "DATE", 0.6,
      invalidate=not_date_context),
    # the weekday and the time of day stay outside the span (neither is PHI; i2b2 and PhysioNet agree)
    P("date_text", rf"(?i)\b(?:"
      rf"{DAY}{ORD}(?:\s+of)?[\s-]+{MONTHS_EN}(?:,?[\s-]+(?:{YEAR4}|'\d{{2}}|\d{{2}}(?![\d:])))?"
      rf"|{DAY}[\s-]+{MONTHS_EN_FULL}(?:,?[\s-]+(?:{YEAR4}|'\d{{2}}|\d{{2}}(?![\d:])))?"
      rf"|{DAY}[\s-]+{MONTHS_EN},?[\s-]+(?:{YEAR4}|'\d{{2}}|\d{{2}}(?![\d:]))"
      rf"|{MONTHS_EN}[\s-]+{DAY}{ORD}?(?!\s*(?:mg|units?|tabs?|ml|cc|%))(?:,?\s+(?:{YEAR4}|'\d{{2}}))?"
      rf"|{MONTHS_EN},?[\s-]+(?:of\s+)?(?:{YEAR4}|'\d{{2}})"
      # "last dose 3 Nov here", "review 14 Dec": a day and a capitalised month abbreviation (not "3 dec" = decreased,
      # "2 MAR" = the medication record)
      rf"|{DAY}[ \t-]+(?-i:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec|JAN|FEB|APR|JUN|JUL|AUG|SEPT?|OCT|NOV)(?![\p{{L}}.])"
      rf")(?![\d:])", "DATE", 0.9),
    P("date_weekday_numeric", rf"(?i)\b{WEEKDAYS_EN},?\s+(?P<d>{MONTH_NUM}/{DAY}(?:/(?:{YEAR4}|\d{{2}}))?)(?![\d/])",
      "DATE", 0.9, group="d"),
    P("date_month_alone", r"\b(?:January|February|April|June|July|August|September|October|November|December|"
      r"JANUARY|FEBRUARY|APRIL|JUNE|JULY|AUGUST|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER)\b", "DATE", 0.7,
      invalidate=lambda t, s, e: month_is_a_name(t, s, e)),
    P("date_season", rf"(?i)\b(?:(?:early|late|mid)[\s-]+)?(?:spring|summer|fall|autumn|winter)\s+(?:of\s+)?"
      rf"(?:{YEAR4}|'\d{{2}})\b", "DATE", 0.9),
    P("date_holiday", r"(?i)\b(?:christmas(?:\s+eve)?|x-?mas(?:\s+eve)?|thanksgiving|new\s+year'?s(?:\s+(?:eve|day))?|"
      r"new\s+yr'?s?\s+(?:eve|day)|"
      r"easter|halloween|independence\s+day|memorial\s+day|labou?r\s+day|valentine'?s\s+day|"
      r"(?:chinese|lunar)\s+new\s+year|diwali|hanukk?ah|chanukah|passover|eid(?:\s+al[- ](?:fitr|adha))?(?=[\s.,;!?])|"
      r"st\.?\s+patrick'?s\s+day|saint\s+patrick'?s\s+day|paddy'?s\s+day|anzac\s+day|australia\s+day|canada\s+day|"
      r"boxing\s+day|mother'?s\s+day|father'?s\s+day|bonfire\s+night|guy\s+fawkes(?:\s+night)?|remembrance\s+day|"
      r"veterans\s+day|martin\s+luther\s+king(?:\s+jr\.?)?\s+day|mlk\s+day|presidents'?\s+day|juneteenth|"
      r"good\s+friday|easter\s+monday|whitsun|hogmanay|ramadan|vaisakhi|baisakhi|holi(?=\s)|navratri|rosh\s+hashanah|"
      r"(?:st\.?|saint)\s+(?:david|andrew|george|stephen|brigid|valentine)'?s\s+day|mardi\s+gras|shrove\s+tuesday|"
      r"pancake\s+day|ash\s+wednesday|palm\s+sunday|holy\s+thursday|maundy\s+thursday|st\.?\s+john'?s\s+eve|"
      r"victoria\s+day|"
      r"yom\s+kippur|waitangi\s+day|matariki|st\.?\s+andrew'?s\s+day|burns\s+night|"
      r"pongal|onam|naidoc\s+week|patriots'?\s+day|holy\s+week|kwanzaa|columbus\s+day|cinco\s+de\s+mayo|"
      r"d[ií]a\s+de\s+(?:los\s+)?muertos|durga\s+puja|dussehra|raksha\s+bandhan|nowruz|vesak)\b", "DATE", 0.6),
    # "the twelfth of the fourth ninety nine", "first of the ninth eighty one": a numeric date said aloud
    P("date_ordinal_of_ordinal", rf"(?i)\b(?P<d>{ORD_WORDS}\s+of\s+the\s+(?:first|second|third|fourth|fifth|sixth|"
      rf"seventh|eighth|ninth|tenth|eleventh|twelfth)(?![\w-])(?:,?\s+(?:{SPELLED_YEAR}|{SHORT_SPELLED_YEAR}|"
      rf"(?:19|20)?\d\d\b))?)", "DATE", 0.8, group="d"),
    # "back in ninety eight", "back in o six": a year said with two digits after "back in"
    P("date_back_in_year", rf"(?i)\b(?:back\s+in|(?<!\b(?:was|were|is|been|aged?|age\s+of)\s+)since)\s+(?:the\s+year\s+)?(?P<y>(?>{SHORT_SPELLED_YEAR}))"
      rf"(?!\s+(?:years?|months?|weeks?|days?|hours?|minutes?|percent|pounds|mg|kilos?|times)\b)", "DATE", 0.75, group="y"),
    # "fell on the stairs on the ninth my wife ...": a day said as an ordinal after "on the", closing a clause
    P("date_on_the_ordword", rf"(?i)(?<=\b(?:on|starts?|started|starting|until|till|by|before|after|since|from)\s+the\s+)"
      rf"(?P<d>{ORD_WORDS})(?=\s*[.,;!?]|\s*$|\s+(?:my|his|her|we|i|he|"
      rf"she|they|and\s+(?:i|he|she|we|they)|but|so|when|at|after|before|around|about|thank|thanks|okay|ok|then|please|"
      rf"yeah|right)\b)", "DATE", 0.65, group="d",
      flags=regex.MULTILINE),
    P("year_apostrophe", r"(?<![\w'’])['’](?P<y>\d{2})(?![\w'’%]|\s*(?:mg|%|cc|ml))", "DATE", 0.85, group="y"),
    P("year_19xx", r"(?<![\d/.:,$#-])(?:19[0-9]\d)(?![\d/%]|\.\d|-\d|:|['’]?[sS]\b)", "DATE", 0.75,
      invalidate=not_year_context),
    P("year_20xx", r"(?<![\d/.:,$#-])(?:20[0-3]\d)(?![\d/%]|\.\d|-\d|:|'?s\b)", "DATE", 0.7,
      invalidate=weak_year_context),
    P("year_after_event", r"(?<=\b(?:MI|NQWMI|IMI|AMI|CABG|PTCA|CVA|TIA|AVR|MVR|PCI|STENT|DX|DX'D|S/P)"
      r"(?:\s+(?:in|IN))?\s+)\d{2}(?=\s*[,.;)]|\s*$|\s+(?:and|AND|&)\b)", "DATE", 0.6,
      validate=lambda s: not s.startswith("0") or s in ("00", "01", "02", "03", "04", "05", "06", "07", "08", "09")),
    P("year_in_2digit", r"(?i)(?<=\bin\s+)(?:19|20)?\d{2}(?=\s*[,.;)])", "DATE", 0.55),
    # "AAA REPAIR IN 14'", "since 09'": the apostrophe after a 2-digit year (not 6' tall, 14' of tubing)
    P("year_apostrophe_after", r"(?i)(?<=\b(?:in|since)\s+)(?P<y>\d{2})['’](?![\d'’\"”\p{L}]|\s*(?:of|tall|long|high|wide|x)\b|[ \t]+(?-i:\p{Ll}))",
      "DATE", 0.55, group="y"),
    # "CABG '92", "prostate CA'88": an apostrophe year (not 5'10", not the '90s)
    P("year_apostrophe", r"(?<![\d'’])(?<=[\p{L}\s(,;:])['’](?P<y>\d{2})(?![\d'’\"”]|s\b|\s*(?:in|inch|ft|feet)\b)",
      "DATE", 0.6, group="y"),
    # ages ----------------------------------------------------------------------------
    P("age_yo", r"(?i)\b(?P<a>\d{1,3})(?=\s*(?:-|\s)?\s*(?:yo\b|y/o\b|y\.o\.?|yrs?\.?\s*old\b|years?[\s-]*old\b|"
      r"yo[mf]\b|y\s*o\b|yr\s*o\b|year[\s-]*old))", "AGE", 0.95, group="a", validate=age_ok),
    P("age_aged", r"(?i)\b(?:aged?|ages|age\s*:|age\s+of)\s*(?P<a>\d{1,3})\b(?!\s*(?:%|mg|kg|cm|mm|days|weeks|months|"
      r"wks|hrs|hours))", "AGE", 0.9, group="a", validate=age_ok),
    P("age_sex", r"(?:(?<=^|\n)\s*|(?<=\b(?:a|an|is|pt|patient|this|the|PT|PATIENT|IS|A|AN|THIS|THE)\s+)|"
      r"(?<=(?:^|\n)[ \t]*(?:S|CC|HPI|ID|Subjective|Pt|Patient|Reason\s+for\s+visit)[ \t]*:[ \t]*))"
      r"(?P<a>\d{1,3})\s?(?:M|F|y/o|yo)\b", "AGE", 0.8, group="a", validate=age_ok, invalidate=catheter_size),
    P("age_in_her", r"(?i)\bin\s+(?:his|her|their)\s+(?P<a>(?:early|mid|late)[\s-]*)?(?P<d>\d0)'?s\b", "AGE", 0.7,
      group="d"),
    P("age_in_her_words", r"(?i)\bin\s+(?:his|her|their|my|your)\s+(?:(?:early|mid|late)[\s-]*)?"
      r"(?P<d>twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b", "AGE", 0.7, group="d"),
    P("age_over_90_words", r"(?i)\b(?:ninety|one[\s-]hundred)(?:[\s-](?:one|two|three|four|five|six|seven|eight|"
      r"nine))?(?=[\s-]+(?:years?[\s-]*old|yo\b|y/o))", "AGE", 0.9),
    # "ninety-one years old", "fifty nine year old", "eighteen months old"
    P("age_words", rf"(?i)\b(?P<a>{NUMBER_WORDS_RE})(?=[\s-]+(?:years?|yrs?|months?|mos?|weeks?|wks?)[\s-]*old\b|"
      r"[\s-]+(?:yo|y/o|y\.o\.)(?!\w))", "AGE", 0.9, group="a"),
    # "walter emmerich (goes by bud)", "everybody calls me sissy", "known as Tink": a nickname after its cue
    P("nickname_cue", r"(?i)\b(?:goes[ \t]+by|went[ \t]+by|(?:every(?:one|body)|people|they|friends|family|folks)[ \t]+"
      r"(?:\p{L}+[ \t]+){0,2}calls?[ \t]+(?:me|mi|him|her)|known[ \t]+as|prefers[ \t]+to[ \t]+be[ \t]+called)[ \t]+"
      r"(?P<n>(?!(?:the|a|an|his|her|my|their|bus|car|train|taxi|cab|bike|foot|plane|boat|mr|mrs|ms|dr|miss|that|this|"
      r"it|him|her|me|them|everyone|anything|nothing|something|name|names|nickname|all|every|each|many|several|some|"
      r"no|not|and|or|but|so|if|when|then|too|also|just|only|still|always|never|ever|sometimes|now|up|down|out|in|on|"
      r"at|to|for|with|from|over|phone|email|text|mail|sir|madam|maam|ma'am|honey|dear|love|baby|hun|doc|doctor|"
      r"nurse|mom|mum|dad|mama|papa|grandma|grandpa|nana|granny)\b)\p{L}[\p{L}'’-]{1,15})\b",
      "PATIENT", 0.6, group="n"),
    # "She lived to ninety-four", "he lived till 102", "died at the age of 88": the age a person reached
    P("age_lived_to", rf"(?i)\b(?:lived|made[ \t]+it)[ \t]+(?:to|till|until)[ \t]+(?:the[ \t]+(?:ripe[ \t]+(?:old[ \t]+)?)?age[ \t]+of[ \t]+)?"
      rf"(?P<a>{NUMBER_WORDS_RE}|\d{{2,3}})(?![\w/-]|\.\d|[ \t]*(?:%|percent|years?[ \t]+(?:ago|from|later)|"
      rf"am\b|pm\b|o'?clock|mg|ml|units?|miles?|km|kilos?|pounds|lbs?))",
      "AGE", 0.75, group="a", validate=age_in_range),
    # "Forty-seven-year-old", "twenty-eight-month-old": the compound joins the number with hyphens
    P("age_words_hyphen", rf"(?i)\b(?P<a>{_NUMBER_WORDS_BARE})(?=-(?:years?|months?|weeks?)-old\b)", "AGE", 0.9,
      group="a", validate=age_ok),
    # "Rohan Iyer    24/M", "67 y/F", "Age/Sex: 31 / female": age slash sex in a header
    P("age_slash_sex", r"(?<![\d/.:-])(?P<a>\d{1,3})[ \t]*(?:y|yrs?|yo)?[ \t]*/[ \t]*(?:M|F|Male|Female|male|female)\b"
      r"(?=[ \t]*(?:$|[,;|)]|[ \t]{2}|[ \t]+(?:with|presents|presented|presenting|pt|patient|c/o|k/c/o|known|admitted|"
      r"came|here|from|referred|seen)\b))", "AGE", 0.8, group="a", validate=age_in_range, flags=regex.MULTILINE),
    # "DOB: 23.07.1970 (54)", "born 3 March 1961 (63 yrs)": the age in brackets after a date of birth
    P("age_after_dob", r"(?i)\b(?:d\.?o\.?b\.?|date[ \t]+of[ \t]+birth|born)[ \t]*:?[ \t]*(?:\d{1,4}[./-]\d{1,2}[./-]\d{2,4}|"
      r"\d{1,2}(?:st|nd|rd|th)?[ \t]+\p{L}{3,9}\.?,?[ \t]+\d{4}|\p{L}{3,9}\.?[ \t]+\d{1,2}(?:st|nd|rd|th)?,?[ \t]+\d{4})"
      r"[ \t]*\([ \t]*(?:age[ \t]*:?[ \t]*)?(?P<a>\d{1,3})(?=[ \t]*(?:y|yo|yrs?|years?(?:[ \t]+old)?)?[ \t]*\))", "AGE",
      0.85, group="a", validate=age_in_range),
    # "at age 10 months", "at age 3 weeks": an age given in months or weeks
    P("age_at_age_unit", r"(?i)\b(?:at|from|since|by|until)[ \t]+(?:the[ \t]+)?age[ \t]+(?:of[ \t]+)?(?P<a>\d{1,2})"
      r"(?=[ \t]*(?:months?|mos?|weeks?|wks?|days?)\b)", "AGE", 0.85, group="a"),
    P("age_aged_words", rf"(?i)\b(?:aged|age\s+of|age\s*:)\s*(?P<a>{NUMBER_WORDS_RE})", "AGE", 0.9, group="a"),
    P("age_months_old", r"(?i)\b(?P<a>\d{1,2})(?=[\s-]*(?:months?|mos?|weeks?|wks?|days?)[\s-]*old\b)", "AGE", 0.9,
      group="a"),
    # "i had my appendix out when i was twelve", "since she was 14": the age at a past event
    P("age_when_was", rf"(?i)\b(?:when|since|till|until|before|after|because|back\s+when)\s+(?:i|he|she|you|we|they)"
      rf"(?:\s+(?:was|were))\s+(?:only\s+|just\s+|about\s+|like\s+|maybe\s+|around\s+|barely\s+)?(?P<a>{AGE_NUM})"
      rf"(?![\w-]){_NOT_AGE_AFTER}(?!\s+(?:or\s+so\s+)?(?:weeks?|months?|days?|floors?|stone|st|minutes?|inches)\b)",
      "AGE", 0.75, group="a", validate=age_in_range, invalidate=vital_sign_before),
    # "honest i forget names but im seventy nine everybody forgets": an age in tens said in the first person
    P("age_i_am_tens", rf"(?i)\b(?:i['’]?m|i\s+am)\s+(?:only\s+|just\s+|almost\s+|nearly\s+|now\s+)?(?P<a>(?>{TENS_WORDS_RE}))"
      rf"{_NOT_AGE_AFTER}(?!\s+(?:of|floors?|stone|st|mph|k|grand|quid|euros?|cents?|percent|per\s+cent|pence|"
      rf"steps?|metres?|meters?|yards?|kms?|sure|years?\s+(?:ago|since|married|sober|clean|smoking))\b)",
      "AGE", 0.7, group="a", validate=age_in_range, invalidate=vital_sign_before),
    # "okay oksana youre thirty one youve carried a lot", "shes seventy nine next week": an age in tens said of
    # the listener or a third person, with any word after it but a unit
    P("age_copula_tens", rf"(?i)\b(?:you['’]?re|you\s+are|he['’]?s|he\s+is|she['’]?s|she\s+is)\s+"
      rf"(?:only\s+|just\s+|almost\s+|nearly\s+|now\s+)?(?P<a>(?>{TENS_WORDS_RE}))"
      rf"{_NOT_AGE_AFTER}(?!\s+(?:of|floors?|stone|st|mph|k|grand|quid|euros?|cents?|percent|per\s+cent|pence|"
      rf"steps?|metres?|meters?|yards?|kms?|sure|over|odd|something|years?\s+(?:ago|since|married|sober|clean|smoking))\b)",
      "AGE", 0.7, group="a", validate=age_in_range,
      invalidate=lambda t, s, e: vital_sign_before(t, s, e) or gestation_weeks(t, s, e)),
    # "the kids joy is fifteen now and paolo is twelve": an age said of a named person, then of the next one
    P("age_is_now", rf"(?i)\b(?P<w>[a-z][a-z'’-]+)\s+(?:is|s)\s+(?:only\s+|just\s+|almost\s+|nearly\s+)?"
      rf"(?P<a>{NUMBER_WORDS_RE})\s+now\b(?:\s+and\s+[a-z][a-z'’-]+\s+(?:is|s)\s+(?P<b>{NUMBER_WORDS_RE}))?",
      "AGE", 0.7, group="a", validate=age_in_range, invalidate=not_a_person_before_is),
    P("age_is_now_and", rf"(?i)\b(?:is|s)\s+(?:only\s+|just\s+|almost\s+|nearly\s+)?{NUMBER_WORDS_RE}\s+now\s+and\s+"
      rf"(?P<w>[a-z][a-z'’-]+)\s+(?:is|s)\s+(?P<a>{NUMBER_WORDS_RE})(?!\s+(?:percent|over|out|minutes?|hours?|days?|weeks?))",
      "AGE", 0.7, group="a", validate=age_in_range, invalidate=not_a_person_before_is),
    # "heart attack at 52", "diagnosed at fifty", "a heart attack at like fifty two": a life event before "at N"
    P("age_event_at", rf"(?i)\bat\s+(?:(?:like|about|around|only|just|um|uh)\s+)?(?P<a>{AGE_NUM})\b{_NOT_AGE_AFTER}",
      "AGE", 0.75, group="a", validate=age_in_range, invalidate=no_age_event),
    # "you're 62 right", "despite being 72.", "I'll be ninety-one on the 30th", "he was eighty-eight."
    P("age_copula", rf"(?i)\b(?:i'?m|i\s+am|you'?re|you\s+are|he'?s|he\s+is|she'?s|she\s+is|(?:he|she|i)\s+was|you\s+were|"
      rf"being|turned|turning|turns|(?:i|he|she|you|they)(?:['’]?ll|\s+will)\s+be|"
      rf"(?:i'?m|im|he'?s|hes|she'?s|shes|you'?re|youre|they'?re)\s+(?:gonna|going\s+to)\s+be|"
      rf"(?:that\s+|which\s+)?(?:makes?|making)\s+(?:me|him|her|you))\s+"
      rf"(?:only\s+|just\s+|almost\s+|nearly\s+|"
      rf"about\s+|now\s+)?(?P<a>{AGE_NUM})(?=\s*(?:[.;!?)](?!\d)|,(?!\s*\d)|$)|\s+(?:now|next|this|last|right|soon|and\s+(?!a\s+half\b)|"
      rf"today|"
      rf"tomorrow|when|in\s+{MONTH_NAMES}|on\s+the\s+\d|on\s+the\s+{ORD_WORDS}|y(?:ea)?rs?\s+(?:old|of\s+age|young)\b|"
      rf"on\s+(?:(?:his|her|my|your)\s+birthday|valentine'?s|christmas|new\s+year'?s|easter|thanksgiving|{MONTH_NAMES})|"
      rf"come\s+{MONTH_NAMES}|"
      rf"y/?o\b))", "AGE", 0.8, group="a", validate=age_in_range, invalidate=vital_sign_before, flags=regex.MULTILINE),
    # "their daughter Isla will be five in August": a named person's coming age
    P("age_name_will_be", rf"(?<=\b\p{{Lu}}\p{{Ll}}+[ \t]+will[ \t]+be[ \t]+)(?P<a>{AGE_NUM})(?=[ \t]+(?:in[ \t]+{MONTH_NAMES}|"
      rf"on[ \t]+(?:(?:his|her)[ \t]+birthday|{MONTH_NAMES})|next[ \t]+(?:month|week|year)|this[ \t]+(?:month|year)|"
      rf"y(?:ea)?rs?[ \t]+old)\b)", "AGE", 0.8, group="a", validate=age_in_range),
    # "hes eighty six and hes been", "you're thirty-six and": a two-digit age, then "and"; "He's nine months."
    P("age_copula_more", rf"(?i)\b(?:i['’]?m|i\s+am|you['’]?re|you\s+are|he['’]?s|she['’]?s)"
      rf"\s+(?:only\s+|just\s+|almost\s+|nearly\s+|about\s+|now\s+)?(?:(?P<a>{NUMBER_WORDS_RE}|[1-9]\d)"
      rf"(?=\s+(?:and|but|so|he|she|we|they|yeah|yes|right|correct|isnt|isn't|innit|have|has|did|do|does|okay|ok|already|shes|hes|noo|now|"
      # "im thirty five i cant keep", "youre seventy nine dad", "shes eighty three doctor"
      rf"i|im|ive|id|dad|mum|mom|doctor|doc|nurse|love|mate|hen|son|darling|you|my|our|when|if|because|cos|though|"
      rf"still|myself)\b(?!\s+a\s+half))|(?P<a>{AGE_NUM})(?=\s+{_AGE_UNIT_FOLLOW}))", "AGE", 0.75, group="a",
      validate=age_in_range, invalidate=lambda t, s, e: vital_sign_before(t, s, e) or gestation_weeks(t, s, e)),
    # "my daughter aaliyah is fifteen now", "your mother-in-law is eighty?", "Dad's 84."
    P("age_relative_is", rf"(?i)\b(?:(?:my|your|our)\s+(?:{_AGE_RELATIONS})(?:-in-law)?"
      rf"(?:,?\s+(?!is\b|was\b|who\b)[\p{{L}}'’-]+,?)?(?:\s+who)?|(?:dad|mum|mom|grandma|grandpa|nana))(?:\s+(?:is|was|turned|turns|will\s+be)|['’]s)"
      rf"\s+(?:now\s+|only\s+|just\s+|almost\s+|nearly\s+|about\s+)?(?P<a>{AGE_NUM})"
      rf"(?=\s*(?:[.;!?)](?!\d)|,(?!\s*\d)|$)|\s+(?:now|next|this|in\s+{MONTH_NAMES}|y(?:ea)?rs?\s+(?:old|of\s+age)\b|"
      rf"y/?o\b|and\b(?!\s+a\s+half)|(?:she|he|they|but|so|shes|hes)\b|{_AGE_UNIT_FOLLOW}))", "AGE", 0.75, group="a", validate=age_in_range,
      invalidate=vital_sign_before, flags=regex.MULTILINE),
    # "sofiia she is nineteen she studies", "he's forty and": a person's age after he/she (speech), closed by
    # the end of the clause; units, scores and counts after the number are not ages
    P("age_pronoun_is", rf"(?i)\b(?:she|he)(?:[ \t]+(?:is|was|turned|turns|will[ \t]+be)|['’]s)[ \t]+"
      rf"(?:now[ \t]+|only[ \t]+|just[ \t]+|almost[ \t]+|nearly[ \t]+|about[ \t]+)?(?P<a>{AGE_NUM})"
      rf"(?=[ \t]*(?:[.;!?)](?!\d)|,(?!\s*\d)|$)|[ \t]+(?:now|next|this|in[ \t]+{MONTH_NAMES}|y(?:ea)?rs?[ \t]+old\b|"
      rf"y/?o\b|and\b(?![ \t]+a[ \t]+half)|(?:she|he|they|but|so|shes|hes)\b))", "AGE", 0.7, group="a",
      validate=age_in_range, invalidate=vital_sign_before, flags=regex.MULTILINE),
    # "his sister brielle she's seven had it", "her son mateo who is fifteen": a relative, maybe named, then "she's",
    # "he is", "who is", "who was" and a number; any word may follow but a unit, a time, a score, a height or "of"
    # (the pronoun first, then the relation behind it: the scan skips to "she", "he", "who")
    P("age_relation_pronoun", rf"(?i)\b(?=she|he|who)(?<={_REL_NAME_BEFORE})(?:(?:she|he|who)(?:[ \t]+(?:is|was|turned|turns)|['’]?s)|"
      rf"who[ \t]+just[ \t]+turned)[ \t]+"
      rf"(?:(?:now|only|just|almost|nearly|about|like|barely)[ \t]+)?(?P<a>{AGE_NUM}){_REL_AGE_TAIL}",
      "AGE", 0.7, group="a", validate=age_in_range,
      invalidate=lambda t, s, e: vital_sign_before(t, s, e) or gestation_weeks(t, s, e)),
    # the same without the verb (session 17, tune56): "my granddaughter ava grace she sixteen she plays", "his son he
    # nine now" (a number in words; not "one", "a")
    P("age_relation_zero_copula", rf"(?i)\b(?=(?:she|he)[ \t]+(?!(?:one|a)\b){NUMBER_WORDS_RE})(?<={_REL_NAME_BEFORE})"
      rf"(?:she|he)[ \t]+"
      rf"(?P<a>{NUMBER_WORDS_RE}){_REL_AGE_TAIL}",
      "AGE", 0.7, group="a", validate=age_in_range,
      invalidate=lambda t, s, e: vital_sign_before(t, s, e) or gestation_weeks(t, s, e)),
    # "Pt (77F)", "Mrs Roy (84 F)": age and sex in brackets (not a catheter size: "foley (16F)")
    P("age_sex_paren", r"(?<=\()(?P<a>\d{1,3})[ \t]?[MFmf](?=\)|[ \t]*[,;][ \t]*(?:rm|room|bed|mrn|dob|\d))", "AGE", 0.8,
      group="a", validate=age_ok,
      invalidate=lambda t, s, e: regex.search(r"(?i)\b(?:fr|french|foley|cath\w*|sheath|tube|ett|ngt|ogt|drain|picc|"
                                              r"line|trach\w*|cordis|introducer|gauge|size)\W*$", _before(t, s, 25))
      is not None),
    # "my father's 80th birthday", "her 90th bday": the ordinal of a birthday is an age
    P("age_birthday", r"(?i)(?<![\d/.-])(?P<a>\d{1,3})(?:st|nd|rd|th)[ \t]+(?:birthday|bday|b-day)\b", "AGE", 0.75,
      group="a", validate=age_ok),
    # "brother Emeka (seven)", "son Ali (4 yrs)": an age in brackets after a relation word and a name
    P("age_paren_relative", rf"(?i)(?<=\b(?:{_AGE_RELATIONS})(?:-in-law)?(?:[ \t]+(?-i:\p{{Lu}}[\p{{L}}'’-]+)){{1,2}}[ \t]*\()"
      rf"(?P<a>{AGE_NUM})(?=[ \t]*(?:y(?:rs?|ears?)?|yo|y/o|mo(?:nths?|s)?|m)?[ \t]*\))", "AGE", 0.8, group="a",
      validate=age_in_range),
    # a nursing handover line: "Bed 8 mrs Rose Baker 91F CCF", "(Lim Wei Xiang, prefers Sunny) 57M": an age glued to the
    # sex after a full name (not "Foley 16F", "Chest Tube 28F": French sizes)
    P("age_sex_after_name", r"(?:(?<=\b\p{Lu}[\p{Ll}'’]+(?:-\p{Lu}[\p{Ll}'’]+)?[ \t]+\p{Lu}[\p{Ll}'’]+(?:-\p{Lu}[\p{Ll}'’]+)?[ \t]+)|"
      r"(?<=\)[ \t]+))(?P<a>\d{1,3})(?=[MF]\b(?![ \t]*(?:cath|catheter|tube|sheath|drain|foley|french|fr)\b))",
      "AGE", 0.8, group="a", validate=age_in_range, invalidate=french_size_before),
    # "my son nico (6)", "daughter isla (4)": a lower-case name and an age in brackets after a relation
    P("age_paren_relative_lower", rf"(?i)(?<=\b(?:{_AGE_RELATIONS})(?:-in-law)?[ \t]+[a-z][a-z'’-]+[ \t]*\()"
      rf"(?P<a>\d{{1,2}})(?=[ \t]*(?:y(?:rs?|ears?)?|yo|y/o|mo(?:nths?|s)?|m)?[ \t]*\))", "AGE", 0.8, group="a",
      validate=age_in_range),
    # "her two kids (5 and 8)", "two daughters (nine and twelve)", "wife and 2 sons (danny 16,mike 19)": ages listed in
    # brackets after a group of children or siblings; the bracket holds only ages (two or more: "children (2)" is a count)
    # (the lookahead for a number first: the lookbehind is tried only where one starts)
    P("age_group_paren", rf"(?i)(?<![\p{{L}}\d])(?={_GROUP_AGE_NUM})(?<=\([^()\n]{{0,80}})(?:"
      rf"(?<={_GROUP_AGE_OPEN}(?:{_GROUP_AGE_ITEM}{_GROUP_AGE_SEP})+{_GROUP_AGE_NAME}?)"
      rf"(?P<a>{_GROUP_AGE_NUM})(?={_GROUP_AGE_UNIT}(?:{_GROUP_AGE_SEP}{_GROUP_AGE_ITEM})*[ \t]*\))"
      rf"|(?<={_GROUP_AGE_OPEN}{_GROUP_AGE_NAME}?)"
      rf"(?P<a>{_GROUP_AGE_NUM})(?={_GROUP_AGE_UNIT}(?:{_GROUP_AGE_SEP}{_GROUP_AGE_ITEM})+[ \t]*\)))",
      "AGE", 0.8, group="a", validate=age_in_range),
    # ... and the first names in such a list: "2 sons (danny 16, mike 19)"
    P("relative_group_paren", rf"(?i)(?<![\p{{L}}'’-])(?<=\([^()\n]{{0,80}})(?=\p{{L}}[\p{{L}}'’-]+[ \t]+{_GROUP_AGE_NUM})"
      rf"(?:(?<={_GROUP_AGE_OPEN}(?:{_GROUP_AGE_ITEM}{_GROUP_AGE_SEP})+)(?P<n>{_GROUP_NAME})"
      rf"(?=[ \t]+{_GROUP_AGE_NUM}{_GROUP_AGE_UNIT}(?:{_GROUP_AGE_SEP}{_GROUP_AGE_ITEM})*[ \t]*\))"
      rf"|(?<={_GROUP_AGE_OPEN})(?P<n>{_GROUP_NAME})"
      rf"(?=[ \t]+{_GROUP_AGE_NUM}{_GROUP_AGE_UNIT}(?:{_GROUP_AGE_SEP}{_GROUP_AGE_ITEM})+[ \t]*\)))",
      "RELATIVE", 0.7, group="n"),
    # "3 CHILDREN, YOUNGEST 4.", "the eldest is 12 and", "oldest son 9 yo": the age of the youngest or oldest child
    # (not a count: "the youngest 2 are twins", "oldest 3 children")
    P("age_youngest", rf"(?i)\b(?:youngest|oldest|eldest)(?:[ \t]+(?:one|child|son|daughter|kid|boy|girl|grandchild|"
      rf"grandson|granddaughter|brother|sister))?(?:[ \t]+(?:is|was|being|now|just|turned|turns|aged?))?"
      rf"(?:[ \t]+(?:now|just|only|almost|nearly))?[ \t]*[,:=-]?[ \t]*(?P<a>\d{{1,2}}(?![\d/:]|\.\d)|{NUMBER_WORDS_RE})"
      rf"(?=[ \t]*(?:y/?o|yrs?|years?|mos?|months?)\b(?![ \t]+(?:ago|later|before|after|older|younger|apart))|"
      rf"[ \t]*(?:[,;)]|\.(?!\d)|$)|[ \t]+(?:and|&|who|lives|living|"
      rf"at[ \t]+home|in[ \t]+(?:college|school|university|grade|kindergarten|daycare|nursery))\b)",
      "AGE", 0.75, group="a", validate=age_in_range, flags=regex.MULTILINE),
    # a date of birth read out as numbers: "dob nine twelve eighty eight", "birthday? / patient: three four sixty one"
    P("dob_spoken", rf"(?i)\b(?:date\s+of\s+birth|birthday|birth\s+date|d\.?o\.?b\.?|born\s+on)\b[^\n?.]{{0,25}}?[?.]?[ \t]*"
      rf"(?:\n[ \t]*(?:\[[^\]\n]{{1,20}}\][ \t]*:?|[A-Za-z][A-Za-z .'-]{{0,18}}:|(?:patient|pt|parent|mum|mom|dad|"
      rf"relative|caller|speaker[ \t]*\d)[ \t]+)?)?[ \t]*(?:(?:its|it's|um+|uh+|yeah|yes|oh)[ ,]+)?"
      rf"(?P<d>{_SPOKEN_NUM}(?:[\s-]+{_SPOKEN_NUM}){{2,4}})(?![\w-])", "DATE", 0.8, group="d",
      validate=lambda d: regex.search(rf"(?i)\b(?:{_TENS_RE}|{_TEENS})\b", d) is not None),
    # "Hamish Lockhart (38), electrician": an age alone in brackets after a capitalised full name
    P("age_paren_name", r"(?<=\b\p{Lu}\p{Ll}+(?:[ \t]+\p{Lu}[\p{L}'’-]+){1,2}[ \t]*\()(?P<a>\d{1,3})(?=\)[ \t]*[,;.:]|\)[ \t]*$)",
      "AGE", 0.75, group="a", validate=age_in_range, flags=regex.MULTILINE,
      invalidate=lambda t, s, e: not_a_person_before(t, s, e, r"[ \t]*\($")),
    # "ezekiel brandt 81m admitted", "pt 79f from the nursing home": age and sex run together in a query
    P("age_sex_lower", r"(?<=\b[a-z]{2,}[ \t]+)(?P<a>\d{1,3})[mf](?=[ \t]+(?!(?:walk|walking|tall|high|away|long|deep|run|"
      r"swim|of|dollars|pounds|radius|min|mins)\b)[a-z]|[ \t]+[-–][ \t]|[ \t]*[,;]|[ \t]*$)", "AGE", 0.7, group="a", validate=age_in_range,
      invalidate=distance_not_age),
    # the same in capitals after a name ("PT HENDRICKS, WALLACE 88M FROM GREENFIELD MANOR"), then what follows a
    # patient; and after the record number in brackets ("pt isaiah brown (mrn 2218834) 47m esrd on hd")
    P("age_sex_caps", r"(?<=\b\p{Lu}{2,}[ \t]+)(?P<a>\d{1,3})[MF](?=[ \t]+(?:FROM|W/|S/P|H/O|C/O|P/W|WITH|WHO|WAS|IS|"
      r"ADMITTED|ADM|PRESENTS|PRESENTING|TRANSFERRED|XFER|BROUGHT|FOUND|KNOWN|DX|HX|PMH|POD|INTUBATED|DNR|DNI|CMO)\b|"
      r"[ \t]*[,;])", "AGE", 0.7, group="a", validate=age_in_range, invalidate=distance_not_age),
    P("age_sex_after_mrn", r"(?<=\((?i:mrn|mr\#|mr|med[ \t]+rec|id|dob)[ \t#:]*[^()\n]{1,24}\)[ \t]+)(?P<a>\d{1,3})[mfMF]"
      r"(?=[ \t]+\p{L}|[ \t]*[,;])", "AGE", 0.7, group="a", validate=age_in_range, invalidate=distance_not_age),
    # a nursing note's first line after its header: "npn 7p-7a\n67m w/ etoh w/d", "NPN 1900-0700 44M W/ HIV", "rm 7 81f, c-diff":
    # age and sex glued at the start of a line, or after the shift times or the room, then what follows a patient
    P("age_sex_lower_start", r"(?im)(?:(?<=^[ \t]*)|(?<=^[ \t]*(?:[a-z]{2,6}[ \t]+){0,2}(?:(?:\d{1,4}[ap]?m?[ \t]*[-–][ \t]*"
      r"\d{1,4}[ap]?m?|(?:rm|room|bed|bay)[ \t]*#?[ \t]*\d{1,4}[a-z]?)[ \t]*[,:]?[ \t]+){1,3}))"
      r"(?P<a>\d{1,3})[mf](?=[ \t]+(?:w/|s/p|h/o|c/o|p/w|(?:with|hx|pmh|admitted|adm|presents|presented|presenting|"
      r"transferred|xfer|from|who|was|is|here|brought|found|known|dx|pt|post|pod|hd|on[ \t]+(?:hd|day)|"
      r"intubated|sedated|full[ \t]+code|dnr|dni|cmo)\b)|[ \t]*[,;:]|[ \t]+[-–][ \t])", "AGE", 0.7, group="a",
      validate=age_in_range, invalidate=distance_not_age),
    # "age 4 years 2 months", "aged 1 year and 6 months", "3 years 5 months old": the months part
    P("age_years_months", r"(?i)(?:\b(?:age[d:]?|age\s+of)\s*:?\s*\d{1,2}\s*(?:years?|yrs?|y)\s*,?\s*(?:and\s+)?"
      r"(?P<a>\d{1,2})(?=\s*(?:months?|mos?|m)\b)|\b\d{1,2}\s*(?:years?|yrs?|y)\s*,?\s*(?:and\s+)?(?P<a>\d{1,2})"
      r"(?=\s*(?:months?|mos?)\s+old\b))", "AGE", 0.85, group="a"),
    # "Mateus Okoro, 58, here with his wife": an age in commas after a full name, before the visit's verb
    P("age_after_name", r"(?<=\b\p{Lu}\p{Ll}+(?:[ \t]+\p{Lu}[\p{L}'’-]+){1,2}(?:[ \t]*\([^()\n]{1,30}\))?,[ \t])(?P<a>\d{1,3})"
      r"(?=,[ \t]+(?:here|presents|"
      r"presenting|seen|is|was|who|with|comes|came|returns|attends|attended|reports|has|had|referred|accompanied|"
      r"brought|a|an|male|female|man|woman|retired|lives|living|\p{Ll}+[ \t]+(?:at|for|with)\b|\p{Ll}+[ \t]+\p{Ll}+[ \t]+"
      r"(?:at|for|with))\b|[ \t]+(?:years?|yrs?|y)\b(?![ \t]+(?:ago|later|before|after)))", "AGE", 0.8, group="a",
      validate=age_in_range,
      invalidate=lambda t, s, e: not_a_person_before(t, s, e)),
    # the reply to "how old are you?" in a transcript: the first number of the next turn
    P("age_how_old", rf"(?i)(?:\bhow\s+old\s+(?:are|is|was|were|will|'s)\s+(?:you|he|she|they|(?:your|his|her|their|my)\s+\w+|"
      rf"(?:mr|mrs|ms|miss|mister|missus)\.?\s+[\w'’-]+|"
      rf"the\s+(?:baby|child|patient|boy|girl|kid|infant|toddler)|(?-i:[A-Z][a-z]+))\b[^\n?!]{{0,40}}?"
      rf"|\bhow\s+old\s+(?:you|he|she|they|(?:your|his|her|their)\s+\w+)\s+(?:are|is|was|were)\b[^\n?!]{{0,30}}?"
      rf"|\b(?:so\s+)?that\s+makes\s+(?:you|him|her)\b"
      rf"|\b(?:and\s+)?(?:your|his|her|their|the\s+patient'?s)\s+age(?=[ \t]*[?.]?[ \t]*\n)"
      rf"|\bwhat\s+age\s+(?:are\s+you|is\s+(?:he|she))\b[^\n?!]{{0,20}}?)[?.!]?\s*"
      rf"(?:{_HOW_OLD_SPEAKER}\s*)?"
      rf"(?:{_AGE_FILLER}[\s,]+){{0,3}}(?P<a>{AGE_NUM})\b(?!\s*(?:[%/:]|\.\d|mg|kg|lbs?|pounds|cm|am|pm|"
      rf"o'?clock|times|x\b|minutes?|hours?|mins?|hrs?))", "AGE", 0.85, group="a", validate=age_in_range),
    # an operation with its age in tens: "had her foot taken off at sixty so", "had a pacemaker put in at eighty"
    # (words only: "line removed at 10" is a time)
    P("age_procedure_at", rf"(?i)\b(?:put[ \t]+in|taken[ \t]+(?:off|out)|cut[ \t]+off|removed|replaced|amputated|"
      rf"fitted|implanted)[ \t]+at[ \t]+(?:(?:like|about|around|only|just|um|uh)[ \t]+)?(?P<a>(?>{TENS_WORDS_RE}))\b"
      rf"(?![ \t]+(?:past|to|after|minutes?|hundred|thousand|o['’]?clock|percent|degrees)\b){_NOT_AGE_AFTER}",
      "AGE", 0.75, group="a", validate=age_in_range),
    # an age said with the birthday next: "and mateo is fifteen his birthday is in may", "she turned 80, her bday was"
    P("age_birthday_after", rf"(?i)\b(?:is|s|was|turned|turns)[ \t]+(?:only[ \t]+|just[ \t]+)?(?P<a>{AGE_NUM})"
      rf"(?=[ \t]*[,.;]?[ \t]+(?:and[ \t]+)?(?:his|her|my|their|your)[ \t]+(?:birthday|bday|b-day)\b)", "AGE", 0.75,
      group="a", validate=age_in_range, invalidate=not_a_person_before_is),
    # "re son jaxon reyes, 18 mo, dob 4/28/16": an age with its unit just before the date of birth (after a comma or
    # a bracket: "smoked for 20 yrs, dob" is no age)
    P("age_before_dob", r"(?im)(?:(?<=[,(][ \t]*)|(?<=^[ \t]*))(?P<a>\d{1,3})[ \t]*(?:mos?|months?|yrs?|years?|y/?o|wks?|weeks?)\.?[ \t]*[,;]?[ \t]*"
      r"(?=(?:dob|d\.o\.b\.?|date[ \t]+of[ \t]+birth)\b)", "AGE", 0.8, group="a", validate=age_in_range),
    # the reply to "how old does that make you" after a date of birth: "doctor: and how old does that make you now /
    # patient: uh seventy four", then a self-correction in the same turn ("Oh, eighty-one? No, eighty-three.")
    P("age_make_you", rf"(?i)\bhow\s+old\s+(?:does|did|would|will|do)\s+(?:that|this)\s+make\s+(?:you|him|her)\b"
      rf"[^\n?!]{{0,20}}?[?.!]?\s*(?:{_HOW_OLD_SPEAKER}\s*)?(?:{_AGE_FILLER}[\s,]+){{0,3}}(?P<a>{AGE_NUM})\b{_NOT_AGE_AFTER}",
      "AGE", 0.85, group="a", validate=age_in_range),
    P("age_reply_corrected", rf"(?i)\b(?:how\s+old|makes?\s+(?:you|him|her))\b[^\n]{{0,40}}\n[ \t]*"
      rf"(?:{_HOW_OLD_SPEAKER}[ \t]*)?(?:{_AGE_FILLER}[ \t,]+){{0,3}}{AGE_NUM}[ \t]*[?.,!]?[ \t]+"
      rf"(?:no|nope|nah|sorry|actually)(?:[ \t,]+(?:wait|sorry|actually|i\s+mean))?[ \t,]+(?P<a>{AGE_NUM})\b{_NOT_AGE_AFTER}",
      "AGE", 0.8, group="a", validate=age_in_range),
    # a reply correcting or confirming an age put as a question: "And your mum is eighty? / Relative:
    # Eighty-one." (the number that opens the next turn, closed by punctuation or the line end)
    P("age_question_reply", rf"(?i)\b(?:(?:he|she|you|they|(?:{_AGE_RELATIONS})(?:-in-law)?)[ \t]+(?:is|are|was|turned|"
      rf"turns)|you'?re|he'?s|she'?s)[ \t]+{AGE_NUM}(?:[ \t]+(?:now|then|years?(?:[ \t]+old)?))?[ \t]*\?[ \t]*\n[ \t]*"
      rf"(?:{_HOW_OLD_SPEAKER}[ \t]*)(?:(?:no|nope|actually|well|yes|yeah|nearly|almost|just|she'?s|he'?s|i'?m|mi|me|am|uh|um)[ \t,]+){{0,3}}"
      rf"(?P<a>{AGE_NUM})(?=[ \t]*(?:[.,!;]|$|now\b|next\b|in\b|last\b))", "AGE", 0.8, group="a",
      flags=regex.MULTILINE, validate=age_in_range),
    # "And I turn 30 on October 23rd", "she turns eighty in may": a coming birthday
    P("age_turn", rf"(?i)\b(?:i|he|she|you|they|we|mum|mom|dad)\s+(?:turn|turns|will\s+turn|['’]ll\s+turn|am\s+turning|is\s+turning|"
      rf"(?:just\s+)?turned)\s+"
      rf"(?P<a>(?>{AGE_NUM}))(?=\s+(?:on|in|next|this|tomorrow|today|soon|and|so|but|then|yeah)\b|\s*[.,!?]|\s*$|"
      rf"\s+[a-z]{{1,12}}:|\s+\[)", "AGE", 0.8, group="a",
      validate=age_in_range),
    # "Doctor: At 78, that's not bad at all": a sentence that opens with an adult age
    P("age_at_opening", r"(?:(?<=(?m:^)[\p{L} .'-]{1,20}:[ \t]+)|(?<=[.!?][ \t]+))At[ \t]+(?P<a>(?:1[89]|[2-9]\d|10\d))(?=,[ \t]+\p{Ll})",
      "AGE", 0.7, group="a"),
    # "homesteaded it in nineteen eleven", "born in eighteen ninety": years whose second half is a teen
    P("year_teen_pair", r"(?i)(?<=\b(?:in|since|from|until|till|by|around|about|year|born)[ \t]+)(?P<d>(?:eighteen|nineteen)[ \t]+"
      r"(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen))(?![\w-])"
      r"(?![ \t]+(?:years?|months?|weeks?|days?|hours?|minutes?|percent|pounds|kilos?|people|times)\b)", "DATE", 0.75, group="d"),
    # "its uh two thousand and nine": a year with "and"
    P("year_two_thousand_and", r"(?i)\btwo[ \t]+thousand[ \t]+and[ \t]+(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
      r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty(?:[ \t-]+(?:one|two|three|four|five|six|seven|eight|nine))?)"
      r"\b(?![ \t]+(?:dollars|pounds|euros|people|years?|mg|milligrams|steps|calories|miles|words)\b)", "DATE", 0.7),
    # "Age/Sex: 41/M", "Age / Gender: 67 / F"
    P("age_sex_field", r"(?i)\bage[ \t]*/[ \t]*(?:sex|gender)[ \t]*:?[ \t]*(?P<a>\d{1,3})[ \t]*(?:y(?:rs?)?|yo)?[ \t]*/[ \t]*[MFmf]\b",
      "AGE", 0.9, group="a", validate=age_ok),
    # "Seventy-two in August", "sixty three now": an age in words said with a when
    P("age_words_when", rf"(?i)\b(?P<a>{TENS_WORDS_RE})(?=\s+(?:now|next\s+(?:month|week|year|{MONTH_NAMES})|"
      rf"in\s+{MONTH_NAMES}|this\s+(?:month|year|coming)|come\s+{MONTH_NAMES}))", "AGE", 0.75, group="a",
      invalidate=vital_sign_before),
    # headers: "Dlamini, 38 F", "Okoye   79 M", "38y F"
    P("age_sex_header", r"(?:(?<=\p{L}[.,;][ \t]{0,3})|(?<=\p{L}[ \t]{2,})|(?<=\t))(?P<a>\d{1,3})[ \t]?"
      r"(?:[MF]\b|y(?:rs?)?\b(?=[ \t,;/]*(?:[MFmf]|male|female|man|woman|boy|girl)\b))", "AGE", 0.8, group="a",
      validate=age_ok, invalidate=catheter_size),
    # "Well-child visit - 4 years", "2 month well baby check"
    # (session 17, tune57) also with more words in the heading: "WELL CHILD / TAMARIKI ORA CHECK - 15 MONTHS"
    P("age_well_visit", rf"(?i)\bwell[\s-]+(?:child|baby|infant|toddler|adolescent|teen)(?:\s+(?:visit|check|"
      rf"exam|care|review)|[ \t]*[^\n\d\-–—:,]{{1,40}}?)?\s*[-–—:,]\s*(?P<a>\d{{1,2}}|{NUMBER_WORDS_RE})[\s-]*(?:years?|yrs?|y|months?|mos?|"
      rf"weeks?|wks?)\b", "AGE", 0.85, group="a"),
    P("age_well_visit_before", r"(?i)\b(?P<a>\d{1,2})[\s-]*(?:years?|months?|weeks?|y|m|mo)[\s-]+(?:old\s+)?well[\s-]+"
      r"(?:child|baby|infant|visit|check)", "AGE", 0.85, group="a"),
    # dates in dialogue and prose -------------------------------------------------------
    # "on the 19th", "Tuesday the 8th", "by the twelfth": a date cue, then no noun after it
    P("date_ordinal_the", rf"(?i)(?<=\b(?:on|by|until|till|til|since|from|after|before|around|like|about|anniversary\s+is|"
      rf"(?:week|weekend)\s+of|"
      rf"birthday\s+is|due\s+date\s+is),?\s+the\s+)(?P<d>{DAY_ORD})"
      rf"{_ORD_DATE_AFTER}", "DATE", 0.75, group="d", validate=ordinal_ok),
    # "...the fourteenth of december doctor: yes the ninth unless", "[daughter] yes the third he was in": a day of the
    # month said in reply, where a month or a booking was named just before
    P("date_ordinal_reply", rf"(?i)(?<=\b(?:yes|yeah|yep|no|nope|so|ok|okay|right|and|or|maybe|about|say|either)[,]?\s+the\s+)"
      rf"(?P<d>{DAY_ORD}){_ORD_DATE_AFTER}", "DATE", 0.7, group="d", validate=ordinal_ok,
      invalidate=lambda t, s, e: not _DATE_TALK_BEFORE.search(t, max(0, s - 140), s)),
    P("date_weekday_ordinal", rf"(?i)(?<=\b(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+(?:the\s+)?)(?P<d>{DAY_ORD})",
      "DATE", 0.85, group="d",
      validate=ordinal_ok),
    # "you may need to go the seventeenth of next month": a day of a month named relative to now
    P("date_ordinal_rel_month", rf"(?i)\bthe\s+(?P<d>{DAY_ORD})\s+of\s+(?:next|this|last|the\s+(?:next|following))\s+month\b",
      "DATE", 0.75, group="d", validate=ordinal_ok),
    # "Patient: The 14th." - a turn that is only a date
    P("date_ordinal_turn", rf"(?im)(?:^|:)[ \t]*the\s+(?P<d>{DAY_ORD})(?=[ \t]*(?:[.?!]|$))", "DATE", 0.7,
      group="d", validate=ordinal_ok),
    # "march ninth", "the fourth of july", "May 3rd" is date_text
    P("date_month_ordword", rf"(?i)\b(?P<d>(?:january|february|march|april|june|july|august|september|october|"
      rf"november|december)\s+(?:the\s+)?{ORD_WORDS}|{ORD_WORDS}\s+of\s+{MONTH_NAMES})", "DATE", 0.85,
      group="d"),
    P("date_may_ordword", rf"(?i)(?<=\b(?:on|by|until|till|since|from|before|after|of)\s+)(?P<d>may\s+(?:the\s+)?"
      rf"{ORD_WORDS})", "DATE", 0.8, group="d"),
    # "in two thousand eight", "December third of two thousand and three", "July thirty first O eight"
    # years said in words whose shape is no count: "twenty eleven", "twenty twenty one", "nineteen eighty two"
    # (not 20/20 vision, not a quantity)
    P("date_spelled_year_shape", rf"(?i)(?<![\w-])(?<!vision\s+(?:is\s+|of\s+)?|acuity\s+(?:is\s+|of\s+)?)"
      rf"(?P<y>twenty[\s-]+(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|"
      rf"twenty(?:[\s-]+{_U19})?)|nineteen[\s-]+{_TENS_RE}(?:[\s-]+{_U19})?)(?![\w-])"
      rf"(?![\s-]+(?:vision|eyesight|sight|twenty|mg|milligrams?|mcg|grams?|g|kg|pounds?|lbs?|dollars?|bucks|percent|"
      rf"times|steps|calories|units?|over|out\s+of|minutes?|hours?|days?|weeks?|months?|miles?|feet|foot|inches?|"
      rf"cm|ml|cc|pills?|tablets?|people|patients|beats|breaths|degrees|point)\b|\s*[/%])",
      "DATE", 0.75, group="y"),
    P("date_spelled_year", rf"(?i)\b(?:in|since|from|until|till|year|around|before|after|early|late|mid|back\s+in|born|"
      rf"(?:{MONTH_NAMES}|{ORD_WORDS}|{CARDINAL_DAY}|\d{{1,2}}(?:st|nd|rd|th)?)(?:\s+of)?),?\s+(?P<y>{SPELLED_YEAR})",
      "DATE", 0.8, group="y"),
    # "January of O nine", "July thirty first O eight", "in March of ninety two"
    P("date_short_spelled_year", rf"(?i)\b(?:{MONTH_NAMES}|{ORD_WORDS})(?:\s+of\s+(?P<y>{SHORT_SPELLED_YEAR})|,?\s+"
      rf"(?P<y>(?:o|oh)[\s-]+{_U19}(?![\w-])))"
      rf"(?!\s+(?:years?|months?|weeks?|days?|hours?|minutes?|times|percent|pounds|mg)\b)", "DATE", 0.7, group="y",
      invalidate=lambda t, s, e: regex.match(r"(?i)\s*(?:[-/]|and\b|to\b)", t[e:e + 5]) is not None),
    # "February nineteen", "on march twenty two": a day in words after the month
    P("date_month_cardinal", rf"(?i)\b(?P<d>{MONTHS_NO_MAY}\s+(?:the\s+)?{CARDINAL_DAY})"
      rf"(?![\s-]+(?:years?|months?|weeks?|days?|hours?|minutes?|times|percent|pounds|patients|people|of\s+(?:them|us)|"
      rf"thousand|hundred|{_U19}|{_TEENS}|{_TENS_RE})\b)", "DATE", 0.75, group="d"),
    # "in May", "since june", "last March", "mid-october": a month alone after a date cue
    # "changed her warfarin dose in sept", "since feb": a month's abbreviation after a time cue (not "mar": the MAR)
    P("date_month_abbr_cued", rf"(?i)(?<=\b(?:in|since|until|till|by|last|next|early|late|mid|from|before|after|during)"
      rf"[ \t]+)(?P<m>jan|feb|apr|jun|jul|aug|sept?|oct|nov|dec)\.?(?![\w-])(?![ \t]*[-/]\d)", "DATE", 0.7, group="m"),
    P("date_month_cued", rf"(?i)(?P<m>(?<=\b{_MONTH_CUE}[\s-]+){MONTHS_NO_MAY}|(?<=\b{_MAY_CUE}[\s-]+)may(?![\w-]))"
      rf"{_MODAL_AFTER}", "DATE", 0.75, group="m",
      invalidate=lambda t, s, e: month_is_a_name(t, s, e)),
    # contacts ------------------------------------------------------------------------
    # a portal or system user name after its cue: "username: jdoe_84", "(user tjackson88)", "login is mbarnes2",
    # "Transcriptionist: mbarnes2"; the name must hold a digit, "_" or "." (not "user name is the same")
    P("username", r"(?i)\b(?:user[ \t]*names?|usernames?|user[ \t]*ids?|userids?|log[ \t]*-?ins?|screen[ \t]*names?|"
      r"handles?|user|transcriptionist|typed[ \t]+by|transcribed[ \t]+by|entered[ \t]+by)"
      r"(?:[ \t]*(?:is|was|:|=|-|#))*[ \t]*(?:(?:pt|patient|dr)[ \t]*:[ \t]*)?"
      r"(?P<u>[A-Za-z][A-Za-z0-9._-]{1,30}[A-Za-z0-9])(?![\w@.-]*[\w@])", "USERNAME", 0.85, group="u",
      validate=lambda u: bool(regex.search(r"\d|[._][A-Za-z0-9]", u)) and not regex.fullmatch(r"(?i)[a-z]\d{1,2}", u)),
    P("email", r"(?<![\w.+-])[A-Za-z0-9][\w.+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b", "EMAIL", 0.99),
    P("url", r"(?i)\b(?:https?://|ftp://|www\.)[^\s<>\"'()]+[^\s<>\"'().,;:!?]", "URL", 0.98),
    P("url_domain", r"(?i)(?<![@\w.-])[a-z0-9][a-z0-9-]{2,}(?:\.[a-z0-9-]+)*\.(?:com|org|net|edu|gov|mil|info|"
      r"biz|io|us|uk|es|eu|health|co\.uk|com\.es)(?:/[^\s<>\"'()]*[^\s<>\"'().,;:!?])?(?![\w@-])", "URL", 0.85,
      invalidate=lambda t, s, e: t[e - 4:e].lower() == ".net" and _NET_BALANCE_AFTER.match(t, e) is not None),
    P("ipv4", r"(?<![\d./])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\d.]\d)",
      "IPADDR", 0.95, validate=ip_ok),
    P("ipv6", r"(?i)(?<![\w:])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\w:])",
      "IPADDR", 0.9, validate=lambda s: ":" in s and sum(c.isalnum() for c in s) >= 4 and ip_ok(s)),
    # "Fax 503-...", "fax is 919-...", "fax for records: 785-..."
    P("fax", r"(?i)\bfax(?:\s*(?:#|no\.?|number|num)|\s+(?:is|at|to|on|line|for\s+\w+))?\s*[:.#]?\s*"
      r"(?P<n>(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s./-]{0,3}"
      r"\d{3}[\s./-]{0,3}\d{4}|\+\d[\d\s().-]{7,18}\d)", "FAX", 0.97, group="n"),
    # "(617) 555-1234", "617-555-1234"; "(617-555-1234)": the parenthesis is punctuation, not the area code's
    P("phone_us", r"(?<![\d/.])(?<!\d-)(?:\+?1[\s.-]?)?(?:\((?<!\d\()[2-9]\d{2}\)|(?<!\d)[2-9]\d{2})[\s./-]{0,3}\d{3}"
      r"[\s./-]{0,3}\d{4}"
      r"(?:\s*(?:x|ext\.?|extension)\s*\d{1,5})?(?![\d/]|\.\d|-\d)", "PHONE", 0.9,
      validate=lambda s: 10 <= len(digits(s)) <= 16, invalidate=not_phone_context),
    # national numbers with a trunk 0: "0113 496 0721", "07700 900412", "020 7946 0958", "01 234 5678",
    # "(03) 6200 1144" (UK, Ireland, Australia); 10-11 digits in 2-3 groups
    P("phone_trunk", r"(?<![\d+/.:-])(?:0\d{1,4}|\(0\d{1,4}\))[ -]?\d{3,4}(?:[ -]?\d{3,4})?(?![\d/]|[.:]\d|-\d)", "PHONE",
      0.85, validate=lambda s: 10 <= len(digits(s)) <= 11 and (" " in s or "-" in s or "(" in s),
      invalidate=not_phone_context),
    P("phone_paren", r"\((?P<n>\d{3}[\s./-]{0,3}\d{3}[\s./-]{0,3}\d{4})\)", "PHONE", 0.92, group="n"),
    P("phone_intl", r"(?<![\w+])(?:\+|00)[1-9]\d{0,2}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{1,4}(?:[\s.-]?\d{2,4}){1,4}"
      r"(?![\d])", "PHONE", 0.9, validate=lambda s: 9 <= len(digits(s)) <= 15),
    P("phone_local", r"(?i)\b(?:tel|telephone|phone|ph|cell|mobile|home|work|office|contact|call|called|#)"
      r"\s*[:#.]?\s*(?:at\s+)?(?P<n>\d{3}[-.\s]\d{4})(?![\d/-])", "PHONE", 0.85, group="n"),
    P("pager", r"(?i)\b(?:pager|beeper|beep|bpr|pgr|pg|page\s+(?:me\s+)?(?:at|#)|p)\s*(?:no\.?|number|num)?"
      r"\s*[:#]?\s*#?\s*(?P<n>\d{3,10}|\d{3}[-.\s]\d{4})(?![\d/.-]|\s*(?:of|mg|ml|cc|units?|%)\b)", "PHONE", 0.9,
      group="n", invalidate=lambda t, s, e: regex.search(r"(?i)\bp\s*[:#]?\s*#?\s*$", t[max(0, s - 6):s]) is not None
      and regex.search(r"(?i)pager|beeper|\bpg", t[max(0, s - 6):s]) is None),
    # an extension after a phone number ("555-0134 ext. 214"); a bare internal extension ("advice line on
    # extension 4417") identifies nobody and the guideline leaves it unmarked
    P("extension", r"(?i)\b(?:ext\.?|extension|x)\s*(?P<n>\d{3,5})\b(?=\s*(?:$|[).,;]|\n))", "PHONE", 0.7, group="n",
      invalidate=lambda t, s, e: (regex.search(r"(?i)\bx\s*$", t[max(0, s - 4):s]) is not None
                                  and not regex.search(r"\d[\s-]*x\s*$", t[max(0, s - 8):s]))
      or not regex.search(r"(?i)\d[)\s.-]*,?[ \t]*(?:ext\.?|extension|x)\s*$", t[max(0, s - 16):s])),
    # identifiers ---------------------------------------------------------------------------
    P("ssn", r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])", "SSN", 0.95, validate=ssn_ok),
    P("ssn_context", r"(?i)\b(?:ssn|soc(?:ial)?\s+sec(?:urity)?(?:\s+(?:no\.?|number|#))?|ss#)\s*[:#.]?\s*"
      r"(?P<n>\d{3}[-\s]?\d{2}[-\s]?\d{4})\b", "SSN", 0.98, group="n", validate=ssn_ok),
    P("mrn", r"(?i)\b(?:mrn|m\.r\.n\.|mr\s*#|mr\s*no\.?|mr\s*:|medical\s+record(?:\s+(?:number|no\.?|num|#))?|"
      r"record\s*(?:#|no\.?|number)|unit\s*(?:no\.?|number|num|#)|hospital\s+(?:number|no\.?|#)|"
      r"hosp\.?\s*(?:#|no\.?|number)|chart\s*(?:#|no\.?|number)|patient\s+(?:id|#|number|no\.?)|pt\s*(?:id|#)|id\s*#|"
      r"opd\s*(?:#|no\.?|number)|ipd?\s*(?:#|no\.?|number)|uhid|cr\s*(?:#|no\.?|number)|urn|h/n)"
      r"(?:\s+(?:is|was))?\s*[:#.]?\s*(?P<n>[A-Z]{0,3}-?\d[\d-]{3,14}\d|\d{4})\b", "MEDICALRECORD", 0.95, group="n", flags=0),
    P("account", r"(?i)\b(?:acct|account|acc\s*(?:#|no)|billing\s*(?:#|no\.?|number)|encounter\s*(?:#|no\.?|number|id)?|"
      r"visit\s*(?:#|no\.?|number|id)|fin\s*(?:#|:)|admission\s*(?:#|no\.?|number)|ref(?:erence)?\s*(?:#|no\.?)|"
      r"claim\s*(?:#|no\.?|number|id)?)"
      r"\s*[:#.]?\s*(?P<n>[A-Z]{0,3}-?\d[\d-]{3,16}\d)\b", "ACCOUNT", 0.9, group="n"),
    # NHS (England/Wales), CHI (Scotland), Medicare (Australia) numbers: 10 digits, often 3-3-4
    P("nhs_number", r"(?i)\b(?:nhs|chi|ihi)\s*(?:#|no\.?|number|num)?\s*[:#.]?\s*(?P<n>\d{3}[ -]?\d{3}[ -]?\d{4})(?![\d-])",
      "HEALTHPLAN", 0.97, group="n"),
    P("healthplan", r"(?i)\b(?:member\s*(?:id|#|no\.?|number)|policy\s*(?:#|no\.?|number|id)|insurance\s*(?:id|#|no\.?"
      r"|number)|medicaid\s*(?:id|#|no\.?|number)?|medicare\s*(?:id|#|no\.?|number)?|subscriber\s*(?:id|#|no\.?)|"
      r"group\s*(?:#|no\.?|number)|health\s*plan\s*(?:id|#|no\.?|number)?|beneficiary\s*(?:id|#|no\.?|number)|hicn|"
      # Irish GMS / medical card / GP visit card, NZ NHI, Canadian provincial cards
      r"(?:gms\s*(?:#|no\.?|number|num)|(?:gms\s+)?medical\s+card|gp\s+visit\s+card|nhi|ohip|ramq|phin|msp|health\s+card)"
      r"\s*(?:#|no\.?|number|num)?)"
      r"\s*[:#.]?\s*(?P<n>(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{4,20})\b", "HEALTHPLAN", 0.9, group="n", validate=has_digit),
    P("license", r"(?i)\b(?:licen[cs]e|lic\.|driver'?s?\s+licen[cs]e|dl|certificate|cert\.?)\s*(?:#|no\.?|number|num)?"
      r"\s*[:#.]\s*(?P<n>(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{4,15})\b", "LICENSE", 0.9, group="n", validate=has_digit),
    # "CDL Q40918273": a commercial driver's licence number after its label (no colon needed)
    P("license_cdl", r"\b(?:CDL|cdl)[ \t]*(?:#|no\.?|number)?[ \t]*[:#]?[ \t]*(?P<n>[A-Z]{0,2}\d{6,12})\b", "LICENSE", 0.85,
      group="n"),
    # professional registers: GMC/NMC/IMC (UK, Ireland), AHPRA (Australia), provider and prescriber numbers
    P("license_register", r"(?i)\b(?:(?:gmc|nmc|imc|hcpc|ahpra|cpso|cpsbc|cpsa|mdcn|mcrn|cpsm|cpss|cpsns|cpsnb|cpsnl|cmq|mcnz|nmbi|hpcsa|gphc)\s*(?:#|no\.?|number|num)?|(?:provider|prescriber)\s*(?:#|no\.?|number|num))"
      r"\s*[:#.]?\s*(?P<n>[A-Z]{0,4}\d[A-Z0-9-]{3,14})\b", "LICENSE", 0.9, group="n"),
    P("dea", r"(?i)\bdea\s*(?:#|no\.?|number)?\s*[:#.]?\s*(?P<n>[A-Z][A-Z9]\d{7})\b", "LICENSE", 0.97, group="n"),
    P("dea_checksum", r"\b[ABCDEFGHJKLMPRSTUX][A-Z9]\d{7}\b", "LICENSE", 0.85, validate=dea_ok),
    P("npi", r"(?i)\bnpi\s*(?:#|no\.?|number)?\s*[:#.]?\s*(?P<n>\d{10})\b", "LICENSE", 0.97, group="n"),
    P("npi_checksum", r"(?<![\d-])[12]\d{9}(?![\d-])", "LICENSE", 0.6, validate=npi_ok,
      invalidate=lambda t, s, e: not regex.search(r"(?i)(?:provider|physician|prescriber|np|id)\W*$", t[max(0, s - 20):s])),
    P("vin", r"(?i)\b(?:vin\s*(?:#|no\.?|number)?\s*[:#.]?\s*)?(?P<n>[A-HJ-NPR-Z0-9]{17})\b", "VEHICLE", 0.9, group="n",
      validate=vin_ok),
    P("vin_context", r"(?i)\bvin\s*(?:#|no\.?|number)?\s*[:#.]?\s*(?P<n>[A-HJ-NPR-Z0-9]{11,17})\b", "VEHICLE", 0.95,
      group="n", validate=has_digit),
    P("plate", r"(?i)\b(?:licen[cs]e\s+plate|plate\b\s*(?:#|no\.?|number)?|tag\s*#|registration\s*(?:#|no\.?))"
      r"\s*[:#.]?\s*(?P<n>[A-Z0-9]{1,4}[ -]?[A-Z0-9]{1,5})\b", "VEHICLE", 0.9, group="n", validate=has_digit),
    P("device_serial", r"(?i)\b(?:serial\s*(?:#|no\.?|number|num)?|s/n|sn\s*[:#]|model\s*(?:#|no\.?)|lot\s*(?:#|no\.?)|"
      r"device\s*(?:id|#|no\.?))\s*[:#.]?\s*(?P<n>[A-Z0-9][A-Z0-9-]{3,20})\b", "DEVICE", 0.9, group="n",
      validate=has_digit),
    P("generic_id", r"(?i)\b(?:id\s*(?:#|no\.?|number)|identification\s*(?:#|no\.?|number)|passport\s*(?:#|no\.?|number)?|"
      r"employee\s*(?:id|#|no\.?|number)|(?:job|dictation|transcription|interpreter|staff|badge)\s*(?:id|#|no\.?|number)|"
      r"badge|(?:incident|occurrence|safety|event|police)\s+(?:report|rpt)\s*(?:#|no\.?|number)?|"
      r"client\s*(?:code|id|#|no\.?|number)|(?:opd|ipd|op|ip)?\s*reg(?:istration)?\.?\s*(?:no\.?|number|#)"
      r")\s*[:#.]?\s*(?P<n>[A-Z0-9][A-Z0-9-]{3,20})\b", "IDNUM", 0.85, group="n",
      validate=has_digit),
    # places --------------------------------------------------------------------------------
    # street, state, zip, city: {STATES}, {STATE_NAMES} and {SUFFIX} are filled in at load()
    # one line only: "DOB 09/30/1979\n\nDear Dr." is no street; no function word inside ("ADMITTED 3/12 FROM
    # BROOKSIDE TERRACE" is a date and a place, not a street)
    P("street_address", r"\b(?P<s>\d{1,6}[A-Z]?(?:-\d{1,5})?[ \t]+(?:[NSEW]\.?[ \t]+|(?:North|South|East|West|NORTH|"
      r"SOUTH|EAST|WEST)[ \t]+)?(?:(?!(?:FROM|TO|AT|ON|IN|OF|AND|FOR|WITH|BY|VIA|IS|WAS|From|To|At|On|In|Of|And|For|With|By|"
      r"Via|Is|Was)\b)(?:[A-Z][a-z'’]+|[A-Z]{2,}|\d{1,3}(?:st|nd|rd|th|ST|ND|RD|TH))[ \t]+){1,3}{SUFFIX}\.?"
      r"(?:,?[ \t]+(?:Apt|APT|Apartment|Suite|STE|Ste|SUITE|Unit|UNIT|Fl|Floor|#)\.?[ \t]*#?[ \t]*[A-Z0-9-]{1,6})?)(?![\w])",
      "STREET", 0.9, group="s", invalidate=street_vocabulary),
    P("po_box", r"(?i)\b(?:p\.?\s?o\.?\s*box|post\s+office\s+box)\s+\d{1,6}\b", "STREET", 0.9),
    P("zip_after_state", r"(?<=\b(?:{STATES}|{STATE_NAMES}),?\s{1,3})(?P<z>\d{5}(?:-\d{4})?)(?![\d-])", "ZIP", 0.95,
      group="z", invalidate=zip_state_mismatch),
    P("zip_context", r"(?i)\b(?:zip|zipcode|zip\s+code|postal\s+code|post\s*code|pin\s+code|pincode)\s*[:#]?\s*(?P<z>\d{5}(?:-\d{4})?|\d{6}|\d{4})\b", "ZIP", 0.95,
      group="z"),
    P("state_before_zip", r"(?<=,\s{0,2}|[a-z]\s)(?P<st>{STATES})(?=,?\s{1,3}\d{5}(?:-\d{4})?(?![\d-]))", "STATE", 0.9,
      group="st", invalidate=state_zip_mismatch),
    # "PT'S CAR, MA PLATE 7KX 392": the state that issued a licence plate
    P("state_before_plate", r"(?<![\p{L}\p{N}])(?P<st>{STATES}|(?-i:[a-z]{2}))(?=[ \t]+(?:(?i:licen[cs]e)[ \t]+)?(?i:plate|tag)[ \t]*"
      r"(?:(?i:#|no\.?|number)[ \t]*)?:?[ \t]*(?i:(?=[a-z]*\d)(?:[a-z0-9]{4,8}|[a-z0-9]{1,4}[ -][a-z0-9]{2,5}))\b)", "STATE", 0.85,
      group="st", validate=lambda w: w.upper() in _US_STATE_CODES and not (w.islower() and w in _LOWER_NOT_STATE)),
    P("city_before_state", r"(?P<c>(?:[A-Z][a-z]+|[A-Z]{2,})(?:[ -](?:[A-Z][a-z]+|[A-Z]{2,})){0,2}),\s{1,2}"
      r"(?:{STATES}|{STATE_NAMES})(?=,?\s{1,3}\d{5}\b|\s*$|\s*\n)", "CITY", 0.85, group="c", flags=regex.MULTILINE,
      invalidate=city_zip_mismatch),
    # named wards and units: "Dunmore Ward", "Seahorse Unit", "Ward 5B" (not "Intensive Care Unit",
    # not "Hospital Maternity Unit")
    P("unit_named", r"\b(?P<n>(?!(?:The|This|That|Our|Your|His|Her|Their|Each|Every|Same|Other|Which|What|From|To|"
      r"On|In|At|Of|And|Or|For|With|A|An)\b)(?:[A-Z][a-z]+(?:['’-][A-Za-z]+)*[ \t]+){1,2}(?:Ward|Unit))\b(?![ \t]*\d)",
      "DEPARTMENT", 0.8, group="n", invalidate=generic_unit_name),
    # "Harborview Lung & Sleep, Suite 210": a suite number outside a full street address
    # "bed 4", "in room 412", "Bay 3", "Rm. 12B": the number is the location (the guideline's LOCATION_OTHER)
    P("room_number", r"(?i)(?<![\w-])(?:room|rm|bed|bay|cubicle|cubicle|stretcher|trolley|cot|incubator|isolette|chair)\.?[ \t]*(?:#|no\.?|number)?[ \t]*"
      r"(?P<n>\d{1,4}[A-Za-z]?)\b(?![ \t]*(?:[-/.:]\d|[%°]|mg|ml|l\b|hours?|hrs?|days?|weeks?|x\b|times|degrees?|deg\b|"
      r"inch|in\b|cm|of\b|and\b|or\b|to\b|pillows?))", "LOCATION_OTHER", 0.7, group="n",
      invalidate=lambda t, s, e: regex.search(r"(?i)\b(?:head\s+of(?:\s+the)?|hob|elevat\w*|raised?|days?\s+in|"
                                              r"confined\s+to)\s+(?:bed|room)\W*$", _before(t, s, 30)) is not None
      # "agnes back to bed 0200": a clock time; "up in chair 2 hrs": a duration
      or (regex.fullmatch(r"(?:[01]\d|2[0-3])[0-5]\d", t[s:e]) is not None
          and regex.search(r"(?i)\b(?:to|in|into|back\s+to)\s+bed\W*$", _before(t, s, 20)) is not None)
      or regex.search(r"(?i)\b(?:in|to|oob|up)\s+(?:the\s+)?chair\W*$", _before(t, s, 16)) is not None),
    # a named school: "she goes to riverside primary", "attends Oakfield Middle School" (not "goes to primary
    # school", "the local high school")
    P("school_named", r"(?i)\b(?:goes[ \t]+to|go[ \t]+to|went[ \t]+to|attends|attending|attended|at|pupil[ \t]+at|"
      r"student[ \t]+at|teacher[ \t]+at|teaches[ \t]+at)[ \t]+(?P<n>(?!(?:the|a|an|her|his|their|my|our|your|"
      r"local|nearby|primary|secondary|elementary|middle|high|junior|grammar|infant|infants|public|private|state|"
      r"catholic|special|boarding|big|new|same|village|summer|sunday|night|medical|nursing|law|art|dance|driving)\b)"
      r"[a-z][a-z'’-]+(?:[ \t]+(?!(?:primary|elementary|middle|junior|infants?|grammar|secondary)\b)[a-z][a-z'’-]+)?"
      r"[ \t]+(?:(?:primary|elementary|middle|junior|infants?)(?:[ \t]+school)?|(?:grammar|secondary)[ \t]+school))\b",
      "ORGANIZATION", 0.7, group="n"),
    # a named nursery: "off nursery at Tiny Steps", "daycare called Little Sprouts"
    P("nursery_named", r"(?i)\b(?:nursery|daycare|day[ \t]+care|preschool|pre-school|creche|crèche|playgroup|"
      r"after[ \t-]?school[ \t]+club)[ \t]+(?:at|called|named)[ \t]+"
      r"(?P<n>(?-i:\p{Lu}[\p{Ll}'’]+)(?:[ \t]+(?-i:\p{Lu}[\p{Ll}'’]+)){0,2})", "ORGANIZATION", 0.7, group="n"),
    # "is ahmadi in room 412", "has bed 3 ... ", "check okafor in bay 2": in a query the word before
    # "in room/bed/bay" after a verb or "for" is the patient (no dictionary word: "is he in bed", "the patient")
    P("name_in_room", r"(?i)(?<![\w'’])(?:is|was|has|for|of|see|seen|check|chase|review|pt|patient)[ \t]+"
      r"(?P<n>[a-z][a-z'’-]{2,}(?:[ \t]+[a-z][a-z'’-]{2,})?)[ \t]+(?:in|on)[ \t]+(?:room|rm|bed|bay)\b",
      "PATIENT", 0.6, group="n", invalidate=lambda t, s, e: not _unknown_words(t[s:e])),
    # floors of a building: "on level 2", "report to Level 3 reception", "the Day Unit, level 4."
    P("floor_level", r"(?i)(?:(?<=\b(?:on|to|at|from|onto)[ \t]+(?:the[ \t]+)?)|(?<=\p{L},[ \t]*))(?:level|floor)[ \t]+"
      r"(?P<n>\d{1,2}|[A-Z])\b(?![ \t]*(?:trauma|evidence|care|of|[-/.%]\d|mg|and\b|or\b|to\b|days?\b|hours?\b|"
      r"hrs?\b|weeks?\b|mins?\b|minutes\b|times\b|x\b))|"
      r"\b(?-i:Level|Floor)[ \t]+(?P<n>\d{1,2})(?=[ \t]+(?:reception|entrance|lift|lifts|elevator|desk|lobby|waiting))",
      "LOCATION_OTHER", 0.7, group="n"),
    P("suite_number", r"\b(?:Suite|Ste\.?)[ \t]+(?P<n>\d{1,4}[A-Z]?)\b(?![ \t]*(?:mg|ml|%|[-/.]\d))", "LOCATION_OTHER",
      0.7, group="n"),
    P("ward_number", r"\b(?P<n>(?:Ward|Unit)[ \t]+\d{1,2}[A-Z]?)\b(?![ \t]*(?:,[ \t]*\d|[-/.]\d))", "DEPARTMENT", 0.8, group="n"),
    # "from 4 East", "back to West 7": a floor-and-wing ward name after a place preposition
    P("ward_compass", r"(?<=\b(?:from|on|to|at|in|onto|(?-i:Unit|Ward|Floor|Location|UNIT|WARD):)[ \t]+)(?P<n>\d{1,2}[A-Z]?[ \t]+(?:East|West|North|South)|"
      r"(?:East|West|North|South)[ \t]+\d{1,2}[A-Z]?)\b(?![ \t]+[A-Z][a-z]|[ \t]*[-/]\d)", "DEPARTMENT", 0.75, group="n"),
    # UK postcodes ("LS6 2QT", "SW1A 1AA"), Canadian ("K1A 0B1"), Irish Eircodes after a comma ("D02 X285")
    P("state_line_end", r"(?<=\b(?:[A-Z][a-z]+|[A-Z]{2,})(?:[ -](?:[A-Z][a-z]+|[A-Z]{2,})){0,2},[ \t]{1,2})(?P<st>{STATES})"
      r"(?=[ \t]*$)", "STATE", 0.8, group="st", flags=regex.MULTILINE, invalidate=state_line_end_doubt),
    # "now living in Silver Spring, MD. Works ...", "moved from Dayton, OH, last year": a state code after a
    # town after a place cue, before punctuation (no ZIP, not at a line end: those have their own rules)
    P("state_after_town", r"(?<=\b(?:in|from|to|near|outside|of|at)[ \t]+(?:[A-Z][a-z]+|[A-Z]{2,})(?:[ -](?:[A-Z][a-z]+|"
      r"[A-Z]{2,})){0,2},[ \t]{1,2})(?P<st>{STATES})(?=[ \t]*[.,;)](?![A-Za-z])|[ \t]*$)", "STATE", 0.8, group="st",
      flags=regex.MULTILINE, invalidate=state_after_town_doubt),
    # a room given as number + wing letter after in/to/from: "still in 312B?", "moved to 1104A" (not C/F: temperatures)
    P("room_bare", r"(?<=\b(?:in|to|from|into)[ \t]+)(?P<n>\d{3,4}[ABDEG])\b(?![-/.]\d|[ \t]*(?:units?|u\b|mg|mcg|ml|iu|cells|copies|x\b))", "LOCATION_OTHER", 0.65,
      group="n"),
    # a letter's address line: "14 Fell Gate, Kirkby Lonsdale": the town after a house number and its street
    P("city_after_house_address", r"(?m)^[ \t]*\d{1,5}[A-Za-z]?[ \t]+(?P<st>(?:[A-Z][a-z'’]+[ \t]+){0,2}[A-Z][a-z'’]+),"
      r"[ \t]{1,2}(?P<c>[A-Z][a-z]{2,}(?:[ -](?:(?:upon|on|in|under|le|by)[ -])?[A-Z][a-z]{2,})?)[ \t]*$", "CITY", 0.7,
      group="c", invalidate=lambda t, s, e: house_line_doubt(t, s, e)),
    # ... and its street with the house number, when no street suffix made it a street_address: "9 Beck Side"
    P("street_before_town", r"(?m)^[ \t]*(?P<st>\d{1,5}[A-Za-z]?[ \t]+(?:[A-Z][a-z'’]+[ \t]+){0,2}[A-Z][a-z'’]+)(?=,"
      r"[ \t]{1,2}[A-Z][a-z]{2,}(?:[ -](?:(?:upon|on|in|under|le|by)[ -])?[A-Z][a-z]{2,})?[ \t]*$)", "STREET", 0.7,
      group="st", invalidate=lambda t, s, e: house_line_doubt(t, e + 2, e + 2)),
    # UK counties without "-shire", Irish counties, Canadian provinces, Australian states, after a town and a
    # comma or after in/from/to: "Kendal, Cumbria", "moved to Halifax, Nova Scotia", "grew up in Queensland"
    P("region_named", r"(?:(?<=\b[A-Z][a-z]+,[ \t]{1,2})|(?<=\b(?:in|from|to|near)[ \t]+))(?P<st>(?:Cumbria|Northumberland|"
      r"Kent|Essex|Surrey|East Sussex|West Sussex|Sussex|Devon|Cornwall|Somerset|Dorset|Norfolk|Suffolk|Merseyside|"
      r"Tyne and Wear|Greater Manchester|West Midlands|Rutland|Isle of Wight|Middlesex|Fife|Midlothian|East Lothian|"
      r"West Lothian|Powys|Gwynedd|Anglesey|Ceredigion|Pembrokeshire|Donegal|Kerry|Wexford|Wicklow|Tipperary|"
      r"Roscommon|Westmeath|Offaly|Laois|Leitrim|Monaghan|Fermanagh|Tyrone|Ontario|Quebec|Nova Scotia|New Brunswick|"
      r"Manitoba|British Columbia|Prince Edward Island|Saskatchewan|Alberta|Newfoundland|Nunavut|Yukon|Queensland|"
      r"New South Wales|Tasmania|Western Australia|South Australia|Northern Territory))\b(?![ \t]+(?:Hospital|"
      r"General|University|Clinic|Health|Road|Street|St|Avenue|Ave|Drive|Lane|County|Council|Police|Fire))",
      "STATE", 0.8, group="st"),
    # Irish (and a few UK) counties: "Navan, Co. Meath", "in County Kerry", "Co Donegal"
    P("county_ie", r"\b(?P<st>(?:Co\.?|County)[ \t]+(?:Antrim|Armagh|Carlow|Cavan|Clare|Cork|Derry|Donegal|Down|Dublin|"
      r"Fermanagh|Galway|Kerry|Kildare|Kilkenny|Laois|Leitrim|Limerick|Longford|Louth|Mayo|Meath|Monaghan|Offaly|"
      r"Roscommon|Sligo|Tipperary|Tyrone|Waterford|Westmeath|Wexford|Wicklow|Durham|Antrim))\b(?![ \t]+(?:Hospital|"
      r"Council|Road|Street))", "STATE", 0.85, group="st"),
    # "Leeds LS6 2QT", "Ashdown, TN22 3XR": the town before a UK postcode
    P("city_before_postcode", r"\b(?P<c>[A-Z][a-z]+(?:(?:[ -](?:upon|on|in|under|le|by|the|en|sur|de))*[ -][A-Z][a-z]+)?)"
      r"(?=,?[ \t]+(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?|"
      r"[A-PR-UWYZ]\d[A-HJKPSTUW])[ \t]\d[ABD-HJLNP-UW-Z]{2}\b)", "CITY", 0.8, group="c",
      invalidate=lambda t, s, e: regex.search(r"(?i)\b(?:road|rd|street|st|lane|ln|row|close|way|avenue|ave|drive|"
                                              r"court|crescent|gardens|grove|place|terrace|mews|hill|square)$",
                                              t[s:e]) is not None),
    # "lives on Jayhawk Drive": a named street without a house number after on/at/off
    P("street_named", r"(?<=\b(?:on|off|at|along|near)[ \t]+)(?P<s>(?:[A-Z][a-z'’]+[ \t]+){1,2}(?:Street|Avenue|Road|"
      r"Boulevard|Drive|Lane|Terrace|Parkway|Crescent|Close))\b", "STREET", 0.75, group="s",
      invalidate=street_vocabulary),
    # lower-case speech: "we moved to a flat on garnet street", "the one off route 9"
    P("street_named_lower", r"(?<=\b(?:on|off|along|near|down|up|onto|live[sd]?[ \t]+(?:on|at|in))[ \t]+)(?P<s>(?:[a-z][a-z'’]+"
      r"[ \t]+){1,2}(?:street|avenue|road|drive|lane|boulevard|terrace|parkway|crescent|ave|rd|blvd)|"
      r"(?:route|highway|hwy|rte|interstate)[ \t]+\d{1,3}[a-z]?)\b(?![ \t]*(?:test|bike|trip|rage|sign|safety))",
      "STREET", 0.7, group="s", invalidate=lambda t, s, e: street_lower_doubt(t, s, e)),
    # Australian states and 4-digit postcodes: "Hobart TAS 7000", "Parramatta NSW 2150"
    # street corners: "on 5th and pine", "at Main & 3rd"
    P("street_corner", r"(?i)(?<=\b(?:on|at|near|off|corner\s+of)[ \t]+)(?P<s>(?:\d{1,3}(?:st|nd|rd|th)[ \t]+(?:and|&)[ \t]+"
      r"[a-z]{3,}|[a-z]{3,}[ \t]+(?:and|&)[ \t]+\d{1,3}(?:st|nd|rd|th))(?:[ \t]+(?:st|street|ave|avenue)\b)?)\b",
      "STREET", 0.7, group="s", invalidate=lambda t, s, e: corner_word_doubt(t, s, e)),
    P("postcode_au", r"(?<=\b[A-Z][a-z]+,?[ \t]{1,2}(?:NSW|VIC|Vic|QLD|Qld|SA|WA|TAS|Tas|NT|ACT)[ \t]{1,2})(?P<z>\d{4})"
      r"(?![\d-]|[.,]\d|\s*(?:ml|cc|mg|units?|secs?|s)\b)", "ZIP", 0.85, group="z", invalidate=au_state_doubt),
    P("state_au", r"(?<=\b[A-Z][a-z]+,?[ \t]{1,2})(?P<st>NSW|VIC|QLD|SA|WA|TAS|NT|ACT)(?=[ \t]{1,2}\d{4}(?![\d-]|[.,]\d|"
      r"\s*(?:ml|cc|mg|units?|secs?|s)\b))", "STATE", 0.85, group="st", invalidate=au_state_doubt),
    P("postcode_uk", r"\b(?P<z>(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?|[A-PR-UWYZ]\d[A-HJKPSTUW])[ \t]\d[ABD-HJLNP-UW-Z]{2})\b",
      "ZIP", 0.85, group="z"),
    P("postcode_ca", r"\b(?P<z>[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ \t]\d[ABCEGHJ-NPRSTV-Z]\d)\b", "ZIP", 0.85,
      group="z"),
    # the same codes as speech-to-text writes them, in lower case: "still paisley pa3 2lg", "postal code l7c 2x9",
    # "yeah p31 k2w8" (not a dose: "b12 2mg")
    P("postcode_lower", r"(?<![\w/.-])(?P<z>(?:[a-pr-uwyz][a-hk-y]?\d[a-z\d]?|[a-pr-uwyz]\d[a-hjkpstuw])[ \t]\d"
      r"(?!(?:mg|ml|mm|mcg|hr|hrs|am|pm|kg|lb|cm)\b)[abd-hjlnp-uw-z]{2}|[abceghj-nprstvxy]\d[abceghj-nprstv-z][ \t]\d"
      r"[abceghj-nprstv-z]\d|(?:[ac-fhknprtv-y]\d{2}|d6w)[ \t](?=[0-9ac-fhknprtv-y]{0,3}[ac-fhknprtv-y])"
      r"[0-9ac-fhknprtv-y]{4})(?![\w/.-])", "ZIP", 0.75, group="z", invalidate=lambda t, s, e: not t[s:e].islower()
      or regex.search(r"\p{Lu}", t[max(0, s - 300):s + 300]) is not None),
    # "Apt 4, Sudbury P3C 4R7": the town right before a Canadian postcode, after a comma
    P("city_before_postcode_ca", r"(?<=,[ \t]{0,2})(?P<c>\p{Lu}\p{Ll}+(?:[ -]\p{Lu}\p{Ll}+)?)(?=[ \t]+[ABCEGHJ-NPRSTVXY]\d"
      r"[ABCEGHJ-NPRSTV-Z][ \t]?\d[ABCEGHJ-NPRSTV-Z]\d\b)", "CITY", 0.8, group="c"),
    # "Toronto, ON M6J 1V5": the province abbreviation before a Canadian postcode
    P("province_ca", r"(?<=,[ \t]{0,2})(?P<s>AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)(?=[ \t]+[ABCEGHJ-NPRSTVXY]\d"
      r"[ABCEGHJ-NPRSTV-Z][ \t]?\d[ABCEGHJ-NPRSTV-Z]\d\b)", "STATE", 0.85, group="s"),
    # "2218 Pinecrest Ave, Apt 4, Decatur 30030": town and ZIP code after a street address, no state between
    P("city_zip_after_street", r"(?<=\b\d{1,6}[ \t]+(?:[A-Z][\w'.-]*[ \t]+){1,3}{SUFFIX}\.?(?:,?[ \t]+(?:Apt|Unit|Suite|"
      r"Ste|Flat|#)\.?[ \t]*[\w-]+)?,[ \t]{0,2})(?P<c>[A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?)(?=[ \t]+\d{5}(?:-\d{4})?\b)",
      "CITY", 0.8, group="c"),
    # "7 Merrigal Street, Wagga.", "4/17 Casuarina Drive, Yeppoon QLD 4703", "38 Pukeko Street, Rotorua 3010": the town
    # after a street address and a comma, before a state, a 4-digit postcode or the end of the sentence
    P("city_after_street", r"(?<=\b\d{1,6}[ \t]+(?:[A-Z][\w'.-]*[ \t]+){1,3}{SUFFIX}\.?(?:,?[ \t]+(?:Apt|Unit|Suite|"
      r"Ste|Flat|#)\.?[ \t]*[\w-]+)?,[ \t]{0,2})(?P<c>[A-Z][\w'’-]+(?:[ \t][A-Z][a-z][\w'’-]*)?)(?=[ \t]+(?:\d{4}\b|"
      r"(?:NSW|QLD|VIC|TAS|ACT|NT|SA|WA|AB|BC|MB|NB|NL|NS|ON|PE|QC|SK|YT|{STATES})\b)|[ \t]*(?:[.;]|$))",
      "CITY", 0.75, group="c", flags=regex.MULTILINE),
    P("postcode_after_street_city", r"(?<=\b\d{1,6}[ \t]+(?:[A-Z][\w'.-]*[ \t]+){1,3}{SUFFIX}\.?,[ \t]{0,2}"
      r"[A-Z][\w'’-]+(?:[ \t][A-Z][\w'’-]+)?[ \t]+)(?P<z>\d{4})\b(?![/.:-]\d)", "ZIP", 0.8, group="z"),
    P("zip_after_street_city", r"(?<=\b\d{1,6}[ \t]+(?:[A-Z][\w'.-]*[ \t]+){1,3}{SUFFIX}\.?(?:,?[ \t]+(?:Apt|Unit|Suite|"
      r"Ste|Flat|#)\.?[ \t]*[\w-]+)?,[ \t]{0,2}[A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?[ \t]+)(?P<z>\d{5}(?:-\d{4})?)\b",
      "ZIP", 0.85, group="z"),
    # "Employer: Cactus Line Freight", "(carrier: Desert Mutual Insurance)": an organisation after its field label
    P("org_field", r"(?<=\b(?i:employer|carrier|insurer|insurance\s+company|insurance\s+carrier|workplace|school|"
      r"nursery|daycare|college|university|company)[ \t]*:[ \t]*)(?P<o>[A-Z][\w&'’.-]*(?:[ ](?:[A-Z&][\w&'’.-]*|of|and|"
      r"the|for|de)){0,5}(?<![ \t]))", "ORGANIZATION", 0.8, group="o", invalidate=lambda t, s, e: org_field_doubt(t, s, e)),
    # 'William Hargrove ("Will")': a nickname in quotes right after a full name
    P("nickname_quoted", r"(?<=\b[A-Z][a-z]+(?:[ \t]+[A-Z]\.?)?[ \t]+[A-Z][a-z'’-]+[ \t]*\(?[ \t]*[\"“‘'])(?P<n>[A-Z][a-z]+)"
      r"(?=[\"”’'][ \t]*\)?)", "PATIENT", 0.75, group="n"),
    P("eircode", r"(?<=,[ \t]{0,2})(?P<z>(?:[AC-FHKNPRTV-Y]\d{2}|D6W)[ \t](?=[0-9AC-FHKNPRTV-Y]{0,3}[AC-FHKNPRTV-Y])"
      r"[0-9AC-FHKNPRTV-Y]{4})\b", "ZIP", 0.85, group="z"),
    # field headers -----------------------------------------------------------------------------
    # nicknames: "call me Dottie", "she goes by Bea", "prefers to be called Sunny"
    P("nickname", r"(?i)\b(?:call(?:s|ed)?\s+me|calls?\s+(?:him|her)|i\s+go\s+by|(?:he|she)\s+goes\s+by|prefers?\s+to\s+be\s+"
      r"called|likes\s+to\s+be\s+called)[ \t]+(?P<n>[A-Za-z][a-z'’-]+)\b", "PATIENT", 0.75, group="n",
      invalidate=not_a_nickname),
    P("nickname_clinician", r"(?im)^[ \t]*(?:doctor|dr\.?(?:[ \t]+[A-Z][\w'-]+)?|nurse|clinician|therapist|physician|"
      r"physio|counsel+or|pharmacist|np|pa|rn)[ \t]*:[^\n]*?\bcall\s+me[ \t]+(?P<n>[A-Za-z][a-z'’-]+)\b", "DOCTOR", 0.8,
      group="n", invalidate=not_a_nickname),
    # the age worked out from a date of birth just given: "born in eighty five so thirty eight yeah",
    # "two thousand four doctor: so nineteen and", "so youre twenty two yep"
    P("age_from_dob", rf"(?i)(?:\b(?:born|birthday|date\s+of\s+birth|dob|nineteen\s+{_TENS_RE}|two\s+thousand|"
      rf"(?:january|february|march|april|may|june|july|august|september|october|november|december)\b)[^\n]{{0,80}}?"
      rf"(?:\n[^\n]{{0,40}}?)?)\bso\s+(?:you['’]?re\s+|you\s+are\s+|that\s+makes\s+you\s+|thats\s+|that['’]s\s+)?"
      rf"(?P<a>{NUMBER_WORDS_RE})(?=\s+(?:yeah|yep|yes|yup|aye|and|right|then|now|okay|ok|still)\b|[ \t]*[?.,]|[ \t]*$)",
      "AGE", 0.75, group="a", validate=age_in_range, flags=regex.MULTILINE),
    # the age said back: "so youre twenty two yep twenty two okay", "makes you twenty six / patient: twenty six aye"
    P("age_echo", rf"(?i)\b(?:you['’]?re|you\s+are|makes\s+you|so)\s+(?P<x>{TENS_WORDS_RE})[ \t]*[?.,]?[ \t]*"
      rf"(?:\n?[ \t]*(?:\[[^\]\n]{{1,20}}\][ \t]*:?|[a-z]{{1,12}}[ \t]*:)?[ \t]*)?(?:(?:yep|yes|yeah|yup|aye|mm|um)[ \t,]+)?"
      rf"(?P<a>(?P=x))(?=\s+(?:yeah|yep|yes|aye|okay|ok|right|and|now)\b|[ \t]*[.,!?]|[ \t]*$)",
      "AGE", 0.7, group="a", validate=age_in_range, flags=regex.MULTILINE),
    P("age_echo_first", rf"(?i)\b(?:you['’]?re|you\s+are|makes\s+you)\s+(?P<a>(?>{TENS_WORDS_RE}))[ \t]*[?.,]?[ \t]*"
      rf"(?:\n?[ \t]*(?:\[[^\]\n]{{1,20}}\][ \t]*:?|[a-z]{{1,12}}[ \t]*:)?[ \t]*)?(?:(?:yep|yes|yeah|yup|aye|mm|um)[ \t,]+)?"
      rf"(?P=a)(?=\s+(?:yeah|yep|yes|aye|okay|ok|right|and|now)\b|[ \t]*[.,!?]|[ \t]*$)",
      "AGE", 0.7, group="a", validate=age_in_range, flags=regex.MULTILINE),
    # the age said back and corrected: "and youre thirty one / patient: thirty two on the fourth",
    # "[interpreter] she says eighty six [daughter] eighty seven the chinese way"
    P("age_corrected", rf"(?i)(?<=\b(?:you['’]?re|you\s+are|(?:she|he)\s+says|(?:she|he)['’]?s|i['’]?m)\s+(?>{TENS_WORDS_RE})[ \t]*[?.,]?"
      rf"[ \t]*\n?[ \t]*(?:\[[^\]\n]{{1,20}}\][ \t]*:?|[a-z]{{1,12}}[ \t]*:)[ \t]*(?:no[ \t,]+|actually[ \t,]+)?)"
      rf"(?P<a>(?>{TENS_WORDS_RE})){_NOT_AGE_AFTER}", "AGE", 0.7, group="a", validate=age_in_range,
      invalidate=lambda t, s, e: vital_sign_before(t, s, e) or gestation_weeks(t, s, e)),
    # two-digit years read out: "from nineteen sixty one to sixty six", "came up in seventy four"
    P("year_spoken_range", rf"(?i)(?<=\b(?:nineteen|twenty)\s+{_TENS_RE}(?:\s+{_U19})?\s+(?:to|till|until|through|and)\s+)"
      rf"(?P<d>(?>{_TENS_RE}(?:\s+(?:one|two|three|four|five|six|seven|eight|nine))?))(?![\w-])"
      rf"(?!\s+(?:years?|months?|weeks?|days?|percent|pounds|kilos?|mg|minutes?|hours?)\b)", "DATE", 0.75, group="d"),
    P("year_spoken_moved", rf"(?i)(?<=\b(?:came|come|moved|emigrated|immigrated|arrived|married|retired|left|"
      rf"settled|started|finished|joined|enlisted|graduated|had|got|diagnosed|born|died|passed|broke|lost|bought|"
      rf"built|sold|quit|stopped)(?:\s+(?!(?:in|at|for)\b)[a-z'’]+){{0,4}}?\s+in\s+)"
      rf"(?P<d>(?>(?:fifty|sixty|seventy|eighty|ninety)(?:\s+(?:one|two|three|four|five|six|seven|eight|nine))?))(?![\w-])"
      rf"(?!\s+(?:years?|months?|weeks?|days?|percent|pounds|kilos?|minutes?|hours?|miles?)\b)", "DATE", 0.75, group="d"),
    # "whats your wifes name / patient: hyacinth": a relative's name given in reply
    P("relative_name_reply", r"(?im)\b(?:your|his|her|their)[ \t]+(?:wife|husband|partner|son|daughter|mum|mom|mother|dad|"
      r"father|brother|sister|carer|friend|neighbou?r|sponsor|boss|kids?|children|grandson|granddaughter)(?:['’]?s|s)[ \t]+"
      r"(?:first[ \t]+|full[ \t]+|last[ \t]+)?names?\b[^\n]{0,20}?(?:\n[ \t]*|[ \t]+)"
      r"(?:\[[^\]\n]{1,20}\][ \t]*:?|[A-Za-z]{1,12}[ \t]*:)[ \t]*(?:(?:its|it['’]s|um+|uh+|oh|well|her[ \t]+name['’]?s|"
      r"his[ \t]+name['’]?s)[ \t,]+){0,2}"
      r"(?P<n>[A-Za-z][\w'’-]+(?:[ \t]+(?!(?:but|and|fifty|forty|sixty|thirty|twenty|seventy|eighty|years?|shes|hes|she|he)\b)"
      r"[A-Za-z][\w'’-]+)?)(?=[ \t]*(?:[.,;!?]|$)|[ \t]+(?:but|and|fifty|forty|sixty|thirty|twenty|seventy|eighty|shes|hes|she|he)\b)",
      "RELATIVE", 0.75, group="n", invalidate=not_a_name_reply),
    # a capitalised given name spoken to, closing the sentence or after a reply word: "back in three months, Mae.",
    # "Physician: No, Mae, I don't think", "Physician: Mae it is."
    P("vocative_capital", r"(?:(?<=(?<![\p{L}'’-])\p{Ll}[\p{L}'’-]*[!?]?,[ \t])(?P<n>\p{Lu}\p{Ll}{1,15})(?=[.!?](?:\s|$))"
      r"|(?<=(?m:^)[\p{L} .'-]{1,20}:[ \t]+(?:No|Yes|Okay|OK|Ok|Well|So|Right|Thanks|Thank[ \t]+you|Sorry|Oh|Alright|Great|"
      r"Good|Sure),?[ \t]+)(?P<n>\p{Lu}\p{Ll}{1,15})(?=,[ \t])"
      r"|(?<=(?m:^)[\p{L} .'-]{1,20}:[ \t]+)(?P<n>\p{Lu}\p{Ll}{1,15})(?=[ \t]+it[ \t]+is\b))",
      "PATIENT", 0.6, group="n", invalidate=lambda t, a, b: not_a_vocative_name(t[a:b])),
    # a letter's salutation: "Dear Deb,", "Dear Siobhan and Mark," (a colleague or the patient)
    P("salutation_name", r"(?m)^[ \t]*Dear[ \t]+(?P<n>(?!(?:Sir|Sirs|Madam|Madame|Colleague|Colleagues|Doctor|Dr|Team|Patient|"
      r"Parent|Parents|Carer|All|Friend|Friends|Member|Members|Provider|Clinician|Nurse|Mr|Mrs|Ms|Miss|Prof|Professor|GP|"
      r"Sister|Practice|Partner|Partners|Referrer|Hiring|Whom)\b)\p{Lu}\p{Ll}+(?:[ \t]+\p{Lu}[\p{L}'’-]+)?)[ \t]*[,:]",
      "DOCTOR", 0.75, group="n"),
    # "what should i call you / [patient] dong-hyun but nobody says it": the name the patient goes by
    P("call_you_reply", r"(?i)\bwhat[ \t]+(?:should|do|can|shall|would[ \t]+you[ \t]+like)[ \t]+(?:i|we|me[ \t]+to)[ \t]+call[ \t]+you\b"
      r"[^\n]{0,15}?(?:\n[ \t]*|[ \t]+)(?:\[[^\]\n]{1,20}\][ \t]*:?|[A-Za-z]{1,12}[ \t]*:)?[ \t]*"
      r"(?:(?:just|oh|um+|uh+|call[ \t]+me|its|it['’]s)[ \t,]+){0,2}(?P<n>[A-Za-z][\w'’-]+)(?=[ \t]*(?:[.,;!?]|$)|[ \t]+(?:but|is|please|thats|that['’]s|and|everyone|everybody)\b)",
      "PATIENT", 0.75, group="n", invalidate=not_a_nickname),
    # "dad: im hector his dad", "this is leanne her mum": a speaker naming themself by their relation
    P("self_intro_relative", r"(?i)\b(?:i['’]?m|i\s+am|this\s+is|it['’]?s|its|my\s+name['’]?s|my\s+name\s+is)[ \t]+"
      r"(?P<n>[a-z][a-z'’-]{2,}(?:[ \t]+(?!his\b|her\b|their\b|the\b)[a-z][a-z'’-]{2,})?)[ \t]*,?[ \t]+"
      r"(?:his|her|their|the[ \t]+(?:patient|baby|child)['’]?s|your[ \t]+patient['’]?s)[ \t]+(?:dad|daddy|father|mum|mom|"
      r"mummy|mommy|mother|wife|husband|partner|son|daughter|brother|sister|grandma|grandmother|grandad|granddad|"
      r"grandfather|grandpa|nan|nana|nanna|aunt|auntie|aunty|uncle|carer|caregiver|niece|nephew|cousin|guardian|"
      r"stepmum|stepmom|stepdad|foster[ \t]+(?:mum|mom|dad|mother|father|parent)|fiancee?|girlfriend|boyfriend)\b",
      "RELATIVE", 0.8, group="n", invalidate=lambda t, a, b: not_a_self_name(t[a:b])),
    # "can I check: you are Tan Ah Kow, date of birth 3 March 1946?": the identity check
    P("identity_check", r"(?i)\byou(?:['’]re|\s+are)[ \t]+(?P<n>(?-i:\p{Lu}[\p{L}'’-]+)(?:[ \t]+(?-i:\p{Lu}[\p{L}'’-]+)){0,3})"
      r"[ \t]*,?[ \t]*(?:date[ \t]+of[ \t]+birth|dob|d\.o\.b|born[ \t]+(?:on|in))\b", "PATIENT", 0.8, group="n"),
    P("field_patient_name", r"(?im)^[ \t]*(?:patient(?:'s)?\s+name|patient|name|pt\s+name)[ \t]*:[ \t]*"
      r"(?P<n>[A-Z][\w'’-]+(?:[ \t]*,?[ \t]+[A-Z][\w'’.-]*){0,3})[ \t]*$", "PATIENT", 0.8, group="n",
      invalidate=lambda t, a, b: not_a_name_reply(t, a, b) or _turn_of_a_dialogue(t, a, b)),
    # "doctor: and your first name / patient: declan but nobody calls me that": the answer to a name question
    P("name_question_reply", r"(?im)\b(?:your|his|her|their|the[ \t]+(?:patient|baby|child)['’]?s)[ \t]+(?:full[ \t]+|first[ \t]+|"
      r"last[ \t]+|middle[ \t]+|sur|given[ \t]+|family[ \t]+)?name\b[^\n]{0,30}\n[ \t]*"
      r"(?:\[[^\]\n]{1,20}\][ \t]*:?|[A-Za-z]{1,12}(?:[ \t]+\d{1,2})?[ \t]*:)?[ \t]*"
      r"(?:(?:yes|yeah|its|it['’]s|my[ \t]+name['’]?s|my[ \t]+name[ \t]+is|i['’]?m|um+|uh+|oh|sure|ok|okay)[ \t,]+){0,3}"
      r"(?P<n>[A-Za-z][\w'’-]+(?:[ \t]+(?!(?:but|and|spelled|spelt|thats|that['’]s|its|it['’]s|yes|yeah|no|like)\b)"
      r"[A-Za-z][\w'’-]+){0,2})(?=[ \t]*(?:[.,;!?]|$)|[ \t]+(?:but|and|spelled|spelt|thats|that['’]s|like)\b)",
      "PATIENT", 0.75, group="n", invalidate=not_a_name_reply),
    # "Yes, ID ICP 20844517": letters and a long number after an ID label
    P("id_letters_number", r"\b(?:ID|Id|id)[ \t]*(?:#|no\.?|number)?[ \t]*[:#]?[ \t]*(?P<n>[A-Z]{2,4}[ -]?\d{5,12})\b",
      "IDNUM", 0.8, group="n"),
    # "DOB: 02.07.1949 (77 y)", "(84 yrs)": an age in brackets after a date of birth or a name
    P("age_paren_years", r"\((?P<a>\d{1,3})[ \t]*(?:y|yo|y/o|yrs?|years?(?:[ \t]+old)?)\)", "AGE", 0.85, group="a",
      validate=age_in_range),
    # "hunter bellamy 72m.", "pt okafor 45f,": age and sex glued after a lower-case name, closing the phrase
    P("age_sex_lower_end", r"(?<=\b[a-z]{2,}[ \t]+)(?P<a>\d{1,3})[mf](?=[.,;:!?)]|[ \t]*$)", "AGE", 0.7, group="a",
      validate=age_in_range, flags=regex.MULTILINE, invalidate=distance_not_age),
    # "yes fifty two", "[daughter] eighty five mama": a turn that confirms an age said or asked just before
    P("age_confirm_reply", rf"(?im)(?:\bold\b|\bage\b|\byou['’]?re\b|\byou[ \t]+are\b|\bborn\b|\bbirthday\b|\bturn(?:ed|ing|s)?\b|"
      rf"\bmakes[ \t]+(?:you|him|her)\b|\b(?:she|he)['’]?s\b|\b(?:she|he)[ \t]+is\b)[^\n]{{0,40}}\n[ \t]*"
      rf"(?:\[[^\]\n]{{1,20}}\][ \t]*:?|[A-Za-z]{{1,12}}(?:[ \t]+\d{{1,2}})?[ \t]*:)?[ \t]*"
      rf"(?:(?:yes|yeah|yep|yup|thats[ \t]+right|that['’]s[ \t]+right|correct|right|no)[ \t,]+)?"
      rf"(?P<a>{TENS_WORDS_RE}|\d{{2,3}}(?![\d.:/]))(?=[ \t]*(?:[.,!?]|$|\[|(?:and|mama|mum|mom|dad|now|yes|doctor|i[ \t]+think|"
      rf"in|next|this|last|or)\b))", "AGE", 0.75, group="a", validate=age_in_range,
      invalidate=lambda t, s, e: vital_sign_before(t, s, e) or _QUANTITY_BEFORE.search(t, max(0, s - 90), s) is not None
      or regex.match(r"(?i)[ \t]+and[ \t]+\w+[ \t]+(?:days?|weeks?|months?)\b", t[e:e + 24]) is not None),
    # "we came here in eighty one", "married in sixty four": a two-digit year said after a life event
    # "we came over in ninety eight"; "you were in vietnam in sixty eight": a two-digit year said after a life event
    # (a move, a wedding, service in a war) earlier in the clause
    P("date_event_in_short_year", rf"(?i)(?:\b(?:came|moved|arrived|emigrated|immigrated|married|retired|graduated|left|"
      rf"started|got[ \t]+married)(?:[ \t]+(?:here|over|back|out))?[ \t]+in[ \t]+|(?<=\b(?:vietnam|korea|iraq|afghanistan|"
      rf"the\s+gulf|falklands|army|navy|marines|air\s+force|served|enlisted|drafted|deployed|divorced|widowed|diagnosed)"
      rf"\b[^\n.?!]{{0,40}}?\bin[ \t]+))(?P<y>(?>{SHORT_SPELLED_YEAR}))"
      rf"(?![ \t]+(?:years?|months?|weeks?|days?|hours?|minutes?|percent|pounds|mg|kilos?|times|of|people|patients|"
      rf"miles|dollars|bucks|seconds)\b)", "DATE", 0.75, group="y"),
    # "3 Clifden Road, Oughterard, Co. Galway": the town before an Irish county
    P("town_before_county_ie", r"(?<![\w.])(?P<c>\p{Lu}\p{Ll}+(?:[ \t]\p{Lu}\p{Ll}+)?),[ \t]+(?=(?:Co\.?|County)[ \t]+\p{Lu})",
      "CITY", 0.75, group="c", invalidate=lambda t, s, e: t[s:e] in ("Hospital", "Clinic", "Road", "Street")),
    # "Co. Galway H91 X2P4": an Eircode after the county, no comma
    P("eircode_after_county", r"(?<=\b(?:Co\.?|County)[ \t]+\p{Lu}\p{Ll}+[ \t]+)(?P<z>(?:[AC-FHKNPRTV-Y]\d{2}|D6W)[ \t]"
      r"[0-9AC-FHKNPRTV-Y]{4})\b", "ZIP", 0.85, group="z"),
    # "acc. RAD/26/558014", "accession no S26-014487", "specimen 26-SP-00871": lab and imaging numbers
    P("accession", r"(?i)\b(?:acc(?:ession)?\.?|specimen|spec\.?|lab[ \t]+(?:no|#|number))[ \t]*(?:no\.?|#|number)?[ \t]*[:#.]?"
      r"[ \t]*(?P<n>(?=[\w/-]*\d)[A-Z0-9]{1,4}(?:[/-][A-Z0-9]{1,6}){1,3}|[A-Z]{1,4}\d{5,14})\b", "IDNUM", 0.85, group="n"),
    # "reg WR19 KXT", "plate 7ABC123": a vehicle registration after its label
    P("plate_reg", r"(?i)\b(?:reg(?:istration)?|rego|plate|licen[cs]e[ \t]+plate|number[ \t]+plate)[ \t]*(?:no\.?|#|number)?[ \t]*[:#.]?"
      r"[ \t]*(?P<n>(?-i:[A-Z]{2}\d{2}[ ]?[A-Z]{3}|[A-Z]{2,3}[ ]\d{2,3}[A-Z]{1,3}|(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{5,8}))\b", "VEHICLE", 0.85,
      group="n"),
    # "his car (LK09 XRT) will be sold": the current British format, near a vehicle word
    P("plate_uk_vehicle", r"(?<=\b(?i:car|cars|van|vehicle|motorbike|motorcycle|truck|lorry|taxi|cab|camper|caravan|"
      r"jeep|ute|suv|reg|registration|number\s+plate|corsa|fiesta|focus|astra|golf|polo|clio|micra|yaris|corolla|civic|"
      r"qashqai|juke|octavia|fabia|sandero|mondeo|insignia|zafira|transit|sprinter|berlingo)\b[^\n]{0,30}?)"
      r"(?P<n>\b[A-Z]{2}\d{2}[ ]?[A-Z]{3})\b", "VEHICLE", 0.85, group="n"),
    # "whos covering 5 north tonite", "went home from six east": a ward named by floor and wing
    P("ward_floor_wing", r"(?i)(?<=\b(?:on|to|from|covering|in|at|onto|off)[ \t]+)(?P<w>(?:\d{1,2}|one|two|three|four|five|six|"
      r"seven|eight|nine|ten|eleven|twelve)[ -](?:north|south|east|west|n|s|e|w)(?![\w-]))(?![ \t]+(?:of|side|wing\s+of|"
      r"street|st|road|rd|avenue|ave|lane|ln|drive|dr|boulevard|blvd|way|court|ct|place|pl|terrace|parkway|highway|"
      r"hwy|route|end|london|bromwich|village|hills?|park|orange|chester|palm|haven|point)\b)",
      "DEPARTMENT", 0.7, group="w", invalidate=lambda t, s, e: t[s:e].lower().endswith((" n", " s", " e", " w")) and
      not t[s:e].isupper()),
    # "hey dr k, mrs o in bay 3 asking for", "dr o is dr okoro": a person named by an initial after a title
    P("title_initial", r"(?i)\b(?:mrs|mr|ms|miss|dr|doctor)\.?[ \t]+(?P<n>(?-i:[b-hj-z]|[A-Z]))(?![\w'’.-])"
      r"(?=[ \t]+(?:in|is|was|says|said|asking|asked|wants|on|at|has|had|from|and|to|will|needs?|called|rang|who|"
      r"bay|bed|rm|room)\b|[ \t]*[,;?!:]|[ \t]*$)", "PATIENT", 0.7, group="n", flags=regex.MULTILINE),
    # "pt jd mrn 4471920": a patient's initials before a record number, a date of birth or an age
    P("pt_initials", r"(?i)\b(?:pt|patient)[ \t]+(?P<n>(?-i:[a-z]{2,3}|[A-Z]{2,3}|[a-z]\.[a-z]\.(?:[a-z]\.)?|"
      r"[A-Z]\.[A-Z]\.(?:[A-Z]\.)?))(?=[ \t,]+(?:mrn|dob|d\.o\.b|\d{1,3}[ \t]?(?:yo|y/o|[mf])\b))", "PATIENT", 0.75, group="n",
      invalidate=lambda t, s, e: t[s:e].lower() in ("is", "was", "has", "had", "for", "and", "the", "age", "dob", "mrn",
                                                      "who", "not", "now", "has", "was", "hx", "c/o")),
    # "HUSBAND ART (ARTHUR) AT BEDSIDE", "ASKS THAT SON DOUGLAS BE CALLED": a relation word, then a listed first name
    # that is also a word, then what follows a name (a verb of the note, a place word, a bracket, punctuation)
    P("relative_word_name", r"(?i)\b(?:(?:son|daughter|brother|sister|mother|father)[ \t-]in[ \t-]law|husband|wife|son|daughter|"
      r"dtr|sister|brother|mother|father|niece|nephew|grandson|"
      r"granddaughter|fiance|fiancee|partner|friend|neighbor|neighbour|sis|bro|mom|mum|dad)[ \t]+(?P<n>\p{L}{3,})(?=[ \t]*(?:[,.;:(]|$)|"
      r"[ \t]+(?:at|is|was|be|called|calls|visited|visiting|here|in|and|updated|aware|states|stated|present|arrived|left|"
      r"phoned|notified|requests|requested|asked|asks|wants|brought|took|spoke|spent|has|had|will|would|to|from|who|"
      r"lives|said|says|agrees|agreed|feels|came|comes|works|worked|working|drives|driving|drove|flying|flew|stays|"
      r"staying|living|being|coming|going|getting|calling|helping)\b)", "RELATIVE", 0.6, group="n", flags=regex.MULTILINE,
      validate=_relative_word_name),
    # a month or modal that is a first name, after a relation word, before what only follows a name: "SON WILL IN,
    # ASKING FOR...", "daughter june called", "wife may visited" (not "son will be here", "wife may call")
    P("relative_modal_name", r"(?i)\b(?:husband|wife|son|daughter|dtr|sister|brother|mother|father|niece|nephew|grandson|"
      r"granddaughter|fiance|fiancee|partner|friend|neighbor|neighbour|sis|bro)[ \t]+(?P<n>will|may|june|april|august)"
      r"(?=[ \t]*(?:[,;:(]|$)|[ \t]+(?:at|is|was|in|here|called|calls|visited|visiting|aware|updated|states|stated|present|"
      r"arrived|left|phoned|notified|requests|requested|asked|asks|has|had|said|says|agrees|agreed|came|and|she|he|"
      r"(?!(?:be|being|bring)\b)\p{L}+ing)\b)",
      "RELATIVE", 0.55, group="n", flags=regex.MULTILINE),
    # a staff role abbreviation and a name no dictionary holds, in capitals: "RT GUNNAR AT BS @ 0342", "SLP IMOGEN TO
    # EVAL IN AM", "PER RT OKAFOR." (mixed case is the lexicon's: "RT Jones")
    P("role_caps_name", r"(?<![\p{L}\p{N}/])(?:RT|RRT|SLP|OT|SW|CM|RD|NP|PA|CNA|LPN|HO|RN|SN|PCA|MD)[ \t]+(?P<n>\p{Lu}{3,})"
      r"(?=[ \t]*(?:[,.;:)@&]|$)|[ \t]+(?:AT|TO|AWARE|IN|HERE|PRESENT|NOTIFIED|CALLED|PAGED|AND|WILL|STATES|STATED|"
      r"REPORTS|UPDATED|INFORMED|SUCTIONED|PLACED|CHANGED|DREW|SAW|EVALUATED|FOLLOWING|FOLLOWS|SEES|SAYS|RN|BY|FOR)\b)",
      "DOCTOR", 0.55, group="n", flags=regex.MULTILINE, validate=_role_caps_name),
    # a nurse's sign-off with initials at the end of a note or line: "pill box. lw rn", "...0176.-dl rn"
    P("signoff_initials", r"(?:^-{0,2}[ \t]?|(?<=[.!?;][ \t]{0,2}-{0,2}[ \t]{0,2}))(?P<n>[A-Za-z]{2,3})[ \t]*[,/]?[ \t]*(?:rn|RN|Rn|lpn|LPN|"
      r"rrt|RRT)\.?[ \t]*$", "DOCTOR", 0.6, group="n", flags=regex.MULTILINE,
      validate=lambda w: w.casefold() not in _NOT_SIGNOFF),
    # "...in am.--amy d rn": a listed first name and an initial signing off; "...for pitocin. rn d.s.", "RN J.M.":
    # dotted initials after the credential; "...brought in 11-13. --mt": dash-signed initials closing a line
    P("signoff_name_initial", r"(?:^|(?<=[.!?;][ \t]{0,2}-{0,2}[ \t]{0,2}))(?P<n>[A-Za-z]{3,10}[ \t]+[A-Za-z]\.?)[ \t]*,?[ \t]*"
      r"(?:rn|RN|Rn|lpn|LPN|rrt|RRT)\.?[ \t]*$", "DOCTOR", 0.6, group="n", flags=regex.MULTILINE,
      validate=lambda w: _signoff_first_name(w)),
    P("signoff_credential_initials", r"(?:^|(?<=[.!?;][ \t]{0,2}-{0,2}[ \t]{0,2}))(?:rn|RN|Rn|lpn|LPN)[ \t]+"
      r"(?P<n>[A-Za-z]\.[ \t]?[A-Za-z]\.(?:[ \t]?[A-Za-z]\.)?)[ \t]*$", "DOCTOR", 0.6, group="n", flags=regex.MULTILINE),
    P("signoff_dash_initials", r"(?:(?<=[.!?;][ \t]{0,2})|^)-{1,2}[ \t]?(?P<n>[A-Za-z]{2,3})[ \t]*$", "DOCTOR", 0.55, group="n",
      flags=regex.MULTILINE, validate=_dash_initials),
    # "picking up sister (9) from school", "son Eli (4 yo)": one relative's age in brackets
    # (session 17, tune57) also a parent or a grandparent, "Family: mother (68) has recurrent depression", and a
    # spouse with a bare number ("wife (71)"; "partner (3 yrs)" is how long they have been together)
    P("age_relative_paren", r"(?i)\b(?:(?:sister|brother|son|daughter|niece|nephew|grandson|granddaughter|cousin|"
      r"stepson|stepdaughter|kid|child|baby|twin|mother|father|mum|mom|dad|aunt|uncle|grandmother|grandfather|grandma|"
      r"grandpa|stepmother|stepfather)(?:[ \t]+(?-i:\p{Lu}\p{Ll}+)){0,2}[ \t]*\([ \t]*(?P<a>\d{1,2})[ \t]*"
      r"(?:y|yo|y/o|yrs?|years?(?:[ \t]+old)?)?|(?:wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?)"
      r"(?:[ \t]+(?-i:\p{Lu}\p{Ll}+)){0,2}[ \t]*\([ \t]*(?P<a>\d{1,2}))[ \t]*\)", "AGE", 0.75, group="a",
      validate=age_in_range),
    # hospitals by their nickname after a place preposition (session 16, tune53): "works at the mayo", "i went to
    # county", "a stent at the mercy in cork", "at memorial", "in the allen before" (not "at the mercy of", "in general",
    # "in the county")
    P("hospital_nickname", r"(?i)\b(?:at|to|in|into|from|up[ \t]+to|over[ \t]+at)[ \t]+(?:(?P<the>the)[ \t]+)?(?P<n>mayo|mercy|"
      r"memorial|presbyterian|methodist|brigham|mass[ \t]+general|st\.?[ \t]+joe'?s|saint[ \t]+joe'?s|"
      r"(?(the)(?:royal|allen|general|mission)|(?<=\b(?:to|at)[ \t]+)county(?=[ \t]+(?:er|emergency|uh|and|last|"
      r"yesterday|for|with|because|cause|they)\b|[ \t]*[.,]|[ \t]*$)))\b(?![ \t]+(?:of|jail|fair|court|road|rd|street|st|ave|"
      r"avenue|clerk|line|park|college|school|high|church|service|services|surgery|medicine|anesthesia|practice|ward|"
      r"wards|floor|unit|units|icu|ed|er|paediatrics|pediatrics|practitioner|practitioners|anaesthetic|anesthetic|"
      r"health|debility|condition|appearance|malaise|weakness|"
      r"population|public|fund|trail|drive|day|weekend|sauce|sandwich|family|commission|office|building|library|"
      r"cemetery|chapel|stadium|parkway|highway|hwy|bridge|lake|beach|river|assembly|election|board|jail)\b)",
      "HOSPITAL", 0.65, group="n", flags=regex.MULTILINE),
    # "riverbend snf 555-0176 attn deb re pt", "Attn: Marisol (billing)": the person a message is for (staff)
    P("attention_name", r"(?i)\battn\.?[ \t]*:?[ \t]+(?:(?:dr|mr|mrs|ms|miss)\.?[ \t]+)?(?P<n>(?!(?:the|a|an|all|billing|"
      r"records|medical|nursing|pharmacy|admissions|clinic|office|department|dept|front|desk|team|staff|charge|"
      r"manager|director|nurse|doctor|provider|physician|social|case|unit|ward|re|to|for|please|pls)\b)\p{L}[\p{L}'’-]{1,20})",
      "DOCTOR", 0.7, group="n"),
    # speech without the verb (Caribbean, AAVE): "miss feldstein she ninety four and sharp", "granny she a hundred and
    # two doctor", "he sixty now" (tens and hundreds only: "he forty minutes late" has no cue word after it)
    P("age_zero_copula", r"(?i)\b(?:she|he|mi)[ \t]+(?:a[ \t]+(?=hundred))?(?P<a>(?:twenty|thirty|forty|fifty|sixty|seventy|"
      r"eighty|ninety)(?:[ \t-]+(?:one|two|three|four|five|six|seven|eight|nine))?|(?:one[ \t]+)?hundred(?:[ \t]+and)?"
      r"(?:[ \t]+(?:one|two|three|four|five|six|seven|eight|nine|ten))?)(?=[ \t]+(?:and|now|years?|this|next|last|"
      r"doctor|doc|nurse|miss|mister|sir|maam|ma'am|yeah|uh|um)\b|[ \t]*[.,!?]|[ \t]*$)", "AGE", 0.7, group="a",
      flags=regex.MULTILINE),
    # informal work talk (session 16, tune53): "i do drywall", "she does nails at lucky nails", "i cut hair",
    # "she cleans houses", "i drive for amazon"
    P("trade_do", r"(?i)\b(?:i|he|she|they|we|mi|me)[ \t]+(?:still[ \t]+|mostly[ \t]+|just[ \t]+|also[ \t]+)?"
      r"(?:do|does|did|done)[ \t]+(?P<n>" + _TRADE_NOUNS + r")\b(?![ \t]+(?:on|for|to|with)[ \t]+(?:my|his|her|your|me|him|them)\b)",
      "PROFESSION", 0.7, group="n"),
    P("trade_verb", r"(?i)\b(?:i|he|she|they|we|mi|me)[ \t]+(?:still[ \t]+|also[ \t]+|used[ \t]+to[ \t]+)?"
      r"(?P<n>(?:cut|cuts)[ \t]+hair|(?:clean|cleans)[ \t]+(?:houses|homes))\b", "PROFESSION", 0.7,
      group="n"),
    P("drive_for_company", r"(?i)\b(?:i|he|she|they|we|mi|me)[ \t]+(?:still[ \t]+|also[ \t]+)?(?:drive|drives|drove|"
      r"deliver|delivers|delivered)[ \t]+for[ \t]+(?P<n>" + _GIG_COMPANIES + r")\b", "ORGANIZATION", 0.7, group="n"),
    # "Dictated PN / typed JH 04/11/2026", "Transcribed by: KL", "Ref: JH/kl": the initials of the author and typist
    # of a letter (staff)
    P("dictation_initials", r"(?i:\b(?:dictated|typed|transcribed|dict)\.?(?:[ \t]+by)?[ \t]*:?[ \t]*)"
      r"(?P<n>[A-Z]{2,3})(?![\p{L}\p{N}])(?=[ \t]*(?:$|[,;./]|\d|[ \t]+(?i:on|at|and)\b))", "DOCTOR", 0.7, group="n",
      flags=regex.MULTILINE),
    P("reference_initials", r"(?m)^[ \t]*(?i:(?:our[ \t]+)?ref(?:erence)?\.?[ \t]*:?[ \t]*)(?P<n>[A-Z]{2,3}[ \t]*/[ \t]*[A-Za-z]{2,3})"
      r"[ \t]*$", "DOCTOR", 0.7, group="n"),
    # "D: 11/26/2026  Job 884120 / mkt": the typist's initials after a dictation job number
    P("job_number_initials", r"(?im)\bjob(?:[ \t]*(?:no\.?|number|#))?[ \t:#]*[A-Z]{0,3}\d{3,}[ \t]*/[ \t]*(?P<n>[A-Za-z]{2,3})[ \t]*$",
      "DOCTOR", 0.7, group="n", validate=lambda w: w.casefold() not in _NOT_SIGNOFF),
    # "Review 2/52 or sooner AD / for Prof Ó Murchú": the initials of the one who signs for a consultant
    P("initials_signing_for", r"(?<![\p{L}\p{N}])(?P<n>[A-Z]{2,3})[ \t]*/[ \t]*(?i:for|pp|p\.p\.)[ \t]+(?:Prof|Dr|Mr|Mrs|Ms|Miss)\b",
      "DOCTOR", 0.6, group="n", validate=lambda w: w.casefold() not in _NOT_SIGNOFF),
    # "...CONSENT SIGNED 8/1. --R.S. RNC": dotted initials before the credential closing a line
    P("signoff_dotted_initials", r"(?:^|(?<=[.!?;][ \t]{0,2}))-{0,2}[ \t]?(?P<n>[A-Za-z]\.[ \t]?[A-Za-z]\.(?:[ \t]?[A-Za-z]\.)?)"
      r"[ \t]*,?[ \t]*(?:rnc|RNC|rn|RN|Rn|lpn|LPN|rrt|RRT|cnm|CNM)\.?[ \t]*$", "DOCTOR", 0.6, group="n", flags=regex.MULTILINE),
    # a town's fire or police department: "RETIRED FIREFIGHTER (FRAMINGHAM FD, 1952-1984)", "Lowell Police Dept"
    P("public_service_named", r"(?<![\p{L}'’-])(?P<n>(?:\p{Lu}[\p{L}'’-]+[ \t]+){1,2}(?:FD|PD|DPW|(?i:fire|police)[ \t]+"
      r"(?i:department|dept\.?)))(?![\p{L}])", "ORGANIZATION", 0.65, group="n",
      validate=lambda w: not any(x.casefold() in _name_vocabulary()[0] or x.casefold() in _NOT_SIGNOFF
                                 for x in w.split()[:-2 if w.split()[-1].casefold().startswith("dep") else -1])),
    # home-care agencies and transport companies after "via" / "by" / "with": "TRANSPORT VIA LIFELINE AMBULANCE",
    # "w/ hometown home health", "HOME W/ MINUTEMAN HOME CARE", "transport by coastal chair car"
    P("agency_named", r"(?i)\b(?:via|by|w/|with|through|thru|from)[ \t]+(?P<n>(?:(?!(?:the|a|an|his|her|their|our|its|"
      r"private|local|outside|als|bls|ems|basic|advanced|same|new|county|city|state|hospital|hosp|home|visiting|"
      r"skilled|any|no|and|or)\b)[A-Za-z][A-Za-z'’&-]+[ \t]+){1,3}(?:ambulance|home[ \t]+health(?:[ \t]+care)?|"
      r"home[ \t]+care|homecare|chair[ \t]+car|medical[ \t]+transport(?:ation)?|medi-?van|hospice|home[ \t]+infusion))\b",
      "ORGANIZATION", 0.65, group="n"),
    # "MARK'S CELL 603-555-0140", "call Rose's mobile": a listed first name owning a contact number is a person
    P("name_owns_phone", r"(?<![\p{L}\p{N}'’])(?P<n>\p{Lu}\p{Ll}+|\p{Lu}{2,}|\p{Ll}{3,})['’][sS][ \t]+(?i:cell|mobile|home|work|"
      r"phone|pager|beeper|landline)(?:[ \t]+(?i:phone|ph|number|no\.?|#))?[ \t]*[:#]?[ \t]*(?:is[ \t]+)?\(?\d{3}",
      "RELATIVE", 0.7, group="n", validate=lambda w: w.casefold() in _name_vocabulary()[2]
      and w.casefold() not in _NOT_NICKNAME and w.casefold() not in _KIN_WORDS),
    # "RN Progress Note 7a-7p T.R. - 19 yo M": dotted initials right before the age of a note's header
    P("initials_before_age", r"(?<![\p{L}\p{N}.])(?P<n>[A-Z]\.[A-Z]\.(?:[A-Z]\.)?)(?=[ \t]*[-–,:][ \t]*\d{1,3}[ \t]?"
      r"(?:yo|y/o|y\.o\.|yr|-year|[ \t]years?[ \t-]old)\b)", "PATIENT", 0.7, group="n",
      invalidate=lambda t, s, e: t[s:e].upper() in _NOT_INITIALS),
    # "Community Health Centre, Toronto, ON" at the end of a line: a Canadian province after the town
    P("province_ca_line_end", r"(?<=\p{Lu}\p{Ll}+,[ \t]{1,2})(?P<s>AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)(?=[ \t]*$)",
      "STATE", 0.8, group="s", flags=regex.MULTILINE),
    # "ins is aetna member id ...", "insurance: bluecross": an insurer named after its label (not a public programme)
    P("insurer_named", r"(?i)\b(?:ins|insurance|insurer|ins\.|medical[ \t]+aid|medical[ \t]+scheme)(?![\p{L}])"
      r"(?:[ \t]+(?:is\b|co\b\.?|company\b|carrier\b))?[ \t]*[:=]?[ \t]*(?:(?:from|by)[ \t]+)?"
      r"(?P<o>(?!(?:is|was|are|still|now|from|by|medicare|medicaid|medi-cal|tricare|nhs|none|n/a|self|uninsured|pending|private|same|through|with|"
      r"via|expired|active|the)\b)[a-z][a-z&'’-]+(?:[ \t]+(?!(?:member|id|policy|plan|group|and|but|or|is|was|number|no)\b)"
      r"[a-z][a-z&'’-]+){0,2})(?=[ \t]*(?:[,.;)]|$|member\b|id\b|policy\b|plan\b|group\b|and\b|but\b|number\b))",
      "ORGANIZATION", 0.7, group="o", flags=regex.MULTILINE,
      invalidate=lambda t, s, e: _all_common_words(t[s:e]) and not (t[s:s + 1].isupper() and t[s:e].istitle())),
    # "children aged 12 and 15", "ages 4, 7 and 9": the later ages of a list
    P("age_list_more", r"(?i)(?<=\bage[ds]?[ \t]+\d{1,3}(?:[ \t]*,[ \t]*\d{1,3})*[ \t]*(?:,|and|&)[ \t]*)(?P<a>\d{1,3})\b"
      r"(?![ \t]*(?:%|mg|kg|cm|years?[ \t]+ago))", "AGE", 0.8, group="a", validate=age_in_range),
    # "i am thirty six years", "she is eight years her school": an age with "years" but no "old"
    P("age_copula_years", rf"(?i)\b(?:i['’]?m|i[ \t]+am|am|she['’]?s|he['’]?s|she[ \t]+is|he[ \t]+is|you['’]?re|you[ \t]+are)"
      rf"[ \t]+(?P<a>{AGE_NUM})[ \t]+(?:years?|yrs?)\b(?![ \t]+(?:ago|later|before|after|since|of|in|with|post|out|sober|"
      rf"clean|smoke|free|married|divorced|widowed|now\s+since|older|younger|into|on|off|from|a\b|an\b))", "AGE", 0.75,
      group="a", validate=age_in_range, invalidate=vital_sign_before),
    # session 17 (tune56, tune57) ---------------------------------------------------------------
    # "they call her lupita is fifteen she goes to", "the oldest jesus is thirty he is a mechanic": a named
    # person's age in words, then a new clause with he/she (the word before "is" must look like a first name)
    P("age_name_is_pronoun", rf"(?i)(?<=\b[a-z][a-z'’-]{{2,}}[ \t]+)\bis[ \t]+(?:(?:only|just|now)[ \t]+)?"
      rf"(?P<a>(?!(?:one|a)\b){NUMBER_WORDS_RE})(?=[ \t]+(?:she|he)\b(?![ \t]+(?:said|says|told|asked|thinks|thought|meant|means)\b))", "AGE", 0.7, group="a",
      validate=age_in_range, invalidate=subject_no_name),
    # "for her mother's ninetieth", "for christmas for my mothers eightieth", "his 80th in june": a relative's
    # (or his / her / my) Nth birthday said without "birthday": the ordinal is the age; a noun after it is no age
    # ("her mother's second husband", "his 10th cycle")
    P("age_relative_ordinal", rf"(?i)(?<=[sry][ \t]{{1,3}})(?=(?:{ORDINAL_AGE})(?![\w-]))(?<={_ORD_AGE_OWNER})"
      rf"(?P<a>{ORDINAL_AGE})(?![\w-]){_ORD_AGE_FOLLOW}", "AGE", 0.7, group="a", flags=regex.MULTILINE),
    P("age_relative_ordinal_num", rf"(?i)(?<![\d.])(?=\d{{2,3}}(?:st|nd|rd|th)\b)(?<={_ORD_AGE_OWNER})"
      rf"(?P<a>\d{{2,3}})(?:st|nd|rd|th){_ORD_AGE_FOLLOW}", "AGE", 0.7, group="a", flags=regex.MULTILINE,
      validate=age_in_range),
    # a query that opens with age and sex run together: "67m chf ef 25%, ...", "7m kawasaki sx day 6" (not a
    # distance, a time or a span of months: "6m walk", "5m later", "3m f/u")
    P("age_sex_line_start_word", r"(?m)^[ \t]*(?P<a>\d{1,3})[mf](?=[ \t]+(?!(?:of|to|at|in|on|and|or|the|a|an|per|by|for|into|"
      r"up|down|away|later|ago|before|after|prior|post|since|long|tall|high|deep|wide|walk\w*|ambul\w*|run\w*|swim\w*|"
      r"jog\w*|min|mins|minutes?|hrs?|hours?|course|supply|trial|follow\w*|fu|f|hx|history|old|radius|distance|dollars|"
      r"pounds|x|q\w{0,3})\b)[a-z]{2,}\b)", "AGE", 0.7, group="a", validate=age_in_range, invalidate=distance_not_age),
    # "pt muhammad hafiz bin rosli 58/m bed 12.": lower-case age slash sex after a name (not "rr 22/m": a rate)
    P("age_slash_sex_lower", r"(?<=\b\p{L}{2,}[ \t]+)(?P<a>\d{1,3})[ \t]*/[ \t]*[mf]\b(?![\d/.]\d)"
      r"(?=[ \t]*(?:[,;)]|\.(?!\d)|$)|[ \t]+(?:w/|s/p|h/o|c/o|(?:bed|rm|room|bay|with|pmh|hx|admitted|adm|from|presents|"
      r"presenting|presented|pt|known|here|transferred|xfer|dx|who|was|is)\b))", "AGE", 0.75, group="a",
      validate=age_in_range, invalidate=rate_before_slash, flags=regex.MULTILINE),
    # "Social: Mum 24, barista at ...", "lives with husband 71; daughter 45 nearby": a listed relative and a bare age
    # (the cheap checks first: a letter and a space before the number, a list break after it)
    P("age_relation_bare", r"(?i)(?<![\d.])(?<=\p{L}[ \t]{1,3})(?=\d{1,3}[ \t]*(?:[,;]|\.(?!\d)|$))"
      r"(?<=(?:^|[:;,.(/&])[ \t]*" + _BARE_RELATIONS + r"[ \t]+|\b(?:and|with|w/)[ \t]*"
      + _BARE_RELATIONS + r"[ \t]+)(?P<a>\d{1,3})", "AGE", 0.7, group="a",
      validate=age_in_range, flags=regex.MULTILINE),
    # Irish PPS numbers: "PPSN: 7734219KA"
    P("ppsn", r"(?i)\bpps(?:n|[ \t]+(?:no\.?|number))?[ \t]*[:#.]?[ \t]*(?P<n>\d{7}[A-W][A-IW]?)\b", "SSN", 0.9, group="n"),
    # "interpreter Rosa Ibarra, ID INT-3307": a short code with letters after an ID label
    P("id_code_short", r"\b(?:ID|Id)[ \t]*[:#]?[ \t]*(?P<n>[A-Z]{2,5}-\d{3,8})\b", "IDNUM", 0.8, group="n"),
    # "Hospital No: SMC/2026/04417": a record number with slashes
    P("mrn_slashed", r"(?i)\b(?:hospital|hosp\.?|unit|record|mrn|chart|file|case|opd|ipd?|uhid)[ \t]*(?:no\.?|number|#)?[ \t]*[:#.]?[ \t]*"
      r"(?P<n>[A-Z]{2,5}/\d{2,4}/\d{3,8})\b", "MEDICALRECORD", 0.9, group="n"),
    # "received from University of Maryland Hospital", "PRESENTED TO U OF MD MED CENTER": a university hospital
    P("university_hospital", r"(?i)\b(?P<h>(?:university|univ\.?)[ \t]+of[ \t]+(?:(?-i:[A-Z][A-Za-z]+)|{STATE_NAMES})"
      r"(?:[ \t]+(?:hospital|medical[ \t]+(?:center|centre|system)|med[ \t]+(?:center|ctr)|mc|health[ \t]+system|"
      r"shock[ \t]+trauma(?:[ \t]+center)?|cancer[ \t]+center))?|u[ \t]+of[ \t]+[a-z]{2,12}[ \t]+(?:hospital|medical[ \t]+"
      r"(?:center|centre)|med[ \t]+(?:center|ctr)|mc|shock[ \t]+trauma))\b", "HOSPITAL", 0.8, group="h",
      invalidate=lambda t, s, e: regex.match(r"(?i)university[ \t]+of[ \t]+(?:the|life|hard|a)\b", t[s:e]) is not None),
    # "Nephew, Neil Meitz of Towson visited", "daughter Grace of Reisterstown": the town a named relative lives in
    P("town_of_relative", r"(?<=\b(?i:son|daughter|wife|husband|brother|sister|nephew|niece|cousin|mother|father|"
      r"aunt|uncle|friend|grandson|granddaughter),?[ \t]+\p{Lu}\p{Ll}+(?:[ \t]+\p{Lu}[\p{L}'’-]+)?[ \t]+of[ \t]+)"
      r"(?P<c>\p{Lu}\p{Ll}{2,}(?:[ \t]\p{Lu}\p{Ll}+)?)(?=[ \t]*(?:[,.;]|visited|called|came|is|was|phoned|here|and)\b|[ \t]*[,.;])",
      "CITY", 0.75, group="c"),
    # "CVA in 94 and 00": the second year of a pair after "in"
    P("year_pair_second", r"(?<=\bin[ \t]+(?:19|20)?\d{2}[ \t]+(?:and|&|,)[ \t]+)(?P<y>(?:19|20)?\d{2})\b(?![ \t]*(?:%|mg|kg|y|yo|years?))",
      "DATE", 0.7, group="y"),
    # "Lives alone at Flat 2, Beech Court", "yes apartment 4c at kosciuszko tower": a flat number is part of the address
    P("flat_number", r"(?i)\b(?P<s>(?:flat|apartment|apt\.?)[ \t]+(?:no\.?[ \t]*)?(?:\d{1,4}[a-z]?\b|"
      r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty|forty|fifty)"
      r"(?:[ \t]+(?:one|two|three|four|five|six|seven|eight|nine))?(?:[ \t]+[a-h](?![\w'’]))?\b)"
      r"(?:,?[ \t]+(?-i:[A-Z][a-z]+)[ \t]+(?:Court|House|Tower|Towers|Mansions|Buildings|Lodge|Heights|Apartments|Gardens|"
      r"Close|Place|Manor|Hall|Villas))?)(?![ \t]*(?:mg|ml|days?|weeks?|hours?|minutes?|%))", "STREET", 0.7, group="s"),
    P("field_dob", rf"(?i)\b(?:dob|d\.o\.b\.|date\s+of\s+birth|birth\s*date|born(?:\s+on)?)\s*[:#]?\s*"
      rf"(?P<d>\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}|{MONTHS_EN}\s+\d{{1,2}},?\s+\d{{4}}|\d{{1,2}}\s+{MONTHS_EN}\s+\d{{4}})",
      "DATE", 0.99, group="d"),
)


# --- session 18 (tune58) --------------------------------------------------------------------------
_S18B_STATE_CODES = "|".join(sorted(_US_STATE_CODES - {"MD", "PA", "DO"}))
_S18B_PROVINCES = r"(?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)"
_S18B_STREET_WORDS = (r"(?:Street|St|Avenue|Ave|Road|Rd|Drive|Dr|Boulevard|Blvd|Lane|Ln|Way|Crescent|Cres|Court|Ct|"
                      r"Place|Pl|Parkway|Suite|Ste|Unit|Apt|Floor|Box|Terrace|Square|Highway|Hwy)")
_S18B_ES_DAYS = (r"(?:primero|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|trece|catorce|quince|"
                 r"diec[ií]s[eé]is|diecisiete|dieciocho|diecinueve|veinte|veinti(?:uno|d[oó]s|tr[eé]s|cuatro|cinco|"
                 r"s[eé]is|siete|ocho|nueve)|treinta(?:[ \t]+y[ \t]+uno)?|\d{1,2})")
_S18B_ES_MONTHS = (r"(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|"
                   r"diciembre)")


def _s18b_town_doubt(text: str, start: int, end: int) -> bool:
    """For ``in Normal, IL``: the town is a person's name or an everyday phrase (``in Summary, ...``)."""
    words = regex.findall(r"[\p{L}'’]+", text[start:end])
    return not words or words[0].casefold() in _NOT_TOWN_AFTER_IN or _person_name(words)


_S18B_PATTERNS: tuple[Pattern, ...] = (
    # "778 Bank Street, Ottawa, ON K1S 3V8", "Suite 402 Ottawa, ON K1Y 4E9": the town before a province and a
    # Canadian postcode (a street word is no town: "Carling Avenue, ON ...")
    P("city_before_province_ca", r"(?<![\p{L}'’-])(?P<c>(?!" + _S18B_STREET_WORDS + r"\b)\p{Lu}\p{Ll}+(?:[ -](?!"
      + _S18B_STREET_WORDS + r"\b)\p{Lu}\p{Ll}+){0,2}),?[ \t]{1,2}" + _S18B_PROVINCES
      + r"[ \t]+[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ \t]?\d[ABCEGHJ-NPRSTV-Z]\d\b", "CITY", 0.8, group="c"),
    # "d/c to Brookhaven Rehab in Normal, IL on 1/6": a town after a place preposition, then a state code and
    # more of the sentence (the state rules want a ZIP, punctuation or the line end; MD/PA/DO are credentials)
    P("city_in_before_state", r"(?<=\b(?:in|from|to|near|outside)[ \t]+)(?P<c>[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2}),"
      r"[ \t]{1,2}(?:" + _S18B_STATE_CODES + r")(?=[ \t]*[.,;:)]|[ \t]*$|[ \t]+[a-z])", "CITY", 0.75, group="c",
      flags=regex.MULTILINE, invalidate=_s18b_town_doubt),
    # '("Billie"), 41 F': age and sex after a quoted nickname in brackets and a comma
    P("age_sex_after_nickname", r"(?<=\p{L}[\"”’']\)[ \t]*[,;][ \t]{0,3})(?P<a>\d{1,3})[ \t]?(?:[MF]\b|y(?:rs?)?\b"
      r"(?=[ \t,;/]*(?:[MFmf]|male|female|man|woman|boy|girl)\b))", "AGE", 0.8, group="a", validate=age_ok),
    # "this is jaden him is seven now", "when him was two": an object pronoun as the subject (dialect speech)
    P("age_him_is", rf"(?i)\b(?:(?:him|her)[ \t]+(?:is|was|be|turned|turn)|when[ \t]+(?:him|her|me)[ \t]+(?:was|were|"
      rf"did[ \t]+be))[ \t]+(?:only[ \t]+|just[ \t]+|about[ \t]+)?(?P<a>{AGE_NUM})(?![\w-]){_NOT_AGE_AFTER}"
      rf"(?!\s+(?:weeks?|days?|floors?|stone|minutes?|inches|o['’]?clock|times|percent|pounds|of|kilos?)\b)",
      "AGE", 0.75, group="a", validate=age_in_range, invalidate=vital_sign_before),
    # "bed space 22", "bedspace 4": the number of a neonatal or ICU bed space
    P("bed_space_number", r"(?i)(?<![\w-])bed[ \t]*space[ \t]*(?:#|no\.?)?[ \t]*(?P<n>\d{1,3}[A-Za-z]?)\b(?![-/.:]\d)",
      "LOCATION_OTHER", 0.7, group="n"),
    # more festivals: "for Obon in August", "after tet because we go" (not a tetanus shot)
    P("date_holiday_s18", r"(?i)\b(?:o-?bon|bon[ \t]+festival|chuseok|songkran|seollal|losar|purim|sukkot|shavuot|"
      r"lohri|ugadi|gudi[ \t]+padwa|thaipusam|deepavali|hari[ \t]+raya(?:[ \t]+(?:puasa|haji))?|t[eế]t(?=[ \t]+"
      r"(?:holiday|festival|celebration|new[ \t]+year))|(?<=\b(?:after|before|for|during|over|at|until|till|since|"
      r"around|near|by)[ \t]+(?:the[ \t]+)?)t[eế]t(?![ \t]*(?:shot|booster|tox|toxoid|vaccine|vaccination|jab|"
      r"injection|immuni[sz]ation|spell|ig\b|status|up)))\b", "DATE", 0.6),
    # a date said in Spanish inside English speech: "el doce de diciembre", "el 5 de mayo de 1970"
    P("date_spanish_words", rf"(?i)\b(?P<d>(?:el[ \t]+)?{_S18B_ES_DAYS}[ \t]+de[ \t]+{_S18B_ES_MONTHS}"
      rf"(?:[ \t]+(?:de|del)[ \t]+(?:19|20)\d\d)?)\b", "DATE", 0.75, group="d"),
    # "Rich - INR 4.2 today for Mr Cash": a first name greeting the reader at the very start of a message
    # "INTERPRETER ARACELI #4471 USED", "interpreter Ana (#20931)": the interpreter's number after the name
    P("interpreter_number", r"(?i)\binterp(?:reter)?[ \t]+(?:\p{L}[\p{L}'’-]*[ \t]+){0,2}\(?[ \t]*(?:#|no\.?|id)[ \t]*"
      r"(?P<n>\d{3,8})\b(?![ \t]*(?:mg|ml|min|mins|minutes)\b)", "IDNUM", 0.8, group="n"),
    # "LVAD EVAL W/ CHRISTIAN (VAD COORD) TODAY", "per Marisol (wound RN)": a staff name before its role in brackets
    P("staff_name_role_paren", r"(?<=\b(?i:w/|with|per|by|from|d/w|called|paged)[ \t]+)(?P<n>\p{Lu}{3,}|\p{Lu}\p{Ll}{2,})"
      r"(?=[ \t]*\([ \t]*(?:(?i:vad|lvad|transplant|wound|ostomy|diabetes|hf|heart[ \t]+failure|stroke|trauma|case|"
      r"charge|nurse|palliative|pain|ecmo|picc|iv|lactation|renal|dialysis|cardiac|rehab|social)[ \t/]*){0,2}"
      r"(?i:coord|coordinator|rn|np|pa|sw|rt|rd|nurse|chaplain|pharmd|educator|specialist|mgr|manager|"
      r"navigator)\.?[ \t]*\))", "DOCTOR", 0.65, group="n",
      validate=lambda w: w.casefold() in _name_vocabulary()[1] and w.casefold() not in _NOT_SIGNOFF
      and w.casefold() not in _NOT_NICKNAME),
    # "miss brown the teacher", "mrs okoro the neighbour": a lower-case title, a name, then who the person is
    P("title_name_the_role", r"(?<=\b(?:miss|mrs|mr|ms|mister)[ \t]+)(?P<n>[a-z][a-z'’-]{2,})(?=[ \t]+the[ \t]+(?:teacher|"
      r"principal|coach|neighbou?r|pastor|priest|landlord|landlady|babysitter|nanny|counsel+or|social[ \t]+worker|"
      r"lady|man|woman)\b)", "RELATIVE", 0.65, group="n",
      validate=lambda w: w not in _NOT_NICKNAME and w not in _NOT_SIGNOFF),
    # "send the form to ps 189", "he goes to p.s. 41": a numbered public school (not pressure support, PS 5-30)
    P("school_numbered", r"(?i)(?<=\b(?:to|at|from|attends|attended|attending|in)[ \t]+)(?P<o>(?:p\.?s\.?|j\.?h\.?s\.?|"
      r"i\.?s\.?)[ \t]+(?:[4-9]\d|\d{3}))\b(?![ \t]*(?:/|%|mmhg|cm|peep|fio2|x\b))", "ORGANIZATION", 0.65, group="o"),
    P("greeting_name_start", r"\A[ \t\n]*(?P<n>\p{Lu}\p{Ll}{2,})[ \t]+[-–—][ \t]+(?=\S)", "DOCTOR", 0.6, group="n",
      validate=lambda w: w.casefold() in _name_vocabulary()[2] and w.casefold() not in _NOT_SIGNOFF
      and w.casefold() not in _NOT_NICKNAME),
)
EN_PATTERNS = EN_PATTERNS + _S18B_PATTERNS
_S18B_TRIGGERS = {
    "city_before_province_ca": (r"re:[ \t](?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)[ \t]+[A-Z]\d[A-Z]",),
    "city_in_before_state": (r"re:[a-z],[ \t]{1,2}[A-Z]{2}\b",),
    "age_sex_after_nickname": (r"re:[\"”’']\)[ \t]*[,;][ \t]{0,3}\d",),
    "age_him_is": ("him is", "him was", "her is", "her was", "him be", "him turned", "her turned", "when me was",
                   "him turn", "her turn", "her be"),
    "bed_space_number": ("bed space", "bedspace"),
    "date_holiday_s18": ("obon", "o-bon", "bon festival", "chuseok", "songkran", "seollal", "losar", "purim", "sukkot",
                         "shavuot", "lohri", "ugadi", "gudi padwa", "thaipusam", "deepavali", "hari raya", "w:tet",
                         "tết"),
    "date_spanish_words": (" de enero", " de febrero", " de marzo", " de abril", " de mayo", " de junio", " de julio",
                           " de agosto", " de septiembre", " de setiembre", " de octubre", " de noviembre",
                           " de diciembre"),
    "interpreter_number": ("interp",),
    "staff_name_role_paren": (r"re:[A-Za-z][ \t]*\([ \t]*(?i:[a-z/ \t]{0,24})(?i:coord|rn|np|pa|sw|rt|rd|nurse|chaplain|pharmd|educator|specialist|mgr|manager|navigator)\.?[ \t]*\)",),
    "title_name_the_role": (" the teacher", " the principal", " the coach", " the neighb", " the pastor",
                            " the priest", " the land", " the babysitter", " the nanny", " the counsel",
                            " the social worker", " the lady", " the man", " the woman"),
    "school_numbered": (r"re:(?i)\b(?:p\.?s\.?|j\.?h\.?s\.?|i\.?s\.?)[ \t]+\d\d",),
    "greeting_name_start": (r"re:\A[ \t\n]*[A-Z][a-z]{2,}[ \t]+[-–—][ \t]",),
}


def _state_alternation(lex: tuple[str, ...]) -> str:
    return "(?:" + "|".join(regex.escape(s) for s in sorted(lex, key=len, reverse=True)) + ")"


class PatternDetector:
    """Regex detectors of identifier shapes for one language (``en`` or ``es``)."""

    family = "pattern"

    def __init__(self, lang: str = "en", timeout: float = 2.0):
        self.lang = lang
        self.name = "pattern"
        self.timeout = timeout
        self._compiled: list[tuple[Pattern, regex.Pattern]] | None = None

    def patterns(self) -> tuple[Pattern, ...]:
        if self.lang == "es":
            from .patterns_es import ES_PATTERNS

            shared = tuple(p for p in EN_PATTERNS if p.name in SHARED_WITH_ES)
            return ES_PATTERNS + shared
        return EN_PATTERNS

    def load(self) -> None:
        if self._compiled is not None:
            return
        from ..lexicons import load_lexicon

        subst = {
            "{STATES}": _state_alternation(load_lexicon("states_us_abbr")),
            "{STATE_NAMES}": _state_alternation(load_lexicon("states_us")),
            "{SUFFIX}": STREET_SUFFIX_RE,
        }
        compiled = []
        pf_sources: list[tuple[str, int]] = []
        trigger_res: dict[str, regex.Pattern] = {}
        # every substring trigger, found in one scan per text (``_literal_scan``) instead of one ``in`` test each
        literals = sorted({t for p in self.patterns() for t in p.triggers or ()
                           if t and not t.startswith(("w:", "re:"))})
        self._literal_scan, implied = _literal_scan(literals)
        for p in self.patterns():
            src = p.regex
            for k, v in subst.items():
                src = src.replace(k, v)
            if p.lead:
                m = _INLINE_FLAGS.match(src)
                cut = m.end() if m else 0
                src = src[:cut] + f"(?={p.lead})" + src[cut:]
            subs, words, res = [], set(), []
            if "" in (p.triggers or ()):
                p = replace(p, triggers=None)  # an empty substring is in every text: no gate
            for t in p.triggers or ():
                if t.startswith("w:"):
                    words.add(t[2:])
                elif t.startswith("re:"):  # one object per distinct source: searched once per text
                    # compiled by regex (V0: the stdlib's syntax), ~40 % faster than re on these; the same
                    # answers on PhysioNet train, the visit notes and every probe text (checked when switched)
                    res.append(trigger_res.setdefault(t[3:], regex.compile(t[3:], regex.MULTILINE | regex.VERSION0)))
                else:
                    subs.append(t)
            # the scan's findings that mean one of this pattern's substrings is in the text
            mine = frozenset(subs)
            found_any = frozenset(w for w in literals if not implied[w].isdisjoint(mine))
            trig = None if p.triggers is None else (found_any, frozenset(words), tuple(res))
            compiled.append((p, regex.compile(src, p.flags | regex.VERSION0), trig))
            pf_sources.append((src, p.flags | regex.VERSION0))
        # literals one of which every match holds: the scan is skipped on texts with none of them
        trigger_list = list(trigger_res.values())
        pfs = cached_prefilters(f"pattern-{self.lang}", pf_sources + [(r.pattern, r.flags) for r in trigger_list])
        self._prefilters = pfs[:len(pf_sources)]
        self._trigger_prefilters = dict(zip(trigger_list, pfs[len(pf_sources):]))
        # the trigger tests inverted: a scan finding, a word, or nothing at all -> the patterns it lets run (in
        # order); patterns gated by a trigger regex are tested one by one, after the cheaper gates
        by_literal: dict[str, list[int]] = {}
        by_word: dict[str, list[int]] = {}
        ungated, by_res = [], []
        for i, (_p, _rx, trig) in enumerate(compiled):
            if trig is None:
                ungated.append(i)
                continue
            subs, tw, res = trig
            for w in subs:
                by_literal.setdefault(w, []).append(i)
            for w in tw:
                by_word.setdefault(w, []).append(i)
            if res:
                by_res.append((i, res))
        self._ungated = tuple(ungated)
        self._by_literal = by_literal
        self._by_word = by_word
        self._trigger_words = frozenset(by_word)
        self._by_res = tuple(by_res)
        self._compiled = compiled

    def describe(self) -> dict:
        return {"lang": self.lang, "patterns": len(self.patterns())}

    def detect(self, document: Document) -> list[Span]:
        self.load()
        assert self._compiled is not None
        text = document.text
        best: dict[tuple[int, int], Span] = {}
        low = text.lower()
        # which patterns may match: those without a trigger, those one of whose substrings (the literal scan's
        # findings: the longest trigger starting at each position) or words is in the text, then those whose
        # trigger regex finds something
        run = set(self._ungated)
        by_literal = self._by_literal
        for w in set(self._literal_scan.findall(low)):
            ids = by_literal.get(w)
            if ids is not None:
                run.update(ids)
        if self._by_word:
            by_word = self._by_word
            for w in self._trigger_words.intersection(_LOWER_WORD.findall(low)):
                run.update(by_word[w])
        searched: dict[regex.Pattern, bool] = {}  # trigger regex -> found in this text (several patterns share some)
        trigger_pf = self._trigger_prefilters
        for i, res in self._by_res:
            if i in run:
                continue
            for r in res:
                found = searched.get(r)
                if found is None:
                    rpf = trigger_pf[r]
                    found = searched[r] = (rpf is None or rpf.may_match(text, low)) and r.search(text) is not None
                if found:
                    run.add(i)
                    break
        compiled, prefilters = self._compiled, self._prefilters
        for i in sorted(run):
            p, rx, _trig = compiled[i]
            pf = prefilters[i]
            if pf is not None and not pf.may_match(text, low):
                continue
            try:
                for m in rx.finditer(text, timeout=self.timeout):
                    start, end = m.span(p.group)
                    if start < 0 or end <= start:
                        continue
                    # trim surrounding spaces/punctuation the pattern may include
                    while end > start and text[end - 1] in " \t\n\r,;:":
                        end -= 1
                    while start < end and text[start] in " \t\n\r,;:":
                        start += 1
                    if end - start > 1 and text[end - 1] == "." and _strip_period(text, start, end):
                        end -= 1
                    if end <= start:
                        continue
                    s = text[start:end]
                    try:
                        if p.validate is not None and not p.validate(s):
                            continue
                        if p.invalidate is not None and p.invalidate(text, start, end):
                            continue
                    except Exception as exc:  # a check that fails on an unforeseen shape must not lose the note:
                        # the match is kept (recall first); the log names the pattern and the error type, no text
                        log.warning("pattern %s: its check failed (%s); the match is kept", p.name, type(exc).__name__)
                    key = (start, end)
                    old = best.get(key)
                    if old is None or p.score > old.confidence:
                        best[key] = Span(start, end, p.label, f"pattern:{p.name}", p.score)
            except TimeoutError:
                log.warning("pattern %s timed out on a document of %d chars; skipped", p.name, len(text))
        if self.lang == "en":
            # "...MAP 66-70. KD" closing a note in capitals: the writer's initials after the last sentence (only the
            # note's tail is searched)
            m = _FINAL_INITIALS.search(text, max(0, len(text) - 24))
            if m and _dash_initials(m.group("n")) and m.group("n").casefold() not in _CREDENTIAL_WORDS:
                best.setdefault(m.span("n"), Span(m.start("n"), m.end("n"), "DOCTOR", "pattern:signoff_final_initials", 0.5))
        if self.lang == "en":  # identifiers said aloud (speech-to-text transcripts)
            for sp in spoken.find(text):
                old = best.get((sp.start, sp.end))
                if old is None or sp.confidence > old.confidence:
                    best[(sp.start, sp.end)] = sp
            for sp in age_echoes(text, [x for x in best.values() if x.label == "AGE"]):
                best.setdefault((sp.start, sp.end), sp)
        return sorted(best.values(), key=lambda s: (s.start, s.end))


def _literal_scan(strings: list[str]) -> tuple[re.Pattern, dict[str, frozenset[str]]]:
    """One stdlib ``re`` scan for many substrings: ``findall(low)`` gives, at every position where some of
    ``strings`` start, the longest of them (inside a lookahead, so overlapping ones are seen too); the shorter
    ones starting there are its prefixes, ``implied[w]``. The expression is a trie (``ab(?:c|d)?``): the
    branches after a common prefix are tried in turn and an optional ending gives way only after them, so the
    first success is the longest string. ``t in low`` holds exactly when some found ``w`` has ``t in implied[w]``
    (~0.1 ms per note against ~0.3 ms for ~600 ``in`` tests)."""
    trie: dict = {}
    for s in strings:
        node = trie
        for ch in s:
            node = node.setdefault(ch, {})
        node[""] = {}  # a string ends here

    def emit(node: dict) -> str:
        alts = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body

    known = frozenset(strings)
    implied = {s: frozenset(s[:k] for k in range(1, len(s) + 1)) & known for s in strings}
    return re.compile(f"(?=({emit(trie)}))" if strings else "(?!)"), implied


# a number said in words (1-119), as a whole phrase
_SPOKEN_NUMBER = regex.compile(rf"(?i)(?<![\w-])(?>{NUMBER_WORDS_RE})")
_ECHO_GAP = regex.compile(r"(?i)^(?:[ \t,.?!\n]+|\[[^\]\n]{1,20}\][ \t]*:?|[a-z_]{1,14}[ \t]*:|"
                          r"(?:yes|yeah|yep|aye|no|mm|um|uh|right|okay|ok|now|i[ \t]+think|or|and|so|son|mum|mam|dad|"
                          # "seventy nine naw eighty": a self-correction
                          r"naw|nah|nope|sorry|actually|wait|i[ \t]+mean|er|erm|"
                          r"mama|doctor|doc|nurse|just|only|maybe|about|almost|nearly|is|that|it|isnt|correct|patient|"
                          r"daughter|mother|father|wife|husband|carer|interpreter|clinician|midwife)\b){0,14}$")


def age_echoes(text: str, ages: list[Span]) -> list[Span]:
    """Speech: an age said again or corrected right after (or before) a found age, across a speaker change:
    ``she is eighty / son: yes eighty``, ``ninety i think / son: ninety one``, ``eighty five i think or eighty four``.
    The other number must be in words, within two years of the found age and followed by no unit."""
    out: list[Span] = []
    covered = {(a.start, a.end) for a in ages}
    for a in ages:
        v = _age_value(text[a.start:a.end])
        if v is None or not regex.search(r"[a-z]", text[a.start:a.end]):
            continue  # only ages said in words: "72" in a note is no speech
        for m in _SPOKEN_NUMBER.finditer(text, max(0, a.start - 60), min(len(text), a.end + 60)):
            if (m.start(), m.end()) in covered or not (m.end() <= a.start or m.start() >= a.end):
                continue
            gap = text[a.end:m.start()] if m.start() >= a.end else text[m.end():a.start]
            if not _ECHO_GAP.match(gap):
                continue
            w = spelled_number(m.group())
            if w is None or abs(w - v) > 2 or not 1 <= w <= 119:
                continue
            after = text[m.end():m.end() + 24]
            if regex.match(r"(?i)[ \t]*(?:%|percent|per\s+cent|over|out\s+of|minutes?|hours?|days?|weeks?|months?|"
                           r"pounds|kilos?|kg|stone|mg|mls?|units?|times|o'?clock|am|pm|p\.m|a\.m|degrees?|bpm|beats)\b",
                           after):
                continue
            out.append(Span(m.start(), m.end(), "AGE", "pattern:age_echo_near", 0.65))
            covered.add((m.start(), m.end()))
    return out


_ABBR_END = regex.compile(r"(?:\b\p{L}{1,3}|\b\p{L}\.\p{L}|\bno|\bsept|\bavda|\bapt)\.$", regex.IGNORECASE)


def _strip_period(text: str, start: int, end: int) -> bool:
    """A final period is sentence punctuation unless it ends an abbreviation (``St.``, ``Oct.``)."""
    return _ABBR_END.search(text[max(start, end - 6):end]) is None


STREET_SUFFIX_RE = (
    r"(?:Street|STREET|St|ST|Avenue|AVENUE|Ave|AVE|Av|Road|ROAD|Rd|RD|Boulevard|BOULEVARD|Blvd|BLVD|Drive|DRIVE|"
    r"Dr|DR|Lane|LANE|Ln|LN|Court|COURT|Ct|CT|Place|PLACE|Pl|PL|Terrace|TERRACE|Ter|Parkway|PARKWAY|Pkwy|PKWY|"
    r"Highway|HIGHWAY|Hwy|HWY|Circle|CIRCLE|Cir|CIR|Way|WAY|Square|SQUARE|Sq|Trail|TRAIL|Trl|Pike|PIKE|"
    r"Plaza|PLAZA|Alley|Route|ROUTE|Rte|Turnpike|Expressway|Freeway|"
    # British, Irish and Australian street words (title case only: "7 Cragg View", "3 Oak Close")
    r"View|Close|Crescent|Cres|Grove|Gardens|Gdns|Mews|Row|Walk|Rise|Parade|Esplanade|Vale|Heights|Wynd|Brae|"
    r"Quay|Wharf)"
)

# English patterns that also apply to Spanish notes (contacts, network, generic IDs).
SHARED_WITH_ES = frozenset({"email", "url", "url_domain", "ipv4", "ipv6", "phone_intl", "date_iso", "vin"})


_FINAL_INITIALS = regex.compile(r"(?<=[.!?][ \t]{1,2}|[.!?][ \t]*\n[ \t]*)(?P<n>[A-Z]{2,3})[ \t]*\n*\Z")
_CREDENTIAL_WORDS = frozenset({"rn", "rnc", "lpn", "rrt", "bsn", "cnm", "np", "md", "pa", "do", "crna", "msw", "lcsw"})

# a line that ends with a nurse's credential (one search per text, shared by the sign-off patterns)
_SIGNOFF_LINE_END = r"re:(?im)\b(?:rn|lpn|rrt)\.?[ \t]*$"

# Literal triggers per pattern name (lower case): the pattern runs only on texts
# containing one of them (a substring test costs far less than a regex scan).
TRIGGERS: dict[str, tuple[str, ...]] = {
    "date_text": tuple("w:" + w for w in (
        "jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june", "jul", "july",
        "aug", "august", "sep", "sept", "september", "oct", "october", "nov", "november", "dec", "december")),
    "date_weekday_numeric": tuple("w:" + w for w in (
        "mon", "monday", "tue", "tues", "tuesday", "wed", "wednesday", "thu", "thur", "thurs", "thursday", "fri",
        "friday", "sat", "saturday", "sun", "sunday")),
    "date_month_alone": ("uary", "april", "june", "july", "august", "mber"),
    "vin": (r"re:\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{17}\b",), "age_sex": (r"re:\d ?(?:M|F|y/o|yo)\b",),
    "year_19xx": ("19",), "year_20xx": ("20",), "phone_local": (r"re:\d{3}[-. ]\d{4}",),
    "date_season": ("spring", "summer", "fall", "autumn", "winter"),
    "date_holiday": ("christmas", "xmas", "x-mas", "thanksgiving", "new year", "new yr", "easter", "halloween", "independence", "memorial",
                     "hogmanay", "ramadan", "vaisakhi", "baisakhi", "holi ", "navratri", "rosh", "yom", "waitangi",
                     "matariki", "andrew", "burns",
                     "labor", "labour", "valentine", "diwali", "hanuk", "chanuk", "passover", "eid", "patrick", "paddy",
                     "anzac", "australia day", "canada day", "boxing", "mother", "father", "bonfire", "fawkes",
                     "remembrance", "veterans", "luther", "mlk", "presidents", "juneteenth", "good friday", "whitsun",
                     "david", "george", "stephen", "brigid", "mardi", "shrove", "pancake", "ash wed", "palm sun",
                     "holy thu", "maundy", "john", "victoria day", "pongal", "onam", "naidoc", "patriot", "holy week",
                     "kwanzaa", "columbus", "cinco", "muertos", "durga", "dussehra", "raksha", "nowruz", "vesak"),
    "year_apostrophe": ("'", "’"), "date_month_day": ("/",), "date_month_year": ("/",),
    "date_month_day_dash": ("-",), "year_after_event": ("mi", "cabg", "cva", "tia", "avr", "mvr", "pci", "stent",
                                                        "dx", "s/p", "ptca"),
    "year_in_2digit": ("in ",), "year_apostrophe": ("'", "’"), "year_apostrophe_after": ("'", "’"), "age_yo": ("y",), "age_aged": ("age",), "age_in_her": ("0s", "0's"),
    "age_in_her_words": ("ties",),
    "age_over_90_words": ("ninety", "hundred"), "email": ("@",), "url": ("http", "ftp:", "www."),
    "username": ("user", "login", "log in", "log-in", "screen", "handle", "transcri", "typed by", "entered by"),
    "url_domain": (".com", ".org", ".net", ".edu", ".gov", ".mil", ".info", ".biz", ".io", ".us", ".uk", ".es",
                   ".eu", ".health"),
    "ipv6": (r"re:[0-9A-Fa-f]:[0-9A-Fa-f]*:",), "fax": ("fax",), "phone_paren": ("(",), "phone_intl": ("+", "00"),
    "phone_trunk": (r"re:(?<![\d+])\(?0\d{1,4}\)?[ -]?\d{3}",),
    "zip_after_state": (r"re:\d{5}",), "state_before_zip": (r"re:\d{5}",), "state_before_plate": ("plate", "tag"),
    "pager": ("pag", "beep", "bpr", "pg", "p"), "extension": ("ext", "x"),
    "ssn_context": ("ssn", "soc", "ss#"),
    "mrn": ("mr", "record", "unit", "hosp", "chart", "patient", "pt", "id", "urn", "h/n"),
    "city_before_postcode_ca": (r"re:[a-z][ \t]+[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ \t]?\d[ABCEGHJ-NPRSTV-Z]\d\b",),
    "province_ca": (r"re:, ?(?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT) [A-Z]\d",),
    "city_zip_after_street": (r"re:, ?[A-Z][a-z]+(?: [A-Z][a-z]+)? \d{5}\b",),
    "zip_after_street_city": (r"re:, ?[A-Z][a-z]+(?: [A-Z][a-z]+)? \d{5}\b",),
    "plate_uk_vehicle": (r"re:\b[A-Z]{2}\d{2} ?[A-Z]{3}\b",),
    "city_after_street": (r"re:\b\d{1,6}[ \t]+[A-Z][^\n,]{2,40},[ \t]{0,2}[A-Z]",),
    "postcode_after_street_city": (r"re:\b\d{1,6}[ \t]+[A-Z][^\n,]{2,40},[ \t]{0,2}[A-Z][^\n,]{1,30}[ \t]\d{4}\b",),
    "org_field": (r"re:(?i)\b(?:employer|carrier|insurer|insurance company|workplace|school|nursery|daycare|college|university|company)[ \t]*:",),
    "nickname_quoted": ('"', "“"), "name_question_reply": ("name",), "university_hospital": ("univ", "u of"), "town_of_relative": (" of ",),
    "year_pair_second": ("in ",), "age_list_more": ("age",), "age_copula_years": ("year", "yrs"),
    "ppsn": ("pps",), "id_code_short": ("id",), "mrn_slashed": ("/",), "province_ca_line_end": (r"re:(?m), ?(?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)[ \t]*$",),
    "insurer_named": ("ins",), "title_initial": ("mr", "ms", "miss", "dr", "doctor"),
    "pt_initials": ("pt ", "patient "), "signoff_initials": (_SIGNOFF_LINE_END,), "signoff_name_initial": (_SIGNOFF_LINE_END,),
    "signoff_credential_initials": (r"re:(?i)\b(?:rn|lpn)[ \t]+[a-z]\.",), "signoff_dash_initials": ("-",),
    "signoff_dotted_initials": (r"re:(?im)\.[ \t]*,?[ \t]*(?:rnc?|lpn|rrt|cnm)\.?[ \t]*$",),
    "dictation_initials": ("dictated", "typed", "transcribed", "dict"),
    "trade_do": tuple("w:" + w for w in ("drywall", "hair", "nails", "security", "roofing", "plumbing", "landscaping",
                                         "construction", "carpentry", "masonry", "concrete", "framing", "welding", "hvac",
                                         "flooring", "tile", "tiling", "daycare", "childcare", "housekeeping",
                                         "janitorial", "catering", "bookkeeping", "lashes", "tattoos",
                                         "lawn", "home")),
    "trade_verb": ("w:hair", "w:houses", "w:homes"),
    "attention_name": ("attn",),
    "age_zero_copula": tuple("w:" + w for w in ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
                                                "ninety", "hundred")),
    "hospital_nickname": tuple("w:" + w for w in ("mayo", "mercy", "memorial", "presbyterian", "methodist", "brigham",
                                                  "general", "joes", "joe's", "royal", "allen", "mission", "county")),
    "age_relative_paren": (r"re:(?i)\(\s*\d{1,2}\s*(?:y|yo|y/o|yrs?|years?(?:\s+old)?)?\s*\)",),
    "drive_for_company": tuple("w:" + w for w in ("amazon", "uber", "lyft", "doordash", "door", "grubhub", "instacart",
                                                  "ups", "fedex", "usps", "dhl", "postmates", "post")),
    "reference_initials": ("ref",),
    "job_number_initials": ("job",), "initials_signing_for": ("for prof", "for dr", "for mr", "for ms", "for miss", "pp ", "p.p."),
    "agency_named": ("ambulance", "home health", "home care", "homecare", "chair car", "transport", "medivan",
                     "medi-van", "hospice", "infusion"), "relative_modal_name": ("will", "may", "june", "april", "august"), "age_birthday": ("birthday", "bday", "b-day"),
    "public_service_named": ("fd", "pd", "dpw", "fire", "police"),
    "role_caps_name": (r"re:(?<![A-Za-z/])(?:RT|RRT|SLP|OT|SW|CM|RD|NP|PA|CNA|LPN|HO|RN|SN|PCA|MD)[ \t]+[A-Z]{3}",),
    "relative_word_name": ("husband", "wife", "son ", "son,", "son-", "in-law", "in law", "daughter", "dtr",
                                                                "sister", "brother", "mother", "father", "niece",
                                                                "nephew", "grand", "fianc", "partner", "friend",
                                                                "neighbo", "sis ", "bro "), "name_owns_phone": ("'s ", "’s "), "initials_before_age": (r"re:[A-Z]\.[A-Z]\.",), "age_paren_years": ("(",), "age_sex_lower_end": (r"re:[a-z] \d{1,3}[mf]\b",),
    "date_event_in_short_year": (" in ",), "town_before_county_ie": ("co", "county"), "eircode_after_county": ("co", "county"),
    "accession": ("acc", "specimen", "spec", "lab"), "plate_reg": ("reg", "plate"),
    "ward_floor_wing": ("north", "south", "east", "west"), "age_confirm_reply": ("\n",), "id_letters_number": ("id",), "flat_number": ("flat", "apartment", "apt"),
    "account": ("acc", "billing", "encounter", "visit", "fin", "admission", "ref", "claim"),
    "healthplan": ("member", "policy", "insurance", "medica", "subscriber", "group", "plan", "beneficiary", "hicn",
                   "gms", "card", "nhi", "ohip", "ramq", "phin", "msp"),
    "license": ("lic", "dl", "cert"), "nhs_number": ("nhs", "chi", "ihi"),
    "license_register": ("gmc", "nmc", "imc", "hcpc", "ahpra", "cpso", "cpsbc", "cpsa", "mdcn", "mcrn", "cpsm", "cpss", "cpsns",
                         "cpsnb", "cpsnl", "cmq", "mcnz", "nmbi", "hpcsa", "gphc", "provider", "prescriber"),
    "dea": ("dea",), "npi": ("npi",), "vin_context": ("vin",),
    "plate": ("plate", "tag", "registration"), "device_serial": ("serial", "s/n", "sn", "model", "lot", "device"),
    # whole words where a substring would fire on most notes ("fluid", "acid", "regular")
    "generic_id": ("w:id", "w:idno", "w:idnumber", "identification", "passport", "employee", "job", "dictation",
                   "transcription", "interpreter", "staff", "badge", "client", "w:reg", "w:regno", "registration",
                   "opreg", "ipreg", "opdreg", "ipdreg", "incident", "occurrence", "safety", "event", "police"),
    "po_box": ("box",),
    "dea_checksum": (r"re:\d{7}",),
    "age_copula": ("w:i", "w:im", "w:you", "w:youre", "w:he", "w:hes", "w:she", "w:shes", "w:being", "w:turned",
                   "w:turning", "w:turns", "w:they"),
    "zip_context": ("zip", "postal"), "field_patient_name": ("name", "patient"),
    "street_corner": tuple(f"{o} {c} " for o in ("st", "nd", "rd", "th") for c in ("and", "&"))
    + tuple(f"{c} {d}" for c in ("and", "&") for d in "123456789"),
    "nickname": ("call", "go by", "goes by", "be called"), "nickname_clinician": ("call me",),
    "field_dob": ("dob", "d.o.b", "birth", "born"),
    "city_before_state": (r"re:[A-Za-z],[ ]{1,2}[A-Z][A-Za-z]*(?: [A-Z][a-z]+)?(?:,?[ ]{1,3}\d{5}|[ \t]*$)",),
    "postcode_au": tuple("w:" + w for w in ("nsw", "vic", "qld", "sa", "wa", "tas", "nt", "act")),
    "state_au": tuple("w:" + w for w in ("nsw", "vic", "qld", "sa", "wa", "tas", "nt", "act")),
    "state_line_end": (r"re:[A-Za-z],[ \t]{1,2}[A-Z]{2}[ \t]*$",),
    "city_before_postcode": (r"re:\d[A-Z]{2}\b",), "postcode_uk": (r"re:\d[A-Z]{2}\b",),
    "street_named_lower": tuple("w:" + w for w in ("street", "avenue", "road", "drive", "lane", "boulevard", "terrace",
                                                   "parkway", "crescent", "ave", "rd", "blvd", "route", "highway",
                                                   "hwy", "rte", "interstate")),
    # the speaker's or listener's relative ("my daughter", "your dad")
    "age_relative_is": tuple("w:" + w for w in ("my", "your", "our", "dad", "mum", "mom", "nana")),

    "street_named": ("street", "avenue", "road", "boulevard", "drive", "lane", "terrace", "parkway", "crescent", "close"),
    "street_address": (" st", "street", "ave", "road", " rd", "blvd", "boulevard", "drive", " dr", "lane", " ln",
                       "court", " ct", "place", " pl", "terrace", " ter", "parkway", "pkwy", "highway", "hwy",
                       "circle", " cir", " way", "square", " sq", "trail", " trl", "pike", "plaza", "alley",
                       "route", " rte", "turnpike", "expressway", "freeway", " view", "close", "crescent", " cres",
                       "grove", "gardens", "gdns", "mews", " row", " walk", " rise", "parade", "esplanade", " vale",
                       "heights", " wynd", " brae", " quay", "wharf"),
}
_NUMBER_WORD_TRIGGERS = tuple("w:" + w for w in (*_UNITS[1:], *(t for t in _TENS if t), "hundred"))
_MONTH_WORDS = tuple("w:" + w for w in ("january", "february", "march", "april", "may", "june", "july", "august",
                                         "september", "october", "november", "december"))
_ORD_TRIGGER = (r"re:(?i)\bthe\s+(?:\d{1,2}(?:st|nd|rd|th)\b|first|second|third|fourth|fifth|sixth|seventh|eighth|"
                r"ninth|tenth|eleventh|twelfth|\w+teenth|twentieth|thirtieth|twenty|thirty)")
TRIGGERS.update({
    "age_after_name": (r"re:, \d\d?\d?, ",),
    "age_paren_name": (r"re:[a-z] ?\(\d{1,3}\)",), "age_sex_lower": (r"re:[a-z] \d{1,3}[mf](?: [a-z]| [-–] |[,;]| *$)",),
    "dob_spoken": ("birth", "dob", "d.o.b", "born"),
    "floor_level": ("level", "floor"),
    "county_ie": ("co", "county"), "state_after_town": (r"re:,[ \t]{1,2}[A-Z]{2}\b",), "age_question_reply": ("?",),
    "city_after_house_address": (r"re:(?m)^[ \t]*\d{1,5}[A-Za-z]?[ \t]+[A-Z][a-z]",),
    "region_named": (r"re:\b(?:Cumbria|Northumberland|Kent|Essex|Surrey|Sussex|Devon|Cornwall|Somerset|Dorset|Norfolk|"
                     r"Suffolk|Merseyside|Tyne|Greater|West|East|Rutland|Isle|Middlesex|Fife|Midlothian|Powys|Gwynedd|"
                     r"Anglesey|Ceredigion|Pembrokeshire|Donegal|Kerry|Wexford|Wicklow|Tipperary|Roscommon|Westmeath|"
                     r"Offaly|Laois|Leitrim|Monaghan|Fermanagh|Tyrone|Ontario|Quebec|Nova|New|Manitoba|British|Prince|"
                     r"Saskatchewan|Alberta|Newfoundland|Nunavut|Yukon|Queensland|Tasmania|Western|South|Northern)\b",),
    "room_bare": (r"re:\d{3}[ABDEG]\b",),
    "street_before_town": (r"re:(?m)^[ \t]*\d{1,5}[A-Za-z]?[ \t]+[A-Z][a-z]",),
    "room_number": ("room", "rm", "bed", "bay", "cubicle", "stretcher", "trolley", "cot", "incubator", "isolette", "chair"),
    "name_in_room": ("room", "rm", "bed", "bay"),
    "school_named": ("primary", "elementary", "middle", "junior", "infant", "grammar", "secondary"),
    "nursery_named": ("nursery", "daycare", "day care", "preschool", "pre-school", "creche", "crèche", "playgroup",
                      "school club"),
    "age_sex_paren": (r"re:\(\d{1,3} ?[MFmf](?:\)|[ \t]*[,;])",),
    "age_slash_sex": ("/",), "age_after_dob": ("dob", "d.o.b", "birth", "born"), "age_at_age_unit": ("age",),
    "age_paren_relative": (r"re:[A-Z][A-Za-z'’-]+[ \t]*\((?:\d{1,3}|[A-Za-z]+(?:[ -][A-Za-z]+)?)[ \t]*(?:[A-Za-z]{1,6}[ \t]*)?\)",),
    "age_years_months": ("month", "mos"),
    "age_words": _NUMBER_WORD_TRIGGERS, "age_words_hyphen": ("-old",),
    "age_copula_more": ("i'm", "i’m", "im ", "i am", "you're", "you’re", "youre", "you are", "he's", "he’s", "hes ",
                        "she's", "she’s", "shes "), "age_aged_words": ("age",), "age_months_old": ("old",),
    "age_sex_after_name": (r"re:\d[MF]\b",), "age_paren_relative_lower": ("(",),
    "age_event_at": ("at ",), "age_copula_tens": ("you're", "you’re", "youre", "you are", "he's", "he’s", "hes ", "he is",
                                                 "she's", "she’s", "shes ", "she is"),
    "age_is_now": (" now",), "age_is_now_and": (" now and ",), "age_corrected": ("you", "says", "he's", "she's",
                                                                               "hes ", "shes ", "i'm", "im "), "age_when_was": (" was ", " were "), "age_from_dob": ("so ",), "age_echo": ("you", "so "), "age_echo_first": ("you",),
    "year_spoken_range": ("nineteen", "twenty"), "year_spoken_moved": ("w:fifty", "w:sixty", "w:seventy", "w:eighty", "w:ninety"), "relative_name_reply": ("name",), "self_intro_relative": ("i'm", "i’m", "im ", "i am", "this is", "it's", "its ", "my name"), "salutation_name": ("dear",), "call_you_reply": ("call you",),
    "age_sex_field": ("age",), "age_lived_to": ("lived", "made it"), "nickname_cue": ("goes by", "went by", "calls me", "call mi", "calls mi", "calls him", "calls her",
                                                             "call me", "call him", "call her", "known as", "to be called"), "age_turn": ("turn",), "age_at_opening": ("at ",), "year_teen_pair": ("w:eighteen", "w:nineteen"),
    "year_two_thousand_and": ("thousand and",),
    # three searches, one per branch (the same texts pass): each has a literal that regex's search skips to
    # (",", ":", "it"), where the alternation of the three tries every letter (~8 us against ~80 us a note)
    "vocative_capital": (r"re:[^\W\d_][!?]?,[ \t][A-Z][^\W\d_]+[.!?]",
                         r"re::[ \t]+(?:No|Yes|Okay|OK|Ok|Well|So|Right|Thanks|Thank you|Sorry|Oh|Alright|Great|Good|Sure),?[ \t]+[A-Z][^\W\d_]+,",
                         r"re:[A-Z][^\W\d_]+[ \t]+it[ \t]+is\b"),
    "date_month_abbr_cued": ("w:jan", "w:feb", "w:apr", "w:jun", "w:jul", "w:aug", "w:sep", "w:sept", "w:oct", "w:nov", "w:dec"), "postcode_lower": (r"re:\b[a-z]{1,2}\d[a-z\d]?[ \t][a-z\d]",), "license_cdl": ("cdl", "CDL"), "age_i_am_tens": ("i'm", "i’m", "im ", "i am"),
    "age_how_old": ("how old", "w:age", "makes"),
    "age_procedure_at": (" at ",), "age_birthday_after": ("birthday", "bday", "b-day"),
    "age_before_dob": ("dob", "d.o.b", "date of birth"),
    "age_make_you": ("how old",), "age_reply_corrected": ("how old", "make"),
    "age_sex_caps": (r"re:[A-Z] \d{1,3}[MF](?: [A-Z]| *[,;])",), "age_sex_after_mrn": (r"re:\) \d{1,3}[mfMF]\b",),
    "age_words_when": tuple("w:" + w for w in _TENS if w) + ("w:hundred",),
    "age_sex_header": (r"re:\d[ \t]?(?:[MF]\b|y)",), "age_well_visit": ("well",), "age_well_visit_before": ("well",),
    "date_ordinal_the": (_ORD_TRIGGER,), "date_ordinal_reply": (_ORD_TRIGGER,), "date_ordinal_turn": (_ORD_TRIGGER,),
    "date_weekday_ordinal": ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    "date_month_ordword": _MONTH_WORDS, "date_may_ordword": ("may",), "date_month_cued": _MONTH_WORDS,
    "date_month_cardinal": _MONTH_WORDS, "date_short_spelled_year": _MONTH_WORDS,
    "date_spelled_year": ("thousand", "nineteen", "twenty"), "date_spelled_year_shape": ("nineteen", "twenty"),
    "date_ordinal_of_ordinal": ("of the",), "date_back_in_year": ("back in", "since"), "date_on_the_ordword": ("the",),
    "age_pronoun_is": ("he ", "he'", "he’"),
    "unit_named": (r"re:\b(?:Ward|Unit)\b",), "ward_number": (r"re:\b(?:Ward|Unit)\b",), "suite_number": (r"re:\b(?:Suite|Ste)\b",),
    "ward_compass": (" east", " west", " north", " south"),
    "postcode_ca": (r"re:[A-Z]\d[A-Z][ \t]\d[A-Z]\d",),
    "eircode": (r"re:,[ \t]{0,2}[A-Z]\d",), "nhs_number": ("nhs", "chi", "ihi"),
})
# Session 6: precise pre-checks (stdlib ``re``) for patterns whose literal triggers are too common
TRIGGERS.update({
    "age_name_will_be": ("will be",),
    "date_ordinal_of_ordinal": tuple("of the " + w for w in ("first", "second", "third", "fourth", "fifth", "sixth", "seventh",
                                                            "eighth", "ninth", "tenth", "eleventh", "twelfth")),
    "date_on_the_ordword": tuple("the " + w for w in ("first", "second", "third", "fourth", "fifth", "sixth", "seventh",
                                                     "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth",
                                                     "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth",
                                                     "nineteenth", "twentieth", "thirtieth", "twenty", "thirty")),
    "age_paren_years": (r"re:\(\d{1,3} ?(?:y|yo|y/o|yrs?|years?)",),
    "date_event_in_short_year": tuple("in " + w for w in ("o ", "oh ", "zero ", "twenty", "thirty", "forty", "fifty",
                                                           "sixty", "seventy", "eighty", "ninety")),
    "town_before_county_ie": (r"re:\b(?:Co\.?|County) [A-Z]",), "eircode_after_county": (r"re:\b(?:Co\.?|County) [A-Z]",),
    "accession": ("acc.", "acc ", "acc:", "accession", "specimen", "spec.", "spec ", "lab no", "lab #", "lab number"),
    "plate_reg": ("reg ", "reg.", "reg:", "registration", "rego", "plate"),
    "ward_floor_wing": (" north", " south", " east", " west", "-north", "-south", "-east", "-west"),
    "age_confirm_reply": (r"re:(?i)\n[ \t]*(?:\[[^\]\n]{1,20}\][ \t]*:?|[A-Za-z]{1,12}(?:[ \t]+\d{1,2})?[ \t]*:)?[ \t]*"
                          r"(?:(?:yes|yeah|yep|yup|right|correct|no)[ \t,]+)?(?:twenty|thirty|forty|fifty|sixty|seventy|"
                          r"eighty|ninety|hundred|\d{2,3}\b)",),
    "title_initial": (r"re:(?i)\b(?:mrs?|ms|miss|dr|doctor)\.?[ \t]+[a-z]\b",),
    "pt_initials": (r"re:(?i)\b(?:pt|patient)[ \t]+(?:[a-z]{2,3}|[a-z]\.[a-z]\.(?:[a-z]\.)?)[ \t,]+(?:mrn|dob|d\.o\.b|\d)",),
    "age_list_more": (r"re:(?i)\bage[ds]? \d{1,3}(?: ?, ?\d{1,3})* ?(?:,|and|&)",),
    "age_copula_years": ("year", "yrs"),
    "id_code_short": (r"re:\b(?:ID|Id)\b",), "id_letters_number": (r"re:\b(?:ID|Id|id)\b",),
    "mrn_slashed": (r"re:[A-Z]{2,5}/\d{2,4}/\d",),
    "town_of_relative": (r"re: of [A-Z][a-z]",),
    "year_pair_second": (r"re:\bin (?:19|20)?\d\d (?:and|&|,) ",),
    "insurer_named": ("ins ", "ins.", "ins:", "insurance", "insurer", "medical aid", "medical scheme"),
    "org_field": ("employer", "carrier", "insurer", "insurance company", "workplace", "school:", "nursery:", "daycare:",
                  "college:", "university:", "company:", "school :"),
})
# Session 16
TRIGGERS.update({
    # "kids (", "sons(": the group word right before the bracket, found by the one literal scan
    "age_group_paren": tuple(f"{w}{sep}(" for w in _AGE_GROUPS.split("|") for sep in (" ", "", ", ", " , ")),
    "age_youngest": ("youngest", "oldest", "eldest"),
})
TRIGGERS["relative_group_paren"] = TRIGGERS["age_group_paren"]
TRIGGERS.update(_S18B_TRIGGERS)  # session 18 (tune58)
TRIGGERS["age_sex_lower_start"] = (r"re:\d[mfMF]\b",)
TRIGGERS["age_relation_pronoun"] = (r"re:(?i)\b(?:she|he|who)(?:[ \t]+(?:is|was|turned|turns|just[ \t]+turned)|['’]?s)[ \t]",)
# Session 17
_ORD_UNITS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
# the first word of a number in words from two ("a hundred" and "one" are not taken by these patterns)
_NUM_WORD_STARTS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
                    "thirty", "forty", "fourty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred")
TRIGGERS.update({
    "age_relation_zero_copula": tuple(f"he {w}" for w in _NUM_WORD_STARTS),
    "age_name_is_pronoun": tuple(f"is {a}{w}" for a in ("", "only ", "just ", "now ") for w in _NUM_WORD_STARTS),
    "age_relative_ordinal": ("tieth", "teenth", "tenth", "eleventh", "twelfth", "hundredth")
    + tuple(f"{a}{o}" for a in ("ty ", "ty-", "hundred ", "hundred and ") for o in _ORD_UNITS),
    # the owner and a digit ("'s 8", "her 9"; digit literals would slow the shared scan on notes full of digits)
    "age_relative_ordinal_num": tuple(f"{w}{d}" for w in ("'s ", "’s ", "his ", "her ", "my ", "our ", "their ")
                                      for d in "123456789"),
    "age_sex_line_start_word": TRIGGERS["age_sex_lower_start"],  # the same search, done once
    "age_slash_sex_lower": (r"re:/[ \t]*[mf]\b",),
    # the relation word, a space and a digit ("mum 2", "husband 7"): one literal scan finds them
    "age_relation_bare": tuple(f"{w} {d}" for w in ("mum", "mom", "mother", "dad", "father", "wife", "husband", "partner",
                                                    "son", "daughter", "brother", "sister", "grandma", "grandpa", "nana",
                                                    "aunt", "uncle", "niece", "nephew", "boyfriend", "girlfriend",
                                                    "fiance", "fiancee", "fiancé", "fiancée") for d in "123456789"),
})
LEADS: dict[str, str] = {
    "date_iso": r"\d", "date_numeric": r"\d", "date_month_day": r"\d", "date_month_day_dash": r"\d",
    "date_month_year": r"\d", "year_apostrophe": "['’]", "year_19xx": "1", "year_20xx": "2", "year_after_event": r"\d",
    "year_in_2digit": r"\d", "phone_us": r"[\d+(]", "phone_paren": r"\(", "phone_intl": "[+0]", "ipv4": r"\d",
    "ipv6": "[0-9A-Fa-f:]", "email": "[A-Za-z0-9]", "url_domain": "[A-Za-z0-9]", "ssn": r"\d", "dea_checksum": "[A-Z]",
    "npi_checksum": "[12]", "zip_after_state": r"\d", "state_before_zip": "[A-Z]", "state_before_plate": "[A-Za-z]",
    "city_before_state": "[A-Z]",
    "street_address": r"\d", "age_yo": r"\d", "initials_before_age": "[A-Z]", "date_text": "[0-9JFMASONDTWjfmasondtw]",
    "date_ordinal_the": "[0-9fstenFSTEN]", "date_ordinal_reply": "[0-9fstenFSTEN]", "date_weekday_ordinal": "[0-9fstenFSTEN]", "date_month_cued": "[JFMASONDjfmasond]",
    "unit_named": "[A-Z]", "age_event_at": "[Aa]", "date_spelled_year": "[a-zA-Z0-9]", "age_words_when": "[tfsenoahTFSENOAH]",
    "phone_trunk": r"[0(]", "postcode_uk": "[A-Z]", "postcode_ca": "[A-Z]", "city_before_postcode": "[A-Z]",
    "state_line_end": "[A-Z]", "state_au": "[A-Z]", "postcode_au": r"\d", "age_sex_header": r"\d",
    "street_named_lower": "[a-z]", "age_copula_more": "[iyhsIYHS]", "age_relative_is": "[mdyognMDYOGN]",
    "room_number": "[rRbBcCsStTiI]", "age_paren_relative": "[0-9a-zA-Z]", "age_after_name": r"\d",
    "age_words_hyphen": "[a-zA-Z]", "age_sex_paren": r"\d", "age_years_months": "[aA0-9]",
    "org_field": "[A-Z]", "title_initial": "[mMdD]", "pt_initials": "[pP]", "age_name_will_be": "[a-z0-9]",
    "town_of_relative": "[A-Z]", "year_pair_second": r"\d", "province_ca": "[A-Z]", "province_ca_line_end": "[A-Z]",
    "city_zip_after_street": "[A-Z]", "zip_after_street_city": r"\d", "age_sex_lower_end": r"\d",
    "eircode_after_county": "[A-Z0-9]", "age_list_more": r"\d", "nickname_quoted": "[A-Z]", "age_pronoun_is": "[hsHS]",
    "ward_floor_wing": "[0-9a-zA-Z]",
    "age_relation_zero_copula": "[hsHS]", "age_name_is_pronoun": "[iI]", "age_slash_sex_lower": r"\d",
    "age_relative_ordinal": "[tefsnhaoTEFSNHAO]", "age_relative_ordinal_num": r"\d", "age_relation_bare": r"\d",
}
EN_PATTERNS = tuple(replace(p, triggers=TRIGGERS.get(p.name), lead=LEADS.get(p.name, "")) for p in EN_PATTERNS)
