package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gavelhq/gavel/auth"
)

// loginRoutes are the routes of logging in and out (with Config.Auth).
func (s *Server) loginRoutes() []route {
	return []route{
		{"GET /login", Anyone, http.HandlerFunc(s.loginPage)},
		{"POST /login", Anyone, http.HandlerFunc(s.login)},
		{"POST /logout", Viewer, http.HandlerFunc(s.logout)},
	}
}

// loginData is login.tmpl's data: CSRF is the form's token (see
// auth.LoginForm).
type loginData struct {
	Next, Name, Problem, CSRF string
}

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	data := loginData{Next: safeNext(r.FormValue("next")), CSRF: s.cfg.Auth.LoginForm(w, r)}
	s.render(w, r, http.StatusOK, view{template: "login.tmpl", title: "Log in", data: data})
}

// login checks the form's name and password; it answers the form again,
// with the problem, when they do not match, when the form came from
// another site, or while the account or the address is held back for
// failing too often.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	name, next := r.PostFormValue("name"), safeNext(r.PostFormValue("next"))
	fail := func(status int, problem string) {
		data := loginData{Next: next, Name: name, Problem: problem, CSRF: s.cfg.Auth.LoginForm(w, r)}
		s.render(w, r, status, view{template: "login.tmpl", title: "Log in", data: data})
	}
	if err := s.cfg.Auth.CheckLoginForm(r); err != nil {
		fail(http.StatusForbidden, "This login form is stale or came from another site: reload the page and try again.")
		return
	}
	cookie, err := s.cfg.Auth.Login(r.Context(), name, r.PostFormValue("password"), r.RemoteAddr)
	var throttled *auth.ThrottledError
	switch {
	case errors.As(err, &throttled):
		w.Header().Set("Retry-After", strconv.Itoa(int(throttled.RetryAfter.Seconds()+0.999)))
		fail(http.StatusTooManyRequests, "Too many failed logins from here or for this name: try again in "+throttled.RetryAfter.Round(time.Second).String()+".")
		return
	case errors.Is(err, auth.ErrBadLogin):
		fail(http.StatusUnauthorized, "Wrong name or password.")
		return
	case err != nil:
		s.logError(r, http.StatusInternalServerError, err)
		fail(http.StatusInternalServerError, "The server could not log you in: its log says more.")
		return
	}
	http.SetCookie(w, cookie)
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	cookie, err := s.cfg.Auth.Logout(r)
	if err != nil {
		s.logError(r, http.StatusInternalServerError, err)
		http.Error(w, "internal error: the server's log says more", http.StatusInternalServerError)
		return
	}
	http.SetCookie(w, cookie)
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

// safeNext is where to go after logging in: a path of this app, never
// another site. Browsers drop tabs and newlines from a URL and read a
// backslash as a slash, so "/\t/evil.example" and "/\\evil.example" lead
// to evil.example: a next with a control character, a backslash or two
// slashes in a row, as written or percent-decoded, is refused, and so is
// one that does not parse as a path.
func safeNext(next string) string {
	const home = "/" // the home page
	decoded, err := url.PathUnescape(next)
	if err != nil || !strings.HasPrefix(next, "/") {
		return home
	}
	for _, s := range []string{next, decoded} {
		if strings.ContainsFunc(s, unicode.IsControl) || strings.Contains(s, "\\") || strings.HasPrefix(s, "//") {
			return home
		}
	}
	if u, err := url.Parse(next); err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return home
	}
	return next
}

// requireRole is the Guard of an app with Config.Auth: a route's role,
// checked against the visitor's.
func requireRole(need Role, next http.Handler) http.Handler {
	if need == Anyone {
		return next
	}
	return auth.Require(need, next)
}
