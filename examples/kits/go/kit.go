// Package kit speaks the chaoslua process protocol (docs/process-protocol.md) for Go adapters over
// go-redis's ClusterClient. A library's adapter is mapping only: it says which patterns it serves and
// what it declares, and maps each request to the library's call. The kit does the rest: the hello
// (chaoslua-process/1.1 when the adapter declares anything), a ClusterClient that dials through the
// harness's natMap and never resends, a goroutine per request, error texts that keep Redis's codes (so
// BUSY, NOSCRIPT, MOVED stay refusals), refusals, calls given back, holder handles kept as live
// values, computed key names.
package kit

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	Protocol1  = "chaoslua-process/1"
	Protocol11 = "chaoslua-process/1.1"
)

// Address is a host and port as the harness sends them.
type Address struct {
	Host string `json:"host"`
	Port int    `json:"port"`
}

func (a Address) String() string { return net.JoinHostPort(a.Host, fmt.Sprint(a.Port)) }

// Hello is the harness's first message.
type Hello struct {
	Type     string             `json:"type"`
	Protocol string             `json:"protocol"`
	Versions []string           `json:"versions"`
	Pattern  string             `json:"pattern"`
	Seeds    []Address          `json:"seeds"`
	NatMap   map[string]Address `json:"natMap"`
	// Masters is sent only on --topology masters: every independent master, in node order (MasterClients).
	Masters []Address `json:"masters,omitempty"`
	// Sentinel is sent only on --topology sentinel: the Sentinels and the primary's name (SentinelClient).
	Sentinel *SentinelHello `json:"sentinel,omitempty"`
	Options  struct {
		Clients          int `json:"clients"`
		RequestTimeoutMs int `json:"requestTimeoutMs"`
	} `json:"options"`
}

// SentinelHello is where the Sentinels are and the name they watch the primary by.
type SentinelHello struct {
	Sentinels []Address `json:"sentinels"`
	Name      string    `json:"name"`
}

// Declares is what an adapter says of one pattern in its hello (each optional).
type Declares struct {
	Capabilities any `json:"capabilities,omitempty"`
	Keys         any `json:"keys,omitempty"`
}

// Adapter maps one library onto the protocol.
type Adapter interface {
	// Open builds the library's objects over a ready ClusterClient (see Client).
	Open(pattern string, rdb *redis.ClusterClient, hello Hello) error
	// Call runs one operation: its answer (JSON-able), WithHandle(...) or GaveBack(...); Refused(...) as an error.
	Call(ctx context.Context, op, key string, args Args) (any, error)
}

// KeysAdapter is an Adapter whose hello declares keys {"computed": true}.
type KeysAdapter interface {
	Keys(key string) ([]string, error)
}

// Args are a request's arguments by name, and the live handle of its holder when there is one.
type Args struct {
	raw    map[string]json.RawMessage
	handle any
}

// NewArgs builds arguments (tests of adapters use it).
func NewArgs(raw map[string]json.RawMessage, handle any) Args { return Args{raw, handle} }

// String is an argument as Redis receives it: a string's text, or a number's digits as written.
func (a Args) String(name string) string {
	var s string
	if json.Unmarshal(a.raw[name], &s) == nil {
		return s
	}
	return string(a.raw[name])
}

// Int is an integer argument (0 when absent or not an integer).
func (a Args) Int(name string) int64 {
	var n int64
	_ = json.Unmarshal(a.raw[name], &n)
	return n
}

// Strings is every argument as Redis receives it, by name.
func (a Args) Strings() map[string]string {
	all := make(map[string]string, len(a.raw))
	for name := range a.raw {
		all[name] = a.String(name)
	}
	return all
}

// Handle is the live value a holder's acquire handed out (WithHandle), or nil.
func (a Args) Handle() any { return a.handle }

type refused struct{ reason string }

func (r refused) Error() string { return r.reason }

// Refused says the library refused and wrote nothing: recorded as failed, certainly without effect.
// Only for a call the library cannot have sent a write for.
func Refused(reason string) error { return refused{reason} }

// GaveBack is the answer of an operation the library undid inside the same call (Redlock's validity
// rule); its capability must declare givesBack.
func GaveBack(answer any) any { return map[string]any{"answer": answer, "gaveBack": true} }

type handled struct {
	answer, handle any
}

