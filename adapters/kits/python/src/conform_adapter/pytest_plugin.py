"""pytest plugin: conform's cases as pytest test items.

``pytest --conform-adapter 'python -m my_adapter'`` runs
``conform run --format json`` on that adapter once, at collection, and adds
one test item per conform case (``conform::grep.result/gen-001``) plus one
item for the run itself (``conform::run``), which fails when the run did not
complete or is nonconformant for a reason no case shows (a start fault, an
unsupported required op, a stale baseline entry). A failing case's message is
conform's own detail: the requirements it fails, each difference with its
path, wanted and got values, the harness's message and stderr, and the
command that reproduces it. conform is the only judge: nothing is compared
here, every verdict is read from its report.

The ``conform`` fixture runs conform from a test instead:
``conform("python -m my_adapter", "--op", "retain.items")`` returns a
:class:`Report`; ``report.check()`` raises ``AssertionError`` with the
detail of every failing case.

Where conform comes from: ``--conform-bin`` (a path or a command line such as
``'go run ./cmd/conform'``), else ``$CONFORM_BIN``, else ``conform`` on
``PATH``, else ``go run ./cmd/conform`` when pytest runs inside a checkout of
conform.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from . import jsonjs

PASSING = {"pass"}
FAILING = {"fail", "error", "timeout", "crash", "xpass"}
SKIPPED = {"skipped", "unsupported"}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conform", "conform conformance cases")
    group.addoption("--conform-adapter", metavar="CMD", help="run conform's cases through this adapter command")
    group.addoption("--conform-bin", metavar="CMD", help="the conform binary or command (default: $CONFORM_BIN, PATH)")
    group.addoption(
        "--conform-args",
        metavar="ARGS",
        default="",
        help="more flags for conform run, e.g. '--op retain.items --baseline known.yaml --exec'",
    )


def conform_command(bin_option: str | None, rootdir: Path | None = None) -> list[str]:
    """The argv prefix that runs conform (see the module doc)."""
    spec = bin_option or os.environ.get("CONFORM_BIN")
    if spec:
        return shlex.split(spec)
    found = shutil.which("conform")
    if found:
        return [found]
    for d in [rootdir, Path.cwd()]:
        while d is not None:
            if (d / "cmd" / "conform").is_dir() and (d / "go.mod").is_file():
                return ["go", "run", str(d / "cmd" / "conform")]
            d = d.parent if d.parent != d else None
    raise pytest.UsageError("conform not found: pass --conform-bin, set CONFORM_BIN, or put conform on PATH")


class Report:
    """A ``conform run --format json`` report, read tolerantly.

    Members conform may add later are kept in ``data``; nothing here
    depends on a member the schema does not require except where its
    absence has an obvious meaning.
    """

    def __init__(self, data: dict[str, Any], exit_status: int, stderr: str = "", argv: list[str] | None = None):
        self.data = data
        self.exit_status = exit_status
        self.stderr = stderr
        self.argv = argv or []
        self.cases: list[dict[str, Any]] = [c for c in data.get("cases") or [] if isinstance(c, dict)]
        self.statements = {
            r.get("id"): f"{r.get('level', '')}: {r.get('statement', '')}".strip(": ")
            for r in data.get("requirements") or []
            if isinstance(r, dict)
        }

    @property
    def failed(self) -> list[dict[str, Any]]:
        return [c for c in self.cases if c.get("verdict") in FAILING]

    def problems(self) -> list[str]:
        """Why the run itself is not a complete, conformant run, beyond its failing cases."""
        out = []
        d = self.data
        if d.get("format") != "conform-run":
            out.append(f"not a conform run report (format {d.get('format')!r})")
        fault = d.get("fault")
        if isinstance(fault, dict):
            msg = f"conform could not run the cases ({fault.get('kind')}): {fault.get('message')}"
            if fault.get("stderr"):
                msg += "\nadapter stderr:\n" + fault["stderr"]
            out.append(msg)
        if d.get("complete") is False:
            out.append("the run is incomplete (complete: false)" + _why(d))
        totals = d.get("totals")
        if isinstance(totals, dict):
            counted = sum(v for v in totals.values() if isinstance(v, int))
            if counted != len(self.cases):
                out.append(f"the report's totals count {counted} cases but it lists {len(self.cases)}")
        for r in d.get("nonconformant") or []:
            if isinstance(r, dict) and r.get("kind") != "failing-cases":
                out.append(f"nonconformant ({r.get('kind')}): {r.get('message')}")
        if self.exit_status not in (0, 1):
            out.append(f"conform exited with status {self.exit_status}")
        elif self.exit_status == 1 and not self.failed and not out:
            out.append("conform exited with status 1 (nonconformant) but the report names no reason")
        if out and self.stderr.strip():
            out.append("conform's stderr:\n" + self.stderr.strip())
        return out

    def detail(self, case: dict[str, Any]) -> str:
        """conform's failure detail for one case, as lines of text."""
        lines = [f"{case.get('id')}: {case.get('verdict')}"]
        for rid in case.get("broken") or []:
            st = self.statements.get(rid)
            lines.append(f"fails {rid}" + (f" — {st}" if st else ""))
        others = [r for r in case.get("requirements") or [] if r not in (case.get("broken") or [])]
        if others and case.get("verdict") == "fail":
            lines.append("passes its other requirements: " + ", ".join(others))
        if case.get("message"):
            lines.append("message: " + str(case["message"]))
        for diff in case.get("diffs") or []:
            where = diff.get("path") or diff.get("field") or "$"
            head = f"diff at {where} ({diff.get('comparator')}"
            if diff.get("requirements"):
                head += "; " + ", ".join(diff["requirements"])
            lines.append(head + ")")
            if diff.get("message"):
                lines.append("  " + str(diff["message"]).replace("\n", "\n  "))
            for side in ("want", "got"):
                if side in diff:
                    lines.append(f"  {side}: {_show(diff[side])}")
            for k, v in diff.items():  # members a later conform adds
                if k in {"wantExcerpt", "gotExcerpt"} and k[:-7] in diff:
                    continue  # the whole value is shown already
                if k not in {"field", "comparator", "path", "requirements", "message", "want", "got"}:
                    lines.append(f"  {k}: {_show(v)}")
        if case.get("baseline"):
            lines.append("baseline: " + str(case["baseline"]))
        if case.get("stderr"):
            lines.append("adapter stderr:\n" + str(case["stderr"]))
        if case.get("file"):
            lines.append("fixture: " + str(case["file"]))
        if case.get("reproduce"):
            lines.append("reproduce: " + str(case["reproduce"]))
        return "\n".join(lines)

    def check(self) -> None:
        """Raise AssertionError with conform's detail unless the run is complete and conformant."""
        parts = self.problems() + [self.detail(c) for c in self.failed]
        if parts or self.exit_status != 0:
            raise AssertionError("\n\n".join(parts) or f"conform exited with status {self.exit_status}")


