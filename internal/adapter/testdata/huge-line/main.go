// huge-line answers its first run with one 100 MB line (streamed in 64 KiB
// chunks, never held in memory), then serves the reference normally. It
// speaks the protocol by hand because the huge line replaces Serve's answer.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/dsh-conform/conform/internal/adapter"
)

const hugeBytes = 100 << 20

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 16<<20)
	out := bufio.NewWriter(os.Stdout)
	ref := adapter.Reference()
	runs := 0
	for in.Scan() {
		var req struct {
			Cmd, ID, Op string
			Input       json.RawMessage
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "huge-line:", err)
			os.Exit(1)
		}
		switch req.Cmd {
		case "hello":
			fmt.Fprintf(out, `{"protocol":1,"implementation":{"name":"huge-line","language":"go"},"ops":%s}`+"\n", mustJSON(ref.Ops()))
		case "bye":
			out.Flush()
			return
		case "run":
			runs++
			if runs == 1 {
				fmt.Fprintf(out, `{"id":%s,"output":{"blob":"`, mustJSON(req.ID))
				chunk := bytes.Repeat([]byte("x"), 64<<10)
				for n := 0; n < hugeBytes; n += len(chunk) {
					out.Write(chunk)
				}
				out.WriteString("\"}}\n")
				break
			}
			output, err := ref.Run(req.Op, req.Input)
			if err != nil {
				fmt.Fprintf(out, `{"id":%s,"error":{"message":%s}}`+"\n", mustJSON(req.ID), mustJSON(err.Error()))
				break
			}
			fmt.Fprintf(out, `{"id":%s,"output":%s}`+"\n", mustJSON(req.ID), output)
		}
		out.Flush()
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
