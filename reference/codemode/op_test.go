package codemode_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/registry"
)

var _ = Describe("FailureText (CODE-FAIL-1/2, code-mode.md §5)", func() {
	DescribeTable("the §5 table through the op",
		func(run, want string) {
			out := resultOp(`{"args":{"code":"c","description":"d"},"run":` + run + `}`)
			Expect(out.IsError).To(BeTrue())
			Expect(out.Content).To(Equal(want))
			Expect(out.Error).To(Equal(&registry.ErrorInfo{Name: "CodeRunFailedError", Code: "CODE_RUN_FAILED"}))
			Expect(out.Meta).To(BeNil())
			Expect(out.View).To(BeNil())
		},
		Entry("output-limit with logs",
			`{"logs":["captured before failure"],"error":{"kind":"output-limit","message":"outer output exceeded 8 bytes"}}`,
			"Error: code run failed (output-limit): outer output exceeded 8 bytes\nCaptured output:\ncaptured before failure"),
		Entry("timeout with logs",
			`{"logs":["got this far"],"error":{"kind":"timeout","message":"compute budget exhausted (300ms busy)"}}`,
			"Error: code run failed (timeout): compute budget exhausted (300ms busy)\nCaptured output:\ngot this far"),
		Entry("abort without logs",
			`{"logs":[],"error":{"kind":"abort","message":"user-cancel"}}`,
			"Error: code run failed (abort): user-cancel"),
		Entry("a single empty log still adds the captured-output section",
			`{"logs":[""],"error":{"kind":"exception","message":"boom"}}`,
			"Error: code run failed (exception): boom\nCaptured output:\n"),
		Entry("the completion value of a failed run is discarded",
			`{"logs":["a","b"],"result":5,"error":{"kind":"exception","message":"with value"}}`,
			"Error: code run failed (exception): with value\nCaptured output:\na\nb"),
		Entry("invalid-output",
			`{"logs":[],"error":{"kind":"invalid-output","message":"program completion must be lossless JSON"}}`,
			"Error: code run failed (invalid-output): program completion must be lossless JSON"),
	)

	It("is the message without the Error: prefix", func() {
		Expect(codemode.FailureText("worker-exit", "exit 1", nil)).To(Equal("code run failed (worker-exit): exit 1"))
		Expect(codemode.FailureText("timeout", "t", []string{"x", ""})).To(Equal("code run failed (timeout): t\nCaptured output:\nx\n"))
	})

	It("renders a failure kind outside CODE-FAIL-1 as the real registry does", func() {
		var in codemode.ResultInput
		Expect(json.Unmarshal([]byte(`{"args":{"code":"c","description":"d"},"run":{"logs":[],"error":{"kind":"crash","message":"m"}}}`), &in)).To(Succeed())
		out, err := codemode.Result(in)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Content).To(Equal("Error: code run failed (crash): m"))
		Expect(*out.Error).To(Equal(*codemode.CodeRunFailed()))
	})

	It("prints a kind or message that is not a string as a template literal does (probed with node)", func() {
		var in codemode.ResultInput
		Expect(json.Unmarshal([]byte(`{"args":{"code":"c","description":"d"},"run":{"logs":[],"error":{"kind":1,"Message":"m"}}}`), &in)).To(Succeed())
		out, err := codemode.Result(in)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Content).To(Equal("Error: code run failed (1): undefined"))
	})
})

