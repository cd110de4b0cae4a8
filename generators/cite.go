package generators

import (
	"strings"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Cite returns the requirements a generated case of op exercises, decided
// from its input and the reference's answer (issue 12): a grep case with
// nothing over the byte cap does not cite SEARCH-CAP-1, a run_code result
// without a number does not cite CODE-NUM-1. A failing case can only blame
// what it cites (and the properties it breaks), so a citation it does not
// exercise would be blamed for nothing. Ops without a rule here cite their
// core list (genDrawnOps).
func Cite(op string, input jsonjs.Value) []string {
	out, err := reference.Run(op, jsonjs.Marshal(input))
	var v jsonjs.Value
	if err == nil {
		v, err = jsonjs.Parse(out)
	}
	switch {
	case err != nil:
		return append([]string(nil), genDrawnOps[op].requirements...)
	case op == "grep.result" || op == "glob.result":
		return citeSearch(op, input, v)
	case op == "run_code.result":
		return citeRunCode(input, v)
	}
	return append([]string(nil), genDrawnOps[op].requirements...)
}

// citer collects requirement IDs in order, each once.
type citer []string

func (c *citer) add(cond bool, ids ...string) {
	if !cond {
		return
	}
	for _, id := range ids {
		found := false
		for _, x := range *c {
			found = found || x == id
		}
		if !found {
			*c = append(*c, id)
		}
	}
}

func citeSearch(op string, input, out jsonjs.Value) []string {
	grep := op == "grep.result"
	var c citer
	isErr, _ := get(out, "isError").Bool()
	content, _ := get(out, "content").Str()
	meta := get(out, "meta")
	truncated, _ := get(meta, "truncated").Bool()
	if isErr {
		c.add(true, "SEARCH-ERR-1")
		return c
	}
	list, unit := "files", "\nLine "
	if !grep {
		list, unit = "paths", "\n"
	}
	items, _ := get(meta, list).Items()
	shown := len(items)
	if grep {
		shown = 0
		for _, f := range items {
			ms, _ := get(f, "matches").Items()
			shown += len(ms)
		}
	}
	_, body, _ := strings.Cut(content, "\n\n")
	if tr := strings.LastIndex(body, "\n\n("); tr >= 0 {
		body = body[:tr]
	}
	rows := strings.Count("\n"+body, unit)
	if !grep && body == "" {
		rows = 0
	}
	empty := content == "No matches found" || content == "No files found"
	if grep {
		c.add(empty, "SEARCH-GREP-1")
		c.add(!empty, "SEARCH-RETAIN-1", "SEARCH-GREP-2", "SEARCH-GREP-3")
		c.add(strings.Contains(content, " (line truncated)"), "SEARCH-PREVIEW-1")
		c.add(!meta.IsNull(), "SEARCH-META-2")
	} else {
		c.add(empty, "SEARCH-GLOB-1")
		c.add(!empty && !truncated, "SEARCH-GLOB-2")
		c.add(!empty && truncated, "SEARCH-RETAIN-2", "SEARCH-GLOB-3")
		sample, _ := get(get(input, "config"), "sampleOverCap").Bool()
		c.add(truncated && sample, "SEARCH-SAMPLE-4")
		c.add(!meta.IsNull(), "SEARCH-META-3")
	}
	capBytes := float64(65536)
	if v, ok := get(get(input, "config"), "maxMetaBytes").Float(); ok {
		capBytes = v
	}
	c.add(!meta.IsNull() && (shown < rows || float64(jsonjs.Size(meta)) > capBytes), "SEARCH-CAP-1")
	c.add(!get(out, "view").IsNull(), map[bool]string{true: "SEARCH-NARROW-5", false: "SEARCH-NARROW-6"}[grep])
	c.add(!get(out, "callView").IsNull(), map[bool]string{true: "SEARCH-CALL-1", false: "SEARCH-CALL-2"}[grep])
	c.add(!get(out, "spillText").IsNull(), "SEARCH-SPILL-1", map[bool]string{true: "SEARCH-SPILL-2", false: "SEARCH-SPILL-3"}[grep])
	return c
}

func citeRunCode(input, out jsonjs.Value) []string {
	var c citer
	run := get(input, "run")
	logs, _ := get(run, "logs").Items()
	result, hasResult := run.Get("result")
	isErr, _ := get(out, "isError").Bool()
	emptyPart := false
	for _, l := range logs {
		s, _ := l.Str()
		emptyPart = emptyPart || s == ""
	}
	if s, ok := result.Str(); hasResult && ok && s == "" {
		emptyPart = true
	}
	c.add(!isErr, "CODE-RENDER-1")
	c.add(!isErr && emptyPart, "CODE-RENDER-2")
	c.add(isErr, "CODE-FAIL-1")
	if !isErr && hasResult {
		_, isStr := result.Str()
		c.add(isStr, "CODE-JSON-1")
		c.add(!isStr, "CODE-JSON-2")
		nums, strs, objs := kinds(result)
		c.add(!isStr && nums, "CODE-NUM-1")
		c.add(!isStr && (strs || objs), "CODE-STR-1")
		c.add(objs, "CODE-KEYS-1")
	}
	c.add(!get(out, "callView").IsNull(), "CODE-PRESENT-1")
	return c
}

// kinds reports whether a value holds numbers, strings and objects.
func kinds(v jsonjs.Value) (nums, strs, objs bool) {
	stack := []jsonjs.Value{v}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x.Kind() {
		case jsonjs.Number:
			nums = true
		case jsonjs.String:
			strs = true
		case jsonjs.Array:
			items, _ := x.Items()
			stack = append(stack, items...)
		case jsonjs.Object:
			objs = true
			ms, _ := x.Members()
			for _, m := range ms {
				stack = append(stack, m.Value)
			}
		}
	}
	return nums, strs, objs
}

// get is v's member key, or the zero Value.
func get(v jsonjs.Value, key string) jsonjs.Value {
	m, _ := v.Get(key)
	return m
}
