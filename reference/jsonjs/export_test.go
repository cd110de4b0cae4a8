package jsonjs

// SetDeepFrom puts the containers Parse opens n levels down (root = 0) on
// a tape, so that specs compare the tape's path with the tree's on small
// values; the returned func restores the default.
func SetDeepFrom(n int) (restore func()) {
	old := deepFrom
	deepFrom = n
	return func() { deepFrom = old }
}

// DeepFrom is the default depth of the first containers on a tape.
func DeepFrom() int { return deepFrom }

// SetTapeLimit makes n bytes the longest text a tape holds, so that specs
// see a text over MaxTapeBytes refused without 1 GiB of it; the returned
// func restores the default.
func SetTapeLimit(n int) (restore func()) {
	old := tapeLimit
	tapeLimit = n
	return func() { tapeLimit = old }
}

// OnTape reports whether v is a container Parse kept on a tape.
func OnTape(v Value) bool { return v.isDeep() }
