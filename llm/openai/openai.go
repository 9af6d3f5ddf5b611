package openai

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/gavelhq/gavel/llm"
)

// DefaultBaseURL is OpenAI's API.
const DefaultBaseURL = "https://api.openai.com/v1"

// Config configures a Model.
type Config struct {
	// APIKey is sent as a bearer token. When empty none is sent, for a
	// local server that wants none; OPENAI_API_KEY is not read (Open reads
	// it).
	APIKey string
	// BaseURL is the API's address, /v1 included. Defaults to
	// DefaultBaseURL.
	BaseURL string
	// Model is the model asked when a request names none.
	Model string
	// Provider labels errors and APIErrors. Defaults to "openai".
	Provider string
	// HTTPClient sends the requests. Defaults to a client that every such
	// Model shares, which keeps enough connections open for a run's
	// concurrent calls.
	HTTPClient *http.Client
	// MaxResponseBytes bounds a response's body: a larger one is an
	// *llm.TooLargeError, read no further. Defaults to
	// llm.DefaultMaxResponseBytes (Open reads GAVEL_MAX_RESPONSE_MB).
	MaxResponseBytes int64
}

// A Model generates responses with the Chat Completions API of OpenAI or
// of an OpenAI-compatible server. It is safe for concurrent use.
type Model struct {
	chat     sdk.ChatCompletionService
	model    string
	provider string
	// legacyMaxTokens sends MaxTokens as max_tokens, for servers (Ollama)
	// that do not read max_completion_tokens.
	legacyMaxTokens bool
}

// New returns a Model that talks to the API c describes. It makes no
// request.
func New(c Config) (*Model, error) {
	if c.Provider == "" {
		c.Provider = "openai"
	}
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s: base URL %q: want an http(s) URL, such as %s", c.Provider, c.BaseURL, DefaultBaseURL)
	}
	opts := []option.RequestOption{
		option.WithBaseURL(c.BaseURL),
		// Always set, even empty, so that the SDK does not fall back on
		// OPENAI_API_KEY and send it to another server.
		option.WithAPIKey(c.APIKey),
		// llm.Retry retries, with the same policy for every vendor.
		option.WithMaxRetries(0),
		option.WithMiddleware(limitBody(c.MaxResponseBytes)),
	}
	opts = append(opts, option.WithHTTPClient(cmp.Or(c.HTTPClient, defaultClient)))
	// The chat completions service alone, with the options sdk.NewClient
	// would give it (the environment's defaults first): a whole sdk.Client
	// builds every service of the API, which keeps all their code in the
	// binary (bench/README.md, "The binary's size").
	chat := sdk.NewChatCompletionService(append(sdk.DefaultClientOptions(), opts...)...)
	return &Model{chat: chat, model: c.Model, provider: c.Provider}, nil
}

// limitBody caps the body of every response at limit bytes (see
// llm.LimitBody), so a server that answers without end is not read whole.
func limitBody(limit int64) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if resp != nil && resp.Body != nil {
			resp.Body = llm.LimitBody(resp.Body, resp.ContentLength, limit)
		}
		return resp, err
	}
}

// Generate sends req as one chat completion request. A vendor's error
// answer is an *llm.APIError; the SDK does not retry (wrap the Model in
// llm.Retry).
func (m *Model) Generate(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	params, err := m.params(req)
	if err != nil {
		return nil, err
	}
	var (
		body []byte
		hr   *http.Response
	)
	start := time.Now()
	_, err = m.chat.New(ctx, params,
		option.WithResponseBodyInto(&body),
		option.WithResponseInto(&hr))
	latency := time.Since(start)
	if err != nil {
		return nil, m.fail(err, hr)
	}
	resp, err := m.response(body)
	if err != nil {
		return nil, err
	}
	if resp.Model == "" {
		resp.Model = params.Model
	}
	if hr != nil {
		resp.RequestID = hr.Header.Get("x-request-id")
	}
	resp.Latency = latency
	return resp, nil
}
