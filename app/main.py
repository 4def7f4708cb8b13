"""Start DeID Studio: ``deid-studio [FOLDER]``."""

from __future__ import annotations

import logging
import os
import sys


def _offline_environment() -> None:
    # The app never opens a network connection; make sure no library tries.
    for k, v in {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
                 "DO_NOT_TRACK": "1", "DASK_DISTRIBUTED__DIAGNOSTICS_LINK": ""}.items():
        os.environ.setdefault(k, v)


def main(argv: list[str] | None = None) -> int:
    _offline_environment()
    argv = list(sys.argv[1:] if argv is None else argv)
    from deid_engine.resources import user_log_dir

    logging.basicConfig(filename=str(user_log_dir() / "deid-studio.log"), level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    win = QMainWindow()
    win.setWindowTitle("DeID Studio")
    win.setCentralWidget(QLabel("DeID Studio — open a folder of notes to begin."))
    win.resize(1100, 720)
    win.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
