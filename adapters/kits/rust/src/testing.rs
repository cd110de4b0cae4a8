//! conform's cases as native Rust tests: a `[[test]]` with `harness = false`
//! runs `conform run --format json` on the adapter and prints libtest's lines.
//! conform is the only judge: this reads its verdicts and prints them.
//!
//! ```ignore
//! // tests/conform.rs, with [[test]] name = "conform", harness = false
//! fn main() -> std::process::ExitCode {
//!     conform_adapter::testing::ConformTest::new([env!("CARGO_BIN_EXE_my-adapter")]).main()
//! }
//! ```

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use crate::json::{parse, Value};

/// A run of conform's cases through an adapter, reported as libtest does.
#[derive(Clone, Debug)]
pub struct ConformTest {
    adapter: Vec<OsString>,
    args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    conform: Option<Vec<OsString>>,
    filter: Option<String>,
    exact: bool,
}

/// libtest's filter among its arguments (flags, and the values of the flags
/// that take one, are not filters), and whether `--exact` was given.
fn libtest_filter(args: &[String]) -> (Option<String>, bool) {
    const WITH_VALUE: [&str; 7] = [
        "--test-threads",
        "--format",
        "--color",
        "--skip",
        "--logfile",
        "--shuffle-seed",
        "-Z",
    ];
    let mut filter = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if WITH_VALUE.contains(&a.as_str()) {
            it.next();
        } else if !a.starts_with('-') && filter.is_none() {
            filter = Some(a.clone());
        }
    }
    (filter, args.iter().any(|a| a == "--exact"))
}

/// The outcome of [`ConformTest::run_to`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub ignored: usize,
    /// Whether the whole run passes (no failed case, conform's own verdict
    /// conformant, the run complete).
    pub ok: bool,
}

/// How a verdict shows in libtest's terms.
enum Outcome {
    Ok,
    Failed,
    Ignored,
}

fn outcome(verdict: &str) -> Outcome {
    match verdict {
        "pass" | "xfail" => Outcome::Ok,
        "skipped" | "unsupported" => Outcome::Ignored,
        _ => Outcome::Failed, // fail, error, timeout, crash, xpass, and any new one
    }
}

impl ConformTest {
    /// The adapter's argv (the program and its arguments; no shell).
    pub fn new<I, S>(adapter: I) -> ConformTest
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        ConformTest {
            adapter: adapter.into_iter().map(Into::into).collect(),
            args: Vec::new(),
            env: Vec::new(),
            conform: None,
            filter: None,
            exact: false,
        }
    }

    /// An extra `conform run` flag (`--baseline`, `--op`, `--exec`, …).
    pub fn arg(mut self, arg: impl Into<OsString>) -> ConformTest {
        self.args.push(arg.into());
        self
    }

    /// An environment variable for conform and so for the adapter.
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> ConformTest {
        self.env.push((key.into(), value.into()));
        self
    }

    /// The conform command (default: `$CONFORM_BIN`, else `conform` on
    /// `PATH`, else `go run ./cmd/conform` in the conform checkout above
    /// the current directory).
    pub fn conform<I, S>(mut self, argv: I) -> ConformTest
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        self.conform = Some(argv.into_iter().map(Into::into).collect());
        self
    }

    /// Runs only the cases whose id contains `filter` (libtest's filter).
    pub fn filter(mut self, filter: impl Into<String>) -> ConformTest {
        self.filter = Some(filter.into());
        self.exact = false;
        self
    }

    /// Runs only the case whose id is `id` (libtest's `--exact`).
    pub fn exact(mut self, id: impl Into<String>) -> ConformTest {
        self.filter = Some(id.into());
        self.exact = true;
        self
    }

    /// The `main` of a `harness = false` test: reads libtest's filter from
    /// the command line (`cargo test --test conform -- grep.result/`),
    /// prints the report to stdout and returns the exit code.
    pub fn main(mut self) -> ExitCode {
        let args: Vec<String> = std::env::args().skip(1).collect();
        if args.iter().any(|a| a == "--list") {
            return ExitCode::SUCCESS; // the cases are conform's: nothing to list ahead of a run
        }
        let (filter, exact) = libtest_filter(&args);
        if let Some(f) = filter {
            self.filter = Some(f);
            self.exact = exact;
        }
        let stdout = io::stdout();
        match self.run_to(&mut stdout.lock()) {
            Ok(s) if s.ok => ExitCode::SUCCESS,
            Ok(_) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("conform test: {e}");
                ExitCode::FAILURE
            }
        }
    }

    fn conform_command(&self) -> Command {
        let argv: Vec<OsString> = match &self.conform {
            Some(a) => a.clone(),
            None => default_conform(),
        };
        let mut c = Command::new(&argv[0]);
        c.args(&argv[1..]);
        if argv.len() > 1 && argv[1] == "run" {
            // go run: run in the checkout it was found in.
            if let Some(root) = conform_checkout() {
                c.current_dir(root);
            }
        }
        c
    }

    /// Runs conform and writes libtest-style lines to `out`.
    pub fn run_to(&self, out: &mut dyn Write) -> io::Result<Summary> {
        let mut cmd = self.conform_command();
        cmd.arg("run").arg("--format").arg("json");
        if let Some(f) = &self.filter {
            let quoted = regex_quote(f);
            let re = if self.exact {
                format!("^{quoted}$")
            } else {
                quoted
            };
            cmd.arg("--run").arg(re);
        }
        cmd.args(&self.args).arg("--").args(&self.adapter);
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd.stdin(Stdio::null()).stderr(Stdio::inherit());
        let output = cmd
            .output()
            .map_err(|e| io::Error::new(e.kind(), format!("starting conform {cmd:?}: {e}")))?;
        let text = String::from_utf8_lossy(&output.stdout);
        let report = parse(&text).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("conform's report ({}) is not JSON: {e}", output.status),
            )
        })?;
        report_to(out, &report, output.status.code())
    }
}

