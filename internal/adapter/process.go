package adapter

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sync"
	"time"
)

// Defaults for Config.
const (
	DefaultTimeout          = 10 * time.Second
	DefaultHandshakeTimeout = 30 * time.Second
	DefaultMaxLineBytes     = 64 << 20
	DefaultStderrTail       = 4096
)

const (
	// exitGrace is how long conform waits for an adapter that closed its
	// pipes (or was told bye) to exit before killing it.
	exitGrace = 2 * time.Second
	// execExitGrace is how long an exec-mode process may take to exit after
	// its answer was read; then it is killed (the answer stands).
	execExitGrace = 250 * time.Millisecond
	// killWait bounds the wait for a killed process to be reaped.
	killWait = 5 * time.Second
	// drainGrace bounds the wait for the last stderr bytes after an exit.
	drainGrace = 500 * time.Millisecond
	// maxFailedStarts is how many restarts in a row may fail before the
	// session stops retrying and fails later cases at once.
	maxFailedStarts = 3
	// pipeBuf is the size of the stdout reader's buffer.
	pipeBuf = 64 << 10
)

// Config says how to run an adapter.
type Config struct {
	// Argv is the adapter command: the program and its arguments. It is run
	// directly, never through a shell; a program without a '/' is looked up
	// in PATH.
	Argv []string
	// Exec starts one process per case instead of one for the session.
	Exec bool
	// Timeout bounds one case: writing the request and reading the answer
	// (in exec mode also starting the process). Default 10s.
	Timeout time.Duration
	// HandshakeTimeout bounds starting the process and the hello exchange.
	// Default 30s.
	HandshakeTimeout time.Duration
	// MaxLineBytes is the longest answer line accepted. Default 64 MiB.
	MaxLineBytes int
	// StderrTail is how many of the last stderr bytes are kept and attached
	// to faults. Default 4096.
	StderrTail int
	// Dir is the adapter's working directory; "" is conform's.
	Dir string
	// Env is the adapter's environment; nil is conform's.
	Env []string
}

func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.HandshakeTimeout <= 0 {
		c.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if c.MaxLineBytes <= 0 {
		c.MaxLineBytes = DefaultMaxLineBytes
	}
	if c.StderrTail <= 0 {
		c.StderrTail = DefaultStderrTail
	}
	c.Argv = slices.Clone(c.Argv)
	return c
}

var errClosed = errors.New("adapter: session closed")

