"""Redaction policy filters: what the site's rules count as PHI.

``AgePolicyFilter``: HIPAA Safe Harbor (45 CFR 164.514(b)(2)(i)(C)) lists only ages
over 89 as identifiers; ages under 90 may stay in the data, and clinical research
usually needs them. The setting ``ages`` chooses:

- ``all`` (default; recall first, and what GDPR-style corpora such as MEDDOCAN annotate):
  every AGE span is kept;
- ``over89`` (Safe Harbor, the PhysioNet deid annotation guideline): an AGE span whose
  stated value is 89 or less is dropped; ages without a readable number stay (when in
  doubt, redact).

``PlacePolicyFilter``: Safe Harbor (164.514(b)(2)(i)(B)) lists "all geographic
subdivisions smaller than a State"; a state or a country may stay. The setting ``places``:

- ``all`` (default; recall first, and what i2b2-style guidelines annotate): every place is kept;
- ``safe_harbor`` (the PhysioNet deid annotation guideline): a place span that is exactly a US
  state (``California``, ``NH``, ``Fla``) or a country (``Bermuda``, ``England``) is dropped. Names
  shared by a city (``New York``, ``Washington``) stay, as do states inside an institution's name
  (``University of Maryland``, ``U Maryland ER``) and anything longer (``Towson, MD``). The floor or
  unit number after a named building is left out of its span (``Quartermain 2`` -> ``Quartermain``;
  not ``Ward 5B`` or ``Bed 4``, where the number is all there is). The generic head of a facility's name is
  left out too (``Calvert [Hospital]``, ``Kessler [Medical Center]``, ``Baltimore [rehab]``, ``GH [EW]``): the
  name before it is the identifier, and the guideline marks it alone. Words that are part of a name
  (``Memorial``, ``General``, ``University``) stay.

``ProfessionPolicyFilter``: Safe Harbor's 18 identifiers (164.514(b)(2)(i)(A)-(R)) do not include a
person's occupation, and occupational history is clinically useful (exposure histories). The setting
``professions``:

- ``all`` (default; recall first, and what the i2b2 2014 guideline and our probe guideline annotate):
  every PROFESSION span is kept;
- ``safe_harbor`` (the PhysioNet deid gold standard marks no occupations): every PROFESSION span is
  dropped. It runs after the other filters, so they see the same spans under either setting.

Spans added or accepted by the user are never dropped.
"""

from __future__ import annotations

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..taxonomy import category_of, is_label
from ..types import Document, Span
from .merge import source_family

AGE_POLICIES = ("all", "over89")
PLACE_POLICIES = ("all", "safe_harbor")
PROFESSION_POLICIES = ("all", "safe_harbor")
# traditional state abbreviations (our own list) and state names that are also big cities
_STATE_ABBREVIATIONS = frozenset("""ala ariz ark calif cal colo conn del fla ga ill ind kan kans ky la md mass mich
minn miss mo mont neb nebr nev okla ore penn pa tenn tex va vt wash wis wisc wyo""".split())
_CITY_TOO = frozenset({"new york", "washington"})
# countries in everyday use that the sovereign-state list does not hold (no smaller than a state)
_COUNTRIES_TOO = frozenset({"england", "scotland", "wales", "northern ireland", "great britain", "britain", "uk",
                            "u.k", "usa", "u.s.a", "america", "united states", "united states of america"})
# the floor or unit number after a named building: "Quartermain [2]", "GH 7" (a number no smaller than ...
# a floor of a building identifies nobody; the building's name stays redacted)
_UNIT_NUMBER_TAIL = regex.compile(r"[ \t]+\d{1,2}[A-Za-z]?$")
# words that name a kind of room or unit, not a building: their number is the whole identifier ("Ward 5B")
_GENERIC_UNIT_WORDS = frozenset({"ward", "unit", "floor", "level", "bay", "room", "rm", "bed", "pod", "wing", "suite",
                                 "clinic", "cubicle", "cube", "side", "east", "west", "north", "south", "block",
                                 "building", "bldg", "tower", "station", "stn", "area", "zone", "lounge", "icu",
                                 "micu", "sicu", "ccu", "nicu", "picu", "cvicu", "ctic", "hdu", "ed", "er", "or",
                                 "pacu", "theatre", "theater", "apartment", "apt", "flat", "house", "lot", "gate"})
