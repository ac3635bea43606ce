package main

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"

	"dyno.local/scenarios/dyno"
)

func writeJSON(w http.ResponseWriter, status int, value any) {
	body, err := json.Marshal(value)
	if err != nil {
		writeText(w, http.StatusInternalServerError, "Internal Server Error")
		return
	}
	writeBody(w, status, "application/json", body)
}

func writeText(w http.ResponseWriter, status int, text string) {
	writeBody(w, status, "text/plain; charset=utf-8", []byte(text))
}

// writeBody writes a whole response with an explicit Content-Length, as the node-http baseline does.
func writeBody(w http.ResponseWriter, status int, contentType string, body []byte) {
	header := w.Header()
	header.Set("Content-Type", contentType)
	header.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// answer sends a data source's value as JSON, or an error as 500.
func answer[T any](w http.ResponseWriter, value T, err error) {
	if err != nil {
		writeText(w, http.StatusInternalServerError, "Internal Server Error")
		return
	}
	writeJSON(w, http.StatusOK, value)
}

// recoverPanics answers a panicking handler with 500. net/http has no error handling of its own: its
// server recovers a handler's panic only to log it with a stack trace and close the connection without
// any response. This is the explicit equivalent of a framework's error handler.
func recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if recovered := recover(); recovered != nil {
				if recovered == http.ErrAbortHandler {
					panic(recovered) // net/http's own way to abort a response: keep its meaning
				}
				writeText(w, http.StatusInternalServerError, "Internal Server Error")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

var routeParam = regexp.MustCompile(`:([A-Za-z_]\w*)`)

// muxPattern turns a route of the contract (`/a/:id`) into a ServeMux pattern (`GET /a/{id}`) and the
// names of its parameters.
func muxPattern(method, path string) (string, []string) {
	var names []string
	for _, match := range routeParam.FindAllStringSubmatch(path, -1) {
		names = append(names, match[1])
	}
	return method + " " + routeParam.ReplaceAllString(path, "{$1}"), names
}

// firstValue is the first value of a query parameter and whether it was given, as URLSearchParams#get.
func firstValue(values map[string][]string, name string) (string, bool) {
	if given := values[name]; len(given) > 0 {
		return given[0], true
	}
	return "", false
}

// newApp builds the handler with the whole dyno contract on net/http's ServeMux (Go 1.22+ method and
// wildcard patterns). It is not listening yet.
func newApp(data *dyno.DataSources) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /plaintext", func(w http.ResponseWriter, r *http.Request) {
		writeText(w, http.StatusOK, dyno.HelloText)
	})
	mux.HandleFunc("GET /json", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, dyno.HelloMessage())
	})
	mux.HandleFunc("GET /users/{userId}/posts/{postId}", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, dyno.RouteParams{UserID: r.PathValue("userId"), PostID: r.PathValue("postId")})
	})
	mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(r.Body)
		var body any
		if err == nil {
			err = json.Unmarshal(raw, &body)
		}
		if err != nil {
			writeText(w, http.StatusBadRequest, "Bad Request")
			return
		}
		writeJSON(w, http.StatusOK, body)
	})
	mux.HandleFunc("GET /fibonacci", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, dyno.ComputeFibonacci())
	})
	mux.HandleFunc("GET /error/{flag}", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, dyno.ErrorOrOk(r.PathValue("flag")))
	})
	mux.HandleFunc("GET /validation", func(w http.ResponseWriter, r *http.Request) {
		query := r.URL.Query()
		number, hasNumber := firstValue(query, "number")
		text, hasText := firstValue(query, "text")
		result, err := dyno.ValidateQuery(number, hasNumber, text, hasText)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, result)
	})
	mux.HandleFunc("GET /redis", func(w http.ResponseWriter, r *http.Request) {
		message, err := data.RedisMessage(r.Context())
		answer(w, message, err)
	})
	mux.HandleFunc("GET /sqlite", func(w http.ResponseWriter, r *http.Request) {
		row, err := data.SQLiteWorld(r.Context())
		answer(w, row, err)
	})
	mux.HandleFunc("GET /postgres", func(w http.ResponseWriter, r *http.Request) {
		row, err := data.PostgresWorld(r.Context())
		answer(w, row, err)
	})
	// WebSocket echo: net/http has no WebSocket of its own, so the shared gorilla/websocket handler.
	mux.HandleFunc("GET "+dyno.WebSocketPath, dyno.EchoWebSocket)
	for _, route := range dyno.ExtraRoutes {
		pattern, names := muxPattern(route.Method, route.Path)
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			params := make(map[string]string, len(names))
			for _, name := range names {
				params[name] = r.PathValue(name)
			}
			writeJSON(w, http.StatusOK, dyno.ExtraRouteBody(route.Path, params))
		})
	}
	return recoverPanics(mux)
}
