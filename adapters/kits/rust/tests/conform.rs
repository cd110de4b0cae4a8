//! conform's whole case set through the kit, as native tests: the reference
//! (`conform adapter`) served by examples/reference.rs. Every case passes, or
//! the kit makes a false fail.

use std::path::PathBuf;
use std::process::ExitCode;

/// An example's binary: cargo builds examples beside the test binaries.
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>")
        .join("examples")
        .join(name)
}

fn main() -> ExitCode {
    let adapter = example("reference");
    if !adapter.is_file() {
        eprintln!(
            "{} is not built: run the whole `cargo test` (it builds the examples) or `cargo build --examples` first",
            adapter.display()
        );
        return ExitCode::FAILURE;
    }
    conform_adapter::testing::ConformTest::new([adapter]).main()
}
