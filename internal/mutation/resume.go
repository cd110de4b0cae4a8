package mutation

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A run's --json report is rewritten as mutants are judged, so a run that
// is interrupted or killed keeps what it judged, and --resume continues it
// (docs/mutation.md "Reports").

// RunInfo is what a JSON report says of its run besides counts and results.
type RunInfo struct {
	// Complete is false while the run goes on, and stays false in the
	// report of a run that was interrupted or killed: its counts cover
	// only the mutants judged so far.
	Complete bool
	Kind     string // the kill rule: "golden", "fuzz cases=N seed=S" or "judge"
	Tree     string // TreeKey of the tree the mutants are of
	Seed     uint64
	Sample   int
}

// TreeKey names the content of the tree at root: the path (relative to
// root) and bytes of every regular file, but those under dot directories
// (.git, .cache) and the report files named (paths as --json and --resume
// take them) with their temporary siblings, which a run rewrites as it goes.
// It is the judge's trace cache key too (schemataKey).
func TreeKey(root string, reports ...string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	var skip, temps []string
	for _, r := range reports {
		if r == "" {
			continue
		}
		p, err := filepath.Abs(r)
		if err != nil {
			return "", err
		}
		if p, err = filepath.Rel(abs, p); err != nil {
			return "", err
		}
		skip, temps = append(skip, p), append(temps, tempPrefix(p))
	}
	h := sha256.New()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, p)
		if err != nil || !d.Type().IsRegular() || slices.Contains(skip, rel) ||
			slices.ContainsFunc(temps, func(t string) bool { return strings.HasPrefix(rel, t) }) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil)[:16]), err
}

// tempPrefix starts the name of path's temporary siblings (writeAtomic).
func tempPrefix(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
}

// writeAtomic replaces path by b: a reader, or a run killed while it
// writes, sees the old report or the new one, never half of one.
func writeAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(tempPrefix(path))+"*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // only if the rename did not happen
	if _, err = f.Write(b); err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync() // a machine that resets keeps the last report whole
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// Report is a JSON report read back.
type Report struct {
	Path string
	RunInfo
	Wall time.Duration
	// Judged maps each mutant id to its result; the Result's Mutant is
	// left zero (NewRecorder takes it from the enumeration).
	Judged map[string]Result
}

// ReadReport reads a --json report, partial or complete.
func ReadReport(path string) (Report, error) {
	rep := Report{Path: path, Judged: map[string]Result{}}
	b, err := os.ReadFile(path)
	if err != nil {
		return rep, err
	}
	v, err := jsonjs.Parse(b)
	if err != nil {
		return rep, fmt.Errorf("%s: %v", path, err)
	}
	get := func(v jsonjs.Value, key string) jsonjs.Value { x, _ := v.Get(key); return x }
	rep.Complete, _ = get(v, "complete").Bool()
	rep.Kind, _ = get(v, "kind").Str()
	rep.Tree, _ = get(v, "tree").Str()
	wall, _ := get(v, "wallSeconds").Float()
	rep.Wall = time.Duration(wall * float64(time.Second))
	items, ok := get(v, "results").Items()
	if !ok {
		return rep, fmt.Errorf("%s: $.results: not an array", path)
	}
	for i, it := range items {
		id, ok1 := get(it, "id").Str()
		st, ok2 := get(it, "status").Str()
		if !ok1 || !ok2 {
			return rep, fmt.Errorf("%s: $.results[%d]: needs string id and status", path, i)
		}
		r := Result{Status: Status(st)}
		r.Detail, _ = get(it, "detail").Str()
		r.Stale, _ = get(it, "staleListing").Bool()
		rep.Judged[id] = r
	}
	return rep, nil
}

// Resumable is nil when a run of kind on the tree whose TreeKey is tree
// may continue rep, else an error naming the file and what differs.
func (rep Report) Resumable(kind, tree string) error {
	switch {
	case rep.Tree == "":
		return fmt.Errorf("%s: no tree key (written before --resume existed): cannot resume it", rep.Path)
	case rep.Kind != kind:
		return fmt.Errorf("%s is the report of a %q run, not of this %q run", rep.Path, rep.Kind, kind)
	case rep.Tree != tree:
		return fmt.Errorf("%s is the report of another tree (key %s, this tree %s): a file changed since", rep.Path, rep.Tree, tree)
	}
	return nil
}

// Recorder is a run's report as it grows: the results of the report it
// resumes, then each mutant judged, rewritten to Path (if set) after each
// as a partial report. Not safe for concurrent use (pool's Progress calls
// come one at a time).
type Recorder struct {
	Path  string
	Info  RunInfo
	order []Mutant
	got   map[string]Result
	prior time.Duration // wall time of the runs it resumes
	start time.Time
}

// NewRecorder starts the report of a run of ms. from, when not nil, is the
// report it resumes: its results of mutants of ms are kept (and those of
// other mutants left out), and todo is the rest of ms, in order.
func NewRecorder(path string, info RunInfo, ms []Mutant, from *Report) (rec *Recorder, todo []Mutant) {
	rec = &Recorder{Path: path, Info: info, order: ms, got: map[string]Result{}, start: time.Now()}
	if from != nil {
		rec.prior = from.Wall
	}
	for _, m := range ms {
		r, ok := Result{}, false
		if from != nil {
			r, ok = from.Judged[m.ID()]
		}
		if !ok {
			todo = append(todo, m)
			continue
		}
		r.Mutant = m
		rec.got[m.ID()] = r
	}
	return rec, todo
}

// Add records a judged mutant and rewrites the partial report.
func (rec *Recorder) Add(r Result) error {
	rec.got[r.Mutant.ID()] = r
	return rec.Write(false)
}

// Len is how many mutants are judged so far (len(Results()), not built).
func (rec *Recorder) Len() int { return len(rec.got) }

// Results is every mutant judged so far, in the run's order.
func (rec *Recorder) Results() []Result {
	out := make([]Result, 0, len(rec.got))
	for _, m := range rec.order {
		if r, ok := rec.got[m.ID()]; ok {
			out = append(out, r)
		}
	}
	return out
}

// Summary counts Results; its wall time is this run's plus the resumed
// runs'.
func (rec *Recorder) Summary() Summary {
	return Summarize(rec.Results(), rec.prior+time.Since(rec.start))
}

// Write writes the report to Path (nothing when it is empty), marked
// complete or not.
func (rec *Recorder) Write(complete bool) error {
	if rec.Path == "" {
		return nil
	}
	info := rec.Info
	info.Complete = complete
	return writeAtomic(rec.Path, JSON(rec.Summary(), info, rec.Results()))
}
