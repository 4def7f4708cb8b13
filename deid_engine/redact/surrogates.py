"""Realistic, shape-preserving fake values for PHI spans.

``generate(label, original, rng, lang)`` returns a fake value of the same
taxonomy label that keeps the original's shape: name parts keep their order,
case and initials (``J. Smith`` -> ``K. Brown``, ``SMITH`` -> ``BROWN``);
dates keep their format; phones keep separators; IDs keep length and
character classes; e-mails, URLs and IP addresses stay valid-looking (on
reserved example domains and documentation address ranges); places come
from the bundled lexicons. ``lang="es"`` draws Spanish names and places.

``keyed_surrogate(label, original, key, lang)`` is the same with every choice
seeded by HMAC-SHA256(key, category + normalised original) instead of an rng,
so one original always gets the same surrogate in every file, run and
process. Names are seeded part by part (first name, surname, initial), so
``John Smith``, ``J. Smith`` and ``SMITH`` stay consistent: the surname maps
the same everywhere, and a first name maps to a name starting with the same
keyed letter that its initial maps to.

Nothing here raises on odd input: a value that cannot be generated becomes
the tag ``[LABEL]`` -- PHI is never left in place.
"""

from __future__ import annotations

import ipaddress
import logging
import random
import string
from functools import lru_cache
from typing import Callable, Sequence

import regex as re

from ..taxonomy import category_of, is_label, to_taxonomy
from . import dates as _dates
from .keys import keyed_rng, normalise, seed_int

log = logging.getLogger(__name__)

