package main

import (
	"fmt"
	"slices"

	"github.com/dsh-conform/conform/reference"
)

type opsCmd struct{}

func (opsCmd) Run() error {
	for _, op := range reference.Ops() {
		fmt.Println(op)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
