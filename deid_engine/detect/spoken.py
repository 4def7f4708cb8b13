"""Identifiers said aloud: what speech-to-text makes of phone numbers, IDs, e-mail addresses
and house numbers in visit transcripts.

A dictated transcript writes ``six one two five five five zero one three eight`` where a
note would have ``612-555-0138``, ``ewa point k at example dot net`` for an e-mail address,
``eleven forty two cedar lane`` for a street address. None of the digit-shaped patterns
can see these. This module finds them (English only):

- **digit runs** (:func:`digit_runs`): five or more digits read one by one (``zero``/``oh``
  .. ``nine``, ``double five``, digit strings mixed in, two-digit words once the run is
  under way), with a spelled prefix right after ``is``/``number``/``id`` (``hx four four
  seven ...``) and one or two spelled letters at the end (``... seven one w a``). The label
  comes from the nearest cue before the run on its line or the line before (``member id``
  -> HEALTHPLAN, ``serial`` -> DEVICE, ``zip`` -> ZIP, ``number``/``call`` -> PHONE ...);
  with no cue, 7, 10 or 11 digits are a phone number, 5 digits after a state name a ZIP
  code, anything else an IDNUM. Counting (``one two three four five``) and digit-span
  tests (``repeat after me``, ``backwards``) are not identifiers.
- **e-mail addresses** (:func:`emails`): ``name dot name at domain dot com``.
- **house numbers in words** (:func:`streets`): up to four number words, one or two
  name words and a street type, with an apartment or unit after it.
- **names spelled out** (:func:`spelled_names`): ``keogh k e o g h``: a run of single letters
  that spells a word said just before it (on the line or the one before); both are a name,
  unless the word is a drug or a medical term.
- **codes spelled letter by letter** (:func:`spelled_codes`): a number plate after a vehicle
  cue (``his plate was eight k q l two zero nine``, ``is this your car c x oh nine f g h``) and
  a British postcode by its shape (``e h six five d p``); a name spelled in reply to "spell the
  surname" (:func:`spelled_replies`).
- **names spoken to** (:func:`vocative_names`): ``clinician: dafydd what did you do``, ``hello
  ivy how are you``: a name in the slot of address, after a greeting or opening a turn and before
  a question or the end of the turn.
- **where someone comes from** (:func:`origins`), in lower-case speech: a word no dictionary
  knows after ``came from``, ``born in``, ``grew up in``, ``flying in from`` is a town
  (``came from lviv``), and a listed country after it (``lviv in ukraine``).

Every span's source is ``pattern:spoken_*``; the pattern detector calls :func:`find`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..types import Span
from .textstats import count_alpha, count_upper

_DIGIT_WORDS = {"zero": 0, "oh": 0, "o": 0, "nought": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                "six": 6, "seven": 7, "eight": 8, "nine": 9}
_TEEN_TENS = {"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
              "nineteen", "twenty", "thirty", "forty", "fourty", "fifty", "sixty", "seventy", "eighty", "ninety"}
_UNITS_AFTER_TENS = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
_REPEAT = {"double": 2, "triple": 3}
# words that are never a spelled prefix of an identifier
_NOT_PREFIX = frozenset(
    "a an and are as at be by do for go he her him his i if in is it its me my no nor not of oh ok on or our "
    "she so the to up us was we you your yes yeah um uh er ah".split())
_NOT_LETTER = frozenset({"a", "i", "o"})  # first spelled letter after a run: never an article or a pronoun

_TOKEN = regex.compile(r"[a-z]+|\d+")
_SPAN_TEST = regex.compile(r"\b(?:(?<!\b(?:a|for|the|your|another|next|monthly|weekly)[ \t])repeat\b(?![ \t]+(?:prescriptions?|"
                           r"scripts?|bloods?|tests?|scans?|x-?rays?|ecgs?|visits?|appointments?|in|of|for|we|and|"
                           r"then|next|dose))|backwards?|digit|digits|count(?:ing)?|say\s+these|remember\s+these|"
                           r"numbers?\s+after\s+me|serial\s+sevens?)\b")

# label cues, searched backwards from the run; the nearest one wins
_CUES: tuple[tuple[str, str], ...] = (
    ("HEALTHPLAN", r"member|policy|insurance|insurer|medicaid|medicare|health\s+(?:number|card|plan|id)|"
                   r"nhs(?:\s+number)?|subscriber|group\s+number|ohip|beneficiary|plan\s+id|"
                   # national health numbers: New Zealand NHI, Scottish CHI, Irish PPS/GMS, Canadian cards
                   r"nhi|chi(?:\s+number)|gms|medical\s+card|health\s+insurance|phn|ramq|msp|ahcip|care\s+card"),
    ("MEDICALRECORD", r"mrn|medical\s+record|chart\s+number|hospital\s+number|record\s+number|"
                      r"patient\s+(?:number|id)|unit\s+number"),
    ("DEVICE", r"serial|device\s+(?:number|id)|model\s+number|lot\s+number"),
    ("SSN", r"social\s+security|ssn|social"),
    ("ZIP", r"zip(?:\s+code)?|post\s*code|postal\s+code|eircode"),
    ("FAX", r"fax"),
    ("LICENSE", r"licen[cs]e|npi|dea\s+number|provider\s+number"),
    ("VEHICLE", r"plate|registration|reg\s+number"),
    ("ACCOUNT", r"account|claim|reference|confirmation|case\s+number|visit\s+number|encounter|invoice|booking"),
    ("PHONE", r"phone|number|call|calls|reach|cell|mobile|landline|text|ring|contact|extension|whatsapp|pager"),
)
# a specific cue takes the word "number" after it ("serial number", "policy number id")
_CUE_RE = regex.compile("|".join(
    rf"(?P<{lab}>\b(?:{rx})\b" + (r"(?:\s+(?:number|no|id|num|code)\b)*)" if lab != "PHONE" else ")")
    for lab, rx in _CUES))


@lru_cache(maxsize=1)
def _states() -> frozenset[str]:
    from ..lexicons import load_lexicon

    try:
        return frozenset(s.casefold() for s in load_lexicon("states_us"))
    except KeyError:
        return frozenset()


def find(text: str) -> list[Span]:
    """Every spoken identifier of ``text`` (English)."""
    low = text.lower()
    out = digit_runs(text, low) + emails(text, low) + streets(text, low) + origins(text, low) + \
        spelled_names(text, low) + rooms(text, low) + titled_names(text, low) + postcodes(text, low) + \
        insurers(text, low) + farewell_names(text, low) + spelled_replies(text, low)
    if _speech_case(text):  # the rules below only take lower-case speech
        out += spelled_codes(text, low) + vocative_names(text, low) + repeated_names(text, low) + facilities(text, low) + \
            staff_and_bed_names(text, low) + subject_names(text, low) + people_in_passing(text, low) + \
            bare_given_names(text, low) + teams_and_workplaces(text, low)
    return out


def _speech_case(text: str) -> bool:
    """Text written as speech-to-text writes it: (almost) no capital letters in its first 4,000 characters."""
    head = text[:4000]
    return count_upper(head) <= 0.03 * max(1, count_alpha(head))


# --- the name that closes a turn after a farewell: "see you in three months walt", "thank you so much destiny" ----

_FAREWELL = re.compile(r"\b(?P<cue>see[ \t]+you(?:[ \t]+\w+){0,4}?|take[ \t]+care(?:[ \t]+now)?|thanks[ \t]+so[ \t]+much|"
                       r"thank[ \t]+you[ \t]+so[ \t]+much|bye[ \t]+now|bye[ \t]+bye|all[ \t]+the[ \t]+best|good[ \t]+luck|"
                       r"look[ \t]+after[ \t]+yourself)[ \t,]+(?P<n>[a-z][a-z'’-]{2,})(?=[ \t]*(?:[.!?]|$|\[|\n))",
                       re.MULTILINE)


@lru_cache(maxsize=1)
def _given_names() -> tuple[frozenset[str], frozenset[str]]:
    """(all listed given names, the frequent ones)."""
    from ..lexicons import load_lexicon

    try:
        names = [x.casefold() for x in load_lexicon("first_names_en")]
    except KeyError:
        return frozenset(), frozenset()
    try:
        world = [x.casefold() for x in load_lexicon("first_names_world")]
    except KeyError:
        world = []
    return frozenset(names) | frozenset(world), frozenset(names[:3000])


_NOT_FAREWELL_NAMES = frozenset("""january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday love dear darling honey sweetheart mate pal buddy son
doctor doc nurse sir madam""".split())


def farewell_names(text: str, low: str | None = None) -> list[Span]:
    """Lower-case speech only. A listed given name that no dictionary holds is taken after any of the
    farewells; a given name that is also a word (``destiny``, ``grace``) only right after the farewell
    and only when it is a frequent name."""
    low = text.lower() if low is None else low
    if not any(w in low for w in ("see you", "take care", "so much", "bye", "the best", "good luck", "look after")):
        return []
    out = []
    names, frequent = _given_names()
    dictionary = None
    for m in _FAREWELL.finditer(low):
        a, b = m.start("n"), m.end("n")
        if not text[a:b].islower():
            continue  # capitalised text: the tagger's and the name lists' job
        w = m.group("n").strip("'’-")
        if w not in names or w in _NOT_FAREWELL_NAMES:
            continue
        if dictionary is None:
            dictionary = _places()[0]
        if w in dictionary and (w not in frequent or m.group("cue").startswith("see") or w in _medical_words()):
            continue  # a word that is also a name: only right after "thank you so much", "take care", "bye now"
        out.append(Span(a, b, "PATIENT", "pattern:spoken_farewell", 0.7))
    return out


# --- postcodes read aloud: "the eircode here f ninety four k two x seven", "maidstone vic three zero one two" --------

_PC_TOKEN = (r"(?:[a-z]|zero|oh|nought|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
             r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|\d{1,3})")
_PC_CUED = re.compile(rf"\b(?:eircode|postcode|post[ \t]+code|postal[ \t]+code|zip(?:[ \t]+code)?)\b[^\n.?!]{{0,25}}?"
                      rf"(?:\n[ \t]*(?:\[[^\]\n]{{1,20}}\][ \t]*:?|[a-z][a-z ]{{0,15}}:)?[ \t]*)?"
                      rf"(?<![a-z])(?P<z>{_PC_TOKEN}(?:[ \t]+{_PC_TOKEN}){{3,9}})(?![a-z'])")
_PC_STATE = re.compile(r"\b(?:(?P<c>[a-z]{4,})[ \t]+)?(?P<s>vic|nsw|qld|tas|act)[ \t]+"
                       r"(?P<z>(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)(?:[ \t]+(?:zero|oh|one|two|three|four|"
                       r"five|six|seven|eight|nine)){3})\b(?![ \t]+(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b)")
_PC_STOP = frozenset({"a", "i", "o"})


def postcodes(text: str, low: str | None = None) -> list[Span]:
    low = text.lower() if low is None else low
    out: list[Span] = []
    if any(c in low for c in ("eircode", "postcode", "post code", "postal code", "zip")):
        for m in _PC_CUED.finditer(low):
            toks = m.group("z").split()
            # the code ends at its last letter or number word; an article or "i" after the cue is not part of it
            while toks and toks[0] in _PC_STOP:
                toks.pop(0)
            letters = sum(1 for t in toks if len(t) == 1 and t.isalpha())
            digits = len(toks) - letters
            if len(toks) < 4 or digits < 2 or letters == 0:
                continue  # spoken digits alone: the digit-run detector's job
            a = low.index(toks[0], m.start("z"))
            b = m.end("z")
            out.append(Span(a, b, "ZIP", "pattern:spoken_postcode", 0.8))
    if any(f" {w} " in low for w in ("vic", "nsw", "qld", "tas", "act")):
        for m in _PC_STATE.finditer(low):
            out.append(Span(m.start("z"), m.end("z"), "ZIP", "pattern:spoken_postcode", 0.8))
            out.append(Span(m.start("s"), m.end("s"), "STATE", "pattern:spoken_postcode", 0.75))
            c = m.group("c")
            if c:
                dictionary, _, _ = _places()
                if c not in dictionary:
                    out.append(Span(m.start("c"), m.end("c"), "CITY", "pattern:spoken_postcode", 0.7))
    return out


# --- insurers named in speech: "is it still gateway kids health plan", "the medical aid still umoya health" ------

_INSURER = re.compile(r"\b(?:(?:insurance|insurer|medical[ \t]+aid|health[ \t]+(?:cover|insurance)|coverage|cover)"
                      r"(?:[ \t]+(?:card|plan|company|provider))?(?:[ \t]+(?:yeah|yes|yep|um|uh))?|covered[ \t]+by)[ \t]+"
                      r"(?:is[ \t]+|was[ \t]+|its[ \t]+|it's[ \t]+)?(?:it[ \t]+)?(?:still[ \t]+)?(?:with[ \t]+|through[ \t]+)?"
                      r"(?P<o>(?:[a-z][a-z'’-]*[ \t]+){1,3}?(?:health[ \t]+plan|healthplan|healthcare|health|insurance|mutual|"
                      r"assurance|medical|cross|shield|care|hmo|ppo))\b"
                      r"|\b(?:we|i|they|he|she)[ \t]+(?:have|got|are[ \t]+on|are[ \t]+with|am[ \t]+with|is[ \t]+with)[ \t]+"
                      r"(?P<o3>(?:[a-z][a-z'’-]*[ \t]+){1,3}?(?:health[ \t]+plan|health|insurance|mutual|assurance|care))"
                      r"[ \t]+through[ \t]+(?:my|his|her|our|their|the|work)\b"
                      r"|\b(?P<o2>(?:[a-z][a-z'’-]*[ \t]+){1,2}?(?:health[ \t]+plan|health|insurance|mutual|assurance))"
                      r"[ \t]+(?:denied|declined|rejected|approved|refused)\b")
_NOT_INSURER_START = frozenset({"because", "cos", "so", "and", "but", "if", "when", "while", "two", "three", "four",
                                "five", "six", "some", "all", "both",
                                "the", "a", "an", "my", "your", "his", "her", "our", "their", "public", "private",
                                "national", "state", "medicare", "medicaid", "nhs", "va", "no", "any", "some", "still",
                                "it", "is", "with", "through", "mental", "good", "bad", "home", "primary", "community",
                                "she", "he", "i", "we", "they", "you", "has", "have", "had", "travel", "health", "dental",
                                "life", "car", "auto"})


def insurers(text: str, low: str | None = None) -> list[Span]:
    low = text.lower() if low is None else low
    if not any(w in low for w in ("insurance", "insurer", "medical aid", "cover", "denied", "declined", "rejected",
                                  "approved", "refused", "through")):
        return []
    out: list[Span] = []
    for m in _INSURER.finditer(low):
        g = "o" if m.group("o") else "o3" if m.group("o3") else "o2"
        a, b = m.start(g), m.end(g)
        first = low[a:b].split()[0]
        if first in ("from", "via", "by") and len(low[a:b].split()) > 1:
            a = low.index(low[a:b].split()[1], a + len(first))  # "insurance from bharti axa": the name after "from"
            first = low[a:b].split()[0]
        if first in _NOT_INSURER_START:
            continue
        if not text[a:b].islower():
            continue  # capitalised names: the organisation rules' and the tagger's job
        out.append(Span(a, b, "ORGANIZATION", "pattern:spoken_insurer", 0.7))
    return out


# --- "mister quadri", "miss glo": a surname no dictionary knows after a spoken title (lower-case speech) ---------

_MISSED_THING = re.compile(r"[ \t]+(?:dose|doses|meds|medication|medications|tablets?|pills?|appointments?|appt|shot|"
                           r"injection|infusion|session|class|bus|train|flight|dialysis|feed|feeds)\b")
_TITLED = re.compile(r"\b(?:mister|mr|mrs|missus|ms|miss)\.?[ \t]+(?P<n>[a-z][a-z'’-]{2,})\b")


# derivational endings of English and medical words that names (beyond the name lists) do not have
DERIVED_WORD = re.compile(r"(?:gram|graphy|scopy|ectomy|otomy|ostomy|plasty|itis|osis|aemia|emia|algia|ology|"
                              r"ologist|pathy|ical|ial|ious|eous|ative|itive|ness|ments?|ization|isation|health|"
                              r"factorial|ectal|ular)$")


def titled_names(text: str, low: str | None = None) -> list[Span]:
    low = text.lower() if low is None else low
    if not any(t in low for t in ("mister ", "mr ", "mrs ", "missus ", "ms ", "miss ")):
        return []
    out = []
    for m in _TITLED.finditer(low):
        if not text[m.start("n")].islower():
            continue  # capitalised: the tagger's and the name lists' job
        if _MISSED_THING.match(low, m.end("n")):
            continue  # "miss tonights dose", "miss todays appointment": the verb, not the title
        dictionary, _, _ = _places()
        w = m.group("n").strip("'’-")
        if w in dictionary or w in _medical_words():
            continue
        if len(w) >= 7 and DERIVED_WORD.search(w) and w not in _given_names()[0] and w not in _surnames():
            continue  # "mr arthrogram", "mr enterography": magnetic resonance, not a title
        out.append(Span(m.start("n"), m.end("n"), "PATIENT", "pattern:spoken_titled", 0.7))
    return out


# --- room and bed numbers in words: "room six fourteen", "bed twelve" ------------------------------------

_ROOM_NUM = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
             r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|oh)")
_ROOM = re.compile(rf"\b(?:room|rm|bed|bay|cubicle|(?<=in[ \t])chair)[ \t]+(?:number[ \t]+)?(?P<n>{_ROOM_NUM}(?:[ \t]+{_ROOM_NUM}){{0,2}})"
                   rf"(?:[ \t]+(?P<l>[a-h])(?![\w'’]))?\b")


def rooms(text: str, low: str | None = None) -> list[Span]:
    low = text.lower() if low is None else low
    out = []
    for m in _ROOM.finditer(low):
        end = m.end("l") if m.group("l") else m.end("n")
        out.append(Span(m.start("n"), end, "LOCATION_OTHER", "pattern:spoken_room", 0.75))
    return out


# --- digit runs --------------------------------------------------------------------------------

# candidate stretches: three or more digit words (or digit strings) in a row; only these are walked
_DW = r"(?:zero|oh|o|nought|one|two|three|four|five|six|seven|eight|nine|double|triple|\d{1,4})"
_CANDIDATE = re.compile(rf"\b{_DW}(?:[ \t,-]{{1,3}}{_DW}\b){{2,}}")


def digit_runs(text: str, low: str | None = None) -> list[Span]:
    low = text.lower() if low is None else low
    out: list[Span] = []
    last_end = -1
    for c in _CANDIDATE.finditer(low):
        if c.start() < last_end:
            continue
        # the stretch plus a word before (a spelled prefix) and a few after (letters, two-digit words)
        a = c.start()
        for _ in range(4):  # up to four words before: spelled letters ("j k w") and their cue
            a = max(0, low.rfind(" ", 0, max(0, a - 1)))
        b = min(len(low), c.end() + 40)
        for sp in _digit_runs_in(low, a, b):
            if sp.start >= c.start() - 6 or sp.end > c.start():
                out.append(sp)
                last_end = max(last_end, sp.end)
    return sorted(set(out), key=lambda x: (x.start, x.end))


def _digit_runs_in(low: str, a: int, b: int) -> list[Span]:
    toks = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(low, a, b)]
    out: list[Span] = []
    i, n = 0, len(toks)
    while i < n:
        j, digits, values = _run(toks, i, low)
        if digits < 4 or sum(not toks[k][2].isdigit() for k in range(i, j)) < 3:  # digit strings: the patterns
            i += 1
            continue
        start, end = toks[i][0], toks[j - 1][1]
        if digits == 4:
            # four digits are an identifier only after letters spelled one by one and a cue naming it:
            # "your nhi here j k w four four nine two" (not "four four nine two" alone: a PIN, a count)
            k = i
            while k > 0 and len(toks[k - 1][2]) == 1 and toks[k - 1][2].isalpha() \
                    and _gap_ok(low, toks[k - 1][1], toks[k][0]):
                k -= 1
            if i - k < 2 or _label(low, toks[k][0], digits) in ("PHONE", "ZIP") or _counting(values):
                i += 1
                continue
            out.append(Span(toks[k][0], toks[j - 1][1], _label(low, toks[k][0], digits), "pattern:spoken_digits", 0.8))
            i = j
            continue
        if "".join(str(v) for v in values) in _SERVICE_NUMBERS_SPOKEN:
            i = j
            continue  # "text shout on eight five two five eight": a public crisis line, no one's number
        if not _counting(values) and not _span_test(low, start):
            a = _prefix(toks, i, low)
            b = _suffix(toks, j, low)
            s = toks[a][0]
            e = toks[b - 1][1]
            label = _label(low, s, digits)
            out.append(Span(s, e, label, "pattern:spoken_digits", 0.85))
        i = j
    return out


# public help lines said aloud (Shout 85258, Crisis Text Line 741741, Samaritans 116123, Lifeline 131114,
# Childline 0800 1111, Kids Helpline 1800 55 1800): never PHI
_SERVICE_NUMBERS_SPOKEN = frozenset({"85258", "741741", "116123", "131114", "08001111", "1800551800", "988", "911",
                                     "999", "111", "112", "000", "211", "311", "411", "811"})


def _gap_ok(low: str, a: int, b: int) -> bool:
    """The characters between two tokens of a run: spaces, commas or hyphens on one line."""
    gap = low[a:b]
    return len(gap) <= 3 and all(c in " \t,-" for c in gap)


def _run(toks, i: int, low: str) -> tuple[int, int, list[int]]:
    """(end index, digit count, digit values) of the run starting at token ``i``."""
    digits, values, j, n = 0, [], i, len(toks)
    while j < n:
        if j > i and not _gap_ok(low, toks[j - 1][1], toks[j][0]):
            break
        w = toks[j][2]
        if w in _DIGIT_WORDS:
            digits += 1
            values.append(_DIGIT_WORDS[w])
            j += 1
        elif w.isdigit() and len(w) <= 4:
            digits += len(w)
            values.extend(int(c) for c in w)
            j += 1
        elif w in _REPEAT and j + 1 < n and toks[j + 1][2] in _DIGIT_WORDS and _gap_ok(low, toks[j][1], toks[j + 1][0]):
            k = _REPEAT[w]
            digits += k
            values.extend([_DIGIT_WORDS[toks[j + 1][2]]] * k)
            j += 2
        elif w in _TEEN_TENS and digits >= 3:  # "five five five oh one nineteen"
            digits += 2
            values.extend([-1, -1])
            j += 1
            if w not in ("ten", "eleven", "twelve") and not w.endswith("teen") and j < n and \
                    toks[j][2] in _UNITS_AFTER_TENS and _gap_ok(low, toks[j - 1][1], toks[j][0]):
                j += 1  # "forty two": one two-digit group
        else:
            break
    return j, digits, values


def _counting(values: list[int]) -> bool:
    """``one two three four five`` or ``five four three two one``: counting, not a number."""
    steps = {b - a for a, b in zip(values, values[1:])}
    return steps in ({1}, {-1})


def _span_test(low: str, start: int) -> bool:
    """A digit-span or counting test is going on (the run is read out for the patient to repeat)."""
    line_start = low.rfind("\n", 0, max(0, low.rfind("\n", 0, start)))
    return _SPAN_TEST.search(low, max(0, line_start, start - 160), start) is not None


def _prefix(toks, i: int, low: str) -> int:
    """Index of the first token, taking in a spelled prefix (``hx``, ``pjn``) right after
    ``is``/``number``/``id``/``no``/``#``."""
    if i == 0:
        return i
    ps, pe, w = toks[i - 1]
    if not _gap_ok(low, pe, toks[i][0]) or not w.isalpha() or len(w) > 4 or w in _NOT_PREFIX:
        return i
    if w in _DIGIT_WORDS or w in _TEEN_TENS:
        return i
    before = low[max(0, ps - 12):ps]
    if regex.search(r"(?:\bis|\bnumber|\bid|\bno|#|\bcode|\bnum)[ \t:]*$", before):
        return i - 1
    return i


