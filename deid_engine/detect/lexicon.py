"""Lexicon detector: names and places from gazetteers, with context cues.

Matching is exact on normalised tokens (case-folded, accents stripped; the
same ``norm`` is applied to the lexicons and the text, offsets are kept) and on
token n-grams for multi-word places (``New York``, ``Costa Rica``). Fuzzy
matching (rapidfuzz, Levenshtein distance 1) is tried only for a token right
after a name cue (``Dr. Jonh``).

Confidence comes from evidence, never from the lexicon alone:
- a cue before the token (``Dr.``, ``Mrs.``, ``seen by``, ``wife``, ``spoke
  with``; Spanish ``Dra.``, ``Sr.``, ``D.``, ``Dña.``) or a credential after it
  (``, MD``, ``RN``) raises confidence and picks the subtype: DOCTOR after
  clinician cues, RELATIVE after family words, PATIENT otherwise;
- a first name followed by a surname is a name;
- a bare lexicon hit gets a low score, and is dropped when it is also a common
  English/Spanish word or a medical term (``MAY``, ``BILL``, ``brown sputum``)
  unless a cue supports it.
In mixed-case text a name or place must be capitalised; ALL-CAPS and
all-lower-case notes carry no case signal, so lexicon + cues + the common-word
exclusion decide alone.

Facility names (``Calvert Hospital``, ``Hospital Universitario La Paz``) are
found from their head word plus capitalised neighbours and labelled HOSPITAL;
after a place cue (``transferred to``) a hospital acronym (``MGH``, ``GH``) is
HOSPITAL and a word plus ward number (``Quartermain 2``) is DEPARTMENT. Names
right before a credential (``Karen Ann Yanulis RN``) are DOCTOR.

Confidence bands: cue-supported names 0.65-0.9, full names 0.75, bare
lexicon names 0.55 (mixed case) or 0.45 (no case signal: shown as
suggestions), places 0.5-0.75, facilities 0.5-0.8.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..types import Document, Span
from .textstats import count_alpha_upper

_WORD = regex.compile(r"\p{L}[\p{L}'’]*(?:-\p{L}[\p{L}'’]*)*\.?")
_UPPER = regex.compile(r"\p{Lu}")
_LOWER = regex.compile(r"\p{Ll}")
_NORM_CACHE: dict[str, str] = {}
_ZIP_BEFORE = regex.compile(r"\b(?:[A-Z]-?)?\d{4,5}[.,]?\s{1,2}$")
_PLACE_AFTER = regex.compile(r"\s*[,(]\s*(?:\p{Lu}[\p{L}-]+\.?\s*\)?\s*(?:[,.(]|$)|\p{Lu}{2}\b)")


@lru_cache(maxsize=200_000)
def norm(s: str) -> str:
    """Case-fold and strip accents and trailing periods/apostrophe-s; the one normaliser for lexicon and text."""
    s = s.rstrip(".")
    if s.endswith(("'s", "’s", "'S", "’S")):
        s = s[:-2]
    s = s.casefold()
    if not s.isascii():
        s = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    return s.replace("’", "'")


@lru_cache(maxsize=1)
def one_word_place_names() -> frozenset[str]:
    """Normalised one-word town and country names of the place lexicons (``harrogate``,
    ``ukraine``, ``miami``): evidence that a word is a place, for the filters."""
    from ..lexicons import load_lexicon

    return frozenset(norm(t) for li in ("cities_world_en", "cities_us", "countries_en", "states_us")
                     for t in load_lexicon(li) if " " not in t.strip())


# --- cues -------------------------------------------------------------------------

DOCTOR_CUES = {"dr", "doctor", "drs", "md", "attending", "resident", "intern", "fellow", "np", "pa", "rn",
               "nurse", "physician", "surgeon", "cardiologist", "neurologist", "oncologist", "pcp", "provider",
               "dra", "doctora", "medico", "enfermera", "enfermero"}
DOCTOR_PHRASES = {("seen", "by"), ("evaluated", "by"), ("examined", "by"), ("followed", "by"), ("per", "dr"),
                  ("paged", "dr"), ("spoke", "to", "dr"),
                  ("remitido", "por"), ("atendido", "por"), ("valorado", "por")}
RELATIVE_CUES = {"wife", "husband", "son", "daughter", "dtr", "sons", "daughters", "brothers", "sisters", "children",
                 "nieces", "nephews", "grandchildren", "grandsons", "granddaughters", "grandaughter", "grandaughters", "mother", "father", "mom", "dad", "sister",
                 "brother", "sis", "bro", "niece", "nephew", "aunt", "uncle", "cousin", "grandson",
                 "granddaughter", "grandmother", "grandfather", "grandma", "grandpa", "granny", "nana", "fiance", "fiancee", "girlfriend", "boyfriend",
                 "partner", "spouse", "friend", "neighbor", "neighbour", "proxy", "hcp", "guardian", "sibling",
                 "esposa", "esposo", "marido", "mujer", "hijo", "hija", "madre", "padre", "hermana", "hermano",
                 "sobrina", "sobrino", "nieta", "nieto", "tia", "tio", "abuela", "abuelo", "pareja", "novia",
                 "novio", "cuñada", "cunada", "cuñado", "cunado", "yerno", "nuera", "suegra", "suegro"}
# more English words for family, household and other people close to the patient (hand-written); in
# Spanish notes they are no cue ("mate" is a drink)
RELATIVE_CUES_EN = {"stepdad", "stepmum", "stepmom", "stepson", "stepdaughter", "stepmother", "stepfather",
                    "stepbrother", "stepsister", "granddad", "grandad", "gramps", "grampa", "gran", "nanna", "auntie",
                    "aunty", "hubby", "missus", "mate", "housemate", "flatmate", "roommate", "colleague", "coworker",
                    "co-worker", "landlord", "landlady", "boss", "godmother", "godfather", "godson", "goddaughter",
                    "mother-in-law", "father-in-law", "son-in-law", "daughter-in-law", "brother-in-law",
                    "sister-in-law", "mum", "mummy", "mommy", "daddy", "mam", "mammy",
                    # people around a child or a worker, named in passing ("Coach Javi keeps her inhaler")
                    "coach", "teacher", "supervisor", "manager", "foreman", "pastor", "reverend", "rev", "vicar",
                    "babysitter", "nanny", "childminder", "tutor", "headteacher", "principal", "caretaker",
                    # kin words of Spanish-speaking, Southern US and Caribbean families said in English speech
                    "compadre", "comadre", "padrino", "madrina", "abuelita", "abuelito", "mija", "mijo", "tia", "tio",
                    "meemaw", "memaw", "mamaw", "pawpaw", "papaw", "nonna", "nonno", "bubbe", "zayde",
                    "stepkid", "stepkids", "grandbaby", "grandkid", "grandkids", "sponsor",
                    # clergy of the patient's congregation and household words for a child or partner
                    # ("our minister eifion", "our little fella kobi", "my lad callum")
                    "minister", "priest", "imam", "rabbi", "deacon", "fella", "lad", "lass", "bairn", "pal", "buddy",
                    "bestie",
                    # South Asian words for mother and father, said to the patient ("good morning amma")
                    "amma", "appa", "ammi", "abbu"}
RELATIVE_CUES |= RELATIVE_CUES_EN
STRONG_TITLES = {"dr", "doctor", "drs", "mr", "mrs", "ms", "miss", "mister", "dra", "doctora", "sr", "sra", "srta",
                 "d", "dna", "don", "dona", "mx", "mdm"}  # Mx: the gender-neutral title; Mdm: Madam (Singapore, Malaysia)
# English cue words that are common Spanish words ("son" = "are"): no cue in Spanish notes.
EN_ONLY_CUES = {"son", "sons", "pa", "np", "rn", "md", "mom", "dad", "sis", "bro"}
SPANISH_TITLES = {"sr", "sra", "srta", "d", "dna", "don", "dona", "señor", "senor", "señora", "senora"}
NOT_AFTER_TITLE = {"will", "may", "can", "to", "and", "aware", "notified", "here", "in", "at", "is", "was", "said",
                   "says", "ordered", "wants", "feels", "thinks", "re", "regarding", "called", "paged", "informed",
                   "office", "orders", "order", "note", "team", "service", "on", "off", "call", "has", "have", "had",
                   "all", "both"}
AFTER_DOCTOR = {"aware", "notified", "informed", "paged", "called", "made", "updated", "here", "in", "at", "ordered",
                "consulted", "spoke", "wants", "agrees", "saw", "examined", "placed", "performed", "pronounced"}
TITLE_CUES = {"mr", "mrs", "ms", "miss", "mister", "mx", "mdm", "sr", "sra", "srta", "d", "dna", "don", "dona", "señor",
              "senor", "señora", "senora"}
WEAK_CUES = {("called",), ("spoke", "with"), ("spoke", "to"), ("talked", "with"), ("talked", "to"),
             ("named",), ("name", "is"), ("visited", "by"), ("visit", "from"), ("call", "from"),
             ("phone", "call", "from"), ("accompanied", "by"), ("contact",), ("contact", "person"),
             # conversational verbs addressed at a person: "ask li", "tell okafor", "page sorensen"
             ("ask",), ("asked",), ("tell",), ("told",), ("page",), ("text",), ("texted",),
             ("covering", "for"), ("spoke", "with"), ("message", "from"), ("put", "down"),
             ("ask", "for"), ("asked", "for"), ("asking", "for")}
# words that may follow a relative's name ("son bill called", "wife, rose, left")
AFTER_RELATIVE = {"called", "calls", "visited", "visiting", "visits", "arrived", "here", "updated", "aware", "was",
                  "is", "states", "stated", "said", "wants", "spoke", "came", "left", "phoned", "present", "at",
                  "who", "and", "has", "had", "will", "would", "to", "in"}
CREDENTIALS = {"md", "m.d", "do", "rn", "np", "pa", "pa-c", "phd", "dds", "rph", "pharmd", "crnp", "lpn", "msw",
               "lcsw", "dpm", "facc", "facs", "rrt", "bsn", "cnm", "crna", "aprn", "licsw"}
PLACE_CUES = {("in",), ("from",), ("to",), ("at",), ("near",), ("lives", "in"), ("home", "in"), ("resident", "of"),
              ("born", "in"), ("moved", "to"), ("transferred", "from"), ("transferred", "to"), ("visiting", "from"),
              ("en",), ("de",), ("desde",), ("natural", "de"), ("residente", "en"), ("vive", "en"),
              ("procedente", "de"), ("trasladado", "a"), ("trasladada", "a")}
_FACILITY_CUE_WORDS = {"to", "at", "from", "in", "back", "transferred", "transfer"}
FACILITY_HEADS_EN = {"hospital", "hosp", "medical center", "med center", "clinic", "health center", "infirmary",
                     "nursing home", "rehabilitation center", "health system", "healthcare", "hospice",
                     "memorial", "medical centre", "urgent care", "va", "vamc", "manor", "nursing center",
                     "care center", "ltac", "campus", "ltach", "respite care", "respite center", "vna"}
FACILITY_HEADS_ES = {"hospital", "clinica", "centro de salud", "complejo hospitalario", "hospital universitario",
                     "hospital general", "hospital clinico", "consultorio", "ambulatorio", "policlinica",
                     "residencia", "fundacion", "instituto"}
STOP = {"the", "a", "an", "of", "and", "to", "from", "at", "in", "on", "by", "with", "for", "or", "is", "was",
        "de", "del", "la", "el", "los", "las", "y", "en", "al", "por", "con", "outside", "osh", "this", "that",
        "his", "her", "their", "our", "local", "another", "same", "other", "general", "community", "university",
        "nuestro", "nuestra", "otro", "otra", "este", "esta", "dicho", "dicha", "su", "servicio", "unidad",
        "departamento", "seccion", "planta", "area", "consulta", "jefe", "medico", "hospital"}
# common words hospitals are named with: allowed before a facility head even when common
FACILITY_NAME_WORDS = {"holy", "cross", "memorial", "union", "general", "mercy", "good", "samaritan", "sacred",
                       "heart", "baptist", "methodist", "presbyterian", "lutheran", "university", "univ", "u",
                       "county", "regional", "community", "veterans", "shore", "bay", "harbor", "north", "south",
                       "east", "west", "central", "valley", "mount", "mt", "saint", "st", "children", "childrens",
                       "womens", "women", "city", "state", "national", "christian", "hope", "grace", "providence",
                       "trinity", "lakeside", "riverside", "hillside", "park", "beth", "israel", "deaconess"}
# Words of conversation (interjections, greetings, discourse markers, question words, pronouns):
# in dialogue they follow speaker labels ("doctor ok let me look", "mother alright") and are
# never names there, whatever the name lists hold (Ok, How, Morning, Well are Census surnames).
DISCOURSE_WORDS = {"ok", "okay", "okey", "k", "alright", "allright", "aight", "yes", "yeah", "yep", "yup", "yah",
                   "no", "nope", "nah", "hi", "hello", "hey", "hiya", "morning", "afternoon", "evening", "night",
                   "goodnight", "goodbye", "bye", "thanks", "thank", "thankyou", "cheers", "please", "sorry",
                   "pardon", "excuse", "well", "so", "right", "sure", "fine", "good", "great", "cool", "perfect",
                   "um", "umm", "uh", "uhh", "er", "erm", "hmm", "hm", "mm", "mhm", "uh-huh", "oh", "ah", "aha",
                   "wow", "huh", "anyway", "anyways", "now", "then", "also", "actually", "honestly", "basically",
                   "how", "what", "when", "where", "why", "who", "which", "whose", "i", "me", "my", "you", "your",
                   "we", "our", "she", "he", "her", "him", "his", "they", "them", "it", "its", "that", "this",
                   "these", "those", "there", "here", "and", "but", "or", "if", "let", "lets", "let's", "just",
                   "maybe", "absolutely", "definitely", "exactly", "correct", "true", "indeed", "understood",
                   "see", "look", "listen", "wait", "doc", "doctor", "nurse", "mum", "mom", "ma'am", "maam", "sir",
                   "sweetie", "everyone", "everybody", "nobody", "someone",
                   # contractions as speech-to-text writes them, without the apostrophe
                   "thats", "im", "ive", "youre", "youve", "youll", "theyre", "dont", "cant", "wont", "didnt",
                   "doesnt", "isnt", "wasnt", "arent", "werent", "hes", "shes", "whats", "itll", "thatll",
                   "gonna", "wanna", "gotta", "yall", "aint", "shouldnt", "couldnt", "wouldnt", "havent",
                   "hasnt", "hadnt", "theres", "heres", "whos", "wheres", "hows", "ok'd", "alrighty"}
# "I'll", "you're", "we've", "don't": contractions are never names
_CONTRACTION = regex.compile(r"(?i).['’](?:ll|ve|re|d|m|t)$|n['’]t$")
# Strong cues for a lone (first) name that may be missing from the name lists (``_cued``):
# a nickname phrase, a staff role, "Pt", a vocative at the end of a turn ("Thank you, Noor.").
NICK_CUES = {("call", "me"), ("calls", "me"), ("goes", "by"), ("go", "by"), ("known", "as"), ("name", "is"),
             ("nickname", "is"), ("called", "me"), ("prefers",), ("prefer",), ("i", "call", "you"), ("we", "call", "you"),
             ("this", "is"), ("is", "this"), ("its",), ("it's",), ("im",), ("i'm",), ("you", "are"), ("are", "you"),
             ("you", "must", "be"), ("this", "must", "be"),
             # "her names amber": speech-to-text drops the apostrophe of "name's"
             ("my", "names"), ("her", "names"), ("his", "names"), ("their", "names"), ("your", "names")}
ROLE_CUES = {"mgr", "ho", "sho", "fy1", "fy2", "specialist", "technician", "tech", "therapist", "physiotherapist", "physio", "nurse", "coordinator", "interpreter",
             "translator", "pharmacist", "midwife", "dietitian", "dietician", "counselor", "counsellor", "chaplain",
             "navigator", "aide", "paramedic", "receptionist", "radiographer", "sonographer", "phlebotomist",
             "hygienist", "optometrist", "audiologist", "psychologist", "worker", "registrar", "physician",
             "surgeon", "doctor", "dr", "consultant", "gp", "rn", "np", "provider", "clinician", "assistant",
             "scheduler", "secretary", "caseworker", "carer", "caregiver", "practitioner", "doula", "educator",
             # specialists and ward staff people name in conversation ("the anaesthetist tom", "the porter dave")
             "anaesthetist", "anesthetist", "anesthesiologist", "radiologist", "paediatrician", "pediatrician",
             "dentist", "podiatrist", "chiropodist", "osteopath", "chiropractor", "psychiatrist", "cardiologist",
             "neurologist", "oncologist", "dermatologist", "urologist", "gynaecologist", "gynecologist",
             "obstetrician", "haematologist", "hematologist", "nephrologist", "rheumatologist", "endocrinologist",
             "gastroenterologist", "pulmonologist", "matron", "porter", "hca", "housekeeper", "optician"}
PATIENT_CUES = {"pt", "patient"}
VOCATIVE_CUES = {("thank", "you"), ("thanks",), ("thankyou",), ("hi",), ("hello",), ("hey",), ("bye",),
                 ("goodbye",), ("morning",), ("afternoon",), ("evening",), ("cheers",), ("welcome",), ("sorry",),
                 ("night",), ("ta",), ("congratulations",), ("congrats",), ("speaking", "to"), ("talking", "to"),
                 ("meet", "you"), ("see", "you", "again")}
# praise said to a child or patient, then the name ("well done poppy", "good girl, Maisie!")
PRAISE_CUES = {("well", "done"), ("good", "girl"), ("good", "boy"), ("clever", "girl"), ("clever", "boy"),
               ("brave", "girl"), ("brave", "boy"), ("good", "job"), ("great", "job"), ("bless", "you")}
VOCATIVE_CUES |= PRAISE_CUES
_VOCATIVE_LAST: dict[str, list[tuple[str, ...]]] = {}
for _ph in VOCATIVE_CUES | NICK_CUES:
    _VOCATIVE_LAST.setdefault(_ph[-1], []).append(_ph)
# Words a practice or clinic name ends with after its proper part: "Kingsbridge Kidney Care",
# "Preston Park Surgery" (UK), "Two Rivers Family Practice", "Harbour Lights Oncology".
FACILITY_SUFFIXES = {"care", "center", "centre", "clinic", "clinics", "practice", "surgery", "group", "associates",
                     "partners", "institute", "health", "healthcare", "medicine", "pediatrics", "paediatrics",
                     "orthopedics", "orthopaedics", "oncology", "cardiology", "dermatology", "neurology",
                     "urology", "gastroenterology", "rheumatology", "nephrology", "ophthalmology", "radiology",
                     "imaging", "diagnostics", "rehab", "rehabilitation", "hospice", "wellness", "physicians",
                     "specialists", "dental", "dentistry", "therapy", "therapies", "counseling", "counselling",
                     "obstetrics", "gynecology", "psychiatry", "audiology", "optometry", "podiatry", "physiotherapy",
                     "chiropractic", "lab", "labs", "laboratory", "laboratories", "endoscopy", "eye", "vision"}
# Suffixes of company, school, club and employer names: "Little Acorns Preschool", "Metro Transit",
# "Hollister Feed Mill", "Portuguese-American Club", "US Navy".
ORG_SUFFIXES = {"school", "preschool", "academy", "college", "university", "church", "club", "society", "inc",
                "llc", "ltd", "plc", "co", "corp", "corporation", "company", "bank", "pharmacy", "transit",
                "logistics", "airlines", "airways", "mill", "mills", "works", "foods", "market", "supermarket",
                "store", "stores", "hotel", "motors", "industries", "insurance", "trust", "foundation",
                "navy", "army", "marines", "airforce", "guard", "police", "department", "railway", "railroad",
                "factory", "farms", "construction", "services", "solutions", "systems", "technologies",
                "partners", "group", "associates", "daycare", "nursery", "kindergarten", "library", "museum",
                "ministries", "union", "federation", "league", "team", "restaurant", "cafe", "diner", "bakery",
                "garage", "shipyard", "mine", "mines", "plant", "warehouse", "distribution", "freight",
                "drugs", "chemist", "chemists", "drugstore", "cabs", "taxis", "couriers", "removals",
                # sports clubs: "Cotmanhay Ladies FC", "Ennistymon Harriers", "Kilmacud Crokes GAA"
                "fc", "afc", "rfc", "gaa", "harriers", "rovers", "wanderers", "gaels", "legion",
                # "her church (Sacred Heart Parish)", "owns Shear Magic Salon", "Reliable Plumbing & Heating"
                "parish", "salon", "heating", "roofing"}
_CLUB_ACRONYMS = frozenset({"fc", "afc", "rfc", "gaa"})
# words that open a length of time after "for", never an employer's name
_TIME_NOT_EMPLOYER = frozenset({"many", "several", "some", "most", "all", "few", "years", "months", "weeks", "days",
                                 "decades", "life", "ages", "awhile", "long", "over", "about", "nearly", "almost",
                                 "around", "roughly", "maybe", "just", "only", "more", "less", "two", "three", "four",
                                 "five", "six", "seven", "eight", "nine", "ten", "twenty", "thirty", "forty", "fifty",
                                 "sixty"})
# employment cues before an employer ("works at", "employed by", "retired from", "job at")
_CUES_BY_LAST: dict[int, tuple] = {}


def _cues_by_last(cues: set) -> dict[str, list[tuple]]:
    """The cue phrases of ``cues`` by their last word (indexed once per cue set)."""
    by_last = _CUES_BY_LAST.get(id(cues))
    if by_last is None or by_last[0] is not cues:
        idx: dict[str, list[tuple]] = {}
        for ph in cues:
            idx.setdefault(ph[-1], []).append(ph)
        by_last = _CUES_BY_LAST[id(cues)] = (cues, idx)
    return by_last[1]


_CHAIN_FIRST: set[str] = set()  # first words of CHAIN_STORES (filled on first use)
_INSURER_FIRST: set[str] = set()  # first words of INSURERS (filled on first use)
EMPLOY_CUES = {("works", "at"), ("work", "at"), ("working", "at"), ("worked", "at"), ("works", "for"),
               ("work", "for"), ("working", "for"), ("worked", "for"), ("employed", "by"), ("employed", "at"),
               ("employed", "with"), ("retired", "from"), ("job", "at"), ("job", "with"), ("jobs", "at"),
               ("employee", "of"), ("employer", "is"), ("volunteers", "at"), ("volunteer", "at"),
               ("teaches", "at"), ("studies", "at"), ("drive", "for"), ("drives", "for"), ("driving", "for"),
               ("deliver", "for"), ("delivers", "for"), ("cleans", "for"), ("clean", "for"), ("student", "at"), ("enrolled", "at"), ("attends",),
               ("served", "in", "the"), ("served", "with", "the"), ("works", "at", "the"), ("work", "at", "the"),
               ("worked", "at", "the"), ("working", "at", "the"), ("job", "at", "the"), ("retired", "from", "the"),
               # insurers: "denied by unity mutual", "insured with Aviva"
               ("denied", "by"), ("insured", "with"), ("insured", "by"), ("insurance", "with"),
               ("insurance", "through"), ("insurer", "is"),
               # "owns shear magic salon": the name must still end in a company word
               ("owns",), ("owned",)}
# "i was with northern rail for thirty years": lower-case speech only, where the name must end in a company word
EMPLOY_CUES_LOWER = {("was", "with"), ("been", "with")}
_DRIVE_VERBS = frozenset({"drive", "drives", "drove", "driving", "driven"})
_PUBLIC_PROGRAMS = frozenset({"medicare", "medicaid", "medi-cal", "medical", "nhs", "tricare", "chip", "va", "hse",
                              "ohip", "msp", "ramq", "pbs", "obamacare", "aca", "marketplace", "snap", "wic", "ssi",
                              "ssdi", "social", "security", "disability"})
_NUMBER_WORDS = frozenset("""zero oh one two three four five six seven eight nine ten eleven twelve thirteen fourteen
fifteen sixteen seventeen eighteen nineteen twenty thirty forty fourty fifty sixty seventy eighty ninety hundred
thousand""".split())
_DETERMINERS = frozenset({"the", "a", "an", "our", "my", "your", "his", "her", "their", "this", "that", "its", "no",
                          "any", "some", "every"})
# In lower-case text, the last word of a business or school name after unknown or cued words:
# "pinecrest elementary", "little owl coffee", "first harvest credit union" (hand-written).
# everyday words between a business's own name and its suffix ("greenacre family pharmacy", "x credit union")
_ORG_MIDDLE_WORDS = frozenset({"family", "community", "medical", "health", "credit", "discount", "memorial", "general",
                               "dental", "care", "christian", "catholic", "baptist", "methodist", "village", "city",
                               "county", "district", "primary", "secondary", "high", "valley", "park"})
# lower-case care businesses named by their own word ("theres clearview imaging on dundas street")
_LOWER_CARE_SUFFIXES = frozenset({"imaging", "radiology", "physiotherapy", "physio", "podiatry", "optometrists",
                                  "opticians", "audiology"})
LOWER_ORG_SUFFIXES = {"school", "preschool", "elementary", "academy", "college", "university", "church", "club",
                      "parish", "salon", "heating", "roofing",
                      "pharmacy", "bakery", "daycare", "nursery", "kindergarten", "library", "logistics", "freight",
                      "transit", "paratransit", "cars", "cabs", "taxis", "haulage", "couriers", "removals", "motors",
                      "apothecary", "chemist", "chemists", "mutual", "housing", "minerals", "mining", "rail",
                      "railway", "railways", "airways", "buses", "coaches", "food", "market", "markets",
                      "supermarket", "supermarkets", "garments", "textiles", "apparel", "industries", "farms", "foods", "airlines", "restaurant", "cafe", "diner",
                      "coffee", "labs", "fabrication", "manufacturing", "union", "ems", "insurance", "bank",
                      "construction", "trucking", "plumbing", "roofing", "landscaping", "electric", "brewery",
                      "dairy", "cannery", "shipyard", "warehouse", "market", "supermarket", "hotel", "casino",
                      "mill", "mills", "corporation", "corp", "inc", "llc", "ltd", "co", "company", "group",
                      "cabs", "taxis", "couriers", "removals", "haulage", "coaches",
                      "fc", "afc", "rfc", "gaa", "harriers", "rovers", "wanderers", "gaels", "legion", "secondary",
                      # "working doubles at peach state distribution", "dental nurse at bright smile dental"
                      "distribution", "dental", "iron", "steel", "metals", "engineering", "fabrications", "joinery",
                      "builders", "wholesale", "transport", "catering", "cleaning", "security", "creche",
                      "childcare", "montessori", "telecom", "utilities", "poultry", "drug", "united", "creche"}
# work words a few tokens (or a turn) before "for/at <words> cabs" in lower-case speech
_WORK_WORDS = {"work", "works", "worked", "working", "job", "jobs", "drive", "drives", "driving", "drove", "driver",
               "employed", "employer", "shift", "shifts", "contract", "contracted"}
_NOT_ORG_START = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "few", "several",
                  "many", "some", "other", "different", "all", "both", "local", "black", "yellow", "private", "school",
                  "night", "nights", "day", "days", "extra", "more", "less", "fewer", "food", "blood", "sperm", "main",
                  "high", "river", "piggy", "same", "primary", "secondary", "elementary", "middle", "public",
                  "grammar", "junior", "senior", "infant", "infants", "nursery", "boarding", "sunday", "village",
                  "community", "parish", "catholic", "state", "local"}
_JOB_PREPS = frozenset({"at", "for", "with"})
# what someone "with" something has, beyond the medical and service lists ("a welder w/ sleep apnea"): these and the
# service words are checked on the first two words after "with", the medical list (eponyms: "first glasgow") on the
# first only and from three letters ("a scaffolder with hi reach access")
_CONDITION_WORDS = frozenset("""apnea apnoea injury injuries infection infections anxiety depression bipolar stones
disease diseases syndrome disorder pain hx history known severe mild moderate chronic acute recurrent poorly
controlled uncontrolled type stage end low bad no new ms dm hx""".split())


def _job_prep(toks: list, k: int, text: str) -> bool:
    """Token k is at/for/with, or "w/" ("a flight attendant w/ polar air")."""
    n = toks[k].n
    return n in _JOB_PREPS or n == "w" and text.startswith("/", toks[k].end) and toks[k].end - toks[k].start == 1
# where an employer's name after "<occupation> at" ends: a clause or place word ("at admiral in town")
_EMPLOYER_RUN_STOP = frozenset("""in on at for with and or but so as since until till then now because cos when while
where which who that i im ive id he hes she shes we were they theyre you youre it its is was are be been have has had do
does did for from by near nights days weeks years months shifts full part time there here too also just still though
about around like um uh er yeah yes no okay ok right out off up down over behind beside""".split())
# words an employer's name after a job does not start with ("a nurse at a care home", "for years")
_NOT_EMPLOYER_START = frozenset("""a an my his her our their your this that these those some any every each another
other same one two three local nearby big small little new old private public night day weekends home work
mam mum mom dad nan gran granny nana mummy daddy me you him her them us himself herself myself yourself themselves
ourselves everyone everybody anyone nobody""".split())
# last words of occupations that are also everyday nouns for people ("a good boy for mam")
_NOT_JOB_HEADS = frozenset({"boy", "girl", "man", "woman", "lady", "guy", "person", "kid", "child", "son", "daughter"})
# everyday names of workplaces that identify nothing on their own ("a cashier at the supermarket")
_GENERIC_WORKPLACES = frozenset("""hospital hospitals school schools shop shops store stores factory warehouse office
offices supermarket pub bar restaurant cafe hotel bank farm mill plant site depot garage mine mines docks dock port airport
station council university uni college church gym centre center mall market club care nursing residential home homes
place job company firm business agency practice surgery clinic pharmacy chemist lab laboratory moment minute weekend
night day time shift shifts same local plant yard kitchen kitchens building sites construction call centre center
army navy police prison jail library post depot retail fast food takeaway""".split())
# "which nursery is that?", "what pharmacy do you use", "where do you work": the next turn names the place
_VENUE_QUESTION = regex.compile(
    r"(?i)\b(?:(?:which|what)[ \t]+(?P<kind>nursery|school|pharmacy|chemist|company|firm|shop|store|gym|church|club|"
    r"practice|surgery|gp|hospital|clinic|care[ \t]+home|home|employer|garage|college|university|uni|daycare|"
    r"day[ \t]+care|supermarket)\b|where[ \t]+(?:do|did)[ \t]+(?:you|they|he|she)[ \t]+(?P<kind>work|bank|shop)"
    # yes/no: "does she go to nursery", "is he at school yet", "do you go to a gym" (``yn``: the answer needs a street
    # after it or a word no dictionary knows)
    r"|(?P<yn>(?:does|do|is|are|did)[ \t]+(?:she|he|they|you|the[ \t]+\w+|your[ \t]+\w+)[ \t]+(?:still[ \t]+)?"
    r"(?:go[ \t]+to|going[ \t]+to|at|attend|attending|in|started)[ \t]+(?:a[ \t]+|the[ \t]+)?)"
    r"(?P<kind>nursery|school|preschool|pre-school|playgroup|daycare|day[ \t]+care|childminder|gym|church|college|"
    r"uni|university|kindergarten)\b)"
    r"[^\n]{0,30}$", regex.MULTILINE)
_ANSWER_STREET_AFTER = regex.compile(r"[ \t]+(?:on|off|in|near)[ \t]+(?:[A-Za-z][a-z'’]+[ \t]+){1,3}(?:road|street|lane|"
                                     r"avenue|drive|close|way|rd|st|ave|crescent|terrace|hill|green|park)\b", regex.I)
_ANSWER_START = regex.compile(
    r"[ \t]*(?:\[[^\]\n]{1,20}\][ \t]*:?|[A-Za-z][A-Za-z_ .'-]{0,18}:|(?:patient|parent|mother|father|mum|mom|dad|"
    r"relative|speaker[ \t]*\d)[ \t]+)?[ \t]*(?:(?:yes|yeah|yep|oh|um+|uh+|well|it['’]?s|its|we[ \t]+use|i[ \t]+use|"
    r"i[ \t]+work[ \t]+(?:at|for)|it[ \t]+(?:was|is)[ \t]+(?:at|in)|at|the)[, \t]+){0,3}", regex.I)
_ANSWER_WORD = regex.compile(r"\p{L}[\p{L}'’]*")
_ANSWER_STOP = frozenset("""on in at near by off and but so because i we it its it's just not no dont don't one same
usual local nearest big small little-one sure know think mostly only any my our your their his her a an this that
there here now still usually same i'm i've i'd we're we've it's he's she's they're im ive""".split()) - {"little"}
_CARE_VENUE_WORDS = {"practice", "surgery", "gp", "hospital", "clinic", "care home", "home"}
# first names that are mostly other words after "my son/dad ...": modals, auxiliaries, adverbs
_NOT_WORD_NAMES = frozenset({"will", "may", "can", "might", "should", "must", "shall", "did", "does", "was", "had",
                             "has", "is", "also", "just", "still", "always", "never", "often", "usually", "really",
                             "says", "said", "told", "thinks", "lives", "works", "died", "passed", "went", "came",
                             "got", "gets", "drives", "drove", "brought", "helps", "goes", "sometimes", "too",
                             "again", "sure", "ok", "okay", "well", "now", "then", "here", "there", "home", "same"})
