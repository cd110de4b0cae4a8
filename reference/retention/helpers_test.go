package retention_test

import (
	"bytes"
	"encoding/json"

	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
)

// toJSON marshals v like JSON.stringify would for these outputs (no HTML
// escaping).
func toJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	ExpectWithOffset(1, enc.Encode(v)).To(Succeed())
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// itemsOp decodes a retain.items input from JSON text and runs it.
func itemsOp(input string) (retention.ItemsOutput, error) {
	var in retention.ItemsInput
	ExpectWithOffset(1, json.Unmarshal([]byte(input), &in)).To(Succeed(), input)
	return retention.RetainItems(in)
}

// textOp decodes a retain.text input from JSON text and runs it.
func textOp(input string) (retention.TextOutput, error) {
	var in retention.TextInput
	ExpectWithOffset(1, json.Unmarshal([]byte(input), &in)).To(Succeed(), input)
	return retention.RetainText(in)
}

// jsString parses a JSON string literal with JS semantics (so \ud800 is a
// lone surrogate) and returns the WTF-8 string.
func jsString(literal string) string {
	v, err := jsonjs.Parse([]byte(literal))
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), literal)
	s, ok := v.Str()
	ExpectWithOffset(1, ok).To(BeTrue(), literal)
	return s
}

// num is a JSON number budget.
func num(f float64) jsonjs.Value { return jsonjs.NumberValue(f) }
