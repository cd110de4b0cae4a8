# The two commands a fresh machine needs are `make run` and `make test`.
GO ?= go

.PHONY: run test vet fmt bench build fixtures fixtures-check coverage conform-upstream fuzz-smoke mutation mutation-sample mutation-judge mutation-judge-sample coverage-golden matrix kit-python

# conform's main job: run every case through the embedded reference harness.
# Point it at your harness with `go run ./cmd/conform run -- <adapter argv>`.
run:
	$(GO) run ./cmd/conform run

# Every test: unit, golden, property and schema suites.
test:
	$(GO) test ./...

build:
	$(GO) build -o bin/conform ./cmd/conform

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || { echo "gofmt would change:"; gofmt -l .; exit 1; }

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./reference/...

# Regenerate fixtures/ and golden/ (never edit them by hand).
fixtures:
	$(GO) run ./cmd/conform generate

# The CI gate for contract changes: fails and lists stale files.
fixtures-check:
	$(GO) run ./cmd/conform generate --check

coverage:
	$(GO) run ./cmd/conform coverage

# The published upstream harness (npm, 0.1.0-rc.8) through its adapter.
# Needs node and npm; skips with a message when they are absent.
conform-upstream:
	@if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
		echo "conform-upstream: SKIPPED: node/npm not installed, the upstream harness cannot run"; exit 0; fi
	cd adapters/dsh-node && npm ci --no-audit --no-fund
	$(GO) run ./cmd/conform run --adapter 'node adapters/dsh-node/adapter.mjs' --baseline adapters/dsh-node/baseline.yaml

# A bounded differential fuzz campaign of `conform adapter` (the reference
# served over protocol v1) against the in-process reference.
fuzz-smoke: build
	bin/conform fuzz --cases 3000 --jobs 2 --seed 1 -- bin/conform adapter

# Mutation testing of reference/ judged by the golden cases alone
# (docs/mutation.md): every mutant, then a seeded sample with a threshold.
MUTATION_WORKERS ?= 2
mutation:
	nice -n 15 $(GO) run ./cmd/mutation --workers $(MUTATION_WORKERS) --json mutation.json

mutation-sample:
	$(GO) run ./cmd/mutation --workers $(MUTATION_WORKERS) --sample 40 --seed 13 --min-score 90

# Mutation testing of conform's own judge (runner, logcheck, baseline,
# verdict, report's verdict code, jsonjs's comparator), killed by go test
# (docs/mutation.md "The judge"): every mutant, then a seeded sample.
mutation-judge:
	nice -n 15 $(GO) run ./cmd/mutation --judge --workers $(MUTATION_WORKERS) --json mutation-judge.json

mutation-judge-sample:
	nice -n 10 $(GO) run ./cmd/mutation --judge --workers $(MUTATION_WORKERS) --sample 20 --seed 22 --min-score 90

# Statement coverage of reference/ by the golden run alone (docs/mutation.md):
# fails when an uncovered statement of a function linked into the adapter is
# not explained in spec/uncovered.yaml, or an entry there is stale.
coverage-golden:
	nice -n 10 $(GO) run ./cmd/mutation --coverage

# The compliance matrix of the reference, the published upstream harness at
# each dsh-tools release and the sample wrong harnesses: docs/matrix.html,
# docs/matrix.png and the matrix section of docs/upstream.md (never by hand).
matrix:
	GO=$(GO) .ci/matrix

# ---- kit-rust: the Rust adapter kit (adapters/kits/rust) and the idiomatic
# Rust port it serves (testdata/ports/rust). Cargo builds go to target/cargo.
# cargo test runs the kit's tests, the 810 reference cases through the kit
# (tests/conform.rs, a libtest-style harness), then conform runs the port,
# whose 144 known failures are baselined (testdata/ports/rust/baseline.yaml).
# Without the baseline (exit 1: nonconformant), attribute.py --check compares
# conform's diagnosis of each failing case with the port's answer key (issue
# 20: blame equals the key in >= 95% of cases, the same failed list).
KIT_RUST_ENV = CARGO_TARGET_DIR=$(CURDIR)/target/cargo CONFORM_BIN=$(CURDIR)/bin/conform
.PHONY: kit-rust
kit-rust: build
	cd adapters/kits/rust && cargo fmt --check
	cd testdata/ports/rust && cargo fmt --check
	cd adapters/kits/rust && $(KIT_RUST_ENV) cargo clippy -j1 --all-targets -- -D warnings
	cd testdata/ports/rust && $(KIT_RUST_ENV) cargo clippy -j1 --all-targets -- -D warnings
	cd adapters/kits/rust && $(KIT_RUST_ENV) cargo test -j1
	bin/conform run --baseline testdata/ports/rust/baseline.yaml -- target/cargo/debug/examples/port
	bin/conform run --format json --out target/cargo/port-report.json -- target/cargo/debug/examples/port >/dev/null 2>&1 || test $$? -eq 1
	python3 testdata/ports/rust/attribute.py target/cargo/port-report.json --check > target/cargo/port-attribution.yaml
	sed -n '1,8p' target/cargo/port-attribution.yaml
# ---- end kit-rust

# The Python adapter kit (adapters/kits/python): fresh venv, ruff, pytest, and
# conform through its example adapter, expecting the Python port's known failures.
kit-python: build
	nice -n 10 adapters/kits/python/check.sh

# ---- kit-node: the TypeScript/Node adapter kit (adapters/kits/node): npm ci,
# tsc over its hand-written types, node --test (the kit's tests, the 810
# reference cases served through the kit, a failing case of a wrong harness in
# node --test's output), then conform through the README's example adapter.
.PHONY: kit-node
kit-node: build
	cd adapters/kits/node && npm ci --no-audit --no-fund
	cd adapters/kits/node && npm run --silent typecheck
	cd adapters/kits/node && CONFORM_BIN=$(CURDIR)/bin/conform nice -n 10 node --test --test-reporter=spec test/
	cd adapters/kits/node && $(CURDIR)/bin/conform run --op retain.items --adapter 'node examples/retain-items.mjs'
# ---- end kit-node
