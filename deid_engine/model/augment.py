"""Training-data augmentation: surrogate swapping, case variants, PHI injection.

1. ``swap_surrogates``: every gold span is replaced by a freshly generated
   value of the same label (offsets recomputed), so the model learns contexts,
   not the corpus's names.
2. ``case_variant``: the same note in upper / lower / title-ish case (notes
   arrive in every casing; offsets unchanged).
3. ``visit_note_examples``: real mixed-case outpatient text (clinical-visit-
   notes: ACI-Bench, MTS-Dialog) with silver labels (the encounter metadata's
   patient and doctor names, ``Dr./Doctor X``, ``N-year-old`` ages, numeric and
   month-name dates), restricted to passages with no digit left unlabelled, plus
   templated PHI sentences and short clinician queries with surrogate values.

Surrogate values come from ``deid_engine.redact.surrogates.generate`` when that
module is present, else from the small generator here (bundled lexicons).
"""

from __future__ import annotations

import csv
import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

from ..resources import resource_path
from ..types import Span
from .data import Example

Generator = Callable[[str, str, random.Random, str], str]


# --- surrogate values --------------------------------------------------------

@lru_cache(maxsize=None)
def _lex(name: str) -> tuple[str, ...]:
    p = resource_path("lexicons", name, "items.txt")
    try:
        items = [ln.strip() for ln in p.read_text(encoding="utf-8").splitlines()]
    except OSError:
        return ()
    return tuple(i for i in items if i and not i.startswith("#"))


