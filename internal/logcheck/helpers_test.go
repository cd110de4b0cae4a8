package logcheck_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// result of one Check run.
type run struct {
	findings []logcheck.Finding
	stats    logcheck.Stats
	err      error
}

func check(r io.Reader, name string, opt logcheck.Options) run {
	var out run
	out.stats, out.err = logcheck.Check(r, name, opt, func(f logcheck.Finding) { out.findings = append(out.findings, f) })
	return out
}

func checkBytes(b []byte, opt logcheck.Options) run {
	return check(bytes.NewReader(b), "mem.jsonl", opt)
}

func checkFile(path string, opt logcheck.Options) run {
	f, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	return check(f, filepath.Base(path), opt)
}

// kinds lists "REQ level" for every finding, sorted, for exact comparison.
func (r run) kinds() []string {
	out := make([]string, 0, len(r.findings))
	for _, f := range r.findings {
		out = append(out, f.Requirement+" "+string(f.Level))
	}
	sort.Strings(out)
	return out
}

func (r run) String() string {
	var b strings.Builder
	for _, f := range r.findings {
		fmt.Fprintf(&b, "%s:%d %s %s %s\n", f.File, f.Line, f.Requirement, f.Level, f.Message)
	}
	return b.String()
}

// turnGen writes realistic turns: one grep, one capped glob and one
// run_code call with two sub-calls, with fresh call ids and contiguous seqs.
type turnGen struct {
	seq  int
	turn int
}

const logHeader = `{"type":"session","version":0,"id":"bench-0001","createdAt":1785591986068,"cwd":"/w","delegationDepth":0}` + "\n"

// grepFixture is a grep result of 40 matches over 8 files, with its meta.
var grepText, grepMeta = func() (string, string) {
	var text, meta strings.Builder
	text.WriteString("Found 40 matches")
	meta.WriteString(`{"shape":"matches","files":[`)
	for f := 0; f < 8; f++ {
		path := fmt.Sprintf("src/pkg%d/file_%d.go", f, f)
		text.WriteString("\n\n" + path)
		if f > 0 {
			meta.WriteByte(',')
		}
		meta.WriteString(`{"path":` + strconv.Quote(path) + `,"matches":[`)
		for m := 0; m < 5; m++ {
			line := fmt.Sprintf("\tif err := handle(ctx, req%d); err != nil { return fmt.Errorf(\"step %d: %%w\", err) }", m, m)
			n := 10*m + f + 1
			text.WriteString("\nLine " + strconv.Itoa(n) + ": " + line)
			if m > 0 {
				meta.WriteByte(',')
			}
			meta.WriteString(`{"lineNumber":` + strconv.Itoa(n) + `,"line":` + jsonString(line) + `}`)
		}
		meta.WriteString(`]}`)
	}
	meta.WriteString(`],"truncated":false,"total":40}`)
	return text.String(), meta.String()
}()

