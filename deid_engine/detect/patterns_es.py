"""Spanish pattern detectors (``lang="es"``): DNI/NIE, NASS, NHC, colegiado, phones,
postal codes, addresses, dates, ages, and the header fields of Spanish clinical
reports (``Nombre:``, ``Domicilio:``, ``Médico:`` ...).

Span boundaries follow MEDDOCAN's guidelines: an age keeps its unit
(``70 años``), an address runs from the street type to the door/floor
(``c/ del Abedul 5-7, 2º dcha``), a date keeps its words
(``12 de diciembre de 2016``).
"""

from __future__ import annotations

from dataclasses import replace

from . import regex_memo as regex  # regex, with memoised module-level functions

from .patterns import DAY, YEAR4, Pattern, digits, has_digit, md_ok

P = Pattern

MONTHS_ES = (r"(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|"
             r"diciembre|ene\.?|feb\.?|mar\.?|abr\.?|may\.?|jun\.?|jul\.?|ago\.?|sept?\.?|oct\.?|nov\.?|dic\.?)")
MONTHS_ES_FULL = (r"(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|"
                  r"diciembre)")
WEEKDAYS_ES = r"(?:lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo)"

_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def dni_ok(s: str) -> bool:
    """DNI (8 digits + letter) or NIE (X/Y/Z + 7 digits + letter) checksum."""
    s = regex.sub(r"[\s.-]", "", s.upper())
    if regex.fullmatch(r"[XYZ]\d{7}[A-Z]", s):
        s = str("XYZ".index(s[0])) + s[1:]
    if not regex.fullmatch(r"\d{8}[A-Z]", s):
        return False
    return _DNI_LETTERS[int(s[:8]) % 23] == s[8]


def es_phone_ok(s: str) -> bool:
    d = digits(s)
    if d.startswith("0034"):
        d = d[4:]
    elif d.startswith("34") and len(d) == 11:
        d = d[2:]
    return len(d) == 9 and d[0] in "6789"


def cp_ok(s: str) -> bool:
    return len(s) == 5 and 1 <= int(s[:2]) <= 52


_NAME_WORD = r"[A-ZÁÉÍÓÚÑÜ][\wáéíóúñüÁÉÍÓÚÑÜ'’.-]*"
_NAME = rf"{_NAME_WORD}(?:[ \t]+(?:(?:de|del|la|las|los|y|i|van|von|da|do|dos)[ \t]+)*{_NAME_WORD}){{0,5}}"
# words that open a service after a doctor's name in a signature ("Dr. Ana Ruiz Servicio de Urología")
# (a hospital, faculty or street after the name stays inside the span: a wrong label, but covered)
_WORKPLACE = (r"(?:Servicio|Secci[óo]n|Unidad|Departamento|Dpto|Consulta|Cirug[íi]a|Medicina|Laboratorio|[ÁA]rea)")
_DOCTOR_WORD = rf"(?!{_WORKPLACE}\b){_NAME_WORD}"
_DOCTOR_NAME = rf"{_DOCTOR_WORD}(?:[ \t]+(?:(?:de|del|la|las|los|y|i|van|von|da|do|dos)[ \t]+)*{_DOCTOR_WORD}){{0,5}}"
_STREET_TYPES = (r"(?:calle|c/|c\.|cl\.|avda\.?|avenida|av\.|avinguda|avgda\.?|plaza|pza\.?|pl\.|plaça|paseo|pº|"
                 r"passeig|camino|carretera|carrera|ctra\.?|ronda|traves[íi]a|glorieta|carrer|c/\.|r[úu]a|urbanizaci[óo]n|"
                 r"urb\.|paraje|pasaje|v[íi]a|alameda|rambla|callej[óo]n|cuesta|barrio|bº|pol[íi]gono|partida)")
