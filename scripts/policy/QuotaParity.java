/*
 * Answers quota questions with Apache Kafka's own classes (jars from .kafka/lib), one JSON
 * document per line on stdin, one per line on stdout. Used by quota-parity.integration.test.ts
 * to compare the policy core's quota module with Kafka:
 *
 *   alter     {entity: [[type, name|null]...], ops: [[key|null, value|null]...]}
 *             -> ClientQuotaControlManager#alterClientQuotas: {ok} or {ok, error, message}
 *   describe  {entities: [{type: name|null}], components: [[type, matchType, match|null]], strict}
 *             -> ClientQuotasImage#describe: {entities: [sorted "{type=name}" strings]} or {error: "CODE: message"}
 *   resolve   {configured: [{user?, client?, value}], requests: [[user, clientId]]}
 *             -> ClientQuotaManager (PRODUCE): [{value|null, user, client-id}] (quota bound and metric tags)
 *
 * Package-private Kafka classes are reached by reflection.
 */
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.Sanitizer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.image.ClientQuotaImage;
import org.apache.kafka.image.ClientQuotasImage;
import org.apache.kafka.network.Session;
import org.apache.kafka.server.config.ClientQuotaManagerConfig;
import org.apache.kafka.server.quota.QuotaType;

public class QuotaParity {
  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      JsonNode c = JSON.readTree(line);
      String out;
      switch (mode) {
        case "alter": out = alter(c); break;
        case "describe": out = describe(c); break;
        case "resolve": out = resolve(c); break;
        default: throw new IllegalArgumentException("mode " + mode);
      }
      System.out.println(out);
    }
  }

  private static String text(JsonNode n) {
    return n == null || n.isNull() ? null : n.asText();
  }

  static String alter(JsonNode c) throws Exception {
    Map<String, String> entries = new HashMap<>(c.get("entity").size());
    for (JsonNode e : c.get("entity")) entries.put(text(e.get(0)), text(e.get(1)));
    List<ClientQuotaAlteration.Op> ops = new ArrayList<>();
    for (JsonNode o : c.get("ops")) ops.add(new ClientQuotaAlteration.Op(text(o.get(0)), o.get(1).isNull() ? null : o.get(1).asDouble()));
    ClientQuotaEntity entity = new ClientQuotaEntity(entries);

    Class<?> builderClass = Class.forName("org.apache.kafka.controller.ClientQuotaControlManager$Builder");
    Constructor<?> ctor = builderClass.getDeclaredConstructor();
    ctor.setAccessible(true);
    Method build = builderClass.getDeclaredMethod("build");
    build.setAccessible(true);
    Object manager = build.invoke(ctor.newInstance());
    Method alter = manager.getClass().getDeclaredMethod("alterClientQuotas", Collection.class);
    alter.setAccessible(true);
    Object result = alter.invoke(manager, List.of(new ClientQuotaAlteration(entity, ops)));
    Method response = result.getClass().getDeclaredMethod("response");
    response.setAccessible(true);
    ApiError error = (ApiError) ((Map<?, ?>) response.invoke(result)).get(entity);

    ObjectNode out = JSON.createObjectNode();
    out.put("ok", error.isSuccess());
    if (!error.isSuccess()) {
      out.put("error", error.error().name());
      out.put("message", error.message());
    }
    return JSON.writeValueAsString(out);
  }

  static String describe(JsonNode c) throws Exception {
    Map<ClientQuotaEntity, ClientQuotaImage> entities = new HashMap<>();
    for (JsonNode e : c.get("entities")) {
      Map<String, String> m = new HashMap<>();
      e.fields().forEachRemaining(f -> m.put(f.getKey(), text(f.getValue())));
      entities.put(new ClientQuotaEntity(m), new ClientQuotaImage(Map.of("request_percentage", 1.0)));
    }
    DescribeClientQuotasRequestData request = new DescribeClientQuotasRequestData().setStrict(c.get("strict").asBoolean());
    for (JsonNode comp : c.get("components")) {
      request.components().add(new DescribeClientQuotasRequestData.ComponentData()
          .setEntityType(comp.get(0).asText())
          .setMatchType((byte) comp.get(1).asInt())
          .setMatch(text(comp.get(2))));
    }
    ObjectNode out = JSON.createObjectNode();
    try {
      DescribeClientQuotasResponseData response = new ClientQuotasImage(entities).describe(request);
      List<String> found = new ArrayList<>();
      for (DescribeClientQuotasResponseData.EntryData entry : response.entries()) {
        TreeMap<String, String> m = new TreeMap<>();
        for (DescribeClientQuotasResponseData.EntityData d : entry.entity()) m.put(d.entityType(), d.entityName() == null ? "<null>" : d.entityName());
        found.add(m.toString());
      }
      Collections.sort(found);
      ArrayNode arr = out.putArray("entities");
      found.forEach(arr::add);
    } catch (Exception e) {
      out.put("error", Errors.forException(e).name() + ": " + e.getMessage());
    }
    return JSON.writeValueAsString(out);
  }

  private static Object scalaModule(String name) throws Exception {
    return Class.forName(name).getField("MODULE$").get(null);
  }

  static String resolve(JsonNode c) throws Exception {
    Constructor<?> userEntity = Class.forName("kafka.server.ClientQuotaManager$UserEntity").getConstructor(String.class);
    Constructor<?> clientIdEntity = Class.forName("kafka.server.ClientQuotaManager$ClientIdEntity").getConstructor(String.class);
    Object defaultUser = scalaModule("kafka.server.ClientQuotaManager$DefaultUserEntity$");
    Object defaultClientId = scalaModule("kafka.server.ClientQuotaManager$DefaultClientIdEntity$");
    Method updateQuota = null;
    for (Method m : kafka.server.ClientQuotaManager.class.getMethods()) {
      if (m.getName().equals("updateQuota") && m.getParameterCount() == 3) updateQuota = m;
    }
    Metrics metrics = new Metrics();
    kafka.server.ClientQuotaManager manager = new kafka.server.ClientQuotaManager(
        new ClientQuotaManagerConfig(), metrics, QuotaType.PRODUCE, Time.SYSTEM, "parity", scala.Option.empty());
    try {
      for (JsonNode q : c.get("configured")) {
        JsonNode u = q.get("user");
        JsonNode cl = q.get("client");
        scala.Option<Object> user = u == null ? scala.Option.empty()
            : scala.Option.apply(u.isNull() ? defaultUser : userEntity.newInstance(Sanitizer.sanitize(u.asText())));
        scala.Option<Object> client = cl == null ? scala.Option.empty()
            : scala.Option.apply(cl.isNull() ? defaultClientId : clientIdEntity.newInstance(cl.asText()));
        updateQuota.invoke(manager, user, client, scala.Option.apply(new Quota(q.get("value").asDouble(), true)));
      }
      ArrayNode out = JSON.createArrayNode();
      for (JsonNode req : c.get("requests")) {
        String user = req.get(0).asText();
        String clientId = req.get(1).asText();
        double bound = manager.quota(user, clientId).bound();
        scala.collection.immutable.Map<String, String> tags = manager
            .getOrCreateQuotaSensors(new Session(new KafkaPrincipal(KafkaPrincipal.USER_TYPE, user), InetAddress.getLoopbackAddress()), clientId)
            .metricTags();
        ObjectNode o = JSON.createObjectNode();
        if (bound >= (double) Long.MAX_VALUE) o.putNull("value"); else o.put("value", bound);
        o.put("user", tags.apply("user"));
        o.put("client-id", tags.apply("client-id"));
        out.add(o);
      }
      return JSON.writeValueAsString(out);
    } finally {
      manager.shutdown();
      metrics.close();
    }
  }
}
