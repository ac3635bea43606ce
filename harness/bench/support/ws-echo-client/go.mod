module dyno.bench/ws-echo-client

go 1.22

require github.com/gorilla/websocket v1.5.3
