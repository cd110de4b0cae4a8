package generators_test

import (
	"testing"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A run_code input written by RunCodeInputValue reads back as the same
// text: result and error only when present, "result": null kept
// (CODE-RENDER-1), member order args, run {logs, result, error}.
func TestRunCodeInputValueRoundTrip(t *testing.T) {
	for _, text := range []string{
		`{"args":{"code":"c","description":"d"},"run":{"logs":["a"]}}`,
		`{"args":null,"run":{"logs":[],"result":null}}`,
		`{"args":{},"run":{"logs":["x"],"result":{"k":[1]},"error":{"kind":"abort","message":"m"}}}`,
	} {
		v, err := jsonjs.Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		in, err := codemode.DecodeResultInput(jsonjs.Root(v))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got := string(jsonjs.Marshal(generators.RunCodeInputValue(in))); got != text {
			t.Errorf("wrote %s\nwant  %s", got, text)
		}
		if got, err := generators.InputValue(in); err != nil || !jsonjs.Equal(got, v) {
			t.Errorf("InputValue(%s) = %s, %v", text, jsonjs.Marshal(got), err)
		}
	}
}
