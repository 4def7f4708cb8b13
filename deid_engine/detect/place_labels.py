"""Which kind of place: the LOCATION subtype from the words of a place span (``place_labels`` filter).

The English tagger learnt PhysioNet's single ``Location`` label, so its place spans
say only "a place" (``LOCATION``). Reviewers, surrogates and labelled scores need the
kind: a hospital is replaced by a hospital, a town by a town. ``PlaceLabelFilter``
gives a generic ``LOCATION`` span (not the user's) the subtype its own words state,
first rule that applies:

- **STREET**: a house number first (``14 Cole Street``) or a street word last
  (``Dock Road``, ``Calle Luna``);
- **HOSPITAL**: a care word last (``Kells Medical Centre``, ``Brookside Pediatrics``,
  ``Pendle Rise Surgery``), or ``Associates``/``Group``/``Partners`` after a care or
  medical word (``Harpeth Valley Heart Associates``); ``Shopping Centre`` is no care;
- **ORGANIZATION**: a company, school, church, club or shop word last
  (``Hawthorne Elementary``, ``Ruby's Diner``, ``Manchester Credit Union``,
  ``Bethel Pentecostal Tabernacle``);
- **STATE**: ``X County``, ``X Province``, ``X Parish``; **LOCATION_OTHER**: a
  lake, park, river, market, reservation ... (``Red Lake``, ``Sankey Tank``);
- **CITY** / **STATE** / **COUNTRY**: the whole span is a listed place
  (``Twickenham``, ``Iowa``, ``Saudi Arabia``; the lexicon detector's tables);
- **CITY**: an unlisted single place after ``lives in``, ``from``, ``moved to`` ...,
  or before ``, <State>`` (``Fenwick``, ``Capalaba, QLD``).

Anything else stays ``LOCATION``. Only the label changes, never the extent.
English only: the Spanish tagger's labels are MEDDOCAN's own subtypes.
"""

from __future__ import annotations

from dataclasses import replace

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..types import Document, Span
from .lexicon import LOWER_ORG_SUFFIXES, ORG_SUFFIXES

_ORG_LAST = frozenset(ORG_SUFFIXES | LOWER_ORG_SUFFIXES) - {"group", "associates", "partners", "health", "dental",
                                                            "labs", "department", "market", "markets"}
_STATE_LAST = frozenset({"county", "province", "parish", "shire", "oblast", "prefecture", "territory", "borough"})
_OTHER_LAST = frozenset("""lake lakes park river creek beach bay island islands mountain mountains forest reserve
reservation marae tank falls canyon valley harbour harbor marina port pier wharf stadium arena oval ground grounds
field fields campground trailhead dam reservoir market markets downs station""".split())

_WORD = regex.compile(r"\p{L}[\p{L}'’]*|\d+")

_STREET_WORDS = frozenset("""street st road rd avenue ave av lane ln drive dr boulevard blvd way close crescent cres
court ct place pl terrace tce parkway pkwy highway hwy row grove gardens mews walk square sq view rise hill parade
circle cir trail pike turnpike expressway freeway alley wynd broadway esplanade calle avenida rua""".split())
_STREET_FIRST = frozenset({"calle", "avenida", "rua", "via", "rue"})

_CARE_LAST = frozenset("""hospital hospitals hosp clinic clinics surgery practice pediatrics paediatrics infirmary
hospice sanatorium sanitarium medicine orthopedics orthopaedics oncology cardiology dermatology neurology urology
gastroenterology rheumatology nephrology ophthalmology radiology imaging diagnostics rehab rehabilitation wellness
physicians specialists dental dentistry therapy therapies counseling counselling obstetrics gynecology psychiatry
audiology optometry podiatry physiotherapy physio chiropractic endoscopy behavioral behavioural healthcare
vamc ltac general regional memorial pavilion medical lodge manor""".split())
# "Kells Medical Centre", "Lakeview Arthritis Center", "Rutland Centre": a centre is a place of care
# unless the word before it says otherwise ("Meridian Shopping Centre", "Millbrook Senior Center")
_CENTER = frozenset({"center", "centre", "centers", "centres"})
_NOT_CARE_CENTER = frozenset({"shopping", "leisure", "sports", "sport", "community", "garden", "distribution", "call",
                              "data", "fitness", "youth", "civic", "conference", "convention", "retail", "trade",
                              "food", "sweet", "sweets", "senior", "seniors", "business", "arts", "art", "aquatic",
                              "aquatics", "recreation", "rec", "activity", "activities", "learning", "education",
                              "training", "visitor", "visitors", "town", "city", "village", "cultural", "heritage",
                              "islamic", "jewish", "music", "dance", "tennis", "golf", "swim", "swimming", "day",
                              "job", "jobs", "employment", "enterprise", "innovation", "technology", "logistics"})
