"""Conversational augmentation (visit recipe 2): teach the tagger text unlike ICU notes.

The English training notes are terse, mostly upper-case ICU nursing notes. The
product also meets outpatient notes, lower-case visit transcripts (often without
punctuation, as speech recognition writes them) and short clinician queries. The
first visit recipe (``augment.visit_note_examples``) adds real clinical-visit-
notes passages with silver labels and templated sentences; this recipe adds:

1. **wider silver labels** on the real passages, so that PHI the metadata does not
   name is not taught as "not PHI": years, month names after a date cue,
   ordinal days (``on the 14th``), holidays, and US state names after a place cue;
2. **context injection** into the real passages: a surrogate name after relation
   words (``my daughter`` -> ``my daughter Ana``), after a greeting at the start of
   a clinician's turn (``hi , mr. Patel .``), after ``nurse``; a place after
   ``i live`` / ``moved here from``; a date after ``see you back`` / ``follow up``;
   a hospital after ``went to the er``. The surrounding text is real, so the
   tagger learns the cue, not a template;
3. **speech-style variants**: a dialogue passage lower-cased with its punctuation
   removed (offsets of the spans recomputed) and its speaker labels rewritten
   (``[doctor]``, ``Doctor:``, ``doctor``, ``Dr:``, ``pt``...);
4. **conversational templates** (first person, relatives, staff, places, dates in
   words), with first names drawn partly from the world first-name list so that
   the character encoder sees names from many languages.

All surrogate values come from the project's generator (``augment.get_generator``)
or the bundled lexicons; no corpus PHI is used.
"""

from __future__ import annotations

import random
import re
from typing import Iterable

from ..types import Span
from .augment import (Generator, _concat, _lex, _passages, case_variant, get_generator, silver_spans,
                      swap_surrogates, visit_note_texts)
from .data import Example

# --- wider silver labels -------------------------------------------------------------------

_MONTH_FULL = r"January|February|March|April|May|June|July|August|September|October|November|December"
_MONTH = _MONTH_FULL + r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
_DATE_CUE = r"(?:in|on|since|until|till|by|of|last|next|early|late|mid|through|before|after|around|from)"
_ORD = r"(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)"
_UNIT_AFTER = r"(?!\s*(?:mg|mcg|ml|cc|units?|calories|kcal|steps|feet|ft|miles?|meters?|pounds?|lbs?|kg|%|dollars))"
_EXTRA_SILVER = [
    # years (in visit text almost always a date); not doses or counts
    ("DATE", re.compile(r"(?<![\w/.-])((?:19[3-9]\d|20[0-4]\d))(?![\w/-])(?!\.\d)" + _UNIT_AFTER)),
    # month names after a date cue ("in may", "since March", "last october")
    ("DATE", re.compile(rf"\b{_DATE_CUE}\s+(?:the\s+)?(?:(?:early|late|mid)[- ])?({_MONTH_FULL})(?![\w])", re.I)),
    # ordinal days: "on the 14th", "tuesday the 8th", "the 3rd of june"
    ("DATE", re.compile(rf"\b(?:on|by|until|till|before|after|since|monday|tuesday|wednesday|thursday|"
                        rf"friday|saturday|sunday)\s+the\s+({_ORD}(?:\s+of\s+(?:{_MONTH}))?)\b", re.I)),
    ("DATE", re.compile(rf"\b((?:{_MONTH})\.?\s+{_ORD})\b", re.I)),
    # holidays
    ("DATE", re.compile(r"\b(christmas(?: eve| day)?|easter|thanksgiving|halloween|new year'?s(?: eve| day)?|"
                        r"memorial day|labor day|independence day|fourth of july|4th of july)\b", re.I)),
]


def _states() -> tuple[str, ...]:
    return _lex("states_us")


def wide_silver_spans(text: str, names: dict[str, str]) -> list[Span]:
    """``augment.silver_spans`` plus years, month names after cues, ordinal days,
    holidays and US state names after place cues (overlaps: first-found wins)."""
    spans = list(silver_spans(text, names))
    for label, rx in _EXTRA_SILVER:
        for m in rx.finditer(text):
            a, b = m.span(1)
            spans.append(Span(a, b, label, "silver"))
    states = _states()
    if states:
        alt = "|".join(re.escape(s) for s in sorted(states, key=len, reverse=True))
        for m in re.finditer(rf"\b(?:in|to|from|near|outside|visiting|of)\s+({alt})\b", text, re.I):
            a, b = m.span(1)
            spans.append(Span(a, b, "LOCATION", "silver"))
    spans.sort(key=lambda s: (s.start, -s.length))
    out: list[Span] = []
    for s in spans:
        if out and s.start < out[-1].end:
            continue
        out.append(s)
    return out


