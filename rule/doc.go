// Package rule holds Gavel's deterministic judges: checks that need no
// model, cost nothing and give the same verdict every time. They form the
// first tier of a case's judging (see judge.Tiered): a rule that fails
// stops the case before any LLM judge spends a token.
//
// Every rule is built by a constructor that returns (judge.Judge, error).
// The error reports a configuration mistake (an invalid regex or schema, an
// empty name, a threshold out of range) when the rule is built, so a suite
// with a typo fails before anything runs. A rule's reasoning says what was
// expected and what was found: "call 2: expected cancel_order, got
// get_order_status".
//
// Any rule can be made soft with judge.Soft: its failure becomes a finding
// handed to the LLM judges of later tiers ("turn 4 has 3 bubble(s), at most
// 2 allowed"), not a failure of the case.
//
// # Text
//
// Equals, Contains, ContainsAll, ContainsAny, Regex and StartsWith match
// the agent's text. Opts sets the Scope (the final response, or each agent
// turn), negation and case folding.
//
// # Style
//
// The rules a character's style guide sets: MaxQuestions per message,
// MaxBubbles (paragraphs), ForbiddenPhrases, LowercaseOnly, NoEmDash,
// NoPlaceholders (template leaks such as {name} or [PLACEHOLDER]) and
// Length.
//
// # JSON
//
// ValidJSON and JSONSchema (draft 2020-12) check structured replies.
//
// # Tool calls
//
// ExpectedTools and ForbiddenTools check which tools were called;
// ToolCalls checks the calls and their arguments, in order or not, with or
// without extra calls allowed, each expected call once or a number of
// times (ExpectedCall.Min, Max); ForbiddenCalls forbids calls by tool and
// arguments; ToolCallF1 gives partial credit; MaxToolCalls bounds them.
//
// Arguments are compared as JSON values (1 equals 1.0), and only the
// arguments a case lists are compared, in nested objects too, unless the
// call is Exact ("no other arguments"). An expected value may be a
// matcher, an object whose keys all start with "$":
//
//	{"$any_of": ["CDG", "ORY"]}           any of these
//	{"$optional": true, "$eq": "km"}      absent, or exactly "km"
//	{"$regex": "^[A-Z]{6}$"}              a string the expression matches
//	{"$approx": 3.14, "$tolerance": 0.01} a number near 3.14
//	{"$normalize": true, "$eq": "NYC"}    "n.y.c", "nyc": BFCL's standardize_string
//	{"$exact": {"in": "mon"}}             an object with no other keys ($subset: with others)
//	{"$eq": {"$ref": 1}}                  this value exactly, $ keys and all
//
// BFCLCall turns BFCL's possible answers into expected calls that BFCL's
// AST checker agrees with (testdata/bfcl).
//
// A call that failed (judge.ToolCall.IsError, or a result matching
// CallOpts.ErrorResult) changed nothing, as τ-bench sees it: it satisfies
// no expected call, is never an extra call, and is not a forbidden call
// made, unless the expectation has MatchFailed. ExpectedToolsWith and
// ForbiddenToolsWith ignore failed calls too, by the same notion of a
// failed call (ExpectedTools and ForbiddenTools: IsError alone);
// MaxToolCalls counts them.
//
// # Limits
//
// MaxTurnLatency, MaxDuration, MaxTurns, MaxCost and MaxTokens bound what
// the agent under test spent.
//
// # Workspace
//
// FileExists, FileContent and FileJSON check files the agent wrote, with
// relative paths resolved against the transcript's workspace; Command runs
// a program there (exit code, output, timeout); BuildSuccess detects the
// project's build (Go, make, Maven, Gradle, npm) and runs it. Database
// state is judged by package rule/dbstate.
//
// # Programs
//
// NewProgram makes a judge of a program in any language: it reads the
// trial as JSON on its stdin (version ProgramInputVersion: the case, told
// by WithProgramCase, the round, the turns with their tool calls, the
// final response) and answers a status or a score, reasoning and checks
// as JSON on its stdout, a process per judgment or one persistent
// process speaking JSON Lines as the exec agents do. Its verdict is the
// program's, not a rule's own, but it asks no model, so it runs in the
// first tier. An answer that is malformed or contradicts itself is an
// error, never a verdict (docs/program-judges.md).
//
// # Empty transcripts
//
// A rule that reads the conversation fails an empty transcript (no turns,
// no response) with that reason: "must not contain 'sorry'" says nothing
// about an agent that never answered.
package rule
