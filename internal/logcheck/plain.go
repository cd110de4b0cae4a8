package logcheck

// Fast paths for the two commonest payloads, in the layout the harness
// writes them: a text that is exactly that layout (member order, no
// whitespace, no other member, keys without escapes) satisfies every shape
// rule the general walk checks, so reading its few values in one pass
// gives the general walk's result, findings included (none). Any other
// text takes the general walk. plain_internal_test.go compares the two.

// plainMessage reads a tool/result's message written as
// {"source":{"kind":"tool","callId":S},"content":[{"type":"tool-result",
// "toolCallId":S,"content":[{"type":"text","text":S}],"isError":B}],
// "role":"user","id":S}. ok is false for any other text.
func (c *checker) plainMessage(msg raw, res *result) (toolCallID string, haveToolCallID, ok bool) {
	k := metaCursor{b: msg}
	const blocksHead = `[{"type":"text","text":`
	if !k.lit(`{"source":{"kind":"tool","callId":`) {
		return "", false, false
	}
	callID, ok1 := k.str()
	if !ok1 || !k.lit(`},"content":[{"type":"tool-result","toolCallId":`) {
		return "", false, false
	}
	tcID, ok2 := k.str()
	if !ok2 || !k.lit(`,"content":`) {
		return "", false, false
	}
	blocksStart := k.i
	if !k.lit(blocksHead) {
		return "", false, false
	}
	text, ok3 := k.str()
	if !ok3 || !k.lit(`}]`) {
		return "", false, false
	}
	blocks := msg[blocksStart:k.i]
	if !k.lit(`,"isError":`) {
		return "", false, false
	}
	isError := k.lit("true")
	if !isError && !k.lit("false") {
		return "", false, false
	}
	if !k.lit(`}],"role":"user","id":`) {
		return "", false, false
	}
	id, ok4 := k.str()
	if !ok4 || !k.lit("}") || k.i != len(msg) {
		return "", false, false
	}
	res.callID, _ = c.id(callID)
	toolCallID = res.callID
	if string(tcID) != string(callID) { // usually the same id: decoded once
		toolCallID, _ = c.id(tcID)
	}
	res.isError, res.isErrorOK = isError, true
	res.msgRaw, res.hasMsgID = id, true
	res.blocks = blocks
	c.tarena = append(c.tarena, text)
	res.bi = blockInfo{texts: c.tarena[len(c.tarena)-1 : len(c.tarena) : len(c.tarena)], n: 1, allText: true}
	return toolCallID, true, true
}

// callKeys are a tool/call's data members in the harness's order.
var callKeys = []string{"turn", "step", "callId", "name", "arguments"}

// plainObj returns what obj returns for an object written as
// {"k1":v1,"k2":v2,…} with exactly the given keys in that order and
// scalar values (strings, numbers, literals), without the general walk;
// any other object takes obj. plain tells which: the members of a plain
// object are exactly keys, so keySet has nothing to say about them.
func (c *checker) plainObj(r raw, keys []string) (ms []member, plain bool) {
	start := len(c.marena)
	k := metaCursor{b: r}
	ok := k.lit("{")
	for i := 0; ok && i < len(keys); i++ {
		if i > 0 && !k.lit(",") || !k.lit(`"`) {
			ok = false
			break
		}
		key := r[k.i : k.i+min(len(keys[i]), len(r)-k.i)]
		if !k.lit(keys[i]) || !k.lit(`":`) {
			ok = false
			break
		}
		v, found := k.scalar()
		if !found {
			ok = false
			break
		}
		c.marena = append(c.marena, member{Key: key, Value: v})
	}
	if !ok || !k.lit("}") || k.i != len(r) {
		c.marena = c.marena[:start]
		return c.obj(r), false
	}
	return c.marena[start:len(c.marena):len(c.marena)], true
}

// scalar consumes a string, number or literal.
func (k *metaCursor) scalar() (raw, bool) {
	if k.i >= len(k.b) {
		return nil, false
	}
	start := k.i
	switch k.b[k.i] {
	case '"':
		return k.str()
	case 't', 'n':
		k.i += 4
	case 'f':
		k.i += 5
	case '{', '[':
		return nil, false
	default:
		if _, ok := k.num(); !ok {
			return nil, false
		}
	}
	return raw(k.b[start:k.i]), true
}
