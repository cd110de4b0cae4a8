package logcheck

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
	"github.com/dsh-conform/conform/reference/spill"
)

// searchMetaSince is 2026-07-30T00:00:00Z, when search results gained meta:
// LOG-CHECK-SEARCH-1 only warns about a missing meta in older logs (by the
// header's createdAt).
const searchMetaSince = 1785369600000

// spillNotice matches a spill-policy notice that is a whole line (SPILL-PREV-1),
// built from the reference wording: "(Omitted <n> bytes. Full formatted
// result stored at: <locator>. <hint>)". It is the notice part of the
// LOG-CHECK-SEARCH-5 pattern \n\n\(Omitted \d+ bytes\. Full formatted result
// stored at: .*\)$.
var spillNotice = func() *regexp.Regexp {
	n := spill.Notice(7, "\x00", "\x01")
	i := strings.Index(n, "7")
	j := strings.Index(n, "\x00")
	return regexp.MustCompile(`^` + regexp.QuoteMeta(n[:i]) + `\d+` + regexp.QuoteMeta(n[i+1:j]) + `.*\)$`)
}()

// spillNoticeHead is the literal start of every spillNotice match: a
// cheap test before the regexp.
var spillNoticeHead = func() string {
	n := spill.Notice(7, "\x00", "\x01")
	return n[:strings.Index(n, "7")]
}()

// spilled reports whether text ends with a spill notice: it is only the
// notice, or ends with "\n\n" + notice. A notice has no newline, so it can
// only be the last line.
func spilled(text string) bool {
	start := strings.LastIndexByte(text, '\n') + 1
	if !strings.HasPrefix(text[start:], spillNoticeHead) || !spillNotice.MatchString(text[start:]) {
		return false
	}
	return start == 0 || strings.HasSuffix(text[:start], "\n\n")
}