var _ = Describe("argument errors (CODE-ERR-1)", func() {
	DescribeTable("schema violations carry ToolArgsError and no call view",
		func(args, want string) {
			out := resultOp(`{"args":` + args + `,"run":{"logs":["never shown"],"result":1}}`)
			Expect(out.IsError).To(BeTrue())
			Expect(out.Content).To(Equal(want))
			Expect(out.Error).To(Equal(&registry.ErrorInfo{Name: "ToolArgsError", Code: "INVALID_ARGS"}))
			Expect(out.CallView).To(BeNil())
		},
		Entry("missing description", `{"code":"x"}`, `Error: invalid arguments: missing required property "description"`),
		Entry("description not a string", `{"code":"x","description":null}`, `Error: invalid arguments: "description" must be a string`),
		Entry("both missing", `{}`, `Error: invalid arguments: missing required property "code"; missing required property "description"`),
		Entry("a string", `"str"`, `Error: invalid arguments: "arguments" must be an object`),
		Entry("an array", `[]`, `Error: invalid arguments: "arguments" must be an object`),
		Entry("null", `null`, `Error: invalid arguments: "arguments" must be an object`),
		Entry("a number", `5`, `Error: invalid arguments: "arguments" must be an object`),
		// Probed upstream: missing properties are listed before type errors.
		Entry("missing before mistyped", `{"code":1}`, `Error: invalid arguments: missing required property "description"; "code" must be a string`),
		Entry("missing code, mistyped description", `{"description":1}`, `Error: invalid arguments: missing required property "code"; "description" must be a string`),
		Entry("both mistyped, schema order", `{"description":1,"code":2}`, `Error: invalid arguments: "code" must be a string; "description" must be a string`),
		Entry("last duplicate wins", `{"code":"a","description":"b","description":3}`, `Error: invalid arguments: "description" must be a string`),
	)

	It("treats an absent args member as not an object", func() {
		out := resultOp(`{"run":{"logs":[]}}`)
		Expect(out.Content).To(Equal(`Error: invalid arguments: "arguments" must be an object`))
	})

	DescribeTable("a blank description is a plain error that keeps the call view",
		func(description string) {
			args := jsonjs.ObjectValue(
				jsonjs.Member{Key: "code", Value: jsonjs.StringValue("x")},
				jsonjs.Member{Key: "description", Value: jsonjs.StringValue(description)},
			)
			out, err := codemode.Result(codemode.ResultInput{Args: args, Run: codemode.Run{Logs: []string{"l"}}})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.IsError).To(BeTrue())
			Expect(out.Content).To(Equal("Error: invalid description: expected a non-empty string"))
			Expect(out.Error).To(BeNil())
			Expect(out.CallView).To(Equal(registry.NewCallView(description, "execute", jsonjs.StringValue("x"))))
		},
		Entry("empty", ""),
		Entry("spaces", "   "),
		Entry("newline", "  \n"),
		Entry("NBSP and BOM", "\u00a0\ufeff"),
		Entry("ideographic space", "\u3000"),
	)

	DescribeTable("non-blank descriptions under ECMAScript trim run",
		func(description string) {
			args := jsonjs.ObjectValue(
				jsonjs.Member{Key: "code", Value: jsonjs.StringValue("x")},
				jsonjs.Member{Key: "description", Value: jsonjs.StringValue(description)},
			)
			out, err := codemode.Result(codemode.ResultInput{Args: args, Run: codemode.Run{Logs: []string{"l"}}})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.IsError).To(BeFalse())
			Expect(out.Content).To(Equal("l"))
		},
		Entry("U+0085", "\u0085"),
		Entry("U+200B", "\u200b"),
		Entry("U+180E", "\u180e"),
	)
})

var _ = Describe("CallView (CODE-PRESENT-1)", func() {
	It("is the generic execute card titled by the description", func() {
		view := codemode.CallView(parse(`{"code":"return 1","description":"Do a thing"}`))
		Expect(view).NotTo(BeNil())
		b, err := json.Marshal(view)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(`{"card":"generic","title":"Do a thing","kind":"execute","rawInput":"return 1"}`))
	})

	It("keeps a blank title verbatim", func() {
		Expect(codemode.CallView(parse(`{"code":"x","description":"   "}`))).
			To(Equal(registry.NewCallView("   ", "execute", jsonjs.StringValue("x"))))
	})

	It("allows extra members", func() {
		Expect(codemode.CallView(parse(`{"code":"c","description":"d","extra":1}`))).
			To(Equal(registry.NewCallView("d", "execute", jsonjs.StringValue("c"))))
	})

	DescribeTable("is nil when the arguments fail the schema",
		func(args string) { Expect(codemode.CallView(parse(args))).To(BeNil()) },
		Entry("no description", `{"code":"x"}`),
		Entry("code not a string", `{"code":1,"description":"d"}`),
		Entry("not an object", `"x"`),
		Entry("null", `null`),
	)
})

