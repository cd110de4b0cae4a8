package report

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// Out is where a command writes its report: the file of --out, or stdout
// for "" and "-". Run, fuzz, check-log and baseline write open it before
// any work (issue 11), so that an unwritable report is found at once: a
// missing or read-only directory fails to open, a device that refuses
// writes (/dev/full) fails a one-byte probe.
type Out struct {
	f *os.File // nil: stdout
}

// OpenOut opens path for the report; errors name no path (the caller
// says which flag it was).
func OpenOut(path string) (*Out, error) {
	if path == "" || path == "-" {
		return &Out{}, nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, errors.New("is a directory")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, bare(err)
	}
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		if _, err := f.Write([]byte("\n")); err != nil {
			f.Close()
			return nil, bare(err)
		}
	}
	return &Out{f: f}, nil
}

// CheckOut proves that a report could be written to path, for a command
// that opens it only once its work is done.
func CheckOut(path string) error {
	o, err := OpenOut(path)
	if err == nil {
		err = o.Close()
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
	return o.f
}

// Write writes the whole report and closes the file.
func (o *Out) Write(report []byte) error {
	_, err := o.Writer().Write(report)
	if cerr := o.Close(); err == nil {
		err = cerr
	}
	return err
}

// Close closes the file (stdout stays open); a second Close does nothing.
func (o *Out) Close() error {
	if o.f == nil {
		return nil
	}
	err := o.f.Close()
	o.f = nil
	return bare(err)
}

// bare drops the path of a *fs.PathError.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
