package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
)

// The API's writes: scripts create and change cases, start runs and label
// results, with the same checks as the app's forms. Each takes a JSON
// body and answers what it made.

// maxBody is the most a JSON body may hold.
const maxBody = 1 << 20

// A CaseSave is the body of POST /api/cases and PUT
// /api/cases/{suite}/{case}: a case in the fields the web app writes.
type CaseSave struct {
	// Suite is the case's suite. A PUT's path says it; the body may leave
	// it out.
	Suite string `json:"suite,omitempty"`
	// Version, in a PUT, is the version the change was made from: when
	// someone has saved a newer one since, the save is refused (409).
	// Left out, the save replaces whatever is there.
	Version int `json:"version,omitempty"`
	CaseInput
}

// A LabelInput is the body of POST /api/runs/{id}/cases/{case}/labels: a
// person's word on a judged trial.
type LabelInput struct {
	// Trial is the trial's number, from 1.
	Trial int `json:"trial"`
	// Judgment is the labelled judgment's path in the verdict's tree
	// ("tiered/jury/tone"); left out for the verdict itself.
	Judgment string `json:"judgment,omitempty"`
	// Category is the judgment's category on its scale: "pass", "fail",
	// a categorical score's name, a score's number ("4"). A label gives a
	// category or a verdict.
	Category string `json:"category,omitempty"`
	// Verdict says whether the judgment was "correct" or "wrong".
	Verdict string `json:"verdict,omitempty"`
	// Score, when set, is the person's own score, 0..1.
	Score   *float64 `json:"score,omitempty"`
	Comment string   `json:"comment,omitempty"`
}

// A Label is a label as the API gives it back.
type Label struct {
	ID     int64  `json:"id"`
	RunID  string `json:"run_id"`
	CaseID string `json:"case"`
	Trial  int    `json:"trial"`
	// Judgment is the labelled judgment's path in the verdict's tree;
	// left out for the verdict itself.
	Judgment string    `json:"judgment,omitempty"`
	Category string    `json:"category,omitempty"`
	Verdict  string    `json:"verdict,omitempty"`
	Score    *float64  `json:"score,omitempty"`
	Comment  string    `json:"comment"`
	Author   string    `json:"author"`
	Created  time.Time `json:"created"`
	// Replaced is when a label of the history stopped being current (it
	// was replaced, or deleted: Deleted); left out for a current label.
	Replaced *time.Time `json:"replaced,omitempty"`
	Deleted  bool       `json:"deleted,omitempty"`
}

// A LabelList is the answer of GET /api/runs/{id}/labels.
type LabelList struct {
	// Labels are the current labels, oldest first; with ?history=1, every
	// label ever given, replaced and deleted ones too.
	Labels []Label `json:"labels"`
}

func newLabel(l store.Label) Label {
	out := Label{ID: l.ID, RunID: l.RunID, CaseID: l.CaseID, Trial: l.Trial, Judgment: l.Judgment, Category: l.Category, Verdict: l.Verdict,
		Score: l.Score, Comment: l.Comment, Author: l.Author, Created: l.Created, Deleted: l.Deleted}
	if !l.Replaced.IsZero() {
		out.Replaced = &l.Replaced
	}
	return out
}

// writeRoutes are the API's routes that change state.
func (s *Server) writeRoutes() []route {
	return []route{
		{"POST /api/cases", Editor, s.api(s.apiCreateCase)},
		{"PUT /api/cases/{suite}/{case}", Editor, s.api(s.apiUpdateCase)},
		{"POST /api/runs", Editor, s.api(s.apiStartRun)},
		{"POST /api/runs/{id}/cases/{case}/labels", Editor, s.api(s.apiAddLabel)},
		{"DELETE /api/runs/{id}/labels/{label}", Editor, s.api(s.apiDeleteLabel)},
		{"GET /api/runs/{id}/labels", Viewer, s.api(s.apiLabels)},
	}
}

// readJSON decodes r's body, one JSON value of at most maxBody bytes,
// into v, refusing fields v does not have.
func readJSON(r *http.Request, v any) error {
	if !auth.IsJSON(r) {
		return errorf(http.StatusUnsupportedMediaType, "send the body as JSON, with the header Content-Type: application/json")
	}
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, maxBody))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("it holds more than one JSON value")
	}
	var tooLarge *http.MaxBytesError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &tooLarge):
		return errorf(http.StatusRequestEntityTooLarge, "the body is larger than %d bytes", maxBody)
	default:
		return errorf(http.StatusBadRequest, "the body is not what %s %s takes: %s", r.Method, r.URL.Path, strings.TrimPrefix(err.Error(), "json: "))
	}
}

// readCase decodes a CaseSave, saying which fields the web app writes when
// the body has another.
func readCase(r *http.Request) (CaseSave, error) {
	var in CaseSave
	err := readJSON(r, &in)
	if he := (*httpError)(nil); errors.As(err, &he) && strings.Contains(he.message, "unknown field") {
		he.message += ". A case takes suite, version, id, name, description, tags, input, rounds, expected_tools, judge_prompt, " +
			"judge_threshold and judges; judges that run commands, read files or query databases run code on the server, so they are written in suite files only"
	}
	return in, err
}