# the generic head of a facility name, left outside the span under safe_harbor (PhysioNet train gold: Location
# spans hold "hospital"/"hosp" twice in 1,243 PHI and never "center", "medical", "rehab", "clinic" or "campus";
# the word right after a Location span is hospital 21, rehab 10, hosp 7, er/ew 9, medical 3, campus 3 times)
_GENERIC_HEAD_WORDS = frozenset({"hospital", "hospitals", "hosp", "hospiatal", "hopsital", "hosptial", "hospial",
                                 "medical", "med", "center", "centre", "ctr", "cntr", "rehab", "rehabilitation",
                                 "campus", "clinic", "clinics", "home", "nh", "snf", "living", "house", "tcu", "er",
                                 "ew", "ed", "micu", "sicu", "ccu", "icu", "facility"})
# modifiers trimmed only together with a head after them ("Chester River [Heart Center]"; "Sacred Heart" stays whole)
_GENERIC_MODIFIERS = frozenset({"heart", "cancer", "nursing", "assisted", "care", "medical", "med"})
_KEEP_LAST = frozenset({"of", "the", "and", "&", "for", "at", "in", "st", "st.", "saint", "mt", "mount", "u", "uof"})
_NUMBER = regex.compile(r"\d{1,3}")
_OVER_89_WORDS = regex.compile(r"(?i)\b(?:ninety|hundred|noventa|cien|ciento)")


def stated_age(text: str) -> int | None:
    """The age an AGE span states in digits (``82 yo`` -> 82, ``in her 80s`` -> 80), or None."""
    m = _NUMBER.search(text)
    if m is None:  # an age in words ("fifty nine"): the pattern detector's parser
        from .patterns import spelled_number
        return spelled_number(text)
    return int(m.group())


def allowed_by_safe_harbor(text: str) -> bool:
    """True when Safe Harbor lets this age stay: a number of 89 or less, no 'ninety'."""
    if _OVER_89_WORDS.search(text):
        return False
    v = stated_age(text)
    return v is not None and v <= 89


class AgePolicyFilter:
    name = "age_policy"

    def __init__(self, lang: str = "en", policy: str | None = None):
        self.lang = lang
        self.policy = policy

    def load(self) -> None:
        if self.policy is None:
            from ..config import load_settings

            try:
                self.policy = load_settings().ages
            except Exception:  # unreadable settings: the safe default
                self.policy = "all"
        if self.policy not in AGE_POLICIES:
            raise ValueError(f"unknown age policy {self.policy!r}; known: {', '.join(AGE_POLICIES)}")

    def describe(self) -> dict:
        if self.policy is None:  # name the policy in effect: it keys the review's prediction cache
            self.load()
        return {"ages": self.policy}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        if self.policy is None:
            self.load()
        if self.policy == "all":
            return spans
        text = document.text
        return [s for s in spans
                if not ((category_of(s.label) if is_label(s.label) else s.label) == "AGE"
                        and source_family(s.source) != "user"
                        and allowed_by_safe_harbor(text[s.start:s.end]))]


_INSTITUTION_BEFORE = regex.compile(r"(?i)(?:\b(?:of|u|univ|university)|uof)\.?[ \t]{1,2}$")
_INSTITUTION_AFTER = regex.compile(r"(?i)[ \t]{1,2}(?:hospital|hosp|medical|med|center|centre|er|ed|general|clinic|"
                                   r"health|university|college|state|memorial|shock|trauma|children'?s|va|rehab|"
                                   r"regional|community|cancer|heart)\b")


def _inside_a_name(text: str, s: Span) -> bool:
    """``University of [Maryland]``, ``U [Maryland] ER``, ``[Georgia] Regional``: the state names an
    institution, which Safe Harbor counts as PHI."""
    return bool(_INSTITUTION_BEFORE.search(text, max(0, s.start - 12), s.start)
                or _INSTITUTION_AFTER.match(text, s.end))


_STATE_OR_COUNTRY: frozenset[str] | None = None


