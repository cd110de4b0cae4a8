package jsonjs_test

import (
	"os"
	"testing"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// flatText is a flat value of the size the runner handles most: the
// golden answer of the grep case at the default meta cap (about 200 KB,
// nested 5 levels), which no tape touches (issue 23: the deep path must
// not slow the plain one).
func flatText(b *testing.B) []byte {
	text, err := os.ReadFile("../../golden/grep.result/grep-default-meta-cap-65536.json")
	if err != nil {
		b.Fatal(err)
	}
	return text
}

func BenchmarkParseFlat(b *testing.B) {
	text := flatText(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jsonjs.Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalFlat(b *testing.B) {
	text := flatText(b)
	v, _ := jsonjs.Parse(text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		jsonjs.Marshal(v)
	}
}

func BenchmarkEqualFlat(b *testing.B) {
	text := flatText(b)
	v, _ := jsonjs.Parse(text)
	w, _ := jsonjs.Parse(text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if !jsonjs.Equal(v, w) {
			b.Fatal("not equal")
		}
	}
}

func BenchmarkItemsFlat(b *testing.B) {
	text := flatText(b)
	v, _ := jsonjs.Parse(text)
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		var walk func(v jsonjs.Value)
		walk = func(v jsonjs.Value) {
			n++
			items, _ := v.Items()
			for _, it := range items {
				walk(it)
			}
			members, _ := v.Members()
			for _, m := range members {
				walk(m.Value)
			}
		}
		walk(v)
	}
}
