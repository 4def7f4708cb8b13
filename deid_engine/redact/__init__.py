"""Redaction and export: operators, surrogates, date shifting, export, audit.

``surrogates.generate`` makes fake values; ``operators.redact`` rewrites a
text; ``export.process_document`` is the pure per-record function the
desktop app, the CLI and a cluster run share; ``export.export_folder``
writes a redacted copy of a folder with an audit report.
"""
