"""Bundled lexicons load, are clean, and user lists persist in the user directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from deid_engine import lexicons
from deid_engine.resources import resource_path

REQUIRED = ["first_names_en", "first_names_en_female", "first_names_en_male", "surnames_en",
            "first_names_es", "first_names_es_female", "first_names_es_male", "surnames_es",
            "cities_us", "states_us", "states_us_abbr", "countries", "countries_en", "countries_es",
            "cities_es", "provinces_es", "hospitals", "hospitals_es", "street_suffixes", "street_types_es",
            "common_words_en", "common_words_es", "drugs", "medical_eponyms", "medical_abbreviations",
            "medical_terms"]


@pytest.mark.parametrize("name", REQUIRED)
def test_required_lexicon_loads_clean(name):
    items = lexicons.load_lexicon(name)
    assert len(items) >= 20
    assert all(i == i.strip() and i and "\t" not in i for i in items)
    assert len({i.casefold() for i in items}) == len(items)
    assert name in lexicons.lexicon_names()


def test_known_entries():
    assert "Smith" in lexicons.load_lexicon("surnames_en")[:5]
    assert "Mary" in lexicons.load_lexicon("first_names_en_female")[:5]
    assert "James" in lexicons.load_lexicon("first_names_en_male")[:5]
    assert "Boston" in lexicons.load_lexicon("cities_us")
    assert "Madrid" == lexicons.load_lexicon("cities_es")[0]
    assert {"MA", "CA", "NY"} <= set(lexicons.load_lexicon("states_us_abbr"))
    assert "España" in lexicons.load_lexicon("countries_es")
    assert "bill" in lexicons.load_lexicon("common_words_en")
    assert "Parkinson" in lexicons.load_lexicon("medical_eponyms")
    assert "warfarin" in lexicons.load_lexicon("drugs")


def test_every_lexicon_is_documented():
    sources = resource_path("lexicons", "SOURCES.md").read_text(encoding="utf-8")
    for name in lexicons.lexicon_names():
        assert f"| {name} |" in sources


def test_unknown_and_invalid_names():
    with pytest.raises(KeyError):
        lexicons.load_lexicon("no_such_list")
    with pytest.raises(KeyError):
        lexicons.load_lexicon("../etc")


def test_version_is_stable():
    assert lexicons.lexicon_version() == lexicons.lexicon_version()
    assert lexicons.lexicon_version().startswith("lex-")


def test_user_lists_roundtrip(_user_dir):
    assert lexicons.user_list("protected") == ()
    assert lexicons.add_user_term("protected", "  Swan   Ganz ")
    assert not lexicons.add_user_term("protected", "swan ganz")
    assert lexicons.add_user_term("always_redact", "Acme Clinic")
    assert lexicons.user_list("protected") == ("Swan Ganz",)
    assert lexicons.user_list("always_redact") == ("Acme Clinic",)
    assert lexicons.user_list_path("protected").is_relative_to(_user_dir)
    assert lexicons.remove_user_term("protected", "SWAN GANZ")
    assert lexicons.user_list("protected") == ()
    with pytest.raises(ValueError):
        lexicons.user_list("other")
    with pytest.raises(ValueError):
        lexicons.add_user_term("protected", "   ")


@pytest.mark.parametrize("const,name", [("EPONYMS", "medical_eponyms"), ("LAB_ABBREVIATIONS", "medical_abbreviations"),
                                        ("MEDICAL_WORDS", "medical_terms")])
def test_hand_written_lists_match_their_builder(const, name):
    """The bundled hand-written lists are what tools/build_lexicons.py writes (no entry lost on a rebuild)."""
    import importlib.util

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("build_lexicons", root / "tools" / "build_lexicons.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    tool = {w.casefold() for w in getattr(mod, const).split()}
    items = {w.casefold() for w in (root / "resources" / "lexicons" / name / "items.txt").read_text(encoding="utf-8").split("\n") if w}
    assert items == tool
