package logcheck

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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
	// Done, when set, is called once each log is checked, and the summary
	// keeps only the logs with an error, a note or an interruption in
	// Files: the others are counts in its totals (Totals, FileCount), so
	// that memory does not grow with the number of logs (issue 23). A
	// report that needs every log's record (JUnit) leaves Done unset.
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
	// Notes say how the log was read when that was not plainly to its end:
	// it grew while it was checked (only its size at open was read), or
	// --follow stopped before a last line was complete.
	Notes []string
}

// kept says whether Run keeps f in Summary.Files when the run streams
// (RunOptions.Done): only for what the end of a report still names.
func (f *FileResult) kept() bool { return f.Err != nil || f.Partial || len(f.Notes) > 0 }

// Summary is the result of a run: per-log results and the run's tallies.
type Summary struct {
	FailOn      Level
	MaxFindings int
	Baseline    *baseline.Baseline // nil without one
	Matcher     *baseline.Matcher  // Baseline's finding entries, with their hits
	// Files are the logs checked, or with RunOptions.Done only those with
	// an error, a note or an interruption (FileCount counts them all).
	Files   []*FileResult
	ByReq   map[string]*Tally // over every log
	Listed  int
	Dropped int
	Stale   []*baseline.Entry // set by Finish
	Elapsed time.Duration
	// Interrupted: the run ended early (a signal); Files are the logs
	// checked so far, and the report is partial.
	Interrupted bool
	// Total is how many logs the run was to check.
	Total int

	listed  func(*RunFinding) // RunOptions.Listed
	gone    logTotals         // the logs checked and not kept in Files
	br      *bufio.Reader     // the reader of every log (checkFile)
	scratch scratch           // the line scratch of every log (checkWith)
}

// logTotals sum the logs a streaming run did not keep (RunOptions.Done).
type logTotals struct {
	files     int
	st        Stats
	counts    map[Level]int
	baselined int
}

// add sums f into t.
func (t *logTotals) add(f *FileResult) {
	t.merge(logTotals{files: 1, st: f.Stats, counts: f.Counts, baselined: f.Baseline})
}

// merge sums o into t.
func (t *logTotals) merge(o logTotals) {
	if t.counts == nil {
		t.st.UnknownTypes, t.st.ResultsChecked, t.counts = map[string]int{}, map[string]int{}, map[Level]int{}
	}
	t.files += o.files
	t.st.Lines += o.st.Lines
	t.st.Events += o.st.Events
	t.st.MalformedLines += o.st.MalformedLines
	t.st.Bytes += o.st.Bytes
	for k, v := range o.st.UnknownTypes {
		t.st.UnknownTypes[k] += v
	}
	for k, v := range o.st.ResultsChecked {
		t.st.ResultsChecked[k] += v
	}
	for k, v := range o.counts {
		t.counts[k] += v
	}
	t.baselined += o.baselined
}

// NewSummary starts an empty summary; Run fills it. failOn "" is
// Violation.
func NewSummary(failOn Level, maxFindings int, bl *baseline.Baseline) *Summary {
	if failOn == "" {
		failOn = Violation
	}
	return &Summary{FailOn: failOn, MaxFindings: maxFindings, Baseline: bl, Matcher: bl.Findings(), ByReq: map[string]*Tally{}}
}

// AddFile appends the result of a log named name. Its Counts and ByReq
// are made by its first finding: a clean log holds no map.
func (s *Summary) AddFile(name string) *FileResult {
	f := &FileResult{Name: name}
	s.Files = append(s.Files, f)
	return f
}

// forget turns f into counts (RunOptions.Done). Run forgets the last of
// Files; Follow a log that ended while others go on, anywhere in Files.
func (s *Summary) forget(f *FileResult) {
	for i := len(s.Files) - 1; i >= 0; i-- {
		if s.Files[i] == f {
			s.Files = slices.Delete(s.Files, i, i+1) // zeroes the freed slot
			s.gone.add(f)
			return
		}
	}
}

// FileCount is how many logs the run checked, kept in Files or not.
func (s *Summary) FileCount() int { return s.gone.files + len(s.Files) }

