"""Resolving overlapping spans from several detectors into one set.

Rule (``resolve``): spans are ranked by the sort key
``(-priority(source), -length, -confidence, start)``; going down the ranking,
each span claims the characters nobody has claimed yet. A span whose every
character is already claimed is dropped; one that is partly claimed keeps its
unclaimed remainder(s), whitespace trimmed, when they contain a letter or digit
(recall first: a longer, lower-ranked span still covers what the winner missed).
When the partly claimed span overlaps exactly one winner *of the same category*
and nothing else, the winner grows to the union instead (``12 de`` +
``diciembre de 2016`` is one date, not two fragments). The whole range is
checked, not only the ends, because the key is not longest-first. The output
never overlaps and every output character was claimed by an input.

A span of a name or place (``JOIN_CATEGORIES``) that covers two or more winners of
its category joins them into one span over the union (``Rosa`` + ``Ibarra``
under the lexicon's ``Rosa Ibarra``; ``Saint`` + ``Agnes Medical Center``). The
English tagger learnt PhysioNet's convention of one span per word of a name or
place, so its pieces do not delimit entities; a reviewer marks, and a surrogate
replaces, the whole name. The winners keep their label (the tagger read the
context) unless they only gave the category (``LOCATION``) and the covering span
names the subtype (``HOSPITAL``). A name said twice (``karen karen walsh``) is
not joined.

``join_adjacent`` then joins spans of the same label that touch, or that are
separated only by a space or two on the same line (``John`` + ``Smith``), when
at least one of the two comes from a detector that does not delimit entities
itself (a lexicon or the user), or both are tagger name pieces (see above).
Other tagger spans, or two pattern spans, stay apart: their detector already
decided where each entity ends (``28036`` + ``Madrid`` are two places;
``Springfield`` + ``IL`` a city and a state). Name pieces also join over a bare
hyphen or apostrophe (``Rashid Al`` + ``Hakim``). A repeated word (``emeka emeka``)
is two mentions.

With ``delimiters`` (Spanish: the tagger, trained on MEDDOCAN's conventions), a
lower-ranked span that overlaps a delimiter's span is dropped whole: the rules
add entities where the tagger found none, but never reshape one it found. Two
exceptions and one restriction follow from the same conventions:

- a pattern span of a closed-grammar label (``EXTENDABLE_LABELS``: dates and
  ages) that strictly contains exactly one delimiter span of the same label
  replaces it: ``enero del 2011`` over the tagger's ``2011``, ``3 años y 2
  meses`` over ``3 años``. The pattern spells the whole entity out; the tagger
  found only a piece of it;
- a pattern span with exactly the delimiter span's bounds and an agreeing label
  lends it its source (``pattern:...``): the filters that drop tagger or lexicon
  spans on medical words keep pattern spans, and a field value such as
  ``Nombre: Angelica`` (a herb) is a name by its position;
- a pattern span with exactly the delimiter span's bounds, another subtype of the
  same identifier or contact category (``CUE_CATEGORIES``) replaces it: the pattern
  read the subtype from its cue (``Fax: 976 ...`` is a FAX, ``NHC: ...`` a record
  number) where the tagger guessed between neighbours;
- spans of ``UNSUPPORTED_BESIDE_DELIMITER`` sources (a bare surname-list hit) are
  dropped when the delimiter ran on the text (any of its spans is present): the
  tagger saw the word and did not tag it;
- growth to the union joins only spans whose labels agree (equal, or one is the
  other's category), not every pair of one category: a hospital followed by its
  street address (``Hospital X`` + ``Avda. Y, 21``) are two entities there.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from ..taxonomy import category_of, is_label, labels_match
from ..types import Span

# Higher wins. User decisions outrank everything; pattern detectors know the
# exact shape of identifiers; the tagger knows context; lexicons only know words.
DEFAULT_PRIORITY: dict[str, int] = {"user": 100, "pattern": 50, "tagger": 40, "lexicon": 30}

# With delimiters: the families whose spans may replace a delimiter span they strictly contain,
# and the labels for which they may (closed grammars that a pattern spells out whole).
EXTENDERS: frozenset[str] = frozenset({"pattern"})
EXTENDABLE_LABELS: frozenset[str] = frozenset({"DATE", "AGE"})
# ... and the categories whose subtype a pattern reads from its cue word (Fax: / Tel., NHC: / NASS:)
CUE_CATEGORIES: frozenset[str] = frozenset({"CONTACT", "ID"})
# ... and the sources too weak to stand where the delimiter, having run on the text, found nothing
# (a bare surname-list hit: lexicon_es.SURNAME_ONLY)
UNSUPPORTED_BESIDE_DELIMITER: frozenset[str] = frozenset({"lexicon:surname_only"})


def source_family(source: str) -> str:
    return source.split(":", 1)[0]


def _priority(span: Span, priority: Mapping[str, int]) -> int:
    return priority.get(source_family(span.source), 0)


def resolve(spans: Iterable[Span], text: str | None = None,
            priority: Mapping[str, int] = DEFAULT_PRIORITY, delimiters: Iterable[str] = ()) -> list[Span]:
    """Non-overlapping spans (see the module docstring).

    ``delimiters``: source families whose spans are final entities: a span of another
    family that overlaps one of them is dropped whole (no growth, no remainder); it
    only counts where they found nothing.
    """
    delim = frozenset(delimiters)
    if delim:
        spans = list(spans)
        if any(source_family(s.source) in delim for s in spans):
            spans = [s for s in spans if s.source not in UNSUPPORTED_BESIDE_DELIMITER]
    ranked = sorted(spans, key=lambda s: (-_priority(s, priority), -s.length, -s.confidence, s.start, s.label))
    claimed: list[tuple[int, int]] = []  # sorted, disjoint intervals
    owner: dict[tuple[int, int], int] = {}  # claimed interval -> index in out
    out: list[Span | None] = []
    for s in ranked:
        hits = _overlapping(claimed, s.start, s.end)
        if delim and hits and source_family(s.source) not in delim and any(
                (w := out[owner[h]]) is not None and source_family(w.source) in delim for h in hits):
            w = out[owner[hits[0]]]
            if len(hits) == 1 and w is not None and (w.start, w.end) == (s.start, s.end) \
                    and source_family(s.source) in EXTENDERS and labels_match(w.label, s.label):
                # a pattern agrees exactly: keep the span under the pattern's name, the stronger
                # evidence for the filters that judge spans by source (a field value "Nombre: Angelica")
                out[owner[hits[0]]] = Span(w.start, w.end, w.label, s.source, max(w.confidence, s.confidence),
                                           w.explanation or s.explanation)
            elif len(hits) == 1 and w is not None and (w.start, w.end) == (s.start, s.end) \
                    and source_family(s.source) in EXTENDERS and _cue_label(w, s):
                # same identifier, another subtype: the pattern read it from its cue ("Fax:", "NHC:")
                out[owner[hits[0]]] = s
            elif len(hits) == 1 and w is not None and _extends(s, w):
                claimed.remove(hits[0])
                idx = owner.pop(hits[0])
                out[idx] = w.with_bounds(s.start, s.end)
                _claim(claimed, s.start, s.end)
                owner[(s.start, s.end)] = idx
            continue
        if len(hits) == 1:
            w = out[owner[hits[0]]]
            if w is not None and (labels_match(w.label, s.label) if delim else same_category(w.label, s.label)) \
                    and not w.contains(s):
                a, b = min(w.start, s.start), max(w.end, s.end)
                if text is not None:  # a grown span carries no edge whitespace
                    while a < b - 1 and text[a].isspace():
                        a += 1
                    while b > a + 1 and text[b - 1].isspace():
                        b -= 1
                # the winner does not grow over a line break it did not hold: the loser's text on the
                # next line stays the loser's (a tagger span "2HL\nNeurology clinic" must not turn the
                # clinic into part of a postcode)
                crosses = text is not None and "\n" in text[a:b] and "\n" not in text[w.start:w.end]
                if _overlapping(claimed, a, b) == hits and not crosses:
                    claimed.remove(hits[0])
                    idx = owner.pop(hits[0])
                    out[idx] = w.with_bounds(a, b)
                    _claim(claimed, a, b)
                    owner[(a, b)] = idx
                    continue
        elif len(hits) > 1 and not delim and _joins_pieces(s, [out[owner[h]] for h in hits], text):
            # one entity the winners hold in pieces (a tagger trained on PhysioNet tags each word of
            # "Rosa Ibarra" and "San Juan" apart): the span that reads it whole joins them
            ws = [out[owner[h]] for h in hits]
            idx0 = min(owner[h] for h in hits)
            w = out[idx0]
            a, b = min(s.start, ws[0].start), max(s.end, ws[-1].end)
            while a < b - 1 and text[a].isspace():  # no edge whitespace (text is set: _joins_pieces)
                a += 1
            while b > a + 1 and text[b - 1].isspace():
                b -= 1
            for h in hits:
                claimed.remove(h)
                out[owner.pop(h)] = None
            # the winners' label (the tagger read the context: DOCTOR or PATIENT), unless they only
            # gave the category and the span names the subtype (LOCATION pieces of a HOSPITAL)
            label = s.label if all(x.label == category_of(s.label) for x in ws) else w.label
            out[idx0] = Span(a, b, label, w.source, min(x.confidence for x in ws), w.explanation)
            _claim(claimed, a, b)
            owner[(a, b)] = idx0
            continue
        for a, b in _unclaimed(claimed, s.start, s.end):
            if text is not None and not any(c.isalnum() for c in text[a:b]):
                continue
            if text is not None and (a, b) != (s.start, s.end):
                while text[a].isspace():  # a remainder starts or ends at the winner's edge
                    a += 1
                while text[b - 1].isspace():
                    b -= 1
            piece = s if (a, b) == (s.start, s.end) else s.with_bounds(a, b)
            owner[(a, b)] = len(out)
            out.append(piece)
            _claim(claimed, a, b)
    result = [x for x in out if x is not None]
    result.sort(key=lambda s: s.start)
    return result


# Categories whose pieces a covering span may join into one entity (see ``resolve``).
JOIN_CATEGORIES: frozenset[str] = frozenset({"NAME", "LOCATION"})


def _joins_pieces(s: Span, winners: list[Span | None], text: str | None) -> bool:
    """Whether ``s`` reads the ``winners`` (two or more, in text order) as one entity: ``s`` and
    all of them of one ``JOIN_CATEGORIES`` category, each inside ``s`` except that the first may
    start before it and the last end after it, no winner repeating the one before (a name said
    twice), and no line break in the joined range."""
    if text is None or not is_label(s.label) or category_of(s.label) not in JOIN_CATEGORIES:
        return False
    if any(w is None or not is_label(w.label) or category_of(w.label) != category_of(s.label) for w in winners):
        return False
    for i, w in enumerate(winners):
        if (i > 0 and w.start < s.start) or (i < len(winners) - 1 and w.end > s.end):
            return False
    if any(_repeats(text[x.start:x.end], text[y.start:y.end]) for x, y in zip(winners, winners[1:])):
        return False
    a, b = min(s.start, winners[0].start), max(s.end, winners[-1].end)
    return "\n" not in text[a:b]


def _repeats(first: str, second: str) -> bool:
    """A name said twice ("karen karen walsh", "emeka emeka"): the second piece starts with the
    whole first one again; two mentions, not one name."""
    words = second.split()
    return bool(words) and words[0].casefold().strip(".,") == first.casefold().strip(".,")


def _cue_label(w: Span, s: Span) -> bool:
    """Whether pattern span ``s`` relabels the delimiter span ``w`` it covers exactly (see the docstring)."""
    return (is_label(w.label) and is_label(s.label) and category_of(w.label) == category_of(s.label)
            and category_of(s.label) in CUE_CATEGORIES and s.label != category_of(s.label))


def _extends(s: Span, w: Span) -> bool:
    """Whether ``s`` may replace the delimiter span ``w`` (see the module docstring)."""
    return (source_family(s.source) in EXTENDERS and w.label in EXTENDABLE_LABELS and labels_match(w.label, s.label)
            and s.start <= w.start and w.end <= s.end and (s.start, s.end) != (w.start, w.end))


def _overlapping(claimed: list[tuple[int, int]], a: int, b: int) -> list[tuple[int, int]]:
    import bisect

    i = max(0, bisect.bisect_left(claimed, (a, a)) - 1)
    hits = []
    for k in range(i, len(claimed)):
        ca, cb = claimed[k]
        if ca >= b:
            break
        if cb > a:
            hits.append((ca, cb))
    return hits


def _unclaimed(claimed: list[tuple[int, int]], a: int, b: int) -> list[tuple[int, int]]:
    import bisect

    gaps = []
    cur = a
    # claimed is sorted and disjoint: only the interval before the first one starting at >= a can
    # reach into [a, b), so start there (a scan from 0 made resolve quadratic on long notes)
    i = max(0, bisect.bisect_left(claimed, (a, a)) - 1)
    for k in range(i, len(claimed)):
        ca, cb = claimed[k]
        if cb <= cur:
            continue
        if ca >= b:
            break
        if ca > cur:
            gaps.append((cur, ca))
        cur = max(cur, cb)
        if cur >= b:
            break
    if cur < b:
        gaps.append((cur, b))
    return gaps


def _claim(claimed: list[tuple[int, int]], a: int, b: int) -> None:
    import bisect

    bisect.insort(claimed, (a, b))


def _joinable_gap(gap: str) -> bool:
    return len(gap) <= 2 and all(c in " \t" for c in gap)


# Detectors whose spans are words, not delimited entities: their pieces may be joined.
_JOINABLE_FAMILIES = frozenset({"lexicon", "user"})


def join_adjacent(spans: Iterable[Span], text: str) -> list[Span]:
    """Join same-label spans separated by nothing or a short same-line space,
    when at least one of the two comes from a lexicon or the user."""
    out: list[Span] = []
    for s in sorted(spans, key=lambda s: s.start):
        if out:
            prev = out[-1]
            gap = text[prev.end : s.start]
            if gap in ("-", "'", "’") and prev.end < s.start and _cat(prev.label) == _cat(s.label) == "NAME" \
                    and source_family(prev.source) != "user" and source_family(s.source) != "user":
                # "Al" + "Khatib" over a bare hyphen: one surname, whatever role each piece was given
                out[-1] = Span(prev.start, s.end, prev.label, prev.source if _same_family(prev, s) else
                               f"{source_family(prev.source)}+{source_family(s.source)}",
                               min(prev.confidence, s.confidence), prev.explanation or s.explanation)
                continue
            if (prev.label == s.label and prev.end <= s.start and _joinable_gap(gap)
                    and (({source_family(prev.source), source_family(s.source)} & _JOINABLE_FAMILIES)
                         or _name_pieces(prev, s))
                    and not _repeats(text[prev.start:prev.end], text[s.start:s.end])):
                src = prev.source if prev.source == s.source else (
                    prev.source if _same_family(prev, s) else f"{source_family(prev.source)}+{source_family(s.source)}")
                out[-1] = Span(prev.start, s.end, prev.label, src, min(prev.confidence, s.confidence),
                               prev.explanation or s.explanation)
                continue
        out.append(s)
    return out


def _name_pieces(a: Span, b: Span) -> bool:
    """Two English tagger name spans side by side: that tagger learnt PhysioNet's convention of one
    span per name word (``mary`` ``souza``), so its pieces do not delimit people. (The Spanish
    tagger learnt MEDDOCAN's whole names: its spans stay as they are.)"""
    return (a.source == b.source == "tagger:en" and is_label(a.label) and category_of(a.label) == "NAME")


def _cat(label: str) -> str:
    return category_of(label) if is_label(label) else label


def _same_family(a: Span, b: Span) -> bool:
    return source_family(a.source) == source_family(b.source)


def same_category(a: str, b: str) -> bool:
    if not (is_label(a) and is_label(b)):
        return a == b
    return category_of(a) == category_of(b)
