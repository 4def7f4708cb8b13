"""A tokenizer for clinical text that keeps exact character offsets.

Rules, in order of the alternation below:
- ordinals stay whole (``11th``, ``2nd``);
- short letter runs with a short digit tail stay whole (``O2``, ``CO2``,
  ``PaO2``, ``B12``, ``T4``): lab and chemistry names, not identifiers;
- otherwise letters and digits split (``MR:6746781`` -> ``MR`` ``:``
  ``6746781``; ``Results02/20/2087`` -> ``Results`` ``02`` ``/`` ``20`` ...;
  ``3LNP`` -> ``3`` ``LNP``);
- apostrophes inside words stay (``O'Brien``, ``don't``), but a possessive
  ``'s`` is split off (``Smith's`` -> ``Smith`` ``'`` ``s``) so that name
  boundaries fall on token boundaries;
- every other visible character is a token of its own.

Whitespace is never a token; ``line_spans`` and ``sentence_spans`` give the
structure. Offsets always slice back to the token text (property-tested).
"""

from __future__ import annotations

from typing import Iterator, NamedTuple

import regex

TOKENIZER_VERSION = "deid-tokenizer.v1"

_TOKEN_RE = regex.compile(
    r"""
      \d+(?:st|nd|rd|th|ST|ND|RD|TH)(?![\p{L}])          # ordinals
    | (?<![\p{L}\d])\p{L}{1,3}\d{1,2}(?![\p{L}\d])        # O2, CO2, PaO2, B12
    | \p{L}+(?:['’](?![sS](?![\p{L}]))\p{L}+)*            # words, O'Brien; not 's
    | \d+                                                 # numbers
    | [^\s\x1c-\x1f\x85]                                   # any other visible char
    """,
    regex.VERBOSE,
)

_WORD_RE = regex.compile(r"[\p{L}\p{N}]+")


class Token(NamedTuple):
    """A token and its offsets (immutable; a named tuple, cheap to create: every
    note of a batch is tokenized once per run)."""

    start: int
    end: int
    text: str

    @property
    def is_word(self) -> bool:
        return self.text[:1].isalnum()


def tokenize(text: str) -> list[Token]:
    """All tokens of ``text`` with their offsets.

    The token strings come from one ``findall``; each offset is the first occurrence of the
    token at or after the previous token's end. That is exact: only characters that no
    alternative of ``_TOKEN_RE`` can start with (whitespace, ``\x1c-\x1f``, ``\x85``) lie
    between tokens, and no token starts with one (about twice as fast as a match object
    per token; ``iter_tokens`` is the plain form, and the tests hold the two equal)."""
    out: list[Token] = []
    append, find, new, cls = out.append, text.find, tuple.__new__, Token  # tuple.__new__: what Token._make does
    end = 0
    for w in _TOKEN_RE.findall(text):
        start = find(w, end)
        end = start + len(w)
        append(new(cls, (start, end, w)))
    return out


def iter_tokens(text: str) -> Iterator[Token]:
    for m in _TOKEN_RE.finditer(text):
        yield Token(m.start(), m.end(), m.group())


def word_spans(text: str) -> list[tuple[int, int]]:
    """Maximal runs of letters and digits: the unit of token-level evaluation."""
    return [(m.start(), m.end()) for m in _WORD_RE.finditer(text)]


def line_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line without its terminator (LF, CRLF or CR)."""
    out: list[tuple[int, int]] = []
    start = 0
    for m in regex.finditer(r"\r\n|\r|\n", text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return out


# A sentence ends at . ! ? or ; followed by whitespace, unless the period ends a
# common abbreviation or an initial; line breaks always end a sentence.
_ABBREV = {
    "dr", "mr", "mrs", "ms", "st", "vs", "pt", "pts", "approx", "appt", "no", "nos",
    "e.g", "i.e", "etc", "jr", "sr", "prof", "dept", "fig", "hr", "hrs", "min", "mins",
    "sra", "sr", "dra", "dña", "d", "cc", "mg", "ml", "q", "b.i.d", "t.i.d", "p.o",
}


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Sentence boundaries (start, end), whitespace trimmed, never crossing a line."""
    out: list[tuple[int, int]] = []
    for ls, le in line_spans(text):
        s = ls
        for m in regex.finditer(r"[.!?;]+(?=\s+|$)", text[ls:le]):
            end = ls + m.end()
            before = text[s : ls + m.start()].rsplit(None, 1)
            last = before[-1].lower() if before else ""
            if m.group() == "." and (last in _ABBREV or (len(last) == 1 and last.isalpha())):
                continue
            _push(text, s, end, out)
            s = end
        _push(text, s, le, out)
    return out


def _push(text: str, s: int, e: int, out: list[tuple[int, int]]) -> None:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    if e > s:
        out.append((s, e))


def snap_to_tokens(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen [start, end) so it does not cut a letter/digit run in half."""
    n = len(text)
    while start > 0 and text[start - 1].isalnum() and text[start].isalnum():
        start -= 1
    while end < n and end > 0 and text[end].isalnum() and text[end - 1].isalnum():
        end += 1
    return start, end
