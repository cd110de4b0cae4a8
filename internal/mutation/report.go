package mutation

import (
	"cmp"
	"fmt"
	"io"
	"time"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Summary counts a run's results.
type Summary struct {
	Mutants, Compiled, Killed, Survived, Equivalent, Listed int
	Uncovered                                               int // in a block the golden run cannot reach (spec/uncovered.yaml)
	Stale                                                   int // listed, yet killed or identical: the list is out of date
	Wall                                                    time.Duration
	List                                                    string // the list of equivalents the run used (EquivalentsFile when empty)
}

// Summarize counts results.
func Summarize(rs []Result, wall time.Duration) Summary {
	s := Summary{Mutants: len(rs), Wall: wall}
	for _, r := range rs {
		if r.Status != NoCompile && r.Status != NotReached {
			s.Compiled++
		}
		if r.Stale {
			s.Stale++
		}
		switch r.Status {
		case Killed:
			s.Killed++
		case Survived:
			s.Survived++
		case Identical:
			s.Equivalent++
		case Listed:
			s.Listed++
		case NotReached:
			s.Uncovered++
		}
	}
	return s
}

// Score is killed / (killed + survived) in percent: byte-identical and
// listed equivalent mutants are out of the denominator.
func (s Summary) Score() float64 {
	if s.Killed+s.Survived == 0 {
		return 100
	}
	return 100 * float64(s.Killed) / float64(s.Killed+s.Survived)
}

// WriteText writes the summary and the survivors.
func WriteText(w io.Writer, s Summary, rs []Result) error {
	uncovered := ""
	if s.Uncovered > 0 {
		uncovered = fmt.Sprintf(", uncovered %d (%s)", s.Uncovered, UncoveredFile)
	}
	_, err := fmt.Fprintf(w, "mutants %d, compiled %d, killed %d, survived %d, equivalent %d (identical binary) + %d (listed)%s, score %.1f%%, wall %s\n",
		s.Mutants, s.Compiled, s.Killed, s.Survived, s.Equivalent, s.Listed, uncovered, s.Score(), s.Wall.Round(time.Second))
	for _, r := range rs {
		if r.Status == Survived && err == nil {
			_, err = fmt.Fprintf(w, "survived %s:%d:%d [%s] %s -> %s: %s\n", r.Mutant.File, r.Mutant.Line, r.Mutant.Col, r.Mutant.Operator, r.Mutant.Old, r.Mutant.New, r.Detail)
		}
		if r.Stale && err == nil {
			_, err = fmt.Fprintf(w, "stale listing (%s): %s: remove it from %s\n", r.Status, r.Mutant.ID(), cmp.Or(s.List, EquivalentsFile))
		}
	}
	return err
}

// JSON is the report as one JSON object: whether the run is complete, its
// kind and tree, the counts, the score and every result with its file,
// line, column, change and status.
func JSON(s Summary, info RunInfo, rs []Result) []byte {
	num := jsonjs.IntValue
	items := make([]jsonjs.Value, 0, len(rs))
	for _, r := range rs {
		m := r.Mutant
		items = append(items, jsonjs.ObjectValue(
			jsonjs.Member{Key: "id", Value: jsonjs.StringValue(m.ID())},
			jsonjs.Member{Key: "file", Value: jsonjs.StringValue(m.File)},
			jsonjs.Member{Key: "line", Value: num(m.Line)},
			jsonjs.Member{Key: "col", Value: num(m.Col)},
			jsonjs.Member{Key: "operator", Value: jsonjs.StringValue(m.Operator)},
			jsonjs.Member{Key: "old", Value: jsonjs.StringValue(m.Old)},
			jsonjs.Member{Key: "new", Value: jsonjs.StringValue(m.New)},
			jsonjs.Member{Key: "status", Value: jsonjs.StringValue(string(r.Status))},
			jsonjs.Member{Key: "detail", Value: jsonjs.StringValue(r.Detail)},
			jsonjs.Member{Key: "staleListing", Value: jsonjs.BoolValue(r.Stale)},
		))
	}
	v := jsonjs.ObjectValue(
		jsonjs.Member{Key: "complete", Value: jsonjs.BoolValue(info.Complete)},
		jsonjs.Member{Key: "kind", Value: jsonjs.StringValue(info.Kind)},
		jsonjs.Member{Key: "tree", Value: jsonjs.StringValue(info.Tree)},
		jsonjs.Member{Key: "mutants", Value: num(s.Mutants)},
		jsonjs.Member{Key: "compiled", Value: num(s.Compiled)},
		jsonjs.Member{Key: "killed", Value: num(s.Killed)},
		jsonjs.Member{Key: "survived", Value: num(s.Survived)},
		jsonjs.Member{Key: "equivalent", Value: num(s.Equivalent)},
		jsonjs.Member{Key: "listedEquivalent", Value: num(s.Listed)},
		jsonjs.Member{Key: "uncovered", Value: num(s.Uncovered)},
		jsonjs.Member{Key: "staleListings", Value: num(s.Stale)},
		jsonjs.Member{Key: "score", Value: jsonjs.NumberValue(s.Score())},
		jsonjs.Member{Key: "wallSeconds", Value: jsonjs.NumberValue(s.Wall.Seconds())},
		jsonjs.Member{Key: "seed", Value: jsonjs.NumberValue(float64(info.Seed))},
		jsonjs.Member{Key: "sample", Value: num(info.Sample)},
		jsonjs.Member{Key: "results", Value: jsonjs.ArrayValue(items...)},
	)
	return append(jsonjs.Marshal(v), '\n')
}

func quote(s string) []byte { return jsonjs.AppendString(nil, s) }
