package fuzz

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Widening variants (issue 22, item 6): shapes of an input's JSON that the
// typed generators cannot draw, because a typed input always writes its
// optional members, never repeats a key and stays small. Each keeps the
// input valid for its op (the reference answers it, and so does upstream:
// docs/ops.md, "null and absent members"), and each was added because a
// bug of that shape went unnoticed by 20,000 cases a mutant (the five
// false equivalents of issue 22):
//
//   - optional-members: optional members made null, dropped, or added as
//     null, where docs/ops.md says both readings are valid input (an
//     absent isError, a null ref, a null nested, …);
//   - repeated-keys: members written twice, the first time with a junk
//     value, right before themselves, so the text parses to the same
//     value (JSON.parse: first position, last value, CODE-KEYS-2) while
//     the parser's duplicate check sees the input's own keys repeated;
//   - signature-keys: a value that takes any JSON wrapped in an object of
//     one repeated member whose key has a drawn class of the parser's
//     duplicate filter, so repeats of every class are drawn;
//   - past-slab: containers of 17–64 elements after more than 4,096
//     others, past the block the parser presizes for a text;
//   - respelled: strings with \u escapes (surrogate pairs among them) and
//     numbers spelled otherwise (1e21, 1E+21, 5e0), the same parse;
//   - rare-text: characters no string atom holds, in free text
//     (raretext.go).

// wideningByOp are the widening variants of each op; CaseVariant draws
// them for one case in four.
var wideningByOp = map[string][]variant{
	"grep.result":     {{"optional-members", optionalMembers("grep.result")}, {"repeated-keys", repeatedKeys}},
	"glob.result":     {{"optional-members", optionalMembers("glob.result")}, {"repeated-keys", repeatedKeys}},
	"search.present":  {{"optional-members", optionalMembers("search.present")}, {"repeated-keys", repeatedKeys}},
	"run_code.result": {{"optional-members", optionalMembers("run_code.result")}, {"repeated-keys", repeatedKeys}, {"signature-keys", signatureKeys("run_code.result")}, {"past-slab", pastSlab("run_code.result")}},
	"retain.items":    {{"repeated-keys", repeatedKeys}, {"signature-keys", signatureKeys("retain.items")}, {"past-slab", pastSlab("retain.items")}},
	"retain.text":     {{"repeated-keys", repeatedKeys}},
	"spill.preview":   {{"optional-members", optionalMembers("spill.preview")}, {"repeated-keys", repeatedKeys}},
}

func init() {
	// Every op takes escaped strings and respelled numbers, and rare
	// characters in its free text (raretext.go).
	for op := range wideningByOp {
		wideningByOp[op] = append(wideningByOp[op], variant{"respelled", respelled}, variant{"rare-text", rareText(op)})
	}
}

// shaped is an input whose JSON text is not its typed form's writing: the
// widening variants return it. typed is the input as drawn before
// reshaping (what SizeOf measures); the input value is the parse of text.
type shaped struct {
	typed any
	text  []byte
}

// NewInput converts a draw of CaseGenerator, widened or not, into the input
// a case sends (generators.InputValue cannot: a widened input's text is not
// its typed form's).
func NewInput(typed any) (Input, error) { return newInput(typed) }

// shapedInput is newInput of a shaped input.
func shapedInput(s shaped) (Input, error) {
	v, err := jsonjs.Parse(s.text)
	if err != nil {
		return Input{}, fmt.Errorf("a widened input is not JSON: %w", err)
	}
	return Input{Typed: s.typed, Value: v, Text: s.text}, nil
}

// unshape returns the typed input and the value of a drawn input, shaped
// or not (a variant may follow another one's output).
func unshape(in any) (any, jsonjs.Value, bool) {
	if s, ok := in.(shaped); ok {
		v, err := jsonjs.Parse(s.text)
		return s.typed, v, err == nil
	}
	v, err := generators.InputValue(in)
	return in, v, err == nil
}

// insertionText writes v compactly with its members in insertion order, as
// a case's input is written (generators.Case.InputText).
func insertionText(v jsonjs.Value) []byte {
	return jsonjs.AppendLayout(nil, v, jsonjs.Layout{InsertionOrder: true})
}

// optional is one optional member of an op input, by its path of member
// names ("*": every element of an array), and which readings of it are
// valid input: made null, dropped, added as null when absent, or made
// another falsy value. Members
// whose null upstream's npm adapter refuses in its own words (config,
// spill, toolName, arm) are only dropped; a required member's absence is
// never drawn.
type optional struct {
	path                  []string
	null, absent, addNull bool
	falsy                 bool // also 0, false or "": read as none, as a JS test of the value reads it
}