// Start starts the adapter cfg.Argv and performs the handshake. It returns a
// *Fault of kind start when the process cannot be started, does not answer
// the handshake in time, exits, or answers something other than a valid
// protocol-1 hello with an "ops" array. ctx bounds the handshake only; the
// process lives until Close. With cfg.Exec the handshake is one process run
// and every case another.
func Start(ctx context.Context, cfg Config) (Session, error) {
	cfg = cfg.withDefaults()
	if len(cfg.Argv) == 0 || cfg.Argv[0] == "" {
		return nil, &Fault{Kind: FaultStart, Message: "no adapter command"}
	}
	p, hello, err := launch(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Exec {
		p.finish(execExitGrace)
		return &execSession{cfg: cfg, hello: hello}, nil
	}
	return &procSession{cfg: cfg, hello: hello, p: p}, nil
}

// launch starts a process and runs the handshake on it.
func launch(ctx context.Context, cfg *Config) (*proc, Hello, error) {
	p, err := startProc(cfg)
	if err != nil {
		return nil, Hello{}, &Fault{Kind: FaultStart, Message: fmt.Sprintf("cannot start %s: %v", cfg.Argv[0], err)}
	}
	line, err := p.exchange(ctx, time.Now().Add(cfg.HandshakeTimeout), helloRequest, cfg.Exec)
	if err == nil && ctx.Err() == nil {
		h, problem := decodeHello(line)
		if problem == "" {
			return p, h, nil
		}
		p.teardown()
		return nil, Hello{}, &Fault{Kind: FaultStart, Message: problem, Stderr: p.tail.String()}
	}
	if errors.Is(err, errLineTooLong) && ctx.Err() == nil {
		p.teardown()
		return nil, Hello{}, &Fault{Kind: FaultStart, Message: fmt.Sprintf("handshake answer line over %d bytes", cfg.MaxLineBytes), Stderr: p.tail.String()}
	}
	err = p.fail(ctx, err, cfg.HandshakeTimeout, "the handshake")
	var f *Fault
	if errors.As(err, &f) {
		f.Kind = FaultStart
	}
	return nil, Hello{}, err
}

// procSession is one persistent adapter process, replaced after a fault
// that leaves it unusable.
// requests is what both process sessions keep per session: the lock that
// serializes cases, the closed flag and a reusable request buffer.
type requests struct {
	mu     sync.Mutex
	req    []byte
	closed bool
}

// request builds the run request for a case; the caller holds mu.
func (s *requests) request(ctx context.Context, id, op string, input []byte) ([]byte, error) {
	if s.closed {
		return nil, errClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	req, err := appendRunRequest(s.req[:0], id, op, input)
	if err != nil {
		return nil, err
	}
	if cap(req) <= keepBuf {
		s.req = req
	}
	return req, nil
}

type procSession struct {
	cfg   Config
	hello Hello
	requests

	p            *proc // nil: start a new one before the next case
	failedStarts int
	lastStart    *Fault
}

func (s *procSession) Hello() Hello { return s.hello }

func (s *procSession) Run(ctx context.Context, id, op string, input []byte) (Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, err := s.request(ctx, id, op, input)
	if err != nil {
		return Reply{}, err
	}
	if s.p == nil {
		if err := s.restart(ctx); err != nil {
			return Reply{}, err
		}
	}
	p := s.p
	line, err := p.exchange(ctx, time.Now().Add(s.cfg.Timeout), req, false)
	if err == nil && ctx.Err() == nil {
		r, problem := decodeAnswer(line, id)
		if problem == nil {
			return r, nil
		}
		if problem.desync {
			p.teardown()
			s.p = nil
		}
		return Reply{}, &Fault{Kind: FaultProtocol, Message: problem.msg, Stderr: p.tail.String()}
	}
	if errors.Is(err, errLineTooLong) && ctx.Err() == nil {
		// The line was drained: the stream is in step, the process stays.
		return Reply{}, &Fault{Kind: FaultProtocol, Message: fmt.Sprintf("answer line over %d bytes (discarded)", s.cfg.MaxLineBytes), Stderr: p.tail.String()}
	}
	s.p = nil
	return Reply{}, p.fail(ctx, err, s.cfg.Timeout, "case "+id)
}

// restart replaces the process and replays the handshake. After
// maxFailedStarts failures in a row it stops trying.
func (s *procSession) restart(ctx context.Context) error {
	if s.failedStarts >= maxFailedStarts {
		f := *s.lastStart
		f.Message = fmt.Sprintf("not restarting the adapter after %d failed restarts; last: %s", s.failedStarts, f.Message)
		return &f
	}
	p, _, err := launch(ctx, &s.cfg)
	if err != nil {
		var f *Fault
		if errors.As(err, &f) {
			f.Message = "restarting the adapter: " + f.Message
			s.failedStarts++
			s.lastStart = f
		}
		return err
	}
	s.failedStarts = 0
	s.p = p
	return nil
}

// Close sends bye, closes the adapter's stdin and waits briefly for it to
// exit, then kills it. It returns a *Fault when the adapter had to be killed
// or exited with a failure status. Closing twice is a no-op.
func (s *procSession) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	p := s.p
	s.p = nil
	if p == nil {
		return nil
	}
	_ = p.stdin.SetWriteDeadline(time.Now().Add(exitGrace))
	_, _ = p.stdin.Write(byeRequest)
	_ = p.stdin.Close()
	exited := waitFor(p.exited, exitGrace)
	p.teardown()
	if !exited {
		return &Fault{Kind: FaultTimeout, Message: fmt.Sprintf("adapter did not exit within %v of bye; killed", exitGrace), Stderr: p.tail.String()}
	}
	if st := p.cmd.ProcessState; st != nil && !st.Success() {
		return &Fault{Kind: FaultCrash, Message: "adapter exited with " + st.String() + " after bye", Stderr: p.tail.String()}
	}
	return nil
}

// execSession starts one process per case.
type execSession struct {
	cfg   Config
	hello Hello
	requests
}

func (s *execSession) Hello() Hello { return s.hello }

func (s *execSession) Run(ctx context.Context, id, op string, input []byte) (Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, err := s.request(ctx, id, op, input)
	if err != nil {
		return Reply{}, err
	}
	deadline := time.Now().Add(s.cfg.Timeout)
	p, err := startProc(&s.cfg)
	if err != nil {
		return Reply{}, &Fault{Kind: FaultStart, Message: fmt.Sprintf("cannot start %s: %v", s.cfg.Argv[0], err)}
	}
	line, err := p.exchange(ctx, deadline, req, true)
	if err == nil && ctx.Err() == nil {
		r, problem := decodeAnswer(line, id)
		p.finish(execExitGrace)
		if problem != nil {
			return Reply{}, &Fault{Kind: FaultProtocol, Message: problem.msg, Stderr: p.tail.String()}
		}
		return r, nil
	}
	if errors.Is(err, errLineTooLong) && ctx.Err() == nil {
		p.teardown()
		return Reply{}, &Fault{Kind: FaultProtocol, Message: fmt.Sprintf("answer line over %d bytes (discarded)", s.cfg.MaxLineBytes), Stderr: p.tail.String()}
	}
	return Reply{}, p.fail(ctx, err, s.cfg.Timeout, "case "+id)
}

func (s *execSession) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

// proc is one adapter process. Its three pipe ends on conform's side are
// pollable, so reads and writes honour deadlines and Close interrupts them.
// Two goroutines live as long as the process: one drains stderr into the
// tail, one waits for the exit.
type proc struct {
	cmd     *exec.Cmd
	stdin   *os.File
	stdout  *os.File
	stderr  *os.File
	lines   lineReader
	tail    *ring
	exited  chan struct{} // closed once the process was reaped
	drained chan struct{} // closed once stderr hit EOF or was closed
	down    bool          // teardown ran
}

func startProc(cfg *Config) (*proc, error) {
	var f [6]*os.File // stdin r/w, stdout r/w, stderr r/w
	closeAll := func() {
		for _, x := range f {
			if x != nil {
				_ = x.Close()
			}
		}
	}
	for i := 0; i < len(f); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll()
			return nil, err
		}
		f[i], f[i+1] = r, w
	}
	cmd := exec.Command(cfg.Argv[0], cfg.Argv[1:]...)
	cmd.Dir, cmd.Env = cfg.Dir, cfg.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = f[0], f[3], f[5]
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, err
	}
	// The child holds its ends now; closing ours lets EOF mean "gone".
	_, _, _ = f[0].Close(), f[3].Close(), f[5].Close()
	p := &proc{
		cmd:     cmd,
		stdin:   f[1],
		stdout:  f[2],
		stderr:  f[4],
		tail:    newRing(cfg.StderrTail),
		exited:  make(chan struct{}),
		drained: make(chan struct{}),
	}
	p.lines = lineReader{r: bufio.NewReaderSize(p.stdout, pipeBuf), max: cfg.MaxLineBytes}
	go func() {
		defer close(p.drained)
		_, _ = io.Copy(p.tail, p.stderr)
	}()
	go func() {
		_ = cmd.Wait()
		killGroup(cmd) // whatever the adapter left behind in its group
		close(p.exited)
	}()
	return p, nil
}

