// Package baseline reads and applies conform baselines: YAML lists of
// known, accepted nonconformances, each with a reason.
//
// One file format serves both consumers:
//
//	# baseline.yaml
//	- requirement: LOG-CHECK-SEARCH-5      # a requirement ID (spec catalogue)
//	  file: "logs/**/*.jsonl"               # optional glob over checked file names
//	  reason: our post-tool hook rewrites grep output
//	  issue: HARNESS-123                    # optional tracker reference
//	- id: grep-capped-07                   # a runner case id
//	  reason: upstream bug, fixed in 2.4
//
// Every entry has a reason and at least one of requirement and id. An
// entry with an id is a case entry (the adapter runner applies it); an
// entry without one is a finding entry (check-log applies it). file only
// makes sense for finding entries.
//
// Semantics, shared vocabulary:
//
//   - check-log (Matcher from Findings): a finding whose requirement (and
//     file, when the entry has a glob) matches an entry is baselined and
//     does not fail the run; an entry that matched no finding is stale
//     (Matcher.Stale) and fails the run.
//   - runner (Matcher from Cases, then Matcher.Case): a listed failing case
//     is an expected failure (XFail), a listed passing case is an
//     unexpected pass (XPass) and fails the run.
//   - either: an entry naming an unknown requirement or an unknown case
//     is an error (Baseline.Validate), which callers treat as a usage
//     error.
package baseline

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dsh-conform/conform/internal/regfile"
)

// MaxFileBytes bounds a baseline file: 1 MiB holds some ten thousand
// entries (a baseline of every embedded case is about 70 KiB); a bigger
// file is refused before it is parsed, so memory stays bounded.
const MaxFileBytes = regfile.MiB

// MaxErrors is how many problems Parse and Validate report; the rest are
// counted in one last line, so a broken huge file cannot flood stderr.
const MaxErrors = 20

// joinErrors is errors.Join of the first MaxErrors errors, then a count of
// the rest.
func joinErrors(errs []error) error {
	if n := len(errs) - MaxErrors; n > 0 {
		errs = append(errs[:MaxErrors:MaxErrors], fmt.Errorf("… and %d more problems (the first %d are listed)", n, MaxErrors))
	}
	return errors.Join(errs...)
}

// Entry is one baseline entry.
type Entry struct {
	Requirement string `yaml:"requirement,omitempty" json:"requirement,omitempty"`
	File        string `yaml:"file,omitempty" json:"file,omitempty"`
	ID          string `yaml:"id,omitempty" json:"id,omitempty"`
	Reason      string `yaml:"reason" json:"reason"`
	Issue       string `yaml:"issue,omitempty" json:"issue,omitempty"`
	// Pos is where the entry starts in its file (set by Parse).
	Pos Pos `yaml:"-" json:"-"`

	glob *regexp.Regexp // compiled File, nil when File is empty
}

// Pos is a position in a baseline file.
type Pos struct {
	File string
	Line int
}

func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// IsCase reports whether the entry names a runner case (has an id).
func (e *Entry) IsCase() bool { return e.ID != "" }

// String describes the entry for messages: its position and its keys,
// e.g. `baseline.yaml:4 {requirement: LOG-CHECK-2, file: "a/*.jsonl"}`.
func (e *Entry) String() string {
	var keys []string
	if e.Requirement != "" {
		keys = append(keys, "requirement: "+e.Requirement)
	}
	if e.ID != "" {
		keys = append(keys, "id: "+e.ID)
	}
	if e.File != "" {
		keys = append(keys, fmt.Sprintf("file: %q", e.File))
	}
	return fmt.Sprintf("%s {%s}", e.Pos, strings.Join(keys, ", "))
}

// Baseline is a parsed baseline file.
type Baseline struct {
	Source  string   // the file name given to Parse or Load
	Entries []*Entry // in file order
}

// Load reads and parses a baseline file: a regular file of at most
// MaxFileBytes. Errors name the file and, for YAML and structural problems,
// the line.
func Load(path string) (*Baseline, error) {
	data, err := regfile.ReadFile(path, MaxFileBytes, "")
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	return Parse(path, data)
}

// Known tells Validate which names exist.
type Known struct {
	// Requirement reports whether a requirement ID is in the catalogue;
	// required (e.g. func(id string) bool { _, ok := spec.Lookup(id); return ok }).
	Requirement func(id string) bool
	// Case reports whether a runner case id exists. Nil means no case
	// catalogue is at hand (check-log): case ids are then not checked.
	Case func(id string) bool
}

// Validate checks every entry's names against the catalogues and returns
// the problems at once (the first MaxErrors), each as "file:line: …".
func (b *Baseline) Validate(k Known) error {
	if k.Requirement == nil {
		return errors.New("baseline: Validate needs Known.Requirement")
	}
	var errs []error
	for _, e := range b.Entries {
		if e.Requirement != "" && !k.Requirement(e.Requirement) {
			errs = append(errs, fmt.Errorf("%s: unknown requirement %q", e.Pos, e.Requirement))
		}
		if e.ID != "" && k.Case != nil && !k.Case(e.ID) {
			errs = append(errs, fmt.Errorf("%s: unknown case id %q", e.Pos, e.ID))
		}
	}
	return joinErrors(errs)
}

