/*
 * Differential harness for the policy core's principal mapping (lib/policy/identity):
 * answers with Apache Kafka's real classes (SslPrincipalMapper, KerberosShortNamer,
 * KerberosName, ConfigDef's LIST parsing, DefaultKafkaPrincipalBuilder) and with
 * java.util.regex and java.lang.String of the running JVM. Our code: it only calls
 * Kafka's jars and the JDK, which come from .kafka/lib and the machine's Java.
 *
 * Compiled and started by lib/policy/identity/principal-map.integration.test.ts through
 * scripts/java-harness.ts (compileJavaAgainstKafka).
 *
 * Protocol: one JSON object per line on stdin, one per line on stdout, in order. Output
 * escapes every non-ASCII character, so lone surrogates survive the trip.
 *
 *   {"id":1,"cmd":"ping"} -> {"id":1,"ok":true,"kafkaVersion":"4.1.1","javaVersion":"17..."}
 *
 *   {"id":2,"cmd":"principal-map", ...the principal-map CLI document...}
 *     -> {"id":2,"results":[{"name","principal"} | {"error","message"}]}
 *     SSL rules go to SslPrincipalMapper.fromRules (null: the property unset); Kerberos
 *     rules through ConfigDef.parseType(LIST) (null: the default ["DEFAULT"]) to
 *     KerberosShortNamer.fromUnparsedRules(defaultRealm ?? ""). A rules value Kafka
 *     refuses answers every request with that exception. A client without certificate
 *     goes through DefaultKafkaPrincipalBuilder with an SSLSession that has no peer; a
 *     Kerberos principal through DefaultKafkaPrincipalBuilder with a GSSAPI SaslServer.
 *     The builder wraps the mappers' IOExceptions in KafkaException; the harness reports
 *     the mapper's own exception (the cause), as the policy core does.
 *
 *   {"id":3,"cmd":"regex","pattern":"...","replacement":"...","inputs":["..."]}
 *     -> {"id":3,"compile":{"error","message"}} when Pattern.compile throws, else
 *        {"id":3,"groupCount":n,"results":[{"matches":bool,"groups":[..]|null,"lookingAt":bool,
 *          "replaceAll":{"value"}|{"error","message"},"replaceFirst":{...},"split":[..]}]}
 *
 *   {"id":4,"cmd":"case","inputs":["..."]} -> {"id":4,"results":[{"lower","upper"}]}
 *     String.toLowerCase / toUpperCase with Locale.ENGLISH.
 */

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.internals.BrokerSecurityConfigs;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SaslAuthenticationContext;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.auth.SslAuthenticationContext;
import org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder;
import org.apache.kafka.common.security.kerberos.KerberosName;
import org.apache.kafka.common.security.kerberos.KerberosShortNamer;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;
import org.apache.kafka.common.utils.AppInfoParser;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.security.sasl.SaslServer;

public final class PrincipalMapHarness {
    private static final ObjectMapper JSON = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
    private static PrintStream out;

