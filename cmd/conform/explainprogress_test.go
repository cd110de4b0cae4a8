package main

import (
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("conform run while it minimizes (issue 20)", func() {
	It("writes the progress line with the explaining phase where stderr is no terminal", func() {
		// wrong-meta adds 1 to every grep meta's total: no model explains
		// it, so each failing case is minimized after the last case.
		r := rtConform("run", "--op", "grep.result", "--run", "meta", "-j", "2", "--explain-time", "60s", "--progress-every", "1ms",
			"--adapter", rtAdapter("wrong-meta"))
		Expect(r.code).To(Equal(exitNonconform), r.stderr)
		Expect(r.stderr).To(MatchRegexp(`(?m)^conform run: (\d+)/\d+ cases \(100%\), .*; explaining \d+ cases?`))
		n := regexp.MustCompile(`explaining (\d+) cases?, (\d+) minimized`).FindAllStringSubmatch(r.stderr, -1)
		Expect(n).NotTo(BeEmpty(), r.stderr)
	})

	It("writes no progress line where nothing is minimized", func() {
		r := rtConform("run", "--op", "grep.result", "--explain-time", "60s", "--progress-every", "1ms")
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stderr).NotTo(ContainSubstring("conform run:"))
	})
})