// checkSearch runs LOG-CHECK-SEARCH-1..6 on the first append result of a
// grep or glob call.
func (c *checker) checkSearch(ev *event, cl *call, res *result) {
	id := cl.id
	var text string
	if res.blocks != nil {
		text, _, _ = c.blockTexts(res.bi)
	}
	isSpilled := spilled(text)
	c.spillBound(ev, id, "LOG-CHECK-SEARCH-6", text, isSpilled)
	if res.isError {
		if res.meta != nil {
			c.report(ev.line, ev.seq, id, "LOG-CHECK-SEARCH-1", Violation, "%s error result carries meta", cl.tool)
		}
		if res.blocks != nil {
			if why := envelopeProblem(text, res.errName, res.errCode, res.errOK); why != "" {
				c.report(ev.line, ev.seq, id, "SEARCH-ERR-1", c.hookLevel(), "%s %s", cl.tool, why)
			}
		}
		return
	}
	if res.meta == nil {
		lvl, why := Violation, ""
		if c.createdAt < searchMetaSince {
			lvl, why = Warning, " (the log predates search meta, 2026-07-30)"
		}
		c.report(ev.line, ev.seq, id, "LOG-CHECK-SEARCH-1", lvl, "successful %s result has no meta%s", cl.tool, why)
		return
	}
	want, listKey := search.ShapeMatches, "files"
	if cl.tool == toolGlob {
		want, listKey = search.ShapePaths, "paths"
	}
	m := c.readMeta(res.meta, want)
	defer m.release()
	res.metaHash, res.hashed = m.hash, true
	view := m.view
	if view == nil {
		c.report(ev.line, ev.seq, id, "LOG-CHECK-SEARCH-2", Violation, "%s meta does not narrow to a search view (SEARCH-NARROW): %s", cl.tool, clip(res.meta))
		return
	}
	if view.Shape != want {
		c.report(ev.line, ev.seq, id, "LOG-CHECK-SEARCH-2", Violation, "%s meta has shape %q, want %q", cl.tool, view.Shape, want)
		return
	}
	count, wellFormed := c.searchProducer(ev, id, m, listKey)
	if cl.tool == toolGrep {
		c.previews(ev, id, m)
	}

	// LOG-CHECK-SEARCH-3: the byte cap. JSON.stringify of a parsed value is
	// never longer than its source text plus 17 bytes per exponent (only a
	// number grows: 1e20, 4 bytes, prints as 21 digits): when that bound
	// fits, so does the meta, and the exact measure is not needed.
	size := -1
	if len(res.meta)+17*(bytes.Count(res.meta, []byte("e"))+bytes.Count(res.meta, []byte("E"))) > c.opt.SearchMetaMaxBytes || !c.validUTF8 {
		size = c.metaSize(m, res.meta)
	}
	if size > c.opt.SearchMetaMaxBytes && !(m.count() <= 1 && view.Truncated) {
		c.report(ev.line, ev.seq, id, "LOG-CHECK-SEARCH-3", Violation, "meta is %d bytes, over searchMetaMaxBytes %d, with %d %s", size, c.opt.SearchMetaMaxBytes, m.count(), listKey)
	}

	// LOG-CHECK-SEARCH-4: counts.
	total := view.Total
	var p problems
	if total < float64(count) {
		p.add("total " + jsonjs.FormatNumber(total) + " < count " + strconv.Itoa(count))
	}
	if !view.Truncated && total != float64(count) {
		p.add("truncated is false but total " + jsonjs.FormatNumber(total) + " ≠ count " + strconv.Itoa(count))
	}
	if total == 0 && count != 0 {
		p.add("total is 0 but count is " + strconv.Itoa(count))
	}
	if len(p) > 0 {
		c.report(ev.line, ev.seq, id, "LOG-CHECK-SEARCH-4", Violation, "%s", p)
	}

	// LOG-CHECK-SEARCH-5: text and meta agree, unless the text was replaced.
	if isSpilled || !wellFormed || res.blocks == nil {
		return
	}
	a := agreement{c: c, ev: ev, id: id, m: m, raw: res.meta, view: view, count: count, total: int64(total), sizeKnown: size}
	if cl.tool == toolGrep {
		a.grep(text)
	} else {
		a.glob(text)
	}
	a.flush()
}

// joinedPrefix reports whether page is the paths joined by "\n", or starts
// with that join and a "\n" (without building the join), and where the
// join ends.
func joinedPrefix(page string, paths [][]byte) (end int, ok bool) {
	for i, p := range paths {
		if i > 0 {
			if end >= len(page) || page[end] != '\n' {
				return 0, false
			}
			end++
		}
		if !hasPrefix(page[end:], p) {
			return 0, false
		}
		end += len(p)
	}
	return end, end == len(page) || page[end] == '\n'
}

// hasPrefix is strings.HasPrefix for a prefix in bytes, without a copy.
func hasPrefix(s string, p []byte) bool {
	return len(s) >= len(p) && s[:len(p)] == string(p)
}

// spillBound checks LOG-CHECK-SEARCH-6 / LOG-CHECK-CODE-8: a spilled text
// fits maxInlineBytes.
func (c *checker) spillBound(ev *event, id, req, text string, isSpilled bool) {
	if !isSpilled {
		return
	}
	n := jsonjs.UTF8Len(text)
	switch {
	case c.opt.MaxInlineBytes <= 0:
		c.report(ev.line, ev.seq, id, req, Unprovable, "the text (%d bytes) ends with a spill notice, but maxInlineBytes is unknown", n)
	case n > c.opt.MaxInlineBytes:
		c.report(ev.line, ev.seq, id, req, Violation, "the spilled text is %d bytes, over maxInlineBytes %d", n, c.opt.MaxInlineBytes)
	}
}

