"""Medical-term disambiguation: keep eponyms, drugs and abbreviations out of redaction.

``ProtectedTermsFilter`` runs after merging. A NAME or LOCATION span whose
every word is a protected term (bundled ``medical_eponyms``,
``medical_abbreviations``, ``medical_terms``, ``drugs`` plus the user's
``protected`` list) is dropped, unless strong context says it is a person:
a title right before it (``Mr. Parkinson``, ``Dr. Foley``, ``Dra.``) or a
credential right after it (``Foley, MD``). A medical head word after it
(``Parkinson's disease``, ``Foley catheter``, ``Bell palsy``) always wins, and
drops a name found only by the lexicon even when the word is not a listed term
(``test de Coombs``, ``grado 2 de Fuhrman``); tagger spans need a listed term for that.
Matching is exact for abbreviations and words under 6 letters, and allows a
Levenshtein distance of 1 (6-8 letters) or 2 (9+ letters) through rapidfuzz
for longer words (``Parkinsons``, ``Alzheimers``).

Spans from ``pattern`` and ``user`` sources are kept (their context is their
evidence). The user's ``always_redact`` terms are added here as spans with
source ``user:always_redact`` (label ``OTHER``) and win every overlap.
"""

from __future__ import annotations

import time
from functools import lru_cache

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..taxonomy import category_of, is_label
from ..types import Document, Span
from .lexicon import norm
from .merge import resolve, source_family

_WORD = regex.compile(r"\p{L}[\p{L}\d'’]*(?:-\p{L}[\p{L}\d'’]*)*|\d+")
TITLES = {"dr", "doctor", "drs", "mr", "mrs", "ms", "miss", "mister", "dra", "doctora", "sr", "sra", "srta", "don",
          "dona", "prof", "professor", "nurse", "rn", "np", "pa", "mx", "mdm", "madam", "mme"}
CREDENTIALS = {"md", "rn", "np", "pa", "do", "phd", "msw", "crnp", "rrt", "lpn", "pharmd", "bsn"}
MEDICAL_HEADS = {"disease", "syndrome", "sign", "signs", "index", "criterion", "tests", "classification", "palsy", "catheter", "cath", "tube", "score", "scale",
                 "protocol", "examination", "exam", "technique", "approach", "hallpike",
                 "criteria", "test", "maneuver", "manoeuvre", "reflex", "phenomenon", "procedure", "operation",
                 "repair", "line", "drain", "lymphoma", "tumor", "tumour", "node", "nodes", "fracture", "ulcer",
                 "respirations", "breathing", "triad", "law", "classification", "stage", "grade", "point",
                 "pouch", "balloon", "bag", "stockings", "dressing", "enfermedad", "sindrome", "signo", "escala",
                 "sonda", "test", "prueba", "maniobra", "thyroiditis", "encephalopathy", "dementia", "chorea",
                 "ataxia", "agar", "stain", "body", "bodies", "cell", "cells", "space", "duct", "valve",
                 "index", "method", "technique", "solution", "virus", "medium", "incision", "approach", "position",
                 "tecnica", "indice", "grado", "tincion", "incision", "linea", "formula", "protocolo",
                 "clasificacion", "criterios", "solucion", "quiste", "fenomeno", "reflejo", "operacion",
                 "intervencion", "procedimiento", "metodo", "medio", "medios", "perimetria", "campimetria",
                 "abordaje", "posicion", "niveles", "nivel", "adenoma", "conducto", "tumor", "celulas", "cuerpos",
                 "colores", "puntuacion", "estadio", "derivacion", "anastomosis", "bloqueo", "cuestionario"}
_PLACE_BEFORE = regex.compile(r"(?i)\b(?:lives?|living|lived|moved|moving|resides?|residing|resident|born|home|"
                               r"relocated|visiting|vive|reside|residente|natural|procedente)\s+(?:in|to|of|from|at|en|de)"
                               r"[ \t]+$")
# a locative preposition right before a place: "rings from [boston]", "a nurse in [miami]"
_LOCATIVE_BEFORE = regex.compile(r"(?i)\b(?:in|from|to|near|outside|around|at)[ \t]+$")
_NEXT_WORD = regex.compile(r"[ \t]+([\p{L}][\p{L}'’-]*)")


# a tagger name right before these words names a scale, score, sign or disease ("Harvey-Bradshaw index")
_EPONYM_HEAD_AFTER = regex.compile(r"(?:['’]s?)?(?:[ \t]*(?:[ \t]and[ \t]|&|/|-)[ \t]*\p{Lu}[\p{L}-]+(?:['’]s)?)?[ \t]+"
                                   r"(?i:(?:cognitive|mental|functional|clinical|depression|anxiety|frailty|coma|"
                                   r"severity|activity|risk)[ \t]+)?"
                                   r"(?i:score|scale|index|criteria|criterion|classification|sign|signs|test|tests|"
                                   r"maneuver|manoeuvre|reflex|syndrome|disease|palsy|phenomenon|procedure|"
                                   r"questionnaire|inventory|protocol|repair|examination|exam|operation|technique|"
                                   r"fracture|incision|approach|osteotomy|flap|shunt|regimen|exercises?|pendulums?)\b")
_EXAM_RESULT_BEFORE = regex.compile(r"(?i)\b(?:negative|positive|neg|pos|\+ve|-ve)[ \t]+$")
# the head word of an eponymous structure, disease or device that the tagger took with its eponym for a place
_EPONYM_NOUN_HEADS = frozenset({"pouch", "disease", "syndrome", "palsy", "catheter", "lymphoma", "tumor", "tumour",
                                "ulcer", "reflex", "maneuver", "manoeuvre", "phenomenon", "triad", "sign"})
