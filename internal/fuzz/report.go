package fuzz

import (
	"strconv"

	"github.com/dsh-conform/conform/internal/report"
)

// A campaign's report is report.Fuzz, the model its writers (text, JSON,
// JUnit, Markdown) read in internal/report; these names keep the
// campaign's own vocabulary.
type (
	Report     = report.Fuzz
	Shard      = report.FuzzShard
	OpStats    = report.FuzzOpStats
	CaseRef    = report.FuzzCaseRef
	Finding    = report.FuzzFinding
	ShrinkInfo = report.FuzzShrink
)

// ReportFormat and ReportVersion identify the JSON report.
const (
	ReportFormat  = report.FuzzFormat
	ReportVersion = report.FuzzVersion
)

// Plural is "1 finding" or "n findings".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// ShellJoin quotes argv for a POSIX shell: words made only of safe
// characters stay bare, others are single-quoted.
func ShellJoin(argv []string) string { return report.QuoteArgv(argv) }

// ShellQuote quotes one word for a POSIX shell.
func ShellQuote(s string) string { return report.ShellQuote(s) }
