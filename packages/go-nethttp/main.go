// Command server is the dyno SUT for net/http: the contract's routes on the standard library's ServeMux
// (app.go) started by the shared Go start (scenarios/go/dyno/start.go), which listens on PORT/HOST and prints
// {"event":"ready","port":N}.
package main

import "dyno.local/scenarios/dyno"

func main() {
	dyno.Run("go-nethttp", newApp)
}
