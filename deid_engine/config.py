"""Settings: bundled defaults deep-merged with the user's ``settings.toml``."""

from __future__ import annotations

import os
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from .resources import default_data_dir, resource_path, user_path


@dataclass(frozen=True)
class Settings:
    lang: str = "en"
    data_dir: str = ""  # research corpora (training, benchmarks); "" = default
    suggestion_threshold: float = 0.5  # spans below it are shown as suggestions
    operator: str = "surrogate"  # tag | liu | placeholder | mask | surrogate
    date_shift: str = "per_patient"  # per_patient | per_export | none
    unreviewed: str = "redact"  # redact (model predictions) | skip
    ages: str = "all"  # all | over89 (HIPAA Safe Harbor: ages under 90 are not identifiers)
    places: str = "all"  # all | safe_harbor (HIPAA Safe Harbor: states and countries are not identifiers)
    professions: str = "all"  # all | safe_harbor (HIPAA Safe Harbor: occupations are not identifiers)
    max_file_mb: int = 256
    active_model_en: str = ""  # "" = bundled default
    active_model_es: str = ""

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir) if self.data_dir else default_data_dir()


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        return {}


# ``DEID_SETTING_<NAME>`` (e.g. ``DEID_SETTING_AGES=over89``) overrides one setting for this process
# and the processes it starts (tagging workers, local Dask workers): how ``deid tag/redact --ages
# --places --professions`` apply a policy to one run without touching the user's settings file.
ENV_PREFIX = "DEID_SETTING_"


def _env_overrides() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(Settings):
        v = os.environ.get(ENV_PREFIX + f.name.upper())
        if v is None:
            continue
        default = f.default
        if isinstance(default, bool):
            out[f.name] = v.strip().lower() in ("1", "true", "yes", "on")
        elif isinstance(default, int):
            out[f.name] = int(v)
        elif isinstance(default, float):
            out[f.name] = float(v)
        else:
            out[f.name] = v
    return out


def load_settings(user_file: Path | None = None) -> Settings:
    known = {f.name for f in fields(Settings)}
    merged: dict[str, Any] = {}
    for src in (resource_path("default_config.toml"), user_file or user_path("settings.toml")):
        data = _read_toml(src)
        merged.update({k: v for k, v in data.get("settings", data).items() if k in known})
    merged.update(_env_overrides())
    return Settings(**merged)


def override_for_run(**settings: Any) -> None:
    """Override settings for this process and its children (``None`` values are ignored)."""
    for k, v in settings.items():
        if v is not None:
            if k not in {f.name for f in fields(Settings)}:
                raise KeyError(f"unknown setting {k!r}")
            os.environ[ENV_PREFIX + k.upper()] = str(v)


def save_settings(settings: Settings, user_file: Path | None = None) -> Path:
    path = user_file or user_path("settings.toml")
    lines = ["[settings]"]
    for k, v in asdict(settings).items():
        if isinstance(v, str):
            v = '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        elif isinstance(v, bool):
            v = "true" if v else "false"
        lines.append(f"{k} = {v}")
    tmp = path.with_suffix(".part")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def updated(settings: Settings, **changes: Any) -> Settings:
    return replace(settings, **changes)
