package logcheck

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
	"unicode/utf8"

	"github.com/dsh-conform/conform/internal/regfile"
)

// checkFile runs the engine on one log (- is stdin): only a regular file
// is opened (a FIFO named *.jsonl must not block), and compressed or
// binary input is one finding, not one per line.
func (s *Summary) checkFile(ctx context.Context, l Log, stdin io.Reader, opt Options) *FileResult {
	display, in := l.Path, stdin
	if l.Path == "-" {
		display = StdinName
	}
	f := s.AddFile(display)
	if l.Err != nil {
		f.Err = l.Err
		return f
	}
	async := true // stdin may block forever: a signal must still end the run
	if l.Path != "-" {
		fh, err := regfile.Open(l.Path)
		if err != nil {
			f.Err = fileError(l.Path, err)
			return f
		}
		defer fh.Close()
		snap, err := newSnapshot(fh, opt.MaxLineBytes)
		if err != nil {
			f.Err = unwrapPath(err)
			return f
		}
		if afterOpen != nil {
			afterOpen(l.Path)
		}
		defer func() {
			if n := snap.grewTo(); n > 0 {
				f.Notes = append(f.Notes, snap.note(n))
			}
		}()
		in, async = snap, false
	}
	cr := &countingReader{ctx: ctx, r: in, async: async}
	// One reader for every log, of the size Check reads with (which then
	// uses it as is): a tree of small logs would otherwise allocate 72 KiB
	// of buffers per log, and with the GC slowed by a loaded machine the
	// heap grows with that garbage (issue 23).
	if s.br == nil {
		s.br = bufio.NewReaderSize(cr, readBytes)
	}
	br := s.br
	br.Reset(cr)
	defer br.Reset(nil)
	start := time.Now()
	defer func() { f.Elapsed = time.Since(start) }()
	head, err := br.Peek(sniffBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		if ctx.Err() != nil {
			f.Partial = true
		} else {
			f.Err = err
		}
		return f
	}
	if what := sniff(head); what != "" {
		f.Stats.Bytes = int64(len(head))
		s.Add(f, Finding{Line: 0, Seq: -1, Requirement: "LOG-1", Level: Violation, Message: what})
		return f
	}
	st, err := checkWith(&s.scratch, br, display, opt, func(fd Finding) { s.Add(f, fd) })
	f.Stats, f.Err = st, err
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		f.Err, f.Partial = nil, true
	}
	if f.Stats.Bytes == 0 {
		f.Stats.Bytes = cr.n
	}
	return f
}

// afterOpen, set by tests only, runs once a file's size is taken.
var afterOpen func(path string)

// snapshot reads a log up to the size it had when opened, so that a log a
// harness is still appending to is checked to there and the run ends
// (issue 23): the rest is --follow's job. When the file ended inside a
// line at open, the part of it after the last LF is read only if the file
// has not grown by then; if it has, that is the line being written, and it
// is left unread rather than judged incomplete.
type snapshot struct {
	f    *os.File
	size int64 // at open
	cut  int64 // after the last LF before size (size if the file ended so)
	off  int64 // read so far
	tail bool  // the part after cut is read (the file had not grown)
}

// newSnapshot takes f's size and finds its last LF within the last
// maxLine+1 bytes (a line longer than that is skipped whole anyway).
func newSnapshot(f *os.File, maxLine int) (*snapshot, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	s := &snapshot{f: f, size: st.Size(), cut: st.Size()}
	var last [1]byte
	if s.size == 0 {
		return s, nil
	}
	if _, err := f.ReadAt(last[:], s.size-1); err != nil || last[0] == '\n' {
		return s, err // the common case: the file ends with a whole line
	}
	buf := make([]byte, 64<<10)
	for end, floor := s.size, max(s.size-int64(maxLine)-1, 0); end > floor; {
		n := min(end-floor, int64(len(buf)))
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return nil, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			s.cut = end - n + int64(i) + 1
			return s, nil
		}
		if end -= n; end == 0 {
			s.cut = 0 // one line, incomplete
		}
	}
	return s, nil
}