# Given names that are also English words and that the Census lists lack or rank low (hand-written, this
# project): like a Census first name of rank < 1000, taken only after a strong cue in lower-case speech
# ("the nurse precious took", "hi poppy and", "this is willow she's"), never alone
WORD_FIRST_NAMES_EN = frozenset("""poppy precious blessing patience willow blossom clover saffron bluebell jasper
fern lily ivy autumn summer charity mercy prudence destiny jade coral garnet magnolia phoebe clementine basil rusty
dusty chuck mickey hank herb dolly lulu fawn sierra belle birdie hunter mason carter chance sterling aurora jewel
laurel candy abbey meadow rowan felicity harmony serenity marigold""".split())
# words after which a word-name is rather a verb or an adjective with its object or particle:
# "my son drew a picture", "the nurse will mark it", "my brother chase up the results"
_WORD_NAME_BAD_NEXT = frozenset({"a", "an", "the", "to", "up", "out", "down", "off", "on", "in", "into", "onto",
                                 "over", "away", "back", "be", "have", "not", "you", "me", "him", "her", "it", "them",
                                 "us", "this", "that", "these", "those", "some", "any", "my", "his", "your", "our",
                                 "their", "its", "all", "no", "every", "each", "more", "much", "very", "too", "of",
                                 "as", "than", "for", "with", "by", "time", "one", "ones"})
# words that may follow a name just introduced ("this is poppy shes three", "this is grace my daughter")
_INTRODUCED_NEXT = frozenset({"and", "but", "so", "please", "from", "who", "my", "her", "his", "our", "their", "i",
                              "im", "he", "hes", "she", "shes", "they", "theyre", "we", "its", "speaking", "here",
                              "calling", "though", "now", "then", "ok", "okay", "yeah", "yes", "today", "again"})
# words after which a greeting opens a turn of unpunctuated speech: speaker labels and interjections
# ("doctor hi poppy", "parent oh hello", "speaker 2 morning"); elsewhere it is a time ("this morning grace")
_TURN_OPENERS = frozenset({"doctor", "dr", "doc", "patient", "pt", "nurse", "parent", "mum", "mom", "dad", "mother",
                           "father", "speaker", "caller", "clinician", "interpreter", "wife", "husband", "daughter",
                           "son", "relative", "carer", "caregiver", "physio", "receptionist", "oh", "well", "yes",
                           "yeah", "ok", "okay", "good", "um", "uh", "er", "erm", "right", "alright", "and", "hi",
                           "hello", "hey", "ah"})
# endearments and generic vocatives that are also names ("hi honey", "thanks love")
_NOT_VOCATIVE_NAMES = frozenset({"love", "honey", "dear", "darling", "sweetheart", "sunshine", "buddy", "pal", "mate",
                                 "sugar", "babe", "baby", "angel", "doll", "hon", "kid", "boss", "chief", "champ",
                                 "guy", "guys", "sir", "madam", "miss", "all", "everyone", "there", "again", "glory",
                                 "star", "sunny", "primrose", "god", "heavens", "heaven", "lord", "christ", "jesus"})
# words a few tokens before "at <unknown word>" that make it a care venue in lower-case speech
_LOWER_VENUE_CUES = {"seen", "see", "saw", "seeing", "treated", "admitted", "surgery", "operated", "people", "doctors",
                     "doctor", "specialist", "specialists", "team", "appointment", "appt", "scan", "mri", "xray",
                     "x-ray", "physio", "rehab", "delivered", "born", "clinic", "er", "ed", "stay", "stayed",
                     "dialysis", "chemo", "infusion", "tests", "bloods", "biopsy", "referred", "follow", "followed"}
# Chain pharmacies, supermarkets and stores (our own hand-written list): an employer or the place a
# patient fills prescriptions, ORGANIZATION wherever it is named ("the kroger pharmacy", "at Boots").
CHAIN_STORES = {tuple(c.split()) for c in (
    "cvs", "walgreens", "rite aid", "duane reade", "walmart", "wal-mart", "costco", "kroger", "safeway", "publix",
    "albertsons", "meijer", "hy-vee", "wegmans", "giant eagle", "whole foods", "trader joe", "home depot", "lowe",
    "best buy", "fedex", "starbucks", "mcdonald", "dollar general", "family dollar", "boots", "tesco", "sainsbury",
    "asda", "lidl", "aldi", "morrisons", "superdrug", "lloydspharmacy", "lloyds pharmacy", "dunnes", "woolworths",
    "coles", "shoppers drug mart", "heb", "h-e-b", "vfw", "ymca", "ywca", "oxfam", "dollar tree", "7-eleven",
    "sam's club", "bj's", "food lion", "piggly wiggly", "winn-dixie", "harris teeter",
    # large employers people name in conversation (airlines, couriers, retailers, food chains)
    "easyjet", "ryanair", "jetblue", "british airways", "american airlines", "united airlines", "aer lingus", "qantas",
    "lufthansa", "deliveroo", "doordash", "instacart", "grubhub", "uber", "lyft", "dhl", "usps", "royal mail",
    "amazon", "ikea", "primark", "argos", "currys", "halfords", "screwfix", "wickes", "waitrose", "greggs",
    "john lewis", "marks and spencer", "nando's", "domino's", "pizza hut", "burger king", "wendy's", "chipotle",
    "panera", "dunkin", "kfc", "tim hortons", "loblaws", "sobeys", "canadian tire", "bunnings", "kmart",
    # supermarkets, pharmacies and gyms of the other English-speaking countries
    "shoppers", "countdown", "new world", "pak'n save", "paknsave", "the warehouse", "centra", "spar", "supervalu",
    "londis", "co-op", "shoprite", "pick n pay", "checkers", "woolies", "clicks", "dis-chem", "t and t", "t&t",
    "h e b", "no frills", "rexall", "jean coutu", "london drugs", "chemist warehouse", "priceline", "terry white",
    "amcal", "rowlands", "specsavers", "planet fitness", "anytime fitness", "puregym", "pure gym", "snap fitness",
    "goodlife", "la fitness", "city fitness", "les mills", "big w")}
# health insurers and plans by name (hand-written): an insurance word near them is the cue
INSURERS = {tuple(c.split()) for c in (
    "anthem", "humana", "aetna", "cigna", "unitedhealthcare", "united healthcare", "kaiser", "kaiser permanente",
    "caresource", "molina", "centene", "ambetter", "wellcare", "highmark", "blue cross", "blue shield", "bcbs",
    "blue cross blue shield", "oscar", "amerigroup", "health net", "healthnet", "medica", "premera", "regence",
    "geisinger", "emblemhealth", "fidelis", "oxford", "tufts", "harvard pilgrim", "optima", "priority health",
    "medibank", "bupa", "hcf", "nib", "ahm", "hbf", "axa", "vitality", "aviva", "simplyhealth", "westfield health",
    "sun life", "manulife", "pacific blue cross", "green shield", "canada life", "great-west life", "desjardins",
    "vhi", "laya", "irish life", "discovery", "bonitas", "momentum", "medshield", "gems", "fedhealth", "bestmed",
    "southern cross", "unimed", "nz health")}
_INSURANCE_CUE = regex.compile(r"(?i)\b(?:insurance|insurer|insured|plan|member|membership|policy|cover|covered|coverage|"
                               r"medical[ \t]+aid|scheme|claim|claims|card|id|provider|premium|co-?pay|deductible|"
                               r"pre-?auth\w*|authori[sz]ation|benefits?|formulary|in-network|out-of-network)\b")
# words before "at <Name>" that make the name a hospital: "the cath lab at Mercy", "admitted to 5C at Rush"
VENUE_AT_CUES = {"lab", "unit", "icu", "ccu", "nicu", "picu", "ward", "surgery", "rehab", "rehabilitation",
                 "admitted", "treated", "hospitalized", "hospitalised", "delivered", "operated", "er", "ed",
                 "transplant", "dialysis", "chemo", "chemotherapy", "infusions", "radiotherapy", "was", "were",
                 "program", "programme", "biopsy", "scan", "mri",
                 # "the team at Brightwater", "your appointment at Oakridge", "physio at Harbourside"
                 "team", "staff", "appointment", "appt", "visit", "seen", "physio", "physiotherapy", "therapist",
                 "dentist", "optician", "midwife", "midwives", "consultant", "surgeon", "specialist"}
_BRANCH = regex.compile(r"[ \t]+on[ \t]+(?P<w>\d{1,3}(?:st|nd|rd|th)|\p{Lu}\p{Ll}+)(?:[ \t]+(?:Street|St|Road|Rd|"
                       r"Avenue|Ave|Boulevard|Blvd|Lane|Ln|Drive|Dr|Way|Pike|Highway|Hwy)\b\.?)?")
_BRANCH_LOWER = regex.compile(r"[ \t]+on[ \t]+(?P<w>(?!(?:the|a|an|my|your|our|its|their|his|her)\b)(?:[a-z]{2,}[ \t]+)"
                             r"{1,3}(?:street|st|road|rd|avenue|ave|drive|dr|lane|ln|way|boulevard|blvd|pike|highway|"
                             r"hwy|parkway|pkwy))\b")
_NOT_BRANCH = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february",
               "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
               "christmas", "easter", "thanksgiving", "night", "nights", "noon", "midnight", "home", "work", "rest",
               "least", "first", "last", "times", "risk", "baseline", "discharge", "admission", "present", "one", "two",
               "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "dawn", "dusk"}
# Hospital groups and famous hospitals people name by brand alone, in speech often lower case ("seen at the
# spire", "had it done at the nuffield", "my surgeon at kaiser"): hand-written; a care word must come shortly
# before (``_LOWER_VENUE_CUES``), since most are also words ("spire", "priory", "mayo").
HOSPITAL_BRANDS = {tuple(c.split()) for c in (
    "spire", "nuffield", "bupa", "priory", "kaiser", "kaiser permanente", "mayo", "cleveland clinic", "sutter",
    "geisinger", "intermountain", "ochsner", "ramsay", "bon secours", "mater", "beacon", "hca", "circle",
    "cromwell", "portland", "wellington", "blackrock clinic", "hermitage", "galway clinic",
    # health systems and hospitals known by one name (US, UK, Ireland, Canada, Australia)
    "northwell", "honorhealth", "upmc", "inova", "sentara", "novant", "wellstar", "montefiore", "langone", "nyu langone",
    "cedars", "cedars-sinai", "mass general", "brigham", "lahey", "beaumont", "henry ford", "dignity health",
    "adventhealth", "baylor scott", "christiana", "atrium health", "piedmont", "emory", "vanderbilt", "mount sinai",
    "addenbrookes", "addenbrooke's", "royal marsden", "great ormond street", "moorfields", "papworth", "christie",
    "tallaght", "crumlin", "beaumont", "st james's", "sunnybrook", "sickkids", "westmead", "royal melbourne",
    "royal free", "royal brompton", "john radcliffe", "hopkins", "johns hopkins",
    # hospitals named after a saint, a faith or a charity, often named without "Hospital" ("went to Holy Cross",
    # "transferred from Sinai"): everyday words, so a cue is needed (two-word names: a capitalised name after
    # to / from / at is enough)
    "holy cross", "good samaritan", "sacred heart", "holy family", "holy name", "holy redeemer", "our lady",
    "sisters of charity", "mercy", "sinai", "providence", "presbyterian", "methodist", "baptist", "lutheran",
    "adventist", "deaconess")}
_BRAND_FIRST = {b[0] for b in HOSPITAL_BRANDS}
# the faith and charity names above that are two words: enough on their own after to / from / at
_NAMED_BRANDS = {b for b in HOSPITAL_BRANDS if len(b) >= 2 and b[0] in ("holy", "good", "sacred", "our", "sisters")}
# Fuel and convenience brands, an organisation before "station"/"garage" ("by the shell station")
FUEL_BRANDS = {"shell", "exxon", "exxonmobil", "mobil", "chevron", "texaco", "esso", "sunoco", "citgo", "valero",
               "arco", "wawa", "sheetz", "speedway", "maxol", "applegreen", "topaz", "gulf", "conoco", "phillips"}
# care words that make a brand a hospital when a few words before it ("had it done at the spire")
_BRAND_CUES = {"done", "operation", "op", "replacement", "replaced", "surgeon", "consultant", "private", "privately",
               "ward", "bed", "nurses", "outpatients", "cancer", "knee", "hip", "transferred", "transfer", "records",
               "radiotherapy", "radiation", "chemotherapy", "treatment", "treatments"}
