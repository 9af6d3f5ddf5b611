package llmtest_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/gavelhq/gavel/llm/llmtest"
)

// A fake OpenAI server answering from a scripted model, with a rate limit
// injected. A provider is given srv.URL as its base URL; here a raw request
// shows the wire.
func ExampleNewOpenAIServer() {
	srv := llmtest.NewOpenAIServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: "Paris."}}})
	defer srv.Close()
	srv.FailNext(429, 2*time.Second)

	send := func() {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/chat/completions",
			strings.NewReader(`{"model":"gpt-5-mini","messages":[{"role":"user","content":"Capital of France?"}]}`))
		req.Header.Set("Authorization", "Bearer sk-test")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		fmt.Println(resp.StatusCode, resp.Header.Get("Retry-After"), strings.Contains(string(body), `"content":"Paris."`))
	}
	send()
	send()
	fmt.Println("requests:", srv.Requests(), "rate limited:", srv.RateLimited())
	// Output:
	// 429 2 false
	// 200  true
	// requests: 2 rate limited: 1
}
