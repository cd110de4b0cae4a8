package runner_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Blame names the rule that broke, not where it shows (blame.go, issue
// 12): each case below is a golden answer of the reference, an answer
// that differs from it in one part, and the requirement of that part,
// cited beside others the difference must not blame (issue 22, the
// judge's survivors of blame.go).

// blame2Case is a case whose golden answer is the reference's answer to
// input, citing cites.
func blame2Case(t *testing.T, op, input string, cites ...string) runner.Case {
	t.Helper()
	in, err := jsonjs.Parse([]byte(input))
	if err != nil {
		t.Fatalf("input: %v", err)
	}
	out, err := reference.Run(op, []byte(input))
	if err != nil {
		t.Fatalf("reference: %v", err)
	}
	want, err := jsonjs.Parse(out)
	if err != nil {
		t.Fatalf("golden: %v", err)
	}
	return runner.Case{ID: op + "/judge-blame2", Op: op, Requirements: cites, Input: []byte(input), InputValue: in, Want: runner.Want{Output: &want}}
}

// blame2Content compares an answer that is the golden one with its
// content text edited, and returns what the content diff blames.
func blame2Content(t *testing.T, c runner.Case, edit func(string) string) []string {
	t.Helper()
	text, ok := c.Want.Output.Get("content")
	if !ok {
		t.Fatal("the golden answer has no content")
	}
	s, _ := text.Str()
	changed := edit(s)
	if changed == s {
		t.Fatalf("the edit leaves %q as it is", s)
	}
	answer := c.Want.Output.With("content", jsonjs.StringValue(changed))
	for _, d := range runner.Compare(c, &answer, nil) {
		if d.Path == "$.content" {
			got := slices.Clone(d.Requirements)
			slices.Sort(got)
			return got
		}
	}
	t.Fatalf("no content diff for %q", changed)
	return nil
}

// A grep text's recovery trailer is SEARCH-GREP-5's wording: an answer
// whose trailer says something else breaks that rule, not the grouping
// of the matches (SEARCH-GREP-3), though the trailer is a block of its
// own after a blank line as a file's group is.
func TestJudgeBlameGrepTrailer(t *testing.T) {
	failed := `{"args":{"pattern":"o"},"value":{"matches":[{"path":"a.ts","lineNumber":1,"line":"one"},{"path":"a.ts","lineNumber":2,"line":"two"}]},"config":{"maxMatches":1},"spill":{"saved":null,"locator":"L","retrievalHint":"H"}}`
	saved := `{"args":{"pattern":"o"},"value":{"matches":[{"path":"a.ts","lineNumber":1,"line":"one"},{"path":"a.ts","lineNumber":2,"line":"two"}]},"config":{"maxMatches":1},"spill":{"saved":true,"locator":"L","retrievalHint":"read it\nwith care"}}`
	for _, tc := range []struct {
		name, input, old, new string
	}{
		{"the failed save's sentence reworded", failed, "narrow pattern, path, or include", "narrow the pattern"},
		{"the failed save's sentence cut at its start", failed, "(The complete", "(Complete"},
		{"a saved spill's locator", saved, "stored at: L.", "stored at: M."},
		{"a saved spill's hint, on its second line", saved, "with care", "with caution"},
	} {
		c := blame2Case(t, "grep.result", tc.input, "SEARCH-GREP-3", "SEARCH-GREP-5", "SEARCH-PREVIEW-1")
		got := blame2Content(t, c, func(s string) string {
			if !strings.Contains(s, "\n\n(") || !strings.Contains(s, tc.old) {
				t.Fatalf("%s: golden text %q has no trailer holding %q", tc.name, s, tc.old)
			}
			return strings.Replace(s, tc.old, tc.new, 1)
		})
		if !slices.Equal(got, []string{"SEARCH-GREP-5"}) {
			t.Errorf("%s: blames %v, want [SEARCH-GREP-5]", tc.name, got)
		}
	}
}

// A glob text has no file groups: a path after an empty one (a blank line
// in the list) is a body line like any other, the listing's (SEARCH-GLOB-2),
// and never a grep group's (SEARCH-GREP-3).
func TestJudgeBlameGlobAfterAnEmptyPath(t *testing.T) {
	c := blame2Case(t, "glob.result", `{"args":{"pattern":"*"},"value":{"root":".","paths":["a","","b"]},"config":{"maxResults":100,"sampleOverCap":false}}`,
		"SEARCH-GLOB-2", "SEARCH-GLOB-1", "SEARCH-GREP-3")
	got := blame2Content(t, c, func(s string) string {
		if !strings.HasSuffix(s, "a\n\nb") {
			t.Fatalf("golden text %q does not end with the paths a, \"\" and b", s)
		}
		return strings.TrimSuffix(s, "b") + "c"
	})
	if !slices.Equal(got, []string{"SEARCH-GLOB-2"}) {
		t.Errorf("blames %v, want [SEARCH-GLOB-2]", got)
	}
}

// A meta group whose path differs gives its blame to the diffs inside
// that group alone (regrouped): a difference elsewhere in the meta, its
// total, keeps its own (SEARCH-CAP-4, the total's rule, with the meta's
// shape).
func TestJudgeBlameRegroupStaysInTheGroup(t *testing.T) {
	c := blame2Case(t, "grep.result", `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a.go","lineNumber":1,"line":"xa"},{"path":"b.go","lineNumber":2,"line":"xb"}]}}`,
		"SEARCH-META-2", "SEARCH-CAP-4", "SEARCH-PREVIEW-1")
	golden := *c.Want.Output
	meta, _ := golden.Get("meta")
	files, _ := meta.Get("files")
	groups, ok := files.Items()
	if !ok || len(groups) != 2 {
		t.Fatalf("golden meta %s: want two groups", jsonjs.Marshal(meta))
	}
	groups = slices.Clone(groups)
	groups[0] = groups[0].With("path", jsonjs.StringValue("c.go"))
	answer := golden.With("meta", meta.With("files", jsonjs.ArrayValue(groups...)).With("total", jsonjs.IntValue(3)))
	want := map[string][]string{
		"$.meta.files[0].path": {"SEARCH-META-2"},
		"$.meta.total":         {"SEARCH-CAP-4", "SEARCH-META-2"},
	}
	seen := 0
	for _, d := range runner.Compare(c, &answer, nil) {
		w, ok := want[d.Path]
		if !ok {
			continue
		}
		seen++
		got := slices.Clone(d.Requirements)
		slices.Sort(got)
		if !slices.Equal(got, w) {
			t.Errorf("the diff at %s blames %v, want %v", d.Path, got, w)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the diffs at %v", seen, want)
	}
}

// A difference in a part the case does not cite still blames that part's
// own requirement (the first the part names), never nothing and never the
// citations it did not break: a grep header the case does not cite is
// SEARCH-GREP-1's.
func TestJudgeBlameAnUncitedPart(t *testing.T) {
	c := blame2Case(t, "grep.result", `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a.go","lineNumber":1,"line":"xa"}]}}`,
		"SEARCH-PREVIEW-1", "SEARCH-META-2")
	got := blame2Content(t, c, func(s string) string {
		if !strings.HasPrefix(s, "Found 1 match\n") {
			t.Fatalf("golden text %q has no one-match header", s)
		}
		return "Found 1 matches" + strings.TrimPrefix(s, "Found 1 match")
	})
	if !slices.Equal(got, []string{"SEARCH-GREP-1"}) {
		t.Errorf("blames %v, want [SEARCH-GREP-1]", got)
	}
}

// A grep group's first line is its file's path, whatever the path looks
// like: a difference there is the grouping's (SEARCH-GREP-3), also where
// the path reads like a previewed row ("Line 2: b.go" is a legal file
// name).
func TestJudgeBlameGrepPathLikeARow(t *testing.T) {
	c := blame2Case(t, "grep.result", `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a.go","lineNumber":1,"line":"xa"},{"path":"Line 2: b.go","lineNumber":2,"line":"xb"}]}}`,
		"SEARCH-GREP-3", "SEARCH-PREVIEW-1")
	got := blame2Content(t, c, func(s string) string {
		if !strings.Contains(s, "\n\nLine 2: b.go\nLine 2: xb") {
			t.Fatalf("golden text %q has no group of the path Line 2: b.go", s)
		}
		return strings.Replace(s, "Line 2: b.go", "Line 2: c.go", 1)
	})
	if !slices.Equal(got, []string{"SEARCH-GREP-3"}) {
		t.Errorf("blames %v, want [SEARCH-GREP-3]", got)
	}
}

// blame2Meta compares an answer that is the golden one with its meta's
// list (files or paths) cut to its first keep elements and its content
// edited, and returns what the diff of that list blames.
func blame2Meta(t *testing.T, c runner.Case, keep int, edit func(string) string) []string {
	t.Helper()
	golden := *c.Want.Output
	meta, _ := golden.Get("meta")
	list := "files"
	if c.Op == "glob.result" {
		list = "paths"
	}
	l, _ := meta.Get(list)
	items, ok := l.Items()
	if !ok || len(items) <= keep {
		t.Fatalf("golden meta %s has no %s longer than %d", jsonjs.Marshal(meta), list, keep)
	}
	text, _ := golden.Get("content")
	s, _ := text.Str()
	answer := golden.With("meta", meta.With(list, jsonjs.ArrayValue(items[:keep]...))).With("content", jsonjs.StringValue(edit(s)))
	for _, d := range runner.Compare(c, &answer, nil) {
		if d.Path == "$.meta."+list {
			got := slices.Clone(d.Requirements)
			slices.Sort(got)
			return got
		}
	}
	t.Fatalf("no diff at $.meta.%s", list)
	return nil
}

// A meta list cut short is the byte cap's (SEARCH-CAP-*) where the cap
// shaped the golden meta: it lists fewer items than the golden text shows,
// or it is over the cap (one element the cap cannot drop); elsewhere,
// where the text differs too, it is the retention's. Grep and glob alike.
func TestJudgeBlameMetaCutWhereTheCapActs(t *testing.T) {
	glob := func(maxMeta int) string {
		return fmt.Sprintf(`{"args":{"pattern":"*"},"value":{"root":".","paths":["aaaaaaaaaa","bbbbbbbbbb","cccccccccc","dddddddddd","eeeeeeeeee"]},"config":{"maxResults":100,"sampleOverCap":false,"maxMetaBytes":%d}}`, maxMeta)
	}
	grep := func(maxMeta int) string {
		return fmt.Sprintf(`{"args":{"pattern":"x"},"value":{"matches":[{"path":"a.go","lineNumber":1,"line":"xaaaaaaaaa"},{"path":"b.go","lineNumber":2,"line":"xbbbbbbbbb"},{"path":"c.go","lineNumber":3,"line":"xccccccccc"},{"path":"d.go","lineNumber":4,"line":"xddddddddd"}]},"config":{"maxMetaBytes":%d}}`, maxMeta)
	}
	lastByte := func(s string) string { return s[:len(s)-1] + "Z" }
	whole := blame2Case(t, "glob.result", glob(100000))
	wholeMeta, _ := whole.Want.Output.Get("meta")
	globMetaSize := jsonjs.Size(wholeMeta)
	cap := []string{"SEARCH-CAP-2"}
	retain := []string{"SEARCH-RETAIN-2"}
	for _, tc := range []struct {
		name  string
		op    string
		input string
		keep  int
		want  []string
	}{
		{"a glob meta the cap cut to 3 of 5 paths, cut to 2", "glob.result", glob(100), 2, cap},
		{"a grep meta the cap cut, cut by one group more", "grep.result", grep(260), 1, cap},
		{"a glob meta of one path over the cap, cut to none", "glob.result", glob(3), 0, cap},
		{"a glob meta the cap left whole, cut to 3 paths", "glob.result", glob(100000), 3, retain},
		{"a grep meta the cap left whole, cut to 2 groups", "grep.result", grep(100000), 2, retain},
		// A meta exactly as large as the cap fits it: the cap left it whole.
		{"a glob meta exactly at the cap, cut to 3 paths", "glob.result", glob(globMetaSize), 3, retain},
		// A glob text of an empty path and a trailer of two lines shows one
		// path, as its meta lists: the trailer's lines are no paths.
		{"a glob meta of one empty path before a two-line trailer, cut to none", "glob.result",
			`{"args":{"pattern":"*"},"value":{"root":".","paths":["","b","c"]},"config":{"maxResults":1,"sampleOverCap":false},"spill":{"saved":true,"locator":"L","retrievalHint":"x\ny"}}`, 0, retain},
	} {
		c := blame2Case(t, tc.op, tc.input, "SEARCH-CAP-2", "SEARCH-RETAIN-2")
		// The golden meta is cut (truncated, though the text shows every
		// match or path) exactly where the cap is said to act; the retention
		// truncates the text and the meta alike (maxResults) in the last row.
		if truncated := blame2Bool(t, *c.Want.Output, "meta", "truncated"); truncated != (slices.Equal(tc.want, cap) || strings.Contains(tc.input, `"maxResults":1,`)) {
			t.Fatalf("%s: the golden meta's truncated is %v: %s", tc.name, truncated, jsonjs.Marshal(*c.Want.Output))
		}
		got := blame2Meta(t, c, tc.keep, lastByte)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: blames %v, want %v (golden %s)", tc.name, got, tc.want, jsonjs.Marshal(*c.Want.Output))
		}
	}
}

// blame2Bool is the boolean at a path of members.
func blame2Bool(t *testing.T, v jsonjs.Value, keys ...string) bool {
	t.Helper()
	for _, k := range keys {
		v, _ = v.Get(k)
	}
	b, ok := v.Bool()
	if !ok {
		t.Fatalf("no boolean at %v", keys)
	}
	return b
}

// A run's text is its logs, a newline, and the rendered result: the logs
// and the newline after them are the composition's (CODE-RENDER-*); in
// the result, a string's bytes and its quotes are CODE-STR-1's, a key's
// CODE-KEYS-*'s. Each located from where the result starts, after the
// logs.
func TestJudgeBlameRunTextAfterLogs(t *testing.T) {
	cites := []string{"CODE-RENDER-1", "CODE-JSON-2", "CODE-STR-1", "CODE-KEYS-1", "CODE-NUM-1"}
	for _, tc := range []struct {
		name, input, old, new string
		want                  []string
	}{
		{"the newline after the logs", `{"args":{"code":"x","description":"d"},"run":{"logs":["hello"],"result":{"ab":1}}}`,
			"hello\n{", "hello {", []string{"CODE-RENDER-1"}},
		{"the last byte of the logs", `{"args":{"code":"x","description":"d"},"run":{"logs":["hello"],"result":{"ab":1}}}`,
			"hello\n{", "hellO\n{", []string{"CODE-RENDER-1"}},
		{"the first byte of the result", `{"args":{"code":"x","description":"d"},"run":{"logs":["hello"],"result":{"ab":1}}}`,
			"hello\n{", "hello\n[", []string{"CODE-JSON-2"}},
		{"the quote opening a key", `{"args":{"code":"x","description":"d"},"run":{"logs":["hello"],"result":{"ab":1}}}`,
			`"ab"`, `ab`, []string{"CODE-STR-1"}},
		{"inside a key", `{"args":{"code":"x","description":"d"},"run":{"logs":["hello"],"result":{"ab":1}}}`,
			`"ab"`, `"aB"`, []string{"CODE-KEYS-1", "CODE-STR-1"}},
		{"inside a string value after two logs", `{"args":{"code":"x","description":"d"},"run":{"logs":["hello","w"],"result":{"a":"xyz"}}}`,
			`"xyz"`, `"xQz"`, []string{"CODE-STR-1"}},
		{"a number after two logs", `{"args":{"code":"x","description":"d"},"run":{"logs":["hello","w"],"result":{"a":"xyz","b":12}}}`,
			`12`, `13`, []string{"CODE-NUM-1"}},
		// A number the answer extends where the text ends is the number's;
		// a number the answer replaces by another kind of value, the
		// layout's.
		{"a number result extended at the text's end", `{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":5}}`,
			`5`, `50`, []string{"CODE-NUM-1"}},
		{"a number replaced by true", `{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":{"ab":1}}}`,
			`"ab": 1`, `"ab": true`, []string{"CODE-JSON-2"}},
	} {
		c := blame2Case(t, "run_code.result", tc.input, cites...)
		got := blame2Content(t, c, func(s string) string {
			if !strings.Contains(s, tc.old) {
				t.Fatalf("%s: golden text %q does not hold %q", tc.name, s, tc.old)
			}
			return strings.Replace(s, tc.old, tc.new, 1)
		})
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) {
			t.Errorf("%s: blames %v, want %v", tc.name, got, want)
		}
	}
}

