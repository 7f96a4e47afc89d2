package dev.chaoslua.kit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;
import org.redisson.misc.RedisURI;

/**
 * The chaoslua process protocol (docs/process-protocol.md) for Java adapters over Redisson. A
 * library's adapter is mapping only: which patterns it serves, what it declares, and which library
 * call each request becomes. The kit does the rest: the hello (chaoslua-process/1.1 when the adapter
 * declares anything), a Redisson client that dials through the harness's natMap and never resends, a
 * thread per request, error texts that keep Redis's codes (BUSY, NOSCRIPT, MOVED stay refusals),
 * refusals, calls given back, holder handles kept as live objects, computed key names.
 */
public final class Kit {
  public static final String PROTOCOL_1 = "chaoslua-process/1";
  public static final String PROTOCOL_1_1 = "chaoslua-process/1.1";
  static final ObjectMapper JSON = new ObjectMapper();

  private Kit() {}

  /** One library's mapping. */
  public interface Adapter {
    /** Builds the library's objects over a ready Redisson client (see {@link #redisson}). */
    void open(String pattern, RedissonClient redisson, JsonNode hello) throws Exception;

    /** Runs one operation: its answer (JSON-able), {@link #withHandle} or {@link #gaveBack}; throws {@link Refused}. */
    Object call(String op, String key, Args args) throws Exception;

    /** With keys {"computed": true}: the Redis keys the library keeps {@code key}'s state under. */
    default List<String> keys(String key) throws Exception {
      throw new UnsupportedOperationException("keys asked of an adapter that computes none");
    }
  }

  /** What an adapter says of one pattern in its hello (each may be null). */
  public record Declares(Object capabilities, Object keys) {}

  /** The library refused and wrote nothing: recorded as failed, certainly without effect. */
  public static final class Refused extends Exception {
    public Refused(String reason) {
      super(reason);
    }
  }

  /** A request's arguments by name, and the live handle of its holder when there is one. */
  public static final class Args {
    private final JsonNode raw;
    private final Object handle;

    public Args(JsonNode raw, Object handle) {
      this.raw = raw;
      this.handle = handle;
    }

    public String string(String name) {
      JsonNode v = raw.get(name);
      return v == null ? null : v.isTextual() ? v.asText() : v.toString();
    }

    public long integer(String name) {
      return raw.path(name).asLong();
    }

    public Object handle() {
      return handle;
    }
  }

  private record Handled(Object answer, Object handle) {}

  /** The answer of an operation undone inside the same call (Redlock's validity rule); declare givesBack. */
  public static Object gaveBack(Object answer) {
    return Map.of("answer", answer, "gaveBack", true);
  }

  /** An answer with a holder handle: any object, kept by the kit; the holder's later calls get it from {@link Args#handle}. */
  public static Object withHandle(Object answer, Object handle) {
    return new Handled(answer, handle);
  }

  /**
   * A Redis error as the server sent it, code first (the harness reads the first word to tell
   * "certainly did not run" from "may have run"); anything else, timeouts and lost connections
   * included (Redisson's own RedisException subclasses), gets a text no Redis error starts with.
   */
  public static String errorText(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String name = t.getClass().getSimpleName();
      boolean clientSide = name.contains("Timeout") || name.contains("Connection") || name.contains("NotFound") || name.contains("Shutdown");
      if (t instanceof RedisException && !clientSide && t.getMessage() != null && t.getMessage().matches("^[A-Z]+ .*")) {
        return t.getMessage().split("\\. channel: ")[0];
      }
    }
    return "client error: " + e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  /**
   * A Redisson client for the harness's cluster: every announced address dialled through natMap,
   * 2 s timeouts (well under the request timeout), and no retry (retryAttempts 0): a resend after a
   * timeout may run a command twice. MOVED and ASK are still followed inside Redisson.
   */
  public static RedissonClient redisson(JsonNode hello) {
    Config config = new Config();
    ClusterServersConfig cluster = config.useClusterServers();
    for (JsonNode seed : hello.path("seeds")) cluster.addNodeAddress("redis://" + seed.path("host").asText() + ":" + seed.path("port").asInt());
    JsonNode nat = hello.path("natMap");
    cluster.setNatMapper(uri -> {
      JsonNode to = nat.get(uri.getHost() + ":" + uri.getPort());
      return to == null ? uri : new RedisURI(uri.getScheme(), to.path("host").asText(), to.path("port").asInt());
    });
    cluster.setTimeout(2000).setConnectTimeout(1000).setRetryAttempts(0).setScanInterval(1000);
    int clients = Math.max(1, hello.path("options").path("clients").asInt(8));
    cluster.setMasterConnectionPoolSize(Math.max(8, 4 * clients)).setMasterConnectionMinimumIdleSize(1).setSubscriptionConnectionMinimumIdleSize(1);
    return Redisson.create(config);
  }