// searchProducer checks the producer-side invariants of LOG-CHECK-SEARCH-2
// beyond narrowing, and returns the item count (paths, or matches over all
// groups). wellFormed is false when the text comparison would be
// meaningless (a non-integer number).
func (c *checker) searchProducer(ev *event, id string, m *searchMeta, listKey string) (count int, wellFormed bool) {
	var p, warn problems
	wellFormed = true
	if t := m.view.Total; t < 0 || t != math.Trunc(t) || math.IsInf(t, 0) {
		p.add("total " + jsonjs.FormatNumber(t) + " is not a non-negative integer")
		wellFormed = false
	}
	if !m.keysOK {
		p.add("meta members are " + keysString(memberKeys(m.tree)) + `, want ["shape","` + listKey + `","truncated","total"] (SEARCH-META-2/3)`)
	}
	if listKey == "paths" {
		count = len(m.paths)
	} else {
		count, wellFormed = grepProducer(m, &p, &warn, wellFormed)
	}
	if len(p) > 0 {
		c.report(ev.line, ev.seq, id, "LOG-CHECK-SEARCH-2", Violation, "%s", p)
	}
	if len(warn) > 0 {
		c.report(ev.line, ev.seq, id, "LOG-CHECK-SEARCH-2", Warning, "%s (ripgrep numbers lines from 1; a post-execute value replacement may not)", warn)
	}
	return count, wellFormed
}

// grepProducer checks the grep groups: members path, matches and
// lineNumber, line in that order; distinct paths; no empty group; integer
// line numbers (warning below 1).
func grepProducer(m *searchMeta, p, warn *problems, wellFormed bool) (count int, ok bool) {
	const maxListed = 3
	var orderBad, intBad, dupBad, emptyBad, lowBad int
	var seen map[string]int // for many groups; a few are compared directly
	if len(m.groups) > 16 {
		seen = make(map[string]int, len(m.groups))
	}
	for gi, g := range m.groups {
		if !g.keysOK {
			if orderBad++; orderBad <= 1 {
				p.add("files[" + strconv.Itoa(gi) + "] members are " + keysString(memberKeys(g.node)) + `, want ["path","matches"]`)
			}
		}
		path := g.path
		first, dup := -1, false
		if seen != nil {
			if first, dup = seen[string(path)]; !dup {
				seen[string(path)] = gi
			}
		} else {
			for j := range gi {
				if string(m.groups[j].path) == string(path) {
					first, dup = j, true
					break
				}
			}
		}
		if dup {
			if dupBad++; dupBad <= maxListed {
				p.add("files[" + strconv.Itoa(gi) + "].path " + quote(string(path)) + " repeats files[" + strconv.Itoa(first) + "]")
			}
		}
		ms := m.groupMatches(g)
		if len(ms) == 0 {
			if emptyBad++; emptyBad <= maxListed {
				p.add("files[" + strconv.Itoa(gi) + "] " + quote(string(path)) + " has no matches")
			}
		}
		count += len(ms)
		for mi, x := range ms {
			where := func() string { return "files[" + strconv.Itoa(gi) + "].matches[" + strconv.Itoa(mi) + "]" }
			if !x.keysOK {
				if orderBad++; orderBad <= 1 {
					p.add(where() + " members are " + keysString(memberKeys(x.node)) + `, want ["lineNumber","line"]`)
				}
			}
			if n := x.num; math.IsInf(n, 0) || n != math.Trunc(n) { // jsonjs.Value.IsInteger
				wellFormed = false
				if intBad++; intBad <= maxListed {
					p.add(where() + ".lineNumber " + jsonjs.FormatNumber(n) + " is not an integer")
				}
			} else if n < 1 {
				if lowBad++; lowBad <= maxListed {
					warn.add(where() + ".lineNumber is " + jsonjs.FormatNumber(n) + ", below 1")
				}
			}
		}
	}
	for _, more := range []struct {
		n    int
		what string
	}{{dupBad, "repeated paths"}, {emptyBad, "empty groups"}, {intBad, "non-integer line numbers"}} {
		if more.n > maxListed {
			p.add("… " + strconv.Itoa(more.n) + " " + more.what + " in all")
		}
	}
	if orderBad > 1 {
		p.add("… " + strconv.Itoa(orderBad) + " groups or matches with wrong members in all")
	}
	return count, wellFormed
}

