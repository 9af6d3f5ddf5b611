package report

import (
	"fmt"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// The seeds' table splits a case's verdict in two: did the agent call the
// right tools, and was its answer right. Gavel's verdicts are trees of
// judgments; a leaf is a tool check when its rule is one of the tool-call
// rules, by name, and a response check otherwise.
var toolRules = []string{"tool_calls", "expected_tools", "forbidden_tools", "forbidden_tool_calls", "max_tool_calls", "tool_call_f1"}

// isToolCheck reports whether a leaf judgment named name checks tool
// calls. A round's judges are named "round N: name".
func isToolCheck(name string) bool {
	if i := strings.Index(name, ": "); strings.HasPrefix(name, "round ") && i > 0 {
		name = name[i+2:]
	}
	for _, r := range toolRules {
		if name == r || strings.HasPrefix(name, r+" ") {
			return true
		}
	}
	return false
}

// aspectGrades tallies, for the tool checks and the response checks, how
// many trials had some and how many of those passed them all.
type aspectGrades struct {
	toolsRan, toolsPassed       int
	responseRan, responsePassed int
}

func gradeAspects(trials []gavel.Trial) aspectGrades {
	var g aspectGrades
	for _, t := range trials {
		tools, response := leafOutcomes(t.Verdict)
		if tools.any {
			g.toolsRan++
			if tools.allPassed {
				g.toolsPassed++
			}
		}
		if response.any {
			g.responseRan++
			if response.allPassed {
				g.responsePassed++
			}
		}
	}
	return g
}

// leafOutcome says whether a verdict had checks of a kind, and whether
// they all passed.
type leafOutcome struct{ any, allPassed bool }

// An aspect is what a judgment's leaves check: tool calls, the response,
// both, or neither (no leaf that passed or failed).
type aspect int

const (
	aspectNone aspect = iota
	aspectTools
	aspectResponse
	aspectMixed
)

// aspectOf is what j's judged leaves check. Only a PASS or a FAIL
// counts: a judge that errored or abstained, or did not run (a later tier
// after a hard failure, so not in the tree), says nothing of the agent.
func aspectOf(j judge.Judgment) aspect {
	if len(j.Parts) == 0 {
		switch {
		case j.Status != judge.StatusPass && j.Status != judge.StatusFail:
			return aspectNone
		case isToolCheck(j.Name):
			return aspectTools
		}
		return aspectResponse
	}
	a := aspectNone
	for _, p := range j.Parts {
		switch pa := aspectOf(p); {
		case pa == aspectNone || pa == a:
		case a == aspectNone:
			a = pa
		default:
			return aspectMixed
		}
	}
	return a
}

// leafOutcomes grades v's tool checks and its response checks. The
// largest judgment whose checks are all of one kind counts for that kind
// as a whole, by its own rule: an any-of that passed passes the response
// though one of its rules failed, and so do a jury with a dissenting
// juror and a soft rule's finding. A judgment that mixes both kinds is
// looked into; one that could not be judged too, for the checks that
// were.
func leafOutcomes(v judge.Judgment) (tools, response leafOutcome) {
	tools.allPassed, response.allPassed = true, true
	var walk func(j judge.Judgment)
	walk = func(j judge.Judgment) {
		a := aspectOf(j)
		judged := j.Status == judge.StatusPass || j.Status == judge.StatusFail
		if a == aspectNone {
			return
		}
		if a == aspectMixed || !judged {
			for _, p := range j.Parts {
				walk(p)
			}
			return
		}
		o := &response
		if a == aspectTools {
			o = &tools
		}
		o.any = true
		o.allPassed = o.allPassed && j.Passed()
	}
	walk(v)
	return tools, response
}

// grade is a column of the table: PASS, FAIL, "2/3" when trials differ,
// or "-" when no trial had such checks.
func grade(ran, passed int) string {
	switch {
	case ran == 0:
		return "-"
	case passed == ran:
		return "PASS"
	case passed == 0:
		return "FAIL"
	}
	return fmt.Sprintf("%d/%d", passed, ran)
}

// Grades grades a case's trials as the text report's table does: its tool
// checks and its response checks apart, each PASS, FAIL, "2/3" when
// trials differ, or "-" when no trial had such checks.
func Grades(trials []gavel.Trial) (tools, response string) {
	g := gradeAspects(trials)
	return grade(g.toolsRan, g.toolsPassed), grade(g.responseRan, g.responsePassed)
}