/// Escapes a literal for conform's `--run` regular expression.
fn regex_quote(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn conform_checkout() -> Option<PathBuf> {
    let start = std::env::current_dir().ok()?;
    let mut dir: &Path = &start;
    loop {
        let gomod = dir.join("go.mod");
        if let Ok(text) = std::fs::read_to_string(&gomod) {
            if text.contains("module github.com/dsh-conform/conform") {
                return Some(dir.to_path_buf());
            }
        }
        dir = dir.parent()?;
    }
}

fn default_conform() -> Vec<OsString> {
    if let Some(bin) = std::env::var_os("CONFORM_BIN").filter(|b| !b.is_empty()) {
        return vec![bin];
    }
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join("conform").is_file()))
        .unwrap_or(false);
    if on_path {
        return vec!["conform".into()];
    }
    vec!["go".into(), "run".into(), "./cmd/conform".into()]
}

fn str_of<'a>(v: &'a Value, name: &str) -> &'a str {
    v.get(name).and_then(Value::as_str).unwrap_or("")
}

/// Prints a `conform run --format json` report as libtest does, given
/// conform's exit status (`Some(0)` conformant, `Some(1)` nonconformant).
/// Members it does not know are ignored; a fault, `"complete": false`, any
/// failing case or another exit status fails the run.
pub fn report_to(out: &mut dyn Write, report: &Value, status: Option<i32>) -> io::Result<Summary> {
    let mut s = Summary::default();
    let mut problems: Vec<String> = Vec::new();
    if let Some(fault) = report.get("fault") {
        problems.push(format!(
            "conform could not run the cases ({}): {}{}",
            str_of(fault, "kind"),
            str_of(fault, "message"),
            stderr_block(str_of(fault, "stderr")),
        ));
    }
    // A report may say it is incomplete (an interrupted run): that fails.
    if let Some(false) = report.get("complete").and_then(Value::as_bool) {
        problems.push("conform's run is incomplete (\"complete\": false)".into());
    }
    let empty = crate::json::Array::new();
    let cases = report
        .get("cases")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    writeln!(out, "\nrunning {} tests", cases.len())?;
    let mut failures: Vec<&Value> = Vec::new();
    for case in cases.iter() {
        let id = str_of(case, "id");
        let verdict = str_of(case, "verdict");
        match outcome(verdict) {
            Outcome::Ok => {
                s.passed += 1;
                writeln!(out, "test {id} ... ok")?;
            }
            Outcome::Ignored => {
                s.ignored += 1;
                writeln!(
                    out,
                    "test {id} ... ignored, {verdict}: {}",
                    str_of(case, "message")
                )?;
            }
            Outcome::Failed => {
                s.failed += 1;
                failures.push(case);
                writeln!(out, "test {id} ... FAILED")?;
            }
        }
    }
    if !failures.is_empty() {
        writeln!(out, "\nfailures:\n")?;
        for case in &failures {
            writeln!(out, "---- {} ----", str_of(case, "id"))?;
            write_failure(out, case)?;
        }
        writeln!(out, "\nfailures:")?;
        for case in &failures {
            writeln!(out, "    {}", str_of(case, "id"))?;
        }
    }
    match status {
        Some(0) => {}
        Some(1) if report.get("fault").is_none() => {
            let reasons = report.get("nonconformant").and_then(Value::as_array);
            for r in reasons.into_iter().flat_map(|a| a.iter()) {
                if str_of(r, "kind") != "failing-cases" {
                    problems.push(format!("nonconformant: {}", str_of(r, "message")));
                }
            }
            if problems.is_empty() && failures.is_empty() {
                problems.push("conform reports the run nonconformant (exit status 1)".into());
            }
        }
        other => problems.push(format!("conform exited with status {other:?}")),
    }
    for p in &problems {
        writeln!(out, "\n{p}")?;
    }
    s.ok = failures.is_empty() && problems.is_empty();
    let seconds = report
        .get("durationMs")
        .and_then(Value::as_f64)
        .unwrap_or(0.0)
        / 1000.0;
    writeln!(
        out,
        "\ntest result: {}. {} passed; {} failed; {} ignored; 0 measured; 0 filtered out; finished in {seconds:.2}s\n",
        if s.ok { "ok" } else { "FAILED" },
        s.passed,
        s.failed,
        s.ignored,
    )?;
    Ok(s)
}

