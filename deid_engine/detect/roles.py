"""Whose name is it: the NAME subtype from the words around a name (``name_roles`` filter).

Detectors find names well but often guess the wrong role: the tagger learned
PhysioNet's notes, where a capitalised name is mostly a clinician, and the
lexicon labels by its own cue. A role the text states outright wins:

- **DOCTOR** (any care provider, as in i2b2 and PhysioNet's HCPName): a title or
  role right before the name (``Dr.``, ``Doctor``, ``Prof``, ``nurse``,
  ``attending``, ``cardiologist`` ...) or a credential right after it
  (``, MD``, ``RN``, ``NP``, ``PA-C`` ...);
- **RELATIVE** (family, friends, other contacts): a relation word right before the
  name (``wife``, ``his daughter``, ``neighbour``, ``HCP``, ``my son is``);
- **PATIENT**: ``patient``, ``pt``, ``Patient name:``, ``Re:`` right before it.

"Right before" means on the same line, with at most a comma, colon, ``is`` or
``named`` in between; a label at the start of a line (``Patient:``) counts only
when the name fills the field, not in a transcript's speaker turn. Then, within
one note, a clinician's name word passes DOCTOR to the other spans of that word
(``Dr. Okafor ... Okafor agreed``); family roles do not travel (relatives share
surnames). Spans without a stated or inherited role keep their label. English only: the Spanish tagger's roles come from MEDDOCAN's own forms.
"""

from __future__ import annotations

from functools import lru_cache

from . import regex_memo as regex  # regex, with memoised module-level functions

from ..taxonomy import category_of, is_label
from ..types import Document, Span

ROLES = ("DOCTOR", "RELATIVE", "PATIENT")

_DOCTOR_BEFORE = regex.compile(
    r"(?i)\b(?:dr|drs|doctor|doc|prof|professor|physician|attending|surgeon|resident|intern|fellow|nurse|"
    r"rn|lpn|np|pa|crna|cnm|midwife|therapist|pharmacist|dentist|consultant|registrar|"
    r"pcp|provider|clinician|specialist|hospitalist|intensivist|anesthesiologist|anaesthetist|\p{L}+ologist|"
    r"\p{L}+iatrist|\p{L}+iatrician|\p{L}+ist\s+dr|interpreter|translator|physio|physiotherapist|practitioner|"
    r"receptionist|phlebotomist|coordinator|navigator|technician|chaplain|dietitian|dietician|"
    r"social[ \t]+worker|case[ \t]*worker|support[ \t]+worker|care[ \t]+coordinator|aide|"
    r"social[ \t]+work|case[ \t]+manager)\.?"
    r"(?:[ \t]+(?:there|here|today|on\s+duty))?[ \t]*(?:\([^()\n]{1,20}\)[ \t]*)?(?:[,:]|is|named)?[ \t]*"
    r"(?:\(?[ \t]*(?:mr|mrs|ms|miss|mx)\.?[ \t]+)?$")
# a role in apposition after the name: "Helga, the nurse practitioner", "Oona (physio)",
# "jodie calling from dr ruiz's office", "Sam from the front desk"
_DOCTOR_APPOS = regex.compile(
    r"(?i)^(?:,[ \t]*(?:(?:the|your|our|an?|my)[ \t]+)?|[ \t]*\([ \t]*(?:the[ \t]+)?)(?:\p{L}+[ \t]+)?(?:nurse|doctor|"
    r"physician|surgeon|resident|intern|fellow|registrar|consultant|therapist|physio|physiotherapist|pharmacist|"
    r"practitioner|midwife|receptionist|secretary|scheduler|coordinator|navigator|interpreter|translator|"
    r"social\s+worker|dietitian|dietician|chaplain|phlebotomist|technician|tech|front\s+desk|np|rn|pa|gp|"
    r"\p{L}+ologist|\p{L}+iatrist)\b|^[ \t]+(?:calling|ringing|phoning)[ \t]+(?:from|for)\b|"
    r"^,?[ \t]+one[ \t]+of[ \t]+(?:the|your|our)[ \t]+(?:\p{L}+[ \t]+){0,2}(?:nurses|midwives|doctors|physios|therapists|surgeons|"
    r"registrars|residents|pharmacists|team)\b")
# a relation in apposition after the name: "colleen his daughter", "Raj, the patient's son"
_RELATIVE_APPOS = regex.compile(
    r"(?i)^(?:[ \t]*\([ \t]*(?:(?:his|her|their|the[ \t]+patient'?s|pt'?s)[ \t]+)?(?:parents?|mother|mum|mom|father|dad|"
    r"grandparents?|grandmother|grandfather|guardians?|foster[ \t]+(?:parents?|carers?|mother|father)|wife|husband|"
    r"partner|spouse|daughter|son|sister|brother|next[ \t]+of[ \t]+kin|nok)[ \t]*[),;]|[ \t]+(?:passed[ \t]+away|died|passed(?=[ \t]*(?:[,.;]|$|[ \t]+(?:in|on|last|at|away|recently|suddenly|"
    r"when|two|three|four|five|six|a[ \t]+(?:few|couple)|\d))))\b|,?[ \t]+(?:(?:his|her|their|your|my|our|the[ \t]+patient'?s|pt'?s|the)[ \t]+)(?:wife|husband|spouse|partner|son|"
    r"daughter|mother|mom|mum|father|dad|brother|sister|niece|nephew|aunt|uncle|cousin|grandson|granddaughter|"
    r"grandmother|grandfather|stepson|stepdaughter|friend|neighbou?r|carer|caregiver|"
    r"(?:sister|brother|mother|father|son|daughter)-in-law)\b)")
# "Thank you for referring Ana Ruiz", "portal msg from jo diaz"
_PATIENT_CUE_BEFORE = regex.compile(r"(?i)\b(?:referring|regarding|portal[ \t]+(?:msg|message)[ \t]+from|"
                                    r"thanks?(?:[ \t]+you)?[ \t]+for[ \t]+seeing|(?:my|our|your)[ \t]+patient[ \t]*,?)[ \t]+$")
