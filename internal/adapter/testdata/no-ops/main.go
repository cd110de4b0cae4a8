// no-ops answers the handshake with an empty ops list ("ops":[], a valid
// handshake: every case is unsupported), or, run as `no-ops missing`,
// without an "ops" member at all (a start fault).
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/dsh-conform/conform/internal/adapter"
)

type harness struct{ adapter.Harness }

func (harness) Ops() []string { return []string{} }

func main() {
	if len(os.Args) > 1 && os.Args[1] == "missing" {
		in := bufio.NewReader(os.Stdin)
		_, _ = in.ReadString('\n')
		fmt.Println(`{"protocol":1,"implementation":{"name":"no-ops","language":"go"}}`)
		_, _ = io.Copy(io.Discard, in)
		return
	}
	impl := adapter.Implementation{Name: "no-ops", Language: "go"}
	_ = adapter.Serve(context.Background(), os.Stdin, os.Stdout, harness{adapter.Reference()}, impl)
}
