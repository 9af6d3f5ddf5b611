package telemetry

import (
	"context"
	"net/url"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/secret"
)

// Model returns middleware that traces every call of a model opened from
// ref as a span "chat MODEL" (the conventions' inference span): the
// provider (gen_ai.provider.name, the reference's provider: openai,
// anthropic, ollama, script), the models asked and answering, the tokens,
// the finish reason, the vendor's request id, and error.type when the
// call failed (the vendor's HTTP status, timeout, unreachable, _OTHER).
// An answer from Gavel's cache is marked gavel.cache.hit. While tracing
// is off, a call costs one atomic load more.
func Model(ref llm.Ref) llm.Middleware {
	static := []attribute.KeyValue{
		attribute.String(attrOperation, opChat),
		attribute.String(attrProvider, ref.Provider),
	}
	if u, err := url.Parse(ref.BaseURL); ref.BaseURL != "" && err == nil && u.Hostname() != "" {
		static = append(static, attribute.String(attrServerAddress, u.Hostname()))
		if port, err := strconv.Atoi(u.Port()); err == nil {
			static = append(static, attribute.Int(attrServerPort, port))
		}
	}
	return func(next llm.Model) llm.Model {
		return llm.Func(func(ctx context.Context, req *llm.Request) (*llm.Response, error) {
			t := tracer()
			if t == nil {
				return next.Generate(ctx, req)
			}
			model := ref.Model
			if req.Model != "" {
				model = req.Model
			}
			model = secret.FromContext(ctx).Redact(model)
			attrs := append(static[:len(static):len(static)], attribute.String(attrRequestModel, model))
			if req.MaxTokens > 0 {
				attrs = append(attrs, attribute.Int(attrMaxTokens, req.MaxTokens))
			}
			if req.Temperature != nil {
				attrs = append(attrs, attribute.Float64(attrTemperature, *req.Temperature))
			}
			if req.Seed != nil {
				attrs = append(attrs, attribute.Int64(attrSeed, *req.Seed))
			}
			if req.ResponseSchema != nil {
				attrs = append(attrs, attribute.String(attrOutputType, "json"))
			}
			ctx, span := t.Start(ctx, opChat+" "+model, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
			resp, err := next.Generate(ctx, req)
			if resp != nil {
				span.SetAttributes(
					attribute.Int64(attrInputTokens, resp.Usage.InputTokens),
					attribute.Int64(attrOutputTokens, resp.Usage.OutputTokens))
				if resp.Usage.CachedTokens > 0 {
					span.SetAttributes(attribute.Int64(attrCacheRead, resp.Usage.CachedTokens))
				}
				if resp.Model != "" {
					span.SetAttributes(attribute.String(attrResponseModel, resp.Model))
				}
				if resp.RequestID != "" {
					span.SetAttributes(attribute.String(attrRequestID, resp.RequestID))
				}
				if resp.ID != "" {
					span.SetAttributes(attribute.String(attrResponseID, resp.ID))
				}
				if resp.FinishReason != "" {
					span.SetAttributes(attribute.StringSlice(attrFinishReasons, []string{string(resp.FinishReason)}))
				}
				if resp.Cached {
					span.SetAttributes(attribute.Bool(attrCacheHit, true))
				}
			}
			endWithError(ctx, span, err)
			return resp, err
		})
	}
}
