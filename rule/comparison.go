package rule

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// A Comparison is a parsed comparison expression, such as ">= 2",
// "= 'open'" or "!= 0": an operator and an operand that values are compared
// with. The zero Comparison holds for nothing.
type Comparison struct {
	op      string   // canonical: =, !=, <, <=, >, >=
	number  *big.Rat // the operand, when it is a number
	text    string   // the operand, when it is a string
	operand string   // the operand as String writes it
}

// comparisonOps are the operators, longest first so that ">=" is not read
// as ">".
var comparisonOps = []string{"==", "!=", "<=", ">=", "=", "<", ">"}

// ParseComparison parses a comparison expression: an operator (=, ==, !=,
// <, <=, >, >=; == means =) then a number or a single-quoted string, in
// which a quote is written twice, as in SQL. Numbers compare by value;
// strings compare as text, with = and != only.
func ParseComparison(s string) (Comparison, error) {
	expr := strings.TrimSpace(s)
	var c Comparison
	for _, op := range comparisonOps {
		if strings.HasPrefix(expr, op) {
			c.op = op
			break
		}
	}
	if c.op == "" {
		return Comparison{}, fmt.Errorf("comparison %q: no operator at the start: want one of =, ==, !=, <, <=, >, >=", s)
	}
	operand := strings.TrimSpace(expr[len(c.op):])
	if c.op == "==" {
		c.op = "="
	}
	switch {
	case operand == "":
		return Comparison{}, fmt.Errorf("comparison %q: nothing to compare with after %s", s, c.op)
	case operand[0] == '\'':
		text, err := unquoteSQL(operand)
		if err != nil {
			return Comparison{}, fmt.Errorf("comparison %q: %w", s, err)
		}
		if c.op != "=" && c.op != "!=" {
			return Comparison{}, fmt.Errorf("comparison %q: strings compare with = or != only, not %s", s, c.op)
		}
		c.text, c.operand = text, operand
	default:
		n, ok := decimalRat(operand)
		if !ok {
			return Comparison{}, fmt.Errorf("comparison %q: %s is neither a number nor a single-quoted string", s, operand)
		}
		c.number, c.operand = n, operand
	}
	return c, nil
}

// unquoteSQL returns the text of a single-quoted SQL string literal, in
// which a doubled quote stands for one.
func unquoteSQL(s string) (string, error) {
	if len(s) < 2 || s[len(s)-1] != '\'' {
		return "", errors.New("unterminated string: it must end with '")
	}
	inner := s[1 : len(s)-1]
	if strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
		return "", errors.New("a quote inside a string must be doubled ('')")
	}
	return strings.ReplaceAll(inner, "''", "'"), nil
}

// quoteSQL writes s as a single-quoted SQL string literal.
func quoteSQL(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// IsNumeric reports whether c compares numbers.
func (c Comparison) IsNumeric() bool { return c.number != nil }

// Holds reports whether value satisfies c. A numeric comparison parses
// value as a decimal number, white space around it ignored, and returns an
// error when it is not one; a string comparison compares value as it is.
func (c Comparison) Holds(value string) (bool, error) {
	if c.number == nil {
		switch c.op {
		case "=":
			return value == c.text, nil
		case "!=":
			return value != c.text, nil
		}
		return false, nil
	}
	n, ok := decimalRat(strings.TrimSpace(value))
	if !ok {
		return false, fmt.Errorf("%s is not a number", quoteSQL(value))
	}
	cmp := n.Cmp(c.number)
	switch c.op {
	case "=":
		return cmp == 0, nil
	case "!=":
		return cmp != 0, nil
	case "<":
		return cmp < 0, nil
	case "<=":
		return cmp <= 0, nil
	case ">":
		return cmp > 0, nil
	case ">=":
		return cmp >= 0, nil
	}
	return false, nil
}

// String writes c as an expression, as in ">= 2" or "= 'open'".
func (c Comparison) String() string {
	if c.op == "" {
		return ""
	}
	return c.op + " " + c.operand
}