# street name words start with a letter, so the door number that follows is unambiguous
_STREET_NAME = r"(?:[^\W\d_][\w'’ª.-]*,?[ \t]+|d['’]){1,7}"
_DOOR = (r"(?:,?\s*(?:(?:n[ºo°]\.?\s*)?\d{1,4}(?:\s*[-–]\s*\d{1,4})?(?:\s*[ºª°])?(?:\s*[A-Za-z](?![\wáéíóú]))?|s/n)"
         r"(?:(?:\s*,\s*|\s+)(?:esc(?:alera)?\.?\s*\w{1,3}|piso\s*\w{1,3}|puerta\s*\w{1,3}|bajo|[áa]tico|"
         r"(?:dcha|izda|izq|dch|dcho|izqdo|pta)\.?|\d{1,3}\s*[ºª°]\s*(?:(?:dcha|izda|izq|dch)\.?|[A-Za-z](?![\w]))?|"
         r"\d{1,3}(?:\s*[A-Za-z])?(?![\w])|[A-Z](?![\w]))){0,4})")

_AGE_CONTEXT = regex.compile(
    r"(?i)(?:\bedad\s*:?\s*|\b(?:de|a\s+los|desde\s+los|hasta\s+los|con|los)\s+|"
    r"\b(?:paciente|var[óo]n|mujer|hombre|niñ[oa]|lactante|chic[oa]|señora?|adolescente|joven|ancian[oa]|"
    r"femenina|masculino|gestante|primigesta|neonato|recién\s+nacid[oa])\s*,?\s*(?:de\s+)?)$")

_LOS_ONLY = regex.compile(r"(?i)\b(?:a|desde|hasta|en)?\s*los\s+$")
_PERSON_BEFORE = regex.compile(r"(?i)(?:paciente|var[óo]n|mujer|hombre|niñ[oa]|lactante|chic[oa]|señora?|adolescente|"
                               r"joven|ancian[oa]|femenina|masculino|gestante|neonato|nacid[oa])\b[^.;\n]{0,25}$")


# "visto 3 meses después", "falleció 2 semanas más tarde": a time interval, not an age
_AFTER_INTERVAL = regex.compile(r"(?i)\s+(?:despu[ée]s|antes|m[áa]s\s+tarde)\b")


def _elapsed_time(t: str, s: str | int, e: int) -> bool:
    """``a los 5 meses de la cirugía``: time elapsed since an event, not an age.

    After a bare ``a los`` / ``desde los`` (no person word just before), months, days
    and weeks are intervals; years are an interval when an event follows (``a los dos
    años de la intervención``) and an age otherwise (``a los 64 años``, ``... de edad``).
    """
    before = t[max(0, s - 40):s]
    unit = regex.search(r"(?i)(años?|a\.?|meses|mes|d[íi]as|semanas)\s*$", t[s:e])
    word = unit.group(1).lower() if unit else ""
    if word == "semanas" and regex.search(r"(?i)(?:gestante|embaraz\w*|gestaci[óo]n|EG)\s*(?:de\s*)?$", before):
        return True  # gestational age, not the patient's age
    los = _LOS_ONLY.search(before)
    if not los or _PERSON_BEFORE.search(before[-12:]):
        return False
    if regex.match(r"(?i)\s+de\s+(?:edad|vida)\b", t[e:e + 12]):
        return False  # "a los 16 meses de edad", "a los dos días de vida": the patient's age then
    if not word.startswith("a"):
        return True  # "a los 5 meses", "a los 21 días": an interval
    if regex.match(r"(?i)en\b", los.group().strip()):
        return True  # "en los dos años previos"
    return regex.match(r"(?i)\s*(?:de|del|tras|después|posteriores?|previos|transcurridos|despu[ée]s)\b"
                       r"(?!\s+(?:edad|vida)\b)", t[e:e + 20]) is not None


_ROUTE = regex.compile(r"(?i)v[íi]as?\s+(?:oral|intravenosa|venosa|subcut|a[ée]rea|biliar|intramuscular|rectal|"
                       r"t[óo]pica|sublingual|inhalatoria|nasal|iv|im|sc|ev|vo|parenteral|enteral|urinaria|"
                       r"perif[ée]rica|central|respiratoria|digestiva|lagrimal|lacrimal)\b")