def _suffix(toks, j: int, low: str) -> int:
    """End index, taking in one or two spelled letters after the run (``... one w a``)."""
    n = len(toks)
    if j < n and len(toks[j][2]) == 1 and toks[j][2].isalpha() and toks[j][2] not in _NOT_LETTER \
            and _gap_ok(low, toks[j - 1][1], toks[j][0]):
        j += 1
        if j < n and len(toks[j][2]) == 1 and toks[j][2].isalpha() and _gap_ok(low, toks[j - 1][1], toks[j][0]):
            # a second letter, unless it is the article before a word ("... c a lot")
            if toks[j][2] not in ("a", "i") or j + 1 >= n or not _gap_ok(low, toks[j][1], toks[j + 1][0]) \
                    or len(toks[j + 1][2]) < 3:
                j += 1
    return j


def _label(low: str, start: int, digits: int) -> str:
    line_start = low.rfind("\n", 0, start)
    prev_start = low.rfind("\n", 0, max(0, line_start))
    window_start = max(0, prev_start + 1, start - 200)
    best, best_pos = None, -1
    for m in _CUE_RE.finditer(low, window_start, start):
        if m.start() > best_pos:
            best, best_pos = m.lastgroup, m.start()
    if best is not None:
        return best
    if digits in (7, 10, 11):
        return "PHONE"
    if digits in (5, 9) and _after_state(low, start):
        return "ZIP"
    return "IDNUM"


