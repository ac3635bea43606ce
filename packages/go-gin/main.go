// Command server is the dyno SUT for Gin: the contract's routes (app.go) started by the shared Go start
// (internal/dyno/start.go), which listens on PORT/HOST and prints {"event":"ready","port":N}.
package main

import (
	"net/http"

	"dyno/sut-go-gin/internal/dyno"
)

func main() {
	dyno.Run("go-gin", func(data *dyno.DataSources) http.Handler { return newApp(data) })
}
