package baseline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Parse parses baseline YAML; source names it in errors and positions. The
// document is a sequence of entries (an empty document is an empty
// baseline). Parse checks the structure: known keys only, no duplicate
// keys, scalar values, a non-empty reason, at least one of requirement and
// id, no file on a case entry, valid globs, no duplicate entries. All
// structural problems are returned at once (the first MaxErrors), each as "source:line: …".
// Whether the names exist is Validate's job.
func Parse(source string, data []byte) (*Baseline, error) {
	b := &Baseline{Source: source}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		return nil, yamlError(source, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, fmt.Errorf("%s:%d: a baseline is one YAML document; found a second one", source, extra.Line)
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(source, err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return b, nil
		}
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return b, nil
	}
	if root.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s:%d: a baseline is a YAML list of entries ({requirement, file?, id?, reason, issue?}), not a %s", source, root.Line, kindName(root))
	}
	var errs []error
	fail := func(line int, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s:%d: %s", source, line, fmt.Sprintf(format, args...)))
	}
	seen := map[string]*Entry{}
	for i, n := range root.Content {
		if n.Kind != yaml.MappingNode {
			fail(n.Line, "entry %d is a %s, not a mapping", i+1, kindName(n))
			continue
		}
		e := &Entry{Pos: Pos{File: source, Line: n.Line}}
		set := map[string]bool{}
		ok := true
		for k := 0; k+1 < len(n.Content); k += 2 {
			key, val := n.Content[k], n.Content[k+1]
			if key.Kind != yaml.ScalarNode {
				fail(key.Line, "entry %d: keys are plain words", i+1)
				ok = false
				continue
			}
			var dst *string
			switch key.Value {
			case "requirement":
				dst = &e.Requirement
			case "file":
				dst = &e.File
			case "id":
				dst = &e.ID
			case "reason":
				dst = &e.Reason
			case "issue":
				dst = &e.Issue
			default:
				fail(key.Line, "entry %d: unknown key %q (known: requirement, file, id, reason, issue)", i+1, key.Value)
				ok = false
				continue
			}
			if set[key.Value] {
				fail(key.Line, "entry %d: duplicate key %q", i+1, key.Value)
				ok = false
				continue
			}
			set[key.Value] = true
			if val.Kind != yaml.ScalarNode || val.Tag == "!!null" {
				fail(val.Line, "entry %d: %s must be a string, not a %s", i+1, key.Value, kindName(val))
				ok = false
				continue
			}
			*dst = strings.TrimSpace(val.Value)
		}
		if !ok {
			continue
		}
		if e.Requirement == "" && e.ID == "" {
			fail(n.Line, "entry %d: needs a requirement (a requirement ID) or an id (a runner case id)", i+1)
			continue
		}
		if e.Reason == "" {
			fail(n.Line, "entry %d: needs a non-empty reason", i+1)
			continue
		}
		if e.File != "" && e.ID != "" {
			fail(n.Line, "entry %d: file applies to log findings, id to runner cases; use one or the other", i+1)
			continue
		}
		if e.File != "" {
			re, err := compileGlob(e.File)
			if err != nil {
				fail(n.Line, "entry %d: %v", i+1, err)
				continue
			}
			e.glob = re
		}
		key := e.Requirement + "\x00" + e.ID + "\x00" + e.File
		if prev, dup := seen[key]; dup {
			fail(n.Line, "entry %d repeats the entry at line %d", i+1, prev.Pos.Line)
			continue
		}
		seen[key] = e
		b.Entries = append(b.Entries, e)
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	return b, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.AliasNode:
		return "alias"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return "scalar"
	}
	return "YAML node"
}

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// yamlError rewrites a go-yaml error ("yaml: line 3: …", or a list of
// "line N: …" items) into "source:3: …" lines.
func yamlError(source string, err error) error {
	var te *yaml.TypeError
	var msgs []string
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	var errs []error
	for _, m := range msgs {
		m = strings.TrimSpace(m)
		if sm := yamlLine.FindStringSubmatch(m); sm != nil {
			line, _ := strconv.Atoi(sm[1])
			errs = append(errs, fmt.Errorf("%s:%d: %s", source, line, sm[2]))
			continue
		}
		errs = append(errs, fmt.Errorf("%s: %s", source, strings.TrimPrefix(m, "yaml: ")))
	}
	return joinErrors(errs)
}
