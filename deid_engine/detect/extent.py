"""Name extents: an initial or a hyphenated first part before a name belongs to it.

Every detector finds ``SMITH`` in ``J SMITH ORDERED`` or ``Painter`` in
``Stord-Painter MD`` more easily than the piece in front of it, and a left-over
initial is still an identifier (``J.`` + the unit + the date narrow a clinician
down). ``NameExtentFilter`` grows NAME spans (not the user's) to the left over
a capital initial (``J``, ``B.``) that starts a word, and, in mixed-case text,
over a capitalised word joined by a hyphen (``Al-``), and to the right over the
second half of a double surname (``Campbell-Gayle``). ``A`` and ``I`` need a period
(``A. Smith``): bare they are words. Spans never grow into another span. A name
span also sheds what a detector ran into: trailing field words and credentials
(``mrn``, ``dob``, ``MD``, ``RN``), leading role / relation words and titles (``partner Sam``,
``nurse Ayaan``, ``Mrs Okafor``) and edge punctuation (``. vincent``); a span that is only such
a word, right before another name span or lower-case in mixed-case text, is dropped.
"""

from __future__ import annotations

import re as _re
from dataclasses import replace

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..taxonomy import category_of, is_label
from ..types import Document, Span
from .merge import source_family

# words that end a name span when a detector ran past the name ("maria gonzalez mrn 447...")
_TRAILING = regex.compile(r"(?i)(?:[ \t,]+(?:mrn|dob|d\.o\.b|ssn|mr#|id|acct|md|m\.d|rn|np|pa-c|pa|phd|rrt|dds|lpn|crnp|"
                          r"pharmd|msw|lcsw|cnm|rph|dpt|otr))+[.:#]?$")
# a possessive or a function word glued on with a hyphen after a person's name: "dr. [white]'s order",
# "son [Rob]-who states"; the name ends before it (the probe guideline leaves the possessive outside)
# "let's", "how's", "that's": a contraction, not a possessive (the vetoes judge the whole word)
_CONTRACTION_HEADS = frozenset({"let", "how", "what", "that", "it", "he", "she", "there", "here", "where", "who",
                                "when", "why", "this", "everybody", "everyone", "nobody", "somebody", "someone",
                                "anyone", "anybody", "everything", "nothing", "something", "one", "today"})
_NAME_TAIL = regex.compile(r"(?i)(?<=\p{L})(?:['’]s|-(?:who|he|she|they|and|is|was|will|states|says|said|called|aware|"
                           r"here|there|to|at|in|on|re))$")
# role and relation words a detector may take into (or for) a name: "partner Sam", "nurse Ayaan",
# "coordinator Kendall Price"; titles too (the guideline keeps them outside the span)
ROLE_WORDS = frozenset({
    "nurse", "doctor", "dr", "physician", "surgeon", "consultant", "registrar", "resident", "attending", "intern",
    "fellow", "technician", "tech", "therapist", "physio", "physiotherapist", "coordinator", "coordinater",
    "manager", "worker", "assistant", "aide", "interpreter", "translator", "pharmacist", "chaplain", "midwife",
    "counselor", "counsellor", "dietitian", "dietician", "receptionist", "secretary", "navigator", "advocate",
    "caseworker", "sw", "ot", "pt", "rn", "np", "pa", "md", "provider", "clinician", "paramedic", "medic",
    "rt", "rrt", "slp", "cm", "cna", "lpn", "ho", "sn", "pca",
    "carer", "caregiver", "volunteer", "practitioner", "gp", "pcp",
    "wife", "husband", "partner", "spouse", "son", "daughter", "mother", "father", "mom", "mum", "dad",
    "sister", "brother", "aunt", "uncle", "niece", "nephew", "cousin", "grandson", "granddaughter",
    "grandmother", "grandfather", "grandma", "grandpa", "girlfriend", "boyfriend", "fiance", "fiancee",
    "friend", "neighbor", "neighbour", "roommate", "flatmate", "guardian", "stepson", "stepdaughter",
    "stepmother", "stepfather", "mr", "mrs", "ms", "miss", "mx", "prof", "professor", "sir", "dame",
    "mister", "missus", "master", "madam", "madame", "drs",
    "stepdad", "stepmum", "stepmom", "stepbrother", "stepsister", "granddad", "grandad", "gran", "nanna", "nana",
    "granny", "auntie", "aunty", "hubby", "mate", "housemate", "flatmate", "colleague", "coworker", "landlord",
    "landlady", "boss", "godmother", "godfather",
    "compadre", "comadre", "meemaw", "memaw", "mamaw", "pawpaw", "papaw", "nonna", "nonno", "abuelita", "abuelito",
    "mija", "mijo", "tia", "tio", "sponsor", "teacher", "coach",
    # clergy and other leaders: "Fr Tom Keaveney", "youth leader tunde", "pastor Mike"
    "fr", "father", "rev", "revd", "reverend", "pastor", "vicar", "minister", "priest", "imam", "rabbi", "deacon",
    "leader", "supervisor", "foreman",
    "my", "his", "her", "their", "our", "the",
})
# trailing lower-case words (not name particles) after a capitalised name, with any separator
_LOWER_TAIL = regex.compile(r"(?:[ \t]+[-–][ \t]*|[ \t]*[-–][ \t]+|[ \t]*[,:;][ \t]*|[ \t]+)(?!(?:de|del|da|das|do|dos|di|du|la|le|van|von|der|den|"
                            r"ten|ter|bin|binti|ibn|al|el|y|e|st)\b)\p{Ll}+(?:[ \t]+\p{Ll}+)*[ \t]*$")


