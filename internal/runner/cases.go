package runner

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/dsh-conform/conform/internal/fixture"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Case is one conformance case: a fixture and its golden answer.
type Case struct {
	ID           string
	Op           string
	Requirements []string
	Description  string
	// Input is the input's exact JSON text (compacted), what the harness is
	// fed; InputValue is the same input parsed with JSON.parse semantics, for
	// the property checks.
	Input      []byte
	InputValue jsonjs.Value
	Want       Want
	File       string // the fixture file, for messages
}

// Want is a case's golden answer: exactly one of Output and Error is set.
type Want struct {
	Output *jsonjs.Value // the op output
	Error  *string       // the message of the error the harness throws
}

// LoadCases reads every fixture under fixtures/ in fsys with its golden
// answer under golden/, sorted by ID. Errors name the offending file.
func LoadCases(fsys fs.FS) ([]Case, error) {
	fixtures, err := fixture.Load(fsys)
	if err != nil {
		return nil, err
	}
	if len(fixtures) == 0 {
		return nil, fmt.Errorf("no fixtures under %s/", fixture.FixtureDir)
	}
	cases := make([]Case, 0, len(fixtures))
	for _, f := range fixtures {
		g, err := fixture.LoadGolden(fsys, f.ID)
		if err != nil {
			_, gp := fixture.Paths(f.ID)
			if strings.Contains(err.Error(), gp) {
				return nil, fmt.Errorf("case %s: %w", f.ID, err)
			}
			return nil, fmt.Errorf("case %s: %s: %w", f.ID, gp, err)
		}
		if g.ID != f.ID || g.Op != f.Op {
			return nil, fmt.Errorf("case %s: %s: id %q and op %q do not match the fixture %s", f.ID, g.File, g.ID, g.Op, f.File)
		}
		reqs := f.Requirements
		if reqs == nil {
			reqs = []string{}
		}
		cases = append(cases, Case{
			ID:           f.ID,
			Op:           f.Op,
			Requirements: reqs,
			Description:  f.Description,
			Input:        f.InputText,
			InputValue:   f.Input,
			Want:         Want{Output: g.Output, Error: g.Error},
			File:         f.File,
		})
	}
	return cases, nil
}

// Selection narrows the cases a run executes. Zero fields select
// everything; set fields must all match.
type Selection struct {
	// Run matches case IDs ("grep.result/gen-001"), unanchored like go test -run.
	Run *regexp.Regexp
	// Op is an op name; several may be given separated by commas.
	Op string
	// Requirement is a requirement ID the case cites; a trailing "*" makes
	// it a prefix ("SEARCH-CAP-*"). Several may be given separated by commas.
	Requirement string
	// IDs, when non-nil, keeps only these case IDs (--rerun-failed); an
	// empty non-nil map selects nothing.
	IDs map[string]bool
	// Shard keeps one slice of the cases the other fields select (--shard).
	Shard Shard
}

// Select returns the cases sel keeps, in their order.
func Select(cases []Case, sel Selection) []Case {
	ops := splitList(sel.Op)
	reqs := splitList(sel.Requirement)
	out := []Case{}
	for _, c := range cases {
		if sel.Run != nil && !sel.Run.MatchString(c.ID) {
			continue
		}
		if len(ops) > 0 && !contains(ops, c.Op) {
			continue
		}
		if len(reqs) > 0 && !citesAny(c.Requirements, reqs) {
			continue
		}
		if sel.IDs != nil && !sel.IDs[c.ID] {
			continue
		}
		out = append(out, c)
	}
	if sel.Shard.N > 1 {
		kept := []Case{}
		for k, c := range out {
			if sel.Shard.Has(k) {
				kept = append(kept, c)
			}
		}
		out = kept
	}
	return out
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// citesAny reports whether any requirement matches any pattern (an exact
// ID, or a prefix ending in "*").
func citesAny(reqs, patterns []string) bool {
	for _, r := range reqs {
		for _, p := range patterns {
			if prefix, ok := strings.CutSuffix(p, "*"); ok {
				if strings.HasPrefix(r, prefix) {
					return true
				}
			} else if r == p {
				return true
			}
		}
	}
	return false
}

// FailedIDs reads an earlier JSON report (format conform-run, version 1) and
// returns the IDs of the cases whose verdict failed the run (fail, error,
// timeout, crash, xpass), for --rerun-failed. The map is non-nil even when
// nothing failed.
func FailedIDs(reportJSON []byte) (map[string]bool, error) {
	v, err := ParseReport(reportJSON)
	if err != nil {
		return nil, fmt.Errorf("earlier report: %w", err)
	}
	cases, _ := v.Get("cases")
	items, ok := cases.Items()
	if !ok {
		return nil, fmt.Errorf("earlier report: \"cases\" must be an array")
	}
	ids := map[string]bool{}
	for i, c := range items {
		idV, _ := c.Get("id")
		verdictV, _ := c.Get("verdict")
		id, _ := idV.Str()
		s, _ := verdictV.Str()
		if id == "" {
			return nil, fmt.Errorf("earlier report: cases[%d] has no id", i)
		}
		if v := verdict.Verdict(s); !v.Valid() {
			return nil, fmt.Errorf("earlier report: case %s: unknown verdict %q", id, s)
		} else if v.FailsRun() {
			ids[id] = true
		}
	}
	return ids, nil
}
