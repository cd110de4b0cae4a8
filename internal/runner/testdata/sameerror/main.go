// Command sameerror is an adapter (protocol v1) that answers every case
// with one and the same error message of $SAMEERROR_BYTES bytes (default
// 1 MiB): the shape of issue 21's amplification, where each case's result
// kept its own copy of the message. Build it and measure a run:
//
//	go build -o /tmp/sameerror ./internal/runner/testdata/sameerror
//	/usr/bin/time -v conform run --format json --out /dev/null -- /tmp/sameerror
//
// It lives under testdata so that go build ./... and go vet ./... leave it
// alone.
package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

func main() {
	size := 1 << 20
	if n, err := strconv.Atoi(os.Getenv("SAMEERROR_BYTES")); err == nil && n > 0 {
		size = n
	}
	message := strings.Repeat("the same error ", size/15+1)[:size]
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return
		}
		switch {
		case strings.Contains(line, `"cmd":"hello"`):
			out.WriteString(`{"protocol":1,"implementation":{"name":"sameerror","version":"1","language":"go"},` +
				`"ops":["grep.result","glob.result","search.present","run_code.result","retain.items","retain.text","spill.preview"]}` + "\n")
		case strings.Contains(line, `"cmd":"bye"`):
			return
		default:
			// The id is the first string after "id":" (conform's ids hold no quote).
			id := line[strings.Index(line, `"id":"`)+6:]
			id = id[:strings.IndexByte(id, '"')]
			out.WriteString(`{"id":"` + id + `","error":{"message":"` + message + `"}}` + "\n")
		}
		out.Flush()
	}
}
