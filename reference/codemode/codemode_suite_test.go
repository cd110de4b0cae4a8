package codemode_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCodemode(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "reference/codemode")
}
