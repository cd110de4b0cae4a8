package main

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// rawHidden lists the raw control, bidi and format characters of out
// (line feeds and tabs aside).
func rawHidden(out string) []string {
	var bad []string
	for _, r := range out {
		if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 || unicode.In(r, unicode.Cf)) {
			bad = append(bad, string(r))
		}
	}
	return bad
}

// forged lists the lines of out that start with FORGED.
func forged(out string) []string {
	var bad []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "FORGED") {
			bad = append(bad, l)
		}
	}
	return bad
}

// hostileReference is the reference (conform adapter) behind sed: its
// handshake names it with a bidi override, and every output gains a member
// whose name sets the clipboard (OSC 52), erases the line and forges one.
func hostileReference() string {
	return script(`'` + bin + `' adapter | sed -u \
  -e '1s/"name":"conform reference"/"name":"impl \\u202eSSAP\\u202c \\u001b[2K"/' \
  -e 's/^\({"id":"[^"]*","output":{\)/\1"k\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u001b[2K\\rPASS retain.items\/gen-001\\nFORGED LINE":1,/'
`)
}

var _ = Describe("reports against a hostile adapter and hostile logs (issue 21: safe to read)", func() {
	It("run: an unexpected member's name and the handshake reach the text and Markdown reports inert", func() {
		for _, format := range []string{"text", "markdown"} {
			r := rtConform("run", "-j", "1", "--op", "retain.items", "--run", "gen-00[12]$", "--format", format, "--", hostileReference())
			Expect(r.code).To(Equal(exitNonconform), r.stderr)
			Expect(r.stdout).To(ContainSubstring(`52;c;cm0gLXJmIH4=`), "the member is reported")
			Expect(rawHidden(r.stdout)).To(BeEmpty(), format+":\n"+r.stdout)
			Expect(forged(r.stdout)).To(BeEmpty(), format)
			Expect(rawHidden(r.stderr)).To(BeEmpty(), format+" stderr")
		}
	})

	It("run: an adapter that fails to start reaches conform's stderr inert", func() {
		r := rtConform("run", "--op", "retain.items", "--", script("printf 'boom \\033]52;c;cm0gLXJmIH4=\\a\\342\\200\\256\\nFORGED\\n' >&2\nexit 1\n"))
		Expect(r.code).To(Equal(exitInfraFailed), r.stderr)
		Expect(r.stderr).To(ContainSubstring(`boom \x1b]52;c;cm0gLXJmIH4=\x07\u202e`))
		Expect(rawHidden(r.stderr)).To(BeEmpty(), r.stderr)
		Expect(forged(r.stderr)).To(BeEmpty(), r.stderr)
	})

	It("fuzz: the implementation name, messages and finding ids reach the text report inert", func() {
		r := rtConform("fuzz", "--op", "retain.items", "--cases", "3", "--seed", "1", "--", hostileReference())
		Expect(r.code).To(Equal(exitNonconform), r.stderr)
		Expect(r.stdout).To(ContainSubstring(`impl \u202eSSAP\u202c \x1b[2K`))
		Expect(rawHidden(r.stdout)).To(BeEmpty(), r.stdout)
		Expect(forged(r.stdout)).To(BeEmpty())
	})

	It("fuzz: the first finding's key reaches stderr inert when the report goes elsewhere", func() {
		r := rtConform("fuzz", "--op", "retain.items", "--cases", "3", "--seed", "1", "--format", "json", "--", hostileReference())
		Expect(r.code).To(Equal(exitNonconform), r.stderr)
		Expect(r.stderr).To(ContainSubstring(`52;c;cm0gLXJmIH4=`), "the key is said")
		Expect(rawHidden(r.stderr)).To(BeEmpty(), r.stderr)
		Expect(forged(r.stderr)).To(BeEmpty(), r.stderr)
	})

	It("check-log: a log's file name reaches the text and Markdown reports inert", func() {
		dir := GinkgoT().TempDir()
		name := filepath.Join(dir, "a\x1b]52;c;cm0gLXJmIH4=\a\u202e\nFORGED `` @team #1.jsonl")
		Expect(os.WriteFile(name, []byte(badLog), 0o644)).To(Succeed())
		for _, format := range []string{"text", "markdown"} {
			r := conform("", "check-log", "--format", format, name)
			Expect(r.code).To(Equal(1), r.stderr)
			Expect(rawHidden(r.stdout)).To(BeEmpty(), format+":\n"+r.stdout)
			Expect(forged(r.stdout)).To(BeEmpty(), format)
		}
	})
})
