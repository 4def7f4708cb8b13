import pytest

from deid_engine.evaluate import evaluate
from deid_engine.types import Span

TEXT = "Seen by Dr John Smith on 7/22 at Calvert Hospital."


def spans(*items):
    return [Span(TEXT.index(t), TEXT.index(t) + len(t), lbl) for t, lbl in items]


GOLD = spans(("John Smith", "DOCTOR"), ("7/22", "DATE"), ("Calvert Hospital", "LOCATION"))


def test_perfect():
    r = evaluate({"d": TEXT}, {"d": GOLD}, {"d": GOLD})
    for m in (r.token, r.strict_labeled, r.strict_unlabeled, r.relaxed):
        assert (m.precision, m.recall, m.f1) == (1.0, 1.0, 1.0)


def test_empty_predictions():
    r = evaluate({"d": TEXT}, {"d": GOLD}, {})
    assert r.token.recall == 0.0 and r.strict_labeled.recall == 0.0
    assert r.category_token_recall["NAME"].recall == 0.0


def test_token_and_relaxed_partial():
    pred = spans(("Smith", "PATIENT"), ("7/22", "AGE"), ("Calvert", "HOSPITAL"))
    r = evaluate({"d": TEXT}, {"d": GOLD}, {"d": pred})
    # gold tokens: John Smith 7 22 Calvert Hospital = 6; predicted: Smith 7 22 Calvert = 4
    assert (r.token.tp, r.token.fn, r.token.fp) == (4, 2, 0)
    assert r.relaxed.recall == 1.0 and r.relaxed.precision == 1.0
    assert r.strict_unlabeled.tp == 1  # only 7/22 has exact bounds
    assert r.strict_labeled.tp == 0  # 7/22 has the wrong label
    assert r.category_token_recall["NAME"].recall == 0.5
    assert r.token.f2 == pytest.approx(5 * 1 * (4 / 6) / (4 * 1 + 4 / 6))


def test_hierarchical_label_match_counts():
    pred = spans(("Calvert Hospital", "HOSPITAL"))
    r = evaluate({"d": TEXT}, {"d": GOLD}, {"d": pred})
    assert r.strict_labeled.tp == 1


def test_strict_exact_refuses_a_category_for_a_subtype():
    gold = spans(("John Smith", "DOCTOR"), ("Calvert Hospital", "HOSPITAL"))
    generic = spans(("John Smith", "DOCTOR"), ("Calvert Hospital", "LOCATION"))
    r = evaluate({"d": TEXT}, {"d": gold}, {"d": generic})
    assert r.strict_labeled.tp == 2 and r.strict_exact.tp == 1  # LOCATION matches HOSPITAL only leniently
    assert (r.strict_exact.fp, r.strict_exact.fn) == (1, 1)
    r = evaluate({"d": TEXT}, {"d": gold}, {"d": gold})
    assert r.strict_exact.f1 == 1.0
    # a corpus that does not split places (gold LOCATION) accepts any place subtype
    r = evaluate({"d": TEXT}, {"d": GOLD}, {"d": spans(("John Smith", "DOCTOR"), ("7/22", "DATE"),
                                                        ("Calvert Hospital", "HOSPITAL"))})
    assert r.strict_exact.tp == 3
    assert "entity strict (exact)" in r.format_table() and "entity_strict_exact" in r.as_dict()