_ZIP_AFTER = regex.compile(r",?[ \t]+\d{5}(?:-\d{4})?(?![\d-])")
# the name of a Saint's hospital after the tagger's "St" ("FROM ST. ELSEWHERE", "to St. Agnes")
_SAINT_NAMED_AFTER = regex.compile(r"\.[ \t]{1,2}(?:\p{Lu}\p{Ll}{2,}|\p{Lu}{3,})(?:['’]s|['’]S)?(?![\p{L}\d])")
_PLACE_CUE_BEFORE = regex.compile(r"(?i)\b(?:from|to|at|in|via)[ \t]+$")
# a named examination test and its result: "Hawkins +,", "Neer (+)", "Spurling -,", "Thompson negative" (not "WIFE
# MARIAN + DAUGHTER": a plus between words joins people)
_EXAM_RESULT_AFTER = regex.compile(r"(?:['’]s)?[ \t]*(?:\([ \t]*[+-][ \t]*\)|[+-](?=[ \t]*(?:[,;.)\n]|$))|"
                                   r"(?i:positive|negative|pos|neg)\b(?![ \t]*(?:for|to|about)\b))")
# "Neer/[Hawkins] deferred": a capitalised word and a slash before, a result after
_EXAM_PAIR_BEFORE = regex.compile(r"(?<![\p{L}])(?<!(?i:\b(?:mr|mrs|ms|miss|dr|prof)\.?[ \t]))\p{Lu}\p{Ll}+(?:['’]s)?[ \t]*/[ \t]*$")
_EXAM_OUTCOME_AFTER = regex.compile(r"(?:['’]s)?[ \t]*(?:\([ \t]*[+-][ \t]*\)|[+-](?=[ \t]*(?:[,;.)\n]|$))|"
                                    r"(?i:positive|negative|pos|neg|deferred|equivocal|not[ \t]+(?:tested|assessed|done|"
                                    r"performed)|intact|normal|abnormal|painful|painless)\b)")
# a lexicon-only name right after these words is an eponym ("test de Coombs", "grado 2 de Fuhrman")
_EPONYM_BEFORE = regex.compile(r"(\p{L}+)[ \t]+(?:\d+[ \t]+)?(?:de|del|of)[ \t]+(?:la[ \t]+)?$")
# A place span made only of these words names a service, not a facility: "UROLOGY CLINIC",
# "Orthopedic Clinic", "student health center", "pulmonology" (section headings, generic services).
SERVICE_WORDS = frozenset({
    "outreach", "pastoral", "spiritual", "electrophysiology", "pacing", "anticoagulation", "anticoag", "lipid", "heart failure",
    "allergy", "immunology", "anesthesia", "anesthesiology", "anaesthesia", "anaesthetics", "audiology",
    "bariatric", "bariatrics", "breast", "burn", "burns", "cardiac", "cardiology", "cardiothoracic",
    "cardiovascular", "chest", "colorectal", "dental", "dentistry", "dermatology", "diabetes", "diabetic",
    "dialysis", "ear", "nose", "throat", "ent", "emergency", "endocrine", "endocrinology", "endoscopy", "eye",
    "family", "fertility", "gastroenterology", "gastro", "gi", "genetics", "geriatric", "geriatrics",
    "gynecology", "gynaecology", "gyn", "ob", "obgyn", "ob/gyn", "obstetric", "obstetrics", "hand", "head",
    "neck", "hearing", "heart", "hematology", "haematology", "hepatology", "hiv", "imaging", "infectious",
    "disease", "diseases", "infusion", "internal", "kidney", "liver", "maternity", "medical", "medicine",
    "memory", "mental", "health", "behavioral", "behavioural", "neonatal", "nephrology", "neurology",
    "neurosurgery", "neurosurgical", "nuclear", "nutrition", "occupational", "therapy", "oncology",
    "ophthalmology", "optometry", "oral", "orthopedic", "orthopedics", "orthopaedic", "orthopaedics",
    "ortho", "otolaryngology", "pain", "palliative", "pediatric", "pediatrics", "paediatric", "paediatrics",
    "pelvic", "pharmacy", "physical", "physiotherapy", "plastic", "plastics", "podiatry", "preop",
    "pre-op", "preoperative", "pre-operative", "pre-admission", "preadmission", "primary", "psychiatry",
    "psychiatric", "psychology", "pulmonary", "pulmonology", "radiation", "radiology", "rehab",
    "rehabilitation", "renal", "reproductive", "respiratory", "rheumatology", "sleep", "spine", "sports",
    "surgery", "surgical", "thoracic", "transplant", "trauma", "travel", "urgent", "urology", "urologic",
    "urological", "vascular", "vein", "weight", "women's", "womens", "wound", "care", "student", "employee",
    "outpatient", "inpatient", "walk-in", "ambulatory", "specialty", "speciality", "multispecialty",
    "adult", "clinical", "diagnostic", "diagnostics", "lab", "laboratory", "blood", "wellness", "counseling",
    "counselling", "addiction", "substance", "same-day", "sexual",
    "interventional", "invasive", "noninvasive", "non-invasive", "critical", "intensive", "acute", "chronic",
    "pulm", "resp", "neuro", "cards", "onc", "derm", "uro", "peds", "psych", "endo", "heme", "id", "cv",
    "cardiopulmonary", "hepatobiliary", "spinal", "stroke", "cancer",
    # conditions and programmes clinics are named after ("Heart Failure Clinic", "Falls Clinic")
    "failure", "anticoagulation", "coumadin", "warfarin", "inr", "lipid", "lipids", "fracture", "falls",
    "asthma", "copd", "hypertension", "epilepsy", "seizure", "headache", "migraine", "continence",
    "incontinence", "bone", "density", "osteoporosis", "arrhythmia", "pacemaker", "device", "lymphedema",
    "lymphoedema", "ostomy", "stoma", "smoking", "cessation", "vaccine", "vaccination", "immunization",
    "immunisation", "tb", "hepatitis", "sickle", "cell", "cystic", "fibrosis", "obesity", "thyroid",
    "glaucoma", "cataract", "retina", "cornea", "concussion", "movement", "disorders", "disorder",
    "dementia", "autism", "adhd", "eating", "feeding", "lactation", "prenatal", "antenatal", "postnatal",
    "well-baby", "newborn", "fetal", "foot", "skin", "hand", "joint", "arthritis", "gout", "lupus",
    "transfusion", "anemia", "anaemia", "coagulation", "hemophilia", "haemophilia", "allergies",
    "return", "work", "education", "support", "recovery", "assessment", "screening", "testing",
    # clinics named by a condition's abbreviation or a stage of care ("IBD Clinic", "PRE-ANESTHETIC ASSESSMENT CLINIC")
    "ibd", "ckd", "chf", "gu", "paeds", "rheum", "tia", "pre-anesthetic", "preanesthetic", "pre-anaesthetic",
    "anesthetic", "anaesthetic", "pre-assessment", "preassessment", "pre-op", "preop", "pre-operative",
    "preoperative", "minor", "injuries",
    # the heads themselves and the glue between words
    "clinic", "clinics", "center", "centre", "centers", "centres", "department", "dept", "unit", "units",
    "service", "services", "office", "practice", "program", "programme", "team", "division", "section",
    "hospital", "hosp", "note", "consult", "consultation", "follow-up", "followup", "visit", "the", "of",
    "and", "&", "for", "a", "our", "your", "his", "her", "their", "at", "in", "to",
})
_SERVICE_MARKERS = SERVICE_WORDS - {"the", "of", "and", "&", "for", "a", "our", "your", "his", "her", "their",
                                    "at", "in", "to"}
