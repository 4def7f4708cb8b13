"""Profession detector: a person's occupation, found from an occupation lexicon plus a cue.

English occupations are the hand-written ``occupations_en`` (everyday jobs and trades) plus two lists generated
from WordNet 3.0 by ``tools/build_lexicons.py --wordnet-occupations``: ``occupations_wordnet_en`` (luthier,
farrier, sommelier ...) and ``occupations_wordnet_clinical_en`` (anesthesiologist, phlebotomist ...: care-team
roles, treated like ``CLINICAL_EN``). Words that follow "is a" in notes without being jobs (carrier, resident,
candidate, historian, drinker, veteran ...) are kept out of the generated lists by the tool's stop lists.

An occupation word alone is not evidence (``the nurse``, ``her doctor``, ``physical
therapist will see`` are the care team): a span is emitted only where a cue says the
phrase is someone's job.

Cues before the occupation (the span is the occupation phrase, the cue stays outside):
- English: ``works/worked/working as (a)``, ``employed/trained/served as``, ``job/career
  as``, ``as a`` after a work word (``retired from the railroad as a``), ``Occupation:`` /
  ``Profession:`` / ``Job:`` fields, ``retired`` (``Retd.``), ``former``, ``I'm a/the``, ``I was a``,
  ``he/she/patient/pt/wife/son ... is/was a``, ``,is a`` in a note without subjects, an age (``43-year-old``,
  ``67 yo``), ``<name> (husband), <job>,``, ``works in`` + a trade sector (``construction``), ``started (nights)
  as``, a career's length (``thirty years seamstress``), ``Personal:``, ``Mum 24,``, ``<name> (a <job> at``, the
  reply to ``what did you work at`` / ``what's the work``, ``she a <job>`` after a relative in the sentence,
  ``unemployed`` / ``laid off``, ``(<job> w/ <employer>``;
- Spanish: ``trabaja(ba) como/de``, ``empleado/a como``, ``como`` after a work word
  (``empleos temporales como``), ``de profesión``, ``profesión:`` / ``ocupación:``,
  ``se dedica(ba) a``, ``trabaja(ba) en el`` + sector, ``el paciente es/era``, an age
  (``Varón de 45 años,``), ``ex`` (kept inside the span, MEDDOCAN's practice:
  ``ex profesora de instituto``).
Cues after it: ``by trade``, ``by profession``; ``de profesión``, ``jubilado/a``,
``en activo``, ``en paro``, ``de oficio``.

The phrase is the longest lexicon match, with up to a few modifiers in front (``bus``
``mechanic``, ``night`` ``auditor``), or a noun before ``maker`` (``hurley maker``, not ``decision
maker``), or a noun before a head that names a trade only so (``private-hire driver``, ``home attendant``,
one word ``farmworker``; not ``careful driver``, ``hard worker``, ``unrestrained driver``); Spanish heads such as
``trabajador``, ``empleado``, ``profesora`` take a short ``de/en``
complement (``trabajador en canteras``, ``empleado en Carpintería metálica``). Strong cues also accept an unknown word shaped like a job
(``-er``, ``-ist``; ``-ero``, ``-ista``) and field cues (``Occupation:``, ``de profesión``)
free text up to the next punctuation. A list after a match continues it
(``azafata, dependienta, monitora de deporte``). Clinical roles (``nurse``,
``pharmacist``) are not taken after first-person present cues (``I'm the nurse``: a
clinician introducing themself) nor after ``is the``; after ``he/she is a`` only with a relative named just
before or a workplace after (``she is a nurse at mercy``, not ``at the hospital``).

Spans are ``PROFESSION`` with source ``pattern:profession``: a cue plus a listed occupation
is evidence of the pattern kind, and it must outrank the English tagger, whose weak guesses
on such words (``electrician`` as a name, confidence < 0.5) would otherwise win the merge
and then be dropped by the weak-word filter, losing the occupation. In Spanish the tagger
ranks higher and its spans are final, so the rule only adds where the tagger found nothing.
Confidence: 0.85 field and strong cues, 0.8 ``retired``/``ex``, 0.75 age and subject cues,
0.7 list items.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..types import Document, Span
from .lexicon import _NORM_CACHE, norm
from .patterns import _NUMBER_WORDS_BARE
from .prefilter import cached_prefilters
from .textstats import count_alpha_upper

LABEL = "PROFESSION"
SOURCE = "pattern:profession"

_WORD = regex.compile(r"\p{L}[\p{L}'’]*(?:-\p{L}[\p{L}'’]*)*")
_EX = regex.compile(r"(?i)ex-(?=\p{L})")
_SENT_BREAK = regex.compile(r"[.;!?\n]")

# --- word classes -------------------------------------------------------------------

STOP_EN = {"a", "an", "the", "at", "for", "in", "on", "with", "from", "of", "by", "to", "and", "or", "but",
           "who", "that", "which", "since", "until", "is", "was", "are", "were", "be", "been", "has", "had",
           "have", "he", "she", "i", "it", "they", "his", "her", "my", "their", "our", "your", "this", "these",
           "those", "as", "so", "then", "when", "while", "because", "after", "before", "during", "about",
           "over", "under", "into", "until", "not", "no", "yes", "now", "there", "here", "where", "how", "what",
           "did", "do", "does", "will", "would", "can", "could", "should", "may", "might", "must", "just",
           "very", "some", "any", "all", "both", "each", "per", "via", "like", "up", "out", "off", "if", "whom",
           "whose", "presents", "presented", "presenting", "complains", "reports", "states", "referred", "seen",
           "admitted", "returns", "comes", "came", "here", "today", "currently", "recently", "since"}
STOP_ES = {"que", "con", "sin", "durante", "desde", "hasta", "y", "e", "o", "u", "por", "para", "a", "al",
           "cuando", "donde", "hace", "se", "su", "sus", "le", "les", "lo", "el", "la", "los", "las", "un", "una",
           "unos", "unas", "es", "era", "fue", "ha", "habia", "como", "pero", "aunque", "sobre", "tras", "entre",
           "segun", "mientras", "de", "del", "en", "desde", "no", "si", "ya", "muy", "mas", "sin", "ni",
           "profesion", "oficio", "actualmente", "presenta", "acude", "refiere", "ingresa", "consulta", "jubilado",
           "jubilada", "retirado", "retirada", "activo", "activa"}
# words skipped (left outside the span) between a cue and the occupation
PRE_SKIP_EN = {"retired", "former", "formerly", "semi-retired", "part-time", "full-time", "parttime", "fulltime",
               "self-employed", "freelance", "pleasant", "lovely", "nice", "healthy", "active", "young", "old",
               "elderly", "married", "single", "divorced", "widowed", "male", "female", "local", "longtime",
               "long-time", "lifelong", "currently", "also", "still", "professional", "unemployed", "previously",
               "then", "now", "once", "successful", "busy", "working", "practicing", "practising", "licensed",
               "qualified", "trained", "certified", "good", "great", "wonderful", "excellent", "amazing", "fine", "kind",
               "caring", "fantastic", "brilliant", "skilled", "experienced", "hard-working", "hardworking",
               "retd", "rtd", "ret'd", "ret’d"}
# abbreviated pre-words whose period may stand between them and the job ("Occupation: Retd. bank cashier")
DOTTED_PRE_SKIP_EN = {"retd", "rtd"}
FREE_REJECT = {"none", "unemployed", "retired", "disabled", "unknown", "na", "nil", "not", "n", "desempleado",
               "desempleada", "parado", "parada", "jubilado", "jubilada", "pensionista", "ninguna", "ninguno",
               "ninguno", "sin", "no", "desconocida", "desconocido"}
PRE_SKIP_ES = {"jubilado", "jubilada", "antiguo", "antigua", "actualmente", "entonces"}
# Spanish heads that take a short "de/en" complement (trabajador en canteras)
COMPLEMENT_HEADS_ES = {"trabajador", "trabajadora", "empleado", "empleada", "operario", "operaria", "obrero",
                       "obrera", "profesor", "profesora", "maestro", "maestra", "tecnico", "tecnica", "auxiliar",
                       "ingeniero", "ingeniera", "jefe", "jefa", "encargado", "encargada", "responsable", "peon",
                       "oficial", "dependiente", "dependienta", "monitor", "monitora", "catedratico",
                       "catedratica", "funcionario", "funcionaria", "vendedor", "vendedora", "conductor",
                       "conductora", "jugador", "jugadora", "agente", "representante", "mantenimiento",
                       "industria", "sector", "investigador", "investigadora", "gerente", "director",
                       "directora", "licenciado", "licenciada", "ayudante", "mozo", "moza"}
# Trade sectors: the occupation after "works in" / "trabaja en el"
SECTORS_EN = {"construction", "retail", "sales", "hospitality", "banking", "finance", "insurance", "accounting",
              "marketing", "real estate", "agriculture", "farming", "mining", "logging", "fishing", "landscaping",
              "catering", "trucking", "manufacturing", "education", "law enforcement", "the military",
              "military", "software", "it", "tech", "information technology", "food service", "childcare",
              "child care", "home care", "social care", "elder care", "property management", "customer service",
              "roofing", "plumbing", "carpentry", "welding", "demolition", "security", "transportation",
              "logistics", "warehousing", "housekeeping", "maintenance", "journalism", "publishing",
              "advertising", "politics"}
SECTORS_ES = {"construccion", "hosteleria", "agricultura", "ganaderia", "mineria", "mina", "minas", "pesca",
              "limpieza", "mantenimiento", "sector servicios", "comercio", "transporte", "industria",
              "metalurgia", "siderurgia", "industria textil", "automocion", "banca", "ensenanza", "docencia",
              "campo", "hogar", "tareas del hogar", "labores del hogar", "hosteleria y restauracion",
              "restauracion", "fuerza policial", "fuerzas armadas", "ejercito", "marina mercante"}
# Roles of the care team: not taken after "I'm a/the" (the speaker is a clinician) nor "is the".
CLINICAL_EN = {"nurse", "doctor", "physician", "surgeon", "therapist", "physical therapist", "speech therapist",
               "occupational therapist", "respiratory therapist", "pharmacist", "nurse practitioner",
               "physician assistant", "registered nurse", "medical assistant", "nursing assistant", "nurse aide",
               "nurses aide", "home health aide", "social worker", "dietitian", "dietician", "nutritionist",
               "chaplain", "interpreter", "psychologist", "psychiatrist", "psychotherapist", "counselor",
               "counsellor", "paramedic", "emt", "radiographer", "sonographer", "physiotherapist", "cardiologist",
               "oncologist", "pathologist", "pediatrician", "radiologist", "dermatologist", "midwife",
               "lab technician", "laboratory technician", "x-ray technician", "technician", "medic", "orderly",
               "student", "medical student", "nursing student", "pharmacy technician", "dental assistant",
               "school nurse", "veterinary nurse", "care assistant", "care worker", "assistant", "coordinator", "rn", "lpn",
               "cna", "lab tech", "pharmacy tech", "personal care assistant", "support worker", "home care aide",
               "hca", "healthcare assistant", "health care assistant"}
# lexicons generated from WordNet (tools/build_lexicons.py --wordnet-occupations): jobs, and roles of the care team
WORDNET_LEXICONS_EN = ("occupations_wordnet_en", "occupations_wordnet_clinical_en")
_DOT_GAP = regex.compile(r"\.[ \t]{1,2}")
# "<noun> maker" is a trade ("hurley maker", "saddle maker") unless the noun makes an idiom
MAKER_HEADS_EN = {"maker", "makers"}
NOT_MAKERS_EN = {"decision", "trouble", "mischief", "peace", "noise", "money", "rain", "match", "pace", "fun", "hay",
                 "merry", "policy", "deal", "difference", "mistake", "excuse", "point", "bed", "coffee", "ice", "tea",
                 "yogurt", "yoghurt", "pasta", "popcorn", "waffle", "smoothie", "juice", "soda", "sandwich", "baby",
                 "babies", "widow", "history", "news", "sense"}
# heads that name a trade only with a noun in front ("a private-hire driver", "a home attendant", "a farmworker"),
# and the words in front of them that say how someone drives or works instead ("a careful driver", "a hard worker")
COMPOUND_HEADS_EN = {"driver", "drivers", "worker", "workers", "attendant", "attendants"}
SOLID_HEADS_EN = ("worker",)  # written as one word: "farmworker", "dockworker" (not "coworker")
NOT_COMPOUND_MODIFIERS_EN = {"hard", "harder", "heavy", "safe", "safer", "careful", "careless", "reckless", "bad",
                             "poor", "designated", "drunk", "new", "learner", "student", "nervous", "anxious", "confident",
                             "slow", "fast", "quick", "defensive", "aggressive", "competent", "regular", "main",
                             "primary", "key", "major", "frequent", "occasional", "daily", "sunday", "weekend",
                             "diligent", "tireless", "steady", "reliable", "willing", "eager", "fellow", "co", "screw",
                             "disk", "disc", "device", "printer", "software", "slave", "independent", "constant",
                             "personal", "own", "unlicensed", "uninsured", "insured", "licenced", "elderly", "teen",
                             "teenage", "young", "older", "sole", "only", "other", "same", "first", "second", "big",
                             "strong", "weak", "pain", "risk", "disease", "growth", "underlying", "leading",
                             "unpaid", "unemployed", "retired", "former", "lone", "social", "solo",
                             # the part someone had in a crash ("19 yo M unrestrained driver")
                             "restrained", "unrestrained", "belted", "unbelted", "seatbelted", "seat-belted",
                             "lap-belted", "helmeted", "unhelmeted", "intoxicated", "impaired", "ejected", "injured",
                             "at-fault", "hit-and-run", "car", "vehicle", "motor", "motorcycle", "motorbike", "moped",
                             "scooter", "atv", "quad", "golf", "bike", "bicycle", "passenger", "front", "rear", "seat"}
# hospital units and office functions written in capitals before a job: part of it ("an ER nurse", "an IT consultant"),
# unlike a company's name ("a Walmart cashier")
UNIT_ABBR_EN = {"er", "ed", "icu", "nicu", "picu", "ccu", "hdu", "or", "pacu", "ent", "ob", "it", "hr", "ot", "pr"}
# only with a strong cue ("poor historian" is a clinical idiom)
STRONG_ONLY = {"historian", "caretaker", "model", "guard", "judge", "coach", "deputy", "captain", "marine", "host", "operator",
               "director", "developer", "producer", "trader", "buyer", "mover", "server", "executive", "assistant",
               "consultant", "inspector", "supervisor", "instructor", "manager", "administrator", "principal",
               "militar", "auxiliar", "agente", "asistente", "pastor", "marino", "guarda", "comercial", "dependiente",
               "dependienta", "interna", "responsable", "cuidador", "cuidadora"}
_JOB_SUFFIX_EN = ("er", "or", "ist", "ian", "man", "woman", "eer", "ess", "smith", "wright")
_JOB_SUFFIX_ES = ("ero", "era", "ista", "or", "ora", "ario", "aria", "ologo", "ologa")
_NOT_JOB_EN = {"other", "another", "after", "never", "ever", "either", "neither", "over", "under", "rather",
               "together", "whether", "older", "younger", "better", "later", "manner", "prior", "major", "minor",
               "color", "colour", "floor", "door", "error", "factor", "donor", "tumor", "tumour", "doctor",
               "member", "number", "partner", "mother", "father", "brother", "sister", "daughter", "caregiver",
               "carer", "volunteer", "person", "woman", "man", "human", "christian", "vegetarian", "civilian",
               "guardian", "patient", "smoker", "drinker", "user", "abuser", "sufferer", "survivor", "resident",
               "veteran", "lesbian", "amputee", "recipient", "candidate", "historian", "whatever", "however",
               "whenever", "wherever", "whoever", "summer", "winter", "water", "paper", "power", "matter", "order",
               "corner", "letter", "dinner", "super", "supper", "proper", "sooner", "further", "rather", "other",
               "neither", "hither", "forever", "meanwhile", "anyone", "nobody", "nothing", "nowhere", "somewhere",
               # "-ess" words that are no job ("Retd.\nAddress:")
               "address", "business", "process", "progress", "success", "stress", "distress", "illness", "sickness",
               "witness", "fitness", "wellness", "weakness", "access", "express", "congress", "mattress", "harness",
               "unless", "regardless", "darkness", "goodness", "fortress"}
_NOT_JOB_ES = {"mayor", "menor", "anterior", "posterior", "exterior", "interior", "superior", "inferior", "dolor",
               "tumor", "color", "calor", "sudor", "factor", "donador", "portador", "portadora", "fumador",
               "fumadora", "bebedor", "bebedora", "primera", "tercera", "cadera", "manera", "carrera", "madera",
               "espera", "acera", "cabecera", "frontera", "escalera", "entero", "primero", "tercero", "febrero",
               "enero", "numero", "agujero", "dinero", "pasajero", "pasajera", "compañero", "compañera",
               "companero", "companera", "extranjero", "extranjera", "soltero", "soltera", "heredero", "mejor",
               "peor", "amor", "temor", "rumor", "humor", "lista", "vista", "pista", "revista", "conquista",
               "entrevista", "cuidador", "cuidadora"}
# a transcript turn: "Doctor:", "[patient]", "speaker 2:", "D:", or a lower-case "doctor hi there"
_TURN = regex.compile(r"(?im)^[ \t]*(?:\[?(doctor|dr|patient|pt|nurse|clinician|provider|caller|relative|mother|father|"
                      r"mom|mum|dad|wife|husband|daughter|son|parent|interpreter|translator|speaker[ \t]*\d{1,2})\]?[ \t]*(?::|(?<=\]))|"
                      r"([dp])[ \t]*:|(doctor|patient|clinician|speaker[ \t]*\d{1,2})[ \t]+(?=(?-i:[a-z])))")
_RELATION_NEAR = regex.compile(r"(?i)\b(?:wife|husband|son|daughter|dtr|dau|mother|father|mom|mum|dad|brother|sister|partner|"
                               r"boyfriend|girlfriend|fianc[eé]e?|spouse|aunt|uncle|cousin|niece|nephew|"
                               r"grand\w+|\w+-in-law)\b")


def dialogue(text: str) -> bool:
    """A transcript: two or more turns by at least two different speakers."""
    roles = set()
    for m in _TURN.finditer(text):
        roles.add((m.group(1) or m.group(2) or m.group(3)).lower())
        if len(roles) >= 2:
            return True
    return False


RELATIVE_SUBJECTS = ("wife|husband|son|daughter|mother|father|mom|mum|dad|brother|sister|partner|boyfriend|"
                     "girlfriend|fianc[eé]e?|spouse|friend|neighbou?r|aunt|uncle|cousin|grandmother|grandfather|"
                     "grandson|granddaughter|niece|nephew|stepfather|stepmother|caregiver|carer|daddy|mummy|mommy|"
                     "grandpa|grandma|granny|grandad|granddad")


@dataclass(frozen=True)
class _Cue:
    """One cue pattern and what it licenses."""

    name: str
    rx: regex.Pattern
    after: bool = True  # the occupation follows the cue (False: it precedes it)
    clinical: bool = True  # clinical roles allowed
    heuristic: bool = False  # unknown job-shaped words allowed
    free: bool = False  # free text up to punctuation when no lexicon match
    modifiers: int = 2  # words allowed in front of the occupation head
    sector: bool = False  # only trade sectors (works in construction)
    window: regex.Pattern | None = None  # a work word required shortly before
    strong: bool = False  # STRONG_ONLY words allowed
    confidence: float = 0.75
    trigger: tuple[str, ...] = ()  # lower-case substrings, one of which the text must hold (speed)
    # found in every match (speed): the cue is scanned only on texts where it is; written to search from a
    # rare piece backwards (``\sas\s(?<=...)``), which the regex module finds far faster than the cue's start
    gate: regex.Pattern | None = None
    gate_low: bool = False  # the gate is case-sensitive and searched in the lower-cased text (faster than IGNORECASE)


def _rx(p: str) -> regex.Pattern:
    return regex.compile(p, regex.IGNORECASE | regex.VERSION1)


_ART_EN = r"(?:(?:an?|the)\s+)?"
_ART_ES = r"(?:(?:un|una)\s+)?"
_WORK_EN = _rx(r"\b(?:work|works|worked|working|employed|employment|job|jobs|career|hired|retired|retiring|"
               r"trained|served|serving|occupation|profession|trade|business|company|firm)\b")
_WORK_ES = _rx(r"\b(?:trabaj\w*|emple\w*|profesi\w*|ocupaci\w*|laboral\w*|oficio|puesto|contratad\w*|"
               r"jubil\w*|dedicad\w*|dedica|dedicaba)\b")
_AGE_EN = (r"\b\d{1,3}\s*(?:-|\s)?\s*(?:years?|yrs?|y)\s*(?:-|\s)\s*old\b|\b\d{1,3}\s*(?:yo|y/o|y\.o\.|yr\.?)(?=\s)")
_AGE_WORDS_EN = rf"\b{_NUMBER_WORDS_BARE}[\s-]+(?:years?|yrs?)[\s-]+old\b"
_AGE_TAIL_EN = (r"(?:\s+(?:male|female|man|woman|gentleman|lady|m|f|white|black|caucasian|hispanic|latino|latina|g\d+p\d+|"
                r"asian|married|single|divorced|widowed|widower|widow|right-handed|left-handed|african[- ]american))*")

# what every match of the "is a" cues ends with: the verb's last word (``_IS_EN``, "hes", "shes"), then " a " or
# " an "; searched from the rarer "a"/"an" backwards (~7 us a note, against ~0.2 ms for the cues' own scans)
_IS_A_GATE = _rx(r"\san?\s(?<=(?:['’]s|hes|shes|\s(?:is|was|been|be|became|now|still))\s+an?\s)")
_IS_THE_GATE = _rx(r"\sthe\s(?<=(?:['’]s|\s(?:is|was))\s+the\s)")  # the same for "subject is the"
_COMMA_IS_A_GATE = _rx(r"\san?[ \t](?<=,[ \t]*(?:is|was)[ \t]+an?[ \t])")  # and for ",is a"

# an age in an aside between a subject and its verb: "Ms Mahlangu, 34, is a", "Lakshmi (52) is a"
_AGE_ASIDE_EN = r"(?:,[ \t]*\d{1,3},|[ \t]*\([ \t]*\d{1,3}[ \t]*(?:[MF]|y|yo|yrs?)?[ \t]*\))?"
_IS_EN = (r"(?:['’]s|\s+is|\s+was|\s+has\s+been|\s+had\s+been|\s+used\s+to\s+be|\s+became|\s+is\s+now|"
          r"\s+is\s+still)")
CUES_EN: tuple[_Cue, ...] = (
    _Cue("field", _rx(r"(?:^|\b)(?:occupation|profession|job(?:\s+title)?|employment|current\s+job|"
                      r"work(?:s|ed)?\s+as)\s*[:\-–]\s*" + _ART_EN), heuristic=True, free=True, modifiers=3,
         strong=True, confidence=0.85),
    _Cue("works as", _rx(r"\b(?:works?|worked|working|work(?:s|ed|ing)?\s+(?:full|part)[- ]time)\s+"
                         r"(?:now\s+|currently\s+|still\s+|mostly\s+)?as\s+" + _ART_EN),
         heuristic=True, modifiers=3, strong=True, confidence=0.85),
    _Cue("employed as", _rx(r"\b(?:employed|hired|trained|served|serving|serves|retired|qualified|"
                            r"started|starting|promoted|apprenticed|volunteers?)\s+as\s+" + _ART_EN),
         heuristic=True, modifiers=3, strong=True, confidence=0.85,
         gate=_rx(r"\sas\s(?<=(?:employed|hired|trained|served|serving|serves|retired|qualified|started|starting|"
                  r"promoted|apprenticed|volunteers?)\s+as\s)")),
    # "starts as a phlebotomist monday", "since she started nights as an ER nurse": a new job (up to two words
    # between; listed jobs only, "started ASA as a blood thinner" is no trade)
    _Cue("starts as", _rx(r"\bstart(?:s|ed|ing)?(?:\s+(?!as\b)\p{L}+){0,2}\s+as\s+(?:an?\s+)"),
         modifiers=2, strong=True, confidence=0.8, trigger=("start",),
         gate=regex.compile(r"start(?:s|ed|ing)?(?:\s+\p{L}+){0,2}\s+as\s"), gate_low=True),
    _Cue("job as", _rx(r"\b(?:job|jobs|career|position|post|employment|work|living)\s+as\s+" + _ART_EN),
         heuristic=True, modifiers=3, strong=True, confidence=0.85),
    _Cue("as a", _rx(r"\bas\s+(?:an?|the)\s+"), window=_WORK_EN, confidence=0.75),
    _Cue("works in", _rx(r"\b(?:works?|worked|working|job|jobs|career|employed)\s+in\s+"), sector=True,
         confidence=0.75),
    # "a 74-year-old retired piano tuner", "retired signalman": a job-shaped word no list holds counts too
    _Cue("retired", _rx(r"\b(?:(?:retired|semi-retired|former|formerly\s+an?)\s+|(?:retd\.|ret['’]d)[ \t]+)"), strong=True, heuristic=True,
         confidence=0.8),
    _Cue("ex", _rx(r"\b(?=ex(?:-|\s+)\p{L})"), modifiers=1, strong=True, confidence=0.8),
    # "pt unemployed carpenter, laid off from", "laid-off steelworker": a job lost is still the job (listed jobs only)
    _Cue("unemployed", _rx(r"\b(?:unemployed|laid[- ]off|out[- ]of[- ]work)[ \t]+(?:an?[ \t]+)?"), modifiers=2,
         confidence=0.75, trigger=("unemployed", "laid", "out of work", "out-of-work")),
    _Cue("first person", _rx(r"\b(?:i['’]?m|i\s+am)\s+(?:an?|the|now\s+(?:an?|the))\s+"), clinical=False,
         confidence=0.75),
    # "i do nights im a healthcare assistant at kings college": a clinical job with its employer is the speaker's
    # own job (a clinician introduces themself as "the nurse", not "a nurse at")
    # ("i'm a nurse myself, at st ansel's": the employer after a comma)
    _Cue("first person at", _rx(r"\b(?:i['’]?m|i\s+am|mi)\s+an?\s+(?=(?:\p{L}+\s+){0,3}\p{L}+,?\s+(?:at|for|with|in)\s+"
                                r"(?!(?:this|the\s+(?:clinic|practice|surgery|hospital))\b))"), confidence=0.75),
    # "i am welder at the shipyard": no article (second-language speech); only a listed job, one modifier
    _Cue("first person bare", _rx(r"\b(?:i['’]?m|i\s+am)\s+(?:now\s+)?"), clinical=False, modifiers=0,
         confidence=0.7),
    # the clinician confirming the patient's job in a visit: "so you are a truck driver", "youre a welder"
    _Cue("second person", _rx(r"\b(?:you\s+are|you['’]re|youre)\s+(?:still\s+|now\s+)?an?\s+"),
         clinical=False, modifiers=2, confidence=0.75),
    # the past describes a life, not the care team: "you were a pharmacist right"
    _Cue("second person past", _rx(r"\b(?:you\s+were|you['’]ve\s+been|youve\s+been|you\s+used\s+to\s+be)\s+an?\s+"),
         modifiers=2, confidence=0.75),
    # the answer to "are you still working": "yeah still a forklift driver at pacific freight"
    _Cue("still a", _rx(r"\b(?:yeah|yes|yep|aye|still)\s+(?:still\s+)?an?\s+(?=\p{L})"), clinical=False, modifiers=1,
         confidence=0.7),
    # a social history that opens with the job: "Social: Electrician with Riverina Power."
    _Cue("social field", _rx(r"(?m)^[ \t]*(?:social(?:\s+history)?|sh|shx|soc\s+hx|personal(?:\s+(?:history|hx))?)\s*[:\-–]\s*" + _ART_EN),
         clinical=False, modifiers=2, confidence=0.75),
    _Cue("first person past", _rx(r"\b(?:i\s+was|i\s+used\s+to\s+be|i\s+became|i['’]ve\s+been)\s+(?:an?|the)\s+"),
         confidence=0.75),
    _Cue("patient is a", _rx(r"\b(?:patient|pt|res|resident|client)" + _IS_EN + r"\s+an?\s+"), modifiers=3, confidence=0.75,
         gate=_IS_A_GATE),
    # any subject, when where the job is held follows: "declan is a bus driver with city link", "mum was a cook at"
    _Cue("is a at", _rx(r"\s(?:is|was)\s+an?\s+(?=(?:\p{L}+\s+){0,2}\p{L}+\s+(?:at|for|with)\s+\p{L})"), clinical=False,
         modifiers=2, confidence=0.7, gate=_IS_A_GATE),
    # "lives at Whitman Village and was a seamstress at Durfee Mills": a job held at a named employer
    # (and after a comma in a note that drops the subject, the employer in lower case: "lives w/ son in fitchburg,
    # was a bookkeeper at simonds saw")
    _Cue("was a at", _rx(r"(?:\b(?:and|but|who|had|has)\s+|,[ \t]*)(?:was|been|worked)\s+(?:as\s+)?an?\s+"
                         r"(?=(?:\p{L}+\s+){0,2}\p{L}+\s+(?:at|for|with)\s+(?:the\s+)?\p{L})"),
         clinical=False, modifiers=2, confidence=0.7),
    # speech without the verb (Caribbean, AAVE): "he a bus driver for chatham county", "mi a home health aide with
    # caring hands" (where the job is held follows; listed jobs only, no clinical role)
    _Cue("zero copula at", _rx(r"\b(?:she|he|mi)\s+an?\s+(?=(?:\p{L}+\s+){0,2}\p{L}+\s+(?:at|for|with)\s+\p{L})"),
         clinical=False, modifiers=2, confidence=0.7, trigger=("she a ", "he a ", "mi a ")),
    # the same after a relative named earlier in the sentence, wherever the job is held: "lives with my son jermaine
    # on flatbush he a paramedic" (clinical roles too: the relative's job, not the care team)
    _Cue("zero copula relative", _rx(r"\b(?:she|he)\s+an?\s+"), window=_RELATION_NEAR, modifiers=1, confidence=0.7,
         trigger=("he a",), gate=regex.compile(r"he\s+an?\s"), gate_low=True),
    # a career's length, then the job: "twenty years machinist at the plant", "40 yrs a coal miner" (listed jobs only)
    _Cue("years job", _rx(r"(?:years?|yrs?)(?<=\b(?:\d{1,2}|" + _NUMBER_WORDS_BARE + r")[ \t]+(?:years?|yrs?))[ \t]+"
                          r"(?:as[ \t]+)?(?:an?[ \t]+)?"), clinical=False, modifiers=1, confidence=0.7,
         trigger=("year", "yrs")),
    # a job and where it is held in brackets: "cp started at work (forklift operator at dunmore paper co)"
    _Cue("(job at", _rx(r"\([ \t]*(?=(?:\p{L}+[ \t]+){0,2}\p{L}+[ \t]+(?:at|for|with|w/)[ \t]*(?<=/|[ \t])\p{L})"),
         clinical=False, modifiers=2, confidence=0.7, trigger=(" at ", " for ", " with ", " w/")),
    # with its article, after a name or a relation word: "Nguyen (a pharmacist at Coburg Pharmacy) visited"
    _Cue("name (a job at", _rx(r"(?<=(?:(?-i:\p{Lu}\p{Ll}+)|\b(?:" + RELATIVE_SUBJECTS + r"))[ \t]*)\([ \t]*an?[ \t]+"
                               r"(?=(?:\p{L}+[ \t]+){0,2}\p{L}+[ \t]+(?:at|for|with)[ \t]+\p{L})"), clinical=False,
         modifiers=2, confidence=0.7, trigger=("(a",)),
    # Caribbean first person: "patient: mi a barber mi have a likkle shop" (listed jobs only)
    _Cue("mi a", _rx(r"\bmi\s+an?\s+"), clinical=False, modifiers=1, confidence=0.7, trigger=("mi a ", "mi an ")),
    # a relative's job without its article: "now my son is software engineer", "her husband was long haul trucker"
    _Cue("relative is bare", _rx(r"\b(?:my|his|her|their|our|your)\s+(?:" + RELATIVE_SUBJECTS + r")(?:-in-law)?\s+(?:is|was)\s+"
                                 r"(?!an?\s|the\s|not\s|also\s)"), clinical=False, modifiers=2, confidence=0.7,
         gate=_rx(r"\s(?:is|was)\s(?<=\b(?:my|his|her|their|our|your)\s+\p{L}+(?:-in-law)?\s+(?:is|was)\s)")),
    # a note that drops the subject after a comma: "lives in hyannis,is a realtor" (listed jobs only)
    _Cue("comma is a", _rx(r",[ \t]*(?:is|was)[ \t]+an?[ \t]+"), clinical=False, modifiers=1, confidence=0.7,
         gate=_COMMA_IS_A_GATE),
    # "before retirement she was school principal at vidya niketan": a job without its article, then where
    _Cue("subject was bare at", _rx(r"\b(?:he|she)\s+(?:is|was)\s+(?!an?\s|the\s)(?=(?:\p{L}+\s+){0,2}\p{L}+\s+"
                                   r"(?:at|for|with)\s+\p{L})"), clinical=False, modifiers=2, confidence=0.7),
    # a nursing note drops the article: "PT IS LONG HAUL TRUCK DRIVER FOR TRI-STATE", "Pt was roofer until 2019"
    # (listed jobs only, no clinical role: "PT IS ALERT", "pt is nurse aware" never match)
    _Cue("patient is bare", _rx(r"\b(?:patient|pt)(?:\s+is|\s+was|\s+used\s+to\s+be)\s+(?:retired\s+|former\s+)?(?!an?\s)"),
         clinical=False, modifiers=2, confidence=0.7),
    # "she is a good doctor": pronouns also describe the care team, so clinical roles need a work cue
    # (or a relative just named: "WIFE PHONED, SHE IS A MIDWIFE"; see _clinical_ok)
    _Cue("subject is a", _rx(r"\b(?:(?:he|she|they)" + _IS_EN + r"|hes|shes)\s+an?\s+"), clinical=False,
         confidence=0.75, gate=_IS_A_GATE),
    # the past describes a life, not the care team: "she used to be a pharmacist", "and used to be a seamstress"
    _Cue("used to be a", _rx(r"\b(?:(?:he|she|they|who|and)\s+)?(?:used\s+to\s+be|was\s+once|had\s+been)\s+an?\s+"),
         confidence=0.75, trigger=("used to be", "was once", "had been")),
    # "husband Arjun, a quantity surveyor, and", "Chen Wei (MRN ...), 33, line cook at": a listed job in
    # apposition after a capitalised name or an age
    _Cue("name, a", _rx(r"(?<=\p{Lu}\p{Ll}+),[ \t]+an?[ \t]+(?![\p{L}\d-]*(?:year|yr|month|week|day)s?-old)"),
         clinical=False, modifiers=1, confidence=0.7),
    _Cue("age, job", _rx(r"(?<=[\p{L})\]],[ \t]*)\d{1,3}(?:[ \t]*(?:[MF]|yo|y/o|yrs?))?[ \t]*,[ \t]+(?:an?[ \t]+)?"), modifiers=1,
         confidence=0.7),
    # a relation word and an age without the comma before: "Social: Mum 24, barista at Kowhai Cafe" (found from the
    # comma back, and the relation word checked on the words before: no literal pre-check of forty relation words)
    _Cue("relative age, job", _rx(r",[ \t]+(?<=\p{L}[ \t]+\d{1,3}(?:[ \t]*(?:[MF]|yo|y/o|yrs?))?[ \t]*,[ \t]+)(?:an?[ \t]+)?"),
         window=_rx(r"\b(?:" + RELATIVE_SUBJECTS + r")[ \t]+\d{1,3}(?:[ \t]*(?:[MF]|yo|y/o|yrs?))?[ \t]*$"), modifiers=1,
         confidence=0.7),
    # a relative's clinical job ("daughter who is a nurse") is ordinary talk in ICU notes: only with a work cue
    # (with up to three name words, a title with its period: "SON, FR. MICHAEL, IS A PRIEST", "Father René Pelletier, is a")
    _Cue("relative is a", _rx(r"(?=[whsdmfbpgnacu])\b(?:who|(?:" + RELATIVE_SUBJECTS + r")(?:-in-law)?(?:,?\s+(?!is\b|was\b|who\b)"
                              r"\p{L}[\p{L}'’-]*\.?){0,3}(?:[ \t]*\([^()\n]{1,40}\))?,?" + _AGE_ASIDE_EN + r")" + _IS_EN + r"\s+an?\s+"),
         clinical=False,
         confidence=0.75, gate=_IS_A_GATE),
    # "Orville was a baker": a capitalised first name as the subject (clinical roles only as for pronouns)
    _Cue("name is a", _rx(r"(?=\p{Lu})(?<!(?<!\b(?-i:Mr|Mrs|Ms|Dr|Miss))[.!?]\s)(?<!^)\b(?-i:\p{Lu}\p{Ll}{2,})"
                          r"(?:['’]s|" + _AGE_ASIDE_EN + r"(?:\s+is|\s+was|\s+used\s+to\s+be))\s+an?\s+"),
         clinical=False, confidence=0.7, gate=_IS_A_GATE),
    # "father Chidi (accountant)": a job in brackets after a relation word and a name
    _Cue("relative (job)", _rx(r"\b(?:" + RELATIVE_SUBJECTS + r")(?:-in-law)?(?:\s+(?-i:\p{Lu})[\p{L}'’-]+){0,2}\s*\(\s*"
                               r"(?:\d{1,3}[ \t]*(?:y|yo|yrs?)?[ \t]*,[ \t]*)?"),
         clinical=False, modifiers=1, confidence=0.7,
         gate=_rx(r"\((?<=(?:" + RELATIVE_SUBJECTS + r")(?:-in-law)?(?:\s+(?-i:\p{Lu})[\p{L}'’-]+){0,2}\s*\()")),
    # "NOK: Ama Boateng (wife), quantity surveyor, 024 ...": a relative's job after the bracketed relation word
    _Cue("(relative),", _rx(r"\(\s*(?:" + RELATIVE_SUBJECTS + r"|dtr|hcp|nok)(?:-in-law)?\s*\)\s*,[ \t]*" + _ART_EN),
         modifiers=1, confidence=0.7),
    # "Hamish Lockhart (38), electrician, self-employed": an age in brackets, then the job
    _Cue("(age),", _rx(r"\(\s*\d{1,3}\s*(?:[MF]|y|yo|yrs?)?\s*\)\s*,[ \t]*"), modifiers=1, confidence=0.7),
    _Cue("subject is the", _rx(r"(?=[hspwdmfbgnacu])\b(?:he|she|patient|pt|" + RELATIVE_SUBJECTS + r")(?:['’]s|\s+is|\s+was)\s+the\s+"),
         clinical=False, modifiers=2, confidence=0.7, gate=_IS_THE_GATE),
    # (three words in front of the head: "58 year old right-handed high school chemistry teacher")
    _Cue("age", _rx(r"(?=\d)(?:" + _AGE_EN + r")" + _AGE_TAIL_EN + r",?[ \t]+"), strong=True, modifiers=3,
         confidence=0.75),
    _Cue("age", _rx(r"(?=[otfsenah])" + _AGE_WORDS_EN + _AGE_TAIL_EN + r",?[ \t]+"), strong=True, modifiers=3,
         confidence=0.75, trigger=("old",)),
    _Cue("by trade", _rx(r"[ \t]+by\s+(?:trade|profession|occupation)\b"), after=False, strong=True,
         confidence=0.85),
    # the answer to "what work do you do?" in a transcript: the next turn opens with the job
    _Cue("work question reply", _rx(
        r"\b(?:what\s+(?:kind\s+of\s+|sort\s+of\s+)?(?:work|job|jobs)\s+(?:do|does|did)\s+(?:you|he|she|they)\s+do|"
        r"what\s+(?:do|does|did)\s+(?:you|he|she|they)\s+do\s+for\s+(?:work|a\s+living|money|a\s+job)|"
        r"what\s+(?:is|was|'s|’s)\s+(?:your|his|her)\s+(?:job|occupation|work|profession)|what\s+line\s+of\s+work|"
        r"where\s+(?:do|does|did)\s+(?:you|he|she)\s+work|and\s+what\s+(?:do|did)\s+you\s+do|"
        # "what did you work at", "did your grandmother work in ghana", "what's the work" (closing its turn)
        r"what\s+(?:do|does|did)\s+(?:you|he|she|they)\s+work\s+(?:at|as)\b|"
        r"did\s+(?:you|he|she|they|(?:your|his|her)\s+\p{L}+)\s+(?:ever\s+)?work\b|"
        r"what(?:['’]s|\s+is|\s+was)\s+the\s+work(?=[ \t?.]*(?:\n|$))|"
        # "and kwabena what do you do / husband: bus driver": the question closing its turn
        r"what\s+(?:do|does)\s+(?:you|he|she)\s+do(?=[ \t?.]*(?:\n|$|\[|[a-z]{1,12}[ \t]*:)))"
        r"(?:[^\n]{0,30}\n[ \t]*|[^\n\[]{0,20}?[ \t]+(?=\[))"
        r"(?:\[[^\]\n]{1,20}\][ \t]*:?|[a-z]{1,12}(?:[ \t]+\d{1,2})?[ \t]*:|(?:patient|pt|doctor|nurse|caller|mum|dad|"
        r"mother|father|husband|wife|son|daughter)[ \t]+)?[ \t]*"
        r"(?:(?:i\s+am|i['’]?m|i\s+was|mi\s+was|he['’]?s|she['’]?s|he\s+was|she\s+was|well|um+|uh+|so|yes|yeah|oh|still|"
        r"retired|now)[ \t,]+){0,3}"
        r"(?:an?\s+|the\s+)?"), strong=True, heuristic=True, modifiers=2, confidence=0.8,
         trigger=("work", "job", "living", "occupation", "profession", "what do you do", "what did you do")),
)

_EMPLOYED_AFTER = regex.compile(r"(?:[\p{L}-]+[ \t]+){1,3}(?:at|for)[ \t]+(?!(?:this|our|the[ \t]+(?:clinic|practice|"
                                r"surgery|hospital|ward|unit)|dr|doctor|mr|mrs|ms|miss|prof)\b)(?:the[ \t]+)?(?-i:\p{Lu})",
                                regex.IGNORECASE)
# a firm's name of two or more capitalised words after "with": "a senior audit manager with Halvorsen & Quek LLP"
# (one capitalised word may be a disease: "a poor historian with Dementia")
_EMPLOYED_WITH = regex.compile(r"(?:[\p{L}-]+[ \t]+){1,3}with[ \t]+(?-i:\p{Lu}\p{Ll}+[ \t]+(?:&[ \t]+)?\p{Lu})",
                               regex.IGNORECASE)
# where a job is held, in lower case: not a generic place, a time, a pronoun or the clinician's own workplace
_EMPLOYED_AFTER_LOWER = regex.compile(r"(?:[\p{L}-]+[ \t]+){1,3}(?:at|for)[ \t]+(?:the[ \t]+)?(\p{L}[\p{L}'’]+)",
                                      regex.IGNORECASE)
_NOT_EMPLOYER_EN = frozenset("""a an the this that these those our my his her your their its us them him me one two some any
another other same many several home night nights day days work times time all first last least present moment baseline
risk bedside rest heart school hospital hospitals clinic clinics practice surgery ward wards unit units office floor desk
station facility center centre agency here there dr doctor mr mrs ms miss prof nurse pt patient years year months weeks
now""".split())


# "he works at the mayo" just before "hes a <job>" (the same sentence; searched only on a "subject is a" hit)
_WORKS_BEFORE = regex.compile(r"\b(?:he|she)[ \t]+(?:still[ \t]+|now[ \t]+)?(?:works|worked|is[ \t]+working)[ \t]+"
                              r"(?:at|for|with)[ \t]+[^.;!?\n]{1,40}$", regex.IGNORECASE)


# --- session 18 (tune58) ------------------------------------------------------------------------------
_S18B_CUES_EN: tuple[_Cue, ...] = (
    # "she's studying to be a nurse at fresno state", "training to become an electrician": the job trained for
    _Cue("studying to be", _rx(r"\b(?:studying|training|in[ \t]+(?:school|college|training|nursing[ \t]+school)|"
                               r"going[ \t]+to[ \t]+(?:school|college))[ \t]+to[ \t]+(?:be|become)[ \t]+an?[ \t]+"),
         modifiers=2, strong=True, confidence=0.75, trigger=("to be a", "to become a")),
    # "other dtr summer is a pharmacist in pensacola", "son jake is a nurse": a relation word, a name (any case),
    # then "is a <job>": the relative's job (clinical ones too)
    _Cue("relative name is a", _rx(r"\b(?:" + RELATIVE_SUBJECTS + r"|dtr|dau)[ \t]+(?!(?:is|was|who|also|here|"
                                   r"now|still|says|said)\b)\p{L}[\p{L}'’-]+[ \t]+(?:is|was)[ \t]+an?[ \t]+"),
         modifiers=2, confidence=0.75, trigger=(" is a", " was a", " is an", " was an")),
    # "Owns and runs Hashimoto Bonsai & Garden Supply in Gardena (nursery owner)": the job in brackets after the
    # business the subject owns, runs or works at (in the same sentence)
    _Cue("(job) after owns", _rx(r"(?<=\b(?:owns|runs|owned|ran|works[ \t]+(?:at|for)|worked[ \t]+(?:at|for)|"
                                 r"employed[ \t]+(?:at|by))\b[^()\n.;]{2,80})\([ \t]*(?=[\p{L}-]+(?:[ \t]+[\p{L}-]+){0,2}"
                                 r"[ \t]*\))"),
         clinical=False, heuristic=True, modifiers=2, confidence=0.7, trigger=("owns", "runs", "owned", "ran ", "works",
                                                                          "worked", "employed")),
)
CUES_EN = CUES_EN + _S18B_CUES_EN
# "LINE COOK @ BIG EASY CRAWFISH HOUSE IN METAIRIE": the employer's name in capitals after "@" and a job found
_S18B_AT_EMPLOYER = regex.compile(
    r"[ \t]*@[ \t]*(?P<o>(?!(?:IN|ON|AT|NEAR|FOR|THE|HOME|WORK|NIGHT|NIGHTS|DAYS)\b)[A-Z][A-Z'’&.-]+"
    r"(?:[ \t]+(?!(?:IN|ON|AT|NEAR|FOR|SINCE|X|W|WITH|AND|X\d)\b)(?:[A-Z][A-Z'’&.-]*|&)){1,4})"
    r"(?=[ \t]*[,.;()]|[ \t]+(?:IN|ON|AT|NEAR|FOR|SINCE|X|W/|WITH|AND)\b|[ \t]*$)", regex.MULTILINE)


def _s18b_employers_after_at(text: str, spans: list[Span]) -> list[Span]:
    """An employer in capitals after ``<job> @`` (ORGANIZATION, ``pattern:employer``)."""
    out = []
    for s in spans:
        m = _S18B_AT_EMPLOYER.match(text, s.end)
        if m is not None and not any(c.isdigit() for c in m.group("o")):
            out.append(Span(m.start("o"), m.end("o"), "ORGANIZATION", "pattern:employer", 0.6,
                            "an employer after '<job> @'"))
    return out


def _employed_lower(text: str, pos: int) -> bool:
    """A job phrase at ``pos`` followed within three words by at/for/with and a place that is no generic word."""
    m = _EMPLOYED_AFTER_LOWER.match(text, pos, pos + 80)
    return m is not None and m.group(1).lower() not in _NOT_EMPLOYER_EN and "\n" not in m.group()


_AGE_ES = r"\b\d{1,3}\s+(?:años|anos|a\.)(?:\s+de\s+edad)?(?:[ \t]*\([^)\n]{0,40}\))?[ \t]*,?[ \t]*"
CUES_ES: tuple[_Cue, ...] = (
    _Cue("campo", _rx(r"(?:^|\b)(?:profesi[oó]n|ocupaci[oó]n|oficio|actividad\s+laboral|trabajo)\s*[:\-–]\s*"),
         heuristic=True, free=True, modifiers=2, strong=True, confidence=0.85),
    _Cue("de profesión", _rx(r"\bde\s+profesi[oó]n\s*,?\s*(?:(?:trabaja|trabajaba|trabajó|era|es|fue)\s+)?"
                             r"(?:(?:como|de)\s+)?" + _ART_ES), heuristic=True, free=True, modifiers=1,
         strong=True, confidence=0.85),
    _Cue("trabaja como", _rx(r"\b(?:trabaj(?:a|aba|ó|o|aban|an|ando|ar|ado)|ha\s+trabajado|había\s+trabajado|"
                             r"emplead[oa]s?|contratad[oa]s?|ejerce|ejercía|ejerció)\s+(?:como|de)\s+"
                             r"(?:(?:miembro|parte)\s+de\s+(?:la|el|los|las)\s+)?" + _ART_ES),
         heuristic=True, modifiers=1, strong=True, confidence=0.85),
    _Cue("como", _rx(r"\bcomo\s+" + _ART_ES), window=_WORK_ES, modifiers=0, strong=True, confidence=0.75),
    _Cue("se dedica a", _rx(r"\b(?:se\s+dedica(?:ba)?|se\s+dedicó|dedicad[oa])\s+a\s+(?:(?:la|las|los|el)\s+)?"),
         heuristic=True, modifiers=0, strong=True, confidence=0.8),
    _Cue("trabaja en", _rx(r"\btrabaj(?:a|aba|ó|aban|ando|ado)\s+en\s+(?:el|la|los|las)\s+"
                           r"(?:sector\s+(?:de\s+)?(?:la\s+|el\s+|los\s+)?)?"), sector=True, confidence=0.8),
    _Cue("ex", _rx(r"\b(?=ex(?:-|\s+)\p{L})"), modifiers=0, strong=True, confidence=0.8),
    _Cue("es", _rx(r"\b(?:paciente|enferm[oa]|var[oó]n|mujer|hombre|señora?|padre|madre|marido|espos[oa]|"
                   r"hij[oa]|herman[oa]|quien)\s+(?:es|era|fue|había\s+sido|ha\s+sido)\s+" + _ART_ES),
         modifiers=0, confidence=0.75),
    _Cue("edad", _rx(_AGE_ES), modifiers=0, strong=True, confidence=0.75),
    _Cue("de profesión (tras)", _rx(r"[ \t]+(?:de\s+profesi[oó]n|de\s+oficio|jubilad[oa]s?|retirad[oa]s?|"
                                    r"en\s+activo|en\s+paro|en\s+excedencia)\b"), after=False, strong=True,
         confidence=0.85),
)
_CONTINUE = _rx(r"(?:[ \t]*,[ \t]*(?:(?:now|then|later|also|previously|formerly)[ \t]+(?=(?:an?|the)[ \t]))?|"
                r"[ \t]+(?:and|or|y|e|o|u)(?:[ \t]+(?:later|then|now|also|previously|luego|"
                r"después|despues|también|tambien|antes))?[ \t]+|[ \t]*/[ \t]*|[ \t]*\([ \t]*)"
                r"(?:(?:an?|un|una)[ \t]+)?")


@dataclass(slots=True)
class _Tok:
    start: int
    end: int
    text: str
    n: str


def _tokens(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    cache = _NORM_CACHE  # the lexicon detector's memo of ``norm`` (a pure function)
    for m in _WORD.finditer(text):
        a, b = m.span()
        w = m.group()
        if w[2:3] == "-" and _EX.match(w) and len(w) > 3:  # ex-profesora: "ex" is a token of its own
            out.append(_Tok(a, a + 2, w[:2], "ex"))
            a += 3
            w = w[3:]
        nw = cache.get(w)
        if nw is None:
            nw = norm(w)
            if len(cache) < 500_000:
                cache[w] = nw
        out.append(_Tok(a, b, w, nw))
    return out


class ProfessionDetector:
    """Occupations of the patient or a relative, from a lexicon plus context cues."""

    family = "pattern"

    def __init__(self, lang: str = "en"):
        self.lang = "es" if lang == "es" else "en"
        self.name = "profession"
        self._loaded = False

    def load(self) -> None:
        if self._loaded:
            return
        from ..lexicons import load_lexicon

        es = self.lang == "es"
        self.phrases: set[tuple[str, ...]] = set()
        self.clinical = {tuple(t.n for t in _tokens(s)) for s in CLINICAL_EN} if not es else set()
        # the hand-written list, then (English) the jobs and care-team roles generated from WordNet
        for name in ("occupations_es",) if es else ("occupations_en",) + WORDNET_LEXICONS_EN:
            try:
                words = load_lexicon(name)
            except KeyError:  # a build without the WordNet lists
                continue
            for w in words:
                key = tuple(t.n for t in _tokens(w))
                if key:
                    self.phrases.add(key)
                    if name == "occupations_wordnet_clinical_en":
                        self.clinical.add(key)
        self.max_len = max((len(k) for k in self.phrases), default=1)
        self.sectors = {tuple(t.n for t in _tokens(s)) for s in (SECTORS_ES if es else SECTORS_EN)}
        self.cues = CUES_ES if es else CUES_EN
        # literals one of which every match of a cue holds: its scan is skipped on notes with none
        self._cue_prefilters = cached_prefilters(f"profession-{self.lang}",
                                                 [(c.rx.pattern, c.rx.flags) for c in self.cues])
        self.stop = STOP_ES if es else STOP_EN
        self.pre_skip = PRE_SKIP_ES if es else PRE_SKIP_EN
        self._loaded = True

    def describe(self) -> dict:
        from ..lexicons import lexicon_version

        return {"lang": self.lang, "lexicons": lexicon_version(), "cues": len(CUES_ES if self.lang == "es" else CUES_EN)}

    # -- matching helpers ------------------------------------------------------------
    def _gap_ok(self, text: str, toks: list[_Tok], a: int, b: int) -> bool:
        """Tokens a and b (b = a + 1) are neighbours on one line: only spaces (or the ex- hyphen) between."""
        gap = text[toks[a].end:toks[b].start]
        return gap == "-" and toks[a].n == "ex" or (0 < len(gap) <= 3 and gap.strip(" \t") == "")

    def _match(self, text: str, toks: list[_Tok], j: int, table: set[tuple[str, ...]]) -> int:
        """Length of the longest phrase of ``table`` starting at token j (0 if none)."""
        for size in range(min(self.max_len + 1, len(toks) - j), 0, -1):
            key = tuple(t.n for t in toks[j:j + size])
            if key in table and all(self._gap_ok(text, toks, k, k + 1) for k in range(j, j + size - 1)):
                return size
        return 0

    def _job_shaped(self, n: str) -> bool:
        if len(n) < 5 or not n.isalpha():
            return False
        if self.lang == "es":
            return n.endswith(_JOB_SUFFIX_ES) and n not in _NOT_JOB_ES
        return n.endswith(_JOB_SUFFIX_EN) and n not in _NOT_JOB_EN

    @staticmethod
    def _compound_job(toks: list[_Tok], i: int, j: int) -> bool:
        """Token j heads a trade with a noun in front: ``private-hire driver``, ``home attendant``
        (a modifier from token i on), or is one word ending in a head (``farmworker``, not ``coworker``)."""
        n = toks[j].n
        if n in COMPOUND_HEADS_EN:
            if j == i:
                return False
            mod, before = toks[j - 1].n, toks[j - 1].text
            # a capitalised word in front is a firm ("a Walmart worker"), unless the text is in capitals
            return len(mod) >= 3 and mod.replace("-", "").isalpha() and mod not in NOT_COMPOUND_MODIFIERS_EN \
                and mod.rsplit("-", 1)[-1] not in NOT_COMPOUND_MODIFIERS_EN \
                and (before[:1].islower() or before.isupper() and toks[j].text.isupper())
        for h in SOLID_HEADS_EN:
            if n.endswith(h) and n.isalpha() and len(n) - len(h) >= 4 and n[:-len(h)] not in NOT_COMPOUND_MODIFIERS_EN:
                return True
        return False

    def _allowed(self, key: tuple[str, ...], cue: _Cue) -> bool:
        if not cue.clinical and key in self.clinical:
            return False
        if not cue.strong and len(key) == 1 and key[0] in STRONG_ONLY:
            return False
        return True

    def _mixed_case(self, text: str) -> bool:
        n_letters, up = count_alpha_upper(text)
        return 0 < up < 0.6 * n_letters

    # -- phrase parsing --------------------------------------------------------------
    def _slot(self, text: str, toks: list[_Tok], i: int, cue: _Cue, mixed: bool) -> tuple[int, int] | None:
        """Token range [first, last] of the occupation starting at token i, or None."""
        n = len(toks)
        ex_at = None  # "ex profesora", "ex-marine": the prefix belongs to the span
        if i + 1 < n and toks[i].n == "ex" and self._gap_ok(text, toks, i, i + 1):
            ex_at, i = i, i + 1
        while i < n and toks[i].n in self.pre_skip and i + 1 < n and (
                self._gap_ok(text, toks, i, i + 1) or toks[i].n in DOTTED_PRE_SKIP_EN and self.lang == "en"
                and _DOT_GAP.fullmatch(text, toks[i].end, toks[i + 1].start)):
            i += 1
        if i >= n:
            return None
        table = self.sectors if cue.sector else self.phrases
        j, last, loose, first = i, None, 0, i
        head = shaped = None  # first token of the first lexicon match; last job-shaped unknown word
        while j < n and (j == i or self._gap_ok(text, toks, j - 1, j)):
            size = self._match(text, toks, j, table)
            if size:
                key = tuple(t.n for t in toks[j:j + size])
                if self._allowed(key, cue):
                    head = j if head is None else head
                    last = j + size - 1
                    j += size
                    continue
                if last is None:
                    return None
                break
            if toks[j].n in self.stop or cue.sector:
                break
            if last is None and j > i and toks[j].n in MAKER_HEADS_EN and self.lang == "en" \
                    and toks[j - 1].n not in NOT_MAKERS_EN and toks[j - 1].n.isalpha():
                head = last = j  # "a hurley maker", "a saddle maker": a noun before "maker" names the trade
                j += 1
                continue
            if last is None and self.lang == "en" and cue.name != "age" and self._compound_job(toks, i, j):
                head = last = j  # "a private-hire driver", "a home attendant", "a farmworker"
                j += 1
                continue
            if cue.heuristic and last is None and self._job_shaped(toks[j].n):
                shaped = j
            loose += 1
            if loose > (cue.modifiers if last is None else 1):
                break
            j += 1
        if last is None:
            last = head = shaped
        if last is None:
            return self._free(text, toks, i, cue) if cue.free else None
        if mixed and not cue.free and toks[last].text[:1].islower():  # "works as a Walmart cashier": the name stays out
            for k in range(i, head):
                if toks[k].text[:1].isupper() and not (toks[k].text.isupper() and toks[k].n in UNIT_ABBR_EN):
                    first = k + 1
        if ex_at is not None and first == i:
            first = ex_at
        if self.lang == "es":
            last = self._complement(text, toks, last, mixed)
        return first, last

    def _free(self, text: str, toks: list[_Tok], i: int, cue: _Cue) -> tuple[int, int] | None:
        """Field cues: the words up to the next punctuation (at most 6)."""
        if toks[i].n in self.stop or toks[i].n in FREE_REJECT or toks[i].n in self.pre_skip:
            return None
        j = i
        while j + 1 < len(toks) and j - i < 5 and self._gap_ok(text, toks, j, j + 1) \
                and toks[j + 1].n not in ("que", "con", "desde", "durante", "who", "with", "since", "and", "y"):
            j += 1
        return i, j

    def _complement(self, text: str, toks: list[_Tok], last: int, mixed: bool) -> int:
        """Spanish: extend ``trabajador`` to ``trabajador en canteras`` (a short de/en complement)."""
        n = len(toks)
        if toks[last].n not in COMPLEMENT_HEADS_ES:
            return last
        k = last + 1
        if k >= n or not self._gap_ok(text, toks, last, k) or toks[k].n not in ("de", "del", "en"):
            return last
        k2 = k + 1
        if k2 < n and toks[k2].n in ("el", "la", "los", "las", "un", "una") and self._gap_ok(text, toks, k, k2):
            k2 += 1
        words: list[int] = []
        j = k2
        while j < n and len(words) < 4 and self._gap_ok(text, toks, j - 1, j):
            if toks[j].n in ("de", "del") and words and j + 1 < n and self._gap_ok(text, toks, j, j + 1) \
                    and toks[j + 1].n not in STOP_ES:  # fábrica de muebles
                j += 1
            elif toks[j].n in STOP_ES:
                break
            words.append(j)
            j += 1
        if not words:
            return last
        if mixed and all(toks[w].text[:1].isupper() for w in words):  # empleado de Telefónica: a company
            return last
        return words[-1]

    def _before(self, text: str, toks: list[_Tok], j: int, cue: _Cue) -> tuple[int, int] | None:
        """Post cues (``carpenter by trade``): the longest occupation ending at token j."""
        for size in range(min(self.max_len, j + 1), 0, -1):
            a = j - size + 1
            key = tuple(t.n for t in toks[a:j + 1])
            if key in self.phrases and all(self._gap_ok(text, toks, k, k + 1) for k in range(a, j)):
                if not self._allowed(key, cue):
                    return None
                if self.lang == "es" and a > 0 and toks[a - 1].n == "ex" and self._gap_ok(text, toks, a - 1, a):
                    a -= 1
                return a, j
        return None

    # -- detection -------------------------------------------------------------------
    def detect(self, document: Document) -> list[Span]:
        self.load()
        text = document.text
        # cues first: most notes have none, and then nothing needs tokenising
        low = text.lower()
        gated: dict[regex.Pattern, bool] = {}  # gate -> found (several cues share one)
        hits = [(cue, m) for cue, pf in zip(self.cues, self._cue_prefilters)
                if (not cue.trigger or any(t in low for t in cue.trigger)) and (pf is None or pf.may_match(text, low))
                and (cue.gate is None or _gate_found(cue.gate, low if cue.gate_low else text, gated))
                for m in cue.rx.finditer(text) if cue.window is None or _window_ok(cue.window, text, m.start())]
        if not hits:
            return []
        toks = _tokens(text)
        if not toks:
            return []
        starts = [t.start for t in toks]
        ends = [t.end for t in toks]
        mixed = self._mixed_case(text)
        talk = self.lang == "en" and dialogue(text)
        found: dict[tuple[int, int], Span] = {}

        def add(rng: tuple[int, int], cue: _Cue, conf: float) -> None:
            a, b = toks[rng[0]].start, toks[rng[1]].end
            old = found.get((a, b))
            if old is None or old.confidence < conf:
                found[(a, b)] = Span(a, b, LABEL, SOURCE, conf, f"occupation after the cue '{cue.name}'")

        for cue, m in hits:
            if not cue.clinical and self.lang == "en" and not cue.name.startswith("first person") \
                    and _EMPLOYED_AFTER.match(text, m.end(), m.end() + 60):
                # "Mrs Sandhu is a pharmacy technician at Chalvey Pharmacy": a clinical job at a named employer;
                # "Mrs Ngozi Eze, a trader at Wuse Market": a named employer makes an ambiguous job word one
                cue = replace(cue, clinical=True, strong=True)
            elif not cue.clinical and self.lang == "en" and cue.name == "subject is a" \
                    and m.group()[:1] in "hHsS" and _employed_lower(text, m.end()):
                # "dtr at bedside, she is a nurse at mercy": the place of work, even in lower case, makes the
                # clinical job hers (a clinician is "the nurse", or works "at the hospital" or "here")
                cue = replace(cue, clinical=True)
            elif not cue.clinical and self.lang == "en" and cue.name == "subject is a" \
                    and _WORKS_BEFORE.search(text, max(0, m.start() - 80), m.start()):
                # "and he works at the mayo hes a respiratory therapist": the workplace said just before, in the
                # same sentence, makes the clinical job the subject's
                cue = replace(cue, clinical=True)
            elif not cue.clinical and self.lang == "en" and self._relative_job(text, cue, m, 150 if talk else 40):
                # in a transcript "my wife's a paramedic" is her job; in a note the relation word must be
                # close: "WIFE PHONED, SHE IS A MIDWIFE", "husband Arjun, a nurse"
                cue = replace(cue, clinical=True)
            if not cue.strong and self.lang == "en" and _EMPLOYED_WITH.match(text, m.end(), m.end() + 60):
                # "Ms Tan is a senior audit manager with Halvorsen & Quek": a named firm makes "manager" a job
                cue = replace(cue, strong=True)
            if cue.after:
                i = bisect.bisect_left(starts, m.end())
                if i >= len(toks) or text[m.end():toks[i].start].strip(" \t"):
                    continue
                rng = self._slot(text, toks, i, cue, mixed)
            else:
                j = bisect.bisect_right(ends, m.start()) - 1
                if j < 0 or text[toks[j].end:m.start()].strip(" \t"):
                    continue
                rng = self._before(text, toks, j, cue)
            if rng is None:
                continue
            add(rng, cue, cue.confidence)
            self._continue(text, toks, starts, rng, cue, mixed, add)
        if self.lang == "en" and "@" in text:  # session 18: "LINE COOK @ BIG EASY CRAWFISH HOUSE"
            return _outermost(list(found.values())) + _s18b_employers_after_at(text, list(found.values()))
        return _outermost(list(found.values()))

    @staticmethod
    def _relative_job(text: str, cue: _Cue, m: regex.Match, window: int = 150) -> bool:
        """The subject is a relative: a relation word in the cue, or (for he/she, a name) just before it."""
        if cue.name == "relative is a":
            return window >= 150 and not m.group().lower().startswith("who")
        if cue.name in ("subject is a", "name is a", "name, a", "comma is a"):
            return _RELATION_NEAR.search(text, max(0, m.start() - window), m.start()) is not None
        return False

    def _continue(self, text, toks, starts, rng, cue, mixed, add) -> None:
        """A list after an occupation: ``azafata, dependienta, monitora de deporte``."""
        list_cue = _Cue(cue.name + " (list)", cue.rx, clinical=cue.clinical, modifiers=1, strong=cue.strong,
                        confidence=0.7)
        for _ in range(6):
            m = _CONTINUE.match(text, toks[rng[1]].end)
            if not m:
                return
            i = bisect.bisect_left(starts, m.end())
            if i >= len(toks) or toks[i].start != m.end() or toks[i].n == "etc":
                return
            nxt = self._slot(text, toks, i, list_cue, mixed)
            if nxt is None or nxt[0] < i:
                return
            add(nxt, list_cue, list_cue.confidence)
            rng = nxt


def _window_ok(window: regex.Pattern, text: str, pos: int) -> bool:
    """The words before ``pos`` in its sentence (at most 100 characters) hold ``window`` (checked before the text is
    tokenised: a cue match its window refuses costs no tokenising)."""
    left = text[max(0, pos - 100):pos]
    brk = list(_SENT_BREAK.finditer(left))
    if brk:
        left = left[brk[-1].end():]
    return window.search(left) is not None


def _gate_found(gate: regex.Pattern, text: str, found: dict[regex.Pattern, bool]) -> bool:
    hit = found.get(gate)
    if hit is None:
        hit = found[gate] = gate.search(text) is not None
    return hit


def _outermost(spans: list[Span]) -> list[Span]:
    """Drop spans inside another one; the rest sorted by start."""
    spans.sort(key=lambda s: (s.start, -s.end))
    out: list[Span] = []
    for s in spans:
        if out and s.start < out[-1].end:
            if s.end > out[-1].end:  # partial overlap: keep the longer
                if s.length > out[-1].length:
                    out[-1] = s
            continue
        out.append(s)
    return out
