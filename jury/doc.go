// Package jury combines several judges, its jurors, into one verdict.
//
// # Juries
//
// A Jury asks every juror to judge the same transcript and turns their
// judgments into one verdict by a voting strategy. It is configured once,
// with New, and every mistake in the configuration is reported there, never
// while judging:
//
//	panel, err := jury.New(jury.Config{
//		Name:   "tone",
//		Jurors: []judge.Judge{politeGPT, politeClaude, politeGemini},
//	})
//
// The jurors judge at once, each in its own goroutine (Config.MaxConcurrent
// bounds how many), and each through judge.Run, so a juror that returns an
// error or panics becomes an ERROR judgment instead of taking its siblings'
// verdicts down with it. When the context ends, Judge returns the context's
// error at once, without waiting for jurors that ignore their context, with
// the judgments of the jurors that had answered and what they spent (a
// juror still asking when Judge returns is not counted).
//
// The verdict lists every juror's judgment as a part, in juror order (an
// unnamed juror is called "juror 1", "juror 2", ...), says in DecidedBy
// which strategy decided, and in Reasoning the tally and how it was
// decided:
//
//	majority: 2 pass, 1 fail, 1 abstained → PASS
//
// Its usage is the sum of the jurors' usage.
//
// # Strategies
//
// Majority and Consensus count PASS and FAIL votes; the verdict's score is
// the fraction of votes that passed.
//
//   - Majority: PASS when more jurors pass than fail. With as many passes as
//     fails, the tie policy decides.
//   - Consensus: PASS only when every vote is a PASS. A unanimous FAIL is a
//     FAIL, and so is a split: "no consensus: 2 pass, 1 fail".
//
// Average, WeightedAverage and Median read each vote's normalised score
// (judge.Judgment.Normalized: a score of any kind on 0..1, or 1 for a PASS
// and 0 for a FAIL without a score), so judges of different kinds vote
// together. The verdict passes when the value reaches Config.Threshold
// (0.5 unless set); the value is the verdict's score.
//
//   - Average: the mean.
//   - WeightedAverage: the weighted mean, one weight per juror. Only the
//     jurors that voted count, and their weights are renormalised over
//     them: a heavy juror that abstains leaves the others to decide.
//   - Median: the middle value; of an even number of votes, the mean of the
//     two middle ones. One wild juror cannot move it.
//
// A value exactly at the threshold passes. So that floating-point rounding
// in a mean never turns an exact hit into a miss, a value within a
// billionth of the threshold is at it (judge.CompareToThreshold).
//
// # Policies
//
// An ABSTAIN is no vote: it is left out of every strategy. If every juror
// abstains, the jury abstains.
//
// A juror that could not judge (ERROR) follows the error policy:
//
//   - ErrorsAsVerdict (the default): the jury cannot judge either; its
//     verdict is ERROR. A missing vote might have changed the outcome, and
//     ERROR is never read as a pass.
//   - ErrorsAsFail: the juror votes FAIL, with a score of 0.
//   - ErrorsIgnored: the juror is left out like an abstention. If no vote
//     remains, the verdict is ERROR, not ABSTAIN.
//
// A Majority vote with as many passes as fails follows the tie policy:
// TieFail (the default), TiePass or TieAbstain. DecidedBy then names it:
// "majority (tie: fail)".
//
// # Nesting
//
// A Jury is a judge.Judge, so it fits anywhere a judge does: as a juror of
// another jury, as a tier of judge.Tiered, or inside judge.All. A nested
// jury's verdict, with its own parts, is one part of the outer verdict, and
// its usage counts in the outer usage.
package jury
