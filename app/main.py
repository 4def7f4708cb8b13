"""Start DeID Studio: ``deid-studio [FOLDER]``."""

from __future__ import annotations

import logging
import os
import sys
import traceback

log = logging.getLogger("deid_studio")


def _offline_environment() -> None:
    # The app never opens a network connection: hub/telemetry variables set and Python sockets
    # blocked (deid_engine.netguard; DEID_NETGUARD=off disables the guard for debugging).
    from deid_engine import netguard

    netguard.install()


def _install_excepthook(window_getter) -> None:
    """An uncaught exception in a slot is logged (type and place only) and shown, never silent."""

    def hook(etype, value, tb):
        where = traceback.extract_tb(tb)[-1] if tb else None
        place = f"{os.path.basename(where.filename)}:{where.lineno}" if where else "?"
        log.error("unexpected %s at %s", etype.__name__, place)
        try:
            from PySide6.QtWidgets import QMessageBox

            win = window_getter()
            if win is not None:
                QMessageBox.critical(win, "Unexpected error",
                                     f"An unexpected error occurred ({etype.__name__} at {place}).\n"
                                     "Your decisions so far are saved. Details are in the log file.")
        except Exception:  # the hook itself must never raise
            pass

    sys.excepthook = hook


def main(argv: list[str] | None = None) -> int:
    _offline_environment()
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--smoke" in argv:  # headless check of an installed build (build_installer.py --smoke)
        from .smoke import main as smoke_main

        return smoke_main(argv)
    from deid_engine.resources import user_log_dir

    logging.basicConfig(filename=str(user_log_dir() / "deid-studio.log"), level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow

    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    app.setApplicationName("DeID Studio")
    app.setOrganizationName("DeIDStudio")
    win = MainWindow()
    _install_excepthook(lambda: win)
    win.show()
    folders = [a for a in argv if not a.startswith("-")]
    if folders:
        win.open_folder(folders[0])
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
