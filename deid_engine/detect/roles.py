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

import regex

from ..taxonomy import category_of, is_label
from ..types import Document, Span

ROLES = ("DOCTOR", "RELATIVE", "PATIENT")

_DOCTOR_BEFORE = regex.compile(
    r"(?i)\b(?:dr|drs|doctor|doc|prof|professor|physician|attending|surgeon|resident|intern|fellow|nurse|"
    r"rn|lpn|np|pa|crna|cnm|midwife|therapist|pharmacist|dentist|consultant|registrar|"
    r"pcp|provider|clinician|hospitalist|intensivist|anesthesiologist|anaesthetist|\p{L}+ologist|"
    r"\p{L}+iatrist|\p{L}+iatrician|\p{L}+ist\s+dr)\.?[ \t]*(?:[,:]|is|named)?[ \t]*$")
_DOCTOR_AFTER = regex.compile(
    r"^,?[ \t]*(?:M\.?D\.?|D\.?O\.?|R\.?N\.?|N\.?P\.?|PA-C|P\.?A\.?|Ph\.?D\.?|DDS|DMD|FNP(?:-C)?|ANP|CNM|CRNA|"
    r"MBBS|MRCP|FRCP|DNP|APRN|LPN|PharmD|DPT|OTR|LCSW)\b")
_RELATIVE_BEFORE = regex.compile(
    r"(?i)\b(?:wife|husband|spouse|partner|son|daughter|mother|mom|mum|mommy|father|dad|daddy|brother|"
    r"sister|sibling|niece|nephew|aunt|auntie|uncle|cousin|grandson|granddaughter|grandchild|"
    r"grandmother|grandma|granny|grandfather|grandpa|stepson|stepdaughter|stepmother|stepfather|"
    r"fianc[eé]e?|boyfriend|girlfriend|friend|neighbou?r|roommate|guardian|hcp|"
    r"proxy|poa|in-law|(?:sister|brother|mother|father|son|daughter)-in-law)"
    r"(?:'s)?[ \t]*(?:name[ \t]+is|[,:]|is|named|called)?[ \t]*$")
# no period or comma after "pt": "FOR THIS PT. AGNES ...", "supportive to pt, John" (a new sentence / a visitor)
_PATIENT_BEFORE = regex.compile(r"(?i)\b(?:patient|pt|patient\s+name|client|re)[ \t]*(?::|is|named)?[ \t]*$")


_LINE_LABEL = regex.compile(r"[ \t]*(\p{L}[\p{L} ./-]{0,24}?)[ \t]*:[ \t]*")
# the name fills a field: end of line, a bracket or bar, DOB/MRN/digits, or a comma before those
# (not "Doctor: Dottie, how are you": a speaker turn addressing someone)
_FIELD_END = regex.compile(r"[ \t]*(?:$|[;(|]|\bDOB\b|\bMRN\b|\d|"
                           r",[ \t]*(?:$|\d|DOB\b|MRN\b|[MF]\b|M\.?D\b|age\b|sex\b))", regex.I)
_PATIENT_LABELS = frozenset({"patient", "pt", "patient name", "name", "client", "re", "resident name"})
_CONTACT_LABELS = frozenset({"hcp", "proxy", "health care proxy", "healthcare proxy", "poa", "emergency contact",
                             "next of kin", "nok", "contact person", "guardian"})


def stated_role(text: str, start: int, end: int) -> str | None:
    """The role the words around ``text[start:end]`` state, or None."""
    line_start = text.rfind("\n", 0, start) + 1
    left = text[max(line_start, start - 40):start]
    line_end = text.find("\n", end)
    right = text[end:(line_end if line_end >= 0 else len(text))][:20]
    label = _LINE_LABEL.fullmatch(text, line_start, start)
    if label:
        # "Patient: Grace Okonkwo" is a field; "Doctor: Dottie, how are you" and "Patient: ..."
        # in a transcript are speaker turns, whose first name is the person spoken to. A label
        # states a role only when the name fills the field (end of line, a comma, DOB, digits);
        # family-word labels ("Mother:") are left alone (whose record is it?).
        if _DOCTOR_AFTER.match(right):
            return "DOCTOR"
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
    if _RELATIVE_BEFORE.search(left):
        return "RELATIVE"
    if _PATIENT_BEFORE.search(left):
        return "PATIENT"
    return None


_WORD = regex.compile(r"\p{L}[\p{L}'’-]+")


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
        stated: dict[int, str] = {}
        for i, s in enumerate(spans):
            if s.label in ROLES or (category_of(s.label) == "NAME" and s.label != "USERNAME"):
                if s.source.startswith("user"):
                    continue
                role = stated_role(text, s.start, s.end)
                if role:
                    stated[i] = role
        # Only a clinician's role travels to other spans of the same word: relatives share the
        # patient's surname ("Mrs. Rahman" and "Baby Girl Rahman"), clinicians rarely do.
        by_word: dict[str, set[str]] = {}
        for i, role in stated.items():
            if role != "DOCTOR":
                continue
            for w in _WORD.findall(text[spans[i].start:spans[i].end]):
                if len(w) >= 3:
                    by_word.setdefault(w.casefold(), set()).add(role)
        out = []
        for i, s in enumerate(spans):
            role = stated.get(i)
            if role is None and s.label in ROLES and not s.source.startswith("user"):
                roles = set()
                for w in _WORD.findall(text[s.start:s.end]):
                    roles |= by_word.get(w.casefold(), set())
                role = roles.pop() if len(roles) == 1 else None
            if role and role != s.label and is_label(role):
                s = Span(s.start, s.end, role, s.source, s.confidence,
                         (s.explanation + "; " if s.explanation else "") + f"role {role} from context")
            out.append(s)
        return out
