package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gavelhq/gavel/auth"
)

// loginRoutes are the routes of logging in and out (with Config.Auth).
func (s *Server) loginRoutes() []route {
	return []route{
		{"GET /login", Anyone, s.page(s.loginPage)},
		{"POST /login", Anyone, http.HandlerFunc(s.login)},
		{"POST /logout", Viewer, http.HandlerFunc(s.logout)},
	}
}

// loginData is login.tmpl's data.
type loginData struct {
	Next, Name, Problem string
}

func (s *Server) loginPage(r *http.Request) (view, error) {
	return view{template: "login.tmpl", title: "Log in", data: loginData{Next: safeNext(r.FormValue("next"))}}, nil
}

// login checks the form's name and password; it answers the form again,
// with the problem, when they do not match.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	name, next := r.PostFormValue("name"), safeNext(r.PostFormValue("next"))
	cookie, err := s.cfg.Auth.Login(r.Context(), name, r.PostFormValue("password"))
	if err != nil {
		problem := "Wrong name or password."
		status := http.StatusUnauthorized
		if !errors.Is(err, auth.ErrBadLogin) {
			s.logError(r, http.StatusInternalServerError, err)
			problem, status = "The server could not log you in: its log says more.", http.StatusInternalServerError
		}
		s.render(w, r, status, view{template: "login.tmpl", title: "Log in", data: loginData{Next: next, Name: name, Problem: problem}})
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
// another site ("//evil.example" included).
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") {
		return "/runs"
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