// WithHandle answers with a holder handle: any Go value, kept by the kit; later requests of the same
// holder receive it back from Args.Handle.
func WithHandle(answer, handle any) any { return handled{answer, handle} }

// ErrorText is a Redis error as the server sent it, code first (the harness reads the first word to
// tell "certainly did not run" from "may have run"); anything else gets a text no Redis error starts
// with: indeterminate.
func ErrorText(err error) string {
	var rerr redis.Error
	if errors.As(err, &rerr) {
		return rerr.Error()
	}
	return "client error: " + err.Error()
}

// Client is a ClusterClient for the harness's cluster: every announced address dialled through natMap,
// 2 s timeouts (well under the request timeout), and no resend inside go-redis (MaxRedirects -1): it
// would also resend after a timeout or a dropped connection, when the command may already have run.
// A MOVED or TRYAGAIN then comes back as an error that says nothing ran. tune may change the options.
func Client(hello Hello, tune func(*redis.ClusterOptions)) *redis.ClusterClient {
	seeds := make([]string, len(hello.Seeds))
	for i, s := range hello.Seeds {
		seeds[i] = s.String()
	}
	dialer := &net.Dialer{Timeout: time.Second}
	opts := &redis.ClusterOptions{
		Addrs: seeds,
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if to, ok := hello.NatMap[addr]; ok {
				addr = to.String()
			}
			return dialer.DialContext(ctx, network, addr)
		},
		MaxRedirects: -1,
		ReadTimeout:  2 * time.Second,
		WriteTimeout: 2 * time.Second,
		PoolSize:     4 * max(hello.Options.Clients, 1),
	}
	if tune != nil {
		tune(opts)
	}
	return redis.NewClusterClient(opts)
}

// MasterClients is one client per independent master of the hello (none on a Redis Cluster), as a
// Redlock user holds one per server: the same timeouts as Client, and no retry inside go-redis
// (MaxRetries -1), for the same reason. tune may change the options.
func MasterClients(hello Hello, tune func(*redis.Options)) []*redis.Client {
	clients := make([]*redis.Client, len(hello.Masters))
	for i, m := range hello.Masters {
		opts := &redis.Options{
			Addr:         m.String(),
			DialTimeout:  time.Second,
			MaxRetries:   -1,
			ReadTimeout:  2 * time.Second,
			WriteTimeout: 2 * time.Second,
			PoolSize:     4 * max(hello.Options.Clients, 1),
		}
		if tune != nil {
			tune(opts)
		}
		clients[i] = redis.NewClient(opts)
	}
	return clients
}

// SentinelClient is a client of the primary the hello's Sentinels name (nil when the hello has none):
// go-redis's failover client, every address it is told (the Sentinels name the primary by its
// announced address) dialled through natMap, the same timeouts as Client and no retry inside go-redis
// (MaxRetries -1), for the same reason. tune may change the options.
func SentinelClient(hello Hello, tune func(*redis.FailoverOptions)) *redis.Client {
	if hello.Sentinel == nil {
		return nil
	}
	sentinels := make([]string, len(hello.Sentinel.Sentinels))
	for i, s := range hello.Sentinel.Sentinels {
		sentinels[i] = s.String()
	}
	dialer := &net.Dialer{Timeout: time.Second}
	opts := &redis.FailoverOptions{
		MasterName:    hello.Sentinel.Name,
		SentinelAddrs: sentinels,
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if to, ok := hello.NatMap[addr]; ok {
				addr = to.String()
			}
			return dialer.DialContext(ctx, network, addr)
		},
		MaxRetries:   -1,
		ReadTimeout:  2 * time.Second,
		WriteTimeout: 2 * time.Second,
		PoolSize:     4 * max(hello.Options.Clients, 1),
	}
	if tune != nil {
		tune(opts)
	}
	return redis.NewFailoverClient(opts)
}

type request struct {
	Type string                     `json:"type"`
	ID   int64                      `json:"id"`
	Op   string                     `json:"op"`
	Key  string                     `json:"key"`
	Args map[string]json.RawMessage `json:"args"`
}

type out struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (o *out) send(v any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.enc.Encode(v); err != nil {
		log.Fatalf("stdout: %v", err)
	}
}

type handles struct {
	mu   sync.Mutex
	byID map[string]any
}