# a home-care agency after its cue ("discharge home with Visiting Angels", "carers from Bluebird Care")
AGENCY_CUES = {("home", "with"), ("carers", "from"), ("carer", "from"), ("care", "from"), ("aides", "from"),
               ("aide", "from"), ("caregivers", "from"), ("caregiver", "from"), ("agency", "called"),
               ("carers", "through"), ("care", "through"), ("agency", "is")}
_FUEL_HEADS = {"station", "garage", "gas", "petrol", "forecourt"}
# team sports: "playing rugby for Harlequins Amateurs", "plays hockey for the Millfield Otters"
SPORTS = {"rugby", "football", "soccer", "hockey", "cricket", "netball", "basketball", "baseball", "softball",
          "lacrosse", "volleyball", "hurling", "camogie", "gaelic", "polo", "water", "ice", "league", "golf", "darts",
          "snooker", "pool", "bowls", "handball", "squash", "tennis", "badminton"}
_PLAY_WORDS = {"play", "plays", "played", "playing", "coach", "coaches", "coached", "coaching", "captain",
               "captains", "captained", "referee", "referees", "refereed"}
# words that name no practice on their own before a clinic word ("at Main Clinic", "at Day Surgery")
_GENERIC_PRACTICE_WORDS = {"main", "new", "day", "night", "walk", "same", "general", "local", "city", "county",
                           "community", "public", "private", "central", "regional", "north", "south", "east", "west",
                           "university", "hospital", "our", "your", "my", "this", "that", "satellite", "downtown",
                           "outreach", "specialist", "nurse", "doctor", "doctors", "fracture", "minor", "injuries",
                           "injury", "foot", "back", "joint", "joints", "bone", "bones", "skin", "the", "senior",
                           "child", "children", "children's", "men's", "women", "men", "baby", "infant", "teen",
                           "youth", "home", "mobile", "virtual", "online", "tele", "telehealth", "video", "phone",
                           "evening", "weekend", "morning", "afternoon", "first", "second", "next", "follow",
                           "up", "follow-up", "routine", "annual", "review", "assessment", "testing", "test",
                           "screening", "vaccine", "vaccination", "flu", "covid", "travel", "motion", "gait",
                           "balance", "falls", "movement", "speech", "language", "voice", "swallow", "feeding",
                           "team", "teams", "service", "services", "staff", "nurses", "nursing", "support", "hospice",
                           "aide", "aides", "agency", "visiting", "district", "oxygen", "equipment", "meals"}
_GENERIC_PRACTICE_WORDS -= {"motion"}  # "Motion Lab PT" names a practice; gait/balance/falls labs are services
# words that say what kind of school, club or service a name is ("at Sunday School", "at Police Station")
_GENERIC_ORG_WORDS = {"sunday", "grammar", "primary", "secondary", "high", "middle", "junior", "senior", "medical",
                      "law", "art", "arts", "boarding", "nursery", "public", "private", "state", "catholic", "bible",
                      "dance", "music", "swim", "swimming", "driving", "flying", "language", "business", "trade",
                      "tech", "technical", "police", "fire", "town", "village", "family", "golf", "tennis",
                      "football", "rugby", "cricket", "book", "social", "working", "sports", "gun", "car", "food",
                      "farm", "post", "bus", "train", "railway", "petrol", "gas", "coffee", "corner", "charity",
                      "head", "branch", "regional", "national", "international", "global", "american", "british"}
# what is requested from a facility in a lower-case query ("records from ...", "imaging at ...")
_RECORD_WORDS = {"records", "record", "notes", "imaging", "films", "scans", "results", "reports", "labs", "bloods",
                 "letters", "discharge", "summary", "chart", "charts", "paperwork", "transferred", "transfer"}
# unit words after a hospital's name ("discharged from the Riverside stroke unit")
_UNIT_HEADS = {"unit", "ward", "wing", "icu", "nicu", "picu", "ccu", "hdu", "ed", "er", "department", "a&e"}
# strong cues for a town or country, known to the lexicons or not ("grew up in Kunming")
STRONG_PLACE_CUES = {("moved", "from"), ("moved", "to"), ("moved", "here", "from"), ("born", "in"),
                     ("grew", "up", "in"), ("raised", "in"), ("lives", "in"), ("living", "in"), ("lived", "in"),
                     ("emigrated", "from"), ("immigrated", "from"), ("relocated", "from"), ("relocated", "to"),
                     ("native", "of"), ("flew", "back", "from"), ("flew", "in", "from"), ("flying", "to"),
                     ("flew", "to"), ("travelled", "to"), ("traveled", "to"), ("returned", "from"),
                     ("back", "from"), ("family", "in"), ("visiting", "family", "in"), ("diagnosed", "in"),
                     ("outside",), ("near",), ("originally", "from"), ("is", "from"), ("comes", "from"),
                     ("came", "from"), ("home", "in"), ("resident", "of"), ("holiday", "in"), ("vacation", "in"),
                     ("trip", "to"), ("mines", "outside")}
# session 18: a town's name closed by punctuation or the line end ("lives in mobile, drove up"; not "mobile home")
_S18B_CLOSED_AFTER = regex.compile(r"[ \t]*(?:[,.;!?]|$)", regex.MULTILINE)
# countries that are also everyday words or first names in lower case ("talk to jordan", "close to china")
_S18B_COUNTRY_WORDS = frozenset("""turkey chad china jordan georgia guinea wales niger oman israel jersey monaco
chile peru cuba malta india samoa togo mali iran iraq""".split())
# towns of other English-speaking countries (cities_world_en) rank from here: a US-sized rank never applies to them
WORLD_TOWN_RANK = 1_000_000
# in lower-case text (no capitals to go by) only the cues that ask for a town
LOWER_PLACE_CUES = {c for c in STRONG_PLACE_CUES if c[0] in (
    "moved", "born", "grew", "raised", "lives", "living", "lived", "emigrated", "immigrated", "relocated", "native",
    "flew", "visiting", "originally", "resident", "holiday", "vacation")}
# hand-written (this project, Apache-2.0): names in everyday use that countries_en spells otherwise
COUNTRY_ALIASES_EN = ("Korea", "England", "Scotland", "Wales", "Britain", "Great Britain", "Northern Ireland",
                      "Holland", "the Netherlands", "Netherlands", "Burma", "Macedonia", "Swaziland", "Cape Verde",
                      "Czech Republic", "Palestine", "Congo", "Zaire", "Persia", "Ceylon", "Siam", "Rhodesia",
                      "Yugoslavia", "Soviet Union", "USSR", "East Timor", "Bosnia", "Herzegovina", "Kosovo",
                      "Tibet", "Kurdistan", "Hong Kong", "Macau", "Puerto Rico", "Guam")
_FAMILY_BEFORE = {"the", "for", "to", "with", "from", "of", "re", "by", "called", "contacted", "visited", "met",
                  "and", "about", "regarding"}
FAMILY_WORDS = {"family", "families", "household", "twins", "residence", "kids", "clan"}
_PRACTICE_CUES = {"location", "site", "facility", "venue", "practice", "clinic", "hospital", "at", "from", "to",
                  "with", "seen", "referred", "transferred", "attends", "attending", "via"}
NAME_PARTICLES = {"de", "del", "la", "las", "los", "van", "von", "da", "di", "le", "mc", "mac", "st", "y", "i"}


# words after which a word after a lower-case title is a verb with its object ("mr white ... " is a name)
_TITLE_NAME_BAD_NEXT = frozenset({"a", "an", "the", "to", "up", "out", "down", "off", "be", "have", "not", "it",
                                  "them", "him", "me", "you", "us", "of"})
# lower-case "mr"/"ms" as mitral regurgitation / mental status or multiple sclerosis: "mild mr", "2+ mr"
_MR_MS_ABBREVIATION = regex.compile(r"(?i)(?:\d\+?|\b(?:mild|moderate|mod|severe|sev|trace|trivial|significant|"
                                    r"worsening|worse|minimal|no|the|of|with|and|hx|h/o|pmh|known|new|acute|chronic|"
                                    r"baseline|altered|impaired|intact|changes?))[ \t,]*$")
# words before "<name> the <role>" (``_role_after_name``)
_MEETING_BEFORE = frozenset({"with", "and", "by", "from", "to", "asked", "ask", "tell", "told", "saw", "seen", "see",
                             "seeing", "called", "rang", "phoned", "met", "meet", "named", "like"})
# a question asking for someone's name in lower-case speech (``_name_answers``)
_NAME_QUESTION = regex.compile(
    r"\b(?:(?:whats|what's|what[ \t]+is)[ \t]+(?:your|his|her|their|the[ \t]+(?:patient|childs|babys)s?)[ \t]+"
    r"(?:full[ \t]+|first[ \t]+)?name|(?:can|could|may)[ \t]+i[ \t]+(?:take|have|get|grab)[ \t]+(?:your|his|her)"
    r"[ \t]+(?:full[ \t]+)?name|who[ \t]+am[ \t]+i[ \t]+(?:speaking|talking)[ \t]+(?:to|with)|"
    r"(?:and[ \t]+)?your[ \t]+(?:full[ \t]+)?name[ \t]+(?:please|again))\b(?:[ \t]+(?:please|again|love|sorry|"
    r"for[ \t]+me))*")
_ANSWER_FILLERS = {"yes", "yeah", "yep", "sure", "its", "it's", "im", "i'm", "um", "umm", "uh", "er", "erm", "oh",
                   "ok", "okay", "so", "well", "my", "name", "names", "is", "it", "the", "and", "sorry", "hi", "hello"}
# a signature line after a valediction (``_signatures``)
_SIG_NAME_TOK = r"\p{Lu}(?:[\p{Ll}'’]+(?:-\p{Lu}[\p{Ll}'’]+)?|\.?)"
_SIGNATURE = regex.compile(
    r"(?im)^[ \t]*(?:(?:kind|best|warm|warmest|many|with)[ \t]+(?:regards|wishes|thanks)|regards|"
    r"yours[ \t]+(?:sincerely|faithfully|truly)|sincerely(?:[ \t]+yours)?|thanks(?:[ \t]+again)?|thank[ \t]+you|"
    r"best|cheers|take[ \t]+care)[ \t]*[,.!]?[ \t]*\n(?:[ \t]*\n){0,2}[ \t]*"
    r"(?-i:(?:(?:Dr|Prof|Mr|Mrs|Ms|Miss)\.?[ \t]+)?(?P<name>" + _SIG_NAME_TOK + r"(?:[ \t]+" + _SIG_NAME_TOK
    + r"){0,3}))[ \t]*(?:,[ \t]*[A-Za-z.() ,/-]{2,40})?[ \t]*$")
# capitalised words that sign for an office, not a person ("Ward Clerk", "Booking Office")
_SIGNATURE_NOT = {"clerk", "manager", "team", "office", "department", "admin", "administrator", "reception",
                  "staff", "services", "service", "unit", "ward", "desk", "bookings", "booking", "appointments",
                  "secretaries", "secretary", "everyone", "all", "us", "family", "the"}

# words after which a first name that is also a word may stand in apposition ("after bill my husband")
_APPOSITION_BEFORE = {"after", "with", "and", "for", "from", "by", "including", "like", "ask", "tell", "call",
                      "down", "see", "visit", "visiting", "visited", "contact"}
# "Bakare to review in 3 months", "- Wierzbicki to send report", "; Precious will liaise with the school"
_PLAN_OWNER = regex.compile(
    r"(?m)(?:^[ \t]*(?:[-*•]|\d{1,2}[.)])?[ \t]*|[.;:][ \t]+|\d[.)][ \t]+)"
    r"(?P<name>\p{Lu}\p{Ll}+(?:[-'’]\p{Lu}?\p{Ll}+)?(?:[ \t]\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?)?)"
    r"[ \t]+(?:to|will|has[ \t]+agreed[ \t]+to|kindly[ \t]+agreed[ \t]+to)[ \t]+(?:kindly[ \t]+)?"
    r"(?:review|re-review|send|copy|liaise|arrange|follow|chase|discuss|visit|"
    r"refer|check|complete|confirm|organise|organize|request|update|write|reassess|assess|co-ordinate|coordinate|"
    r"continue|supervise|lead|oversee|forward|feed[ \t]+back|link[ \t]+in|input|provide|teach|action)\b")
_PLAN_NOT = frozenset({"cont", "contd", "cont'd", "plan", "plans", "need", "needs", "pt", "pts", "plz", "pls", "ok",
                       "nsg", "ot", "slt", "salt", "resp", "rt", "sw", "cm", "wound", "tissue", "dietetics", "neuro",
                       "cards", "renal", "gi", "id", "ir", "ent", "ortho", "gen", "surg", "micu", "sicu", "ccu"})
_SPEAKER_LINE = regex.compile(r"(?im)^[ \t]*(?:doctor|dr|patient|pt|nurse|clinician|provider|caller|relative|mother"
                              r"|father|wife|husband|daughter|son|parent|interpreter|physician|np|pa|rn)[ \t]*:")


def _dialogue(text: str) -> bool:
    """A transcript: at least two lines open with a speaker role and a colon."""
    return len(_SPEAKER_LINE.findall(text, overlapped=False)[:2]) >= 2


_PHRASES_BY_LAST: dict[str, list[tuple[tuple[str, ...], str]]] = {}
for _phrases, _label in ((DOCTOR_PHRASES, "DOCTOR"), (WEAK_CUES, "WEAK")):
    for _ph in sorted(_phrases, key=len, reverse=True):
        _PHRASES_BY_LAST.setdefault(_ph[-1], []).append((_ph, _label))
CUE_LAST = (DOCTOR_CUES | RELATIVE_CUES | TITLE_CUES | set(_PHRASES_BY_LAST))
_PLACE_CUE_LAST: dict[str, list[tuple[str, ...]]] = {}
for _ph in PLACE_CUES:
    _PLACE_CUE_LAST.setdefault(_ph[-1], []).append(_ph)


def _word_start(text: str, pos: int) -> bool:
    """True when ``pos`` starts a word: ``L`` in ``1L`` or ``S`` in ``90'S`` is not an initial."""
    return pos == 0 or not (text[pos - 1].isalnum() or text[pos - 1] in "'’/&-")


# before a lower-case place made of everyday words ("north of wolf point", "out past big timber")
_PLACE_PREPOSITIONS = frozenset({"in", "at", "to", "from", "of", "near", "outside", "past", "around", "toward",
                                 "towards", "into", "via", "by"})
# ... unless a business word follows: "big sky mutual", "cut bank credit union" (the place names a business)
_ORG_AFTER_PLACE = frozenset({"mutual", "insurance", "health", "bank", "credit", "medical", "clinic", "hospital",
                              "school", "church", "college", "pharmacy", "dental", "surgery", "practice", "motors"})


def _one_edit_index(words) -> dict[tuple[int, int, str], list[str]]:
    """Words of 3 or more characters by (length, 0, first character) and by (length, 1, last character):
    the only ones ``_within_one_edit`` need compare."""
    from collections import defaultdict

    index: defaultdict[tuple[int, int, str], list[str]] = defaultdict(list)
    for w in words:
        k = len(w)
        index[k, 0, w[0]].append(w)
        index[k, 1, w[-1]].append(w)
    return dict(index)


def _within_one_edit(n: str, index: dict[tuple[int, int, str], list[str]], scorer) -> bool:
    """Some indexed word is at most one edit from ``n`` (``scorer``: Levenshtein or OSA distance). Such a
    word is one character longer, shorter or as long, and keeps n's first or its last character: one
    substitution, insertion, deletion or swap of neighbours cannot change both ends of a word of three or
    more characters. The same answer as ``extractOne`` over the whole list, ~50x fewer comparisons."""
    from rapidfuzz import process

    if not n:
        return False  # every indexed word is 3 or more edits away
    for k in (len(n) - 1, len(n), len(n) + 1):
        for key in ((k, 0, n[0]), (k, 1, n[-1])):
            pool = index.get(key)
            if pool and process.extractOne(n, pool, scorer=scorer, processor=None, score_cutoff=1) is not None:
                return True
    return False


@dataclass(slots=True)
class _Tok:
    start: int
    end: int
    text: str
    n: str  # normalised


