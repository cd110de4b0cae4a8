package sessionlog

import (
	"strconv"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A turn is rendered once into line templates: literal JSON bytes with holes
// for the values that differ between copies of the turn (seqs, times, the
// turn number and the tag that makes call and message ids unique). Valid
// fills them once per turn; Big fills the same templates over and over with
// fresh values, without allocating.

type holeKind uint8

const (
	partLit  holeKind = iota
	holeSeq           // the instance's first seq + off
	holeTime          // the instance's start time + off
	holeTurn          // the turn number
	holeTag           // the instance tag: 8 lowercase hex digits
)

type part struct {
	kind holeKind
	lit  []byte
	off  int64
}

// lineTmpl is one line of a turn.
type lineTmpl []part

// instance is what one copy of a turn is filled with.
type instance struct {
	seq  int64 // seq of the turn's first event
	time int64 // epoch ms the turn's time offsets count from
	turn int64
	tag  uint32
}

const hexDigits = "0123456789abcdef"

func appendTag(dst []byte, tag uint32) []byte {
	for shift := 28; shift >= 0; shift -= 4 {
		dst = append(dst, hexDigits[(tag>>uint(shift))&0xf])
	}
	return dst
}

// tagString is the tag as it appears inside ids.
func tagString(tag uint32) string { return string(appendTag(nil, tag)) }

func (l lineTmpl) appendTo(dst []byte, in instance) []byte {
	for i := range l {
		p := &l[i]
		switch p.kind {
		case partLit:
			dst = append(dst, p.lit...)
		case holeSeq:
			dst = strconv.AppendInt(dst, in.seq+p.off, 10)
		case holeTime:
			dst = strconv.AppendInt(dst, in.time+p.off, 10)
		case holeTurn:
			dst = strconv.AppendInt(dst, in.turn, 10)
		case holeTag:
			dst = appendTag(dst, in.tag)
		}
	}
	return dst
}

// turnTmpl is a rendered turn.
type turnTmpl struct {
	lines []lineTmpl
	seqs  int64 // seqs the turn consumes (packed rows count len(texts|args))
	span  int64 // time offset of its last event
}

// idRef is an id made unique by the instance tag: pre + tag + suf. pre and
// suf hold only characters JSON writes verbatim.
type idRef struct{ pre, suf string }

func (r idRef) with(tag uint32) string { return r.pre + tagString(tag) + r.suf }

// tw writes one line template.
type tw struct {
	parts []part
	buf   []byte
}

func (w *tw) flush() {
	if len(w.buf) > 0 {
		w.parts = append(w.parts, part{kind: partLit, lit: w.buf})
		w.buf = nil
	}
}

func (w *tw) raw(s string)       { w.buf = append(w.buf, s...) }
func (w *tw) str(s string)       { w.buf = jsonjs.AppendString(w.buf, s) }
func (w *tw) val(v jsonjs.Value) { w.buf = jsonjs.Append(w.buf, v) }
func (w *tw) num(i int64)        { w.buf = strconv.AppendInt(w.buf, i, 10) }
func (w *tw) hole(k holeKind, o int64) {
	w.flush()
	w.parts = append(w.parts, part{kind: k, off: o})
}

func (w *tw) boolean(b bool) {
	if b {
		w.raw("true")
	} else {
		w.raw("false")
	}
}

// id writes the JSON string of an idRef.
func (w *tw) id(r idRef) {
	w.raw(`"`)
	w.raw(r.pre)
	w.hole(holeTag, 0)
	w.raw(r.suf)
	w.raw(`"`)
}

// key writes `"k":` preceded by a comma unless first.
func (w *tw) key(k string, first bool) {
	if !first {
		w.raw(",")
	}
	w.str(k)
	w.raw(":")
}

func (w *tw) line() lineTmpl {
	w.flush()
	out := lineTmpl(w.parts)
	w.parts = nil
	return out
}