    public static void main(String[] args) throws Exception {
        out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            ObjectNode answer;
            JsonNode id = null;
            try {
                JsonNode cmd = JSON.readTree(line);
                id = cmd.get("id");
                answer = dispatch(cmd);
            } catch (Throwable e) {
                answer = JSON.createObjectNode();
                answer.put("harnessError", e.getClass().getName() + ": " + e.getMessage());
            }
            if (id != null) answer.set("id", id);
            out.println(JSON.writeValueAsString(answer));
            out.flush();
        }
    }

    private static ObjectNode dispatch(JsonNode cmd) throws Exception {
        String name = cmd.path("cmd").asText();
        switch (name) {
            case "ping": {
                ObjectNode answer = JSON.createObjectNode();
                answer.put("ok", true);
                answer.put("kafkaVersion", AppInfoParser.getVersion());
                answer.put("javaVersion", System.getProperty("java.version"));
                return answer;
            }
            case "principal-map":
                return principalMap(cmd);
            case "regex":
                return regex(cmd);
            case "case":
                return caseMapping(cmd);
            default:
                throw new IllegalArgumentException("unknown cmd " + name);
        }
    }

    private static String textOrNull(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static void putError(ObjectNode target, Throwable e) {
        target.put("error", e.getClass().getSimpleName());
        target.put("message", e.getMessage());
    }

    // ---- principal-map ---------------------------------------------------------------

    @SuppressWarnings("unchecked")
    private static ObjectNode principalMap(JsonNode cmd) throws Exception {
        JsonNode ssl = cmd.get("ssl");
        JsonNode kerberos = cmd.get("kerberos");
        String sslRules = ssl == null || ssl.isNull() ? null : textOrNull(ssl, "rules");
        String kerberosRules = kerberos == null || kerberos.isNull() ? null : textOrNull(kerberos, "rules");
        String realm = kerberos == null || kerberos.isNull() ? null : textOrNull(kerberos, "defaultRealm");

        Throwable configError = null;
        SslPrincipalMapper mapper = null;
        KerberosShortNamer shortNamer = null;
        try {
            mapper = SslPrincipalMapper.fromRules(sslRules);
        } catch (Throwable e) {
            configError = e;
        }
        if (configError == null) {
            try {
                List<String> rules = kerberosRules == null
                    ? BrokerSecurityConfigs.DEFAULT_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES
                    : (List<String>) ConfigDef.parseType(BrokerSecurityConfigs.SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES_CONFIG, kerberosRules, ConfigDef.Type.LIST);
                shortNamer = KerberosShortNamer.fromUnparsedRules(realm == null ? "" : realm, rules);
            } catch (Throwable e) {
                configError = e;
            }
        }

        ObjectNode answer = JSON.createObjectNode();
        ArrayNode results = answer.putArray("results");
        for (JsonNode r : cmd.path("requests")) {
            ObjectNode result = results.addObject();
            if (configError != null) {
                putError(result, configError);
                continue;
            }
            try {
                KafkaPrincipal principal;
                if ("ssl".equals(r.path("type").asText())) {
                    String dn = textOrNull(r, "distinguishedName");
                    if (dn == null) {
                        DefaultKafkaPrincipalBuilder builder = new DefaultKafkaPrincipalBuilder(null, mapper);
                        principal = builder.build(new SslAuthenticationContext(sessionWithoutPeer(), InetAddress.getLoopbackAddress(), "SSL"));
                    } else {
                        principal = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, mapper.getName(dn));
                    }
                } else {
                    DefaultKafkaPrincipalBuilder builder = new DefaultKafkaPrincipalBuilder(shortNamer, null);
                    principal = builder.build(new SaslAuthenticationContext(gssapiServer(r.path("principal").asText()), SecurityProtocol.SASL_PLAINTEXT, InetAddress.getLoopbackAddress(), "SASL_PLAINTEXT"));
                }
                result.put("name", principal.getName());
                result.put("principal", principal.toString());
            } catch (KafkaException e) {
                putError(result, e.getCause() instanceof IOException ? e.getCause() : e);
            } catch (Throwable e) {
                putError(result, e);
            }
        }
        return answer;
    }

    private static SSLSession sessionWithoutPeer() {
        return (SSLSession) Proxy.newProxyInstance(SSLSession.class.getClassLoader(), new Class<?>[] {SSLSession.class}, (proxy, method, args) -> {
            if (method.getName().equals("getPeerPrincipal")) throw new SSLPeerUnverifiedException("peer not authenticated");
            throw new UnsupportedOperationException(method.getName());
        });
    }

    private static SaslServer gssapiServer(String authorizationId) {
        return (SaslServer) Proxy.newProxyInstance(SaslServer.class.getClassLoader(), new Class<?>[] {SaslServer.class}, (proxy, method, args) -> {
            switch (method.getName()) {
                case "getMechanismName": return "GSSAPI";
                case "getAuthorizationID": return authorizationId;
                default: throw new UnsupportedOperationException(method.getName());
            }
        });
    }

    // ---- java.util.regex ---------------------------------------------------------------

    private static ObjectNode regex(JsonNode cmd) {
        ObjectNode answer = JSON.createObjectNode();
        Pattern pattern;
        try {
            pattern = Pattern.compile(cmd.path("pattern").asText());
        } catch (Throwable e) {
            putError(answer.putObject("compile"), e);
            return answer;
        }
        String replacement = textOrNull(cmd, "replacement");
        answer.put("groupCount", pattern.matcher("").groupCount());
        ArrayNode results = answer.putArray("results");
        for (JsonNode in : cmd.path("inputs")) {
            String input = in.asText();
            ObjectNode r = results.addObject();
            try {
                Matcher m = pattern.matcher(input);
                boolean matches = m.matches();
                r.put("matches", matches);
                if (matches) {
                    ArrayNode groups = r.putArray("groups");
                    for (int g = 0; g <= m.groupCount(); g++) groups.add(m.group(g));
                } else {
                    r.putNull("groups");
                }
                r.put("lookingAt", pattern.matcher(input).lookingAt());
                if (replacement != null) {
                    ObjectNode all = r.putObject("replaceAll");
                    try {
                        all.put("value", pattern.matcher(input).replaceAll(replacement));
                    } catch (Throwable e) {
                        putError(all, e);
                    }
                    ObjectNode firstOnly = r.putObject("replaceFirst");
                    try {
                        firstOnly.put("value", pattern.matcher(input).replaceFirst(replacement));
                    } catch (Throwable e) {
                        putError(firstOnly, e);
                    }
                }
                ArrayNode split = r.putArray("split");
                for (String part : pattern.split(input, -1)) split.add(part);
            } catch (StackOverflowError e) {
                r.removeAll();
                r.put("error", "StackOverflowError");
            }
        }
        return answer;
    }

    private static ObjectNode caseMapping(JsonNode cmd) {
        ObjectNode answer = JSON.createObjectNode();
        ArrayNode results = answer.putArray("results");
        for (JsonNode in : cmd.path("inputs")) {
            ObjectNode r = results.addObject();
            r.put("lower", in.asText().toLowerCase(Locale.ENGLISH));
            r.put("upper", in.asText().toUpperCase(Locale.ENGLISH));
        }
        return answer;
    }
}
