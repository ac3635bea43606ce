// The few lines every Go SUT's start shares, as scenarios/src/sut does for the Node
// SUTs: where to listen (PORT, HOST), WORKERS, the data sources, the ready line, and SIGTERM.

package dyno

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

const defaultHost = "127.0.0.1"

// closeTimeout is how long closing the data clients on SIGTERM may take before the process exits anyway.
const closeTimeout = 2 * time.Second

var wholeNumber = regexp.MustCompile(`^\d+$`)

// ListenAddress reads PORT (default 0, an ephemeral port) and HOST (default 127.0.0.1).
func ListenAddress(getenv func(string) string) (string, error) {
	rawPort := getenv("PORT")
	if rawPort == "" {
		rawPort = "0"
	}
	port, err := strconv.Atoi(rawPort)
	if !wholeNumber.MatchString(rawPort) || err != nil || port > 65535 {
		return "", fmt.Errorf("PORT must be a whole number from 0 to 65535, got %q", rawPort)
	}
	host := getenv("HOST")
	if host == "" {
		host = defaultHost
	}
	return net.JoinHostPort(host, strconv.Itoa(port)), nil
}

// ApplyWorkers sets GOMAXPROCS to WORKERS when WORKERS is set to a whole number ≥ 1 (Go serves every
// connection from one process; WORKERS bounds how many CPUs run Go code at once). Unset or 0: Go's
// default, one per CPU the process may use.
func ApplyWorkers(getenv func(string) string) error {
	raw := getenv("WORKERS")
	if raw == "" || raw == "0" {
		return nil
	}
	workers, err := strconv.Atoi(raw)
	if !wholeNumber.MatchString(raw) || err != nil || workers < 1 {
		return fmt.Errorf("WORKERS must be a whole number ≥ 1, got %q", raw)
	}
	runtime.GOMAXPROCS(workers)
	return nil
}

// AnnounceReady prints the one line the harness waits for: {"event":"ready","port":<bound port>}.
func AnnounceReady(port int) error {
	line, err := json.Marshal(struct {
		Event string `json:"event"`
		Port  int    `json:"port"`
	}{"ready", port})
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(append(line, '\n'))
	return err
}

// exitOnSigterm closes the data clients on SIGTERM (bounded in time) and exits 0.
func exitOnSigterm(sources *DataSources) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM)
	go func() {
		<-signals
		closed := make(chan struct{})
		go func() {
			sources.Close()
			close(closed)
		}()
		select {
		case <-closed:
		case <-time.After(closeTimeout):
		}
		os.Exit(0)
	}()
}

// Run starts a SUT: reads the environment, opens the data sources, builds the handler with newApp,
// listens, announces the bound port and serves until SIGTERM. A bad setting or an unreachable data
// source ends the process with exit code 1 and the reason on stderr, naming the variable.
func Run(name string, newApp func(*DataSources) http.Handler) {
	if err := run(newApp); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}

func run(newApp func(*DataSources) http.Handler) error {
	address, err := ListenAddress(os.Getenv)
	if err != nil {
		return err
	}
	if err := ApplyWorkers(os.Getenv); err != nil {
		return err
	}
	sources, err := OpenDataSources(context.Background(), os.Getenv)
	if err != nil {
		return err
	}
	exitOnSigterm(sources)
	listener, err := net.Listen("tcp", address)
	if err != nil {
		return err
	}
	server := &http.Server{Handler: newApp(sources)}
	if err := AnnounceReady(listener.Addr().(*net.TCPAddr).Port); err != nil {
		return err
	}
	return server.Serve(listener)
}
