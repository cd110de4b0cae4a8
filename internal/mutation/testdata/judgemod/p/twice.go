package p

// Twice is called only by the command p/cmd/twice, which a test builds and
// runs (as cmd/conform's specs build conform): its mutant is killed only if
// that build holds it.
func Twice(a int) int {
	return a * 2
}
