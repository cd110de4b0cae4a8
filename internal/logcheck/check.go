package logcheck

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// Check reads one session log (JSONL, already decompressed) and reports
// every finding through emit, in log order as far as the rules allow (the
// Code Mode numbering and pairing of a run_code call is reported when its
// result arrives). file only labels the findings. The error is non-nil
// only when reading r fails; everything wrong with the content is a
// finding.
//
// Memory is bounded by opt.MaxLineBytes (one kept line), by the state of
// the calls that are still open, by a fixed window of recently completed
// calls and by a table of at most internMax names; it does not grow with
// the file for well-formed logs.
func Check(r io.Reader, file string, opt Options, emit func(Finding)) (Stats, error) {
	c := newChecker(file, opt, emit)
	err := c.read(r)
	c.finish()
	return c.st, err
}

// recentWindow is how many completed calls the checker remembers, for
// duplicate results, pruned replacements (LOG-RES-3), late dispatch events
// and nested-id checks (LOG-CHECK-CODE-7). Older calls are forgotten so that
// memory does not grow with the log.
const recentWindow = 4096

type checker struct {
	file  string
	opt   Options
	emit  func(Finding)
	st    Stats
	canon map[string]string // logged tool name -> canonical name
	names map[string]string // name's copies: bounded by internMax

	lz          jsonjs.Lazy
	marena      []member // member slices of the current line
	rarena      []raw    // item slices of the current line
	tarena      []raw    // text members of content blocks (blockInfo) of the current line
	barena      []byte   // decoded strings of the current line (textEsc)
	seqBuf      []int64
	hashStack   []hashFrame
	metaBuf     searchMeta // readMeta's scratch
	hashMetaBuf searchMeta // hashMeta's scratch
	evBuf       event
	resBuf      result
	lineNo      int
	validUTF8   bool

	createdAt      int64 // header createdAt, -1 when unknown
	firstLineState int   // 0 before line 1, 1 after

	hasPrev  bool
	prevSeq  int64
	prevLine int
	lost     bool // a line since the last seq was unreadable: a seq gap is explained

	turnOpen  bool
	pruneSeen bool

	open map[string]*call // calls whose result has not been seen
	subs map[string]*call // subCallId -> the root call it belongs to (open roots only)
	done recent

	freeGroups []*dispGroup // validated dispatch groups, for reuse (newGroup)
	lineBudget lineBudget   // the maxLineBytes the grep previews of this log allow (SEARCH-PREVIEW-2)
}

// LineLimit is the largest MaxLineBytes: a line is scanned on a tape
// (jsonjs.Lazy), which holds at most jsonjs.MaxTapeBytes.
const LineLimit = jsonjs.MaxTapeBytes

func newChecker(file string, opt Options, emit func(Finding)) *checker {
	if opt.MaxLineBytes <= 0 {
		opt.MaxLineBytes = Defaults().MaxLineBytes
	}
	opt.MaxLineBytes = min(opt.MaxLineBytes, LineLimit) // a longer line is skipped and reported, not read as "not JSON"
	if opt.SearchMetaMaxBytes <= 0 {
		// searchMetaMaxBytes is a positive integer (SEARCH-CFG-2); an unset
		// option means the upstream default.
		opt.SearchMetaMaxBytes = search.DefaultSearchMetaMaxBytes
	}
	c := &checker{
		file:      file,
		opt:       opt,
		emit:      emit,
		createdAt: -1,
		open:      map[string]*call{},
		subs:      map[string]*call{},
		done:      newRecent(recentWindow),
		canon:     map[string]string{},
		names:     map[string]string{},
	}
	names := map[string]string{toolGrep: toolGrep, toolGlob: toolGlob, toolRunCode: codemode.ToolName}
	for k, v := range opt.ToolNames {
		if _, ok := names[k]; ok && v != "" {
			names[k] = v
		}
	}
	for canonical, logged := range names {
		c.canon[logged] = canonical
	}
	c.lineBudget.reset()
	c.st.UnknownTypes = map[string]int{}
	c.st.ResultsChecked = map[string]int{}
	c.st.Findings = map[Level]int{}
	return c
}

// report emits one finding. The message gets a prefix naming the seq and
// the call id ("seq 12 (call_1): "), or the line when there is no seq, and
// is forced onto one line.
func (c *checker) report(line int, seq int64, id, req string, lvl Level, format string, args ...any) {
	var prefix string
	switch {
	case seq >= 0 && id != "":
		prefix = "seq " + strconv.FormatInt(seq, 10) + " (" + showID(id) + "): "
	case seq >= 0:
		prefix = "seq " + strconv.FormatInt(seq, 10) + ": "
	case line > 0 && !strings.HasPrefix(format, "line "):
		prefix = "line " + strconv.Itoa(line) + ": "
	}
	msg := prefix + fmt.Sprintf(format, args...)
	if strings.ContainsAny(msg, "\n\r") {
		msg = strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(msg)
	}
	c.st.Findings[lvl]++
	if c.emit != nil {
		c.emit(Finding{File: c.file, Line: line, Seq: seq, Requirement: req, Level: lvl, Message: msg})
	}
}

