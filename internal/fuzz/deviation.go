package fuzz

import (
	"math"
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Deviation models: variants of the reference that a harness may behave
// like, each a named cause (issue 20 asks for a catalogue; this is its
// seam and its first family). A model turns an op input into inputs the
// reference is run on; when the harness's answer to the input is the
// reference's answer to a variant, the variant's cause explains the
// failure, and every failure it explains is one finding (group.go).

// deviant is the reference run on another input: cause names it.
type deviant struct {
	cause string
	value jsonjs.Value
}

// model returns the variants of an input value worth trying.
type model func(op string, v jsonjs.Value) []deviant

// models is the catalogue, tried in order.
var models = []model{offByOneSetting, dropsEmptyStrings}

// maxSettings bounds the settings offByOneSetting tries (two exchanges
// each).
const maxSettings = 12

// offByOneSetting is the cap and window off-by-one (issue 20): an integer
// setting of the input, a member reached through objects only (config
// caps, argument limits: "config.maxLineBytes", "args.timeoutMs"), read
// one less or one more than given.
func offByOneSetting(_ string, v jsonjs.Value) []deviant {
	var out []deviant
	type leaf struct {
		path []string
		x    float64
	}
	var leaves []leaf
	var collect func(path []string, v jsonjs.Value)
	collect = func(path []string, v jsonjs.Value) {
		members, ok := v.Members()
		if !ok {
			if x, ok := v.Float(); ok && len(path) > 0 && x == math.Trunc(x) && math.Abs(x) < 1<<53 {
				leaves = append(leaves, leaf{append([]string(nil), path...), x})
			}
			return
		}
		for _, m := range members {
			if len(leaves) < maxSettings {
				collect(append(path, m.Key), m.Value)
			}
		}
	}
	collect(nil, v)
	for _, l := range leaves {
		for _, d := range []float64{-1, 1} {
			out = append(out, deviant{
				cause: settingCause(l.path, d),
				value: setAt(v, l.path, jsonjs.NumberValue(l.x+d)),
			})
		}
	}
	return out
}

func settingCause(path []string, d float64) string {
	dir := "one less"
	if d > 0 {
		dir = "one more"
	}
	return "reads the setting " + quotedPath(path) + " as " + dir + " than given"
}

// setAt returns v with the member at path (objects only) set to x.
func setAt(v jsonjs.Value, path []string, x jsonjs.Value) jsonjs.Value {
	if len(path) == 0 {
		return x
	}
	child, _ := v.Get(path[0])
	return v.With(path[0], setAt(child, path[1:], x))
}

// variantInput is a variant's input text, as a case's.
func variantInput(v jsonjs.Value) []byte { return generators.Case{Input: v}.InputText() }

// dropsEmptyStrings is the "blank lines filtered" port (issue 20): a list
// of strings reached through objects ("run"."logs") read without its
// empty entries, as a port that drops blank lines before joining does.
func dropsEmptyStrings(_ string, root jsonjs.Value) []deviant {
	var out []deviant
	var walk func(path []string, v jsonjs.Value)
	walk = func(path []string, v jsonjs.Value) {
		if items, ok := v.Items(); ok {
			kept := make([]jsonjs.Value, 0, len(items))
			for _, x := range items {
				s, isStr := x.Str()
				if !isStr {
					return
				}
				if s != "" {
					kept = append(kept, x)
				}
			}
			if len(kept) < len(items) && len(path) > 0 {
				out = append(out, deviant{
					cause: "drops the empty strings of " + quotedPath(path),
					value: setAt(root, path, jsonjs.ArrayValue(kept...)),
				})
			}
			return
		}
		members, _ := v.Members()
		for _, m := range members {
			walk(append(path[:len(path):len(path)], m.Key), m.Value)
		}
	}
	walk(nil, root)
	return out
}

// quotedPath is a member path as text: "config"."maxLineBytes".
func quotedPath(path []string) string {
	quoted := make([]string, len(path))
	for i, p := range path {
		quoted[i] = strconv.Quote(p)
	}
	return strings.Join(quoted, ".")
}
