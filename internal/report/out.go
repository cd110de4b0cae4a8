package report

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Out is where a command writes its report: the file of --out, or stdout
// for "" and "-". Run, fuzz, check-log and baseline write open it before
// any work (issue 11), so that an unwritable report is found at once: a
// missing or read-only directory fails to open, a device that refuses
// writes (/dev/full) fails a one-byte probe.
//
// A regular file is never written in place (issue 21: never lost): the
// report goes to a temporary file beside it, renamed over it by Close, so
// a run killed at any point leaves the previous report whole and no
// reader ever sees half a report.
type Out struct {
	f    *os.File // nil: stdout
	temp string   // the temporary file renamed to path on Close; "" when f is path itself (a device)
	path string
	err  error // the first write error: Close then keeps the previous report
}

// OpenOut opens path for the report; errors name no path (the caller
// says which flag it was).
func OpenOut(path string) (*Out, error) {
	if path == "" || path == "-" {
		return &Out{}, nil
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real // replace the file a link names, not the link
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return nil, errors.New("is a directory")
	case err == nil && !st.Mode().IsRegular():
		// A device or a pipe: written in place, probed first.
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, bare(err)
		}
		if _, err := f.Write([]byte("\n")); err != nil {
			f.Close()
			return nil, bare(err)
		}
		return &Out{f: f, path: path}, nil
	}
	mode := fs.FileMode(0o644)
	if err == nil {
		mode = st.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, bare(err)
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, bare(err)
	}
	return &Out{f: f, temp: f.Name(), path: path}, nil
}

// CheckOut proves that a report could be written to path, for a command
// that opens it only once its work is done. It leaves path as it was.
func CheckOut(path string) error {
	o, err := OpenOut(path)
	if err == nil {
		o.Discard()
	}
	return err
}

// ToFile reports whether the report goes to a file rather than stdout.
func (o *Out) ToFile() bool { return o.f != nil }

// Writer is the file, or stdout.
func (o *Out) Writer() io.Writer {
	if o.f == nil {
		return os.Stdout
	}
	return outWriter{o}
}

type outWriter struct{ o *Out }

func (w outWriter) Write(p []byte) (int, error) {
	if w.o.err != nil {
		return 0, w.o.err
	}
	n, err := w.o.f.Write(p)
	if err != nil {
		w.o.err = bare(err)
	}
	return n, w.o.err
}

// Write writes the whole report and closes the file.
func (o *Out) Write(report []byte) error {
	_, err := o.Writer().Write(report)
	if cerr := o.Close(); err == nil {
		err = cerr
	}
	return err
}

// Close ends the report: the temporary file is renamed over the target
// (stdout stays open). After a write error the target is left as it was
// and the error returned. A second Close does nothing.
func (o *Out) Close() error {
	if o.f == nil {
		return nil
	}
	err := o.f.Close()
	o.f = nil
	if o.temp == "" {
		return bare(err)
	}
	if err == nil {
		err = o.err
	}
	if err == nil {
		err = os.Rename(o.temp, o.path)
	}
	if err != nil {
		os.Remove(o.temp)
	}
	return bare(err)
}

// Discard drops what was written and leaves the target as it was.
func (o *Out) Discard() {
	if o.f == nil {
		return
	}
	o.f.Close()
	o.f = nil
	if o.temp != "" {
		os.Remove(o.temp)
	}
}

// WriteFile writes a whole report to path (- for stdout) as Out does:
// through a temporary file renamed into place.
func WriteFile(path string, data []byte) error {
	o, err := OpenOut(path)
	if err != nil {
		return err
	}
	return o.Write(data)
}

// bare drops the path of a *fs.PathError.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// SameFile reports whether an --out path names the file of an input
// path: the same path once cleaned, or the same file (a link, another
// spelling, a hard link). A report must never replace what its run reads
// (issue 21).
func SameFile(out, input string) bool {
	if out == "" || out == "-" || input == "" || input == "-" {
		return false
	}
	a, errA := filepath.Abs(out)
	b, errB := filepath.Abs(input)
	if errA == nil && errB == nil && a == b {
		return true
	}
	sa, errA := os.Stat(out)
	sb, errB := os.Stat(input)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// OutSpec is one --out of run, fuzz, check-log or report --format: a
// format of Formats and where it goes ("" or "-": stdout).
type OutSpec struct {
	Format, Path string
}

// ToFile says whether the report goes to a file.
func (o OutSpec) ToFile() bool { return o.Path != "" && o.Path != "-" }

// ParseOuts reads a command's --out flags: FORMAT=FILE, or FILE in the
// format of --format; none is --format to stdout. Given FORMAT=FILE, the
// text report goes to stdout unless an --out takes stdout or the text
// format: one run, every artifact (issue 21). Two reports to one file are
// a usage error.
func ParseOuts(format string, flags []string) ([]OutSpec, error) {
	var outs []OutSpec
	explicit, text, stdout := false, false, false
	for _, f := range flags {
		o := OutSpec{Format: format, Path: f}
		if k, v, ok := strings.Cut(f, "="); ok && slices.Contains(Formats, k) {
			o, explicit = OutSpec{Format: k, Path: v}, true
			if v == "" {
				return nil, fmt.Errorf("--out %s: give a file after %s= (- for stdout)", Bounded(f), k)
			}
		}
		for _, prev := range outs {
			if (!o.ToFile() && !prev.ToFile()) || (o.ToFile() && prev.ToFile() && SameFile(o.Path, prev.Path)) {
				return nil, fmt.Errorf("--out %s and --out %s write one file twice", Bounded(prev.Path), Bounded(o.Path))
			}
		}
		text = text || o.Format == "text"
		stdout = stdout || !o.ToFile()
		outs = append(outs, o)
	}
	if len(outs) == 0 || (explicit && !text && !stdout) {
		outs = append(outs, OutSpec{Format: map[bool]string{true: "text", false: format}[explicit]})
	}
	return outs, nil
}

// Bounded is an outside string for a message: Text-escaped and cut to a
// few hundred bytes with its length stated.
func Bounded(s string) string {
	const max = 200
	if len(s) <= max {
		return Text(s)
	}
	n := max
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return fmt.Sprintf("%s… (%d bytes)", Text(s[:n]), len(s))
}

// InputOut is the first --out of outs that names one of a command's
// inputs (flag name → path), as a usage error; nil when none does. A
// report must never replace what its run reads (issue 21).
func InputOut(outs []OutSpec, inputs ...[2]string) error {
	for _, o := range outs {
		for _, in := range inputs {
			if SameFile(o.Path, in[1]) {
				return fmt.Errorf("--out %s is the %s file: the report would replace its own input; write it elsewhere", Bounded(o.Path), in[0])
			}
		}
	}
	return nil
}
