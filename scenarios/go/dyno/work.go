// Package dyno is the Go side of @dyno/scenarios, the one copy every Go SUT (packages/go-*) imports:
// work.go the work each route does (scenarios/src/work), data.go the data sources (scenarios/src/data),
// start.go the start (scenarios/src/sut). Bodies, numbers and JSON key order match the JavaScript
// originals; keep them in step.
package dyno

import (
	"errors"
	"regexp"
	"strconv"
	"unicode/utf16"
)

// HelloText is the greeting every static scenario answers with (hello.js).
const HelloText = "Hello, World!"

// Message is the json scenario's body: {"message":"Hello, World!"}.
type Message struct {
	Message string `json:"message"`
}

// HelloMessage returns a fresh value on every call, as helloMessage() does.
func HelloMessage() Message {
	return Message{Message: HelloText}
}

// FibonacciN is the argument of the CPU-bound scenario (fibonacci.js).
const FibonacciN = 23

// Fibonacci is naive recursion on purpose: the scenario measures a handler that holds a CPU.
func Fibonacci(n int) int {
	if n < 2 {
		return n
	}
	return Fibonacci(n-1) + Fibonacci(n-2)
}

// FibonacciResult is {"n":23,"value":28657}.
type FibonacciResult struct {
	N     int `json:"n"`
	Value int `json:"value"`
}

// ComputeFibonacci computes the result on every call, never cached (fibonacciResult()).
func ComputeFibonacci() FibonacciResult {
	return FibonacciResult{N: FibonacciN, Value: Fibonacci(FibonacciN)}
}

// RouteParams echoes both path parameters as strings (route-params.js).
type RouteParams struct {
	UserID string `json:"userId"`
	PostID string `json:"postId"`
}

// IntentionalErrorMessage is the message of the error the error scenario raises (error-flag.js).
const IntentionalErrorMessage = "dyno: intentional error"

// ErrIntentional is what ErrorOrOk panics with.
var ErrIntentional = errors.New(IntentionalErrorMessage)

// OK is the error scenario's body when nothing is raised: {"ok":true}.
type OK struct {
	OK bool `json:"ok"`
}

// ErrorOrOk panics (Go's throw) when the flag is "1", so the framework's own recovery must answer;
// any other flag is fine.
func ErrorOrOk(flag string) OK {
	if flag == "1" {
		panic(ErrIntentional)
	}
	return OK{OK: true}
}

// TextMinLength is VALIDATION_RULES.textMinLength: `text` must have at least this many characters.
const TextMinLength = 5

// MaxSafeInteger is Number.MAX_SAFE_INTEGER: the shared check accepts integers within ±this.
const MaxSafeInteger = 1<<53 - 1

// ValidationResult is the validation scenario's body, built from the validated values.
type ValidationResult struct {
	Number int64  `json:"number"`
	Text   string `json:"text"`
}

var integerPattern = regexp.MustCompile(`^-?\d+$`)

// ValidateQuery is the shared hand-written check (validateQuery in validation.js) for frameworks
// without a validator of their own. A parameter that is absent is passed with present == false.
// Lengths count UTF-16 code units, as JavaScript's String#length does.
func ValidateQuery(number string, hasNumber bool, text string, hasText bool) (ValidationResult, error) {
	if !hasNumber || !integerPattern.MatchString(number) {
		return ValidationResult{}, errors.New("`number` must be an integer")
	}
	parsed, err := strconv.ParseInt(number, 10, 64)
	if err != nil || parsed > MaxSafeInteger || parsed < -MaxSafeInteger {
		return ValidationResult{}, errors.New("`number` must be a safe integer")
	}
	if !hasText || utf16Length(text) < TextMinLength {
		return ValidationResult{}, errors.New("`text` must be a string of at least " + strconv.Itoa(TextMinLength) + " characters")
	}
	return ValidationResult{Number: parsed, Text: text}, nil
}

// utf16Length counts what JavaScript's String#length counts; an invalid byte decodes to one U+FFFD.
func utf16Length(s string) int {
	length := 0
	for _, r := range s {
		length += utf16.RuneLen(r)
	}
	return length
}

// Route is one of the extra routes, with `:name` path parameters.
type Route struct {
	Method string
	Path   string
}

// ExtraRoutes are the twenty routes every SUT registers beside the contract routes (extra-routes.js).
var ExtraRoutes = []Route{
	{"GET", "/api/v1/health"},
	{"GET", "/api/v1/status"},
	{"GET", "/api/v1/version"},
	{"GET", "/api/v1/products"},
	{"GET", "/api/v1/products/:id"},
	{"GET", "/api/v1/products/:id/reviews"},
	{"GET", "/api/v1/products/:id/reviews/:reviewId"},
	{"GET", "/api/v1/categories"},
	{"GET", "/api/v1/categories/:slug"},
	{"GET", "/api/v1/categories/:slug/products"},
	{"GET", "/api/v1/orders"},
	{"GET", "/api/v1/orders/:orderId"},
	{"GET", "/api/v1/orders/:orderId/items"},
	{"GET", "/api/v1/customers/:customerId"},
	{"GET", "/api/v1/customers/:customerId/orders"},
	{"GET", "/api/v1/search"},
	{"GET", "/api/v2/products/:id"},
	{"GET", "/api/v2/inventory/:sku"},
	{"GET", "/static/assets/:file"},
	{"GET", "/account/settings/notifications"},
}

// ExtraRouteResult is {"route":<pattern>,"params":{...}}.
type ExtraRouteResult struct {
	Route  string            `json:"route"`
	Params map[string]string `json:"params"`
}

// ExtraRouteBody builds an extra route's answer; params may be nil (encoded as {}).
func ExtraRouteBody(path string, params map[string]string) ExtraRouteResult {
	if params == nil {
		params = map[string]string{}
	}
	return ExtraRouteResult{Route: path, Params: params}
}