var _ = Describe("the run_code.result op", func() {
	It("serializes every member, absent ones as null (CODE-PRESENT-2/3)", func() {
		out := resultOp(`{"args":{"code":"return 1","description":"Do it"},"run":{"logs":["a","b"],"result":{"x":1}}}`)
		Expect(outputJSON(out)).To(Equal(`{"isError":false,"content":"a\nb\n{\n  \"x\": 1\n}","error":null,"meta":null,"view":null,` +
			`"callView":{"card":"generic","title":"Do it","kind":"execute","rawInput":"return 1"}}`))
	})

	It("tells an absent result from a null one", func() {
		Expect(resultOp(`{"args":{"code":"c","description":"d"},"run":{"logs":["a"]}}`).Content).To(Equal("a"))
		Expect(resultOp(`{"args":{"code":"c","description":"d"},"run":{"logs":["a"],"result":null}}`).Content).To(Equal("a\nnull"))
		Expect(resultOp(`{"args":{"code":"c","description":"d"},"run":{"logs":[],"result":null}}`).Content).To(Equal("null"))
	})

	It("serializes error info and a null call view", func() {
		Expect(outputJSON(resultOp(`{"args":{},"run":{"logs":[]}}`))).To(Equal(
			`{"isError":true,"content":"Error: invalid arguments: missing required property \"code\"; missing required property \"description\"",` +
				`"error":{"name":"ToolArgsError","code":"INVALID_ARGS"},"meta":null,"view":null,"callView":null}`))
	})

	It("keeps lone surrogates of logs and escapes them as JSON.stringify does", func() {
		out := resultOp(`{"args":{"code":"c","description":"d"},"run":{"logs":["a\ud800"],"result":"\udc00"}}`)
		Expect(out.Content).To(Equal("a\xed\xa0\x80\n\xed\xb0\x80"))
		Expect(outputJSON(out)).To(ContainSubstring(`"content":"a\ud800\n\udc00"`))
	})

	// Checked with node: -0 and ±Infinity fail the registry's snapshot; a
	// failed run discards its value before that check.
	DescribeTable("rejects a result that is not lossless JSON (CODE-LOSSLESS-1)",
		func(result string) {
			out := resultOp(`{"args":{"code":"c","description":"d"},"run":{"logs":["x"],"result":` + result + `}}`)
			Expect(outputJSON(out)).To(Equal(`{"isError":true,"content":"Error: tool \"run_code\" returned invalid output: value is not lossless JSON",` +
				`"error":{"name":"ToolOutputError","code":"INVALID_TOOL_OUTPUT"},"meta":null,"view":null,` +
				`"callView":{"card":"generic","title":"d","kind":"execute","rawInput":"c"}}`))
		},
		Entry("-0", `-0`),
		Entry("nested -0", `[1,[-0.0]]`),
		Entry("overflow to Infinity", `{"a":{"b":1e400}}`),
		Entry("overflow to -Infinity", `[-1e400]`),
	)

	It("accepts tiny and zero numbers as lossless", func() {
		Expect(resultOp(`{"args":{"code":"c","description":"d"},"run":{"logs":[],"result":[0,-1e-320]}}`).Content).
			To(Equal("[\n  0,\n  -1e-320\n]"))
	})

	It("reports the failure, not the invalid value, of a failed run", func() {
		out := resultOp(`{"args":{"code":"c","description":"d"},"run":{"logs":["a"],"result":-0,"error":{"kind":"exception","message":"boom"}}}`)
		Expect(out.Content).To(Equal("Error: code run failed (exception): boom\nCaptured output:\na"))
		Expect(out.Error.Code).To(Equal("CODE_RUN_FAILED"))
	})

	It("does not alias the shared ToolArgsError value", func() {
		out := resultOp(`{"args":{},"run":{"logs":[]}}`)
		out.Error.Name = "changed"
		Expect(registry.ToolArgsError.Name).To(Equal("ToolArgsError"))
	})

	DescribeTable("rejects malformed runs",
		func(run, msg string) {
			var in codemode.ResultInput
			Expect(json.Unmarshal([]byte(`{"args":{},"run":`+run+`}`), &in)).To(MatchError(ContainSubstring(msg)))
		},
		Entry("not an object", `[]`, "$: want an object, got array"),
		Entry("a failed run without logs", `{"error":{"kind":"abort","message":"m"}}`, "$.logs: want an array, got nothing"),
		Entry("a failed run's logs not strings", `{"logs":[1],"error":{"kind":"abort","message":"m"}}`, "$.logs[0]: want a string, got number"),
		Entry("names are exact", `{"Logs":[],"error":{"kind":"abort","message":"m"}}`, "$.logs: want an array, got nothing"),
		Entry("an error that is not an object", `{"logs":[],"error":"x"}`, "$.error: want an object, got string"),
	)

	DescribeTable("gives the registry's invalid-output result for a completed run whose logs break the schema (probed with node)",
		func(run, content string) {
			var in codemode.ResultInput
			Expect(json.Unmarshal([]byte(`{"args":{"code":"c","description":"d"},"run":`+run+`}`), &in)).To(Succeed())
			out, err := codemode.Result(in)
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Content).To(Equal(content))
			Expect(*out.Error).To(Equal(*codemode.ToolOutputError()))
		},
		Entry("no logs", `{"result":1}`, `Error: tool "run_code" returned invalid output: value is not lossless JSON`),
		Entry("logs not strings", `{"logs":[1,"a",null]}`, `Error: tool "run_code" returned invalid output: "value.logs[0]" must be a string; "value.logs[2]" must be a string`),
		Entry("logs not an array", `{"logs":{}}`, `Error: tool "run_code" returned invalid output: "value.logs" must be an array`),
	)
})
