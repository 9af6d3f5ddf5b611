package secret

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// RedactValue hides the secrets of s in every string v holds, in place: v
// is a pointer (to a trial, say). It reaches every exported field, every
// element, map key and map value, what interfaces hold, and the text of a
// json.RawMessage (a tool call's arguments, hidden as the JSON they are),
// so that a field added to a type later is hidden without a word here.
// Strings of named types are left alone: they are enumerations (a status,
// a role), not text. Two map keys that differ only by a secret become one,
// the value of one of them kept.
func (s *Set) RedactValue(v any) {
	h := s.replacer()
	if h == nil {
		return
	}
	w := walker{hide: h.Replace, seen: map[uintptr]bool{}}
	w.walk(reflect.ValueOf(v))
}

var (
	stringType     = reflect.TypeFor[string]()
	rawMessageType = reflect.TypeFor[json.RawMessage]()
)

// A walker hides secrets in a value, in place.
type walker struct {
	hide func(string) string
	seen map[uintptr]bool // the pointers walked, each once
}

func (w walker) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || w.seen[v.Pointer()] {
			return
		}
		w.seen[v.Pointer()] = true
		w.walk(v.Elem())
	case reflect.Interface:
		if v.IsNil() || !v.CanSet() {
			return
		}
		held := reflect.New(v.Elem().Type()).Elem()
		held.Set(v.Elem())
		w.walk(held)
		v.Set(held)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				w.walk(v.Field(i))
			}
		}
	case reflect.Slice:
		switch {
		case v.Type() == rawMessageType:
			w.rawJSON(v)
		case v.Type().Elem().Kind() != reflect.Uint8:
			for i := range v.Len() {
				w.walk(v.Index(i))
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			w.walk(v.Index(i))
		}
	case reflect.Map:
		w.walkMap(v)
	case reflect.String:
		if v.Type() == stringType && v.CanSet() {
			v.SetString(w.hide(v.String()))
		}
	}
}

// walkMap hides secrets in a map's keys and values.
func (w walker) walkMap(m reflect.Value) {
	if m.IsNil() {
		return
	}
	for _, key := range m.MapKeys() {
		value := reflect.New(m.Type().Elem()).Elem()
		value.Set(m.MapIndex(key))
		w.walk(value)
		newKey := key
		if key.Type() == stringType {
			if hidden := w.hide(key.String()); hidden != key.String() {
				newKey = reflect.ValueOf(hidden)
				m.SetMapIndex(key, reflect.Value{})
			}
		}
		m.SetMapIndex(newKey, value)
	}
}

// rawJSON hides secrets in the JSON a json.RawMessage holds, as the JSON
// it is: its strings are hidden however they are escaped, and it is
// encoded again (compact, keys sorted) only when one held a secret. What
// is not JSON is hidden as text.
func (w walker) rawJSON(v reflect.Value) {
	raw := v.Bytes()
	if len(raw) == 0 || !v.CanSet() {
		return
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&doc) != nil || dec.More() {
		if hidden := w.hide(string(raw)); hidden != string(raw) {
			v.SetBytes([]byte(hidden))
		}
		return
	}
	changed := false
	counting := walker{seen: w.seen, hide: func(s string) string {
		hidden := w.hide(s)
		changed = changed || hidden != s
		return hidden
	}}
	counting.walk(reflect.ValueOf(&doc))
	if !changed {
		return // kept as written
	}
	out, err := json.Marshal(doc)
	if err != nil {
		out = []byte(w.hide(string(raw)))
	}
	v.SetBytes(out)
}
