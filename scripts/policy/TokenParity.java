/*
 * Answers delegation-token questions with Apache Kafka's KRaft DelegationTokenControlManager
 * (jars from .kafka/lib), one JSON case per line on stdin, one JSON answer per line on stdout.
 * Used by token-parity.integration.test.ts. The controller's clock is replaced by a fixed
 * `now` (its private `time` field), the token cache holds the case's token under its HMAC.
 *
 * Case {op: describe, principal, owners|null, token, describableTokenIds, describableOwners}
 * runs the broker's DelegationTokenManager.filterToken instead: {visible}.
 * Case: {op: create|renew|expire, secretKey|null, maxLifetimeMs, expiryTimeMs, now,
 *        principal: "Type:name", owner?: "Type:name", renewers?: [..], maxLifetime?,
 *        token?: {tokenId, owner, requester, renewers, issue, expiry, max}, hmacOf?: tokenId, period?}
 * Longs travel as decimal strings both ways (JSON numbers lose precision past 2^53).
 * Answer: {error, issue?, expiry?, max?, tokenId?, hmac?, owner?, requester?}
 */
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.common.message.CreateDelegationTokenRequestData;
import org.apache.kafka.common.message.CreateDelegationTokenResponseData;
import org.apache.kafka.common.message.ExpireDelegationTokenRequestData;
import org.apache.kafka.common.message.ExpireDelegationTokenResponseData;
import org.apache.kafka.common.message.RenewDelegationTokenRequestData;
import org.apache.kafka.common.message.RenewDelegationTokenResponseData;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.security.token.delegation.TokenInformation;
import org.apache.kafka.common.security.token.delegation.internals.DelegationTokenCache;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.controller.ControllerRequestContext;
import org.apache.kafka.server.common.MetadataVersion;

public class TokenParity {
  private static final ObjectMapper JSON = new ObjectMapper();

  static final class FixedTime implements Time {
    private final long now;
    FixedTime(long now) { this.now = now; }
    public long milliseconds() { return now; }
    public long nanoseconds() { return now * 1_000_000L; }
    public void sleep(long ms) { }
    public void waitObject(Object o, Supplier<Boolean> done, long deadline) { }
  }

  static KafkaPrincipal principal(String s) {
    int i = s.indexOf(':');
    return new KafkaPrincipal(s.substring(0, i), s.substring(i + 1));
  }