var falsy = []jsonjs.Value{jsonjs.IntValue(0), jsonjs.BoolValue(false), jsonjs.StringValue("")}

var (
	nullable  = func(path ...string) optional { return optional{path: path, null: true, absent: true, addNull: true} }
	droppable = func(path ...string) optional { return optional{path: path, absent: true} }
	addNull   = func(path ...string) optional { return optional{path: path, addNull: true} }
)

// optionalsByOp lists the optional members of each op input (docs/ops.md).
var optionalsByOp = map[string][]optional{
	"grep.result": {
		droppable("config"),
		nullable("config", "maxMatches"), nullable("config", "maxLineBytes"), nullable("config", "maxMetaBytes"),
		nullable("nested"), droppable("spill"),
		nullable("spill", "saved"), nullable("spill", "locator"), nullable("spill", "retrievalHint"),
	},
	"glob.result": {
		// config itself is required: sampleOverCap has no default.
		nullable("config", "maxResults"), nullable("config", "maxMetaBytes"),
		nullable("nested"), droppable("spill"),
		nullable("spill", "saved"), nullable("spill", "locator"), nullable("spill", "retrievalHint"),
	},
	"search.present": {
		nullable("args"), nullable("result", "isError"), nullable("result", "meta"),
	},
	"run_code.result": {
		// A failed run without its error is a completed one, and a null
		// error is none: both valid whatever the logs and result hold.
		// Any falsy error is none (docs/ops.md, run_code.result).
		nullable("run", "result"), optional{path: []string{"run", "error"}, null: true, absent: true, addNull: true, falsy: true},
	},
	"spill.preview": {
		// text and blocks: the one given stays, the other may be null.
		addNull("text"), addNull("blocks"), nullable("blocks", "*", "text"),
		nullable("ref"), droppable("toolName"), droppable("arm"),
	},
}

// optionalMembers makes some optional members null, absent, or null where
// they were absent, at least one when the input has any to change.
func optionalMembers(op string) func(t *rapid.T, in any) any {
	return func(t *rapid.T, in any) any {
		typed, v, ok := unshape(in)
		if !ok {
			return in
		}
		changed := false
		for _, o := range optionalsByOp[op] {
			// 0, 1: leave it (rapid leans towards small values); 2: null; 3: drop.
			v = reshapeMember(t, v, o, o.path, &changed, false)
		}
		if op == "run_code.result" {
			v = completedLogs(t, v, &changed)
		}
		if !changed {
			ops := optionalsByOp[op]
			first := rapid.IntRange(0, len(ops)-1).Draw(t, "forced")
			for i := range ops {
				o := ops[(first+i)%len(ops)]
				if v = reshapeMember(t, v, o, o.path, &changed, true); changed {
					break
				}
			}
		}
		return shaped{typed: typed, text: insertionText(v)}
	}
}

// reshapeMember applies o to the member at path below v (an object, or an
// array for "*"); force draws a change wherever one is valid.
func reshapeMember(t *rapid.T, v jsonjs.Value, o optional, path []string, changed *bool, force bool) jsonjs.Value {
	if path[0] == "*" {
		items, ok := v.Items()
		if !ok {
			return v
		}
		out := make([]jsonjs.Value, len(items))
		for i, it := range items {
			out[i] = reshapeMember(t, it, o, path[1:], changed, force)
		}
		return jsonjs.ArrayValue(out...)
	}
	if v.Kind() != jsonjs.Object {
		return v
	}
	child, present := v.Get(path[0])
	if len(path) > 1 {
		if !present {
			return v
		}
		return v.With(path[0], reshapeMember(t, child, o, path[1:], changed, force))
	}
	lo := 0
	if force {
		lo = 2
	}
	switch what := rapid.IntRange(lo, 4).Draw(t, "optional"); {
	case what < 2:
	case what == 4 && o.falsy:
		*changed = true
		return v.With(path[0], rapid.SampledFrom(falsy).Draw(t, "falsy"))
	case present && !child.IsNull() && o.null && (what == 2 || !o.absent):
		*changed = true
		return v.With(path[0], jsonjs.NullValue())
	case present && o.absent:
		*changed = true
		return without(v, path[0])
	case !present && o.addNull:
		*changed = true
		return v.With(path[0], jsonjs.NullValue())
	}
	return v
}

