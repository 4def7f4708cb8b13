"""The run manifest: what a run planned and which partitions are complete.

Layout, under the output folder::

    .deid-run/plan.json          # the plan: config fingerprint, partitions, their input fingerprints
    .deid-run/parts/000012.json  # one record per *completed* partition, written by the worker

A worker writes its partition's outputs atomically (temp file + ``os.replace``)
and only then its part record (atomically too), so a part record means the
outputs it names are complete. A re-run loads the plan, checks each part
record (input fingerprint matches, every output exists with the recorded
sha256) and runs only the rest. Nothing here holds PHI or the key: paths
relative to the input/output, counts, hashes, the key *fingerprint*.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any, Iterable

STATE_DIR = ".deid-run"
PLAN = "plan.json"
PARTS = "parts"
PLAN_FORMAT = "deid-cluster-plan-1"


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temp file in the same folder and ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def atomic_write_json(path: Path, obj: Any) -> None:
    atomic_write_bytes(path, (json.dumps(obj, indent=1, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8"))


_TEMP = re.compile(r"^\..+\.\d+\.part$")


def sweep_stale_temps(out_dir: Path) -> int:
    """Remove every ``.<name>.<pid>.part`` left under ``out_dir`` by killed writers (after a complete run)."""
    n = 0
    for p in Path(out_dir).rglob(".*.part"):
        if p.is_file() and _TEMP.match(p.name):
            try:
                p.unlink()
                n += 1
            except OSError:
                pass
    return n


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            b = f.read(chunk)
            if not b:
                break
            h.update(b)
    return h.hexdigest()


def fingerprint_of(obj: Any) -> str:
    """sha256 of the canonical JSON of ``obj`` (first 32 hex digits)."""
    blob = json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()[:32]


class PlanMismatch(ValueError):
    """The output folder holds an interrupted run with another configuration or input."""


class RunState:
    """The ``.deid-run`` folder of one output folder."""

    def __init__(self, out_dir: Path):
        self.out_dir = Path(out_dir)
        self.dir = self.out_dir / STATE_DIR
        self.parts_dir = self.dir / PARTS

    # --- plan ---------------------------------------------------------------------
    def load_plan(self) -> dict | None:
        try:
            plan = json.loads((self.dir / PLAN).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        if plan.get("format") != PLAN_FORMAT:
            raise PlanMismatch(f"{self.dir / PLAN} is not a plan this version can resume")
        return plan

    def save_plan(self, plan: dict) -> None:
        atomic_write_json(self.dir / PLAN, {"format": PLAN_FORMAT, **plan})

    def reset(self) -> None:
        """Forget a previous run (its outputs stay; part records and plan go)."""
        if self.parts_dir.is_dir():
            for p in self.parts_dir.glob("*.json"):
                p.unlink()
        plan = self.dir / PLAN
        if plan.exists():
            plan.unlink()

    # --- parts ----------------------------------------------------------------------
    def part_path(self, pid: int) -> Path:
        return self.parts_dir / f"{pid:06d}.json"

    def write_part(self, record: dict) -> None:
        atomic_write_json(self.part_path(int(record["partition"])), record)

    def read_part(self, pid: int) -> dict | None:
        try:
            return json.loads(self.part_path(pid).read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            return None

    def complete(self, partition: dict, check_hashes: bool = True) -> dict | None:
        """The part record of ``partition`` if it is complete and its outputs are intact, else None."""
        rec = self.read_part(int(partition["id"]))
        if rec is None or rec.get("fingerprint") != partition["fingerprint"]:
            return None
        for rel, digest in rec.get("outputs", {}).items():
            p = self.out_dir / rel
            if not p.is_file():
                return None
            if check_hashes and sha256_file(p) != digest:
                return None
        return rec

    def records(self, partitions: Iterable[dict]) -> list[dict]:
        """Part records of the given partitions that exist, in partition order."""
        out = []
        for p in partitions:
            rec = self.read_part(int(p["id"]))
            if rec is not None and rec.get("fingerprint") == p["fingerprint"]:
                out.append(rec)
        return out
