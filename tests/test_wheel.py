"""The wheel a user installs: the shipped networks travel in it as package data (weights/), with the
stand-ins' package, and a plain (non-editable) install of it finds them through the package.

The wheel is built from a copy of the project (the build writes build/ and *.egg-info beside its
sources) with the venv's own setuptools and wheel: no index, no build isolation.
"""
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

NOT_SOURCES = shutil.ignore_patterns(".venv", ".git", "runs", "build", "dist", "*.egg-info", "__pycache__",
                                     ".pytest_cache", "*.nbi", "*.nbc")
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "plies"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCES)
    built = subprocess.run([*PIP, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
                            "-w", str(work / "dist"), str(source)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, f"the wheel did not build (it needs the wheel package):\n{built.stderr}"
    (found,) = (work / "dist").glob("plies-*.whl")
    return found


def test_the_wheel_holds_the_shipped_networks_and_the_stand_ins(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "weights" / "hex").glob("hex*.onnx"))
    assert "weights/hex/hex5.onnx" in shipped
    for network in shipped:
        assert network in names and network.replace(".onnx", ".json") in names
    assert {"weights/__init__.py", "weights/hex/hex.toml",
            "weights/hex/topp5/anet_00000.onnx", "weights/hex/topp5/anet_00000.json"} <= names
    assert {"standins/__init__.py", "standins/oht_server.py", "standins/hex_referee.py",
            "engines/knowledge/hex/network.py", "adapters/gtp_hex.py"} <= names


def test_a_plain_install_finds_the_shipped_networks_through_the_package(wheel, tmp_path):
    target = tmp_path / "site"
    installed = subprocess.run([*PIP, "install", "--quiet", "--no-deps", "--no-index", "--target", str(target),
                                str(wheel)], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr
    probe = ("from engines.knowledge.hex.network import load_network, shipped_network_path\n"
             "path = shipped_network_path(5)\n"
             "network, sidecar = load_network(path, 5)\n"
             "print(path, sidecar['size'])\n")
    # run outside the project, the installed copy first on the path (before the editable install's finder)
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(target)})
    assert ran.returncode == 0, ran.stderr
    path, size = ran.stdout.split()
    assert Path(path) == target / "weights" / "hex" / "hex5.onnx" and size == "5"