// completedLogs, at times, gives a completed run (no error, or a falsy
// one) logs that are not all strings, or none: valid input that the
// registry answers with its invalid-output result, each bad log named by
// its path (docs/ops.md, run_code.result). A failed run's logs are left:
// there they must be strings.
func completedLogs(t *rapid.T, v jsonjs.Value, changed *bool) jsonjs.Value {
	run, _ := v.Get("run")
	if e, ok := run.Get("error"); ok && !isFalsy(e) {
		return v
	}
	logs, _ := run.Get("logs")
	items, ok := logs.Items()
	if !ok {
		return v
	}
	switch rapid.IntRange(0, 5).Draw(t, "logs") {
	case 4:
		*changed = true
		return v.With("run", without(run, "logs"))
	case 5:
		out := append([]jsonjs.Value(nil), items...)
		at := rapid.IntRange(0, len(out)).Draw(t, "badLog")
		bad := rapid.SampledFrom([]jsonjs.Value{jsonjs.IntValue(1), jsonjs.NullValue(), jsonjs.BoolValue(true), jsonjs.ObjectValue()}).Draw(t, "badLogValue")
		out = append(out[:at], append([]jsonjs.Value{bad}, out[at:]...)...)
		*changed = true
		return v.With("run", run.With("logs", jsonjs.ArrayValue(out...)))
	}
	return v
}

// isFalsy is JavaScript's falsiness of a JSON value (no JSON number is NaN).
func isFalsy(v jsonjs.Value) bool {
	b, isBool := v.Bool()
	f, isNumber := v.Float()
	str, isString := v.Str()
	return v.IsNull() || isBool && !b || isNumber && f == 0 || isString && str == ""
}

// without is object v without its member key.
func without(v jsonjs.Value, key string) jsonjs.Value {
	members, _ := v.Members()
	out := make([]jsonjs.Member, 0, len(members))
	for _, m := range members {
		if m.Key != key {
			out = append(out, m)
		}
	}
	return jsonjs.ObjectValue(out...)
}

// repeatedKeys writes one to three members twice (when the input has an
// object member): first with a junk value, then with their own, so that
// the text parses to the input's value. The junk is drawn from values of
// every kind; it is read only by a parser that keeps the first of two
// members.
func repeatedKeys(t *rapid.T, in any) any {
	typed, v, ok := unshape(in)
	if !ok {
		return in
	}
	members := countMembers(v)
	if members == 0 {
		return in
	}
	// A few members by index, not a choice per member: fewer draws shrink faster.
	picked := map[int]bool{}
	for i, n := 0, rapid.IntRange(1, 3).Draw(t, "repeats"); i < n; i++ {
		picked[rapid.IntRange(0, members-1).Draw(t, "repeat")] = true
	}
	n := 0
	text := appendRepeating(t, nil, v, &n, func(i int, _ string) bool { return picked[i] })
	return shaped{typed: typed, text: text}
}

// signatureKeys wraps a value the op takes as any JSON (a run_code result,
// retain.items' first item) in an object of one member, written twice,
// whose key has a drawn class of jsonjs's duplicate filter (its
// keySignature mod 64, docs/mutation.md "Fuzz strength"): a filter that
// skips one class then misses the repeat. Class 0, where the empty key
// is, is drawn one time in five: the parser's filter starts from it.
func signatureKeys(op string) func(t *rapid.T, in any) any {
	return func(t *rapid.T, in any) any {
		typed, v, ok := unshape(in)
		if !ok {
			return in
		}
		class := rapid.IntRange(0, 79).Draw(t, "class")
		if class >= 64 {
			class = 0
		}
		key := keyOfClass(t, class)
		wrap := func(x jsonjs.Value) jsonjs.Value { return jsonjs.ObjectValue(jsonjs.Member{Key: key, Value: x}) }
		switch op {
		case "run_code.result":
			run, _ := v.Get("run")
			if run.Kind() != jsonjs.Object {
				return in
			}
			r, ok := run.Get("result")
			if !ok {
				r = jsonjs.IntValue(0)
			}
			v = v.With("run", run.With("result", wrap(r)))
		case "retain.items":
			items, _ := v.Get("items")
			list, ok := items.Items()
			if !ok {
				return in
			}
			list = append([]jsonjs.Value(nil), list...)
			if len(list) == 0 {
				list = append(list, jsonjs.IntValue(0))
			}
			list[0] = wrap(list[0])
			v = v.With("items", jsonjs.ArrayValue(list...))
		}
		n := 0
		text := appendRepeating(t, nil, v, &n, func(_ int, k string) bool { return k == key })
		return shaped{typed: typed, text: text}
	}
}

