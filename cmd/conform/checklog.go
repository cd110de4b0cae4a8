package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/logcheck"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/spec"
)

// checkLogCmd is `conform check-log [flags] PATH...`: validate upstream
// session logs offline (internal/logcheck) and report the findings.
//
// Exit status: 0 clean; 1 a non-baselined finding at or above --fail-on, or
// a stale baseline entry; 2 usage error (flags, paths, baseline file); 3 a
// log or the output could not be read or written.
type checkLogCmd struct {
	Paths []string `arg:"" name:"path" help:"Session logs: files, directories (walked for *.jsonl, in sorted order), or - for stdin."`

	ToolName           map[string]string `name:"tool-name" mapsep:"none" placeholder:"CANONICAL=LOGGED" help:"Map a canonical tool (grep, glob, run_code) to the name the harness logs it under, e.g. --tool-name grep=rg_search. Repeatable."`
	SearchMetaMaxBytes int               `name:"search-meta-max-bytes" default:"65536" placeholder:"N" help:"The deployment's searchMetaMaxBytes (LOG-CHECK-SEARCH-3; default ${default})."`
	MaxInlineBytes     int               `name:"max-inline-bytes" default:"0" placeholder:"N" help:"The spill policy's maxInlineBytes; 0 = unknown (LOG-CHECK-SEARCH-6 and LOG-CHECK-CODE-8 become unprovable)."`
	GrepMaxMatches     int               `name:"grep-max-matches" default:"0" placeholder:"N" help:"grep's inline match cap; 0 = unknown."`
	GlobMaxResults     int               `name:"glob-max-results" default:"0" placeholder:"N" help:"glob's inline result cap; 0 = unknown."`
	MaxLineBytes       int               `name:"max-line-bytes" default:"67108864" placeholder:"N" help:"Longest line kept in memory (default ${default} = 64 MiB); longer lines are skipped and reported."`

	Format      string `enum:"text,json,junit,markdown" default:"text" help:"Report format: text, json, junit or markdown."`
	Out         string `placeholder:"FILE" help:"Write the report to FILE instead of stdout."`
	FailOn      string `name:"fail-on" enum:"violation,warning" default:"violation" help:"Lowest level that fails the run (violation or warning)."`
	MaxFindings int    `name:"max-findings" default:"0" placeholder:"N" help:"List at most N findings (0 = all); the rest are still counted and fail the run."`
	Baseline    string `placeholder:"FILE" help:"YAML baseline of accepted findings ({requirement, file?, reason, issue?}); entries matching no finding fail the run."`
}

// clStdinName is the file name findings from - carry.
const clStdinName = "<stdin>"

// clCanonicalTools are the tools --tool-name may rename.
var clCanonicalTools = []string{"glob", "grep", "run_code"}

// Validate runs at parse time, so its errors are usage errors (exit 2).
func (c *checkLogCmd) Validate() error {
	for _, n := range []struct {
		flag string
		v    int
		min  int
	}{
		{"--search-meta-max-bytes", c.SearchMetaMaxBytes, 1},
		{"--max-inline-bytes", c.MaxInlineBytes, 0},
		{"--grep-max-matches", c.GrepMaxMatches, 0},
		{"--glob-max-results", c.GlobMaxResults, 0},
		{"--max-line-bytes", c.MaxLineBytes, 1},
		{"--max-findings", c.MaxFindings, 0},
	} {
		if n.v < n.min {
			return fmt.Errorf("%s must be at least %d, got %d", n.flag, n.min, n.v)
		}
	}
	logged := map[string]string{}
	for canon, name := range c.ToolName {
		if !clContains(clCanonicalTools, canon) {
			return fmt.Errorf("--tool-name %s=%s: unknown tool %q (one of %s)", canon, name, canon, strings.Join(clCanonicalTools, ", "))
		}
		if name == "" {
			return fmt.Errorf("--tool-name %s=: empty logged name", canon)
		}
		if other, dup := logged[name]; dup {
			return fmt.Errorf("--tool-name: %s and %s both map to %q", other, canon, name)
		}
		logged[name] = canon
	}
	stdin := 0
	for _, p := range c.Paths {
		if p == "-" {
			if stdin++; stdin > 1 {
				return errors.New("- (stdin) given more than once")
			}
			continue
		}
		if _, err := os.Stat(p); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("path %s: no such file or directory", p)
			}
			return fmt.Errorf("path %s: %v", p, err)
		}
	}
	if c.Baseline != "" {
		if _, err := os.Stat(c.Baseline); err != nil {
			return fmt.Errorf("--baseline %s: %v", c.Baseline, clUnwrapPath(err))
		}
	}
	return nil
}

func clUnwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (c *checkLogCmd) options() logcheck.Options {
	opt := logcheck.Defaults()
	if len(c.ToolName) > 0 {
		opt.ToolNames = make(map[string]string, len(c.ToolName))
		for k, v := range c.ToolName {
			opt.ToolNames[k] = v
		}
	}
	opt.SearchMetaMaxBytes = c.SearchMetaMaxBytes
	opt.MaxInlineBytes = c.MaxInlineBytes
	opt.MaxLineBytes = c.MaxLineBytes
	opt.GrepMaxMatches = c.GrepMaxMatches
	opt.GlobMaxResults = c.GlobMaxResults
	return opt
}

// clUsageError prints a check-log usage error and returns exit status 2.
func clUsageError(format string, args ...any) error {
	fmt.Fprintf(os.Stderr, "conform: check-log: "+format+"\n", args...)
	return status{exitUsage}
}

func (c *checkLogCmd) Run() error {
	var bl *baseline.Baseline
	if c.Baseline != "" {
		var err error
		if bl, err = baseline.Load(c.Baseline); err == nil {
			err = bl.Validate(baseline.Known{Requirement: clKnownRequirement})
		}
		if err != nil {
			return clUsageError("baseline:\n%v", clIndent(err.Error()))
		}
	}
	files, err := clExpandPaths(c.Paths)
	if err != nil {
		return clUsageError("%v", err)
	}
	run := newCLRun(logcheck.Level(c.FailOn), c.MaxFindings, bl)
	opt := c.options()

	progress := report.IsTerminal(os.Stderr)
	start := time.Now()
	for i, name := range files {
		if progress {
			fmt.Fprintf(os.Stderr, "\r\033[Kconform check-log: [%d/%d] %s", i+1, len(files), name)
		}
		run.checkFile(name, opt)
	}
	run.Elapsed = time.Since(start)
	if progress {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
	run.finish()

	var buf bytes.Buffer
	switch c.Format {
	case "json":
		err = run.writeJSON(&buf)
	case "junit":
		err = run.writeJUnit(&buf)
	case "markdown":
		err = run.writeMarkdown(&buf)
	default:
		err = run.writeText(&buf)
	}
	if err != nil {
		return fmt.Errorf("check-log: %w", err)
	}
	if c.Out != "" {
		err = os.WriteFile(c.Out, buf.Bytes(), 0o644)
	} else {
		_, err = os.Stdout.Write(buf.Bytes())
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "conform: check-log: writing the report: %v\n", err)
		return status{exitInfraFailed}
	}
	// Whatever the format, say on stderr why the run failed when the
	// report went elsewhere or is not meant for people.
	if c.Format != "text" || c.Out != "" {
		for _, e := range run.Stale {
			fmt.Fprintf(os.Stderr, "conform: check-log: stale baseline entry %s matches no finding\n", e)
		}
		for _, f := range run.Files {
			if f.Err != nil {
				fmt.Fprintf(os.Stderr, "conform: check-log: %s: %v\n", f.Name, f.Err)
			}
		}
	}
	if code := run.exitCode(); code != exitOK {
		return status{code}
	}
	return nil
}

func clKnownRequirement(id string) bool {
	_, ok := spec.Lookup(id)
	return ok
}

