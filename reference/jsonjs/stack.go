package jsonjs

// stack is a LIFO of T held in chunks of at least stackChunk elements,
// for the walks whose stack grows with a value's depth (the encoder's,
// the comparator's): it never copies a full chunk, so a stack of n
// elements has allocated about n of them, where a slice that doubles
// allocates 2n and moves n (issue 23: a value nested 10^7 levels deep).
// A shallow value never leaves the first chunk, which grows as a slice
// does.
type stack[T any] struct {
	top   []T   // the top chunk, in use up to its length
	below [][]T // the full chunks under it, bottom first
	spare []T   // a chunk popped empty, kept for the next push
	n     int
}

const stackChunk = 1024

// push adds x on top.
func (s *stack[T]) push(x T) {
	if len(s.top) == cap(s.top) && cap(s.top) >= stackChunk {
		s.below = append(s.below, s.top)
		s.top, s.spare = s.spare[:0], nil
		if s.top == nil {
			s.top = make([]T, 0, stackChunk)
		}
	}
	s.top = append(s.top, x)
	s.n++
}

// peek is the top element; s must not be empty.
func (s *stack[T]) peek() *T { return &s.top[len(s.top)-1] }

// pop removes the top element; s must not be empty.
func (s *stack[T]) pop() {
	s.top = s.top[:len(s.top)-1]
	s.n--
	if len(s.top) == 0 && len(s.below) > 0 {
		s.spare = s.top
		s.top = s.below[len(s.below)-1]
		s.below = s.below[:len(s.below)-1]
	}
}

// reset empties s for the next walk, keeping its first chunk, whose first
// used elements it zeroes (a pooled parser keeps no references); the
// other chunks are dropped.
func (s *stack[T]) reset(used int) {
	if len(s.below) > 0 {
		s.top = s.below[0]
	}
	clear(s.top[:min(used, cap(s.top))])
	s.top, s.below, s.spare, s.n = s.top[:0], nil, nil, 0
}

// len is the number of elements.
func (s *stack[T]) len() int { return s.n }

// each calls fn with every element, bottom first.
func (s *stack[T]) each(fn func(*T)) {
	for _, c := range s.below {
		for i := range c {
			fn(&c[i])
		}
	}
	for i := range s.top {
		fn(&s.top[i])
	}
}