def _after_state(low: str, start: int) -> bool:
    words = regex.findall(r"[a-z]+", low[max(0, start - 40):start])
    states = _states()
    return any(" ".join(words[-k:]) in states for k in (1, 2, 3) if len(words) >= k)


# --- e-mail addresses --------------------------------------------------------------------------

_NUMW = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|\d+)"
_EMAIL = regex.compile(
    rf"(?<![\w])(?P<e>[a-z][a-z0-9]*(?:[ \t]+(?:dot|point|underscore|dash|hyphen)[ \t]+[a-z0-9]+"
    rf"|[ \t]+{_NUMW}(?=[ \t]+(?:{_NUMW}|at|dot|point|underscore)\b))*"
    rf"[ \t]+at[ \t]+[a-z0-9]+(?:[ \t]+(?:dot|point)[ \t]+[a-z0-9]+)*?"
    rf"[ \t]+dot[ \t]+(?:com|net|org|edu|gov|co|uk|ie|ca|au|io|us|info|biz|me|nz)(?:[ \t]+dot[ \t]+(?:uk|au|nz|ie))?)"
    rf"(?![\w])")
_NOT_LOCAL = frozenset({"me", "him", "her", "us", "them", "it", "that", "this", "look", "email", "mail", "is",
                        "was", "address", "send", "write", "or", "and", "be", "you", "them"})


def emails(text: str, low: str | None = None) -> list[Span]:
    low = text.lower() if low is None else low
    if " at " not in low or " dot " not in low:
        return []
    out = []
    for m in _EMAIL.finditer(low):
        first = m.group("e").split()[0]
        if first in _NOT_LOCAL:
            continue
        out.append(Span(m.start("e"), m.end("e"), "EMAIL", "pattern:spoken_email", 0.85))
    return out


# --- house numbers in words ----------------------------------------------------------------------

_HOUSE = (r"(?:(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty|forty|fourty|"
          r"fifty|sixty|seventy|eighty|ninety|hundred|oh)[ \t]+){1,4}")
_STREET_TYPES = (r"(?:street|avenue|road|drive|lane|boulevard|court|way|place|terrace|crescent|close|circle|parkway|"
                 r"highway|trail|grove|gardens|row|square|view|walk|rise|mews|wynd|brae)")
_STREET = regex.compile(
    rf"(?<![\w])(?P<s>{_HOUSE}(?P<name>(?:[a-z][a-z'’]+[ \t]+){{1,2}}){_STREET_TYPES}"
    rf"(?:[ \t]+(?:apartment|apt|unit|suite|flat|number)[ \t]+(?:[a-z0-9]+)(?:[ \t]+[b-hj-z](?![\w]))?)?)(?![\w])")
