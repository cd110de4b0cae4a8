// wrong-meta serves the reference but adds 1 to meta.total in every
// grep.result output that has a meta: a well-formed answer that is wrong.
package main

import (
	"context"
	"os"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

type harness struct{ adapter.Harness }

func (h harness) Run(op string, input []byte) ([]byte, error) {
	out, err := h.Harness.Run(op, input)
	if err != nil || op != "grep.result" {
		return out, err
	}
	v, err := jsonjs.Parse(out)
	if err != nil {
		return nil, err
	}
	members, _ := v.Members()
	changed := make([]jsonjs.Member, len(members))
	for i, m := range members {
		changed[i] = m
		if m.Key == "meta" && !m.Value.IsNull() {
			changed[i].Value = bump(m.Value)
		}
	}
	return jsonjs.Marshal(jsonjs.ObjectValue(changed...)), nil
}

// bump returns meta with total + 1, member order kept.
func bump(meta jsonjs.Value) jsonjs.Value {
	members, _ := meta.Members()
	changed := make([]jsonjs.Member, len(members))
	for i, m := range members {
		changed[i] = m
		if total, ok := m.Value.Float(); ok && m.Key == "total" {
			changed[i].Value = jsonjs.NumberValue(total + 1)
		}
	}
	return jsonjs.ObjectValue(changed...)
}

func main() {
	impl := adapter.Implementation{Name: "wrong-meta", Language: "go"}
	_ = adapter.Serve(context.Background(), os.Stdin, os.Stdout, harness{adapter.Reference()}, impl)
}
