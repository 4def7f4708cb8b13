"""What every partition task receives: options, the project key, the preset, the review reference.

The key travels to the workers inside this object, as a task argument (Dask
ships it over its own connections); it is never written to a shared file and
never appears in a repr or a log line (``repr=False``). Reports carry only
its fingerprint.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..redact.export import ExportContext, ExportOptions
from ..redact.keys import fingerprint
from .plugin import worker_pipeline

if TYPE_CHECKING:
    from .review import ReviewRef


@dataclass(frozen=True)
class TaskContext:
    options: ExportOptions
    key: bytes = field(repr=False)
    preset: str = "rules"
    lang: str = "en"
    in_path: str = ""
    out_dir: str = ""
    # test hook: (marker file, partition id) -- the first attempt at that partition
    # kills its worker process (os._exit) after creating the marker
    crash_once: tuple[str, int] | None = None
    # reviewer decisions of this run (deid_engine.cluster.review): a reference, the payload is on the worker
    review: "ReviewRef | None" = None
    # the client's redaction policies (plugin.client_policies): workers apply these, not their own settings
    policies: tuple[tuple[str, str], ...] = ()

    @property
    def key_fingerprint(self) -> str:
        return fingerprint(self.key)

    def export_context(self, overwrite: bool | None = None) -> ExportContext:
        """The export's context with this worker's loaded pipeline."""
        o = self.options if overwrite is None else replace(self.options, overwrite=overwrite)
        return ExportContext(o, self.key, worker_pipeline(self.preset, self.lang, self.policies))

    def maybe_crash(self, pid: int) -> None:
        if self.crash_once is None or int(self.crash_once[1]) != pid:
            return
        marker = Path(self.crash_once[0])
        try:
            fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return
        os.close(fd)
        os._exit(17)
