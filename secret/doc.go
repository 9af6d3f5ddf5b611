// Package secret keeps the secrets a run must never write: the keys,
// passwords and tokens a suite file reads from the environment with
// ${VAR}, in a header, a command or part of a URL.
//
// A Set holds them, each with the marker that takes its place: ${VAR}
// for a variable's value, *** for a part of a URL. Package spec fills the
// suite's Set as it expands the file's variables (which values are
// secrets is its decision: see docs/decisions/0020-secrets-never-written.md),
// and everything written about a run goes through it once, where it is
// made: the runner hides them in every trial it returns (Set.RedactValue:
// the transcript, the verdicts, the errors) and in the spans under the
// trial's context (NewContext, FromContext), and spec in its problems,
// its warnings, the model references it shows and what exec agents
// write on stderr (Set.Writer). The reports, the results database, the
// web app and the commands' messages are made from those, so none of
// them holds a secret.
//
// Address hides, whatever their origin, the parts of a URL that may hold
// a password or a token (its user info, query values and fragment), in a
// URL or a model reference that names one.
//
// It uses the standard library only, so that every layer may use it.
package secret
