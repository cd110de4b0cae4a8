package runner_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The spill policy's decision (diagnose_decision.go, issue 20 item 3):
// where the harness saves a text the reference keeps, or keeps one the
// reference saves, the case blames the rule that decides whether the
// policy applies (SPILL-RES-2, SPILL-CFG-1: those the case cites, else
// SPILL-RES-2) on the save diff alone; every other compared diff follows
// from that decision and blames nothing, only affects. Where both sides
// save, or neither, the save diff is blamed by its part as any diff is.

// diagnose2Spill is a spill.preview case of text with maxInlineBytes
// inline, citing cites, whose golden answer is the reference's.
func diagnose2Spill(t *testing.T, text string, inline int, cites ...string) runner.Case {
	t.Helper()
	in := jsonjs.ObjectValue(
		jsonjs.Member{Key: "text", Value: jsonjs.StringValue(text)},
		jsonjs.Member{Key: "maxInlineBytes", Value: jsonjs.IntValue(inline)},
		jsonjs.Member{Key: "ref", Value: jsonjs.ObjectValue(
			jsonjs.Member{Key: "locator", Value: jsonjs.StringValue("/spill/big.txt")},
			jsonjs.Member{Key: "retrievalHint", Value: jsonjs.StringValue("Use the stub retrieval path.")})})
	return blame2Case(t, "spill.preview", string(jsonjs.Marshal(in)), cites...)
}

// diagnose2Saves reports whether an answer saves a text.
func diagnose2Saves(v jsonjs.Value) bool {
	s, ok := v.Get("save")
	return ok && !s.IsNull()
}

func TestJudgeSpillDecisionBlame(t *testing.T) {
	saves := func(cites ...string) runner.Case { return diagnose2Spill(t, "abcdefghij", 0, cites...) }
	keeps := func(cites ...string) runner.Case { return diagnose2Spill(t, "abc", 100, cites...) }
	// A save the reference would write for a text it keeps.
	saved := jsonjs.ObjectValue(
		jsonjs.Member{Key: "label", Value: jsonjs.StringValue("result")},
		jsonjs.Member{Key: "suggestedName", Value: jsonjs.StringValue("tool.txt")},
		jsonjs.Member{Key: "text", Value: jsonjs.StringValue("abc")})
	for _, tc := range []struct {
		name   string
		c      runner.Case
		answer func(golden jsonjs.Value) jsonjs.Value
		// save is what the save diff blames; others is what every other
		// compared diff blames (nil: each blames nothing and affects what
		// it blamed before).
		save   []string
		others []string
	}{
		{"a save where the reference keeps, no deciding rule cited", keeps("SPILL-PREV-2", "SPILL-CAP-1"),
			func(g jsonjs.Value) jsonjs.Value {
				return g.With("save", saved).With("content", jsonjs.StringValue("(Omitted)"))
			}, []string{"SPILL-RES-2"}, nil},
		{"no save where the reference saves, SPILL-CFG-1 cited", saves("SPILL-CFG-1", "SPILL-PREV-2", "SPILL-CAP-1"),
			func(g jsonjs.Value) jsonjs.Value {
				return g.With("save", jsonjs.NullValue()).With("content", jsonjs.StringValue("abcdefghij"))
			}, []string{"SPILL-CFG-1"}, nil},
		{"no save where the reference saves, both deciding rules cited", saves("SPILL-PREV-2", "SPILL-CFG-1", "SPILL-RES-2"),
			func(g jsonjs.Value) jsonjs.Value { return g.With("save", jsonjs.NullValue()) },
			[]string{"SPILL-CFG-1", "SPILL-RES-2"}, nil},
		// The save is the deciding diff wherever it is among the diffs,
		// and an answer's extra member follows from the decision too.
		{"a save where the reference keeps, and a member of its own", keeps("SPILL-RES-2", "SPILL-PREV-2"),
			func(g jsonjs.Value) jsonjs.Value {
				return g.With("save", saved).With("extra", jsonjs.IntValue(1))
			}, []string{"SPILL-RES-2"}, nil},
		// Both sides save: what differs is inside the save, the save's
		// rule's (SPILL-REF-1, SPILL-CFG-1 among the citations), not the
		// decision.
		{"both save, the texts differ", saves("SPILL-CFG-1", "SPILL-REF-1", "SPILL-PREV-2"),
			func(g jsonjs.Value) jsonjs.Value {
				s, _ := g.Get("save")
				return g.With("save", s.With("text", jsonjs.StringValue("other")))
			}, []string{"SPILL-CFG-1", "SPILL-REF-1"}, []string{}},
	} {
		golden := *tc.c.Want.Output
		if text, _ := tc.c.InputValue.Get("text"); diagnose2Saves(golden) != (jsonjs.Size(text) > 10) {
			t.Fatalf("%s: the golden answer %s does not save as the case's text says", tc.name, jsonjs.Marshal(golden))
		}
		answer := tc.answer(golden)
		diffs := runner.Compare(tc.c, &answer, nil)
		found := false
		for _, d := range diffs {
			got := slices.Clone(d.Requirements)
			slices.Sort(got)
			switch {
			case d.Field == "save":
				found = true
				if !slices.Equal(got, tc.save) {
					t.Errorf("%s: the save diff %s blames %v, want %v", tc.name, d.Path, got, tc.save)
				}
			case tc.others == nil:
				if len(got) != 0 || len(d.Affects) == 0 {
					t.Errorf("%s: the %s diff blames %v and affects %v: want nothing blamed, what it blamed affected", tc.name, d.Path, got, d.Affects)
				}
			}
		}
		if !found || len(diffs) < 1 {
			t.Errorf("%s: no save diff among %+v", tc.name, diffs)
		}
	}
}