_SPEAKER_WORDS = frozenset({"patient", "pt", "caller", "relative", "parent", "speaker", "client", "carer", "husband",
                            "wife", "gp", "neighbour", "neighbor", "friend"})


def _mixed_case(text: str) -> bool:
    """Mixed-case text (the lexicon detector's definition: 2-70% capitals)."""
    from .lexicon import LexiconDetector

    return LexiconDetector._case_mode(text) == "mixed"


_ROLE_TOKEN = regex.compile(r"\p{L}+\.?")
_INITIAL = regex.compile(r"(?<![\w'’/&.\-])(?P<i>[A-Z])(?P<dot>\.)?[ \t]{0,2}$")
_HYPHEN_PART = regex.compile(r"(?<![\w\-])(?P<w>[A-Z][a-z]{2,}|Al|El|Ul|Bin|Abu|Ibn|Ben|Mc|Mac)-$")
_HYPHEN_AFTER = regex.compile(r"-(?:\p{Lu}\p{Ll}{2,}|\p{Lu}{3,})(?![\p{L}\p{N}'’-])")
# lower-case notes: "tomorrow. s. roberto rrt", "barbara j. parrilli": a letter with its period
_LOWER_INITIAL = regex.compile(r"(?<![\w'’/&.\-])(?P<i>[b-hj-z])\.[ \t]{1,2}$")


def _cat(label: str) -> str:
    return category_of(label) if is_label(label) else label


