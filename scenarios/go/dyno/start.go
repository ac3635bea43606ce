// The few lines every Go SUT's start shares, as scenarios/src/sut does for the Node
// SUTs: where to listen (PORT, HOST), WORKERS, the protocol served (PROTOCOL, and the run's certificate for
// TLS), the data sources, the ready line, and SIGTERM.

package dyno

import (
	"context"
	"crypto/tls"
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

// servedProtocols are the values of PROTOCOL, as scenarios/src/contract/protocols.js lists them.
var servedProtocols = []string{"http1", "tls", "h2", "h2c"}

// Protocol reads PROTOCOL: what the SUT serves on its port (http1, the default when it is absent or empty,
// tls, h2, h2c).
func Protocol(getenv func(string) string) (string, error) {
	protocol := getenv("PROTOCOL")
	if protocol == "" {
		return "http1", nil
	}
	for _, served := range servedProtocols {
		if protocol == served {
			return protocol, nil
		}
	}
	return "", fmt.Errorf("PROTOCOL must be one of http1, tls, h2, h2c, got %q", protocol)
}

// Certificate loads the run's certificate from TLS_CERT_FILE and TLS_KEY_FILE, with errors that name them.
func Certificate(getenv func(string) string) (tls.Certificate, error) {
	certFile, keyFile := getenv("TLS_CERT_FILE"), getenv("TLS_KEY_FILE")
	for _, variable := range []struct{ name, value, what string }{
		{"TLS_CERT_FILE", certFile, "certificate"}, {"TLS_KEY_FILE", keyFile, "private key"},
	} {
		if variable.value == "" {
			return tls.Certificate{}, fmt.Errorf("%s must name the PEM file of the %s (PROTOCOL=%s serves TLS), but it is not set",
				variable.name, variable.what, getenv("PROTOCOL"))
		}
	}
	certificate, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("cannot load the certificate TLS_CERT_FILE=%s with the key TLS_KEY_FILE=%s: %v", certFile, keyFile, err)
	}
	return certificate, nil
}

// configureProtocol sets up the server for PROTOCOL with net/http's own settings: the Server's Protocols
// (Go 1.24+) and, for TLS, its TLSConfig with the run's certificate and TLS 1.3 at least. HTTP/1.1 in
// cleartext keeps the Server as Go makes it. It returns whether the server serves TLS.
func configureProtocol(server *http.Server, protocol string, getenv func(string) string) (bool, error) {
	if protocol == "http1" {
		return false, nil
	}
	protocols := new(http.Protocols)
	switch protocol {
	case "tls":
		// HTTP/1.1 only: net/http would otherwise offer h2 in ALPN over TLS.
		protocols.SetHTTP1(true)
	case "h2":
		protocols.SetHTTP2(true)
	case "h2c":
		// HTTP/2 with prior knowledge, and no HTTP/1.1 on the port.
		protocols.SetUnencryptedHTTP2(true)
	}
	server.Protocols = protocols
	if protocol == "h2c" {
		return false, nil
	}
	certificate, err := Certificate(getenv)
	if err != nil {
		return false, err
	}
	server.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS13, Certificates: []tls.Certificate{certificate}}
	return true, nil
}

// AnnounceReady prints the one line the harness waits for: {"event":"ready","port":<bound port>,"protocol":<served>}.
func AnnounceReady(port int, protocol string) error {
	line, err := json.Marshal(struct {
		Event    string `json:"event"`
		Port     int    `json:"port"`
		Protocol string `json:"protocol"`
	}{"ready", port, protocol})
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
// listens, announces the bound port and the protocol, and serves until SIGTERM: HTTP/1.1, or what
// PROTOCOL names (TLS, HTTP/2 over TLS, HTTP/2 cleartext), each by net/http itself. A bad setting or an unreachable data
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
	protocol, err := Protocol(os.Getenv)
	if err != nil {
		return err
	}
	server := &http.Server{}
	secure, err := configureProtocol(server, protocol, os.Getenv)
	if err != nil {
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
	server.Handler = newApp(sources)
	if err := AnnounceReady(listener.Addr().(*net.TCPAddr).Port, protocol); err != nil {
		return err
	}
	if secure {
		// The certificate is in TLSConfig already.
		return server.ServeTLS(listener, "", "")
	}
	return server.Serve(listener)
}