# the patient's own story after the name: "Rashid Al-Hakim was admitted", "X presented with", "X, a 54-year-old"
_PATIENT_AFTER = regex.compile(r"(?i)^(?:[ \t]*\([^()\n]{1,25}\))?(?:[ \t]+(?:was|is|has[ \t]+been)[ \t]+(?:admitted|discharged|readmitted|"
                               r"transferred|referred)\b|[ \t]+(?:presented|presents|re-presented)[ \t]+(?:to|with)\b|"
                               # "Santiago ("Santi") is here with his mother", "X is seen today accompanied by"
                               r"[ \t]+(?:is|was)[ \t]+(?:here|seen(?:[ \t]+today)?)[ \t]+(?:with|accompanied|alone|today|for)\b|"
                               r",?[ \t]+(?:is[ \t]+)?an?[ \t]+\d{1,3}[- ]?(?:year|yr|yo\b|y/o)|"
                               # "Desmond Parkinson - DOB 11/09/1950", "Krzysztof Zielinski, 71, MRN 4420913",
                               # "this is Summer Castillo (DOB 2/2/1995)"
                               r"[ \t]*[,(–-][ \t]*(?:\d{1,3}[ \t]*(?:[MF]|yo|y/o|yrs?)?[ \t]*[,)][ \t]*)?(?-i:DOB|D\.O\.B|MRN|NHS|NHI|"
                               r"CHI|PHN|URN?|MR#|OHIP)\b|[ \t]*[,(][ \t]*(?:date[ \t]+of[ \t]+birth|born)\b)")
# a clinician's letter about whom they saw: "I saw Bartholomew Kealoha in the pain clinic" (capital I: written prose)
_I_SAW = regex.compile(r"(?-i:\b(?:I|We))[ \t]+(?i:saw|reviewed|met|assessed|examined|had[ \t]+the[ \t]+pleasure[ \t]+of[ \t]+"
                       r"(?:seeing|meeting))[ \t]+$")
# the patient in a bed: "labs on bed 14 (ruiz)", "bed 14 - ruiz"
_BED_BEFORE = regex.compile(r"(?i)\bbed[ \t]*\d{1,3}[a-z]?[ \t]*(?:\([ \t]*|[-–:,][ \t]*)$")
# the patient's own name asked and given on one line: "full name and date of birth yes sir its otis lee granger"
_NAME_ASKED_SAME_LINE = regex.compile(r"(?i)\b(?:your|the[ \t]+patient'?s|full)[ \t]+(?:full[ \t]+)?name(?:[ \t]+and[ \t]+"
                                      r"(?:date[ \t]+of[ \t]+birth|dob|birthday|birth[ \t]+date))?[ \t,.?]*"
                                      r"(?:(?:yes|yeah|sure|ok|okay|sir|maam|ma'am|madam|please|its|it's|it[ \t]+is|um|uh|"
                                      r"thats|that's)[ \t,.]+){0,4}$")
# a parent or interpreter presenting the child: "mum: this is saoirse", "INTERPRETER: Yes, this is Yousef"
_PRESENTED = regex.compile(r"(?i)(?:^|[,.:!?][ \t]*|\b(?:and|yes|yeah|so|oh)[ \t,]+)this[ \t]+is[ \t]+$")
# a clinician asking for someone on a call: "Am I speaking with Walter Cross?", "hi is this lorraine"
_ASKED_FOR = regex.compile(r"(?i)\b(?:speaking[ \t]+(?:with|to)|speak[ \t]+(?:with|to)|is[ \t]+this|am[ \t]+i[ \t]+"
                           r"talking[ \t]+to)[ \t]+$")
# a message that opens with its writer's name: "Hi Dr. Kaur, this is Lena Novak.", "hey it's dana"
_MESSAGE_OPENING = regex.compile(r"(?i)(?:^|[:.!][ \t]*|\b(?:hi|hello|hey|morning|afternoon|evening|dear)\b[^.\n]{0,30}?"
                                 r"[,!]?[ \t]*)(?:this[ \t]+is|it['’]?s|its|my[ \t]+name[ \t]+is)[ \t]+$")
# the previous turn asks for the patient's name ("tell me your full name", "and your name?")
_TURN_START = regex.compile(r"[ \t]*(?:\[[^\]\n]{1,20}\]|(?:patient|pt|speaker[ \t]*\d{1,2}|p|client|caller)[ \t]*:|"
                            r"patient)?[ \t]*(?:(?:i'?m|i[ \t]+am|it'?s|yes|yeah|um+|uh+)[, \t]+)?", regex.I)
_NAME_QUESTION = regex.compile(r"(?i)\b(?:your|the[ \t]+patient'?s)[ \t]+(?:full[ \t]+)?name\b[^\n]{0,30}$")
_DOCTOR_AFTER = regex.compile(
    r"^,?[ \t]*(?:M\.?D\.?|D\.?O\.?|R\.?N\.?|N\.?P\.?|PA-C|P\.?A\.?|Ph\.?D\.?|DDS|DMD|FNP(?:-C)?|ANP|CNM|CRNA|"
    r"MBBS|MRCP|FRCP|DNP|APRN|LPN|PharmD|DPT|OTR|LCSW|RDN?|LICSW|MSW|RRT|CNA|PsyD|OD|DPM|DC|CCC-SLP)\b")
