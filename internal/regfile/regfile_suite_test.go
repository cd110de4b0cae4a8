package regfile_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestRegfile(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "internal/regfile")
}
