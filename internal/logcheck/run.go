package logcheck

import (
	"context"
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
)

// StdinName is the file name of the log read from - (stdin): the name its
// findings carry and the reports show.
const StdinName = "<stdin>"

// The results of a run (Summary.Result).
const (
	ResultPass  = "pass"  // no failing finding, no stale baseline entry
	ResultFail  = "fail"  // a failing finding or a stale baseline entry
	ResultError = "error" // a log could not be read
	// ResultInterrupted: a signal or the context ended the run; the
	// summary holds the logs checked so far (the report is partial).
	ResultInterrupted = "interrupted"
)

// RunOptions configure Run.
type RunOptions struct {
	// Options configure the engine (Check) for every log.
	Options Options
	// FailOn is the lowest level that fails the run ("" is Violation).
	FailOn Level
	// MaxFindings caps the findings listed (0 = all); the rest are still
	// counted, in Summary.Dropped and FileResult.Dropped.
	MaxFindings int
	// Baseline holds the accepted findings; its finding entries (those
	// without an id) are applied and the ones matching nothing are stale.
	// nil is an empty baseline.
	Baseline *baseline.Baseline
	// Stdin is what - reads (nil: os.Stdin).
	Stdin io.Reader
	// Progress, when set, is called before the n-th (1-based) of total logs
	// is checked, with the path as given (- for stdin).
	Progress func(n, total int, path string)
	// Listed, when set, receives every listed finding as it is found, and
	// the summary keeps none (FileResult.Listed and Tally.Listed stay
	// empty): a report that streams holds nothing per finding.
	Listed func(*RunFinding)
	// Done, when set, is called once each log is checked.
	Done func(*FileResult)
}

// RunFinding is a finding with the baseline entry that accepts it (nil if
// none).
type RunFinding struct {
	Finding
	Baseline *baseline.Entry
}

// Tally counts the findings of one requirement, in one log or in the run.
type Tally struct {
	Open      map[Level]int // not baselined, per level
	Baselined int
	Listed    []*RunFinding // the listed findings, in order
	First     *RunFinding   // first not-baselined finding, else first baselined one
}

func newTally() *Tally { return &Tally{Open: map[Level]int{}} }

// Total counts every finding, listed or not, baselined or not.
func (t *Tally) Total() int {
	n := t.Baselined
	for _, v := range t.Open {
		n += v
	}
	return n
}

// Failing counts the findings that fail the run: not baselined, at or
// above failOn.
func (t *Tally) Failing(failOn Level) int {
	n := 0
	for l, v := range t.Open {
		if levelRank(l) >= levelRank(failOn) {
			n += v
		}
	}
	return n
}

// levelRank orders levels by severity; an unknown level ranks as a
// violation so that it can never pass silently.
func levelRank(l Level) int {
	switch l {
	case Unprovable:
		return 1
	case Warning:
		return 2
	default:
		return 3
	}
}

// FileResult is one checked log.
type FileResult struct {
	Name     string // as the findings name it (StdinName for -)
	Stats    Stats
	Err      error // the log could not be read (to the end)
	Elapsed  time.Duration
	Listed   []*RunFinding
	Counts   map[Level]int // every finding, baselined or not
	Baseline int           // baselined findings
	Dropped  int           // findings not listed (MaxFindings)
	Shown    int           // findings listed (len(Listed) unless streamed)
	Partial  bool          // the run was interrupted while this log was read
	ByReq    map[string]*Tally
}

// Summary is the result of a run: per-log results and the run's tallies.
type Summary struct {
	FailOn      Level
	MaxFindings int
	Baseline    *baseline.Baseline // nil without one
	Matcher     *baseline.Matcher  // Baseline's finding entries, with their hits
	Files       []*FileResult
	ByReq       map[string]*Tally // over every log
	Listed      int
	Dropped     int
	Stale       []*baseline.Entry // set by Finish
	Elapsed     time.Duration
	// Interrupted: the run ended early (a signal); Files are the logs
	// checked so far, and the report is partial.
	Interrupted bool
	// Total is how many logs the run was to check.
	Total int

	listed func(*RunFinding) // RunOptions.Listed
}

// NewSummary starts an empty summary; Run fills it. failOn "" is
// Violation.
func NewSummary(failOn Level, maxFindings int, bl *baseline.Baseline) *Summary {
	if failOn == "" {
		failOn = Violation
	}
	return &Summary{FailOn: failOn, MaxFindings: maxFindings, Baseline: bl, Matcher: bl.Findings(), ByReq: map[string]*Tally{}}
}

// AddFile appends the result of a log named name.
func (s *Summary) AddFile(name string) *FileResult {
	f := &FileResult{Name: name, Counts: map[Level]int{}, ByReq: map[string]*Tally{}}
	s.Files = append(s.Files, f)
	return f
}

