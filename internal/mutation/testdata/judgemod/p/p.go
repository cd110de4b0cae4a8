// Package p is the judge run's own test subject (gotest_test.go): each
// function is there for one outcome of the kill rule.
package p

// Max is tested: its mutants are killed.
func Max(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// HalfUp is never called by the tests: its mutants are not covered.
func HalfUp(a int) int {
	return a/2 + 1
}

// Zero folds to a constant: 1 * 0 builds the same test binary.
func Zero() int {
	return 0 * 0
}

// Sum counts up to n: i-- never gets there, the tests hang.
func Sum(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}