// apiCreateCase saves a new case: POST /api/cases. It answers 201 with
// the case's version, or 409 when the suite has a case of that id.
func (s *Server) apiCreateCase(r *http.Request) (any, error) {
	in, err := readCase(r)
	if err != nil {
		return nil, err
	}
	if errs := missingFields(in.Suite, in.CaseInput); len(errs) > 0 {
		return nil, invalidCase(errs, nil)
	}
	suites, err := s.knownSuites(r.Context())
	if err != nil {
		return nil, err
	}
	if why := unknownSuite(in.Suite, suites); why != "" {
		return nil, invalidCase(map[string]string{"suite": why}, nil)
	}
	taken, err := s.caseExists(r.Context(), in.Suite, in.ID)
	if err != nil {
		return nil, err
	}
	if taken {
		return nil, errorf(http.StatusConflict, "suite %s already has a case %s: PUT %s to change it", in.Suite, in.ID, apiCaseHref(in.Suite, in.ID))
	}
	saved, err := s.apiStoreCase(r, in.Suite, in.CaseInput)
	if err != nil {
		return nil, err
	}
	return created{status: http.StatusCreated, location: apiCaseHref(saved.Suite, saved.ID), body: saved}, nil
}

// apiUpdateCase saves a new version of a case written in the web app: PUT
// /api/cases/{suite}/{case}. A case from a suite file, or one with judges
// the web app does not write, is refused (403), as in the form.
func (s *Server) apiUpdateCase(r *http.Request) (any, error) {
	latest, _, err := s.editableCase(r)
	if err != nil {
		return nil, err
	}
	in, err := readCase(r)
	if err != nil {
		return nil, err
	}
	if in.Suite != "" && in.Suite != latest.Suite || in.ID != "" && in.ID != latest.ID {
		return nil, invalidCase(map[string]string{"id": fmt.Sprintf("A case keeps its suite and id (%s, %s): create a new case to use others.",
			latest.Suite, latest.ID)}, nil)
	}
	if in.Version != 0 {
		if stale := staleEdit(in.Version, latest.Version); stale != "" {
			return nil, errorf(http.StatusConflict, "%s: read it (GET %s), then send your change again with \"version\": %d to replace it",
				stale, apiCaseHref(latest.Suite, latest.ID), latest.Version)
		}
	}
	in.ID = latest.ID
	return s.apiStoreCase(r, latest.Suite, in.CaseInput)
}

// apiStoreCase saves a case sent to the API and returns its version as GET
// /api/cases/{suite}/{case} lists it.
func (s *Server) apiStoreCase(r *http.Request, suite string, c CaseInput) (CaseVersion, error) {
	saved, _, problems, err := s.storeCase(r.Context(), suite, c)
	if err != nil {
		return CaseVersion{}, err
	}
	if len(problems) > 0 {
		out := make([]string, len(problems))
		for i, p := range problems {
			out[i] = p.String()
		}
		return CaseVersion{}, invalidCase(nil, out)
	}
	return CaseVersion{CaseSummary: newCaseSummary(saved), Definition: string(saved.Definition)}, nil
}

// apiCaseHref is a case's URL in the API.
func apiCaseHref(suite, id string) string { return "/api" + caseHref(suite, id) }

// apiStartRun starts a run: POST /api/runs. It answers 202 with the run's
// summary (status running) as soon as the run is stored; the run goes on.
func (s *Server) apiStartRun(r *http.Request) (any, error) {
	var in LaunchRequest
	if err := readJSON(r, &in); err != nil {
		return nil, err
	}
	id, err := s.launch(r, in)
	if err != nil {
		return nil, err
	}
	info, err := s.store.RunInfo(r.Context(), id)
	if err != nil {
		return nil, err
	}
	return created{status: http.StatusAccepted, location: "/api" + runHref(id) + "/info", body: newRunSummary(redactInfo(info))}, nil
}

// apiAddLabel labels a judged trial: POST /api/runs/{id}/cases/{case}/labels.
func (s *Server) apiAddLabel(r *http.Request) (any, error) {
	var in LabelInput
	if err := readJSON(r, &in); err != nil {
		return nil, err
	}
	runID, caseID := r.PathValue("id"), r.PathValue("case")
	saved, err := s.saveLabel(r, runID, caseID, in)
	if err != nil {
		return nil, err
	}
	return created{status: http.StatusCreated, location: "/api" + runHref(runID) + "/labels", body: newLabel(saved)}, nil
}

// apiDeleteLabel deletes the visitor's own current label (an admin's,
// anyone's): DELETE /api/runs/{id}/labels/{label}. It stays in the
// history.
func (s *Server) apiDeleteLabel(r *http.Request) (any, error) {
	l, err := s.removeLabel(r, r.PathValue("id"), r.PathValue("label"))
	if err != nil {
		return nil, err
	}
	l.Deleted = true
	return newLabel(l), nil
}

// apiLabels lists a run's labels: GET /api/runs/{id}/labels.
func (s *Server) apiLabels(r *http.Request) (any, error) {
	id := r.PathValue("id")
	read := s.store.Labels
	if r.URL.Query().Get("history") == "1" {
		read = s.store.LabelHistory
	}
	labels, err := read(r.Context(), id) // an unknown run is store.ErrNotFound
	if err != nil {
		return nil, notFound(err, "no run %s", id)
	}
	out := LabelList{Labels: make([]Label, len(labels))}
	for i, l := range labels {
		out.Labels[i] = newLabel(l)
	}
	return out, nil
}
