// Package webtest holds the checks that the fuzz tests of the services'
// request bodies share.
package webtest

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// CheckDecoded fails t unless a body's decoding ended well: err is nil, or
// a client's error (a *kb.Error of a 4xx status with a message); and, when
// err is nil, every string in v (what the store would be given) is UTF-8
// text without NUL characters and within kb.LimitText.
func CheckDecoded(t testing.TB, body []byte, v any, err error) {
	t.Helper()
	if err != nil {
		status := web.StatusFor(kb.ErrorCode(err))
		if status < 400 || status > 499 || kb.ErrorMessage(err) == "" {
			t.Fatalf("body %q: %v (status %d), want a 4xx error with a message", body, err, status)
		}
		return
	}
	if path, bad := badString(reflect.ValueOf(v), "value"); bad != "" {
		t.Fatalf("body %q accepted, but %s holds %s", body, path, bad)
	}
}

// badString returns the path of the first string under v that no store
// should be given and what is wrong with it, or "", "".
func badString(v reflect.Value, path string) (string, string) {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		switch {
		case !utf8.ValidString(s):
			return path, "invalid UTF-8"
		case strings.ContainsRune(s, 0):
			return path, "a NUL character"
		case kb.LimitText.Exceeded(s) != "":
			return path, "text that " + kb.LimitText.Exceeded(s)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return badString(v.Elem(), path)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if p, bad := badString(v.Field(i), path+"."+v.Type().Field(i).Name); bad != "" {
				return p, bad
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 { // JSON the server encoded
			if !utf8.Valid(v.Bytes()) {
				return path, "invalid UTF-8"
			}
			return "", ""
		}
		for i := range v.Len() {
			if p, bad := badString(v.Index(i), path+"["+strconv.Itoa(i)+"]"); bad != "" {
				return p, bad
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if p, bad := badString(it.Key(), path+" key"); bad != "" {
				return p, bad
			}
			if p, bad := badString(it.Value(), path+"[key]"); bad != "" {
				return p, bad
			}
		}
	}
	return "", ""
}