// Answers that are no spill decision keep their own blame: an error
// answer where the reference saves, an output where the reference
// refuses the input, and an answer that is no object where the reference
// saves (it has no save to decide with) are whole-answer differences,
// and each blames every requirement the case cites.
func TestJudgeSpillDecisionLeavesWholeAnswers(t *testing.T) {
	cites := []string{"SPILL-PREV-2", "SPILL-RES-2"}
	savesCase := diagnose2Spill(t, "abcdefghij", 0, cites...)
	if !diagnose2Saves(*savesCase.Want.Output) {
		t.Fatalf("the golden answer %s saves nothing", jsonjs.Marshal(*savesCase.Want.Output))
	}
	in := diagnose2Spill(t, "abc", 0).InputValue.With("maxInlineBytes", jsonjs.IntValue(-1))
	refused := diagnose2CaseOrError(t, "spill.preview", string(jsonjs.Marshal(in)), "SPILL-PREV-2")
	if refused.Want.Error == nil {
		t.Fatal("the reference answers a negative maxInlineBytes: pick an input it refuses")
	}
	answer := jsonjs.ObjectValue(
		jsonjs.Member{Key: "content", Value: jsonjs.NullValue()},
		jsonjs.Member{Key: "save", Value: jsonjs.NullValue()})
	notObject := jsonjs.ArrayValue(jsonjs.IntValue(1))
	msg := "spill failed"
	for _, tc := range []struct {
		name   string
		c      runner.Case
		output *jsonjs.Value
		errMsg *string
	}{
		{"an error where the reference saves", savesCase, nil, &msg},
		{"an output where the reference refuses the input", refused, &answer, nil},
		{"an array where the reference saves", savesCase, &notObject, nil},
	} {
		diffs := runner.Compare(tc.c, tc.output, tc.errMsg)
		if len(diffs) == 0 {
			t.Errorf("%s: no diff", tc.name)
		}
		for _, d := range diffs {
			got := slices.Clone(d.Requirements)
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.c.Requirements))
			if d.Field != "" || !slices.Equal(got, want) {
				t.Errorf("%s: diff of field %q at %s blames %v, want the whole answer's, blaming %v", tc.name, d.Field, d.Path, got, want)
			}
		}
	}
}

// diagnose2CaseOrError is blame2Case where the reference may refuse the
// input: the golden answer is then its error.
func diagnose2CaseOrError(t *testing.T, op, input string, cites ...string) runner.Case {
	t.Helper()
	in, err := jsonjs.Parse([]byte(input))
	if err != nil {
		t.Fatalf("input: %v", err)
	}
	out, err := reference.Run(op, []byte(input))
	c := runner.Case{ID: op + "/judge-diagnose2", Op: op, Requirements: cites, Input: []byte(input), InputValue: in}
	if err != nil {
		msg := err.Error()
		c.Want.Error = &msg
		return c
	}
	want, perr := jsonjs.Parse(out)
	if perr != nil {
		t.Fatalf("golden: %v", perr)
	}
	c.Want.Output = &want
	return c
}

