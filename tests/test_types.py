import pytest

from deid_engine.types import AnnotatedDocument, Decision, Document, Span, text_hash


def test_span_validates():
    with pytest.raises(ValueError):
        Span(5, 5, "NAME")
    with pytest.raises(ValueError):
        Span(-1, 3, "NAME")
    with pytest.raises(TypeError):
        Span(1.0, 3, "NAME")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Span(1, 3, "")
    with pytest.raises(ValueError):
        Span(1, 3, "NAME", confidence=1.5)
    s = Span(1, 3, "NAME", "pattern:x", 0.5)
    with pytest.raises(AttributeError):
        s.start = 2  # type: ignore[misc]


def test_span_json_roundtrip():
    s = Span(3, 9, "DATE", "tagger", 0.75)
    assert Span.from_json(s.to_json()) == s


def test_document_id_is_text_hash_and_metadata_readonly():
    d = Document("hello", metadata={"a": 1})
    assert d.doc_id == text_hash("hello")
    with pytest.raises(TypeError):
        d.metadata["a"] = 2  # type: ignore[index]
    with pytest.raises(ValueError):
        Document("hello", doc_id="0" * 64)


def test_annotated_document_rejects_out_of_range_span():
    with pytest.raises(ValueError):
        AnnotatedDocument(Document("abc"), (Span(1, 10, "NAME"),))


def test_decision_roundtrip_and_validation():
    d = Document("Seen by Dr Smith")
    dec = Decision(d.doc_id, Span(11, 16, "DOCTOR"), "accept", at=1.0)
    assert Decision.from_json(dec.to_json()) == dec
    with pytest.raises(ValueError):
        Decision(d.doc_id, Span(11, 16, "DOCTOR"), "maybe")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Decision("abc", Span(11, 16, "DOCTOR"), "accept")