class NameExtentFilter:
    name = "name_extent"

    def __init__(self, lang: str = "en"):
        self.lang = lang

    def load(self) -> None:
        return None

    def describe(self) -> dict:
        return {"grows": "NAME spans over a leading initial or hyphenated part"}

    @staticmethod
    def _drop_cue_spans(text: str, ordered: list[Span]) -> list[Span]:
        """A NAME span made only of role/relation words is the cue, not the name, when a NAME
        span follows it on the line ("partner" + "Thabo") or it is lower-case in mixed-case text."""
        mixed = any(map(str.isupper, text)) and any(map(str.islower, text))  # per character, in C
        out = []
        for k, s in enumerate(ordered):
            if _cat(s.label) == "NAME" and source_family(s.source) != "user":
                words = _ROLE_TOKEN.findall(text[s.start:s.end])
                if words and all(w.rstrip(".").casefold() in ROLE_WORDS for w in words):
                    nxt = ordered[k + 1] if k + 1 < len(ordered) else None
                    followed = nxt is not None and _cat(nxt.label) == "NAME" and regex.fullmatch(
                        r"[ \t]{1,2}|[.,:][ \t]{0,2}", text[s.end:nxt.start]) is not None
                    lower = mixed and text[s.start:s.end].islower()
                    # a speaker label ("neighbour: hello doctor") or a possessed role ("my neighbour gwen")
                    label = regex.match(r"[ \t]*:", text[s.end:s.end + 3]) is not None
                    owned = regex.search(r"(?i)\b(?:my|your|his|her|our|their|the)[ \t]+$", text[max(0, s.start - 8):s.start])
                    if followed or lower or label or (owned and text[s.start:s.end].islower()):
                        continue
            out.append(s)
        return out

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        text = document.text
        ordered = sorted(spans, key=lambda s: s.start)
        mixed = None  # computed on the first capitalised name
        if self.lang == "en":  # the role words are English
            ordered = self._drop_cue_spans(text, ordered)
        out: list[Span] = []
        prev_end = 0
        for s in ordered:
            new = s
            if _cat(s.label) == "NAME" and source_family(s.source) != "user":
                start = s.start
                while True:
                    window = text[max(prev_end, start - 24):start]
                    m = _INITIAL.search(window)
                    if m and (m.group("dot") or m.group("i") not in "AI") and (m.group("dot") or window.endswith(" ")):
                        start = start - len(window) + m.start("i")
                        continue
                    h = _HYPHEN_PART.search(window)
                    if h and any(c.islower() for c in text[s.start:s.end]):
                        start = start - len(window) + h.start("w")
                        continue
                    if start == s.start and self.lang == "en" and text[s.start:s.end].islower():
                        lo = _LOWER_INITIAL.search(window)
                        if lo and not (mixed if mixed is not None else (mixed := _mixed_case(text))):
                            at = start - len(window) + lo.start("i")
                            before = text[:at].rstrip(" \t")
                            if before[-1:] in ("", ".", "!", "?", ":", "\n") or (
                                    out and _cat(out[-1].label) == "NAME" and out[-1].end == len(before)):
                                start = at  # after a sentence or a first name; never "a." or "i."
                    break
                end = s.end
                # leading role / relation words and titles: "partner Sam" -> "Sam"
                while self.lang == "en":
                    m = _ROLE_TOKEN.match(text, start, end)
                    if not m or m.group().rstrip(".").casefold() not in ROLE_WORDS:
                        break
                    rest = regex.match(r"[.,:]?[ \t]+", text[m.end():end])
                    if not rest or m.end() + rest.end() >= end:
                        break
                    start = m.end() + rest.end()
                piece = text[start:end]
                m = _TRAILING.search(piece)
                if m and m.start() > 0:
                    end = start + m.start()
                if self.lang == "en":
                    m = _NAME_TAIL.search(text, start, end)
                    if m and m.start() > start + 1 and not text[end:end + 1].isalpha() \
                            and text[start:m.start()].casefold() not in _CONTRACTION_HEADS:
                        end = m.start()
                if self.lang == "en" and regex.match(r"[ \t]*:", text[end:end + 3]):
                    # "gwen neighbour: oh yes": the next speaker's label ran into the name
                    t = regex.search(r"[ \t]+(\p{L}+)$", text[start:end])
                    if t and t.group(1).casefold() in ROLE_WORDS | _SPEAKER_WORDS:
                        end = start + t.start()
                while start < end and text[start] in ".,;:-'\"(|/ \t":
                    start += 1  # ". vincent": a span never starts with punctuation
                while end > start + 1 and text[end - 1] in ",;:-(|/\\ \t":
                    end -= 1  # nor ends with a separator ("Chen Wei |")
                if self.lang == "en" and text[start:start + 1].isupper() and (
                        mixed if mixed is not None else (mixed := _mixed_case(text))):
                    # "Mbeki - quick": a capitalised name does not run on into lower-case words
                    m = _LOWER_TAIL.search(text, start, end)
                    if m and m.start() > start:
                        end = m.start()
                if end > start and text[end - 1].isalpha():
                    # "Campbell" + "-Gayle", "O'CONNOR" + "-DIAZ": the second half of a double surname
                    h = _HYPHEN_AFTER.match(text, end)
                    if h and not any(o.start < h.end() and o.end > end for o in ordered if o is not s):
                        end = h.end()
                if (start, end) != (s.start, s.end) and end > start:
                    new = s.with_bounds(start, end)
            out.append(new)
            prev_end = max(prev_end, new.end)
        return out


