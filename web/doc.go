// Package web is Gavel's web app, served by `gavel serve`: pages that
// anyone on the team can read (the runs, a run case by case, each case's
// conversation and every judge's reasoning, the trends of a suite, two
// runs compared), and the JSON API those pages' data comes from,
// documented for scripts in api.md.
//
//	app := web.New(st, web.Config{Version: version}) // st: a store.Store
//	err := http.ListenAndServe("127.0.0.1:8080", app)
//
// The app reads everything from a store.Store, so it works alike on
// SQLite and PostgreSQL, and the CLI and the app can share a database.
// Editors also write cases in a form and label judged trials; see "What
// comes next" for where starting runs plugs in.
//
// # Pages
//
//	/                            the team's home: the runs under way (followed every 3
//	                             seconds through /running), each of the latest suites' latest
//	                             verdict with its interval and sparklines of its pass rate and
//	                             cost (inline SVG), the newest regressions against each suite's
//	                             baseline, and the flaky cases
//	/running                     the runs under way
//	/runs                        the runs, newest first, 50 a page: ?suite= &status= &branch=
//	                             filter, ?before= (a run's start, RFC 3339) pages
//	/runs/{id}                   a run: its verdict (pass rate against threshold, interval,
//	                             gate), a row per case (tools, response, outcome, trials
//	                             passed, score, cost, why it failed), a picker to compare it
//	                             with its baseline, the run before it or any run, then calls
//	                             (those the cache answered too), tokens and cost by role and
//	                             by model, and each criterion's mean
//	/runs/{id}/cases/{case}      a case of a run: each trial's conversation turn by turn
//	                             (tool calls with arguments and results, automatic follow-ups,
//	                             simulated users, events, revivals and turns the cache
//	                             answered marked) and its verdict's
//	                             whole tree: every judge's status, score, reasoning, checks,
//	                             findings and jury votes
//	/trends?suite=S&n=100        a suite's pass rate, criteria and cost over its last n
//	                             finished runs, as charts (drawn from GET /api/trends) over a
//	                             table of the numbers, and its judges' calibration against
//	                             people's labels
//	/compare?a=BASE&b=HEAD       two runs side by side: regressions, fixes, score deltas, then
//	                             the other changes (gavel.Compare); BASE may be baseline or
//	                             previous (see baseline.go); without both, a picker of runs
//	                             by name
//	/cases?suite=&tag=&q=        the latest version of every case
//	/cases/{suite}/{case}        a case's versions with their definitions
//
// A run is shown by its name (store.RunInfo.Name: its label, git branch
// and commit, and who started it) wherever it appears, its id in small
// print and in the link's title.
//
// And for editors (Editor), forms that post back to the app:
//
//	GET  /cases/new?suite=S             the form of a new case
//	POST /cases                         creates it
//	GET  /cases/{suite}/{case}/edit     the form of a case written in the app
//	POST /cases/{suite}/{case}/edit     saves it as a new version
//	POST /runs/{id}/cases/{case}/labels labels a judgment of a trial: trial,
//	                                    judgment (its path; "" for the verdict),
//	                                    category, or verdict (correct or wrong),
//	                                    score (0..1, optional), comment; it
//	                                    replaces the visitor's label on it
//	POST /runs/{id}/cases/{case}/labels/{label}/delete
//	                                    deletes the visitor's own label
//
// # Writing cases
//
// The case form is for people who do not write YAML: a name, a
// description, what the user says (one message, or rounds separated by a
// line "---"), the tools the agent must call, what a good answer does in
// plain words (judge_prompt), the passing score (judge_threshold), tags,
// and judges of any kind the registry knows (spec.Kinds) but the Local
// ones. A judge is added by picking its kind (a select grouped as the
// reference is, saying what the kind does) and pressing "Add this judge",
// which shows the form again with the judge's fields: their inputs come
// from the kind's fields (text, a checkbox, a number, a select of an
// enumeration, a list one item a line, and YAML, checked, for what holds
// judges: a jury's jurors, all, any, not, weighted, tiered). Adding and
// removing posts the form without saving, so it needs no script. Saving
// builds the case's definition in the suite format from the
// fields (marshalled by the YAML library, so quoting is always right)
// and checks it as `gavel run` does: spec.ParseCase and spec.Build, dry, over a
// scratch suite holding the case. Their problems come back above the
// form and next to the judge or field they are about, with its path in
// the suite format (judges[0].ignore_case), 422, its values kept; a good case is saved (store.SaveCase) as a
// new version, and the case's page lists every version. A form opened on
// version N and saved after someone saved N+1 is refused, not merged.
//
// The form edits only what it can write back whole. A case from a suite
// file (its Source is "file:line") is edited in its file: its page says
// where, and its edit URL answers 403. A case whose definition holds any
// field the form does not know (rules, checks, setup steps, events...),
// or a judge it cannot show as it is, is refused too, since saving the
// form would drop or change them. Judges that run commands, read files or
// query databases run code on the server, so they are written in suite
// files only: the Local kinds, an LLM judge's prompt_file, a json_schema
// given as a file's path and a model reference that reads the server's
// environment (${VAR}) are refused wherever a judge is nested
// (spec.JudgeSpec.ServerAccess), from the form and the API alike.
//
// Pages are rendered on the server with html/template, from templates
// embedded in the binary (templates/: a layout with the navigation, a
// file per page). Numbers and text are formatted in Go, so templates only
// place strings. Path parts (run and case ids) are escaped with
// url.PathEscape: a case id may hold a slash.
//
// Annotation queues (queues.go, queuepages.go, review.go) are filters of
// judgments for people to label: /queues lists them and makes them, a
// queue's page shows its progress by person and its labellers' agreement
// (gavel.AmongPeople), and its review page shows one item (a trial) with
// one label form, the judges' on demand, none chosen, and keyboard
// shortcuts (static/review.js) over plain forms and links.
//
// Every page works without JavaScript. Two small scripts are vendored in
// static/, embedded, and served from /static/ with their licenses: htmx
// 2.0.11 (htmx.min.js, LICENSE-htmx), which swaps the runs list and the
// cases list in place as their filters change and their pages turn, and
// keeps the page of a run still running up to date (every 3 seconds), and
// uPlot 1.6.32 (uPlot.iife.min.js, uPlot.min.css, LICENSE-uplot), which
// draws the trends. To update one, `npm pack uplot@VERSION` (or
// htmx.org@VERSION) in a scratch directory, copy the same files from its
// dist/ and its LICENSE over these, and change the versions here and in
// TestVendored. Nothing is loaded from a CDN, and developing Gavel needs
// no Node.
//
// An htmx request (header HX-Request) gets the page's content without
// the layout; everything else, the whole page. Static files are served
// with a hash of their content in their URL and cached for a year.
//
// # API
//
// The API answers JSON under /api/. Viewers read:
//
//	GET /api/runs?suite=&status=&branch=&before=&limit=   a page of runs (RunList)
//	GET /api/runs/{id}                                    the run's JSON report (report.JSONReport)
//	GET /api/runs/{id}/info                               the run without its cases (RunSummary)
//	GET /api/runs/{id}/cases/{case}                       a case of the run (report.JSONCase)
//	GET /api/runs/{id}/labels?history=1                   the run's labels (LabelList)
//	GET /api/trends?suite=S&n=100                         a suite's trend (Trend)
//	GET /api/calibration?suite=S                          the judges against labels (report.JSONCalibration)
//	GET /api/compare?a=BASE&b=HEAD                        a comparison (report.JSONComparison)
//	GET /api/cases?suite=&tag=&q=                         cases (CaseList)
//	GET /api/cases/{suite}/{case}                         a case's versions (CaseHistory)
//	GET /api/queues                                       the annotation queues (QueueSummary)
//	GET /api/queues/{id}                                  a queue, its progress and agreement (QueueDetail)
//	GET /api/queues/{id}/items                            its items and their labels (QueueItemList)
//	GET /api/queues/{id}/next?after=N                     the visitor's next item (NextItem)
//
// Editors write what the forms write, with a JSON body and the same
// checks (apiwrite.go):
//
//	POST /api/cases                                       a new case (CaseSave)
//	PUT  /api/cases/{suite}/{case}                        a new version of it (CaseSave)
//	POST /api/runs                                        starts a run (LaunchRequest)
//	POST /api/runs/{id}/cases/{case}/labels               labels a judgment of a trial (LabelInput)
//	DELETE /api/runs/{id}/labels/{label}                  deletes the visitor's own label
//	POST /api/queues                                      a new queue, filled (QueueInput)
//	PUT  /api/queues/{id}                                 its name, assignees, labels per item (QueueInput)
//	POST /api/queues/{id}/refresh                         adds what its filter chooses now
//	DELETE /api/queues/{id}                               deletes it (its labels stay)
//
// A run's report is the same document `gavel run` writes to
// reports/latest.json (docs/report-json.md), written by package report.
// Errors are {"error": "..."} with a status that says what went wrong:
// 400 for a bad parameter or body, 404 for a run or a case that is not
// there, 405 for a method the path does not take, 409 for a conflict (a
// case id taken, a stale save), 422 for a case or a label that cannot be
// saved, 500 when the server failed (the details go to its log, not to
// the client). api.md describes every
// route, parameter and field.
//
// # Security
//
// Everything a page shows from a run is untrusted: agent replies, tool
// arguments and results, judges' reasoning, and the names of suites,
// cases, judges, criteria and git branches, which come from suite files
// and repositories. html/template escapes every value for where it goes
// (text, attribute, URL, JSON in a script block), so a reply reading
// <script>alert(1)</script> shows as text; control characters are dropped
// first, as the reports drop them. Pages have no inline script, no
// inline style and no event handler attribute, and every answer carries
// headers that would stop one anyway:
//
//	Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; ...
//	X-Content-Type-Options: nosniff
//	Referrer-Policy: same-origin
//	X-Frame-Options: DENY (and frame-ancestors 'none')
//
// Scripts get their data from <script type="application/json"> blocks,
// which html/template fills with escaped JSON. htmx is configured (a meta
// tag) not to evaluate code, not to run scripts in what it swaps, not to
// inject its own styles, to talk only to this server, and to keep no
// page in localStorage.
//
// Secrets are never sent to a browser. No key is stored with a run:
// providers read keys from the environment, which the app does not show,
// and what a suite file reads from the environment that is secret is
// hidden before a run is stored (package secret). A model reference may
// name a base URL ("openai:qwen@http://host/v1"), and a URL may carry a
// password or a token; every model reference the app shows or returns has
// lost its URL's user info and its query's values (secret.Address), runs
// stored before Gavel hid them included.
//
// The JSON API sends text as stored (< and > unescaped, as the JSON
// reports do): it is data, served as application/json with nosniff.
//
// # Login, roles and starting runs
//
// Config.Auth (package auth) makes the app log users in: it serves
// /login and /logout, finds who sends each request (a session cookie or
// an API token) and checks the CSRF token of every state-changing one.
// Every route is registered with the least Role it needs (Anyone for the
// static files and the login page, Viewer for every page and GET route,
// Editor for forms that write), and a visitor whose role is lower gets
// 403 (in JSON under /api/). The login form carries a token of its own
// and is refused from another origin (no login CSRF); after it, next
// leads only to a path of the app; failed logins hold the address back,
// then the account (package auth), with growing delays, answered 429
// without checking the password. attacks_test.go lists every attack tried and its answer.
// cmd/gavel requires login when the app listens beyond loopback;
// Config.Guard is the seam for another scheme.
//
// Config.Launcher starts runs: gavel serve SUITE... gives one that runs
// those suites, with the cases written in the app added to their files'
// cases, writing to the store as gavel run does, so the run's page (which
// refreshes itself while the run goes on) follows it.
//
// A page handler returns a view (a template and its data) or an error; a
// form's handler returns where to go next (303), or its view again (422,
// the form with what is wrong); an API handler returns a value to encode
// or an error. An httpError (errorf) carries the status and the message
// the client reads, store.ErrNotFound becomes 404, anything else 500.
//
// # Design
//
// static/gavel.css is the whole look: design tokens (a type scale, a
// spacing scale, colours for the light and the dark scheme that pass WCAG
// AA, which TestContrast checks from the file), a layout that works at a
// phone's 390px, and Gavel's icon, static/favicon.svg (also at
// /favicon.ico). A case's verdict tree reads in words (report.Describe),
// the suite format's names small beside them. docs/web-design.md says
// more.
//
// # Tests
//
// The tests serve the app over a real SQLite store. The browser tests
// (browser_test.go) drive headless Chromium with chromedp: an editor logs
// in, writes a case, runs it, reads the judge's reasoning and sees an
// agent's <script> reply as text with no dialog opening; a viewer finds no
// way to edit. They skip without Chromium on the PATH, unless
// GAVEL_REQUIRE_INTEGRATION=1 (as in CI), when they fail instead.
// TestBrowserAccessible (a11y_test.go) runs axe-core on every page of
// appPages, on a desktop and a phone, light and dark, with no violation
// allowed; `go test ./web -run TestScreens -screens` writes their
// screenshots to testdata/screens.
//
// # Speed
//
// The runs list reads one page of runs' summaries (one more than it shows,
// to know whether there is a next page), never trials; the trends read
// store.Trend (the runs' summaries and per-criterion means) over the last
// 100 runs; a run's page and a case's read the run once, whole.
// BenchmarkPages times them.
package web
