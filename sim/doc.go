// Package sim simulates the user: a persona (a name, a background, traits
// such as "casual texter, lowercase, short messages", a goal, facts it may
// share and facts it must keep) played by a small, fast model that reads
// the agent's reply and writes the next user message in character. The
// agent under test sees a real conversation, not a script, so a whole
// LLM-versus-LLM conversation can be tested.
//
// The user stops when its model writes the stop signal (the goal is
// reached, or it gives up) or after MaxTurns messages.
package sim