_RELATIVE_BEFORE = regex.compile(
    r"(?i)\b(?:wife|husband|spouse|partner|son|daughter|mother|mom|mum|mommy|father|dad|daddy|brother|"
    r"sister|sibling|niece|nephew|aunt|auntie|uncle|cousin|grandson|granddaughter|grandchild|grandchildren|"
    r"grandkids|grandsons|granddaughters|sons|daughters|brothers|sisters|siblings|parents|grandparents|"
    r"grandmother|grandma|granny|grandfather|grandpa|stepson|stepdaughter|stepmother|stepfather|"
    r"fianc[eé]e?|boyfriend|girlfriend|friend|neighbou?r|roommate|guardian|hcp|"
    r"proxy|poa|in-law|(?:sister|brother|mother|father|son|daughter)[ \t-]+in[ \t-]+law|"
    r"sponsor|mate|colleague|co-?worker|workmate|flatmate|housemate|supervisor|foreman|"
    # people in the patient's life who are neither family nor carers count as contacts: "teacher Mrs.
    # Kapoor", "my landlord mr castellanos", "the owner mr tsang", "my missus losa", "the meemaw darlene";
    # the patient's children ("Children: Ebuka", "kids yeah two kids harper")
    r"teacher|landlord|landlady|boss|employer|owner|coach|missus|missis|meemaw|memaw|mamaw|nana|nan|"
    r"minister|pastor|priest|imam|rabbi|vicar|deacon|fella|lad|lass|bairn|pal|buddy|bestie|"
    r"children|kids|first[ \t]+one|youngest|eldest|oldest)"  # not "my boy", "baby boy": in paediatrics the patient
    r"(?:'s)?[ \t]*(?:name[ \t]+is|[,:]|is|named|called|[.,]?[ \t]*(?:i'?m|i[ \t]+am|my[ \t]+name[ \t]+is))?[ \t]*$")
# no period or comma after "pt": "FOR THIS PT. AGNES ...", "supportive to pt, John" (a new sentence / a visitor)
# between two members of a list: "tom, lily and ahmed", "Ebuka aged 6 and Zara aged 3", "Brayan (9) and Daniela",
# "Mr Kwadwo Ofori and Mrs Akosua Ofori"
_LIST_GAP = regex.compile(r"[ \t]*(?:\([ \t]*\d{1,3}[ \t]*(?:y|yo|yrs?|years?|m|mo|months?)?[ \t]*\)|,?[ \t]*(?:aged?|age)[ \t]+"
                          r"\d{1,3}(?:[ \t]*(?:years?|yrs?|y|months?|mo))?)?[ \t]*(?:,[ \t]*(?:and[ \t]+)?|and[ \t]+|&[ \t]*)"
                          r"(?:(?:mr|mrs|ms|miss|mx|dr)\.?[ \t]+)?", regex.IGNORECASE)
_PLURAL_RELATION_AFTER = regex.compile(r"(?i)[ \t]*\([ \t]*(?:(?:his|her|their|the[ \t]+patient'?s|pt'?s)[ \t]+)?"
                                    r"(?:parents|grandparents|guardians|foster[ \t]+(?:parents|carers)|carers|children|"
                                    r"kids|sons|daughters|siblings|brothers|sisters)\b")
_PATIENT_BEFORE = regex.compile(r"(?i)\b(?:patient|pt|patient\s+name|client|re)[ \t]*(?::|is|named)?[ \t]*$")


_LINE_LABEL = regex.compile(r"[ \t]*(\p{L}[\p{L} ./-]{0,24}?)[ \t]*:[ \t]*")
# the name fills a field: end of line, a bracket or bar, DOB/MRN/digits, or a comma before those
# (not "Doctor: Dottie, how are you": a speaker turn addressing someone)
_FIELD_END = regex.compile(r"[ \t]*(?:$|[;(|]|\bDOB\b|\bMRN\b|\bMR#|\bAge\b|\bSex\b|\bURN\b|\bSSN\b|\bVisit\b|\d|"
                           r",[ \t]*(?:$|\d|DOB\b|MRN\b|[MF]\b|M\.?D\b|age\b|sex\b|PHN\b|NHS\b|NHI\b|CHI\b|URN?\b|OHIP\b|"
                           r"Medicare\b|Medicaid\b|hosp(?:ital)?[ \t]+(?:no|number)\b|chart\b|ID\b)|[ \t]{3,}(?=\S))"
                           # the next field of a header line: "Name: Liam Byrne   Hosp no: ..", "Patient: X OHIP: .."
                           r"|(?-i:[ \t]+\p{Lu}[\p{L}.#/]*(?:[ \t]\p{L}[\p{L}.#/]*)?[ \t]*:(?:[ \t]|$))", regex.I)
_PATIENT_LABELS = frozenset({"patient", "pt", "patient name", "name", "client", "re", "resident name", "child",
                             "veteran", "resident", "member", "infant", "baby", "student", "patient's name",
                             "name of patient", "pt name", "worker", "employee", "claimant", "athlete",
                             "participant", "service user", "pupil", "patient/client", "preferred name", "known as",
                             "legal name", "full name"})
_FAMILY_LIST_LABELS = frozenset({"children", "kids", "sons", "daughters", "siblings", "grandchildren", "family"})
_CONTACT_LABELS = frozenset({"hcp", "proxy", "health care proxy", "healthcare proxy", "poa", "emergency contact",
                             "next of kin", "nok", "contact person", "guardian"})


# transcript speakers: "Doctor:", "[nurse]", "D:", "Relative:", and lower-case "patient i'm ..."
_SPEAKER = regex.compile(r"[ \t]*(?:\[[ \t]*([A-Za-z][\w .'-]{0,18}?)[ \t]*\][ \t]*:?|([A-Za-z][A-Za-z .'-]{0,18}?)[ \t]*:"
                         r"|(doctor|patient|nurse)(?=[ \t]+[a-z]))[ \t]*")
_SPEAKER_ROLES = {**{w: "DOCTOR" for w in ("doctor", "dr", "doc", "nurse", "clinician", "physician", "provider", "np",
                                           "rn", "d", "gp", "therapist", "pharmacist", "midwife", "surgeon",
                                           "resident", "consultant", "registrar", "receptionist", "front desk",
                                           "physio", "physiotherapist", "ot", "slt", "dietitian", "dietician",
                                           "audiologist", "optometrist", "podiatrist", "chiropodist", "psychologist",
                                           "counsellor", "counselor", "paramedic", "hca", "social worker", "sw",
                                           "specialist", "intern", "fellow", "attending", "pa", "hygienist",
                                           "dentist", "radiographer", "sonographer", "coordinator", "navigator")},
                  **{w: "PATIENT" for w in ("patient", "pt", "p", "client")},
                  **{w: "RELATIVE" for w in ("relative", "mother", "father", "mom", "mum", "dad", "wife", "husband",
                                             "daughter", "son", "parent", "caregiver", "carer", "family")}}