// keyOfClass draws a key whose signature (reference/jsonjs keySignature:
// 7 × length + first byte + 3 × last byte) is class mod 64: the empty key
// for class 0 at times, else 2–6 ASCII bytes whose last one is solved for.
func keyOfClass(t *rapid.T, class int) string {
	if class == 0 && rapid.Bool().Draw(t, "emptyKey") {
		return ""
	}
	n := rapid.IntRange(2, 6).Draw(t, "keyLen")
	b := make([]byte, n)
	for i := range n - 1 {
		b[i] = byte(rapid.IntRange(0x20, 0x7e).Draw(t, "keyByte"))
	}
	// 3 × last ≡ class − 7n − first (mod 64); 43 is 3's inverse mod 64.
	last := (43 * (class - 7*n - int(b[0]))) % 64
	if last < 0 {
		last += 64
	}
	b[n-1] = byte(last + 64) // 0x40..0x7f: printable, or DEL
	return string(b)
}

// countMembers counts the object members in v, at any depth.
func countMembers(v jsonjs.Value) int {
	n := 0
	if items, ok := v.Items(); ok {
		for _, it := range items {
			n += countMembers(it)
		}
	}
	if members, ok := v.Members(); ok {
		for _, m := range members {
			n += 1 + countMembers(m.Value)
		}
	}
	return n
}

var repeatJunk = []jsonjs.Value{
	jsonjs.NullValue(), jsonjs.BoolValue(true), jsonjs.BoolValue(false), jsonjs.IntValue(0), jsonjs.IntValue(-1),
	jsonjs.StringValue(""), jsonjs.StringValue("junk"), jsonjs.ArrayValue(), jsonjs.ObjectValue(),
	jsonjs.ObjectValue(jsonjs.Member{Key: "", Value: jsonjs.IntValue(1)}),
}

// appendRepeating writes v as insertionText does, with the members for
// which must(i, key) holds preceded by a member of the same name, i
// counting members in writing order (*n). Only the
// punctuation is written here; names and scalars are jsonjs's writing.
func appendRepeating(t *rapid.T, dst []byte, v jsonjs.Value, n *int, must func(i int, key string) bool) []byte {
	if items, ok := v.Items(); ok {
		dst = append(dst, '[')
		for i, it := range items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendRepeating(t, dst, it, n, must)
		}
		return append(dst, ']')
	}
	members, ok := v.Members()
	if !ok {
		return insertionTextAppend(dst, v)
	}
	dst = append(dst, '{')
	for i, m := range members {
		if i > 0 {
			dst = append(dst, ',')
		}
		if must(*n, m.Key) {
			dst = append(jsonjs.AppendString(dst, m.Key), ':')
			dst = append(insertionTextAppend(dst, rapid.SampledFrom(repeatJunk).Draw(t, "junk")), ',')
		}
		*n++
		dst = append(jsonjs.AppendString(dst, m.Key), ':')
		dst = appendRepeating(t, dst, m.Value, n, must)
	}
	return append(dst, '}')
}

func insertionTextAppend(dst []byte, v jsonjs.Value) []byte {
	return jsonjs.AppendLayout(dst, v, jsonjs.Layout{InsertionOrder: true})
}

// slabElements is how many elements the parser presizes at most
// (reference/jsonjs's slabMax): the past-slab variant writes more.
const slabElements = 4096

// pastSlab adds rows of 17–64 small elements (arrays, or objects of as
// many members), more than slabElements in all, where the op takes any
// JSON: a run_code result (the original result is the first row) or
// retain.items' items.
func pastSlab(op string) func(t *rapid.T, in any) any {
	return func(t *rapid.T, in any) any {
		typed, v, ok := unshape(in)
		if !ok {
			return in
		}
		width := rapid.IntRange(17, 64).Draw(t, "rowWidth")
		objects := rapid.Bool().Draw(t, "objectRows")
		var rows []jsonjs.Value
		for total := 0; total <= slabElements; total += width {
			rows = append(rows, slabRow(width, len(rows), objects))
		}
		switch op {
		case "run_code.result":
			run, _ := v.Get("run")
			if run.Kind() != jsonjs.Object {
				return in
			}
			if r, ok := run.Get("result"); ok {
				rows = append([]jsonjs.Value{r}, rows...)
			}
			v = v.With("run", run.With("result", jsonjs.ArrayValue(rows...)))
		case "retain.items":
			items, ok := v.Get("items")
			list, isArray := items.Items()
			if !ok || !isArray {
				return in
			}
			v = v.With("items", jsonjs.ArrayValue(append(append([]jsonjs.Value(nil), list...), rows...)...))
		}
		return shaped{typed: typed, text: insertionText(v)}
	}
}

