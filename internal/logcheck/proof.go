package logcheck

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// ruleLogs are the rule fixtures: small logs that each break one rule, and
// valid ones (valid-*.jsonl) that each show a log a rule allows. The test
// suite pins every finding each of them gives.
//
//go:embed testdata/rules/*.jsonl
var ruleLogs embed.FS

// acceptance names, for rules that allow something rather than forbid it,
// the valid fixtures that prove the checker accepts it.
var acceptance = map[string][]string{
	"LOG-7":      {"valid-member-order.jsonl"},       // member order is not normative
	"LOG-DISP-1": {"valid-base.jsonl"},               // dispatch payloads with JSON-value arguments
	"LOG-DISP-2": {"valid-legacy-settle-only.jsonl"}, // settles without starts
	"LOG-RES-3":  {"valid-pruned-replacement.jsonl"},
	"LOG-RES-4":  {"valid-crash-closers.jsonl"},
	"LOG-RES-5":  {"valid-legacy-result.jsonl"},
}

// Proof maps each requirement the checker proves to the rule fixtures that
// prove it: a fixture whose finding names the requirement, or a valid
// fixture listed as its acceptance case (which must give no finding). The
// coverage table counts these as session-log test cases.
func Proof() (map[string][]string, error) {
	names, err := fs.Glob(ruleLogs, "testdata/rules/*.jsonl")
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	clean := map[string]bool{}
	for _, p := range names {
		data, err := ruleLogs.ReadFile(p)
		if err != nil {
			return nil, err
		}
		name := path.Base(p)
		seen := map[string]bool{}
		findings := 0
		if _, err := Check(bytes.NewReader(data), name, Defaults(), func(f Finding) {
			findings++
			if !seen[f.Requirement] {
				seen[f.Requirement] = true
				out[f.Requirement] = append(out[f.Requirement], "log-check "+name)
			}
		}); err != nil {
			return nil, err
		}
		clean[name] = findings == 0 && strings.HasPrefix(name, "valid-")
	}
	for req, files := range acceptance {
		for _, f := range files {
			if !clean[f] {
				return nil, fmt.Errorf("logcheck: acceptance fixture %s for %s is missing or gives findings", f, req)
			}
			out[req] = append(out[req], "log-check "+f)
		}
	}
	for _, v := range out {
		sort.Strings(v)
	}
	return out, nil
}