_CARE_HOME = frozenset({"nursing", "care", "rest", "retirement"})  # "<X> Nursing Home"
_GROUP_WORDS = frozenset({"associates", "group", "partners", "partnership", "institute", "health", "care",
                          "services", "service"})
_MEDICAL_WORDS = frozenset("""medical med health care cancer heart eye eyes surgical surgery rehabilitation rehab
nursing dialysis birth birthing trauma wellness treatment recovery fertility diagnostic imaging dental community
family pediatric paediatric children's childrens women's womens veterans psychiatric mental cardiac kidney renal
sleep pain spine orthopedic orthopaedic hearing neurological behavioral behavioural memory stroke burn digestive
cardiovascular vascular ent gi ob obgyn ortho women children skin arthritis allergy asthma lung chest bone joint
neuroscience neurosciences
diabetes digestive primary urgent senior home hospice physicians""".split())
_MEDICAL_STEM = regex.compile(r"(?:ology|ologic|ological|ical|iatric|iatry|pedic|paedic|medic|therapy)$")
_ORG_LAST_EXTRA = frozenset("""elementary kindergarten nursery daycare creche montessori church chapel cathedral
tabernacle mosque temple gurdwara synagogue mandir ministries parish baptist methodist presbyterian lutheran
pentecostal episcopal catholic adventist club society mart store stores shop diner cafe restaurant bakery bar pub
tavern inn hotel motel casino brewery dairy logistics transit freight warehouse factory quarry electrical janitorial
parcels roofing plumbing cannery iron steel metals engineering builders wholesale transport catering security
library museum council hall university college academy school preschool bank insurance""".split())
_EMPLOYER_CUE = regex.compile(r"(?i)\b(?:works?|worked|working|employed|job|jobs|shifts?|earlies|lates|"
                              r"volunteers?|volunteering|retired|employee|employer|contract(?:ed)?|clean\w*|"
                              r"receptionist|cashier|manager|teller|assistant|driver|technician|engineer|tester|teacher|"
                              r"student|studying|classes|school|pupil)\b[^.\n]{0,30}?\b(?:at|for|by|with|from)"
                              r"(?:[ \t]+the)?[ \t]+$")
_INSURANCE_CUE = regex.compile(r"(?i)\b(?:insurance|insurer|insured|coverage|policy|prior[ \t]+auth|(?:health|medical|"
                               r"dental|drug|insurance)[ \t]+plan)\b[^.\n]{0,30}$")
_INSURANCE_AFTER = regex.compile(r"(?i)^[^.\n]{0,12}\b(?:insurance|plan|policy|coverage|member(?:ship)?|appeal|claim)\b")
_CHURCH_CUE = regex.compile(r"(?i)\b(?:mass|church|parish|pastor|priest|father|reverend|rev|vicar|choir|sunday|"
                            r"sundays|service|congregation|sermon|worship|prayer|prayed|novena|bingo|rosary)\b")
_CARE_CUE = regex.compile(r"(?i)\b(?:seen|reviewed|admitted|readmitted|transferred|transfer|discharged|records?|scans?|"
                          r"scanned|x-?rays?|mri|ct|echo|bloods|labs?|biopsy|done|booked|referral|referred|delivered|"
                          r"born|er|ed|a&e|emergency(?![ \t]+contact)|clinic|surgery|operated|operation|rehab|infusions?|screen(?:ing)?|"
                          r"treated|treatment|appointment|appt|follow-?up|f/u|inpatient|outpatient|ward|icu|unit|"
                          r"hospital|hospitalised|hospitalized|consultant|specialist|"
                          r"placement|bed|hospice|dialysis|chemo|radiotherapy|cardiology|oncology)\b"
                          r"[^.\n]{0,25}?\b(?:at|from|to|in)(?:[ \t]+the)?[ \t]+$")
_CARE_FIRST = frozenset({"hôpital", "hopital", "hospital", "hospital", "clinique", "clinica", "clínica", "ysbyty",
                         "centre hospitalier", "policlinica", "policlínica", "ospedale", "krankenhaus", "klinik"})
_ORG_FIRST = frozenset({"scoil", "gaelscoil", "gaelcholáiste", "coláiste", "colaiste", "ysgol", "iglesia", "église",
                        "eglise", "capel", "chiesa", "escuela", "colegio", "école", "ecole", "lycée", "lycee"})
# a clinician named right before the place: "doctor raghavendra at jayadeva", "by dr adeyemi in may at st agnes"
_CLINICIAN_AT = regex.compile(r"(?i)\b(?:dr|doctor|prof|professor|consultant|surgeon)\.?[ \t]+\p{L}[\p{L}'’-]*"
                              r"(?:[ \t]+\p{L}[\p{L}'’-]*)?(?:[ \t]+in[ \t]+\p{L}+)?[ \t]+(?:at|from)[ \t]+(?:the[ \t]+)?$")
