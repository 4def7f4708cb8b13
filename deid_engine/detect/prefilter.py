"""Literal pre-checks derived from a regular expression: skip a scan that cannot match.

``literal_prefilter(source, flags)`` reads the expression (with the standard library's
parser) and returns a ``Prefilter``: strings of which every match must contain at least one
(``"employed"``, ``"hired"``, ... for ``\\b(?:employed|hired|...)\\s+as\\s+``). When the text
holds none of them the expression cannot match there, and the scan is skipped; otherwise
it runs as before. The regular expression itself is never changed, so the matches are the
same ones; the pre-check only saves the scans of texts where there are none.

Soundness rules of the derivation:
- a literal character, a small set of characters, a group or alternation whose every
  branch is such a finite set of strings, repeated exactly once, is a finite set;
  consecutive finite sets concatenate (bounded products);
- a sequence requires what any one of its elements requires (the best one is kept);
  zero-width items (``\\b``, ``^``, lookarounds) keep the literals on both sides adjacent;
  a positive lookaround's own requirement counts too (its text is in the document);
- an alternation requires the union of its branches' requirements (none if one branch
  has none); a repeat with a minimum of one or more requires what its body requires;
- anything else (classes, categories, back-references, conditionals, negative lookarounds,
  optional repeats) requires nothing.
Case-insensitive literals are tested in the lower-cased text and only on ASCII texts (where
case-insensitive matching is exactly lower-case containment); any text with non-ASCII
characters runs the scan. An expression the standard parser does not read (``regex``-only
syntax other than ``\\p{..}``, which is read as one character of no literal value), or flags
other than I, M, S, X, A, U and regex's VERSION0, VERSION1 and FULLCASE, gets no pre-check
(regex's version-1 set operations make the standard parser warn: no pre-check either).
"""

from __future__ import annotations

import re
import warnings
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser as P  # type: ignore[attr-defined]

_I = 2
# I M S X A U, and regex's VERSION0, VERSION1 and FULLCASE: on ASCII text an ASCII literal matches
# case-insensitively exactly where its lower case occurs, with simple or full case folding
_ALLOWED_FLAGS = 2 | 8 | 16 | 64 | 128 | 32 | 0x2000 | 0x100 | 0x4000
_MAX_SET = 64  # largest set of strings carried as one requirement
_MIN_LEN = 3  # a requirement with a shorter string is no useful filter
_FUZZY = re.compile(r"\{[^}]*[eids][^}]*\}")  # regex's fuzzy matching ({e<=1}): never pre-checked
_PROP = re.compile(r"\\[pP](?:\{[^}]*\}|[A-Za-z])|\\.", re.DOTALL)

Req = frozenset  # of (string, case_insensitive) pairs


class Prefilter:
    """``may_match(text, low)``: False only when the expression cannot match ``text``."""

    __slots__ = ("cs", "ci")

    def __init__(self, cs: tuple[str, ...], ci: tuple[str, ...]):
        self.cs, self.ci = cs, ci

    def may_match(self, text: str, low: str) -> bool:
        for s in self.cs:
            if s in text:
                return True
        if self.ci:
            if not text.isascii():
                return True
            for s in self.ci:
                if s in low:
                    return True
        return False

    def __repr__(self) -> str:
        return f"Prefilter(cs={self.cs!r}, ci={self.ci!r})"


def _neutral_properties(src: str) -> str:
    """``\\p{L}`` / ``\\P{Lu}`` / ``\\pL`` -> ``\\d``: one character, never a literal requirement
    (inside a class a range from it is a parse error: no pre-check). Other escapes stay."""
    return _PROP.sub(lambda m: r"\d" if m.group()[1] in "pP" else m.group(), src)


def literal_prefilter(source: str, flags: int = 0) -> Prefilter | None:
    """The pre-check of ``source`` compiled with ``flags``, or None (always scan)."""
    if flags & ~_ALLOWED_FLAGS or _FUZZY.search(source):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # "possible nested set" ([[:alpha:]], --, &&): regex-only meaning
            tree = P.parse(_neutral_properties(source), flags & (2 | 8 | 16 | 64 | 128 | 32))
    except Exception:  # regex-only syntax: no pre-check
        return None
    ci = bool(tree.state.flags & _I)
    req = _seq_req(list(tree), ci)
    if not req or min(len(s) for s, _ in req) < _MIN_LEN:
        return None
    cs = tuple(sorted({s for s, c in req if not c}))
    cis = tuple(sorted({s for s, c in req if c}))
    return Prefilter(cs, cis)


def _char(code: int, ci: bool) -> str | None:
    ch = chr(code)
    if ci:
        if not ch.isascii():
            return None
        return ch.lower()
    return ch


def _finite(items, ci: bool) -> set[str] | None:
    """The finite set of strings a sequence matches (small, literal only), or None.
    Zero-width items are not allowed here (they are handled by ``_seq_req``)."""
    cur = {""}
    for op, av in items:
        f = _finite_item(op, av, ci)
        if f is None:
            return None
        cur = {a + b for a in cur for b in f}
        if len(cur) > _MAX_SET:
            return None
    return cur