# --- word lists ------------------------------------------------------------------
# Built-in fallbacks, used only if a bundled lexicon is missing (generation never fails).
_FALLBACK: dict[str, tuple[str, ...]] = {
    "first_names_en_female": ("Mary", "Patricia", "Linda", "Barbara", "Elizabeth", "Jennifer", "Maria",
                              "Susan", "Margaret", "Dorothy", "Lisa", "Nancy", "Karen", "Betty", "Helen",
                              "Sandra", "Donna", "Carol", "Ruth", "Sharon", "Grace", "Irene", "Olivia",
                              "Hannah", "Ursula", "Valerie", "Wendy", "Yvonne", "Zoe", "Quinn", "Xena",
                              "Fiona", "Abigail", "Emily", "Judith", "Theresa"),
    "first_names_en_male": ("James", "John", "Robert", "Michael", "William", "David", "Richard", "Charles",
                            "Joseph", "Thomas", "Christopher", "Daniel", "Paul", "Mark", "Donald", "George",
                            "Kenneth", "Steven", "Edward", "Brian", "Ronald", "Anthony", "Kevin", "Jason",
                            "Larry", "Frank", "Scott", "Eric", "Henry", "Isaac", "Oscar", "Peter", "Victor",
                            "Walter", "Xavier", "Yusuf", "Zachary", "Quentin", "Neil", "Ulysses"),
    "surnames_en": ("Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Garcia",
                    "Rodriguez", "Wilson", "Martinez", "Anderson", "Taylor", "Thomas", "Hernandez", "Moore",
                    "Martin", "Jackson", "Thompson", "White", "Lopez", "Lee", "Gonzalez", "Harris", "Clark",
                    "Lewis", "Robinson", "Walker", "Perez", "Hall", "Young", "Allen", "King", "Wright",
                    "Scott", "Nelson", "Baker", "Evans", "Foster", "Irwin", "Quinn", "Ortiz", "Underwood",
                    "Vance", "Xu", "Yates", "Zimmerman", "Ingram", "Keller", "Owens", "Parker", "Reed"),
    "first_names_es_female": ("María", "Carmen", "Ana", "Isabel", "Laura", "Lucía", "Pilar", "Elena",
                              "Rosa", "Marta", "Sofía", "Teresa", "Beatriz", "Cristina", "Dolores",
                              "Fernanda", "Gloria", "Julia", "Nuria", "Olga", "Raquel", "Sara", "Verónica",
                              "Yolanda", "Zaida", "Inés", "Encarnación", "Héctor"),
    "first_names_es_male": ("Antonio", "José", "Manuel", "Francisco", "David", "Juan", "Javier", "Daniel",
                            "Carlos", "Jesús", "Alejandro", "Miguel", "Rafael", "Pedro", "Pablo", "Ángel",
                            "Luis", "Fernando", "Sergio", "Jorge", "Alberto", "Óscar", "Rubén", "Tomás",
                            "Víctor", "Ignacio", "Gonzalo", "Hugo", "Nicolás", "Enrique", "Bruno"),
    "surnames_es": ("García", "Rodríguez", "González", "Fernández", "López", "Martínez", "Sánchez", "Pérez",
                    "Gómez", "Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez",
                    "Romero", "Alonso", "Navarro", "Torres", "Domínguez", "Vázquez", "Ramos", "Gil",
                    "Blanco", "Castro", "Ortega", "Iglesias", "Lozano", "Prieto", "Ibáñez", "Ugarte",
                    "Vidal", "Zamora", "Quintana", "Espinosa", "Cabrera", "Bravo", "Fuentes", "Pascual"),
    "cities_us": ("Springfield", "Franklin", "Greenville", "Bristol", "Clinton", "Fairview", "Salem",
                  "Madison", "Georgetown", "Arlington", "Ashland", "Dover", "Oxford", "Jackson", "Milton"),
    "states_us": ("Alabama", "Arizona", "California", "Colorado", "Florida", "Georgia", "Illinois", "Iowa",
                  "Kansas", "Maine", "Nevada", "Ohio", "Oregon", "Texas", "Utah", "Vermont", "Wyoming"),
    "states_us_abbr": ("AL", "AZ", "CA", "CO", "FL", "GA", "IL", "IA", "KS", "ME", "NV", "OH", "OR", "TX",
                       "UT", "VT", "WY"),
    "countries": ("Canada", "Mexico", "France", "Germany", "Italy", "Japan", "Brazil", "India", "Kenya",
                  "Norway", "Peru", "Portugal", "Spain", "Sweden", "Chile", "Egypt"),
    "countries_es": ("Francia", "Alemania", "Italia", "Portugal", "México", "Argentina", "Chile", "Perú",
                     "Colombia", "Marruecos", "Japón", "Brasil", "Suecia", "Noruega"),
    "cities_es": ("Madrid", "Barcelona", "Valencia", "Sevilla", "Zaragoza", "Málaga", "Murcia", "Bilbao",
                  "Alicante", "Córdoba", "Valladolid", "Vigo", "Gijón", "Granada", "Oviedo", "Toledo"),
    "provinces_es": ("Álava", "Albacete", "Alicante", "Almería", "Asturias", "Ávila", "Badajoz", "Burgos",
                     "Cáceres", "Cádiz", "Cantabria", "Castellón", "Cuenca", "Girona", "Huesca", "Jaén"),
    "hospitals": ("Riverside General Hospital", "Lakeview Medical Center", "St. Anne's Hospital",
                  "Northgate Community Hospital", "Hillcrest Memorial Hospital", "Valley Regional Medical Center",
                  "Oakwood Clinic", "Bayside University Hospital"),
    "hospitals_es": ("Hospital General del Norte", "Hospital Universitario del Valle", "Centro de Salud Las Rozas",
                     "Clínica San Rafael", "Hospital Comarcal de la Sierra", "Complejo Hospitalario del Sur"),
    "street_suffixes": ("Street", "Avenue", "Road", "Lane", "Drive", "Court", "Boulevard", "Place", "Way"),
    "street_types_es": ("Calle", "Avenida", "Plaza", "Paseo", "Camino", "Carretera", "Ronda", "Travesía"),
    "professions_en": ("teacher", "nurse", "electrician", "accountant", "carpenter", "engineer", "farmer",
                       "mechanic", "plumber", "librarian", "pharmacist", "chef", "lawyer", "painter",
                       "driver", "cashier", "architect", "firefighter", "journalist", "welder"),
    "professions_es": ("profesor", "enfermera", "electricista", "contable", "carpintero", "ingeniero",
                       "agricultor", "mecánico", "fontanero", "bibliotecaria", "farmacéutico", "cocinero",
                       "abogada", "pintor", "conductor", "cajera", "arquitecto", "bombero", "periodista"),
}

# How many entries (in lexicon order: most frequent first) surrogates draw from.
_TOP = {"surnames_en": 5000, "cities_us": 3000, "first_names_en_female": 1500, "first_names_en_male": 1000}


