// Package auth is who may do what in the web app: passwords, login
// sessions, API tokens, roles and CSRF protection, on the accounts of a
// store (store.Accounts).
//
// # Secrets
//
// Passwords are kept as salted PBKDF2-SHA256 hashes (600,000 rounds, as
// OWASP advises for it); session and API tokens are 32 random bytes,
// given to the browser or the script once and kept as SHA-256 hashes. No
// secret is stored, logged or shown in clear.
//
// # Requests
//
// Authenticator.Middleware finds who sends a request: the session cookie
// of a browser, or an "Authorization: Bearer TOKEN" header of a script.
// When login is not required (the app listens on loopback only) a
// request from no one is the local user, an admin; when it is required,
// a page redirects to /login and the API answers 401.
//
// Every state-changing request (not GET, HEAD or OPTIONS) from a browser
// must carry the CSRF token of its session (the form field "csrf" or the
// header X-CSRF-Token) and, when it sends an Origin header, come from the
// app's own origin. A request with a bearer token needs neither: a token
// is never sent by a browser on its own. The local user's CSRF token lives
// in a cookie of its own, so a page of another site cannot post to a
// Gavel on 127.0.0.1 either. The local user's JSON requests need no
// token: no page of another site can send one without a CORS preflight,
// which the app never grants, so a script on the machine posts JSON to
// the API as it is.
//
// The local user exists only for requests addressed to localhost or a
// loopback address (their Host header) that came through no proxy: a
// page of another site that makes its own name resolve to 127.0.0.1 (DNS
// rebinding) is refused, and so is a request a reverse proxy forwarded
// (it says so in X-Forwarded-For, Forwarded, Via and the like), since
// the proxy serves everyone.
//
// Failed logins hold back the address they came from after 5 in a row,
// and the account after 20, each with growing delays: an address
// guessing at an account is slowed long before the account is, so nobody
// locks another person out by failing under their name.
//
// Cookies are HttpOnly and SameSite=Lax, and Secure when the app is
// served over TLS (Config.Secure).
package auth
