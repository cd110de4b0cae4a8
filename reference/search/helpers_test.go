package search_test

import (
	"encoding/json"
	"strconv"
	"strings"

	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// parse parses JSON text with JS semantics and fails the spec on error.
func parse(text string) jsonjs.Value {
	v, err := jsonjs.Parse([]byte(text))
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), text)
	return v
}

// matchesFrom reads "path:line:text" triples separated by spaces.
func matchesFrom(spec string) []search.Match {
	var out []search.Match
	for _, f := range strings.Fields(spec) {
		parts := strings.SplitN(f, ":", 3)
		n, err := strconv.Atoi(parts[1])
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		out = append(out, search.Match{Path: parts[0], LineNumber: float64(n), Line: parts[2]})
	}
	return out
}

// grepOp runs grep.result on an input given as JSON text.
func grepOp(input string) search.ResultOutput {
	var in search.GrepInput
	ExpectWithOffset(1, json.Unmarshal([]byte(input), &in)).To(Succeed(), input)
	out, err := search.GrepResult(in)
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), input)
	return out
}

// globOp runs glob.result on an input given as JSON text.
func globOp(input string) search.ResultOutput {
	var in search.GlobInput
	ExpectWithOffset(1, json.Unmarshal([]byte(input), &in)).To(Succeed(), input)
	out, err := search.GlobResult(in)
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), input)
	return out
}

// metaJSON is the meta's JSON.stringify text.
func metaJSON(m *search.Meta) string {
	ExpectWithOffset(1, m).NotTo(BeNil())
	b, err := m.MarshalJSON()
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return string(b)
}

func grepValueJSON(matches []search.Match) string {
	b, _ := json.Marshal(search.GrepValue{Matches: matches})
	return string(b)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func parseArgs(text string) jsonjs.Value {
	v, err := jsonjs.Parse([]byte(text))
	if err != nil {
		panic(err)
	}
	return v
}