# --- surrogate values ----------------------------------------------------------------------

def _first(rng: random.Random) -> str:
    """A first name: 60 % US (SSA list), 40 % world (Faker locales' list)."""
    if rng.random() < 0.4:
        world = _lex("first_names_world")
        if world:
            return rng.choice(world)
    items = _lex("first_names_en")
    return rng.choice(items[:3000]) if items else rng.choice(("Ana", "John", "Mei", "Omar"))


def _last(rng: random.Random) -> str:
    items = _lex("surnames_en")
    return rng.choice(items[:5000]) if items else rng.choice(("Smith", "Okafor", "Nguyen"))


def _cased(value: str, lower: bool) -> str:
    return value.lower() if lower else value


_ORG_KINDS = ("Construction", "Logistics", "Foods", "Elementary", "High School", "Baptist Church",
              "Pharmacy", "Auto Repair", "Insurance", "Manufacturing", "Credit Union", "Community College",
              "Landscaping", "Plumbing", "Dental", "Bakery", "Trucking", "Realty", "Family Practice")


def _value(slot: str, rng: random.Random, gen: Generator) -> tuple[str, str]:
    """(value, tagger label) for a template slot."""
    if slot == "FIRST":
        return _first(rng), "PATIENT"
    if slot == "PATIENT":
        r = rng.random()
        v = f"{_first(rng)} {_last(rng)}" if r < 0.5 else (_first(rng) if r < 0.75 else _last(rng))
        return v, "PATIENT"
    if slot == "SURNAME":
        return _last(rng), "PATIENT"
    if slot == "RELATIVE":
        return (_first(rng) if rng.random() < 0.8 else f"{_first(rng)} {_last(rng)}"), "RELATIVE"
    if slot == "STAFF":
        return (_first(rng) if rng.random() < 0.7 else f"{_first(rng)} {_last(rng)}"), "DOCTOR"
    if slot == "DOCTOR":
        return (_last(rng) if rng.random() < 0.6 else f"{_first(rng)} {_last(rng)}"), "DOCTOR"
    if slot == "CITY":
        return gen("CITY", "Springfield", rng, "en"), "LOCATION"
    if slot == "STATE":
        st = _states()
        return (rng.choice(st) if st else "Ohio"), "LOCATION"
    if slot == "HOSPITAL":
        return gen("HOSPITAL", "Mercy Hospital", rng, "en"), "LOCATION"
    if slot == "CLINIC":
        return f"{rng.choice([_last(rng), gen('CITY', 'Springfield', rng, 'en')])} " \
               f"{rng.choice(['Rehab', 'Orthopedics', 'Family Medicine', 'Urgent Care', 'Dialysis', 'Cardiology Associates', 'Pediatrics', 'Health Center', 'Nursing Home', 'Senior Living'])}", "LOCATION"
    if slot == "STREET":
        return gen("STREET", "12 Main Street", rng, "en"), "LOCATION"
    if slot == "ORG":
        return f"{_last(rng)} {rng.choice(_ORG_KINDS)}", "LOCATION"
    if slot == "MONTH":
        return rng.choice(("January", "February", "March", "April", "May", "June", "July", "August",
                           "September", "October", "November", "December")), "DATE"
    if slot == "ORD":
        d = rng.randint(1, 31)
        suf = "th" if 10 <= d % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")
        return f"{d}{suf}", "DATE"
    if slot == "MDAY":
        m, _ = _value("MONTH", rng, gen)
        d, _ = _value("ORD", rng, gen)
        return rng.choice((f"{m} {d}", f"{m} {d[:-2]}", f"the {d} of {m}"[4:])), "DATE"
    if slot == "YEAR":
        return str(rng.randint(1950, 2025)), "DATE"
    if slot == "HOLIDAY":
        return rng.choice(("Christmas", "Easter", "Thanksgiving", "Halloween", "New Year's",
                           "the Fourth of July", "Memorial Day", "Labor Day")), "DATE"
    if slot == "DATE":
        return gen("DATE", rng.choice(["3/14/2021", "3/14", "March 14, 2021", "03/14/21"]), rng, "en"), "DATE"
    if slot == "PHONE":
        return gen("PHONE", "555-123-4567", rng, "en"), "PHONE"
    raise KeyError(slot)


