import re

from deid_engine import taxonomy as tx


def test_every_category_has_colour_and_description():
    for c in tx.CATEGORIES.values():
        assert re.fullmatch(r"#[0-9A-F]{6}", c.colour)
        assert c.description
    assert len({c.colour for c in tx.CATEGORIES.values()}) == len(tx.CATEGORIES)


def test_required_subtypes_present():
    for lbl in ["PATIENT", "DOCTOR", "RELATIVE", "USERNAME", "HOSPITAL", "ORGANIZATION", "DEPARTMENT",
                "STREET", "CITY", "STATE", "COUNTRY", "ZIP", "PHONE", "FAX", "EMAIL", "URL", "IPADDR",
                "SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID",
                "IDNUM", "AGE", "DATE", "PROFESSION", "OTHER"]:
        assert tx.is_label(lbl), lbl
        assert tx.description_of(lbl)


def test_corpus_tables_map_into_taxonomy():
    for table in tx.LABEL_TABLES.values():
        for native, lbl in table.items():
            assert tx.is_label(lbl), (native, lbl)
    assert tx.to_taxonomy("HCPName") == "DOCTOR"
    assert tx.to_taxonomy("NOMBRE_SUJETO_ASISTENCIA") == "PATIENT"
    assert tx.to_taxonomy("SOMETHING_NEW") == "OTHER"
    assert tx.to_native("DOCTOR", "meddocan") == "NOMBRE_PERSONAL_SANITARIO"


def test_labels_match_is_hierarchical():
    assert tx.labels_match("LOCATION", "HOSPITAL")
    assert tx.labels_match("HOSPITAL", "LOCATION")
    assert not tx.labels_match("HOSPITAL", "CITY")
    assert not tx.labels_match("DATE", "AGE")
    assert tx.labels_match("DATE", "DATE")


def test_meddocan_places_below_a_country_are_territorio():
    for lbl in ("CITY", "ZIP", "STATE", "LOCATION", "LOCATION_OTHER"):
        assert tx.to_native(lbl, "meddocan") == "TERRITORIO"
    assert tx.to_native("HOSPITAL", "meddocan") == "HOSPITAL"
    assert tx.to_native("STREET", "meddocan") == "CALLE"
    assert tx.to_native("COUNTRY", "meddocan") == "PAIS"
    assert tx.to_native("ZIP", "physionet") == "Location"