_SAINT = frozenset({"st", "saint", "ste", "san", "santa", "sainte"})
_STATE_AFTER = regex.compile(r"^,[ \t]*(?:\p{Lu}{2}\b|\p{Lu}\p{Ll}+)")
_IN_BEFORE = regex.compile(r"(?i)(?:^|[^\p{L}])(?:in|near|outside|around)[ \t]+$")
_AT_BEFORE = regex.compile(r"(?i)\bat(?:[ \t]+the)?[ \t]+$")
_UNIT = regex.compile(r"(?i)[a-z]{0,3}icu|ccu|hdu|sdu|pacu|nicu|picu|scbu|amu|cdu|ed|er|a&e")
_STRONG_CARE = frozenset({"hospital", "clinic", "infirmary", "hospice", "surgery", "practice", "pavilion"})
_TOWN_CUE = regex.compile(r"(?i)(?:\b(?:lives?|living|lived|live|home|house|grew[ \t]+up|raised|born|moved|moving|"
                          r"relocated|based|settled|resides|resident|staying|stays|stay)[ \t]+(?:back[ \t]+)?"
                          r"(?:in|at|to|near|of|out[ \t]+(?:in|at))|\b(?:moved|moving|relocated|born|raised|originally)[ \t]+from|\b(?:drove|driving|drive|came|come|comes|"
                          r"coming|flew|flying|fly|travell?ed|visiting)[ \t]+(?:down[ \t]+|up[ \t]+|over[ \t]+|in[ \t]+)?"
                          r"from)[ \t]+$")
# regions that the place lexicons do not list: provinces, counties and states outside the US
_REGIONS = frozenset(r.strip() for r in """alberta, saskatchewan, manitoba, ontario, quebec, québec, nova scotia,
new brunswick, newfoundland, labrador, prince edward island, yukon, nunavut, northwest territories, british columbia,
queensland, tasmania, new south wales, western australia, south australia, northern territory, punjab, goa,
karnataka, kerala, tamil nadu, gujarat, maharashtra, rajasthan, bihar, west bengal, telangana, andhra pradesh,
uttar pradesh, madhya pradesh, odisha, assam, haryana, sindh, balochistan, oaxaca, jalisco, chiapas, michoacan,
michoacán, guerrero, puebla, sonora, chihuahua, yucatan, yucatán, zacatecas, sinaloa, veracruz, nuevo leon,
nuevo león, essex, surrey, sussex, east sussex, west sussex, devon, cornwall, dorset, somerset, norfolk, suffolk,
cumbria, merseyside, county durham, northumberland, fife, lothian, strathclyde, antrim, armagh, tyrone, fermanagh,
donegal, kerry, mayo, clare, tipperary, wexford, wicklow, kildare, meath, louth, leitrim, roscommon, longford,
westmeath, offaly, laois, carlow, monaghan, cavan""".replace("\n", " ").split(","))
_REGION_ABBR = frozenset("""AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ
NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR ON QC BC AB SK MB NS NB NL PE YT NT NU NSW QLD VIC
TAS WA SA NT ACT""".split())
_US_STATE_NOT_COUNTRY = frozenset({("georgia",), ("puerto", "rico"), ("guam",)})


