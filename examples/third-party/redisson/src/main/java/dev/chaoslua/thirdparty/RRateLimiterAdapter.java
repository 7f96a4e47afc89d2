package dev.chaoslua.thirdparty;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chaoslua.kit.Kit;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;

/** Redisson's RRateLimiter as a chaoslua gcra limiter: `rate` permits per interval, each back one interval later. */
final class RRateLimiterAdapter implements Kit.Adapter {
  // The limiter's configuration hash and its value and permits keys (suffixes after the handed key's hash tag).
  static final Map<String, Kit.Declares> DECLARES = Map.of("gcra", new Kit.Declares(Map.of("hit", "boolean"), List.of("{key}", "{key}:value", "{key}:permits")));
  private RedissonClient redisson;

  @Override public void open(String pattern, RedissonClient redisson, JsonNode hello) {
    this.redisson = redisson;
  }

  @Override public Object call(String op, String key, Kit.Args args) throws Exception {
    long rate = args.integer("rate");
    // No separate burst: all `rate` permits may be taken at once. Run with --set burst=N --set rate=N.
    if (args.integer("burst") != rate) throw new Kit.Refused("RRateLimiter's burst is its rate");
    RRateLimiter limiter = redisson.getRateLimiter(key);
    // keepAliveTime (documented) lets an idle limiter's keys expire; without it they stay forever.
    limiter.trySetRate(RateType.OVERALL, rate, Duration.ofMillis(args.integer("periodMs")), Duration.ofSeconds(60));
    return limiter.tryAcquire();
  }
}
