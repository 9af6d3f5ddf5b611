package web

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The design tokens of static/gavel.css: its text colours reach WCAG AA
// contrast on their backgrounds in both schemes, and every token the
// stylesheet uses is declared.

// tokenPattern matches a colour token's declaration: "--muted: #545b69;".
var tokenPattern = regexp.MustCompile(`--([a-z0-9-]+):\s*(#[0-9a-f]{6})\s*;`)

// schemes returns gavel.css's colour tokens in the light scheme (its
// first :root block) and the dark one (the light ones, with the :root
// block under prefers-color-scheme: dark over them).
func schemes(t *testing.T) (light, dark map[string]string) {
	t.Helper()
	css := string(assets["gavel.css"].data)
	block := func(from int) string {
		start := strings.Index(css[from:], ":root {")
		if start < 0 {
			t.Fatalf("gavel.css: no :root block after byte %d", from)
		}
		start += from
		end := strings.Index(css[start:], "}")
		return css[start : start+end]
	}
	tokens := func(s string, into map[string]string) map[string]string {
		for _, m := range tokenPattern.FindAllStringSubmatch(s, -1) {
			into[m[1]] = m[2]
		}
		return into
	}
	light = tokens(block(0), map[string]string{})
	media := strings.Index(css, "@media (prefers-color-scheme: dark)")
	if media < 0 {
		t.Fatal("gavel.css has no dark scheme (@media (prefers-color-scheme: dark))")
	}
	dark = map[string]string{}
	for k, v := range light {
		dark[k] = v
	}
	return light, tokens(block(media), dark)
}

// contrast is the WCAG 2 contrast ratio of two colours "#rrggbb".
func contrast(a, b string) (float64, error) {
	la, err := luminance(a)
	if err != nil {
		return 0, err
	}
	lb, err := luminance(b)
	if err != nil {
		return 0, err
	}
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05), nil
}

// luminance is a colour's relative luminance, as WCAG 2 defines it.
func luminance(hex string) (float64, error) {
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil || len(hex) != 7 {
		return 0, fmt.Errorf("%q is no colour #rrggbb", hex)
	}
	channel := func(shift uint) float64 {
		c := float64(v>>shift&0xff) / 255
		if c <= 0.04045 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	return 0.2126*channel(16) + 0.7152*channel(8) + 0.0722*channel(0), nil
}

func TestContrastRatio(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"#000000", "#ffffff", 21},
		{"#ffffff", "#ffffff", 1},
		{"#767676", "#ffffff", 4.54}, // the lightest grey that passes AA on white
		{"#545b69", "#ffffff", 6.82}, // python3: the WCAG formula over the same hex values
	} {
		got, err := contrast(tc.a, tc.b)
		if err != nil || math.Abs(got-tc.want) > 0.01 {
			t.Errorf("contrast(%s, %s) = %.3f, %v; want %.2f", tc.a, tc.b, got, err, tc.want)
		}
	}
}

// TestContrast checks every pair of a text colour and the background it
// is drawn on that gavel.css makes, in the light and the dark scheme:
// 4.5:1 at least (WCAG 2 AA, body text), and 3:1 for the trends' lines
// (AA for graphics). A new pair of tokens gets a line here.
func TestContrast(t *testing.T) {
	type pair struct {
		text, on string
		min      float64
	}
	pairs := []pair{
		{"text", "bg", 4.5}, {"text", "surface", 4.5}, {"text", "mark", 4.5},
		{"muted", "bg", 4.5}, {"muted", "surface", 4.5}, {"muted", "mark", 4.5},
		{"link", "bg", 4.5}, {"link", "surface", 4.5},
		{"on-accent", "accent", 4.5},
		{"header-text", "header-bg", 4.5}, {"header-muted", "header-bg", 4.5},
		{"del-text", "del-bg", 4.5}, {"ins-text", "ins-bg", 4.5},
	}
	for _, verdict := range []string{"pass", "fail", "error", "flaky", "inconclusive", "abstain", "running"} {
		pairs = append(pairs, pair{"on-verdict", verdict, 4.5}, // a badge
			pair{verdict + "-text", "bg", 4.5}, pair{verdict + "-text", "surface", 4.5}) // the verdict as text
	}
	for i := 1; i <= 8; i++ {
		pairs = append(pairs, pair{fmt.Sprintf("chart-%d", i), "bg", 3})
	}
	light, dark := schemes(t)
	for _, scheme := range []struct {
		name   string
		tokens map[string]string
	}{{"light", light}, {"dark", dark}} {
		for _, p := range pairs {
			fg, bg := scheme.tokens[p.text], scheme.tokens[p.on]
			if fg == "" || bg == "" {
				t.Errorf("%s scheme: --%s or --%s is not a colour token of gavel.css", scheme.name, p.text, p.on)
				continue
			}
			ratio, err := contrast(fg, bg)
			if err != nil {
				t.Errorf("%s scheme: %v", scheme.name, err)
				continue
			}
			if ratio < p.min {
				t.Errorf("%s scheme: --%s (%s) on --%s (%s) has contrast %.2f:1, want %.1f:1 at least", scheme.name, p.text, fg, p.on, bg, ratio, p.min)
			}
		}
	}
}

// Every token gavel.css uses (var(--name)) is declared in it: a typo
// would fall back to nothing, silently.
func TestTokensDeclared(t *testing.T) {
	css := string(assets["gavel.css"].data)
	declared := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s*--([a-z0-9-]+):`).FindAllStringSubmatch(css, -1) {
		declared[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`var\(--([a-z0-9-]+)\)`).FindAllStringSubmatch(css, -1) {
		if !declared[m[1]] {
			t.Errorf("gavel.css uses var(--%s), which it does not declare", m[1])
		}
	}
}

// Every verdict and status a page shows as a badge has its colour in
// gavel.css.
func TestBadgeColours(t *testing.T) {
	css := string(assets["gavel.css"].data)
	for _, status := range []string{"PASS", "FAIL", "ERROR", "FLAKY", "INCONCLUSIVE", "ABSTAIN", "SKIPPED", "passed", "failed", "errored", "incomplete", "abandoned", "running"} {
		class := statusClass(status)
		if class == "unknown" || !regexp.MustCompile(`\.badge\.`+class+`\b[^{]*\{[^}]*background: var\(--`).MatchString(css) {
			t.Errorf("%s: a badge of class %q has no colour of its own in gavel.css", status, class)
		}
	}
}
