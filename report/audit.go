package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gavelhq/gavel/audit"
)

// AuditSchemaVersion is the version of the JSON audit report's schema,
// written as its "schema_version" beside "kind": "audit".
const AuditSchemaVersion = 1

// A JSONAudit is the JSON report of an audit of a suite's judges
// (audit.Report), field for field, with its verdict.
type JSONAudit struct {
	SchemaVersion int `json:"schema_version"`
	// Kind is "audit".
	Kind string `json:"kind"`
	// Passed is true when every judge met every bar of the suite.
	Passed bool `json:"passed"`
	*audit.Report
}

// WriteAudit writes the report of an audit in format f: Text, JSON or
// HTML.
func WriteAudit(w io.Writer, f Format, r *audit.Report) error {
	var b bytes.Buffer
	switch f {
	case Text:
		writeAuditText(&b, r)
	case JSON:
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(JSONAudit{SchemaVersion: AuditSchemaVersion, Kind: "audit", Passed: r.Passed(), Report: r}); err != nil {
			return fmt.Errorf("write json audit: %w", err)
		}
	case HTML:
		if err := auditHTML.Execute(&b, r); err != nil {
			return fmt.Errorf("write html audit: %w", err)
		}
	default:
		return fmt.Errorf("an audit is written as text, json or html, not %s", f)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// auditVerdict says in a line whether the judges met the bars.
func auditVerdict(r *audit.Report) string {
	switch {
	case r.Stopped != "":
		return "INCOMPLETE: " + r.Stopped
	case !r.Passed():
		return fmt.Sprintf("FAIL: %d bars not met", len(r.Failures))
	}
	return "PASS: every judge met the suite's bars"
}

// shareOf writes a share with its counts ("12.5% (1 of 8)"); "-" when
// there is nothing to count.
func shareOf(v *float64, k, n int) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%s (%d of %d)", auditPercent(*v), k, n)
}

func auditPercent(v float64) string {
	s := fmt.Sprintf("%.1f%%", 100*v)
	return strings.Replace(s, ".0%", "%", 1)
}

// Cells of the judges' table, one per probe; "-" where it does not apply.
func positionCell(p *audit.Position) string {
	if p == nil {
		return "-"
	}
	return shareOf(p.Share, p.Flips, p.Comparisons)
}

func verbosityCell(v *audit.Verbosity) string {
	if v == nil || v.Share == nil {
		return "-"
	}
	return fmt.Sprintf("%s, %+.3f", shareOf(v.Share, v.Higher, v.Judgments), *v.MeanGain)
}

func consistencyCell(c *audit.Consistency) string {
	if c == nil || c.Share == nil {
		return "-"
	}
	return fmt.Sprintf("%s, spread %.2f", shareOf(c.Share, c.Unstable, c.Judgments), *c.MeanSpread)
}

func familyCell(f *audit.Family) string {
	switch {
	case f == nil:
		return "-"
	case f.Gap != nil:
		return fmt.Sprintf("%s: %+.3f vs %s", f.Family, *f.Gap, f.Reference)
	case f.Unmeasured != "":
		return f.Family + ": not measured, " + f.Unmeasured
	}
	return f.Family + ": not measured (give audit.reference_model)"
}

func writeAuditText(b *bytes.Buffer, r *audit.Report) {
	fmt.Fprintf(b, "Judge audit of suite %s: %s\n", oneLine(r.Suite), auditVerdict(r))
	fmt.Fprintf(b, "%d judges on %d replies, each judgment asked %d times (k)\n\n", len(r.Judges), r.Transcripts, r.Samples)
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "JUDGE\tKIND\tMODEL\tPOSITION FLIPS\tPADDED SCORED HIGHER, MEAN GAIN\tUNSTABLE VERDICTS\tFAMILY\tERRORS")
	for _, j := range r.Judges {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", oneLine(j.Name), j.Kind, orDash(j.Model),
			positionCell(j.Position), verbosityCell(j.Verbosity), consistencyCell(j.Consistency), familyCell(j.Family), j.Errors)
	}
	tw.Flush()
	for _, j := range r.Judges {
		if j.FirstError != "" {
			fmt.Fprintf(b, "%s: %d samples judged nothing; the first: %s\n", oneLine(j.Name), j.Errors, oneLine(j.FirstError))
		}
	}
	for _, st := range r.SelfTests {
		fmt.Fprintf(b, "\nSelf-test of %s on %s (each pair asked in both orders; right when the better response wins both):\n", st.Model, oneLine(st.Bench))
		fmt.Fprintf(b, "  accuracy %s, position flips %s", shareOf(st.Accuracy, st.Correct, st.Pairs), shareOf(st.Position.Share, st.Position.Flips, st.Position.Comparisons))
		if st.Errors > 0 {
			fmt.Fprintf(b, ", %d pairs not compared (errors)", st.Errors)
		}
		b.WriteString("\n")
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		for _, bias := range st.ByBias {
			fmt.Fprintf(tw, "  %s\t%s\n", bias.Bias, shareOf(bias.Accuracy, bias.Correct, bias.Pairs))
		}
		tw.Flush()
	}
	for _, e := range r.Examples {
		fmt.Fprintf(b, "\nFew-shot examples of %s, on %d held-out labels: kappa %s without, %s with\n", e.Judge, e.Labels, kappaOrDash(e.KappaWithout), kappaOrDash(e.KappaWith))
	}
	fmt.Fprintf(b, "\nBars (the suite's audit:): %s\n", barsOf(r.Bars))
	for _, f := range r.Failures {
		fmt.Fprintf(b, "  not met: %s\n", f)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func kappaOrDash(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.3f", *v)
}

// barsOf lists the bars set, in words.
func barsOf(bars audit.Bars) string {
	var out []string
	add := func(name string, v *float64, pct bool) {
		if v == nil {
			return
		}
		if pct {
			out = append(out, name+" "+auditPercent(*v))
		} else {
			out = append(out, fmt.Sprintf("%s %.3f", name, *v))
		}
	}
	add("max_position_flips", bars.MaxPositionFlips, true)
	add("max_verbosity_share", bars.MaxVerbosityShare, true)
	add("max_verbosity_gain", bars.MaxVerbosityGain, false)
	add("max_unstable", bars.MaxUnstable, true)
	add("max_family_gap", bars.MaxFamilyGap, false)
	add("min_bias_accuracy", bars.MinBiasAccuracy, true)
	if len(out) == 0 {
		return "none set: the numbers are reported, nothing is checked"
	}
	return strings.Join(out, ", ")
}

var auditHTML = template.Must(template.New("audit").Funcs(template.FuncMap{
	"verdict": auditVerdict, "position": positionCell, "verbosity": verbosityCell,
	"consistency": consistencyCell, "family": familyCell, "share": shareOf, "bars": barsOf, "dash": orDash,
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Judge audit of {{.Suite}}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}th{background:#f4f4f4}
.fail{color:#b00020}.pass{color:#1b5e20}</style></head><body>
<h1>Judge audit of suite {{.Suite}}</h1>
<p class="{{if .Passed}}pass{{else}}fail{{end}}"><strong>{{verdict .}}</strong></p>
<p>{{len .Judges}} judges on {{.Transcripts}} replies, each judgment asked {{.Samples}} times (k).</p>
<table><tr><th>Judge</th><th>Kind</th><th>Model</th><th>Position flips</th><th>Padded scored higher, mean gain</th><th>Unstable verdicts</th><th>Family</th><th>Errors</th></tr>
{{range .Judges}}<tr><td>{{.Name}}</td><td>{{.Kind}}</td><td>{{dash .Model}}</td><td>{{position .Position}}</td><td>{{verbosity .Verbosity}}</td><td>{{consistency .Consistency}}</td><td>{{family .Family}}</td><td>{{.Errors}}{{if .FirstError}}: {{.FirstError}}{{end}}</td></tr>
{{end}}</table>
{{range .SelfTests}}<h2>Self-test of {{.Model}} on {{.Bench}}</h2>
<p>Accuracy {{share .Accuracy .Correct .Pairs}}; position flips {{share .Position.Share .Position.Flips .Position.Comparisons}}{{if .Errors}}; {{.Errors}} pairs not compared{{end}}.</p>
<table><tr><th>Bias</th><th>Accuracy</th></tr>{{range .ByBias}}<tr><td>{{.Bias}}</td><td>{{share .Accuracy .Correct .Pairs}}</td></tr>{{end}}</table>
{{end}}<h2>Bars</h2><p>{{bars .Bars}}</p>
{{if .Failures}}<ul>{{range .Failures}}<li class="fail">{{.}}</li>{{end}}</ul>{{end}}
</body></html>
`))
