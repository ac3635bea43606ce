// ws-echo-client: a second WebSocket load client, to cross-check the native engine's ws-echo figures with code no one here wrote the
// protocol of. It is built on gorilla/websocket (the most used Go WebSocket library; it does the handshake, the Sec-WebSocket-Accept
// check, masking and framing). Each of -connections connections sends -message as a text frame, waits for its echo, compares it byte
// for byte, and sends the next: one message in flight per connection (closed loop), as the native engine with streams 1. A warm-up of
// -warmup, then -duration measured on the same connections; at the end each connection closes with code 1000. Prints one JSON line.
// Only loopback addresses are accepted.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

type result struct {
	Connections    int     `json:"connections"`
	Messages       int     `json:"messages"`
	DurationSec    float64 `json:"durationSec"`
	MessagesPerSec float64 `json:"messagesPerSec"`
	P50Us          float64 `json:"p50Us"`
	P99Us          float64 `json:"p99Us"`
	Mismatches     int64   `json:"mismatches"`
	Errors         int64   `json:"errors"`
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "ws-echo-client: "+format+"\n", args...)
	os.Exit(2)
}

func main() {
	target := flag.String("url", "", "ws://127.0.0.1:PORT/ws")
	connections := flag.Int("connections", 100, "connections, one message in flight on each")
	warmup := flag.Duration("warmup", 2*time.Second, "warm-up, not counted")
	duration := flag.Duration("duration", 5*time.Second, "measured")
	message := flag.String("message", "Hello, WebSocket!", "the text message sent and expected back")
	flag.Parse()
	parsed, err := url.Parse(*target)
	if err != nil || parsed.Scheme != "ws" {
		fail("-url must be ws://127.0.0.1:PORT/PATH, got %q", *target)
	}
	if ip := net.ParseIP(parsed.Hostname()); ip == nil || !ip.IsLoopback() {
		fail("-url must name a loopback address, got %q", parsed.Hostname())
	}
	if *connections < 1 || *connections > 10000 || *duration <= 0 || *duration > 10*time.Minute || *warmup < 0 || *warmup > 10*time.Minute {
		fail("-connections must be 1 to 10000, -duration and -warmup at most 10m")
	}
	payload := []byte(*message)
	dialer := websocket.Dialer{HandshakeTimeout: 10 * time.Second, ReadBufferSize: 4096, WriteBufferSize: 4096}
	conns := make([]*websocket.Conn, *connections)
	for i := range conns {
		conn, _, err := dialer.Dial(*target, nil)
		if err != nil {
			fail("connection %d: %v", i+1, err)
		}
		conns[i] = conn
	}
	var measuring, stopping atomic.Bool
	var mismatches, errors atomic.Int64
	latencies := make([][]time.Duration, len(conns))
	var wg sync.WaitGroup
	for i, conn := range conns {
		wg.Add(1)
		go func(i int, conn *websocket.Conn) {
			defer wg.Done()
			samples := make([]time.Duration, 0, 1<<16)
			for !stopping.Load() {
				sent := time.Now()
				if err := conn.WriteMessage(websocket.TextMessage, payload); err != nil {
					errors.Add(1)
					break
				}
				kind, echo, err := conn.ReadMessage()
				if err != nil {
					errors.Add(1)
					break
				}
				if measuring.Load() {
					if kind != websocket.TextMessage || !bytes.Equal(echo, payload) {
						mismatches.Add(1)
					}
					samples = append(samples, time.Since(sent))
				}
			}
			latencies[i] = samples
		}(i, conn)
	}
	time.Sleep(*warmup)
	measuring.Store(true)
	began := time.Now()
	time.Sleep(*duration)
	measuring.Store(false)
	elapsed := time.Since(began)
	stopping.Store(true)
	wg.Wait()
	for _, conn := range conns {
		deadline := time.Now().Add(250 * time.Millisecond)
		_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), deadline)
		_ = conn.Close()
	}
	all := make([]time.Duration, 0)
	for _, samples := range latencies {
		all = append(all, samples...)
	}
	sort.Slice(all, func(a, b int) bool { return all[a] < all[b] })
	at := func(percentile float64) float64 {
		if len(all) == 0 {
			return 0
		}
		index := int(float64(len(all))*percentile/100+0.5) - 1
		if index < 0 {
			index = 0
		}
		return float64(all[index].Microseconds())
	}
	out := result{
		Connections: len(conns), Messages: len(all), DurationSec: elapsed.Seconds(), MessagesPerSec: float64(len(all)) / elapsed.Seconds(),
		P50Us: at(50), P99Us: at(99), Mismatches: mismatches.Load(), Errors: errors.Load(),
	}
	_ = json.NewEncoder(os.Stdout).Encode(out)
}
