"""The engine never imports Qt (checked in a clean interpreter)."""

import subprocess
import sys


def test_engine_does_not_import_qt():
    code = ("import sys, deid_engine, deid_engine.cli, deid_engine.pipeline, deid_engine.evaluate;"
            "import deid_engine.io.folder, deid_engine.io.brat;"
            "bad=[m for m in sys.modules if m.startswith(('PySide6','shiboken6','app'))];"
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)