func memberKeys(v jsonjs.Value) []string {
	ms, _ := v.Members()
	keys := make([]string, len(ms))
	for i, m := range ms {
		keys[i] = m.Key
	}
	return keys
}

func sameKeys(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func keysString(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = strconv.Quote(k)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// agreement compares one search result's text with its meta
// (LOG-CHECK-SEARCH-5), collecting the disagreements into one finding.
type agreement struct {
	c         *checker
	ev        *event
	id        string
	m         *searchMeta
	raw       raw // the meta's text
	view      *search.View
	count     int
	total     int64
	sizeKnown int // jsonjs.Size(mv), or -1 until measured
	p         problems
	unknown   problems // decisions the log cannot settle
}

func (a *agreement) add(format string, args ...any) {
	a.p.add(sprintf(format, args...))
}

func (a *agreement) flush() {
	if len(a.p) > 0 {
		a.c.report(a.ev.line, a.ev.seq, a.id, "LOG-CHECK-SEARCH-5", a.c.hookLevel(), "text and meta disagree: %s", a.p)
	}
	if len(a.unknown) > 0 {
		a.c.report(a.ev.line, a.ev.seq, a.id, "LOG-CHECK-SEARCH-5", Unprovable, "%s", a.unknown)
	}
}

// hookLevel is the level of a rule about a result's text that a deployment's
// content-replacing post-tool hooks can legitimately break (Options.ContentHooks).
func (c *checker) hookLevel() Level {
	if c.opt.ContentHooks {
		return Warning
	}
	return Violation
}

// capFits reports whether the meta with one more element of elemSize bytes
// (truncated=true) would still fit searchMetaMaxBytes: then the byte cap
// (SEARCH-CAP-1) would have kept that element.
func (a *agreement) size() int {
	if a.sizeKnown < 0 {
		a.sizeKnown = a.c.metaSize(a.m, a.raw)
	}
	return a.sizeKnown
}

func (a *agreement) capFits(elemSize int) bool {
	grown := a.size() + elemSize
	if a.m.count() > 0 {
		grown++ // the comma
	}
	if !a.view.Truncated {
		grown-- // "false" -> "true"
	}
	return grown <= a.c.opt.SearchMetaMaxBytes
}

// uncappedFits reports whether the meta as logged but with truncated=false
// fits searchMetaMaxBytes: then nothing justifies truncated=true.
func (a *agreement) uncappedFits() bool {
	return a.size()+1 <= a.c.opt.SearchMetaMaxBytes
}

// grep compares a grep text with its meta: header (SEARCH-GREP-2), footer
// and recovery (SEARCH-GREP-4/5), the meta groups as a prefix of the body
// (SEARCH-GREP-3, SEARCH-META-6), the row count, and whether the text's
// capping and the meta's truncated flag tell the same story.
func (a *agreement) grep(text string) {
	n := a.total
	if n == 0 {
		if text != search.GrepNone {
			a.add("total is 0 but the text is %s, not %q", quote(text), search.GrepNone)
		}
		return
	}
	if text == search.GrepNone {
		a.add("the text is %q but total is %d", search.GrepNone, n)
		return
	}
	header, body, _ := strings.Cut(text, search.GroupSep)
	if len(header) > 64 {
		a.add("the text does not start with a SEARCH-GREP-2 header: %s", quote(header))
		return
	}
	h, ok := search.ParseGrepHeader(header)
	if !ok {
		a.add("the text does not start with a SEARCH-GREP-2 header: %s", quote(header))
		return
	}
	capped, k, n2 := h.Capped, h.Kept, h.Seen
	if !capped && h.Plural == (n2 == 1) {
		a.add("header %q: the singular form is for exactly 1 match", header)
	}
	if n2 != n {
		a.add("the header counts %d matches, meta.total is %d", n2, n)
		return
	}
	main := body
	// A footer is body's last segment, so body ends with its ')': only
	// then is the segment looked for (LastIndex may scan the whole body).
	last, lastStart, footer := "", 0, false
	if strings.HasSuffix(body, ")") {
		last, lastStart = lastSegment(body)
		footer = lastStart > 0 && strings.HasPrefix(last, "(") && strings.HasSuffix(last, ")")
	}
	if capped {
		if !footer {
			a.add("the text is capped (Found %d of %d) but has no recovery footer", k, n)
		} else {
			main = body[:lastStart-2]
			if !grepRecoveryOK(last[1 : len(last)-1]) {
				a.add("the recovery sentence %s is not a SEARCH-GREP-5 form", quote(last))
			}
		}
		if !a.view.Truncated {
			a.add("the text is capped (Found %d of %d) but meta.truncated is false", k, n)
		}
		if k < int64(a.count) {
			a.add("the text keeps %d matches, fewer than the meta's %d", k, a.count)
		}
		if k >= n {
			a.add("the text says Found %d of %d, but the inline cap keeps fewer than it saw", k, n)
		}
		if limit := a.c.opt.GrepMaxMatches; limit > 0 && k != int64(limit) {
			a.add("the text keeps %d matches, but grepMaxMatches is %d", k, limit)
		}
	} else {
		if footer && grepRecoveryOK(last[1:len(last)-1]) {
			a.add("the header is not capped but the text ends with a recovery footer")
			main = body[:lastStart-2]
		}
		if limit := a.c.opt.GrepMaxMatches; limit > 0 && n > int64(limit) {
			a.add("%d matches exceed grepMaxMatches %d, but the text is not capped", n, limit)
		}
	}
	end, diff := groupsPrefix(main, a.m)
	if diff >= 0 {
		a.add("the meta's groups are not a prefix of the text body (first difference in group %d)", diff)
		return
	}
	rest := main[end:]
	if len(a.m.groups) > 0 {
		if rest != "" && !strings.HasPrefix(rest, search.GroupSep) {
			a.add("the meta's last group %s stops inside a text group (the byte cap drops whole groups)", quote(string(a.m.groups[len(a.m.groups)-1].path)))
			return
		}
		rest = strings.TrimPrefix(rest, search.GroupSep)
	}
	groups, ok := search.ParseGrepGroups(rest)
	if !ok {
		if a.view.Truncated {
			a.unknown.add("the text body after the meta's groups does not parse as grep groups, so whether the byte cap had to drop them cannot be told")
		} else {
			a.add("meta.truncated is false, but the text body goes on after the meta's groups with %s, which is not grep groups", quote(rest))
		}
		return
	}
	rows := int64(a.count)
	for _, g := range groups {
		rows += int64(len(g.Matches))
	}
	want := n
	if capped {
		want = k
	}
	if rows != want {
		a.add("the text body has %d match rows, the header says %d", rows, want)
	}
	switch {
	case len(groups) > 0 && a.capFits(groupSize(groups[0])):
		a.add("the meta drops group %s although it fits searchMetaMaxBytes %d (SEARCH-CAP-1 keeps the largest prefix that fits)", quote(groups[0].Path), a.c.opt.SearchMetaMaxBytes)
	case len(groups) == 0 && !capped && a.view.Truncated && a.uncappedFits():
		a.add("meta.truncated is true, but the text is not capped, the meta keeps every group and fits searchMetaMaxBytes %d untruncated", a.c.opt.SearchMetaMaxBytes)
	case !capped && a.view.Truncated && a.c.opt.GrepMaxMatches <= 0:
		a.inlineCapUnknown("grepMaxMatches", n, "matches")
	}
}

// inlineCapUnknown records the one undecidable case of the capped-footer
// rule: the text is not capped (it claims N ≤ the inline cap) and the
// meta's truncated flag, which would otherwise tell whether the inline
// cap was hit, is explained by the byte cap. Only the cap value can settle
// it.
func (a *agreement) inlineCapUnknown(option string, n int64, unit string) {
	a.unknown.add(sprintf("the text shows all %d %s without a footer and meta.truncated comes from the byte cap, so whether the inline cap was hit needs %s, which is unknown", n, unit, option))
}

// lastSegment returns the part of s after its last "\n\n" and where it
// starts (0 when s has no "\n\n").
func lastSegment(s string) (string, int) {
	i := strings.LastIndex(s, search.GroupSep)
	if i < 0 {
		return s, 0
	}
	return s[i+2:], i + 2
}

// groupsPrefix checks that the meta groups, rendered as the text renders
// them (SEARCH-GREP-3: the path, then "Line <n>: <line>" rows; groups
// joined by a blank line), are a prefix of body, without building the
// rendering. It returns where the prefix ends, and the index of the first
// group that differs (-1 when none does).
func groupsPrefix(body string, m *searchMeta) (end, diff int) {
	pos := 0
	var num, digits [32]byte
	for i, g := range m.groups {
		if i > 0 {
			if !strings.HasPrefix(body[pos:], search.GroupSep) {
				return pos, i
			}
			pos += 2
		}
		if !hasPrefix(body[pos:], g.path) {
			return pos, i
		}
		pos += len(g.path)
		for _, x := range m.groupMatches(g) {
			f, line := x.num, x.line
			row := search.AppendRowHead(num[:0], string(jsonjs.AppendNumber(digits[:0], f)))
			if !hasPrefix(body[pos:], row) || !hasPrefix(body[pos+len(row):], line) {
				return pos, i
			}
			pos += len(row) + len(line)
		}
	}
	return pos, -1
}

// groupSize is the bytes a grep group adds to a meta's file list
// (SEARCH-CAP-2's elementBytes), measured by the reference.
func groupSize(g search.FileMatches) int {
	one := search.Meta{Shape: search.ShapeMatches, Files: []search.FileMatches{g}, Truncated: true}
	none := search.Meta{Shape: search.ShapeMatches, Files: []search.FileMatches{}, Truncated: true}
	return one.Size() - none.Size()
}

// grepRecoveryOK reports whether s is a SEARCH-GREP-5 recovery sentence.
func grepRecoveryOK(s string) bool {
	_, ok := search.ParseRecovery(s, false)
	return ok
}

// glob compares a glob text with its meta: SEARCH-GLOB-1..5 wording, the
// meta paths as the first lines (SEARCH-META-6), the page size, and whether
// the footer and meta.truncated tell the same story.
func (a *agreement) glob(text string) {
	n := a.total
	if n == 0 {
		if text != search.GlobNone {
			a.add("total is 0 but the text is %s, not %q", quote(text), search.GlobNone)
		}
		return
	}
	if text == search.GlobNone {
		a.add("the text is %q but total is %d", search.GlobNone, n)
		return
	}
	page, hasFooter := text, false
	var f search.GlobFooter
	if last, start := lastSegment(text); start > 0 && search.IsGlobFooter(last) {
		page, hasFooter = text[:start-2], true
		var ok bool
		if f, ok = search.ParseGlobFooter(last); !ok {
			a.add("the footer %s is not a SEARCH-GLOB-3/4/5 footer", quote(last))
			return
		}
	}
	lines := int64(strings.Count(page, "\n") + 1)
	if hasFooter {
		if f.Seen != n {
			a.add("the footer counts %d paths, meta.total is %d", f.Seen, n)
		}
		if !a.view.Truncated {
			a.add("the text is capped (Showing %d of %d) but meta.truncated is false", f.Kept, f.Seen)
		}
		if f.Kept < int64(a.count) {
			a.add("the footer shows %d paths, fewer than the meta's %d", f.Kept, a.count)
		}
		if f.Kept >= f.Seen {
			a.add("the footer says Showing %d of %d, but the inline cap shows fewer than it found", f.Kept, f.Seen)
		}
		if f.Kept != lines {
			a.add("the footer says Showing %d but the page has %d lines", f.Kept, lines)
		}
		if limit := a.c.opt.GlobMaxResults; limit > 0 && f.Kept != int64(limit) {
			a.add("the page has %d paths, but globMaxResults is %d", f.Kept, limit)
		}
		if f.Sampled {
			switch {
			case f.Shown < 1 || f.Shown > f.Entries || f.Shown > f.Kept:
				a.add("the sampling basis shows %d of %d top-level entries for a page of %d paths", f.Shown, f.Entries, f.Kept)
			case f.Entries >= f.Seen:
				a.add("the sampling basis counts %d top-level entries for %d paths; when every path is its own entry the basis is \".\"", f.Entries, f.Seen)
			case f.Narrow != (f.Shown < f.Entries):
				a.add("the \"Narrow path\" sentence must appear exactly when shown < total entries (%d of %d)", f.Shown, f.Entries)
			}
		}
		if _, ok := search.ParseRecovery(f.Recovery, true); !ok {
			a.add("the recovery sentence %s is not a SEARCH-GLOB-5 form", quote(f.Recovery))
		}
		if f.Sampled && f.Kept == lines {
			a.sampleShown(f)
		}
	} else {
		if lines != n {
			a.add("the text lists %d paths without a footer, meta.total is %d (an uncapped glob text lists every path)", lines, n)
		}
		if limit := a.c.opt.GlobMaxResults; limit > 0 && n > int64(limit) {
			a.add("%d paths exceed globMaxResults %d, but the text has no footer", n, limit)
		}
	}
	paths := a.m.paths
	end, isPrefix := joinedPrefix(page, paths)
	switch {
	case len(paths) == 0:
		a.add("the meta has no paths although the text lists %d (the byte cap keeps at least one)", lines)
		return
	case !isPrefix:
		a.add("meta.paths are not the first %d lines of the text", len(paths))
		return
	}
	if !hasFooter && !a.view.Truncated && end != len(page) {
		a.add("the text is not join(meta.paths, \"\\n\")")
	}
	rest := strings.TrimPrefix(page[end:], "\n")
	next, _, _ := strings.Cut(rest, "\n")
	switch {
	case rest != "" && a.capFits(jsonjs.StringSize(next)):
		a.add("the meta drops path %s although it fits searchMetaMaxBytes %d (SEARCH-CAP-1 keeps the largest prefix that fits)", quote(next), a.c.opt.SearchMetaMaxBytes)
	case rest == "" && !hasFooter && a.view.Truncated && a.uncappedFits():
		a.add("meta.truncated is true, but the text has no footer, the meta keeps every path and fits searchMetaMaxBytes %d untruncated", a.c.opt.SearchMetaMaxBytes)
	case !hasFooter && a.view.Truncated && a.c.opt.GlobMaxResults <= 0:
		a.inlineCapUnknown("globMaxResults", n, "paths")
	}
}

// sampleShown checks the sampling basis's shown count against the page
// (SEARCH-SAMPLE-4/5): round robin takes one path of every top-level entry
// before a second of any, so a sample that leaves entries out (shown <
// total) stopped in its first round: each of its paths is from its own
// entry, and shown is the page size. (Recounting the entries of the page
// needs the search root, which upstream derives from the path argument and
// the workdir; the log does not record the latter.)
func (a *agreement) sampleShown(f search.GlobFooter) {
	if f.Shown < f.Entries && f.Shown != f.Kept {
		a.c.report(a.ev.line, a.ev.seq, a.id, "SEARCH-SAMPLE-5", a.c.hookLevel(), "the sampling basis shows %d of %d top-level entries, but a sample that leaves entries out takes one path per entry, so its %d paths come from %d entries", f.Shown, f.Entries, f.Kept, f.Kept)
	}
}

// lineTruncated is the mark a cut grep preview ends with (SEARCH-PREVIEW-1).
const lineTruncated = " (line truncated)"

var lineTruncatedRaw = []byte(lineTruncated)

// previewSlack is how many bytes short of maxLineBytes a cut preview can
// keep: up to 3 for a code point the cut would split (SEARCH-PREVIEW-2) and
// 3 more for a leading U+FEFF the decoder drops (SEARCH-PREVIEW-3).
const previewSlack = 6

// previews checks the grep meta lines, which are previews: none keeps a
// lone surrogate (a preview is UTF-8 decoded, SEARCH-PREVIEW-3), and the cut
// ones of the log agree on one maxLineBytes (SEARCH-PREVIEW-1/2). The common
// row costs a byte search and a suffix test.
func (c *checker) previews(ev *event, id string, m *searchMeta) {
	lone := -1
	for i := range m.matches {
		line := m.matches[i].line
		if lone < 0 && hasLoneSurrogate(line) {
			lone = i
		}
		if bytes.HasSuffix(line, lineTruncatedRaw) {
			kept := len(line) - len(lineTruncated)
			if other, bad := c.lineBudget.cut(kept); bad {
				c.report(ev.line, ev.seq, id, "SEARCH-PREVIEW-2", Violation, "cut grep previews of this log keep %d and %d bytes: no single maxLineBytes explains both (a cut keeps it less at most %d bytes, and a row %d to %d bytes shorter cannot be a whole line ending in %q either)",
					kept, other, previewSlack, previewSlack+1, len(lineTruncated)-previewSlack-1, lineTruncated)
			}
		}
	}
	if lone >= 0 {
		c.report(ev.line, ev.seq, id, "SEARCH-PREVIEW-3", Violation, "grep line %s keeps a lone surrogate; a preview is decoded UTF-8, where it is U+FFFD", quote(string(m.matches[lone].line)))
	}
}

// hasLoneSurrogate reports whether WTF-8 bytes hold a lone surrogate
// (ED A0..BF xx).
func hasLoneSurrogate(b []byte) bool {
	for {
		i := bytes.IndexByte(b, 0xED)
		if i < 0 || i+1 >= len(b) {
			return false
		}
		if b[i+1] >= 0xA0 {
			return true
		}
		b = b[i+1:]
	}
}

// lineBudget holds the kept sizes of the log's cut grep previews. A cut
// keeps maxLineBytes M less at most previewSlack bytes, so two cuts differ by
// at most that. A row ending in the mark may instead be a whole line that
// ends so by itself, of its size plus 17 bytes, at most M: at least 11 bytes
// shorter than any cut. Two marked rows whose sizes differ by 7 to 10 bytes
// are therefore not both explained by one M (unless neither is a cut, i.e.
// both are such lines, which is not believed); they are reported once.
type lineBudget struct {
	sizes            []int // distinct kept sizes, at most maxBudgetSizes
	gaveUp, reported bool
}

const maxBudgetSizes = 64

func (b *lineBudget) reset() { *b = lineBudget{sizes: b.sizes[:0]} }

// cut records a cut preview keeping n bytes and reports an earlier size
// that no single maxLineBytes explains together with n.
func (b *lineBudget) cut(n int) (other int, bad bool) {
	if b.gaveUp || b.reported {
		return 0, false
	}
	for _, k := range b.sizes {
		if k == n {
			return 0, false
		}
		if d := max(k-n, n-k); d > previewSlack && d < len(lineTruncated)-previewSlack {
			b.reported = true
			return k, true
		}
	}
	if b.sizes = append(b.sizes, n); len(b.sizes) >= maxBudgetSizes {
		b.gaveUp = true
	}
	return 0, false
}
