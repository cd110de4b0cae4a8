// deep serves the reference but answers every case with a value nested
// -depth levels (issue 23): the output's "meta" (-shape meta, the default)
// replaced by that many nested arrays, [[…[]…]], 2 bytes a level; or
// (-shape object) by {"a":{"a":…{}…}}; or (-error) an error answer whose
// object holds the deep value beside its message, as a "stack". It speaks
// the protocol with raw bytes and never parses the deep value, so that
// what a measurement sees is conform's cost, not the adapter's.
package main

import (
	"bufio"
	"flag"
	"io"
	"os"
	"strings"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

func main() {
	depth := flag.Int("depth", 1_000_000, "nesting levels of the answered meta")
	shape := flag.String("shape", "meta", "meta: nested arrays; object: nested objects")
	errorAnswer := flag.Bool("error", false, "answer errors whose \"stack\" is the deep value")
	flag.Parse()
	deep := nested(*depth, *shape)
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return
		}
		ms := jsonjs.RawMembers(line, "cmd", "id", "op", "input")
		switch string(ms[0]) {
		case `"hello"`:
			hello := adapter.Hello{Protocol: adapter.Protocol,
				Implementation: adapter.Implementation{Name: "deep", Language: "go"}, Ops: reference.Ops()}
			out.Write(jsonjs.Marshal(hello.Value()))
			out.WriteString("\n")
		case `"run"`:
			op, _ := jsonjs.Parse(ms[2])
			name, _ := op.Str()
			output, rerr := reference.Run(name, ms[3])
			out.WriteString(`{"id":`)
			out.Write(ms[1])
			if *errorAnswer {
				out.WriteString(`,"error":{"message":"deep","stack":`)
				out.Write(deep)
				out.WriteString("}}\n")
				break
			}
			if rerr != nil { // the golden answer is an error: answer an output
				output = []byte(`{}`)
			}
			out.WriteString(`,"output":`)
			writeWithMeta(out, output, deep)
			out.WriteString("}\n")
		default:
			return // bye
		}
		if out.Flush() != nil || err == io.EOF {
			return
		}
	}
}

// writeWithMeta writes the object output with its "meta" member's value
// replaced by deep (appended when it has none).
func writeWithMeta(w *bufio.Writer, output, deep []byte) {
	w.WriteString("{")
	n := 0
	jsonjs.EachRawMember(output, func(k, v []byte) bool {
		if jsonjs.RawKeyIs(k, "meta") {
			return true
		}
		if n > 0 {
			w.WriteString(",")
		}
		n++
		w.Write(k)
		w.WriteString(":")
		w.Write(v)
		return true
	})
	if n > 0 {
		w.WriteString(",")
	}
	w.WriteString(`"meta":`)
	w.Write(deep)
	w.WriteString("}")
}

// nested is depth levels of arrays or objects.
func nested(depth int, shape string) []byte {
	if shape == "object" {
		return []byte(strings.Repeat(`{"a":`, depth) + "{}" + strings.Repeat("}", depth))
	}
	return []byte(strings.Repeat("[", depth) + strings.Repeat("]", depth))
}
