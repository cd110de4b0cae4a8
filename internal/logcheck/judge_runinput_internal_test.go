package logcheck

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Tests for survivors of the judge's run in run_input.go (issue 22,
// docs/mutation.md "The judge"): reading stdin so that a signal still ends
// the run, an interrupted log, the file snapshot (a log that grows, is cut
// inside a line, or shrinks while it is checked), and sniffing.

const runinHeader = `{"type":"session","version":0,"id":"rules-0001","createdAt":1785591986068,"cwd":"/w","delegationDepth":0}`

// runinRun runs one path with afterOpen set to grow (if any), and returns
// the summary and every finding listed.
func runinRun(t *testing.T, ctx context.Context, paths []string, opt RunOptions, grow func(path string)) (*Summary, []*RunFinding, error) {
	t.Helper()
	afterOpen = grow
	defer func() { afterOpen = nil }()
	var got []*RunFinding
	listed := opt.Listed
	opt.Listed = func(f *RunFinding) {
		got = append(got, f)
		if listed != nil {
			listed(f)
		}
	}
	if opt.Options.MaxLineBytes == 0 {
		opt.Options = Defaults()
	}
	s, err := Run(ctx, paths, opt)
	return s, got, err
}

func runinAppend(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Error(err)
	}
}

func runinMessages(fs []*RunFinding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Requirement+" "+string(f.Level)+": "+f.Message)
	}
	return out
}

// runinStdin is a stdin that gives first in one read, then, on the next
// read, ends the run (cancel) and blocks until released, as a silent pipe
// does; its reads are counted.
type runinStdin struct {
	first   string
	cancel  func()
	release chan struct{}
	mu      sync.Mutex
	reads   int
	reader  string // "goroutine N " of the blocked read; "" until it blocks
}

// blockedReader is the reader field, read under the lock.
func (r *runinStdin) blockedReader() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reader
}

func (r *runinStdin) Read(p []byte) (int, error) {
	r.mu.Lock()
	r.reads++
	n := r.reads
	r.mu.Unlock()
	if n == 1 {
		return copy(p, r.first), nil
	}
	var me [64]byte
	r.mu.Lock()
	r.reader, _, _ = strings.Cut(string(me[:runtime.Stack(me[:], false)]), "[")
	r.mu.Unlock()
	r.cancel()
	<-r.release
	return 0, io.EOF
}

// runinWaitRun runs Run in a goroutine; a Run still blocked long after
// the context ended fails the test (and is then freed by release).
func runinWaitRun(t *testing.T, ctx context.Context, opt RunOptions, release chan struct{}) (*Summary, error) {
	t.Helper()
	type res struct {
		s   *Summary
		err error
	}
	ch := make(chan res, 1)
	go func() {
		s, err := Run(ctx, []string{"-"}, opt)
		ch <- res{s, err}
	}()
	select {
	case r := <-ch:
		return r.s, r.err
	case <-time.After(20 * time.Second):
		close(release)
		<-ch
		t.Fatal("Run did not return once its context ended while stdin blocked in a read")
		return nil, nil
	}
}

// runinCheckInterrupted: the run is interrupted, its one log Partial and
// not an error, and its Stats.Bytes are the bytes the source gave.
func runinCheckInterrupted(t *testing.T, s *Summary, err error, given int) {
	t.Helper()
	if !errors.Is(err, context.Canceled) || !s.Interrupted || s.Result() != ResultInterrupted {
		t.Fatalf("err %v, interrupted %v, result %s", err, s.Interrupted, s.Result())
	}
	if len(s.Files) != 1 || !s.Files[0].Partial || s.Files[0].Err != nil {
		t.Fatalf("files %+v, want one Partial log without an error", s.Files)
	}
	if s.Files[0].Stats.Bytes != int64(given) {
		t.Errorf("Stats.Bytes %d, but the source gave %d bytes", s.Files[0].Stats.Bytes, given)
	}
}

