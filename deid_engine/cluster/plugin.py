"""One loaded pipeline per worker process.

``PipelinePlugin`` is a ``distributed.WorkerPlugin``: its ``setup()`` runs
once when a worker starts (and again on every worker that joins or restarts
later), pins math libraries to one thread and builds + loads the pipeline.
Tasks call ``worker_pipeline(preset, lang, policies)`` to fetch it from the worker
they run on; outside a Dask worker (the plain single-process path) the same call
returns a pipeline cached in this process. Either way the pipeline and its
model are loaded once per process, not once per task.

``policies`` are the client's redaction policies (``client_policies()``: the age, place
and profession policy filters' settings). They travel with the plugin and the tasks, so a
worker on another machine applies the client's policies, not its own settings.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

log = logging.getLogger(__name__)

THREAD_ENV = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")

Policies = tuple[tuple[str, str], ...]  # ((filter name, policy), ...), sorted
_LOCAL: dict[tuple[str, str, Policies], Any] = {}
LOADS = [0]  # pipelines built in this process (reported in part records: 1 per worker)

try:  # the base class when distributed is installed; a plain object otherwise
    from distributed.diagnostics.plugin import WorkerPlugin as _Base
except Exception:  # pragma: no cover - dask not installed: plugin unused
    _Base = object


def plugin_name(preset: str, lang: str, policies: Policies = ()) -> str:
    tail = "".join(f"-{name.split('_')[0]}={value}" for name, value in policies)
    return f"deid-pipeline-{preset}-{lang}{tail}"


def client_policies() -> Policies:
    """This process's redaction policies from its settings (the age, place and profession policy filters)."""
    from ..config import load_settings

    s = load_settings()
    return (("age_policy", s.ages), ("place_policy", s.places), ("profession_policy", s.professions))


def apply_policies(pipeline: Any, policies: Policies) -> Any:
    """Set the named filters' policies (before ``load()``, which would read local settings)."""
    wanted = dict(policies)
    for f in getattr(pipeline, "filters", []):
        if f.name in wanted:
            f.policy = wanted[f.name]
    return pipeline


def one_thread() -> None:
    """One compute thread for this process (several workers share the cores)."""
    for k in THREAD_ENV:
        os.environ[k] = "1"
    if "torch" in sys.modules:
        import torch

        torch.set_num_threads(1)


def build_loaded(preset: str, lang: str, policies: Policies = ()) -> Any:
    from ..pipeline import build_pipeline

    one_thread()
    LOADS[0] += 1
    p = apply_policies(build_pipeline(preset, lang), policies).load()
    one_thread()  # the pipeline may have imported torch while loading its model
    from ..pipeline import tune_gc_for_batch

    tune_gc_for_batch()  # a worker process keeps this one pipeline for its life
    return p


class PipelinePlugin(_Base):  # type: ignore[misc, valid-type]
    """Builds and loads the ``preset`` pipeline once in each worker process."""

    def __init__(self, preset: str, lang: str = "en", policies: Policies = ()):
        self.preset = preset
        self.lang = lang
        self.policies = tuple(policies)
        self.name = plugin_name(preset, lang, self.policies)
        self.pipeline: Any = None
        self.description: dict | None = None

    def setup(self, worker: Any = None) -> None:
        self.pipeline = build_loaded(self.preset, self.lang, self.policies)
        try:
            self.description = self.pipeline.describe()
        except Exception:
            self.description = {"pipeline": self.preset, "lang": self.lang}
        log.info("deid pipeline %s/%s loaded on a worker", self.preset, self.lang)

    def teardown(self, worker: Any = None) -> None:
        self.pipeline = None


def _current_worker() -> Any:
    try:
        from distributed import get_worker

        return get_worker()
    except Exception:  # not inside a Dask task (or no dask)
        return None


def worker_pipeline(preset: str, lang: str = "en", policies: Policies = ()) -> Any:
    """The loaded pipeline of this worker (plugin), or of this process outside Dask."""
    w = _current_worker()
    if w is not None:
        plugin = getattr(w, "plugins", {}).get(plugin_name(preset, lang, policies))
        if plugin is not None:
            if plugin.pipeline is None:
                plugin.setup(w)
            return plugin.pipeline
    key = (preset, lang, tuple(policies))
    if key not in _LOCAL:  # the plain single process keeps its threads
        from ..pipeline import build_pipeline

        LOADS[0] += 1
        _LOCAL[key] = apply_policies(build_pipeline(preset, lang), policies).load()
    return _LOCAL[key]


def versions() -> dict[str, str | None]:
    """App and lexicon versions of this process: surrogates depend on them, so all workers must agree."""
    from ..redact.audit import _lexicon_version, app_version

    return {"app": app_version(), "lexicon": _lexicon_version()}


def describe_pipeline(pipeline: Any, preset: str, lang: str) -> dict:
    try:
        return pipeline.describe()
    except Exception:
        return {"pipeline": preset, "lang": lang}
