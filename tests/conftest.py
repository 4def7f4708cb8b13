"""Shared test setup: headless Qt, a throw-away user directory, corpus paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def data_dir() -> Path:
    env = os.environ.get("DEID_DATA_DIR")
    return Path(env) if env else ROOT.parent / "shared" / "data"


@pytest.fixture(autouse=True)
def _user_dir(tmp_path_factory, monkeypatch):
    d = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("DEID_USER_DIR", str(d))
    return d


@pytest.fixture(autouse=True)
def _network_guard_reset():
    """A test that starts the app (app.main.main) turns the offline guard on; do not let it leak."""
    yield
    from deid_engine import netguard

    netguard.unblock_network()


def _corpus(*parts: str) -> Path:
    p = data_dir().joinpath(*parts)
    if not p.is_dir():
        pytest.skip(f"corpus not available: {p} (set DEID_DATA_DIR or place ../shared/data beside the project)")
    return p


@pytest.fixture
def physionet_train() -> Path:
    return _corpus("physionet-deid", "train")


@pytest.fixture
def meddocan_train() -> Path:
    return _corpus("meddocan", "train")


@pytest.fixture
def meddocan_dev() -> Path:
    return _corpus("meddocan", "dev")


@pytest.fixture
def visit_notes() -> Path:
    return _corpus("clinical-visit-notes")
