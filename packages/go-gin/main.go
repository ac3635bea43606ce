// Command server is the dyno SUT for Gin: the contract's routes (app.go) started by the shared Go start
// (scenarios/go/dyno/start.go), which listens on PORT/HOST and prints {"event":"ready","port":N}.
package main

import (
	"net/http"

	"dyno.local/scenarios/dyno"
)

func main() {
	dyno.Run("go-gin", func(data *dyno.DataSources) http.Handler { return newApp(data) })
}
