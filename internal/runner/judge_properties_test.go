package runner_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// PropertiesFor is how the rapid suite (generators/properties_test.go)
// reaches the table: an op's properties are exactly its rows, in table
// order, and no op's list is empty or borrows another op's rows (a list of
// the wrong op checks the reference against the wrong invariants).
func TestJudgePropertiesForIsTheOpsRows(t *testing.T) {
	ops := map[string]bool{}
	for _, p := range runner.Properties {
		ops[p.Op] = true
	}
	if len(ops) < 2 {
		t.Fatalf("the table has %d ops", len(ops))
	}
	total := 0
	for op := range ops {
		got := runner.PropertiesFor(op)
		var want []runner.Property
		for _, p := range runner.Properties {
			if p.Op == op {
				want = append(want, p)
			}
		}
		if len(got) == 0 || len(got) != len(want) {
			t.Fatalf("PropertiesFor(%q): %d properties, the table has %d", op, len(got), len(want))
		}
		for i, p := range got {
			if p.Op != op || p.Requirement != want[i].Requirement || p.Doc != want[i].Doc {
				t.Fatalf("PropertiesFor(%q)[%d] = %s %s, want %s %s", op, i, p.Op, p.Requirement, want[i].Op, want[i].Requirement)
			}
		}
		total += len(got)
	}
	if total != len(runner.Properties) {
		t.Fatalf("the ops' lists hold %d properties, the table %d", total, len(runner.Properties))
	}
	if got := runner.PropertiesFor("no.such.op"); len(got) != 0 {
		t.Fatalf("PropertiesFor of an unknown op: %d properties", len(got))
	}
}

// The search.present properties name why a view is wrong: a result with no
// meta at all is told apart from a meta that does not narrow (member's
// missing key is not a zero value found: properties.go:98).
func TestJudgePresentViewMessages(t *testing.T) {
	view := jsonjs.ObjectValue(jsonjs.Member{Key: "view", Value: jsonjs.ObjectValue()})
	for _, tc := range []struct{ input, want string }{
		{`{"tool":"grep","args":{},"result":{"isError":false}}`, "a view for a result without meta"},
		{`{"tool":"grep","args":{},"result":{"isError":false,"meta":null}}`, "a view for a meta that does not narrow (SEARCH-NARROW-2): null"},
		{`{"tool":"grep","args":{},"result":{"isError":true}}`, "a view for an error result"},
	} {
		in, err := jsonjs.Parse([]byte(tc.input))
		if err != nil {
			t.Fatal(err)
		}
		diffs := runner.CheckProperties("search.present", in, view)
		if len(diffs) != 1 || diffs[0].Requirements[0] != "SEARCH-PRESENT-1" || diffs[0].Message != tc.want {
			t.Fatalf("%s: %+v, want one SEARCH-PRESENT-1 diff %q", tc.input, diffs, tc.want)
		}
	}
}

// reqsOf is the requirements of the properties an output breaks.
func reqsOf(t *testing.T, op, input, output string) []string {
	t.Helper()
	in, err := jsonjs.Parse([]byte(input))
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonjs.Parse([]byte(output))
	if err != nil {
		t.Fatal(err)
	}
	var reqs []string
	for _, d := range runner.CheckProperties(op, in, out) {
		reqs = append(reqs, d.Requirements...)
	}
	return reqs
}

