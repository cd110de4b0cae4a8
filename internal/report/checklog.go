package report

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/dsh-conform/conform/internal/logcheck"
	"github.com/dsh-conform/conform/spec"
)

// The reports of `conform check-log`: a logcheck.Summary (see
// logcheck.Run) written as text (WriteCheckLogText), JSON
// (WriteCheckLogJSON), JUnit (WriteCheckLogJUnit) or a markdown
// compliance table (WriteCheckLogMarkdown).

// checkLogLevels are the finding levels, most severe first.
var checkLogLevels = []logcheck.Level{logcheck.Violation, logcheck.Warning, logcheck.Unprovable}

// CheckLogRequirements returns the requirement IDs a check-log run checks,
// the rows of its JUnit and markdown reports: the catalogue's "log" area
// (LOG-*, LOG-CALL-*, LOG-RES-*, LOG-DISP-*, LOG-CHECK-*), plus every
// other ID a finding of s named, in catalogue order (IDs outside the
// catalogue last, sorted).
func CheckLogRequirements(s *logcheck.Summary) []string {
	var ids []string
	reqs, _ := spec.Catalogue() // an unreadable catalogue leaves only the IDs findings name
	for _, q := range reqs {
		if q.Area == "log" {
			ids = append(ids, q.ID)
		}
	}
	known := map[string]bool{}
	for _, id := range ids {
		known[id] = true
	}
	var extra []string
	for id := range s.ByReq {
		if !known[id] {
			extra = append(extra, id)
		}
	}
	if len(extra) == 0 {
		return ids
	}
	order := map[string]int{}
	for i, id := range spec.IDs() {
		order[id] = i
	}
	// The catalogue's IDs in its order, then the others by name.
	rank := func(id string) (int, string) {
		if i, ok := order[id]; ok {
			return i, ""
		}
		return len(order), id
	}
	all := append(ids, extra...)
	slices.SortFunc(all, func(a, b string) int {
		ra, sa := rank(a)
		rb, sb := rank(b)
		return cmp.Or(cmp.Compare(ra, rb), strings.Compare(sa, sb))
	})
	return all
}

// CheckLogArea is the JUnit classname of a requirement: its catalogue
// area, "log" for an ID outside the catalogue.
func CheckLogArea(id string) string {
	if q, ok := spec.Lookup(id); ok {
		return q.Area // never "": spec's tests hold every area to spec.Areas
	}
	return "log"
}

// checkLogFindingLine is "file:line: level REQ-ID message", with the
// accepting baseline entry's reason (and issue) when there is one.
func checkLogFindingLine(f *logcheck.RunFinding) string {
	s := fmt.Sprintf("%s: %s %s %s", checkLogLocation(f), f.Level, line(f.Requirement), line(f.Message))
	if f.Baseline != nil {
		s += " [baselined: " + line(f.Baseline.Reason)
		if f.Baseline.Issue != "" {
			s += " (" + line(f.Baseline.Issue) + ")"
		}
		s += "]"
	}
	return s
}

// checkLogLocation is file:line, or file for a finding about the whole
// file.
func checkLogLocation(f *logcheck.RunFinding) string {
	return line(locationOf(f))
}

// checkLogCountList is "k1 n1, k2 n2" in key order, or "none".
func checkLogCountList(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", line(k), m[k]) // event types are the log's
	}
	return strings.Join(parts, ", ")
}

// byteSize renders a byte count for people: "512 bytes", "59.1 KiB".
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// CheckLogProblems says why a check-log run failed beyond its findings,
// one line each: the stale baseline entries, the logs that could not be
// read, then an interruption. A command prints them on stderr when its report goes to a file
// or is not meant for people.
func CheckLogProblems(s *logcheck.Summary) []string {
	var out []string
	for _, e := range s.Stale {
		out = append(out, fmt.Sprintf("stale baseline entry %s matches no finding", line(e.String())))
	}
	for _, f := range s.Files {
		if f.Err != nil {
			out = append(out, fmt.Sprintf("%s: %s", line(f.Name), line(f.Err.Error())))
		}
	}
	if s.Interrupted {
		out = append(out, "interrupted: the report is partial: "+checkLogPartial(s))
	}
	return out
}
