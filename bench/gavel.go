package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// buildGavel builds ./cmd/gavel of the module in repo into dir.
func buildGavel(ctx context.Context, repo, dir string) (string, error) {
	bin := filepath.Join(dir, "gavel")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/gavel")
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build gavel: %w\n%s", err, out)
	}
	return bin, nil
}

// tail returns the last lines of dir/gavel.out, for an error message.
func tail(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "gavel.out"))
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-15):], "\n")
}

// gavelEnv is the environment gavel runs with: ours, without any model
// vendor's variables, and the fake's base URL and key.
func gavelEnv(baseURL string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "OPENAI_") || strings.HasPrefix(name, "ANTHROPIC_") || strings.HasPrefix(name, "OLLAMA_") || strings.HasPrefix(name, "GAVEL_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "OPENAI_BASE_URL="+baseURL, "OPENAI_API_KEY="+benchKey)
}

// outcomes reads how many cases came out each way (PASS, FAIL, ERROR, …)
// from the JSON report gavel wrote in dir.
func outcomes(dir string) (map[string]int, error) {
	b, err := os.ReadFile(filepath.Join(dir, "reports", "latest.json"))
	if err != nil {
		return nil, fmt.Errorf("read the report: %w", err)
	}
	var r struct {
		Stats struct {
			Cases map[string]int `json:"cases"`
		} `json:"stats"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("read the report: %w", err)
	}
	return r.Stats.Cases, nil
}
