package codemode_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// BenchmarkRenderDeep renders 100,000 nested arrays (CODE-JSON-3).
func BenchmarkRenderDeep(b *testing.B) {
	const depth = 100000
	v, err := jsonjs.Parse([]byte(strings.Repeat("[", depth) + strings.Repeat("]", depth)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		codemode.RenderValue(v)
	}
}

// BenchmarkRenderWide renders one array of 100,000 small objects.
func BenchmarkRenderWide(b *testing.B) {
	var sb strings.Builder
	sb.WriteByte('[')
	for i := range 100000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"id":` + strconv.Itoa(i) + `,"name":"item ` + strconv.Itoa(i) + `","tags":["a","b"]}`)
	}
	sb.WriteByte(']')
	v, err := jsonjs.Parse([]byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		codemode.RenderValue(v)
	}
}