@lru_cache(maxsize=None)
def word_list(name: str) -> tuple[str, ...]:
    """Entries surrogates draw from: the bundled lexicon (top entries), else a built-in list."""
    items: tuple[str, ...] = ()
    try:
        from ..lexicons import load_lexicon

        items = tuple(load_lexicon(name))
    except Exception:  # missing lexicon module or list: fall back
        items = ()
    if not items:
        items = _FALLBACK.get(name, ())
    items = tuple(i for i in items if i and i.strip() == i)
    top = _TOP.get(name)
    return items[:top] if top else items


@lru_cache(maxsize=None)
def _member_set(name: str) -> frozenset[str]:
    try:
        from ..lexicons import load_lexicon

        items = load_lexicon(name)
    except Exception:
        items = _FALLBACK.get(name, ())
    return frozenset(normalise(i) for i in items)


@lru_cache(maxsize=None)
def _by_initial(name: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for w in word_list(name):
        n = normalise(w)
        if n and n[0] in string.ascii_lowercase:
            out.setdefault(n[0], []).append(w)
    return {k: tuple(v) for k, v in out.items()}


def _lang(lang: str) -> str:
    return "es" if (lang or "").lower().startswith("es") else "en"


@lru_cache(maxsize=None)
def _good_initials(lang: str) -> str:
    """Letters with enough first names and surnames to map an initial to."""
    need = 3
    letters = []
    for c in string.ascii_lowercase:
        ok = all(len(_by_initial(n).get(c, ())) >= need for n in (
            f"first_names_{lang}_female", f"first_names_{lang}_male", f"surnames_{lang}"))
        if ok:
            letters.append(c)
    return "".join(letters) or "abcdefghjklmnoprstw"


# --- randomness ----------------------------------------------------------------

class _Draw:
    """Where choices come from: one shared rng, or an HMAC-seeded rng per (kind, value)."""

    def __init__(self, lang: str, rng: random.Random | None = None, key: bytes | None = None):
        self.lang = _lang(lang)
        self._rng = rng
        self.key = key

    def rng(self, *parts: str) -> random.Random:
        if self.key is None:
            assert self._rng is not None
            return self._rng
        return keyed_rng(self.key, "surrogate", *parts)

    def initial(self, letter: str) -> str:
        """The letter an initial maps to (keyed: stable; else random)."""
        good = _good_initials(self.lang)
        low = normalise(letter)[:1] or "a"
        if self.key is None:
            choices = [c for c in good if c != low] or list(good)
            return self._rng.choice(choices)  # type: ignore[union-attr]
        return good[seed_int(self.key, "initial", self.lang, low) % len(good)]


# --- case and shape helpers --------------------------------------------------------

def case_of(s: str) -> str:
    """'upper', 'lower', 'title' (first letter capital) or 'mixed'."""
    letters = [c for c in s if c.isalpha()]
    if not letters:
        return "none"
    if all(c.isupper() for c in letters):
        return "upper" if len(letters) > 1 else "title"
    if all(c.islower() for c in letters):
        return "lower"
    if letters[0].isupper():
        return "title"
    return "mixed"


def with_case(value: str, case: str) -> str:
    if case == "upper":
        return value.upper()
    if case == "lower":
        return value.lower()
    if case == "title":
        return value if any(c.isupper() for c in value[1:]) and value[:1].isupper() else (
            value[:1].upper() + value[1:].lower() if " " not in value else value)
    return value


def shape_random(original: str, rng: random.Random, keep: Callable[[str], bool] | None = None) -> str:
    """Same length and character classes: digit->digit, upper->upper, lower->lower."""
    for _ in range(20):
        out = []
        for c in original:
            if keep is not None and keep(c):
                out.append(c)
            elif c.isdigit():
                out.append(rng.choice(string.digits))
            elif c.isalpha() and c.isupper():
                out.append(rng.choice(string.ascii_uppercase))
            elif c.isalpha():
                out.append(rng.choice(string.ascii_lowercase))
            else:
                out.append(c)
        res = "".join(out)
        if res != original or not any(ch.isalnum() for ch in original):
            return res
    return res


def _pick(rng: random.Random, pool: Sequence[str], avoid: str = "") -> str:
    if not pool:
        raise LookupError("empty pool")
    avoid_n = normalise(avoid)
    for _ in range(10):
        v = rng.choice(pool)
        if normalise(v) != avoid_n:
            return v
    return v


# --- names -----------------------------------------------------------------------

_NAME_TOKEN = re.compile(r"\p{L}+(?:['’]\p{L}+)*")
_HONORIFICS = {
    "en": {"dr", "mr", "mrs", "ms", "miss", "mx", "prof", "sir", "jr", "sr", "md", "rn", "np", "phd",
           "ii", "iii", "iv", "dds", "pa"},
    "es": {"dr", "dra", "sr", "sra", "srta", "don", "doña", "dona", "d", "dña", "prof", "lic", "jr"},
}
_PARTICLES = {"de", "del", "la", "las", "los", "y", "i", "van", "von", "der", "den", "da", "di", "du", "le"}


def _name_word(word: str, draw: _Draw) -> str:
    """A fake first name or surname for one name word, in its case."""
    lang = draw.lang
    n = normalise(word)
    pool_name = f"surnames_{lang}"
    # Is the word a first name? Ask this language's lists, then the other's ("John" in a Spanish note).
    for lx in (lang, "es" if lang == "en" else "en"):
        female = n in _member_set(f"first_names_{lx}_female")
        male = n in _member_set(f"first_names_{lx}_male")
        if female or male or n in _member_set(f"first_names_{lx}"):
            if lx != lang and n in _member_set(f"surnames_{lang}"):
                break  # a surname here, a first name elsewhere: keep it a surname
            pool_name = f"first_names_{lang}_female" if female and not male else f"first_names_{lang}_male"
            break
    rng = draw.rng("name", lang, n)
    pool: Sequence[str] = word_list(pool_name)
    if draw.key is not None and n and n[0] in string.ascii_lowercase:
        pool = _by_initial(pool_name).get(draw.initial(n[0]), pool)
    value = _pick(rng, pool, avoid=word)
    case = case_of(word)
    return with_case(value, case if case != "mixed" else "title")


def _name(original: str, draw: _Draw) -> str:
    honor = _HONORIFICS[draw.lang] | _HONORIFICS["en"]
    out = []
    pos = 0
    for m in _NAME_TOKEN.finditer(original):
        out.append(original[pos:m.start()])
        w = m.group()
        suffix = ""
        for poss in ("'s", "’s", "'S", "’S"):
            if w.endswith(poss) and len(w) > 3:
                w, suffix = w[: -len(poss)], poss
                break
        n = normalise(w)
        if n in honor or (n in _PARTICLES and m.start() > 0):
            out.append(m.group())
        elif len(w) == 1 or (len(w) <= 3 and w.isupper() and n not in _member_set(f"surnames_{draw.lang}")
                             and n not in _member_set(f"first_names_{draw.lang}")):
            # initials: "J", or run-together initials "JS"
            out.append("".join(with_case(draw.initial(c), "upper" if c.isupper() else "lower") for c in w)
                       + suffix)
        else:
            out.append(_name_word(w, draw) + suffix)
        pos = m.end()
    out.append(original[pos:])
    res = "".join(out)
    if normalise(res) == normalise(original) and any(c.isalpha() for c in original):
        raise LookupError("name surrogate equals original")
    return res


def _username(original: str, draw: _Draw) -> str:
    return shape_random(original, draw.rng("username", normalise(original)))


# --- places --------------------------------------------------------------------------

_HOSPITAL_WORDS = re.compile(
    r"hosp|medical|center|centre|clinic|health|memorial|infirmary|hospice|rehab|sanatori|cl[ií]nica|"
    r"centro|salud|sanitari|ambulatorio|consultorio", re.IGNORECASE)


def _is_acronym(s: str) -> bool:
    t = s.strip()
    return 1 < len(t) <= 6 and t.isalpha() and t.isupper() and " " not in t


def _from_list(original: str, draw: _Draw, kind: str, list_name: str) -> str:
    rng = draw.rng(kind, normalise(original))
    value = _pick(rng, word_list(list_name), avoid=original)
    case = case_of(original)
    return value.upper() if case == "upper" else value.lower() if case == "lower" else value


def _acronym(original: str, draw: _Draw) -> str:
    return shape_random(original, draw.rng("acronym", normalise(original)))


def _hospital(original: str, draw: _Draw) -> str:
    if _is_acronym(original):
        return _acronym(original, draw)
    return _from_list(original, draw, "hospital", "hospitals_es" if draw.lang == "es" else "hospitals")


def _city(original: str, draw: _Draw) -> str:
    if _is_acronym(original) and len(original.strip()) <= 3:
        return _acronym(original, draw)
    return _from_list(original, draw, "city", "cities_es" if draw.lang == "es" else "cities_us")


def _state(original: str, draw: _Draw) -> str:
    t = original.strip()
    if draw.lang == "es":
        return _from_list(original, draw, "state", "provinces_es")
    if len(t) == 2 and t.isalpha():
        v = _from_list(t, draw, "state", "states_us_abbr")
        return original.replace(t, v.upper() if t.isupper() else v)
    return _from_list(original, draw, "state", "states_us")


def _country(original: str, draw: _Draw) -> str:
    if _is_acronym(original):
        return _acronym(original, draw)
    return _from_list(original, draw, "country", "countries_es" if draw.lang == "es" else "countries")


def _zip(original: str, draw: _Draw) -> str:
    return shape_random(original, draw.rng("zip", normalise(original)))


def _street(original: str, draw: _Draw) -> str:
    """Numbers keep their digit count, street types stay, other words become surnames."""
    rng = draw.rng("street", normalise(original))
    types = {normalise(s) for s in word_list("street_suffixes")} | {
        normalise(s) for s in word_list("street_types_es")} | {
        "st", "ave", "av", "rd", "dr", "ln", "blvd", "ct", "pl", "apt", "suite", "no", "n", "c", "pza", "avda"}
    out = []
    pos = 0
    for m in re.finditer(r"\p{L}+|\d+", original):
        out.append(original[pos:m.start()])
        w = m.group()
        if w.isdigit():
            out.append(shape_random(w, rng))
        elif normalise(w) in types or normalise(w) in _PARTICLES:
            out.append(w)
        elif len(w) == 1:
            out.append(with_case(rng.choice(string.ascii_lowercase), "upper" if w.isupper() else "lower"))
        else:
            v = _pick(rng, word_list(f"surnames_{draw.lang}"), avoid=w)
            out.append(with_case(v, case_of(w) if case_of(w) != "mixed" else "title"))
        pos = m.end()
    out.append(original[pos:])
    return "".join(out)


def _department(original: str, draw: _Draw) -> str:
    """Codes with digits are re-drawn (``Ward 5B`` -> ``Ward 8K``); named units become other names."""
    if not any(c.isdigit() for c in original):
        if _HOSPITAL_WORDS.search(original) is None and _is_acronym(original):
            return _acronym(original, draw)
        return _street(original, draw)
    rng = draw.rng("department", normalise(original))
    return re.sub(r"\w*\d\w*", lambda m: shape_random(m.group(), rng), original)


def _location(original: str, draw: _Draw) -> str:
    """A generic place: hospital-like names get a hospital, acronyms an acronym, others a city."""
    if _HOSPITAL_WORDS.search(original):
        return _hospital(original, draw)
    if _is_acronym(original):
        return _acronym(original, draw)
    if any(c.isdigit() for c in original):
        return _street(original, draw)
    return _city(original, draw)


def _organization(original: str, draw: _Draw) -> str:
    if _HOSPITAL_WORDS.search(original) or _is_acronym(original):
        return _location(original, draw)
    return _street(original, draw)


# --- ages, professions -------------------------------------------------------------

_NUMBER_WORDS_EN = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                    "eighteen", "nineteen"]
_TENS_EN = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _en_words(n: int) -> str:
    if n < 20:
        return _NUMBER_WORDS_EN[n]
    t, u = divmod(n, 10)
    return _TENS_EN[t] + ("" if u == 0 else "-" + _NUMBER_WORDS_EN[u])