// Add records a finding of f: baseline, counts, and the listing unless
// MaxFindings is reached. A finding without a file gets f's name.
func (s *Summary) Add(f *FileResult, fd Finding) {
	if fd.File == "" {
		fd.File = f.Name
	}
	rf := &RunFinding{Finding: fd, Baseline: s.Matcher.Finding(fd.Requirement, fd.File)}
	f.Counts[fd.Level]++
	if rf.Baseline != nil {
		f.Baseline++
	}
	listed := s.MaxFindings == 0 || s.Listed < s.MaxFindings
	keep := listed && s.listed == nil
	if listed {
		s.Listed++
		f.Shown++
		if keep {
			f.Listed = append(f.Listed, rf)
		} else {
			s.listed(rf)
		}
	} else {
		s.Dropped++
		f.Dropped++
	}
	for _, m := range []map[string]*Tally{f.ByReq, s.ByReq} {
		t := m[fd.Requirement]
		if t == nil {
			t = newTally()
			m[fd.Requirement] = t
		}
		if rf.Baseline != nil {
			t.Baselined++
		} else {
			t.Open[fd.Level]++
		}
		if keep {
			t.Listed = append(t.Listed, rf)
		}
		if t.First == nil || (t.First.Baseline != nil && rf.Baseline == nil) {
			t.First = rf
		}
	}
}

// Finish computes the stale baseline entries, once every log is added.
func (s *Summary) Finish() { s.Stale = s.Matcher.Stale() }

// Requirement returns the run's tally of a requirement, empty if no
// finding named it.
func (s *Summary) Requirement(id string) *Tally {
	if t := s.ByReq[id]; t != nil {
		return t
	}
	return newTally()
}

// Failing counts the findings that fail the run: not baselined, at or
// above FailOn.
func (s *Summary) Failing() int {
	n := 0
	for _, t := range s.ByReq {
		n += t.Failing(s.FailOn)
	}
	return n
}

// Errors counts the logs that could not be read.
func (s *Summary) Errors() int {
	n := 0
	for _, f := range s.Files {
		if f.Err != nil {
			n++
		}
	}
	return n
}

// Result is ResultInterrupted if the run ended early, ResultError if a log
// could not be read, else ResultFail on a failing finding or a stale
// baseline entry, else ResultPass.
func (s *Summary) Result() string {
	switch {
	case s.Interrupted:
		return ResultInterrupted
	case s.Errors() > 0:
		return ResultError
	case s.Failing() > 0 || len(s.Stale) > 0:
		return ResultFail
	}
	return ResultPass
}

// Totals sums the per-log statistics (Stats.Findings is left nil), the
// findings per level, baselined or not, and the baselined findings.
func (s *Summary) Totals() (st Stats, counts map[Level]int, baselined int) {
	st.UnknownTypes, st.ResultsChecked = map[string]int{}, map[string]int{}
	counts = map[Level]int{}
	for _, f := range s.Files {
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

// Run checks the logs paths name (files as given, directories walked for
// *.jsonl in sorted order, - for opt.Stdin) one after the other, streaming
// each through Check, and tallies the findings against opt.Baseline and
// opt.MaxFindings. A log that cannot be read (missing, unreadable, not a
// regular file, a directory that cannot be listed) is recorded in its
// FileResult.Err and the rest are still checked; compressed or binary
// input is one LOG-1 finding (see sniff).
//
// The error is about the paths (see ExpandPaths; no summary then), or
// ctx's error when ctx ends first: the summary is then Interrupted and
// holds the logs checked so far, the last one Partial.
func Run(ctx context.Context, paths []string, opt RunOptions) (*Summary, error) {
	logs, err := ExpandPaths(paths)
	if err != nil {
		return nil, err
	}
	s := NewSummary(opt.FailOn, opt.MaxFindings, opt.Baseline)
	s.listed, s.Total = opt.Listed, len(logs)
	stdin := opt.Stdin
	if stdin == nil {
		stdin = os.Stdin
	}
	start := time.Now()
	for i, l := range logs {
		if ctx.Err() != nil {
			break
		}
		if opt.Progress != nil {
			opt.Progress(i+1, len(logs), l.Path)
		}
		f := s.checkFile(ctx, l, stdin, opt.Options)
		if opt.Done != nil {
			opt.Done(f)
		}
	}
	s.Elapsed = time.Since(start)
	s.Interrupted = ctx.Err() != nil
	s.Finish()
	return s, ctx.Err()
}

// Log is one log Run checks: a path as given or found (- is stdin), and
// the error that kept a directory walk from reading it, if any.
type Log struct {
	Path string
	Err  error
}

// ExpandPaths turns PATH arguments into the logs to check: files as given,
// directories walked for *.jsonl (sorted), - as is (stdin). An entry the
// walk cannot read (an unreadable subdirectory) is a Log with its Err, so
// that the rest is still checked. A missing path, or a directory holding
// no *.jsonl and nothing unreadable, is an error.
func ExpandPaths(paths []string) ([]Log, error) {
	var out []Log
	for _, p := range paths {
		if p == "-" {
			out = append(out, Log{Path: "-"})
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("path %s: %v", p, unwrapPath(err))
		}
		if !st.IsDir() {
			out = append(out, Log{Path: p})
			continue
		}
		var found []Log
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil && d == nil:
				return err
			case err != nil:
				found = append(found, Log{Path: path, Err: fmt.Errorf("cannot be read: %v", unwrapPath(err))})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
			case !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl"):
				found = append(found, Log{Path: path})
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("walking %s: %v", p, unwrapPath(err))
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("directory %s holds no *.jsonl file", p)
		}
		sort.Slice(found, func(i, j int) bool { return found[i].Path < found[j].Path })
		out = append(out, found...)
	}
	return out, nil
}

// unwrapPath drops the operation and path of a *fs.PathError, which the
// messages name already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
