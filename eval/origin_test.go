package eval

import "testing"

// env is a fake environment: getenv over a map.
type env map[string]string

func (e env) get(name string) string { return e[name] }

// A run in CI names the branch and commit the CI built, and the person
// who made it run, where git cannot (a detached head, no repository) and
// the login is the runner's.
func TestOriginOfCI(t *testing.T) {
	const sha, gitSHA = "4f2a9c1e0123456789abcdef0123456789abcdef", "9999999e0123456789abcdef0123456789abcdef"
	for _, tc := range []struct {
		name string
		env  env
		// git's commit and branch where the run ran.
		gitCommit, gitBranch   string
		want                   Origin
		commit, branch, starts string
	}{
		{"outside CI", env{"USER": "ada"}, gitSHA, "main",
			Origin{}, gitSHA, "main", "ada"},
		{"GitHub, a push", env{"GITHUB_ACTIONS": "true", "GITHUB_REF_NAME": "main", "GITHUB_REF_TYPE": "branch", "GITHUB_SHA": sha, "GITHUB_ACTOR": "octocat", "USER": "runner"}, sha, "",
			Origin{CI: "GitHub Actions", Branch: "main", Commit: sha, Actor: "octocat"}, sha, "main", "octocat"},
		{"GitHub, a pull request on its merge commit", env{"GITHUB_ACTIONS": "true", "GITHUB_HEAD_REF": "fix/refunds", "GITHUB_REF_NAME": "42/merge", "GITHUB_REF_TYPE": "branch", "GITHUB_SHA": sha, "GITHUB_ACTOR": "octocat"}, sha, "",
			Origin{CI: "GitHub Actions", Branch: "fix/refunds", Commit: sha, Actor: "octocat"}, sha, "fix/refunds", "octocat"},
		{"GitHub, a tag is no branch", env{"GITHUB_ACTIONS": "true", "GITHUB_REF_NAME": "v1.2.0", "GITHUB_REF_TYPE": "tag", "GITHUB_SHA": sha}, sha, "",
			Origin{CI: "GitHub Actions", Commit: sha}, sha, "", ""},
		{"GitHub, git on a branch of its own wins", env{"GITHUB_ACTIONS": "true", "GITHUB_REF_NAME": "main", "GITHUB_REF_TYPE": "branch", "GITHUB_SHA": sha}, gitSHA, "",
			Origin{CI: "GitHub Actions", Branch: "main", Commit: sha}, gitSHA, "", ""},
		{"GitHub, no repository checked out", env{"GITHUB_ACTIONS": "true", "GITHUB_REF_NAME": "main", "GITHUB_REF_TYPE": "branch", "GITHUB_SHA": sha}, "", "",
			Origin{CI: "GitHub Actions", Branch: "main", Commit: sha}, sha, "main", ""},
		{"GitLab, a merge request", env{"GITLAB_CI": "true", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "fix/refunds", "CI_COMMIT_SHA": sha, "GITLAB_USER_LOGIN": "grace"}, sha, "",
			Origin{CI: "GitLab CI", Branch: "fix/refunds", Commit: sha, Actor: "grace"}, sha, "fix/refunds", "grace"},
		{"GitLab, a branch", env{"GITLAB_CI": "true", "CI_COMMIT_BRANCH": "main", "CI_COMMIT_SHA": sha}, sha, "",
			Origin{CI: "GitLab CI", Branch: "main", Commit: sha}, sha, "main", ""},
		{"GAVEL_USER names who, in CI too", env{"GITHUB_ACTIONS": "true", "GITHUB_ACTOR": "octocat", "GAVEL_USER": "release-bot"}, "", "",
			Origin{CI: "GitHub Actions", Actor: "octocat"}, "", "", "release-bot"},
		{"CircleCI", env{"CIRCLECI": "true", "CIRCLE_BRANCH": "main", "CIRCLE_SHA1": sha, "CIRCLE_USERNAME": "ada"}, "", "",
			Origin{CI: "CircleCI", Branch: "main", Commit: sha, Actor: "ada"}, sha, "main", "ada"},
		{"Buildkite", env{"BUILDKITE": "true", "BUILDKITE_BRANCH": "main", "BUILDKITE_COMMIT": sha, "BUILDKITE_BUILD_CREATOR": "Ada L."}, sha, "main",
			Origin{CI: "Buildkite", Branch: "main", Commit: sha, Actor: "Ada L."}, sha, "main", "Ada L."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := OriginOf(tc.env.get)
			if o != tc.want {
				t.Errorf("OriginOf = %+v, want %+v", o, tc.want)
			}
			commit, branch := fillGit(tc.gitCommit, tc.gitBranch, o)
			if commit != tc.commit || branch != tc.branch {
				t.Errorf("the run's commit and branch: %q, %q; want %q, %q", commit, branch, tc.commit, tc.branch)
			}
			if got := startedBy(tc.env.get); got != tc.starts {
				t.Errorf("started by %q, want %q", got, tc.starts)
			}
		})
	}
}