_EN_WORD_VALUES = {_en_words(i): i for i in range(100)}


def age_over_89(value: str) -> bool:
    """True when an age string states more than 89 years (the detectors' helper if present)."""
    try:
        from ..detect.patterns import age_over_89 as detectors_age_over_89
    except Exception:
        return _age_over_89(value)
    try:
        return bool(detectors_age_over_89(value)) or _age_over_89(value)
    except Exception:
        return _age_over_89(value)


def _age_over_89(value: str) -> bool:
    """Own fallback: more than 89 years, in digits (not months/days) or English words."""
    m = re.search(r"\d+", value)
    if m:
        return int(m.group()) > 89 and not re.search(r"(?i)\b(mo|month|mes|week|sem|day|d[ií]a|hr|hour)", value)
    low = value.lower().replace(" ", "-")
    return any(w.startswith("ninety") and w in low for w in _EN_WORD_VALUES) or "hundred" in low


def _age(original: str, draw: _Draw) -> str:
    """A nearby plausible age (same unit); ages over 89 become ``90+`` (HIPAA)."""
    rng = draw.rng("age", normalise(original))
    m = re.search(r"\d+", original)
    if m:
        n = int(m.group())
        if age_over_89(original):
            return original[: m.start()] + "90+" + original[m.end():].lstrip("+")
        lo, hi = max(1 if n > 0 else 0, n - 3), min(89, n + 3)
        choices = [v for v in range(lo, hi + 1) if v != n] or [min(89, n + 1)]
        v = rng.choice(choices)
        return original[: m.start()] + str(v) + original[m.end():]
    low = original.lower()
    for word, n in sorted(_EN_WORD_VALUES.items(), key=lambda kv: -len(kv[0])):
        i = low.find(word)
        if i >= 0:
            if n > 89:
                return original[:i] + "90+" + original[i + len(word):]
            choices = [v for v in range(max(1, n - 3), min(89, n + 3) + 1) if v != n]
            repl = _en_words(rng.choice(choices))
            return original[:i] + with_case(repl, case_of(original[i:i + len(word)])) + original[i + len(word):]
    raise LookupError("no number in age")


