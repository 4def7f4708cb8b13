"""Session 16: the English occupation lists generated from WordNet 3.0 (occupations_wordnet_en, and the care-team
roles occupations_wordnet_clinical_en), everyday trades WordNet lacks, "Retd.", "<noun> maker", and three cue gaps
(a job after "(husband),", ",is a" in a note without subjects, a clinical job after "she is a ... at <place>").
Own phrasings, not the probe sentences: what must be found, and what clinical text must not turn into a job."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from deid_engine import lexicons
from deid_engine.pipeline import build_pipeline
from deid_engine.types import Document

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def pipe():
    return build_pipeline("default", "en").load()


def _jobs(pipe, text):
    return {text[s.start:s.end] for s in pipe.run(Document(text)) if s.label == "PROFESSION"}


@pytest.mark.parametrize("text,job", [
    # jobs only WordNet lists, after the usual cues
    ("61 yo F, self-employed taxidermist, presents with a rash on both hands", "taxidermist"),
    ("Her husband Marco is a gondolier in Venice.", "gondolier"),
    ("a fifty-two year old apiarist who was stung about forty times", "apiarist"),
    ("SH: lives with wife Oona, a puppeteer.", "puppeteer"),
    ("she works as a proofreader from home", "proofreader"),
    ("i was a typesetter at the Courier-Journal for thirty years", "typesetter"),
    ("Occupation: lexicographer", "lexicographer"),
    # care-team roles are jobs when the subject holds them somewhere
    ("HER SON IS A NEUROSURGEON AT BAYSTATE AND CALLED TWICE", "NEUROSURGEON"),
    ("hcp at bedside overnight, she is a pharmacist at walgreens on route 9", "pharmacist"),
    ("friend here with pt all day, he is a nurse at mercy west", "nurse"),
    ("i'm an orthoptist over at the eye and ear infirmary", "orthoptist"),
    # trades written by hand (WordNet lacks them)
    ("her brother luis is a drywall installer in joliet", "drywall installer"),
    ("a 58-year-old tram conductor with Metrolink, seen for chest pain", "tram conductor"),
    ("i was a lock-keeper on the grand union for years", "lock-keeper"),
    ("47 yo M wharfie at Port Botany, crush injury R hand", "wharfie"),
    ("Mr Dube is a cable jointer with Eskom and works at heights", "cable jointer"),
    # "Retd." and its kin skipped before the job
    ("Occupation: Retd. school teacher\nAddress: 4 Gandhi Road", "school teacher"),
    ("Occupation: Rtd. bank clerk, State Bank", "bank clerk"),
    ("He is a retd. postmaster who lives alone.", "postmaster"),
    # a noun before "maker" names the trade
    ("her son Ciaran, a saddle maker, drove her in", "saddle maker"),
    ("he was a cabinet maker and later a violin maker", "violin maker"),
    # a job after the bracketed relation word
    ("NOK: Kwame Mensah (son), quantity surveyor, 020 7946 0321", "quantity surveyor"),
    ("Contact: Ruth Abiola (wife), a paralegal, same address", "paralegal"),
    # ",is a" in a note that drops the subject
    ("dtr lives in falmouth,is a hairdresser.", "hairdresser"),
    ("pt widowed, lives alone, was a crossing guard", "crossing guard"),
    # a list after a job goes on past "now a"
    ("72M retired fitter, now a part-time courier for Royal Mail", "courier"),
])
def test_session16_found(pipe, text, job):
    assert job in _jobs(pipe, text)


@pytest.mark.parametrize("text", [
    # what follows "is a" in notes without being a job
    "pt is a poor historian, hx obtained from son",
    "she is a carrier of the BRCA2 mutation",
    "he is a resident of Quincy and lives with his wife",
    "she is a good surgical candidate for TKA",
    "he is a heavy drinker, 6 beers a day",
    "pt is a Jehovah's Witness and declines blood products",
    "pt is a full code, confirmed with HCP",
    "lives alone,is a DNR/DNI",
    "he is a veteran, served two tours in Vietnam",
    "she is a survivor of breast cancer",
    "she is a member of the church choir",
    "he is a twin, born at 34 weeks",
    "she is a regular at the gym",
    "he is a private person and did not want visitors",
    "she is a domestic abuse survivor",
    "he is a decision maker for his mother",
    "pt is a trouble maker on the unit per staff",
    "volume status is a limiting factor, lasix held",
    "Occupation: Retd.\nAddress: 4 Gandhi Road",
    "Hx: Bill Jones (husband), at bedside, updated on plan",
    "doctor: do you see a neurologist\npatient: yes every six months",
    # a clinician introducing themself, or a colleague at the clinician's own workplace
    "hi i'm dr patel, i'm a neurologist, your GP asked me to see you",
    "good morning i'm an intern on the medicine team",
    "spoke to the charge nurse, she is a nurse at the hospital here",
    "i'm regular and i'm independent with my meds",
])
def test_session16_not_job(pipe, text):
    assert not _jobs(pipe, text), _jobs(pipe, text)


# --- the generated lists ---------------------------------------------------------------------------------------

WORDNET_LISTS = ("occupations_wordnet_en", "occupations_wordnet_clinical_en")


@pytest.mark.parametrize("name", WORDNET_LISTS)
def test_wordnet_lists_clean(name):
    items = lexicons.load_lexicon(name)
    assert len(items) >= 100
    assert all(i == i.strip() == i.lower() and "\t" not in i and not any(c.isdigit() for c in i) for i in items)
    assert len(set(items)) == len(items)
    hand = {w.lower() for w in lexicons.load_lexicon("occupations_en")}
    assert not set(items) & hand  # the hand-written list is not repeated
    folder = ROOT / "resources" / "lexicons" / name
    head = (folder / "items.txt").read_text(encoding="utf-8").splitlines()[0]
    assert head.startswith("# WordNet 3.0 Copyright 2006 by Princeton University")
    assert "Princeton University" in (folder / "LICENSE-WordNet").read_text(encoding="utf-8")


def test_wordnet_lists_keep_out_non_jobs():
    items = set(lexicons.load_lexicon("occupations_wordnet_en")) | set(lexicons.load_lexicon(WORDNET_LISTS[1]))
    for w in ("carrier", "resident", "donor", "candidate", "historian", "smoker", "drinker", "user", "patient",
              "regular", "native", "veteran", "volunteer", "survivor", "member", "man", "woman", "hand", "head",
              "jack", "master", "pro", "agent", "operator", "mother", "father", "case", "twin", "witness",
              "worker", "officer", "specialist", "provider", "owner", "independent", "religious", "domestic",
              "private", "tender", "factor", "thrush", "decision maker", "best man", "hard worker"):
        assert w not in items, w
    first = {w.lower() for w in lexicons.load_lexicon("first_names_en")}
    assert not {w for w in items if " " not in w} & first  # bobby, piper, dean, don
    for w in ("smith", "miller", "cooper", "turner", "carter"):  # common surnames
        assert w not in items


def test_wordnet_clinical_roles_are_clinical():
    clinical = set(lexicons.load_lexicon("occupations_wordnet_clinical_en"))
    assert {"anesthesiologist", "phlebotomist", "neurosurgeon", "intern", "orthoptist"} <= clinical
    jobs = set(lexicons.load_lexicon("occupations_wordnet_en"))
    assert {"luthier", "farrier", "sommelier", "taxidermist", "analyst"} <= jobs  # analyst: not only a psychiatrist


def _wordnet_dir():
    p = Path("/usr/share/wordnet")
    return p if (p / "data.noun").is_file() else None


@pytest.mark.skipif(_wordnet_dir() is None, reason="Debian's wordnet-base is not installed")
def test_wordnet_lists_rebuild_identically(tmp_path, monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_lexicons", ROOT / "tools" / "build_lexicons.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    src = ROOT / "resources" / "lexicons"
    for name in ("occupations_en", "first_names_en", "surnames_en"):
        shutil.copytree(src / name, tmp_path / name)
    monkeypatch.setattr(tool, "OUT", tmp_path)
    assert tool.build_wordnet_occupations(_wordnet_dir())
    for name in WORDNET_LISTS:
        for fn in ("items.txt", "LICENSE-WordNet"):
            assert (tmp_path / name / fn).read_bytes() == (src / name / fn).read_bytes(), (name, fn)


def test_wordnet_build_skips_without_wordnet(tmp_path, monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_lexicons", ROOT / "tools" / "build_lexicons.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    monkeypatch.setattr(tool, "OUT", tmp_path)
    assert tool.build_wordnet_occupations(tmp_path / "no-wordnet") is False
    assert not list(tmp_path.iterdir())
