package conformtest

import (
	"context"
	"fmt"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
)

// DefaultTimeout is a case's deadline unless WithTimeout says otherwise:
// the per-case timeout of `conform run`.
const DefaultTimeout = adapter.DefaultTimeout

// hangGrace is how long a harness whose case context is done may take to
// return before the watchdog gives up on it.
const hangGrace = time.Second

// Option configures Check and Run.
type Option func(*options)

type options struct{ timeout time.Duration }

// WithTimeout sets each case's deadline (default DefaultTimeout). The
// harness's context is done at the deadline; a harness that has not
// returned one second later is given up on (see Check).
func WithTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.timeout = d
		}
	}
}

func newOptions(opts []Option) options {
	o := options{timeout: DefaultTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// bound runs h with the case's context: the in-process session calls it
// from one goroutine at a time, and ctx is set before each call.
type bound struct {
	h   Harness
	ctx context.Context
}

func (b *bound) Ops() []string { return b.h.Ops() }

func (b *bound) Run(op string, input []byte) ([]byte, error) { return b.h.Run(b.ctx, op, input) }

// watched is the in-process session with a watchdog per case, like
// nettest.TestConn's: the case runs in a goroutine, and when its context
// is done and the harness does not return within hangGrace the case is a
// timeout. The harness goroutine cannot be stopped; it is left running and
// no later case is sent, so the harness is still called from one
// goroutine at a time.
type watched struct {
	h    *bound
	s    adapter.Session
	hung string // the case the harness never returned from
}

func newWatched(h Harness) *watched {
	b := &bound{h: h}
	return &watched{h: b, s: adapter.InProcess(b, adapter.Implementation{Name: fmt.Sprintf("%T", h), Language: "go"})}
}

func (w *watched) Hello() adapter.Hello { return w.s.Hello() }

func (w *watched) Close() error { return nil }

type answer struct {
	r   adapter.Reply
	err error
}

func (w *watched) Run(ctx context.Context, id, op string, input []byte) (adapter.Reply, error) {
	if w.hung != "" {
		return adapter.Reply{}, &adapter.Fault{Kind: adapter.FaultTimeout, Message: fmt.Sprintf("not run: the harness never returned from case %s", w.hung)}
	}
	if err := ctx.Err(); err != nil {
		return adapter.Reply{}, err
	}
	w.h.ctx = ctx
	done := make(chan answer, 1)
	go func() {
		r, err := w.s.Run(ctx, id, op, input)
		done <- answer{r, err}
	}()
	select {
	case a := <-done:
		if ctx.Err() != nil {
			return adapter.Reply{}, ctx.Err() // too late: the answer does not count
		}
		return a.r, a.err
	case <-ctx.Done():
	}
	t := time.NewTimer(hangGrace)
	defer t.Stop()
	select {
	case <-done:
		return adapter.Reply{}, ctx.Err()
	case <-t.C:
		w.hung = id
		return adapter.Reply{}, &adapter.Fault{Kind: adapter.FaultTimeout, Message: fmt.Sprintf("the harness did not return within %v of the case's deadline (it ignores its context); later cases are not run", hangGrace)}
	}
}
