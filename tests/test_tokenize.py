import pytest
from hypothesis import given, strategies as st

from deid_engine.tokenize import line_spans, sentence_spans, snap_to_tokens, tokenize, word_spans


@pytest.mark.parametrize("text,tokens", [
    ("MR:6746781", ["MR", ":", "6746781"]),
    ("Results02/20/2087", ["Results", "02", "/", "20", "/", "2087"]),
    ("3LNP", ["3", "LNP"]),
    ("O2 sat 95%", ["O2", "sat", "95", "%"]),
    ("PaO2 CO2 B12", ["PaO2", "CO2", "B12"]),
    ("11th of October", ["11th", "of", "October"]),
    ("PT SEEN BY DR. JONES", ["PT", "SEEN", "BY", "DR", ".", "JONES"]),
    ("O'Brien's wife", ["O'Brien", "'", "s", "wife"]),
    ("tel:555-1234", ["tel", ":", "555", "-", "1234"]),
    ("Médico:\tIgnacio Cuéllar", ["Médico", ":", "Ignacio", "Cuéllar"]),
    ("a\r\nb", ["a", "b"]),
    ("emoji 😀 x", ["emoji", "😀", "x"]),
])
def test_tokens(text, tokens):
    assert [t.text for t in tokenize(text)] == tokens


@pytest.mark.parametrize("text,must_not_contain", [
    ("MR6746781", "MR6746781"),        # an ID is not glued to its prefix
    ("Results02/20/2087", "Results02"),
])
def test_tokens_must_split(text, must_not_contain):
    assert must_not_contain not in [t.text for t in tokenize(text)]


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_offsets_slice_back(text):
    prev_end = 0
    for t in tokenize(text):
        assert text[t.start:t.end] == t.text
        assert t.start >= prev_end
        assert not t.text.isspace()
        prev_end = t.end
    # Everything outside tokens is whitespace.
    covered = set()
    for t in tokenize(text):
        covered.update(range(t.start, t.end))
    assert all(text[i].isspace() for i in range(len(text)) if i not in covered)


def test_lines_handle_crlf_and_cr():
    text = "one\r\ntwo\rthree\nfour"
    assert [text[a:b] for a, b in line_spans(text)] == ["one", "two", "three", "four"]


def test_sentences():
    text = "Pt seen by Dr. Smith today. Stable.\r\nPLAN: CONTINUE; F/U 2 WKS"
    sents = [text[a:b] for a, b in sentence_spans(text)]
    assert sents == ["Pt seen by Dr. Smith today.", "Stable.", "PLAN: CONTINUE;", "F/U 2 WKS"]


def test_word_spans_and_snap():
    text = "Smith, J."
    assert [text[a:b] for a, b in word_spans(text)] == ["Smith", "J"]
    assert snap_to_tokens("Johnson", 2, 4) == (0, 7)
