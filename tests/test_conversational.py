"""Recipe-2 augmentation: wide silver labels, context injection, speech-style variants."""

from __future__ import annotations

import random

import pytest

from deid_engine.model.augment import fallback_generate
from deid_engine.model.conversational import (
    CONV_TEMPLATES, _SPEAKERS, conversation_examples, fill_conversational, inject_context,
    restyle_speakers, strip_punctuation, wide_silver_spans)
from deid_engine.model.data import Example
from deid_engine.types import Span


def _texts(text: str, spans) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.label) for s in spans]


@pytest.mark.parametrize("text,expected", [
    ("It started in May and got worse.", ("May", "DATE")),
    ("the pain began in october after the fall", ("october", "DATE")),
    ("We'll see you on the 14th.", ("14th", "DATE")),
    ("results from tuesday the 8th", ("8th", "DATE")),
    ("around Christmas she felt worse", ("Christmas", "DATE")),
    ("I had a C-section in 1998.", ("1998", "DATE")),
    ("she moved here from Ohio last year", ("Ohio", "LOCATION")),
    ("appointment on March 3rd", ("March 3rd", "DATE")),
])
def test_wide_silver_marks(text, expected):
    assert expected in _texts(text, wide_silver_spans(text, {}))


@pytest.mark.parametrize("text", [
    "You may feel some pressure.",           # the verb 'may'
    "Take 2000 mg of vitamin C.",            # a dose is not a year
    "a message from Jan about the bill",     # a name, not a month abbreviation
    "the 2nd and 3rd MCP joints",            # ordinals that are not days
    "march in place for ten seconds",        # the verb 'march'
])
def test_wide_silver_leaves(text):
    assert not [t for t, lab in _texts(text, wide_silver_spans(text, {})) if lab == "DATE"]


def test_metadata_names_still_marked():
    text = "[doctor] hi martha . martha is a 50-year-old female"
    got = _texts(text, wide_silver_spans(text, {"Martha": "PATIENT"}))
    assert got.count(("martha", "PATIENT")) == 2


def _check_offsets(ex: Example, values: set[str] | None = None) -> None:
    for s in ex.spans:
        t = ex.text[s.start:s.end]
        assert t and t == t.strip(), (t, ex.text)
    starts = [s.start for s in sorted(ex.spans, key=lambda s: s.start)]
    assert len(starts) == len(set(starts))


def test_strip_punctuation_keeps_span_text():
    text = "Doctor: Hello, Mrs. Ruiz. How are you?\nPatient: Fine, thanks. My son, Omar, drove me."
    a = text.index("Ruiz")
    b = text.index("Omar")
    ex = Example(text, [Span(a, a + 4, "PATIENT"), Span(b, b + 4, "RELATIVE")])
    out = strip_punctuation(ex)
    assert _texts(out.text, out.spans) == [("ruiz", "PATIENT"), ("omar", "RELATIVE")]
    assert "," not in out.text and "?" not in out.text and "  " not in out.text


def test_strip_punctuation_property():
    rng = random.Random(3)
    for _ in range(200):
        words = [rng.choice(["hi", "Ana", ",", ".", "?", "the", "St.", "(x)", "\n"]) for _ in range(20)]
        text = " ".join(words)
        spans = []
        for i, w in enumerate(words):
            if w == "Ana":
                a = len(" ".join(words[:i])) + (1 if i else 0)
                spans.append(Span(a, a + 3, "PATIENT"))
        out = strip_punctuation(Example(text, spans))
        assert [out.text[s.start:s.end] for s in out.spans] == ["ana"] * len(spans)


def test_inject_context_inserts_labelled_values():
    rng = random.Random(0)
    text = ("[doctor] hi , how are you ?\n[patient] my daughter drove me . i live alone now .\n"
            "[doctor] okay . the nurse can help . we'll see you back soon .")
    hits = 0
    for seed in range(30):
        ex = inject_context(Example(text, []), random.Random(seed), fallback_generate)
        _check_offsets(ex)
        for s in ex.spans:
            before = ex.text[:s.start].rstrip(" ,").lower()
            assert before.endswith(("hi", "daughter", "nurse", "mr.", "mrs.", "ms.", "mr", "miss", "in", "near",
                                    "outside", "on the", "on", "at")), (before[-20:], ex.text[s.start:s.end])
            hits += 1
    assert hits > 20
    assert rng  # deterministic per seed


def test_inject_context_shifts_existing_spans():
    text = "Doctor: Good morning. My wife came with me. Dr. Patel saw me."
    a = text.index("Patel")
    ex = Example(text, [Span(a, a + 5, "DOCTOR")])
    for seed in range(20):
        out = inject_context(ex, random.Random(seed), fallback_generate)
        assert ("Patel", "DOCTOR") in _texts(out.text, out.spans)
        _check_offsets(out)


def test_restyle_speakers_moves_spans():
    text = "[doctor] hi martha .\n[patient] hi doctor ."
    a = text.index("martha")
    ex = Example(text, [Span(a, a + 6, "PATIENT")])
    for seed in range(10):
        out = restyle_speakers(ex, random.Random(seed))
        assert _texts(out.text, out.spans) == [("martha", "PATIENT")]


def test_templates_fill_every_slot():
    rng = random.Random(1)
    for t in CONV_TEMPLATES:
        for sp in _SPEAKERS:
            ex = fill_conversational(t, rng, fallback_generate, sp, lower=rng.random() < 0.5)
            assert "{" not in ex.text and ex.spans
            _check_offsets(ex)


def test_conversations_are_reproducible():
    a = conversation_examples(random.Random(5), fallback_generate, 20)
    b = conversation_examples(random.Random(5), fallback_generate, 20)
    assert [(e.text, e.spans) for e in a] == [(e.text, e.spans) for e in b]
    for e in a:
        _check_offsets(e)