# word endings of clinical vocabulary that word lists miss (British spellings, rarer terms)
_CLINICAL_SUFFIX = regex.compile(r"(?:olog(?:y|ist|ic|ical|ous)|itis|ectomy|otomy|ostomy|oscopy|plasty|a?emia|"
                                 r"pathy|algia|iatrics?|iatrist|therap(?:y|ist|ies)|ectasis|plegia|trophy|gene?ic|genous|osis)$")
# an eponym used as a classification: "Fitzpatrick type III", "Mobitz type 2", "Salter-Harris type B"
_TYPE_AFTER = regex.compile(r"(?:['’]s)?[ \t]+(?:type|types|class|grade|stage|variant)[ \t]+"
                            r"(?:[IVX]{1,4}|\d{1,2}|[A-Da-d])\b")
# "<Name> gardener's disease": a capitalised word before an occupational-eponym disease
_POSSESSIVE_HEAD_AFTER = regex.compile(r"[ \t]+\p{Ll}+['’]s?[ \t]+(\p{L}+)")
# cue words right before a span that make a dictionary word a name ("call me Sunny", "Dr. Rich")
_NAME_CUE_BEFORE = regex.compile(r"(?i)\b(?:call(?:ed)?[ \t]+me|name[ \t]+is|named|goes[ \t]+by|known[ \t]+as|"
                                 r"nickname[ \t]+is)[ \t]+$")
_WEEKDAYS = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"})
FUZZY_MIN = 6
USER_LIST_REFRESH_S = 1.0


@lru_cache(maxsize=1)
def _load_terms() -> tuple[frozenset[str], frozenset[str], frozenset[str], dict[str, list[str]]]:
    """Normalised protected terms, eponyms, correctly spelled names and fuzzy pools (shared, read once;
    from the derived-data cache ``deid_engine.cache`` when it holds them)."""
    import sys

    from .. import cache
    from ..lexicons import lexicon_names

    return cache.derived("protected-terms", lexicons=lexicon_names(),
                         modules=(sys.modules[__name__], sys.modules[norm.__module__],
                                  sys.modules[lexicon_names.__module__]),
                         build=_build_terms, encode=_terms_to_lines, decode=_terms_from_lines)


def _terms_to_lines(t: tuple) -> dict[str, list[str]]:
    from .. import cache

    out = {"terms": list(t[0]), "eponyms": list(t[1]), "names": list(t[2])}
    cache.put_lists_dict(out, "pool", t[3])
    return out


def _terms_from_lines(d: dict[str, list[str]]) -> tuple:
    from .. import cache

    return frozenset(d["terms"]), frozenset(d["eponyms"]), frozenset(d["names"]), cache.get_lists_dict(d, "pool")


def _build_terms() -> tuple[frozenset[str], frozenset[str], frozenset[str], dict[str, list[str]]]:
    from ..lexicons import load_lexicon

    terms: set[str] = set()
    for li in ("medical_eponyms", "medical_abbreviations", "medical_terms", "drugs"):
        for t in load_lexicon(li):
            terms.add(norm(t))
            if li == "medical_eponyms":
                for part in regex.split(r"[-\s]+", t):  # Swan-Ganz -> swan, ganz
                    if len(part) >= 4:
                        terms.add(norm(part))
    eponyms = frozenset(norm(t) for t in load_lexicon("medical_eponyms"))
    # correctly spelled names of people, countries and states are never fuzzy-matched to a term (Edward
    # is not Edwards, Ukraine is not the drug Ukrain); an exact term stays protected (checked first).
    # Towns are left out: the world list holds everyday words ("Hospital", a village in Limerick)
    names = frozenset([norm(t) for li in ("first_names_en", "surnames_en", "first_names_es", "surnames_es")
                       for t in load_lexicon(li)]
                      + [norm(t) for li in ("countries_en", "states_us") for t in load_lexicon(li)
                         if " " not in t.strip()])
    pool: dict[str, list[str]] = {}
    for t in eponyms | {norm(t) for t in load_lexicon("drugs")}:
        if len(t) >= FUZZY_MIN and t.isalpha():
            pool.setdefault(t[0], []).append(t)
    return frozenset(terms), eponyms, names, pool


