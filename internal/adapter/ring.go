package adapter

import (
	"sync"
	"unicode/utf8"
)

// ring keeps the last max bytes written to it: the adapter's stderr tail.
// Writes are amortised O(len(p)): the buffer grows to 2*max, then the last
// max bytes are moved to the front.
type ring struct {
	mu  sync.Mutex
	max int
	buf []byte
	cut bool // older bytes were dropped
}

func newRing(max int) *ring { return &ring{max: max} }

func (r *ring) Write(p []byte) (int, error) {
	n := len(p)
	if r.max <= 0 {
		return n, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(p) >= r.max {
		r.cut = r.cut || len(r.buf) > 0 || len(p) > r.max
		r.buf = append(r.buf[:0], p[len(p)-r.max:]...)
		return n, nil
	}
	if len(r.buf)+len(p) > 2*r.max {
		keep := r.max - len(p)
		r.cut = true
		r.buf = append(r.buf[:0], r.buf[len(r.buf)-keep:]...)
	}
	r.buf = append(r.buf, p...)
	return n, nil
}

// String returns at most the last max bytes. When older bytes were dropped,
// a UTF-8 sequence cut at the front is dropped too, so the tail starts on a
// character boundary.
func (r *ring) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.buf
	if len(b) <= r.max && !r.cut {
		return string(b)
	}
	if len(b) > r.max {
		b = b[len(b)-r.max:]
	}
	for i := 0; i < utf8.UTFMax-1 && len(b) > 0 && !utf8.RuneStart(b[0]); i++ {
		b = b[1:]
	}
	return string(b)
}
