package runner_test

import (
	"os"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// SEARCH-META-6 (the meta list is the first groups or page lines of the
// text) is a property of a success text: an error result's text is its
// message, so a meta beside it is never read against it (properties.go:475).
// The check takes each golden search result with a meta, once as it is
// (no META-6 diff) and once as an error result with the same meta.
func TestJudgeMeta6SkipsErrorResults(t *testing.T) {
	all, err := runner.LoadCases(os.DirFS(root))
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, c := range all {
		if (c.Op != "grep.result" && c.Op != "glob.result") || c.Want.Output == nil {
			continue
		}
		members, _ := c.Want.Output.Members()
		if m, ok := c.Want.Output.Get("meta"); !ok || m.Kind() != jsonjs.Object {
			continue
		}
		var asError []jsonjs.Member
		for _, m := range members {
			switch m.Key {
			case "content":
				m.Value = jsonjs.StringValue("Error: the search failed")
			case "isError":
				m.Value = jsonjs.BoolValue(true)
			}
			asError = append(asError, m)
		}
		for _, out := range []jsonjs.Value{*c.Want.Output, jsonjs.ObjectValue(asError...)} {
			for _, d := range runner.CheckProperties(c.Op, c.InputValue, out) {
				if len(d.Requirements) > 0 && d.Requirements[0] == "SEARCH-META-6" {
					t.Fatalf("%s: SEARCH-META-6 on %s: %s", c.ID, jsonjs.Marshal(out), d.Message)
				}
			}
		}
		tried++
	}
	if tried < 10 {
		t.Fatalf("only %d golden search results with a meta", tried)
	}
}
