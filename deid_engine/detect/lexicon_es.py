"""Spanish vetoes for gazetteer hits (``LexiconDetector`` with ``lang="es"``).

The Spanish name lists hold many surnames that are also Spanish words or
medical eponyms (``Cabo``, ``Porta``, ``Diez``, ``Koch``, ``Evans``). In Spanish
clinical prose, where capitals carry meaning, a gazetteer hit is dropped when
its surroundings say it is not a person or a place:

- **lower case** in cased text: Spanish writes names with a capital
  (``llevar a cabo``, ``el brazo izquierdo``, ``fuera de la ciudad``); a kinship
  qualifier after a family word (``tío paterno``, ``hijo varón``) stays, since
  MEDDOCAN marks the whole family mention;
- **service** (names): every word a specialty or service word (``valorado por
  Oftalmología``, ``Cirugía Plástica y Reconstructiva``, ``Sección``);
- **possessive** (single-word towns): after ``su``/``nuestro`` (``su Centro de Salud``,
  ``nuestro Centro``): a town takes no possessive;
- **acronym**: a short word with two capitals or a capital after a small letter
  (``HLA``, ``IgG``, ``Su PIO``, ``vitamina D y PTH``); Roman numerals are not
  acronyms (``Pío XII``);
- **eponym slot** (bare hits only, no cue): after ``de``/``del`` that follows a
  lower-case common noun (``bacilo de Koch``, ``grado I de Fuhrman``,
  ``síndrome autoinmune de Evans``) but not a person or family word
  (``abuelas de Paula``); or right after a classifier (``tipo Bricker``,
  ``según Schaffer``, ``test Boney``). A capitalised word before ``de`` is part of
  a name or an institution (``Ortiz de Barrón``, ``Universidad de Alcalá``);
- **sentence start** (bare single-word hits): after a sentence that ended on a
  lower-case word, followed by lower-case prose (``... oral. Diez días``,
  ``hepatomegalia. Porta permeable``, ``Porta de 9 mm``): the capital comes from the position;
- **genus** (bare single-word hits): before a species epithet or ``spp.``
  (``Candida albicans``, ``Cándida spp.``).

Labels follow MEDDOCAN, like the Spanish tagger: a province or region from the
gazetteer is a CITY (TERRITORIO covers them all).

Cue-supported spans (title, field, family word) keep their evidence: only the
lower-case and acronym rules apply to them.
"""

from __future__ import annotations

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..taxonomy import category_of, is_label
from ..types import Span

# words that make "<word> de <Name>" a person ("la hija de Marta", "en casa de Luis")
PERSON_NOUNS_ES = frozenset({
    "esposa", "esposo", "marido", "mujer", "hijo", "hija", "hijos", "hijas", "madre", "padre", "padres",
    "hermana", "hermano", "hermanas", "hermanos", "sobrina", "sobrino", "nieta", "nieto", "tia", "tio", "tias",
    "tios", "abuela", "abuelo", "abuelas", "abuelos", "pareja", "novia", "novio", "cunada", "cunado", "yerno",
    "nuera", "suegra", "suegro", "prima", "primo", "primas", "primos", "familia", "familiares", "amigo", "amiga",
    "vecino", "vecina", "companero", "companera", "paciente", "senor", "senora", "senorita", "don", "dona",
    "compania", "cargo", "nombre", "casa", "domicilio", "parte", "tutor", "tutora", "cuidador", "cuidadora",
})
# qualifiers of a family word that MEDDOCAN keeps in the family mention ("tío paterno", "hijo varón")
KIN_QUALIFIERS_ES = frozenset({
    "materno", "materna", "paterno", "paterna", "varon", "mayor", "menor", "mediano", "mediana", "pequeno",
    "pequena", "gemelo", "gemela", "mellizo", "melliza", "politico", "politica",
})
# words after which a capitalised word names a method, scale or device ("tipo Bricker", "según Schaffer")
CLASSIFIERS_ES = frozenset({
    "tipo", "segun", "test", "tecnica", "metodo", "modelo", "marca", "clase", "grado", "estadio", "signo",
    "maniobra", "prueba", "escala", "criterios", "clasificacion",
})

# services and specialties: "valorado por Oftalmología", "Cirugía Plástica y Reconstructiva", "Sección de ..."
SERVICE_WORDS_ES = frozenset({
    "cirugia", "plastica", "reconstructiva", "estetica", "oral", "maxilofacial", "general", "digestiva", "toracica",
    "cardiovascular", "vascular", "cardiaca", "seccion", "servicio", "unidad", "medicina", "interna", "intensiva",
    "intensivos", "cuidados", "familiar", "preventiva", "urgencias", "obstetricia", "anestesia", "reanimacion",
    "rehabilitacion", "radiodiagnostico", "radioterapia", "ortopedia", "farmacia", "enfermeria", "fisioterapia",
    "anatomia", "patologica", "consultas", "externas", "hospitalizacion", "quirofano", "laboratorio", "pediatrica",
    "neonatal", "neonatologia", "paliativos", "nuclear", "clinica", "nutricion", "dietetica", "dermatologia",
})
_SPECIALTY = regex.compile(r"(?:log[ií]a|iatr[ií]a|grafía|grafia|terapia|cirug[ií]a)$")
_CONNECTORS = frozenset({"y", "e", "de", "del", "la", "las", "los"})
_WORD = regex.compile(r"\p{L}[\p{L}'’]*")


def service_name(surface: str) -> bool:
    """``Oftalmología``, ``Cirugía Plástica y Reconstructiva``, ``Sección``: a service, not a person."""
    words = [_fold(w) for w in _WORD.findall(surface)]
    content = [w for w in words if w not in _CONNECTORS]
    return bool(content) and all(w in SERVICE_WORDS_ES or _SPECIALTY.search(w) for w in content)