# a number followed by a unit is a dose, a size or a duration, not a door number
_UNIT_AFTER = regex.compile(r"(?i)\s*(?:mg|mcg|µg|ug|ml|cc|cm|mm|kg|gr?|l|h|horas?|hrs?|min(?:utos)?|seg(?:undos)?|"
                            r"d[íi]as?|semanas?|meses|mes|años?|veces|ciclos?|dosis|comprimidos?|ui|u|mmhg|lpm|"
                            r"rpm|ppm|%|º\s*c)(?![\w])")
# a sentence ends inside the match: a lower-case word, a full stop, a capitalised word ("urinarias. Tras")
_SENTENCE_INSIDE = regex.compile(r"(?<!\p{L})(?!(?:avda|avgda|pza|ctra|urb|esc|dcha|izda|izq|dch|dcho|izqdo|pta|"
                                 r"prof|sta|sto|gral|dr|dra|sra?)\.)\p{Ll}{3,}\.[ \t]+\p{Lu}")
# "C." and "PL." are also the end of "37 ºC." and a lumbar puncture: a sentence opener after them is prose
_OPENER_AFTER_ABBREV = regex.compile(r"(?i)(?:c|pl)\.\s+(?:en|tras|se|la|el|los|las|con|por|para|durante|desde|al|"
                                     r"un|una|no|sin|posteriormente|además|ademas|medicad[oa]|infundimos|"
                                     r"realizamos|presenta|presentaba)\b")


def _not_street(t: str, s: int, e: int) -> bool:
    """A route of administration, prose across a sentence end, or a dose/size/duration."""
    m = t[s:e]
    return (_ROUTE.match(m) is not None or _SENTENCE_INSIDE.search(m) is not None
            or _OPENER_AFTER_ABBREV.match(m) is not None or _UNIT_AFTER.match(t, e) is not None)


_PLACES: frozenset[str] | None = None


def _place_list(t: str, s: int, e: int) -> bool:
    """A place where the maker would be: a listed town or country (``timoftol®, Madrid, Spain``), or
    one word followed by a listed country and the closing bracket (``Medartis®, Basel, Suiza)``)."""
    global _PLACES
    if _PLACES is None:
        from ..lexicons import load_lexicon

        _PLACES = frozenset(w.lower() for li in ("countries", "cities_es") for w in load_lexicon(li))
    if t[s:e].lower() in _PLACES:
        return True
    m = regex.match(r"[ \t]*,[ \t]*([^,;)\n]+?)[ \t]*\)", t[e:e + 40])
    return bool(m and m.group(1).lower() in _PLACES and " " not in t[s:e])


_KIN_QUAL = r"(?:[ \t]+(?i:materna|materno|paterna|paterno|var[óo]n|mayor|menor|mediana|mediano|maternos|paternos|maternas|paternas))?"
_KIN = (r"(?i:madre|padre|padres|familia|hermana|hermano|hermanas|hermanos|hija|hijo|hijas|hijos|marido|esposa|esposo|"
        r"progenitores|abuela|abuelo|abuelas|abuelos|t[íi]a|t[íi]o|t[íi]as|t[íi]os|prima|primo|sobrina|sobrino|nieta|"
        r"nieto|cuñada|cuñado|suegra|suegro)" + _KIN_QUAL)
_KIN_PLURAL = (r"(?i:padres|hermanas|hermanos|hijas|hijos|progenitores|abuelas|abuelos|t[íi]as|t[íi]os|primos|primas|"
               r"sobrinos|sobrinas|nietos|nietas)" + _KIN_QUAL)


# words that may stand before a postal code in an address line ("2º dcha 28036 Madrid")
_DOOR_WORDS = frozenset({"izquierda", "derecha", "dcha", "izda", "bajo", "puerta", "piso", "planta", "portal",
                         "escalera", "local", "interior", "exterior", "centro", "ático", "atico", "izq", "dcho"})


def _service_name(surface: str) -> bool:
    from .lexicon_es import service_name

    return service_name(surface)