@lru_cache(maxsize=1)
def _load_dictionary() -> frozenset[str]:
    """English dictionary words (SCOWL lists) plus the medical vocabulary, normalised (read on first
    use; from the derived-data cache when it holds them)."""
    import sys

    from .. import cache
    from ..lexicons import lexicon_names

    return cache.derived("protected-dictionary", lexicons=lexicon_names(),
                         modules=(sys.modules[__name__], sys.modules[norm.__module__],
                                  sys.modules[lexicon_names.__module__]),
                         build=_build_dictionary, encode=lambda w: {"words": list(w)},
                         decode=lambda d: frozenset(d["words"]))


def _build_dictionary() -> frozenset[str]:
    from ..lexicons import load_lexicon

    words: set[str] = set()
    for li in ("words_en", "common_words_en", "medical_terms", "medical_abbreviations", "drugs"):
        words |= {norm(w) for w in load_lexicon(li)}
    return frozenset(words)


def service_only(words: list[str]) -> bool:
    """Whether a place span's words only name a service or specialty (``UROLOGY CLINIC``)."""
    ns = [norm(w) for w in words]
    ns = [n + "s" if n + "s" in SERVICE_WORDS and n not in SERVICE_WORDS else n for n in ns]  # women's -> womens
    if len(ns) >= 2 and ns[0] == "general" and ns[1] in _GENERAL_SERVICES:
        ns = ns[1:]  # "General Medicine", "General Surgery": a specialty ("Kenwyn General" stays a hospital)
    return bool(ns) and all(n in SERVICE_WORDS for n in ns) and any(n in _SERVICE_MARKERS for n in ns)


# specialties named with "General" in front of them
_GENERAL_SERVICES = frozenset({"medicine", "medical", "surgery", "surgical", "pediatrics", "paediatrics", "practice",
                               "internal", "psychiatry", "rehabilitation", "rehab"})


@lru_cache(maxsize=1)
def _regions() -> frozenset[str]:
    """Normalised country and US state names (``south africa``, ``texas``)."""
    from ..lexicons import load_lexicon

    return frozenset(" ".join(norm(w) for w in _WORD.findall(t)) for li in ("countries_en", "states_us")
                     for t in load_lexicon(li))


_FACILITY_AFTER = regex.compile(r"[ \t]+(?:clinic|hospital|center|centre|practice|surgery|medical|health)\b",
                                regex.IGNORECASE)
_REGION_AFTER = regex.compile(r"[ \t]*,[ \t]*(\p{Lu}\p{L}+(?:[ \t]+\p{Lu}\p{L}+){0,2})")


def place_follows(text: str, end: int) -> bool:
    """A facility word (``Pinewood clinic``) or ``, <country or state>`` (``Durban, South Africa``)
    right after a place span: evidence that the word is a place."""
    if _FACILITY_AFTER.match(text, end):
        return True
    m = _REGION_AFTER.match(text, end)
    if not m:
        return False
    words = [norm(w) for w in m.group(1).split()]
    return any(" ".join(words[:k]) in _regions() for k in range(len(words), 0, -1))


# a relation word right before a capitalised word: "Son, Ed", "wife (Sal)", "brother Al"
# a diagnosis slot right before a word: "hx of", "h/o", "PMH:", "history of", "dx", "known"
_DIAGNOSIS_BEFORE = regex.compile(r"(?i)(?:\bhx|\bh/o|\bhistory|\bpmh|\bpmhx|\bdx|\bdiagnosed\s+with|\bknown|"
                                  r"\bsecondary\s+to|\bdue\s+to)\b[ \t:]*(?:of[ \t]+)?$")
_RELATION_BEFORE = regex.compile(
    r"(?i)(?<![\p{L}])(?:son|daughter|wife|husband|brother|sister|mother|father|mom|mum|dad|partner|"
    r"spouse|niece|nephew|aunt|uncle|cousin|grandson|granddaughter|friend|neighbou?r|boyfriend|girlfriend)"
    r"(?:[ \t]*[,(:][ \t]*|[ \t]+)$")


# cues that a listed name which is also an eponym part or a medical word (Jones, Curtis, Wilson, Turner) names a
# person here: a staff role or a contact verb before it ("RT JONES @ BEDSIDE", "per PT Don", "d/w jones"), a contact
# field before it ("Family contact: Curtis"), a plural kin word before it ("sons Curtis and Dean"), a possessive kin or
# phone word after it ("Curtis's wife"), or a person's verb after it ("jones aware", "JONES IS A 67 YO MAN")
_STAFF_BEFORE = regex.compile(
    r"(?i)(?<![\p{L}/])(?:rt|rrt|ot|pt|sw|cm|slp|cna|lpn|pca|ho|attending|resident|intern|fellow|therapist|pharmacist|"
    r"chaplain|sitter|per|paged|notified|d/w|spoke[ \t]+(?:w/|with)|discussed[ \t]+(?:w/|with))[ \t]+$")
_CONTACT_BEFORE = regex.compile(r"(?i)\b(?:contact|hcp|proxy|poa|guardian|nok|next[ \t]+of[ \t]+kin)[ \t]*(?:is|:|-|=)?[ \t]*$")
_PLURAL_KIN_BEFORE = regex.compile(
    r"(?i)(?<![\p{L}])(?:sons|daughters|brothers|sisters|children|kids|grandchildren|grandsons|granddaughters|parents|"
    r"friends|neighbou?rs|nieces|nephews|cousins)(?:[ \t]*[,(:][ \t]*|[ \t]+)$")
_KIN_AFTER = regex.compile(r"(?i)(?:['’]s?|(?<=['’][sS]))[ \t]+(?:wife|husband|son|daughter|mother|father|mom|dad|brother|sister|partner|"
                           r"cell|phone|number|mobile|#)\b")
_PERSON_VERB_AFTER = regex.compile(
    r"(?i)[ \t]*,?[ \t]*(?:aware|notified|updated|paged|called|informed|present|in[ \t]+to[ \t]+see|came|visited|states|"
    r"stated|says|said|reports|reported|agrees|agreed|@[ \t]*bedside|at[ \t]+(?:the[ \t]+)?bedside|"
    r"is[ \t]+an?[ \t]+\d{1,3}[ \t]*(?:yo|y/o|y\.o\.|-?year))\b")


