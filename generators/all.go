package generators

import "fmt"

// DrawnPerOp is how many generated cases each op contributes to the
// fixtures. Changing it adds or removes gen-NNN cases at the end; it never
// renames one.
const DrawnPerOp = 25

// All returns every fixture case: the named cases, then DrawnPerOp
// generated cases per op, in a fixed order. Case IDs are unique.
func All() ([]Case, error) {
	cases := Named()
	seen := make(map[string]bool, len(cases))
	for _, c := range cases {
		seen[c.ID()] = true
	}
	for _, op := range DrawnOps() {
		drawn, err := Drawn(op, DrawnPerOp)
		if err != nil {
			return nil, err
		}
		for _, c := range drawn {
			if seen[c.ID()] {
				return nil, fmt.Errorf("case %s: defined twice", c.ID())
			}
			seen[c.ID()] = true
			cases = append(cases, c)
		}
	}
	return cases, nil
}