def _measurement(t: str, s: int, e: int) -> bool:
    """A five-digit value, not a postal code: after a lower-case word that is not part of an address
    (``microglobulina 23340``, ``modelo 20636``), after an acronym (``EORTC 22981``), or among lab
    values with a percentage or a unit on the same line (``Leucocitos 17850 Neutrófilos 86%``)."""
    m = regex.search(r"(\p{L}+)[ \t]$", t[max(0, s - 30):s])
    if m:
        w = m.group(1)
        if (w.islower() and len(w) >= 4 and w not in _DOOR_WORDS) or (w.isupper() and len(w) >= 3 and w != "SN"):
            return True
    return regex.match(r"[^\n]{0,25}?\d[ \t]*(?:%|mg|ml|mm|g/dl|mmol|ui)", t[e:e + 40]) is not None


ES_PATTERNS: tuple[Pattern, ...] = (
    # dates
    P("es_date_numeric", rf"(?<![\d/.:-]){DAY}(?P<sep>[/.-])(?:0?[1-9]|1[0-2])(?P=sep)(?:{YEAR4}|\d{{2}})(?![\d/]|\.\d)",
      "DATE", 0.95, validate=md_ok),
    P("es_date_text", rf"(?i)\b(?:{WEEKDAYS_ES},?\s+)?(?:{DAY}\s*(?:de\s+|[-/\s]){MONTHS_ES}"
      rf"(?:\s*(?:de(?:l)?\s+|[-/,]\s*)(?:año\s+)?(?:{YEAR4}|\d{{2}}(?!\d)))?"
      rf"|{MONTHS_ES_FULL}(?:\s*(?:de(?:l)?\s+|[-/,]\s*)|\s+)(?:año\s+)?{YEAR4}"
      rf"|{MONTHS_ES_FULL}\s+(?:de(?:l)?\s+)?[09]\d(?!\d|[.,:/]\d)(?!\s*(?:%|mg|ml|d[íi]as|años|horas|semanas|meses|pacientes|casos)))\b",
      "DATE", 0.93),
    P("es_month_alone", rf"(?i)\b{MONTHS_ES_FULL}\b", "DATE", 0.7),
    P("es_year", rf"(?i)(?<=\b(?:en|desde|hasta|año|años|del|de|el|durante|antes\s+de|a\s+partir\s+de)\s+)"
      rf"(?:el\s+)?(?P<y>{YEAR4})(?!\d|[/.,]\d)", "DATE", 0.8, group="y"),
    P("es_year_bare", rf"(?<![\d/.,:-]){YEAR4}(?![\d/%]|[.,]\d|\s*(?:mg|ml|cc|g\b|ui|u\b|kcal|€))", "DATE", 0.6,
      validate=lambda s: 1900 <= int(s) <= 2030),
    # ages
    P("es_age", r"(?i)(?P<a>(?<![\w.,])(?:\d{1,3}|un|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez)\s*"
      r"(?:años|año|(?<=\d\s?)a\.|(?<=\d\s?)a(?=\W)|meses|mes|d[íi]as|semanas)(?:\s+y\s+\d{1,2}\s*(?:meses|mes|d[íi]as))?)",
      "AGE", 0.9, group="a",
      invalidate=lambda t, s, e: _AGE_CONTEXT.search(t[max(0, s - 40):s]) is None or _elapsed_time(t, s, e)
      or _AFTER_INTERVAL.match(t, e) is not None or regex.search(r"(?i)\b(?:hace|durante|desde\s+hace|tras|después\s+de|"
                                             r"evoluci[óo]n\s+de|historia\s+de|periodo\s+de|plazo\s+de)\s+$",
                                             t[max(0, s - 25):s]) is not None
      or (regex.search(r"(?i)\b(?:de|con)\s+$", t[max(0, s - 5):s]) is not None
          and not regex.search(r"(?i)(?:paciente|var[óo]n|mujer|hombre|niñ[oa]|femenina|masculino|lactante|"
                               r"chic[oa]|señora?|adolescente|joven|ancian[oa]|gestante)\s*,?\s*(?:de|con)\s+$",
                               t[max(0, s - 30):s])
          and not regex.match(r"\s+de\s+edad", t[e:e + 10]))),
    P("es_age_field", r"(?im)\bedad\s*:\s*(?P<a>\d{1,3})(?![\d,.]\d|\s*(?:años|año|a\.|meses|mes|d[íi]as|mmhg|mm|cm|kg|g\b|ml|mg|%|lpm|rpm))\b", "AGE", 0.9,
      group="a"),
    # contacts
    P("es_fax", r"(?i)\bfax\s*[:.]?\s*(?P<n>(?:\(?\+?\d{1,4}\)?[\s.-]?)?\d{2,3}(?:[\s.-]?\d{2,4}){2,3})", "FAX", 0.97,
      group="n", validate=lambda s: 9 <= len(digits(s)) <= 13),
    P("es_phone", r"(?<![\d/.,-])(?:(?:\+|00)\s?34[\s.-]?)?[6789](?:[\s.-]?\d){8}(?![\d/]|[.,]\d)", "PHONE", 0.9,
      validate=es_phone_ok,
      invalidate=lambda t, s, e: regex.search(r"(?i)(?:nass|nhc|dni|nif|nie|col|episodio|n[ºo°])\s*[:.]?\s*$",
                                             t[max(0, s - 12):s]) is not None),
    P("es_phone_context", r"(?i)\b(?:tel[ée]fono|tel[fs]?\.?|tfno\.?|tlf\.?|m[óo]vil|tfn\.?|telf\.?)\s*[:.]?\s*"
      r"(?P<n>\+?[\d(][\d\s().-]{6,16}\d)", "PHONE", 0.95, group="n",
      validate=lambda s: 7 <= len(digits(s)) <= 13),
    # identifiers
    P("es_dni", r"(?i)(?<![\w-])(?:\d{8}|[XYZ][-\s]?\d{7})[-\s]?[A-Z](?![\w])", "IDNUM", 0.95, validate=dni_ok),
    P("es_dni_context", r"(?i)\b(?:DNI|NIF|NIE|D\.N\.I\.|documento\s+nacional\s+de\s+identidad|pasaporte)\s*[:.]?\s*"
      r"(?P<n>[XYZ]?[-\s]?\d[\d.\s-]{5,10}[-\s]?[A-Z]?)(?![\w])", "IDNUM", 0.9, group="n"),
    P("es_nass", r"(?i)\b(?:NASS|NUSS|NSS|n[ºo°]\s*(?:de\s+)?(?:afiliaci[óo]n|seguridad\s+social|S\.S\.)|"
      r"n[úu]mero\s+de\s+(?:afiliaci[óo]n|la\s+seguridad\s+social)(?:\s+a\s+la\s+seguridad\s+social)?|CIP|TIS|"
      r"tarjeta\s+sanitaria|n[ºo°]\s*(?:de\s+)?p[óo]liza|p[óo]liza)\s*[:.]?\s*(?P<n>[A-Z]{0,4}\d[\d\s/-]{5,16}\d)(?![\d])",
      "HEALTHPLAN", 0.95, group="n"),
    P("es_nhc", r"(?i)\b(?:NHC|N\.H\.C\.|CIPA|historia\s+cl[íi]nica|n[ºo°]\s*(?:de\s+)?historia(?:\s+cl[íi]nica)?|"
      r"n[úu]mero\s+de\s+historia(?:\s+cl[íi]nica)?|HC)\s*(?:n[ºo°.]\s*)?[:.]?\s*(?:[a-z]{2,4}-)?"
      r"(?P<n>[A-Z]{0,3}\d[\d.-]{3,14}[\dA-Z]?)(?![\w])", "MEDICALRECORD", 0.95, group="n"),
    P("es_episodio", r"(?i)\b(?:episodio|n[ºo°]\s*(?:de\s+)?episodio|n[ºo°]\s*(?:de\s+)?ingreso|ingreso\s+n[ºo°])"
      r"\s*[:.]?\s*(?P<n>\d[\d-]{3,16})(?![\d])", "ACCOUNT", 0.9, group="n"),
    P("es_colegiado", r"(?i)(?:\bn[ºo°]\s*\.?\s*(?:de\s+)?col(?:egiado)?\.?|\bn[úu]m(?:ero|\.)?\s*(?:de\s+)?colegiad[oa]|"
      r"\bcolegiad[oa]\s*(?:n[ºo°.]*)?|\bcol\.?\s*n[ºo°.]*|\bCNP)\s*[:.]?\s*(?P<n>\d{2}\s?\d{2}\s?\d{3,6}|\d{5,10})(?![\d])",
      "LICENSE", 0.95, group="n"),
    P("es_generic_id", r"(?i)\b(?:n[ºo°]\s*(?:de\s+)?(?:identificaci[óo]n|registro|expediente|referencia|serie|lote)|"
      r"n[úu]mero\s+de\s+(?:identificaci[óo]n|registro|expediente|referencia|serie|lote)|matr[íi]cula)"
      r"\s*[:.]?\s*(?P<n>[A-Z0-9][A-Z0-9-]{3,20})(?![\w])", "IDNUM", 0.85, group="n", validate=has_digit),
    # places
    P("es_cp", r"(?i)\b(?:CP|C\.P\.|c[óo]digo\s+postal|cod\.\s*postal)\s*[:.]?\s*(?P<z>\d{5}(?:-\d{3})?|\d{2}\s\d{2}\s\d{5})"
      r"(?![\d])", "ZIP", 0.95, group="z"),
    P("es_cp_city", r"(?<![\d/.,:-])(?P<z>(?:0[1-9]|[1-4]\d|5[0-2])\d{3})(?=[\s.,-]{1,3}(?:\(?[A-ZÁÉÍÓÚÑ][a-záéíóúñ]+))",
      "ZIP", 0.8, group="z", validate=cp_ok,
      invalidate=lambda t, s, e: regex.search(r"(?i)(?:nass|nhc|dni|col|episodio|n[ºo°])\s*[:.]?\s*$",
                                             t[max(0, s - 12):s]) is not None or _measurement(t, s, e)),
    P("es_street", rf"(?i)(?<![\w/])(?P<s>{_STREET_TYPES}(?:(?<=[./º])\s*|\s+){_STREET_NAME}{_DOOR})(?=[\s.,;)]|$)",
      "STREET", 0.9, group="s", validate=lambda s: has_digit(s) or "s/n" in s.lower(), invalidate=_not_street),
    # Latin American numbered streets: "Carrera 3 # 49-00", "Calle 100 n.º 15-20"
    P("es_street_numbered", r"(?i)(?<![\w/])(?:calle|carrera|cra\.|kra\.|avenida|diagonal|transversal)\s+\d{1,3}"
      r"(?:\s?[A-Z](?![\w]))?(?:\s+bis)?\s*(?:#|n\.?\s?[ºo°])\s*\d{1,3}(?:\s?[A-Z](?![\w]))?\s*-\s*\d{1,3}(?![\d])",
      "STREET", 0.9),
    # MEDDOCAN marks the mention of a relative itself ("la madre", "su hermana", "la familia",
    # "tío paterno") as FAMILIARES_SUJETO_ASISTENCIA: after a determiner, a possessive or a
    # preposition, or opening a sentence; not "médico de familia", "solución madre"
    P("es_kin", r"(?:(?<![\w])(?P<k>(?i:ambos|ambas|dos|tres|cuatro)[ \t]+" + _KIN_PLURAL + r")|"
      r"(?:(?<=\b(?i:la|el|los|las|su|sus|mi|mis|un|una|unos|unas|del|al|y|e|o|a|de|con|por|para|sin|otro|otra|sendos|sendas)[ \t]+)"
      r"|(?<=(?:^|[.:;]|\n)[ \t]*))(?P<k>" + _KIN + r")|"
      r"(?<=\b(?i:los|sus|a|por|con|sin|otros|unos)[ \t]+)(?P<k>(?i:familiares)))(?![\w])",
      "RELATIVE", 0.75, group="k",
      invalidate=lambda t, s, e: regex.search(r"(?i)(?:m[ée]dic[oa]|medicina|consultorio|planificaci[óo]n|"
                                             r"unidad|sala|grupo)\s+de\s+(?:la\s+)?$", t[max(0, s - 30):s]) is not None
      or regex.match(r"(?i)\s+(?:de\s+familia|nuestr[oa]|fundador|santo|de\s+(?:primer|segundo|tercer)\s+grado)\b",
                     t[e:e + 30]) is not None),
    # the maker after a brand name in a citation: "(Zovirax®, Glaxo Smith Kline)" (MEDDOCAN INSTITUCION)
    P("es_maker", r"(?<=\([^()\n]{0,60}?[®™][ \t]*,[ \t]*)(?P<o>\p{Lu}[\p{L}&'’-]*(?:[ \t]+(?:&[ \t]+)?"
      r"\p{Lu}[\p{L}&'’-]*){0,4})(?=[ \t]*[,;)])(?![^,;)\n]*[®™])", "ORGANIZATION", 0.85, group="o",
      invalidate=lambda t, s, e: _place_list(t, s, e)),
    # header fields of Spanish clinical reports
    P("es_field_nombre", rf"(?m)^[ \t]*Nombre[ \t]*:[ \t]*(?P<n>{_NAME})[ \t]*\.?[ \t]*$", "PATIENT", 0.95, group="n"),
    P("es_field_apellidos", rf"(?m)^[ \t]*Apellidos[ \t]*:[ \t]*(?P<n>{_NAME})[ \t]*\.?[ \t]*$", "PATIENT", 0.95,
      group="n"),
    P("es_field_medico", rf"(?m)(?:^|\b)(?:M[ée]dico|Doctora?|Dra?\.|Facultativo|Remitido\s+por|Firmado|Responsable)"
      rf"[ \t]*:[ \t]*(?:(?:Dra?|Dr)(?:\.[ \t]*|[ \t]+))?(?:D[ña]?\.[ \t]+)?(?!(?:Dra?|Dr|D|Doctora?)(?:\.|[ \t]|$))(?P<n>{_DOCTOR_NAME})"
      rf"(?=[ \t]*(?:N[ºo°]|\.|,|$|\n|[ \t]+[cC]/|[ \t]+{_WORKPLACE}\b))",
      "DOCTOR", 0.9, group="n", invalidate=lambda t, s, e: _service_name(t[s:e])),
    P("es_field_domicilio", r"(?m)^[ \t]*(?:Domicilio|Direcci[óo]n)[ \t]*:[ \t]*(?P<s>[^\n]+?)[ \t]*\.?[ \t]*$", "STREET",
      0.93, group="s"),
    P("es_field_localidad", r"(?m)^[ \t]*(?:Localidad|Provincia|Municipio|Ciudad|Poblaci[óo]n)(?:[ \t]*/[ \t]*"
      r"(?:Provincia|Localidad))?[ \t]*:[ \t]*(?P<c>[^\n.]+?)[ \t]*\.?[ \t]*$", "CITY", 0.93, group="c"),
    P("es_field_pais", r"(?m)^[ \t]*Pa[íi]s(?:[ \t]+de[ \t]+(?:nacimiento|origen))?[ \t]*:[ \t]*(?P<c>[^\n.]+?)[ \t]*\.?[ \t]*$",
      "COUNTRY", 0.9, group="c"),
    # MEDDOCAN annotates the patient's sex where it introduces the age ("Varón de 83 años")
    P("es_sex_before_age", r"(?i)\b(?:var[óo]n|mujer|hombre|niñ[oa]|masculino|femenin[oa]|chic[oa]|lactante\s+(?=var[óo]n|mujer))"
      r"(?=\s*,?\s+(?:de\s+)?(?:\d{1,3}|un|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce)\s*"
      r"(?:años|año|meses|mes|d[íi]as|semanas)\b)", "OTHER", 0.7),
    # ... and wherever a sex word names the patient ("el niño se mostró irritable", "una mujer
    # acude"), but not a spouse ("su mujer") nor the qualifier of a relative ("hijo varón")
    P("es_sex_word", r"(?i)(?<![\w])(?:niñ[oa]|var[óo]n|mujer|hombre|masculino|femenin[oa])(?![\w])", "OTHER", 0.65,
      invalidate=lambda t, s, e: regex.search(r"(?i)(?:\b(?:su|sus|mi|mis|tu|tus)|\b(?:hij[oa]s?|herman[oa]s?|"
                                             r"t[íi][oa]s?|prim[oa]s?|sobrin[oa]s?|niet[oa]s?|abuel[oa]s?|"
                                             r"familiar(?:es)?|donante|otr[oa]|fenotipo|cariotipo|feto|producto|era|genitales|aspecto)|"
                                             r"\bde\s+(?:la|una|un|el)|\bcomo|\bentre)\s+$", t[max(0, s - 20):s]) is not None
      or regex.match(r"\s+(?:y|o|e)\s+(?:la\s+|el\s+)?(?:mujer|var[óo]n|hombre|niñ[oa]|masculino|femenin[oa])\b", t[e:e + 25],
                     regex.IGNORECASE) is not None),
    P("es_sex_phrase", r"(?i)\bdel\s+sexo\s+(?P<x>masculino|femenino)\b", "OTHER", 0.8, group="x"),
    P("es_field_sexo", r"(?i)\bsexo\s*:\s*(?P<x>hombre|mujer|var[óo]n|masculino|femenino|[HMVF])(?![\w])", "OTHER", 0.9,
      group="x"),
)


