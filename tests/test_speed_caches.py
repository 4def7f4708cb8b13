"""Speed-ups that must not change results: memoised and shortcut paths equal the plain ones."""

from __future__ import annotations

import numpy as np

from deid_engine.detect.lexicon import LexiconDetector
from deid_engine.detect.patterns import PatternDetector
from deid_engine.model.crf import marginals_np, marginals_scaled_np, viterbi_np
from deid_engine.types import Document

TEXTS = ["PATIENT SEEN TODAY", "patient seen today", "Patient Seen Today by Dr Lee", "", "123 456",
         "Ünïcode Ärzte and ΔΣ letters", "x" * 50 + "Y"]


def test_case_mode_cache_equals_uncached():
    plain = LexiconDetector._case_mode.__wrapped__
    for _ in range(2):  # second pass: from the cache
        for t in TEXTS:
            assert LexiconDetector._case_mode(t) == plain(t)


def test_trigger_regexes_are_shared_and_searched_once():
    det = PatternDetector("en")
    det.load()
    by_source: dict[str, object] = {}
    for _, _, trig in det._compiled:
        for r in (trig[2] if trig else ()):
            assert by_source.setdefault(r.pattern, r) is r  # one object per source
    # a text that fires a trigger shared by several date patterns still runs each of them
    spans = det.detect(Document("Seen on the 3rd of June; will return on the fourth."))
    assert any(s.label == "DATE" for s in spans)


def _random_batch(seed: int, full: bool):
    rng = np.random.default_rng(seed)
    B, L, K = 6, 12, 5
    em = rng.normal(size=(B, L, K)) * 3
    lengths = np.full(B, L) if full else rng.integers(1, L + 1, size=B)
    mask = np.arange(L)[None] < lengths[:, None]
    return em, mask, rng.normal(size=K), rng.normal(size=K), rng.normal(size=(K, K))


def _viterbi_plain(em, mask, start, end, trans):
    """The masked recursion with a select at every step (the reference for the shortcut)."""
    B, L, K = em.shape
    score = start[None] + em[:, 0]
    backs = np.zeros((B, max(L - 1, 0), K), dtype=np.int64)
    ident = np.broadcast_to(np.arange(K), (B, K))
    for t in range(1, L):
        cand = score[:, :, None] + trans[None]
        idx = cand.argmax(1)
        best = np.take_along_axis(cand, idx[:, None, :], 1)[:, 0]
        m = mask[:, t, None]
        score = np.where(m, best + em[:, t], score)
        backs[:, t - 1] = np.where(m, idx, ident)
    cur = (score + end[None]).argmax(1)
    path = np.zeros((B, L), dtype=np.int64)
    path[:, L - 1] = cur
    rows = np.arange(B)
    for t in range(L - 2, -1, -1):
        cur = backs[rows, t, cur]
        path[:, t] = cur
    return path * mask


def test_crf_shortcuts_for_full_steps_change_nothing():
    for seed in range(20):
        for full in (True, False):
            args = _random_batch(seed, full)
            assert np.array_equal(viterbi_np(*args), _viterbi_plain(*args))
            np.testing.assert_allclose(marginals_scaled_np(*args), marginals_np(*args), atol=1e-9)


def test_tokenize_equals_match_objects():
    """``tokenize`` (findall + find) gives exactly the tokens of ``iter_tokens`` (one match object each)."""
    import random

    from deid_engine.tokenize import iter_tokens, tokenize

    alphabet = "aZé1 \t\n\r\x1c\x1f\x85\u00a0\u2028'’.-/:ǅ²ⅻ٣"
    rnd = random.Random(7)
    texts = ["", " ", "Smith's O'Brien don't 11th CO2 PaO2 B12 MR:6746781 Results02/20/2087 3LNP",
             "a\x1cb\x85c\u00a0d\u2028e", "aa aa aa", "1st 1st\n1st"]
    texts += ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 60))) for _ in range(3000)]
    for t in texts:
        assert tokenize(t) == list(iter_tokens(t)), repr(t)


