package logcheck

import (
	"bytes"
	"math"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// searchMeta is a search result's meta as the checks read it: the view it
// narrows to (SEARCH-NARROW) and its list, decoded once.
//
// Fast path: a meta in the layout the reference writes (members shape, the
// list, truncated, total in that order; groups {path, matches}, matches
// {lineNumber, line}; no whitespace, no other member) is read straight from
// the line, without a tree. Such a text narrows by construction (every
// member SEARCH-NARROW asks for is there with the right kind, and there is
// no duplicate for JSON.parse to resolve), and its strings and numbers are
// decoded with the reader's own Str and Float, so it gives what the tree
// gives. Any other meta, and any meta on a line that is not UTF-8, takes the
// tree and search.ViewFromMeta.
type searchMeta struct {
	view      *search.View // nil when the meta does not narrow; List is unset on the fast path
	keysOK    bool         // the top members are exactly shape, the list, truncated, total
	groups    []metaGroup  // grep
	matches   []metaMatch  // every group's matches, in order
	paths     [][]byte     // glob
	canonical bool         // JSON.stringify of the parse gives back the raw text
	tree      jsonjs.Value // the slow path's tree (valid for this line)
	hasTree   bool
	hash      uint64 // hashValue of the parse
}

// metaGroup is one grep group; its matches are m.matches[lo:hi]. Its
// strings (path, line, paths) are decoded bytes: views of the line when
// the JSON string has no escape, valid for this line only.
type metaGroup struct {
	path   []byte
	lo, hi int
	keysOK bool         // members exactly path, matches
	node   jsonjs.Value // the group's tree, on the slow path (for messages)
}

// metaMatch is one grep match.
type metaMatch struct {
	num    float64
	line   []byte
	keysOK bool // members exactly lineNumber, line
	node   jsonjs.Value
}

func (m *searchMeta) count() int {
	if m.view != nil && m.view.Shape == search.ShapePaths {
		return len(m.paths)
	}
	return len(m.groups)
}

func (m *searchMeta) groupMatches(g metaGroup) []metaMatch { return m.matches[g.lo:g.hi] }

// readMeta reads the meta r of a result whose call is a search tool with
// the given list shape (search.ShapeMatches or search.ShapePaths). The
// returned meta is the checker's scratch, valid until the next call.
func (c *checker) readMeta(r raw, shape string) *searchMeta {
	m := &c.metaBuf
	m.reset()
	if !c.validUTF8 || !c.plainMeta(m, r, shape) {
		m.reset()
		c.treeMeta(m, r, shape)
	}
	m.keep()
	return m
}

// reset empties m, keeping its slices' room.
func (m *searchMeta) reset() {
	*m = searchMeta{groups: m.groups[:0], matches: m.matches[:0], paths: m.paths[:0]}
}

// treeMeta reads r into m through its tree and search.ViewFromMeta: the
// general path, for any meta.
func (c *checker) treeMeta(m *searchMeta, r raw, shape string) {
	if c.validUTF8 && (r.Kind() != jsonjs.Object || !c.mayNarrow(r)) { // no view (SEARCH-NARROW): only the hash is needed
		if h, ok := hashNested(r, c.hashRaw); ok {
			m.hash = h
			return
		}
	}
	m.tree, m.hasTree = c.tree(r), true
	m.hash = c.hash(m.tree)
	m.view = search.ViewFromMeta(m.tree)
	if m.view == nil || m.view.Shape != shape {
		return
	}
	listKey := "files"
	if shape == search.ShapePaths {
		listKey = "paths"
	}
	m.keysOK = sameKeys(memberKeys(m.tree), []string{"shape", listKey, "truncated", "total"})
	items, _ := m.view.List.Items()
	for _, it := range items {
		if shape == search.ShapePaths {
			s, _ := it.Str()
			m.paths = append(m.paths, []byte(s))
			continue
		}
		pv, _ := it.Get("path")
		g := metaGroup{lo: len(m.matches), node: it, keysOK: sameKeys(memberKeys(it), []string{"path", "matches"})}
		path, _ := pv.Str()
		g.path = []byte(path)
		mv, _ := it.Get("matches")
		ms, _ := mv.Items()
		for _, x := range ms {
			nv, _ := x.Get("lineNumber")
			lv, _ := x.Get("line")
			mm := metaMatch{node: x, keysOK: sameKeys(memberKeys(x), []string{"lineNumber", "line"})}
			mm.num, _ = nv.Float()
			line, _ := lv.Str()
			mm.line = []byte(line)
			m.matches = append(m.matches, mm)
		}
		g.hi = len(m.matches)
		m.groups = append(m.groups, g)
	}
}

// mayNarrow reports whether the object meta r may narrow to a search
// view: its truncated is a boolean, its total a number and its shape one
// of the two (SEARCH-NARROW-2, -4; of repeated members the last, as
// JSON.parse keeps). When it cannot, its view is nil without a tree.
func (c *checker) mayNarrow(r raw) bool {
	var truncated, total, shape raw
	for _, m := range c.obj(r) {
		switch string(m.Key) {
		case "truncated":
			truncated = m.Value
		case "total":
			total = m.Value
		case "shape":
			shape = m.Value
		}
	}
	return truncated.Kind() == jsonjs.Bool && total.Kind() == jsonjs.Number &&
		(shape.StrIs(search.ShapeMatches) || shape.StrIs(search.ShapePaths))
}

// release drops m's views of the line once the checks are done, so that
// the scratch does not keep a long line's buffer alive.
func (m *searchMeta) release() {
	clear(m.groups)
	clear(m.matches)
	clear(m.paths)
	m.groups, m.matches, m.paths = m.groups[:0], m.matches[:0], m.paths[:0]
	m.tree, m.view = jsonjs.Value{}, nil
}

// keep releases the scratch of a huge meta.
func (m *searchMeta) keep() {
	if cap(m.groups) > arenaKeep || cap(m.matches) > arenaKeep || cap(m.paths) > arenaKeep {
		m.groups, m.matches, m.paths = nil, nil, nil
	}
}

// size is JSON.stringify(meta).length in UTF-8 bytes (jsonjs.Size).
func (c *checker) metaSize(m *searchMeta, r raw) int {
	if m.canonical {
		return len(r)
	}
	if !m.hasTree {
		m.tree, m.hasTree = c.tree(r), true
	}
	return jsonjs.Size(m.tree)
}

// hashMeta is hashValue of a meta's parse, from the line when plainMeta
// (a search meta in the reference's layout, in one pass) or hashRaw can,
// else from its tree.
func (c *checker) hashMeta(r raw) uint64 {
	if c.validUTF8 {
		m := &c.hashMetaBuf
		for _, shape := range []string{search.ShapeMatches, search.ShapePaths} {
			m.reset()
			ok := c.plainMeta(m, r, shape)
			h := m.hash
			m.release()
			m.keep()
			if ok {
				return h
			}
		}
		if h, ok := c.hashRaw(r, 0); ok {
			return h
		}
		if h, ok := hashNested(r, c.hashRaw); ok {
			return h
		}
	}
	return c.hash(c.tree(r))
}

// hashNested is hashValue of r's parse computed from the line (UTF-8) for
// a value of arrays, objects of at most one member (whose key has no
// escape) and scalars nested to any depth, in 9 bytes a level (issue 23:
// a meta nested 10^6 levels deep, which the tree and its hash walk took
// 170 bytes a level for, 293 for objects); scalars are hashed by scalar.
// ok is false, and the caller takes the tree, when r holds another object
// (whose duplicate keys only the tree resolves).
func hashNested(r raw, scalar func(raw, int) (uint64, bool)) (h uint64, ok bool) {
	var accs []uint64 // the open containers' folds; an object's is its key's hash, then its member's fold
	var objs []bool   // which of them are objects
	for i := 0; i < len(r); {
		switch r[i] {
		case '[', '{':
			if len(accs) == cap(accs) { // doubled: append's 1.25x would allocate 5x a deep stack
				accs = append(make([]uint64, 0, max(2*cap(accs), 8)), accs...)
				objs = append(make([]bool, 0, cap(accs)), objs...)
			}
			if r[i] == '[' {
				accs, objs = append(accs, hashArrayInit), append(objs, false)
				i++
				continue
			}
			j := jsonjs.RawSkipSpace(r, i+1)
			if r[j] == '}' {
				h, i = endObject(0), j+1
				break
			}
			end := jsonjs.RawSkipString(r, j)
			if bytes.IndexByte(r[j:end], '\\') >= 0 {
				return 0, false // the tree decodes it
			}
			accs, objs = append(accs, keyHash([]byte(r[j+1:end-1]))), append(objs, true)
			i = jsonjs.RawSkipSpace(r, jsonjs.RawSkipSpace(r, end)+1) // past ':'
			continue
		case ']':
			h = endArray(accs[len(accs)-1])
			accs, objs = accs[:len(accs)-1], objs[:len(objs)-1]
			i++
		case '}':
			h = endObject(accs[len(accs)-1])
			accs, objs = accs[:len(accs)-1], objs[:len(objs)-1]
			i++
		case ',':
			if objs[len(objs)-1] {
				return 0, false // a second member: the tree resolves duplicates
			}
			i++
			continue
		case ' ', '\t', '\n', '\r':
			i++
			continue
		default:
			j := jsonjs.RawSkipValue(r, i)
			h, _ = scalar(r[i:j], 0)
			i = j
		}
		if len(accs) == 0 {
			return h, true
		}
		if top := len(accs) - 1; objs[top] {
			accs[top] = foldKeyed(0, accs[top], h)
		} else {
			accs[top] = foldItem(accs[top], h)
		}
	}
	return 0, false
}

// hashRawDepth bounds hashRaw's recursion; deeper values take the tree,
// whose hash walks with an explicit stack.
const hashRawDepth = 32

// hashRaw is hashValue of r's parse computed from the line (which must be
// UTF-8). ok is false, and the caller takes the tree, for an object with a
// duplicate key (JSON.parse keeps one member; the tree knows which) or a
// value nested deeper than hashRawDepth.
func (c *checker) hashRaw(r raw, depth int) (h uint64, ok bool) {
	switch r.Kind() {
	case jsonjs.String:
		return hashString(c.text(r)), true
	case jsonjs.Number:
		f, _ := r.Float()
		return hashNumber(f), true
	case jsonjs.Bool:
		return hashBool(r[0] == 't'), true
	case jsonjs.Null:
		return hashNull(), true
	}
	if depth >= hashRawDepth {
		return 0, false
	}
	if r.Kind() == jsonjs.Array {
		acc := uint64(hashArrayInit)
		for _, it := range c.arr(r) {
			if h, ok = c.hashRaw(it, depth+1); !ok {
				return 0, false
			}
			acc = foldItem(acc, h)
		}
		return endArray(acc), true
	}
	ms := c.obj(r)
	if len(ms) > 16 {
		return 0, false // the duplicate test below is quadratic
	}
	var acc uint64
	for i, m := range ms {
		for _, prev := range ms[:i] {
			if string(prev.Key) == string(m.Key) {
				return 0, false
			}
		}
		if h, ok = c.hashRaw(m.Value, depth+1); !ok {
			return 0, false
		}
		acc = foldMember(acc, m.Key, h)
	}
	return endObject(acc), true
}

// metaCursor walks a meta text in the reference's layout.
type metaCursor struct {
	b         []byte
	i         int
	canonical bool // no escape, no number but a short integer: stringify is the identity
}

// lit consumes s.
func (k *metaCursor) lit(s string) bool {
	if len(k.b)-k.i < len(s) || string(k.b[k.i:k.i+len(s)]) != s {
		return false
	}
	k.i += len(s)
	return true
}

// str consumes a JSON string and returns it (quotes included).
func (k *metaCursor) str() (raw, bool) {
	if k.i >= len(k.b) || k.b[k.i] != '"' {
		return nil, false
	}
	end := jsonjs.RawSkipString(k.b, k.i)
	if end <= k.i {
		return nil, false
	}
	r := raw(k.b[k.i:end])
	k.i = end
	return r, true
}

// num consumes a number lexeme (the text is valid JSON: the lexeme ends at
// the first byte that cannot continue it).
func (k *metaCursor) num() (float64, bool) {
	start := k.i
	for k.i < len(k.b) {
		c := k.b[k.i]
		if (c < '0' || c > '9') && c != '-' && c != '+' && c != '.' && c != 'e' && c != 'E' {
			break
		}
		k.i++
	}
	r := raw(k.b[start:k.i])
	if len(r) == 0 || r[0] == '+' || r[0] == '.' || r[0] == 'e' || r[0] == 'E' {
		return 0, false
	}
	if n, neg, ok := r.SmallInt(); ok && !neg {
		return float64(n), true // digits only, at most 15: stringify spells it so
	}
	f, ok := r.Float()
	if !ok {
		return 0, false
	}
	if len(r) > 15 {
		k.canonical = false
	}
	for _, d := range r {
		if d < '0' || d > '9' {
			k.canonical = false // stringify may spell it otherwise
			break
		}
	}
	return f, true
}

// list reads an array's items after its '[' up to its ']', folding their
// hashes as hashValue folds an array's.
func (k *metaCursor) list(item func() (uint64, bool)) (uint64, bool) {
	acc := uint64(hashArrayInit)
	for n := 0; !k.lit("]"); n++ {
		if n > 0 && !k.lit(",") {
			return 0, false
		}
		h, ok := item()
		if !ok {
			return 0, false
		}
		acc = foldItem(acc, h)
	}
	return endArray(acc), true
}

// The key hashes of the reference's meta layout, computed once.
var (
	hkShape, hkFiles, hkPaths, hkTruncated, hkTotal = keyHash("shape"), keyHash("files"), keyHash("paths"), keyHash("truncated"), keyHash("total")
	hkPath, hkMatches, hkLineNumber, hkLine         = keyHash("path"), keyHash("matches"), keyHash("lineNumber"), keyHash("line")
)

// plainMeta reads r into m when it is in the reference's layout for shape
// (see searchMeta), and computes its hash as hashValue would on its tree.
func (c *checker) plainMeta(m *searchMeta, r raw, shape string) bool {
	k := metaCursor{b: r, canonical: true}
	var listKey, listHash uint64
	if shape == search.ShapeMatches {
		if !k.lit(`{"shape":"matches","files":[`) {
			return false
		}
		h, ok := k.list(func() (uint64, bool) { return c.plainGroup(m, &k) })
		if !ok {
			return false
		}
		listKey, listHash = hkFiles, h
	} else {
		if !k.lit(`{"shape":"paths","paths":[`) {
			return false
		}
		h, ok := k.list(func() (uint64, bool) {
			s, ok := k.str()
			if !ok {
				return 0, false
			}
			p := c.metaText(&k, s)
			m.paths = append(m.paths, p)
			return hashString(p), true
		})
		if !ok {
			return false
		}
		listKey, listHash = hkPaths, h
	}
	if !k.lit(`,"truncated":`) {
		return false
	}
	truncated := k.lit("true")
	if !truncated && !k.lit("false") {
		return false
	}
	if !k.lit(`,"total":`) {
		return false
	}
	total, ok := k.num()
	if !ok || !k.lit("}") || k.i != len(r) {
		return false
	}
	m.view = &search.View{Shape: shape, Truncated: truncated, Total: total}
	m.keysOK, m.canonical = true, k.canonical
	acc := foldKeyed(0, hkShape, hashString(shape))
	acc = foldKeyed(acc, listKey, listHash)
	acc = foldKeyed(acc, hkTruncated, hashBool(truncated))
	m.hash = endObject(foldKeyed(acc, hkTotal, hashNumber(total)))
	return true
}

// plainGroup reads one {"path":…,"matches":[…]} group and returns its hash.
func (c *checker) plainGroup(m *searchMeta, k *metaCursor) (uint64, bool) {
	if !k.lit(`{"path":`) {
		return 0, false
	}
	s, ok := k.str()
	if !ok || !k.lit(`,"matches":[`) {
		return 0, false
	}
	g := metaGroup{lo: len(m.matches), keysOK: true}
	g.path = c.metaText(k, s)
	matches, ok := k.list(func() (uint64, bool) {
		if !k.lit(`{"lineNumber":`) {
			return 0, false
		}
		f, ok := k.num()
		if !ok || !k.lit(`,"line":`) {
			return 0, false
		}
		l, ok := k.str()
		if !ok || !k.lit("}") {
			return 0, false
		}
		mm := metaMatch{num: f, keysOK: true}
		mm.line = c.metaText(k, l)
		m.matches = append(m.matches, mm)
		return endObject(foldKeyed(foldKeyed(0, hkLineNumber, hashNumber(f)), hkLine, hashString(mm.line))), true
	})
	if !ok || !k.lit("}") {
		return 0, false
	}
	g.hi = len(m.matches)
	m.groups = append(m.groups, g)
	return endObject(foldKeyed(foldKeyed(0, hkPath, hashString(g.path)), hkMatches, matches)), true
}

// text decodes a JSON string of the line as bytes: a view of the line
// when it has no escape (the line is UTF-8: the fast path runs only then).
func (c *checker) text(r raw) []byte {
	b, _ := c.textEsc(r)
	return b
}

// textEsc is text, telling whether the string had an escape (then
// JSON.stringify may spell it otherwise). A decoded string is kept in the
// line's byte arena.
func (c *checker) textEsc(r raw) ([]byte, bool) {
	if bytes.IndexByte(r, '\\') < 0 {
		return r[1 : len(r)-1], false
	}
	s, _ := c.str(r)
	start := len(c.barena)
	c.barena = append(c.barena, s...)
	return c.barena[start:len(c.barena):len(c.barena)], true
}

// metaText is text for a string of a meta, keeping k.canonical true only
// while no string has an escape.
func (c *checker) metaText(k *metaCursor, r raw) []byte {
	b, esc := c.textEsc(r)
	if esc {
		k.canonical = false
	}
	return b
}

// The scalar and container hashes of hashValue, shared by hashRaw.
const (
	hashPrime     = 1099511628211
	hashArrayInit = 0x0a
	hashObjectEnd = 0x0b
)

// foldItem adds an array item's hash h, in order.
func foldItem(acc, h uint64) uint64 { return (acc ^ h) * hashPrime }

// foldMember adds an object member, in any order (LOG-7: a sum).
func foldMember[T string | []byte](acc uint64, key T, h uint64) uint64 {
	return foldKeyed(acc, keyHash(key), h)
}

// foldKeyed is foldMember with the key's hash, keyHash(key), given.
func foldKeyed(acc, kh, h uint64) uint64 { return acc + mix(kh^h) }

func keyHash[T string | []byte](key T) uint64 { return fnvString(key) * hashPrime }

// endObject and endArray finish a container's fold.
func endObject(acc uint64) uint64 { return mix(acc ^ hashObjectEnd) }

func endArray(acc uint64) uint64 { return mix(acc) }

func hashString[T string | []byte](s T) uint64 { return mix(fnvString(s) ^ 0x05) }

func hashNumber(f float64) uint64 {
	if f == 0 {
		f = 0 // -0 hashes as 0
	}
	return mix(math.Float64bits(f) ^ 0x03)
}

// The words mixed for null, false and true are NaN bit patterns, which no
// JSON number has, and mix is a bijection: no number hashes as null or a
// boolean (hashNumber mixes a number's bits with its low two flipped,
// which leaves the exponent as it is).
const (
	nullWord  = 0x7ff8_0000_0000_0100
	falseWord = nullWord | 0x10
	trueWord  = nullWord | 0x11
)

func hashNull() uint64 { return mix(nullWord) }

func hashBool(b bool) uint64 {
	if b {
		return mix(trueWord)
	}
	return mix(falseWord)
}
