"""Versioned user models: ``<user data>/models/<lang>/<timestamp>-<shortid>/``.

Each version folder holds ``model.pt`` + ``model.json`` (``TaggerModel.save``)
and ``metrics.json`` (the comparison on held-back reviewed documents, when
one was made, and the retraining summary). ``<user data>/models/<lang>/
active.json`` records ``{"active": id, "history": [...]}``: the active version
("" = the bundled model) and the previously active ones, so a rollback goes
back one step. Nothing is ever deleted by activation or rollback.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..resources import resource_path, user_path

BUNDLED = ""  # the id of "the model shipped with the app"


@dataclass
class ModelVersion:
    id: str
    lang: str
    path: Path
    created: str = ""
    parent: str = ""
    metrics: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.id or "bundled"


def models_root(lang: str) -> Path:
    p = user_path("models", lang)
    p.mkdir(parents=True, exist_ok=True)
    return p


def bundled_model_dir(lang: str) -> Path | None:
    p = resource_path("models", lang)
    return p if (p / "model.json").is_file() else None


def new_version_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + uuid.uuid4().hex[:6]


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=True), encoding="utf-8")
    os.replace(tmp, path)


def save_version(model, lang: str, metrics: dict | None = None, parent: str = "") -> ModelVersion:
    """Save a ``TaggerModel`` as a new (inactive) version."""
    vid = new_version_id()
    folder = models_root(lang) / vid
    model.meta = {**getattr(model, "meta", {}), "model_id": vid, "parent_model": parent, "lang": lang}
    model.save(folder)
    m = dict(metrics or {})
    m.setdefault("parent", parent)
    m.setdefault("created", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    _write_json(folder / "metrics.json", m)
    try:  # the human-readable card, with the fine-tuning summary (no PHI: counts and figures only)
        from ..model.card import write_model_card

        ft = (model.meta.get("finetune") or [{}])[-1]
        write_model_card(folder, extra=(
            f"## Retrained from reviews\n\nBase model: {parent or 'bundled'}; reviewed examples: "
            f"{ft.get('reviewed_examples')}; replay examples: {ft.get('replay_examples', 0)}; "
            f"passes: {ft.get('epochs_run')}; {ft.get('seconds')} s."))
    except Exception:  # a card is a convenience; the model itself is saved
        pass
    return ModelVersion(vid, lang, folder, m["created"], parent, m)


def update_metrics(lang: str, vid: str, **changes: Any) -> None:
    p = models_root(lang) / vid / "metrics.json"
    try:
        m = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        m = {}
    m.update(changes)
    _write_json(p, m)


def get_version(lang: str, vid: str) -> ModelVersion | None:
    if not vid:
        return None
    folder = models_root(lang) / vid
    if not (folder / "model.json").is_file() or not (folder / "model.pt").is_file():
        return None
    try:
        m = json.loads((folder / "metrics.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        m = {}
    return ModelVersion(vid, lang, folder, str(m.get("created", "")), str(m.get("parent", "")), m)


def list_versions(lang: str) -> list[ModelVersion]:
    """Saved versions, oldest first (ids sort by time)."""
    out = []
    for d in sorted(models_root(lang).iterdir()):
        if d.is_dir():
            v = get_version(lang, d.name)
            if v is not None:
                out.append(v)
    return out


def _state(lang: str) -> dict:
    try:
        st = json.loads((models_root(lang) / "active.json").read_text(encoding="utf-8"))
        return {"active": str(st.get("active", "")), "history": [str(h) for h in st.get("history", [])]}
    except (OSError, ValueError, AttributeError):
        return {"active": BUNDLED, "history": []}


def active_id(lang: str) -> str:
    """The active version id ("" = bundled); a missing version falls back to bundled."""
    vid = _state(lang)["active"]
    return vid if get_version(lang, vid) is not None else BUNDLED


def active_model_dir(lang: str) -> Path | None:
    """The folder of the model the tagger should load: the active user version, else the
    bundled model, else None."""
    v = get_version(lang, active_id(lang))
    return v.path if v is not None else bundled_model_dir(lang)


def activate(lang: str, vid: str) -> None:
    """Make ``vid`` ("" = bundled) the active model, remembering the previous one."""
    if vid and get_version(lang, vid) is None:
        raise KeyError(f"no saved model {vid!r} for {lang}")
    st = _state(lang)
    if st["active"] == vid:
        return
    hist = st["history"] + [st["active"]]
    _write_json(models_root(lang) / "active.json", {"active": vid, "history": hist[-50:]})


def rollback(lang: str) -> str:
    """Go back to the previously active model; returns its id ("" = bundled)."""
    st = _state(lang)
    hist = list(st["history"])
    while hist:
        prev = hist.pop()
        if prev != st["active"] and (prev == BUNDLED or get_version(lang, prev) is not None):
            _write_json(models_root(lang) / "active.json", {"active": prev, "history": hist})
            return prev
    if st["active"] != BUNDLED:
        _write_json(models_root(lang) / "active.json", {"active": BUNDLED, "history": []})
    return BUNDLED


def describe_active(lang: str) -> dict[str, str]:
    """PHI-free description of the active model for audit reports and the status bar."""
    vid = active_id(lang)
    d = active_model_dir(lang)
    info = {"model_id": vid or "bundled", "lang": lang}
    if d is not None:
        try:
            card = json.loads((d / "model.json").read_text(encoding="utf-8"))
            info["saved"] = str(card.get("saved", card.get("date", "")))
            if card.get("parent_model") is not None and vid:
                info["parent"] = str(card.get("parent_model") or "bundled")
        except (OSError, ValueError):
            pass
    else:
        info["model_id"] = "none"
    return info


def delete_version(lang: str, vid: str) -> bool:
    """Delete a saved version that is not active (a discarded retraining)."""
    import shutil

    if not vid or vid == active_id(lang):
        return False
    v = get_version(lang, vid)
    if v is None:
        return False
    shutil.rmtree(v.path, ignore_errors=True)
    return True
