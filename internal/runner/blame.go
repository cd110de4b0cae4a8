package runner

import (
	"fmt"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// blame sets each comparison diff's Requirements (issue 12): the case's
// cited requirements that the failing check verifies, so that a failing
// case does not blame what its answer got right. The check's requirements
// are its rule's (RuleFor), narrowed for text fields to the part of the
// text where the first difference is (located). A check whose
// requirements meet none of the citations blames every citation: the
// case was written for them. Property diffs keep their own requirement.
// sides[i] holds the values diffs[i] compares: blame reads them, not the
// diff's JSON texts, which it may not keep whole.
func blame(c Case, output *jsonjs.Value, diffs []Diff, sides []jsonjs.Difference) {
	blameParts(c, output, diffs, sides)
	if !blameFlip(c, output, diffs) {
		blameSpillDecision(c, output, diffs)
	}
}

// blameParts blames each diff by the part of the answer where it is.
func blameParts(c Case, output *jsonjs.Value, diffs []Diff, sides []jsonjs.Difference) {
	textDiffers := false
	for _, d := range diffs {
		textDiffers = textDiffers || (d.Field == "content" && d.Comparator != CmpProperty)
	}
	for i := range diffs {
		d := &diffs[i]
		if d.Comparator == CmpProperty {
			continue
		}
		d.Requirements = blamed(c, d, sides[i], textDiffers)
	}
	if output != nil {
		mirroredView(c.Op, *output, diffs)
	}
	regrouped(diffs)
}

// regrouped gives the diffs inside a meta file group whose path differs
// the blame of that path diff: the group holds another file's matches,
// which is the grouping's fault, not the lines'.
func regrouped(diffs []Diff) {
	paths := map[string][]string{}
	for _, d := range diffs {
		if g, ok := strings.CutSuffix(d.Path, ".path"); ok && d.Field == "meta" && d.Comparator != CmpProperty {
			paths[g] = d.Requirements
		}
	}
	for i := range diffs {
		d := &diffs[i]
		if d.Field != "meta" || d.Comparator == CmpProperty {
			continue
		}
		for g, reqs := range paths {
			if strings.HasPrefix(d.Path, g+".") && d.Path != g+".path" {
				d.Requirements = append([]string{}, reqs...)
			}
		}
	}
}

// blamed is the requirements one comparison diff blames.
func blamed(c Case, d *Diff, s jsonjs.Difference, textDiffers bool) []string {
	if d.Field == "" {
		return nonNilCopy(c.Requirements)
	}
	rule, _ := RuleFor(c.Op, d.Field)
	if d.Field == ErrorField {
		rule, _ = RuleFor(c.Op, ErrorField)
	}
	if narrow := located(c, d, s, textDiffers); narrow != nil {
		if got := cited(c.Requirements, narrow); len(got) > 0 {
			return got
		}
		// The case does not cite what the difference breaks: blame the
		// located part's own requirement, not the citations.
		if !strings.HasSuffix(narrow[0], "*") {
			return narrow[:1]
		}
	}
	if got := cited(c.Requirements, rule.Requirements); len(got) > 0 {
		return got
	}
	return nonNilCopy(c.Requirements)
}

// cited returns the requirements of reqs matched by patterns ("*" matches
// all), in reqs' order.
func cited(reqs, patterns []string) []string {
	out := []string{}
	for _, r := range reqs {
		if citesAny([]string{r}, patterns) {
			out = append(out, r)
		}
	}
	return out
}

func nonNilCopy(xs []string) []string { return append([]string{}, xs...) }

// located narrows an exact text diff to the requirements of the part of
// the text where the first difference is: the header line, body or
// recovery trailer of a search text; the logs, or a number, string, key or
// layout of a run_code result. nil: no narrowing.
func located(c Case, d *Diff, s jsonjs.Difference, textDiffers bool) []string {
	if c.Want.Output == nil {
		return nil
	}
	if c.Op == "grep.result" || c.Op == "glob.result" {
		switch d.Field {
		case "meta":
			return metaPart(c, d, s, textDiffers)
		case "spillText":
			if (s.InA && s.A.IsNull()) || (s.InB && s.B.IsNull()) {
				return []string{"SEARCH-SPILL-1", "CODE-DISPATCH-6"} // whether it fires
			}
			return []string{"SEARCH-SPILL-2", "SEARCH-SPILL-3"}
		}
	}
	if d.Comparator != CmpExact || d.Field != "content" {
		return nil
	}
	want, ok := stringAt(*c.Want.Output, "content")
	if !ok {
		return nil
	}
	if boolAt(*c.Want.Output, "isError") {
		if c.Op == "run_code.result" {
			return codeErr
		}
		return searchErr
	}
	got, _ := s.B.Str()
	at := d.Offset
	switch c.Op {
	case "grep.result", "glob.result":
		if c.Op == "grep.result" && !inTrailer(want, at) && groupHead(want, at) != groupHead(got, at) {
			return []string{"SEARCH-GREP-3", "SEARCH-GREP-4"} // another file's group
		}
		return searchTextPart(c.Op, want, at)
	case "run_code.result":
		return codeTextPart(c.InputValue, want, got, at)
	}
	return nil
}

// searchTextPart is the requirements of the search text part holding byte
// at: the header line (SEARCH-GREP-1/2, SEARCH-GLOB-1/2), the recovery
// trailer (SEARCH-GREP-5, SEARCH-GLOB-5, the spill wording) or the body.
func searchTextPart(op, text string, at int) []string {
	grep := op == "grep.result"
	if nl := strings.IndexByte(text, '\n'); nl < 0 || at <= nl {
		if grep {
			return []string{"SEARCH-GREP-1", "SEARCH-GREP-2", "SEARCH-GREP-4"}
		}
		return []string{"SEARCH-GLOB-1", "SEARCH-GLOB-2", "SEARCH-GLOB-3", "SEARCH-GLOB-4"}
	}
	if inTrailer(text, at) {
		if grep {
			return []string{"SEARCH-GREP-4", "SEARCH-GREP-5", "SEARCH-SPILL-5"}
		}
		return []string{"SEARCH-GLOB-3", "SEARCH-GLOB-5", "SEARCH-SPILL-5"}
	}
	if !grep {
		return []string{"SEARCH-GLOB-2", "SEARCH-GLOB-3", "SEARCH-RETAIN-2", "SEARCH-SAMPLE-*"}
	}
	// A grep body row: inside a previewed line, the preview and the
	// retention; elsewhere (paths, row layout), the grouping.
	start := strings.LastIndexByte(text[:at], '\n') + 1
	row := text[start:]
	if strings.HasPrefix(row, "Line ") {
		if colon := strings.Index(row, ": "); colon >= 0 && at >= start+colon+2 {
			return []string{"SEARCH-PREVIEW-*", "SEARCH-RETAIN-1", "RET-*"}
		}
	}
	return []string{"SEARCH-GREP-3", "SEARCH-GREP-4"}
}

// groupHead is the first line of the blank-line separated block of a
// grep text that holds byte at (its file path, for a body group).
func groupHead(text string, at int) string {
	at = min(at, len(text))
	start := strings.LastIndex(text[:at], "\n\n") + 2
	if start < 2 {
		return ""
	}
	head, _, _ := strings.Cut(text[start:], "\n")
	return head
}

// metaPart is the requirements of the part of a search meta where a
// difference is: total (SEARCH-CAP-4), truncated (SEARCH-CAP-3), the list
// cut short where the golden meta was cut by the byte cap or the text
// agrees (SEARCH-CAP-*), a
// previewed line, the list's length (retention) or its elements (shape).
func metaPart(c Case, d *Diff, s jsonjs.Difference, textDiffers bool) []string {
	rest := strings.TrimPrefix(d.Path, "$.meta")
	shape := []string{"SEARCH-META-2", "SEARCH-META-3"}
	list := ".files"
	if c.Op == "glob.result" {
		list = ".paths"
	}
	switch {
	case rest == ".total":
		return append([]string{"SEARCH-CAP-4"}, shape...)
	case rest == ".truncated" && !textDiffers:
		return []string{"SEARCH-CAP-1", "SEARCH-CAP-3"} // the text agrees: the cap's truncated
	case rest == ".truncated":
		return []string{"SEARCH-RETAIN-1", "SEARCH-RETAIN-2", "SEARCH-CAP-3"}
	case !strings.HasPrefix(rest, list):
		return append([]string{"SEARCH-META-1", "SEARCH-META-4"}, shape...)
	}
	wantMeta, _ := searchMeta(*c.Want.Output)
	elems, _ := itemsAt(wantMeta, list[1:])
	lastMatches := grepLastMatches(rest, len(elems)-1)
	if d.Element != nil && prefixCut(d, s) {
		// One list is the other cut short: the cap (whole elements off
		// the end of the list, never a group's matches; the text is not
		// capped, so it agrees) or the retention (the text differs too).
		// The size bound itself (SEARCH-CAP-5) is the meta property's to
		// judge, on the answer alone.
		if (capActive(c.Op, c.InputValue, *c.Want.Output) || !textDiffers) && lastMatches {
			return []string{"SEARCH-CAP-1"} // a group's matches cut: the cap drops whole groups
		}
		if (capActive(c.Op, c.InputValue, *c.Want.Output) || !textDiffers) && rest == list {
			return []string{"SEARCH-CAP-1", "SEARCH-CAP-2", "SEARCH-JSON-*", "SEARCH-META-5"}
		}
		return append([]string{"SEARCH-RETAIN-*", "SEARCH-SAMPLE-*"}, shape...)
	}
	if strings.HasSuffix(rest, ".line") {
		return []string{"SEARCH-PREVIEW-*", "SEARCH-RETAIN-1", "RET-*"}
	}
	return append(shape, "SEARCH-SAMPLE-*", "SEARCH-EXEC-4", "SEARCH-EXEC-5")
}

// grepLastMatches reports whether a meta path is the matches of the last
// file group.
func grepLastMatches(rest string, last int) bool {
	return rest == fmt.Sprintf(".files[%d].matches", last)
}

// prefixCut reports whether an array diff's first differing element is
// where the shorter array ends: one array is a prefix of the other.
func prefixCut(d *Diff, s jsonjs.Difference) bool {
	wi, ok1 := s.A.Items()
	gi, ok2 := s.B.Items()
	return ok1 && ok2 && *d.Element == min(len(wi), len(gi))
}

// capActive reports whether the byte cap shaped the golden meta of a
// search output: it lists fewer items than the golden text shows, or it
// is over the cap (a single element is never dropped).
func capActive(op string, input, want jsonjs.Value) bool {
	meta, ok := searchMeta(want)
	if ok && float64(jsonjs.Size(meta)) > maxMetaBytes(input) {
		return true
	}
	return capActed(op, want)
}

// capActed reports whether the golden meta of a search output was cut by
// the byte cap: it lists fewer items than the golden text shows.
func capActed(op string, want jsonjs.Value) bool {
	meta, ok := searchMeta(want)
	text, tOK := stringAt(want, "content")
	if !ok || !tOK {
		return false
	}
	_, shown, ok := metaCounts(meta)
	if !ok {
		return false
	}
	body := searchBody(op, text)
	if tr := strings.LastIndex(body, "\n\n("); tr >= 0 {
		body = body[:tr]
	}
	rows := 0
	for _, l := range strings.Split(body, "\n") {
		if op == "glob.result" && l != "" || op == "grep.result" && strings.HasPrefix(l, "Line ") {
			rows++
		}
	}
	return shown < rows
}

// codeTextPart is the requirements of the run_code text part holding byte
// at: inside the logs, the composition (CODE-RENDER-*); inside a string
// result, CODE-JSON-1; inside a number of a JSON result, CODE-NUM-1; inside
// a string or key, CODE-STR-1 and CODE-KEYS-*; elsewhere, the layout
// (CODE-JSON-2/3).
func codeTextPart(input jsonjs.Value, want, got string, at int) []string {
	logs, _ := itemsAt(input, "run", "logs")
	parts := make([]string, 0, len(logs))
	for _, l := range logs {
		s, _ := l.Str()
		parts = append(parts, s)
	}
	logsPart := strings.Join(parts, "\n")
	result, hasResult := member(input, "run", "result")
	render := []string{"CODE-RENDER-*", "CODE-VALUE-1", "CODE-DISPATCH-8"}
	start := 0
	if logsPart != "" {
		start = len(logsPart) + 1
	}
	if !hasResult || at < start || !strings.HasPrefix(want, logsPart) {
		return render
	}
	if _, isStr := result.Str(); isStr {
		return append([]string{"CODE-JSON-1"}, render...)
	}
	return jsonTokenPart(want[start:], got[min(start, len(got)):], at-start)
}

// jsonTokenPart classifies byte at of a rendered JSON value.
func jsonTokenPart(want, got string, at int) []string {
	inString, key := false, false
	for i := 0; i < at && i < len(want); i++ {
		switch c := want[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
			if inString {
				key = isKey(want, i)
			}
		}
	}
	isNum := func(s string, i int) bool {
		return i >= 0 && i < len(s) && strings.IndexByte("0123456789.eE+-", s[i]) >= 0
	}
	// inNumber: the byte at i is part of a number, or a number ends just
	// before it.
	inNumber := func(s string, i int) bool {
		return isNum(s, i) || (i > 0 && i <= len(s) && s[i-1] >= '0' && s[i-1] <= '9')
	}
	escape := at < len(want) && want[at] == '\\' || at < len(got) && got[at] == '\\'
	switch {
	case inString && escape:
		return []string{"CODE-STR-1"}
	case inString && key:
		return []string{"CODE-KEYS-*", "CODE-STR-1"}
	case inString, at < len(want) && want[at] == '"' || at < len(got) && got[at] == '"':
		return []string{"CODE-STR-1"}
	case inNumber(want, at) && inNumber(got, at):
		return []string{"CODE-NUM-1"}
	}
	return []string{"CODE-JSON-2", "CODE-JSON-3"}
}

// isKey reports whether the string opening at want[open] is an object key
// (followed by ':').
func isKey(want string, open int) bool {
	for i := open + 1; i < len(want); i++ {
		switch want[i] {
		case '\\':
			i++
		case '"':
			return i+1 < len(want) && want[i+1] == ':'
		}
	}
	return false
}

// mirroredView clears the blame of a search view diff that only follows
// from a meta diff: the harness's view is the narrowing of its own meta
// (SEARCH-NARROW-7 holds), so the view check has nothing of its own to
// blame.
func mirroredView(op string, output jsonjs.Value, diffs []Diff) {
	if op != "grep.result" && op != "glob.result" {
		return
	}
	metaDiffers := false
	for _, d := range diffs {
		metaDiffers = metaDiffers || (d.Field == "meta" && d.Comparator != CmpProperty)
	}
	meta, ok := searchMeta(output)
	if !metaDiffers || !ok {
		return
	}
	v := search.ViewFromMeta(meta)
	view, _ := output.Get("view")
	if v == nil || viewDifference(v, view) != "" {
		return
	}
	for i := range diffs {
		if d := &diffs[i]; d.Field == "view" && d.Comparator != CmpProperty {
			d.Requirements = []string{} // its message says why; what it affects is the meta's
			d.Message += " (follows from the meta difference: the view is the narrowed meta)"
		}
	}
}

// Blamed is the union of the requirements a case's diffs blame, in diff
// order: the requirements a failing case fails. Its other cited
// requirements count as passed in that case, or apart when a diff only
// affects them (CaseResult.Affected).
func Blamed(diffs []Diff) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, d := range diffs {
		for _, id := range d.Requirements {
			if id != "" && !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// inTrailer reports whether byte at of a search text is in its recovery
// trailer: the block after the last blank line, when it opens with "("
// and ends the text with ")". The trailer is no file's group: a
// difference there is its wording's (searchTextPart), never the grouping's.
func inTrailer(text string, at int) bool {
	tr := strings.LastIndex(text, "\n\n(")
	return tr >= 0 && at > tr && strings.HasSuffix(text, ")")
}

// searchBody is the rows of a search text with the trailer still on: a
// grep text after its header line and the blank line that ends it; a glob
// text whole, since its first line is already a path, or nothing for its
// "No files found".
func searchBody(op, text string) string {
	if op == "glob.result" {
		if text == search.GlobNone {
			return ""
		}
		return text
	}
	_, body, _ := strings.Cut(text, "\n\n")
	return body
}
