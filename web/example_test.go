package web_test

import (
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/gavelhq/gavel/store/sqlite"
	"github.com/gavelhq/gavel/web"
)

// The app over a store, as `gavel serve` mounts it; scripts read the same
// data from its JSON API.
func Example() {
	dir, err := os.MkdirTemp("", "gavel-web")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	st, err := sqlite.Open(filepath.Join(dir, "gavel.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()

	app := web.New(st, web.Config{Version: "dev"})
	// http.ListenAndServe("127.0.0.1:8080", app) serves it; here one
	// request goes through it directly.
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest("GET", "/api/runs", nil))
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	fmt.Print(rec.Body.String())
	// Output:
	// 200 application/json; charset=utf-8
	// {
	//   "runs": [],
	//   "next": ""
	// }
}