// Add records a finding of f: baseline, counts, and the listing unless
// MaxFindings is reached. A finding without a file gets f's name.
func (s *Summary) Add(f *FileResult, fd Finding) {
	if fd.File == "" {
		fd.File = f.Name
	}
	rf := &RunFinding{Finding: fd, Baseline: s.Matcher.Finding(fd.Requirement, fd.File)}
	if f.Counts == nil {
		f.Counts, f.ByReq = map[Level]int{}, map[string]*Tally{}
	}
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

// Errors counts the logs that could not be read (all kept in Files).
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

// Totals sums the per-log statistics of every log checked, kept in Files
// or not (Stats.Findings is left nil), the findings per level, baselined
// or not, and the baselined findings.
func (s *Summary) Totals() (st Stats, counts map[Level]int, baselined int) {
	var t logTotals
	t.merge(s.gone)
	for _, f := range s.Files {
		t.add(f)
	}
	return t.st, t.counts, t.baselined
}

// Run checks the logs paths name (files as given, directories walked for
// *.jsonl in sorted order, - for opt.Stdin) one after the other, streaming
// each through Check, and tallies the findings against opt.Baseline and
// opt.MaxFindings. A log that cannot be read (missing, unreadable, not a
// regular file, a directory that cannot be listed) is recorded in its
// FileResult.Err and the rest are still checked; compressed or binary
// input is one LOG-1 finding (see sniff). A file is read up to the size
// it had when opened (see checkFile).
//
// The directories are walked twice, to count the logs and to check them,
// so that the list of a tree of any size is never held (issue 23).
//
// The error is about the paths (see ExpandPaths; no summary then), or
// ctx's error when ctx ends first: the summary is then Interrupted and
// holds the logs checked so far, the last one Partial.
func Run(ctx context.Context, paths []string, opt RunOptions) (*Summary, error) {
	total := 0
	if err := WalkPaths(paths, func(Log) error { total++; return nil }); err != nil {
		return nil, err
	}
	s := NewSummary(opt.FailOn, opt.MaxFindings, opt.Baseline)
	s.listed, s.Total = opt.Listed, total
	stdin := opt.Stdin
	if stdin == nil {
		stdin = os.Stdin
	}
	start := time.Now()
	i := 0
	err := WalkPaths(paths, func(l Log) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		i++
		if opt.Progress != nil {
			opt.Progress(i, max(total, i), l.Path)
		}
		f := s.checkFile(ctx, l, stdin, opt.Options)
		if opt.Done != nil {
			opt.Done(f)
			if !f.kept() {
				s.forget(f)
			}
		}
		return nil
	})
	var pe *PathError
	if errors.As(err, &pe) && ctx.Err() == nil {
		// The tree changed between the walks (a path went away): the logs
		// checked so far stand, and the path is a log that was not read.
		s.AddFile(pe.Path).Err = pe.Err
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

// ExpandPaths turns PATH arguments into the logs to check, as WalkPaths
// visits them.
func ExpandPaths(paths []string) ([]Log, error) {
	var out []Log
	err := WalkPaths(paths, func(l Log) error { out = append(out, l); return nil })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PathError is a PATH argument that names no log: missing, or a
// directory without *.jsonl.
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string { return e.Err.Error() }

// WalkPaths visits the logs PATH arguments name, one at a time: files as
// given, directories walked for *.jsonl in sorted path order, - as is
// (stdin). A directory the walk cannot list is a Log with its Err, so that
// the rest is still checked. A missing path, or a directory holding no
// *.jsonl and nothing unreadable, is a *PathError; an error of visit
// ends the walk and is returned. Memory is one directory's names at each
// level.
func WalkPaths(paths []string, visit func(Log) error) error {
	for _, p := range paths {
		if p == "-" {
			if err := visit(Log{Path: "-"}); err != nil {
				return err
			}
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return &PathError{p, fmt.Errorf("path %s: %v", p, unwrapPath(err))}
		}
		if !st.IsDir() {
			if err := visit(Log{Path: p}); err != nil {
				return err
			}
			continue
		}
		n := 0
		if err := walkDir(filepath.Clean(p), func(l Log) error { n++; return visit(l) }); err != nil {
			return err
		}
		if n == 0 {
			return &PathError{p, fmt.Errorf("directory %s holds no *.jsonl file", p)}
		}
	}
	return nil
}

// walkDir visits the *.jsonl files under dir in sorted path order. Each
// directory's entries are sorted by name, a subdirectory's with a / after
// it: every path under it starts so, so the visits come in the order of
// the full paths. Symlinks are not followed into directories (a symlink
// named *.jsonl is a log, opened as its target).
func walkDir(dir string, visit func(Log) error) error {
	keys, err := listDir(dir)
	if err != nil {
		return visit(Log{Path: dir, Err: fmt.Errorf("cannot be read: %v", unwrapPath(err))})
	}
	for i, k := range keys {
		keys[i] = "" // a visited name is not held while its subtree is walked
		if name, isDir := strings.CutSuffix(k, "/"); isDir {
			err = walkDir(filepath.Join(dir, name), visit)
		} else {
			err = visit(Log{Path: filepath.Join(dir, k)})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// listDir returns the sort keys of dir's subdirectories (name/) and
// *.jsonl files (name), sorted, reading the directory in chunks so that
// only these names are held.
func listDir(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var keys []string
	for {
		ents, err := f.ReadDir(256)
		for _, e := range ents {
			switch name := e.Name(); {
			case e.IsDir():
				keys = append(keys, name+"/")
			case strings.HasSuffix(name, ".jsonl"):
				keys = append(keys, strings.Clone(name))
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(keys)
	return keys, nil
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
