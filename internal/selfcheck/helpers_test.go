package selfcheck_test

import "github.com/dsh-conform/conform/reference/jsonjs"

type jsonjsValue = jsonjs.Value

func mustParse(s string) jsonjs.Value {
	v, err := jsonjs.Parse([]byte(s))
	if err != nil {
		panic(err)
	}
	return v
}