# a speaker introducing themself: "Nurse: Hi, this is Priscilla", "patient im colleen"
_SELF_INTRO = regex.compile(r"(?i)(?:\b(?:i'?m|i[ \t]+am|it'?s|its|my[ \t]+name[ \t]+is|my[ \t]+name'?s)|"
                            r"\b(?:hi|hello|hey|morning|afternoon|evening)[ \t]*,?[ \t]+this[ \t]+is)[ \t]+$")
# what a member of staff says after their name when they ring or answer: "from kowhai hospice", "im a nurse with",
# "one of the nurses", "calling from", "speaking"
_STAFF_INTRO_AFTER = regex.compile(r"(?i)^[ \t,]*(?:(?:calling|ringing|phoning)[ \t]+)?from[ \t]+(?:the[ \t]+)?(?:\p{L}+[ \t]+){0,3}"
                                   r"(?:clinic|surgery|practice|pharmacy|hospital|hospice|rehab|recovery|pediatrics|"
                                   r"paediatrics|medical|health|centre|center|unit|ward|team|service|office|gp|"
                                   r"radiology|physio|lab)\b|^[ \t,]*(?:and[ \t]+)?(?:i'?m|i[ \t]+am)[ \t]+(?:a|an|the|one[ \t]+of)"
                                   r"[ \t]+(?:\p{L}+[ \t]+){0,2}(?:nurses?|doctors?|physios?|therapists?|pharmacists?|"
                                   r"midwi(?:fe|ves)|receptionists?|coordinators?|navigators?|social[ \t]+workers?|"
                                   r"dietitians?|counsell?ors?|paramedics?|\p{L}+ologists?)\b")
# a phone answered by the practice: "northside pediatrics this is tameka", "you're speaking with Sione"
_FRONT_LINE_INTRO = regex.compile(r"(?i)(?:\b(?:clinic|surgery|practice|pharmacy|hospital|hospice|recovery|pediatrics|"
                                  r"paediatrics|medical[ \t]+cent(?:re|er)|health[ \t]+cent(?:re|er)|rehab|reception|"
                                  r"health)[ \t]*,?[ \t]+this[ \t]+is|\byou(?:'?re|[ \t]+are)[ \t]+speaking[ \t]+(?:with|to))[ \t]+$")
_SPEAKING_AFTER = regex.compile(r"(?i)^[ \t,]*speaking[ \t,]*(?:how[ \t]+can[ \t]+i|how[ \t]+may[ \t]+i|can[ \t]+i[ \t]+help)")
# a member of staff placed at a care service or its desk
_STAFF_AT = regex.compile(r"(?i)^[ \t]+at[ \t]+(?:the[ \t]+)?(?:front(?:[ \t]+desk)?\b|desk\b|reception\b|"
                          r"(?:\p{L}+[ \t]+){1,3}(?:clinic|surgery|practice|pharmacy|hospital|hospice|rehab|recovery|"
                          r"counsel+ing|medical[ \t]+cent(?:re|er)|health[ \t]+cent(?:re|er)|physio|physiotherapy)\b)")
# a clinician seeing the patient somewhere: "I saw Bridget Lawless at the clinic"
_SEEN_BEFORE = regex.compile(r"(?i)\b(?:saw|seen|see|seeing|reviewed|review|met|examined|assessed|admitted|on|for|re)[ \t]+$")
# the name is spoken to: "Thank you, Noor.", "nice to meet you rosalind", "thanks ngozi"
_VOCATIVE = regex.compile(r"(?i)\b(?:thank[ \t]+you|thanks|thank[ \t]+u|cheers|bye|nice[ \t]+to[ \t]+meet[ \t]+you|"
                          r"see[ \t]+you|ok(?:ay)?[ \t]+thanks)[ \t]*,?[ \t]+$")
# after "Yours sincerely," / "Kind regards," the signature is the writer's (a clinician in our notes)
_VALEDICTION = regex.compile(r"(?i)(?:yours[ \t]+(?:sincerely|faithfully|truly)|kind[ \t]+regards|best[ \t]+(?:wishes|regards)|"
                             r"warm[ \t]+regards|sincerely|regards|with[ \t]+(?:thanks|best[ \t]+wishes))[ \t]*,?[ \t]*\n(?:[ \t]*\n)?[ \t]*$")
# a care-team verb before the name: "follow up with Okonjo", "covering for sorensen", "seen by Abebe"
_DOCTOR_VERB_BEFORE = regex.compile(r"(?i)\b(?:follow(?:[ \t-]*up)?[ \t]+with|f/u[ \t]+with|covering[ \t]+for|cover[ \t]+for|"
                                    r"seen[ \t]+by|handed[ \t]+over[ \t]+to|handover[ \t]+to|"
                                    r"signed[ \t]+out[ \t]+to|referred[ \t]+to|discussed[ \t]+with|"
                                    r"(?:physio|physiotherapy|physical[ \t]+therapy|therapy|ot|counsel+ing|rehab|"
                                    r"speech[ \t]+therapy|an[ \t]+appointment|appt)[ \t]+with|athletic[ \t]+trainer)[ \t]+$")
# a role or a department right after the name without a comma: "becky the diabetes nurse",
# "okafor in physio", "Marisol at the front desk", "sam from pharmacy"
_DOCTOR_PLAIN_APPOS = regex.compile(
    r"(?i)^[ \t]+(?:(?:the|our|your|my)[ \t]+(?:\p{L}+[ \t]+)?(?:nurse|doctor|physio|physiotherapist|therapist|"
    r"pharmacist|dietitian|dietician|midwife|receptionist|consultant|registrar|surgeon|practitioner|"
    r"\p{L}+ologist)\b|(?:in|from|at|on)[ \t]+(?:the[ \t]+)?(?:physio|physiotherapy|pharmacy|front[ \t]+desk|reception|"
    r"radiology|x-?ray|the[ \t]+lab|lab|phlebotomy|billing|scheduling|triage|admin|records)\b)")
