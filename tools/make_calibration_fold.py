"""Split the PhysioNet train split into a fitting fold and a calibration fold (symlinks).

Ensemble settings (recall threshold, filters) are chosen on notes that neither the
shipped model's dev split nor the fold model has seen as training data:

- the dev split (patients with number % 5 == 0) is left out entirely;
- patients with number % 5 == 1 (or ``--fold K``: == K) form the calibration fold (``OUT/cal``);
- the other train-split patients form the fitting fold (``OUT/fold``).

    python tools/make_calibration_fold.py /tmp/pn
    deid train --data /tmp/pn/fold --dev /tmp/pn/cal --lang en --out /work/runs/en_fold --epochs 12 --seed 13
    python bench/rules_eval.py --folder /tmp/pn/cal --detectors default --model /work/runs/en_fold --ages over89

Only links are written (outside the project): no corpus file is copied.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deid_engine.resources import default_data_dir  # noqa: E402
from deid_engine.splits import physionet_split  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="folder to create (gets fold/ and cal/)")
    ap.add_argument("--data", type=Path, default=None, help="physionet-deid/train folder")
    ap.add_argument("--fold", type=int, default=1, choices=(1, 2, 3, 4),
                    help="patients with number %% 5 == FOLD form the calibration fold (default 1; a fold whose "
                         "errors were read is no longer a clean estimate: use another)")
    args = ap.parse_args(argv)
    src = args.data or default_data_dir() / "physionet-deid" / "train"
    if args.out.resolve().is_relative_to(ROOT):
        print("refusing to write corpus links inside the project", file=sys.stderr)
        return 2
    counts = {"fold": 0, "cal": 0}
    for txt in sorted(Path(src).glob("*.txt")):
        m = re.match(r"p(\d+)-n\d+", txt.stem)
        if not m or physionet_split(txt.stem) != "train":
            continue
        part = "cal" if int(m.group(1)) % 5 == args.fold else "fold"
        dst = args.out / part
        dst.mkdir(parents=True, exist_ok=True)
        for f in (txt, txt.with_suffix(".ann")):
            link = dst / f.name
            if f.exists() and not link.exists():
                link.symlink_to(f.resolve())
        counts[part] += 1
    print(f"fold={counts['fold']} cal={counts['cal']} notes -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
