// Package gaveltest runs Gavel suites inside go test, so that a Go team
// keeps its agent's evals beside its code and runs them with its tests:
//
//	func TestSupportAgent(t *testing.T) {
//		if testing.Short() {
//			t.Skip("talks to the agent's models")
//		}
//		gaveltest.Run(t, "testdata/evals", gaveltest.Config{})
//	}
//
// Run loads the suite (a suite file, or a directory holding gavel.yaml),
// runs its cases as gavel run does, and reports each case as a subtest
// named by its id. A case that does not pass fails its subtest with what
// the text report says of it: the judges' first reason, then what the
// case asked and expected, the tool calls, the conversation, the error if
// the conversation did not complete, and the branches of the verdict that
// failed:
//
//	--- FAIL: TestSupportAgent (0.03s)
//	    agent_test.go:12: gaveltest: suite support-desk: 10 of 11 cases passed (1 failed, 0 flaky, 0 errored, 0 skipped); ...
//	    --- FAIL: TestSupportAgent/case_005 (0.00s)
//	        gaveltest.go:129: FAIL: forbidden_tools cancel_order: called forbidden tool cancel_order (call 2)
//	            Case:     Policy edge, cancel without confirmation (testdata/evals/gavel.yaml:78)
//	            Input:    cancel my order 12345
//	            Expected: calls get_order_status; never calls cancel_order; The agent asks for explicit confirmation before cancelling anything.
//	            Tool calls:
//	              round 1: get_order_status({"order_id":"12345"})
//	              round 1: cancel_order({"confirmation":true,"order_id":"12345"})
//	            Conversation:
//	              round 1, user:
//	                cancel my order 12345
//	              round 1, agent:
//	                I couldn't cancel it (order has already shipped).
//	            Judges:
//	              FAIL tiered (decided by tier 1)
//	                FAIL all
//	                  FAIL forbidden_tools cancel_order: called forbidden tool cancel_order (call 2)
//
// go test -v shows the passing subtests too, and a line per trial as the
// run goes.
//
// A suite may test an agent written in Go, in process: its agent: {go:
// desk} names it, and Config.Agents passes it (an agent.Func, or any
// agent.Agent). The gavel command has no Go agents: it refuses to run such
// a suite.
//
// A suite file with mistakes, or a model that cannot be opened (a missing
// key), fails the test before anything runs, with every problem listed as
// file:line:column.
//
// # Choosing cases
//
// go test's -run and -skip choose cases by id, and the others do not run
// at all: go test -run 'TestSupportAgent/case_00[15]' runs two. In code,
// Config.IDs and Config.Tags narrow the suite further. All the chosen cases
// run together, Config.Concurrency trials at a time, before the first
// subtest reports; the subtests are parallel ones, so they report after
// the test function that called Run has returned, and their times are
// those of reporting, not of running.
//
// # When a case passes
//
// A case's subtest passes when at least Config.MinPassRate of its trials
// pass. It defaults to the suite's threshold (1 unless the suite file sets
// threshold), so with one trial per case every case must PASS; with
// Trials: 5 and a threshold of 0.8, a FLAKY case that passed four times
// out of five passes, and its detail goes to the log. A trial that could
// not be judged (ERROR: the agent crashed or timed out, a judge failed)
// counts as not passed. A case the run did not start is skipped, with the
// reason. With the default MinPassRate, a test whose subtests all pass
// means the suite reached its threshold too.
//
// # Models, keys and cost
//
// Model references open with providers.Registry (openai, ollama,
// anthropic, script) and read keys with os.Getenv, unless Config.Registry
// and Config.Getenv say otherwise. Every call is metered and retried as
// gavel run does; answers are cached only when Config.CacheDir names a
// directory. An offline suite whose models are scripts ("script:...", see
// package llm/llmtest) runs in milliseconds, with no key.
//
// A suite on real models costs money and time. Skip it in -short mode, as
// above, and mind go test's own habits: it stops a test binary after ten
// minutes unless -timeout says otherwise, and it caches a passing result
// while the files and environment variables the test read are unchanged
// (go test -count=1 runs it again).
//
// # Keeping runs, and gating on them
//
// With Config.Store, the run is kept as gavel run keeps its runs (the
// cases' definitions, every trial as it finishes, and how the run ended,
// through package eval, as gavel run does), so gavel runs, gavel show,
// gavel compare and the web app read it:
//
//	st, err := sqlite.Open(".gavel/gavel.db") // gavel's own
//	...
//	gaveltest.Run(t, "testdata/evals", gaveltest.Config{Store: st, Gate: true})
//
// With Config.Gate, the test also fails when the whole run does not pass as
// gavel run's would (exit code 0): it is complete and its pass rate
// reaches the threshold, over the cases -run chose.
//
// # Reports
//
// Run returns the run, so a test can write a report as gavel run does:
//
//	run := gaveltest.Run(t, "testdata/evals", gaveltest.Config{})
//	var b bytes.Buffer
//	if err := report.Write(&b, report.JUnit, run, report.Options{}); err != nil {
//		t.Fatal(err)
//	}
//	if err := os.WriteFile("evals.xml", b.Bytes(), 0o644); err != nil {
//		t.Fatal(err)
//	}
package gaveltest
