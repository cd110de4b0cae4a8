package jsonjs_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestJSONJS(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "reference/jsonjs")
}
