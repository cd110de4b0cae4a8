package diagnosis_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestDiagnosis(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "internal/diagnosis")
}