// diagnose2Models runs one case through a harness that answers the golden
// answer with content text, whose handshake names language, and returns
// the verdict and the models that explain the answer, sorted.
func diagnose2Models(t *testing.T, input, text, language string) (verdict.Verdict, []string) {
	t.Helper()
	c := blame2Case(t, "run_code.result", input, "CODE-NUM-1", "CODE-KEYS-1", "CODE-STR-1")
	h := funcHarness{alter: func(_ string, _ []byte, out jsonjs.Value) jsonjs.Value {
		return out.With("content", jsonjs.StringValue(text))
	}}
	r := runner.RunCase(context.Background(), adapter.InProcess(h, adapter.Implementation{Name: "port", Language: language}), c, 0)
	var models []string
	for _, e := range r.Diagnosis {
		models = append(models, e.Model)
	}
	slices.Sort(models)
	return r.Verdict, models
}

// Two deviations together explain an answer no one model does; a scoped
// model (serde_json's number writer, Rust's) names a cause only on a
// harness of its language or of none said, in a pair as alone (issue 20:
// Go's %g writes 1e20 as 1e+20 too). number-serde comes after keys-sorted
// in the catalogue and before escape-ascii: each pair puts it on another
// side.
func TestJudgeDiagnosisJointKeepsScope(t *testing.T) {
	for _, tc := range []struct {
		name, input, text string
		pair              []string
	}{
		{"keys sorted and numbers written by serde_json", `{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":{"b":1e20,"a":1}}}`,
			"{\n  \"a\": 1,\n  \"b\": 1e+20\n}", []string{"keys-sorted", "number-serde"}},
		{"numbers written by serde_json and ASCII-only escapes", `{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":{"s":"é","n":1e20}}}`,
			"{\n  \"s\": \"\\u00e9\",\n  \"n\": 1e+20\n}", []string{"escape-ascii", "number-serde"}},
	} {
		for _, language := range []string{"rust", ""} {
			v, models := diagnose2Models(t, tc.input, tc.text, language)
			if v != verdict.Fail || !slices.Equal(models, tc.pair) {
				t.Errorf("%s, harness in %q: %s explained by %v, want a failure explained by %v", tc.name, language, v, models, tc.pair)
			}
		}
		v, models := diagnose2Models(t, tc.input, tc.text, "go")
		if v != verdict.Fail || slices.Contains(models, "number-serde") {
			t.Errorf("%s, harness in Go: %s explained by %v, want a failure number-serde does not explain", tc.name, v, models)
		}
	}
}

// diagnose2Explains runs a case through a harness whose answer is alter
// of the golden one and reports whether model explains the failure.
func diagnose2Explains(t *testing.T, c runner.Case, model string, alter func(jsonjs.Value) jsonjs.Value) bool {
	t.Helper()
	h := funcHarness{alter: func(_ string, _ []byte, out jsonjs.Value) jsonjs.Value { return alter(out) }}
	r := runner.RunCase(context.Background(), adapter.InProcess(h, adapter.Implementation{Name: "port", Language: "rust"}), c, 0)
	if r.Verdict != verdict.Fail {
		t.Fatalf("%s: %s, want a failure", c.ID, r.Verdict)
	}
	for _, e := range r.Diagnosis {
		if e.Model == model {
			return true
		}
	}
	return false
}

// A model that fails in words of its own (a reader refusing lone
// surrogates) reproduces an error result whose text says those words,
// where the golden answer is no error; an error result in other words, an
// answer that is no error, or an error where the golden answer is an
// error too, it does not explain.
func TestJudgeDiagnosisRefusalInItsOwnWords(t *testing.T) {
	const model = "surrogates-refused"
	refuse := func(text string) func(jsonjs.Value) jsonjs.Value {
		return func(out jsonjs.Value) jsonjs.Value {
			return out.With("isError", jsonjs.BoolValue(true)).With("content", jsonjs.StringValue(text))
		}
	}
	lone := blame2Case(t, "grep.result", `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a.go","lineNumber":1,"line":"x\ud800y"}]}}`, "SEARCH-PREVIEW-3")
	if !diagnose2Explains(t, lone, model, refuse("Error: lone leading surrogate in hex escape at line 1 column 9")) {
		t.Errorf("an error result in serde_json's words is not explained by %s", model)
	}
	if diagnose2Explains(t, lone, model, refuse("Error: disk full")) {
		t.Errorf("an error result about a full disk is explained by %s", model)
	}
	if diagnose2Explains(t, lone, model, func(out jsonjs.Value) jsonjs.Value {
		return out.With("content", jsonjs.StringValue("lone surrogate"))
	}) {
		t.Errorf("a text that is no error result is explained by %s", model)
	}
	failing := blame2Case(t, "grep.result", `{"args":{},"value":{"matches":[{"path":"a.go","lineNumber":1,"line":"x\ud800y"}]}}`, "SEARCH-PREVIEW-3")
	if isErr, _ := failing.Want.Output.Get("isError"); !jsonjs.Equal(isErr, jsonjs.BoolValue(true)) {
		t.Fatalf("the golden answer to a grep without a pattern is no error result: %s", jsonjs.Marshal(*failing.Want.Output))
	}
	if diagnose2Explains(t, failing, model, refuse("Error: lone leading surrogate in hex escape at line 1 column 9")) {
		t.Errorf("an error result where the golden answer is one too is explained by %s", model)
	}
}

