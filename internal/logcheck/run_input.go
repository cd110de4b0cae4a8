package logcheck

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
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
		in, async = fh, false
	}
	cr := &countingReader{ctx: ctx, r: in, async: async}
	br := bufio.NewReaderSize(cr, sniffBytes)
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
	st, err := Check(br, display, opt, func(fd Finding) { s.Add(f, fd) })
	f.Stats, f.Err = st, err
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		f.Err, f.Partial = nil, true
	}
	if f.Stats.Bytes == 0 {
		f.Stats.Bytes = cr.n
	}
	return f
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
