"""Archive-scale de-identification on a Dask cluster (``deid redact --cluster``).

The per-record work is the export's: folder partitions call
``redact.export.export_file`` (which calls ``process_document``) and table
partitions call ``process_document`` per row. This package only plans
partitions, ships them to Dask workers (``run``), keeps one loaded pipeline
per worker (``plugin``), ships the reviewer's decisions once per worker and
applies them with ``review.apply`` (``review``), makes runs resumable
(``manifest``) and reads/writes CSV and Parquet tables in partitions (``table``). Dask is imported lazily:
``deid redact`` without ``--cluster`` never needs it.
"""

from .manifest import RunState
from .plugin import PipelinePlugin, worker_pipeline

__all__ = ["RunState", "PipelinePlugin", "worker_pipeline"]
