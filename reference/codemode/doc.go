// Package codemode is the reference for the run_code tool's model-facing
// result (code-mode.md): the render text of a successful run, the failure
// text of a failed one, the argument checks and call view, and the log-only
// nested dispatch events with a validator for their sequence.
//
// Everything here is a pure function of its inputs. Strings are JS strings
// held as WTF-8 (see package jsonjs), so logs or results carrying lone
// surrogates survive unchanged until they are serialized.
package codemode
