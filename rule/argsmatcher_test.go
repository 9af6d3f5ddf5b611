package rule_test

import (
	"encoding/json"
	"testing"

	"github.com/gavelhq/gavel/rule"
)

func TestArgsMatcher(t *testing.T) {
	for _, tc := range []struct {
		args, call string
		exact      bool
		want       bool
	}{
		{`{"order_id": "12345"}`, `{"order_id": "12345", "verbose": true}`, false, true},
		{`{"order_id": "12345"}`, `{"order_id": "12345", "verbose": true}`, true, false},
		{`{"order_id": "12345"}`, `{"order_id": "999"}`, false, false},
		{`{"order_id": {"$regex": "^1"}}`, `{"order_id": "12345"}`, false, true},
		{``, `{"anything": 1}`, false, true},
		{`{"order_id": "12345"}`, `not json`, false, false},
	} {
		m, err := rule.NewArgsMatcher(json.RawMessage(tc.args), tc.exact, false)
		if err != nil {
			t.Fatalf("%s: %v", tc.args, err)
		}
		if ok, why := m.Match(json.RawMessage(tc.call)); ok != tc.want {
			t.Errorf("%s against %s (exact %v): %v (%s), want %v", tc.args, tc.call, tc.exact, ok, why, tc.want)
		}
	}
}
