package codemode_test

import (
	"encoding/json"

	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// parse parses JSON text with JS semantics and fails the spec on error.
func parse(text string) jsonjs.Value {
	v, err := jsonjs.Parse([]byte(text))
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), text)
	return v
}

// ptr returns a pointer to a parsed value: a present completion value.
func ptr(text string) *jsonjs.Value {
	v := parse(text)
	return &v
}

// resultOp runs run_code.result on an input given as JSON text.
func resultOp(input string) codemode.ResultOutput {
	var in codemode.ResultInput
	ExpectWithOffset(1, json.Unmarshal([]byte(input), &in)).To(Succeed(), input)
	out, err := codemode.Result(in)
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), input)
	return out
}

// outputJSON serializes an op output.
func outputJSON(out codemode.ResultOutput) string {
	b, err := json.Marshal(out)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return string(b)
}
