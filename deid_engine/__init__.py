"""DeID Studio's engine: everything that is not GUI. It never imports Qt."""

from .types import AnnotatedDocument, Cancelled, Decision, Document, FileProblem, Progress, Span

__version__ = "0.1.0"

__all__ = ["AnnotatedDocument", "Cancelled", "Decision", "Document", "FileProblem", "Progress", "Span",
           "__version__"]
