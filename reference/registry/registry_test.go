package registry_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/registry"
)

func TestRegistry(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "reference/registry")
}

var params = []registry.Param{{Name: "code", Required: true}, {Name: "description", Required: true}, {Name: "extra"}}

var _ = DescribeTable("CheckArgs lists missing properties first, then type errors, each in parameter order",
	func(args string, want []string) {
		v, err := jsonjs.Parse([]byte(args))
		Expect(err).NotTo(HaveOccurred())
		Expect(registry.CheckArgs(v, params)).To(Equal(want))
	},
	Entry("valid, extra members allowed", `{"code":"x","description":"d","other":1}`, nil),
	Entry("not an object", `[]`, []string{`"arguments" must be an object`}),
	Entry("null", `null`, []string{`"arguments" must be an object`}),
	Entry("both missing", `{}`, []string{`missing required property "code"`, `missing required property "description"`}),
	Entry("missing after mistyped", `{"code":1}`, []string{`missing required property "description"`, `"code" must be a string`}),
	Entry("optional mistyped", `{"code":"x","description":"d","extra":null}`, []string{`"extra" must be a string`}),
)

var _ = It("wraps messages in the registry envelope", func() {
	Expect(registry.ErrorText(registry.ArgsErrorMessage([]string{"a", "b"}))).To(Equal("Error: invalid arguments: a; b"))
})

var _ = It("keeps a lone surrogate in a call view title as JSON.stringify does", func() {
	v, err := jsonjs.Parse([]byte(`"\ud800x"`))
	Expect(err).NotTo(HaveOccurred())
	title, _ := v.Str()
	b, err := registry.NewCallView("Grep "+title, "search", v).MarshalJSON()
	Expect(err).NotTo(HaveOccurred())
	Expect(string(b)).To(Equal(`{"card":"generic","title":"Grep \ud800x","kind":"search","rawInput":"\ud800x"}`))
})