  /** Speaks the protocol on stdin/stdout until shutdown or end of input; returns the exit code. */
  public static int serve(String name, String version, Map<String, Declares> declares, Adapter adapter) throws Exception {
    return serve(System.in, System.out, name, version, declares, adapter, Kit::redisson);
  }

  /** {@link #serve} on any streams, with any way to connect (the kit's tests use it). */
  public static int serve(InputStream in, OutputStream out, String name, String version, Map<String, Declares> declares, Adapter adapter,
      Function<JsonNode, RedissonClient> connect) throws Exception {
    BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
    Object lock = new Object();
    Function<Object, Void> send = message -> {
      try {
        String line = JSON.writeValueAsString(message);
        synchronized (lock) {
          stdout.print(line + "\n");
          stdout.flush();
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      return null;
    };
    String first = lines.readLine();
    if (first == null) return 0;
    JsonNode hello = JSON.readTree(first);
    List<String> versions = new ArrayList<>();
    hello.path("versions").forEach(v -> versions.add(v.asText()));
    if (versions.isEmpty()) versions.add(hello.path("protocol").asText());
    String pattern = hello.path("pattern").asText();
    if (!"hello".equals(hello.path("type").asText()) || !versions.contains(PROTOCOL_1)) {
      send.apply(Map.of("type", "refuse", "reason", name + " speaks " + PROTOCOL_1 + "(.1), got " + hello.path("protocol")));
      return 1;
    }
    Declares declared = declares.get(pattern);
    if (declared == null) {
      send.apply(Map.of("type", "refuse", "reason", name + " does not serve pattern " + pattern + " (it serves " + declares.keySet() + ")"));
      return 1;
    }
    RedissonClient redisson = connect.apply(hello);
    try {
      adapter.open(pattern, redisson, hello);
    } catch (Exception e) {
      send.apply(Map.of("type", "refuse", "reason", name + " could not start: " + errorText(e)));
      return 1;
    }
    ObjectNode reply = JSON.createObjectNode().put("type", "hello").put("protocol", PROTOCOL_1).put("name", name).put("version", version);
    reply.set("patterns", JSON.valueToTree(new TreeSet<>(declares.keySet())));
    if ((declared.capabilities() != null || declared.keys() != null) && versions.contains(PROTOCOL_1_1)) {
      reply.put("protocol", PROTOCOL_1_1);
      if (declared.capabilities() != null) reply.set("capabilities", JSON.valueToTree(declared.capabilities()));
      if (declared.keys() != null) reply.set("keys", JSON.valueToTree(declared.keys()));
    }
    send.apply(reply);

    Map<String, Object> handles = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newCachedThreadPool();
    for (String line; (line = lines.readLine()) != null; ) {
      JsonNode m = JSON.readTree(line);
      String type = m.path("type").asText();
      if ("shutdown".equals(type)) break;
      if ("request".equals(type)) pool.submit(() -> send.apply(respond(adapter, handles, m)));
    }
    pool.shutdown();
    pool.awaitTermination(30, TimeUnit.SECONDS); // every request gets its answer before we leave
    if (redisson != null) redisson.shutdown();
    return 0;
  }

  static Map<String, Object> respond(Adapter adapter, Map<String, Object> handles, JsonNode m) {
    long id = m.path("id").asLong();
    try {
      String op = m.path("op").asText();
      String key = m.path("key").asText();
      Object result;
      if ("keys".equals(op)) {
        result = adapter.keys(key);
      } else {
        JsonNode hid = m.path("args").get("handle");
        Object handle = hid == null || !hid.isTextual() ? null : handles.get(hid.asText());
        result = adapter.call(op, key, new Args(m.path("args"), handle));
      }
      if (result instanceof Handled h) {
        String hid = null;
        if (h.handle() != null) {
          hid = UUID.randomUUID().toString().substring(0, 12);
          handles.put(hid, h.handle());
        }
        ObjectNode answer = JSON.createObjectNode();
        answer.set("answer", JSON.valueToTree(h.answer()));
        answer.put("handle", hid);
        result = answer;
      }
      ObjectNode ok = JSON.createObjectNode().put("type", "response").put("id", id).put("ok", true);
      ok.set("result", JSON.valueToTree(result));
      return JSON.convertValue(ok, Map.class);
    } catch (Refused e) {
      return Map.of("type", "response", "id", id, "ok", false, "refused", true, "error", String.valueOf(e.getMessage()));
    } catch (Throwable e) {
      return Map.of("type", "response", "id", id, "ok", false, "error", errorText(e));
    }
  }
}
