"""The project's fixed dev split of the training corpora.

PhysioNet deid notes are named ``pPPP-nNNN`` (patient, note). Splitting by
patient keeps all notes of one patient on one side, so dev measures notes of
unseen patients (names do not leak across). Patients whose number is a
multiple of 5 are dev (about 20 %). MEDDOCAN ships its own train/dev folders.
"""

from __future__ import annotations

import re


def physionet_split(name: str) -> str:
    m = re.match(r"p(\d+)-n\d+", name)
    if not m:
        return "train"
    return "dev" if int(m.group(1)) % 5 == 0 else "train"