// Stdin may block forever (a silent pipe): its reads are made so that the
// run still ends when its context does, and the log is Partial. Kills
// run_input.go:30:11 (a synchronous read would block the run).
func TestJudgeRuninStdinBlockedReadEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	release := make(chan struct{})
	src := &runinStdin{first: runinHeader + "\n", cancel: cancel, release: release}
	s, err := runinWaitRun(t, ctx, RunOptions{Options: Defaults(), Stdin: src}, release)
	if !errors.Is(err, context.Canceled) || !s.Interrupted || len(s.Files) != 1 || !s.Files[0].Partial || s.Files[0].Err != nil {
		t.Fatalf("err %v, summary %+v", err, s)
	}
	close(release)
	// The abandoned read returns once released; its goroutine must then
	// end, not stay blocked on a result no one receives (a leak per
	// interrupted log). Kills run_input.go:264:32. Waiting for that very
	// goroutine to end (not for no goroutine to be in a send) does not
	// pass while it is still on its way from the read to the send.
	reader := src.blockedReader()
	if reader == "" {
		t.Fatal("the source's second read was never made")
	}
	for i := 0; runinStack(reader) != ""; i++ {
		if i == 2000 { // 10 s, within the judge's 30 s limit of a test
			t.Fatalf("the abandoned read's %sstill runs: %s", reader, runinStack(reader))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// runinStack is the stack of the goroutine whose dump starts with head
// ("goroutine N "), or "".
func runinStack(head string) string {
	buf := make([]byte, 1<<22)
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.HasPrefix(g, head+"[") {
			return g
		}
	}
	return ""
}

// A log interrupted inside Check (its context ends while a read blocks,
// after Check has read whole lines) is Partial, not an error, and counts
// the bytes it was given, no more. Kills run_input.go:83:27 and 272:10.
func TestJudgeRuninInterruptedInBlockedRead(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	release := make(chan struct{})
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	// More than sniff's 8 KiB, so that Check, not the sniff, meets the
	// blocked read.
	first := runinHeader + "\n" + strings.Repeat("not json\n", 1000)
	src := &runinStdin{first: first, cancel: cancel, release: release}
	s, err := runinWaitRun(t, ctx, RunOptions{Options: Defaults(), Stdin: src}, release)
	if src.blockedReader() == "" {
		t.Fatal("the second read was never made")
	}
	runinCheckInterrupted(t, s, err, len(first))
}

// The same when the context has ended before the next read (a signal
// while Check works on what it has): the read returns at once, with no
// byte. Kills run_input.go:253:10 (and 83:27).
func TestJudgeRuninInterruptedBeforeRead(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	release := make(chan struct{})
	defer close(release)
	first := runinHeader + "\n" + strings.Repeat("not json\n", 1000)
	src := &runinStdin{first: first, cancel: func() {}, release: release}
	opt := RunOptions{Options: Defaults(), Stdin: src, Listed: func(*RunFinding) { cancel() }}
	s, err := runinWaitRun(t, ctx, opt, release)
	src.mu.Lock()
	reads := src.reads
	src.mu.Unlock()
	if reads != 1 {
		t.Fatalf("the source was read %d times after the context ended", reads)
	}
	runinCheckInterrupted(t, s, err, len(first))
}

// A log that grows from 0 bytes to 1 while it is checked gets the note
// that says so. Kills run_input.go:47:31.
func TestJudgeRuninGrowsFromEmpty(t *testing.T) {
	p := filepath.Join(t.TempDir(), "g.jsonl")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s, got, err := runinRun(t, context.Background(), []string{p}, RunOptions{}, func(string) { runinAppend(t, p, "{") })
	if err != nil {
		t.Fatal(err)
	}
	f := s.Files[0]
	if len(f.Notes) != 1 || !strings.HasPrefix(f.Notes[0], "grew from 0 to at least 1 bytes while it was checked") {
		t.Errorf("notes %q", f.Notes)
	}
	if want := []string{"LOG-2 violation: the log is empty: no session header"}; !slices.Equal(runinMessages(got), want) {
		t.Errorf("findings %q, want %q", runinMessages(got), want)
	}
}

// The one finding of compressed or binary input is about the whole file:
// no line, no seq. And each compressed format is named by its magic, xz's
// included (whose magic ends in a NUL, which would otherwise be named as
// binary data). Kills run_input.go:77:35 and 205:52.
func TestJudgeRuninSniffFinding(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, data, want string
	}{
		{"gz.jsonl", "\x1f\x8b\x08\x00rest", "gzip-compressed data, not JSONL text: decompress it first (gzip -dc FILE | conform check-log -)"},
		{"xz.jsonl", "\xfd7zXZ\x00\x00\x04rest", "xz-compressed data, not JSONL text: decompress it first (xz -dc FILE | conform check-log -)"},
		{"zst.jsonl", "\x28\xb5\x2f\xfdrest", "zstd-compressed data, not JSONL text: decompress it first (zstd -dc FILE | conform check-log -)"},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, got, err := runinRun(t, context.Background(), []string{p}, RunOptions{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Message != c.want || got[0].Seq != -1 || got[0].Line != 0 || got[0].Requirement != "LOG-1" {
			t.Errorf("%s: %+v, want one LOG-1 of line 0, seq -1: %s", c.name, got, c.want)
		}
	}
}

// sniff calls input binary when more than a quarter of its first bytes
// are not UTF-8 ("mostly invalid"); a quarter exactly is text, checked
// line by line. Kills run_input.go:228:28.
func TestJudgeRuninSniffQuarter(t *testing.T) {
	for _, c := range []struct {
		head   string
		binary bool
	}{
		{"\xff\xffabcdef", false}, // 2 of 8
		{"\xff\xff\xffabcde", true},
		{"\xffabc", false}, // 1 of 4
		{"abcdefgh", false},
	} {
		got := sniff([]byte(c.head))
		if (got != "") != c.binary || c.binary && !strings.HasPrefix(got, "binary data, not JSONL text (") {
			t.Errorf("sniff(%q) = %q, want binary %v", c.head, got, c.binary)
		}
	}
}

// The snapshot of a file that ends inside a line: the part after the last
// LF is the line being written when the file grows, and is left unread,
// as long as it could still be a line (at most MaxLineBytes); a longer
// part is a line too long anyway, read and skipped whole. Kills
// run_input.go:124:53, 124:54 and 125:15.
func TestJudgeRuninSnapshotCutInsideALine(t *testing.T) {
	const maxLine = 200
	for _, tail := range []int{maxLine - 1, maxLine, maxLine + 1, maxLine + 40} {
		p := filepath.Join(t.TempDir(), "cut.jsonl")
		text := runinHeader + "\n" + `{"type":"turn/start",` + strings.Repeat("x", tail-len(`{"type":"turn/start",`))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		opt := Defaults()
		opt.MaxLineBytes = maxLine
		s, got, err := runinRun(t, context.Background(), []string{p}, RunOptions{Options: opt}, func(string) { runinAppend(t, p, "y\n") })
		if err != nil {
			t.Fatal(err)
		}
		f := s.Files[0]
		if f.Err != nil || len(f.Notes) != 1 {
			t.Fatalf("tail %d: err %v, notes %q", tail, f.Err, f.Notes)
		}
		if tail <= maxLine {
			cut := len(runinHeader) + 1
			if len(got) != 0 || f.Stats.Bytes != int64(cut) || !strings.Contains(f.Notes[0], "only its first "+strconv.Itoa(cut)+" bytes were checked") {
				t.Errorf("tail %d, a line being written: findings %q, %d bytes read, note %q", tail, runinMessages(got), f.Stats.Bytes, f.Notes[0])
			}
			continue
		}
		want := []string{
			"LOG-1 warning: line 2: the final line has no terminating LF (truncated write?)",
			"LOG-1 violation: line 2 is longer than 200 bytes; skipped (" + strconv.Itoa(tail) + " bytes)",
		}
		if !slices.Equal(runinMessages(got), want) || f.Stats.Bytes != int64(len(text)) || !strings.Contains(f.Notes[0], "only the "+strconv.Itoa(len(text))+" bytes it had when opened were checked") {
			t.Errorf("tail %d, too long to be a line: findings %q, %d bytes read, note %q", tail, runinMessages(got), f.Stats.Bytes, f.Notes[0])
		}
	}
}

// Whether the part after the last LF is read is decided when the reading
// reaches it, not before: a file that grows while its whole lines are
// checked leaves that part unread. Kills run_input.go:142:20 and 142:38.
func TestJudgeRuninSnapshotDecidesAtTheCut(t *testing.T) {
	p := filepath.Join(t.TempDir(), "grow.jsonl")
	// Over sniff's 8 KiB of whole lines, so that the first read stops at
	// the cut and Check works on them before the next one.
	whole := runinHeader + "\n" + strings.Repeat("not json\n", 1000)
	if err := os.WriteFile(p, []byte(whole+`{"type":"tu`), 0o644); err != nil {
		t.Fatal(err)
	}
	grown := false
	opt := RunOptions{Listed: func(*RunFinding) {
		if !grown {
			grown = true
			runinAppend(t, p, `rn/start"}`+"\n")
		}
	}}
	s, got, err := runinRun(t, context.Background(), []string{p}, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := s.Files[0]
	if f.Stats.Bytes != int64(len(whole)) || len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "the start of a line being written") {
		t.Errorf("%d bytes read of %d whole, notes %q", f.Stats.Bytes, len(whole), f.Notes)
	}
	for _, m := range runinMessages(got) {
		if strings.Contains(m, "line 1002") {
			t.Errorf("the line being written was checked: %s", m)
		}
	}
}

// A file that shrinks once opened is read to its new end, which is an end
// like any other: no read error. Kills run_input.go:156:5, 156:28, 156:33
// (both).
func TestJudgeRuninSnapshotShrinks(t *testing.T) {
	p := filepath.Join(t.TempDir(), "shrink.jsonl")
	if err := os.WriteFile(p, []byte(runinHeader+"\n"+strings.Repeat("not json\n", 10)), 0o644); err != nil {
		t.Fatal(err)
	}
	s, got, err := runinRun(t, context.Background(), []string{p}, RunOptions{}, func(string) {
		if err := os.Truncate(p, int64(len(runinHeader)+1)); err != nil {
			t.Error(err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	f := s.Files[0]
	if f.Err != nil || len(got) != 0 || f.Stats.Bytes != int64(len(runinHeader)+1) || s.Result() != ResultPass {
		t.Errorf("err %v, findings %q, %d bytes, result %s", f.Err, runinMessages(got), f.Stats.Bytes, s.Result())
	}
}
