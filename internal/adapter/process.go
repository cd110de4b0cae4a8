package adapter

import (
	"context"
	"errors"
	"fmt"
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
	// exitGrace is how long conform waits for an adapter told bye to exit
	// before killing it.
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
	// defaultMaxFaults is the circuit breaker's default: after this many
	// cases in a row that cost the adapter process (a crash, a timeout, an
	// out-of-step stream, a failed restart), later cases fail at once
	// (Bowtie gives up after 10 restarts too).
	defaultMaxFaults = 10
	// minRestartTimeout and restartFactor set a restart's handshake
	// deadline: restartFactor times the first handshake, at least
	// minRestartTimeout, at most Config.HandshakeTimeout.
	minRestartTimeout = 5 * time.Second
	restartFactor     = 10
	// pipeBuf is the size of the stdout reader's buffer.
	pipeBuf = 64 << 10
)

// FaultLeftover is the kind of a Close note: the adapter's processes had
// exited, but conform had to kill processes it left behind. It is never a
// case's fault.
const FaultLeftover FaultKind = "leftover"

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
	// RestartTimeout bounds the handshake of a restart, which does not run
	// under the case's timeout. Default: 10 times the first handshake's
	// time, at least 5s and at most HandshakeTimeout.
	RestartTimeout time.Duration
	// MaxFaults is the circuit breaker: after this many cases in a row
	// that cost the adapter process, later cases fail at once. 0 is 10; a
	// negative value turns it off (the fuzzer: a breaker's instant faults
	// would pass for reproductions while shrinking). Three failed restarts
	// in a row stop the restarts whatever it says.
	MaxFaults int
	// MaxLineBytes is the longest answer line accepted. Default 64 MiB.
	MaxLineBytes int
	// StderrTail is how many of the last stderr bytes are kept and attached
	// to faults. Default 4096.
	StderrTail int
	// Dir is the adapter's working directory; "" is conform's.
	Dir string
	// Env is the adapter's environment; nil is conform's. conform adds
	// CONFORM_ADAPTER_TOKEN, by which it finds what the adapter leaves
	// behind.
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
	if c.MaxFaults == 0 {
		c.MaxFaults = defaultMaxFaults
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
	acct := &leftovers{}
	began := time.Now()
	p, hello, err := launch(ctx, &cfg, acct, cfg.HandshakeTimeout, "the handshake")
	if err != nil {
		return nil, err
	}
	if cfg.RestartTimeout <= 0 {
		cfg.RestartTimeout = min(max(restartFactor*time.Since(began), minRestartTimeout), cfg.HandshakeTimeout)
	}
	if cfg.Exec {
		if p.finish(execExitGrace) {
			if st, bad := p.exitedBadly(); bad {
				return nil, &Fault{Kind: FaultStart, Message: "adapter answered the handshake, then exited with " + st, Stderr: p.tail.String()}
			}
		}
		return &execSession{cfg: cfg, hello: hello, requests: requests{left: acct, maxFaults: cfg.MaxFaults}}, nil
	}
	return &procSession{cfg: cfg, hello: hello, p: p, requests: requests{left: acct, maxFaults: cfg.MaxFaults}}, nil
}

// launch starts a process and runs the handshake on it within timeout.
func launch(ctx context.Context, cfg *Config, acct *leftovers, timeout time.Duration, what string) (*proc, Hello, error) {
	p, err := startProc(cfg, acct)
	if err != nil {
		return nil, Hello{}, startError(cfg.Argv[0], err)
	}
	line, err := p.exchange(ctx, time.Now().Add(timeout), helloRequest, cfg.Exec)
	if err == nil && ctx.Err() == nil {
		h, problem := decodeHello(line)
		if problem == "" {
			return p, h, nil
		}
		p.teardown()
		return nil, Hello{}, &Fault{Kind: FaultStart, Message: problem + p.leftNote(), Stderr: p.tail.String()}
	}
	if errors.Is(err, errLineTooLong) && ctx.Err() == nil {
		p.teardown()
		return nil, Hello{}, &Fault{Kind: FaultStart, Message: fmt.Sprintf("handshake answer line over %d bytes", cfg.MaxLineBytes) + p.leftNote(), Stderr: p.tail.String()}
	}
	err = p.fail(ctx, err, timeout, what)
	var f *Fault
	if errors.As(err, &f) {
		f.Kind = FaultStart
	}
	return nil, Hello{}, err
}

// RunBound is how long a Run of a process session can take before it
// returns by itself (a restart's handshake, the case, the kills and the
// last stderr bytes), and whether s is one. A caller's deadline is a
// backstop only and must be later, or it wins the race and the fault loses
// its message and stderr: runner.RunCase applies this one rule for run,
// fuzz and conformtest alike.
func RunBound(s Session) (time.Duration, bool) {
	const margin = time.Second
	switch s := s.(type) {
	case *procSession:
		return s.cfg.RestartTimeout + s.cfg.Timeout + 2*killWait + drainGrace + eofGrace + margin, true
	case *execSession:
		return s.cfg.Timeout + execExitGrace + 2*killWait + drainGrace + eofGrace + margin, true
	}
	return 0, false
}

// requests is what both process sessions keep: the lock that serializes
// cases, the closed flag, a reusable request buffer, the circuit breaker
// and the count of leftover processes.
type requests struct {
	mu     sync.Mutex
	req    []byte
	closed bool
	left   *leftovers

	maxFaults    int // Config.MaxFaults
	faults       int // cases in a row that cost the adapter process
	failedStarts int // restarts in a row that failed
	last         *Fault
}

