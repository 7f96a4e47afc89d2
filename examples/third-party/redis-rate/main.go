// Command adapter serves go-redis/redis_rate v10 (GCRA) as a chaoslua gcra limiter over the Go kit's ClusterClient.
package main

import (
	"context"
	"os"
	"time"

	"github.com/chaoslua/kit"
	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

type adapter struct{ limiter *redis_rate.Limiter }

func (a *adapter) Open(_ string, rdb *redis.ClusterClient, _ kit.Hello) error {
	a.limiter = redis_rate.NewLimiter(rdb)
	return nil
}

func (a *adapter) Call(ctx context.Context, _, key string, args kit.Args) (any, error) {
	// redis_rate.PerSecond(n) is Limit{Rate: n, Burst: n, Period: time.Second}; the job sets all three.
	limit := redis_rate.Limit{Rate: int(args.Int("rate")), Burst: int(args.Int("burst")), Period: time.Duration(args.Int("periodMs")) * time.Millisecond}
	res, err := a.limiter.Allow(ctx, key, limit)
	if err != nil {
		return nil, err
	}
	return res.Allowed > 0, nil
}

func main() {
	os.Exit(kit.Serve("redis_rate", "v10.0.1", map[string]kit.Declares{"gcra": {
		Capabilities: map[string]any{"hit": "boolean"},
		Keys:         map[string]string{"prefix": "rate:"}, // Allow(key) keeps rate:<key>
	}}, &adapter{}))
}
