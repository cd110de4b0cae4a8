// ignore-bye serves the reference but does not exit on bye or at the end
// of stdin: it ignores SIGTERM and sleeps, so conform must kill it.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
)

func main() {
	signal.Ignore(syscall.SIGTERM)
	impl := adapter.Implementation{Name: "ignore-bye", Language: "go"}
	_ = adapter.Serve(context.Background(), os.Stdin, os.Stdout, adapter.Reference(), impl)
	fmt.Fprintln(os.Stderr, "ignore-bye: not leaving")
	time.Sleep(time.Hour)
}