_NAME_TOKEN = regex.compile(r"\p{L}[\p{L}'’]*(?:-\p{L}[\p{L}'’]*)*")

# Per-note word finders. Compiling a note's own alternation with ``regex`` costs 0.4-4 ms (its look-arounds
# are slow to compile), more than the scan; on ASCII text the same matches come from one scan of a fixed
# pattern and set look-ups (non-ASCII text still compiles the alternation, whose case folding is exact there).
_ASCII_WORD_START = _re.compile(r"(?<![A-Za-z0-9'\-])[A-Za-z]")
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ASCII_DIGITS = frozenset("0123456789")
_AFTER_NAME_ASCII = _ASCII_LETTERS | _ASCII_DIGITS | {"-"}   # (?![\p{L}\p{N}-]) on ASCII text
_AFTER_PLACE_ASCII = _ASCII_LETTERS | {"'", "-"}            # (?![\p{L}'’-]) on ASCII text
# a name said to someone (NameRepeatFilter.filter); "(?:[a-z]+)" stands for the note's names
_ADDRESSED_SRC = (r"(?<=(?:^|[ \t])(?!(?:the|a|an|my|your|his|her|our|their|this|that|of|in|on|to|with|for|"
                  r"some|any|no|pay|paid|gas|phone)[ \t])[a-z'’]+[ \t]+)(?:[a-z]+)"
                  r"(?=[ \t]*(?:[.!?]|$)|[ \t]+(?:\[|[a-z]{1,15}:)|[ \t]+so\b)")
_ADDRESSED_ASCII = regex.compile(_ADDRESSED_SRC, regex.MULTILINE)
# a name that is also a word, opening a clause before a verb or owning a phone (_repeat_word_names); "[A-Za-z]+"
# stands for the note's names
_WORD_NAME_SRC = (r"(?:(?<=^|[.!?;,:)\]][ \t]*|\n[ \t]*|[.!?][ \t]*-[ \t]*)(?P<s>[A-Za-z]+)(?=[ \t]+(?:is|was|will|asked|asks|"
                  r"called|calls|lives|visited|wants|wanted|states|stated|says|said|agrees|agreed|would|has|"
                  r"had|arrived|left|phoned|requests|requested|spoke|brought|took|came|comes)\b))|"
                  r"(?<![\p{L}\p{N}'’-])(?P<p>[A-Za-z]+)(?=['’]s[ \t]+(?:#|(?:no|number|cell|phone|mobile|home|work)\b))")
_WORD_NAME_ASCII = regex.compile(_WORD_NAME_SRC, regex.MULTILINE)
_WORD_NAME_ASCII_I = regex.compile(_WORD_NAME_SRC, regex.MULTILINE | regex.IGNORECASE)


def _find_words_ascii(text: str, words, ignorecase: bool, forbid: frozenset[str]) -> list[tuple[int, int]]:
    """For ASCII ``text`` and ``words`` that start with a letter: the (start, end) of each match that
    ``regex.finditer`` gives for ``(?<![\\p{L}\\p{N}'’-])(?:w1|w2|...)(?!<a char of forbid>)`` with the
    alternatives longest first (IGNORECASE when ``ignorecase``): at each word start the longest word whose
    next character is not forbidden, scanning on from the end of a match."""
    keys = {w.lower() for w in words} if ignorecase else set(words)
    lens = sorted({len(w) for w in keys}, reverse=True)
    n = len(text)
    out: list[tuple[int, int]] = []
    pos = 0
    for m in _ASCII_WORD_START.finditer(text):
        a = m.start()
        if a < pos:
            continue
        for ln in lens:
            b = a + ln
            if b > n:
                continue
            piece = text[a:b]
            if (piece.lower() if ignorecase else piece) in keys and (b == n or text[b] not in forbid):
                out.append((a, b))
                pos = b
                break
    return out


_BARE_SOURCE = "lexicon:spoken_bare_name"


