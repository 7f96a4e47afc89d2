package dev.chaoslua.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.client.RedisTimeoutException;

class KitTest {
  /** A lock kept in memory: refusals, give-backs, handles and computed keys, no Redis. */
  static final class Lock implements Kit.Adapter {
    final Map<String, Object> held = new HashMap<>();

    @Override public void open(String pattern, RedissonClient redisson, JsonNode hello) {}

    @Override public synchronized Object call(String op, String key, Kit.Args args) throws Exception {
      if (op.equals("acquire") && "slow".equals(args.string("token"))) return Kit.gaveBack(false);
      if (op.equals("acquire") && held.containsKey(key)) throw new Kit.Refused("held (the library's own state)");
      if (op.equals("acquire")) {
        held.put(key, new Object());
        return Kit.withHandle(true, held.get(key));
      }
      return args.handle() != null && args.handle() == held.remove(key);
    }

    @Override public List<String> keys(String key) {
      return List.of("f#" + key, key + ":lock");
    }
  }

  static List<JsonNode> converse(Kit.Adapter adapter, String... requests) throws Exception {
    String hello = "{\"type\":\"hello\",\"protocol\":\"chaoslua-process/1\",\"versions\":[\"chaoslua-process/1\",\"chaoslua-process/1.1\"],\"pattern\":\"lock\",\"seeds\":[],\"natMap\":{},\"options\":{\"clients\":1}}";
    String input = hello + "\n" + String.join("\n", requests) + "\n";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Map<String, Kit.Declares> declares = Map.of("lock", new Kit.Declares(Map.of("acquire", Map.of("level", "boolean", "handle", true, "givesBack", true)), Map.of("computed", true)));
    assertEquals(0, Kit.serve(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out, "kit-test", "1.0", declares, adapter, h -> null));
    List<JsonNode> messages = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) messages.add(Kit.JSON.readTree(line));
    return messages;
  }

  static JsonNode byId(List<JsonNode> messages, long id) {
    return messages.stream().filter(m -> m.path("id").asLong(-1) == id).findFirst().orElseThrow();
  }

  @Test void errorTextKeepsRedisCodes() {
    assertEquals("BUSY Redis is busy running a script.", Kit.errorText(new RedisException("BUSY Redis is busy running a script.. channel: [id: 0x1] data: CommandsData")));
    assertTrue(Kit.errorText(new RedisTimeoutException("Unable to get response from Redis server")).startsWith("client error: RedisTimeoutException"));
    assertTrue(Kit.errorText(new IllegalStateException("x")).startsWith("client error: "));
  }

  @Test void loopAnswersAsTheProtocolSays() throws Exception {
    Lock lock = new Lock();
    List<JsonNode> out = converse(lock,
        "{\"type\":\"request\",\"id\":1,\"op\":\"keys\",\"key\":\"k\",\"args\":{}}",
        "{\"type\":\"request\",\"id\":2,\"op\":\"acquire\",\"key\":\"k\",\"args\":{\"token\":\"a\",\"ttlMs\":1000}}",
        "{\"type\":\"request\",\"id\":3,\"op\":\"acquire\",\"key\":\"j\",\"args\":{\"token\":\"slow\",\"ttlMs\":1000}}");
    assertEquals(Kit.PROTOCOL_1_1, out.get(0).path("protocol").asText());
    assertTrue(out.get(0).path("keys").path("computed").asBoolean());
    assertEquals("f#k", byId(out, 1).path("result").get(0).asText());
    assertTrue(byId(out, 2).path("result").path("answer").asBoolean());
    assertTrue(byId(out, 2).path("result").path("handle").isTextual());
    assertTrue(byId(out, 3).path("result").path("gaveBack").asBoolean());
    List<JsonNode> again = converse(lock, "{\"type\":\"request\",\"id\":4,\"op\":\"acquire\",\"key\":\"k\",\"args\":{\"token\":\"b\",\"ttlMs\":1000}}");
    assertTrue(byId(again, 4).path("refused").asBoolean());
    assertEquals("held (the library's own state)", byId(again, 4).path("error").asText());
  }

  @Test void handlesComeBackLive() throws Exception {
    Lock lock = new Lock();
    Map<String, Object> handles = new java.util.concurrent.ConcurrentHashMap<>();
    Map<String, Object> acquired = Kit.respond(lock, handles, Kit.JSON.readTree("{\"id\":1,\"op\":\"acquire\",\"key\":\"k\",\"args\":{\"token\":\"a\"}}"));
    String hid = String.valueOf(((Map<?, ?>) acquired.get("result")).get("handle"));
    Map<String, Object> released = Kit.respond(lock, handles, Kit.JSON.readTree("{\"id\":2,\"op\":\"release\",\"key\":\"k\",\"args\":{\"token\":\"a\",\"handle\":\"" + hid + "\"}}"));
    assertEquals(true, released.get("result"));
  }
}