# asking a colleague: "ask li if", "tell james bed 14", "page okafor", "i'll get becky to"
_ASK_COLLEAGUE = regex.compile(r"(?i)(?:^|[\n.;:!?]|\b(?:pls|please|can[ \t]+you|could[ \t]+you|i'?ll|i[ \t]+will|will))"
                               r"[ \t]*(?:ask|tell|page|bleep|text|message|get)[ \t]+$")
_SIGNATURE_START = regex.compile(r"[ \t]*(?:(?:dr|mr|mrs|ms|miss|prof|professor)\.?[ \t]+)?", regex.I)
_HYPHEN_TAIL = regex.compile(r"-\p{Lu}[\p{L}'’]*")
_PLAIN_TITLE_BEFORE = regex.compile(r"(?i)\b(?:mr|mrs|ms|miss|mister|mx)\.?[ \t]+$")


def _speaker_role(text: str, line_start: int, start: int) -> str | None:
    """The role of the speaker whose turn holds ``start`` (None outside a transcript turn)."""
    m = _SPEAKER.match(text, line_start, start)
    if not m:
        return None
    word = (m.group(1) or m.group(2) or m.group(3) or "").casefold().strip(" .")
    return _SPEAKER_ROLES.get(word)


def stated_role(text: str, start: int, end: int) -> str | None:
    """The role the words around ``text[start:end]`` state, or None."""
    line_start = text.rfind("\n", 0, start) + 1
    left = text[max(line_start, start - 40):start]
    tail = _HYPHEN_TAIL.match(text, end)
    if tail:
        end = tail.end()  # "Grace Okonkwo" cut before "-Bell": judge the whole name
    line_end = text.find("\n", end)
    right_long = text[end:(line_end if line_end >= 0 else len(text))][:40]
    right = right_long[:20]
    role = _turn_role(text, line_start, start, left, right, right_long)
    if role:
        return role
    if line_start > 0 and _TURN_START.fullmatch(text, line_start, start) and not _RELATIVE_APPOS.match(right) \
            and not _DOCTOR_APPOS.match(right) \
            and _NAME_QUESTION.search(text, text.rfind("\n", 0, line_start - 1) + 1, line_start - 1):
        return "PATIENT"  # "speaker 1: and your full name / speaker 2: Ana Ruiz"
    label = _LINE_LABEL.fullmatch(text, line_start, start)
    if label and _is_heading(label.group(1)):
        label = None  # "History: Santiago is here with his mother": a section heading, not a field or a speaker
    if label:
        # "Patient: Grace Okonkwo" is a field; "Doctor: Dottie, how are you" and "Patient: ..."
        # in a transcript are speaker turns, whose first name is the person spoken to. A label
        # states a role only when the name fills the field (end of line, a comma, DOB, digits);
        # family-word labels ("Mother:") are left alone (whose record is it?).
        if _DOCTOR_AFTER.match(right):
            return "DOCTOR"
        if _RELATIVE_APPOS.match(right):
            return "RELATIVE"
        if _DOCTOR_APPOS.match(right):
            return "DOCTOR"
        if label.group(1).casefold().strip(" .") in _FAMILY_LIST_LABELS:
            return "RELATIVE"  # "Children: Ebuka aged 6 and Zara aged 3"
        if not _FIELD_END.match(right):
            return None
        word = label.group(1).casefold().strip(" .")
        if word in _PATIENT_LABELS:
            return "PATIENT"
        if word in _CONTACT_LABELS:
            return "RELATIVE"
        if _DOCTOR_BEFORE.search(word):
            return "DOCTOR"
        return None
    if _DOCTOR_BEFORE.search(left) or _DOCTOR_AFTER.match(right):
        return "DOCTOR"
    if _RELATIVE_BEFORE.search(left) or _RELATIVE_APPOS.match(right):
        return "RELATIVE"
    if _DOCTOR_APPOS.match(right):
        return "DOCTOR"
    if _PATIENT_BEFORE.search(left) or _PATIENT_CUE_BEFORE.search(left) or _PATIENT_AFTER.match(right_long):
        return "PATIENT"
    return None


def _is_heading(label: str) -> bool:
    """A section heading ("History", "HPI", "Plan"), not a person field or a transcript speaker."""
    word = label.casefold().strip(" .")
    if word in _PATIENT_LABELS or word in _CONTACT_LABELS or word in _FAMILY_LIST_LABELS or word in _SPEAKER_ROLES:
        return False
    if _DOCTOR_BEFORE.search(word) or _RELATIVE_BEFORE.search(word):
        return False
    return word in _HEADINGS


_HEADINGS = frozenset(w.strip() for w in (
    "history|hpi|history of present illness|presenting complaint|hpc|subjective|objective|assessment|plan|"
    "impression|summary|background|social|social history|sh|family history|fh|interval history|note|notes|"
    "comment|comments|course|hospital course|clinical course|update|progress|discussion|reason for visit|"
    "reason for referral|cc|chief complaint|narrative|events|overnight|a/p|a&p|situation|recommendations|"
    "recommendation").split("|"))


