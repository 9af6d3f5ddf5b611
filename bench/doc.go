// Command bench measures Gavel's speed side by side with its peers: it
// runs the gavel binary, as a user would, on generated suites against a
// fake OpenAI-compatible server on a loopback port, and prints wall time,
// ideal time, CPU seconds, peak RSS, the calls the server received and its
// 429 answers.
//
// From the repository's root:
//
//	go run ./bench                      # every scenario of bench/README.md
//	go run ./bench -scenario 50ms       # one of them
//	go run ./bench -cases 500 -latency 100ms -concurrency 8 -inflight 4
//
// It builds ./cmd/gavel once (or takes -gavel PATH), then for each
// scenario generates a suite of N cases in a temporary directory: every
// case asks the agent (openai:fake-agent) one question, checks the answer
// with a contains rule and has a rubric judge (openai:fake-judge) score it,
// so a case costs two model calls. The fake server (llmtest.OpenAIServer,
// which checks requests as the real API does) waits the scenario's latency
// before answering and answers 429, with a Retry-After header, above its
// in-flight limit. Gavel runs as a subprocess with OPENAI_BASE_URL pointed
// at the fake; its CPU time and peak RSS come from the kernel's rusage of
// the finished process.
//
// With -store sqlite, postgres or both, it measures the results store
// instead (issue 6): it seeds a fresh store (an SQLite file in a temporary
// directory, or a schema of its own in the PostgreSQL database of
// -postgres or GAVEL_TEST_POSTGRES_URL) with a history of -runs runs of
// -trials-per-run trials, written through the store's API by -writers
// goroutines; then times the reads a user waits for (listing runs, a
// run's summary, a suite's trend), each on a store just opened and again
// on a warm one; then writes a run paced like a real one with 64 trials in
// flight, and times SaveTrial meanwhile.
//
//	go run ./bench -store both               # 10,000 runs × 100 trials on each
//	go run ./bench -store sqlite -runs 500   # a quick try
//
// With -queue N, it measures gavel run --queue instead (issue 17): a run
// of N trials enqueued in a fresh schema of -postgres and run by -workers
// gavel worker processes against the fake, timed against the ideal.
//
//	go run ./bench -queue 10000              # 4 workers × 16, 200 ms calls
//	go run ./bench -queue 10000 -queue-latency 100ms
//
// Everything stays on 127.0.0.1, and the temporary directories (and
// PostgreSQL schemas) are removed at the end (-keep keeps them). See
// bench/README.md for the columns, the targets and the figures measured.
package main
