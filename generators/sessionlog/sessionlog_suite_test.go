package sessionlog_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestSessionLog(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "generators/sessionlog")
}
