package jsonjs_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

var _ = Describe("Value.With", func() {
	It("replaces a member in place, appends a new one, and leaves the original alone", func() {
		orig, err := jsonjs.Parse([]byte(`{"a":1,"b":2}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(jsonjs.Marshal(orig.With("a", jsonjs.IntValue(9))))).To(Equal(`{"a":9,"b":2}`))
		Expect(string(jsonjs.Marshal(orig.With("c", jsonjs.BoolValue(true))))).To(Equal(`{"a":1,"b":2,"c":true}`))
		Expect(string(jsonjs.Marshal(orig))).To(Equal(`{"a":1,"b":2}`))
	})
	It("treats a non-object as the empty object", func() {
		Expect(string(jsonjs.Marshal(jsonjs.NullValue().With("k", jsonjs.StringValue("v"))))).To(Equal(`{"k":"v"}`))
	})
})
