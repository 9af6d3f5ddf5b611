package report

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/gavelhq/gavel"
)

// comparisonHTMLSource is the comparison page's template: like the run's
// page, one file with its CSS inline, no scripts and no external assets.
// It borrows the run page's "judgment" template to show why each
// regression fails in the head.
const comparisonHTMLSource = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="generator" content="Gavel{{with .Version}} {{.}}{{end}}">
<title>Compare {{.Base}} → {{.Head}}: {{.Verdict}}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #1f2328; }
h1 { margin-bottom: .25rem; }
.muted { color: #656d76; }
.decision { margin: .2rem 0 .2rem 1rem; font-weight: 600; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
th, td { text-align: left; padding: .3rem .6rem; border-bottom: 1px solid #d0d7de; vertical-align: top; }
td.num, th.num { text-align: right; }
table.scores { width: auto; min-width: 24rem; }
code { font: 13px/1.4 ui-monospace, monospace; }
.badge { display: inline-block; min-width: 4.5em; text-align: center; border-radius: 3px; padding: 0 .3em; font: bold 12px/1.6 ui-monospace, monospace; color: #fff; background: #6e7781; }
.badge.pass { background: #1a7f37; }
.badge.fail { background: #cf222e; }
.badge.error { background: #bc4c00; }
.badge.flaky { background: #9a6700; }
.badge.skipped, .badge.abstain { background: #6e7781; }
details { margin: .35rem 0; }
summary { cursor: pointer; }
.judgment { margin-left: 1rem; }
.judgment > .parts { border-left: 1px dashed #d0d7de; }
.reasoning { margin: .2rem 0 .2rem 1rem; white-space: pre-wrap; }
ul.checks { margin: .2rem 0; }
</style>
</head>
<body>
<header>
<h1>{{if .Regressed}}❌{{else}}✅{{end}} Compare: {{.Verdict}}</h1>
<p><strong>{{.Base}}</strong> → <strong>{{.Head}}</strong></p>
<ul class="test">{{range .Test}}<li>{{.}}</li>{{end}}</ul>
<p>Pass rate {{.PassRate}} · cost {{.Cost}}</p>
<p class="muted">{{.Counts}}{{with .Version}} · Gavel {{.}}{{end}}</p>
</header>
{{- range .Sections}}
{{- if eq .Key "scores"}}
{{- with $.Criteria}}
<section class="scores">
<h2>Score deltas</h2>
<p class="muted">The mean score of each criterion, 0 to 1.</p>
<table class="scores">
<thead><tr><th>Criterion</th><th class="num">Base</th><th class="num">Head</th><th class="num">Delta</th></tr></thead>
<tbody>
{{- range .}}
<tr>{{range $i, $c := .}}<td{{if $i}} class="num"{{end}}>{{$c}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
</section>
{{- end}}
{{- else}}
<section class="{{.Key}}">
<h2>{{.Title}} ({{len .Cases}})</h2>
<p class="muted">{{.About}}</p>
<table>
<thead><tr><th>Case</th><th>Name</th><th>Base</th><th>Head</th><th>{{.ReasonHeader}}</th></tr></thead>
<tbody>
{{- range .Cases}}
<tr><td><code>{{.ID}}</code></td><td>{{.Name}}</td><td>{{template "side" .Base}}</td><td>{{template "side" .Head}}</td><td>{{.Reason}}</td></tr>
{{- end}}
</tbody>
</table>
{{- range .Cases}}
{{- $id := .ID}}
{{- with .Verdict}}
<details>
<summary><code>{{$id}}</code> in {{$.Head}}: the verdict of its first trial that did not pass</summary>
{{template "judgment" .}}
</details>
{{- end}}
{{- end}}
</section>
{{- end}}
{{- end}}
{{- with .Replies}}
<section class="replies">
<h2>Replies ({{len .}})</h2>
<p class="muted">What the agent said in {{$.Base}} and in {{$.Head}}: <del>only in {{$.Base}}</del>, <ins>only in {{$.Head}}</ins>.</p>
{{- range .}}
<h3><code>{{.ID}}</code> {{.Name}}{{with .Pairwise}} · {{.}}{{end}}</h3>
<table class="replies"><thead><tr><th>{{$.Base}} (trial {{.BaseTrial}})</th><th>{{$.Head}} (trial {{.HeadTrial}})</th></tr></thead>
<tbody><tr><td>{{range .Reply}}{{if eq .Op "-"}}<del>{{.Text}}</del>{{else if eq .Op "="}}{{.Text}}{{end}}{{end}}</td>
<td>{{range .Reply}}{{if eq .Op "+"}}<ins>{{.Text}}</ins>{{else if eq .Op "="}}{{.Text}}{{end}}{{end}}</td></tr>
<tr><td>{{range .Calls}}{{if eq .Op "-"}}<del><code>{{.Text}}</code></del><br>{{else if eq .Op "="}}<code>{{.Text}}</code><br>{{end}}{{end}}</td>
<td>{{range .Calls}}{{if eq .Op "+"}}<ins><code>{{.Text}}</code></ins><br>{{else if eq .Op "="}}<code>{{.Text}}</code><br>{{end}}{{end}}</td></tr></tbody></table>
{{- end}}
</section>
{{- end}}
</body>
</html>
{{define "side"}}{{if .Outcome}}<span class="badge {{.Class}}">{{.Outcome}}</span> {{.Trials}}{{else}}-{{end}}{{end}}`

var comparisonHTMLTemplate = template.Must(template.Must(htmlTemplate.Clone()).New("comparison").Parse(comparisonHTMLSource))

// comparisonHTMLPage is the comparison page's data, formatted in Go so
// that the template only places strings; every string from outside
// Gavel has been through clean.
type comparisonHTMLPage struct {
	Base, Head, Verdict, Version string
	Regressed                    bool
	// Test says how the difference was tested, a line each.
	Test                   []string
	PassRate, Cost, Counts string
	// Sections are the groups of cases that have some, in order, and a
	// section of key "scores" where the scores go (shown when there are
	// Criteria).
	Sections []comparisonHTMLSection
	Criteria [][]string
	// Replies are the pairs of replies shown (see shownReplies).
	Replies []comparisonHTMLReplies
}

// comparisonHTMLReplies is a case's replies in both runs, diffed; the
// edits' Op is "=", "-" or "+".
type comparisonHTMLReplies struct {
	ID, Name, Pairwise   string
	BaseTrial, HeadTrial int
	Reply, Calls         []htmlEdit
}

// htmlEdit is an Edit for a template.
type htmlEdit struct{ Op, Text string }

// htmlEdits converts edits for a template.
func htmlEdits(edits []Edit) []htmlEdit {
	out := make([]htmlEdit, len(edits))
	for i, e := range edits {
		out[i] = htmlEdit{string(e.Op), e.Text}
	}
	return out
}

// comparisonHTMLSection is a group of cases.
type comparisonHTMLSection struct {
	Key, Title, About, ReasonHeader string
	Cases                           []comparisonHTMLCase
}

// comparisonHTMLCase is a row of a group's table; Verdict, for a
// regression, is the head's first trial that did not pass.
type comparisonHTMLCase struct {
	ID, Name, Reason string
	Base, Head       comparisonHTMLSide
	Verdict          *htmlJudgment
}

// comparisonHTMLSide is a case's outcome in one run; Outcome is "" when
// the run does not have the case.
type comparisonHTMLSide struct {
	Outcome, Class, Trials string
}

// writeComparisonHTML writes the HTML report of a comparison: one page
// with the verdict, the numbers side by side and a table per group of
// cases, each regression's verdict tree folded under its table.
func writeComparisonHTML(b *bytes.Buffer, c gavel.Comparison, opts ComparisonOptions) error {
	base, head := opts.labels()
	p := comparisonHTMLPage{
		Base:      clean(base),
		Head:      clean(head),
		Verdict:   comparisonVerdict(c),
		Version:   clean(opts.Version),
		Regressed: c.Failed(),
		PassRate:  passRateChange(c.PassRate, "→"),
		Cost:      costChange(c.CostUSD, c.CostUnpriced, "→"),
		Counts:    strings.Join(comparisonCounts(c), " · "),
	}
	for _, line := range append(testLines(c.Test), criterionTestLines(c.Test)...) {
		p.Test = append(p.Test, clean(strings.ReplaceAll(line, "->", "→")))
	}
	for _, d := range c.Criteria {
		cells := criterionCells(d)
		cells[0] = clean(cells[0])
		p.Criteria = append(p.Criteria, cells)
	}
	for i, s := range comparisonSections(c) {
		if i == scoresAfter {
			p.Sections = append(p.Sections, comparisonHTMLSection{Key: "scores"})
		}
		if len(s.cases) == 0 {
			continue
		}
		hs := comparisonHTMLSection{Key: s.key, Title: s.title, About: title(s.aboutWith(p.Base, p.Head)), ReasonHeader: title(s.reasonHeader)}
		for _, cc := range s.cases {
			cells := comparisonCells(s, cc)
			hc := comparisonHTMLCase{ID: cells[0], Name: cells[1], Reason: cells[4], Base: htmlSide(cc.Base), Head: htmlSide(cc.Head)}
			if s.key == "regressions" && cc.Head.Result != nil {
				if bad := notPassed(cc.Head.Result.Trials); len(bad) > 0 {
					v := newHTMLVerdict(bad[0].Verdict)
					hc.Verdict = &v
				}
			}
			hs.Cases = append(hs.Cases, hc)
		}
		p.Sections = append(p.Sections, hs)
	}
	for _, r := range shownReplies(c, opts) {
		d := DiffReplies(r)
		p.Replies = append(p.Replies, comparisonHTMLReplies{ID: clean(r.ID), Name: clean(r.Name), Pairwise: PairwiseWords(r.Pairwise, p.Base, p.Head),
			BaseTrial: r.BaseTrial, HeadTrial: r.HeadTrial, Reply: htmlEdits(d.Reply), Calls: htmlEdits(d.Calls)})
	}
	return comparisonHTMLTemplate.Execute(b, p)
}

// htmlSide formats a case's outcome in one run.
func htmlSide(s gavel.CaseSide) comparisonHTMLSide {
	if s.Outcome == "" {
		return comparisonHTMLSide{}
	}
	out := comparisonHTMLSide{Outcome: string(s.Outcome), Class: statusClass(string(s.Outcome))}
	if s.Trials > 0 {
		out.Trials = strings.TrimPrefix(sideCell(s), string(s.Outcome)+" ")
	}
	return out
}