// diagnose2Throws is a harness that throws msg on every case.
type diagnose2Throws struct{ msg string }

func (diagnose2Throws) Ops() []string { return reference.Ops() }

func (h diagnose2Throws) Run(string, []byte) ([]byte, error) { return nil, errors.New(h.msg) }

// A model whose answer is a thrown error reproduces a harness that throws
// the same message, and no other: a glob whose null maxResults a port
// reads as given throws the plugin's own refusal.
func TestJudgeDiagnosisSameThrownMessage(t *testing.T) {
	c := blame2Case(t, "glob.result", `{"args":{"pattern":"*"},"value":{"root":".","paths":["a"]},"config":{"maxResults":null,"sampleOverCap":false}}`, "SEARCH-CFG-1")
	for msg, want := range map[string]bool{
		"tool-fs-search: globMaxResults must be a positive integer": true,
		"tool-fs-search: globMaxResults must be an integer":         false,
	} {
		r := runner.RunCase(context.Background(), adapter.InProcess(diagnose2Throws{msg}, adapter.Implementation{Name: "port", Language: "python"}), c, 0)
		named := slices.ContainsFunc(r.Diagnosis, func(e runner.Explanation) bool { return e.Model == "null-as-given" })
		if r.Verdict != verdict.Fail || named != want {
			t.Errorf("a harness throwing %q: %s, explained by null-as-given %v, want %v", msg, r.Verdict, named, want)
		}
	}
}

// A model's stand-in argument shows in the call view whatever the harness
// does, so the call view is left out of the comparison where the
// harness's agrees with the golden one; where it differs from both, the
// model explains nothing (a glob pattern of U+FEFF alone, blank to
// JavaScript, not to Python).
func TestJudgeDiagnosisPerturbedCallView(t *testing.T) {
	input := `{"args":{"pattern":"\ufeff"},"value":{"root":".","paths":["a","x"]},"config":{"maxResults":100,"sampleOverCap":false}}`
	c := blame2Case(t, "glob.result", input, "SEARCH-ARGS-3")
	standIn, err := reference.Run("glob.result", []byte(`{"args":{"pattern":"x"},"value":{"root":".","paths":["a","x"]},"config":{"maxResults":100,"sampleOverCap":false}}`))
	if err != nil {
		t.Fatal(err)
	}
	model, err := jsonjs.Parse(standIn)
	if err != nil {
		t.Fatal(err)
	}
	goldenView, _ := c.Want.Output.Get("callView")
	for _, tc := range []struct {
		name     string
		callView jsonjs.Value
		want     bool
	}{
		{"the golden call view", goldenView, true},
		{"a call view of its own", jsonjs.StringValue("a view"), false},
	} {
		explained := diagnose2Explains(t, c, "trim-python", func(jsonjs.Value) jsonjs.Value { return model.With("callView", tc.callView) })
		if explained != tc.want {
			t.Errorf("the stand-in's answer with %s: explained by trim-python %v, want %v", tc.name, explained, tc.want)
		}
		// A member the model's answer does not have, it does not explain.
		explained = diagnose2Explains(t, c, "trim-python", func(jsonjs.Value) jsonjs.Value {
			return model.With("callView", tc.callView).With("extra", jsonjs.IntValue(1))
		})
		if explained {
			t.Errorf("the stand-in's answer with %s and a member of its own: explained by trim-python", tc.name)
		}
	}
}
