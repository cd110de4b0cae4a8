package generators

// namedStrength holds the cases mutation testing of the reference asked for
// (docs/mutation.md): each kills mutants no earlier named case could, and
// each passes against the published upstream harness.
func namedStrength() []Case {
	var cases []Case
	for _, part := range [][]Case{
		namedStrengthRunCode(),
		namedStrengthSearch(),
		namedStrengthRetention(),
	} {
		cases = append(cases, part...)
	}
	return cases
}
