package adapter

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// proc is one adapter process. Its three pipe ends on conform's side are
// pollable, so reads and writes honour deadlines and Close interrupts them.
// Two goroutines live as long as the process: one drains stderr into the
// tail, one waits for the exit and then kills what the adapter left behind.
type proc struct {
	cmd     *exec.Cmd
	stdin   *os.File
	stdout  *os.File
	stderr  *os.File
	lines   lineReader
	tail    *ring
	marker  string        // the environment token its descendants inherit
	left    []string      // what the sweep killed after the exit; set before exited is closed
	exited  chan struct{} // closed once the process was reaped and its leftovers killed
	drained chan struct{} // closed once stderr hit EOF or was closed
	down    bool          // teardown ran

	mu   sync.Mutex // orders deadline setting against the exit
	gone bool       // the process exited; exchanges get the exit's deadlines
}

func startProc(cfg *Config, acct *leftovers) (*proc, error) {
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
	startGuardian()
	marker := newMarker()
	cmd := exec.Command(cfg.Argv[0], cfg.Argv[1:]...)
	cmd.Dir = cfg.Dir
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env[:len(env):len(env)], markerVar+"="+marker)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = f[0], f[3], f[5]
	setProcAttrs(cmd)
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
		marker:  marker,
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
		// Whatever the adapter left behind: processes carrying its marker
		// (setsid() ones too), then the rest of its process group.
		p.left = sweep(p.marker, false)
		killGroup(cmd)
		acct.add(p.left)
		if reapDelay > 0 {
			time.Sleep(reapDelay)
		}
		p.mu.Lock()
		p.gone = true
		p.exitDeadlines()
		p.mu.Unlock()
		close(p.exited)
	}()
	return p, nil
}

// startError is the start fault of a process that could not be started.
// Running out of descriptors is conform's limit, not the adapter's fault.
func startError(argv0 string, err error) *Fault {
	msg := fmt.Sprintf("cannot start %s: %v", argv0, err)
	if hint := fdLimitHint(err); hint != "" {
		msg = fmt.Sprintf("cannot start %s: %s", argv0, hint)
	}
	return &Fault{Kind: FaultStart, Message: msg}
}

// aLongTimeAgo is a deadline in the past: setting it interrupts pending I/O.
var aLongTimeAgo = time.Unix(1, 0)

// exitDrain is how long a read goes on once the adapter has exited. What
// it wrote is in the pipe already and the sweep has killed what held the
// pipe, so EOF comes by itself; this bounds the wait on a process that
// escaped the sweep. It is generous because a deadline, once passed, also
// refuses bytes already in the pipe, and a loaded machine may be slow to
// read them.
const exitDrain = time.Second

// exchange writes req (then closes stdin if closeStdin) and reads one line,
// all before deadline, for as long as ctx is not done and the process runs.
func (p *proc) exchange(ctx context.Context, deadline time.Time, req []byte, closeStdin bool) ([]byte, error) {
	p.mu.Lock()
	_ = p.stdin.SetWriteDeadline(deadline)
	_ = p.stdout.SetReadDeadline(deadline)
	if p.gone {
		p.exitDeadlines()
	}
	p.mu.Unlock()
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

// exitDeadlines make the adapter's exit end the exchange: a process it
// left holding stdout must not turn an exit into a timeout. The caller
// holds mu.
func (p *proc) exitDeadlines() {
	_ = p.stdin.SetWriteDeadline(aLongTimeAgo)
	_ = p.stdout.SetReadDeadline(time.Now().Add(exitDrain))
}

// reapDelay holds back the end of the reaping goroutine; tests set it to
// stand for a machine too loaded to reap within eofGrace. Zero otherwise.
var reapDelay time.Duration

// eofGrace is how long an adapter that closed its stdout has to exit, so
// the crash can name its exit status; then it is killed.
const eofGrace = 100 * time.Millisecond

// fail turns a failed exchange into ctx's error, a timeout Fault or a crash
// Fault, and tears the process down. The exit, or the end of stdout,
// whichever comes first, makes a crash.
func (p *proc) fail(ctx context.Context, err error, timeout time.Duration, what string) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		p.teardown()
		return ctxErr
	}
	exited := isClosed(p.exited)
	if errors.Is(err, os.ErrDeadlineExceeded) && !exited {
		p.teardown()
		return &Fault{Kind: FaultTimeout, Message: fmt.Sprintf("no answer to %s within %v; adapter killed", what, timeout) + p.leftNote(), Stderr: p.tail.String()}
	}
	var how, killed string
	switch {
	case exited || waitFor(p.exited, eofGrace):
		how = "exited (" + p.cmd.ProcessState.String() + ")"
	case errors.Is(err, io.EOF):
		// A loaded machine may reap an adapter that exited by itself after
		// the grace: the teardown's kill then finds it ended, and its own
		// status, not the kill, says how (so the wording does not depend on
		// the load).
		p.teardown()
		if isClosed(p.exited) && endedItself(p.cmd.ProcessState) {
			how = "exited (" + p.cmd.ProcessState.String() + ")"
		} else {
			how, killed = "closed its stdout", "; adapter killed"
		}
	default:
		how, killed = fmt.Sprintf("broke the exchange (%v)", err), "; adapter killed"
	}
	p.teardown()
	return &Fault{Kind: FaultCrash, Message: fmt.Sprintf("adapter %s before answering %s", how, what) + killed + p.leftNote(), Stderr: p.tail.String()}
}

