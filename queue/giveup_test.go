package queue

import (
	"testing"

	"github.com/riverqueue/river/rivertype"
)

// A trial given up on says how its job ended, in the words of its last
// attempt.
func TestGivenUpSaysWhy(t *testing.T) {
	for _, c := range []struct {
		name string
		g    givenUp
		want string
	}{
		{"failed", givenUp{attempt: 5, last: &rivertype.AttemptError{Error: "the database: connection refused"}},
			"no worker could run the trial (5 attempts); the last said: the database: connection refused"},
		{"panicked", givenUp{attempt: 1, last: &rivertype.AttemptError{Error: "boom", Trace: "queue.(*trialWorker).Work"}},
			"no worker could run the trial (1 attempt); the last panicked: boom"},
		{"rescued", givenUp{attempt: 2, last: &rivertype.AttemptError{Error: rescuedError}},
			"no worker could run the trial (2 attempts); the last ran longer than the workers' --rescue-after: its worker died, or the trial outlasted it"},
		{"no error recorded", givenUp{attempt: 3}, "no worker could run the trial (3 attempts)"},
		{"cancelled before it ran", givenUp{cancelled: true}, "the trial's job was cancelled before any worker ran it"},
		{"cancelled after an attempt", givenUp{cancelled: true, attempt: 1}, "the trial's job was cancelled (after 1 attempt)"},
		{"cancelled while it ran", givenUp{cancelled: true, attempt: 2, last: &rivertype.AttemptError{Error: "job cancelled remotely"}},
			"the trial's job was cancelled (after 2 attempts); the last said: job cancelled remotely"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.g.why(); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
