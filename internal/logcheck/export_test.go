package logcheck

// SetAfterOpen makes Run call f once a file's size is taken, and returns
// the undo.
func SetAfterOpen(f func(path string)) (undo func()) {
	afterOpen = f
	return func() { afterOpen = nil }
}