// leftNote says what the sweep killed, for a fault message; call it after
// teardown.
func (p *proc) leftNote() string {
	if len(p.left) == 0 {
		return ""
	}
	return "; killed " + describeLeft(len(p.left), p.left)
}

// describeLeft is "2 processes it left behind: 41 (sleep), 42 (sh)".
func describeLeft(n int, sample []string) string {
	what := "1 process"
	if n != 1 {
		what = fmt.Sprintf("%d processes", n)
	}
	return what + " it left behind: " + strings.Join(sample, ", ")
}

// finish lets the process exit by itself within grace, then tears it down.
// It reports whether the process exited by itself.
func (p *proc) finish(grace time.Duration) bool {
	_ = p.stdin.Close()
	ok := waitFor(p.exited, grace)
	p.teardown()
	return ok
}

// teardown kills the adapter, reaps it (the wait goroutine then sweeps what
// it left behind), collects the last stderr bytes and closes conform's pipe
// ends (which also ends the stderr goroutine should a stray process still
// hold the pipe).
func (p *proc) teardown() {
	if p.down {
		return
	}
	p.down = true
	if !isClosed(p.exited) {
		// The adapter alone first: the sweep after its exit then finds
		// (and reports) its children before they die with the group.
		_ = p.cmd.Process.Kill()
		if !waitFor(p.exited, killWait) {
			killGroup(p.cmd)
			waitFor(p.exited, killWait)
		}
	}
	waitFor(p.drained, drainGrace)
	_ = p.stdin.Close()
	_ = p.stdout.Close()
	_ = p.stderr.Close()
}

// exitedBadly reports the failure status of a process that exited by itself.
func (p *proc) exitedBadly() (string, bool) {
	st := p.cmd.ProcessState
	if st == nil || st.Success() {
		return "", false
	}
	return st.String(), true
}

// leftovers counts, for a session, the processes its adapters left behind,
// for the note Close returns.
type leftovers struct {
	mu     sync.Mutex
	n      int
	sample []string
}

// maxSample is how many leftovers a note names.
const maxSample = 5

func (l *leftovers) add(left []string) {
	if l == nil || len(left) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n += len(left)
	for _, x := range left {
		if len(l.sample) < maxSample {
			l.sample = append(l.sample, x)
		}
	}
}

// note is the session's leftover note, nil when nothing was left behind.
func (l *leftovers) note() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n == 0 {
		return nil
	}
	more := ""
	if l.n > len(l.sample) {
		more = ", …"
	}
	return &Fault{Kind: FaultLeftover, Message: "the adapter's processes exited but conform killed " + describeLeft(l.n, l.sample) + more}
}

// isClosed reports whether ch is closed, without waiting.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// waitFor reports whether ch was closed within d.
func waitFor(ch <-chan struct{}, d time.Duration) bool {
	if isClosed(ch) {
		return true
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
