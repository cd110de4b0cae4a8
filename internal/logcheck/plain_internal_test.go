package logcheck

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// genMessage writes a tool/result message: the harness layout, or that
// layout with one random edit (some keep the shape valid, some break it).
func genMessage(t *rapid.T) string {
	q := func(s string) string { return string(jsonjs.Marshal(jsonjs.StringValue(s))) }
	ids := rapid.SampledFrom([]string{"c1", "call_00_1", `with "quote"`, "é", ""})
	parts := map[string]string{
		"callId": q(ids.Draw(t, "callId")), "toolCallId": q(ids.Draw(t, "toolCallId")),
		"text": q(genText.Draw(t, "text")), "isError": fmt.Sprint(rapid.Bool().Draw(t, "isError")),
		"id": q(ids.Draw(t, "id")), "kind": `"tool"`, "role": `"user"`, "type": `"tool-result"`, "btype": `"text"`,
	}
	edit := rapid.IntRange(0, 12).Draw(t, "edit")
	switch edit {
	case 1:
		parts["kind"] = `"tol"`
	case 2:
		parts["role"] = `"assistant"`
	case 3:
		parts["isError"] = `"yes"`
	case 4:
		parts["btype"] = `"image"`
	case 5:
		parts["text"] = "7"
	case 6:
		parts["callId"] = "null"
	case 7:
		parts["text"] = `"a\nb\u0041"` // escapes in a value keep the layout
	}
	s := `{"source":{"kind":` + parts["kind"] + `,"callId":` + parts["callId"] + `},"content":[{"type":` + parts["type"] +
		`,"toolCallId":` + parts["toolCallId"] + `,"content":[{"type":` + parts["btype"] + `,"text":` + parts["text"] + `}],"isError":` +
		parts["isError"] + `}],"role":` + parts["role"] + `,"id":` + parts["id"] + `}`
	switch edit {
	case 8:
		s = strings.Replace(s, `"role":`, `"role" : `, 1)
	case 9:
		s = strings.Replace(s, `"id":`, `"extra":1,"id":`, 1)
	case 10:
		s = strings.Replace(s, `}],"isError"`, `},{"type":"text","text":"more"}],"isError"`, 1)
	case 11:
		s = strings.Replace(s, `{"source":`, `{"\u0073ource":`, 1)
	case 12:
		s = strings.Replace(s, `"role":"user",`, ``, 1) + "" // role missing
	}
	return s
}

// TestPlainMessageIsTheGeneralWalk: whenever plainMessage accepts a
// message, the general walk finds no problem and extracts the same fields.
func TestPlainMessageIsTheGeneralWalk(t *testing.T) {
	fastSeen := 0
	rapid.Check(t, func(t *rapid.T) {
		text := genMessage(t)
		c := newChecker("t.jsonl", Defaults(), nil)
		if !c.lz.Scan([]byte(text)) {
			t.Fatalf("not JSON: %s", text)
		}
		c.validUTF8 = c.lz.UTF8()
		var fast, slow result
		ftc, fhave, ok := c.plainMessage(c.lz.Root(), &fast)
		var p problems
		stc, shave := c.messageShape(c.lz.Root(), &slow, &p)
		if !ok {
			return
		}
		fastSeen++
		if len(p) > 0 {
			t.Fatalf("fast path accepted a message with problems %s: %s", p, text)
		}
		show := func(r *result, tc string, have bool) string {
			bt, n, all := c.blockTexts(r.bi)
			return fmt.Sprintf("%q %q %v %v %v %s %v %s %q %d %v", r.callID, tc, have, r.isError, r.isErrorOK, r.msgRaw, r.hasMsgID, r.blocks, bt, n, all)
		}
		if f, s := show(&fast, ftc, fhave), show(&slow, stc, shave); f != s {
			t.Fatalf("fast %s\ngeneral %s\ntext %s", f, s, text)
		}
	})
	if fastSeen == 0 {
		t.Fatal("the fast path never ran")
	}
}

// TestPlainObjIsMembers: plainObj returns what the general walk returns,
// for objects in the expected layout and for any other.
func TestPlainObjIsMembers(t *testing.T) {
	fastSeen := 0
	rapid.Check(t, func(t *rapid.T) {
		val := rapid.SampledFrom([]string{`1`, `-0`, `1e2`, `"x"`, `"a\"b"`, `true`, `false`, `null`, `[1]`, `{}`, `""`}).Draw(t, "val")
		plain := rapid.Bool().Draw(t, "plain")
		keys := callKeys
		if !plain {
			keys = rapid.Permutation(callKeys).Draw(t, "keys")
			keys = keys[:rapid.IntRange(0, len(keys)).Draw(t, "n")]
		}
		var b strings.Builder
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
				if !plain && rapid.Bool().Draw(t, "space") {
					b.WriteString(" ")
				}
			}
			key := `"` + k + `":`
			if !plain {
				key = rapid.SampledFrom([]string{key, `"` + k + `" :`, `"\u` + fmt.Sprintf("%04x", k[0]) + k[1:] + `":`}).Draw(t, "key")
			}
			b.WriteString(key + val)
		}
		b.WriteByte('}')
		c := newChecker("t.jsonl", Defaults(), nil)
		if !c.lz.Scan([]byte(b.String())) {
			t.Fatalf("not JSON: %s", b.String())
		}
		c.validUTF8 = true
		got, fast := c.plainObj(c.lz.Root(), callKeys)
		want := c.obj(c.lz.Root())
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
			t.Fatalf("plainObj %q, obj %q: %s", got, want, b.String())
		}
		var p problems
		if keySet(want, callKeys, nil, &p, "data"); fast && len(p) > 0 {
			t.Fatalf("plainObj took the fast path, but keySet says %s: %s", p, b.String())
		}
		if plain && val[0] != '[' && val[0] != '{' {
			fastSeen++
		}
	})
	if fastSeen == 0 {
		t.Fatal("the plain layout never came up")
	}
}
