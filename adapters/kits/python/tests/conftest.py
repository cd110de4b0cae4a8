"""Shared fixtures of the kit's tests: where conform is, and the case inputs
exactly as conform sends them (recorded once per session)."""

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
REPO = HERE.parents[3]  # adapters/kits/python/tests -> the conform checkout


def _conform() -> list[str]:
    if os.environ.get("CONFORM_BIN"):
        return shlex.split(os.environ["CONFORM_BIN"])
    built = REPO / "bin" / "conform"
    if built.is_file():
        return [str(built)]
    if shutil.which("conform"):
        return [shutil.which("conform")]
    if (REPO / "go.mod").is_file() and shutil.which("go"):
        out = Path(os.environ.get("TMPDIR", "/tmp")) / f"conform-kitpy-{os.getuid()}"
        subprocess.run(["go", "build", "-o", str(out), "./cmd/conform"], cwd=REPO, check=True)
        return [str(out)]
    pytest.skip("no conform binary (set CONFORM_BIN)")


@pytest.fixture(scope="session")
def conform_bin() -> list[str]:
    return _conform()


@pytest.fixture(scope="session")
def case_inputs(conform_bin, tmp_path_factory) -> list[tuple[str, bytes]]:
    """(case id, raw input bytes) for every case of the embedded case set."""
    rec = tmp_path_factory.mktemp("rec") / "requests.txt"
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(HERE / 'recorder_adapter.py'))} {shlex.quote(str(rec))}"
    subprocess.run([*conform_bin, "run", "-j", "1", "--adapter", adapter], capture_output=True, check=False)
    out = []
    for line in rec.read_bytes().splitlines():
        head, sep, rest = line.partition(b',"input":')
        assert sep and rest.endswith(b"}"), line[:200]
        out.append((head.split(b'"id":"')[1].split(b'"')[0].decode(), rest[:-1]))
    assert len(out) > 700, f"recorded only {len(out)} requests"
    return out
