package auth

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// pbkdf2Rounds is the cost of a password hash.
const pbkdf2Rounds = 600_000

// minPassword is the shortest password accepted.
const minPassword = 10

// HashPassword returns a salted hash of password, to keep instead of it:
// "pbkdf2-sha256$ROUNDS$SALT$HASH", in base64. A password shorter than
// 10 characters is refused.
func HashPassword(password string) (string, error) {
	if len([]rune(password)) < minPassword {
		return "", fmt.Errorf("the password is too short: use at least %d characters", minPassword)
	}
	salt := make([]byte, 16)
	rand.Read(salt)
	key, err := pbkdf2.Key(sha256.New, password, salt, pbkdf2Rounds, 32)
	if err != nil {
		return "", err
	}
	enc := base64.RawStdEncoding
	return fmt.Sprintf("pbkdf2-sha256$%d$%s$%s", pbkdf2Rounds, enc.EncodeToString(salt), enc.EncodeToString(key)), nil
}

// CheckPassword reports whether password is the one hash was made from.
func CheckPassword(hash, password string) bool {
	rounds, salt, want, err := parseHash(hash)
	if err != nil {
		return false
	}
	got, err := pbkdf2.Key(sha256.New, password, salt, rounds, len(want))
	return err == nil && subtle.ConstantTimeCompare(got, want) == 1
}

func parseHash(hash string) (rounds int, salt, key []byte, err error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 4 || parts[0] != "pbkdf2-sha256" {
		return 0, nil, nil, errors.New("not a pbkdf2-sha256 hash")
	}
	if rounds, err = strconv.Atoi(parts[1]); err != nil || rounds < 1 {
		return 0, nil, nil, errors.New("bad rounds")
	}
	enc := base64.RawStdEncoding
	if salt, err = enc.DecodeString(parts[2]); err != nil {
		return 0, nil, nil, err
	}
	if key, err = enc.DecodeString(parts[3]); err != nil || len(key) == 0 {
		return 0, nil, nil, errors.New("bad key")
	}
	return rounds, salt, key, nil
}

// NewToken returns a new random token (for a session or a script) and the
// hash to keep of it.
func NewToken() (token, hash string) {
	b := make([]byte, 32)
	rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token)
}

// HashToken returns the hash a token is kept and looked up by.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
