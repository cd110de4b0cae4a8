//! The libtest-style harness shows conform's verdicts as native tests: one
//! failing conform case is one FAILED test with conform's diff, and the run
//! fails.

use std::path::PathBuf;

use conform_adapter::parse;
use conform_adapter::testing::{report_to, ConformTest};

fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent()
        .and_then(|d| d.parent())
        .unwrap()
        .join("examples")
        .join(name)
}

fn conform() -> String {
    std::env::var("CONFORM_BIN").unwrap_or_else(|_| "conform".into())
}

#[test]
fn a_failing_case_is_a_failing_test_with_the_diff() {
    let mut out = Vec::new();
    let summary = ConformTest::new([example("reference")])
        .conform([conform()])
        .env("CONFORM_KIT_BREAK", "retain.items")
        .filter("retain.items/gen-00")
        .run_to(&mut out)
        .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(!summary.ok, "{out}");
    assert_eq!((summary.passed, summary.failed), (0, 9), "{out}");
    for want in [
        "running 9 tests\n",
        "test retain.items/gen-001 ... FAILED\n",
        "---- retain.items/gen-001 ----\n",
        "diff broken (json) at $.broken: unexpected output field \"broken\"\n",
        "  got: true\n",
        "reproduce: conform run --run '^retain\\.items/gen-001$'",
        "\nfailures:\n    retain.items/gen-001\n",
        "test result: FAILED. 0 passed; 9 failed; 0 ignored;",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
}

#[test]
fn passing_cases_are_ok_and_the_run_passes() {
    let mut out = Vec::new();
    let summary = ConformTest::new([example("reference")])
        .conform([conform()])
        .env("CONFORM_KIT_BREAK", "retain.items")
        .filter("retain.text/gen-00")
        .run_to(&mut out)
        .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(summary.ok, "{out}");
    assert!(out.contains("test retain.text/gen-001 ... ok\n"), "{out}");
    assert!(
        out.contains("test result: ok. 9 passed; 0 failed;"),
        "{out}"
    );
}

fn report(extra: &str, verdict: &str) -> String {
    format!(
        r#"{{"format":"conform-run","version":1,"durationMs":1,"futureField":[1,{{}}],{extra}"cases":[{{"id":"retain.items/x","op":"retain.items","requirements":[],"verdict":"{verdict}","durationMs":0,"message":"m","newMember":true}}]}}"#
    )
}

#[test]
fn the_report_is_read_tolerantly_and_an_incomplete_run_fails() {
    let run = |text: &str, status: i32| {
        let mut out = Vec::new();
        let s = report_to(&mut out, &parse(text).unwrap(), Some(status)).unwrap();
        (s, String::from_utf8(out).unwrap())
    };
    let (s, out) = run(&report("", "pass"), 0);
    assert!(s.ok && s.passed == 1, "{out}");
    let (s, out) = run(&report(r#""complete":true,"#, "pass"), 0);
    assert!(s.ok, "{out}");
    let (s, out) = run(&report(r#""complete":false,"#, "pass"), 0);
    assert!(!s.ok && out.contains("incomplete"), "{out}");
    let (s, out) = run(&report("", "skipped"), 0);
    assert!(
        s.ok && s.ignored == 1 && out.contains("... ignored, skipped: m"),
        "{out}"
    );
    for bad in ["crash", "timeout", "error", "xpass", "a-new-verdict"] {
        let (s, out) = run(&report("", bad), 1);
        assert!(!s.ok && s.failed == 1, "{bad}: {out}");
    }
    let (s, out) = run(
        &report(
            r#""fault":{"kind":"start","message":"no such file","stderr":"boom"},"#,
            "pass",
        ),
        2,
    );
    assert!(
        !s.ok && out.contains("no such file") && out.contains("boom"),
        "{out}"
    );
    let (s, out) = run(
        &report(
            r#""nonconformant":[{"kind":"unsupported-required-op","message":"grep.result is unsupported"}],"#,
            "pass",
        ),
        1,
    );
    assert!(!s.ok && out.contains("grep.result is unsupported"), "{out}");
}

#[test]
fn exec_mode_and_an_exact_filter_work_through_the_kit() {
    let mut out = Vec::new();
    let summary = ConformTest::new([example("reference")])
        .conform([conform()])
        .arg("--exec")
        .exact("spill.preview/spill-ref-a-budget-1")
        .run_to(&mut out)
        .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(summary.ok, "{out}");
    assert_eq!(summary.passed, 1, "{out}");
    assert!(
        out.contains("test spill.preview/spill-ref-a-budget-1 ... ok\n"),
        "{out}"
    );
}