# --- conversational templates ---------------------------------------------------------------

# Speaker labels are filled in by ``_speakers``: {D} clinician, {P} patient, {R} relative.
CONV_TEMPLATES = [
    "{D} hi {FIRST} , how have you been ?",
    "{D} good morning mr. {SURNAME} , have a seat .",
    "{D} hello ms. {SURNAME} , i'm dr. {DOCTOR} , nice to meet you .",
    "{P} my name is {PATIENT} .",
    "{P} it's {PATIENT} , {FIRST} is fine .",
    "{P} everyone calls me {FIRST} .",
    "{P} my wife {RELATIVE} usually fills my pill box .",
    "{P} my husband {RELATIVE} drove me here today .",
    "{P} my daughter {RELATIVE} thinks i should get it checked .",
    "{P} my son {RELATIVE} lives with me now .",
    "{P} my mom {RELATIVE} had the same thing .",
    "{P} my dad {RELATIVE} passed from a heart attack .",
    "{P} my sister {RELATIVE} is a nurse so she checked it .",
    "{P} my neighbor {RELATIVE} takes me to my appointments .",
    "{P} my grandson {RELATIVE} set up the app for me .",
    "{R} this is {RELATIVE} , i'm her daughter .",
    "{R} hi , i'm {RELATIVE} , his wife .",
    "{D} the nurse , {STAFF} , will come in to draw blood .",
    "{D} {STAFF} at the front desk will schedule that .",
    "{P} nurse {STAFF} told me to come back .",
    "{D} i'll send a message to dr. {DOCTOR} about it .",
    "{P} dr. {DOCTOR} over at {HOSPITAL} did my surgery .",
    "{P} i saw someone at {CLINIC} last year .",
    "{P} i had my knee done at {HOSPITAL} in {YEAR} .",
    "{P} i live in {CITY} now , near my kids .",
    "{P} we moved here from {STATE} a few years ago .",
    "{P} i grew up in {CITY} , {STATE} .",
    "{P} i still live on {STREET} .",
    "{P} i work at {ORG} , mostly nights .",
    "{P} i'm retired , i used to work for {ORG} .",
    "{P} i go to the pharmacy on {STREET} .",
    "{P} i was in {CITY} visiting my daughter over {HOLIDAY} .",
    "{D} we'll see you back on the {ORD} .",
    "{D} your appointment is on {MDAY} at ten .",
    "{P} it started around {HOLIDAY} .",
    "{P} it started in {MONTH} , maybe the end of {MONTH} .",
    "{P} my last colonoscopy was in {YEAR} .",
    "{D} the scan you had on {MDAY} looked fine .",
    "{P} i was born on {MDAY} , {YEAR} .",
    "{P} you can call me at {PHONE} .",
    "{R} my number is {PHONE} if you need me .",
    "{D} we'll send the referral to {CLINIC} and they'll call you .",
    "{P} i go to church at {ORG} on sundays .",
    "{D} so {FIRST} , any questions before you go ?",
    "{P} thanks dr. {DOCTOR} .",
    "{D} okay mrs. {SURNAME} , we'll get you checked out .",
]

_SPEAKERS = [
    {"D": "[doctor]", "P": "[patient]", "R": "[patient_guest]"},
    {"D": "Doctor:", "P": "Patient:", "R": "Daughter:"},
    {"D": "doctor", "P": "patient", "R": "wife"},
    {"D": "Dr:", "P": "Pt:", "R": "Family:"},
    {"D": "doc", "P": "pt", "R": "son"},
    {"D": "Clinician:", "P": "Client:", "R": "Husband:"},
    {"D": "", "P": "", "R": ""},
]

_SLOT = re.compile(r"\{([A-Z]+)\}")


def fill_conversational(template: str, rng: random.Random, gen: Generator, speakers: dict[str, str],
                        lower: bool) -> Example:
    parts: list[str] = []
    spans: list[Span] = []
    out = pos = 0
    for m in _SLOT.finditer(template):
        lit = template[pos : m.start()]
        parts.append(lit)
        out += len(lit)
        slot = m.group(1)
        if slot in ("D", "P", "R"):
            val, label = speakers[slot], None
            if not val:  # no speaker label: drop the following space too
                pos = m.end() + 1 if template[m.end() : m.end() + 1] == " " else m.end()
                continue
        else:
            val, label = _value(slot, rng, gen)
            val = _cased(val.replace("\n", " "), lower)
        parts.append(val)
        if label:
            spans.append(Span(out, out + len(val), label, "template"))
        out += len(val)
        pos = m.end()
    parts.append(template[pos:])
    return Example("".join(parts), spans, "conversation", origin="conversation")


