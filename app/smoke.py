"""Headless smoke run of the real app: ``deid-studio --smoke IN_DIR OUT_DIR [--report FILE]``.

Used on the frozen bundle by ``build_installer.py --smoke`` (and runnable from a
checkout). It starts the app as a user would -- offline guard, QApplication,
the real ``MainWindow`` and its controller, the default pipeline -- prints
``READY <epoch seconds>`` once the window is shown and the pipeline is loaded,
then opens IN_DIR (tagging it in the controller's worker thread) and exports it
into OUT_DIR through the controller (``deid_engine.redact.export``). No dialog
is opened; nothing is faked: if export is not in the build, the run fails.

The JSON report (``--report``, default ``OUT_DIR/../smoke_report.json``) holds
timings, counts, the offline guard's blocked attempts and any error; it names
no document text. Exit code 0 only if everything worked and nothing tried the
network. Set ``QT_QPA_PLATFORM=offscreen`` to run without a display.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from pathlib import Path

T_ENTRY = time.time()


class SmokeError(RuntimeError):
    """The smoke run failed; the message says which step."""


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="deid-studio --smoke", description=__doc__.splitlines()[0])
    p.add_argument("--smoke", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("input", help="folder of notes to open and tag")
    p.add_argument("output", help="folder to export the redacted copy into (must not exist or be empty)")
    p.add_argument("--report", help="write the JSON report here")
    p.add_argument("--lang", default="", help="language (default: the settings' language)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds allowed for tagging and for export")
    return p.parse_args(argv)


def _emit(line: str) -> None:
    """Print a status line if this process has a stdout (a windowed Windows exe has none)."""
    if sys.stdout is not None:
        try:
            print(line, flush=True)
        except OSError:
            pass


def _wait(app, done, timeout: float, what: str) -> float:
    """Process Qt events until ``done()`` is true; seconds taken. SmokeError on timeout."""
    t0 = time.perf_counter()
    while not done():
        app.processEvents()
        if time.perf_counter() - t0 > timeout:
            raise SmokeError(f"{what} did not finish within {timeout:.0f}s")
        time.sleep(0.01)
    app.processEvents()
    return time.perf_counter() - t0


def run(args: argparse.Namespace, report: dict) -> None:
    """The smoke steps; fills ``report`` as it goes (so a failure still reports how far it got)."""
    from deid_engine import netguard

    report["netguard"] = netguard.install(strict=True)
    report["frozen"] = bool(getattr(sys, "frozen", False))
    from deid_engine.resources import resources_root, user_data_dir

    report["resources_root"] = str(resources_root())
    report["resources_in_bundle"] = bool(getattr(sys, "_MEIPASS", None)) and \
        Path(resources_root()).resolve().is_relative_to(Path(sys._MEIPASS).resolve())  # type: ignore[attr-defined]
    report["user_data_dir"] = str(user_data_dir())

    from PySide6.QtWidgets import QApplication

    from .actions import build_default_pipeline, export_available, pipeline_label
    from .main_window import MainWindow

    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setApplicationName("DeID Studio")
    app.setOrganizationName("DeIDStudio")
    win = MainWindow()
    errors: list[tuple[str, str]] = []
    exports: list[dict] = []
    win.controller.error.connect(lambda title, text: errors.append((title, text)))
    win.controller.exportDone.connect(lambda info: exports.append(info))
    win.show()
    app.processEvents()
    report["window_at"] = time.time()

    if args.lang and args.lang != win.controller.settings.lang:
        from deid_engine.config import updated

        win.controller.settings = updated(win.controller.settings, lang=args.lang)
    lang = win.controller.settings.lang
    pipeline, note = build_default_pipeline(lang)
    if note or not pipeline.detector_names:
        raise SmokeError(f"the default pipeline is not available in this build: {note or 'no detectors'}")
    pipeline.load()
    win.controller.pipeline = pipeline  # the controller reuses it for tagging and export
    report["pipeline"] = pipeline_label(pipeline)
    report["ready_at"] = time.time()
    _emit(f"READY {report['ready_at']:.3f}")

    # Open and tag the folder exactly as the window does.
    if not win.open_folder(args.input):
        raise SmokeError(f"could not open the folder: {errors[-1][1] if errors else 'unknown reason'}")
    ctl = win.controller
    report["tag_s"] = round(_wait(app, lambda: not ctl.job_running(), args.timeout, "tagging"), 3)
    session = ctl.session
    docs = [e for e in session.entries if e.document is not None]
    report["documents"] = len(docs)
    report["problems"] = sum(1 for e in session.entries if e.problem)
    report["untagged"] = sum(1 for e in docs if e.predicted is None)
    report["spans"] = sum(len(e.predicted or ()) for e in docs)
    if errors:
        raise SmokeError(f"tagging reported an error: {errors[0][0]}: {errors[0][1]}")
    if not docs or report["untagged"]:
        raise SmokeError(f"tagging incomplete: {len(docs)} documents, {report['untagged']} untagged")

    # Export through the engine, as the Export action does.
    if not export_available():
        raise SmokeError("export is not in this build (deid_engine.redact.export is missing)")
    if not ctl.export(Path(args.output)):
        raise SmokeError(f"export did not start: {errors[-1][1] if errors else 'see the log'}")
    report["export_s"] = round(_wait(app, lambda: bool(exports) or bool(errors) or not ctl.job_running(),
                                     args.timeout, "export"), 3)
    _wait(app, lambda: bool(exports) or bool(errors), 30, "export result")
    if errors:
        raise SmokeError(f"export reported an error: {errors[0][0]}: {errors[0][1]}")
    summary = exports[-1].get("summary")
    if summary is None:
        raise SmokeError("export finished without a summary")
    report["export"] = {k: getattr(summary, k) for k in
                        ("files_ok", "files_failed", "files_skipped", "documents", "residuals")}
    report["export"]["replacements"] = sum(getattr(summary, "counts", {}).values())
    report["export"]["report_path"] = str(summary.report_path)
    report["export_problems"] = [str(p.reason) for p in exports[-1].get("problems") or []]

    ctl.shutdown()
    win.close()
    app.processEvents()
    report["runtime"] = _runtime_check()


def _runtime_check() -> dict:
    """The tagger's libraries work in this build even if the default pipeline did not need them:
    numpy, and torch training and inference of a small BiLSTM with save/load."""
    try:
        import io

        import numpy
        import torch

        net = torch.nn.LSTM(8, 8, bidirectional=True, batch_first=True)
        out = net(torch.from_numpy(numpy.ones((2, 5, 8), dtype=numpy.float32)))[0].sum()
        out.backward()
        torch.optim.Adam(net.parameters()).step()
        buf = io.BytesIO()
        torch.save(net.state_dict(), buf)
        buf.seek(0)
        net.load_state_dict(torch.load(buf, weights_only=True))
        with torch.inference_mode():
            net(torch.zeros(1, 3, 8))
        return {"torch": torch.__version__, "numpy": numpy.__version__}
    except Exception as e:
        raise SmokeError(f"torch/numpy do not work in this build: {type(e).__name__}: {e}") from e


def main(argv: list[str] | None = None) -> int:
    args = _parse(list(sys.argv[1:] if argv is None else argv))
    report_path = Path(args.report) if args.report else Path(args.output).resolve().parent / "smoke_report.json"
    report: dict = {"entry_at": T_ENTRY, "ok": False, "error": ""}
    try:
        run(args, report)
        report["ok"] = True
    except SmokeError as e:
        report["error"] = str(e)
    except Exception as e:  # report the place, never data
        tb = traceback.extract_tb(e.__traceback__)
        where = f"{os.path.basename(tb[-1].filename)}:{tb[-1].lineno}" if tb else "?"
        report["error"] = f"unexpected {type(e).__name__} at {where}: {e}"
        traceback.print_exc()
    from deid_engine import netguard

    report["network_attempts"] = [str(a) for a in netguard.attempts()]
    if report["network_attempts"]:
        report["ok"] = False
        report["error"] = report["error"] or "something tried to use the network"
    report["finished_at"] = time.time()
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report_path.write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
    _emit(f"SMOKE {'OK' if report['ok'] else 'FAILED: ' + report['error']}")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
