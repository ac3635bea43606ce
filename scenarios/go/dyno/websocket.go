// WebSocket echo, the work of the ws-echo scenario: every message sent back as it came (text as text, binary as
// binary), and the client's close answered with its code. net/http has no WebSocket of its own: this is
// gorilla/websocket, the WebSocket library Go's net/http and Gin servers use, with its defaults.

package dyno

import (
	"net/http"

	"github.com/gorilla/websocket"
)

// WebSocketPath is where a SUT upgrades a GET to WebSocket (WEBSOCKET_PATH of scenarios/src/work).
const WebSocketPath = "/ws"

var upgrader = websocket.Upgrader{}

// EchoWebSocket upgrades the request and echoes every message until the client closes. A GET without an
// upgrade is answered 400 Bad Request by the Upgrader. gorilla's default close handler answers a close
// frame with the same code; the connection is closed once the client's close is read.
func EchoWebSocket(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	for {
		kind, message, err := conn.ReadMessage()
		if err != nil {
			return
		}
		if err := conn.WriteMessage(kind, message); err != nil {
			return
		}
	}
}