_FALLBACK = {
    "first_en": ("John", "Mary", "Robert", "Linda", "James", "Susan", "Ahmed", "Mei", "Carlos", "Olga"),
    "last_en": ("Smith", "Brown", "Nguyen", "Garcia", "Miller", "Okafor", "Kowalski", "Patel", "Dubois"),
    "first_es": ("Juan", "María", "José", "Carmen", "Antonio", "Lucía", "Manuel", "Pilar"),
    "last_es": ("García", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Ruiz", "Díaz"),
}


def _pick(rng: random.Random, lex: str, fallback: str, top: int = 3000) -> str:
    items = _lex(lex)
    if items:
        return rng.choice(items[:top])
    return rng.choice(_FALLBACK[fallback])


def _match_case(value: str, original: str) -> str:
    letters = [c for c in original if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and len(letters) > 1:
        return value.upper()
    if letters and all(c.islower() for c in letters):
        return value.lower()
    return value


def _shape(original: str, rng: random.Random) -> str:
    out = []
    for c in original:
        if c.isdigit():
            out.append(str(rng.randint(0, 9)))
        elif c.isalpha():
            ch = rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ")
            out.append(ch if c.isupper() else ch.lower())
        else:
            out.append(c)
    return "".join(out)


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_MESES = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
          "octubre", "noviembre", "diciembre")


def _date(original: str, rng: random.Random, lang: str) -> str:
    m, d, y = rng.randint(1, 12), rng.randint(1, 28), rng.randint(1950, 2030)
    o = original.strip()
    if re.fullmatch(r"\d{4}", o):
        return str(y)
    if re.fullmatch(r"\d{1,2}[/.-]\d{1,2}", o):
        sep = re.search(r"[/.-]", o).group()
        return f"{m}{sep}{d}" if lang == "en" else f"{d}{sep}{m}"
    if re.fullmatch(r"\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}", o):
        sep = re.search(r"[/.-]", o).group()
        yy = str(y) if len(o.split(sep)[-1]) == 4 else f"{y % 100:02d}"
        return f"{m}{sep}{d}{sep}{yy}" if lang == "en" else f"{d:02d}{sep}{m:02d}{sep}{yy}"
    if lang == "es":
        return rng.choice([f"{d} de {_MESES[m - 1]} de {y}", f"{d:02d}/{m:02d}/{y}", f"{_MESES[m - 1]} de {y}"])
    if any(c.isalpha() for c in o):
        return _match_case(rng.choice([f"{_MONTHS[m - 1]} {d}, {y}", f"{_MONTHS[m - 1][:3]} {d}",
                                       f"{_MONTHS[m - 1]} {d}", f"{d}-{_MONTHS[m - 1][:3]}-{y}"]), o)
    return rng.choice([f"{m}/{d}/{y}", f"{m}/{d}", f"{m:02d}/{d:02d}/{y % 100:02d}"])


def _name(label: str, original: str, rng: random.Random, lang: str) -> str:
    first = _pick(rng, f"first_names_{lang}", f"first_{lang}")
    last = _pick(rng, f"surnames_{lang}", f"last_{lang}")
    o = original.strip()
    words = re.findall(r"[^\W\d_]+", o)
    if len(words) == 1 and len(words[0]) == 1:
        v = first[0] + ("." if o.endswith(".") else "")
    elif len(words) <= 1:
        v = rng.choice([first, last]) if label != "DOCTOR" else last
    elif "," in o:
        v = f"{last}, {first}"
    elif len(words) == 2 and len(words[0]) == 1:
        v = f"{first[0]}. {last}" if "." in o else f"{first[0]} {last}"
    elif len(words) >= 3 and lang == "es":
        v = f"{first} {last} {_pick(rng, 'surnames_es', 'last_es')}"
    else:
        v = f"{first} {last}"
    return _match_case(v, o)


def fallback_generate(label: str, original: str, rng: random.Random, lang: str = "en") -> str:
    """A surrogate of the same type and roughly the same shape as ``original``."""
    lang = "es" if lang == "es" else "en"
    if label in ("PATIENT", "DOCTOR", "RELATIVE", "NAME"):
        return _name(label, original, rng, lang)
    if label == "DATE":
        return _date(original, rng, lang)
    if label == "AGE":
        return str(rng.randint(18, 95)) if original.strip().isdigit() else _shape(original, rng)
    if label in ("PHONE", "FAX"):
        if lang == "es":
            return rng.choice(["9", "6"]) + "".join(str(rng.randint(0, 9)) for _ in range(8))
        a, b, c = rng.randint(200, 989), rng.randint(200, 999), rng.randint(0, 9999)
        return rng.choice([f"({a}) {b}-{c:04d}", f"{a}-{b}-{c:04d}", f"{b}-{c:04d}", f"{a}.{b}.{c:04d}"])
    if label in ("CITY", "LOCATION_OTHER"):
        return _match_case(_pick(rng, f"cities_{'es' if lang == 'es' else 'us'}", f"last_{lang}"), original)
    if label == "HOSPITAL" or (label == "LOCATION" and rng.random() < 0.6):
        return _match_case(_pick(rng, "hospitals_es" if lang == "es" else "hospitals", f"last_{lang}"), original)
    if label == "LOCATION":
        return _match_case(_pick(rng, "cities_us", "last_en"), original)
    if label == "COUNTRY":
        return _match_case(_pick(rng, f"countries_{lang}", f"last_{lang}"), original)
    if label == "STREET" and lang == "es":
        return (f"{rng.choice(_lex('street_types_es') or ('Calle',))} "
                f"{_pick(rng, 'surnames_es', 'last_es')} {rng.randint(1, 150)}")
    if label == "EMAIL":
        f = _pick(rng, f"first_names_{lang}", f"first_{lang}").lower()
        s = _pick(rng, f"surnames_{lang}", f"last_{lang}").lower()
        return f"{f[:1]}{s}@{rng.choice(['gmail.com', 'hotmail.com', 'salud.es', 'mail.org'])}"
    return _shape(original, rng)


def get_generator() -> Generator:
    """The project's surrogate generator if present, else ``fallback_generate``."""
    try:
        from ..redact.surrogates import generate  # type: ignore[attr-defined]

        def gen(label: str, original: str, rng: random.Random, lang: str) -> str:
            try:
                v = generate(label, original, rng, lang)
            except Exception:  # a type it does not handle
                v = ""
            ok = isinstance(v, str) and v.strip() and not (v.startswith("[") and v.endswith("]"))
            return v if ok else fallback_generate(label, original, rng, lang)

        return gen
    except ImportError:
        return fallback_generate


# --- augmentations -----------------------------------------------------------

def swap_surrogates(ex: Example, rng: random.Random, lang: str, gen: Generator | None = None) -> Example:
    gen = gen or get_generator()
    parts: list[str] = []
    spans: list[Span] = []
    pos = 0
    out_len = 0
    for s in sorted(ex.spans, key=lambda s: (s.start, s.end)):
        if s.start < pos:
            continue
        parts.append(ex.text[pos : s.start])
        out_len += s.start - pos
        orig = ex.text[s.start : s.end]
        val = gen(s.label, orig, rng, lang) if s.label != "OTHER" else orig
        val = val.replace("\n", " ") or orig
        parts.append(val)
        spans.append(Span(out_len, out_len + len(val), s.label, s.source))
        out_len += len(val)
        pos = s.end
    parts.append(ex.text[pos:])
    return Example("".join(parts), spans, ex.name, origin=ex.origin + "+surrogate")


def _same_len(text: str, f: Callable[[str], str]) -> str:
    out = f(text)
    if len(out) == len(text):
        return out
    return "".join(c if len(f(c)) != 1 else f(c) for c in text)


def case_variant(ex: Example, mode: str) -> Example:
    """``upper``, ``lower`` or ``title`` (first letter of each word capitalised)."""
    if mode == "upper":
        text = _same_len(ex.text, str.upper)
    elif mode == "lower":
        text = _same_len(ex.text, str.lower)
    else:
        text = re.sub(r"[^\W\d_]+", lambda m: m.group()[0].upper() + m.group()[1:].lower(), ex.text)
    return Example(text, list(ex.spans), ex.name, origin=ex.origin + f"+{mode}")


# --- clinical-visit-notes injection (English) --------------------------------

_TEMPLATES = [
    "Patient {PATIENT} was seen on {DATE} by Dr. {DOCTOR} at {LOCATION}.",
    "{PATIENT} is a {AGE} year old who presents for follow up.",
    "{PATIENT} is a {AGE}-year-old seen today with {RELATIVE}, her daughter.",
    "Seen by Dr. {DOCTOR} on {DATE}.",
    "Discussed with Dr. {DOCTOR}, who agrees with the plan.",
    "Follow up with Dr. {DOCTOR} in 2 weeks. Call {PHONE} with questions.",
    "Wife {RELATIVE} can be reached at {PHONE}.",
    "Spoke with his son {RELATIVE} by phone.",
    "Transferred from {LOCATION} on {DATE}.",
    "Admitted to {LOCATION} on {DATE} after a fall at home.",
    "Last colonoscopy {DATE}, normal.",
    "any notes for {PATIENT} dob {DATE}",
    "labs for {PATIENT} from {DATE}?",
    "show me {PATIENT}'s last visit",
    "pull up the chart for {PATIENT}, {AGE} y/o",
    "did dr {DOCTOR} sign the note for {PATIENT}",
    "what did {DOCTOR} say about {PATIENT} on {DATE}",
    "Signed: {DOCTOR}, MD",
    "Electronically signed by {DOCTOR} on {DATE}",
    "cc: Dr. {DOCTOR}, {LOCATION}",
    "Mr. {PATIENT} returns today for his {DATE} appointment.",
    "Mrs. {PATIENT} reports she is doing well.",
    "{AGE} yo M with hx of CHF, seen by {DOCTOR}.",
    "Pt's daughter {RELATIVE} ({PHONE}) updated at bedside.",
    "Family meeting with {RELATIVE} and Dr. {DOCTOR} on {DATE}.",
    "DOB: {DATE}",
    "Date of service: {DATE}",
    "Contact: {RELATIVE} (husband) {PHONE}",
    "Referred by {DOCTOR} at {LOCATION}.",
    "hi {PATIENT}, how are you doing today?",
    "[doctor] hi {PATIENT} , i'm doctor {DOCTOR} .",
    "Doctor: Hello Mr. {PATIENT}, I am Doctor {DOCTOR}.",
]

_SLOT = re.compile(r"\{([A-Z]+)\}")
_SILVER = [
    ("DOCTOR", re.compile(r"\b(?:Dr\.?|Doctor|doctor|dr\.?)\s+((?:[A-Z][a-z]+|[a-z]+)(?:\s+[A-Z][a-z]+)?)")),
    ("AGE", re.compile(r"\b(\d{1,3})(?=[- ]years?[- ]old\b|[- ]y/?o\b)", re.I)),
    ("DATE", re.compile(r"\b(\d{1,2}/\d{1,2}(?:/\d{2,4})?|(?:January|February|March|April|May|June|July|August|"
                        r"September|October|November|December)\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?)")),
]
_NOT_DOCTOR = {"the", "to", "and", "with", "is", "was", "will", "said", "a", "visit", "visits", "office",
               "appointment", "at", "for", "in", "on", "of", "who", "that", "has", "had", "you", "i", "he",
               "she", "about", "today", "if", "so", "or", "as"}


def fill_template(template: str, rng: random.Random, gen: Generator, lang: str = "en") -> Example:
    parts, spans, pos, out = [], [], 0, 0
    for m in _SLOT.finditer(template):
        lit = template[pos : m.start()]
        parts.append(lit)
        out += len(lit)
        label = m.group(1)
        orig = {"PATIENT": rng.choice(["John Smith", "Smith", "J. Smith", "SMITH, JOHN", "john smith"]),
                "DOCTOR": rng.choice(["Brown", "Anne Brown"]), "RELATIVE": rng.choice(["Mary", "Mary Smith"]),
                "DATE": rng.choice(["3/14/2021", "3/14", "March 14, 2021", "2019", "03/14/21", "Mar 14"]),
                "PHONE": "555-123-4567", "AGE": "54", "LOCATION": "Mercy Hospital"}[label]
        val = gen(label, orig, rng, lang).replace("\n", " ")
        parts.append(val)
        spans.append(Span(out, out + len(val), label, "template"))
        out += len(val)
        pos = m.end()
    parts.append(template[pos:])
    return Example("".join(parts), spans, "template", origin="template")


def silver_spans(text: str, names: dict[str, str]) -> list[Span]:
    """Silver PHI spans: metadata names (word-bounded, any case) + the regexes above."""
    spans: list[Span] = []
    for value, label in names.items():
        if not value or len(value) < 2:
            continue
        for m in re.finditer(r"(?<![\w])" + re.escape(value) + r"(?![\w])", text, re.I):
            spans.append(Span(m.start(), m.end(), label, "silver"))
    for label, rx in _SILVER:
        for m in rx.finditer(text):
            a, b = m.span(1)
            if label == "DOCTOR":
                words = text[a:b].split()
                if words[0].lower() in _NOT_DOCTOR:
                    continue
                if len(words) > 1 and words[1].lower() in _NOT_DOCTOR:
                    b = a + len(words[0])
            spans.append(Span(a, b, label, "silver"))
    spans.sort(key=lambda s: (s.start, -s.length))
    out: list[Span] = []
    for s in spans:
        if out and s.start < out[-1].end:
            continue
        out.append(s)
    return out


def _passages(text: str, max_chars: int = 1200) -> Iterable[tuple[int, int]]:
    """Paragraph-ish chunks of ``text`` (blank-line separated, then cut by size)."""
    for m in re.finditer(r"(?:[^\n]|\n(?!\s*\n))+", text):
        a, b = m.span()
        while b - a > max_chars:
            cut = text.rfind(".", a, a + max_chars)
            cut = cut + 1 if cut > a + 200 else a + max_chars
            yield a, cut
            a = cut
        if text[a:b].strip():
            yield a, b


def _clean_passage(text: str, spans: list[Span]) -> bool:
    """True when every digit of the passage is inside a silver span (no unlabelled dates/IDs)."""
    covered = bytearray(len(text))
    for s in spans:
        covered[s.start : s.end] = b"\x01" * s.length
    return all(covered[i] for i, c in enumerate(text) if c.isdigit())


def _read_csv(path: Path) -> list[dict]:
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except OSError:
        return []


def visit_note_texts(folder: Path | str) -> list[tuple[str, dict[str, str]]]:
    """(text, {name value: label}) for every ACI-Bench note/dialogue and MTS-Dialog text."""
    folder = Path(folder)
    out: list[tuple[str, dict[str, str]]] = []
    for split in ("train", "valid"):
        meta = {r["encounter_id"]: r for r in _read_csv(folder / "aci-bench" / f"{split}_metadata.csv")}
        for r in _read_csv(folder / "aci-bench" / f"{split}.csv"):
            m = meta.get(r.get("encounter_id", ""), {})
            names: dict[str, str] = {}
            for key in ("patient_firstname", "patient_familyname"):
                if m.get(key):
                    names[m[key]] = "PATIENT"
            if m.get("doctor_name"):
                for part in re.sub(r"^(Dr\.?|Doctor)\s+", "", m["doctor_name"]).split():
                    if len(part) > 1:
                        names[part.strip(".,")] = "DOCTOR"
            for col in ("note", "dialogue"):
                if r.get(col):
                    out.append((r[col], names))
    for name in ("MTS_Dataset_TrainingSet.csv", "MTS_Dataset_ValidationSet.csv"):
        for r in _read_csv(folder / "mts-dialog" / name):
            for col in ("section_text", "dialogue"):
                if r.get(col):
                    out.append((r[col], {}))
    return out


def visit_note_examples(folder: Path | str, rng: random.Random, gen: Generator | None = None,
                        n_templates: int = 1500, max_passages: int = 3000,
                        inject_prob: float = 0.5) -> list[Example]:
    """Silver-labelled passages of clinical-visit-notes (only passages whose every
    digit is labelled), some with a templated PHI sentence injected, plus
    ``n_templates`` stand-alone templated sentences and queries, in mixed case."""
    gen = gen or get_generator()
    passages: list[Example] = []
    for text, names in visit_note_texts(folder):
        for a, b in _passages(text):
            chunk = text[a:b]
            spans = silver_spans(chunk, names)
            if _clean_passage(chunk, spans):
                passages.append(Example(chunk, spans, "visit", origin="visit-notes"))
    rng.shuffle(passages)
    passages = passages[:max_passages]
    out: list[Example] = []
    for ex in passages:
        if rng.random() < inject_prob:
            t = fill_template(rng.choice(_TEMPLATES), rng, gen)
            if rng.random() < 0.5:
                ex = _concat(t, ex, rng.choice([" ", "\n"]))
            else:
                ex = _concat(ex, t, rng.choice([" ", "\n"]))
        # swap the silver names for surrogates half of the time
        if ex.spans and rng.random() < 0.5:
            ex = swap_surrogates(ex, rng, "en", gen)
        out.append(ex)
    for _ in range(n_templates):
        t = fill_template(rng.choice(_TEMPLATES), rng, gen)
        mode = rng.random()
        if mode < 0.3:
            t = case_variant(t, "lower")
        elif mode < 0.45:
            t = case_variant(t, "upper")
        out.append(t)
    return out


def _concat(a: Example, b: Example, sep: str) -> Example:
    off = len(a.text) + len(sep)
    spans = list(a.spans) + [s.with_bounds(s.start + off, s.end + off) for s in b.spans]
    return Example(a.text + sep + b.text, spans, a.name, origin="visit-notes+template")