def _turn_role(text: str, line_start: int, start: int, left: str, right: str, right_long: str = "") -> str | None:
    """Roles from the shape of a transcript or letter: self-introductions take the speaker's role,
    a patient or relative thanking someone by name speaks to a clinician, a signature after a
    valediction is the writer's, a care-team verb or a plain title (Mr, Mrs) before the name."""
    if _RELATIVE_APPOS.match(right):
        return "RELATIVE"
    right_long = right_long or right
    if _DOCTOR_APPOS.match(right) or _DOCTOR_VERB_BEFORE.search(left) or (
            _DOCTOR_APPOS.match(right_long) and not _RELATIVE_BEFORE.search(left)) or (
            _DOCTOR_PLAIN_APPOS.match(right) and not _RELATIVE_BEFORE.search(left)):
        return "DOCTOR"
    if _ASK_COLLEAGUE.search(left) and _speaker_role(text, line_start, start) in (None, "DOCTOR"):
        return "DOCTOR"
    if _SELF_INTRO.search(left):
        speaker = _speaker_role(text, line_start, start)
        if speaker:
            return speaker
        if _STAFF_INTRO_AFTER.match(right_long) and not _RELATIVE_APPOS.match(right):
            return "DOCTOR"  # "hi its sarah from kowhai hospice", "this is angela im a nurse with"
    if _FRONT_LINE_INTRO.search(left) or _SPEAKING_AFTER.match(right):
        return "DOCTOR"  # "northside pediatrics this is tameka", "you're speaking with Sione", "aoife speaking how can"
    if _STAFF_AT.match(right_long) and not _RELATIVE_BEFORE.search(left) and not _PLAIN_TITLE_BEFORE.search(left) \
            and not _SEEN_BEFORE.search(left):
        return "DOCTOR"  # "janelle at high desert recovery", "lorna at the front", "marco at bayside rehab"
    speaker = _speaker_role(text, line_start, start)
    if _ASKED_FOR.search(left) and speaker in ("DOCTOR", None) and not _RELATIVE_APPOS.match(right):
        return "PATIENT"
    if _I_SAW.search(left) or _BED_BEFORE.search(left) or (
            _NAME_ASKED_SAME_LINE.search(left) and not _RELATIVE_APPOS.match(right)):
        return "PATIENT"
    if speaker == "RELATIVE" and _PRESENTED.search(left) and not _RELATIVE_APPOS.match(right) \
            and not _DOCTOR_APPOS.match(right_long):
        return "PATIENT"
    if start < 200 and _MESSAGE_OPENING.search(text, max(0, line_start, start - 60), start) \
            and _speaker_role(text, line_start, start) is None:
        return "PATIENT"  # a message's writer: the patient, unless a relation or a role follows (checked above)
    if _VOCATIVE.search(left) and _speaker_role(text, line_start, start) in ("PATIENT", "RELATIVE"):
        return "DOCTOR"
    if line_start > 0 and _SIGNATURE_START.fullmatch(text, line_start, start) and \
            _VALEDICTION.search(text, max(0, line_start - 40), line_start):
        return "DOCTOR"
    title = _PLAIN_TITLE_BEFORE.search(left)
    if title:
        before = left[:title.start()]
        if _DOCTOR_BEFORE.search(before.rstrip(" \t(")):  # "Social work (Ms Keisha Broadnax)"
            return "DOCTOR"
        if _RELATIVE_BEFORE.search(before):
            return "RELATIVE"
        if regex.search(r"(?i)\bdear[ \t]+$", before):
            return None  # "Dear Mr Achterberg,": a letter's addressee, patient or colleague
        return "PATIENT"
    return None


_WORD = regex.compile(r"\p{L}[\p{L}'’-]+")
_NICKNAME_GAP = regex.compile(r"(?i)[ \t]*\([ \t]*(?:(?:prefers|preferred|goes[ \t]+by|known[ \t]+as|aka|a\.k\.a\.?|called|"
                              r"nickname|likes[ \t]+to[ \t]+be[ \t]+called)[ \t]*:?[ \t]*)?[\"“'‘]?")
_NAME_JOIN = regex.compile(r"[ \t]{1,2}|-|['’]")


# patterns whose own cue states the role (the question asked, the speaker's own words)
_ROLE_STATED_BY_PATTERN = frozenset({"pattern:relative_name_reply", "pattern:self_intro_relative",
                                     "pattern:identity_check"})


