// Package spec is the machine-readable form of the DeepSeek Harness
// tool-result contract digest: the requirement catalogue (every requirement
// ID with its level, area, statement and upstream source) and the JSON
// Schemas of the shapes conform exchanges or reads (reference-op inputs and
// outputs, search meta and views, session-log events).
//
// Both are embedded so that the reference implementation, the generators and
// the log checker agree on one copy, and so that a conform binary needs no
// files at run time.
package spec

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

//go:embed requirements.yaml schemas/*.json
var files embed.FS

// SchemaBaseURL is the prefix of every embedded schema's $id; a schema named
// n has the $id SchemaBaseURL + n + ".json", and cross-file $refs resolve
// against it without any network access.
const SchemaBaseURL = "https://dsh-conform.github.io/conform/spec/schemas/"

// Levels and areas a catalogue entry may carry.
var (
	Levels = []string{"MUST", "SHOULD", "MAY"}
	Areas  = []string{"retention", "search", "codemode", "spill", "log"}
)

// Requirement is one normative statement of the digest. The ID is stable:
// reports, vectors and exclusions refer to it.
type Requirement struct {
	ID        string `yaml:"id"`
	Level     string `yaml:"level"`
	Area      string `yaml:"area"`
	Title     string `yaml:"title"`
	Statement string `yaml:"statement"`
	Digest    string `yaml:"digest"`
	Source    string `yaml:"source"`
	// Scope, when set, is the one implementation language the requirement
	// binds (SEARCH-JSON-2 speaks of Go's encoding/json): a harness whose
	// handshake names another language cannot break it.
	Scope string `yaml:"scope,omitempty"`
	// Exclusion, when set, records why conform deliberately does not check
	// this requirement, so that reports can show it as excluded rather than
	// silently uncovered.
	Exclusion *Exclusion `yaml:"exclusion,omitempty"`
}

// Binds reports whether the requirement binds a harness written in
// language, as its handshake names it (case-insensitively; "golang" is
// "go"). A harness that names no language may be written in any, so every
// requirement binds it.
func (r Requirement) Binds(language string) bool {
	if r.Scope == "" || language == "" {
		return true
	}
	l := strings.ToLower(strings.TrimSpace(language))
	if l == "golang" {
		l = "go"
	}
	return l == r.Scope
}

// Exclusion explains why a requirement is not checked.
type Exclusion struct {
	Reason string `yaml:"reason"`
}

type catalogueFile struct {
	Version      int           `yaml:"version"`
	Requirements []Requirement `yaml:"requirements"`
}

var catalogue struct {
	once sync.Once
	reqs []Requirement
	byID map[string]int
	err  error
}

func loadCatalogue() {
	c := &catalogue
	data, err := files.ReadFile("requirements.yaml")
	if err != nil {
		c.err = fmt.Errorf("spec: %w", err)
		return
	}
	var f catalogueFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	// Unknown keys are typos in a hand-checked file; refuse them.
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		c.err = fmt.Errorf("spec: requirements.yaml: %w", err)
		return
	}
	if f.Version != 1 {
		c.err = fmt.Errorf("spec: requirements.yaml: unsupported version %d", f.Version)
		return
	}
	c.byID = make(map[string]int, len(f.Requirements))
	for i, r := range f.Requirements {
		if r.ID == "" {
			c.err = fmt.Errorf("spec: requirements.yaml: entry %d has no id", i)
			return
		}
		if _, dup := c.byID[r.ID]; dup {
			c.err = fmt.Errorf("spec: requirements.yaml: duplicate id %s", r.ID)
			return
		}
		c.byID[r.ID] = i
	}
	c.reqs = f.Requirements
}

// Catalogue returns every requirement in digest order. The slice is a copy;
// the embedded file is parsed once.
func Catalogue() ([]Requirement, error) {
	catalogue.once.Do(loadCatalogue)
	if catalogue.err != nil {
		return nil, catalogue.err
	}
	out := make([]Requirement, len(catalogue.reqs))
	copy(out, catalogue.reqs)
	for i := range out {
		out[i] = detach(out[i])
	}
	return out, nil
}

// Lookup returns the requirement with the given ID. It reports false for an
// unknown ID or an unreadable catalogue.
func Lookup(id string) (Requirement, bool) {
	catalogue.once.Do(loadCatalogue)
	if catalogue.err != nil {
		return Requirement{}, false
	}
	i, ok := catalogue.byID[id]
	if !ok {
		return Requirement{}, false
	}
	return detach(catalogue.reqs[i]), true
}

// detach copies a requirement's pointer fields so callers cannot edit the
// cached catalogue.
func detach(r Requirement) Requirement {
	if r.Exclusion != nil {
		e := *r.Exclusion
		r.Exclusion = &e
	}
	return r
}

