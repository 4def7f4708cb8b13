"""Install a trained model as a bundled model, with honest dev figures on its card.

A shipped model may have been trained on all the data (MEDDOCAN train + dev), so it
has no dev figures of its own. This copies ``--model`` into ``--out`` (default
``resources/models/LANG``), takes ``dev_metrics`` from ``--dev-run`` (a model
trained with the same command on train only, scored on dev) and records where they
come from in the card's notes; then rewrites MODEL_CARD.md.

    python tools/ship_model.py --model /work/runs/es_ship12b --dev-run /work/runs/es_dev12b \\
        --dev-command "deid train ..." --note "extra sentence"

``--member DIR`` (repeatable) adds voting members (``deid_engine.model.io``: log-linear
pooling of the members' CRF scores), copied under ``OUT/members/``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deid_engine.model.card import write_model_card  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, required=True, help="trained model folder to ship")
    ap.add_argument("--dev-run", type=Path, help="train-only model folder whose dev_metrics go on the card")
    ap.add_argument("--dev-command", default="", help="the command that trained --dev-run")
    ap.add_argument("--out", type=Path, help="destination (default resources/models/<lang>)")
    ap.add_argument("--note", action="append", default=[], help="sentence appended to the card's notes")
    ap.add_argument("--recall-threshold", type=float, default=None,
                    help="set the card's recall_threshold (tokens with PHI marginal >= it become spans)")
    ap.add_argument("--member", type=Path, action="append", default=[],
                    help="another trained model (same tag list) that votes with --model")
    args = ap.parse_args(argv)
    meta = json.loads((args.model / "model.json").read_text(encoding="utf-8"))
    out = args.out or ROOT / "resources" / "models" / meta["lang"]
    notes = []
    if args.dev_run:
        dev = json.loads((args.dev_run / "model.json").read_text(encoding="utf-8"))
        if not dev.get("dev_metrics"):
            raise SystemExit(f"{args.dev_run} has no dev_metrics")
        meta["dev_metrics"] = dev["dev_metrics"]
        cmd = args.dev_command or dev.get("training", {}).get("command", "")
        notes.append(f"The dev metrics on this card come from a model trained with the same settings on the "
                     f"training data only (`{cmd}`) and scored on the dev data; this shipped model "
                     f"(`{meta.get('training', {}).get('command', '')}`) may have seen dev.")
    if args.recall_threshold is not None:
        meta["recall_threshold"] = args.recall_threshold
    notes += args.note
    if notes:
        meta["notes"] = " ".join(notes)
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(args.model / "model.pt", out / "model.pt")
    if (out / "members").exists():
        shutil.rmtree(out / "members")
    meta.pop("ensemble", None)
    if args.member:
        rels = []
        for i, m in enumerate(args.member, 1):
            mm = json.loads((m / "model.json").read_text(encoding="utf-8"))
            if mm.get("tags") != meta.get("tags"):
                raise SystemExit(f"{m}: tag list differs from {args.model}")
            mm.pop("ensemble", None)
            dst = out / "members" / f"m{i}"
            dst.mkdir(parents=True)
            shutil.copyfile(m / "model.pt", dst / "model.pt")
            (dst / "model.json").write_text(json.dumps(mm, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            rels.append(f"members/m{i}")
        meta["ensemble"] = {"pooling": "log-linear", "members": rels,
                            "member_seeds": [json.loads((m / "model.json").read_text(encoding="utf-8"))
                                             .get("training", {}).get("seed") for m in args.member]}
    (out / "model.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    card = write_model_card(out)
    print(f"shipped {args.model} -> {out} ({(out / 'model.pt').stat().st_size / 1e6:.1f} MB); card {card}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
