// Package conform is the DeepSeek Harness tool-result conformance suite.
// Its Go API is small: the case files themselves, embedded, for Go code that
// runs them without the conform CLI; package conformtest runs them against
// an in-process Go harness.
package conform

import "embed"

// Files holds conform's language-neutral case files, as in the repository:
// fixtures/<op>/<name>.json (the case: id, op, requirements, description,
// input) and golden/<op>/<name>.json (the reference's answer: output or
// error). docs/fixtures.md describes both formats and the comparison rules.
//
//go:embed fixtures golden
var Files embed.FS