# eponyms a nursing note uses alone as the name of a device at the bedside ("PT FOLEY D/C'D", "swan aware"): a cue
# word around them is no evidence of a person (a title still is: "Mr. Foley")
_BEDSIDE_DEVICES = frozenset("""foley swan ganz posey hickman levine yankauer doppler holter dobhoff salem groshong
quinton broviac jackson pratt hemovac pleurovac penrose sengstaken blakemore minnesota ambu bovie murphy miami
philadelphia aspen boston kendall""".split())


# --- session 18 (tune58) ---------------------------------------------------------------------------
# a kin word right before a name, in any case: "w/ grandma Folake", "NEIGHBOR FRANK FEEDING IT" (the relation
# words _RELATION_BEFORE leaves out, and capitals, where a one-word name must be a listed name of 4+ letters)
_S18B_KIN_BEFORE = regex.compile(
    r"(?i)(?<![\p{L}])(?:son|daughter|dtr|wife|husband|brother|sister|mother|father|mom|mum|dad|partner|spouse|niece|"
    r"nephew|aunt|auntie|aunty|uncle|cousin|grandson|granddaughter|grandma|grandpa|grandmother|grandfather|granny|"
    r"gran|nana|nan|grandad|granddad|stepson|stepdaughter|friend|neighbou?r|boyfriend|girlfriend|fianc[eé]e?|"
    r"godmother|godfather|caregiver|carer)[ \t]+$")
# what follows "frank" or another medical word used as a word, not a name: "FRANK BLOOD", "frank pus"
_S18B_MEDICAL_NEXT = regex.compile(r"(?i)[ \t]+(?:blood|bleeding|bloody|pus|hematuria|haematuria|melena|malaena|"
                                   r"hematochezia|purulent|frothy|red|clots?|bile|stool|edema|oedema|rupture)\b")
# the slot of an employer in a bracketed job: "(software engineer at Medtronic)", "(buyer @ Pfizer)"
_S18B_EMPLOYER_BEFORE = regex.compile(r"\([ \t]*(?:(?i:an?)[ \t]+)?[\p{L}-]+(?:[ \t]+[\p{L}-]+){0,3}[ \t]+"
                                      r"(?i:at|@|for|with)[ \t]+$")
# a device maker before a device: "ST JUDE ICD", "(not a St. Jude device)", "Boston Scientific pacemaker"
_S18B_DEVICE_AFTER = regex.compile(r"(?i)(?:['’]s)?[ \t]+(?:medical[ \t]+)?(?:icd|aicd|s-icd|crt-?d|crt-?p|crt|"
                                   r"ppm|pacemaker|pacer|device|devices|defibrillator|lead|leads|generator|"
                                   r"valve|loop[ \t]+recorder|ilr|lvad|pump|battery|interrogation|rep|programmer|"
                                   r"mitraclip|clip|stent|stents)\b")
_S18B_DEVICE_MAKERS = frozenset({"jude", "st jude", "st. jude", "saint jude", "medtronic", "boston scientific",
                                 "abbott", "biotronik", "sorin", "livanova", "guidant", "zoll", "microport",
                                 "edwards", "heartware", "thoratec"})
_S18B_SAINT_BEFORE = regex.compile(r"(?i)\b(?:st\.?|saint)[ \t]+$")


def _s18b_kin_named(text: str, span: Span, names: frozenset[str]) -> bool:
    """A relative's name after a kin word (``grandma Folake``, ``NEIGHBOR FRANK FEEDING``)."""
    if not _S18B_KIN_BEFORE.search(text[max(0, span.start - 16):span.start]):
        return False
    w = text[span.start:span.end]
    if " " in w.strip() or not w[:1].isupper() or _S18B_MEDICAL_NEXT.match(text, span.end):
        return False
    if w.isupper():  # capitals: a listed name of four letters or more ("SON, ED" stays the ED)
        n = norm(w)
        return len(n) >= 4 and n in names and n not in _BEDSIDE_DEVICES
    return True


def _s18b_device_maker(text: str, span: Span) -> bool:
    """A device maker's name before a device word: ``ST JUDE ICD``, ``St. Jude device``."""
    w = norm(text[span.start:span.end].strip())
    if _S18B_SAINT_BEFORE.search(text[max(0, span.start - 7):span.start]):
        w = "st " + w
    return (w in _S18B_DEVICE_MAKERS or w.replace(".", "") in _S18B_DEVICE_MAKERS) \
        and _S18B_DEVICE_AFTER.match(text, span.end) is not None