// SEARCH-CAP-3 counts the meta's own list: a grep meta's file groups'
// matches, a glob meta's paths, never the other shape's list, and no list
// at all is no count (metaCounts, properties.go:166 and 173).
func TestJudgeCap3CountsTheShapesList(t *testing.T) {
	glob := `{"args":{"pattern":"*"},"value":{"root":".","paths":["a","b","c","d","e"]}}`
	grep := `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a","lineNumber":1,"line":"x"},{"path":"a","lineNumber":2,"line":"x"},{"path":"b","lineNumber":1,"line":"x"}]}}`
	for _, tc := range []struct {
		name, op, input, meta string
		fires                 bool
	}{
		{"a glob meta showing 1 of 5 paths, with a files member of 5 matches", "glob.result", glob,
			`{"shape":"paths","paths":["a"],"files":[{"path":"a","matches":[1,2,3,4,5]}],"truncated":false,"total":5}`, true},
		{"a glob meta showing its 5 paths", "glob.result", glob,
			`{"shape":"paths","paths":["a","b","c","d","e"],"truncated":false,"total":5}`, false},
		{"a glob meta without paths", "glob.result", glob,
			`{"shape":"paths","truncated":false,"total":5}`, false},
		{"a grep meta showing 1 of 3 matches, with a paths member of 3", "grep.result", grep,
			`{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x"}]}],"paths":["a","b","c"],"truncated":false,"total":3}`, true},
		{"a grep meta whose files are no array", "grep.result", grep,
			`{"shape":"matches","files":"a","truncated":false,"total":3}`, false},
		{"a grep meta without files, with a paths member", "grep.result", grep,
			`{"shape":"matches","paths":["a"],"truncated":false,"total":3}`, false},
	} {
		out := `{"content":"x","isError":false,"meta":` + tc.meta + `}`
		got := reqsOf(t, tc.op, tc.input, out)
		fired := false
		for _, r := range got {
			fired = fired || r == "SEARCH-CAP-3"
		}
		if fired != tc.fires {
			t.Errorf("%s: SEARCH-CAP-3 fired %v, want %v (broken: %v)", tc.name, fired, tc.fires, got)
		}
	}
}

// SEARCH-CAP-5 (metaOverCap): a cap no JSON text can exceed (1e300, or
// 1e400 read as Infinity) is never broken, and a meta over a small cap is
// measured whole, its size named (the measure goes to 64 KiB at least,
// properties.go:189 and 193).
func TestJudgeCap5Bounds(t *testing.T) {
	long := strings.Repeat("a", 150)
	meta := `{"shape":"paths","paths":["` + long + `","b"],"truncated":false,"total":2}`
	size := len(meta)
	input := func(cap string) string {
		return `{"args":{"pattern":"*"},"value":{"root":".","paths":["` + long + `","b"]},"config":{"maxMetaBytes":` + cap + `}}`
	}
	output := `{"content":"` + long + `\nb","isError":false,"meta":` + meta + `}`
	for _, tc := range []struct {
		cap, want string
	}{
		{"1e300", ""},
		{"1e400", ""},
		{fmt.Sprint(size), ""},
		{"100", fmt.Sprintf("the meta of 2 paths is %d bytes, over maxMetaBytes 100", size)},
		{"-5", fmt.Sprintf("the meta of 2 paths is %d bytes, over maxMetaBytes -5", size)},
	} {
		in, err := jsonjs.Parse([]byte(input(tc.cap)))
		if err != nil {
			t.Fatal(err)
		}
		out, err := jsonjs.Parse([]byte(output))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range runner.CheckProperties("glob.result", in, out) {
			if d.Requirements[0] == "SEARCH-CAP-5" {
				got = append(got, d.Message)
			}
		}
		if tc.want == "" && len(got) != 0 || tc.want != "" && (len(got) != 1 || got[0] != tc.want) {
			t.Errorf("maxMetaBytes %s: SEARCH-CAP-5 says %q, want %q", tc.cap, got, tc.want)
		}
	}
}

