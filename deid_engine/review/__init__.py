"""Review: the append-only decision log, applying decisions to predictions, folder state.

Pure Python, no Qt: the GUI, the export and the learning loop share it.
"""

from .decisions import DecisionLog, LogIndex, load_log
from .state import (ACCEPTED, ADDED, PENDING, REJECTED, RELABELLED, ReviewedSpan, apply_decisions,
                    document_status, final_spans)

__all__ = ["DecisionLog", "LogIndex", "load_log", "ReviewedSpan", "apply_decisions", "final_spans",
           "document_status", "PENDING", "ACCEPTED", "REJECTED", "ADDED", "RELABELLED"]