_NOT_STREET_NAME = frozenset(
    "the a an of to from down up my his her their your our this that these those more times days weeks months years "
    "miles blocks minutes minute min mins hours hour kilometres kilometers feet metres meters yards doors houses streets "
    "roads and or at "
    "on in by is was for with".split())


_STREET_WORD = re.compile(rf"\b{_STREET_TYPES}\b")


def streets(text: str, low: str | None = None) -> list[Span]:
    low = text.lower() if low is None else low
    out = []
    seen = set()
    for w in _STREET_WORD.finditer(low):  # only near a street word (cheap pre-check)
        for m in _STREET.finditer(low, max(0, w.start() - 90), w.end() + 40):
            if m.span("s") in seen or m.end("s") < w.end():
                continue
            seen.add(m.span("s"))
            out.extend(_street_span(low, m))
    return out


def _street_span(low: str, m) -> list[Span]:
    words = m.group("name").split()
    if any(w in _NOT_STREET_NAME for w in words):
        return []
    number = low[m.start("s"):m.start("name")].split()
    if number[0] in ("oh", "hundred"):
        return []
    return [Span(m.start("s"), m.end("s"), "STREET", "pattern:spoken_street", 0.8)]


# --- where someone comes from ----------------------------------------------------------------------

_ORIGIN = re.compile(
    r"\b(?:(?:born|grew[ \t]+up|raised|brought[ \t]+up)[ \t]+(?:originally[ \t]+)?in|"
    r"(?:came|come|comes|coming|moved|emigrated|immigrated|fled|arrived|originally|flying[ \t]+in|flew[ \t]+in|"
    r"flies[ \t]+in|visiting|(?:is|am|are|was|were)[ \t]+originally)[ \t]+(?:here[ \t]+|over[ \t]+|back[ \t]+|up[ \t]+|down[ \t]+|"
    r"originally[ \t]+)?from|(?:stayed|staying|stays|live|lives|living|lived|based|moved|relocated|settled)[ \t]+"
    r"(?:back[ \t]+)?(?:in|to|near|outside)|out[ \t]+of|"
    # "out past wapato", "the bungalow past ballintra", "out in te rapa": directions in the countryside
    r"(?:out|just|right|the[ \t]+[a-z]+)[ \t]+past|(?:out|up|down|over)[ \t]+in|"
    # "found it in a lay by outside llanberis", "a farm near ballymote", "her first one in abuja"
    r"(?:lay[ \t]*by|layby|farm|house|village|town|somewhere|just|a[ \t]+bit|place|station|road)[ \t]+(?:outside|near)|"
    r"(?:first|second|third|last|other|older|eldest|youngest)[ \t]+(?:one|baby|child|kid|pregnancy)[ \t]+(?:in|at)|"
    # "we moved papamoa in march", "think she moved footscray": speech drops the preposition
    r"(?:moved|moving|relocated)(?:[ \t]+(?:out|up|down|over|back))?|"
    # "born nineteen forty six in jalandhar": a date between "born" and "in"
    r"born(?:[ \t]+(?:on|the|of|[a-z]+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|and|"
    r"one|two|three|four|five|six|seven|eight|nine|january|february|march|april|may|june|july|august|september|"
    r"october|november|december|first|second|third|[a-z]+th)){1,6}[ \t]+in)"
    r"[ \t]+(?P<p>[a-z][a-z-]{3,}(?:[ \t]+[a-z][a-z-]{3,})?)(?!['’\w])")
_ASCII_UPPER = bytes(range(65, 91))
_ASCII_LETTERS = _ASCII_UPPER + bytes(range(97, 123))
# "tele surgical bed on mackerer campus": a site name no dictionary knows before "campus"
_CAMPUS = re.compile(r"\b(?P<p>[a-z]{4,})[ \t]+campus\b")
# "19 ewing street woodridge": a town no dictionary knows right after a street address (speech has no commas)
_TOWN_AFTER_STREET = re.compile(
    r"\b\d{1,5}[a-z]?[ \t]+(?:[a-z]+[ \t]+){1,2}(?:street|st|lane|road|rd|avenue|ave|drive|close|crescent|court|way|"
    r"place|terrace|grove|gardens|boulevard|parade)[ \t]+(?P<p>[a-z]{4,}(?:[ \t]+[a-z]{4,})?)(?!['’\w])")
# the house number in words: "plot fourteen olusegun close ikeja"
_TOWN_AFTER_SPOKEN_STREET = re.compile(
    r"\b(?:(?:plot|number|no|house|flat|unit)[ \t]+)?(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|"
    r"ninety|hundred)(?:[ \t]+(?:one|two|three|four|five|six|seven|eight|nine|hundred|and))*[ \t]+(?:[a-z]+[ \t]+){1,2}"
    r"(?:street|lane|road|avenue|drive|close|crescent|court|way|terrace|grove|gardens|boulevard|parade|view|walk)[ \t]+"
    r"(?:in[ \t]+)?(?P<p>[a-z]{4,}(?:[ \t]+[a-z]{4,})?)(?!['’\w])")
_IN_COUNTRY = regex.compile(r"[ \t]*,?[ \t]+in[ \t]+(?P<c>[a-z][a-z]+(?:[ \t]+[a-z]+)?)")


@lru_cache(maxsize=1)
def _places() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    from ..lexicons import load_lexicon
    from .protected import _load_dictionary

    def lex(name: str) -> frozenset[str]:
        try:
            return frozenset(x.casefold() for x in load_lexicon(name))
        except KeyError:
            return frozenset()
    return _load_dictionary(), lex("countries_en") | lex("countries"), _states()


def _place_label(words: str, countries, states) -> str:
    return "COUNTRY" if words in countries else "STATE" if words in states else "CITY"


def origins(text: str, low: str | None = None) -> list[Span]:
    low = text.lower() if low is None else low
    out: list[Span] = []
    # speech-to-text: lower-case text (a capitalised note has its towns capitalised: the tagger's and the gazetteers' job)
    head = text[:4000].encode("ascii", "ignore")
    letters = (len(head) - len(head.translate(None, _ASCII_LETTERS))) or 1
    upper = len(head) - len(head.translate(None, _ASCII_UPPER))
    matches = [*_ORIGIN.finditer(low), *_TOWN_AFTER_STREET.finditer(low), *_TOWN_AFTER_SPOKEN_STREET.finditer(low)] \
        if upper / letters < 0.03 else []
    for m in matches:
        if text[m.start("p")].isupper():
            continue  # mixed case: the tagger and the gazetteers see capitals
        dictionary, countries, states = _places()
        words = m.group("p").split()
        if len(words) == 2 and words[1] in ("county", "co", "city", "town", "shire", "village", "state", "province"):
            words = words[:1]  # "ballincollig county cork": the town; the county is another place
        known = [w for w in words if w.strip("'’-") in dictionary]
        if len(words) == 2 and " ".join(words) in countries | states:
            keep = 2
        elif words[0] in countries or words[0] in states:
            keep = 1
        elif words[0].strip("'’-") in dictionary:
            continue
        else:
            keep = 2 if len(words) == 2 and words[1] not in known else 1
        a = m.start("p")
        b = a + len(" ".join(low[a:m.end("p")].split()[:keep])) if keep == 2 else a + len(words[0])
        place = " ".join(low[a:b].split())
        out.append(Span(a, b, _place_label(place, countries, states), "pattern:spoken_origin", 0.7))
        c = _IN_COUNTRY.match(low, b)
        if c:
            cw = c.group("c").split()
            for k in (2, 1):
                cand = " ".join(cw[:k])
                if len(cw) >= k and (cand in countries or cand in states):
                    ca = c.start("c")
                    out.append(Span(ca, ca + len(cand), _place_label(cand, countries, states),
                                    "pattern:spoken_origin", 0.75))
                    break
    for m in (_CAMPUS.finditer(low) if "campus" in low else ()):
        if text[m.start("p")].isupper():
            continue
        dictionary, _, _ = _places()
        if m.group("p") not in dictionary:
            out.append(Span(m.start("p"), m.end("p"), "HOSPITAL", "pattern:spoken_origin", 0.7))
    return out


# --- names spelled out ------------------------------------------------------------------------------

_LETTERS = re.compile(r"(?<![\w'’])(?:[a-z](?:[ \t]*[-.][ \t]*|[ \t]+)){2,}[a-z](?![\w'’])")


@lru_cache(maxsize=1)
def _medical_words() -> frozenset[str]:
    from ..lexicons import load_lexicon

    out: set[str] = set()
    for name in ("drugs", "medical_terms", "medical_abbreviations"):
        try:
            out.update(x.casefold() for x in load_lexicon(name))
        except KeyError:
            pass
    return frozenset(out)


def spelled_names(text: str, low: str | None = None) -> list[Span]:
    low = text.lower() if low is None else low
    out: list[Span] = []
    for m in _LETTERS.finditer(low):
        word = "".join(c for c in m.group() if c.isalpha())
        if len(word) < 3 or word in _medical_words():
            continue
        line_start = low.rfind("\n", 0, m.start())
        window_start = max(0, low.rfind("\n", 0, max(0, line_start)) + 1, m.start() - 120)
        hits = [w for w in re.finditer(rf"(?<![\w'’]){re.escape(word)}(?![\w'’])", low[window_start:m.start()])]
        if not hits:
            continue
        w = hits[-1]
        out.append(Span(window_start + w.start(), window_start + w.end(), "PATIENT", "pattern:spelled_name", 0.8))
        out.append(Span(m.start(), m.end(), "PATIENT", "pattern:spelled_name", 0.8))
    return out