def _finite_item(op, av, ci: bool) -> set[str] | None:
    if op is C.LITERAL:
        ch = _char(av, ci)
        return None if ch is None else {ch}
    if op is C.IN:
        out = set()
        for o, a in av:
            if o is C.LITERAL:
                ch = _char(a, ci)
            elif o is C.RANGE and a[1] - a[0] < 8:
                chars = [_char(c, ci) for c in range(a[0], a[1] + 1)]
                if any(c is None for c in chars):
                    return None
                out.update(chars)
                continue
            else:  # NEGATE, CATEGORY, big ranges
                return None
            if ch is None:
                return None
            out.add(ch)
        return out if 0 < len(out) <= 8 else None
    if op is C.SUBPATTERN:
        _group, add, dele, p = av
        ci2 = (ci or bool(add & _I)) and not (dele & _I)
        if ci2 != ci:
            return None  # one case mode per string
        return _finite(list(p), ci)
    if op is C.BRANCH:
        out = set()
        for alt in av[1]:
            f = _finite(list(alt), ci)
            if f is None:
                return None
            out |= f
            if len(out) > _MAX_SET:
                return None
        return out
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        lo, hi, p = av
        if lo == hi == 1:
            return _finite(list(p), ci)
        return None
    if op is C.ATOMIC_GROUP:
        return _finite(list(av), ci)
    return None


def _better(a: Req | None, b: Req | None) -> Req | None:
    if not a:
        return b or None
    if not b:
        return a
    ka = (min(len(s) for s, _ in a), -len(a))
    kb = (min(len(s) for s, _ in b), -len(b))
    return a if ka >= kb else b


def _seq_req(items, ci: bool) -> Req | None:
    best: Req | None = None
    cur: set[str] = {""}

    def flush() -> None:
        nonlocal best, cur
        if cur and all(cur):
            best = _better(best, frozenset((s, ci) for s in cur))
        cur = {""}

    for op, av in items:
        if op is C.AT or op is C.ASSERT_NOT:
            continue  # zero width: the literals on both sides stay adjacent
        if op is C.ASSERT:
            best = _better(best, _seq_req(list(av[1]), ci))
            continue
        f = _finite_item(op, av, ci)
        if f is not None:
            nxt = {a + b for a in cur for b in f}
            if len(nxt) <= _MAX_SET:
                cur = nxt
                continue
            flush()
            if len(f) <= _MAX_SET and all(f):
                best = _better(best, frozenset((s, ci) for s in f))
            continue
        flush()
        best = _better(best, _item_req(op, av, ci))
    flush()
    return best


def _item_req(op, av, ci: bool) -> Req | None:
    if op is C.SUBPATTERN:
        _group, add, dele, p = av
        return _seq_req(list(p), (ci or bool(add & _I)) and not (dele & _I))
    if op is C.ATOMIC_GROUP:
        return _seq_req(list(av), ci)
    if op is C.BRANCH:
        out: set = set()
        for alt in av[1]:
            r = _seq_req(list(alt), ci)
            if not r:
                return None
            out |= r
            if len(out) > _MAX_SET:
                return None
        return frozenset(out)
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        lo, _hi, p = av
        if lo >= 1:
            return _seq_req(list(p), ci)
        return None
    return None


def cached_prefilters(name: str, sources: list[tuple[str, int]]) -> list[Prefilter | None]:
    """``literal_prefilter`` of each (source, flags), through the derived-data disk cache
    (``deid_engine.cache``): parsing a few hundred expressions costs ~0.15 s at every start,
    reading them back a JSON line each. The key covers this module's code, the Python and
    ``regex`` versions and every source with its flags, so any change rebuilds the entry."""
    import hashlib
    import json
    import sys

    from .. import cache

    uniq = list(dict.fromkeys(sources))
    h = hashlib.sha256()
    for s, f in uniq:
        h.update(f"{f}\0{s}\0".encode("utf-8", "surrogatepass"))

    def build() -> dict:
        return {key: literal_prefilter(*key) for key in uniq}

    def encode(table: dict) -> dict[str, list[str]]:
        return {"prefilters": [json.dumps([s, f, None if p is None else [list(p.cs), list(p.ci)]])
                               for (s, f), p in table.items()]}

    def decode(sections: dict[str, list[str]]) -> dict:
        table = {}
        for line in sections["prefilters"]:
            s, f, v = json.loads(line)
            table[(s, f)] = None if v is None else Prefilter(tuple(v[0]), tuple(v[1]))
        if set(table) != set(uniq):
            raise ValueError("prefilter cache does not match the sources")
        return table

    table = cache.derived(f"prefilters-{name}", lexicons=(), modules=(sys.modules[__name__],), build=build,
                          encode=encode, decode=decode, extra=h.hexdigest())
    return [table[key] for key in sources]