// slabRow is row i: width numbers, or an object of width members.
func slabRow(width, i int, object bool) jsonjs.Value {
	if object {
		ms := make([]jsonjs.Member, width)
		for j := range ms {
			ms[j] = jsonjs.Member{Key: fmt.Sprintf("k%d", j), Value: jsonjs.IntValue((i + j) % 10)}
		}
		return jsonjs.ObjectValue(ms...)
	}
	items := make([]jsonjs.Value, width)
	for j := range items {
		items[j] = jsonjs.IntValue((i + j) % 10)
	}
	return jsonjs.ArrayValue(items...)
}

// respelled writes the input as insertionText does, but with some strings
// and keys spelled with \u escapes (an astral character as its escaped
// surrogate pair, a lone surrogate as its escape, '/' as "\/") and some
// numbers spelled otherwise (an exponent without its sign or in capitals,
// an added e0): JSON text conform's writer never produces, which parses
// to the same value.
func respelled(t *rapid.T, in any) any {
	typed, v, ok := unshape(in)
	if !ok {
		return in
	}
	return shaped{typed: typed, text: appendRespelled(t, nil, v)}
}

func appendRespelled(t *rapid.T, dst []byte, v jsonjs.Value) []byte {
	if items, ok := v.Items(); ok {
		dst = append(dst, '[')
		for i, it := range items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendRespelled(t, dst, it)
		}
		return append(dst, ']')
	}
	if members, ok := v.Members(); ok {
		dst = append(dst, '{')
		for i, m := range members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(respellString(t, dst, m.Key), ':')
			dst = appendRespelled(t, dst, m.Value)
		}
		return append(dst, '}')
	}
	if s, ok := v.Str(); ok {
		return respellString(t, dst, s)
	}
	text := insertionTextAppend(nil, v)
	if _, ok := v.Float(); ok && rapid.Bool().Draw(t, "respellNumber") {
		text = respellNumber(t, text)
	}
	return append(dst, text...)
}

// respellString writes s as a JSON string, each character either as
// jsonjs writes it or as \u escapes (upper or lower case hex).
func respellString(t *rapid.T, dst []byte, s string) []byte {
	if !rapid.Bool().Draw(t, "respellString") {
		return jsonjs.AppendString(dst, s)
	}
	hex := "0123456789abcdef"
	if rapid.Bool().Draw(t, "upperHex") {
		hex = "0123456789ABCDEF"
	}
	escape := func(u uint16) {
		dst = append(dst, '\\', 'u', hex[u>>12], hex[u>>8&15], hex[u>>4&15], hex[u&15])
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 && i+3 <= len(s) && s[i] == 0xED && s[i+1] >= 0xA0 {
			// a lone surrogate (WTF-8): only an escape spells it
			escape(0xD000 | uint16(s[i+1]&0x3F)<<6 | uint16(s[i+2]&0x3F))
			i += 3
			continue
		}
		switch {
		case !rapid.Bool().Draw(t, "escapeChar"):
			w := jsonjs.AppendString(nil, s[i:i+size])
			dst = append(dst, w[1:len(w)-1]...)
		case r == '/' && rapid.Bool().Draw(t, "solidus"):
			dst = append(dst, '\\', '/')
		case r >= 0x10000:
			hi, lo := utf16.EncodeRune(r)
			escape(uint16(hi))
			escape(uint16(lo))
		default:
			escape(uint16(r))
		}
		i += size
	}
	return append(dst, '"')
}

// respellNumber spells a number jsonjs wrote (JavaScript's form) another
// way with the same value.
func respellNumber(t *rapid.T, text []byte) []byte {
	s := string(text)
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		exp := s[i+1:]
		if exp[0] == '+' && rapid.Bool().Draw(t, "dropPlus") {
			exp = exp[1:]
		}
		e := "e"
		if rapid.Bool().Draw(t, "capitalE") {
			e = "E"
		}
		return []byte(s[:i] + e + exp)
	}
	return []byte(s + rapid.SampledFrom([]string{"e0", "E0", "e+0", "e-0", "E+00"}).Draw(t, "exponent"))
}