  static byte[] hmac(String secret, String tokenId) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA512");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), mac.getAlgorithm()));
    return mac.doFinal(tokenId.getBytes(StandardCharsets.UTF_8));
  }

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Class<?> builderClass = Class.forName("org.apache.kafka.controller.DelegationTokenControlManager$Builder");
    Constructor<?> builderCtor = builderClass.getDeclaredConstructor();
    builderCtor.setAccessible(true);
    String line;
    while ((line = in.readLine()) != null) {
      JsonNode c = JSON.readTree(line);
      if (c.get("op").asText().equals("describe")) {
        System.out.println(describe(c));
        continue;
      }
      DelegationTokenCache cache = new DelegationTokenCache(List.of("SCRAM-SHA-256", "SCRAM-SHA-512"));
      String secret = c.get("secretKey").isNull() ? null : c.get("secretKey").asText();
      // ControllerServer passes the key only when it is non-empty (KafkaConfig.tokenAuthEnabled).
      String key = secret == null || secret.isEmpty() ? null : secret;
      Object builder = builderCtor.newInstance();
      invoke(builder, "setTokenCache", DelegationTokenCache.class, cache);
      invoke(builder, "setDelegationTokenSecretKey", String.class, key);
      invoke(builder, "setDelegationTokenMaxLifeMs", long.class, c.get("maxLifetimeMs").asLong());
      invoke(builder, "setDelegationTokenExpiryTimeMs", long.class, c.get("expiryTimeMs").asLong());
      Method build = builderClass.getDeclaredMethod("build");
      build.setAccessible(true);
      Object manager = build.invoke(builder);
      Field time = manager.getClass().getDeclaredField("time");
      time.setAccessible(true);
      time.set(manager, new FixedTime(c.get("now").asLong()));

      JsonNode t = c.get("token");
      if (t != null && key != null) {
        List<KafkaPrincipal> renewers = new ArrayList<>();
        for (JsonNode r : t.get("renewers")) renewers.add(principal(r.asText()));
        TokenInformation info = new TokenInformation(t.get("tokenId").asText(), principal(t.get("owner").asText()),
            principal(t.get("requester").asText()), renewers, t.get("issue").asLong(), t.get("max").asLong(), t.get("expiry").asLong());
        cache.updateCache(new DelegationToken(info, hmac(key, t.get("tokenId").asText())), Map.of());
      }
      ControllerRequestContext ctx = new ControllerRequestContext(new RequestHeaderData(), principal(c.get("principal").asText()), OptionalLong.empty());
      MetadataVersion mv = MetadataVersion.latestProduction();
      ObjectNode out = JSON.createObjectNode();
      String op = c.get("op").asText();
      byte[] requestHmac = c.has("hmacOf") ? hmac(key == null ? "x" : key, c.get("hmacOf").asText()) : new byte[0];
      if (op.equals("create")) {
        CreateDelegationTokenRequestData req = new CreateDelegationTokenRequestData().setMaxLifetimeMs(c.get("maxLifetime").asLong());
        if (c.has("owner")) {
          KafkaPrincipal owner = principal(c.get("owner").asText());
          req.setOwnerPrincipalType(owner.getPrincipalType()).setOwnerPrincipalName(owner.getName());
        }
        for (JsonNode r : c.get("renewers")) {
          KafkaPrincipal p = principal(r.asText());
          req.renewers().add(new CreateDelegationTokenRequestData.CreatableRenewers().setPrincipalType(p.getPrincipalType()).setPrincipalName(p.getName()));
        }
        CreateDelegationTokenResponseData res = (CreateDelegationTokenResponseData) call(manager, "createDelegationToken", ctx, req, mv);
        out.put("error", Errors.forCode(res.errorCode()).name());
        if (res.errorCode() == 0) {
          out.put("issue", String.valueOf(res.issueTimestampMs()));
          out.put("expiry", String.valueOf(res.expiryTimestampMs()));
          out.put("max", String.valueOf(res.maxTimestampMs()));
          out.put("tokenId", res.tokenId());
          out.put("hmac", Base64.getEncoder().encodeToString(res.hmac()));
          out.put("owner", res.principalType() + ":" + res.principalName());
          out.put("requester", res.tokenRequesterPrincipalType() + ":" + res.tokenRequesterPrincipalName());
        }
      } else if (op.equals("renew")) {
        RenewDelegationTokenRequestData req = new RenewDelegationTokenRequestData().setHmac(requestHmac).setRenewPeriodMs(c.get("period").asLong());
        RenewDelegationTokenResponseData res = (RenewDelegationTokenResponseData) call(manager, "renewDelegationToken", ctx, req, mv);
        out.put("error", Errors.forCode(res.errorCode()).name());
        if (res.errorCode() == 0) out.put("expiry", String.valueOf(res.expiryTimestampMs()));
      } else {
        ExpireDelegationTokenRequestData req = new ExpireDelegationTokenRequestData().setHmac(requestHmac).setExpiryTimePeriodMs(c.get("period").asLong());
        ExpireDelegationTokenResponseData res = (ExpireDelegationTokenResponseData) call(manager, "expireDelegationToken", ctx, req, mv);
        out.put("error", Errors.forCode(res.errorCode()).name());
        if (res.errorCode() == 0) out.put("expiry", String.valueOf(res.expiryTimestampMs()));
      }
      System.out.println(JSON.writeValueAsString(out));
    }
  }

  /** DelegationTokenManager.filterToken, the broker's describe filter; the ACL checks are given as sets. */
  static String describe(JsonNode c) throws Exception {
    JsonNode t = c.get("token");
    List<KafkaPrincipal> renewers = new ArrayList<>();
    for (JsonNode r : t.get("renewers")) renewers.add(principal(r.asText()));
    TokenInformation info = new TokenInformation(t.get("tokenId").asText(), principal(t.get("owner").asText()),
        principal(t.get("requester").asText()), renewers, 0L, 0L, 0L);
    java.util.Optional<List<KafkaPrincipal>> owners = java.util.Optional.empty();
    if (!c.get("owners").isNull()) {
      List<KafkaPrincipal> list = new ArrayList<>();
      for (JsonNode o : c.get("owners")) list.add(principal(o.asText()));
      owners = java.util.Optional.of(list);
    }
    java.util.Set<String> tokenIds = new java.util.HashSet<>();
    for (JsonNode n : c.get("describableTokenIds")) tokenIds.add(n.asText());
    java.util.Set<String> ownerNames = new java.util.HashSet<>();
    for (JsonNode n : c.get("describableOwners")) ownerNames.add(n.asText());
    boolean visible = org.apache.kafka.server.DelegationTokenManager.filterToken(principal(c.get("principal").asText()), owners, info,
        tokenIds::contains, p -> ownerNames.contains(p.toString()));
    ObjectNode out = JSON.createObjectNode();
    out.put("visible", visible);
    return JSON.writeValueAsString(out);
  }

  private static void invoke(Object target, String name, Class<?> type, Object value) throws Exception {
    Method m = target.getClass().getDeclaredMethod(name, type);
    m.setAccessible(true);
    m.invoke(target, value);
  }

  private static Object call(Object manager, String name, Object ctx, Object req, MetadataVersion mv) throws Exception {
    for (Method m : manager.getClass().getDeclaredMethods()) {
      if (m.getName().equals(name)) {
        m.setAccessible(true);
        Object result = m.invoke(manager, ctx, req, mv);
        Method response = result.getClass().getDeclaredMethod("response");
        response.setAccessible(true);
        return response.invoke(result);
      }
    }
    throw new IllegalStateException(name);
  }
}
