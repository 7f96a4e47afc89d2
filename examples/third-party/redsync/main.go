// Command adapter serves go-redsync/redsync v4 as a chaoslua lock over the Go kit's ClusterClient, or
// over one client per master on independent masters.
package main

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/chaoslua/kit"
	"github.com/go-redsync/redsync/v4"
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

type adapter struct{ rs *redsync.Redsync }

func (a *adapter) Open(_ string, rdb *redis.ClusterClient, hello kit.Hello) error {
	if len(hello.Masters) == 0 {
		a.rs = redsync.New(goredis.NewPool(rdb)) // one pool: a Redis Cluster is one deployment to redsync
		return nil
	}
	// Independent masters (--topology masters), as redsync's README shows it: one go-redis client and
	// one pool per server, redsync.New(pools...), quorum a majority.
	pools := make([]redsyncredis.Pool, 0, len(hello.Masters))
	for _, client := range kit.MasterClients(hello, nil) {
		pools = append(pools, goredis.NewPool(client))
	}
	a.rs = redsync.New(pools...)
	return nil
}

// mutex is the documented way to act as a holder: the token is the lock's value (WithValue lets
// "the lock be unlocked from elsewhere"), so no handle is needed.
func (a *adapter) mutex(key string, args kit.Args, value redsync.Option) *redsync.Mutex {
	return a.rs.NewMutex(key, redsync.WithExpiry(time.Duration(args.Int("ttlMs"))*time.Millisecond), redsync.WithTries(1), value)
}

func (a *adapter) Call(ctx context.Context, op, key string, args kit.Args) (any, error) {
	token := args.String("token")
	switch op {
	case "acquire":
		m := a.mutex(key, args, redsync.WithGenValueFunc(func() (string, error) { return token, nil }))
		if err := m.TryLockContext(ctx); err != nil {
			return kit.GaveBack(false), nil // every failed try deletes its own value before returning
		}
		return true, nil
	case "release":
		ok, err := a.mutex(key, args, redsync.WithValue(token)).UnlockContext(ctx)
		if ok || errors.Is(err, redsync.ErrLockAlreadyExpired) || err == nil {
			return ok, nil
		}
		return nil, err
	default: // extend; ErrExtendFailed (touched, but after its validity) stays an error: indeterminate
		ok, err := a.mutex(key, args, redsync.WithValue(token)).ExtendContext(ctx)
		if ok || err == nil {
			return ok, nil
		}
		return nil, err
	}
}

func main() {
	os.Exit(kit.Serve("redsync", "v4.18.1", map[string]kit.Declares{"lock": {
		Capabilities: map[string]any{"acquire": map[string]any{"level": "boolean", "givesBack": true}, "release": "boolean", "extend": "boolean"},
	}}, &adapter{}))
}