def is_state_or_country(text: str) -> bool:
    """Whether a place's text is exactly a US state (name or code) or a country (``the UK``, ``Maryland's``);
    names shared by a big city (``New York``, ``Washington``) are not."""
    global _STATE_OR_COUNTRY
    if _STATE_OR_COUNTRY is None:
        from ..lexicons import load_lexicon

        names = {w.casefold() for li in ("states_us", "states_us_abbr", "countries_en") for w in load_lexicon(li)}
        _STATE_OR_COUNTRY = frozenset((names | _STATE_ABBREVIATIONS | _COUNTRIES_TOO) - _CITY_TOO)
    t = regex.sub(r"\s+", " ", text.strip().rstrip(".")).casefold()
    t = regex.sub(r"^the |['’]s?$", "", t)  # "the UK", "Maryland's"
    return t in _STATE_OR_COUNTRY


def _policy_setting(name: str, known: tuple[str, ...]) -> str:
    from ..config import load_settings

    try:
        value = getattr(load_settings(), name)
    except Exception:  # unreadable settings: the safe default
        value = "all"
    return value if value in known else "all"


class PlacePolicyFilter:
    name = "place_policy"

    def __init__(self, lang: str = "en", policy: str | None = None):
        self.lang = lang
        self.policy = policy

    def load(self) -> None:
        if self.policy is None:
            self.policy = _policy_setting("places", PLACE_POLICIES)
        if self.policy not in PLACE_POLICIES:
            raise ValueError(f"unknown place policy {self.policy!r}; known: {', '.join(PLACE_POLICIES)}")

    def describe(self) -> dict:
        if self.policy is None:  # name the policy in effect: it keys the review's prediction cache
            self.load()
        return {"places": self.policy}

    def _state_or_country(self, text: str) -> bool:
        return is_state_or_country(text)

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        if self.policy is None:
            self.load()
        if self.lang != "en":
            return spans
        if self.policy == "all":
            return _states_after_towns(document.text, spans)
        text = document.text
        out = []
        for s in spans:
            cat = category_of(s.label) if is_label(s.label) else s.label
            if (cat == "LOCATION" and s.label in ("LOCATION", "STATE", "COUNTRY")
                    and source_family(s.source) != "user" and self._state_or_country(text[s.start:s.end])
                    and not _inside_a_name(text, s)):
                continue
            if cat == "LOCATION" and source_family(s.source) != "user":
                s = _without_generic_head(text, _without_unit_number(text, s))
            out.append(s)
        return out


def _without_unit_number(text: str, s: Span) -> Span:
    """``Quartermain 2`` -> ``Quartermain``: under Safe Harbor the floor or unit number after a named
    building stays (it identifies nobody; the PhysioNet guideline marks the name alone). Kept whole:
    a number after a generic unit word (``Ward 5B``, ``Bed 4``, ``MICU 7``), a street number, a span
    that is the number alone."""
    piece = text[s.start:s.end]
    m = _UNIT_NUMBER_TAIL.search(piece)
    if m is None or m.start() == 0 or s.label in ("STREET", "ZIP", "LOCATION_OTHER"):
        return s
    name = piece[: m.start()].rstrip()
    words = regex.findall(r"[\p{L}'’]+", name)
    if not words or words[-1].casefold() in _GENERIC_UNIT_WORDS or not any(w[0].isalpha() for w in words):
        return s
    return Span(s.start, s.start + len(name), s.label, s.source, s.confidence, s.explanation)


_WORD = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}'’.&-]*")


def _without_generic_head(text: str, s: Span) -> Span:
    """``Calvert Hospital`` -> ``Calvert``, ``U OF MD MED CENTER`` -> ``U OF MD``, ``Chester River Heart
    Center`` -> ``Chester River``: under Safe Harbor the generic head words at the end of a facility's
    name are not identifiers (the PhysioNet guideline leaves them outside). Kept whole: a span of
    generic words only (``Medical Center``), a span whose remainder would end in a function word or a
    saint's title (``Hospital of [the] ...``, ``St [Hospital]``), streets, postcodes."""
    if s.label in ("STREET", "ZIP", "LOCATION_OTHER", "CITY", "STATE", "COUNTRY"):
        return s
    piece = text[s.start:s.end]
    words = list(_WORD.finditer(piece))
    k = len(words)
    if not words or words[-1].group().rstrip(".").casefold() not in _GENERIC_HEAD_WORDS:
        return s
    while k > 0 and words[k - 1].group().rstrip(".").casefold() in (_GENERIC_HEAD_WORDS | _GENERIC_MODIFIERS):
        k -= 1
    if k == len(words) or k == 0:
        return s
    last = words[k - 1].group().casefold()
    if last in _KEEP_LAST or last.rstrip(".") in _KEEP_LAST:
        return s
    end = s.start + words[k - 1].end()
    return Span(s.start, end, s.label, s.source, s.confidence, s.explanation)