def conversation_examples(rng: random.Random, gen: Generator, n: int,
                          pool: list[Example] | None = None) -> list[Example]:
    """``n`` short synthetic exchanges of 1-3 templated turns, in one speaker style,
    lower case 60 % of the time, punctuation stripped 25 % of the time; with a
    ``pool`` of real passages, the turns are set among real lines (so PHI stays
    as sparse as in real conversations)."""
    out = []
    for _ in range(n):
        speakers = rng.choice(_SPEAKERS)
        lower = rng.random() < 0.6
        turns = [fill_conversational(rng.choice(CONV_TEMPLATES), rng, gen, speakers, lower)
                 for _ in range(rng.randint(1, 3))]
        if pool:
            host = rng.choice(pool)
            if lower:
                host = case_variant(host, "lower")
            turns.insert(rng.randint(0, len(turns)), host)
        ex = turns[0]
        for t in turns[1:]:
            ex = _concat(ex, t, "\n")
        if rng.random() < 0.25:
            ex = strip_punctuation(ex)
        out.append(Example(ex.text, ex.spans, "conversation", origin="conversation"))
    return out


# --- context injection into real passages -----------------------------------------------

_REL = (r"wife|husband|son|daughter|mom|mother|mum|dad|father|sister|brother|grandson|granddaughter|"
        r"grandmother|grandfather|grandma|grandpa|partner|niece|nephew|aunt|uncle|friend|neighbor|"
        r"neighbour|boyfriend|girlfriend|fiance|fiancee|stepson|stepdaughter|cousin|caregiver")
_INJECT = [
    # (regex whose end is the insertion point, slot, probability, format)
    (re.compile(rf"\b(?:my|his|her|your|their|our)\s+(?:{_REL})\b(?!\s*(?:'s|,\s*\w+,))", re.I), "RELATIVE", 0.45, " {}"),
    (re.compile(r"(?m)^\s*(?:\[doctor\]|doctor:?|dr:)\s*(?:hi|hello|hey|good morning|good afternoon)\b", re.I),
     "GREETING", 0.7, " {}"),
    (re.compile(r"\b(?:the|my|a)\s+nurse\b(?!\s+(?:practitioner|will|is|was|told|said|who))", re.I), "STAFF", 0.4, " {}"),
    (re.compile(r"\b(?:i|we)\s+(?:live|lived|grew up|was born|moved here|moved)\b(?!\s+(?:in|to|from|on|at|with|alone))", re.I),
     "PLACE", 0.5, " {}"),
    (re.compile(r"\b(?:see you back|follow up|come back|see you)\b(?!\s+(?:in|on|with|for|at))", re.I), "WHEN", 0.35, " {}"),
    (re.compile(r"\bwent to the (?:er|emergency room|emergency department|hospital|urgent care)\b(?!\s+at)", re.I),
     "ATHOSP", 0.6, " {}"),
]


def _inject_value(kind: str, rng: random.Random, gen: Generator) -> tuple[str, str, str, str]:
    """(prefix, value, suffix, label) for an injection kind."""
    if kind == "RELATIVE":
        v, lab = _value("RELATIVE", rng, gen)
        return ("", v, "", lab) if rng.random() < 0.7 else (",", " " + v, ",", lab)
    if kind == "GREETING":
        r = rng.random()
        if r < 0.5:
            v, lab = _value("FIRST", rng, gen)
            return (" ," if rng.random() < 0.5 else ",", " " + v, "", lab)
        title = rng.choice(("mr.", "mrs.", "ms.", "mr", "miss"))
        v, lab = _value("SURNAME", rng, gen)
        return (f" {title}", " " + v, "", lab)
    if kind == "STAFF":
        v, lab = _value("STAFF", rng, gen)
        return ("", v, "", lab)
    if kind == "PLACE":
        slot = rng.choice(("CITY", "CITY", "STATE"))
        v, lab = _value(slot, rng, gen)
        return (rng.choice(("in", "in", "near", "outside")), " " + v, "", lab)
    if kind == "WHEN":
        slot = rng.choice(("ORD", "MDAY", "MONTH"))
        v, lab = _value(slot, rng, gen)
        pre = {"ORD": "on the", "MDAY": "on", "MONTH": "in"}[slot]
        return (pre, " " + v, "", lab)
    if kind == "ATHOSP":
        v, lab = _value(rng.choice(("HOSPITAL", "CLINIC")), rng, gen)
        return ("at", " " + v, "", lab)
    raise KeyError(kind)


