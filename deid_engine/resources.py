"""Where things live: bundled resources (read-only) and the user's data.

``resource_path`` is the one function that finds ``resources/``: in a source
checkout or editable install it is beside the package; in a PyInstaller build
it is under ``sys._MEIPASS``; ``DEID_RESOURCES`` overrides both (tests).

User data (decisions, retrained models, settings, logs, protected terms, the
project key) lives in platformdirs' per-user directories, never in the
bundle; ``DEID_USER_DIR`` overrides them (tests, portable installs).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "DeIDStudio"
APP_AUTHOR = "DeIDStudio"


def resources_root() -> Path:
    env = os.environ.get("DEID_RESOURCES")
    if env:
        return Path(env)
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def resource_path(*parts: str) -> Path:
    return resources_root().joinpath(*parts)


def user_data_dir() -> Path:
    env = os.environ.get("DEID_USER_DIR")
    if env:
        p = Path(env)
    else:
        import platformdirs

        p = Path(platformdirs.user_data_dir(APP_NAME, APP_AUTHOR))
    p.mkdir(parents=True, exist_ok=True)
    return p


def user_path(*parts: str) -> Path:
    return user_data_dir().joinpath(*parts)


def user_log_dir() -> Path:
    env = os.environ.get("DEID_USER_DIR")
    if env:
        p = Path(env) / "logs"
    else:
        import platformdirs

        p = Path(platformdirs.user_log_dir(APP_NAME, APP_AUTHOR))
    p.mkdir(parents=True, exist_ok=True)
    return p


def project_root() -> Path:
    """The source checkout's root (meaningful only when not frozen)."""
    return Path(__file__).resolve().parent.parent


def default_data_dir() -> Path:
    """Where the research corpora live: ``DEID_DATA_DIR`` or ``../shared/data``."""
    env = os.environ.get("DEID_DATA_DIR")
    if env:
        return Path(env)
    return project_root().parent / "shared" / "data"
