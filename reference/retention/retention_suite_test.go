package retention_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestRetention(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "reference/retention")
}