func jsonString(s string) string {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func (g *turnGen) write(w *bytes.Buffer) {
	g.turn++
	t := g.turn
	ev := func(typ, data, extra string) int {
		s := g.seq
		g.seq++
		fmt.Fprintf(w, `{"type":%q,"seq":%d,"time":%d,"data":%s%s}`+"\n", typ, s, 1785591990000+s, data, extra)
		return s
	}
	result := func(id string, callSeq int, text, meta string) {
		data := fmt.Sprintf(`{"turn":%d,"step":1,"message":{"source":{"kind":"tool","callId":%q},"content":[{"type":"tool-result","toolCallId":%q,"content":[{"type":"text","text":%s}],"isError":false}],"role":"user","id":"m-%s"}%s}`,
			t, id, id, jsonString(text), id, meta)
		ev("tool/result", data, fmt.Sprintf(`,"sourceEventSeqs":[%d],"surfaceOp":"append"`, callSeq))
	}
	ev("turn/start", fmt.Sprintf(`{"turn":%d}`, t), "")
	ev("step/start", fmt.Sprintf(`{"turn":%d,"step":1}`, t), "")
	ev("user/message", `{"content":[{"type":"text","text":"Find the error handling in src and run a quick check."}],"source":{"kind":"user"},"role":"user","id":"u-`+strconv.Itoa(t)+`"}`, `,"surfaceOp":"append"`)
	ev("assistant/chunk", fmt.Sprintf(`{"turn":%d,"step":1,"chunk":{"type":"block-start","index":0,"blockType":"reasoning"}}`, t), "")
	fmt.Fprintf(w, `{"type":"reasoning-chunks","seq0":%d,"time0":%d,"data":{"turn":%d,"step":1,"index":0,"dt":[1,0,29,1,0,0],"texts":["The"," user"," wants"," me"," to"," search"," first."]}}`+"\n", g.seq, 1785591990000+g.seq, t)
	g.seq += 7
	grepID, globID, codeID := fmt.Sprintf("call_%d_grep", t), fmt.Sprintf("call_%d_glob", t), fmt.Sprintf("call_%d_code", t)
	ev("assistant/message", fmt.Sprintf(`{"turn":%d,"step":1,"message":{"role":"assistant","content":[{"type":"tool-call","id":%q,"name":"grep","arguments":"{\"pattern\":\"err != nil\",\"path\":\"src\"}"}],"source":{"kind":"model","provider":"p","model":"m"},"id":"a-%d"}}`, t, grepID, t), `,"sourceEventSeqs":[1],"surfaceOp":"append"`)
	c := ev("tool/call", fmt.Sprintf(`{"turn":%d,"step":1,"callId":%q,"name":"grep","arguments":"{\"pattern\":\"err != nil\",\"path\":\"src\"}"}`, t, grepID), "")
	result(grepID, c, grepText, `,"meta":`+grepMeta)
	c = ev("tool/call", fmt.Sprintf(`{"turn":%d,"step":1,"callId":%q,"name":"glob","arguments":"{\"pattern\": \"*\", \"path\": \"tree\"}"}`, t, globID), "")
	result(globID, c, "tree/archive/a.ts\ntree/docs/guide.md\ntree/src/index.ts\ntree/test/spec.ts\n\n(Showing 4 of 8 paths, sampled across 4 of the 6 top-level entries this pattern matched instead of taken in modification-time order. Narrow path to inspect a specific subtree. The complete result could not be saved; narrow pattern or path to see more.)",
		`,"meta":{"shape":"paths","paths":["tree/archive/a.ts","tree/docs/guide.md","tree/src/index.ts","tree/test/spec.ts"],"truncated":true,"total":8}`)
	c = ev("tool/call", fmt.Sprintf(`{"turn":%d,"step":1,"callId":%q,"name":"run_code","arguments":"{\"code\": \"const a = await tools.bash({command: \\\"echo ONE\\\"});\\nconst b = await tools.grep({pattern: \\\"TODO\\\"});\\nconsole.log(\\\"captured output\\\");\\nreturn a.stdout.text.trim() + \\\"+\\\" + b.matches.length;\\n\", \"description\": \"Run a command and count TODOs\"}"}`, t, codeID), "")
	for n, sub := range []struct{ name, args, text string }{
		{"bash", `{"command":"echo ONE","description":"Print ONE"}`, "ONE\n"},
		{"grep", `{"pattern":"TODO"}`, "Found 2 matches\n\na.ts\nLine 3: // TODO: one\nLine 9: // TODO: two"},
	} {
		id := fmt.Sprintf(`"rootCallId":%q,"parentCallId":%q,"subCallId":"%s:code:%d","name":%q,"arguments":%s`, codeID, codeID, codeID, n+1, sub.name, sub.args)
		ev("tool/code-dispatch-start", "{"+id+"}", "")
		ev("tool/code-dispatch", "{"+id+`,"isError":false,"content":[{"type":"text","text":`+jsonString(sub.text)+`}]}`, "")
	}
	result(codeID, c, "captured output\nONE+2", "")
	ev("step/end", fmt.Sprintf(`{"turn":%d,"step":1}`, t), "")
	ev("turn/end", fmt.Sprintf(`{"turn":%d,"reason":{"kind":"completed"}}`, t), "")
}

// buildLog returns a log of about size bytes of repeated turns.
func buildLog(size int) []byte {
	var w bytes.Buffer
	w.WriteString(logHeader)
	g := &turnGen{}
	for w.Len() < size {
		g.write(&w)
	}
	return w.Bytes()
}

// turnReader produces a log of n turns lazily; probe runs after every
// turn with the turn number.
type turnReader struct {
	g     turnGen
	n     int
	buf   bytes.Buffer
	head  bool
	probe func(turn int)
}

func (r *turnReader) Read(p []byte) (int, error) {
	for r.buf.Len() == 0 {
		if !r.head {
			r.head = true
			r.buf.WriteString(logHeader)
			continue
		}
		if r.g.turn >= r.n {
			return 0, io.EOF
		}
		r.g.write(&r.buf)
		if r.probe != nil {
			r.probe(r.g.turn)
		}
	}
	return r.buf.Read(p)
}

// repeatReader yields n bytes of one byte value, then tail, lazily.
type repeatReader struct {
	left int64
	b    byte
	tail []byte
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		if len(r.tail) == 0 {
			return 0, io.EOF
		}
		n := copy(p, r.tail)
		r.tail = r.tail[n:]
		return n, nil
	}
	n := len(p)
	if int64(n) > r.left {
		n = int(r.left)
	}
	for i := range p[:n] {
		p[i] = r.b
	}
	r.left -= int64(n)
	return n, nil
}

// failingReader returns its data, then an error.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func multiReader(rs ...io.Reader) io.Reader { return io.MultiReader(rs...) }
