package inputs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// jkind is the kind of a JSON node.
type jkind uint8

const (
	jnull jkind = iota
	jbool
	jnum
	jstr
	jarr
	jobj
)

var jkindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

// jnode is a parsed JSON value that keeps what encoding/json's maps
// lose: the order of object members and duplicate names.
type jnode struct {
	kind jkind
	b    bool
	text string // a number's literal text, or a string
	arr  []jnode
	keys []string // object member names, in order
	vals []jnode
}

// maxJSONDepth bounds nesting so that hostile input cannot exhaust the
// stack.
const maxJSONDepth = 64

// parseJSON reads exactly one JSON value. It refuses invalid UTF-8 and
// escapes of lone UTF-16 surrogates, which encoding/json would silently
// turn into U+FFFD (a different string).
func parseJSON(data []byte) (jnode, error) {
	if !utf8.Valid(data) {
		return jnode{}, errors.New("not valid UTF-8")
	}
	if err := checkSurrogateEscapes(data); err != nil {
		return jnode{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readJSON(dec, 0)
	if err != nil {
		return jnode{}, fmt.Errorf("not valid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return jnode{}, errors.New("not valid JSON: more after the value")
	}
	return n, nil
}

func readJSON(dec *json.Decoder, depth int) (jnode, error) {
	if depth > maxJSONDepth {
		return jnode{}, fmt.Errorf("nested deeper than %d", maxJSONDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return jnode{}, io.ErrUnexpectedEOF
		}
		return jnode{}, err
	}
	switch t := tok.(type) {
	case nil:
		return jnode{kind: jnull}, nil
	case bool:
		return jnode{kind: jbool, b: t}, nil
	case json.Number:
		return jnode{kind: jnum, text: string(t)}, nil
	case string:
		return jnode{kind: jstr, text: t}, nil
	case json.Delim:
		switch t {
		case '[':
			n := jnode{kind: jarr, arr: []jnode{}}
			for dec.More() {
				e, err := readJSON(dec, depth+1)
				if err != nil {
					return jnode{}, err
				}
				n.arr = append(n.arr, e)
			}
			_, err := dec.Token() // ]
			return n, err
		case '{':
			n := jnode{kind: jobj}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return jnode{}, err
				}
				k, ok := kt.(string)
				if !ok {
					return jnode{}, errors.New("object member name is not a string")
				}
				v, err := readJSON(dec, depth+1)
				if err != nil {
					return jnode{}, err
				}
				n.keys = append(n.keys, k)
				n.vals = append(n.vals, v)
			}
			_, err := dec.Token() // }
			return n, err
		}
	}
	return jnode{}, fmt.Errorf("unexpected %v", tok)
}

// checkSurrogateEscapes finds \uD800-\uDFFF escapes that do not form a
// high-low pair.
func checkSurrogateEscapes(data []byte) error {
	unit := func(i int) (uint16, bool) { // the \uXXXX escape at i, if any
		if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
			return 0, false
		}
		u, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 16)
		return uint16(u), err == nil
	}
	for i := 0; i < len(data); i++ {
		if data[i] != '\\' || i+1 >= len(data) {
			continue
		}
		if data[i+1] != 'u' {
			i++ // an escaped character such as \\ or \"
			continue
		}
		u, ok := unit(i)
		if !ok {
			continue // encoding/json reports the syntax error
		}
		switch {
		case u >= 0xd800 && u < 0xdc00:
			if lo, ok := unit(i + 6); ok && lo >= 0xdc00 && lo < 0xe000 {
				i += 11
				continue
			}
			return fmt.Errorf("lone surrogate \\u%04x: Arrow and Spark strings are UTF-8 and cannot hold it", u)
		case u >= 0xdc00 && u < 0xe000:
			return fmt.Errorf("lone surrogate \\u%04x: Arrow and Spark strings are UTF-8 and cannot hold it", u)
		}
		i += 5
	}
	return nil
}