# --- codes spelled letter by letter: number plates and British postcodes --------------------------------------

_CODE_DIGIT = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_CODE_TOKEN = rf"(?:[a-z]|{_CODE_DIGIT})"
_CODE_RUN = re.compile(rf"(?<![\w'’])({_CODE_TOKEN}(?:[ \t]+{_CODE_TOKEN}){{3,10}})(?![\w'’])")
_VEHICLE_CUE = re.compile(r"\b(?:plates?|registration|reg|rego|(?:your|his|her|my|the|their|our|a)[ \t]+(?:car|van|truck|"
                          r"vehicle|ute|motorbike|motorcycle|lorry|pickup))(?:[ \t]+(?:number|no))?[ \t]+"
                          r"(?:(?:was|is|its|it's|reads|said|says|number|as|like)[ \t]+){0,2}$")
# outward code (one or two letters, a digit, a digit or letter) and inward code (a digit, two letters)
_PC_TEEN_TENS = (r"(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|"
                 r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[ \t]+(?:one|two|three|four|five|six|seven|"
                 r"eight|nine))?)")
# British postcode areas of two letters, said as one word ("ll fifty seven"); those that are English words are left out
_UK_AREAS = ("ab|al|bb|bd|bh|bl|bn|br|bs|bt|ca|cb|cf|ch|cm|cr|ct|cv|cw|da|dd|dg|dh|dl|dn|dt|dy|ec|eh|en|fk|fy|gl|gu|hd|"
             "hg|hp|hr|hs|hu|hx|ig|ip|iv|kt|kw|ky|ld|ll|ln|ls|lu|mk|ml|ne|ng|nn|np|nr|nw|ol|ox|ph|pl|pr|rg|rh|rm|sa|se|sg|"
             "sk|sl|sm|sn|sp|sr|ss|st|sw|sy|td|tf|tn|tq|tr|ts|tw|ub|wa|wc|wd|wf|wn|wr|ws|wv|yo|ze")
_UK_POSTCODE = re.compile(rf"(?<![\w'’])(?:(?:{_UK_AREAS})|[a-z](?:[ \t]+[a-z])?)[ \t]+(?:{_PC_TEEN_TENS}|{_CODE_DIGIT}"
                          rf"(?:[ \t]+(?:{_CODE_DIGIT}|[a-z]))?)[ \t]+"
                          rf"{_CODE_DIGIT}[ \t]+[abd-hjlnp-uw-z][ \t]+[abd-hjlnp-uw-z](?![\w'’])")
_NOT_CODE_EDGE = frozenset({"a", "i", "o", "oh"})


def spelled_codes(text: str, low: str | None = None) -> list[Span]:
    """Lower-case speech: a plate spelled after a vehicle cue (two letters and two digits at
    least), and a British postcode by its shape."""
    low = text.lower() if low is None else low
    out: list[Span] = []
    if any(w in low for w in ("plate", "registration", "reg ", "rego", "car ", "van ", "truck", "vehicle", "ute ",
                              "motorbike", "motorcycle", "lorry", "pickup")):
        for m in _CODE_RUN.finditer(low):
            if not text[m.start():m.end()].islower():
                continue
            cue = _VEHICLE_CUE.search(low, max(0, m.start() - 40), m.start())
            if not cue:
                continue
            toks = [(t.start(), t.end(), t.group()) for t in re.finditer(r"[a-z]+", low[m.start():m.end()])]
            while toks and toks[-1][2] in _NOT_CODE_EDGE:
                toks.pop()  # "... two zero nine i gave it": the pronoun after the plate
            letters = sum(1 for t in toks if len(t[2]) == 1)
            digits = len(toks) - letters
            if len(toks) < 4 or letters < 2 or digits < 2:
                continue
            out.append(Span(m.start() + toks[0][0], m.start() + toks[-1][1], "VEHICLE", "pattern:spoken_plate", 0.8))
    for m in _UK_POSTCODE.finditer(low):
        if text[m.start():m.end()].islower() and m.group().split()[0] not in _NOT_CODE_EDGE:
            out.append(Span(m.start(), m.end(), "ZIP", "pattern:spoken_postcode", 0.75))
    return out


# --- a name spelled in reply: "could you spell the surname for me / caller: w r o b e l" ------------------------

_SPELL_ASK = re.compile(r"\bspell(?:[ \t]+(?:that|it|out))?[ \t]+(?:(?:the|your|his|her|their|my|last|first|sur|family|"
                        r"given|middle|full)[ \t]*)*(?:name|surname|names)\b")


def spelled_replies(text: str, low: str | None = None) -> list[Span]:
    low = text.lower() if low is None else low
    if "spell" not in low:
        return []
    out: list[Span] = []
    for q in _SPELL_ASK.finditer(low):
        # the reply: on the same line or the next two, a run of three or more single letters
        stop = q.end()
        for _ in range(3):
            nl = low.find("\n", stop + 1)
            stop = len(low) if nl < 0 else nl
        m = _LETTERS.search(low, q.end(), min(stop, q.end() + 160))
        if not m or not text[m.start():m.end()].islower():
            continue
        word = "".join(c for c in m.group() if c.isalpha())
        if len(word) >= 3 and word not in _medical_words():
            out.append(Span(m.start(), m.end(), "PATIENT", "pattern:spelled_name", 0.75))
    return out


# --- names spoken to: "clinician: dafydd what did you do for work", "hello ivy how are you feeling" ----------

_VOC_GREETING = r"(?:hi|hello|hey|morning|good[ \t]+morning|afternoon|good[ \t]+afternoon|evening|good[ \t]+evening|hiya)"
_VOCATIVE = re.compile(
    rf"(?:(?P<turn>^[ \t]*(?:\[[^\]\n]{{1,20}}\][ \t]*:?|[a-z][a-z ]{{0,15}}:)[ \t]*(?:(?:so|oh|okay|ok|right|alright|well|now|"
    rf"and)[ \t]+)?)|\b(?P<greet>{_VOC_GREETING})[ \t]+|\b(?:thanks|thank[ \t]+you|cheers|sorry|okay|ok|right|alright|so|oh|"
    rf"understand)[ \t]+)"
    rf"(?P<n>[a-z][a-z'’-]{{2,}})"
    rf"(?=[ \t]+(?P<q>what|whats|who|whos|how|hows|when|where|why|can|could|would|do|did|does|have|are|its|it's|im|"
    rf"youre|your|tell|let|come|take|sit|this)\b|[ \t]*$|[ \t]+(?:\[|[a-z]{{1,15}}:))",
    re.MULTILINE)
_NOT_VOCATIVE = frozenset("""the a an and but or so then now well yes yeah yep no nope okay ok right alright sure thanks
please sorry hello hi hey um uh er erm oh ah doctor doc nurse sir madam maam love dear darling honey sweetheart mate pal
buddy son mum mom dad everyone everybody all there guys folks team again back today tonight tomorrow morning evening
afternoon yall yalls yous youse ya folks lads ladies gents kids girls boys thats whats im ive youre dont cant wont
didnt isnt hes shes theres lets weve theyre wasnt doesnt aint gonna wanna gotta innit""".split())


def vocative_names(text: str, low: str | None = None) -> list[Span]:
    """Lower-case speech only. A listed given name that no dictionary holds, or a word that no list
    or dictionary knows, in the slot of address; a given name that is also a word (``ivy``) only
    after a greeting and before ``how``, ``its`` or the end of the turn."""
    low = text.lower() if low is None else low
    if not _speech_case(text):
        return []  # capitalised text: the tagger's and the name lists' job
    out: list[Span] = []
    names, frequent = _given_names()
    dictionary = None
    for m in _VOCATIVE.finditer(low):
        a, b = m.start("n"), m.end("n")
        w = m.group("n").strip("'’-")
        if w in _NOT_VOCATIVE or w in _NOT_FAREWELL_NAMES or not text[a:b].islower() or w in _medical_words():
            continue
        if dictionary is None:
            dictionary = _places()[0]
        if w in dictionary:
            # a word that is also a name: after a greeting, before "how", "its" or the turn's end
            if not (w in frequent and m.group("greet") and (m.group("q") in (None, "how", "hows", "its", "it's"))):
                continue
        elif w not in names:
            # no list knows the word: a name only when it opens a turn or follows a greeting, before a question
            if len(w) < 4 or not (m.group("turn") is not None or m.group("greet")) or m.group("q") is None \
                    or re.search(r"(.)\1\1", w) or not re.search(r"[aeiouy]", w):
                continue
        out.append(Span(a, b, "PATIENT", "lexicon:spoken_vocative", 0.65))
    return out


# --- a name said, then said again in full: "oh yes yes gwilym gwilym pritchard", "yes sian sian roberts" --------
# and the clinician checking who they are talking to: "hey come on in so youre kofi amankwah"

@lru_cache(maxsize=1)
def _surnames() -> frozenset[str]:
    from ..lexicons import load_lexicon

    try:
        return frozenset(x.casefold() for x in load_lexicon("surnames_en"))
    except KeyError:
        return frozenset()


_REPAIR = regex.compile(r"(?<![\w'’-])(?P<a>[a-z][a-z'’-]{2,})[ \t]+(?P=a)[ \t]+(?P<b>[a-z][a-z'’-]{2,})(?![\w'’-])")
_YOURE = re.compile(r"\b(?:so[ \t]+)?(?:youre|you['’]re|you[ \t]+are)[ \t]+(?P<a>[a-z][a-z'’-]{2,})(?:[ \t]+(?P<b>[a-z][a-z'’-]{2,}))?"
                    r"(?=[ \t]*(?:\?|$|\n)|[ \t]+(?:right|yeah|yes|correct|is[ \t]+that[ \t]+right|\[|[a-z]{1,15}:))", re.MULTILINE)


def repeated_names(text: str, low: str | None = None) -> list[Span]:
    """Lower-case speech only: a given name said twice and then with a surname no dictionary knows
    (a speech repair); a given name and an unknown surname after ``so youre``."""
    low = text.lower() if low is None else low
    out: list[Span] = []
    names, _ = _given_names()
    dictionary = None
    for rx, repair in ((_REPAIR, True), (_YOURE, False)):
        if not repair and "you" not in low:
            continue
        for m in (rx.finditer(low, overlapped=True) if repair else rx.finditer(low)):
            if not text[m.start():m.end()].islower():
                continue
            a, b = m.group("a"), m.group("b")
            if dictionary is None:
                dictionary = _places()[0]
            if b is not None and not repair and b in ("right", "yeah", "yes", "correct", "yep", "isnt", "arent"):
                b = None
            if b is None:
                # "so you're farida right": one given name no dictionary knows
                if a in names and a not in dictionary and a not in _medical_words() and a not in _NOT_VOCATIVE:
                    out.append(Span(m.start("a"), m.end("a"), "PATIENT", "lexicon:spoken_repeat", 0.7))
                continue
            if a in _NOT_VOCATIVE or b in dictionary or b in _medical_words() or a in _medical_words() \
                    or (a in dictionary and not repair) or (a not in names and (not repair or a in dictionary)) \
                    or (b in names and not repair):
                continue
            if repair and a not in names and b not in _surnames():
                continue  # "bien bien doctora": a word said twice, no name
            if repair:
                second = low.index(a, m.end("a"))
                out.append(Span(m.start("a"), m.end("a"), "PATIENT", "lexicon:spoken_repeat", 0.7))
                out.append(Span(second, m.end("b"), "PATIENT", "lexicon:spoken_repeat", 0.7))
            else:
                out.append(Span(m.start("a"), m.end("b"), "PATIENT", "lexicon:spoken_repeat", 0.7))
    return out


# --- care services named in speech: "the guildwood memory clinic", "the hospital sunnybrook" -----------------

_FACILITY_MODIFIERS = (r"memory|sleep|pain|eye|heart|diabetes|fertility|palliative|care|community|mental|health|"
                       r"womens|women's|childrens|children's|rehab|rehabilitation|recovery|dialysis|cancer|wound|hearing|"
                       r"family|medical|dental|sexual|maternity|renal|kidney|skin|foot|spine|sports|addiction|"
                       r"wellness|urgent|walk[ \t]+in|general|day|outpatient|outpatients|breast|stroke|respiratory")
_FACILITY_SPOKEN = re.compile(
    rf"\b(?:at|to|from|in|with|for|by|near|called|the)[ \t]+(?:the[ \t]+)?(?P<u>[a-z][a-z'’-]{{3,}}(?:[ \t]+[a-z][a-z'’-]{{3,}})?)"
    rf"(?P<m>(?:[ \t]+(?:{_FACILITY_MODIFIERS})){{1,3}})[ \t]+(?P<h>clinic|centre|center|hospital|service|services|"
    rf"practice|surgery|hospice|unit|team)\b"
    rf"|\bthe[ \t]+(?:hospital|hospice|clinic)[ \t]+(?:(?:is|was|called|named)[ \t]+)?(?P<n>[a-z][a-z'’-]{{4,}})"
    rf"(?=[ \t]*(?:$|[.?!,]|[ \t]+(?:\[|[a-z]{{1,15}}:)))", re.MULTILINE)


def facilities(text: str, low: str | None = None) -> list[Span]:
    """Lower-case speech only: a name no dictionary knows before a care service's modifiers and
    head (``the guildwood memory clinic``, ``wheatbelt palliative care service``), and the word no
    dictionary knows that names ``the hospital`` at the end of a turn (``the hospital sunnybrook``)."""
    low = text.lower() if low is None else low
    if not any(h in low for h in ("clinic", "centre", "center", "hospital", "service", "practice", "surgery",
                                  "hospice", "unit", "team")):
        return []
    out: list[Span] = []
    dictionary = None
    for m in _FACILITY_SPOKEN.finditer(low):
        if not text[m.start():m.end()].islower():
            continue
        if dictionary is None:
            dictionary = _places()[0]
        if m.group("n"):
            w = m.group("n")
            if w not in dictionary and w not in _medical_words():
                out.append(Span(m.start("n"), m.end("n"), "HOSPITAL", "pattern:spoken_facility", 0.65))
            continue
        words = m.group("u").split()
        # the name: unknown words ("at the [guildwood] memory clinic"), or one and a modifier
        unknown = [w not in dictionary and w not in _medical_words() for w in words]
        if not (all(unknown) or (unknown[0] and re.fullmatch(_FACILITY_MODIFIERS, words[-1]))):
            continue
        out.append(Span(m.start("u"), m.end("h"), "HOSPITAL", "pattern:spoken_facility", 0.65))
    return out


# --- "ask aroha the district nurse", "dolores our case manager", "thats nkechi obi bed 12" ------------------------

_STAFF_APPOS = regex.compile(
    r"(?<![\w'’-])(?P<n>[a-z][a-z'’-]{2,})[ \t]+(?:our|the|your|my|his|her)[ \t]+(?:case[ \t]+manager|social[ \t]+worker|"
    r"district[ \t]+nurse|practice[ \t]+nurse|community[ \t]+nurse|nurse|physio|physiotherapist|pharmacist|dietitian|"
    r"dietician|counsell?or|therapist|receptionist|midwife|health[ \t]+visitor|key[ \t]+worker|support[ \t]+worker|"
    r"care[ \t]+coordinator|coordinator|gp|doctor)\b")
# cheap pre-checks: the role or the bed word must occur at all
_STAFF_HINT = regex.compile(r"\b(?:our|the|your|my|his|her)[ \t]+(?:case|social|district|practice|community|nurse|physio|"
                            r"pharmacist|diet|counsel|therapist|receptionist|midwife|health|key|support|care|coordinator|"
                            r"gp|doctor)")
_BED_HINT = regex.compile(r"\b(?:bed|room|rm|bay)[ \t]*\d")
_BED_NAME = regex.compile(
    r"(?<![\w'’-])(?P<n>[a-z][a-z'’-]{2,}(?:[ \t]+[a-z][a-z'’-]{2,})?)[ \t]+(?:in[ \t]+)?(?:bed|room|rm|bay)[ \t]*\d")


def staff_and_bed_names(text: str, low: str | None = None) -> list[Span]:
    """Lower-case speech and queries: a given name (or a word no dictionary knows) right before a care role in
    apposition is a clinician's; a given name, and a surname no dictionary knows, right before a bed or room
    number is the patient's."""
    low = text.lower() if low is None else low
    out: list[Span] = []
    names, _ = _given_names()
    dictionary = _places()[0]
    medical = _medical_words()
    staff = _STAFF_HINT.search(low) is not None
    beds = _BED_HINT.search(low) is not None
    for m in (_STAFF_APPOS.finditer(low) if staff else ()):
        w = m.group("n")
        if w in _NOT_VOCATIVE or w in medical or w in dictionary or (w not in names and len(w) < 4):
            continue
        out.append(Span(m.start("n"), m.end("n"), "DOCTOR", "lexicon:spoken_staff", 0.65))
    for m in (_BED_NAME.finditer(low) if beds else ()):
        words = m.group("n").split()
        if len(words) == 2 and all(w not in medical and w not in _NOT_VOCATIVE and len(w) >= 3 for w in words) and \
                words[0] not in dictionary and len(words[0]) >= 4 and (words[1] not in dictionary or words[1] in _surnames()):
            out.append(Span(m.start("n"), m.end("n"), "PATIENT", "lexicon:spoken_bed", 0.6))
            continue  # "thats nkechi obi bed 12": two words no dictionary knows
        if words[0] not in names or words[0] in dictionary or words[0] in medical or words[0] in _NOT_VOCATIVE:
            words = words[1:] if len(words) == 2 else []
            if not words or words[0] not in names or words[0] in dictionary or words[0] in medical:
                continue
            a = m.end("n") - len(words[0])
            out.append(Span(a, m.end("n"), "PATIENT", "lexicon:spoken_bed", 0.6))
            continue
        if len(words) == 2 and (words[1] in dictionary or words[1] in medical):
            words = words[:1]
        a = m.start("n")
        out.append(Span(a, a + len(" ".join(words)), "PATIENT", "lexicon:spoken_bed", 0.6))
    return out


# --- names as the subject of a verb, or placed by where the person is from ---------------------------------------
# "rangi will be back monday", "deb has been really good", "bev picks me up", "funmi from work had that",
# "bridie next door looks in"

# what follows a person's name as its subject: a verb of visiting, helping, calling or saying, or where they are from
_SUBJECT_VERBS = (
    r"[ \t]+(?:(?:will|can|could|would|should|might|has|had|is|was|does|did)[ \t]+"
    r"(?:be|been|have|come|go|take|bring|pick|drive|look|ring|call|put|change|help|do|doing|sort|check|see|get|give|"
    r"stay|visit|keep|make|pop)\b|(?:says|said|drove|drives|picks|takes|took|came|comes|looks|rang|rings|called|calls|"
    r"brought|brings|visits|visited|helps|helped|stays|stayed|lives|lived|works|worked|texted|texts|reckons|thinks|"
    # "declan had to drive me home", "jonty keeps eating my food", "shaz made me come in"
    r"keeps|kept|made[ \t]+me|makes[ \t]+me|bought|buys|told[ \t]+me|tells[ \t]+me|asked[ \t]+me|asks[ \t]+me|"
    r"phoned|phones|dropped|drops|minds|minded|married|passed[ \t]+away|died)\b|"
    r"(?:had|has)[ \t]+to[ \t]+\w|is[ \t]+(?:in|at)[ \t]+(?:work|school|uni|college|nursery|kindy)\b|"
    r"from[ \t]+(?:(?:my|our|his|her|their)[ \t]+)?(?:work|next[ \t]+door|downstairs|upstairs|church|school|club|gym|"
    r"team|office|the[ \t]+(?:shop|club|gym|pub|church|office|"
    r"depot|mill|yard|farm|site|shearing|unit|ward|center|centre))\b|next[ \t]+door\b)")
# searched from the verb (cheaper than trying every word of a note), then the word before it
_SUBJECT_TAIL = regex.compile(r"(?<=[a-z'’-])" + _SUBJECT_VERBS)
_WORD_BEFORE = regex.compile(r"(?<![\w'’-])(?P<n>[a-z][a-z'’-]{2,})$")
_MEDICAL_SHAPE = regex.compile(r"(?:ia|itis|osis|emia|aemia|tension|pathy|ectomy|otomy|plasty|algia|uria|rrh?o?ea|scopy|"
                               r"gram|graphy|ase|ide|ine|ole|one|pril|olol|statin|mab|nib|cin|cillin|mycin|azole|"
                               r"ation|ment|ness|ing|ed|ly|ism|ist|ous|ive|al|ic)$")
_NOT_SUBJECT = frozenset("""she he they it we you who that this there what which someone somebody everyone everybody
nobody anyone mum mom dad nan nana gran granny grandma grandpa son daughter wife husband doctor doc nurse family
baby kid kids child she'll he'll mine yours boss work""".split())


def subject_names(text: str, low: str | None = None) -> list[Span]:
    """Lower-case speech: a listed given name no dictionary holds, or a longer word no list knows, as the subject
    of a verb of visiting, helping, calling or saying, or placed by where the person is from (work, next door)."""
    low = text.lower() if low is None else low
    out: list[Span] = []
    names, _ = _given_names()
    dictionary = _places()[0]
    medical = _medical_words()
    for v in _SUBJECT_TAIL.finditer(low):
        m = _WORD_BEFORE.search(low, max(0, v.start() - 40), v.start())
        if m is None:
            continue
        w = m.group("n").strip("'’-")
        if w in _NOT_SUBJECT or w in _NOT_VOCATIVE or w in dictionary or w in medical:
            continue
        if regex.search(r"\b(?:the|a|an|my|your|his|her|our|their|this|that|its|any|some)[ \t]+$",
                        low[max(0, m.start() - 8):m.start()]):
            continue  # "the creche rang": a thing, not a person
        if "-" in w or (w not in names and (len(w) < 5 or w in _surnames() or _MEDICAL_SHAPE.search(w))):
            continue  # an unknown word must be long and not shaped like a medical word; a surname alone is no subject
        out.append(Span(m.start("n"), m.start("n") + len(w), "RELATIVE", "lexicon:spoken_subject", 0.6))
    return out


# --- a listed given name said anywhere in first-person speech: "yeah callum", "and gemma said" ----------------------

# listed given names that speech-to-text also writes for other things: contractions, greetings, syllables,
# eponyms, storms, places
_BARE_NOT = frozenset("""theres kia ora min sha inna lem okey dax gon wan gotta braxton gilbert kennedy
georgia america houston dallas austin phoenix paris london vegas denver jordan chad israel florence orlando
tyne kent essex devon cornwall sydney perth adelaide victoria darwin regina chester lincoln preston
gerd mona lisa rex bud ma pa nan nana mum mom dad mam gran nanny dada mama papa ned amma appa ammi abbu fae
cher chere chère hun luv darlin papi mami habibi habibti beta bhai didi yaar iha iho neng bunso""".split())


def bare_given_names(text: str, low: str | None = None) -> list[Span]:
    """Lower-case first-person speech: a listed given name of three letters or more that no dictionary, medical
    list or place list holds (``callum``, ``gemma``, ``hamid``), wherever it is said. A speech-to-text transcript
    writes names in lower case and says them in passing with no title, relation word or verb slot; a word that is
    only a name is evidence by itself. Not in notes, queries or letters (capital letters), nor in speech that does
    not speak in the first person."""
    low = text.lower() if low is None else low
    if len(_FIRST_PERSON.findall(low)) < 3 or len(_SECOND_PERSON.findall(low)) < 2:
        return []  # a conversation says "i" and "you"; a nursing note in lower case rarely does
    names, _ = _given_names()
    dictionary, countries, states = _places()
    medical = _medical_words()
    out: list[Span] = []
    for m in _BARE_WORD.finditer(low):
        w = m.group()
        if w not in names or w in dictionary or w in medical or w in _BARE_NOT or w in countries or w in states \
                or w in _PASSING_NOT or w in _NOT_VOCATIVE or w in _NOT_SUBJECT:
            continue
        if not text[m.start():m.end()].islower():
            continue
        if low[max(0, m.start() - 4):m.start()] == "the ":
            continue  # session 18: "same day like the virgen": a given name after "the" names a thing or a figure
        out.append(Span(m.start(), m.end(), "RELATIVE", "lexicon:spoken_bare_name", 0.15))  # a fallback: any other reading wins
    return out


_SECOND_PERSON = regex.compile(r"(?<![\w'’-])(?:you|your|youre|you['’]re|youve|you['’]ve|ya)(?![\w'’-])")
_BARE_WORD = regex.compile(r"(?<![\w'’-])[a-z]{3,}(?![\w'’-])")


# --- teams played for and workplaces given in reply: "i play for te puke sports", "yeah still at redbird" -----------

_PLAY_FOR = regex.compile(r"\bplay(?:s|ed|ing)?(?:[ \t]+(?:footy|football|rugby|soccer|hockey|netball|cricket|basketball|"
                          r"baseball|softball|league|union|hurling|gaelic|camogie|darts|pool|bowls|volleyball|lacrosse))?"
                          r"[ \t]+for[ \t]+(?P<org>(?:the[ \t]+)?[a-z][a-z'’]+(?:[ \t]+[a-z][a-z'’]+){0,4})")
# the answer to a question about work: "[doctor] and are you still working / [patient] yeah still at redbird"
_WORK_QUESTION = regex.compile(r"\b(?:are[ \t]+you[ \t]+(?:still[ \t]+)?working|where[ \t]+(?:do|are|did)[ \t]+you[ \t]+work|"
                               r"where[ \t]+is[ \t]+work|how[ \t]+is[ \t]+work|hows[ \t]+work|how['’]s[ \t]+work|"
                               r"and[ \t]+work|still[ \t]+working|you[ \t]+working)\b[^\n]{0,40}$")
_AT_WORK_REPLY = regex.compile(r"[ \t]*(?:\[[^\]\n]{1,20}\][ \t]*|[a-z]{1,12}[ \t]*:[ \t]*)?(?:(?:yeah|yes|yep|aye|ja|um|uh|"
                               r"well|so|its|it's|im|i'm|i[ \t]+am|still|back|now|okay|ok)[ \t,]+){0,4}(?:at|with|for)[ \t]+"
                               r"(?P<org>(?:the[ \t]+)?[a-z][a-z'’]+(?:[ \t]+[a-z][a-z'’]+){0,4})")
_ORG_RUN_STOP = frozenset("""in on at for with and or but so as since until till then now because cos when while where
every each on the a an my his her their our your its years year months weeks days back doing as im i he she we they
reserves second first third night nights day days shift shifts part full time weekends weekend mostly still just
like about over out up down near by past doc doctor mate under okay ok yeah yes you know team squad aaa age
boys girls kids men women seniors juniors right off behind beside opposite across outside inside along
round around""".split()) - {"the"}
_NOT_ORG_WORDS = frozenset("""fun free money a an my his her their our your hours hour time ages years months weeks
a while now home work school it them him me us you myself himself herself the this that these those one two three
four five six seven eight nine ten twenty thirty forty fifty half team club side country county town city
moment minute present least night times all last first same different another other local work under over
juniors seniors boys girls kids men women""".split())


def teams_and_workplaces(text: str, low: str | None = None) -> list[Span]:
    """Lower-case speech: the team someone plays for (``i play for te puke sports``, ``used to play footy for the
    cutters``) and the workplace given in reply to a question about work (``are you still working / yeah still at
    redbird``), up to the next function word. Generic words alone are not taken (``play for fun``, ``at home``)."""
    low = text.lower() if low is None else low
    if " for " not in low and " at " not in low:
        return []
    dictionary = _places()[0]
    out: list[Span] = []
    hits = [(m, False) for m in _PLAY_FOR.finditer(low)] if "play" in low else []
    for line in regex.finditer(r"[^\n]+", low):
        prev_end = line.start() - 1
        if prev_end <= 0:
            continue
        prev_start = low.rfind("\n", 0, prev_end) + 1
        if _WORK_QUESTION.search(low, prev_start, prev_end):
            m = _AT_WORK_REPLY.match(low, line.start(), line.end())
            if m:
                hits.append((m, True))
    for m, reply in hits:
        a = m.start("org")
        words = list(regex.finditer(r"[a-z][a-z'’]+", low, pos=a, endpos=m.end("org")))
        if words and words[0].group() == "the":
            words = words[1:]
        kept = []
        for w in words:
            if w.group() in _ORG_RUN_STOP or w.group() in _NUMBER_WORDS_SET:
                break
            kept.append(w)
        if not kept or not text[kept[0].start():kept[-1].end()].islower():
            continue
        names = [w.group() for w in kept]
        if names[0] in _NOT_ORG_WORDS or (len(names) == 1 and names[0] in _NOT_ORG_WORDS):
            continue
        if all(n in dictionary for n in names) and not low[max(0, kept[0].start() - 4):kept[0].start()] == "the ":
            if len(names) == 1 and not reply:
                continue  # one everyday word with no article: "play for fun"; a reply about work may name one
        out.append(Span(kept[0].start(), kept[-1].end(), "ORGANIZATION", "lexicon:spoken_workplace", 0.55))
    return out


_NUMBER_WORDS_SET = frozenset("""zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred""".split())


# --- people in passing: "how old is ruby now", "nia shes three", "called halyna in kharkiv", "happy birthday ruby" ----

_HOW_OLD_IS = regex.compile(r"\bhow[ \t]+old[ \t]+(?:is|s)[ \t]+(?P<n>[a-z][a-z'’-]{2,})(?=[ \t]+(?:now|these|again|today|then)\b|"
                            r"[ \t]*(?:[?.,]|$))", regex.MULTILINE)
_NAME_THEN_AGE = regex.compile(r"(?<![\w'’-])(?P<n>[a-z][a-z'’-]{2,})[ \t]+(?:shes|hes|she['’]s|he['’]s|she[ \t]+is|he[ \t]+is)[ \t]+"
                               r"(?:only[ \t]+|just[ \t]+|nearly[ \t]+|almost[ \t]+)?(?:one|two|three|four|five|six|seven|"
                               r"eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|"
                               r"twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\b(?![ \t]+(?:weeks?|days?|months?|"
                               r"minutes?|hours?|percent|pounds|kilos?|stone)\b)")
_CALLED_NAME = regex.compile(r"\b(?:called|rang|phoned|texted|messaged|emailed|facetimed|married|divorced|"
                             r"dating|ringing|calling|texting)[ \t]+(?P<n>[a-z][a-z'’-]{3,})(?=[ \t]+(?:in|on|at|from|"
                             r"and|last|yesterday|today|this|every|about|again|back|over)\b|[ \t]*(?:[?.,]|$))", regex.MULTILINE)
# "and will will put in the referral", "today is day five will can you give us": Will before a modal
_WILL_NAME = regex.compile(r"(?<!\b(?:the|a|his|her|my|your|their|our|living|free|good|ill|against|i|you|we|they|he|she|"
                           r"it|that|this|who|which|there|what|where|when|nurse|doctor|team|someone|somebody)[ \t]+)\b(?P<n>will)"
                           r"(?=[ \t]+(?:will|can[ \t]+you|could[ \t]+you|would[ \t]+you|says|said|thinks|reckons)\b)")
_BIRTHDAY_NAME = regex.compile(r"\bhappy[ \t]+(?:birthday|bday|anniversary)[ \t,]+(?P<n>[a-z][a-z'’-]{2,})\b")
# "thabo and me walked from", "me and dre went"
_AND_ME = regex.compile(r"(?<![\w'’-])(?:(?P<n>[a-z][a-z'’-]{2,})[ \t]+and[ \t]+me|me[ \t]+and[ \t]+(?P<n>[a-z][a-z'’-]{2,}))"
                        r"(?![\w'’-])")
# "i am marietjie we spoke on the phone", "im dre from the garage"
_SELF_INTRO = regex.compile(r"\b(?:i[ \t]+am|im|i['’]m)[ \t]+(?P<n>[a-z][a-z'’-]{2,})(?=[ \t]+(?:we[ \t]+spoke|from[ \t]+the|"
                            r"his|her|their|the[ \t]+(?:daughter|son|wife|husband|carer|neighbou?r)|calling|ringing|"
                            r"speaking|here[ \t]+with)\b)")
# "kokila and hansa come on thursdays", "with ramaswamy and iyer": two words no dictionary holds, one a given name
_NAME_PAIR = regex.compile(r"(?:\b(?:with|to|from|for|saw|see|seen|met|meet|visit|visited|tell|told|ask|asked|"
                           r"says|said|and)[ \t]+(?P<a>[a-z][a-z'’-]{2,})[ \t]+and[ \t]+(?P<b>[a-z][a-z'’-]{2,})(?![\w'’-])|"
                           r"(?<![\w'’-])(?P<a>[a-z][a-z'’-]{2,})[ \t]+and[ \t]+(?P<b>[a-z][a-z'’-]{2,})[ \t]+(?:come|comes|came|"
                           r"went|go|goes|are|were|have|had|said|say|says|will|both|too|took|take|brought|bring|"
                           r"helped|help|help|visit|visited|drove|drive)\b)")
# a speaker talking about their own life: "i" or "me" at least twice (ICU notes rarely speak in the first person)
_FIRST_PERSON = regex.compile(r"(?<![\w'’-])(?:i|me|my|im|i['’]m|ive|i['’]ve)(?![\w'’-])")
_PASSING_NOT = frozenset("""mum mom dad mam nan nana gran granny grandma grandpa him her them you me us everyone
everybody someone somebody anyone nobody the doctor doctors nurse nurses work home school church back again today
tonight tomorrow""".split())


def people_in_passing(text: str, low: str | None = None) -> list[Span]:
    """Lower-case speech: a person named in passing with no title or relation word, in a slot only a person fills:
    asked about by age (``how old is ruby now``), followed by an age (``nia shes three``), rung or visited
    (``called halyna in kharkiv``), or wished a happy birthday. A listed given name no dictionary holds; after
    ``how old is`` or ``happy birthday`` also a frequent given name that is a word (``ruby``, ``ivy``)."""
    low = text.lower() if low is None else low
    if not any(w in low for w in ("how old", "shes ", "hes ", "she's", "he's", "she is", "he is", "called", "rang",
                                  "phoned", "texted", "messaged", "emailed", "facetimed", "visit", "married",
                                  "divorced", "dating", "ringing", "calling", "happy", "will ", " me", " am ", "im ",
                                  " and ")):
        return []
    names, frequent = _given_names()
    dictionary = _places()[0]
    medical = _medical_words()
    out: list[Span] = []
    for rx, label, word_ok in ((_HOW_OLD_IS, "RELATIVE", True), (_NAME_THEN_AGE, "RELATIVE", False),
                               (_CALLED_NAME, "RELATIVE", False), (_BIRTHDAY_NAME, "PATIENT", True)):
        for m in rx.finditer(low):
            a, b = m.start("n"), m.end("n")
            w = m.group("n").strip("'’-")
            if not text[a:b].islower() or w in _PASSING_NOT or w in _NOT_VOCATIVE or w in _NOT_SUBJECT or w in medical:
                continue
            if w in dictionary:
                if not (word_ok and w in frequent):
                    continue
            elif w not in names and (len(w) < 4 or "-" in w or _MEDICAL_SHAPE.search(w)):
                continue  # a word no list knows: a name only when long and not shaped like a medical word
            out.append(Span(a, a + len(w), label, "lexicon:spoken_person", 0.6))
    # "thabo and me walked", "me and dre went", "i am marietjie we spoke", "kokila and hansa come on thursdays"
    if (" me" in low or " am " in low or "im " in low or " and " in low) and len(_FIRST_PERSON.findall(low)) >= 2:
        for rx in (_AND_ME, _SELF_INTRO):
            for m in rx.finditer(low):
                a, b = m.start("n"), m.end("n")
                w = m.group("n")
                if (text[a:b].islower() and w not in dictionary and w not in medical and w not in _PASSING_NOT
                        and w not in _NOT_VOCATIVE and w not in _NOT_SUBJECT and not _MEDICAL_SHAPE.search(w)
                        and (w in names or len(w) >= 4)):
                    out.append(Span(a, b, "RELATIVE", "lexicon:spoken_person", 0.6))
        for m in _NAME_PAIR.finditer(low):
            pair = [(m.start(g), m.end(g), m.group(g)) for g in ("a", "b")]
            if not all(text[a:b].islower() and w not in dictionary and w not in medical and w not in _PASSING_NOT
                       and not _MEDICAL_SHAPE.search(w) for a, b, w in pair):
                continue
            if not any(w in names for _, _, w in pair):
                continue
            out.extend(Span(a, b, "RELATIVE", "lexicon:spoken_person", 0.6) for a, b, _ in pair)
    if "will " in low:
        for m in _WILL_NAME.finditer(low):
            if text[m.start("n"):m.end("n")] == "will":
                out.append(Span(m.start("n"), m.end("n"), "RELATIVE", "lexicon:spoken_person", 0.6))
    return out