class NameRoleFilter:
    name = "name_roles"

    def __init__(self, lang: str = "en"):
        self.lang = lang

    def load(self) -> None:
        return None

    def describe(self) -> dict:
        return {"roles": "title/credential -> DOCTOR, relation word -> RELATIVE, patient cue -> PATIENT; "
                         "one role per name word in a note", "active": self.lang == "en"}

    def filter(self, document: Document, spans: list[Span]) -> list[Span]:
        if self.lang != "en":
            return spans
        text = document.text
        spans = [_person_not_place(text, s) for s in spans]
        spans = _place_not_person(text, spans)
        stated: dict[int, str] = {}
        # a name split into pieces ("Grace" + "Okonkwo-Bell") is judged as one: the words around the whole
        extent: dict[int, tuple[int, int]] = {}
        order = sorted((i for i, s in enumerate(spans) if category_of(s.label) == "NAME" and s.label != "USERNAME"),
                       key=lambda i: spans[i].start)
        group: list[int] = []
        g_end = -1
        for i in order + [-1]:
            if i >= 0 and group and (spans[i].start <= g_end  # overlapping pieces ("Grace Okonkwo" + "Okonkwo-Bell")
                                     or _NAME_JOIN.fullmatch(text, g_end, spans[i].start) is not None):
                group.append(i)
                g_end = max(g_end, spans[i].end)
                continue
            for g in group:
                extent[g] = (spans[group[0]].start, g_end)
            group = [i]
            g_end = spans[i].end if i >= 0 else -1
        for i, s in enumerate(spans):
            if s.label in ROLES or (category_of(s.label) == "NAME" and s.label != "USERNAME"):
                if s.source.startswith("user"):
                    continue
                if s.source in _ROLE_STATED_BY_PATTERN:
                    stated[i] = s.label  # "your wifes name / patient: hyacinth": the question named the role
                    continue
                a, b = extent.get(i, (s.start, s.end))
                role = stated_role(text, a, b)
                if role:
                    stated[i] = role
        # a nickname given right after a name is the same person's: 'Chukwuemeka Obi (prefers "Emeka")',
        # 'Santiago ("Santi")', 'Mr. Wendorf (goes by "Buck")'
        for a, b in zip(order, order[1:]):
            first = stated.get(a) or (spans[a].label if spans[a].label in ROLES else None)
            if first and b not in stated and spans[b].label in ROLES and not spans[b].source.startswith("user") \
                    and _NICKNAME_GAP.fullmatch(text, spans[a].end, spans[b].start):
                stated[b] = first
        # a list shares its first member's role: "the kids are tom, lily and ahmed", "Drs. Ames and Cho"
        # (a detector's RELATIVE/DOCTOR label comes from a cue too; PATIENT is also its default guess)
        for a, b in zip(order, order[1:]):
            first = stated.get(a) or (spans[a].label if spans[a].label in ("RELATIVE", "DOCTOR") else None)
            if first and b not in stated and spans[b].label in ROLES and not spans[b].source.startswith("user") \
                    and _LIST_GAP.fullmatch(text, spans[a].end, spans[b].start):
                stated[b] = first
        # a plural relation after the last member names them all: "Mr Kwadwo Ofori and Mrs Akosua Ofori (parents)"
        for a, b in reversed(list(zip(order, order[1:]))):
            if a not in stated and stated.get(b) == "RELATIVE" and spans[a].label in ROLES \
                    and not spans[a].source.startswith("user") and _LIST_GAP.fullmatch(text, spans[a].end, spans[b].start) \
                    and _PLURAL_RELATION_AFTER.match(text, spans[b].end):
                stated[a] = "RELATIVE"
        # Only a clinician's role travels to other spans of the same word: relatives share the
        # patient's surname ("Mrs. Rahman" and "Baby Girl Rahman"), clinicians rarely do. A given
        # name said alone travels with any role ("my daughter Rose ... Hi Rose"): families share
        # surnames, not first names.
        by_word: dict[str, set[str]] = {}
        firsts = _first_names()
        for i, role in stated.items():
            words = _WORD.findall(text[spans[i].start:spans[i].end])
            for k, w in enumerate(words):
                if len(w) >= 3 and (role == "DOCTOR" or (k == 0 and len(words) <= 2 and w.casefold() in firsts)):
                    by_word.setdefault(w.casefold(), set()).add(role)
        out = []
        for i, s in enumerate(spans):
            role = stated.get(i)
            if role is None and s.label in ROLES and not s.source.startswith("user"):
                roles = set()
                words = _WORD.findall(text[s.start:s.end])
                for w in words:
                    got = by_word.get(w.casefold(), set())
                    if len(words) > 1 or w.casefold() not in firsts:
                        got = got & {"DOCTOR"}  # a surname, or a word inside a longer name: clinicians only
                    roles |= got
                role = roles.pop() if len(roles) == 1 else None
            if role and role != s.label and is_label(role):
                s = Span(s.start, s.end, role, s.source, s.confidence,
                         (s.explanation + "; " if s.explanation else "") + f"role {role} from context")
            out.append(s)
        return out


# --- a person's name that the tagger labelled as a place --------------------------------------

_PLACE_HEADS = frozenset("""street st road rd avenue ave lane ln drive dr boulevard blvd way court ct place square park
parkway highway hwy hospital hosp clinic center centre medical health healthcare county city town village lake beach
heights hill hills valley springs falls river creek bay island port harbor harbour mount mt fort ft school academy
university college church chapel house hall lodge manor court gardens estate farm station airport mall plaza
surgery practice pharmacy centre unit ward general memorial regional community transit daycare nursery hospice
acres east west north south mail services service group inc ltd llc co company care home homes trust foundation
institute partners associates club united cabs taxis motors bank store shop market depot""".split())
# first words of place and organisation names that are also given names ("Royal Marsden", "Sunny Acres")
_PLACE_FIRST = frozenset("""royal saint st mount mt fort port lake glen new old north south east west great little grand
upper lower sunny green golden silver oak cedar pine maple lincoln washington jefferson jackson franklin madison""".split())
_PLACE_PREPOSITION = regex.compile(r"(?i)\b(?:in|at|near|into|to|toward|towards|via|outside|around)[ \t]+(?:the[ \t]+)?$")
_PERSON_SHAPE = regex.compile(r"\p{L}[\p{L}'’-]*(?:[ \t]+\p{L}[\p{L}'’-]*){1,3}")


@lru_cache(maxsize=1)
def _first_names() -> frozenset[str]:
    from ..lexicons import load_lexicon

    return frozenset(w.casefold() for li in ("first_names_en", "first_names_world") for w in load_lexicon(li))


@lru_cache(maxsize=1)
def _frequent_first_names() -> frozenset[str]:
    from ..lexicons import load_lexicon

    return frozenset(w.casefold() for w in load_lexicon("first_names_en"))


@lru_cache(maxsize=1)
def _common_words() -> frozenset[str]:
    from ..lexicons import load_lexicon

    return frozenset(w.casefold() for w in load_lexicon("common_words_en"))


@lru_cache(maxsize=1)
def _surnames() -> frozenset[str]:
    from ..lexicons import load_lexicon

    return frozenset(w.casefold() for w in load_lexicon("surnames_en"))


@lru_cache(maxsize=1)
def _place_names() -> frozenset[str]:
    from ..lexicons import load_lexicon

    return frozenset(w.casefold() for li in ("cities_us", "states_us", "countries_en", "hospitals")
                     for w in load_lexicon(li))


@lru_cache(maxsize=1)
def _towns() -> frozenset[str]:
    from ..lexicons import load_lexicon

    out: set[str] = set()
    for li in ("cities_us", "cities_world_en"):
        try:
            out |= {w.casefold() for w in load_lexicon(li)}
        except KeyError:
            pass
    return frozenset(out)