def inject_context(ex: Example, rng: random.Random, gen: Generator) -> Example:
    """Insert surrogate PHI after cue phrases of the real text (spans shifted)."""
    lower = sum(c.islower() for c in ex.text) > 0.95 * max(1, sum(c.isalpha() for c in ex.text))
    cuts: list[tuple[int, str, int, int, str]] = []  # (pos, insert text, span start in insert, end, label)
    taken = [(s.start, s.end) for s in ex.spans]
    for rx, kind, p, _ in _INJECT:
        for m in rx.finditer(ex.text):
            pos = m.end()
            if rng.random() >= p or any(a <= pos < b + 2 for a, b in taken):
                continue
            pre, val, suf, label = _inject_value(kind, rng, gen)
            val = _cased(val, lower)
            if pre and not pre.startswith((",", " ")):
                pre = " " + pre
            elif not pre and not val.startswith(" "):
                val = " " + val
            vs = len(pre) + (len(val) - len(val.lstrip()))
            ins = pre + val + suf
            cuts.append((pos, ins, vs, len(pre) + len(val), label))
    if not cuts:
        return ex
    cuts.sort()
    text, spans = ex.text, list(ex.spans)
    shift = 0
    out_parts, new_spans, last = [], [], 0
    for pos, ins, vs, ve, label in cuts:
        if pos < last:
            continue
        out_parts.append(text[last:pos])
        base = pos + shift
        out_parts.append(ins)
        new_spans.append(Span(base + vs, base + ve, label, "inject"))
        shift += len(ins)
        last = pos
    out_parts.append(text[last:])

    def moved(x: int) -> int:
        return x + sum(len(ins) for pos, ins, *_ in cuts if pos <= x)

    for s in spans:
        new_spans.append(Span(moved(s.start), moved(s.end - 1) + 1, s.label, s.source))
    new_spans.sort(key=lambda s: (s.start, s.end))
    return Example("".join(out_parts), new_spans, ex.name, origin=ex.origin + "+inject")


# --- speech-style variant --------------------------------------------------------------------

_PUNCT = set(".,?!;:\"()")
_SPEAKER_LINE = re.compile(r"(?m)^(\[(?:doctor|patient|patient_guest)\]|(?:Doctor|Patient|Guest_family|"
                           r"Guest_clinician):)")


def strip_punctuation(ex: Example) -> Example:
    """Lower-case, punctuation outside spans removed, spaces collapsed; spans remapped."""
    inside = bytearray(len(ex.text))
    for s in ex.spans:
        inside[s.start : s.end] = b"\x01" * s.length
    keep: list[int] = []
    out: list[str] = []
    for i, c in enumerate(ex.text):
        if c in _PUNCT and not inside[i]:
            continue
        if c == " " and out and out[-1] in " \n":
            continue
        if c == "\n" and out and out[-1] == " ":
            out.pop()
            keep.pop()
        out.append(c.lower() if len(c.lower()) == 1 else c)
        keep.append(i)
    new_index = {old: new for new, old in enumerate(keep)}
    spans = []
    for s in ex.spans:
        a = new_index.get(s.start)
        b = new_index.get(s.end - 1)
        if a is None or b is None:
            continue
        spans.append(Span(a, b + 1, s.label, s.source))
    return Example("".join(out), spans, ex.name, origin=ex.origin + "+asr")


