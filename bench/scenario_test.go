package main

import (
	"context"
	"testing"
	"time"

	"github.com/gavelhq/gavel/llm"
)

func TestIdealAndBest(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name        string
		s           scenario
		ideal, best time.Duration
	}{
		{"whole rounds", scenario{Cases: 1000, Latency: 50 * ms, Concurrency: 16}, 6250 * ms, 6300 * ms},
		{"a last, partial round of cases", scenario{Cases: 200, Latency: 200 * ms, Concurrency: 64}, 1250 * ms, 1600 * ms},
		{"the server's limit below the concurrency", scenario{Cases: 200, Latency: 200 * ms, Concurrency: 32, InFlight: 8}, 10 * time.Second, 10 * time.Second},
		{"the server's limit above it", scenario{Cases: 100, Latency: 100 * ms, Concurrency: 10, InFlight: 50}, 2 * time.Second, 2 * time.Second},
		{"no latency", scenario{Cases: 1000, Concurrency: 4}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.ideal(); got != tt.ideal {
				t.Errorf("ideal = %v, want %v", got, tt.ideal)
			}
			if got := tt.s.best(); got != tt.best {
				t.Errorf("best = %v, want %v", got, tt.best)
			}
		})
	}
}

func TestTargets(t *testing.T) {
	zero := scenarios[0]
	tests := []struct {
		name   string
		r      result
		missed int
	}{
		{"all met", result{Scenario: zero, Proc: process{Wall: 300 * time.Millisecond, CPU: time.Second, PeakRSS: 60 << 20}, Outcomes: map[string]int{"PASS": 1000}}, 0},
		{"too much memory and an error", result{Scenario: zero, Proc: process{Wall: 300 * time.Millisecond, PeakRSS: 90 << 20, Exit: 1}, Outcomes: map[string]int{"PASS": 999, "ERROR": 1}}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.missed(); len(got) != tt.missed {
				t.Errorf("missed %q, want %d misses", got, tt.missed)
			}
		})
	}
}

func TestFakeAnswersBothRoles(t *testing.T) {
	agent, err := answer(context.Background(), &llm.Request{Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "Repeat the ticket number."},
		{Role: llm.RoleUser, Content: "Please confirm that ticket T-00042 is open."},
	}})
	if err != nil || agent.Text != "Noted: Please confirm that ticket T-00042 is open." {
		t.Errorf("the agent's answer: %v, %v; want the user's message echoed", agent, err)
	}
	judge, err := answer(context.Background(), &llm.Request{ResponseSchema: &llm.Schema{Name: "verdict"}})
	if err != nil || judge.Text != verdict {
		t.Errorf("the judge's answer: %v, %v; want the verdict", judge, err)
	}
}