fn stderr_block(stderr: &str) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!(
            "\n  adapter stderr (last 4 KiB):\n{}",
            indent(stderr, "    ")
        )
    }
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}\n")).collect()
}

/// conform's words for one failing case: verdict, message, each diff with
/// what it blames, the golden and the answer, and the reproduction line.
fn write_failure(out: &mut dyn Write, case: &Value) -> io::Result<()> {
    writeln!(out, "verdict: {}", str_of(case, "verdict"))?;
    let message = str_of(case, "message");
    if !message.is_empty() {
        writeln!(out, "message: {message}")?;
    }
    if let Some(broken) = case.get("broken").and_then(Value::as_array) {
        let ids: Vec<&str> = broken.iter().filter_map(Value::as_str).collect();
        writeln!(out, "broken: {}", ids.join(", "))?;
    }
    for d in case
        .get("diffs")
        .and_then(Value::as_array)
        .into_iter()
        .flat_map(|a| a.iter())
    {
        let path = str_of(d, "path");
        writeln!(
            out,
            "diff {} ({}){}: {}",
            str_of(d, "field"),
            str_of(d, "comparator"),
            if path.is_empty() {
                String::new()
            } else {
                format!(" at {path}")
            },
            str_of(d, "message"),
        )?;
        if let Some(reqs) = d.get("requirements").and_then(Value::as_array) {
            let ids: Vec<&str> = reqs.iter().filter_map(Value::as_str).collect();
            if !ids.is_empty() {
                writeln!(out, "  blames: {}", ids.join(", "))?;
            }
        }
        for (label, excerpt, whole) in [
            ("want", "wantExcerpt", "want"),
            ("got", "gotExcerpt", "got"),
        ] {
            match (d.get(excerpt).and_then(Value::as_str), d.get(whole)) {
                (Some(e), _) => writeln!(out, "  {label}: {e}")?,
                (None, Some(v)) => writeln!(out, "  {label}: {}", clip(&v.to_json()))?,
                (None, None) => {}
            }
        }
    }
    let stderr = str_of(case, "stderr");
    if !stderr.is_empty() {
        write!(out, "{}", stderr_block(stderr))?;
        writeln!(out)?;
    }
    let file = str_of(case, "file");
    if !file.is_empty() {
        writeln!(out, "fixture: {file}")?;
    }
    let reproduce = str_of(case, "reproduce");
    if !reproduce.is_empty() {
        writeln!(out, "reproduce: {reproduce}")?;
    }
    writeln!(out)
}

fn clip(s: &str) -> String {
    match s.char_indices().nth(400) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}