def restyle_speakers(ex: Example, rng: random.Random) -> Example:
    """Rewrite the dataset's speaker labels (``[doctor]``, ``Doctor:``) to another style."""
    style = rng.choice(_SPEAKERS)
    mapping = {"doctor": style["D"], "patient": style["P"], "patient_guest": style["R"],
               "guest_family": style["R"], "guest_clinician": style["D"]}
    parts, spans_shift, last = [], [], 0
    for m in _SPEAKER_LINE.finditer(ex.text):
        key = m.group(1).strip("[]:").lower()
        new = mapping.get(key, m.group(1))
        parts.append(ex.text[last : m.start()])
        parts.append(new)
        spans_shift.append((m.end(), len(new) - (m.end() - m.start())))
        last = m.end()
    if not spans_shift:
        return ex
    parts.append(ex.text[last:])

    def moved(x: int) -> int:
        return x + sum(d for end, d in spans_shift if end <= x)

    spans = [Span(moved(s.start), moved(s.start) + s.length, s.label, s.source) for s in ex.spans]
    return Example("".join(parts), spans, ex.name, origin=ex.origin)


# --- the recipe -----------------------------------------------------------------------------

# Numbers that are not PHI in a visit passage: doses, durations, counts, scores, times, vitals.
_SAFE_NUMBER = re.compile(
    r"\d+(?:[.,]\d+)?\s*(?:-|to)?\s*\d*(?:[.,]\d+)?\s*(?:mg|mcg|ml|cc|units?|iu|%|percent|days?|weeks?|months?|"
    r"years?|yrs?|hours?|hrs?|minutes?|mins?|seconds?|times|x|pounds?|lbs?|kg|g|grams?|cm|mm|inches|feet|ft|"
    r"miles?|mmhg|bpm|beats|breaths|degrees?|liters?|l|cups?|glasses|drinks?|cigarettes|packs?|pills?|tablets?|"
    r"puffs?|doses?|sessions?|visits?|episodes?|steps|floors|blocks|out of \d+|/\s*10|/\s*day|a day|per day)\b"
    r"|\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?|\d{1,2}\s*[ap]\.?m\.?\b"
    r"|\b(?:grade|day|level|stage|type|step|number|round|phase|class|size|score|of|over|bp|a1c|hr|rate)\s+\d+(?:\.\d+)?\b"
    r"|\b\d+\.\d+\b|\b\d{2,3}/\d{2,3}\b(?=\s*(?:mmhg|blood pressure|bp))",
    re.I)


def _clean(text: str, spans: Iterable[Span]) -> bool:
    """True when every digit is inside a silver span or a number that is clearly not
    PHI (a dose, duration, count, score, time): the passage then teaches both."""
    covered = bytearray(len(text))
    for s in spans:
        covered[s.start : s.end] = b"\x01" * s.length
    for m in _SAFE_NUMBER.finditer(text):
        covered[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
    return all(covered[i] for i, c in enumerate(text) if c.isdigit())


def visit_note_examples_v2(folder, rng: random.Random, gen: Generator | None = None,
                           max_passages: int = 2000, n_conversations: int = 600,
                           n_templates: int = 700) -> list[Example]:
    """Recipe 2: wide-silver passages with context injection and speech-style
    variants, synthetic conversations, plus recipe 1's templated sentences."""
    from .augment import _TEMPLATES, fill_template

    gen = gen or get_generator()
    passages: list[Example] = []
    for text, names in visit_note_texts(folder):
        for a, b in _passages(text):
            chunk = text[a:b]
            spans = wide_silver_spans(chunk, names)
            if _clean(chunk, spans):
                passages.append(Example(chunk, spans, "visit", origin="visit-notes"))
    rng.shuffle(passages)
    out: list[Example] = []
    for ex in passages[:max_passages]:
        if rng.random() < 0.8:
            ex = inject_context(ex, rng, gen)
        if ex.spans and rng.random() < 0.5:
            ex = swap_surrogates(ex, rng, "en", gen)
        is_dialogue = bool(_SPEAKER_LINE.search(ex.text))
        if is_dialogue and rng.random() < 0.5:
            ex = restyle_speakers(ex, rng)
        r = rng.random()
        if is_dialogue and r < 0.25:
            ex = strip_punctuation(ex)
        elif r < 0.4:
            ex = case_variant(ex, "lower")
        elif r < 0.5:
            ex = case_variant(ex, "upper")
        out.append(ex)
    pool = [p for p in passages[max_passages:] if len(p.text) < 600] or passages
    out.extend(conversation_examples(rng, gen, n_conversations, pool))
    for _ in range(n_templates):
        t = fill_template(rng.choice(_TEMPLATES), rng, gen)
        mode = rng.random()
        if mode < 0.3:
            t = case_variant(t, "lower")
        elif mode < 0.45:
            t = case_variant(t, "upper")
        out.append(t)
    return out
