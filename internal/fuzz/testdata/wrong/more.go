package wrong

import (
	"strings"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
	"github.com/dsh-conform/conform/reference/search"
)

// MetaTrimsMatches caps the grep meta by dropping matches from the end of
// the last file group (a group going only when it is empty) where
// SEARCH-CAP-1 drops whole groups; everything else is right. This is the
// fork of issue 12 that failed on meta and view only.
type MetaTrimsMatches struct{ base }

func (MetaTrimsMatches) Run(op string, input []byte) ([]byte, error) {
	in, out, ok := grepOutput(op, input)
	if !ok || out.Meta == nil {
		return reference.Run(op, input)
	}
	r := search.RetainGrep(in.Value.Matches,
		cfgInt(in.Config, "maxMatches", search.DefaultGrepMaxMatches),
		cfgInt(in.Config, "maxLineBytes", search.DefaultGrepMaxLineBytes))
	files := search.GroupByFile(r.Items)
	if files == nil {
		files = []search.FileMatches{}
	}
	m := search.Meta{Shape: search.ShapeMatches, Files: files, Truncated: r.Truncated, Total: r.Seen}
	c := cfgInt(in.Config, "maxMetaBytes", search.DefaultSearchMetaMaxBytes)
	if jsonjs.Size(m.Value()) <= c {
		return reference.Run(op, input)
	}
	m.Truncated = true
	for jsonjs.Size(m.Value()) > c && countMatches(m.Files) > 1 {
		last := &m.Files[len(m.Files)-1]
		last.Matches = last.Matches[:len(last.Matches)-1]
		if len(last.Matches) == 0 {
			m.Files = m.Files[:len(m.Files)-1]
		}
	}
	return withMeta(out, search.Grep, in.Args, m)
}

func countMatches(fs []search.FileMatches) int {
	n := 0
	for _, f := range fs {
		n += len(f.Matches)
	}
	return n
}

// BrokenPushes answers retain.items with every push decision reported as
// {kept: true, truncated: false}, even for the dropped items (RET-ITEM-2);
// the retained items and counts are right.
type BrokenPushes struct{ base }

func (BrokenPushes) Run(op string, input []byte) ([]byte, error) {
	var in retention.ItemsInput
	if op != "retain.items" || !decode(input, &in) {
		return reference.Run(op, input)
	}
	out, err := retention.RetainItems(in)
	if err != nil {
		return reference.Run(op, input)
	}
	for i := range out.Pushes {
		out.Pushes[i] = retention.Decision{Kept: true, Truncated: false}
	}
	return reference.Encode(out)
}

// ThreeBugs has three distinct bugs in run_code content: numbers in Go's
// %g (CODE-NUM-1), non-ASCII in strings escaped as \uXXXX like Python's
// json.dumps (CODE-STR-1), and empty log entries dropped (CODE-RENDER-1).
type ThreeBugs struct{ base }

func (ThreeBugs) Run(op string, input []byte) ([]byte, error) {
	if op != "run_code.result" {
		return reference.Run(op, input)
	}
	return DropEmptyLogs{}.rerun(input, func(v jsonjs.Value) string {
		return asciiStrings(string(appendPretty(nil, v, 0, 2, 5, NumberGo{}.number)))
	})
}

// asciiStrings escapes the non-ASCII code points of rendered JSON.
func asciiStrings(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xFFFF:
			r -= 0x10000
			b.WriteString(jsonEscape(0xD800+(r>>10)) + jsonEscape(0xDC00+(r&0x3FF)))
		default:
			b.WriteString(jsonEscape(r))
		}
	}
	return b.String()
}

func jsonEscape(r rune) string {
	const hex = "0123456789abcdef"
	return `\u` + string([]byte{hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15]})
}

// GrepLineShort reads grep's maxLineBytes one byte short (an off-by-one in
// the setting's plumbing): every other part of the op is right. One bug
// that shows in many places (the text, the meta, the spill text, the view,
// a configuration error at maxLineBytes 1), the fuzzer must report it as
// one finding (issue 23).
type GrepLineShort struct{ base }

func (GrepLineShort) Run(op string, input []byte) ([]byte, error) {
	if op != "grep.result" {
		return reference.Run(op, input)
	}
	doc, err := jsonjs.Parse(input)
	if err != nil {
		return reference.Run(op, input)
	}
	cfg, _ := doc.Get("config")
	n, ok := cfg.Get("maxLineBytes")
	f, isNum := n.Float()
	if !ok || !isNum {
		return reference.Run(op, input)
	}
	return reference.Run(op, jsonjs.Marshal(doc.With("config", cfg.With("maxLineBytes", jsonjs.NumberValue(f-1)))))
}
