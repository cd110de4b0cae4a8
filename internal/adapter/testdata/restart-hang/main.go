// restart-hang MARKER [N] starts N times (default 1): the first N
// processes each claim a file MARKER.<i>, answer the handshake and exit on
// their first run; every later process finds no file to claim, says so on
// stderr and hangs without answering the handshake. Run with N jobs, every
// job starts once and its restarts hang.
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
)

type harness struct{ adapter.Harness }

func (harness) Run(string, []byte) ([]byte, error) {
	fmt.Fprintln(os.Stderr, "restart-hang: crashing on the first run")
	os.Exit(3)
	return nil, nil
}

func main() {
	n := 1
	if len(os.Args) > 2 {
		n, _ = strconv.Atoi(os.Args[2])
	}
	if !claim(os.Args[1], n) {
		fmt.Fprintln(os.Stderr, "restart-hang: stuck loading the harness")
		time.Sleep(time.Hour)
	}
	impl := adapter.Implementation{Name: "restart-hang", Language: "go"}
	_ = adapter.Serve(context.Background(), os.Stdin, os.Stdout, harness{adapter.Reference()}, impl)
}

// claim creates the first of MARKER.1 … MARKER.n that does not exist yet.
func claim(marker string, n int) bool {
	for i := 1; i <= n; i++ {
		f, err := os.OpenFile(marker+"."+strconv.Itoa(i), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			_ = f.Close()
			return true
		}
	}
	return false
}
