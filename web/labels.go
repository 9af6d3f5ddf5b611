package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
)

// Labels are a person's word on a judged trial: the verdict was correct
// or wrong, or their own score, with a comment. They are kept for
// calibrating judges. The page of a case of a run lists each trial's
// labels under a small form that adds one.

// labelView is a label as a trial shows it.
type labelView struct {
	Verdict, Score, Comment string
	Author, Created         string
}

// labelsOf reads the labels of a run's case, by trial.
func (s *Server) labelsOf(r *http.Request, runID, caseID string) (map[int][]labelView, error) {
	labels, err := s.store.Labels(r.Context(), runID)
	if err != nil {
		return nil, err
	}
	out := map[int][]labelView{}
	for _, l := range labels {
		if l.CaseID != caseID {
			continue
		}
		v := labelView{Verdict: oneLine(l.Verdict), Comment: clean(l.Comment), Author: oneLine(l.Author), Created: stamp(l.Created)}
		if l.Score != nil {
			v.Score = strconv.FormatFloat(*l.Score, 'f', -1, 64)
		}
		out[l.Trial] = append(out[l.Trial], v)
	}
	return out, nil
}

// addLabel records a label on a trial: POST /runs/{id}/cases/{case}/labels
// with trial, verdict (correct or wrong), score (0..1, optional) and
// comment. It goes back to the trial.
func (s *Server) addLabel(r *http.Request) (string, view, error) {
	runID, caseID := r.PathValue("id"), r.PathValue("case")
	trial, err := strconv.Atoi(r.PostFormValue("trial"))
	if err != nil || trial < 1 {
		return "", view{}, errorf(http.StatusBadRequest, "trial %q is not a trial's number", r.PostFormValue("trial"))
	}
	in := LabelInput{Trial: trial, Verdict: r.PostFormValue("verdict"), Comment: r.PostFormValue("comment")}
	if text := strings.TrimSpace(r.PostFormValue("score")); text != "" {
		score, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return "", view{}, errorf(http.StatusUnprocessableEntity, "score %q is not a number from 0 to 1: go back and fix it", text)
		}
		in.Score = &score
	}
	if _, err := s.saveLabel(r, runID, caseID, in); err != nil {
		return "", view{}, err
	}
	return fmt.Sprintf("%s#trial-%d", caseResultHref(runID, caseID), trial), view{}, nil
}

// saveLabel checks a label on a trial of a run's case and saves it, by
// the request's visitor.
func (s *Server) saveLabel(r *http.Request, runID, caseID string, in LabelInput) (store.Label, error) {
	l := store.Label{RunID: runID, CaseID: caseID, Trial: in.Trial, Verdict: in.Verdict, Score: in.Score,
		Comment: strings.TrimSpace(strings.ReplaceAll(in.Comment, "\r\n", "\n")), Author: visitorName(r)}
	switch {
	case l.Trial < 1:
		return store.Label{}, errorf(http.StatusUnprocessableEntity, "trial %d is not a trial's number: trials count from 1", l.Trial)
	case l.Verdict != "correct" && l.Verdict != "wrong":
		return store.Label{}, errorf(http.StatusUnprocessableEntity, "say whether the judgment was correct or wrong (verdict %q)", l.Verdict)
	case l.Score != nil && (*l.Score < 0 || *l.Score > 1):
		return store.Label{}, errorf(http.StatusUnprocessableEntity, "score %v is not a number from 0 to 1", *l.Score)
	}
	saved, err := s.store.AddLabel(r.Context(), l)
	if err != nil {
		return store.Label{}, notFound(err, "run %s has no trial %d of case %s", runID, l.Trial, caseID)
	}
	return saved, nil
}

// visitorName is who sends r, as labels and runs record them: the user's
// name, or "local" for the local user of an app on loopback.
func visitorName(r *http.Request) string {
	if v, ok := auth.VisitorFrom(r.Context()); ok {
		return v.User.Name
	}
	return "local"
}
