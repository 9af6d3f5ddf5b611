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

func TestRunInfoName(t *testing.T) {
	const id = "20261121-101500-a1b2"
	for _, tc := range []struct {
		name          string
		info          RunInfo
		want, caption string
	}{
		{"everything", RunInfo{ID: id, Label: "prompt v2", GitBranch: "main", GitCommit: "4f2a9c1eabc", StartedBy: "ada"},
			"prompt v2 · main@4f2a9c1e · by ada", id + " (prompt v2 · main@4f2a9c1e · by ada)"},
		{"no label", RunInfo{ID: id, GitBranch: "main", GitCommit: "4f2a9c1eabc", StartedBy: "ada"},
			"main@4f2a9c1e · by ada", id + " (main@4f2a9c1e · by ada)"},
		{"a label alone", RunInfo{ID: id, Label: "nightly"}, "nightly", id + " (nightly)"},
		{"nobody known", RunInfo{ID: id, GitBranch: "fix/refunds"}, "fix/refunds", id + " (fix/refunds)"},
		{"a person alone", RunInfo{ID: id, StartedBy: "ada"}, id + " · by ada", id + " · by ada"},
		{"nothing known", RunInfo{ID: id}, id, id},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.info.Name(); got != tc.want {
				t.Errorf("Name() = %q, want %q", got, tc.want)
			}
			if got := tc.info.Caption(); got != tc.caption {
				t.Errorf("Caption() = %q, want %q", got, tc.caption)
			}
		})
	}
}

func TestParseStatus(t *testing.T) {
	for in, want := range map[string]Status{"": "", "failed": Failed, "abandoned": Abandoned, "interrupted": Incomplete, "done": "bad"} {
		got, err := ParseStatus(in)
		if want == "bad" {
			if err == nil {
				t.Errorf("ParseStatus(%q) = %q, want an error", in, got)
			}
		} else if err != nil || got != want {
			t.Errorf("ParseStatus(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
