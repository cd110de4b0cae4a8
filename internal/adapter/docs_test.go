package adapter_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
)

// harnessStub stands for "./harness" in the JavaScript example.
const harnessStub = `
exports.retainItems = (input) => {
  if (input.strategy.maxItems < 0) throw new Error("maxItems must be a non-negative integer");
  return { items: input.items.slice(0, input.strategy.maxItems) };
};
exports.spillPreview = () => { throw "not an Error"; };
`

var _ = Describe("the JavaScript example in docs/protocol.md", func() {
	var dir string

	BeforeEach(func() {
		if _, err := exec.LookPath("node"); err != nil {
			Skip("node is not installed")
		}
		doc, err := os.ReadFile("../../docs/protocol.md")
		Expect(err).NotTo(HaveOccurred())
		m := regexp.MustCompile("(?s)## A minimal adapter in JavaScript.*?```js\n(.*?)```").FindSubmatch(doc)
		Expect(m).NotTo(BeNil(), "no js block under the heading")
		dir = GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "adapter.js"), m[1], 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "harness.js"), []byte(harnessStub), 0o644)).To(Succeed())
	})

	for _, execMode := range []bool{false, true} {
		It("is a working adapter (exec mode "+map[bool]string{false: "off", true: "on"}[execMode]+")", func() {
			ctx := context.Background()
			s := start(adapter.Config{Argv: []string{"node", "adapter.js"}, Dir: dir, Exec: execMode})
			Expect(s.Hello()).To(Equal(adapter.Hello{Protocol: 1, Implementation: adapter.Implementation{
				Name: "my-harness", Version: "1.2.3", Language: "javascript", Homepage: "https://example.com",
			}, Ops: []string{"retain.items", "spill.preview"}}))

			r, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(r.Output)).To(Equal(`{"items":[1]}`))
			r, err = s.Run(ctx, "c2", itemsOp, []byte(itemsThrow))
			Expect(err).NotTo(HaveOccurred())
			Expect(*r.Error).To(Equal("maxItems must be a non-negative integer"))
			r, err = s.Run(ctx, "c3", "spill.preview", []byte(`{}`))
			Expect(err).NotTo(HaveOccurred())
			Expect(*r.Error).To(Equal("not an Error"))
			r, err = s.Run(ctx, "c4", "grep.result", []byte(`{}`))
			Expect(err).NotTo(HaveOccurred())
			Expect(*r.Skip).To(Equal("grep.result is not implemented"))
			Expect(s.Close()).To(Succeed()) // exits 0 on bye
		})
	}
})
