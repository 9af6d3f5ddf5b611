package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
)

// Labels are a person's word on a judgment of a trial (its verdict, or
// one judge of a jury or tier): the category they put it in (pass, fail,
// a score's category or number), or, as the trial's form asks, whether
// the verdict was correct or wrong, with their own score and a comment.
// They are kept for calibrating judges. A person has one current label
// per judgment: labelling again replaces it (the earlier one is kept in
// the history), and they may delete it. The page of a case of a run lists
// each trial's labels, and has one label form per trial, on its verdict,
// and, behind "Show the judges", one for each judgment below it (a judge
// of a jury, a tier). No form chooses a category for the person.

// labelView is a label as a trial shows it.
type labelView struct {
	ID                int64
	Judgment          string
	Category, Verdict string
	Score, Comment    string
	Author, Created   string
	// Delete is where the visitor's own label's delete button posts; ""
	// for other people's labels, or when the visitor may not label.
	Delete string
}

// What says what the label says: its category, or correct or wrong.
func (l labelView) What() string {
	if l.Category != "" {
		return l.Category
	}
	return l.Verdict
}

// labelsOf reads the current labels of a run's case, by trial.
func (s *Server) labelsOf(r *http.Request, runID, caseID string) (map[int][]labelView, error) {
	labels, err := s.store.Labels(r.Context(), runID)
	if err != nil {
		return nil, err
	}
	me, editor := visitorName(r), canEdit(r)
	out := map[int][]labelView{}
	for _, l := range labels {
		if l.CaseID != caseID {
			continue
		}
		v := labelView{ID: l.ID, Judgment: l.Judgment, Category: oneLine(l.Category), Verdict: oneLine(l.Verdict), Comment: clean(l.Comment),
			Author: oneLine(l.Author), Created: stamp(l.Created)}
		if l.Score != nil {
			v.Score = strconv.FormatFloat(*l.Score, 'f', -1, 64)
		}
		if editor && l.Author == me {
			v.Delete = fmt.Sprintf("%s/labels/%d/delete", caseResultHref(runID, caseID), l.ID)
		}
		out[l.Trial] = append(out[l.Trial], v)
	}
	return out, nil
}

// addLabel records a label on a judgment of a trial: POST
// /runs/{id}/cases/{case}/labels with trial, judgment (its path; "" for
// the verdict), and category, or verdict (correct or wrong); score (0..1,
// optional) and comment. It goes back to the trial.
func (s *Server) addLabel(r *http.Request) (string, view, error) {
	runID, caseID := r.PathValue("id"), r.PathValue("case")
	trial, err := strconv.Atoi(r.PostFormValue("trial"))
	if err != nil || trial < 1 {
		return "", view{}, errorf(http.StatusBadRequest, "trial %q is not a trial's number", r.PostFormValue("trial"))
	}
	in := LabelInput{Trial: trial, Judgment: r.PostFormValue("judgment"), Category: r.PostFormValue("category"),
		Verdict: r.PostFormValue("verdict"), Comment: r.PostFormValue("comment")}
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

// deleteLabel deletes the visitor's own current label: POST
// /runs/{id}/cases/{case}/labels/{label}/delete. It goes back to the
// trial.
func (s *Server) deleteLabel(r *http.Request) (string, view, error) {
	runID, caseID := r.PathValue("id"), r.PathValue("case")
	l, err := s.removeLabel(r, runID, r.PathValue("label"))
	if err != nil {
		return "", view{}, err
	}
	return fmt.Sprintf("%s#trial-%d", caseResultHref(runID, caseID), l.Trial), view{}, nil
}

// removeLabel deletes a current label of a run, which must be the
// visitor's own (an admin may delete anyone's).
func (s *Server) removeLabel(r *http.Request, runID, idText string) (store.Label, error) {
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		return store.Label{}, errorf(http.StatusNotFound, "no label %q", idText)
	}
	labels, err := s.store.Labels(r.Context(), runID)
	if err != nil {
		return store.Label{}, notFound(err, "no run %s", runID)
	}
	for _, l := range labels {
		if l.ID != id {
			continue
		}
		if l.Author != visitorName(r) && !isAdmin(r) {
			return store.Label{}, errorf(http.StatusForbidden, "label %d is %s's: only they may delete it", id, l.Author)
		}
		if err := s.store.DeleteLabel(r.Context(), id); err != nil {
			return store.Label{}, notFound(err, "run %s has no current label %d", runID, id)
		}
		return l, nil
	}
	return store.Label{}, errorf(http.StatusNotFound, "run %s has no current label %d", runID, id)
}

// saveLabel checks a label on a judgment of a trial of a run's case and
// saves it, by the request's visitor: it replaces their current label on
// that judgment.
func (s *Server) saveLabel(r *http.Request, runID, caseID string, in LabelInput) (store.Label, error) {
	l := store.Label{RunID: runID, CaseID: caseID, Trial: in.Trial, Judgment: strings.TrimSpace(in.Judgment),
		Category: gavel.NormalCategory(in.Category), Verdict: strings.TrimSpace(in.Verdict), Score: in.Score,
		Comment: strings.TrimSpace(strings.ReplaceAll(in.Comment, "\r\n", "\n")), Author: visitorName(r)}
	switch {
	case l.Trial < 1:
		return store.Label{}, errorf(http.StatusUnprocessableEntity, "trial %d is not a trial's number: trials count from 1", l.Trial)
	case l.Category == "" && l.Verdict != "correct" && l.Verdict != "wrong":
		return store.Label{}, errorf(http.StatusUnprocessableEntity, "give the judgment's category, or say whether it was correct or wrong (verdict %q)", l.Verdict)
	case l.Category != "" && l.Verdict != "":
		return store.Label{}, errorf(http.StatusUnprocessableEntity, "give a category (%q) or a verdict (%q), not both", l.Category, l.Verdict)
	case len(l.Category) > 100 || strings.ContainsAny(l.Category, "\r\n\t"):
		return store.Label{}, errorf(http.StatusUnprocessableEntity, "category %.40q is not a category's name: one line of at most 100 characters", l.Category)
	case l.Score != nil && (*l.Score < 0 || *l.Score > 1):
		return store.Label{}, errorf(http.StatusUnprocessableEntity, "score %v is not a number from 0 to 1", *l.Score)
	}
	saved, err := s.store.AddLabel(r.Context(), l)
	var refused *gavel.LabelRefusal
	switch {
	case errors.As(err, &refused): // the judgment is not the trial's, or the category not on its scale
		return store.Label{}, errorf(http.StatusUnprocessableEntity, "trial %d of case %s: %v", l.Trial, caseID, refused)
	case err != nil:
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

// isAdmin reports whether the visitor is an admin (the local user of an
// app on loopback is).
func isAdmin(r *http.Request) bool {
	v, ok := auth.VisitorFrom(r.Context())
	return !ok || v.Can(store.Admin)
}