class NameRepeatFilter:
    """A name found once is found everywhere in the same document.

    Every word of a NAME span (confidence >= ``min_confidence``) that no English or medical
    word list holds (``Dottie``, ``Okafor``, not ``Grace`` or ``Bell``) is marked wherever else it
    occurs as a whole word outside any span, with the span's label (``Call me Dottie`` ...
    ``How old are you, Dottie?``). In mixed-case text the occurrence must have the same case;
    in lower-case or ALL-CAPS text case is ignored.
    """

    name = "name_repeat"

    def __init__(self, lang: str = "en", min_confidence: float = 0.5):
        self.lang = lang
        self.min_confidence = min_confidence
        self._words: frozenset[str] | None = None

    def load(self) -> None:
        """Nothing up front: the word lists load on the first document with a name."""

    def describe(self) -> dict:
        return {"min_confidence": self.min_confidence}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        if self.lang != "en":
            return spans
        text = document.text
        spans = self._repeat_places(text, spans)
        names: dict[str, str] = {}
        for s in spans:
            if _cat(s.label) != "NAME" or s.confidence < self.min_confidence or s.label == "USERNAME" \
                    or s.source == _BARE_SOURCE:
                continue
            for m in _NAME_TOKEN.finditer(text, s.start, s.end):
                names.setdefault(m.group(), s.label)
        if not names:
            return spans
        # a bare given name in speech (spoken.bare_given_names) guessed its role: the same name found with a
        # role elsewhere in the note gives it that role ("teo" after "my son teo")
        spans = [replace(s, label=names[text[s.start:s.end]]) if s.source == _BARE_SOURCE
                 and names.get(text[s.start:s.end], s.label) != s.label else s for s in spans]
        self._load_words()
        from .lexicon import LexiconDetector, norm

        keep = {w: lab for w, lab in names.items()
                if len(w) >= (4 if w.isupper() else 3)  # short capitals are acronyms
                and not regex.search(r"(?i)['’](?:m|s|re|ve|ll|d|t)$", w)  # "i'm", "it's": never a name
                and not all(norm(p) in self._words for p in regex.split(r"[-]", w) if p)
                and not self._protected.is_protected(w)}  # Parkinson, Addison: eponyms elsewhere
        mixed = LexiconDetector._case_mode(text) == "mixed"
        # a name that is also a word ("ivy", "bill") repeats in lower-case speech only where a name is said to
        # someone: closing a turn or a clause ("did you hit your head ivy / patient:", "i understand ivy so")
        addressed = {} if mixed else {w: lab for w, lab in names.items()
                                      if w not in keep and w.islower() and len(w) >= 3 and w.isalpha()
                                      and not self._protected.is_protected(w)}
        # a name that is also a word ("rose", "hope", "ART"), found as a person in this note, is the person again where
        # only a person fits: before a possessive with a contact ("rose's # 401-..."), or opening a clause before a
        # verb of the note ("ROSE IS HCP", "Art asked to", "bud lives in"); in mixed-case text only capitalised
        worded = {w: lab for w, lab in names.items()
                  if w not in keep and w.isalpha() and len(w) >= 3 and not self._protected.is_protected(w)
                  and w.casefold() not in _NOT_WORD_NAMES}
        if worded:
            spans = self._repeat_word_names(text, spans, worded, mixed)
        if not keep and not addressed:
            return spans
        flags = 0 if mixed else regex.IGNORECASE
        copies: set[str] = set()
        if mixed:  # "Ngozi: ..." then "thanks ngozi": a lower-case copy of a non-word name counts too
            copies = {w.lower() for w in keep if not w.islower() and w.lower() not in keep}
            keep.update({w.lower(): lab for w, lab in list(keep.items()) if w.lower() in copies})
        taken = sorted((s.start, s.end) for s in spans)
        import bisect

        added: list[Span] = []
        if addressed:
            if text.isascii():  # every lower-case word in that place, then a set look-up (same matches)
                found_a = [m.span() for m in _ADDRESSED_ASCII.finditer(text) if m.group() in addressed]
            else:
                alt_a = "|".join(regex.escape(w) for w in sorted(addressed, key=len, reverse=True))
                rx_a = regex.compile(_ADDRESSED_SRC.replace("(?:[a-z]+)", f"(?:{alt_a})", 1), regex.MULTILINE,
                                     cache_pattern=False)
                found_a = [m.span() for m in rx_a.finditer(text)]
            for a, b in found_a:
                k = bisect.bisect_right(taken, (a, len(text) + 1))
                if (k > 0 and taken[k - 1][1] > a) or (k < len(taken) and taken[k][0] < b):
                    continue
                added.append(Span(a, b, addressed[text[a:b]], "lexicon:repeat", 0.55,
                                  "same name said to someone elsewhere in the note"))
        if not keep:
            return sorted([*spans, *added], key=lambda s: s.start) if added else spans
        if text.isascii():
            found = _find_words_ascii(text, keep, bool(flags), _AFTER_NAME_ASCII)
        else:
            alt = "|".join(regex.escape(w) for w in sorted(keep, key=len, reverse=True))
            # unique to this note: kept out of regex's pattern cache, where it would push out the shared patterns
            rx = regex.compile(rf"(?<![\p{{L}}\p{{N}}'’-])(?:{alt})(?![\p{{L}}\p{{N}}-])", flags, cache_pattern=False)
            found = [m.span() for m in rx.finditer(text)]
        for a, b in found:
            k = bisect.bisect_right(taken, (a, len(text) + 1))
            if (k > 0 and taken[k - 1][1] > a) or (k < len(taken) and taken[k][0] < b):
                continue  # overlaps a span
            g = text[a:b]
            if g in copies and regex.search(r"(?:^|[.!?:]\s*|\n\s*)$", text[max(0, a - 3):a]):
                continue  # "quist was a typo": a lower-case copy opening a sentence is not taken
            label = keep.get(g) or next(lab for w, lab in keep.items() if w.casefold() == g.casefold())
            added.append(Span(a, b, label, "lexicon:repeat", 0.6, "same name found elsewhere in the note"))
        if not added:
            return spans
        return sorted([*spans, *added], key=lambda s: s.start)

    @staticmethod
    def _repeat_word_names(text: str, spans: list[Span], worded: dict[str, str], mixed: bool) -> list[Span]:
        import bisect

        forms = {}
        for w, lab in worded.items():
            if mixed:
                if w[:1].isupper():
                    forms[w] = lab
            else:
                forms[w.casefold()] = lab
        if not forms:
            return spans
        if text.isascii():  # every letter run in those places, then a set look-up (same matches)
            rx = _WORD_NAME_ASCII if mixed else _WORD_NAME_ASCII_I
            keys = forms if mixed else {w.lower() for w in forms}
            found = [m for m in rx.finditer(text) if (m.group(m.lastgroup) if mixed else m.group(m.lastgroup).lower()) in keys]
        else:
            alt = "|".join(regex.escape(w) for w in sorted(forms, key=len, reverse=True))
            rx = regex.compile(_WORD_NAME_SRC.replace("[A-Za-z]+", alt), (0 if mixed else regex.IGNORECASE) | regex.MULTILINE,
                               cache_pattern=False)
            found = list(rx.finditer(text))
        taken = sorted((s.start, s.end) for s in spans)
        added = []
        for m in found:
            g = "s" if m.group("s") is not None else "p"
            a, b = m.start(g), m.end(g)
            k = bisect.bisect_right(taken, (a, len(text) + 1))
            if (k > 0 and taken[k - 1][1] > a) or (k < len(taken) and taken[k][0] < b):
                continue
            w = m.group(g)
            label = forms.get(w) or forms.get(w.casefold())
            if label is None:
                continue
            added.append(Span(a, b, label, "lexicon:repeat", 0.6, "same name found elsewhere in the note"))
        return sorted([*spans, *added], key=lambda x: x.start) if added else spans

    def _load_words(self) -> None:
        if self._words is None:
            from .protected import ProtectedTermsFilter, _load_dictionary

            self._words = _load_dictionary()
            self._protected = ProtectedTermsFilter(self.lang)

    def _repeat_places(self, text: str, spans: list[Span]) -> list[Span]:
        """A one-word place name found once is found at its other whole-word occurrences in the note
        (``to QUARTERMAIN 2`` ... ``F-MICU/QUARTERMAIN/CCU``, ``QUARTERMAIN3``): a word of a hospital,
        city, organisation or generic place span that no English or medical list holds and that is
        no eponym, of 4 letters or more (short capitals are acronyms). A floor number glued to it
        stays outside (``QUARTERMAIN[3]``)."""
        places: dict[str, str] = {}
        for s in spans:
            if s.label not in _REPEAT_PLACE_LABELS or s.confidence < self.min_confidence:
                continue
            for m in _NAME_TOKEN.finditer(text, s.start, s.end):
                w = m.group()
                if len(w) >= 4 and w.isalpha():
                    places.setdefault(w, s.label)
        if not places:
            return spans
        self._load_words()
        from .lexicon import LexiconDetector, norm

        from .policy import is_state_or_country
        from .vetoes import _LANGUAGES

        keep = {w: lab for w, lab in places.items()
                if norm(w) not in self._words and w.casefold() not in _PLACE_HEAD_WORDS
                and not any(norm(v) in self._words for v in _us_spellings(w))  # "Orthopaedic", "Centre"
                and w.casefold() not in _LANGUAGES  # "madurai tamil nadu" ... "comfortable in tamil"
                and not self._protected.is_protected(w)
                and not is_state_or_country(w)}  # "University of [Maryland]" does not make every Maryland a place
        if not keep:
            return spans
        mixed = LexiconDetector._case_mode(text) == "mixed"
        flags = 0 if mixed else regex.IGNORECASE
        if text.isascii():
            found = _find_words_ascii(text, keep, bool(flags), _AFTER_PLACE_ASCII)
        else:
            alt = "|".join(regex.escape(w) for w in sorted(keep, key=len, reverse=True))
            # unique to this note: kept out of regex's pattern cache
            rx = regex.compile(rf"(?<![\p{{L}}\p{{N}}'’-])(?:{alt})(?![\p{{L}}'’-])", flags, cache_pattern=False)
            found = [m.span() for m in rx.finditer(text)]
        import bisect

        taken = sorted((s.start, s.end) for s in spans)
        added: list[Span] = []
        for a, b in found:
            k = bisect.bisect_right(taken, (a, len(text) + 1))
            if (k > 0 and taken[k - 1][1] > a) or (k < len(taken) and taken[k][0] < b):
                continue  # overlaps a span
            g = text[a:b]
            label = keep.get(g) or next(lab for w, lab in keep.items() if w.casefold() == g.casefold())
            if _s18b_device_maker(text, Span(a, b, label)):
                continue  # session 18: "St Jude Valley Hospital (not a St. Jude device)": the device's maker
            added.append(Span(a, b, label, "lexicon:repeat", 0.6, "same place found elsewhere in the note"))
        if not added:
            return spans
        return sorted([*spans, *added], key=lambda s: s.start)


def _s18b_device_maker(text: str, span: Span) -> bool:
    from .protected import _s18b_device_maker as maker

    return maker(text, span)


# words never repeated as names however they were tagged once
def _us_spellings(word: str) -> list[str]:
    """American spellings of a British word (``Orthopaedic`` -> ``Orthopedic``, ``Centre`` -> ``Center``)."""
    w = word.casefold()
    out = [w.replace("ae", "e"), w.replace("oe", "e"), w[:-3] + "or" if w.endswith("our") else w,
           w[:-3] + "ter" if w.endswith("tre") else w]
    return [v for v in out if v != w]


_NOT_WORD_NAMES = frozenset("""will may can june april august the and but she he they you this that who what pt
patient family wife husband son daughter mother father sister brother nurse doctor team""".split())

# place spans whose words repeat through the note (not streets, ZIP codes, states or countries: a state may be
# dropped by the place policy, and a street's words are everyday words)
_REPEAT_PLACE_LABELS = frozenset({"HOSPITAL", "CITY", "ORGANIZATION", "LOCATION"})
_PLACE_HEAD_WORDS = frozenset({"hospital", "hosp", "center", "centre", "clinic", "campus", "rehab", "medical",
                               "university", "college", "school", "county", "city", "town", "village", "street"})