# "live on olive avenue in tracy", "drives me into Yarmouth"
_TOWN_PREPOSITION = regex.compile(r"(?i)(?<![\p{L}])(?:in|into|near|outside|around)[ \t]+$")
# an address or letterhead line: "<place or street>, X, ON", "19 Kingsmead Row, Salisbury, Wiltshire SP2"
_REGION_AFTER = regex.compile(r"[ \t]*(?:,[ \t]*(?:\p{Lu}{2}\b|Co\.?[ \t]+\p{Lu}|\p{Lu}\p{Ll}+(?:[ \t]+\p{Lu}\p{Ll}+)?[ \t]*"
                           r"(?:,|$|\n|[A-Z]{1,2}\d)|\p{Lu}{1,2}\d[\dA-Z]?[ \t]*\d\p{Lu}{2})|[ \t]*\((?:Québec|Quebec|"
                           r"Ontario|QC|ON|BC|AB|NS|NB|MB|SK)\)|[ \t]+-[ \t]+\p{Lu})")


_COMMA_GAP = regex.compile(r"[ \t]*,[ \t]*")


def _place_not_person(text: str, spans: list[Span]) -> list[Span]:
    """A detector's NAME span that the words around it show to be a town (not the user's, no title before it):
    a listed town after ``in`` / ``into`` / ``near`` (``we live on olive avenue in tracy``), or any word between a
    place and a region on an address or letterhead line (``Tayview Medical Practice, Broughty Ferry, Dundee``,
    ``19 Kingsmead Row, Salisbury, Wiltshire``)."""
    ordered = sorted(range(len(spans)), key=lambda i: spans[i].start)
    out = list(spans)
    prev_place_end = -10
    for i in ordered:
        s = spans[i]
        cat = category_of(s.label) if is_label(s.label) else s.label
        if cat == "LOCATION":
            prev_place_end = s.end
            continue
        if cat != "NAME" or s.label == "USERNAME" or s.source.startswith("user"):
            continue
        piece = text[s.start:s.end]
        if not regex.fullmatch(r"\p{L}[\p{L}'’.-]*(?:[ \t]\p{L}[\p{L}'’.-]*){0,2}", piece):
            continue
        left = text[max(0, s.start - 24):s.start]
        if _PLAIN_TITLE_BEFORE.search(left) or _DOCTOR_BEFORE.search(left) or _RELATIVE_BEFORE.search(left):
            continue
        listed = piece.casefold() in _towns()
        town = listed and _TOWN_PREPOSITION.search(left) is not None
        if not town and 0 <= prev_place_end <= s.start and _COMMA_GAP.fullmatch(text, prev_place_end, s.start) is not None \
                and not piece.islower() and _REGION_AFTER.match(text, s.end):
            town = True  # between a place and its region on one line
        if town:
            out[i] = Span(s.start, s.end, "CITY", s.source, s.confidence,
                          (s.explanation + "; " if s.explanation else "") + "a town, not a person")
            prev_place_end = s.end
    return out


_POSSESSIVE_NAME = regex.compile(r"(\p{L}[\p{L}-]{1,})['’]s")
_KIN_AFTER = regex.compile(r"(?i)[ \t]+(?:husband|wife|son|daughter|mother|father|mom|mum|dad|brother|sister|partner|"
                           r"boyfriend|girlfriend|fianc[eé]e?|spouse|family|children|kids|baby|carer|caregiver|aunt|"
                           r"uncle|cousin|niece|nephew|grandson|granddaughter|grandmother|grandfather)\b")


def _person_not_place(text: str, s: Span) -> Span:
    """``cc: Darnell Brooks``, ``Patient: Aisha Rahman``, ``portal msg from jamal ortiz``: a tagger
    LOCATION that is a person's name (a listed first name, alone when it is a frequent given name and no
    everyday word, or with one to three more words, in
    title case or in a lower-case note; no place word such as Street, Park, Hospital in or after
    it; no place preposition before it; not a listed place) becomes a NAME, so that its role is
    judged and its surrogate is a name. ALL-CAPS text is left alone (``MARY WASHINGTON``)."""
    if s.label != "LOCATION" or not s.source.startswith("tagger"):
        return s
    piece = text[s.start:s.end]
    m = _POSSESSIVE_NAME.fullmatch(piece)
    if m and m.group(1).casefold() in _first_names() and _KIN_AFTER.match(text, s.end):
        # "Mary's husband called": a given name in the possessive before a relation word is a person
        return Span(s.start, s.start + len(m.group(1)), "PATIENT", s.source, s.confidence,
                    (s.explanation + "; " if s.explanation else "") + "a person's name before a relation word")
    single = regex.fullmatch(r"\p{L}[\p{L}'’-]{2,}", piece) is not None
    if not (_PERSON_SHAPE.fullmatch(piece) or single) or piece.isupper():
        return s
    words = regex.findall(r"\p{L}[\p{L}'’-]*", piece)
    if single and (piece.casefold() not in _first_names() or piece.casefold() in _common_words()
                   or piece.casefold() in _surnames() or piece.casefold() in _place_names()):
        return s  # one word: only a given name that is no everyday word, surname or place ("Niamh", "Marguerite")
    lower = piece.islower()
    if not lower and not all(w[:1].isupper() and not w.isupper() for w in words):
        return s
    first = words[0].casefold()
    if (first not in _frequent_first_names() and (first not in _first_names() or first in _common_words())) \
            or first in _PLACE_FIRST or piece.casefold() in _place_names():
        return s
    if first in _common_words() and not all(w.casefold() in _surnames() and w.casefold() not in _common_words()
                                            for w in words[1:]):
        return s  # "Summer Castillo" yes, "Sunny Acres" no
    if any(w.casefold().rstrip(".") in _PLACE_HEADS for w in words):
        return s
    after = regex.match(r"[ \t]*(\p{L}+)", text[s.end:s.end + 20])
    if after and after.group(1).casefold() in _PLACE_HEADS:
        return s
    if _PLACE_PREPOSITION.search(text[max(0, s.start - 16):s.start]):
        return s
    return Span(s.start, s.end, "PATIENT", s.source, s.confidence,
                (s.explanation + "; " if s.explanation else "") + "a person's name, not a place")
