package sessionlog_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dsh-conform/conform/generators/sessionlog"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

// This file holds an independent, strict validator of generated logs: the
// session-log contract as the generator promises to meet it (contiguous
// seqs, strictly increasing times, unique ids, enclosed dispatches, ...),
// plus the spec schemas for every line and payload.

func get(v jsonjs.Value, path ...any) jsonjs.Value {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v, _ = v.Get(k)
		case int:
			items, _ := v.Items()
			if k >= len(items) {
				return jsonjs.NullValue()
			}
			v = items[k]
		}
	}
	return v
}

func str(v jsonjs.Value, path ...any) string {
	s, _ := get(v, path...).Str()
	return s
}

func num(v jsonjs.Value, path ...any) int64 {
	f, _ := get(v, path...).Float()
	return int64(f)
}

func flag(v jsonjs.Value, path ...any) bool {
	b, _ := get(v, path...).Bool()
	return b
}

func items(v jsonjs.Value, path ...any) []jsonjs.Value {
	xs, _ := get(v, path...).Items()
	return xs
}

func has(v jsonjs.Value, path ...any) bool {
	last := path[len(path)-1].(string)
	return get(v, path[:len(path)-1]...).Has(last)
}

var resultText = []any{"data", "message", "content", 0, "content", 0, "text"}
var resultIsError = []any{"data", "message", "content", 0, "isError"}

type callState struct {
	seq        int64
	name       string
	turn, step int64
	result     int64 // seq of the append result, -1 before it
	meta       []byte
	errInfo    []byte
	starts     int
	startArgs  map[string][]byte
	startName  map[string]string
	settled    map[string]bool
}

