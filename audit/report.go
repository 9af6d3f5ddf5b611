package audit

import "fmt"

// A Report is what an audit found.
type Report struct {
	// Suite names the suite audited.
	Suite string `json:"suite"`
	// Transcripts is how many replies the judges judged; Samples is k.
	Transcripts int     `json:"transcripts"`
	Samples     int     `json:"samples"`
	Probes      []Probe `json:"probes"`
	// Bars are the bars the judges were held to.
	Bars Bars `json:"bars"`
	// Judges are the findings per judge, in the suite's order.
	Judges []JudgeReport `json:"judges"`
	// SelfTests are the self-test's results per judge model.
	SelfTests []SelfTest `json:"self_tests,omitempty"`
	// Examples are the agreements without and with few-shot examples,
	// when the plan compared them.
	Examples []ExamplesComparison `json:"examples,omitempty"`
	// Stopped, when set, says why the audit stopped before it asked every
	// judgment (the budget, an interrupt): its numbers are of what it
	// asked.
	Stopped string `json:"stopped,omitempty"`
	// Failures are the bars not met, in words; none when every judge met
	// every bar.
	Failures []string `json:"failures,omitempty"`
}

// Passed reports whether every judge met every bar.
func (r *Report) Passed() bool { return len(r.Failures) == 0 }

// A JudgeReport is one judge's findings.
type JudgeReport struct {
	Name  string `json:"name"`
	Case  string `json:"case,omitempty"`
	Kind  string `json:"kind"`
	Model string `json:"model,omitempty"`
	// Judgments is how many replies it judged; Errors, how many of its
	// samples judged nothing (the model failed, or answered malformed
	// after the re-asks), with the first one's reason.
	Judgments  int    `json:"judgments"`
	Errors     int    `json:"errors"`
	FirstError string `json:"first_error,omitempty"`
	// The probes' findings; nil for a probe not run, or that does not
	// apply (position to a judge that is not pairwise, consistency with
	// one sample, family to a judge of another family than the agent's).
	Position    *Position    `json:"position,omitempty"`
	Verbosity   *Verbosity   `json:"verbosity,omitempty"`
	Consistency *Consistency `json:"consistency,omitempty"`
	Family      *Family      `json:"family,omitempty"`
}

// check returns the bars r's judges did not meet, in words.
func (r *Report) check() []string {
	var out []string
	over := func(who, what string, got, bar *float64) {
		if got != nil && bar != nil && *got > *bar+scoreEpsilon {
			out = append(out, fmt.Sprintf("%s: %s %s is above the bar of %s", who, what, percent(*got), percent(*bar)))
		}
	}
	for _, j := range r.Judges {
		if j.Position != nil {
			over(j.Name, "position flips", j.Position.Share, r.Bars.MaxPositionFlips)
		}
		if j.Verbosity != nil {
			over(j.Name, "padded replies scoring higher", j.Verbosity.Share, r.Bars.MaxVerbosityShare)
			if g, bar := j.Verbosity.MeanGain, r.Bars.MaxVerbosityGain; g != nil && bar != nil && *g > *bar+scoreEpsilon {
				out = append(out, fmt.Sprintf("%s: padding gains %+.3f on average, above the bar of %.3f", j.Name, *g, *bar))
			}
		}
		if j.Consistency != nil {
			over(j.Name, "unstable verdicts", j.Consistency.Share, r.Bars.MaxUnstable)
		}
		if j.Family != nil {
			if g, bar := j.Family.Gap, r.Bars.MaxFamilyGap; g != nil && bar != nil && *g > *bar+scoreEpsilon {
				out = append(out, fmt.Sprintf("%s: its own family's judge scores the agent's replies %+.3f above %s's, above the bar of %.3f", j.Name, *g, j.Family.Reference, *bar))
			}
		}
	}
	for _, st := range r.SelfTests {
		if a, bar := st.Accuracy, r.Bars.MinBiasAccuracy; a != nil && bar != nil && *a < *bar-scoreEpsilon {
			out = append(out, fmt.Sprintf("self-test of %s: accuracy %s is below the bar of %s", st.Model, percent(*a), percent(*bar)))
		}
	}
	return out
}

// percent writes a share as a percentage, to one decimal where it has
// one.
func percent(v float64) string {
	s := fmt.Sprintf("%.1f%%", 100*v)
	if len(s) > 3 && s[len(s)-3:] == ".0%" {
		s = s[:len(s)-3] + "%"
	}
	return s
}
