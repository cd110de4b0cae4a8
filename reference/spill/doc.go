// Package spill is the reference for the generic output spill policy
// (spill.md): when a plain-text tool result is larger than maxInlineBytes,
// the full text goes to a spill artifact and the model-facing content (or
// the durable dispatch-log copy) becomes a head/tail preview plus a notice
// naming the artifact.
//
// Sizes are UTF-8 bytes of JS strings: strings are held as WTF-8 and a lone
// surrogate counts as the 3 bytes of U+FFFD (jsonjs.UTF8Len). The store
// itself is outside this package: callers pass the reference a successful
// save returned, or report that the save failed.
package spill
