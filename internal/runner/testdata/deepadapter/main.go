// deepadapter answers every case with the output {"meta": [[…]]}, the
// arrays nested DEPTH levels deep (env, default 10^6: a 2 MB line), for
// issue 23's figures of conform against deep answers (docs/ci.md):
//
//	go build -o bin/deepad ./internal/runner/testdata/deepadapter
//	/usr/bin/time -v bin/conform run -j2 --timeout 2s --format json --out /tmp/r.json -- bin/deepad
//
// It speaks the protocol with raw bytes and parses nothing, so that what a
// measurement sees is conform's cost, not the adapter's.
package main

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

func main() {
	n := 1000000
	if s := os.Getenv("DEPTH"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	deep := strings.Repeat("[", n) + strings.Repeat("]", n)
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return
		}
		switch {
		case bytes.Contains(line, []byte(`"cmd":"hello"`)):
			w.WriteString(`{"protocol":1,"implementation":{"name":"deep","version":"1","language":"go"},"ops":["grep.result","glob.result","search.present","run_code.result","retain.items","retain.text","spill.preview"]}` + "\n")
		case bytes.Contains(line, []byte(`"cmd":"bye"`)):
			w.Flush()
			return
		default:
			i := bytes.Index(line, []byte(`"id":"`)) + 6
			j := bytes.IndexByte(line[i:], '"')
			w.WriteString(`{"id":"`)
			w.Write(line[i : i+j])
			w.WriteString(`","output":{"meta":` + deep + "}}\n")
		}
		w.Flush()
	}
}