// SEARCH-NARROW-7 names the first place a view differs from the narrowed
// meta and looks no further: a view wrong in all of its 2,000 paths costs
// what a view wrong in one costs (properties.go:246, Differences' bound;
// issue 23: an answer's size is no cost multiplier).
func TestJudgeNarrow7StopsAtTheFirstDifference(t *testing.T) {
	const n = 2000
	paths := func(f func(i int) string) string {
		s := make([]string, n)
		for i := range s {
			s[i] = `"` + f(i) + `"`
		}
		return "[" + strings.Join(s, ",") + "]"
	}
	meta := `{"shape":"paths","paths":` + paths(func(i int) string { return fmt.Sprint("p", i) }) + `,"truncated":false,"total":2000}`
	in, err := jsonjs.Parse([]byte(`{"tool":"glob","args":{},"result":{"isError":false,"meta":` + meta + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	cost := func(f func(i int) string) (float64, string) {
		out, err := jsonjs.Parse([]byte(`{"view":{"card":"search","shape":"paths","paths":` + paths(f) + `,"truncated":false,"total":2000}}`))
		if err != nil {
			t.Fatal(err)
		}
		var msg string
		allocs := testing.AllocsPerRun(3, func() {
			diffs := runner.CheckProperties("search.present", in, out)
			if len(diffs) != 1 || diffs[0].Requirements[0] != "SEARCH-NARROW-7" {
				t.Fatalf("%+v: want one SEARCH-NARROW-7 diff", diffs)
			}
			msg = diffs[0].Message
		})
		return allocs, msg
	}
	one, oneMsg := cost(func(i int) string {
		if i == 7 {
			return "x"
		}
		return fmt.Sprint("p", i)
	})
	all, allMsg := cost(func(i int) string { return fmt.Sprint("q", i) })
	if !strings.Contains(oneMsg, "at $.paths[7] the view has \"x\", the narrowed meta \"p7\"") || !strings.Contains(allMsg, "at $.paths[0] ") {
		t.Fatalf("messages %q and %q", oneMsg, allMsg)
	}
	if all > one+100 {
		t.Fatalf("a view wrong in %d paths costs %.0f allocations, one wrong in 1 path %.0f", n, all, one)
	}
}

// SEARCH-NARROW-7 names what each side holds at the first difference, and
// "nothing" for a member one side lacks (properties.go:251; a view of
// another size differs at $ as a whole).
func TestJudgeNarrow7NamesBothSides(t *testing.T) {
	meta := `{"shape":"paths","paths":["a"],"truncated":false,"total":1}`
	in := `{"tool":"glob","args":{},"result":{"isError":false,"meta":` + meta + `}}`
	for view, want := range map[string]string{
		`{"card":"search","shape":"paths","paths":["a"],"truncated":false,"totl":1}`:  `at $.total the view has nothing, the narrowed meta 1`,
		`{"card":"search","shape":"paths","paths":["b"],"truncated":false,"total":1}`: `at $.paths[0] the view has "b", the narrowed meta "a"`,
	} {
		inV, err := jsonjs.Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		out, err := jsonjs.Parse([]byte(`{"view":` + view + `}`))
		if err != nil {
			t.Fatal(err)
		}
		diffs := runner.CheckProperties("search.present", inV, out)
		if len(diffs) != 1 || diffs[0].Message != "the view is not narrow(meta): "+want {
			t.Errorf("view %s: %+v, want %q", view, diffs, want)
		}
	}
}

// SEARCH-META-6 renders only well-formed file groups: a group without a
// path or matches, a row without a line number or line, is the narrowing
// property's to report, not a text mismatch (properties.go:274, 284, 285).
func TestJudgeMeta6SkipsAGroupWithoutPath(t *testing.T) {
	input := `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a","lineNumber":1,"line":"x"}]}}`
	for meta, fires := range map[string]bool{
		`{"shape":"matches","files":[{"matches":[{"lineNumber":1,"line":"x"}]}],"truncated":false,"total":1}`:            false,
		`{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1}]}],"truncated":false,"total":1}`:            false,
		`{"shape":"matches","files":[{"path":"a","matches":[{"line":"x"}]}],"truncated":false,"total":1}`:                false,
		`{"shape":"matches","files":[{"path":"a"}],"truncated":false,"total":1}`:                                         false,
		`{"shape":"matches","files":[{"path":"b","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":false,"total":1}`: true,
	} {
		got := reqsOf(t, "grep.result", input, `{"content":"Found 1 match\n\na\nLine 1: x","isError":false,"meta":`+meta+`}`)
		fired := false
		for _, r := range got {
			fired = fired || r == "SEARCH-META-6"
		}
		if fired != fires {
			t.Errorf("meta %s: SEARCH-META-6 fired %v, want %v (%v)", meta, fired, fires, got)
		}
	}
}

// SEARCH-META-6 names the first text byte the meta's rendering disagrees
// with, byte 0 included (properties.go:297).
func TestJudgeMeta6NamesTheFirstDifferingByte(t *testing.T) {
	input := `{"args":{"pattern":"*"},"value":{"root":".","paths":["ab","c"]}}`
	meta := `{"shape":"paths","paths":["ab","c"],"truncated":false,"total":2}`
	for content, at := range map[string]int{"xb\nc": 0, "ax\nc": 1, "ab\nx": 3} {
		in, err := jsonjs.Parse([]byte(input))
		if err != nil {
			t.Fatal(err)
		}
		out := jsonjs.ObjectValue(
			jsonjs.Member{Key: "content", Value: jsonjs.StringValue(content)},
			jsonjs.Member{Key: "isError", Value: jsonjs.BoolValue(false)},
			jsonjs.Member{Key: "meta", Value: mustParse(t, meta)})
		var msgs []string
		for _, d := range runner.CheckProperties("glob.result", in, out) {
			if d.Requirements[0] == "SEARCH-META-6" {
				msgs = append(msgs, d.Message)
			}
		}
		want := fmt.Sprintf("the meta paths are not a prefix of the text: they differ at text byte %d ", at)
		if len(msgs) != 1 || !strings.HasPrefix(msgs[0], want) {
			t.Errorf("text %q: %q, want %q…", content, msgs, want)
		}
	}
}

func mustParse(t *testing.T, s string) jsonjs.Value {
	t.Helper()
	v, err := jsonjs.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Each property judges only the answers it is about: another property
// reports the rest (a meta that does not narrow, an error result's meta,
// a content that is no string), and a property that fires there too
// reports one fault twice (properties.go 397, 411, 475).
func TestJudgePropertiesLeaveOthersFaultsAlone(t *testing.T) {
	grep := `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a","lineNumber":1,"line":"x"}]}}`
	glob := `{"args":{"pattern":"*"},"value":{"root":".","paths":["a"]}}`
	for _, tc := range []struct {
		name, op, input, output string
		fires, quiet            string // fires: "" for none
	}{
		{"a grep meta of shape paths that does not narrow", "grep.result", grep,
			`{"content":"Found 1 match\n\na\nLine 1: x","isError":false,"meta":{"shape":"paths","paths":"a","truncated":false,"total":1}}`,
			"", "SEARCH-PRESENT-1"}, // grep's narrowing properties name -2, -4 and -5 only
		{"an error result with a meta and no view", "grep.result", grep,
			`{"content":"boom","isError":true,"meta":{"shape":"matches","files":[],"truncated":false,"total":1},"view":null}`,
			"SEARCH-META-1", "SEARCH-NARROW-7"},
		{"a glob result whose content is null", "glob.result", glob,
			`{"content":null,"isError":false,"meta":{"shape":"paths","paths":["a"],"truncated":false,"total":1}}`,
			"SEARCH-NARROW-7", "SEARCH-META-6"},
	} {
		got := reqsOf(t, tc.op, tc.input, tc.output)
		if tc.fires != "" && !slices.Contains(got, tc.fires) || slices.Contains(got, tc.quiet) {
			t.Errorf("%s: broken %v, want %s and not %s", tc.name, got, tc.fires, tc.quiet)
		}
	}
}

// A glob text that goes on inside a path the meta lists is shown from
// where it goes on, the excerpt's 40 bytes (properties.go:305).
func TestJudgeMeta6ShowsWhereTheTextGoesOn(t *testing.T) {
	input := `{"args":{"pattern":"*"},"value":{"root":".","paths":["a"]}}`
	rest := strings.Repeat("b", 30) + strings.Repeat("c", 30)
	var msgs []string
	in, out := mustParse(t, input), mustParse(t, `{"content":"a`+rest+`","isError":false,"meta":{"shape":"paths","paths":["a"],"truncated":false,"total":1}}`)
	for _, d := range runner.CheckProperties("glob.result", in, out) {
		if d.Requirements[0] == "SEARCH-META-6" {
			msgs = append(msgs, d.Message)
		}
	}
	want := "the meta paths end inside a text path: text continues " + runner.Excerpt(rest, 0)
	if len(msgs) != 1 || msgs[0] != want || !strings.HasSuffix(want, strings.Repeat("b", 30)+strings.Repeat("c", 10)+"…") {
		t.Fatalf("%q, want %q", msgs, want)
	}
}

// A grep text without a body under a meta with groups is shown from its
// start (properties.go:501).
func TestJudgeMeta6ShowsATextWithoutBody(t *testing.T) {
	input := `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a","lineNumber":1,"line":"x"}]}}`
	content := "Found 1 match, and no blank line before any group of this text"
	in, out := mustParse(t, input), mustParse(t, `{"content":"`+content+`","isError":false,"meta":{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":false,"total":1}}`)
	var msgs []string
	for _, d := range runner.CheckProperties("grep.result", in, out) {
		if d.Requirements[0] == "SEARCH-META-6" {
			msgs = append(msgs, d.Message)
		}
	}
	want := "the meta has 1 file groups but the text has no body: " + runner.Excerpt(content, 0)
	if len(msgs) != 1 || msgs[0] != want || !strings.HasPrefix(runner.Excerpt(content, 0), "Found 1 match,") {
		t.Fatalf("%q, want %q", msgs, want)
	}
}

// SPILL-CAP-1: a replacement is smaller than the original, whose text is
// the input's text, or its text blocks joined (a block without text is
// "undefined", SPILL-RES-3); with a block that is not text there is no
// original to measure, nor without text or blocks (properties.go
// originalText, 617-636).
func TestJudgeSpillReplacementSmallerThanTheOriginal(t *testing.T) {
	for _, tc := range []struct {
		input, content string
		fires          bool
	}{
		{`{"text":"abcdef","maxInlineBytes":100}`, "abcdef", true},
		{`{"text":"abcdef","maxInlineBytes":100}`, "abcde", false},
		{`{"blocks":[{"type":"text","text":"abc"},{"type":"text","text":"def"}],"maxInlineBytes":100}`, "abcdef", true},
		{`{"blocks":[{"type":"text","text":"abc"},{"type":"text","text":"def"}],"maxInlineBytes":100}`, "abcde", false},
		{`{"blocks":[{"type":"text"}],"maxInlineBytes":100}`, "undefinex", true},
		{`{"blocks":[{"type":"text"}],"maxInlineBytes":100}`, "undefin", false},
		{`{"blocks":[{"type":"image"},{"type":"text","text":"ab"}],"maxInlineBytes":100}`, "abcdef", false},
		{`{"blocks":[{"type":"text","text":"ab"},{"text":"cd"}],"maxInlineBytes":100}`, "abcdef", false},
		{`{"maxInlineBytes":100}`, "abcdef", false},
	} {
		in := mustParse(t, tc.input)
		out := jsonjs.ObjectValue(jsonjs.Member{Key: "content", Value: jsonjs.StringValue(tc.content)})
		var msgs []string
		for _, d := range runner.CheckProperties("spill.preview", in, out) {
			msgs = append(msgs, d.Message)
		}
		want := fmt.Sprintf("the replacement is %d bytes, not smaller than the original's ", len(tc.content))
		if fired := len(msgs) == 1 && strings.HasPrefix(msgs[0], want); fired != tc.fires || !tc.fires && len(msgs) != 0 {
			t.Errorf("input %s, replacement %q: %q, want SPILL-CAP-1 %v", tc.input, tc.content, msgs, tc.fires)
		}
	}
}

// An omission without a kind, or of another kind, is no omission the
// retention properties read (667-672); {kind: "none"} under truncated true
// is a lie they catch:
// RET-ITEM-3 and RET-TEXT-7 judge only {kind: "none"} and {kind: "exact",
// count} (properties.go omission, 665).
func TestJudgeOmissionWithoutKind(t *testing.T) {
	items := `{"strategy":{"kind":"head","maxItems":1},"items":[1,2]}`
	for _, tc := range []struct{ op, input, output string }{
		{"retain.items", items, `{"items":[1],"kept":1,"seen":1,"truncated":true,"omitted":{"count":0}}`},
		{"retain.text", `{}`, `{"text":"a","truncated":true,"omittedBytes":{"count":0}}`},
		{"retain.items", items, `{"items":[1],"kept":1,"seen":1,"truncated":true,"omitted":{"kind":"some","count":0}}`},
		{"retain.text", `{}`, `{"text":"a","truncated":true,"omittedBytes":{"kind":"some","count":0}}`},
	} {
		if got := reqsOf(t, tc.op, tc.input, tc.output); slices.Contains(got, "RET-ITEM-3") || slices.Contains(got, "RET-TEXT-7") {
			t.Errorf("%s %s: broken %v", tc.op, tc.output, got)
		}
		// The same answer with an exact omission of 0 breaks it.
		exact := strings.Replace(strings.Replace(tc.output, `{"count":0}`, `{"kind":"exact","count":0}`, 1), `"some"`, `"exact"`, 1)
		if got := reqsOf(t, tc.op, tc.input, exact); len(got) == 0 {
			t.Errorf("%s %s: no property broken", tc.op, exact)
		}
	}
}

func TestJudgeOmissionNoneUnderTruncated(t *testing.T) {
	items := `{"strategy":{"kind":"head","maxItems":1},"items":[1]}`
	if got := reqsOf(t, "retain.items", items, `{"items":[1],"kept":1,"seen":1,"truncated":true,"omitted":{"kind":"none"}}`); !slices.Contains(got, "RET-ITEM-3") {
		t.Errorf("retain.items truncated with nothing omitted: broken %v", got)
	}
	if got := reqsOf(t, "retain.text", `{}`, `{"text":"a","truncated":true,"omittedBytes":{"kind":"none"}}`); !slices.Contains(got, "RET-TEXT-7") {
		t.Errorf("retain.text truncated with nothing omitted: broken %v", got)
	}
}

// An answer without pushes is the comparison's to report: RET-ITEM-2 and
// RET-TEXT-3 count push decisions only where there is a list
// (properties.go pushes, 679).
func TestJudgeNoPushesNoPushCount(t *testing.T) {
	for _, tc := range []struct{ op, input, output, req string }{
		{"retain.items", `{"strategy":{"kind":"head","maxItems":5},"items":[1,2]}`, `{"items":[1,2],"kept":2,"seen":2,"truncated":false,"omitted":{"kind":"none"}}`, "RET-ITEM-2"},
		{"retain.text", `{"chunks":["a","b"]}`, `{"text":"ab","truncated":false,"omittedBytes":{"kind":"none"}}`, "RET-TEXT-3"},
		// A push without a boolean truncated is no list to count (687).
		{"retain.items", `{"strategy":{"kind":"head","maxItems":5},"items":[1,2]}`, `{"items":[1,2],"kept":2,"seen":2,"truncated":false,"omitted":{"kind":"none"},"pushes":[{"kept":true}]}`, "RET-ITEM-2"},
	} {
		if got := reqsOf(t, tc.op, tc.input, tc.output); slices.Contains(got, tc.req) {
			t.Errorf("%s without pushes: broken %v", tc.op, got)
		}
		with := strings.TrimSuffix(strings.Replace(tc.output, `,"pushes":[{"kept":true}]`, "", 1), "}") + `,"pushes":[{"kept":true,"truncated":false}]}`
		if got := reqsOf(t, tc.op, tc.input, with); !slices.Contains(got, tc.req) {
			t.Errorf("%s with one push for two: broken %v", tc.op, got)
		}
	}
}

// Without items, RET-ITEM-3 has no kept count to check (707); with them,
// a kept count that is not theirs breaks it.
func TestJudgeItem3NeedsItems(t *testing.T) {
	input := `{"strategy":{"kind":"head","maxItems":5},"items":[1,2]}`
	if got := reqsOf(t, "retain.items", input, `{"kept":2,"seen":2,"truncated":false,"omitted":{"kind":"none"}}`); slices.Contains(got, "RET-ITEM-3") {
		t.Errorf("retain.items without items: broken %v", got)
	}
	if got := reqsOf(t, "retain.items", input, `{"items":[1],"kept":2,"seen":2,"truncated":false,"omitted":{"kind":"none"}}`); !slices.Contains(got, "RET-ITEM-3") {
		t.Errorf("retain.items with 1 item kept 2: broken %v", got)
	}
}

// RET-TEXT-7: the answer's truncated is the last push's, one push or many
// (properties.go:766); an empty pushes list has no last push to disagree.
func TestJudgeText7LastPushTruncated(t *testing.T) {
	for _, tc := range []struct{ truncated, pushes, want string }{
		{"false", `[{"kept":true,"truncated":true}]`, "truncated false but the last push reports truncated true"},
		{"true", `[{"kept":false,"truncated":false}]`, "truncated true but the last push reports truncated false"},
		{"false", `[{"kept":false,"truncated":true},{"kept":true,"truncated":true}]`, "truncated false but the last push reports truncated true"},
		{"false", `[{"kept":false,"truncated":true},{"kept":true,"truncated":false}]`, ""},
		{"false", `[]`, ""},
	} {
		om := `{"kind":"none"}`
		if tc.truncated == "true" {
			om = `{"kind":"exact","count":1}`
		}
		out := mustParse(t, `{"text":"a","truncated":`+tc.truncated+`,"omittedBytes":`+om+`,"pushes":`+tc.pushes+`}`)
		var msgs []string
		for _, d := range runner.CheckProperties("retain.text", jsonjs.ObjectValue(), out) {
			if d.Requirements[0] == "RET-TEXT-7" {
				msgs = append(msgs, d.Message)
			}
		}
		if want := []string{tc.want}; tc.want == "" && len(msgs) != 0 || tc.want != "" && !slices.Equal(msgs, want) {
			t.Errorf("truncated %s, pushes %s: RET-TEXT-7 says %q, want %q", tc.truncated, tc.pushes, msgs, tc.want)
		}
	}
}