def test_literal_scan_finds_exactly_the_substrings_in_the_text():
    import random

    from deid_engine.detect.patterns import _literal_scan

    det = PatternDetector("en")
    lits = sorted({t for p in det.patterns() for t in p.triggers or () if t and not t.startswith(("w:", "re:"))})
    lits += ["ab", "abc", "abcd", "bcd", "c"]  # nested and overlapping strings
    scan, implied = _literal_scan(sorted(set(lits)))
    rng = random.Random(7)
    noise = list("abcdefghijklmnopqrstuvwxyz '’-/(?\n.:0123456789“")
    texts = [t.lower() for t in TEXTS] + ["abcd", "xabcabcdx", "zbcd"]
    for _ in range(500):
        texts.append("".join(rng.choice(lits) if rng.random() < 0.5 else "".join(rng.choices(noise, k=rng.randint(0, 5)))
                             for _ in range(rng.randint(0, 25))))
    for low in texts:
        found = set().union(*(implied[w] for w in set(scan.findall(low))))
        assert found == {t for t in set(lits) if t in low}, low


def test_one_edit_index_equals_a_scan_of_the_whole_list():
    from rapidfuzz import process
    from rapidfuzz.distance import OSA, Levenshtein

    from deid_engine.detect.lexicon import _one_edit_index, _within_one_edit

    words = ["abc", "abd", "bac", "acb", "abcd", "xabc", "perrla", "heart", "hearts", "earth", "a-b c", "café"]
    index = _one_edit_index(words)
    queries = ["", "a", "ab", "ba", "abc", "cab", "bca", "abcde", "zabc", "abcz", "xbc", "perla", "perrlaa", "pperrla",
               "haert", "heartz", "eart", "earths", "a-bc", "a b c", "cafe", "caféé", "zzz", "hearts", "ehart"]
    for scorer in (OSA.distance, Levenshtein.distance):
        for q in queries:
            plain = process.extractOne(q, words, scorer=scorer, processor=None, score_cutoff=1) is not None
            assert _within_one_edit(q, index, scorer) == plain, (q, scorer)


def test_profession_cue_gates_hold_in_every_match():
    import random
    from pathlib import Path

    from deid_engine.detect.profession import CUES_EN

    gated = [c for c in CUES_EN if c.gate is not None]
    assert gated
    probe = Path(__file__).resolve().parent / "fixtures" / "english_probe"
    texts = [p.read_text(encoding="utf-8") for p in sorted(probe.glob("*.txt"))] + TEXTS + [
        "declan is a bus driver with city link", "Mum was a cook at the Ritz.", "she\nwas an aide for Hale\tHouse",
        "PT WAS A WELDER AT GE", "his son is a fitter with  Acme Steel", "starts as a phlebotomist monday",
        "since she started nights as an ER nurse", "STARTING BACK\tAS A CNA", "he started as  an apprentice",
        "Starts\nas a cook", "start work as a porter", "started  part time\tas an aide", "my son starts as a\tchef",
        "STARTED AS AN RN", "she started there as a nanny"]
    parts = ["Orville", "Ada", "Mr", "he", "she", "they", "hes", "shes", "patient", "pt", "wife", "son-in-law", "who",
             "is", "was", "has been", "had been", "used to be", "became", "is now", "is still", "'s", "’s", "ſ", "a",
             "an", "A", "AN", "the", "THE", "(52)", ", 34,", "nurse", ".", "\n", "\t", "  ", " ", "employed",
             "Volunteers", "as", "(", "( 34,", "Chidi", "started", "starts", "nights"]
    rng = random.Random(3)
    for _ in range(3000):  # shuffled cue words, odd spacing and case
        texts.append("".join(rng.choice(parts) + rng.choice(["", " ", " ", "\t", "\n"]) for _ in range(rng.randint(1, 12))))
    seen = {c.name: 0 for c in gated}
    for t in texts:
        for c in gated:
            for m in c.rx.finditer(t):
                seen[c.name] += 1
                assert c.gate.search(m.group().lower() if c.gate_low else m.group()) is not None, (c.name, m.group())
    assert min(seen.values()) >= 10, seen