// showID prints a call id as is when it is short and plain, else quoted
// and shortened.
func showID(id string) string {
	plain := len(id) <= 80
	for i := 0; plain && i < len(id); i++ {
		if c := id[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '(' || c == ')' {
			plain = false
		}
	}
	if plain {
		return id
	}
	return quote(id)
}

// quote renders a string for a message: Go-quoted and cut to 80 bytes.
func quote(s string) string {
	if len(s) > 80 {
		cut := 80
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}

// read splits the stream into lines, keeping at most MaxLineBytes of one.
func (c *checker) read(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte // accumulates a line longer than the reader's buffer
	size := 0      // bytes of the current line so far, LF excluded
	tooLong := false
	for {
		frag, err := br.ReadSlice('\n')
		c.st.Bytes += int64(len(frag))
		complete := err == nil
		if err != nil && err != bufio.ErrBufferFull && err != io.EOF {
			return err
		}
		body := frag
		if complete {
			body = frag[:len(frag)-1]
		}
		size += len(body)
		switch {
		case tooLong:
		case size > c.opt.MaxLineBytes:
			tooLong, buf = true, nil
		case complete && buf == nil:
			// The common case: the whole line is in the reader's buffer.
		default:
			buf = grow(buf, len(body))
			buf = append(buf, body...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && size == 0 && !tooLong {
			return nil // no final partial line
		}
		line := body
		if buf != nil {
			line = buf
		}
		c.lineDone(line, size, tooLong, !complete)
		buf, size, tooLong = nil, 0, false
		if err == io.EOF {
			return nil
		}
	}
}

// grow makes room for n more bytes, doubling the capacity: a kept line
// of L bytes then costs at most about 2L bytes of allocation.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	nb := make([]byte, len(b), max(2*cap(b), len(b)+n, 64<<10))
	copy(nb, b)
	return nb
}

// lineDone handles one line (without its LF).
func (c *checker) lineDone(b []byte, size int, tooLong, noLF bool) {
	c.lineNo++
	c.st.Lines++
	c.resetArenas()
	n := c.lineNo
	first := c.firstLineState == 0
	c.firstLineState = 1
	if noLF {
		c.report(n, -1, "", "LOG-1", Warning, "the final line has no terminating LF (truncated write?)")
	}
	if tooLong {
		c.lost = true
		c.st.MalformedLines++
		c.report(n, -1, "", "LOG-1", Violation, "line %d is longer than %d bytes; skipped (%d bytes)", n, c.opt.MaxLineBytes, size)
		return
	}
	// One pass for both: validate checks the UTF-8 of the strings with
	// non-ASCII bytes, and a valid text has no others; only a line that is
	// not JSON needs utf8.Valid.
	isJSON := c.lz.Scan(b)
	if isJSON {
		c.validUTF8 = c.lz.UTF8()
	} else {
		c.validUTF8 = utf8.Valid(b)
	}
	if !c.validUTF8 {
		c.report(n, -1, "", "LOG-1", Violation, "line %d is not valid UTF-8 (first invalid byte at column %d)", n, firstInvalid(b)+1)
	}
	if !isJSON {
		c.lost = true
		c.st.MalformedLines++
		if len(strings.TrimLeft(string(b), " \t\r")) == 0 {
			c.report(n, -1, "", "LOG-1", Violation, "line %d is empty, not a JSON value", n)
			return
		}
		msg := "not JSON"
		if _, err := jsonjs.ParseReplacing(b); err != nil { // the UTF-8 is reported above
			var se *jsonjs.SyntaxError
			if errors.As(err, &se) {
				msg = fmt.Sprintf("column %d: %s", se.Column, se.Msg)
			} else {
				msg = err.Error()
			}
		}
		c.report(n, -1, "", "LOG-1", Violation, "line %d is not JSON: %s", n, msg)
		return
	}
	top := c.lz.Top()
	if len(top) == 0 { // a root with members is an object
		if root := c.lz.Root(); root.Kind() != jsonjs.Object {
			if first {
				c.report(n, -1, "", "LOG-2", Violation, "missing session header: line 1 is a JSON %s, not an object", root.Kind())
				return
			}
			c.report(n, -1, "", "LOG-3", Violation, "line %d is a JSON %s, not an event object", n, root.Kind())
			return
		}
	}
	typ, _ := get(top, "type")
	ti, typeOK := c.typeOf(typ) // one lookup dispatches the line
	switch {
	case first && ti.kind == evHeader:
		c.checkHeader(n, top)
		return
	case first:
		desc := "an object without a string type"
		if typeOK {
			desc = "a " + quote(ti.name) + " line"
		}
		c.report(n, -1, "", "LOG-2", Violation, "missing session header: line 1 is %s", desc)
	case ti.kind == evHeader:
		c.report(n, -1, "", "LOG-2", Violation, "line %d is a second session header; only the first line may be one", n)
		return
	}
	if ti.kind == evRow {
		c.checkRow(n, top, ti.name)
		return
	}
	c.checkEvent(n, top, ti, typeOK)
}

// arenaKeep is the scratch capacity kept from one line to the next; a
// larger arena, needed by one huge line, is released.
const arenaKeep = 1 << 14

func (c *checker) resetArenas() {
	if cap(c.marena) > arenaKeep {
		c.marena = nil
	}
	if cap(c.rarena) > arenaKeep {
		c.rarena = nil
	}
	if cap(c.tarena) > arenaKeep {
		c.tarena = nil
	}
	if cap(c.barena) > arenaKeep {
		c.barena = nil
	}
	c.marena, c.rarena, c.tarena, c.barena = c.marena[:0], c.rarena[:0], c.tarena[:0], c.barena[:0]
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// finish runs the end-of-log checks.
func (c *checker) finish() {
	if c.lineNo == 0 {
		c.report(0, -1, "", "LOG-2", Violation, "the log is empty: no session header")
	}
	// Calls still open at EOF: the log ends in an unrepaired crash tail (or
	// is still being written), so unsettled sub-calls are expected there.
	for _, cl := range c.openInOrder() {
		c.validateDispatches(cl, true)
	}
}