class ProtectedTermsFilter:
    """Drops NAME/LOCATION spans that are medical vocabulary; adds always-redact terms."""

    family = "protected"

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.name = "protected"
        self._loaded = False
        self._user_cache: tuple[set[str], regex.Pattern | None] | None = None
        self._user_key: tuple = ()
        self._user_checked = 0.0

    def load(self) -> None:
        if self._loaded:
            return
        self.terms, self._eponyms, self._names, self._fuzzy_pool = _load_terms()
        self._dictionary: frozenset[str] | None = None  # read on the first NAME span that needs it
        self._loaded = True

    def describe(self) -> dict:
        from ..lexicons import lexicon_version, user_lists_version

        return {"lang": self.lang, "lexicons": lexicon_version(), "user_lists": user_lists_version()}

    # -- matching -------------------------------------------------------------------
    def _user_lists(self) -> tuple[set[str], regex.Pattern | None]:
        """The user's protected terms and always-redact matcher, re-read at most once a second."""
        now = time.monotonic()
        if self._user_cache is None or now - self._user_checked > USER_LIST_REFRESH_S:
            from ..lexicons import user_list

            key = (user_list("protected"), user_list("always_redact"))
            if self._user_cache is None or key != self._user_key:
                prot = {norm(t) for t in key[0]}
                rx = None
                if key[1]:
                    alt = "|".join(regex.escape(t) for t in sorted(key[1], key=len, reverse=True))
                    # the user's own terms: never stored by the compiled-pattern cache (cache_pattern=False)
                    rx = regex.compile(rf"(?<![\p{{L}}\p{{N}}])(?:{alt})(?![\p{{L}}\p{{N}}])", regex.IGNORECASE,
                                       cache_pattern=False)
                self._user_cache = (prot, rx)
                self._user_key = key
            self._user_checked = now
        return self._user_cache

    def is_protected(self, word: str, user: set[str] | None = None) -> bool:
        """Whether one word (or hyphenated compound) is a protected medical term."""
        self.load()
        n = norm(word)
        if n.endswith("s") and n[:-1] in self._eponyms and n not in self._names:
            return True  # Parkinsons, Crohns; not Reyes, Martins, Potts: surnames in their own right
        if n in self.terms or (user is not None and n in user):
            return True
        if len(n) < FUZZY_MIN or not n.isalpha() or n in self._names:
            return False
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        pool = self._fuzzy_pool.get(n[0])
        if not pool:
            return False
        cutoff = 1 if len(n) <= 8 else 2
        return process.extractOne(n, pool, scorer=Levenshtein.distance, processor=None,
                                  score_cutoff=cutoff) is not None

    def _surname_plural_eponym(self, word: str) -> bool:
        """``Reyes``, ``Hodgkins``, ``Potts``: an eponym's plural that is also a listed surname."""
        n = norm(word)
        return n.endswith("s") and n[:-1] in self._eponyms and n in self._names

    def _titled(self, text: str, span: Span) -> bool:
        """A title right before the span (``Dr. Young``, ``Mr Hawkins``)."""
        before = _WORD.findall(text[max(0, span.start - 12):span.start])
        if before and norm(before[-1]) in TITLES:
            gap = text[span.start - 12:span.start]
            tail = gap[gap.lower().rfind(before[-1].lower()) + len(before[-1]):]
            if len(tail) <= 3 and "\n" not in tail:
                return True
        return False

    def _person_context(self, text: str, span: Span) -> bool:
        if self._titled(text, span):
            return True
        w = text[span.start:span.end]
        if self.lang == "en" and w[:1].isupper() and not w.isupper() and _RELATION_BEFORE.search(text[max(0, span.start - 16):span.start]):
            return True  # "Son, Ed, was updated", "wife (Sal)": a relative's name, not the ED / SAL abbreviation
        m = regex.match(r"[ \t]*,?[ \t]*(\p{L}[\p{L}.-]*)", text[span.end:span.end + 12])
        if m and norm(m.group(1).replace(".", "")) in CREDENTIALS:
            return True
        if self.lang == "en" and _s18b_kin_named(text, span, self._names):
            return True  # session 18: "w/ grandma Folake", "NEIGHBOR FRANK FEEDING IT"
        return self.lang == "en" and self._listed_name_cued(text, span)

    def _listed_name_cued(self, text: str, span: Span) -> bool:
        """A one-word span the name lists hold, with a staff, contact or kin cue around it (``_STAFF_BEFORE``...)."""
        words = _WORD.findall(text[span.start:span.end])
        if len(words) != 1 or norm(words[0]) not in self._names or norm(words[0]).removesuffix("s") in _BEDSIDE_DEVICES:
            return False
        before = text[max(0, span.start - 24):span.start]
        if "\n" in before:
            before = before[before.rfind("\n") + 1:]
        return bool(_STAFF_BEFORE.search(before) or _CONTACT_BEFORE.search(before)
                    or _PLURAL_KIN_BEFORE.search(before) or _KIN_AFTER.match(text, span.end)
                    or _PERSON_VERB_AFTER.match(text, span.end))

    def _listed_place_after_preposition(self, text: str, s: Span) -> bool:
        """A one-word span that the place lexicons list as a town or country, right after a locative
        preposition (``rings from boston``, ``a nurse in miami``): the place, not the eponym it shares
        a name with, unless a single letter or a listed medical word follows (``in Miami J collar``,
        ``in Boston criteria``)."""
        from .lexicon import norm, one_word_place_names

        piece = text[s.start:s.end]
        if " " in piece.strip() or norm(piece) not in one_word_place_names() \
                or _LOCATIVE_BEFORE.search(text[max(0, s.start - 12):s.start]) is None:
            return False
        nxt = _NEXT_WORD.match(text, s.end)
        # "in Miami J collar", "in Boston criteria": a letter or a medical word after it is the eponym's
        return nxt is None or not (len(nxt.group(1)) == 1 or norm(nxt.group(1)) in self.terms)

    def _place_context(self, text: str, span: Span) -> bool:
        """``lives in Denver``, ``moved to Bell``: a place cue right before a LOCATION span, or
        ``, South Africa`` / ``clinic`` right after it."""
        return bool(_PLACE_BEFORE.search(text[max(0, span.start - 30):span.start])) or (
            self.lang == "en" and place_follows(text, span.end))

    def _medical_head_after(self, text: str, span: Span) -> bool:
        # "Hoffmann sign", "Hawkins and Neer signs", "Kernig's/Brudzinski's signs": a head after one more eponym too
        m = regex.match(r"(?:['’]s)?(?:[ \t]*(?:[ \t]and[ \t]|&|/|-)[ \t]*\p{Lu}[\p{L}-]+(?:['’]s)?)?[ \t]+(\p{L}+)",
                        text[span.end:span.end + 48])
        return bool(m and norm(m.group(1)) in MEDICAL_HEADS)

    def _medical_context_before(self, text: str, span: Span) -> bool:
        # "enfermedad de Crohn", "signo de Murphy", "maniobra de Valsalva"
        m = _EPONYM_BEFORE.search(text[max(0, span.start - 30):span.start])
        return bool(m and norm(m.group(1)) in MEDICAL_HEADS)

    def is_dictionary_word(self, word: str) -> bool:
        """An English or clinical word that no name list holds (``Delirium``, ``coordinator``,
        ``paediatric``); hyphenated compounds count when every part does (``Community-acquired``)."""
        if self._dictionary is None:
            self._dictionary = _load_dictionary()
        parts = [p for p in regex.split(r"[-‐]", word) if p]
        if not parts:
            return False
        for p in parts:
            n = norm(p)
            if not n.isalpha() or n in self._names:
                return False
            if n not in self._dictionary and not (len(n) >= 6 and _CLINICAL_SUFFIX.search(n)) \
                    and n.removesuffix("s") not in _WEEKDAYS:
                return False
        return True

    def _name_cue(self, text: str, span: Span) -> bool:
        """A title, credential, relation word or naming phrase next to a NAME span."""
        if self._person_context(text, span):
            return True
        before = text[max(0, span.start - 30):span.start]
        if _NAME_CUE_BEFORE.search(before):
            return True
        from .lexicon import RELATIVE_CUES

        prev = _WORD.findall(before)
        return bool(prev) and norm(prev[-1]) in RELATIVE_CUES and not regex.search(r"[.:;!?\n]\s*$", before)

    def _word_name(self, text: str, span: Span, words: list[str]) -> bool:
        """A NAME span made only of dictionary words, with no name cue around it."""
        return bool(words) and all(self.is_dictionary_word(w) for w in words) and not self._name_cue(text, span)

    def _weak_candidate(self, text: str, s: Span) -> bool:
        """A tagger/lexicon span that names a service (place) or is only dictionary words (name)."""
        fam = source_family(s.source)
        if fam in ("user", "pattern") or not is_label(s.label):
            return False
        if regex.fullmatch(r"\p{L}(?:[ \t]+\p{L}){3,}", text[s.start:s.end]):
            return False  # "d r i s c o l l": a name spelled letter by letter, no dictionary words
        cat = category_of(s.label)
        if cat == "LOCATION" and s.label not in ("CITY", "STATE", "COUNTRY", "STREET", "ZIP"):
            words = _WORD.findall(text[s.start:s.end])
            if service_only(words):
                return True
        if cat not in ("NAME", "LOCATION") or s.label in ("STREET", "ZIP"):
            return False
        a, b = s.start, s.end
        m = regex.search(r"\p{L}+[-‐]$", text[max(0, a - 24):a])
        if m:  # "Tri-[County]": judge the whole compound
            a -= len(m.group())
        while b < len(text) - 1 and text[b] in "-‐" and text[b + 1].islower():  # "Community[-acquired]"
            m = regex.match(r"[-‐]\p{Ll}+", text[b:])
            b += m.end() if m else 1
        words = _WORD.findall(text[a:b])
        if len(words) == 1 and norm(words[0]).removesuffix("s") in _WEEKDAYS and not self._name_cue(text, s):
            return True  # "on Tuesdays": a day, not a place or a person
        if cat == "LOCATION" and (a, b) == (s.start, s.end):
            return False  # places: only the hyphenated compound case ("Community-acquired")
        return self._word_name(text, s, words)

    def _eponym_classification(self, text: str, span: Span) -> bool:
        """``Fitzpatrick type III``; ``Rose gardener's disease``."""
        after = text[span.end:span.end + 40]
        if _TYPE_AFTER.match(after):
            return True
        m = _POSSESSIVE_HEAD_AFTER.match(after)
        return bool(m and "'" in after[:m.start(1)] or m and "’" in after[:m.start(1)]) and \
            norm(m.group(1)) in MEDICAL_HEADS

    # -- filter -------------------------------------------------------------------
    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        self.load()
        text = document.text
        user, always = self._user_lists()
        out: list[Span] = []
        ordered = sorted(spans, key=lambda x: x.start)
        # spans that are only service words or dictionary words (candidates to drop); a candidate
        # glued to a span that is not one is a piece of a longer name and stays
        # (a word among names in a list, "tom, lily and ahmed", was judged by the lexicon: not a candidate)
        weak = {(s.start, s.end) for s in ordered if self.lang == "en" and s.source != "lexicon:name_list"
                and self._weak_candidate(text, s)}
        weak -= _listed_among_names(ordered, text, weak)
        glued = _glued([s for s in ordered], text, weak)
        for s in spans:
            fam = source_family(s.source)
            cat = category_of(s.label) if is_label(s.label) else s.label
            if cat not in ("NAME", "LOCATION") or fam in ("user", "pattern"):
                out.append(s)
                continue
            if cat == "LOCATION" and self.lang == "en":
                m = _SAINT_NAMED_AFTER.match(text, s.end)
                if m and text[s.start:s.end].casefold() in ("st", "saint") and _PLACE_CUE_BEFORE.search(
                        text[max(0, s.start - 16):s.start]) and not any(o.start < m.end() and o.end > s.end for o in spans):
                    out.append(Span(s.start, m.end(), s.label, s.source, s.confidence, s.explanation))
                    continue  # "FROM ST. ELSEWHERE": the tagger found the St. of a Saint's hospital, not its name
            if self.lang == "en" and not self._titled(text, s) and _s18b_device_maker(text, s):
                continue  # session 18: "ST JUDE ICD", "not a St. Jude device": the device's maker
            words = _WORD.findall(text[s.start:s.end])
            whole = norm(text[s.start:s.end].strip())
            if (s.start, s.end) in weak and (s.start, s.end) not in glued:
                continue  # "UROLOGY CLINIC", "Delirium cleared", "Veteran served", "Community-acquired"
            if cat == "NAME" and self.lang == "en" and not self._person_context(text, s) \
                    and self._eponym_classification(text, s):
                continue  # "Fitzpatrick type III"
            protected = bool(words) and (whole in self.terms or whole in user or (
                not (len(words) >= 4 and all(len(w) == 1 and w.isalpha() for w in words))  # "d r i s c o l l": spelled
                and all(self.is_protected(w, user) for w in words if not (len(w) == 1 and w.isalpha()))))
            if protected and cat == "LOCATION" and _ZIP_AFTER.match(text, s.end):
                protected = False  # "west haven ct 06516": a state before its ZIP code, not a CT scan
            if protected and not words[0].isdigit():
                medical = self._medical_head_after(text, s) or self._medical_context_before(text, s)
                person_or_place = self._person_context(text, s) or (cat == "LOCATION" and (
                    self._place_context(text, s) or self._listed_place_after_preposition(text, s)))
                if cat == "LOCATION" and self.lang == "en" and _S18B_EMPLOYER_BEFORE.search(
                        text[max(0, s.start - 60):s.start]) and regex.match(r"[ \t]*\)", text[s.end:s.end + 3]):
                    person_or_place = True  # session 18: "(software engineer at Medtronic)": the employer
                if medical or not person_or_place:
                    continue
            elif len(words) == 1 and self._surname_plural_eponym(words[0]) and not self._person_context(text, s) and (
                    self._medical_head_after(text, s) or _DIAGNOSIS_BEFORE.search(text[max(0, s.start - 24):s.start])):
                continue  # "Reyes syndrome", "hx of Hodgkins": the eponym, though Reyes is also a surname
            elif fam == "lexicon" and cat == "NAME" and not self._person_context(text, s) and (
                    self._medical_head_after(text, s) or self._medical_context_before(text, s)):
                continue  # a gazetteer hit in an eponym slot: "síndrome de Frey", "Hoffmann sign"
            elif fam == "tagger" and self.lang == "en" and len(words) in (2, 3) and s.label in ("LOCATION", "CITY") \
                    and norm(words[-1]) in _EPONYM_NOUN_HEADS and not self._person_context(text, s) \
                    and not self._place_context(text, s):
                continue  # "FLUID IN DOUGLAS POUCH", "Bell Palsy": the eponym and its head word, not a place
            elif cat == "NAME" and self.lang == "en" and len(words) == 1 and text[s.start:s.start + 1].isupper() \
                    and not self._person_context(text, s) and (
                        _EXAM_RESULT_AFTER.match(text, s.end) or (
                            _EXAM_RESULT_BEFORE.search(text[max(0, s.start - 12):s.start])
                            and regex.match(r"['’]s?\b", text[s.end:s.end + 2]))):
                continue  # "Hawkins +, Neer +", "Spurling (-)", "Negative Hoffman's": a named examination test
            elif cat == "NAME" and self.lang == "en" and len(words) == 1 and text[s.start:s.start + 1].isupper() \
                    and not self._person_context(text, s) and _EXAM_PAIR_BEFORE.search(text[max(0, s.start - 24):s.start]) \
                    and _EXAM_OUTCOME_AFTER.match(text, s.end):
                continue  # "Neer/Hawkins deferred", "Phalen/Tinel neg": a pair of named examination tests and their result
            elif (fam == "tagger" or (fam == "lexicon" and cat == "LOCATION")) and cat in ("NAME", "LOCATION") \
                    and self.lang == "en" and not (self._titled(text, s) if cat == "LOCATION" else self._person_context(text, s)) \
                    and not (cat == "LOCATION" and self._place_context(text, s)) and _EPONYM_HEAD_AFTER.match(text, s.end):
                continue  # "Harvey-Bradshaw index 4", "Wells score", "Broström repair", "Addenbrooke's Cognitive
                #            Examination": a named scale, sign or procedure
            out.append(s)
        added = [Span(m.start(), m.end(), "OTHER", "user:always_redact", 1.0, "on the always-redact list")
                 for m in always.finditer(text, timeout=2.0)] if always is not None else []
        if added:
            out = [_trim(s, text) for s in resolve([*out, *added], text)]
        return out


