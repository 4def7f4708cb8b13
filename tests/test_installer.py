"""build_installer.py: what goes into the bundle, the generated spec, and (opt-in) the full build + smoke."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build_installer as bi  # noqa: E402

sys.path.remove(str(ROOT))


def test_every_resource_file_is_collected_under_resources():
    files = bi.resource_files()
    srcs = {s.resolve() for s, _ in files}
    on_disk = {p.resolve() for p in (ROOT / "resources").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and not p.name.startswith(".")
               and not p.name.endswith((".pyc", ".part", ".tmp", "~"))}
    assert srcs == on_disk
    assert (ROOT / "resources" / "default_config.toml").resolve() in srcs
    for src, dest in files:
        rel = src.resolve().relative_to((ROOT / "resources").resolve())
        assert dest == ("resources" if rel.parent == Path(".") else f"resources/{rel.parent.as_posix()}")


def test_bundled_models_and_lexicons_are_included():
    dests = {f"{d}/{s.name}" for s, d in bi.resource_files()}
    for lang in ("en", "es"):
        model = ROOT / "resources" / "models" / lang
        for f in ("model.pt", "model.json"):
            if (model / f).is_file():
                assert f"resources/models/{lang}/{f}" in dests
    lex = ROOT / "resources" / "lexicons"
    for p in lex.rglob("*"):
        if p.is_file() and not p.name.startswith("."):
            assert f"resources/{p.relative_to(ROOT / 'resources').as_posix()}" in dests


def test_no_corpus_files_are_collected():
    data = bi._data_dir().resolve()
    for src, _ in bi.resource_files():
        real = src.resolve()
        assert not real.is_relative_to(data)
        assert real.is_relative_to((ROOT / "resources").resolve())
        assert real.suffix.lower() not in bi.CORPUS_SUFFIXES


def test_a_symlink_into_the_corpora_is_refused(tmp_path):
    res = tmp_path / "resources"
    (res / "models").mkdir(parents=True)
    (res / "default_config.toml").write_text("[settings]\n")
    outside = tmp_path / "shared" / "note.txt"
    outside.parent.mkdir()
    outside.write_text("Patient John Smith")
    (res / "models" / "leak.txt").symlink_to(outside)
    with pytest.raises(bi.BuildError, match="outside resources"):
        bi.resource_files(res)


@pytest.mark.parametrize("name", ["train.ann", "gold.jsonl", "notes.csv"])
def test_corpus_formats_are_refused(tmp_path, name):
    res = tmp_path / "resources"
    res.mkdir()
    (res / name).write_text("x")
    with pytest.raises(bi.BuildError, match="corpus"):
        bi.resource_files(res)


def test_user_data_never_in_the_bundle(tmp_path, monkeypatch):
    user = tmp_path / "userdata"
    (user / "models" / "en").mkdir(parents=True)
    (user / "decisions.jsonl").write_text("{}")
    monkeypatch.setenv("DEID_USER_DIR", str(user))
    spec = bi.spec_text()
    assert str(user) not in spec
    assert all(not s.resolve().is_relative_to(user.resolve()) for s, _ in bi.resource_files())


def test_hidden_imports_cover_every_engine_and_app_module():
    hidden = set(bi.hidden_imports())
    for pkg in ("deid_engine", "app"):
        for p in (ROOT / pkg).rglob("*.py"):
            parts = p.relative_to(ROOT).with_suffix("").parts
            mod = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            if any(mod == s or mod.startswith(s + ".") for s in bi.SKIP_MODULES):
                assert mod not in hidden
            else:
                assert mod in hidden, mod
    assert "app.smoke" in hidden and "deid_engine.netguard" in hidden


def test_excludes_keep_what_the_app_needs_and_drop_network_modules():
    ex = set(bi.EXCLUDES)
    for needed in ("torch", "numpy", "PySide6.QtWidgets", "PySide6.QtGui", "PySide6.QtCore", "deid_engine",
                   "app", "platformdirs", "regex", "rapidfuzz", "cryptography", "docx", "pypdf", "striprtf"):
        assert needed not in ex
    for net in ("PySide6.QtNetwork", "requests", "urllib3", "tkinter"):
        assert net in ex


def test_drop_patterns():
    import re

    drop = re.compile("|".join(f"(?:{p})" for p in bi.DROP))
    for dest in ("torch/include/ATen/ATen.h", "torch/bin/test_api", "torch/test/x.so", "torch/share/cmake/a",
                 "PySide6/Qt/translations/qtbase_de.qm", "PySide6/Qt/plugins/tls/libqopensslbackend.so",
                 "numpy/_core/tests/test_x.py", "torch/lib/libtorchbind_test.so"):
        assert drop.search(dest), dest
    for dest in ("torch/lib/libtorch_cpu.so", "torch/testing/_internal/common_utils.py", "torch/bin/torch_shm_manager",
                 "PySide6/Qt/translations/qtbase_es.qm", "PySide6/Qt/plugins/platforms/libqxcb.so",
                 "PySide6/Qt/plugins/platforms/libqoffscreen.so", "torch/_C.so", "numpy/_core/_multiarray_umath.so"):
        assert not drop.search(dest), dest


def test_prune_orphans_drops_only_what_dropped_binaries_alone_needed():
    graph = {
        "plugins/platforms/libqxcb.so": ["libQt6Gui.so.6", "libxcb.so.1"],
        "plugins/platforms/libqvnc.so": ["libQt6Network.so.6", "libQt6Gui.so.6"],
        "PySide6/QtWidgets.abi3.so": ["libQt6Widgets.so.6"],
        "libQt6Widgets.so.6": ["libQt6Gui.so.6"],
        "libQt6Gui.so.6": ["libQt6Core.so.6"],
        "libQt6Network.so.6": ["libQt6Core.so.6", "libgssapi_krb5.so.2"],
        "libgssapi_krb5.so.2": ["libkrb5.so.3"],
        "libkrb5.so.3": [], "libQt6Core.so.6": [], "libxcb.so.1": [],
        "unreadable.so": None,
    }

    def imports_of(src):
        if graph[src] is None:
            raise OSError("bad file")
        return graph[src]

    entries = [(dest, dest, "BINARY") for dest in graph]
    dropped = [e for e in entries if "qvnc" in e[0]]
    kept, orphans = bi.prune_orphans([e for e in entries if e not in dropped], dropped, imports_of)
    assert orphans == ["libgssapi_krb5.so.2", "libkrb5.so.3", "libqt6network.so.6"]
    names = {e[0] for e in kept}
    assert {"libQt6Core.so.6", "libQt6Gui.so.6", "libxcb.so.1", "unreadable.so", "libQt6Widgets.so.6"} <= names
    assert not names & {"libQt6Network.so.6", "libkrb5.so.3", "plugins/platforms/libqvnc.so"}


def test_preflight_excluded_modules_break_nothing():
    """torch, numpy, every engine/app module and the default pipeline work with EXCLUDES unimportable."""
    assert bi.preflight() == []


def test_preflight_catches_an_exclude_that_torch_needs(monkeypatch):
    monkeypatch.setattr(bi, "EXCLUDES", [*bi.EXCLUDES, "unittest.mock"])
    problems = bi.preflight()
    assert problems and "unittest.mock" in problems[0]


def test_strip_list_leaves_patched_wheel_libraries_alone():
    import re

    pat = re.compile("|".join(f"(?:{p})" for p in bi.STRIP))
    assert pat.search("torch/lib/libtorch_cpu.so")
    for dest in ("numpy.libs/libscipy_openblas64_-32a4b2a6.so", "numpy/_core/_multiarray_umath.cpython-311.so",
                 "PySide6/Qt/lib/libQt6Core.so.6"):
        assert not pat.search(dest)


def test_svg_icon_renders_to_a_windows_icon(tmp_path):
    svg = ROOT / "resources" / "icons" / "deid-studio.svg"
    if not svg.is_file():
        pytest.skip("no resources/icons/deid-studio.svg yet")
    ico = bi.make_icon(svg, tmp_path / "app.ico", "ico")
    assert ico is not None and ico.read_bytes()[:4] == b"\x00\x00\x01\x00"  # ICO header


def test_generated_spec_and_entry_are_valid_python(tmp_path, monkeypatch):
    monkeypatch.setattr(bi, "SPEC", tmp_path / "x.spec")
    monkeypatch.setattr(bi, "ENTRY", tmp_path / "entry.py")
    monkeypatch.setattr(bi, "RTHOOK", tmp_path / "rthook.py")
    for onefile in (False, True):
        spec = bi.write_spec(onefile)
        ast.parse(spec.read_text(encoding="utf-8"))
    entry = bi.write_entry(tmp_path / "entry.py")
    src = entry.read_text(encoding="utf-8")
    ast.parse(src)
    assert "freeze_support" in src and repr(bi.CLI_NAME) in src
    assert "netguard.install()" in (tmp_path / "rthook.py").read_text(encoding="utf-8")
    text = bi.spec_text()
    if any(p.is_file() for p in (ROOT / "resources" / "models").rglob("*")):
        assert "resources/models" in text
    assert "COLLECT(gui, cli" in text  # both executables share one folder


def test_fixture_phi_is_in_the_fixtures_and_check_output_finds_leaks(tmp_path):
    text = "".join(bi.FIXTURE_NOTES.values())
    assert all(p in text for p in bi.FIXTURE_PHI + bi.FIXTURE_KEEP)
    hashes = bi.write_fixtures(tmp_path / "in")
    out = tmp_path / "out"
    for rel in bi.FIXTURE_NOTES:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(bi.FIXTURE_NOTES[rel].replace("John Smith", "[NAME]"), encoding="utf-8")
    (out / "audit.json").write_text("{}")
    problems = bi.check_output(tmp_path / "in", out, hashes)
    assert not any("John Smith" in p for p in problems)
    assert any("4478123" in p for p in problems)
    (tmp_path / "in" / "ward" / "note1.txt").write_text("changed")
    assert any("original changed" in p for p in bi.check_output(tmp_path / "in", out, hashes))


@pytest.mark.slow
def test_full_build_and_smoke():
    """Builds the bundle with PyInstaller and smoke-tests it (several minutes, about 0.6 GB on disk)."""
    if os.environ.get("DEID_TEST_INSTALLER") != "1":
        pytest.skip("the PyInstaller build takes several minutes, too slow for the 15-minute CI budget: "
                    "set DEID_TEST_INSTALLER=1 to run `python build_installer.py --smoke`")
    proc = subprocess.run([sys.executable, str(ROOT / "build_installer.py"), "--smoke"], cwd=ROOT,
                          capture_output=True, text=True, timeout=3600)
    last = proc.stdout.strip().splitlines()[-1]
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert last.startswith("bundle_mb=") and " start_s=" in last
