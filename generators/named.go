package generators

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// ThrowsPrefix starts the Description of every named case whose input the
// harness must refuse by throwing (an invalid configuration or budget). Its
// golden holds {error: {message}} instead of an output. Every other named
// case must run to an output; named_test.go checks both directions against
// the reference.
const ThrowsPrefix = "throws: "

// Named returns the hand-picked, named cases: every worked example of the
// contract digest as its own case, plus the edges the digest's tables miss
// (exactly at and one past every cap, empty and one-item inputs, nested
// calls, failed saves, 4-byte code points at every cut position). Together
// they name every requirement that is observable through the ops and not
// excluded in spec/requirements.yaml.
//
// The order is fixed: ops in the order of docs/ops.md, cases within an op
// in the order the digest presents them, edges after the examples. Names are
// stable IDs: never rename a case or reuse a name for another meaning.
func Named() []Case {
	var cases []Case
	for _, part := range [][]Case{
		namedGrep(),
		namedGlob(),
		namedPresent(),
		namedRunCode(),
		namedRetainItems(),
		namedRetainText(),
		namedSpill(),
		namedRaw(),
		namedInputs(),
		namedStrengthRunCode(), // named_strength_*.go: cases mutation testing asked for (docs/mutation.md)
		namedStrengthSearch(),
		namedStrengthRetention(),
		namedStrengthRunCodeFalsyError(),
		namedStrengthRunCodeLogsShape(),
		namedStrengthParse(),
		namedStrengthJSON(),
		namedStrengthSearch2(),
		namedStrengthLex(),
		namedJudge(), // named_judge.go: issue 22's observable equivalents, surrogate-pair joins and null members
	} {
		cases = append(cases, part...)
	}
	return cases
}

// namedCase builds one case; the requirement IDs come last so a case reads
// name, description, input, then what it pins down.
func namedCase(op, name, description string, input jsonjs.Value, reqs ...string) Case {
	return Case{Name: name, Op: op, Requirements: reqs, Description: description, Input: input}
}

// nv converts a Go literal of a hand-written case into a JSON value:
// nil, bool, int, float64, string, []string, []any, jsonjs.Value.
func nv(x any) jsonjs.Value {
	switch t := x.(type) {
	case nil:
		return jsonjs.NullValue()
	case jsonjs.Value:
		return t
	case bool:
		return jsonjs.BoolValue(t)
	case int:
		return jsonjs.IntValue(t)
	case float64:
		return jsonjs.NumberValue(t)
	case string:
		return jsonjs.StringValue(t)
	case []string:
		items := make([]jsonjs.Value, len(t))
		for i, s := range t {
			items[i] = jsonjs.StringValue(s)
		}
		return jsonjs.ArrayValue(items...)
	case []jsonjs.Value:
		return jsonjs.ArrayValue(t...)
	case []any:
		items := make([]jsonjs.Value, len(t))
		for i, e := range t {
			items[i] = nv(e)
		}
		return jsonjs.ArrayValue(items...)
	}
	panic(fmt.Sprintf("generators.nv: unsupported %T", x))
}

// nobj builds an object from alternating keys and values, members in the
// order written.
func nobj(kv ...any) jsonjs.Value {
	if len(kv)%2 != 0 {
		panic("generators.nobj: odd number of arguments")
	}
	members := make([]jsonjs.Member, 0, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		members = append(members, jsonjs.Member{Key: kv[i].(string), Value: nv(kv[i+1])})
	}
	return jsonjs.ObjectValue(members...)
}

// narr builds an array.
func narr(items ...any) jsonjs.Value { return nv(items) }

// nwith appends members to an object value.
func nwith(v jsonjs.Value, extra ...jsonjs.Member) jsonjs.Value {
	members, _ := v.Members()
	all := append(append([]jsonjs.Member(nil), members...), extra...)
	return jsonjs.ObjectValue(all...)
}

// nrep repeats s n times.
func nrep(s string, n int) string { return strings.Repeat(s, n) }

// nnumbered returns prefix+i+suffix for i in [from, to], zero-padded to width.
func nnumbered(prefix string, from, to, width int, suffix string) []string {
	out := make([]string, 0, to-from+1)
	for i := from; i <= to; i++ {
		n := strconv.Itoa(i)
		if len(n) < width {
			n = nrep("0", width-len(n)) + n
		}
		out = append(out, prefix+n+suffix)
	}
	return out
}