class LexiconDetector:
    """Names, cities, states, countries and facilities from the bundled lexicons."""

    family = "lexicon"

    def __init__(self, lang: str = "en", bare_name_rank: int = 2000, bare_surname_rank: int = 8000):
        self.lang = lang
        self.name = "lexicon"
        self.bare_name_rank = bare_name_rank
        self.bare_surname_rank = bare_surname_rank
        self.any_rank_first = True
        self._medical_list: dict[tuple[int, int, str], list[str]] | None = None
        self._loaded = False

    # -- loading -------------------------------------------------------------------
    def load(self) -> None:
        if self._loaded:
            return
        import sys

        from .. import cache
        from ..lexicons import lexicon_names, user_list

        # The normalised tables come from the derived-data cache (deid_engine.cache: plain text keyed by the
        # lexicon files and the source of this module and the lexicon reader) when it holds them, else
        # from ``_build_tables``.
        t = cache.derived(f"lexicon-{self.lang}", lexicons=lexicon_names(),
                          modules=(sys.modules[__name__], sys.modules[lexicon_names.__module__]),
                          build=self._build_tables, encode=self._tables_to_lines, decode=self._tables_from_lines)
        user = {norm(w) for w in user_list("protected")}  # the user's protected terms are no names
        self.first: dict[str, int] = t["first"]
        self.surname: dict[str, int] = t["surname"]
        self.common: set[str] = t["common"]
        self.medical: set[str] = t["medical"] | user
        self.words: set[str] = t["words"]
        self.first_world: set[str] = t["first_world"] - user
        self.places: dict[tuple[str, ...], str] = t["places"]
        self.place_rank: dict[tuple[str, ...], int] = t["place_rank"]
        self.place_first: dict[str, int] = t["place_first"]
        self._buckets: dict[str, list[str]] = t["_buckets"]
        self.job_heads: set[str] = t["job_heads"]
        es = self.lang == "es"
        heads = FACILITY_HEADS_ES if es else FACILITY_HEADS_EN | FACILITY_HEADS_ES
        self.facility_heads = {tuple(norm(w) for w in h.split()) for h in heads}
        self.head_first: dict[str, int] = {}
        for h in self.facility_heads:
            self.head_first[h[0]] = max(self.head_first.get(h[0], 0), len(h))
        self._titles = STRONG_TITLES if es else STRONG_TITLES - SPANISH_TITLES
        self._loaded = True

    _TABLE_SETS = ("common", "medical", "words", "first_world", "job_heads")
    _TABLE_INT_DICTS = ("first", "surname", "place_first")

    def _build_tables(self) -> dict:
        """The normalised lexicon tables, without the user's protected terms (``load`` adds them)."""
        from ..lexicons import load_lexicon

        es = self.lang == "es"
        first_lists = ["first_names_es", "first_names_en"] if es else ["first_names_en"]
        sur_lists = ["surnames_es", "surnames_en"] if es else ["surnames_en"]
        first: dict[str, int] = {}
        for li in first_lists:
            for r, w in enumerate(load_lexicon(li)):
                k = norm(w)
                if " " not in k:
                    first[k] = min(first.get(k, r), r)
        surname: dict[str, int] = {}
        for li in sur_lists:
            for r, w in enumerate(load_lexicon(li)):
                k = norm(w)
                if " " not in k:
                    surname[k] = min(surname.get(k, r), r)
        # the Census list writes O'Brien, O'Connell, D'Angelo without the apostrophe ("OBRIEN"): the written forms
        # count too (extra forms such as "o'bama" harm nothing: nobody writes them)
        for k, r in list(surname.items()):
            if len(k) >= 5 and k.isalpha() and (k[0] == "o" or (k[0] == "d" and k[1] in "aeiou")):
                surname.setdefault(k[0] + "'" + k[1:], r)
        if es:  # every Spanish list entry counts as frequent
            for w in load_lexicon("first_names_es"):
                first[norm(w)] = 0
            for w in load_lexicon("surnames_es"):
                surname[norm(w)] = 0

        common: set[str] = {norm(w) for w in load_lexicon("common_words_en")}
        common |= {norm(w) for w in load_lexicon("common_words_es")}
        medical: set[str] = set()
        for li in ("drugs", "medical_terms", "medical_abbreviations", "medical_eponyms"):
            medical |= {norm(w) for w in load_lexicon(li)}
        # months, weekdays and units are not names
        # every English word (SCOWL up to size 60): a lone name after a cue must not be one in
        # lower-case text, nor (for the weaker cues) in mixed-case text
        words: set[str] = {norm(w) for w in load_lexicon("words_en")} | common
        common |= {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                   "january", "february", "march", "april", "may", "june", "july", "august", "september",
                   "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
                   "mon", "tue", "wed", "thu", "fri", "sat", "sun", "am", "pm", "hr", "hrs", "min"}
        # first names of many origins (Faker's locales) that the Census lists lack: used only by
        # ``_world_names``, after every cue rule, in conversational (mixed / lower-case) English
        first_world: set[str] = set()
        if not es:
            for w in load_lexicon("first_names_world"):
                k = norm(w)
                if (" " not in k and len(k) >= 4 and k not in first and k not in words
                        and k not in common and k not in medical):
                    first_world.add(k)

        # places: single tokens and n-grams (tuples of normalised tokens) -> label
        places: dict[tuple[str, ...], str] = {}
        place_lists = [("countries" if es else "countries_en", "COUNTRY")]
        if es:  # a province named like its capital is labelled CITY (MEDDOCAN's TERRITORIO)
            place_lists += [("cities_es", "CITY"), ("provinces_es", "STATE")]
        else:
            place_lists += [("states_us", "STATE"), ("cities_us", "CITY"), ("cities_world_en", "CITY")]
        place_rank: dict[tuple[str, ...], int] = {}
        for li, label in place_lists:
            try:
                entries = load_lexicon(li)
            except KeyError:
                continue
            offset = WORLD_TOWN_RANK if li == "cities_world_en" else 0
            for r, w in enumerate(entries):
                key = tuple(norm(t.group()) for t in _WORD.finditer(w))
                if key and key not in places:
                    places[key] = label
                    place_rank[key] = offset + r if label == "CITY" else 0
        if not es:  # short and older names of countries that the GeoNames list spells out
            for w in COUNTRY_ALIASES_EN:
                key = tuple(norm(t.group()) for t in _WORD.finditer(w))
                places[key] = "COUNTRY"  # England, Arkansas is the smaller place
                place_rank[key] = 0
        place_first: dict[str, int] = {}
        for key in places:
            place_first[key[0]] = max(place_first.get(key[0], 0), len(key))
        # fuzzy buckets by first letter (names >= 4 letters)
        _buckets: dict[str, list[str]] = {}
        for k in set(first) | set(surname):
            if len(k) >= 4:
                _buckets.setdefault(k[0], []).append(k)
        # last words of listed occupations: "a loan officer at <employer>"
        job_heads: set[str] = set() if es else {
            norm(w.split()[-1]) for w in load_lexicon("occupations_en") if w.split()} - STOP - {"worker", "assistant"}
        return {"first": first, "surname": surname, "common": common, "medical": medical, "words": words,
                "first_world": first_world, "places": places, "place_rank": place_rank, "place_first": place_first,
                "_buckets": _buckets, "job_heads": job_heads}

    @classmethod
    def _tables_to_lines(cls, t: dict) -> dict[str, list[str]]:
        from .. import cache

        out: dict[str, list[str]] = {k: list(t[k]) for k in cls._TABLE_SETS}
        for k in cls._TABLE_INT_DICTS:
            cache.put_int_dict(out, k, t[k])
        cache.put_tuple_dict(out, "places", t["places"])
        cache.put_tuple_dict(out, "place_rank", t["place_rank"])
        cache.put_lists_dict(out, "_buckets", t["_buckets"])
        return out

    @classmethod
    def _tables_from_lines(cls, d: dict[str, list[str]]) -> dict:
        from .. import cache

        t: dict = {k: set(d[k]) for k in cls._TABLE_SETS}
        t.update({k: cache.get_int_dict(d, k) for k in cls._TABLE_INT_DICTS})
        t["places"] = cache.get_tuple_dict(d, "places", str)
        t["place_rank"] = cache.get_tuple_dict(d, "place_rank", int)
        t["_buckets"] = cache.get_lists_dict(d, "_buckets")
        return t

    def describe(self) -> dict:
        from ..lexicons import lexicon_version

        return {"lang": self.lang, "lexicons": lexicon_version()}

    # -- helpers ---------------------------------------------------------------------
    def _is_name(self, n: str) -> bool:
        return (n in self.first or n in self.surname) and not self._is_blocked(n)

    def _home_place(self, n: str) -> str | None:
        """The label of a one-word US place, state or country (not a town of cities_world_en): the venue
        rules leave these to the place rules ("admitted at Boston") but keep "at Brightwater Behavioral"."""
        lab = self.places.get((n,))
        return lab if lab and self.place_rank.get((n,), 0) < WORLD_TOWN_RANK else None

    def _is_blocked(self, n: str) -> bool:
        return n in self.common or n in self.medical

    def _near_word(self, n: str) -> bool:
        """One edit (or one swap of neighbours) away from an English word: a likely misspelling."""
        from rapidfuzz.distance import OSA

        if getattr(self, "_word_list", None) is None:
            self._word_list = _one_edit_index(w for w in self.words if len(w) >= 3 and w.isalpha())
        return _within_one_edit(n, self._word_list, OSA.distance)

    def _near_medical(self, n: str) -> bool:
        """A misspelt medical term or abbreviation (``perla`` for PERRLA), Levenshtein distance 1."""
        from rapidfuzz.distance import Levenshtein

        if self._medical_list is None:
            self._medical_list = _one_edit_index(w for w in self.medical if len(w) >= 3)
        return _within_one_edit(n, self._medical_list, Levenshtein.distance)

    def _fuzzy_name(self, n: str) -> bool:
        if len(n) < 4:
            return False
        from rapidfuzz import process
        from rapidfuzz.distance import Levenshtein

        bucket = self._buckets.get(n[0])
        if not bucket:
            return False
        hit = process.extractOne(n, bucket, scorer=Levenshtein.distance, processor=None, score_cutoff=1)
        return hit is not None

    @staticmethod
    @lru_cache(maxsize=8)  # one note's mode is asked for by the detector and by several filters
    def _case_mode(text: str) -> str:
        if text.isascii():  # \p{Lu} / \p{Ll} are A-Z / a-z there: counted in C
            low, up = count_alpha_upper(text)
            low -= up
        else:
            up = len(_UPPER.findall(text))
            low = len(_LOWER.findall(text))
        if up + low == 0:
            return "none"
        if up / (up + low) > 0.7:
            return "upper"
        if up / (up + low) < 0.02:
            return "lower"
        return "mixed"

    def _cue_before(self, toks: list[_Tok], i: int, text: str, mode: str = "mixed") -> str | None:
        """The subtype a cue right before token i asks for, or None."""
        if i == 0:
            return None
        p = toks[i - 1]
        gap = text[p.end:toks[i].start]
        if "\n" in gap or len(gap) > 4 or "(" in gap or ")" in gap or "]" in gap:
            return None  # "[doctor] nice to meet you": a bracketed speaker label is no title
        pn = p.n
        if mode == "mixed" and len(p.text) >= 2 and p.text.isupper() and pn in STRONG_TITLES \
                and not gap.startswith("."):
            return None  # in mixed-case text "DR", "SR", "MS" are acronyms (retinopathy, sinus rhythm...); "DR." is not
        if self.lang == "es" and (pn in EN_ONLY_CUES or pn in RELATIVE_CUES_EN):
            return None  # Spanish "son" means "are"
        if any(c in gap for c in ".;:!?") and not (pn in STRONG_TITLES and gap.lstrip().startswith(".")
                                                   and gap.count(".") == 1):
            return None
        if pn in DOCTOR_CUES:
            if pn in ("doctor", "nurse") and p.text.islower() and text[text.rfind("\n", 0, p.start) + 1:p.start].strip() == "" \
                    and toks[i].n in self.common:
                return None  # "doctor come in ...": a lower-case speaker word opening a turn, not a title
            if pn in STRONG_TITLES or self._is_name(toks[i].n):
                return "DOCTOR"
            t = toks[i]
            if mode == "mixed" and self.lang == "en" and pn in ("pa", "np", "rn") and p.text.isupper() \
                    and t.text[:1].isupper() and t.text[1:].islower() and t.text.isalpha() and len(t.n) >= 3 \
                    and t.n not in self.words and t.n not in self.medical and t.n not in STOP:
                return "DOCTOR"  # "per PA Lindqvist", "d/w NP Okwuosa": a surname no list holds after a credential
            return None
        if pn in TITLE_CUES:
            if pn in SPANISH_TITLES and self.lang != "es":
                return None
            if pn == "d" and p.text != "D":
                return None
            dotted = gap.lstrip().startswith(".")
            tn = toks[i].n
            unknown = (pn in ("mr", "mrs") and mode != "mixed" and len(tn) >= 4 and toks[i].text.isalpha()
                       and tn not in self.common and tn not in self.medical and tn not in STOP)
            if not (dotted or unknown or self._is_name(tn) or (p.text[:1].isupper() and p.text[1:].islower()
                                                              and toks[i].text[:1].isupper())):
                return None  # "MS" (mental status), "SR" (sinus rhythm) without a name after
            if i >= 2 and toks[i - 2].n in RELATIVE_CUES and "\n" not in text[toks[i - 2].end:p.start] \
                    and len(text[toks[i - 2].end:p.start]) <= 3:
                return "RELATIVE"  # "my neighbour Mrs. Okafor", "his sister Ms Lund"
            return "PATIENT"
        if pn in RELATIVE_CUES:
            tn = toks[i].n
            if tn in TITLE_CUES or tn in STRONG_TITLES:
                return None  # "neighbor Mrs. Okafor": the title is the cue for the next word
            ok = (tn in self.first or tn in self.surname or toks[i].text[:1].isupper()
                  or (not self._is_blocked(tn) and len(tn) >= 3))
            return "RELATIVE" if ok and tn not in STOP and tn not in RELATIVE_CUES else None
        for ph, label in _PHRASES_BY_LAST.get(pn, ()):
            k = len(ph)
            if i - k >= 0 and tuple(t.n for t in toks[i - k:i]) == ph:
                return label
        return None

    @staticmethod
    def _followed_by(toks: list[_Tok], j: int, text: str, words: set[str]) -> bool:
        rest = text[toks[j].end:toks[j].end + 2]
        if rest[:1] in (",", ")") or rest[:1] == "" or rest[:1] == "\n":
            return True
        return j + 1 < len(toks) and toks[j + 1].n in words and "\n" not in text[toks[j].end:toks[j + 1].start]

    def _credential_after(self, toks: list[_Tok], j: int, text: str) -> bool:
        if j + 1 >= len(toks):
            return False
        gap = text[toks[j].end:toks[j + 1].start]
        return len(gap) <= 3 and "\n" not in gap and toks[j + 1].n in CREDENTIALS and (
            toks[j + 1].text.isupper() or "," in gap)

    # -- detection ---------------------------------------------------------------------
    def detect(self, document: Document) -> list[Span]:
        self.load()
        text = document.text
        cache = _NORM_CACHE
        toks = []
        # word strings from one findall; each offset is the first occurrence at or after the previous
        # word's end: exact, as every letter lies inside a match and a word starts with a letter
        find = text.find
        end = 0
        for w in _WORD.findall(text):
            start = find(w, end)
            end = start + len(w)
            nw = cache.get(w)
            if nw is None:
                nw = norm(w)
                if len(cache) < 500_000:
                    cache[w] = nw
            if w[-1] == ".":
                toks.append(_Tok(start, end - 1, w[:-1], nw))
            elif w[-1] in "'’" and len(w) > 1:  # a plural possessive: "Drs' Ballou and Dutter", "the Okafors'"
                toks.append(_Tok(start, end - 1, w[:-1], norm(w[:-1])))
            else:
                toks.append(_Tok(start, end, w, nw))
        if not toks:
            return []
        mode = self._case_mode(text)
        out: list[Span] = []
        used = [False] * len(toks)
        self._facilities(toks, text, mode, out, used)
        self._letterheads(toks, text, mode, out, used)
        self._practices(toks, text, mode, out, used)
        self._brands(toks, text, mode, out, used)
        self._hospital_units(toks, text, mode, out, used)
        self._employers(toks, text, mode, out, used)
        self._answered_venues(text, out, used, toks)
        self._places(toks, text, mode, out, used)
        self._cued_places(toks, text, mode, out, used)
        self._credentialed(toks, text, mode, out, used)
        self._speakers(toks, text, mode, out, used)
        self._signatures(toks, text, mode, out, used)
        self._plan_owners(toks, text, mode, out, used)
        self._names(toks, text, mode, out, used)
        self._cued(toks, text, mode, out, used)
        self._world_names(toks, text, mode, out, used)
        if self.lang == "en" and mode == "lower":
            self._name_pairs(toks, text, out, used)  # after every name rule: it pairs with their names
            self._role_after_name(toks, text, out, used)
        if self.lang == "es":  # Spanish words and eponyms in the name lists (lexicon_es.py)
            from .lexicon_es import spanish_vetoes

            out = spanish_vetoes(text, out, self.first)
        return out

    def _world_names(self, toks, text, mode, out, used) -> None:
        """A first name of ``first_names_world`` (Ngozi, Kwame, Thandiwe ...) that no dictionary
        knows, in conversational English, where a Census first name of any rank would count
        (``_names``); a listed surname right after it joins. Runs after the cue rules, so a
        cue's label (``husband``, ``technician``) wins."""
        if self.lang != "en" or mode not in ("lower", "mixed") or not self.first_world:
            return
        n = len(toks)
        for i, t in enumerate(toks):
            if used[i] or t.n not in self.first_world or not t.text.isalpha() or t.n in DISCOURSE_WORDS:
                continue  # "Doctor: Okey. Let us ...": a spelling of okay
            if mode == "mixed" and t.text.isupper():
                continue  # capitals in mixed-case text are acronyms ("AMIR" ward code, "NOOR" form field)
            if self._near_medical(t.n) or (t.text.islower() and self._near_word(t.n)):
                continue  # "gerd", "timi"; lower-case misspellings: "tanish", "gaven", "cahir"
            j = i
            if i + 1 < n and not used[i + 1] and text[t.end:toks[i + 1].start] == " " \
                    and toks[i + 1].n in self.surname and toks[i + 1].n not in self.words:
                j = i + 1
            out.append(Span(t.start, toks[j].end, "PATIENT", "lexicon:name", 0.55 if mode == "mixed" else 0.45))
            for q in range(i, j + 1):
                used[q] = True

    def _cap(self, t: _Tok, mode: str) -> bool:
        """Case evidence: in mixed-case text, a capitalised token."""
        if mode != "mixed":
            return True
        return t.text[:1].isupper()

    def _facilities(self, toks, text, mode, out, used) -> None:
        n = len(toks)
        for i in range(1, n - 1):  # "to St. Mary's", "at Saint Joseph"
            if toks[i].n in ("st", "saint", "ste") and self.lang != "es" and toks[i - 1].n in _FACILITY_CUE_WORDS:
                nx = toks[i + 1]
                gap = text[toks[i].end:nx.start]
                if gap in (" ", ". ", ".") and (nx.text[:1].isupper() or mode != "mixed") \
                        and nx.n not in self.common and nx.n not in STOP:
                    out.append(Span(toks[i].start, nx.end + (2 if text[nx.end:nx.end + 2] in ("'s", "’s") else 0),
                                    "HOSPITAL", "lexicon:facility", 0.7))
                    used[i] = used[i + 1] = True
        facility_cues = _FACILITY_CUE_WORDS | {"admitted", "sent", "presented", "ed", "er"}  # built once, not per token
        for i in range(1, n):
            t = toks[i]
            # "FROM THE GBMC": an acronym may follow the cue after "the"
            the_cued = (i >= 2 and toks[i - 1].n == "the" and toks[i - 2].n in facility_cues
                        and text[toks[i - 2].end:toks[i - 1].start] == " ")
            if used[i] or (toks[i - 1].n not in facility_cues and not the_cued):
                continue
            gap = text[toks[i - 1].end:t.start]
            if gap not in (" ", "  ") or t.n in self.medical or t.n in self.common or t.n in STOP:
                continue
            # hospital acronyms: "to GH", "at MGH", "from BIDMC"
            if 2 <= len(t.text) <= 5 and t.text.isupper() and (t.text.endswith("H") or t.text.endswith("MC")) \
                    and self.lang != "es":
                out.append(Span(t.start, t.end, "HOSPITAL", "lexicon:facility", 0.55))
                used[i] = True
                continue
            if the_cued:
                continue
            # a hospital named by its emergency department: "from kernan ew", "seen in Harford ER",
            # "to Shady Grove ED" (one or two name words, then ER / EW / ED)
            if self.lang != "es" and toks[i - 1].n in ("to", "from", "at", "in", "via"):
                k = i
                while k < n and k - i < 2 and self._ed_name_word(toks[k], mode) \
                        and text[toks[k - 1].end:toks[k].start] in (" ", "  "):
                    k += 1
                if k > i and k < n and toks[k].n in ("er", "ew", "ed") and text[toks[k - 1].end:toks[k].start] == " " \
                        and (mode != "mixed" or toks[k].text.isupper()) and not any(used[q] for q in range(i, k)):
                    out.append(Span(t.start, toks[k - 1].end, "HOSPITAL", "lexicon:facility", 0.55))
                    for q in range(i, k):
                        used[q] = True
                    continue
            # wards and units: "transfer to Quartermain 2"
            nxt = text[t.end:t.end + 5]
            if toks[i - 1].n in ("to", "from") and regex.match(r" \d{1,2}(?!\d|[.,]\d|[%'’/\w])", nxt) \
                    and len(t.n) >= 4 and t.n.isalpha() \
                    and t.n not in self.first and (t.text[:1].isupper() or mode != "mixed"):
                end = t.end + regex.match(r" \d{1,2}", nxt).end()
                out.append(Span(t.start, end, "DEPARTMENT", "lexicon:facility", 0.5))
                used[i] = True
        for i in range(n):
            maxk = self.head_first.get(toks[i].n)
            if maxk is None:
                continue
            for k in range(maxk, 0, -1):
                if i + k > n:
                    continue
                key = tuple(t.n for t in toks[i:i + k])
                if key not in self.facility_heads:
                    continue
                if not self._cap(toks[i], mode):
                    break
                # name words before the head (English order) or after it (Spanish order)
                start_j = i
                j = i - 1
                while self.lang != "es" and j >= 0 and i - j <= 5 and self._facility_word(toks, j, mode, text):
                    start_j = j
                    j -= 1
                while start_j < i and toks[start_j].n == "of":
                    start_j += 1
                end_j = i + k - 1
                j = i + k
                if not (start_j < i) and (self.lang == "es" or (j < n and toks[j].n == "of")):
                    while j < n and j - (i + k) < 5 and (self._name_like(toks[j], mode, text, toks[j - 1]) or (
                            toks[j].n in ("de", "del", "la", "el", "los", "las", "san", "santa") and j + 1 < n
                            and self._name_like(toks[j + 1], mode, text, toks[j]))):
                        end_j = j
                        j += 1
                    while end_j >= i + k and toks[end_j].n in ("de", "del", "la", "el", "los", "las"):
                        end_j -= 1
                if start_j == i and end_j == i + k - 1:
                    break  # a bare "hospital"
                s, e = toks[start_j].start, toks[end_j].end
                out.append(Span(s, e, "HOSPITAL", "lexicon:facility", 0.8))
                for q in range(start_j, end_j + 1):
                    used[q] = True
                break

    def _ed_name_word(self, t: _Tok, mode: str) -> bool:
        """A word that can name a hospital before ER / EW / ED: no dictionary, medical or function word,
        capitalised in mixed-case text, letters only."""
        return (t.text.isalpha() and len(t.text) >= 3 and t.n not in self.medical and t.n not in self.common
                and t.n not in self.words and t.n not in STOP and (mode != "mixed" or t.text[:1].isupper()))

    def _practices(self, toks, text, mode, out, used) -> None:
        """Clinic and practice names without a hospital word, in mixed-case text: capitalised
        proper words, then capitalised service words ending in a suffix (``Kingsbridge Kidney
        Care``, ``Preston Park Surgery``, ``Tamarack Counseling Center``); or a capitalised
        unknown word before a lower-case ``clinic`` (``the Pinewood clinic``: the name only)."""
        if mode != "mixed" or self.lang != "en":
            return
        from .protected import SERVICE_WORDS

        service = (SERVICE_WORDS | FACILITY_SUFFIXES) - STOP - {"of", "&", "a", "our", "your", "his", "her",
                                                               "their", "note", "visit", "consult", "follow-up"}
        n = len(toks)

        def cap(t: _Tok) -> bool:
            return t.text[:1].isupper() and not (t.text.isupper() and len(t.text) > 1 and t.n not in service)

        def joined(a: int, b: int) -> bool:  # tokens a and b are neighbours on one line
            return text[toks[a].end:toks[b].start] in (" ", "'s ", "’s ")

        i = 0
        while i < n:
            t = toks[i]
            if used[i] or t.n not in FACILITY_SUFFIXES or not cap(t):
                lower_head = (t.n in ("clinic", "practice", "surgery", "center", "centre") and t.text.islower()
                              and i > 0 and not used[i - 1] and joined(i - 1, i))
                if lower_head:
                    p = toks[i - 1]
                    if cap(p) and p.n not in self.common and p.n not in STOP and p.n not in self.medical \
                            and p.n not in service and len(p.n) >= 4 and not self._sentence_start(toks, i - 1, text):
                        out.append(Span(p.start, p.end, "HOSPITAL", "lexicon:facility", 0.6))
                        used[i - 1] = True
                i += 1
                continue
            k = i  # service words before the suffix
            while k - 1 >= 0 and not used[k - 1] and toks[k - 1].n in service and cap(toks[k - 1]) and joined(k - 1, k):
                k -= 1
            m = k  # the proper part before them
            while m - 1 >= 0 and k - m < 4 and not used[m - 1] and joined(m - 1, m) and cap(toks[m - 1]) \
                    and toks[m - 1].n not in STOP and toks[m - 1].n not in service and toks[m - 1].n not in self.medical \
                    and toks[m - 1].n not in DISCOURSE_WORDS and toks[m - 1].n not in self._titles \
                    and toks[m - 1].text.isalpha() or (m - 1 >= 0 and toks[m - 1].n in ("st", "saint") and m < k
                                                        and cap(toks[m - 1]) and not used[m - 1]):
                m -= 1
            if m == k:
                i += 1
                continue
            proper = toks[m:k]
            known = any(x.n not in self.common or x.n in self.surname or x.n in self.place_first for x in proper)
            cued = m > 0 and toks[m - 1].n in _PRACTICE_CUES and "\n" not in text[toks[m - 1].end:toks[m].start]
            # "physical therapy at Motion Lab", "follows with Summit Pediatrics": after at/with the proper part
            # may be everyday words, unless they name a service ("at Main Clinic", "at Day Surgery")
            at_cued = (m > 0 and toks[m - 1].n in ("at", "with", "via", "attends", "attending") and not known
                       and "\n" not in text[toks[m - 1].end:toks[m].start]
                       and not self._sentence_start(toks, m, text)
                       and all(x.n not in _GENERIC_PRACTICE_WORDS and x.text.isalpha() for x in proper))
            if not (known or at_cued) or (len(proper) == 1 and self._sentence_start(toks, m, text)
                                          and proper[0].n in self.words and not cued):
                i += 1
                continue
            e = i
            while e + 1 < n and not used[e + 1] and toks[e + 1].n in service and cap(toks[e + 1]) and joined(e, e + 1):
                e += 1
            if toks[e].n == "care" and e + 1 < n and "\n" not in text[toks[e].end:toks[e + 1].start] \
                    and text[toks[e].end:toks[e + 1].start].strip() == "" and toks[e + 1].n not in STOP:
                i = e + 1
                continue  # "Heath Care Proxy", "Home Care services": care is a modifier there
            if e + 1 < n and not used[e + 1] and toks[e + 1].text in ("PT", "OT", "SLP") and joined(e, e + 1):
                e += 1  # "Motion Lab PT": a physio practice's trailing initials
            out.append(Span(toks[m].start, toks[e].end, "HOSPITAL", "lexicon:facility", 0.7))
            for q in range(m, e + 1):
                used[q] = True
            i = e + 1

    def _cue_ends_at(self, toks: list[_Tok], i: int, text: str, cues: set) -> bool:
        """Whether one of ``cues`` (tuples of normalised words) ends right before token i, on one line."""
        if i < 1:
            return False
        for ph in _cues_by_last(cues).get(toks[i - 1].n, ()):
            k = len(ph)
            if i - k >= 0 and tuple(t.n for t in toks[i - k:i]) == ph and \
                    "\n" not in text[toks[i - k].start:toks[i].start] and \
                    not any(c in text[toks[i - 1].end:toks[i].start] for c in ".;:!?("):
                return True
        return False

    def _proper_run(self, toks, text, mode, used, i: int, limit: int = 5) -> int:
        """End index (inclusive) of a run of name-like tokens starting at i, or i - 1 when none:
        capitalised in mixed-case text (``of``/``and``/``&`` inside), words no dictionary knows in
        lower-case text."""
        n = len(toks)
        j = i - 1
        while j + 1 < n and j + 1 - i < limit and not used[j + 1]:
            t = toks[j + 1]
            if j >= i:
                gap = text[toks[j].end:t.start]
                if gap not in (" ", "-", " & ", "'s ", "’s "):
                    break
            if mode == "mixed":
                ok = (t.text[:1].isupper() and t.n not in DISCOURSE_WORDS and t.n not in self._titles
                      and not _CONTRACTION.search(t.text)
                      and not (j < i and t.n in STOP and t.n not in FACILITY_NAME_WORDS)) or (
                    j >= i and t.n in ("of", "and") and j + 2 < n and toks[j + 2].text[:1].isupper()
                    and toks[j + 2].n not in DISCOURSE_WORDS and not _CONTRACTION.search(toks[j + 2].text))
            elif mode == "lower":
                ok = (t.n not in self.words and t.n not in STOP and len(t.n) >= 3 and t.text.isalpha())
            else:
                ok = False
            if not ok:
                break
            j += 1
        while j >= i and toks[j].n in ("of", "and"):
            j -= 1
        return j

    def _employers(self, toks, text, mode, out, used) -> None:
        """Employers after employment cues (``works at Metro Transit``, ``retired from Kroger``)
        and names ending in a company/school/club word (``Little Acorns Preschool``) -> ORGANIZATION."""
        if self.lang != "en" or mode not in ("mixed", "lower"):
            return
        from .protected import SERVICE_WORDS

        service = SERVICE_WORDS | FACILITY_SUFFIXES
        n = len(toks)
        # every test below needs one of these words right before token i (a cue's last word, at/for/with,
        # "the", "for"): other tokens are passed over without the calls
        before = set(_cues_by_last(EMPLOY_CUES)) | _JOB_PREPS | {"the", "for", "w"}
        if mode == "lower":
            before |= set(_cues_by_last(EMPLOY_CUES_LOWER))
        for i in range(1, n):
            if toks[i - 1].n not in before:
                continue
            if used[i] or not (self._cue_ends_at(toks, i, text, EMPLOY_CUES) or (
                    mode == "lower" and self._cue_ends_at(toks, i, text, EMPLOY_CUES_LOWER)) or (
                    (_job_prep(toks, i - 1, text) or toks[i - 1].n == "the") and self._job_at(toks, i, text))
                    or self._drive_for(toks, i, text)
                    or self._sport_for(toks, i, text)
                    or (toks[i - 1].text == "the" and self._sport_for(toks, i - 1, text))):
                continue
            if (toks[i].n in _TIME_NOT_EMPLOYER and toks[i].text.islower()) or toks[i].text.isdigit() \
                    or any(c.isdigit() for c in text[toks[i - 1].end:toks[i].start]):
                continue  # "a librarian for many years", "a seamstress for 40 yrs": a time, not a firm
            if mode == "lower":
                if toks[i].n == "the" and i + 1 < n and text[toks[i].end:toks[i + 1].start] == " ":
                    i += 1  # "a pharmacy technician at the giant food": the name after the article
                    if used[i]:
                        continue
                j = self._suffix_run(toks, text, used, i)
                job = _job_prep(toks, i - 1, text) and self._job_at(toks, i, text)
                if j < i and job:
                    j = self._lower_employer_run(toks, text, used, i)  # "a crane operator at us steel in gary"
                if job and j >= i and toks[i - 1].n in ("with", "w") and (
                        toks[i - 1].n == "w" and j == i
                        or toks[i].n in self.medical and len(toks[i].n) > 2
                        or any(t.n in service or t.n in _CONDITION_WORDS for t in toks[i:min(j, i + 1) + 1])):
                    # "a welder w/ copd", "a teacher with chronic back pain": a condition, not a firm (its first two
                    # words tell; "w/" also needs a name of two words or more: "a flight attendant w/ polar air")
                    j = i - 1
                if j >= i:
                    src = "pattern:employer" if (self._drive_for(toks, i, text) or job) else "lexicon:organization"
                    out.append(Span(toks[i].start, toks[j].end, "ORGANIZATION", src, 0.6))
                    for q in range(i, j + 1):
                        used[q] = True
                    continue
            elif toks[i].text == "The" and i + 1 < n and text[toks[i].end:toks[i + 1].start] == " " \
                    and not self._sentence_start(toks, i, text):
                j = self._proper_run(toks, text, mode, used, i + 1)  # "a chef at The Copper Kettle"
                if j > i and not all(t.n in self.medical or t.n in service or t.n in STOP for t in toks[i + 1:j + 1]):
                    out.append(Span(toks[i].start, toks[j].end, "ORGANIZATION", "lexicon:organization", 0.6))
                    for q in range(i, j + 1):
                        used[q] = True
                continue
            j = self._proper_run(toks, text, mode, used, i)
            if j < i or (mode == "mixed" and j == i and toks[i].n in self.common):
                continue  # "works at Home", "attends Church": one everyday word names nothing
            if all(t.n in self.medical or t.n in service or t.n in STOP for t in toks[i:j + 1]):
                continue  # "works at Cardiology", "job at Mental Health": a service, not an employer
            if all(t.n in _PUBLIC_PROGRAMS for t in toks[i:j + 1]):
                continue  # "covered by Medicare": a public programme, not an organisation that identifies
            # a team after "playing rugby for": the cue is the evidence (outranks a tagger's name guess)
            team = mode == "mixed" and (self._sport_for(toks, i, text) or self._sport_for(toks, i - 1, text))
            # "drives the van for lakeside paratransit": the driving job is the evidence, as for a team
            src = "pattern:team" if team else "pattern:employer" if (
                self._drive_for(toks, i, text) or ((_job_prep(toks, i - 1, text) or toks[i - 1].n == "the")
                                                   and self._job_at(toks, i, text))) else "lexicon:organization"
            out.append(Span(toks[i].start, toks[j].end, "ORGANIZATION", src, 0.65))
            for q in range(i, j + 1):
                used[q] = True
        # chain stores and pharmacies by name: "the kroger pharmacy", "at Boots", "the Rite Aid on Broad St"
        if not _CHAIN_FIRST:
            _CHAIN_FIRST.update(c[0] for c in CHAIN_STORES)
        for i in range(n):
            if toks[i].n not in _CHAIN_FIRST:
                continue
            for k in (3, 2, 1):
                if i + k > n or any(used[q] for q in range(i, i + k)) \
                        or tuple(t.n for t in toks[i:i + k]) not in CHAIN_STORES:
                    continue
                first = toks[i]
                if mode == "mixed" and not (first.text[:1].isupper() and not self._sentence_start(toks, i, text)
                                            or (i > 0 and toks[i - 1].n in ("the", "at", "from", "to", "for"))
                                            and first.text[:1].isupper()):
                    break
                if mode == "lower" and k == 1 and first.n in self.words and not (
                        i > 0 and toks[i - 1].n == "the" and (_BRANCH_LOWER.match(text, first.end) or regex.match(
                            r"[ \t]+(?:in|on|at)[ \t]+[a-z]{4,}", text[first.end:first.end + 30]))):
                    break  # "boots", "target": words in lower-case text (but "the boots on duke street")
                if k == 1 and (first.text.isupper() or first.text.islower()) \
                        and not (i > 0 and toks[i - 1].n in ("the", "at", "from", "to", "for")) \
                        and (len(first.n) < 4 or first.n in self.words or first.n in self.medical):
                    break  # "cvs stable", "CVS: S1 S2": cardiovascular system unless "the/at CVS"; "walmart", "easyjet" are only brands
                if text[first.end:first.end + 1].isdigit() or any(
                        text[toks[q].end:toks[q + 1].start] != " " for q in range(i, i + k - 1)):
                    break
                end = toks[i + k - 1].end
                cued = i > 0 and toks[i - 1].n in ("the", "at", "from", "to", "for")
                # after an article or a preposition the store's name is the evidence (a pattern: no medical look-alike
                # filter, "the centra in ballinrobe" is no misspelt "central")
                out.append(Span(first.start, end, "ORGANIZATION", "pattern:chain_store" if cued else "lexicon:organization",
                                0.6))
                branch = _BRANCH.match(text, end) or (_BRANCH_LOWER.match(text, end) if mode == "lower" else None)
                if branch and branch.group("w").casefold() not in _NOT_BRANCH:
                    out.append(Span(branch.start("w"), branch.end(), "STREET", "lexicon:street", 0.55))
                    end = branch.end()  # "the CVS on Elm": the branch's street
                q = i
                while q < n and toks[q].start < end:
                    used[q] = True
                    q += 1
                break
        # health insurers by name near an insurance word: "her humana plan", "its anthem the member id is"
        if not _INSURER_FIRST:
            _INSURER_FIRST.update(c[0] for c in INSURERS)
        for i in range(n):
            if toks[i].n not in _INSURER_FIRST or used[i]:
                continue
            for k in (4, 3, 2, 1):
                if i + k > n or any(used[q] for q in range(i, i + k)) \
                        or tuple(t.n for t in toks[i:i + k]) not in INSURERS:
                    continue
                first, last = toks[i], toks[i + k - 1]
                if any(text[toks[q].end:toks[q + 1].start] != " " for q in range(i, i + k - 1)):
                    break
                if mode == "mixed" and not first.text[:1].isupper():
                    break
                ls, le = text.rfind("\n", 0, first.start) + 1, text.find("\n", last.end)
                window = text[max(ls, first.start - 40):(le if le >= 0 else len(text))][:40 + (last.end - first.start) + 40]
                if not _INSURANCE_CUE.search(window):
                    break
                out.append(Span(first.start, last.end, "ORGANIZATION", "pattern:insurer_listed", 0.7))
                for q in range(i, i + k):
                    used[q] = True
                break
        # "home with Visiting Angels", "carers from Bluebird Care": a home-care agency of 2+ capitalised words
        if mode == "mixed":
            agency_last = _cues_by_last(AGENCY_CUES)
            for i in range(2, n):
                if toks[i - 1].n not in agency_last or used[i] or not toks[i].text[:1].isupper() \
                        or not self._cue_ends_at(toks, i, text, AGENCY_CUES):
                    continue
                j = self._proper_run(toks, text, mode, used, i, limit=4)
                if j <= i or toks[i].n in self.first or toks[i].n in self._titles:
                    continue  # "home with Mary Jones": a person (the name rules judge it)
                ws = toks[i:j + 1]
                if all(x.n in self.medical or x.n in service or x.n in STOP or x.n in _GENERIC_PRACTICE_WORDS
                       for x in ws) or any(x.n in DISCOURSE_WORDS for x in ws):
                    continue  # "home with Home Health", "care from Hospice Team"
                out.append(Span(toks[i].start, toks[j].end, "ORGANIZATION", "lexicon:organization", 0.55))
                for q in range(i, j + 1):
                    used[q] = True
        # "her care home, Willowmere House", "the nursing home Oak Lodge": a care home's name in apposition
        if mode == "mixed":
            for i in range(2, n):
                if used[i] or not (toks[i - 1].n == "home" and toks[i - 2].n in ("care", "nursing", "rest",
                                                                                 "residential", "retirement")):
                    continue
                k = i
                if text[toks[i - 1].end:toks[k].start] not in (", ", " "):
                    continue
                j = self._proper_run(toks, text, mode, used, k, limit=4)
                if j < k or (j == k and toks[k].n in self.common):
                    continue
                out.append(Span(toks[k].start, toks[j].end, "HOSPITAL", "lexicon:facility", 0.6))
                for q in range(k, j + 1):
                    used[q] = True
        # "Location: Harborview Lung & Sleep", "our Westfield office": a site named by a field or an office word
        if mode == "mixed":
            for i in range(1, n):
                if used[i] or not toks[i].text[:1].isupper():
                    continue
                field = toks[i - 1].n in ("location", "facility", "site", "venue") and \
                    text[toks[i - 1].end:toks[i].start] in (": ", ":  ", ":\t") and \
                    (i < 2 or "\n" in text[toks[i - 2].end:toks[i - 1].start])
                office = (toks[i - 1].n in ("our", "the") and i + 1 < n and text[toks[i].end:toks[i + 1].start] == " "
                          and toks[i + 1].n in ("office", "offices", "branch", "campus", "site", "location")
                          and toks[i].text.isalpha() and not toks[i].text.isupper())
                if not (field or office):
                    continue
                j = self._proper_run(toks, text, mode, used, i, limit=5) if field else i
                if j < i or all(x.n in self.common or x.n in self.medical or x.n in STOP for x in toks[i:j + 1]):
                    continue  # "Location: Left knee", "the Main office"
                if any(x.n in self._titles for x in toks[i:j + 1]):
                    continue
                out.append(Span(toks[i].start, toks[j].end, "HOSPITAL", "lexicon:facility", 0.55))
                for q in range(i, j + 1):
                    used[q] = True
        # "the cath lab at Mercy", "admitted to 5C at Rush": a capitalised name after a venue word and "at"
        if mode == "mixed":
            for i in range(2, n):
                t = toks[i]
                if used[i] or toks[i - 1].n != "at" or not t.text[:1].isupper() or t.text.isupper() \
                        or text[toks[i - 1].end:t.start] != " " or t.n in STOP or t.n in self._titles \
                        or t.n in DISCOURSE_WORDS or t.n in _NOT_BRANCH or t.n in self.medical \
                        or t.n in _UNIT_HEADS or t.n in _GENERIC_PRACTICE_WORDS:
                    continue
                if not any(toks[j].n in VENUE_AT_CUES and "\n" not in text[toks[j].end:toks[i].start]
                           and not any(c in text[toks[j].end:toks[i].start] for c in ".;:!?")
                           for j in range(max(0, i - 4), i - 1)):
                    continue
                if self._sentence_start(toks, i - 1, text):
                    continue
                j = self._proper_run(toks, text, mode, used, i, limit=3)
                if j < i or any(self._home_place(x.n) and x.n not in self.common for x in toks[i:j + 1]):
                    continue  # "admitted at Boston": a town, left to the place rules
                if j > i and toks[j].n in ORG_SUFFIXES and toks[j].n not in FACILITY_SUFFIXES:
                    continue  # "physio at Tangent Works": a company word, left to the organisation rule
                out.append(Span(t.start, toks[j].end, "HOSPITAL", "lexicon:facility", 0.55))
                for q in range(i, j + 1):
                    used[q] = True
        # "went to the Kroger on Ridgeway", "sent to the walgreens on 5th": a store named by its branch
        for i in range(2, n - 1):
            t = toks[i]
            if used[i] or toks[i - 1].n != "the" or toks[i - 2].n not in ("to", "at", "from") \
                    or toks[i + 1].n not in ("on", "at", "in", "near", "by") or len(t.n) < 4:
                continue
            if t.n in self.words or t.n in self.medical or t.n in STOP or not t.text.isalpha() \
                    or (mode == "mixed" and not t.text[:1].isupper()) or t.text.isupper():
                continue
            after = text[toks[i + 1].end:toks[i + 1].end + 12]
            if not regex.match(r"[ \t]+(?:\d+(?:st|nd|rd|th)\b|\p{Lu}\p{Ll}+|\p{Ll}+[ \t]+(?:st|street|rd|road|ave|avenue)\b)",
                               after):
                continue
            out.append(Span(t.start, t.end, "ORGANIZATION", "lexicon:organization", 0.55))
            used[i] = True
        if mode == "lower":  # "the spine people at northwell", "seen at ridgeview": a venue no dictionary knows
            for i in [k + 1 for k in range(n - 1) if toks[k].n == "at"]:
                t = toks[i]
                if used[i] or text[toks[i - 1].end:t.start] != " " \
                        or t.n in self.words or len(t.n) < 4 \
                        or not any(toks[q].n in _LOWER_VENUE_CUES for q in range(max(0, i - 5), i - 1)):
                    continue
                if "\n" in text[toks[max(0, i - 5)].end:t.start] or t.n in self.first or t.n in self.surname \
                        or self._home_place(t.n) or (i + 1 < n and text[t.end:t.end + 2] in ("'s", "’s")) \
                        or not self._unknown_lower(t):
                    continue
                out.append(Span(t.start, t.end, "HOSPITAL", "lexicon:facility", 0.5))
                used[i] = True
        if mode == "lower":  # "still driving the taxis / yes for citywide cabs": a company word after for/at and work
            for i in range(2, n - 1):
                if used[i] or toks[i - 1].n not in ("for", "at", "with") or toks[i].n in _NOT_ORG_START \
                        or toks[i].n in STOP or toks[i].n in DISCOURSE_WORDS or not toks[i].text.isalpha():
                    continue
                j = i + 1
                while j < n and j - i < 3 and toks[j].n not in LOWER_ORG_SUFFIXES and toks[j].text.isalpha() \
                        and toks[j].n not in STOP and toks[j].n not in DISCOURSE_WORDS \
                        and text[toks[j - 1].end:toks[j].start] == " ":
                    j += 1
                if j >= n or toks[j].n not in LOWER_ORG_SUFFIXES or text[toks[j - 1].end:toks[j].start] != " " \
                        or any(used[q] for q in range(i, j + 1)) or toks[j].n in ("co", "group", "union", "inc",
                                                                                   "company", "market", "bank"):
                    continue
                if not any(toks[q].n in _WORK_WORDS for q in range(max(0, i - 16), i - 1)):
                    continue
                out.append(Span(toks[i].start, toks[j].end, "ORGANIZATION", "lexicon:organization", 0.55))
                for q in range(i, j + 1):
                    used[q] = True
        if mode == "lower":  # "records from banner desert and honorhealth": a facility no dictionary knows in a request
            starts = [q for q in range(1, n - 1) if toks[q].n in ("from", "at") and toks[q - 1].n in _RECORD_WORDS]
            for k in starts:
                for i in range(k + 1, min(n, k + 6)):
                    t = toks[i]
                    if any(c in text[toks[k].end:t.start] for c in "\n.;:!?(") \
                            or any(toks[q].n in ("for", "re", "about", "on", "dated", "of") for q in range(k + 1, i)):
                        break
                    if used[i] or t.n in self.words or t.n in self.first or t.n in self.surname \
                            or self._home_place(t.n) or not self._unknown_lower(t):
                        continue
                    out.append(Span(t.start, t.end, "HOSPITAL", "lexicon:facility", 0.5))
                    used[i] = True
        if mode == "lower":  # "pinecrest elementary", "the oakmont pharmacy": unknown words + a school/business word
            for i in [k for k in range(1, n) if toks[k].n in LOWER_ORG_SUFFIXES or toks[k].n in _LOWER_CARE_SUFFIXES]:
                t = toks[i]
                if used[i] or (t.n in ("co", "group", "union", "inc", "company", "market", "bank", "ems", "corp")
                               and not (t.n == "union" and toks[i - 1].n == "credit")):
                    continue
                m = i
                k = i  # "greenacre family pharmacy", "ballyhaunis credit union": everyday words between name and suffix
                while k - 1 >= 0 and i - k < 2 and not used[k - 1] and text[toks[k - 1].end:toks[k].start] == " " \
                        and toks[k - 1].n in _ORG_MIDDLE_WORDS:
                    k -= 1
                while k - 1 >= 0 and i - k < 3 and not used[k - 1] and text[toks[k - 1].end:toks[k].start] == " " \
                        and self._unknown_lower(toks[k - 1]):
                    k -= 1
                    m = k
                if m == i:
                    continue
                label = "HOSPITAL" if t.n in _LOWER_CARE_SUFFIXES else "ORGANIZATION"
                out.append(Span(toks[m].start, t.end, label, "lexicon:organization" if label == "ORGANIZATION"
                                else "lexicon:facility", 0.55))
                for q in range(m, i + 1):
                    used[q] = True
        if mode != "mixed":
            return
        for i in range(1, n):
            t = toks[i]
            if used[i] or t.n not in ORG_SUFFIXES or not t.text[:1].isupper() or (
                    t.text.isupper() and t.n not in _CLUB_ACRONYMS):
                continue  # "TD CO": capitals in mixed-case text are acronyms (not "Ladies FC")
            m = i
            while m - 1 >= 0 and i - m < 4 and not used[m - 1] and text[toks[m - 1].end:toks[m].start] in (" ", "-") \
                    and (toks[m - 1].text[:1].isupper() and toks[m - 1].n not in STOP
                         and toks[m - 1].n not in DISCOURSE_WORDS and toks[m - 1].n not in self._titles
                         and (not toks[m - 1].text.isupper() or len(toks[m - 1].text) <= 3)):
                m -= 1
            while m < i and toks[m].n in self.medical and toks[m].n not in ("us", "u.s"):
                m += 1  # "Heart Failure Team": a medical word does not start a name
            if m == i:
                continue
            proper = toks[m:i]
            known = any(x.n not in self.common or x.n in self.surname or x.n in self.place_first for x in proper)
            cued = m > 0 and toks[m - 1].n in _PRACTICE_CUES | {"the"}
            # "PT twice weekly at Motion Works": after at/with everyday words may name a business, unless they
            # say what kind it is ("at Sunday School", "at Police Station")
            at_cued = (m > 0 and toks[m - 1].n in ("at", "with") and not self._sentence_start(toks, m, text)
                       and "\n" not in text[toks[m - 1].end:toks[m].start]
                       and all(x.n not in _GENERIC_PRACTICE_WORDS and x.n not in _GENERIC_ORG_WORDS
                               and x.n not in _NOT_BRANCH and x.text.isalpha() for x in proper))
            if not (known or at_cued) or (self._sentence_start(toks, m, text) and not cued
                                          and all(x.n in self.words for x in proper)):
                continue
            out.append(Span(toks[m].start, t.end, "ORGANIZATION", "lexicon:organization", 0.6))
            for q in range(m, i + 1):
                used[q] = True

    @staticmethod
    def _sport_for(toks: list[_Tok], i: int, text: str) -> bool:
        """``playing rugby for``, ``plays for``, ``coached netball for``: a team's name follows token i - 1."""
        if i < 2 or toks[i - 1].n != "for":
            return False
        k = i - 2
        if toks[k].n in SPORTS and k >= 1:
            k -= 1
            if toks[k].n in SPORTS and k >= 1:  # "plays ice hockey for"
                k -= 1
        elif toks[k].n not in ("play", "plays", "played", "playing"):
            return False
        return toks[k].n in _PLAY_WORDS and not any(c in text[toks[k].end:toks[i].start] for c in "\n.;:!?(,")

    def _brands(self, toks, text, mode, out, used) -> None:
        """Hospitals named by brand after a care word (``saw the surgeon at the spire``) -> HOSPITAL; a fuel
        brand before ``station``/``garage`` (``by the shell station``) -> ORGANIZATION. English, any case."""
        if self.lang != "en":
            return
        n = len(toks)
        for i in range(1, n):
            t = toks[i]
            if used[i] or (t.n not in FUEL_BRANDS and t.n not in _BRAND_FIRST):
                continue
            if t.n in FUEL_BRANDS and i + 1 < n and toks[i + 1].n in _FUEL_HEADS \
                    and text[t.end:toks[i + 1].start] == " " and toks[i - 1].n in ("the", "a", "at", "by", "from") \
                    and not t.text.isupper() and (mode != "mixed" or t.text[:1].isupper() or t.text.islower()):
                out.append(Span(t.start, t.end, "ORGANIZATION", "lexicon:organization", 0.6))
                used[i] = True
                continue
            for k in (3, 2, 1):
                if i + k > n or tuple(x.n for x in toks[i:i + k]) not in HOSPITAL_BRANDS \
                        or any(used[q] for q in range(i, i + k)):
                    continue
                if toks[i - 1].n not in ("the", "at", "to", "from") or (mode == "mixed" and not t.text[:1].isupper()) \
                        or t.text.isupper() and len(t.text) > 3 and mode == "mixed":
                    break
                b = i - 1 if toks[i - 1].n != "the" or i < 2 else i - 2
                if toks[b].n not in ("at", "to", "from", "the") and toks[b].n not in _LOWER_VENUE_CUES:
                    break
                lo = max(0, b - 6)
                # a brand no dictionary or name list knows needs no care word ("records from northwell")
                unknown = all(x.n not in self.words and x.n not in self.first and x.n not in self.surname
                              for x in toks[i:i + k]) and (k > 1 or len(t.n) >= 5)
                # "went to Holy Cross with fever": a two-word faith or charity name, capitalised (or in a note
                # written in capitals) after to / from / at
                named = tuple(x.n for x in toks[i:i + k]) in _NAMED_BRANDS and toks[b].n in ("at", "to", "from") and (
                    mode == "upper" or all(x.text[:1].isupper() for x in toks[i:i + k]))
                if not unknown and not named and not any((toks[q].n in _LOWER_VENUE_CUES or toks[q].n in _BRAND_CUES) for q in range(lo, b + 1)
                           if "\n" not in text[toks[q].end:t.start]
                           and not any(c in text[toks[q].end:t.start] for c in ".;!?")):
                    break
                if i + k < n and text[toks[i + k - 1].end:toks[i + k].start] == " " \
                        and toks[i + k].n in ("of", "on", "tower", "spire", "roof", "cathedral", "church"):
                    break  # "the spire of the church"
                out.append(Span(t.start, toks[i + k - 1].end, "HOSPITAL", "lexicon:facility", 0.55))
                for q in range(i, i + k):
                    used[q] = True
                break

    def _hospital_units(self, toks, text, mode, out, used) -> None:
        """Mixed case: a capitalised name between ``the`` and lower-case unit words is the hospital
        (``discharged from the Riverside stroke unit``, ``on the Calderwood surgical ward``) -> HOSPITAL."""
        if self.lang != "en" or mode != "mixed":
            return
        from .protected import SERVICE_WORDS

        n = len(toks)
        for i in range(1, n - 1):
            t = toks[i]
            if used[i] or toks[i - 1].n != "the" or not t.text[:1].isupper() or t.text.isupper() \
                    or not t.text.isalpha() or len(t.n) < 4 or text[toks[i - 1].end:t.start] != " ":
                continue
            if t.n in SERVICE_WORDS or t.n in self.medical or t.n in _GENERIC_PRACTICE_WORDS or t.n in STOP \
                    or t.n in DISCOURSE_WORDS or t.n in self._titles or t.n in _NOT_BRANCH:
                continue
            j = i + 1
            ok = False
            while j < n and j - i <= 4 and text[toks[j - 1].end:toks[j].start] == " ":
                x = toks[j]
                if x.n in _UNIT_HEADS and (x.text.islower() or x.text.isupper() and len(x.text) <= 4):
                    ok = j > i + 1 or x.text.islower()
                    break
                if not x.text.islower() or x.n in STOP:
                    break
                j += 1
            if not ok:
                continue
            out.append(Span(t.start, t.end, "HOSPITAL", "pattern:hospital_unit", 0.6))
            used[i] = True

    def _letterheads(self, toks, text, mode, out, used) -> None:
        """Mixed case: a practice named on a line of its own: a letterhead (the first line, an address
        with a house number below: ``Summit Orthopedics & Spine`` / ``1800 Ridgeline Blvd``) or a message's
        signature after a dash (``... Reply C to confirm. - Harbour Family Dental``). The line holds 2-6
        capitalised words joined by spaces, ``&``, ``and`` or ``of``, one a clinic word (``FACILITY_SUFFIXES``)
        after at least one that is no service word -> HOSPITAL."""
        if self.lang != "en" or mode != "mixed":
            return
        from .protected import SERVICE_WORDS

        lines = [(m.start(), m.end()) for m in regex.finditer(r"[^\n]+", text)]
        if not lines:
            return
        cands = []
        first_s, first_e = lines[0]
        second = text[lines[1][0]:lines[1][1]] if len(lines) > 1 else ""
        if (regex.match(r"[ \t]*\d{1,5}[A-Za-z]?[ \t]+\p{Lu}\p{Ll}+", second)
                and not regex.match(r"[ \t]*\d{1,5}[ \t]+(?:years?|months?|weeks?|days?)\b", second)) \
                or regex.match(r"[ \t]*(?:Suite|Unit|Floor|Tel|Telephone|Phone|Ph|T)\.?[ \t]*[:#]?[ \t]*\(?\d", second):
            cands.append((first_s + len(text[first_s:first_e]) - len(text[first_s:first_e].lstrip()), first_e))
        last_s, last_e = lines[-1]
        if len(lines) > 1 and regex.fullmatch(r"[ \t]*(?:(?:kind|best|warm|with[ \t]+best)[ \t]+(?:regards|wishes)|regards|"
                                              r"thanks|thank[ \t]+you|many[ \t]+thanks|sincerely|yours[ \t]+sincerely|"
                                              r"yours[ \t]+faithfully|best)[ \t]*,?[ \t]*",
                                              text[lines[-2][0]:lines[-2][1]], flags=regex.I):
            cands.append((last_s + len(text[last_s:last_e]) - len(text[last_s:last_e].lstrip()), last_e))
        sig = regex.search(r"(?:^|(?<=[.!?)][ \t]{1,3}))[-–—]{1,2}[ \t]*(?=\p{Lu})([^\n]+?)[ \t.]*$", text[last_s:last_e])
        if sig:
            cands.append((last_s + sig.start(1), last_s + sig.end(1)))
        for s0, e0 in cands:
            ids = [q for q, t in enumerate(toks) if s0 <= t.start and t.end <= e0]
            if not 2 <= len(ids) <= 6 or any(used[q] for q in ids):
                continue
            seg = text[s0:e0].rstrip(" \t.")
            if regex.search(r"[^\p{L}\s&'’-]", seg):
                continue  # digits, commas, colons: not a bare name line
            ws = [toks[q] for q in ids]
            if any(w.n not in ("&", "and", "of") and not (w.text[:1].isupper() and not w.text.isupper()
                                                           or w.text.isupper() and len(w.text) <= 3) for w in ws):
                continue
            if any(w.n in self._titles or w.n in DISCOURSE_WORDS for w in ws):
                continue
            heads = [q for q, w in enumerate(ws) if w.n in FACILITY_SUFFIXES and q > 0]
            if not heads or not any(w.n not in SERVICE_WORDS and w.n not in FACILITY_SUFFIXES and w.n not in STOP
                                    and w.n not in _GENERIC_PRACTICE_WORDS and w.n not in self.medical
                                    for w in ws[:heads[0]]):
                continue
            if any(w.n in self.first or w.n in self.surname for w in ws) and \
                    all(w.n not in FACILITY_SUFFIXES for w in ws[-2:]):
                continue
            out.append(Span(ws[0].start, ws[-1].end, "HOSPITAL", "lexicon:facility", 0.6))
            for q in ids:
                used[q] = True

    def _answered_venues(self, text: str, out: list, used: list[bool], toks: list[_Tok]) -> None:
        """A transcript turn that answers "which nursery/pharmacy/school ...?" or "where do you work?":
        its first words name the place (``P: Little Otters on Fern Hill Road.``, ``patient boots in the town
        centre``) -> ORGANIZATION (HOSPITAL for a practice, clinic or care home)."""
        low = text.lower()
        if self.lang != "en" or not ("which" in low or "what" in low or "where d" in low or "do" in low
                                     or "is " in low or "are " in low):
            return
        for q in _VENUE_QUESTION.finditer(text):
            line_end = text.find("\n", q.end())
            if line_end < 0:
                return
            nxt_end = text.find("\n", line_end + 1)
            nxt_end = len(text) if nxt_end < 0 else nxt_end
            a = _ANSWER_START.match(text, line_end + 1, nxt_end)
            if not a:
                continue
            words = list(_ANSWER_WORD.finditer(text, a.end(), nxt_end))
            run = []
            for w in words:
                if run and text[run[-1].end():w.start()] not in (" ", "-", " & ", "'s ", "’s "):
                    break
                n = norm(w.group())
                if n in _ANSWER_STOP or (not run and n in STOP):
                    break
                run.append(w)
                if len(run) == 4:
                    break
            if not run or all(norm(w.group()) in self.medical for w in run) or all(
                    norm(w.group()) in DISCOURSE_WORDS or norm(w.group()) in STOP for w in run):
                continue  # "Well, you see, I am a civil engineer": no venue named
            if q.group("yn") and not (_ANSWER_STREET_AFTER.match(text, run[-1].end())
                                      or any(norm(w.group()) not in self.words for w in run)):
                continue  # "does she go to nursery? yes most days": no name
            start, end = run[0].start(), run[-1].end()
            if any(used[k] for k, t in enumerate(toks) if t.start < end and start < t.end):
                continue
            label = "HOSPITAL" if q.group("kind").lower() in _CARE_VENUE_WORDS else "ORGANIZATION"
            out.append(Span(start, end, label, "lexicon:organization" if label == "ORGANIZATION" else "lexicon:facility",
                            0.55))
            for k, t in enumerate(toks):
                if t.start < end and start < t.end:
                    used[k] = True

    def _unknown_lower(self, t: _Tok) -> bool:
        """A lower-case word no dictionary or medical list knows and that is no misspelt word."""
        return (t.text.isalpha() and t.text.islower() and len(t.n) >= 4 and t.n not in self.words
                and t.n not in STOP and t.n not in self.medical and not self._near_word(t.n)
                and not self._near_medical(t.n))

    def _drive_for(self, toks: list[_Tok], i: int, text: str) -> bool:
        """``drive the van for``, ``drives a minicab for``, ``drove a truck for``: a driving job,
        the employer after ``for`` (token i), on one line."""
        if i < 4 or toks[i - 1].n != "for":
            return False
        for q in range(i - 3, max(-1, i - 6), -1):
            if toks[q].n in ("a", "an", "the") and q >= 1 and toks[q - 1].n in _DRIVE_VERBS:
                piece = text[toks[q - 1].start:toks[i].start]
                return "\n" not in piece and not any(c in piece for c in ".;:!?(,")
        return False

    def _job_at(self, toks: list[_Tok], i: int, text: str) -> bool:
        """``a loan officer at``, ``works as a barista at``: a listed occupation after an article,
        then at/for/with, right before token i on one line."""
        if i >= 3 and toks[i - 1].n == "the" and toks[i - 2].n in ("at", "for", "with") \
                and toks[i - 3].n in self.job_heads and toks[i].text[:1].isupper() and not toks[i].text.isupper() \
                and "\n" not in text[toks[i - 3].start:toks[i].start]:
            return True  # "paramedic with the Ottawa Paramedic Service"
        if i < 3 or not _job_prep(toks, i - 1, text) or toks[i - 2].n not in self.job_heads:
            return False
        if toks[i].text[:1].isupper() and not toks[i].text.isupper() and toks[i - 1].n in ("with", "w") \
                and "\n" not in text[toks[i - 2].start:toks[i].start]:
            return True  # "electrician with Cape Lambert Minerals": a capitalised employer after the job
        for q in range(i - 3, max(-1, i - 7), -1):
            if toks[q].n in ("a", "an", "as"):
                return "\n" not in text[toks[q].end:toks[i].start] and \
                    not any(c in text[toks[q].end:toks[i].start] for c in ".;:!?(")
        # a reply that is only the job: "partner: bus driver with first glasgow", "[patient] welder at ..."
        ls = max(text.rfind("\n", 0, toks[i - 2].start), text.rfind(":", 0, toks[i - 2].start),
                 text.rfind("]", 0, toks[i - 2].start))
        head = text[ls + 1:toks[i - 1].start]
        return ls >= 0 and 1 <= len(head.split()) <= 3 and not any(c in head for c in ".;!?(,")

    def _lower_employer_run(self, toks: list[_Tok], text: str, used: list[bool], i: int) -> int:
        """Lower-case text, right after ``<occupation> at/for``: the end of 1-3 plain words that name the
        employer even when they are everyday words (``claims handler at admiral in town``, ``bus driver for
        first glasgow``), up to a clause word; else i - 1. Generic places (``the hospital``, ``a factory``),
        times (``for years``) and pronouns name nobody."""
        n = len(toks)
        j = i
        while j < n and j - i < 4 and not used[j] and regex.sub(r"['’]s$", "", toks[j].text).isalpha() \
                and toks[j].text.islower() and toks[j].n not in _EMPLOYER_RUN_STOP and toks[j].n not in _NUMBER_WORDS \
                and (j == i or text[toks[j - 1].end:toks[j].start] == " "):
            j += 1
        j -= 1
        if j < i or toks[i].n in _NOT_EMPLOYER_START or toks[i - 2].n in _NOT_JOB_HEADS or all(
                t.n in _GENERIC_WORKPLACES or t.n in STOP or t.n in DISCOURSE_WORDS or t.n in _NUMBER_WORDS
                for t in toks[i:j + 1]):
            return i - 1
        return j

    def _suffix_run(self, toks: list[_Tok], text: str, used: list[bool], i: int) -> int:
        """Lower-case text: the end of a name of 1-4 plain words from token i whose last word is a
        business or school word (``first harvest credit union``), else i - 1."""
        n = len(toks)
        best = i - 1
        j = i
        while j < n and j - i < 4 and not used[j] and toks[j].text.isalpha() and toks[j].text.islower() \
                and toks[j].n not in STOP and toks[j].n not in DISCOURSE_WORDS \
                and (j == i or text[toks[j - 1].end:toks[j].start] == " "):
            if toks[j].n in LOWER_ORG_SUFFIXES and j > i and toks[i].n not in _NOT_ORG_START:
                best = j  # not "drives for two cabs", "black cabs": a count or a colour, no name
            j += 1
        if best < i:
            best = self._proper_run(toks, text, "lower", used, i)
        return best

    def _cued_places(self, toks, text, mode, out, used) -> None:
        """Towns no lexicon lists after strong cues (``grew up in Kunming``, ``mines outside
        Rustenburg``) and before ``, <country or state>`` (``Durban, South Africa``) -> CITY;
        capitalised ``-shire`` words mid-sentence (``Leicestershire``) -> STATE."""
        if self.lang != "en" or mode not in ("mixed", "lower"):
            return
        n = len(toks)
        if mode == "mixed":
            for i in range(1, n):
                t = toks[i]
                if not used[i] and len(t.n) >= 7 and t.n.endswith("shire") and t.text[:1].isupper() \
                        and t.text[1:].islower() and t.n not in self.words:
                    out.append(Span(t.start, t.end, "STATE", "lexicon:state", 0.6))
                    used[i] = True
        for i in range(1, n):
            t = toks[i]
            if used[i]:
                continue
            ok = (t.text[:1].isupper() and not t.text.isupper()) if mode == "mixed" else True
            if not ok or t.n in self.words or t.n in STOP or t.n in self.medical or len(t.n) < 3 \
                    or not t.text.replace("-", "").isalpha() or t.n in self.first:
                continue
            cue = self._cue_ends_at(toks, i, text, STRONG_PLACE_CUES if mode == "mixed" else LOWER_PLACE_CUES)
            after = False
            if not cue and i + 1 < n and text[t.end:toks[i + 1].start] in (", ", ","):
                for k in range(min(3, n - i - 1), 0, -1):
                    key = tuple(x.n for x in toks[i + 1:i + 1 + k])
                    if self.places.get(key) in ("COUNTRY", "STATE") and (
                            mode != "mixed" or toks[i + 1].text[:1].isupper()):
                        after = True
                        break
            if not (cue or after):
                continue
            if i + 1 < n and text[t.end:toks[i + 1].start] == " " and toks[i + 1].text[:1].isupper() \
                    and (toks[i + 1].n in self.medical or toks[i + 1].n in FACILITY_SUFFIXES):
                continue  # "returned from Interventional Radiology": a service, not a town
            if mode == "lower" and not cue:
                continue
            out.append(Span(t.start, t.end, "CITY", "lexicon:city", 0.6))
            used[i] = True

    @staticmethod
    def _sentence_start(toks: list[_Tok], i: int, text: str) -> bool:
        if i == 0:
            return True
        gap = text[toks[i - 1].end:toks[i].start]
        return "\n" in gap or any(c in gap for c in ".!?:")

    def _facility_word(self, toks: list[_Tok], j: int, mode: str, text: str) -> bool:
        """Token j can be part of a facility name before its head: a name-like word, a
        word hospitals are named with (``Holy Cross``, ``Union Memorial``, ``General``),
        or the ``of`` of ``University of Maryland``."""
        t, nxt = toks[j], toks[j + 1]
        if self._name_like(t, mode, text, nxt):
            return True
        gap = text[t.end:nxt.start]
        if "\n" in gap or len(gap) > 3 or any(c in gap for c in ",;:()/."):
            return False
        if mode == "mixed" and not (t.text[:1].isupper() or t.n == "of"):
            return False
        if t.n in FACILITY_NAME_WORDS:
            return True
        return t.n == "of" and j > 0 and toks[j - 1].n in ("university", "univ", "u", "college")

    def _name_like(self, t: _Tok, mode: str, text: str, nxt: _Tok) -> bool:
        left = nxt if t.start > nxt.start else t
        gap = text[min(t.end, nxt.end):max(t.start, nxt.start)] if t.start > nxt.start else text[t.end:nxt.start]
        if "\n" in gap or len(gap) > 3 or any(c in gap for c in ",;:()/"):
            return False
        if "." in gap and not (len(left.text) <= 2 or left.n in ("st", "mt", "ft", "sta")):
            return False
        if t.n in STOP or t.n in self.medical:
            return False
        if mode == "mixed":
            return t.text[:1].isupper()
        return t.n not in self.common and len(t.n) >= 2

    def _places(self, toks, text, mode, out, used) -> None:
        n = len(toks)
        i = 0
        while i < n:
            hit = None
            maxk = self.place_first.get(toks[i].n)
            if maxk is None:
                i += 1
                continue
            for k in range(min(maxk, n - i), 0, -1):
                if any(used[i:i + k]):
                    continue
                key = tuple(t.n for t in toks[i:i + k])
                lab = self.places.get(key)
                if lab is None:
                    continue
                if k > 1 and "\n" in text[toks[i].start:toks[i + k - 1].end]:
                    continue
                hit = (k, lab)
                break
            if hit is None:
                i += 1
                continue
            k, lab = hit
            first = toks[i]
            if mode != "mixed" and k > 1 and i > 0 and toks[i - 1].n in _DETERMINERS \
                    and all(t.n in self.words for t in toks[i:i + k]):
                i += 1  # "over our cut off of one forty": everyday words after a determiner, not Cut Off (LA)
                continue
            if mode != "mixed" and k > 1 and lab == "CITY" and all(t.n in self.words for t in toks[i:i + k]) and not (
                    i > 0 and (toks[i - 1].n in _PLACE_PREPOSITIONS or any(
                        tuple(t.n for t in toks[max(0, i - len(ph)):i]) == ph
                        for ph in _PLACE_CUE_LAST.get(toks[i - 1].n, ())))) and not (
                    i + k < n and toks[i + k].n in _ORG_AFTER_PLACE):
                i += 1  # "in case we get cut off", "sats are ninety six": everyday words need a place cue
                continue
            if mode != "mixed" and all(t.n in _NUMBER_WORDS for t in toks[i:i + k]) and not (
                    i + k < n and (self.places.get((toks[i + k].n,)) == "STATE" or toks[i + k].n in ("sc", "south"))):
                i += 1  # "sats at ninety six percent": a number said aloud, not Ninety Six (SC)
                continue
            ok = all(self._cap(t, mode) or t.n in STOP for t in toks[i:i + k])
            single = k == 1
            place_cue = i > 0 and any(
                tuple(t.n for t in toks[max(0, i - len(ph)):i]) == ph for ph in _PLACE_CUE_LAST.get(toks[i - 1].n, ()))
            # "28036 Madrid", "Madrid, España", "Vigo (Pontevedra)": address context
            addr = bool(_ZIP_BEFORE.search(text, max(0, first.start - 10), first.start)) or bool(
                _PLACE_AFTER.match(text, toks[i + k - 1].end))
            # "lives in denver", "moved to austin": a two-word cue is strong evidence for a place
            strong_cue = i > 1 and any(len(ph) >= 2 and tuple(t.n for t in toks[max(0, i - len(ph)):i]) == ph
                                       for ph in _PLACE_CUE_LAST.get(toks[i - 1].n, ()))
            place_cue = place_cue or addr
            rank = self.place_rank.get(tuple(t.n for t in toks[i:i + k]), 10**7)
            if lab == "CITY" and rank >= WORLD_TOWN_RANK and all(t.n in self.words or t.n in STOP for t in toks[i:i + k]):
                i += 1  # "sats in the 91-92% range": a world town spelled with everyday words (The Range) is left out
                continue
            if lab == "CITY" and rank >= WORLD_TOWN_RANK and single and (not place_cue or (
                    mode == "mixed" and i + 1 < n and text[first.end:toks[i + 1].start] == " "
                    and toks[i + 1].text[:1].isupper() and toks[i + 1].n not in STOP)):
                i += 1  # a town of the UK, Ireland, Australia ...: only after a place cue or before its region, and
                continue  # not as the first word of a longer name ("at Brightwater Behavioral Health")
            # a city that is also a common name needs a cue, unless it is a large city
            name_clash = lab == "CITY" and (first.n in self.first or first.n in self.surname or (
                rank >= WORLD_TOWN_RANK and first.n in self.first_world)) and not (
                addr or (rank < 300 and mode == "mixed") or (strong_cue and rank < 1000))
            # a big city after a strong cue, even when the word is also a name or an eponym (Denver shunt)
            big_after_cue = lab == "CITY" and strong_cue and rank < 1000 and first.n not in self.common
            # "grew up in Kunming, China", "served in Turkey": a capitalised country after a cue
            comma_after_town = i > 0 and text[toks[i - 1].end:first.start] in (", ", ",") and \
                toks[i - 1].text[:1].isupper() and not toks[i - 1].text.isupper()
            big_after_cue = big_after_cue or (lab == "COUNTRY" and mode == "mixed" and (place_cue or comma_after_town)
                                              and first.text[:1].isupper() and first.n not in self.medical)
            # session 18: "lives in mobile, drove up": an everyday word that is a big town, closed by punctuation
            big_after_cue = big_after_cue or (lab == "CITY" and single and strong_cue and rank < 1000
                                              and _S18B_CLOSED_AFTER.match(text, first.end) is not None)
            # session 18: "sure we all went over to england": a country in lower-case speech after a place word
            big_after_cue = big_after_cue or (lab == "COUNTRY" and single and mode == "lower" and place_cue
                                              and first.n not in _S18B_COUNTRY_WORDS)
            blocked = single and ((self._is_blocked(first.n) and not big_after_cue) or name_clash)
            if single and len(first.n) < 4:
                blocked = True
            cue = self._cue_before(toks, i, text, mode)
            conf = 0.0
            if ok and not blocked and (place_cue or k > 1 or mode == "mixed" or lab != "CITY"):
                conf = 0.75 if (place_cue or k > 1) else 0.6
            elif ok and single and place_cue and not self._is_blocked(first.n) and len(first.n) >= 4 and (
                    mode == "mixed" or lab != "CITY" or (strong_cue and rank < 1000)):
                conf = 0.5
            if conf and cue not in ("DOCTOR", "PATIENT", "RELATIVE"):
                out.append(Span(first.start, toks[i + k - 1].end, lab, f"lexicon:{lab.lower()}", conf))
                for q in range(i, i + k):
                    used[q] = True
            i += k

    def _cued(self, toks, text, mode, out, used) -> None:
        """Lone names after strong cues, known to the name lists or not: ``call me Dottie``,
        ``technician Declan``, ``Pt Yusuf``, ``husband Per``, ``Thank you, Noor.``, ``the nurse ayaan``.

        In mixed-case text the token must be capitalised (and, after a role, ``Pt`` or a vocative,
        not an English word unless a first name); in lower-case text it must not be an English
        word. ALL-CAPS text is left to ``_names`` (no case signal; nursing notes are full of
        ``NURSE AWARE``)."""
        if mode not in ("mixed", "lower") or self.lang != "en":
            return
        n = len(toks)
        # every cue below is the token before the name (or ends with it): other tokens are passed over
        # at once. A new cue branch must add its words here.
        cue_words = set(_VOCATIVE_LAST) | RELATIVE_CUES | ROLE_CUES | PATIENT_CUES | {
            "there", "here", "today", "tonight", "baby", "mr", "mrs", "ms", "miss", "mister", "called", "named"}
        for i in range(1, n):
            if used[i] or toks[i - 1].n not in cue_words:
                continue
            t = toks[i]
            p = toks[i - 1]
            gap = text[p.end:t.start]
            if "\n" in gap or len(gap) > 3:
                continue
            kind = None
            cue_ph: tuple[str, ...] = ()
            if gap.strip() in ("", ","):
                for ph in _VOCATIVE_LAST.get(p.n, ()):
                    k = len(ph)
                    if i - k >= 0 and tuple(x.n for x in toks[i - k:i]) == ph and not any(used[i - k:i]):
                        kind = "NICK" if ph in NICK_CUES else "VOCATIVE"
                        cue_ph = ph
                        break
            if kind is None and gap.strip() in ("", ",") and not used[i - 1]:
                if p.n in RELATIVE_CUES and p.n not in EN_ONLY_CUES - {"son", "sons", "mom", "dad"}:
                    kind = "RELATIVE"
                elif p.n in ROLE_CUES and gap.strip() == "":
                    kind = "ROLE"
                elif p.n in ROLE_CUES and gap.strip() == "," and i >= 2 \
                        and toks[i - 2].n in ("the", "my", "our", "your", "his", "her", "their") \
                        and text[toks[i - 2].end:p.start] == " " and text[t.end:t.end + 1] == ",":
                    kind = "ROLE"  # "the physio, Dawn, said": a name in commas after a role
                elif p.n in ("there", "here", "today", "tonight") and i >= 2 and toks[i - 2].n in ROLE_CUES \
                        and gap == " " and text[toks[i - 2].end:p.start] == " ":
                    kind = "ROLE"  # "the nurse there tamsin called me"
                elif p.n in PATIENT_CUES and gap.strip() == "" and mode == "mixed":
                    kind = "PATIENT"
                elif p.n in PATIENT_CUES and gap == " " and mode == "lower" and t.n in self.first \
                        and t.n not in self.medical and t.n not in STOP and t.n not in DISCOURSE_WORDS and i + 1 < n \
                        and toks[i + 1].n not in RELATIVE_CUES and toks[i + 1].n not in ROLE_CUES \
                        and text[t.end:toks[i + 1].start] == " " and toks[i + 1].n not in self.words \
                        and len(toks[i + 1].n) >= 4 and toks[i + 1].text.isalpha() \
                        and toks[i + 1].n not in self.medical and not self._near_medical(toks[i + 1].n):
                    # "pt hope bakare missed her infusion": a first name and an unknown word after "pt"
                    out.append(Span(t.start, toks[i + 1].end, "PATIENT", "lexicon:name", 0.7))
                    used[i] = used[i + 1] = True
                    continue
                elif (p.n in PATIENT_CUES or p.n == "baby") and gap == " " and mode == "lower" \
                        and (t.n in self.surname or t.n in self.first) and t.text.isalpha() and t.text.islower() \
                        and len(t.n) >= 3 and t.n not in self.words and t.n not in self.medical and t.n not in STOP \
                        and not self._near_medical(t.n):
                    kind = "PATIENT"  # "labs for baby okafor", "pt nakamura k 5.9": a listed name no dictionary knows
                elif p.n in ("mr", "mrs", "ms", "miss", "mister") and gap == " " and mode == "lower" \
                        and t.n in self.words and (self.surname.get(t.n, 10 ** 6) < 2000
                                                   or self.first.get(t.n, 10 ** 6) < 1000) \
                        and not (p.n in ("mr", "ms") and _MR_MS_ABBREVIATION.search(text, max(0, p.start - 14), p.start)):
                    kind = "TITLE"  # lower-case "mrs hope", "mr white": a surname that is also a word after a title
                elif p.n in ("called", "named") and gap == " " and mode == "lower" and i >= 2:
                    # "my son called mark", "a nurse named precious": the relation or role word names the person
                    for q in range(i - 2, max(-1, i - 5), -1):
                        if "\n" in text[toks[q].end:toks[q + 1].start]:
                            break
                        if toks[q].n in RELATIVE_CUES or toks[q].n in ROLE_CUES:
                            kind = "NAMED_RELATIVE" if toks[q].n in RELATIVE_CUES else "NAMED_ROLE"
                            break
            if kind is None or kind == "NICK" and gap.strip() == ",":
                continue
            via_word = False  # a name that is also a word, taken on its cue alone
            title_case = mode == "mixed" and t.text[:1].isupper() and t.text[1:].islower()
            if self._cued_token(t, mode, kind):
                # "Hi Grace,", "This is Hope, she ...": a capitalised word-name after a greeting or an
                # introduction; pattern-grade, or the protected-terms filter drops it as a dictionary word
                via_word = title_case and t.n in self.words and (
                    (kind in ("VOCATIVE", "NICK") and self._addressed_word_name(toks, i, text, cue_ph))
                    or (kind in ("ROLE", "RELATIVE") and self._word_name(t, medical_ok=True)
                        and self._word_name_next_ok(toks, i, text)))
            else:
                via_word = (kind in ("RELATIVE", "ROLE") and (mode == "lower" or title_case)
                            and self._possessed_word_name(toks, i, text)) \
                    or (kind in ("VOCATIVE", "NICK") and (mode == "lower" or title_case)
                        and self._addressed_word_name(toks, i, text, cue_ph)) \
                    or (kind in ("NAMED_RELATIVE", "NAMED_ROLE") and self._word_name(t, medical_ok=True)
                        and self._word_name_next_ok(toks, i, text)) \
                    or (kind == "TITLE" and t.text.isalpha() and len(t.n) >= 3
                        and t.n not in STOP and t.n not in DISCOURSE_WORDS and t.n not in _NOT_WORD_NAMES
                        and t.n not in AFTER_DOCTOR and t.n not in NOT_AFTER_TITLE
                        and (i + 1 >= n or "\n" in text[t.end:toks[i + 1].start]
                             or toks[i + 1].n not in _TITLE_NAME_BAD_NEXT))
                if not via_word:
                    continue
            if kind == "VOCATIVE" and not regex.match(r"[ \t]*(?:[.!?,;]|$|\n)", text[t.end:t.end + 3]) and not (
                    mode == "lower" and self._addressed_word_name(toks, i, text, cue_ph, word=False)):
                continue  # "thanks Noor." ends the turn; "thanks Rose for ..." need not
            j = i
            if i + 1 < n and text[t.end:toks[i + 1].start] == " " and kind != "VOCATIVE":
                nx = toks[i + 1]
                bare = [s for s in out if (s.start, s.end) == (nx.start, nx.end) and s.label == "PATIENT"
                        and s.confidence <= 0.6]  # a bare surname hit: it joins this name
                if (not used[i + 1] or bare) and self._cued_token(nx, mode, "ROLE") and (
                        nx.n in self.surname or nx.n not in self.words):
                    j = i + 1  # "technician Declan Moore"
                    for s in bare:
                        out.remove(s)
            label = {"ROLE": "DOCTOR", "RELATIVE": "RELATIVE", "NAMED_ROLE": "DOCTOR",
                     "NAMED_RELATIVE": "RELATIVE"}.get(kind, "PATIENT")
            # a word taken on its cue alone ("my dad frank", "hi poppy"): the cue is pattern-grade evidence, so
            # the span ranks as a pattern (it outranks the tagger's bare guess and the protected-terms filter,
            # which would drop "frank" as a medical term or "poppy" as a dictionary word, keeps it)
            out.append(Span(t.start, toks[j].end, label, "pattern:cued_name" if via_word and j == i else "lexicon:name",
                            0.7))
            for q in range(i, j + 1):
                used[q] = True

        # "after bill my husband passed", "put down hannelore, my sister": a name in apposition
        # to a possessive relation word
        if self.lang == "en":
            for i in range(0, n - 2):
                t = toks[i]
                if used[i]:
                    continue
                g1, g2 = text[t.end:toks[i + 1].start], text[toks[i + 1].end:toks[i + 2].start]
                if toks[i + 1].n not in ("my", "her", "his", "our", "their") or g1.strip() not in ("", ",") \
                        or "\n" in g1 or g2 != " " or toks[i + 2].n not in RELATIVE_CUES \
                        or toks[i + 2].n in EN_ONLY_CUES - {"son", "mom", "dad"}:
                    continue
                tn = t.n
                if len(tn) < 3 or not t.text.isalpha() or tn in STOP or tn in DISCOURSE_WORDS or tn in self.medical \
                        or tn in RELATIVE_CUES or tn in NOT_AFTER_TITLE or tn in AFTER_RELATIVE:
                    continue
                if mode == "mixed" and not (t.text[:1].isupper() and not t.text.isupper()) and tn in self.words:
                    continue
                if mode == "upper":
                    continue
                if tn in self.words:  # "bill my husband": a word needs to be a first name after a linking word
                    if tn not in self.first or i == 0 or toks[i - 1].n not in _APPOSITION_BEFORE \
                            or "\n" in text[toks[i - 1].end:t.start]:
                        continue
                out.append(Span(t.start, t.end, "RELATIVE", "lexicon:name", 0.65))
                used[i] = True

        # "the kids are tom, lily and ahmed": in a list of single words joined by commas and a final
        # "and", where two members are already names, the other members that are first names are too
        if self.lang == "en" and mode in ("mixed", "lower"):
            self._name_lists(toks, text, mode, out, used)
        if self.lang == "en" and mode == "lower":
            self._name_answers(toks, text, out, used)

        # "the Osei family", "for Lindqvist household": a surname before a family word
        covered = {(s.start, s.end) for s in out}
        for i in range(1, n - 1):
            t = toks[i]
            if toks[i + 1].n not in FAMILY_WORDS or text[t.end:toks[i + 1].start] != " " \
                    or toks[i - 1].n not in _FAMILY_BEFORE or "\n" in text[toks[i - 1].end:t.start]:
                continue
            if used[i] and any(a <= t.start < b for a, b in covered):
                continue
            if not self._cued_token(t, mode, "NICK") or (t.n in self.words and self._sentence_start(toks, i, text)):
                continue
            if mode == "lower" and t.n in self.first and t.n not in self.surname:
                continue
            out.append(Span(t.start, t.end, "PATIENT", "lexicon:name", 0.65))
            used[i] = True

    def _signatures(self, toks, text, mode, out, used) -> None:
        """A letter's or message's signature: in mixed-case English, the line after a valediction
        (``Kind regards,``, ``Yours sincerely,``, ``Many thanks,``; up to two blank lines between) that
        holds only one to four capitalised name words (a title before, credentials after a comma
        allowed) is the writer's name (``Kind regards,\n\nRangi Parata``), when every word is a listed
        name or unknown to the dictionary and none is a role, team or service word (``The Renal Team``,
        ``Practice Manager``); a lone word must be a listed first name or unknown (``Thanks,\nSam``)."""
        if mode != "mixed" or self.lang != "en" or "\n" not in text:
            return
        from .protected import SERVICE_WORDS

        starts = {t.start: k for k, t in enumerate(toks)}
        for m in _SIGNATURE.finditer(text):
            a, b = m.span("name")
            k = starts.get(a)
            if k is None:
                continue
            idx = []
            while k < len(toks) and toks[k].end <= b:
                idx.append(k)
                k += 1
            words = [toks[q] for q in idx if len(toks[q].n) > 1]
            if not words or any(used[q] for q in idx):
                continue
            if any(t.n in STOP or t.n in ROLE_CUES or t.n in RELATIVE_CUES or t.n in DISCOURSE_WORDS
                   or t.n in FACILITY_SUFFIXES or t.n in ORG_SUFFIXES or t.n in SERVICE_WORDS or t.n in _SIGNATURE_NOT
                   or t.n in self.medical for t in words):
                continue
            if not all(t.n in self.first or t.n in self.surname or t.n not in self.words for t in words):
                continue
            if len(words) == 1 and not (words[0].n in self.first or words[0].n not in self.words):
                continue
            out.append(Span(toks[idx[0]].start, toks[idx[-1]].end, "DOCTOR", "lexicon:name", 0.75))
            for q in idx:
                used[q] = True

    def _plan_owners(self, toks, text, mode, out, used) -> None:
        """Who does what in a plan: in mixed-case English, a capitalised word opening a sentence, a
        list item or a clause after a semicolon, right before ``to review`` / ``will liaise`` and the
        like (``Bakare to review in 3 months``, ``Wierzbicki to send report``, ``Precious will liaise``)
        is a clinician's name when it is a listed name or unknown to the dictionary, and no role,
        team, service or medical word (``Physio to see``, ``Pharmacy to send``, ``Patient to book``)."""
        if mode != "mixed" or self.lang != "en":
            return
        from .protected import SERVICE_WORDS

        starts = {t.start: k for k, t in enumerate(toks)}
        for m in _PLAN_OWNER.finditer(text):
            k = starts.get(m.start("name"))
            if k is None or used[k]:
                continue
            idx = [k]
            if k + 1 < len(toks) and toks[k + 1].start == m.end("name") - len(toks[k + 1].text) and \
                    toks[k + 1].end == m.end("name"):
                idx.append(k + 1)
            words = [toks[q] for q in idx]
            if any(used[q] for q in idx) or any(
                    t.n in STOP or t.n in ROLE_CUES or t.n in RELATIVE_CUES or t.n in PATIENT_CUES
                    or t.n in DISCOURSE_WORDS or t.n in FACILITY_SUFFIXES or t.n in ORG_SUFFIXES
                    or t.n in SERVICE_WORDS or t.n in _SIGNATURE_NOT or t.n in self.medical
                    or t.n in _PLAN_NOT for t in words):
                continue
            if not all(t.n in self.first or t.n in self.surname or t.n not in self.words for t in words):
                continue
            if len(words) == 1 and words[0].n in self.words and words[0].n not in WORD_FIRST_NAMES_EN:
                continue  # "Will to review" is a word; "Precious will liaise" a listed word-name
            out.append(Span(toks[idx[0]].start, toks[idx[-1]].end, "DOCTOR", "lexicon:name", 0.7))
            for q in idx:
                used[q] = True

    def _speakers(self, toks, text, mode, out, used) -> None:
        """Chat and transcript speakers: a word no dictionary knows that opens two or more lines
        followed by a colon (``Ngozi: bed 7 is asking for you``) names a person."""
        if mode not in ("mixed", "lower") or self.lang != "en":
            return
        seen: dict[str, list[int]] = {}
        for i, t in enumerate(toks):
            if used[i] or text[t.end:t.end + 1] != ":" or text[t.start - 1:t.start] not in ("", "\n") \
                    and text[:t.start].rsplit("\n", 1)[-1].strip():
                continue
            seen.setdefault(t.n, []).append(i)
        def ok(tn: str, t: _Tok) -> bool:
            return not (len(tn) < 3 or tn in self.words or tn in self.medical or tn in STOP or not t.text.isalpha()
                        or (mode == "mixed" and not (t.text[:1].isupper() and not t.text.isupper())))

        good = {tn: idx for tn, idx in seen.items() if ok(tn, toks[idx[0]])}
        if not any(len(idx) >= 2 for idx in good.values()):
            return  # a chat needs a speaker with two turns; then every unknown speaker counts
        for tn, idx in good.items():
            for i in idx:
                out.append(Span(toks[i].start, toks[i].end, "PATIENT", "lexicon:name", 0.7))
                used[i] = True

    def _name_pairs(self, toks, text, out, used) -> None:
        """Lower-case speech: ``alfie and poppy``, ``poppy and alfie``: a word-name (``_word_name``) joined
        by ``and`` to a name already found takes its label; the word-name must pass the object/particle
        guard (``sam and will be``, ``alfie and mark the chart``), and first in the pair it needs a list
        context before it (``are``, ``with``, ``kids``, a relation word)."""
        names = {(s.start, s.end): s for s in out if s.label in ("PATIENT", "DOCTOR", "RELATIVE")}
        by_start = {a: s for (a, b), s in names.items()}
        by_end = {b: s for (a, b), s in names.items()}
        n = len(toks)
        for i in range(n - 2):
            if toks[i + 1].n != "and" or text[toks[i].end:toks[i + 1].start] != " " \
                    or text[toks[i + 1].end:toks[i + 2].start] != " ":
                continue
            left, right = toks[i], toks[i + 2]
            named_left = by_end.get(left.end) if left.start == getattr(by_end.get(left.end), "start", -1) else None
            named_right = by_start.get(right.start) if right.end == getattr(by_start.get(right.start), "end", -1) \
                else None
            if named_left and not used[i + 2] and self._word_name(right) and self._word_name_next_ok(toks, i + 2, text):
                out.append(Span(right.start, right.end, named_left.label, "pattern:cued_name", 0.65))
                used[i + 2] = True
            elif named_right and not used[i] and i > 0 and self._word_name(left) \
                    and "\n" not in text[toks[i - 1].end:left.start] and (
                    toks[i - 1].n in ("are", "were", "with", "both", "called", "named", "kids", "children", "boys",
                                      "girls", "twins", "grandkids") or toks[i - 1].n in RELATIVE_CUES):
                out.append(Span(left.start, left.end, named_right.label, "pattern:cued_name", 0.65))
                used[i] = True

    def _role_after_name(self, toks, text, out, used) -> None:
        """Lower-case speech: ``dawn the physio said``, ``i saw precious the nurse``: a word-name
        (``_word_name``) followed by ``the`` and a role word is the clinician's name, when it opens the
        turn or follows a verb of meeting or a linking word (``i hope the nurse comes`` is a verb)."""
        n = len(toks)
        for i in range(n - 2):
            t = toks[i]
            if used[i] or toks[i + 1].n != "the" or toks[i + 2].n not in ROLE_CUES \
                    or text[t.end:toks[i + 1].start] != " " or text[toks[i + 1].end:toks[i + 2].start] != " ":
                continue
            if i > 0 and "\n" not in text[toks[i - 1].end:t.start] and toks[i - 1].n not in _TURN_OPENERS \
                    and toks[i - 1].n not in _MEETING_BEFORE:
                continue
            if not self._word_name(t):
                continue
            out.append(Span(t.start, t.end, "DOCTOR", "pattern:cued_name", 0.65))
            used[i] = True

    def _name_answers(self, toks, text, out, used) -> None:
        """Lower-case speech: the words answering a name question (``whats your name``, ``can i take your
        name``, ``who am i speaking to``) within the next few words, after a speaker word and fillers
        (``patient yes its``): a first name (listed, or a word-name) or a word no dictionary knows, and
        up to two listed surnames or unknown words after it (``its precious okafor``)."""
        for m in _NAME_QUESTION.finditer(text):
            k = next((q for q, t in enumerate(toks) if t.start >= m.end()), None)
            if k is None:
                continue
            stop = min(len(toks), k + 6)
            while k < stop and (toks[k].n in _ANSWER_FILLERS or toks[k].n in PATIENT_CUES
                                or toks[k].n in _TURN_OPENERS):
                k += 1
            if k >= stop or used[k]:
                continue
            t = toks[k]
            unknown = (t.n not in self.words and t.n not in self.medical and len(t.n) >= 3 and t.text.isalpha()
                       and not self._near_medical(t.n))
            if not (unknown or self._word_name(t) or (t.n in self.first and not self._is_blocked(t.n))):
                continue
            j = k
            while j + 1 < len(toks) and j - k < 2 and not used[j + 1] and text[toks[j].end:toks[j + 1].start] == " ":
                nx = toks[j + 1]
                if nx.n in STOP or nx.n in DISCOURSE_WORDS or nx.n in self.medical or not nx.text.isalpha() or not (
                        (nx.n in self.surname and not self._is_blocked(nx.n)) or (
                        nx.n not in self.words and len(nx.n) >= 3 and not self._near_medical(nx.n))):
                    break
                j += 1
            if j == k and not unknown and not self._word_name_next_ok(toks, k, text):
                continue
            out.append(Span(t.start, toks[j].end, "PATIENT", "pattern:cued_name" if not unknown else "lexicon:name",
                            0.7))
            for q in range(k, j + 1):
                used[q] = True

    def _name_lists(self, toks, text, mode, out, used) -> None:
        """Members of a short list ``A, B and C`` whose other members are names."""
        n = len(toks)
        spans = {(s.start, s.end): s for s in out if s.label in ("PATIENT", "DOCTOR", "RELATIVE")}
        i = 0
        while i < n:
            members = [i]
            j = i
            while j + 1 < n:
                gap = text[toks[j].end:toks[j + 1].start]
                if gap in (", ", ","):
                    members.append(j + 1)
                    j += 1
                elif gap == " " and toks[j + 1].n == "and" and j + 2 < n \
                        and text[toks[j + 1].end:toks[j + 2].start] == " ":
                    members.append(j + 2)
                    j += 2
                    break
                else:
                    break
            ended_with_and = j > i and toks[j - 1].n == "and"
            if len(members) >= 3 and ended_with_and:
                named = [m for m in members if (toks[m].start, toks[m].end) in spans]
                if len(named) >= 2:
                    label = spans[(toks[named[0]].start, toks[named[0]].end)].label
                    for m in members:
                        t = toks[m]
                        if m in named or used[m] or t.n not in self.first or t.n in self.medical \
                                or t.n in STOP or len(t.n) < 3 or not t.text.isalpha() \
                                or (mode == "mixed" and not t.text[:1].isupper()):
                            continue
                        out.append(Span(t.start, t.end, label, "lexicon:name_list", 0.65))
                        used[m] = True
            i = max(j, i + 1)

    def _possessed_word_name(self, toks: list[_Tok], i: int, text: str) -> bool:
        """Lower-case ``my dad frank had one``, ``her husband bill``: after a possessive and a relation
        word, a frequent first name that is also a word is the relative's name (not a modal or a
        function word, and not followed by a verb it would be the subject of: ``my son will be``)."""
        t = toks[i]
        if i < 2 or toks[i - 2].n not in ("my", "his", "her", "your", "our", "their", "the"):
            return False
        # a frequent first name that is also a medical term is a name here too ("my dad frank had one")
        return self._word_name(t, medical_ok=True) and self._word_name_next_ok(toks, i, text)

    def _addressed_word_name(self, toks: list[_Tok], i: int, text: str, cue: tuple[str, ...],
                             word: bool = True) -> bool:
        """Lower-case speech: a given name right after a greeting (``hi poppy and``, ``morning grace how``)
        or an introduction (``this is poppy shes three``), also when it is a word (``word``; then it must
        pass ``_word_name``). Greetings used as time phrases (``this morning``), endearments (``hi love``)
        and words taking an object or particle (``thanks mark it``) are left alone; an introduced name
        must end the line or be followed by a pronoun, a conjunction or a relation (``this is fine`` is not)."""
        t = toks[i]
        if not cue or (word and not self._word_name(t)) or t.n in _NOT_VOCATIVE_NAMES:
            return False
        nxt = toks[i + 1].n if i + 1 < len(toks) and "\n" not in text[t.end:toks[i + 1].start] else ""
        after = text[t.end:t.end + 2].lstrip(" \t")[:1]
        if cue in NICK_CUES:
            if cue not in {("this", "is"), ("name", "is"), ("call", "me"), ("calls", "me"), ("known", "as"),
                           ("goes", "by"), ("go", "by"), ("my", "names"), ("her", "names"), ("his", "names"),
                           ("their", "names"), ("your", "names")}:
                return False
            return nxt == "" or after in (",", ".", "!", "?", ";") or nxt in _INTRODUCED_NEXT
        k = i - len(cue)
        if cue not in PRAISE_CUES and k > 0 and "\n" not in text[toks[k - 1].end:toks[k].start] \
                and not regex.search(r"[.!?:]\s*$", text[toks[k - 1].end:toks[k].start]) \
                and toks[k - 1].n not in _TURN_OPENERS:
            return False  # the greeting opens a turn; "this morning grace came in", "most of night, occ ..."
        return nxt in ("for", "with") or self._word_name_next_ok(toks, i, text)  # "thanks grace for coming"

    def _word_name(self, t: _Tok, medical_ok: bool = False) -> bool:
        """A given name that is also a word (``frank``, ``grace``, ``precious``): a Census first name of
        rank < 1000 or one of WORD_FIRST_NAMES_EN; never a modal, function, discourse or endearment word."""
        tn = t.n
        if len(tn) < 3 or not t.text.isalpha() or tn in _NOT_WORD_NAMES or tn in STOP or tn in DISCOURSE_WORDS \
                or tn in _NOT_VOCATIVE_NAMES or tn in RELATIVE_CUES or tn in ROLE_CUES or tn in AFTER_RELATIVE:
            return False
        if tn in self.medical and not (medical_ok and self.first.get(tn, 10 ** 6) < 1000):
            return False
        return self.first.get(tn, 10 ** 6) < 1000 or tn in WORD_FIRST_NAMES_EN

    @staticmethod
    def _word_name_next_ok(toks: list[_Tok], i: int, text: str) -> bool:
        """The word after a candidate word-name is no object or particle of it as a verb (``drew a``,
        ``mark it``, ``chase up``)."""
        if i + 1 >= len(toks) or "\n" in text[toks[i].end:toks[i + 1].start]:
            return True
        return toks[i + 1].n not in _WORD_NAME_BAD_NEXT

    def _cued_token(self, t: _Tok, mode: str, kind: str) -> bool:
        """Whether token t can be the name a cue of this kind announces."""
        w = t.text
        if len(t.n) < 2 or not regex.fullmatch(r"\p{L}[\p{L}'’-]*", w) or _CONTRACTION.search(w):
            return False
        tn = t.n
        parts = [x for x in regex.split(r"[-]", w) if x]
        if len(parts) > 1 and not all(x[:1].isupper() and norm(x) not in self.words for x in parts):
            return False  # "phoned-family", "A-paced": compounds of words, not double-barrelled names
        if tn in STOP or tn in DISCOURSE_WORDS or tn in NOT_AFTER_TITLE or tn in RELATIVE_CUES or tn in ROLE_CUES \
                or tn in CREDENTIALS or tn in self.medical or tn in AFTER_RELATIVE or tn in AFTER_DOCTOR \
                or tn in STRONG_TITLES:  # "hi mrs hope": the title is no name
            return False
        if tn in self.common and tn not in self.first and tn not in self.surname and mode == "lower":
            return False
        word = tn in self.words
        if mode == "mixed":
            if w.islower() and kind in ("NICK", "VOCATIVE") and self.lang == "en":
                # texted lower-case name in mixed text: "hi its fatou", "thanks ngozi"
                return (tn not in self.words and len(tn) >= 3 and not self._near_medical(tn)
                        and not regex.search(r"(?:ed|ing|ly|tion|ment|ness)$", tn))  # "doccumented"
            if not (w[:1].isupper() and not w.isupper()):
                return False
            return not word or kind in ("NICK", "RELATIVE") or tn in self.first
        return not word and len(tn) >= 3  # lower-case text: only words no dictionary knows

    def _double_barrelled(self, t: _Tok, mode: str) -> bool:
        """``Stord-Painter``, ``SMITH-JONES``: two hyphenated name parts before a credential; each part
        capitalised in mixed-case text, none a stop word or medical term, not both dictionary words
        (``Follow-Up``, ``Post-Op``), and one of them listed as a name or unknown to the dictionary."""
        parts = t.text.split("-")
        if len(parts) != 2 or not all(len(x) >= 3 and x.isalpha() for x in parts) or norm(parts[0]) in (
                "pre", "post", "non", "anti", "sub", "semi", "self", "multi", "over", "under", "inter", "intra", "mid",
                "peri", "trans", "bed", "day", "night", "charge", "step", "ward", "unit", "team"):
            return False
        if mode == "mixed" and not all(x[:1].isupper() and (x[1:].islower() or x.isupper()) for x in parts):
            return False
        ns = [norm(x) for x in parts]
        if any(x in STOP or x in self.medical or x in CREDENTIALS for x in ns) or all(x in self.words for x in ns):
            return False
        return any(x in self.surname or x in self.first or x not in self.words for x in ns)

    def _credentialed(self, toks, text, mode, out, used) -> None:
        """``Karen Ann Yanulis RN``, ``EARL N. RAND, RRT``, ``anita morris rn``: names before a credential."""
        for c in range(1, len(toks)):
            ct = toks[c]
            if ct.n not in CREDENTIALS or used[c]:
                continue
            if mode == "mixed" and not ct.text.isupper() and ct.n not in ("md",):
                continue
            if ct.n in ("pa", "np", "do") and not self._followed_by(toks, c, text, AFTER_DOCTOR):
                continue  # "PA line", "NP" (nasal prongs): need "PA aware", "NP," ...
            j = c - 1
            start = None
            known = False
            while j >= 0 and c - j <= 4 and not used[j]:
                t = toks[j]
                gap = text[t.end:toks[j + 1].start]
                if "\n" in gap or len(gap) > 3 or any(ch in gap for ch in ";:()/"):
                    break
                if "," in gap and j + 1 != c:
                    break
                if len(t.n) == 1 and t.text.isalpha():
                    if not _word_start(text, t.start):
                        break  # "1L", "20G", "90'S": a unit or a plural, not an initial
                    start = j
                    j -= 1
                    continue
                if t.n in STOP or t.n in self.medical or t.n in CREDENTIALS or t.n in ("per", "by", "call", "page") \
                        or t.n in NOT_AFTER_TITLE or (self.lang == "en" and t.n in DISCOURSE_WORDS):
                    break  # "All MD's into talk", "ok RN aware"
                if mode == "mixed" and not t.text[:1].isupper() and not (t.n in self.first or t.n in self.surname):
                    break
                is_name = t.n in self.first or t.n in self.surname or self._double_barrelled(t, mode)
                if self._is_blocked(t.n) and not (is_name and ((mode == "mixed" and t.text[:1].isupper()) or known)):
                    break
                known = known or is_name
                start = j
                j -= 1
            if start is None or not known:
                continue
            lead = start
            while start < c and len(toks[start].n) == 1:
                start += 1
            if start < c and start == lead + 1 and text[toks[lead].end:toks[lead].end + 1] == "." \
                    and toks[lead].text.isalpha() and (mode != "mixed" or toks[lead].text.isupper()) \
                    and text[:toks[lead].start].rstrip(" \t")[-1:] in ("", ".", "\n", "!", "?", ":"):
                start = lead  # "...tomorrow. s. roberto rrt": a leading initial with its period opens the name
            if start >= c:
                continue
            # a name right before a credential is pattern-grade evidence: the span outranks the tagger's pieces
            # ("Marie" + "Munroe") and the protected-terms filter keeps a first name that is also an eponym
            out.append(Span(toks[start].start, toks[c - 1].end, "DOCTOR",
                            "pattern:credentialed" if self.lang == "en" else "lexicon:name", 0.8))
            for q in range(start, c):
                used[q] = True

    def _names(self, toks, text, mode, out, used) -> None:
        n = len(toks)
        i = 0
        while i < n:
            t = toks[i]
            if used[i]:
                i += 1
                continue
            if len(t.n) < 2:
                # "Dr B. Gill", "dr. j smith": a cue, an initial, a name
                if (t.text.isalpha() and i > 0 and i + 1 < n and (toks[i - 1].n in self._titles or (
                        toks[i - 1].n == "per" and t.text.isupper() and text[t.end:t.end + 1] == "."))
                        and len(text[toks[i - 1].end:t.start]) <= 2 and ":" not in text[toks[i - 1].end:t.start]
                        and text[t.end:toks[i + 1].start] in (". ", " ", ".")
                        and (t.text not in ("A", "I", "a", "i") or text[t.end:t.end + 1] == ".")
                        and len(toks[i + 1].n) >= 3 and toks[i + 1].n not in STOP and toks[i + 1].n not in self.medical
                        and (toks[i + 1].n not in self.common or toks[i + 1].n in self.surname)
                        ):
                    label = "DOCTOR" if toks[i - 1].n in DOCTOR_CUES | {"per"} else "PATIENT"
                    out.append(Span(t.start, toks[i + 1].end, label, "lexicon:name", 0.8))
                    used[i] = used[i + 1] = True
                    i += 2
                    continue
                i += 1
                continue
            if self.lang == "en" and t.n in DISCOURSE_WORDS and not (mode == "mixed" and t.text[:1].isupper() and i > 0
                                                and toks[i - 1].n in self._titles
                                                and text[toks[i - 1].end:t.start].startswith(".")) \
                    or (("'" in t.text or "’" in t.text) and _CONTRACTION.search(t.text)):
                i += 1  # "doctor ok", "mother alright", "I'll"; only "Dr. How" may name someone
                continue
            in_first = t.n in self.first and t.n not in RELATIVE_CUES
            in_sur = t.n in self.surname and t.n not in RELATIVE_CUES
            prev_cue = i > 0 and toks[i - 1].n in CUE_LAST
            if not (in_first or in_sur or prev_cue or (i > 0 and len(toks[i - 1].text) == 1)):
                i += 1
                continue
            cue = self._cue_before(toks, i, text, mode) if prev_cue else None
            strong = cue in ("DOCTOR", "PATIENT", "RELATIVE")
            blocked = self._is_blocked(t.n)
            cap = self._cap(t, mode)
            title = i > 0 and toks[i - 1].n in self._titles
            if mode == "mixed" and not cap and not (strong and (title or cue == "RELATIVE")
                                                     and (in_first or in_sur or (title and not blocked))):
                i += 1
                continue
            # extent: this token plus following name-like tokens (initials, surnames)
            j = i
            while j + 1 < n and not used[j + 1] and j - i < 3:
                nx = toks[j + 1]
                gap = text[toks[j].end:nx.start]
                if "\n" in gap or len(gap) > 3 or any(c in gap for c in ",;:()/?!"):
                    break
                if "." in gap and len(toks[j].n) > 1:
                    break  # "Guerra. Correo": a sentence period, not an initial
                if any(c.isdigit() for c in nx.text) or not _word_start(text, nx.start):
                    break  # "An 16F Cude": a size, not part of a name
                if len(nx.text) == 1 and nx.text.isalpha() and nx.text.isupper() and j + 2 < n:
                    j += 1  # middle initial
                    continue
                nxn = nx.n
                if not self._cap(nx, mode) or nxn in STOP:
                    break
                if self._is_blocked(nxn) and not (
                        mode == "mixed" and nxn in self.surname and (in_first or strong) and nxn not in AFTER_DOCTOR):
                    break
                if nxn in self.surname or nxn in self.first or (strong and mode == "mixed"):
                    j += 1
                    continue
                if j == i and (strong or (in_first and not blocked)) and len(nxn) >= 3 and nxn not in STOP \
                        and nxn not in AFTER_DOCTOR and (mode == "mixed" or in_first):
                    j += 1
                    continue
                break
            length = j - i + 1
            label = None
            conf = 0.0
            src = "lexicon:name"
            if strong:
                if (in_first or in_sur) and not blocked:
                    conf = 0.9
                elif not blocked and (title or (mode == "mixed" and cap)) and self._fuzzy_name(t.n):
                    conf = 0.8
                elif not blocked and len(t.n) >= 3 and (mode == "mixed" or title):
                    conf = 0.75
                elif blocked and cap and mode == "mixed" and in_first and t.n not in NOT_AFTER_TITLE and (
                        t.n not in self.medical or (t.text[1:].islower() and cue == "RELATIVE")):
                    conf = 0.75  # "wife, Carol Buckley", "daughter Grace", "Son, Ed,"
                elif blocked and cue == "RELATIVE" and in_first and length >= 2 and t.n not in self.medical \
                        and not self._is_blocked(toks[j].n) and toks[j].n in self.surname:
                    conf = 0.7  # "his wife, carol buckley"
                elif blocked and title and (in_first or in_sur) and len(t.n) >= 3 and t.n not in STOP and (
                        (mode == "mixed" and cap) or text[toks[i - 1].end:t.start].startswith(".")):
                    # "Dr. Brown", "MRS. MAY", "Dr. Foley" (the protected filter weighs eponyms)
                    conf = 0.8 if mode == "mixed" else 0.65
                elif blocked and title and toks[i - 1].n in ("dr", "drs", "doctor", "dra") and in_sur \
                        and t.n not in NOT_AFTER_TITLE and len(t.n) >= 3:
                    conf = 0.7  # "dr murphy", "dr green aware"
                elif not blocked and cue == "RELATIVE" and len(t.n) >= 3 and t.n not in self.medical \
                        and (mode != "mixed" or cap) and self.lang != "es" \
                        and t.text.isalpha() and self._followed_by(toks, j, text, set()):
                    conf = 0.6  # "SONS SMOKEY, ..."
                elif blocked and cue == "RELATIVE" and in_first and t.n not in self.medical and len(t.n) >= 3 \
                        and t.n not in STOP and t.n not in AFTER_RELATIVE and (
                        self._followed_by(toks, j, text, AFTER_RELATIVE)):
                    conf = 0.6  # "son bill called", "wife, rose, left"
                elif blocked and cue == "RELATIVE" and in_first and t.n in self.medical and len(t.n) >= 4 \
                        and self.first[t.n] < 300 and self.lang == "en" and length == 1 and t.text.isalpha() \
                        and self._followed_by(toks, j, text, AFTER_RELATIVE):
                    # "SON FRANK CALLED", "father martin was": a frequent first name that is also a medical
                    # term (frank bleeding, Martin, Allen test); pattern-grade, or the protected filter drops it
                    conf, src = 0.6, "pattern:cued_name"
                label = {"DOCTOR": "DOCTOR", "RELATIVE": "RELATIVE"}.get(cue or "", "PATIENT")
            elif t.n not in RELATIVE_CUES and t.n not in NOT_AFTER_TITLE and t.n not in CREDENTIALS and i >= 1 \
                    and _word_start(text, toks[i - 1].start) and ((
                  i >= 1 and len(toks[i - 1].text) == 1 and toks[i - 1].text.isupper() and len(t.n) >= 3
                  and not blocked and text[toks[i - 1].end:t.start] in (". ", " ", ".")
                  and not (mode == "mixed" and toks[i - 1].text in "AI" and text[toks[i - 1].end] != ".")
                  and j + 1 < n and toks[j + 1].n in AFTER_DOCTOR
                  and "\n" not in text[toks[j].end:toks[j + 1].start]) or (
                    i >= 1 and len(toks[i - 1].text) == 1 and toks[i - 1].text.isupper() and in_sur
                    and t.n not in self.medical and (text[toks[i - 1].end:t.start] in (". ", ".") or (
                        # "J SMITH ORDERED": in capitals an initial needs no period (not X RAY, O NEG, A LOT)
                        text[toks[i - 1].end:t.start] == " " and mode != "mixed" and t.text.isupper()
                        and toks[i - 1].text not in "AIOXK" and toks[j + 1].n not in ("in", "at", "here")))
                    and j + 1 < n and toks[j + 1].n in AFTER_DOCTOR
                    and "\n" not in text[toks[j].end:toks[j + 1].start])):
                conf, label = 0.85, "DOCTOR"  # "B. CLIFFORD MD AWARE"
                t = toks[i - 1]
            elif i > 0 and toks[i - 1].n == "per" and in_first and length >= 2 and toks[j].n in self.surname \
                    and not self._is_blocked(toks[j].n) and "\n" not in text[toks[i - 1].end:t.start]:
                conf, label = 0.75, "DOCTOR"  # "per carol wolfe"
            elif cue == "WEAK" and (in_first or in_sur) and not blocked:
                conf, label = 0.8, "PATIENT"
            elif (mode == "mixed" and in_first and length >= 2 and toks[j].n in self.surname
                  and all(x.text[:1].isupper() and x.text[1:].islower() for x in (t, toks[j]))
                  and t.n not in self.medical and toks[j].n not in self.medical
                  and t.n not in STOP and toks[j].n not in STOP):
                # "Patient John Smith": a first name + surname pair in title case; at the start of a
                # sentence capitals say less ("May Day"), so there it is only a suggestion
                initial = i == 0 or toks[i - 1].text in ".!?:" or "\n" in text[toks[i - 1].end:t.start]
                conf, label = (0.45 if initial else 0.6), "PATIENT"
            elif (in_first or in_sur) and not blocked and not (
                    mode == "mixed" and t.text.isupper() and len(t.text) <= 5):  # "ANA", "EVA": acronyms
                pair = length >= 2 and (in_first and toks[j].n in self.surname)
                if pair:
                    conf = 0.75
                elif self._credential_after(toks, j, text):
                    conf, label = 0.85, "DOCTOR"
                elif (in_first and self.first[t.n] < self.bare_name_rank) or (
                        in_sur and self.surname[t.n] < self.bare_surname_rank) or (
                        # conversational text (mixed or lower case): a listed first name that no
                        # dictionary knows is a name at any rank ("is svetlana still here")
                        self.any_rank_first and in_first and mode in ("lower", "mixed") and self.lang == "en" and len(t.n) >= 4
                        and t.n not in self.words and not self._near_medical(t.n)) or (
                        # in a dialogue, a capitalised listed surname that no dictionary knows, mid-sentence
                        in_sur and mode == "mixed" and self.lang == "en" and len(t.n) >= 4 and t.text[1:].islower()
                        and t.n not in self.words and i > 0 and _dialogue(text)
                        and not regex.search(r"[.!?:\n]\s*$", text[toks[i - 1].end:t.start])
                        and not self._near_medical(t.n)):
                    if len(t.n) >= 3:
                        conf = 0.55 if mode == "mixed" else 0.45
                label = label or "PATIENT"
            elif in_first and length >= 2 and toks[j].n in self.surname and not self._is_blocked(toks[j].n) \
                    and cap and mode == "mixed":
                conf, label = 0.6, "PATIENT"  # "Will Smith"
            if conf and label:
                if self._credential_after(toks, j, text):
                    label = "DOCTOR"
                if conf >= 0.5 or not blocked:
                    out.append(Span(t.start, toks[j].end, label, src, conf))
                for q in range(i, j + 1):
                    used[q] = True
                i = j + 1
                # "Drs Ferullo and Saeed", "sons Smokey, Morris and Roger"
                while strong and i < n and not used[i] and (
                        (toks[i].n in ("and", "y") and i + 1 < n and not used[i + 1]
                         and len(text[toks[i - 1].end:toks[i + 1].start]) <= 7
                         and "\n" not in text[toks[i - 1].end:toks[i + 1].start])
                        or (text[toks[i - 1].end:toks[i].start] in (",", ", ") and toks[i].n not in ("and", "y"))):
                    if toks[i].n not in ("and", "y"):
                        i -= 1  # ", Morris": the name is toks[i]; step back so i + 1 points at it
                    if not (i + 1 < n and not used[i + 1] \
                            and not self._is_blocked(toks[i + 1].n) and len(toks[i + 1].n) >= 3
                            and (self.lang != "en" or toks[i + 1].n not in DISCOURSE_WORDS)
                            # "DR. TSAI-HOLLOWAY AND PALLIATIVE NP": a dictionary word that is no listed name
                            and (self.lang != "en" or toks[i + 1].n not in self.words or toks[i + 1].n in self.first
                                 or toks[i + 1].n in self.surname)
                            and not _CONTRACTION.search(toks[i + 1].text)
                            and (toks[i + 1].text[:1].isupper() or toks[i + 1].n in self.first
                                 or toks[i + 1].n in self.surname)):
                        i += 1
                        break
                    nx = toks[i + 1]
                    out.append(Span(nx.start, nx.end, label, "lexicon:name", min(conf, 0.75)))
                    used[i + 1] = True
                    i += 2
                continue
            i += 1
