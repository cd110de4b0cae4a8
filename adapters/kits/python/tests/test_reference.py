"""No false fail from the kit: the reference (``conform adapter``) served
through the kit's API and JSON passes every case of the case set."""

import json
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def run(conform_bin, *extra):
    adapter = shlex.join([sys.executable, str(HERE / "reference_adapter.py"), shlex.join(conform_bin)])
    p = subprocess.run(
        [*conform_bin, "run", "-j", "1", "--format", "json", "--adapter", adapter, *extra],
        capture_output=True,
        check=False,
    )
    return p, json.loads(p.stdout)


def test_reference_through_the_kit_passes_every_case(conform_bin):
    p, report = run(conform_bin)
    failing = [(c["id"], c["verdict"], c.get("message")) for c in report["cases"] if c["verdict"] != "pass"]
    assert failing == []
    assert p.returncode == 0, p.stderr
    assert len(report["cases"]) == sum(report["totals"].values()) > 700
    assert report["implementation"]["name"] == "conform reference via conform_adapter"


def test_reference_through_the_kit_in_exec_mode(conform_bin):
    p, report = run(conform_bin, "--exec", "--op", "retain.items")
    assert [c["verdict"] for c in report["cases"]] == ["pass"] * len(report["cases"])
    assert p.returncode == 0 and len(report["cases"]) > 10
