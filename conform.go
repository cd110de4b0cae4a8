// Package conform is the DeepSeek Harness tool-result conformance suite.
// Its Go API is small: the case files themselves, embedded, for Go code that
// runs them without the conform CLI; package conformtest runs them against
// an in-process Go harness.
package conform

import "embed"

// Version is conform's version: what `--version`, every report and the
// reference's handshake say. It is a constant, not read from the build info,
// so a binary says the same whether Go stamped it from git (-buildvcs=auto,
// Go's default) or not; the case set's hash tells case sets apart.
const Version = "0.1.0"

// Files holds conform's language-neutral case files, as in the repository:
// fixtures/<op>/<name>.json (the case: id, op, requirements, description,
// input) and golden/<op>/<name>.json (the reference's answer: output or
// error). docs/fixtures.md describes both formats and the comparison rules.
//
//go:embed fixtures golden
var Files embed.FS