// request builds the run request for a case; the caller holds mu. Once the
// breaker is open it returns the fault every later case gets.
func (s *requests) request(ctx context.Context, id, op string, input []byte) ([]byte, error) {
	if s.closed {
		return nil, errClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if f := s.open(); f != nil {
		return nil, f
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

// open returns the breaker's fault, or nil while it is closed.
func (s *requests) open() *Fault {
	var why string
	switch {
	case s.failedStarts >= maxFailedStarts:
		why = fmt.Sprintf("not run: %d restarts of the adapter failed in a row", s.failedStarts)
	case s.maxFaults > 0 && s.faults >= s.maxFaults:
		why = fmt.Sprintf("not run: the adapter failed %d cases in a row", s.faults)
	default:
		return nil
	}
	// Every later case carries this fault: it quotes the last one cut
	// short (with its stderr tail, bounded at 4 KiB), and Last keeps it for the report to
	// quote once (issue 21: a 1 MB message is not copied into every case).
	f := *s.last
	f.Message, f.NotRun, f.Last = why+"; last: "+cut(f.Message, maxQuoted), true, s.last.Message
	return &f
}

// maxQuoted bounds the last fault's message in each case the breaker
// refuses.
const maxQuoted = 200

// cut is s cut to n bytes on a rune boundary, its length stated.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:n], len(s))
}

// fault counts a fault that cost the adapter process and returns err.
func (s *requests) fault(err error) error {
	var f *Fault
	if errors.As(err, &f) {
		s.faults++
		s.last = f
	}
	return err
}

// answered resets the breaker.
func (s *requests) answered() { s.faults, s.failedStarts = 0, 0 }

// procSession is one persistent adapter process, replaced after a fault
// that leaves it unusable.
type procSession struct {
	cfg   Config
	hello Hello
	requests

	p *proc // nil: start a new one before the next case
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
			s.answered()
			return r, nil
		}
		f := &Fault{Kind: FaultProtocol, Message: problem.msg, Stderr: p.tail.String()}
		if !problem.desync {
			return Reply{}, f
		}
		p.teardown()
		s.p = nil
		return Reply{}, s.fault(f)
	}
	if errors.Is(err, errLineTooLong) && ctx.Err() == nil {
		// The line was drained: the stream is in step, the process stays.
		return Reply{}, &Fault{Kind: FaultProtocol, Message: fmt.Sprintf("answer line over %d bytes (discarded)", s.cfg.MaxLineBytes), Stderr: p.tail.String()}
	}
	s.p = nil
	return Reply{}, s.fault(p.fail(ctx, err, s.cfg.Timeout, "case "+id))
}

// restart replaces the process and replays the handshake, within the
// restart deadline (not the case's). Its faults count for the breaker.
func (s *procSession) restart(ctx context.Context) error {
	p, _, err := launch(ctx, &s.cfg, s.left, s.cfg.RestartTimeout, "the restart's handshake")
	if err != nil {
		var f *Fault
		if errors.As(err, &f) {
			f.Message = "restarting the adapter: " + f.Message
			s.failedStarts++
		}
		return s.fault(err)
	}
	s.failedStarts = 0
	s.p = p
	return nil
}

// Close sends bye, closes the adapter's stdin and waits briefly for it to
// exit, then kills it. It returns a *Fault when the adapter had to be killed
// or exited with a failure status, and one of kind leftover when conform
// killed processes the adapter left behind during the session (joined with
// errors.Join). Closing twice is a no-op.
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
		return s.left.note()
	}
	_ = p.stdin.SetWriteDeadline(time.Now().Add(exitGrace))
	_, _ = p.stdin.Write(byeRequest)
	_ = p.stdin.Close()
	exited := waitFor(p.exited, exitGrace)
	p.teardown()
	var bye error
	if !exited {
		bye = &Fault{Kind: FaultTimeout, Message: fmt.Sprintf("adapter did not exit within %v of bye; killed", exitGrace), Stderr: p.tail.String()}
	} else if st, bad := p.exitedBadly(); bad {
		bye = &Fault{Kind: FaultCrash, Message: "adapter exited with " + st + " after bye", Stderr: p.tail.String()}
	}
	return errors.Join(bye, s.left.note())
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
	p, err := startProc(&s.cfg, s.left)
	if err != nil {
		return Reply{}, s.fault(startError(s.cfg.Argv[0], err))
	}
	line, err := p.exchange(ctx, deadline, req, true)
	if err == nil && ctx.Err() == nil {
		r, problem := decodeAnswer(line, id)
		exitedItself := p.finish(execExitGrace)
		if problem != nil {
			return Reply{}, s.fault(&Fault{Kind: FaultProtocol, Message: problem.msg + p.leftNote(), Stderr: p.tail.String()})
		}
		// An exit status is part of the answer: a failing one is a crash,
		// even after a correct answer (docs/protocol.md, exec mode).
		if st, bad := p.exitedBadly(); exitedItself && bad {
			return Reply{}, s.fault(&Fault{Kind: FaultCrash, Message: fmt.Sprintf("adapter answered case %s, then exited with %s", id, st) + p.leftNote(), Stderr: p.tail.String()})
		}
		s.answered()
		return r, nil
	}
	if errors.Is(err, errLineTooLong) && ctx.Err() == nil {
		p.teardown()
		return Reply{}, s.fault(&Fault{Kind: FaultProtocol, Message: fmt.Sprintf("answer line over %d bytes (discarded)", s.cfg.MaxLineBytes), Stderr: p.tail.String()})
	}
	return Reply{}, s.fault(p.fail(ctx, err, s.cfg.Timeout, "case "+id))
}

// Close returns the leftover note, as procSession.Close does.
func (s *execSession) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.left.note()
}