_ACCENTS = str.maketrans("áéíóúüñàèìòù", "aeiouunaeiou")
_EPONYM_DE = regex.compile(r"(?<![\p{L}\d])(\p{Ll}[\p{L}-]*)[ \t]+(?:(?:[IVX]+|\d+)(?:[ \t]+y[ \t]+(?:[IVX]+|\d+))?[ \t]+)?"
                           r"(?:de|del)[ \t]+(?:la[ \t]+|los[ \t]+|las[ \t]+)?$")
_WORD_BEFORE = regex.compile(r"(\p{L}+)[ \t]*$")
_SENTENCE_END = regex.compile(r"\p{Ll}{3,}\)?[.!?]\s+$")
_PROSE_AFTER = regex.compile(r"[ \t]+(?:(?!(?:de|del|y|e)\b)\p{Ll}|de[ \t]+\d)")
# a genus before its species or "spp." ("Candida albicans", "Cándida spp."): Latin endings no Spanish word has
_SPECIES_AFTER = regex.compile(r"[ \t]+(?:spp?\.|\p{Ll}{3,}(?:ans|ens|us|um|ae|ii|is)\b)")
_POSSESSIVE_BEFORE = regex.compile(r"(?<!\p{L})(?:su|sus|nuestro|nuestra|nuestros|nuestras|mi|mis|tu|tus)[ \t]+$")
_SENTENCE_START = regex.compile(r"(?:\p{Ll}{4,}[.!?][ \t]+|\n[ \t]*)(\p{L})")  # not after "cm." or "Dr."


def _fold(w: str) -> str:
    return w.lower().translate(_ACCENTS)


def cased(text: str) -> bool:
    """Whether capitals carry meaning: most sentences start with one and the text is not in capitals."""
    up = sum(1 for c in text if c.isupper())
    low = sum(1 for c in text if c.islower())
    if not low or up / (up + low) > 0.7:
        return False
    starts = _SENTENCE_START.findall(text)
    return len(starts) >= 2 and sum(c.isupper() for c in starts) >= 0.8 * len(starts)


def acronym(word: str) -> bool:
    """``HLA``, ``IgG``, ``RM``: a short word with two capitals or a capital after a small letter."""
    if len(word) > 5 or regex.fullmatch(r"[IVXL]+", word):
        return False
    return sum(c.isupper() for c in word) >= 2 or regex.search(r"\p{Ll}\p{Lu}", word) is not None


def veto_reason(text: str, span: Span) -> str:
    """Why a Spanish gazetteer span is not PHI (``""``: keep it). Assumes ``cased(text)``."""
    cat = category_of(span.label) if is_label(span.label) else span.label
    if cat not in ("NAME", "LOCATION"):
        return ""
    surface = text[span.start:span.end]
    words = _WORD.findall(surface)
    if surface[:1].islower() and not (span.label == "RELATIVE" and _fold(surface) in KIN_QUALIFIERS_ES):
        return "lower case"
    if cat != "NAME":
        if span.label in ("CITY", "STATE") and len(words) == 1 and _POSSESSIVE_BEFORE.search(text[max(0, span.start - 16):span.start]):
            return "possessive"  # "su Centro de Salud", "nuestro Centro": towns take no possessive
        return ""
    if any(acronym(w) for w in words):
        return "acronym"
    if service_name(surface):
        return "service"
    if span.confidence >= 0.6:  # a cue supports it
        return ""
    before = text[max(0, span.start - 48):span.start]
    m = _EPONYM_DE.search(before)
    if m and _fold(m.group(1)) not in PERSON_NOUNS_ES | KIN_QUALIFIERS_ES:
        return "eponym slot"
    m = _WORD_BEFORE.search(before)
    if m and _fold(m.group(1)) in CLASSIFIERS_ES:
        return "after a classifier"
    after = text[span.end:span.end + 24]
    if len(words) == 1 and _SENTENCE_END.search(before) and _PROSE_AFTER.match(after):
        return "sentence start"
    if len(words) == 1 and _SPECIES_AFTER.match(after):
        return "genus"
    return ""


# source of a bare one-word hit that only the surname lists hold: the merge drops it beside the
# Spanish tagger (merge.UNSUPPORTED_BESIDE_DELIMITER); alone (rules preset) it stays a name
SURNAME_ONLY = "lexicon:surname_only"


def spanish_vetoes(text: str, spans: list[Span], first_names=None) -> list[Span]:
    """``spans`` without the gazetteer hits that ``veto_reason`` rejects (only in cased text).

    With ``first_names`` (normalised), a bare single-word name hit (no cue) that is no listed
    first name gets the source ``SURNAME_ONLY``: ``Humphrey``, ``Hertel``, ``Wharton`` are far
    more often instruments, signs and eponyms than people in clinical prose, while a bare
    first name (``Hugo no había...``) is a person.
    """
    if not spans:
        return spans
    # MEDDOCAN's TERRITORIO, the Spanish tagger's CITY, covers provinces and regions too
    spans = [s.with_label("CITY") if s.label == "STATE" and s.source.startswith("lexicon:") else s for s in spans]
    if not cased(text):
        return spans
    out = [s for s in spans if not veto_reason(text, s)]
    if first_names is not None:
        from .lexicon import norm

        out = [Span(s.start, s.end, s.label, SURNAME_ONLY, s.confidence, s.explanation)
               if _surname_only(text, s, first_names, norm) else s for s in out]
    return out


def _surname_only(text: str, s: Span, first_names, norm) -> bool:
    words = _WORD.findall(text[s.start:s.end])
    return (s.source == "lexicon:name" and s.label == "PATIENT" and s.confidence < 0.6 and len(words) == 1
            and norm(words[0]) not in first_names)
