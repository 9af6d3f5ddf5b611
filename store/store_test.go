package store

import "testing"

func TestRunInfoGit(t *testing.T) {
	for _, tc := range []struct {
		name string
		info RunInfo
		want string
	}{
		{"clean", RunInfo{GitBranch: "main", GitCommit: "539a404abcdef"}, "main@539a404a"},
		{"dirty", RunInfo{GitBranch: "main", GitCommit: "539a404abcdef", GitDirty: true}, "main@539a404a+dirty"},
		{"detached, dirty", RunInfo{GitCommit: "539a404", GitDirty: true}, "539a404+dirty"},
		{"no git", RunInfo{}, ""},
		{"no git, dirty said", RunInfo{GitDirty: true}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.info.Git(); got != tc.want {
				t.Errorf("Git() = %q, want %q", got, tc.want)
			}
		})
	}
}
