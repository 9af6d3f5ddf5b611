// Package audit puts the model judges of a suite through probes for the
// ways judges are known to go wrong, before a team trusts their verdicts
// (gavel audit, docs/audit.md):
//
//   - position: a pairwise judgment asked in both orders (response A
//     first, then B first); a comparison whose two orders disagree
//     flipped with the order, and the share that flip is the judge's
//     position bias;
//   - verbosity: the reply judged as it is and padded with neutral filler
//     that adds nothing (Pad); a padded reply must not score higher, and
//     the share that did and by how much are its verbosity bias;
//   - self-consistency: the same judgment asked k times; the spread of
//     the scores and the share of judgments whose verdicts disagree;
//   - family: a judge of the agent's own model family (the warning of
//     llmjudge.CheckHierarchy) against the same judge on a reference model
//     of another family, on the same replies: the mean score by which its
//     own family's judge favours them;
//   - a self-test on a bias benchmark: Gavel's own set (BiasBench, 42
//     pairs in the six bias types of the OffsetBias paper, in biasbench/)
//     or a file in EvalBiasBench's format (ReadBench): each judge model,
//     as a pairwise judge, picks the better response of every pair, and
//     its accuracy per bias type is printed.
//
// A Plan is what will be asked (its Calls are stated before anything is
// spent); Run asks it and returns a Report, whose Failures are the bars
// (Bars) a judge did not meet. The arithmetic of each probe is a pure
// function of the judgments (PositionOf, VerbosityOf, ConsistencyOf), so
// it is tested without a model; the probes' tests plant biases in
// scripted models (llmtest.Scripted): always answer "A", add 0.2 to a
// longer reply.
//
// Package spec builds a Plan's Judges from a suite file, and the suite's
// audit: block its Config; package eval gathers the transcripts (the
// agent's replies to the suite's cases, or a stored run's) and runs it.
package audit
