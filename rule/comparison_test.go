package rule

import (
	"strings"
	"testing"
)

func TestSQLParseComparison(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
		numeric           bool
	}{
		{in: ">= 2", want: ">= 2", numeric: true},
		{in: "  >=2  ", want: ">= 2", numeric: true},
		{in: "== 1.5", want: "= 1.5", numeric: true},
		{in: "= -3", want: "= -3", numeric: true},
		{in: "!= 0", want: "!= 0", numeric: true},
		{in: "< 1e3", want: "< 1e3", numeric: true},
		{in: "<= .5", want: "<= .5", numeric: true},
		{in: "> +7", want: "> +7", numeric: true},
		{in: "= 'open'", want: "= 'open'"},
		{in: "=='open'", want: "= 'open'"},
		{in: "!= ''", want: "!= ''"},
		{in: "= 'it''s'", want: "= 'it''s'"},
		{in: "= ' spaced '", want: "= ' spaced '"},
		{in: "", wantErr: "no operator"},
		{in: "2", wantErr: "no operator"},
		{in: "~ 2", wantErr: "no operator at the start: want one of =, ==, !=, <, <=, >, >="},
		{in: "<> 2", wantErr: `> 2 is neither a number nor a single-quoted string`},
		{in: "=> 2", wantErr: "> 2 is neither a number"},
		{in: ">=", wantErr: "nothing to compare with after >="},
		{in: "= open", wantErr: "open is neither a number nor a single-quoted string"},
		{in: `= "open"`, wantErr: "neither a number nor a single-quoted string"},
		{in: "= 1/3", wantErr: "neither a number"},
		{in: "= NaN", wantErr: "neither a number"},
		{in: "= 'open", wantErr: "unterminated string"},
		{in: "= 'it's'", wantErr: "a quote inside a string must be doubled"},
		{in: "> 'a'", wantErr: "strings compare with = or != only, not >"},
		{in: "<= 'a'", wantErr: "strings compare with = or != only"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			c, err := ParseComparison(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("ParseComparison(%q) = %v, %v; want an error containing %q", tc.in, c, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseComparison(%q): %v", tc.in, err)
			}
			if got := c.String(); got != tc.want {
				t.Errorf("ParseComparison(%q) = %s, want %s", tc.in, got, tc.want)
			}
			if c.IsNumeric() != tc.numeric {
				t.Errorf("IsNumeric = %v, want %v", c.IsNumeric(), tc.numeric)
			}
		})
	}
}

func TestSQLComparisonHolds(t *testing.T) {
	tests := []struct {
		expr, value string
		want        bool
		wantErr     string
	}{
		{expr: ">= 2", value: "2", want: true},
		{expr: ">= 2", value: "1", want: false},
		{expr: ">= 2", value: "2.0000000000000000001", want: true},
		{expr: "> 2", value: "2.00", want: false},
		{expr: "< 2", value: "-10", want: true},
		{expr: "<= 2", value: "2e0", want: true},
		{expr: "= 1.5", value: "1.50", want: true},
		{expr: "= 1.5", value: " 1.5 ", want: true},
		{expr: "== 3", value: "3", want: true},
		{expr: "!= 0", value: "0.0", want: false},
		{expr: "!= 0", value: "1", want: true},
		{expr: "= 12345678901234567890", value: "12345678901234567891", want: false},
		{expr: ">= 2", value: "two", wantErr: "'two' is not a number"},
		{expr: ">= 2", value: "", wantErr: "'' is not a number"},
		{expr: ">= 2", value: "NaN", wantErr: "'NaN' is not a number"},
		{expr: "= 'open'", value: "open", want: true},
		{expr: "= 'open'", value: "Open", want: false},
		{expr: "= 'open'", value: "open ", want: false},
		{expr: "!= 'open'", value: "closed", want: true},
		{expr: "= 'it''s'", value: "it's", want: true},
		{expr: "= '2'", value: "2.0", want: false},
		{expr: "= ''", value: "", want: true},
	}
	for _, tc := range tests {
		t.Run(tc.expr+" "+tc.value, func(t *testing.T) {
			c, err := ParseComparison(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Holds(tc.value)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("Holds(%q) = %v, %v; want an error containing %q", tc.value, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("%s holds for %q = %v, %v; want %v", c, tc.value, got, err, tc.want)
			}
		})
	}

	var zero Comparison
	if ok, _ := zero.Holds("x"); ok || zero.String() != "" {
		t.Errorf("the zero Comparison holds for %q or prints as %q; want neither", "x", zero.String())
	}
}
