"""Silver check on real visit text: ACI-Bench dialogues and notes (clinical-visit-notes).

ACI-Bench is not PHI-annotated, but each encounter's metadata gives the patient's first and
family name, sometimes the doctor's name, and the patient's age. This script runs a preset
over every ACI-Bench dialogue and note (train + valid) and reports:

- silver recall: each occurrence (whole word, any case) of a metadata name or age that a
  predicted span covers;
- the spans that cover no metadata value ("other spans"), by kind and label: most are real
  PHI the metadata does not list (dates, places, other people), some are false positives;
  ``--show other`` prints them with context for reading.

Caveats (say them with the figures): the English tagger's training data includes these
passages with the metadata names as silver labels (``deid train --visit-recipe 2``), so the
tagger's and the ``default`` preset's recall here is optimistic; the rules never saw them.
The texts are role-played or synthetic encounters with no real PHI.

    python bench/visit_silver.py [--detectors default] [--show miss|other|all] [--limit N]

Last line: ``silver_recall=R other_spans=N texts=N``.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deid_engine.pipeline import build_pipeline  # noqa: E402
from deid_engine.resources import default_data_dir  # noqa: E402
from deid_engine.types import Document  # noqa: E402

_SKIP = {"dr", "doctor", "md"}


def _read(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def encounters(folder: Path) -> list[tuple[str, str, str, list[tuple[str, str]]]]:
    """(encounter id, kind, text, [(metadata key, value)]) for every ACI-Bench dialogue and note."""
    out = []
    for part in ("train", "valid"):
        meta_path, text_path = folder / f"{part}_metadata.csv", folder / f"{part}.csv"
        if not meta_path.exists() or not text_path.exists():
            continue
        meta = {m["encounter_id"]: m for m in _read(meta_path)}
        for r in _read(text_path):
            m = meta.get(r["encounter_id"], {})
            vals = []
            for key in ("patient_firstname", "patient_familyname", "doctor_name"):
                for w in (m.get(key) or "").replace(".", " ").split():
                    if len(w) > 1 and w.casefold() not in _SKIP:
                        vals.append((key, w))
            age = (m.get("patient_age") or "").split(".")[0]
            if age.isdigit():
                vals.append(("age", age))
            for kind in ("dialogue", "note"):
                if r.get(kind):
                    out.append((r["encounter_id"], kind, r[kind], vals))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--detectors", default="default")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--data-dir", default=None, help="folder holding clinical-visit-notes/ (default: the data setting)")
    ap.add_argument("--show", choices=("miss", "other", "all"), default=None)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--model", type=Path, default=None,
                    help="tagger model folder (default: the active/bundled model for --lang)")
    args = ap.parse_args(argv)
    root = Path(args.data_dir) if args.data_dir else default_data_dir()
    folder = root / "clinical-visit-notes" / "aci-bench"
    items = encounters(folder)
    if not items:
        print(f"no ACI-Bench files under {folder}", file=sys.stderr)
        return 2
    if args.limit:
        items = items[:args.limit]
    pipe = build_pipeline(args.detectors, lang=args.lang)
    if args.model is not None:
        for det in pipe.detectors:
            if hasattr(det, "path"):
                det.path = args.model
    pipe = pipe.load()
    total, found, other = Counter(), Counter(), Counter()
    for eid, kind, text, vals in items:
        spans = [(s.start, s.end, s.label) for s in pipe.run(Document(text, name=eid))]
        gold = []
        for key, w in vals:
            for m in re.finditer(r"(?<!\w)" + re.escape(w) + r"(?!\w)", text, re.IGNORECASE):
                gold.append((m.start(), m.end()))
                total[(kind, key)] += 1
                if any(a <= m.start() and m.end() <= b for a, b, _ in spans):
                    found[(kind, key)] += 1
                elif args.show in ("miss", "all"):
                    print(f"MISS\t{eid}\t{kind}\t{key}\t{text[max(0, m.start() - 60):m.end() + 40]!r}")
        for a, b, label in spans:
            if any(a <= x and y <= b for x, y in gold):
                continue
            other[(kind, label)] += 1
            if args.show in ("other", "all"):
                print(f"OTHER\t{eid}\t{kind}\t{label}\t{text[a:b]!r}\t{text[max(0, a - 50):b + 30]!r}")
    print(f"visit_silver detectors={args.detectors} model={args.model or 'default'} texts={len(items)}")
    for k in sorted(total):
        print(f"  {k[0]:9s} {k[1]:19s} {found[k]:4d} / {total[k]:4d}  {found[k] / total[k]:.3f}")
    print("  other spans by kind and label: " + ", ".join(f"{k[0]}/{k[1]} {v}" for k, v in other.most_common()))
    n, f = sum(total.values()), sum(found.values())
    print(f"silver_recall={f / max(1, n):.4f} other_spans={sum(other.values())} texts={len(items)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
