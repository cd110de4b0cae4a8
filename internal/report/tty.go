package report

import "os"

// IsTerminal reports whether f is a character device (a terminal), the
// usual test for showing progress output: progress goes to stderr only
// when a person is watching it, never into a CI log or a redirected file.
// Like every mode-bit test it also says true for other character devices
// such as /dev/null, where progress output is harmless.
func IsTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice != 0
}
