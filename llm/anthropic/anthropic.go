package anthropic

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/gavelhq/gavel/llm"
)

// DefaultBaseURL is Anthropic's API.
const DefaultBaseURL = "https://api.anthropic.com"

// DefaultMaxTokens is the max_tokens sent when a request's MaxTokens is 0:
// Anthropic requires one.
const DefaultMaxTokens = 4096

// Config configures a Model.
type Config struct {
	// APIKey is sent in the x-api-key header. When empty none is sent;
	// ANTHROPIC_API_KEY is not read (Open reads it).
	APIKey string
	// BaseURL is the API's address, without /v1. Defaults to
	// DefaultBaseURL.
	BaseURL string
	// Model is the model asked when a request names none.
	Model string
	// Provider labels errors and APIErrors. Defaults to "anthropic".
	Provider string
	// HTTPClient sends the requests. Defaults to http.DefaultClient.
	HTTPClient *http.Client
	// MaxResponseBytes bounds a response's body: a larger one is an
	// *llm.TooLargeError, read no further. Defaults to
	// llm.DefaultMaxResponseBytes (Open reads GAVEL_MAX_RESPONSE_MB).
	MaxResponseBytes int64
}

// A Model generates responses with Anthropic's Messages API. It is safe
// for concurrent use.
type Model struct {
	messages sdk.MessageService
	model    string
	provider string
}

// New returns a Model that talks to the API c describes. It makes no
// request.
func New(c Config) (*Model, error) {
	if c.Provider == "" {
		c.Provider = "anthropic"
	}
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s: base URL %q: want an http(s) URL, such as %s", c.Provider, c.BaseURL, DefaultBaseURL)
	}
	opts := []option.RequestOption{
		// The SDK would otherwise read keys, profiles and a base URL from
		// the environment: Config says everything.
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(c.BaseURL),
		// llm.Retry retries, with the same policy for every vendor.
		option.WithMaxRetries(0),
		option.WithMiddleware(limitBody(c.MaxResponseBytes)),
	}
	if c.APIKey != "" {
		opts = append(opts, option.WithAPIKey(c.APIKey))
	}
	if c.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(c.HTTPClient))
	}
	// The messages service alone, with the options sdk.NewClient would give
	// it (without the environment's defaults, the production environment
	// first): a whole sdk.Client builds every service of the API, which
	// keeps all their code in the binary (bench/README.md, "The binary's
	// size").
	messages := sdk.NewMessageService(append([]option.RequestOption{option.WithEnvironmentProduction()}, opts...)...)
	return &Model{messages: messages, model: c.Model, provider: c.Provider}, nil
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

// Generate sends req as one Messages request. A vendor's error answer is
// an *llm.APIError; the SDK does not retry (wrap the Model in llm.Retry).
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
	_, err = m.messages.New(ctx, params,
		option.WithResponseBodyInto(&body),
		option.WithResponseInto(&hr))
	latency := time.Since(start)
	if err != nil {
		return nil, m.fail(err, hr)
	}
	resp, err := m.response(body, req.ResponseSchema)
	if err != nil {
		return nil, err
	}
	if resp.Model == "" {
		resp.Model = params.Model
	}
	if hr != nil {
		resp.RequestID = hr.Header.Get("request-id")
	}
	resp.Latency = latency
	return resp, nil
}
