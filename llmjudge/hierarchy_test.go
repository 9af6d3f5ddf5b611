package llmjudge

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckHierarchy(t *testing.T) {
	for _, tc := range []struct {
		judge, agent string
		wantFamily   string // "" when no warning is wanted
		wantSame     bool
		wantErr      string // an error that is not a warning
	}{
		{judge: "anthropic:claude-opus-4-5", agent: "openai:gpt-5-mini"},
		{judge: "openai:gpt-5", agent: "anthropic:claude-sonnet-4-5"},
		{judge: "anthropic:claude-opus-4-5", agent: "anthropic:claude-sonnet-4-5", wantFamily: "claude"},
		{judge: "anthropic:claude-opus-4-7", agent: "anthropic:claude-opus-4-7", wantFamily: "claude", wantSame: true},
		{judge: "openai:gpt-5", agent: "openai:gpt-5-mini", wantFamily: "gpt"},
		{judge: "openai:gpt-4.1", agent: "azure:GPT-4.1", wantFamily: "gpt", wantSame: true},
		{judge: "ollama:llama3.1:70b", agent: "openai:meta-llama/Llama-3.1-8B-Instruct@http://127.0.0.1:8000/v1", wantFamily: "llama"},
		{judge: "openai:qwen2.5-72b@http://localhost:8000/v1", agent: "ollama:Qwen/Qwen2.5-7B-Instruct", wantFamily: "qwen"},
		{judge: "bedrock:us.anthropic.claude-3-5-sonnet-20240620-v1:0", agent: "anthropic:claude-haiku-4-5", wantFamily: "claude"},
		{judge: "google:gemini-2.5-pro", agent: "mistral:mistral-large-2411"},
		{judge: "google:gemini-2.5-pro", agent: "google:gemini-2.5-flash", wantFamily: "gemini"},
		{judge: "openai:o3", agent: "openai:gpt-5-mini"},
		{judge: "x:4o", agent: "y:4o-mini"},
		{judge: "gpt-5", agent: "openai:gpt-5", wantErr: "judge model: model reference"},
		{judge: "openai:gpt-5", agent: "", wantErr: "agent model: model reference"},
	} {
		t.Run(tc.judge+" judges "+tc.agent, func(t *testing.T) {
			err := CheckHierarchy(tc.judge, tc.agent)
			var w *HierarchyWarning
			switch {
			case tc.wantErr != "":
				if err == nil || errors.As(err, &w) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error = %v, want a reference error containing %q", err, tc.wantErr)
				}
			case tc.wantFamily == "":
				if err != nil {
					t.Errorf("error = %v, want none", err)
				}
			case !errors.As(err, &w):
				t.Errorf("error = %v, want a *HierarchyWarning", err)
			case w.Family != tc.wantFamily || w.SameModel != tc.wantSame:
				t.Errorf("warning = %+v, want family %q, same model %v", w, tc.wantFamily, tc.wantSame)
			case !strings.Contains(err.Error(), tc.judge) || !strings.Contains(err.Error(), "another family"):
				t.Errorf("warning = %q, want it to name the judge and give the fix", err)
			}
		})
	}
}

func TestFamily(t *testing.T) {
	for name, want := range map[string]string{
		"gpt-5-mini": "gpt", "claude-opus-4-5": "claude", "llama3.1": "llama", "qwen2.5-7b": "qwen",
		"gemini-2.5-pro": "gemini", "mistral-large": "mistral", "deepseek-r1": "deepseek", "4o": "",
	} {
		if got := family(name); got != want {
			t.Errorf("family(%q) = %q, want %q", name, got, want)
		}
	}
}