def _profession(original: str, draw: _Draw) -> str:
    return _from_list(original, draw, "profession", f"professions_{draw.lang}")


# --- contacts ------------------------------------------------------------------------

def _phone(original: str, draw: _Draw) -> str:
    """Digits replaced (first of an area code never 0/1), separators and letters kept."""
    rng = draw.rng("phone", re.sub(r"\D", "", original))
    for _ in range(20):
        out = []
        first = True
        for c in original:
            if c.isdigit():
                if first and original.lstrip("(+ ")[:1].isdigit() and not original.lstrip().startswith(("+", "0")):
                    out.append(rng.choice("23456789"))
                else:
                    out.append(rng.choice(string.digits))
                first = False
            else:
                out.append(c)
        res = "".join(out)
        if res != original:
            return res
    raise LookupError("phone surrogate equals original")


_EXAMPLE_DOMAINS = ("example.com", "example.org", "example.net")


def _email(original: str, draw: _Draw) -> str:
    rng = draw.rng("email", normalise(original))
    local, _, _domain = original.partition("@")
    first = normalise(_pick(rng, word_list(f"first_names_{draw.lang}_female") + word_list(
        f"first_names_{draw.lang}_male")))
    last = normalise(_pick(rng, word_list(f"surnames_{draw.lang}")))
    first = re.sub(r"[^a-z]", "", first) or "pat"
    last = re.sub(r"[^a-z]", "", last) or "doe"
    sep = next((c for c in local if c in "._-"), "")
    new_local = f"{first}{sep}{last}" if sep else f"{first[0]}{last}"
    if any(c.isdigit() for c in local):
        new_local += str(rng.randint(1, 99))
    if local.isupper():
        new_local = new_local.upper()
    return f"{new_local}@{rng.choice(_EXAMPLE_DOMAINS)}"


