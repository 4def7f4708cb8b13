"""The PHI taxonomy: categories and subtypes after the i2b2 2014 guidelines.

It covers every text identifier of HIPAA Safe Harbor. A span's ``label`` is
either a category (``NAME``, ``DATE`` ...) or a subtype (``PATIENT``,
``HOSPITAL`` ...); subtype names are unique, so ``category_of`` is a lookup.

Display colours are Paul Tol's "light" scheme, designed to be told apart under
the common forms of colour blindness and to carry black text.

Corpus label tables map PhysioNet deid's 10 labels and MEDDOCAN's labels into
the taxonomy; ``to_native`` maps back where the corpus distinction is needed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Category:
    name: str
    colour: str
    description: str
    subtypes: tuple[str, ...]
    hipaa: str  # the Safe Harbor identifier(s) it covers


CATEGORIES: dict[str, Category] = {
    c.name: c
    for c in (
        Category("NAME", "#EE8866", "Names of patients, clinicians, relatives and user names.",
                 ("PATIENT", "DOCTOR", "RELATIVE", "USERNAME"), "(A) names"),
        Category("PROFESSION", "#BBCC33", "A person's job or occupation.", (), "quasi-identifier"),
        Category("LOCATION", "#77AADD",
                 "Hospitals, organisations, rooms, streets, cities, states, countries, ZIP codes.",
                 ("HOSPITAL", "ORGANIZATION", "DEPARTMENT", "STREET", "CITY", "STATE",
                  "COUNTRY", "ZIP", "LOCATION_OTHER"),
                 "(B) geographic subdivisions smaller than a state"),
        Category("AGE", "#EEDD88", "Ages (ages over 89 must be aggregated).", (), "(C) ages over 89"),
        Category("DATE", "#99DDFF", "Dates and years related to the patient, with times.", (),
                 "(C) all elements of dates except year"),
        Category("CONTACT", "#44BB99", "Phone and fax numbers, e-mail, web addresses, IP addresses.",
                 ("PHONE", "FAX", "EMAIL", "URL", "IPADDR"),
                 "(D)(E)(F)(N)(O) phone, fax, e-mail, URL, IP"),
        Category("ID", "#FFAABB",
                 "Record, account, plan, licence, vehicle, device, biometric and other ID numbers.",
                 ("SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE",
                  "DEVICE", "BIOID", "IDNUM"),
                 "(G)-(M)(P)(Q)(R) numbers and codes"),
        Category("OTHER", "#DDDDDD", "Any other identifying detail (e.g. sex where annotated).", (),
                 "(R) any other unique identifying characteristic"),
    )
}

_SUBTYPE_TO_CATEGORY = {s: c.name for c in CATEGORIES.values() for s in c.subtypes}
LABELS: tuple[str, ...] = tuple(
    lbl for c in CATEGORIES.values() for lbl in (c.name, *c.subtypes)
)
# Labels a model is trained to emit (categories without subtypes plus all subtypes,
# plus the generic categories that corpora use when they do not say which subtype).
SUBTYPE_DESCRIPTIONS = {
    "PATIENT": "the patient's name or initials", "DOCTOR": "a clinician's name",
    "RELATIVE": "a relative's or proxy's name", "USERNAME": "a user or login name",
    "HOSPITAL": "a hospital or clinic", "ORGANIZATION": "a company or institution",
    "DEPARTMENT": "a ward, department or room", "STREET": "a street address",
    "CITY": "a city or town", "STATE": "a state or province", "COUNTRY": "a country",
    "ZIP": "a postal code", "LOCATION_OTHER": "another place",
    "PHONE": "a telephone or pager number", "FAX": "a fax number", "EMAIL": "an e-mail address",
    "URL": "a web address", "IPADDR": "an IP address", "SSN": "a social security number",
    "MEDICALRECORD": "a medical record number", "HEALTHPLAN": "a health plan number",
    "ACCOUNT": "an account or encounter number", "LICENSE": "a licence or certificate number",
    "VEHICLE": "a vehicle identifier or plate", "DEVICE": "a device serial number",
    "BIOID": "a biometric identifier", "IDNUM": "another identifying number",
}


def is_label(label: str) -> bool:
    return label in _SUBTYPE_TO_CATEGORY or label in CATEGORIES


def category_of(label: str) -> str:
    """The category of a taxonomy label (a category is its own category)."""
    if label in CATEGORIES:
        return label
    try:
        return _SUBTYPE_TO_CATEGORY[label]
    except KeyError:
        raise KeyError(f"not a taxonomy label: {label!r}") from None


def colour_of(label: str) -> str:
    try:
        return CATEGORIES[category_of(label)].colour
    except KeyError:
        return CATEGORIES["OTHER"].colour


def description_of(label: str) -> str:
    if label in CATEGORIES:
        return CATEGORIES[label].description
    return SUBTYPE_DESCRIPTIONS.get(label, "")


def labels_match(a: str, b: str) -> bool:
    """True when two labels agree: equal, or one is the other's category.

    A gold ``LOCATION`` (a corpus that does not split places) matches a
    predicted ``HOSPITAL``; ``HOSPITAL`` does not match ``CITY``.
    """
    if a == b:
        return True
    try:
        ca, cb = category_of(a), category_of(b)
    except KeyError:
        return False
    return (a == ca and ca == cb) or (b == cb and ca == cb)


# --- corpus label tables -------------------------------------------------

PHYSIONET_TO_TAXONOMY: dict[str, str] = {
    "HCPName": "DOCTOR",
    "PTName": "PATIENT",
    "PTNameInitial": "PATIENT",
    "RelativeProxyName": "RELATIVE",
    "Location": "LOCATION",
    "Date": "DATE",
    "DateYear": "DATE",
    "Phone": "PHONE",
    "Age": "AGE",
    "Other": "OTHER",
}

MEDDOCAN_TO_TAXONOMY: dict[str, str] = {
    "NOMBRE_SUJETO_ASISTENCIA": "PATIENT",
    "NOMBRE_PERSONAL_SANITARIO": "DOCTOR",
    "FAMILIARES_SUJETO_ASISTENCIA": "RELATIVE",
    "EDAD_SUJETO_ASISTENCIA": "AGE",
    "SEXO_SUJETO_ASISTENCIA": "OTHER",
    "OTROS_SUJETO_ASISTENCIA": "OTHER",
    "FECHAS": "DATE",
    "PROFESION": "PROFESSION",
    "HOSPITAL": "HOSPITAL",
    "CENTRO_SALUD": "HOSPITAL",
    "INSTITUCION": "ORGANIZATION",
    "CALLE": "STREET",
    "TERRITORIO": "CITY",
    "PAIS": "COUNTRY",
    "NUMERO_TELEFONO": "PHONE",
    "NUMERO_FAX": "FAX",
    "CORREO_ELECTRONICO": "EMAIL",
    "URL_WEB": "URL",
    "DIRECCION_IP": "IPADDR",
    "ID_SUJETO_ASISTENCIA": "MEDICALRECORD",
    "ID_CONTACTO_ASISTENCIAL": "ACCOUNT",
    "ID_ASEGURAMIENTO": "HEALTHPLAN",
    "NUMERO_BENEF_PLAN_SALUD": "HEALTHPLAN",
    "ID_TITULACION_PERSONAL_SANITARIO": "LICENSE",
    "ID_EMPLEO_PERSONAL": "IDNUM",
    "OTRO_NUMERO_IDENTIF": "IDNUM",
    "IDENTIF_VEHICULOS_NRSERIE_PLACAS": "VEHICLE",
    "IDENTIF_DISPOSITIVOS_NRSERIE": "DEVICE",
    "IDENTIF_BIOMETRICOS": "BIOID",
}

LABEL_TABLES: dict[str, dict[str, str]] = {
    "physionet": PHYSIONET_TO_TAXONOMY,
    "meddocan": MEDDOCAN_TO_TAXONOMY,
}

# The first native label listed for a taxonomy label is the one written back.
NATIVE_FROM_TAXONOMY: dict[str, dict[str, str]] = {}
for _scheme, _table in LABEL_TABLES.items():
    _rev: dict[str, str] = {}
    for _native, _tax in _table.items():
        _rev.setdefault(_tax, _native)
    NATIVE_FROM_TAXONOMY[_scheme] = _rev
# MEDDOCAN's TERRITORIO covers every place below a country that is not a building or a street:
# cities, provinces, regions and postal codes (without this a ZIP would fall back to HOSPITAL)
for _tax in ("ZIP", "STATE", "LOCATION", "LOCATION_OTHER"):
    NATIVE_FROM_TAXONOMY["meddocan"][_tax] = "TERRITORIO"


def to_taxonomy(label: str, scheme: str | None = None) -> str:
    """Map a corpus label into the taxonomy.

    With ``scheme=None`` every known table is tried; labels already in the
    taxonomy pass through. Unknown labels map to ``OTHER`` (recall first).
    """
    if is_label(label):
        return label
    tables = [LABEL_TABLES[scheme]] if scheme else list(LABEL_TABLES.values())
    for table in tables:
        if label in table:
            return table[label]
    upper = label.upper()
    if is_label(upper):
        return upper
    return "OTHER"


def to_native(label: str, scheme: str) -> str:
    """Map a taxonomy label back to a corpus's own label (best effort)."""
    table = NATIVE_FROM_TAXONOMY[scheme]
    if label in table:
        return table[label]
    cat = category_of(label) if is_label(label) else "OTHER"
    for lbl, native in table.items():
        if is_label(lbl) and category_of(lbl) == cat:
            return native
    return label