// IDs returns every requirement ID in digest order (nil if the catalogue is
// unreadable; Catalogue reports why).
func IDs() []string {
	reqs, err := Catalogue()
	if err != nil {
		return nil
	}
	ids := make([]string, len(reqs))
	for i, r := range reqs {
		ids[i] = r.ID
	}
	return ids
}

var schemas struct {
	once     sync.Once
	names    []string
	compiled map[string]*jsonschema.Schema
	errs     map[string]error
	err      error
}

// loadSchemas compiles every embedded schema with one compiler that knows
// all of them by $id, so cross-file $refs never leave the binary.
func loadSchemas() {
	s := &schemas
	entries, err := fs.Glob(files, "schemas/*.json")
	if err != nil {
		s.err = fmt.Errorf("spec: %w", err)
		return
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	// Refuse to fetch anything: every reference must be an embedded schema.
	c.UseLoader(jsonschema.SchemeURLLoader{})
	for _, p := range entries {
		name := strings.TrimSuffix(path.Base(p), ".json")
		data, err := files.ReadFile(p)
		if err != nil {
			s.err = fmt.Errorf("spec: %w", err)
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			s.err = fmt.Errorf("spec: schema %s: %w", name, err)
			return
		}
		if err := c.AddResource(SchemaBaseURL+name+".json", doc); err != nil {
			s.err = fmt.Errorf("spec: schema %s: %w", name, err)
			return
		}
		s.names = append(s.names, name)
	}
	sort.Strings(s.names)
	s.compiled = make(map[string]*jsonschema.Schema, len(s.names))
	s.errs = make(map[string]error)
	for _, name := range s.names {
		sch, err := c.Compile(SchemaBaseURL + name + ".json")
		if err != nil {
			s.errs[name] = fmt.Errorf("spec: schema %s: %w", name, err)
			continue
		}
		s.compiled[name] = sch
	}
}

// SchemaNames returns the names of the embedded schemas (file names without
// .json), sorted.
func SchemaNames() []string {
	schemas.once.Do(loadSchemas)
	return append([]string(nil), schemas.names...)
}

// Schema returns the compiled embedded schema schemas/<name>.json (draft
// 2020-12). Its validation errors carry the schema's $id, which ends in the
// name, and the failing instance locations; Validate and ValidateJSON add
// the name explicitly.
func Schema(name string) (*jsonschema.Schema, error) {
	schemas.once.Do(loadSchemas)
	if schemas.err != nil {
		return nil, schemas.err
	}
	if err, ok := schemas.errs[name]; ok {
		return nil, err
	}
	sch, ok := schemas.compiled[name]
	if !ok {
		return nil, fmt.Errorf("spec: no schema named %q", name)
	}
	return sch, nil
}

// ValidationError reports an instance rejected by an embedded schema.
type ValidationError struct {
	// Schema is the schema name, e.g. "search-meta".
	Schema string
	// Paths are the JSON Pointers of the instance locations where the
	// innermost failures occurred ("" is the whole instance).
	Paths []string
	// Err is the validator's full error tree.
	Err *jsonschema.ValidationError
}

func (e *ValidationError) Error() string {
	quoted := make([]string, len(e.Paths))
	for i, p := range e.Paths {
		quoted[i] = "'" + p + "'"
	}
	return fmt.Sprintf("spec: schema %s rejects the instance at %s: %v", e.Schema, strings.Join(quoted, ", "), e.Err)
}

func (e *ValidationError) Unwrap() error { return e.Err }

// Validate checks a decoded JSON instance (as produced by
// jsonschema.UnmarshalJSON or encoding/json) against the named schema.
func Validate(name string, instance any) error {
	sch, err := Schema(name)
	if err != nil {
		return err
	}
	err = sch.Validate(instance)
	if err == nil {
		return nil
	}
	verr, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return fmt.Errorf("spec: schema %s: %w", name, err)
	}
	return &ValidationError{Schema: name, Paths: leafPaths(verr), Err: verr}
}

// ValidateJSON decodes one JSON text and validates it against the named
// schema. Numbers are kept exact (json.Number), so values such as 1e400 or
// 2^53+1 are judged as written rather than after a float64 round trip.
func ValidateJSON(name string, data []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("spec: schema %s: instance is not JSON: %w", name, err)
	}
	return Validate(name, doc)
}

func leafPaths(e *jsonschema.ValidationError) []string {
	seen := map[string]bool{}
	var out []string
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			p := ""
			for _, tok := range e.InstanceLocation {
				p += "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
			}
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(e)
	return out
}
