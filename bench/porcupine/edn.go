package main

import (
	"fmt"
	"strconv"
	"strings"
)

// A reader for the one EDN shape the kv logs use: a map on one line whose keys are keywords and
// whose values are keywords, strings, integers or nil, e.g.
//
//	{:process 6, :type :invoke, :f :append, :key "0", :value "x 6 0 y"}
//
// Commas are whitespace, as in EDN; strings take EDN's escapes, as chaoslua's src/ingest/edn.ts
// reads them. Nested values are refused with a message rather than misread.

type ednKind uint8

const (
	ednNil ednKind = iota
	ednKeyword
	ednString
	ednInteger
)

type ednValue struct {
	kind    ednKind
	text    string // a keyword's name (no ':'), a string's contents, an integer's digits; "" for nil
	integer int
}

type ednLine struct {
	text string
	at   int
}

// readEdnMap calls field for each key and value of the map on this line, in order.
func readEdnMap(text string, field func(key string, value ednValue) error) error {
	r := ednLine{text: text}
	r.skip()
	if !r.eat('{') {
		return fmt.Errorf("expected an operation map {:process P, :type T, :f F, :key K, :value V}")
	}
	for {
		r.skip()
		if r.eat('}') {
			break
		}
		if r.at >= len(r.text) {
			return fmt.Errorf("expected '}' to close the map before the end of the line")
		}
		key, err := r.value()
		if err != nil {
			return err
		}
		if key.kind != ednKeyword {
			return fmt.Errorf("expected a keyword as map key, got %q", key.text)
		}
		r.skip()
		value, err := r.value()
		if err != nil {
			return err
		}
		if err := field(key.text, value); err != nil {
			return err
		}
	}
	r.skip()
	if r.at < len(r.text) {
		return fmt.Errorf("expected the line to end after the map, got %q", r.text[r.at:])
	}
	return nil
}

func (r *ednLine) skip() {
	for r.at < len(r.text) && strings.IndexByte(" ,\t\r\f", r.text[r.at]) >= 0 {
		r.at++
	}
}

func (r *ednLine) eat(c byte) bool {
	if r.at < len(r.text) && r.text[r.at] == c {
		r.at++
		return true
	}
	return false
}

func (r *ednLine) value() (ednValue, error) {
	if r.at >= len(r.text) {
		return ednValue{}, fmt.Errorf("expected a value before the end of the line")
	}
	switch c := r.text[r.at]; c {
	case '"':
		return r.string()
	case '{', '[', '(', '#':
		return ednValue{}, fmt.Errorf("expected a keyword, string, integer or nil; nested %q values are not in this format", c)
	case '}':
		return ednValue{}, fmt.Errorf("expected a value before '}' (a map holds key value pairs)")
	}
	start := r.at
	for r.at < len(r.text) && strings.IndexByte(" ,\t\r\f{}[]()\";", r.text[r.at]) < 0 {
		r.at++
	}
	token := r.text[start:r.at]
	switch {
	case token == "nil":
		return ednValue{kind: ednNil}, nil
	case len(token) > 1 && token[0] == ':':
		return ednValue{kind: ednKeyword, text: token[1:]}, nil
	}
	if n, err := strconv.Atoi(token); err == nil {
		return ednValue{kind: ednInteger, text: token, integer: n}, nil
	}
	return ednValue{}, fmt.Errorf("expected a keyword, string, integer or nil, got %q", token)
}

var ednEscapes = map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', '"': '"', '\\': '\\', 'b': '\b', 'f': '\f'}

func (r *ednLine) string() (ednValue, error) {
	r.at++ // the opening quote
	var out strings.Builder
	for r.at < len(r.text) {
		c := r.text[r.at]
		r.at++
		if c == '"' {
			return ednValue{kind: ednString, text: out.String()}, nil
		}
		if c != '\\' {
			out.WriteByte(c)
			continue
		}
		if r.at >= len(r.text) {
			break
		}
		e := r.text[r.at]
		r.at++
		if plain, ok := ednEscapes[e]; ok {
			out.WriteByte(plain)
		} else if e == 'u' && r.at+4 <= len(r.text) {
			code, err := strconv.ParseUint(r.text[r.at:r.at+4], 16, 16)
			if err != nil {
				return ednValue{}, fmt.Errorf("unknown string escape '\\u%s'", r.text[r.at:r.at+4])
			}
			out.WriteRune(rune(code))
			r.at += 4
		} else {
			return ednValue{}, fmt.Errorf("unknown string escape '\\%c'", e)
		}
	}
	return ednValue{}, fmt.Errorf(`expected '"' to close the string before the end of the line`)
}
