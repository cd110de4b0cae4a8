"""The pytest plugin: conform's cases as pytest items, conform's detail as the message."""

import shlex
import sys
import textwrap

import pytest

# A retain.items harness with one bug: a dropped item is reported as kept.
WRONG = textwrap.dedent(
    """
    from conform_adapter import Adapter

    adapter = Adapter("wrong-retain", version="0")

    @adapter.op("retain.items")
    def retain_items(input):
        n = input["strategy"]["maxItems"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError("maxItems must be a non-negative integer")
        items = input["items"]
        kept = items[:n]
        omitted = len(items) - len(kept)
        return {
            "items": kept,
            "truncated": omitted > 0,
            "seen": len(items),
            "kept": len(kept),
            "omitted": {"kind": "exact", "count": omitted} if omitted else {"kind": "none"},
            "pushes": [{"kept": True, "truncated": i >= n} for i in range(len(items))],  # the bug
        }

    adapter.serve()
    """
)


@pytest.fixture
def wrong_adapter(pytester):
    path = pytester.makepyfile(wrong_adapter=WRONG)
    return shlex.join([sys.executable, str(path)])


def test_one_failing_case_is_one_failing_item_with_the_diff(pytester, conform_bin, wrong_adapter):
    result = pytester.runpytest_subprocess(
        "--conform-adapter",
        wrong_adapter,
        "--conform-bin",
        shlex.join(conform_bin),
        "--conform-args",
        "--op retain.items --run retain-items-(one-over-cap|empty|exactly-at-cap)$",
    )
    result.assert_outcomes(passed=3, failed=1)  # conform::run and two passing cases
    out = result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*conform case retain.items/retain-items-one-over-cap*",
            "*fails RET-ITEM-2*",
            "*diff at $.pushes*",
            "*want:*false*",
            "*got:*true*",
            "reproduce: *conform run *retain-items-one-over-cap*",
            "*FAILED *conform::retain.items/retain-items-one-over-cap*",
        ]
    )
    assert "PASSED" not in out or "conform::retain.items/retain-items-empty" in out
    assert result.ret == 1


def test_a_start_fault_fails_the_session(pytester, conform_bin):
    result = pytester.runpytest_subprocess(
        "--conform-adapter",
        shlex.join([sys.executable, "-c", "import sys; sys.exit(3)"]),
        "--conform-bin",
        shlex.join(conform_bin),
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*conform could not run the cases (start)*"])
    assert result.ret == 1


def test_an_incomplete_report_fails_the_session(pytester, tmp_path):
    """A report that says complete: false (a field another conform may add)
    fails the conform::run item even though every listed case passed."""
    fake = tmp_path / "fake_conform.py"
    fake.write_text(
        textwrap.dedent(
            """
            import sys
            out = sys.argv[sys.argv.index("--out") + 1]
            open(out, "w").write('{"format":"conform-run","version":1,"complete":false,"newField":[1],'
                '"totals":{"pass":1},"cases":[{"id":"retain.items/x","op":"retain.items",'
                '"requirements":[],"verdict":"pass","durationMs":1}]}')
            """
        )
    )
    result = pytester.runpytest_subprocess(
        "--conform-adapter",
        "unused",
        "--conform-bin",
        shlex.join([sys.executable, str(fake)]),
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*the run is incomplete (complete: false)*"])


def test_fixture_reports_conform_detail(pytester, conform_bin, wrong_adapter):
    pytester.makepyfile(
        test_with_fixture=f"""
        def test_conformant(conform):
            report = conform({wrong_adapter!r}, "--op", "retain.items")
            assert report.failed
            report.check()
        """
    )
    result = pytester.runpytest_subprocess("--conform-bin", shlex.join(conform_bin))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*AssertionError*", "*fails RET-ITEM-2*"])