def _url(original: str, draw: _Draw) -> str:
    rng = draw.rng("url", normalise(original))
    m = re.match(r"(?i)^(?P<scheme>[a-z][a-z0-9+.-]*://)?(?P<host>[^/?#\s]+)(?P<rest>.*)$", original)
    if not m:
        raise LookupError("not a url")
    host = m.group("host")
    www = "www." if host.lower().startswith("www.") else ""
    label = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(5, 9)))
    new_host = f"{www}{label}.{rng.choice(_EXAMPLE_DOMAINS)}"
    rest = shape_random(m.group("rest"), rng) if m.group("rest") else ""
    res = (m.group("scheme") or "") + new_host + rest
    return res.upper() if original.isupper() else res


def _ip(original: str, draw: _Draw) -> str:
    rng = draw.rng("ip", normalise(original))
    t = original.strip()
    try:
        addr = ipaddress.ip_address(t)
    except ValueError:
        addr = None
    if (addr is not None and addr.version == 6) or (addr is None and ":" in t):
        new = f"2001:db8:{rng.randint(0, 0xffff):x}::{rng.randint(1, 0xffff):x}"
    else:
        net = rng.choice(("192.0.2", "198.51.100", "203.0.113"))
        new = f"{net}.{rng.randint(1, 254)}"
    return original.replace(t, new)


