# The two commands a fresh machine needs are `make run` and `make test`.
GO ?= go

.PHONY: run test vet fmt bench build fixtures fixtures-check coverage

# conform's main job: check the embedded reference (until the adapter runner
# lands, against the digest's worked examples and the JSON Schemas).
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