func clIndent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// clExpandPaths turns the PATH arguments into the list of logs to check:
// files as given, directories walked for *.jsonl (sorted), - as stdin.
func clExpandPaths(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if p == "-" {
			out = append(out, "-")
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("path %s: %v", p, clUnwrapPath(err))
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl") {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("walking %s: %v", p, err)
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("directory %s holds no *.jsonl file", p)
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// clLevelRank orders levels by severity; an unknown level ranks as a
// violation so that it can never pass silently.
func clLevelRank(l logcheck.Level) int {
	switch l {
	case logcheck.Unprovable:
		return 1
	case logcheck.Warning:
		return 2
	default:
		return 3
	}
}

var clLevels = []logcheck.Level{logcheck.Violation, logcheck.Warning, logcheck.Unprovable}

// clFinding is a finding with the baseline entry that accepts it.
type clFinding struct {
	logcheck.Finding
	Baseline *baseline.Entry
}

// clTally counts the findings of one requirement.
type clTally struct {
	Open      map[logcheck.Level]int // not baselined
	Baselined int
	Listed    []*clFinding // the listed findings, in order
	First     *clFinding   // first not-baselined finding, else first baselined one
}

func (t *clTally) total() int {
	n := t.Baselined
	for _, v := range t.Open {
		n += v
	}
	return n
}

// clFile is one checked log.
type clFile struct {
	Name     string
	Stats    logcheck.Stats
	Err      error
	Elapsed  time.Duration
	Listed   []*clFinding
	Counts   map[logcheck.Level]int // every finding, baselined or not
	Baseline int                    // baselined findings
	Dropped  int                    // findings not listed (--max-findings)
	ByReq    map[string]*clTally
}

// clRun is the state and result of one check-log run.
type clRun struct {
	FailOn      logcheck.Level
	MaxFindings int
	Base        *baseline.Baseline
	matcher     *baseline.Matcher
	Files       []*clFile
	ByReq       map[string]*clTally
	Listed      int
	Dropped     int
	Stale       []*baseline.Entry
	Elapsed     time.Duration
	// Checked are the requirement IDs a run checks: the catalogue's "log"
	// area (LOG-*, LOG-CALL-*, LOG-RES-*, LOG-DISP-*, LOG-CHECK-*), plus
	// every other ID a finding named, in catalogue order.
	Checked []string
}

func newCLRun(failOn logcheck.Level, maxFindings int, bl *baseline.Baseline) *clRun {
	r := &clRun{FailOn: failOn, MaxFindings: maxFindings, Base: bl, matcher: bl.Findings(), ByReq: map[string]*clTally{}}
	reqs, _ := spec.Catalogue() // an unreadable catalogue leaves only the IDs findings name
	for _, q := range reqs {
		if q.Area == "log" {
			r.Checked = append(r.Checked, q.ID)
		}
	}
	return r
}

// clCountingReader counts the bytes the engine read.
type clCountingReader struct {
	r io.Reader
	n int64
}

func (c *clCountingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// checkFile runs the engine on one log (- is stdin).
func (r *clRun) checkFile(name string, opt logcheck.Options) {
	display := name
	var in io.Reader = os.Stdin
	if name == "-" {
		display = clStdinName
	}
	f := r.addFile(display)
	if name != "-" {
		fh, err := os.Open(name)
		if err != nil {
			f.Err = clUnwrapPath(err)
			return
		}
		defer fh.Close()
		in = fh
	}
	cr := &clCountingReader{r: in}
	start := time.Now()
	st, err := logcheck.Check(cr, display, opt, func(fd logcheck.Finding) { r.add(f, fd) })
	f.Elapsed = time.Since(start)
	f.Stats, f.Err = st, err
	if f.Stats.Bytes == 0 {
		f.Stats.Bytes = cr.n
	}
}

func (r *clRun) addFile(name string) *clFile {
	f := &clFile{Name: name, Counts: map[logcheck.Level]int{}, ByReq: map[string]*clTally{}}
	r.Files = append(r.Files, f)
	return f
}

// add records one finding: baseline, counts, and the listing unless
// --max-findings is reached.
func (r *clRun) add(f *clFile, fd logcheck.Finding) {
	if fd.File == "" {
		fd.File = f.Name
	}
	cf := &clFinding{Finding: fd, Baseline: r.matcher.Finding(fd.Requirement, fd.File)}
	f.Counts[fd.Level]++
	if cf.Baseline != nil {
		f.Baseline++
	}
	listed := r.MaxFindings == 0 || r.Listed < r.MaxFindings
	if listed {
		r.Listed++
		f.Listed = append(f.Listed, cf)
	} else {
		r.Dropped++
		f.Dropped++
	}
	for _, m := range []map[string]*clTally{f.ByReq, r.ByReq} {
		t := m[fd.Requirement]
		if t == nil {
			t = &clTally{Open: map[logcheck.Level]int{}}
			m[fd.Requirement] = t
		}
		if cf.Baseline != nil {
			t.Baselined++
		} else {
			t.Open[fd.Level]++
		}
		if listed {
			t.Listed = append(t.Listed, cf)
		}
		if t.First == nil || (t.First.Baseline != nil && cf.Baseline == nil) {
			t.First = cf
		}
	}
}

// finish computes the stale baseline entries and the requirement list.
func (r *clRun) finish() {
	r.Stale = r.matcher.Stale()
	known := map[string]bool{}
	for _, id := range r.Checked {
		known[id] = true
	}
	var extra []string
	for id := range r.ByReq {
		if !known[id] {
			extra = append(extra, id)
		}
	}
	if len(extra) == 0 {
		return
	}
	order := map[string]int{}
	for i, id := range spec.IDs() {
		order[id] = i
	}
	all := append(r.Checked, extra...)
	sort.SliceStable(all, func(i, j int) bool {
		oi, iok := order[all[i]]
		oj, jok := order[all[j]]
		switch {
		case iok && jok:
			return oi < oj
		case iok != jok:
			return iok
		default:
			return all[i] < all[j]
		}
	})
	r.Checked = all
}

// failing counts the findings that fail the run: not baselined, at or
// above --fail-on.
func (r *clRun) failing() int {
	n := 0
	for _, t := range r.ByReq {
		n += t.failing(r.FailOn)
	}
	return n
}

func (t *clTally) failing(failOn logcheck.Level) int {
	n := 0
	for l, v := range t.Open {
		if clLevelRank(l) >= clLevelRank(failOn) {
			n += v
		}
	}
	return n
}

func (r *clRun) errors() int {
	n := 0
	for _, f := range r.Files {
		if f.Err != nil {
			n++
		}
	}
	return n
}

// exitCode: 3 if a log could not be read, else 1 on a failing finding or a
// stale baseline entry, else 0.
func (r *clRun) exitCode() int {
	switch {
	case r.errors() > 0:
		return exitInfraFailed
	case r.failing() > 0 || len(r.Stale) > 0:
		return exitNonconform
	}
	return exitOK
}

func (r *clRun) result() string {
	switch r.exitCode() {
	case exitInfraFailed:
		return "error"
	case exitNonconform:
		return "fail"
	}
	return "pass"
}

// totals sums the per-file statistics.
func (r *clRun) totals() (st logcheck.Stats, counts map[logcheck.Level]int, baselined int) {
	st.UnknownTypes, st.ResultsChecked = map[string]int{}, map[string]int{}
	counts = map[logcheck.Level]int{}
	for _, f := range r.Files {
		st.Lines += f.Stats.Lines
		st.Events += f.Stats.Events
		st.MalformedLines += f.Stats.MalformedLines
		st.Bytes += f.Stats.Bytes
		for k, v := range f.Stats.UnknownTypes {
			st.UnknownTypes[k] += v
		}
		for k, v := range f.Stats.ResultsChecked {
			st.ResultsChecked[k] += v
		}
		for k, v := range f.Counts {
			counts[k] += v
		}
		baselined += f.Baseline
	}
	return st, counts, baselined
}

// ---- text ----------------------------------------------------------------

func clFindingLine(f *clFinding) string {
	loc := f.File
	if f.Line > 0 {
		loc = fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	s := fmt.Sprintf("%s: %s %s %s", loc, f.Level, f.Requirement, f.Message)
	if f.Baseline != nil {
		s += " [baselined: " + f.Baseline.Reason
		if f.Baseline.Issue != "" {
			s += " (" + f.Baseline.Issue + ")"
		}
		s += "]"
	}
	return s
}

func (r *clRun) writeText(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Files {
		if len(f.Listed) == 0 && f.Err == nil && f.Dropped == 0 {
			continue
		}
		for _, fd := range f.Listed {
			b.WriteString(clFindingLine(fd) + "\n")
		}
		if f.Dropped > 0 {
			fmt.Fprintf(&b, "%s: %d more findings not listed (--max-findings %d)\n", f.Name, f.Dropped, r.MaxFindings)
		}
		if f.Err != nil {
			fmt.Fprintf(&b, "%s: error: %v\n", f.Name, f.Err)
		}
		b.WriteString("\n")
	}
	for _, e := range r.Stale {
		fmt.Fprintf(&b, "stale baseline entry %s matches no finding (reason: %s)\n", e, e.Reason)
	}
	if len(r.Stale) > 0 {
		b.WriteString("\n")
	}
	st, counts, baselined := r.totals()
	fmt.Fprintf(&b, "checked %s: %d lines, %d events, %s\n", clPlural(len(r.Files), "file"), st.Lines, st.Events, clByteSize(st.Bytes))
	fmt.Fprintf(&b, "tool results checked: %s\n", clCountList(st.ResultsChecked))
	fmt.Fprintf(&b, "findings: %s, %s, %d unprovable", clPlural(counts[logcheck.Violation], "violation"), clPlural(counts[logcheck.Warning], "warning"), counts[logcheck.Unprovable])
	if r.Base != nil {
		fmt.Fprintf(&b, "; %d baselined, %s", baselined, clPlural(len(r.Stale), "stale baseline entry"))
	}
	if r.Dropped > 0 {
		fmt.Fprintf(&b, "; %d not listed (--max-findings %d)", r.Dropped, r.MaxFindings)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "unknown event types: %s\n", clCountList(st.UnknownTypes))
	fmt.Fprintf(&b, "malformed lines: %d\n", st.MalformedLines)
	secs := r.Elapsed.Seconds()
	rate := 0.0
	if secs > 0 {
		rate = float64(st.Bytes) / 1e6 / secs
	}
	fmt.Fprintf(&b, "elapsed: %.3fs (%.1f MB/s)\n", secs, rate)
	switch r.result() {
	case "pass":
		fmt.Fprintf(&b, "result: PASS (no %s at or above %s)\n", "finding", r.FailOn)
	case "fail":
		fmt.Fprintf(&b, "result: FAIL (%s at or above %s", clPlural(r.failing(), "finding"), r.FailOn)
		if len(r.Stale) > 0 {
			fmt.Fprintf(&b, ", %s", clPlural(len(r.Stale), "stale baseline entry"))
		}
		b.WriteString(")\n")
	default:
		fmt.Fprintf(&b, "result: ERROR (%s could not be read)\n", clPlural(r.errors(), "log"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func clPlural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "entry") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func clCountList(m map[string]int) string {
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
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func clByteSize(n int64) string {
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

// ---- json ----------------------------------------------------------------

// The JSON report, version 1; its schema is
// internal/report/schemas/check-log-report.json.
type clJSONReport struct {
	Format      string          `json:"format"`
	Version     int             `json:"version"`
	FailOn      string          `json:"failOn"`
	MaxFindings int             `json:"maxFindings"`
	Files       []clJSONFile    `json:"files"`
	Totals      clJSONTotals    `json:"totals"`
	Baseline    *clJSONBaseline `json:"baseline,omitempty"`
}

type clJSONFile struct {
	File           string          `json:"file"`
	Stats          clJSONStats     `json:"stats"`
	Findings       []clJSONFinding `json:"findings"`
	Dropped        int             `json:"dropped"`
	ElapsedSeconds float64         `json:"elapsedSeconds"`
	Error          string          `json:"error,omitempty"`
}

type clJSONStats struct {
	Lines          int               `json:"lines"`
	Events         int               `json:"events"`
	MalformedLines int               `json:"malformedLines"`
	UnknownTypes   map[string]int    `json:"unknownTypes"`
	ResultsChecked map[string]int    `json:"resultsChecked"`
	Findings       clJSONLevelCounts `json:"findings"`
	Baselined      int               `json:"baselined"`
	Bytes          int64             `json:"bytes"`
}

type clJSONLevelCounts struct {
	Violation  int `json:"violation"`
	Warning    int `json:"warning"`
	Unprovable int `json:"unprovable"`
}

type clJSONFinding struct {
	logcheck.Finding
	Baseline *clJSONBaselineEntry `json:"baseline,omitempty"`
}

type clJSONBaselineEntry struct {
	Source      string `json:"source"` // file:line of the entry
	Requirement string `json:"requirement,omitempty"`
	File        string `json:"file,omitempty"`
	ID          string `json:"id,omitempty"`
	Reason      string `json:"reason"`
	Issue       string `json:"issue,omitempty"`
}

type clJSONTotals struct {
	Files          int               `json:"files"`
	Lines          int               `json:"lines"`
	Events         int               `json:"events"`
	MalformedLines int               `json:"malformedLines"`
	UnknownTypes   map[string]int    `json:"unknownTypes"`
	ResultsChecked map[string]int    `json:"resultsChecked"`
	Findings       clJSONLevelCounts `json:"findings"`
	Baselined      int               `json:"baselined"`
	Failing        int               `json:"failing"`
	Listed         int               `json:"listed"`
	Dropped        int               `json:"dropped"`
	Errors         int               `json:"errors"`
	Bytes          int64             `json:"bytes"`
	ElapsedSeconds float64           `json:"elapsedSeconds"`
	Result         string            `json:"result"` // pass, fail or error
}

type clJSONBaseline struct {
	File    string                `json:"file"`
	Entries int                   `json:"entries"` // entries check-log applies (no id)
	Stale   []clJSONBaselineEntry `json:"stale"`
}

func clJSONLevels(m map[logcheck.Level]int) clJSONLevelCounts {
	return clJSONLevelCounts{Violation: m[logcheck.Violation], Warning: m[logcheck.Warning], Unprovable: m[logcheck.Unprovable]}
}

func clJSONEntry(e *baseline.Entry) *clJSONBaselineEntry {
	if e == nil {
		return nil
	}
	return &clJSONBaselineEntry{Source: e.Pos.String(), Requirement: e.Requirement, File: e.File, ID: e.ID, Reason: e.Reason, Issue: e.Issue}
}

func clNonNil(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}

func (r *clRun) jsonDoc() clJSONReport {
	rep := clJSONReport{Format: "conform-check-log", Version: 1, FailOn: string(r.FailOn), MaxFindings: r.MaxFindings, Files: []clJSONFile{}}
	for _, f := range r.Files {
		jf := clJSONFile{
			File: f.Name,
			Stats: clJSONStats{
				Lines: f.Stats.Lines, Events: f.Stats.Events, MalformedLines: f.Stats.MalformedLines,
				UnknownTypes: clNonNil(f.Stats.UnknownTypes), ResultsChecked: clNonNil(f.Stats.ResultsChecked),
				Findings: clJSONLevels(f.Counts), Baselined: f.Baseline, Bytes: f.Stats.Bytes,
			},
			Findings:       make([]clJSONFinding, 0, len(f.Listed)),
			Dropped:        f.Dropped,
			ElapsedSeconds: f.Elapsed.Seconds(),
		}
		if f.Err != nil {
			jf.Error = f.Err.Error()
		}
		for _, fd := range f.Listed {
			jf.Findings = append(jf.Findings, clJSONFinding{Finding: fd.Finding, Baseline: clJSONEntry(fd.Baseline)})
		}
		rep.Files = append(rep.Files, jf)
	}
	st, counts, baselined := r.totals()
	rep.Totals = clJSONTotals{
		Files: len(r.Files), Lines: st.Lines, Events: st.Events, MalformedLines: st.MalformedLines,
		UnknownTypes: st.UnknownTypes, ResultsChecked: st.ResultsChecked,
		Findings: clJSONLevels(counts), Baselined: baselined, Failing: r.failing(),
		Listed: r.Listed, Dropped: r.Dropped, Errors: r.errors(), Bytes: st.Bytes,
		ElapsedSeconds: r.Elapsed.Seconds(), Result: r.result(),
	}
	if r.Base != nil {
		jb := &clJSONBaseline{File: r.Base.Source, Entries: len(r.matcher.Entries()), Stale: []clJSONBaselineEntry{}}
		for _, e := range r.Stale {
			jb.Stale = append(jb.Stale, *clJSONEntry(e))
		}
		rep.Baseline = jb
	}
	return rep
}

func (r *clRun) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r.jsonDoc())
}

// ---- junit ---------------------------------------------------------------

// clArea is the JUnit classname of a requirement.
func clArea(id string) string {
	if q, ok := spec.Lookup(id); ok && q.Area != "" {
		return q.Area
	}
	return "log"
}

func clFindingsText(t *clTally) string {
	var b strings.Builder
	for _, fd := range t.Listed {
		b.WriteString(clFindingLine(fd) + "\n")
	}
	if n := t.total() - len(t.Listed); n > 0 {
		fmt.Fprintf(&b, "(+%d more not listed: --max-findings)\n", n)
	}
	return b.String()
}

func clLevelSummary(m map[logcheck.Level]int) string {
	var parts []string
	for _, l := range clLevels {
		switch {
		case m[l] == 0:
		case l == logcheck.Unprovable:
			parts = append(parts, fmt.Sprintf("%d unprovable", m[l]))
		default:
			parts = append(parts, clPlural(m[l], string(l)))
		}
	}
	return strings.Join(parts, ", ")
}

func (r *clRun) junit() *report.TestSuites {
	root := &report.TestSuites{Name: "conform check-log", Time: report.Seconds(r.Elapsed.Seconds())}
	for _, f := range r.Files {
		s := report.TestSuite{Name: f.Name, Time: report.Seconds(f.Elapsed.Seconds())}
		if f.Err != nil {
			s.Cases = append(s.Cases, report.TestCase{Name: "read", Classname: "log", Error: &report.Outcome{Message: f.Err.Error(), Type: "error"}})
		}
		for _, id := range r.Checked { // finish added every ID a finding named
			tc := report.TestCase{Name: id, Classname: clArea(id)}
			t := f.ByReq[id]
			switch {
			case t == nil:
			case t.failing(r.FailOn) > 0:
				tc.Failure = &report.Outcome{Message: clLevelSummary(t.Open), Type: string(clWorst(t.Open)), Text: clFindingsText(t)}
			case t.Open[logcheck.Unprovable] > 0 && len(t.Open) == 1:
				msg := "unprovable"
				if t.First != nil {
					msg = "unprovable: " + t.First.Message
				}
				tc.Skipped = &report.Outcome{Message: msg, Text: clFindingsText(t)}
			default: // warnings below --fail-on, unprovable, baselined
				tc.SystemOut = clFindingsText(t)
			}
			s.Cases = append(s.Cases, tc)
		}
		root.Suites = append(root.Suites, s)
	}
	if r.Base != nil {
		s := report.TestSuite{Name: "baseline " + r.Base.Source}
		for _, e := range r.matcher.Entries() {
			tc := report.TestCase{Name: e.String(), Classname: "baseline"}
			if n := r.matcher.Hits(e); n == 0 {
				tc.Failure = &report.Outcome{Message: "stale baseline entry: matches no finding", Type: "stale", Text: "reason: " + e.Reason + "\n"}
			} else {
				tc.SystemOut = fmt.Sprintf("accepts %s: %s\n", clPlural(n, "finding"), e.Reason)
			}
			s.Cases = append(s.Cases, tc)
		}
		root.Suites = append(root.Suites, s)
	}
	return root
}

func clWorst(m map[logcheck.Level]int) logcheck.Level {
	for _, l := range clLevels {
		if m[l] > 0 {
			return l
		}
	}
	return ""
}

func (r *clRun) writeJUnit(w io.Writer) error { return r.junit().Write(w) }

// ---- markdown ------------------------------------------------------------

func (r *clRun) writeMarkdown(w io.Writer) error {
	var b strings.Builder
	st, counts, baselined := r.totals()
	b.WriteString("### conform check-log\n\n")
	verdict := map[string]string{"pass": "✅ **PASS**", "fail": "❌ **FAIL**", "error": "💥 **ERROR**"}[r.result()]
	fmt.Fprintf(&b, "%s — %s, %d events, %s; %s, %s, %d unprovable", verdict, clPlural(len(r.Files), "log"), st.Events, clByteSize(st.Bytes),
		clPlural(counts[logcheck.Violation], "violation"), clPlural(counts[logcheck.Warning], "warning"), counts[logcheck.Unprovable])
	if r.Base != nil {
		fmt.Fprintf(&b, "; %d baselined", baselined)
	}
	fmt.Fprintf(&b, " (fail on: %s)\n\n", r.FailOn)
	t := report.Table{
		Header: []string{"Requirement", "Status", "Violations", "Warnings", "Unprovable", "Baselined", "First example"},
		Align:  []report.Align{report.AlignLeft, report.AlignCenter, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignLeft},
	}
	for _, id := range r.Checked {
		tl := r.ByReq[id]
		if tl == nil {
			tl = &clTally{Open: map[logcheck.Level]int{}}
		}
		status := "✅ pass"
		switch {
		case tl.failing(r.FailOn) > 0:
			status = "❌ fail"
		case tl.Open[logcheck.Warning] > 0:
			status = "⚠️ warning"
		case tl.Open[logcheck.Unprovable] > 0:
			status = "❔ unprovable"
		case tl.Baselined > 0:
			status = "🔕 baselined"
		}
		example := ""
		if fd := tl.First; fd != nil {
			loc := fd.File
			if fd.Line > 0 {
				loc = fmt.Sprintf("%s:%d", fd.File, fd.Line)
			}
			// The message is text: escape what GitHub would take for HTML.
			example = "`" + strings.ReplaceAll(loc, "`", "'") + "` " + clHTMLEscaper.Replace(clTruncate(fd.Message, 160))
			if fd.Baseline != nil {
				example += " (baselined)"
			}
		}
		t.Rows = append(t.Rows, []string{"`" + id + "`", status,
			fmt.Sprint(tl.Open[logcheck.Violation]), fmt.Sprint(tl.Open[logcheck.Warning]), fmt.Sprint(tl.Open[logcheck.Unprovable]),
			fmt.Sprint(tl.Baselined), example})
	}
	if err := t.Write(&b); err != nil {
		return err
	}
	var notes []string
	for _, e := range r.Stale {
		notes = append(notes, fmt.Sprintf("stale baseline entry `%s` matches no finding (reason: %s)", e, e.Reason))
	}
	for _, f := range r.Files {
		if f.Err != nil {
			notes = append(notes, fmt.Sprintf("`%s` could not be read: %v", f.Name, f.Err))
		}
	}
	if r.Dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d findings not listed (--max-findings %d); they are counted above", r.Dropped, r.MaxFindings))
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString("- " + strings.ReplaceAll(n, "\n", " ") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// clHTMLEscaper keeps GitHub from reading a message's <...> as HTML.
var clHTMLEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func clTruncate(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n]) + "…"
}

func clContains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