def _listed_among_names(ordered: list[Span], text: str, weak: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Weak NAME spans that sit in a list between two other names ("tom, lily and ahmed")."""
    def name(s: Span) -> bool:
        return is_label(s.label) and category_of(s.label) == "NAME" and (s.start, s.end) not in weak

    keep = set()
    for k in range(1, len(ordered) - 1):
        p, s, nx = ordered[k - 1], ordered[k], ordered[k + 1]
        if weak and (s.start, s.end) not in weak or not (name(p) and name(nx)) \
                or not is_label(s.label) or category_of(s.label) != "NAME":
            continue
        if text[p.end:s.start] in (", ", ",") and text[s.end:nx.start] in (", ", ",", " and ", ", and "):
            keep.add((s.start, s.end))
    return keep


def _glued(ordered: list[Span], text: str, weak: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Name or place spans joined, across at most a space or a hyphen on one line and through a
    chain of such neighbours (the tagger mixes the two up), to a span outside ``weak``: pieces of one entity that merging
    split (``Maplewood`` + ``Pediatrics``, ``Castlegate`` + ``Medical`` + ``Practice``, ``Tri-County``)."""
    def cat(s: Span) -> str:
        return category_of(s.label) if is_label(s.label) else s.label

    pairs = []
    for a, b in zip(ordered, ordered[1:]):
        gap = text[a.end:b.start]
        if a.end <= b.start and len(gap) <= 2 and all(c in " \t-" for c in gap) \
                and cat(a) in ("NAME", "LOCATION") and cat(b) in ("NAME", "LOCATION"):
            pairs.append(((a.start, a.end), (b.start, b.end)))
    anchored = {k for p in pairs for k in p if k not in weak}
    changed = True
    while changed:
        changed = False
        for ka, kb in pairs:
            for x, y in ((ka, kb), (kb, ka)):
                if x in anchored and y not in anchored:
                    anchored.add(y)
                    changed = True
    return anchored


def _trim(span: Span, text: str) -> Span:
    """Drop the whitespace that a merge remainder may start or end with."""
    a, b = span.start, span.end
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return span if (a, b) == (span.start, span.end) else span.with_bounds(a, b)
