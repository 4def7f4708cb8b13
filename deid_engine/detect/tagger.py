"""The neural tagger as a pipeline detector (``tagger``).

Loads the user's active retrained model (``deid_engine.learn.registry``, set by
"Compare & adopt" / ``deid models activate``) when there is one, else the model
folder named by settings ``active_model_en`` / ``active_model_es`` when set and
present, else ``resources/models/<lang>``. Spans carry
source ``tagger:<lang>`` and confidence = mean token marginal of the span.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Sequence

import regex

from ..taxonomy import category_of
from ..types import Document, Span

log = logging.getLogger(__name__)


def model_dir(lang: str) -> Path:
    """The model folder the tagger uses for ``lang``."""
    from ..config import load_settings
    from ..resources import resource_path

    try:  # the learning loop's registry: a retrained model the user adopted
        from ..learn.registry import active_id, get_version

        v = get_version(lang, active_id(lang))
        if v is not None:
            return v.path
    except Exception:  # unreadable registry: fall through to settings / bundled
        log.warning("model registry unreadable; using the configured model")
    try:
        active = getattr(load_settings(), f"active_model_{lang}", "")
    except Exception:  # unreadable settings: fall back to the bundled model
        active = ""
    if active:
        p = Path(active)
        if (p / "model.json").is_file() and (p / "model.pt").is_file():
            return p
        log.warning("active model for %s not found; using the bundled model", lang)
    return resource_path("models", lang)


class TaggerDetector:
    """BiLSTM-CRF PHI tagger (``deid_engine.model``)."""

    def __init__(self, lang: str = "en", path: Path | str | None = None, batch_size: int = 48):
        self.lang = lang
        self.name = "tagger"
        self.path = Path(path) if path else None
        self.batch_size = batch_size
        self.model = None

    def load(self) -> None:
        if self.model is not None:
            return
        from ..model.io import TaggerModel
        from ..model.runtime import choose_runtime

        path = self.path or model_dir(self.lang)
        if not (path / "model.json").is_file():
            raise FileNotFoundError(f"no tagger model for language {self.lang!r} at {path}")
        runtime = choose_runtime()  # numpy on a CPU (torch is never imported), torch where a GPU driver is
        # One intra-op thread: inference is many small batched steps that gain little from
        # a second thread and collapse when threads outnumber free cores (2 threads in each
        # of 2 processes ran 8x slower here). Parallelism comes from processes instead
        # (``deid redact --jobs``, Dask workers). DEID_TORCH_THREADS overrides.
        threads = int(os.environ.get("DEID_TORCH_THREADS", "1") or 1)
        if runtime == "torch":
            import torch

            torch.set_num_threads(threads)
        else:  # numpy's BLAS (OpenBLAS starts one thread per core by default)
            try:
                from threadpoolctl import threadpool_limits

                threadpool_limits(threads, user_api="blas")
            except Exception:  # not installed or no known BLAS: numpy's default threads
                log.info("BLAS thread count left at numpy's default")
        self.model = TaggerModel.load(path, runtime=runtime)
        self.path = path

    def describe(self) -> dict:
        self.load()
        m = self.model.meta
        return {"model": str(self.path.name), "runtime": self.model.runtime, "model_id": str(m.get("model_id") or "bundled"),
                "parent_model": str(m.get("parent_model") or ""), "format": "deid-tagger.v1", "lang": m.get("lang"),
                "date": m.get("date"), "labels": m.get("labels")}

    def detect(self, document: Document) -> list[Span]:
        return self.detect_many([document])[0]

    def detect_many(self, documents: Sequence[Document]) -> list[list[Span]]:
        """Tag several documents at once (windows are batched across them)."""
        self.load()
        src = f"tagger:{self.lang}"
        preds = self.model.predict([d.text for d in documents], batch_size=self.batch_size)
        out = []
        for d, p in zip(documents, preds):
            spans = []
            for a, b, lbl, conf in p:
                ab = _hygiene(d.text, a, b, lbl) if self.lang == "en" else (a, b)
                if ab is not None:
                    spans.append(Span(ab[0], ab[1], lbl, src, conf))
            out.append(spans)
        return out


# "@ 0700", "weymouth @ 0230", "312 @2245", "PITOCIN 20U/1000 @ 125": a clock time or a rate after "at" (an e-mail
# address has no space before its "@")
_AT_NUMBER = regex.compile(r"(?:^|(?<=[ \t]))@[ \t]*\d|[ \t]+@[ \t]*$")
# a contact or field word alone is never PHI ("(BEEPER 53108)": the number is)
_FIELD_WORDS = frozenset({"pager", "beeper", "bleep", "pgr", "cell", "phone", "tel", "fax", "ext", "email", "e-mail",
                          "mrn", "dob", "#"})
_FIELD_LEAD = regex.compile(r"(?i)(?:pager|beeper|bleep|pgr|cell|phone|tel|fax|ext|mrn|dob)\b\.?[ \t]*[:#]?[ \t]*")
_NUMBER_TAIL = regex.compile(r"[ \t,]+\d+$")
_OBSTETRIC = regex.compile(r"(?i)g\d{1,2}[ \t]?p\d{1,4}")  # "G1P1": gravida / para
_CREDENTIALS_ALONE = frozenset({"rn", "rnc", "lpn", "rrt", "bsn", "cnm", "crna", "msw", "lcsw", "cna"})
_CREDENTIAL_TAIL = regex.compile(r"(?i)[ \t,]+(?:" + "|".join(sorted(_CREDENTIALS_ALONE)) + r")\.?$")
_SPELLING_LETTER = regex.compile(r"\p{L}(?:['’]?s)?")
_SPELLING_COUNTED = regex.compile(r"(?i)(?:one|two|three|double|triple)[ \t]+\p{L}(?:['’]?s)?")
_SPELLING_LEAD = regex.compile(r"(?i)\b(?:one|two|three|double|triple)[ \t]+$")


def _hygiene(text: str, a: int, b: int, label: str) -> tuple[int, int] | None:
    """The English tagger's span cut before an "@" that introduces a time or a rate (kept only when a
    name or a place is left: "weymouth @ 0230"), or None for a field word alone or an obstetric G/P
    notation."""
    piece = text[a:b]
    m = _AT_NUMBER.search(piece)
    if m:
        b = a + m.start()
        while b > a and text[b - 1] in " \t,;:":
            b -= 1
        piece = text[a:b]
        if not any(c.isalpha() for c in piece) or category_of(label) not in ("NAME", "LOCATION"):
            return None  # "@ 0700", "312 @2245", "PITOCIN 20U/1000 @ 125": a time, a value, a rate
    if piece.strip(" .:").casefold() in _FIELD_WORDS or _OBSTETRIC.fullmatch(piece):
        return None
    if any(m.start() < b and a < m.end() for m in _OBSTETRIC.finditer(text, max(0, a - 4), min(len(text), b + 6))):
        return None  # "G[4]P2012", "G4P[2012]": gravida and parity, not a date
    if _SPELLING_COUNTED.fullmatch(piece) or (_SPELLING_LETTER.fullmatch(piece)
                                              and _SPELLING_LEAD.search(text, max(0, a - 12), a)):
        return None  # "Brennan with two [n's]": a spelling said aloud
    m = _FIELD_LEAD.match(piece)
    if m and m.end() < len(piece):
        a += m.end()  # "beeper 38812" -> "38812"
    if category_of(label) == "NAME":
        if not any(c.isalpha() for c in text[a:b]):
            return None  # "pt jayden pierce [16]": a number tagged as a piece of the name
        if text[a:b].strip(" \t.,;:-").casefold() in _CREDENTIALS_ALONE:
            return None  # "--R.S. [RNC]": the credential after a sign-off, not a name
        m = _CREDENTIAL_TAIL.search(text, a, b)
        if m and m.end() == b and m.start() > a:
            b = m.start()  # "--J.[K. RNC]" -> "K.": a name ends before its credential
        m = _NUMBER_TAIL.search(text, a, b)
        if m and m.start() > a and any(c.isalpha() for c in text[a:m.start()]):
            b = m.start()  # "pt jayden pierce 16": a name holds no number (the age is the rules' to find)
    return (a, b) if b > a else None