func (s *snapshot) Read(p []byte) (int, error) {
	limit := s.cut
	if s.off == s.cut && s.cut < s.size && !s.tail {
		s.tail = s.grewTo() == 0
	}
	if s.tail {
		limit = s.size
	}
	if s.off >= limit {
		return 0, io.EOF
	}
	if int64(len(p)) > limit-s.off {
		p = p[:limit-s.off]
	}
	n, err := s.f.Read(p)
	s.off += int64(n)
	if errors.Is(err, io.EOF) && n > 0 {
		err = nil
	}
	return n, err
}

// grewTo is the file's size now if it is larger than at open, else 0.
func (s *snapshot) grewTo() int64 {
	if st, err := s.f.Stat(); err == nil && st.Size() > s.size {
		return st.Size()
	}
	return 0
}

// note says how much of the grown file was checked.
func (s *snapshot) note(now int64) string {
	msg := fmt.Sprintf("grew from %d to at least %d bytes while it was checked; only the %d bytes it had when opened were checked", s.size, now, s.size)
	if !s.tail && s.cut < s.size {
		msg = fmt.Sprintf("grew from %d to at least %d bytes while it was checked; only its first %d bytes were checked (the %d bytes after its last LF at open were the start of a line being written)",
			s.size, now, s.cut, s.size-s.cut)
	}
	return msg + "; check it again once it is complete, or follow it (--follow)"
}

// fileError words an open error without repeating the path the report
// names already.
func fileError(path string, err error) error {
	var nr *regfile.NotRegularError
	if errors.As(err, &nr) {
		return fmt.Errorf("skipped: not a regular file (%s)", regfile.Kind(nr.Mode))
	}
	return unwrapPath(err)
}

// sniffBytes is how much of a log's start sniff looks at.
const sniffBytes = 8 << 10

// readBytes is the buffer size of Check's reader (check.go).
const readBytes = 64 << 10

// magics are the compressed formats a log may come in (LOG-1 allows
// .jsonl.zstd upstream); check-log reads only the decompressed text.
var magics = []struct {
	name, cmd string
	magic     []byte
}{
	{"gzip", "gzip -dc", []byte{0x1f, 0x8b}},
	{"zstd", "zstd -dc", []byte{0x28, 0xb5, 0x2f, 0xfd}},
	{"bzip2", "bzip2 -dc", []byte("BZh")},
	{"xz", "xz -dc", []byte{0xfd, '7', 'z', 'X', 'Z', 0}},
}

// sniff names what makes head, a log's first bytes, not JSONL text
// (LOG-1: UTF-8 text, one JSON value per line): a compressed stream, a NUL
// byte, or mostly invalid UTF-8. "" is text.
func sniff(head []byte) string {
	for _, m := range magics {
		if bytes.HasPrefix(head, m.magic) {
			return fmt.Sprintf("%s-compressed data, not JSONL text: decompress it first (%s FILE | conform check-log -)", m.name, m.cmd)
		}
	}
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return fmt.Sprintf("binary data, not JSONL text (a NUL byte at offset %d); the file is not checked further", i)
	}
	bad := 0
	for i := 0; i < len(head); {
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n == 1 && len(head)-i >= utf8.UTFMax {
			bad++
		}
		i += n
	}
	if len(head) > 0 && bad*4 > len(head) {
		return fmt.Sprintf("binary data, not JSONL text (%d of the first %d bytes are not UTF-8); the file is not checked further", bad, len(head))
	}
	return ""
}

// countingReader counts the bytes the engine read, and stops at ctx's
// end. An async one reads in a goroutine, so that ctx's end returns even
// while a read blocks (stdin from a silent pipe); the abandoned read's
// bytes are never used.
type countingReader struct {
	ctx   context.Context
	r     io.Reader
	n     int64
	async bool
	buf   []byte
}

type readResult struct {
	n   int
	err error
}

func (c *countingReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if !c.async {
		n, err := c.r.Read(p)
		c.n += int64(n)
		return n, err
	}
	if cap(c.buf) < len(p) {
		c.buf = make([]byte, len(p))
	}
	buf := c.buf[:len(p)]
	done := make(chan readResult, 1)
	go func() {
		n, err := c.r.Read(buf)
		done <- readResult{n, err}
	}()
	select {
	case <-c.ctx.Done():
		c.buf = nil // the goroutine may still write into it
		return 0, c.ctx.Err()
	case r := <-done:
		copy(p, buf[:r.n])
		c.n += int64(r.n)
		return r.n, r.err
	}
}
