// close-stdout answers the handshake, then closes its stdout and goes on
// reading stdin until it ends: every case finds the end of stdout.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	if _, err := in.ReadString('\n'); err != nil {
		os.Exit(1)
	}
	fmt.Println(`{"protocol":1,"implementation":{"name":"close-stdout","language":"go"},"ops":["grep.result","glob.result","search.present","run_code.result","retain.items","retain.text","spill.preview"]}`)
	_ = os.Stdout.Close()
	fmt.Fprintln(os.Stderr, "close-stdout: stdout closed, still reading")
	_, _ = io.Copy(io.Discard, in)
}
