package logcheck_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestLogcheck(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "internal/logcheck")
}
