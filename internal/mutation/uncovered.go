package mutation

import (
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// UncoveredFile explains the statements of reference/ that are linked into
// the adapter and yet left uncovered by the golden run.
const UncoveredFile = "spec/uncovered.yaml"

// Uncovered is one entry: the uncovered blocks of function Func in File
// whose first source line contains Contains, and why no op reaches them.
type Uncovered struct {
	File     string `yaml:"file"`
	Func     string `yaml:"func"`
	Contains string `yaml:"contains"`
	Reason   string `yaml:"reason"`
	Line     int    `yaml:"-"` // of the entry in the file
}

// LoadUncovered reads the entries; each needs all four fields.
func LoadUncovered(path string) ([]Uncovered, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseUncovered(path, b)
}

// ParseUncovered reads the entries of b, naming path and the line of a bad
// entry in its errors.
func ParseUncovered(path string, b []byte) ([]Uncovered, error) {
	items, err := yamlList(path, b)
	if err != nil {
		return nil, err
	}
	var out []Uncovered
	seen := map[Uncovered]int{}
	for _, n := range items {
		var u Uncovered
		if err := n.Decode(&u); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n.Line, err)
		}
		if u.File == "" || u.Func == "" || u.Contains == "" || u.Reason == "" {
			return nil, fmt.Errorf("%s:%d: an entry needs file, func, contains and reason", path, n.Line)
		}
		if first, dup := seen[u]; dup {
			return nil, fmt.Errorf("%s:%d: the same entry as line %d", path, n.Line, first)
		}
		seen[u] = n.Line
		u.Line = n.Line
		out = append(out, u)
	}
	return out, nil
}

// yamlList is the items of the YAML list b (none for a file of comments),
// so that errors can name an item's line.
func yamlList(path string, b []byte) ([]*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil // only comments
	}
	list := doc.Content[0]
	if list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s:%d: want a list of entries", path, list.Line)
	}
	return list.Content, nil
}

// matches reports whether the entry explains block b. Func is the symbol
// form (T.M, (*T).M) or the bare name `go tool cover -func` prints.
func (u Uncovered) matches(b Block) bool {
	if u.File != b.File || !strings.Contains(b.Source, u.Contains) {
		return false
	}
	return u.Func == b.Func || u.Func == bareName(b.Func)
}

func bareName(fn string) string { return fn[strings.LastIndexByte(fn, '.')+1:] }

// UncoveredMutants returns, by mutant id, the reason of the entry that
// explains the block holding each mutant the golden run cannot reach: a
// block of blocks (GoldenCoverage's, counts of the golden run and the
// framing script) never executed and explained by an entry. A mutant of an
// unexplained block is not returned: it is judged, survives, and shows.
func UncoveredMutants(blocks []Block, entries []Uncovered, ms []Mutant) map[string]string {
	byFile := map[string][]Block{}
	for _, b := range blocks {
		if b.Count == 0 {
			byFile[b.File] = append(byFile[b.File], b)
		}
	}
	out := map[string]string{}
	for _, m := range ms {
		for _, b := range byFile[m.File] {
			if !before(b.StartLine, b.StartCol, m.Line, m.Col) || !before(m.Line, m.Col, b.EndLine, b.EndCol) {
				continue
			}
			for _, e := range entries {
				if e.matches(b) {
					out[m.ID()] = e.Reason
					break
				}
			}
			break
		}
	}
	return out
}