def _why(d: dict[str, Any]) -> str:
    for k in ("incomplete", "reason", "message"):
        if d.get(k):
            return f": {d[k]}"
    return ""


def _show(v: Any) -> str:
    s = v if isinstance(v, str) else jsonjs.stringify(v)
    return s if len(s) <= 2000 else s[:2000] + f"… ({len(s)} characters)"


def run_conform(conform: list[str], adapter: str, args: list[str], cwd: str | None = None) -> Report:
    """Run ``conform run --format json`` on the adapter; the report it wrote."""
    with tempfile.TemporaryDirectory(prefix="conform-pytest-") as tmp:
        out = os.path.join(tmp, "report.json")
        argv = [*conform, "run", "--format", "json", "--out", out, "--adapter", adapter, *args]
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=cwd)
        try:
            with open(out, "rb") as f:
                data = jsonjs.parse(f.read())  # an input in it may be 100,000 deep
        except (OSError, ValueError) as e:
            data = {"format": None, "fault": {"kind": "report", "message": f"no readable report ({e})"}}
        if not isinstance(data, dict):
            data = {"format": None, "fault": {"kind": "report", "message": "the report is not a JSON object"}}
        return Report(data, proc.returncode, proc.stderr, argv)


class ConformCase(pytest.Item):
    def __init__(self, *, report: Report, case: dict[str, Any], **kw: Any) -> None:
        super().__init__(**kw)
        self.report = report
        self.case = case
        for r in case.get("requirements") or []:
            self.add_marker(pytest.mark.conform_requirement(r))

    def runtest(self) -> None:
        verdict = self.case.get("verdict")
        if verdict in PASSING:
            return
        if verdict == "xfail":
            pytest.xfail(str(self.case.get("baseline") or "known failure (baseline)"))
        if verdict in SKIPPED:
            pytest.skip(f"{verdict}: {self.case.get('message', '')}")
        raise ConformError(self.report.detail(self.case))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: str | None = None) -> str:
        if isinstance(excinfo.value, ConformError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[str, int | None, str]:
        return self.case.get("file") or "conform", None, f"conform case {self.case.get('id')}"


class ConformRun(pytest.Item):
    def __init__(self, *, report: Report, **kw: Any) -> None:
        super().__init__(**kw)
        self.report = report

    def runtest(self) -> None:
        problems = self.report.problems()
        if problems:
            raise ConformError("\n\n".join(problems))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: str | None = None) -> str:
        if isinstance(excinfo.value, ConformError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "conform", None, "the conform run: " + " ".join(shlex.quote(a) for a in self.report.argv)


class ConformError(Exception):
    """A failure conform reported; its text is conform's detail."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "conform_requirement(id): a requirement the conform case cites")


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    adapter = config.getoption("--conform-adapter")
    if not adapter:
        return
    conform = conform_command(config.getoption("--conform-bin"), Path(str(config.rootpath)))
    report = run_conform(conform, adapter, shlex.split(config.getoption("--conform-args") or ""))
    # explicit node ids: under the session, whose id is "", they would start with "::"
    new: list[pytest.Item] = [
        ConformRun.from_parent(session, name="conform::run", nodeid="conform::run", report=report)
    ]
    for case in report.cases:
        name = f"conform::{case.get('id')}"
        new.append(ConformCase.from_parent(session, name=name, nodeid=name, report=report, case=case))
    items.extend(new)


@pytest.fixture
def conform(pytestconfig: pytest.Config):
    """``conform(adapter_cmd, *conform_run_flags) -> Report`` (see :class:`Report`)."""
    cmd = conform_command(pytestconfig.getoption("--conform-bin"), Path(str(pytestconfig.rootpath)))

    def run(adapter: str, *args: str) -> Report:
        return run_conform(cmd, adapter, list(args))

    return run