func (h *handles) put(v any) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	id := hex.EncodeToString(b)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.byID[id] = v
	return id
}

func (h *handles) get(raw json.RawMessage) any {
	var id string
	if json.Unmarshal(raw, &id) != nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.byID[id]
}

// Serve speaks the protocol on stdin/stdout until shutdown or end of input; it returns the exit code.
func Serve(name, version string, declares map[string]Declares, adapter Adapter) int {
	log.SetPrefix(name + ": ")
	return ServeIO(os.Stdin, os.Stdout, name, version, declares, adapter)
}

// ServeIO is Serve on any reader and writer (the kit's tests use it).
func ServeIO(r io.Reader, w io.Writer, name, version string, declares map[string]Declares, adapter Adapter) int {
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 64*1024), 8*1024*1024)
	stdout := &out{enc: json.NewEncoder(w)}
	if !in.Scan() {
		return 0
	}
	var hello Hello
	if err := json.Unmarshal(in.Bytes(), &hello); err != nil {
		log.Fatalf("hello: %v", err)
	}
	versions := hello.Versions
	if len(versions) == 0 {
		versions = []string{hello.Protocol}
	}
	refuse := func(reason string) int {
		stdout.send(map[string]any{"type": "refuse", "reason": reason})
		return 1
	}
	if hello.Type != "hello" || !contains(versions, Protocol1) {
		return refuse(fmt.Sprintf("%s speaks %s(.1), got %q", name, Protocol1, hello.Protocol))
	}
	declared, ok := declares[hello.Pattern]
	if !ok {
		return refuse(fmt.Sprintf("%s does not serve pattern %q", name, hello.Pattern))
	}
	rdb := Client(hello, nil)
	defer rdb.Close()
	if err := adapter.Open(hello.Pattern, rdb, hello); err != nil {
		return refuse(fmt.Sprintf("%s could not start: %s", name, ErrorText(err)))
	}
	patterns := make([]string, 0, len(declares))
	for p := range declares {
		patterns = append(patterns, p)
	}
	sort.Strings(patterns)
	reply := map[string]any{"type": "hello", "protocol": Protocol1, "name": name, "version": version, "patterns": patterns}
	if (declared.Capabilities != nil || declared.Keys != nil) && contains(versions, Protocol11) {
		reply["protocol"] = Protocol11
		if declared.Capabilities != nil {
			reply["capabilities"] = declared.Capabilities
		}
		if declared.Keys != nil {
			reply["keys"] = declared.Keys
		}
	}
	stdout.send(reply)

	table := &handles{byID: map[string]any{}}
	var inFlight sync.WaitGroup
	for in.Scan() { // ends at EOF: the harness is done or gone
		var m request
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			log.Fatalf("request: %v", err)
		}
		if m.Type == "shutdown" {
			break
		}
		if m.Type != "request" {
			continue
		}
		inFlight.Add(1)
		go func() {
			defer inFlight.Done()
			stdout.send(respond(adapter, table, m))
		}()
	}
	inFlight.Wait() // every request gets its answer before we leave
	return 0
}

func respond(adapter Adapter, table *handles, m request) map[string]any {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if m.Op == "keys" {
		k, ok := adapter.(KeysAdapter)
		if !ok {
			return answer(m.ID, nil, errors.New("keys asked of an adapter that computes none"), table)
		}
		keys, err := k.Keys(m.Key)
		return answer(m.ID, keys, err, table)
	}
	args := Args{raw: m.Args}
	if raw, ok := m.Args["handle"]; ok {
		args.handle = table.get(raw)
	}
	res, err := adapter.Call(ctx, m.Op, m.Key, args)
	return answer(m.ID, res, err, table)
}

func answer(id int64, res any, err error, table *handles) map[string]any {
	var r refused
	switch {
	case errors.As(err, &r):
		return map[string]any{"type": "response", "id": id, "ok": false, "refused": true, "error": r.reason}
	case err != nil:
		return map[string]any{"type": "response", "id": id, "ok": false, "error": ErrorText(err)}
	}
	if h, ok := res.(handled); ok {
		var hid any
		if h.handle != nil {
			hid = table.put(h.handle)
		}
		res = map[string]any{"answer": h.answer, "handle": hid}
	}
	return map[string]any{"type": "response", "id": id, "ok": true, "result": res}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
