package logcheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dsh-conform/conform/internal/regfile"
)

// FollowOptions configure Follow.
type FollowOptions struct {
	// Idle is how long a log whose session looks over must stay quiet
	// before following it ends (see Follow); 0 ends it at once.
	Idle time.Duration
	// Poll is how often quiet logs are read again (0: 100ms).
	Poll time.Duration
	// Read, when set, is called after each read that got bytes, with the
	// log's path and the bytes read of it so far.
	Read func(path string, n int64)
}

// followChunk is how much of a log one read takes, and the most one log
// is read at a time before the others get their turn.
const followChunk = 64 << 10

// Follow checks the logs paths name as a harness writes them, as tail -f
// reads a file: from the start, then each line as it is appended, each
// finding reported (RunOptions.Listed) as its line arrives, the cross-line
// checks (seq, call and dispatch pairing) carried along. A last line
// without its LF yet is waited for, never judged; a line is held up to
// MaxLineBytes, a longer one skipped as Check skips it.
//
// The log format has no end-of-session event (session/end-seed marks the
// end of a replayed seed, not of the session), so a log is over when its
// session looks over: a turn has ended (turn/end) and no turn is open,
// nothing is pending of a line, and no byte has arrived for fo.Idle. A
// log truncated under the reader ends there with a note. Following ends
// when every log is over, or when ctx ends: the summary is then
// Interrupted, the logs still followed Partial (a line left incomplete is
// noted), and their end-of-log checks run on what was read.
//
// paths must name files: a directory or - is a *PathError.
func Follow(ctx context.Context, paths []string, opt RunOptions, fo FollowOptions) (*Summary, error) {
	for _, p := range paths {
		if p == "-" {
			return nil, &PathError{p, errors.New("--follow reads files, not stdin (-)")}
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, &PathError{p, fmt.Errorf("path %s: %v", p, unwrapPath(err))}
		}
		if st.IsDir() {
			return nil, &PathError{p, fmt.Errorf("path %s: --follow reads files, not directories", p)}
		}
	}
	if fo.Poll <= 0 {
		fo.Poll = 100 * time.Millisecond
	}
	s := NewSummary(opt.FailOn, opt.MaxFindings, opt.Baseline)
	s.listed, s.Total = opt.Listed, len(paths)
	start := time.Now()
	var live []*follower
	for _, p := range paths {
		f := s.AddFile(p)
		fw, err := s.follow(f, p, opt.Options)
		if err != nil {
			f.Err = err
			s.followed(f, opt)
			continue
		}
		defer fw.fh.Close()
		live = append(live, fw)
	}
	chunk := make([]byte, followChunk)
	tick := time.NewTicker(fo.Poll)
	defer tick.Stop()
	for len(live) > 0 && ctx.Err() == nil {
		moved := false
		for i := 0; i < len(live); i++ {
			fw := live[i]
			n, over := fw.step(chunk, fo.Idle)
			if n > 0 && fo.Read != nil {
				fo.Read(fw.f.Name, fw.off)
			}
			moved = moved || n > 0
			if over {
				fw.end()
				s.followed(fw.f, opt)
				live = append(live[:i], live[i+1:]...)
				i--
			}
		}
		if moved || len(live) == 0 {
			continue
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
	for _, fw := range live { // interrupted
		fw.f.Partial = true
		if fw.size > 0 {
			fw.f.Notes = append(fw.f.Notes, fmt.Sprintf("stopped with its last line incomplete: %d bytes without an LF yet, not checked", fw.size))
		}
		fw.end()
		s.followed(fw.f, opt)
	}
	s.Elapsed = time.Since(start)
	s.Interrupted = ctx.Err() != nil
	s.Finish()
	return s, ctx.Err()
}

// followed hands a finished log to RunOptions.Done, as Run does.
func (s *Summary) followed(f *FileResult, opt RunOptions) {
	if opt.Done != nil {
		opt.Done(f)
		if !f.kept() {
			s.forget(f)
		}
	}
}

// follower is one followed log: the checker and the line being assembled.
type follower struct {
	f     *FileResult
	fh    *os.File
	c     *checker
	start time.Time
	off   int64 // bytes read

	line    []byte // the current line so far, when it spans reads
	size    int    // its bytes so far (LF excluded)
	tooLong bool   // over MaxLineBytes: skipped to its LF

	sniffed  bool      // the start was looked at for compressed or binary data
	notLog   bool      // it was not JSONL text: one finding, no other check
	turnSeen bool      // a turn ended and none is open since
	quiet    time.Time // when the last read found nothing new (zero: data came)
}

func (s *Summary) follow(f *FileResult, path string, opt Options) (*follower, error) {
	fh, err := regfile.Open(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	return &follower{f: f, fh: fh, c: newChecker(path, opt, func(fd Finding) { s.Add(f, fd) }), start: time.Now()}, nil
}

// step reads what the log has (at most followChunk bytes) and checks its
// complete lines; it returns the bytes read and whether the log is over.
func (fw *follower) step(chunk []byte, idle time.Duration) (int, bool) {
	n, err := fw.fh.Read(chunk)
	if n > 0 {
		fw.quiet = time.Time{}
		fw.off += int64(n)
		fw.c.st.Bytes += int64(n)
		if !fw.sniffed {
			fw.sniffed = true
			if what := sniff(chunk[:min(n, sniffBytes)]); what != "" {
				fw.c.report(0, -1, "", "LOG-1", Violation, "%s", what)
				fw.notLog = true
				return n, true
			}
		}
		fw.lines(chunk[:n])
		return n, false
	}
	if err != nil && !errors.Is(err, io.EOF) {
		fw.f.Err = unwrapPath(err)
		return 0, true
	}
	if st, err := fw.fh.Stat(); err == nil && st.Size() < fw.off {
		fw.f.Notes = append(fw.f.Notes, fmt.Sprintf("was truncated to %d bytes after %d were read; following it stopped there", st.Size(), fw.off))
		return 0, true
	}
	now := time.Now()
	if fw.quiet.IsZero() {
		fw.quiet = now
	}
	over := fw.turnSeen && !fw.c.turnOpen && fw.size == 0 && !fw.tooLong && now.Sub(fw.quiet) >= idle
	return 0, over
}

// lines checks the complete lines of b and keeps its incomplete end.
func (fw *follower) lines(b []byte) {
	maxLine := fw.c.opt.MaxLineBytes
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		body := b
		if i >= 0 {
			body = b[:i]
		}
		fw.size += len(body)
		switch {
		case fw.tooLong:
		case fw.size > maxLine:
			fw.tooLong, fw.line = true, nil
		case i >= 0 && fw.line == nil:
			// The whole line is in b.
		default:
			fw.line = grow(fw.line, len(body))
			fw.line = append(fw.line, body...)
		}
		if i < 0 {
			return // wait for the rest
		}
		line := body
		if fw.line != nil {
			line = fw.line
		}
		wasOpen := fw.c.turnOpen
		fw.c.lineDone(line, fw.size, fw.tooLong, false)
		switch {
		case fw.c.turnOpen:
			fw.turnSeen = false
		case wasOpen:
			fw.turnSeen = true // this line ended the turn
		}
		fw.line, fw.size, fw.tooLong = nil, 0, false
		b = b[i+1:]
	}
}

// end runs the end-of-log checks and records the statistics.
// An interrupted log with no line yet is not called empty.
func (fw *follower) end() {
	if !fw.notLog && (fw.c.lineNo > 0 || !fw.f.Partial) {
		fw.c.finish()
	}
	fw.f.Stats = fw.c.st
	fw.f.Elapsed = time.Since(fw.start)
}
