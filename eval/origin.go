package eval

import "os"

// An Origin is where a run's code came from and who started it, as a CI
// service says in its environment: a run in CI is often on a detached
// head (git knows no branch), and its user is the runner's, not a
// person's.
type Origin struct {
	// CI names the service ("GitHub Actions"); "" outside CI.
	CI string
	// Branch is the branch built (a pull request's own branch, not the
	// merge ref), Commit the commit, and Actor who made the service run
	// it; "" for what the service does not say.
	Branch, Commit, Actor string
}

// ciService is a CI service: the variable set in its jobs, and those
// that hold the branch (the first one set), the commit and the actor.
type ciService struct {
	name, detect  string
	branch        []string
	commit, actor string
}

// ciServices are the CI services whose variables Gavel reads, as their
// documentation names them.
var ciServices = []ciService{
	// docs.github.com/actions/reference/variables-reference: GITHUB_HEAD_REF
	// is a pull request's branch (GITHUB_REF_NAME is then "123/merge");
	// GITHUB_REF_NAME is read as a branch when GITHUB_REF_TYPE says it is
	// one (see OriginOf).
	{name: "GitHub Actions", detect: "GITHUB_ACTIONS", branch: []string{"GITHUB_HEAD_REF"}, commit: "GITHUB_SHA", actor: "GITHUB_ACTOR"},
	// docs.gitlab.com/ci/variables/predefined_variables: CI_COMMIT_BRANCH
	// is set neither in merge request pipelines nor for tags.
	{name: "GitLab CI", detect: "GITLAB_CI", branch: []string{"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "CI_COMMIT_BRANCH"},
		commit: "CI_COMMIT_SHA", actor: "GITLAB_USER_LOGIN"},
	{name: "CircleCI", detect: "CIRCLECI", branch: []string{"CIRCLE_BRANCH"}, commit: "CIRCLE_SHA1", actor: "CIRCLE_USERNAME"},
	{name: "Buildkite", detect: "BUILDKITE", branch: []string{"BUILDKITE_BRANCH"}, commit: "BUILDKITE_COMMIT", actor: "BUILDKITE_BUILD_CREATOR"},
}

// OriginOf reads the CI service's variables from getenv (os.Getenv); the
// zero Origin outside CI.
func OriginOf(getenv func(string) string) Origin {
	for _, s := range ciServices {
		if getenv(s.detect) == "" {
			continue
		}
		o := Origin{CI: s.name, Commit: getenv(s.commit), Actor: getenv(s.actor)}
		for _, v := range s.branch {
			if o.Branch = getenv(v); o.Branch != "" {
				break
			}
		}
		if o.Branch == "" && s.detect == "GITHUB_ACTIONS" && getenv("GITHUB_REF_TYPE") == "branch" {
			o.Branch = getenv("GITHUB_REF_NAME")
		}
		return o
	}
	return Origin{}
}

// fillGit fills in what git could not tell of a run's code from o: git's
// commit and branch win (the tree the run ran from); the CI's commit
// stands in when git knows none, and its branch names a detached head
// at the commit the CI built.
func fillGit(commit, branch string, o Origin) (string, string) {
	if commit == "" {
		commit = o.Commit
	}
	if branch == "" && commit == o.Commit {
		branch = o.Branch
	}
	return commit, branch
}

// StartedBy names who starts a run, for the store: $GAVEL_USER, else the
// actor of the CI job (GITHUB_ACTOR and the like, see OriginOf), else the
// user's login name ($USER, or $USERNAME on Windows).
func StartedBy() string { return startedBy(os.Getenv) }

// startedBy is StartedBy reading getenv.
func startedBy(getenv func(string) string) string {
	if v := getenv("GAVEL_USER"); v != "" {
		return v
	}
	if a := OriginOf(getenv).Actor; a != "" {
		return a
	}
	for _, n := range []string{"USER", "USERNAME"} {
		if v := getenv(n); v != "" {
			return v
		}
	}
	return ""
}
