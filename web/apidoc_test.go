package web

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// api.md names every field the API answers with in a run's summary and a
// trend's point: a field added to the Go type and not to the doc fails.
func TestAPIDocNamesEveryField(t *testing.T) {
	doc, err := os.ReadFile("api.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{RunSummary{}, TrendPoint{}, Trend{}, LaunchRequest{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if !strings.Contains(string(doc), "`"+name+"`") && !strings.Contains(string(doc), "`"+name+".") && !strings.Contains(string(doc), `"`+name+`"`) {
				t.Errorf("api.md does not name %s's field %s", typ.Name(), name)
			}
		}
	}
}