TRIGGERS_ES: dict[str, tuple[str, ...]] = {
    "es_date_numeric": (r"re:\d[/.-]\d{1,2}[/.-]\d",), "es_phone": (r"re:[6789](?:[ .-]?\d){8}",),
    "es_dni": (r"re:\d{7}",), "es_cp_city": (r"re:\d{5}",),
    "es_date_text": tuple("w:" + w for w in (
        "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "setiembre",
        "octubre", "noviembre", "diciembre", "ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep",
        "sept", "oct", "nov", "dic")),
    "es_month_alone": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
                       "setiembre", "octubre", "noviembre", "diciembre"),
    "es_age_field": ("edad",), "es_fax": ("fax",), "es_phone_context": ("tel", "tfn", "tlf", "móvil", "movil"),
    "es_dni_context": ("dni", "nif", "nie", "d.n.i", "documento", "pasaporte"),
    "es_nass": ("nass", "nuss", "nss", "afiliaci", "seguridad", "cip", "tis", "tarjeta", "póliza", "poliza"),
    "es_nhc": ("nhc", "n.h.c", "cipa", "historia", "hc"), "es_episodio": ("episodio", "ingreso"),
    "es_colegiado": ("col", "cnp"),
    "es_generic_id": ("identificaci", "registro", "expediente", "referencia", "serie", "lote", "matr"),
    "es_cp": ("cp", "c.p", "postal"), "es_field_nombre": ("nombre",), "es_field_apellidos": ("apellidos",),
    "es_field_medico": ("médico", "medico", "doctor", "dr", "facultativo", "remitido", "firmado", "responsable"),
    "es_field_domicilio": ("domicilio", "direcci"),
    "es_field_localidad": ("localidad", "provincia", "municipio", "ciudad", "poblaci"),
    "es_field_pais": ("país", "pais"), "es_field_sexo": ("sexo",), "es_sex_phrase": ("sexo",),
    "es_sex_before_age": ("varón", "varon", "mujer", "hombre", "niñ", "masculino", "femenin", "chic"),
    "es_sex_word": ("varón", "varon", "mujer", "hombre", "niñ", "masculino", "femenin"),
}
LEADS_ES: dict[str, str] = {
    "es_date_numeric": r"\d", "es_year_bare": "[12]", "es_phone": r"[+0-9]", "es_dni": r"[\dXYZxyz]",
    "es_cp_city": r"\d", "es_age": "[0-9udtcsnoUDTCSNO]",
    "es_street_numbered": "[cCkKaAdDtT]",
}
ES_PATTERNS = tuple(replace(p, triggers=TRIGGERS_ES.get(p.name), lead=LEADS_ES.get(p.name, "")) for p in ES_PATTERNS)
