package runner_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
)

// adapterEnv makes the test binary an adapter process serving the
// reference on stdin/stdout ("1"), or deepHarness ("deep"), so that the
// suite can drive a real process session end to end.
const adapterEnv = "CONFORM_RUNNER_TEST_ADAPTER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(adapterEnv); mode != "" {
		var h adapter.Harness = adapter.Reference()
		if mode == "deep" {
			h = deepHarness{}
		}
		if err := adapter.Serve(context.Background(), os.Stdin, os.Stdout, h, adapter.ReferenceImplementation()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestRunner(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "internal/runner")
}
