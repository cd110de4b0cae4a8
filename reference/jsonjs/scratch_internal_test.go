package jsonjs

import "testing"

// TestScratchKeepsNoReferences: popTail leaves the scratch stacks' tails as
// they are, and parseWith clears them once, as far as the text used them,
// so a pooled parser never keeps a parsed text alive.
func TestScratchKeepsNoReferences(t *testing.T) {
	var p parser
	texts := []string{
		`{"a":{"b":[1,"x",{"c":"y"}],"d":"z"},"e":[[["w"]]]}`,
		`{"a":[1,2,3`, // an error leaves members and items on the stacks
		`[{"k":"v"}, "s", {"t": {"u": "v"}}]`,
	}
	for _, text := range texts {
		v, err := parseWith(&p, []byte(text))
		if err == nil && string(Marshal(v)) == "" {
			t.Fatalf("%s: no value", text)
		}
		for i, m := range p.members[:cap(p.members)] {
			if m.Key != "" || m.Value.c != nil || m.Value.s != "" {
				t.Errorf("%s: members[%d] keeps %q", text, i, m.Key)
			}
		}
		for i, it := range p.items[:cap(p.items)] {
			if it.c != nil || it.s != "" {
				t.Errorf("%s: items[%d] keeps a value", text, i)
			}
		}
		for i, o := range p.objects.top[:cap(p.objects.top)] {
			if o.key != "" {
				t.Errorf("%s: objects[%d] keeps %q", text, i, o.key)
			}
		}
		if p.used != (used{}) || p.memberBlock != nil || p.itemBlock != nil || p.nodeBlock != nil {
			t.Errorf("%s: the parser keeps marks or blocks", text)
		}
	}
}
