package web

import (
	"fmt"
	"net/url"
	"strings"
)

// traceIDPlaceholder is what a Config.TraceURL template has where the
// trace id goes.
const traceIDPlaceholder = "{trace_id}"

// CheckTraceURL checks a trace URL template (Config.TraceURL): an http or
// https URL with {trace_id} in it, or "" for none.
func CheckTraceURL(template string) error {
	if template == "" {
		return nil
	}
	if !strings.Contains(template, traceIDPlaceholder) {
		return fmt.Errorf("trace URL %q has no %s: write where the trace id goes, as in http://localhost:16686/trace/%s", template, traceIDPlaceholder, traceIDPlaceholder)
	}
	u, err := url.Parse(strings.ReplaceAll(template, traceIDPlaceholder, "0"))
	if err != nil {
		return fmt.Errorf("trace URL %q: %w", template, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("trace URL %q: want an http:// or https:// URL", template)
	}
	return nil
}

// traceHref is the link to a trace, or "" when the server has no trace
// URL or the trial no trace. A trace id is hexadecimal (the store keeps
// what the runner wrote); anything else gets no link.
func (s *Server) traceHref(traceID string) string {
	if s.cfg.TraceURL == "" || traceID == "" || strings.Trim(traceID, "0123456789abcdef") != "" {
		return ""
	}
	return strings.ReplaceAll(s.cfg.TraceURL, traceIDPlaceholder, traceID)
}