// Lists of different lengths where neither is the other cut short (a
// group the golden meta does not have) are the meta's elements, never a
// cap's cut, even where the text agrees.
func TestJudgeBlameMetaListThatIsNoCut(t *testing.T) {
	c := blame2Case(t, "grep.result", `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a.go","lineNumber":1,"line":"xa"},{"path":"b.go","lineNumber":2,"line":"xb"}]}}`,
		"SEARCH-CAP-2", "SEARCH-EXEC-4")
	golden := *c.Want.Output
	meta, _ := golden.Get("meta")
	files, _ := meta.Get("files")
	groups, ok := files.Items()
	if !ok || len(groups) != 2 {
		t.Fatalf("golden meta %s: want two groups", jsonjs.Marshal(meta))
	}
	other := groups[0].With("path", jsonjs.StringValue("c.go"))
	answer := golden.With("meta", meta.With("files", jsonjs.ArrayValue(other)))
	for _, d := range runner.Compare(c, &answer, nil) {
		if d.Path == "$.meta.files" {
			if !slices.Equal(d.Requirements, []string{"SEARCH-EXEC-4"}) {
				t.Errorf("the diff at %s blames %v, want [SEARCH-EXEC-4]", d.Path, d.Requirements)
			}
			return
		}
	}
	t.Error("no diff at $.meta.files")
}