def _id(original: str, draw: _Draw) -> str:
    return shape_random(original, draw.rng("id", normalise(original)))


def _date(original: str, draw: _Draw) -> str:
    rng = draw.rng("date", normalise(original))
    res = _dates.random_text(original, rng, draw.lang)
    if res is None:  # no date the parser understands: a surrogate of the same shape
        if any(c.isdigit() for c in original):
            return shape_random(original, rng, keep=lambda c: c.isalpha())
        months = _dates.MONTHS[draw.lang]
        v = rng.choice(months)
        return with_case(v, case_of(original) if case_of(original) in ("upper", "lower") else "title")
    return res


_BY_LABEL: dict[str, Callable[[str, _Draw], str]] = {
    "PATIENT": _name, "DOCTOR": _name, "RELATIVE": _name, "NAME": _name, "USERNAME": _username,
    "PROFESSION": _profession,
    "HOSPITAL": _hospital, "ORGANIZATION": _organization, "DEPARTMENT": _department, "STREET": _street,
    "CITY": _city, "STATE": _state, "COUNTRY": _country, "ZIP": _zip, "LOCATION_OTHER": _location,
    "LOCATION": _location,
    "AGE": _age, "DATE": _date,
    "PHONE": _phone, "FAX": _phone, "EMAIL": _email, "URL": _url, "IPADDR": _ip,
    "SSN": _id, "MEDICALRECORD": _id, "HEALTHPLAN": _id, "ACCOUNT": _id, "LICENSE": _id, "VEHICLE": _id,
    "DEVICE": _id, "BIOID": _id, "IDNUM": _id, "ID": _id,
    "CONTACT": _phone,
}


def tag_for(label: str) -> str:
    return f"[{label}]"


def _label(label: str) -> str:
    return label if is_label(label) else to_taxonomy(label)


def _run(label: str, original: str, draw: _Draw) -> str:
    lbl = _label(label)
    fn = _BY_LABEL.get(lbl)
    if lbl == "CONTACT":
        fn = _email if "@" in original else _url if re.search(r"(?i)www\.|://", original) else _phone
    if fn is None or not original.strip():
        return tag_for(lbl)
    try:
        out = fn(original, draw)
    except Exception as e:  # never leave PHI in place
        log.debug("surrogate for %s fell back to the tag (%s)", lbl, type(e).__name__)
        return tag_for(lbl)
    if not out or (out == original and any(c.isalnum() for c in original)):
        return tag_for(lbl)
    return out


def generate(label: str, original: str, rng: random.Random, lang: str = "en") -> str:
    """A realistic fake value of taxonomy ``label`` shaped like ``original``.

    Draws from ``rng`` (reproducible for a seeded rng). Falls back to
    ``[LABEL]`` when no surrogate can be made; never returns ``original``.
    """
    return _run(label, original, _Draw(lang, rng=rng))


def keyed_surrogate(label: str, original: str, key: bytes, lang: str = "en") -> str:
    """Like ``generate`` but every choice is seeded by HMAC(key, kind, normalised value).

    The same original (same label category) always yields the same surrogate,
    in any process; name parts are seeded one by one (consistent across
    ``John Smith``/``J. Smith``/``Smith``).
    """
    return _run(label, original, _Draw(lang, key=key))


def category_key(label: str) -> str:
    """The category used to seed consistency (``PATIENT`` and ``DOCTOR`` share ``NAME``)."""
    lbl = _label(label)
    try:
        return category_of(lbl)
    except KeyError:
        return "OTHER"