class PlaceLabelFilter:
    name = "place_labels"

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.places: dict[tuple[str, ...], str] = {}
        self._bound = False

    def bind(self, detectors) -> None:
        """Share the lexicon detector's place table when the pipeline runs one (no second copy)."""
        for d in detectors:
            places = getattr(d, "places", None)
            if d.name == "lexicon" and isinstance(places, dict):
                self.places = places
                self._bound = True
                return

    def load(self) -> None:
        if self.lang != "en" or self._bound:
            return
        from .lexicon import LexiconDetector

        lex = LexiconDetector(self.lang)
        lex.load()
        self.places = lex.places
        self._bound = True

    def describe(self) -> dict:
        return {"subtypes": "generic LOCATION -> STREET/HOSPITAL/ORGANIZATION/STATE/LOCATION_OTHER/CITY/COUNTRY "
                            "from the span's own words and the place lexicons", "active": self.lang == "en"}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        if self.lang != "en" or not spans:
            return spans
        text = document.text
        out = []
        for s in spans:
            if s.label == "LOCATION" and not s.source.startswith("user"):
                label = self.subtype(text, s)
                if label != s.label:
                    s = replace(s, label=label)
            out.append(s)
        return out

    def subtype(self, text: str, s: Span) -> str:
        words = [m.group().lower().replace("’", "'") for m in _WORD.finditer(text, s.start, s.end)]
        if not words:
            return s.label
        last, first = words[-1], words[0]
        before = text[max(0, s.start - 60):s.start]
        after = text[s.end:s.end + 40]
        n = len(words)
        surface = text[s.start:s.end]
        if first.isdigit() and n >= 2 and not words[1].isdigit():
            return "STREET"
        if n == 1 and surface in _REGION_ABBR and before.rstrip().endswith(","):
            return "STATE"
        if n == 1 and _UNIT.fullmatch(surface):
            return "DEPARTMENT"
        from .lexicon import _WORD as _LEX_WORD, norm

        if first in _CARE_FIRST and n >= 2:
            return "HOSPITAL"  # "Hôpital de Hull", "Clinique Médicale du Ruisseau", "ysbyty gwynedd"
        if first in _ORG_FIRST and n >= 2:
            return "ORGANIZATION"  # "Scoil Mhuire Naofa", "iglesia san juan diego", "capel bethesda"
        if _CLINICIAN_AT.search(before) and not _IN_BEFORE.search(before):
            return "HOSPITAL"  # "doctor raghavendra at jayadeva", "seen by dr adeyemi in may at st agnes"
        key = tuple(norm(t.group()) for t in _LEX_WORD.finditer(surface))
        listed = self.places.get(key)
        if key in _US_STATE_NOT_COUNTRY:
            return "STATE"
        if listed in ("STATE", "COUNTRY"):
            return listed
        if listed == "CITY":
            # "reviewed at Beaumont", "transfer from glenfield": a town's name used for its hospital
            if _AT_BEFORE.search(before) or _CARE_CUE.search(before) and not _IN_BEFORE.search(before):
                return "LOCATION"
            return "CITY"
        if " ".join(key) in _REGIONS or (last.endswith("shire") and n <= 2):
            return "STATE"
        if (_INSURANCE_CUE.search(before) or _INSURANCE_AFTER.search(after)) and last not in _STRONG_CARE:
            return "ORGANIZATION"
        saint = first in _SAINT and n <= 3
        church = _CHURCH_CUE.search(before[-45:] + " " + after[:25]) is not None
        strong_care = (last in _STRONG_CARE or first == "ysbyty"
                       or n >= 2 and (last in _CENTER and words[-2] in _MEDICAL_WORDS or last == "home"
                                      and words[-2] in _CARE_HOME or last == "living" and words[-2] == "senior"))
        if (_EMPLOYER_CUE.search(before) and not strong_care and not saint and last not in ("manor", "lodge")
                or "animal" in words or "veterinary" in words or "vet" in words):
            return "ORGANIZATION"
        if last in _CARE_LAST and n >= 2 or strong_care:
            return "HOSPITAL"
        if last in _CENTER and n >= 2:
            return "ORGANIZATION" if words[-2] in _NOT_CARE_CENTER else "HOSPITAL"
        if last == "home" and n >= 2 and words[-2] in _CARE_HOME:
            return "HOSPITAL"
        if last == "living" and n >= 2 and words[-2] in ("senior", "assisted", "independent"):
            return "HOSPITAL"
        if last == "care" and n >= 2 and words[-2] in ("urgent", "primary", "home", "immediate", "express"):
            return "HOSPITAL"
        if last in _GROUP_WORDS and n >= 2:
            medical = any(w in _MEDICAL_WORDS or w in _CARE_LAST or _MEDICAL_STEM.search(w) for w in words[:-1])
            if medical or last in ("health", "care"):
                return "HOSPITAL"
            if last == "institute":  # "Kessler Institute" (rehab), "Riverina Institute" (a college)
                return s.label
            return "ORGANIZATION"
        if n >= 2 and (last in _ORG_LAST or last in _ORG_LAST_EXTRA):
            return "ORGANIZATION"
        if n >= 2 and last in _STATE_LAST:
            return "STATE"
        if saint:
            if _TOWN_CUE.search(before) or _IN_BEFORE.search(before) or _STATE_AFTER.match(after):
                return "CITY"  # "lives in St. Cloud"
            return "ORGANIZATION" if church else "HOSPITAL"
        if n >= 2 and ((last in _STREET_WORDS) or (first in _STREET_FIRST)):
            return "STREET"
        if n >= 2 and last in _OTHER_LAST:
            return "LOCATION_OTHER"
        if church:
            return "ORGANIZATION" if _AT_BEFORE.search(before) or regex.search(r"(?i)\bto[ \t]+$", before) else s.label
        if n <= 3 and all(w.isalpha() for w in words):
            if _TOWN_CUE.search(before) or _IN_BEFORE.search(before) or _STATE_AFTER.match(after):
                return "CITY"
        if _CARE_CUE.search(before):
            return "HOSPITAL"
        return s.label