_STATE_AFTER_TOWN = regex.compile(r",[ \t]{0,2}(?P<st>[A-Z]{2}|[a-z]{2})(?![\p{L}\p{N}])")
_STATE_CODES: frozenset[str] | None = None
_INFORMAL_STATE_AFTER_TOWN = regex.compile(r",?[ \t]{1,2}(?P<st>mass|penn|calif|cali|conn|fla|tenn|mich|wisc|minn|ariz|"
                                           r"colo|okla|jersey)(?![\p{L}\p{N}])(?![ \t]+(?:general|eye|ave|avenue|st|street|pike))")


def _state_codes() -> frozenset[str]:
    global _STATE_CODES
    if _STATE_CODES is None:
        from ..lexicons import load_lexicon

        try:
            _STATE_CODES = frozenset(w for w in load_lexicon("states_us_abbr") if len(w) == 2 and w.isupper())
        except KeyError:
            _STATE_CODES = frozenset()
    return _STATE_CODES


def _states_after_towns(text: str, spans: list[Span]) -> list[Span]:
    """Policy ``all`` (every place is PHI): ``PUTNAM, CT W/ SAH``, ``from Pawtucket, RI.``: a US state's postal code
    after a comma right after a town span is the town's state (the patterns need a ZIP code or the line's end to
    be sure). Under ``safe_harbor`` a state is no identifier and nothing is added."""
    added = []
    ordered = sorted(spans, key=lambda x: (x.start, x.end))
    for k, s in enumerate(ordered):
        if s.label not in ("CITY", "LOCATION") or source_family(s.source) == "user":
            continue
        inf = _INFORMAL_STATE_AFTER_TOWN.match(text, s.end)
        if inf is not None and text[s.start:s.end].islower():
            nxt = ordered[k + 1].start if k + 1 < len(ordered) else len(text)
            if inf.end() <= nxt:  # "in worcester mass i have a script": a state's short name after a town
                added.append(Span(inf.start("st"), inf.end("st"), "STATE", "pattern:state_after_town", 0.65,
                                  "a state's short name after a town"))
            continue
        m = _STATE_AFTER_TOWN.match(text, s.end)
        if m is None or m.group("st").upper() not in _state_codes() or (
                m.group("st").islower() and not text[s.start:s.end].islower()):  # "manchester,nh": both lower case
            continue
        nxt = ordered[k + 1].start if k + 1 < len(ordered) else len(text)
        if m.end() > nxt:
            continue  # already a span there
        added.append(Span(m.start("st"), m.end("st"), "STATE", "pattern:state_after_town", 0.7,
                          "a state's code after a town"))
    return sorted(spans + added, key=lambda x: (x.start, x.end)) if added else spans


class ProfessionPolicyFilter:
    """``professions``: ``all`` keeps every occupation; ``safe_harbor`` drops the PROFESSION spans the
    user did not add or accept (HIPAA Safe Harbor does not list occupations). Every language."""

    name = "profession_policy"

    def __init__(self, lang: str = "en", policy: str | None = None):
        self.lang = lang
        self.policy = policy

    def load(self) -> None:
        if self.policy is None:
            self.policy = _policy_setting("professions", PROFESSION_POLICIES)
        if self.policy not in PROFESSION_POLICIES:
            raise ValueError(f"unknown profession policy {self.policy!r}; known: {', '.join(PROFESSION_POLICIES)}")

    def describe(self) -> dict:
        if self.policy is None:  # name the policy in effect: it keys the review's prediction cache
            self.load()
        return {"professions": self.policy}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        if self.policy is None:
            self.load()
        if self.policy == "all":
            return spans
        return [s for s in spans
                if not ((category_of(s.label) if is_label(s.label) else s.label) == "PROFESSION"
                        and source_family(s.source) != "user")]
