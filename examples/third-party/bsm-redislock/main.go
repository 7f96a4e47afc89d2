// Command adapter serves bsm/redislock as a chaoslua lock over the Go kit's ClusterClient.
package main

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/bsm/redislock"
	"github.com/chaoslua/kit"
	"github.com/redis/go-redis/v9"
)

type adapter struct{ locker *redislock.Client }

func (a *adapter) Open(_ string, rdb *redis.ClusterClient, _ kit.Hello) error {
	a.locker = redislock.New(rdb)
	return nil
}

func (a *adapter) Call(ctx context.Context, op, key string, args kit.Args) (any, error) {
	ttl := time.Duration(args.Int("ttlMs")) * time.Millisecond
	if op == "acquire" { // defaults: a random token, no retry; the *Lock is the holder's handle
		lock, err := a.locker.Obtain(ctx, key, ttl, nil)
		if errors.Is(err, redislock.ErrNotObtained) {
			return false, nil
		} else if err != nil {
			return nil, err
		}
		return kit.WithHandle(true, lock), nil
	}
	lock, _ := args.Handle().(*redislock.Lock)
	if lock == nil { // this holder never obtained a lock here: there is no object to call
		return nil, kit.Refused("no *redislock.Lock for this holder")
	}
	var err error
	if op == "release" {
		err = lock.Release(ctx)
	} else {
		err = lock.Refresh(ctx, ttl, nil)
	}
	if errors.Is(err, redislock.ErrLockNotHeld) || errors.Is(err, redislock.ErrNotObtained) {
		return false, nil
	}
	return err == nil, err
}

func main() {
	os.Exit(kit.Serve("bsm-redislock", "v0.9.4", map[string]kit.Declares{"lock": {
		Capabilities: map[string]any{"acquire": map[string]any{"level": "boolean", "handle": true}, "release": "boolean", "extend": "boolean"},
	}}, &adapter{}))
}