// validate returns every way l departs from a well-formed generated log.
func validate(l sessionlog.Log) []string {
	var errs []string
	add := func(line int, format string, args ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Sprintf("%s line %d: ", l.Name, line+1)+fmt.Sprintf(format, args...))
		}
	}
	if len(l.Lines) == 0 {
		return []string{"empty log"}
	}
	schema := func(i int, name string, v jsonjs.Value) {
		if err := spec.ValidateJSON(name, jsonjs.Marshal(v)); err != nil {
			add(i, "%v", err)
		}
	}
	if err := spec.ValidateJSON("log-header", l.Lines[0]); err != nil {
		add(0, "%v", err)
	}
	hdr, _ := jsonjs.Parse(l.Lines[0])
	lastTime := num(hdr, "createdAt")
	nextSeq := int64(0)
	calls := map[string]*callState{}
	ids := map[string]bool{}
	uniqueID := func(i int, id string) {
		if id == "" || ids[id] {
			add(i, "message id %q empty or repeated", id)
		}
		ids[id] = true
	}
	openTurn := int64(-1)
	lastResultSeq := map[int64]bool{}
	prevType := ""
	for i, line := range l.Lines {
		if !json.Valid(line) || bytes.IndexByte(line, '\n') >= 0 {
			add(i, "not one JSON text")
			continue
		}
		v, err := jsonjs.Parse(line)
		if err != nil {
			add(i, "jsonjs: %v", err)
			continue
		}
		if i == 0 {
			continue
		}
		typ := str(v, "type")
		if strings.HasSuffix(typ, "-chunks") {
			schema(i, "log-packed-chunks", v)
			n := len(items(v, "data", "texts")) + len(items(v, "data", "args"))
			dts := items(v, "data", "dt")
			if len(dts) != n-1 {
				add(i, "len(dt) = %d for %d entries", len(dts), n)
			}
			if s := num(v, "seq0"); s != nextSeq {
				add(i, "seq0 %d, want %d", s, nextSeq)
			}
			t := num(v, "time0")
			if t <= lastTime {
				add(i, "time0 %d not after %d", t, lastTime)
			}
			for _, d := range dts {
				f, _ := d.Float()
				if f < 1 {
					add(i, "dt %v does not advance time", f)
				}
				t += int64(f)
			}
			lastTime = t
			nextSeq += int64(n)
			if str(v, "type") == "tool-call-chunks" {
				var b strings.Builder
				for _, a := range items(v, "data", "args") {
					s, _ := a.Str()
					b.WriteString(s)
				}
				if _, err := jsonjs.Parse([]byte(b.String())); err != nil {
					add(i, "tool-call-chunks args do not join to JSON: %v", err)
				}
			}
			prevType = typ
			continue
		}
		schema(i, "log-event", v)
		seq := num(v, "seq")
		if seq != nextSeq {
			add(i, "seq %d, want %d", seq, nextSeq)
		}
		nextSeq = seq + 1
		if t := num(v, "time"); t <= lastTime {
			add(i, "time %d not after %d", t, lastTime)
		} else {
			lastTime = t
		}
		data := get(v, "data")
		switch typ {
		case "turn/start":
			if openTurn >= 0 {
				add(i, "turn %d starts inside turn %d", num(data, "turn"), openTurn)
			}
			openTurn = num(data, "turn")
		case "turn/end":
			if num(data, "turn") != openTurn {
				add(i, "turn/end %d closes turn %d", num(data, "turn"), openTurn)
			}
			openTurn = -1
		case "user/message":
			uniqueID(i, str(data, "id"))
		case "assistant/message":
			uniqueID(i, str(data, "message", "id"))
		case "tool/call":
			schema(i, "log-tool-call", data)
			id := str(data, "callId")
			if calls[id] != nil {
				add(i, "call id %s repeated", id)
			}
			if _, err := jsonjs.Parse([]byte(str(data, "arguments"))); err != nil {
				add(i, "arguments do not parse: %v", err)
			}
			calls[id] = &callState{seq: seq, name: str(data, "name"), turn: num(data, "turn"), step: num(data, "step"), result: -1,
				startArgs: map[string][]byte{}, startName: map[string]string{}, settled: map[string]bool{}}
		case "tool/result":
			schema(i, "log-tool-result", data)
			uniqueID(i, str(data, "message", "id"))
			id := str(data, "message", "source", "callId")
			if id != str(data, "message", "content", 0, "toolCallId") {
				add(i, "source.callId %q != toolCallId", id)
			}
			c := calls[id]
			if c == nil {
				add(i, "result for unknown call %q", id)
				break
			}
			if num(data, "turn") != c.turn || num(data, "step") != c.step {
				add(i, "result turn/step differ from the call's")
			}
			refs := items(v, "sourceEventSeqs")
			isErr := flag(v, resultIsError...)
			text := str(v, resultText...)
			meta, hasMeta := data.Get("meta")
			errInfo, hasErr := data.Get("error")
			if hasErr && !isErr {
				add(i, "error info on a success result")
			}
			if str(v, "surfaceOp") == "append" {
				if c.result >= 0 {
					add(i, "second append result for %s", id)
				}
				if len(refs) != 1 || num(refs[0]) != c.seq {
					add(i, "append result cites %s, want [%d]", jsonjs.Marshal(get(v, "sourceEventSeqs")), c.seq)
				}
				c.result = seq
				lastResultSeq[seq] = true
				if hasMeta {
					c.meta = jsonjs.Marshal(meta)
				}
				if hasErr {
					c.errInfo = jsonjs.Marshal(errInfo)
				}
				switch c.name {
				case "grep", "glob":
					if hasMeta == isErr {
						add(i, "search result isError=%v with meta=%v", isErr, hasMeta)
					}
					if hasMeta {
						want := map[string]string{"grep": "matches", "glob": "paths"}[c.name]
						if str(meta, "shape") != want {
							add(i, "meta shape %q for %s", str(meta, "shape"), c.name)
						}
						if err := spec.ValidateJSON("search-meta", jsonjs.Marshal(meta)); err != nil {
							add(i, "%v", err)
						}
					}
				case "run_code":
					if hasMeta {
						add(i, "run_code result with meta")
					}
					if !isErr && text == "" {
						add(i, "empty run_code text")
					}
					for sub := range c.startArgs {
						if !c.settled[sub] {
							add(i, "sub-call %s not settled before the result", sub)
						}
					}
				}
				break
			}
			// A replacement (LOG-RES-3).
			s := c.result
			if prevType != "compaction/prune" {
				add(i, "replacement not preceded by compaction/prune")
			}
			if len(refs) != 1 || num(refs[0]) != s || num(v, "surfaceOp", "start") != s || num(v, "surfaceOp", "end") != s || str(v, "surfaceOp", "op") != "replace" {
				add(i, "replacement does not cite the original result seq %d", s)
			}
			var m, e []byte
			if hasMeta {
				m = jsonjs.Marshal(meta)
			}
			if hasErr {
				e = jsonjs.Marshal(errInfo)
			}
			if !bytes.Equal(m, c.meta) || !bytes.Equal(e, c.errInfo) {
				add(i, "replacement meta/error differ from the original's")
			}
		case codemode.EventDispatchStart, codemode.EventDispatchSettle:
			start := typ == codemode.EventDispatchStart
			if start {
				schema(i, "log-code-dispatch-start", data)
			} else {
				schema(i, "log-code-dispatch", data)
			}
			parent := str(data, "parentCallId")
			c := calls[parent]
			if c == nil || c.name != "run_code" || c.result >= 0 || openTurn < 0 {
				add(i, "dispatch of %q not enclosed by its run_code call", parent)
				break
			}
			if str(data, "rootCallId") != parent {
				add(i, "rootCallId %q != parentCallId", str(data, "rootCallId"))
			}
			if get(data, "arguments").Kind() != jsonjs.Object {
				add(i, "dispatch arguments are not an object")
			}
			sub := str(data, "subCallId")
			args := jsonjs.Marshal(get(data, "arguments"))
			if start {
				c.starts++
				if sub != codemode.SubCallID(parent, c.starts) {
					add(i, "start %q, want n=%d", sub, c.starts)
				}
				c.startArgs[sub] = args
				c.startName[sub] = str(data, "name")
				break
			}
			if _, ok := c.startArgs[sub]; !ok || c.settled[sub] {
				add(i, "settle of %q without a start or settled twice", sub)
			}
			if !bytes.Equal(c.startArgs[sub], args) || c.startName[sub] != str(data, "name") {
				add(i, "settle of %q repeats different arguments or name", sub)
			}
			c.settled[sub] = true
		}
		if typ != "turn/start" && typ != "turn/end" && openTurn < 0 {
			add(i, "%s outside a turn", typ)
		}
		prevType = typ
	}
	for id, c := range calls {
		if c.result < 0 {
			errs = append(errs, fmt.Sprintf("%s: call %s has no result", l.Name, id))
		}
	}
	if openTurn >= 0 {
		errs = append(errs, fmt.Sprintf("%s: turn %d never ends", l.Name, openTurn))
	}
	return errs
}

// seqProblems reports seqs that do not run 0, 1, 2, … (packed rows
// expanded); a mutated log must keep them unless seqs are its target.
func seqProblems(l sessionlog.Log) []string {
	var errs []string
	next := int64(0)
	for i, line := range l.Lines {
		v, err := jsonjs.Parse(line)
		if err != nil {
			errs = append(errs, fmt.Sprintf("line %d: %v", i+1, err))
			continue
		}
		if str(v, "type") == "session" {
			continue
		}
		n, s := int64(1), num(v, "seq")
		if v.Has("seq0") {
			s = num(v, "seq0")
			n = int64(len(items(v, "data", "texts")) + len(items(v, "data", "args")))
		}
		if s != next {
			errs = append(errs, fmt.Sprintf("line %d: seq %d, want %d", i+1, s, next))
		}
		next = s + n
	}
	return errs
}