// aLongTimeAgo is a deadline in the past: setting it interrupts pending I/O.
var aLongTimeAgo = time.Unix(1, 0)

// exchange writes req (then closes stdin if closeStdin) and reads one line,
// all before deadline and for as long as ctx is not done.
func (p *proc) exchange(ctx context.Context, deadline time.Time, req []byte, closeStdin bool) ([]byte, error) {
	_ = p.stdin.SetWriteDeadline(deadline)
	_ = p.stdout.SetReadDeadline(deadline)
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, func() {
			_ = p.stdin.SetWriteDeadline(aLongTimeAgo)
			_ = p.stdout.SetReadDeadline(aLongTimeAgo)
		})
		defer stop()
	}
	if _, err := p.stdin.Write(req); err != nil {
		return nil, err
	}
	if closeStdin {
		_ = p.stdin.Close()
	}
	return p.lines.next()
}

// fail turns a failed exchange into ctx's error, a timeout Fault or a crash
// Fault, and tears the process down.
func (p *proc) fail(ctx context.Context, err error, timeout time.Duration, what string) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		p.teardown()
		return ctxErr
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		p.teardown()
		return &Fault{Kind: FaultTimeout, Message: fmt.Sprintf("no answer to %s within %v; adapter killed", what, timeout), Stderr: p.tail.String()}
	}
	// End of stdout, a broken stdin pipe or a read error: the adapter is
	// gone, or has closed its pipes and is about to be.
	var how string
	if waitFor(p.exited, exitGrace) {
		how = "exited (" + p.cmd.ProcessState.String() + ")"
	} else {
		how = fmt.Sprintf("closed its pipes (%v) but did not exit; killed", err)
	}
	p.teardown()
	return &Fault{Kind: FaultCrash, Message: fmt.Sprintf("adapter %s before answering %s", how, what), Stderr: p.tail.String()}
}

// finish lets the process exit by itself within grace, then tears it down.
func (p *proc) finish(grace time.Duration) {
	_ = p.stdin.Close()
	waitFor(p.exited, grace)
	p.teardown()
}

// teardown kills the process group, reaps the process, collects the last
// stderr bytes and closes conform's pipe ends (which also ends the stderr
// goroutine should a stray process still hold the pipe).
func (p *proc) teardown() {
	if p.down {
		return
	}
	p.down = true
	select {
	case <-p.exited:
	default:
		killGroup(p.cmd)
		waitFor(p.exited, killWait)
	}
	waitFor(p.drained, drainGrace)
	_ = p.stdin.Close()
	_ = p.stdout.Close()
	_ = p.stderr.Close()
}

// waitFor reports whether ch was closed within d.
func waitFor(ch <-chan struct{}, d time.Duration) bool {
	select {
	case <-ch:
		return true
	default:
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