// fromJSON converts a JSON value to type t:
//
//   - null is null for every type;
//   - boolean from true/false; integers from integral numbers;
//   - float, double and decimal from numbers, or from strings in
//     parseText's form (JSON has no NaN, Infinity or -0.0 literal
//     distinct enough: "NaN", "-Infinity", "-0.0", "NaN(0x…)");
//   - string from strings only; binary, date, timestamp from strings in
//     parseText's form;
//   - array from arrays; struct from objects by field name (a missing
//     field is null, an unknown one an error); map from objects, whose
//     member names are read as keys with parseText (duplicates and null
//     keys are errors, as in Spark).
func fromJSON(n jnode, t *udf.Type) (value.Value, error) {
	if n.kind == jnull {
		return value.NullValue(), nil
	}
	wrong := func() error {
		return fmt.Errorf("a JSON %s cannot be a %s", jkindNames[n.kind], t)
	}
	switch t.Kind {
	case udf.Boolean:
		if n.kind != jbool {
			return value.Value{}, wrong()
		}
		return value.BoolOf(n.b), nil
	case udf.Byte, udf.Short, udf.Int, udf.Long:
		if n.kind != jnum {
			return value.Value{}, wrong()
		}
		return parseInt(n.text, t)
	case udf.Float, udf.Double, udf.Decimal:
		if n.kind != jnum && n.kind != jstr {
			return value.Value{}, wrong()
		}
		return parseText(n.text, t)
	case udf.String, udf.Binary, udf.Date, udf.Timestamp:
		if n.kind != jstr {
			return value.Value{}, wrong()
		}
		return parseText(n.text, t)
	case udf.Array:
		if n.kind != jarr {
			return value.Value{}, wrong()
		}
		elems := make([]value.Value, len(n.arr))
		for i, e := range n.arr {
			v, err := fromJSON(e, t.Elem)
			if err != nil {
				return value.Value{}, fmt.Errorf("element %d: %w", i, err)
			}
			elems[i] = v
		}
		return value.ArrayOf(elems...), nil
	case udf.Map:
		if n.kind != jobj {
			return value.Value{}, wrong()
		}
		kv := make([]value.Value, 0, 2*len(n.keys))
		seen := map[string]bool{}
		for i, ks := range n.keys {
			k, err := parseText(ks, t.Key)
			if err != nil {
				return value.Value{}, fmt.Errorf("map key %q: %w", ks, err)
			}
			if k.IsNull() {
				return value.Value{}, fmt.Errorf("map key %q is null, which Spark does not allow", ks)
			}
			if err := checkMapKey(k); err != nil {
				return value.Value{}, err
			}
			tok := value.Token(k)
			if seen[tok] {
				return value.Value{}, fmt.Errorf("map key %q appears twice, which Spark does not allow", ks)
			}
			seen[tok] = true
			v, err := fromJSON(n.vals[i], t.Value)
			if err != nil {
				return value.Value{}, fmt.Errorf("map value of %q: %w", ks, err)
			}
			kv = append(kv, k, v)
		}
		return value.MapOf(kv...), nil
	case udf.Struct:
		if n.kind != jobj {
			return value.Value{}, wrong()
		}
		fields := make([]value.Value, len(t.Fields))
		set := make([]bool, len(t.Fields))
		for i, name := range n.keys {
			j := fieldIndex(t, name)
			if j < 0 {
				return value.Value{}, fmt.Errorf("struct %s has no field %q", t, name)
			}
			if set[j] {
				return value.Value{}, fmt.Errorf("field %q appears twice", name)
			}
			set[j] = true
			v, err := fromJSON(n.vals[i], t.Fields[j].Type)
			if err != nil {
				return value.Value{}, fmt.Errorf("field %q: %w", name, err)
			}
			fields[j] = v
		}
		return value.StructOf(fields...), nil
	}
	return value.Value{}, fmt.Errorf("type %s is not supported", t)
}

// fieldIndex finds a struct field by exact name, else by a unique
// case-insensitive match; -1 when none or several match.
func fieldIndex(t *udf.Type, name string) int {
	names := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		names[i] = f.Name
	}
	return nameIndex(names, name)
}
