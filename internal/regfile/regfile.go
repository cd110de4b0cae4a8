// Package regfile is how conform opens every file it is handed: only a
// regular file (a FIFO, device, socket or directory named like a file is a
// clear error naming the path, and never blocks in open), and, when read
// whole, only up to a size bound. Symlinks are followed; what they point at
// must be regular.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Size bounds, in bytes, of the files conform reads whole (docs/ci.md).
const (
	KiB = 1 << 10
	MiB = 1 << 20
)

// NotRegularError is a path that names something other than a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: not a regular file (%s)", e.Path, Kind(e.Mode))
}

// TooLargeError is a file over the bound its reader allows.
type TooLargeError struct {
	Path  string
	Limit int64
	Hint  string // how to raise the bound, e.g. "--max-report-bytes"; may be empty
}

func (e *TooLargeError) Error() string {
	s := fmt.Sprintf("%s: larger than the limit of %s", e.Path, Size(e.Limit))
	if e.Hint != "" {
		s += " (raise it with " + e.Hint + ")"
	}
	return s
}

// Kind names a file mode for people: "a named pipe", "a directory", ….
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}

// Size renders a bound for messages: "32 MiB", "512 KiB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= MiB && n%MiB == 0:
		return fmt.Sprintf("%d MiB", n/MiB)
	case n >= KiB && n%KiB == 0:
		return fmt.Sprintf("%d KiB", n/KiB)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Open opens path for reading if it is a regular file. It stats first, so
// that nothing else is ever opened, opens without blocking (a FIFO swapped
// in between cannot hang it) and checks again on the open file. Errors
// name the path.
func Open(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	if err := recheck(f, path); err != nil {
		f.Close()
		return nil, err
	}
	if now, err := f.Stat(); err == nil && !os.SameFile(st, now) {
		f.Close()
		return nil, fmt.Errorf("%s: replaced while it was opened", path)
	}
	return f, nil
}

// recheck makes sure the open file is a regular file (fstat).
func recheck(f fs.File, path string) error {
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("%s: %w", path, unwrap(err))
	}
	if !st.Mode().IsRegular() {
		return &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return nil
}

// ReadFile reads the regular file path whole, refusing one over limit
// bytes with a *TooLargeError (hint says how to raise the limit).
func ReadFile(path string, limit int64, hint string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, limit, hint)
}

// ReadFS is ReadFile on a file system: stat first (a symlink to /dev/zero
// or a FIFO is refused before it is opened), check the open file again,
// and read at most limit bytes.
func ReadFS(fsys fs.FS, name string, limit int64, hint string) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: name, Mode: st.Mode()}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := recheck(f, name); err != nil {
		return nil, err
	}
	return readAll(f, name, limit, hint)
}

// readAll reads r up to limit bytes; one byte more is a *TooLargeError,
// whatever the file's stat said (a file may grow, /proc files claim 0).
func readAll(r io.Reader, path string, limit int64, hint string) ([]byte, error) {
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Size() > limit {
			return nil, &TooLargeError{Path: path, Limit: limit, Hint: hint}
		}
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrap(err))
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit, Hint: hint}
	}
	return data, nil
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
