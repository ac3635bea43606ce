// Command server is the dyno SUT for net/http: the contract's routes on the standard library's ServeMux
// (app.go) started by the shared Go start (internal/dyno/start.go), which listens on PORT/HOST and prints
// {"event":"ready","port":N}.
package main

import "dyno/sut-go-nethttp/internal/dyno"

func main() {
	dyno.Run("go-nethttp", newApp)
}
