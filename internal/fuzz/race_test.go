//go:build race

package fuzz_test

// raceEnabled: the race detector slows shrinking about eightfold.
const raceEnabled = true