// Findings returns a matcher over the finding entries (those without an
// id), for check-log.
func (b *Baseline) Findings() *Matcher { return b.matcher(false) }

// Cases returns a matcher over the case entries (those with an id), for
// the adapter runner.
func (b *Baseline) Cases() *Matcher { return b.matcher(true) }

func (b *Baseline) matcher(cases bool) *Matcher {
	m := &Matcher{hits: map[*Entry]int{}}
	if b == nil {
		return m
	}
	for _, e := range b.Entries {
		if e.IsCase() == cases {
			m.entries = append(m.entries, e)
		}
	}
	return m
}

// Matcher applies a baseline's entries of one kind and remembers which
// were used. A nil-baseline matcher (Baseline(nil).Findings()) matches
// nothing. Not safe for concurrent use.
type Matcher struct {
	entries []*Entry
	hits    map[*Entry]int
}

// Entries returns the entries the matcher applies, in file order.
func (m *Matcher) Entries() []*Entry { return m.entries }

// Finding returns the first entry that baselines a finding of requirement
// in file (nil if none), and records a hit on every entry that matches, so
// that redundant entries are not reported stale.
func (m *Matcher) Finding(requirement, file string) *Entry {
	var first *Entry
	for _, e := range m.entries {
		if e.Requirement != requirement || !e.MatchFile(file) {
			continue
		}
		m.hits[e]++
		if first == nil {
			first = e
		}
	}
	return first
}

// Outcome is a runner case's verdict after the baseline.
type Outcome int

// Outcomes of Matcher.Case.
const (
	Pass  Outcome = iota // passed, not listed
	Fail                 // failed, not listed
	XFail                // failed, listed: expected, does not fail the run
	XPass                // passed, listed: the entry is out of date; fails the run
)

var outcomeNames = [...]string{"pass", "fail", "xfail", "xpass"}

func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// FailsRun reports whether the outcome fails the run (Fail, XPass).
func (o Outcome) FailsRun() bool { return o == Fail || o == XPass }

// Case classifies a runner case. An entry matches when its id is the
// case's id and, if it names a requirement, the case covers that
// requirement. The matching entry (or nil) is returned with the outcome.
func (m *Matcher) Case(id string, requirements []string, failed bool) (Outcome, *Entry) {
	var first *Entry
	for _, e := range m.entries {
		if e.ID != id {
			continue
		}
		if e.Requirement != "" && !contains(requirements, e.Requirement) {
			continue
		}
		m.hits[e]++
		if first == nil {
			first = e
		}
	}
	switch {
	case first == nil && failed:
		return Fail, nil
	case first == nil:
		return Pass, nil
	case failed:
		return XFail, first
	default:
		return XPass, first
	}
}

// Hits returns how many times e matched.
func (m *Matcher) Hits(e *Entry) int { return m.hits[e] }

// Stale returns the entries that matched nothing, in file order. For
// check-log every stale entry fails the run. A runner that ran only a
// subset of the cases should disregard entries for cases it did not run.
func (m *Matcher) Stale() []*Entry {
	var out []*Entry
	for _, e := range m.entries {
		if m.hits[e] == 0 {
			out = append(out, e)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// MatchFile reports whether the entry's file glob matches name (true when
// the entry has no glob). Names and patterns use forward slashes; a leading
// "./" is ignored. In patterns, `*` and `?` stay within one path segment,
// `**` spans segments, `[...]` is a character class. A pattern without a
// slash matches the base name too, so `run-7.jsonl` matches
// `logs/run-7.jsonl`.
func (e *Entry) MatchFile(name string) bool {
	if e.glob == nil {
		return true
	}
	name = cleanSlash(name)
	if e.glob.MatchString(name) {
		return true
	}
	if !strings.Contains(e.File, "/") {
		return e.glob.MatchString(name[strings.LastIndex(name, "/")+1:])
	}
	return false
}

func cleanSlash(p string) string {
	p = filepath.ToSlash(p)
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

// compileGlob turns a file glob into an anchored regexp.
func compileGlob(pattern string) (*regexp.Regexp, error) {
	p := cleanSlash(pattern)
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '*':
			if i+1 < len(p) && p[i+1] == '*' {
				i++
				if i+1 < len(p) && p[i+1] == '/' {
					// "**/" matches zero or more whole segments.
					i++
					b.WriteString(`(?:.*/)?`)
				} else {
					b.WriteString(`.*`)
				}
			} else {
				b.WriteString(`[^/]*`)
			}
		case '?':
			b.WriteString(`[^/]`)
		case '[':
			j := i + 1
			if j < len(p) && (p[j] == '!' || p[j] == '^') {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			for j < len(p) && p[j] != ']' {
				j++
			}
			if j >= len(p) {
				return nil, fmt.Errorf("unterminated [ in glob %q", pattern)
			}
			class := p[i+1 : j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			if class == "" || class == "^" {
				return nil, fmt.Errorf("empty character class in glob %q", pattern)
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i = j
		case '\\':
			if i+1 >= len(p) {
				return nil, fmt.Errorf("trailing backslash in glob %q", pattern)
			}
			i++
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("bad glob %q: %v", pattern, err)
	}
	return re, nil
}
