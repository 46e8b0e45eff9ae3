/*
 * Differential and benchmark harness around Apache Kafka's real KRaft authorizer
 * (org.apache.kafka.metadata.authorizer.StandardAuthorizer). Our code: it only
 * calls Kafka's jars, which come from .kafka/lib at compile and run time.
 *
 * Compiled and started by scripts/java-harness.ts:
 *   javac -cp '.kafka/lib/*' -d .kafka/harness java/AuthorizerHarness.java
 *   java  -cp '.kafka/harness:.kafka/lib/*' AuthorizerHarness
 *
 * Protocol: one JSON object per line on stdin, one JSON object per line on stdout,
 * in the same order. The JVM stays up across lines (startup is the slow part).
 * Everything Kafka or log4j prints goes to stderr: System.out is redirected before
 * any Kafka class loads, so stdout carries nothing but answers.
 *
 *   {"id":1,"cmd":"ping"}                      -> {"id":1,"ok":true,"kafkaVersion":"4.1.1"}
 *
 *   {"id":2,"cmd":"authorize",
 *    "acls":[{resourceType,resourceName,patternType,principal,host,operation,permissionType}],
 *    "superUsers":["User:admin"], "allowEveryoneIfNoAclFound":false,
 *    "requests":[{principal,host,operation,resourceType,resourceName}],
 *    "byType":[{principal,host,operation,resourceType}],
 *    "filters":[{resourceType,resourceName|null,patternType,principal|null,host|null,operation,permissionType}]}
 *     -> {"id":2,"aclCount":n,
 *         "results":[{"decision":"ALLOWED"|"DENIED","byDefault":bool,"rule":{...}} | {"error":"..."}],
 *         "byType":[{"decision":...} | {"error":"..."}],
 *         "filters":[[the ACLs StandardAuthorizer.acls(filter) returns], ...]}
 *
 *     "byDefault" is true when the decision came from allow.everyone.if.no.acl.found:
 *     the harness loads the same ACLs into a second authorizer with the opposite
 *     default and reports whether the answers differ.
 *     "rule" is the rule Kafka's audit log would name: {"kind":"superUser"|"default"|
 *     "noAclMatched"} or {"kind":"acl","acl":{...}} (see RuleProbe).
 *
 *   {"id":3,"cmd":"bench","resourceCount":5000,"aclCount":10,"denyPercentage":20,
 *    "seed":42,"warmupMs":2000,"measureMs":3000,"logIfDenied":true}
 *     -> {"id":3,"aclsLoaded":n,"loadMs":..,"decision":"DENIED","nsPerOp":..,"nsPerOpBest":..,"cpuNsPerOpBest":..,"iterations":..,"heapUsedMb":..}
 *     (nsPerOp: mean over the measurement; nsPerOpBest: the best of "windows" equal slices of it;
 *     cpuNsPerOpBest: the best slice in CPU time of the measuring thread)
 *
 *   {"id":4,"cmd":"benchRequests","file":"/tmp/x.json","warmupMs":3000,"measureMs":3000}
 *     (the file holds {"acls":[...],"requests":[...]} in the shapes of "authorize")
 *     -> {"id":4,"aclsLoaded":n,"loadMs":..,"decisions":"ADDA..","nsPerOp":..,"nsPerOpBest":..,"cpuNsPerOpBest":..,"iterations":..}
 *     decisions: one letter per request (A = ALLOWED, D = DENIED, E = Kafka threw), in
 *     order; nsPerOp and nsPerOpBest are per request, from loops over all of them;
 *     cpuNsPerOpBest is the best window in CPU time of the measuring thread (what other
 *     processes on a shared machine disturb least).
 *
 * The bench workload is Kafka's jmh-benchmarks AuthorizerBenchmark (prepareAclCache and
 * testAuthorizer), with its java.util.Random replaced by a seeded mulberry32 generator
 * that scripts/bench/policy-workloads.ts reproduces bit for bit, so both sides load the same ACLs.
 *
 * Errors in one request (Kafka throws for some inputs, see the differential test) are
 * reported per request; an unparseable line answers {"id":..,"error":"..."}.
 */

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.common.utils.SecurityUtils;
import org.apache.kafka.metadata.authorizer.StandardAcl;
import org.apache.kafka.metadata.authorizer.StandardAuthorizer;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.FileDescriptor;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

public final class AuthorizerHarness {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static PrintStream out;

    public static void main(String[] args) throws Exception {
        // Keep the protocol channel private before anything can log to stdout.
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
                answer.put("error", describe(e));
            }
            if (id != null) answer.set("id", id);
            out.println(JSON.writeValueAsString(answer));
            out.flush();
        }
    }

    private static ObjectNode dispatch(JsonNode cmd) throws Exception {
        String name = text(cmd, "cmd");
        switch (name) {
            case "ping": {
                ObjectNode answer = JSON.createObjectNode();
                answer.put("ok", true);
                answer.put("kafkaVersion", AppInfoParser.getVersion());
                return answer;
            }
            case "authorize":
                return authorizeCase(cmd);
            case "bench":
                return bench(cmd);
            case "benchRequests":
                return benchRequests(cmd);
            default:
                throw new IllegalArgumentException("unknown cmd " + name);
        }
    }

    // ---- differential ----------------------------------------------------------------

    private static ObjectNode authorizeCase(JsonNode cmd) throws Exception {
        List<StandardAcl> acls = new ArrayList<>();
        // The controller never stores the same ACL twice (AclCache.addAcl throws on it).
        Set<StandardAcl> seen = new LinkedHashSet<>();
        for (JsonNode a : cmd.path("acls")) {
            StandardAcl acl = aclOf(a);
            if (seen.add(acl)) acls.add(acl);
        }
        List<String> superUsers = new ArrayList<>();
        for (JsonNode s : cmd.path("superUsers")) superUsers.add(s.asText());
        boolean allowEveryone = cmd.path("allowEveryoneIfNoAclFound").asBoolean(false);

        Loaded configured = load(acls, superUsers, allowEveryone);
        Loaded flipped = load(acls, superUsers, !allowEveryone);
        try {
            ObjectNode answer = JSON.createObjectNode();
            answer.put("aclCount", configured.authorizer.aclCount());

            ArrayNode results = answer.putArray("results");
            for (JsonNode r : cmd.path("requests")) {
                ObjectNode result = results.addObject();
                try {
                    Context ctx = context(r);
                    Action action = new Action(
                        AclOperation.valueOf(text(r, "operation")),
                        new ResourcePattern(ResourceType.valueOf(text(r, "resourceType")), text(r, "resourceName"), PatternType.LITERAL),
                        1, false, false);
                    AuthorizationResult a = configured.authorizer.authorize(ctx, List.of(action)).get(0);
                    AuthorizationResult b = flipped.authorizer.authorize(ctx, List.of(action)).get(0);
                    result.put("decision", a.name());
                    result.put("byDefault", a != b);
                    if (superUsers.contains(ctx.principal().toString())) {
                        result.putObject("rule").put("kind", "superUser");
                    } else {
                        ObjectNode rule = RuleProbe.rule(configured.authorizer, ctx, action, a);
                        if (rule != null) result.set("rule", rule);
                    }
                } catch (Throwable e) {
                    result.put("error", describe(e));
                }
            }

            ArrayNode filters = answer.putArray("filters");
            for (JsonNode f : cmd.path("filters")) {
                ArrayNode matched = filters.addArray();
                AclBindingFilter filter = new AclBindingFilter(
                    new ResourcePatternFilter(
                        ResourceType.valueOf(text(f, "resourceType")),
                        nullableText(f, "resourceName"),
                        PatternType.valueOf(text(f, "patternType"))),
                    new AccessControlEntryFilter(
                        nullableText(f, "principal"),
                        nullableText(f, "host"),
                        AclOperation.valueOf(text(f, "operation")),
                        AclPermissionType.valueOf(text(f, "permissionType"))));
                for (AclBinding b : configured.authorizer.acls(filter)) {
                    ObjectNode a = matched.addObject();
                    a.put("resourceType", b.pattern().resourceType().name());
                    a.put("resourceName", b.pattern().name());
                    a.put("patternType", b.pattern().patternType().name());
                    a.put("principal", b.entry().principal());
                    a.put("host", b.entry().host());
                    a.put("operation", b.entry().operation().name());
                    a.put("permissionType", b.entry().permissionType().name());
                }
            }

            ArrayNode byType = answer.putArray("byType");
            for (JsonNode r : cmd.path("byType")) {
                ObjectNode result = byType.addObject();
                try {
                    AuthorizationResult a = configured.authorizer.authorizeByResourceType(
                        context(r),
                        AclOperation.valueOf(text(r, "operation")),
                        ResourceType.valueOf(text(r, "resourceType")));
                    result.put("decision", a.name());
                } catch (Throwable e) {
                    result.put("error", describe(e));
                }
            }
            return answer;
        } finally {
            configured.close();
            flipped.close();
        }
    }

    /**
     * Which rule decided, as StandardAuthorizerData's audit log would name it: calls its
     * private findAclRule(matchingPrincipals(ctx), host, action) reflectively (Kafka's jars are
     * on the class path, so their private members are reachable). Returns null when this
     * Kafka version does not have those members, and the differential then compares
     * decisions only.
     */
    static final class RuleProbe {
        private static boolean initialised;
        private static java.lang.reflect.Field dataField;
        private static java.lang.reflect.Field noAclRuleField;
        private static java.lang.reflect.Method findAclRule;
        private static java.lang.reflect.Method matchingPrincipals;
        private static Class<?> matchingAclRuleClass;
        private static java.lang.reflect.Field aclField;
        private static java.lang.reflect.Method ruleResult;

        private static synchronized boolean init() {
            if (initialised) return findAclRule != null;
            initialised = true;
            try {
                Class<?> dataClass = Class.forName("org.apache.kafka.metadata.authorizer.StandardAuthorizerData");
                dataField = StandardAuthorizer.class.getDeclaredField("data");
                dataField.setAccessible(true);
                noAclRuleField = dataClass.getDeclaredField("noAclRule");
                noAclRuleField.setAccessible(true);
                findAclRule = dataClass.getDeclaredMethod("findAclRule", Set.class, String.class, Action.class);
                findAclRule.setAccessible(true);
                matchingPrincipals = dataClass.getDeclaredMethod("matchingPrincipals", AuthorizableRequestContext.class);
                matchingPrincipals.setAccessible(true);
                matchingAclRuleClass = Class.forName("org.apache.kafka.metadata.authorizer.StandardAuthorizerData$MatchingAclRule");
                aclField = matchingAclRuleClass.getDeclaredField("acl");
                aclField.setAccessible(true);
                ruleResult = Class.forName("org.apache.kafka.metadata.authorizer.StandardAuthorizerData$MatchingRule").getDeclaredMethod("result");
                ruleResult.setAccessible(true);
                return true;
            } catch (ReflectiveOperationException | RuntimeException e) {
                System.err.println("rule probe unavailable: " + e);
                findAclRule = null;
                return false;
            }
        }

        static ObjectNode rule(StandardAuthorizer authorizer, Context ctx, Action action, AuthorizationResult decision) throws Exception {
            if (!init()) return null;
            Object data = dataField.get(authorizer);
            Object rule = findAclRule.invoke(data, matchingPrincipals.invoke(null, ctx), ctx.clientAddress().getHostAddress(), action);
            ObjectNode out = JSON.createObjectNode();
            if (matchingAclRuleClass.isInstance(rule)) {
                StandardAcl acl = (StandardAcl) aclField.get(rule);
                out.put("kind", "acl");
                ObjectNode a = out.putObject("acl");
                a.put("resourceType", acl.resourceType().name());
                a.put("resourceName", acl.resourceName());
                a.put("patternType", acl.patternType().name());
                a.put("principal", acl.principal());
                a.put("host", acl.host());
                a.put("operation", acl.operation().name());
                a.put("permissionType", acl.permissionType().name());
            } else if (rule == noAclRuleField.get(data)) {
                out.put("kind", "default");
            } else {
                out.put("kind", "noAclMatched");
            }
            // The probe must reproduce the decision authorize() returned.
            out.put("consistent", ruleResult.invoke(rule) == decision);
            return out;
        }
    }

    private static final class Loaded implements AutoCloseable {
        final StandardAuthorizer authorizer;
        final Metrics metrics;

        Loaded(StandardAuthorizer authorizer, Metrics metrics) {
            this.authorizer = authorizer;
            this.metrics = metrics;
        }

        @Override
        public void close() throws IOException {
            authorizer.close();
            metrics.close();
        }
    }

    /** A StandardAuthorizer set up the way the broker does it: configure, metrics, snapshot, initial load. */
    private static Loaded load(List<StandardAcl> acls, List<String> superUsers, boolean allowEveryone) {
        StandardAuthorizer authorizer = new StandardAuthorizer();
        Map<String, Object> config = new HashMap<>();
        config.put(StandardAuthorizer.SUPER_USERS_CONFIG, String.join(";", superUsers));
        config.put(StandardAuthorizer.ALLOW_EVERYONE_IF_NO_ACL_IS_FOUND_CONFIG, Boolean.toString(allowEveryone));
        authorizer.configure(config);
        // Since Kafka 4.1 authorize() records into plugin metrics; the broker always sets them.
        Metrics metrics = new Metrics();
        authorizer.withPluginMetrics(new PluginMetricsImpl(metrics, Map.of()));
        Map<Uuid, StandardAcl> snapshot = new HashMap<>();
        for (StandardAcl acl : acls) snapshot.put(Uuid.randomUuid(), acl);
        authorizer.loadSnapshot(snapshot);
        authorizer.completeInitialLoad();
        return new Loaded(authorizer, metrics);
    }

    private static Context context(JsonNode r) throws Exception {
        KafkaPrincipal principal = SecurityUtils.parseKafkaPrincipal(text(r, "principal"));
        String host = text(r, "host");
        InetAddress address = InetAddress.getByName(host);
        if (!address.getHostAddress().equals(host)) {
            // Kafka matches ACL hosts against getHostAddress(); a request host in another
            // spelling would silently test something else.
            throw new IllegalArgumentException("request host " + host + " is not in Java's canonical form "
                + address.getHostAddress());
        }
        return new Context(principal, address);
    }

    /** What the broker's RequestContext tells the authorizer, minus the wire details. */
    private static final class Context implements AuthorizableRequestContext {
        private final KafkaPrincipal principal;
        private final InetAddress address;

        Context(KafkaPrincipal principal, InetAddress address) {
            this.principal = principal;
            this.address = address;
        }

        @Override public String listenerName() { return "SASL_PLAINTEXT"; }
        @Override public SecurityProtocol securityProtocol() { return SecurityProtocol.SASL_PLAINTEXT; }
        @Override public KafkaPrincipal principal() { return principal; }
        @Override public InetAddress clientAddress() { return address; }
        @Override public int requestType() { return 0; }
        @Override public int requestVersion() { return 0; }
        @Override public String clientId() { return "differential"; }
        @Override public int correlationId() { return 0; }
    }

    // ---- benchmark -------------------------------------------------------------------

    /** mulberry32; scripts/bench/policy-workloads.ts has the same generator. */
    static final class Mulberry32 {
        private int state;

        Mulberry32(int seed) {
            state = seed;
        }

        double next() {
            state += 0x6D2B79F5;
            int t = state;
            t = (t ^ (t >>> 15)) * (t | 1);
            t ^= t + (t ^ (t >>> 7)) * (t | 61);
            t = t ^ (t >>> 14);
            return Integer.toUnsignedLong(t) / 4294967296.0;
        }
    }

    private static final String RESOURCE_NAME_PREFIX = "foo-bar35_resource-";
    private static final int HOST_PRE_COUNT = 1000;
    private static final String BY_TYPE_HOST = "127.0.0.2";

    /** Kafka's AuthorizerBenchmark.prepareAclCache, as a list of bindings in the same order. */
    static List<AclBinding> benchmarkAcls(int resourceCount, int aclCount, double denyPercentage, int seed) {
        Mulberry32 rand = new Mulberry32(seed);
        double eps = 1e-9;
        String principal = "User:test-user";
        List<AclBinding> acls = new ArrayList<>();
        for (int resourceId = 0; resourceId < resourceCount; resourceId++) {
            ResourcePattern resource = new ResourcePattern(
                resourceId % 10 == 0 ? ResourceType.GROUP : ResourceType.TOPIC,
                RESOURCE_NAME_PREFIX + resourceId,
                resourceId % 5 == 0 ? PatternType.PREFIXED : PatternType.LITERAL);
            for (int aclId = 0; aclId < aclCount; aclId++) {
                String principalName = principal + (aclId == 0 ? "" : Integer.toString(aclId));
                acls.add(new AclBinding(resource, new AccessControlEntry(principalName, "*", AclOperation.READ, AclPermissionType.ALLOW)));
                if (rand.next() * 100.0 - eps < denyPercentage) {
                    acls.add(new AclBinding(resource, new AccessControlEntry(principalName, "*", AclOperation.READ, AclPermissionType.DENY)));
                }
            }
        }
        ResourcePattern prefix = new ResourcePattern(ResourceType.TOPIC, RESOURCE_NAME_PREFIX, PatternType.PREFIXED);
        for (int hostId = 0; hostId < HOST_PRE_COUNT; hostId++) {
            acls.add(new AclBinding(prefix, new AccessControlEntry(principal, "127.0.0." + hostId, AclOperation.READ, AclPermissionType.ALLOW)));
            if (rand.next() * 100.0 - eps < denyPercentage) {
                acls.add(new AclBinding(prefix, new AccessControlEntry(principal, "127.0.0." + hostId, AclOperation.READ, AclPermissionType.DENY)));
            }
        }
        ResourcePattern wildcard = new ResourcePattern(ResourceType.TOPIC, ResourcePattern.WILDCARD_RESOURCE, PatternType.LITERAL);
        for (int hostId = 0; hostId < resourceCount / 10; hostId++) {
            // Kafka's benchmark really writes "127.0.0" + hostId (no dot) here.
            String hostName = "127.0.0" + hostId;
            if (hostName.equals(BY_TYPE_HOST)) continue;
            acls.add(new AclBinding(wildcard, new AccessControlEntry(principal, hostName, AclOperation.READ, AclPermissionType.ALLOW)));
            if (rand.next() * 100.0 - eps < denyPercentage) {
                acls.add(new AclBinding(wildcard, new AccessControlEntry(principal, hostName, AclOperation.READ, AclPermissionType.DENY)));
            }
        }
        return acls;
    }

    private static ObjectNode bench(JsonNode cmd) throws Exception {
        int resourceCount = cmd.path("resourceCount").asInt();
        int aclCount = cmd.path("aclCount").asInt();
        double denyPercentage = cmd.path("denyPercentage").asDouble();
        int seed = cmd.path("seed").asInt(42);
        long warmupMs = cmd.path("warmupMs").asLong(2000);
        long measureMs = cmd.path("measureMs").asLong(3000);
        boolean logIfDenied = cmd.path("logIfDenied").asBoolean(true);

        long t0 = System.nanoTime();
        List<AclBinding> bindings = benchmarkAcls(resourceCount, aclCount, denyPercentage, seed);
        StandardAuthorizer authorizer = new StandardAuthorizer();
        authorizer.configure(Map.of());
        Metrics metrics = new Metrics();
        authorizer.withPluginMetrics(new PluginMetricsImpl(metrics, Map.of()));
        for (AclBinding binding : bindings) {
            authorizer.addAcl(Uuid.randomUuid(), StandardAcl.fromAclBinding(binding));
        }
        authorizer.completeInitialLoad();
        long loadNs = System.nanoTime() - t0;
        bindings = null;

        // AuthorizerBenchmark.testAuthorizer: WRITE on TOPIC foo-bar35_resource-95 from 127.0.0.1.
        List<Action> actions = List.of(new Action(AclOperation.WRITE,
            new ResourcePattern(ResourceType.TOPIC, RESOURCE_NAME_PREFIX + 95, PatternType.LITERAL),
            1, true, logIfDenied));
        Context ctx = new Context(new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "test-user"), InetAddress.getByName("127.0.0.1"));

        AuthorizationResult decision = authorizer.authorize(ctx, actions).get(0);
        Runtime rt = Runtime.getRuntime();
        ObjectNode answer = JSON.createObjectNode();
        timeWindows(() -> authorizer.authorize(ctx, actions).get(0).ordinal(), 1, warmupMs, measureMs,
            Math.max(1, cmd.path("windows").asInt(10)), answer);
        answer.put("aclsLoaded", authorizer.aclCount());
        answer.put("loadMs", loadNs / 1e6);
        answer.put("decision", decision.name());
        answer.put("heapUsedMb", (rt.totalMemory() - rt.freeMemory()) / (1024.0 * 1024.0));
        authorizer.close();
        metrics.close();
        return answer;
    }

    /**
     * A list of requests over a list of ACLs, both read from a file: the "realistic-mixed"
     * row of scripts/bench/policy-rows.ts. Each request is asked the way the broker asks it (one
     * prebuilt request context, one Action list), with audit logging off
     * (logIfAllowed = logIfDenied = false) because the policy core builds no log message
     * either. The timed loop answers every request in turn, round after round.
     */
    private static ObjectNode benchRequests(JsonNode cmd) throws Exception {
        long warmupMs = cmd.path("warmupMs").asLong(2000);
        long measureMs = cmd.path("measureMs").asLong(3000);
        int windows = Math.max(1, cmd.path("windows").asInt(10));
        JsonNode input = JSON.readTree(new java.io.File(text(cmd, "file")));

        long t0 = System.nanoTime();
        StandardAuthorizer authorizer = new StandardAuthorizer();
        authorizer.configure(Map.of());
        Metrics metrics = new Metrics();
        authorizer.withPluginMetrics(new PluginMetricsImpl(metrics, Map.of()));
        for (JsonNode a : input.path("acls")) {
            authorizer.addAcl(Uuid.randomUuid(), aclOf(a));
        }
        authorizer.completeInitialLoad();
        long loadNs = System.nanoTime() - t0;

        int n = input.path("requests").size();
        Context[] contexts = new Context[n];
        @SuppressWarnings("unchecked")
        List<Action>[] actions = new List[n];
        int i = 0;
        for (JsonNode r : input.path("requests")) {
            contexts[i] = context(r);
            actions[i] = List.of(new Action(
                AclOperation.valueOf(text(r, "operation")),
                new ResourcePattern(ResourceType.valueOf(text(r, "resourceType")), text(r, "resourceName"), PatternType.LITERAL),
                1, false, false));
            i++;
        }
        input = null;

        StringBuilder decisions = new StringBuilder(n);
        for (i = 0; i < n; i++) {
            try {
                decisions.append(authorizer.authorize(contexts[i], actions[i]).get(0) == AuthorizationResult.ALLOWED ? 'A' : 'D');
            } catch (RuntimeException e) {
                decisions.append('E');
            }
        }
        ObjectNode answer = JSON.createObjectNode();
        timeWindows(() -> {
            long sum = 0;
            for (int k = 0; k < n; k++) sum += authorizer.authorize(contexts[k], actions[k]).get(0).ordinal();
            return sum;
        }, n, warmupMs, measureMs, windows, answer);
        answer.put("aclsLoaded", authorizer.aclCount());
        answer.put("loadMs", loadNs / 1e6);
        answer.put("decisions", decisions.toString());
        authorizer.close();
        metrics.close();
        return answer;
    }

    /**
     * Calls `body` (which answers `opsPerCall` requests) for warmupMs, then for measureMs cut
     * into `windows` equal slices, and puts into `answer`, per request: nsPerOp (the mean
     * over the measurement, what JMH reports), nsPerOpBest (the best slice, the figure least
     * disturbed by other processes), cpuNsPerOpBest (the best slice in CPU time of this
     * thread); and the iterations and a sink of the answers.
     */
    private static void timeWindows(java.util.function.LongSupplier body, int opsPerCall, long warmupMs, long measureMs, int windows, ObjectNode answer) {
        long sink = 0;
        long warmupEnd = System.nanoTime() + warmupMs * 1_000_000L;
        while (System.nanoTime() < warmupEnd) sink += body.getAsLong();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long windowNs = Math.max(1, measureMs * 1_000_000L / windows);
        long calls = 0;
        long totalNs = 0;
        double best = Double.MAX_VALUE;
        double cpuBest = Double.MAX_VALUE;
        for (int w = 0; w < windows; w++) {
            long cpu0 = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            long end = start + windowNs;
            long k = 0;
            long now;
            do {
                sink += body.getAsLong();
                k++;
                now = System.nanoTime();
            } while (now < end);
            long cpu = threads.getCurrentThreadCpuTime() - cpu0;
            calls += k;
            totalNs += now - start;
            best = Math.min(best, (double) (now - start) / (k * opsPerCall));
            cpuBest = Math.min(cpuBest, (double) cpu / (k * opsPerCall));
        }
        answer.put("nsPerOp", (double) totalNs / (calls * opsPerCall));
        answer.put("nsPerOpBest", best);
        answer.put("cpuNsPerOpBest", cpuBest);
        answer.put("iterations", calls * opsPerCall);
        answer.put("sink", sink);
    }

    // ---- helpers -----------------------------------------------------------------------

    /** One ACL in the protocol's shape {resourceType, resourceName, patternType, principal, host, operation, permissionType}. */
    private static StandardAcl aclOf(JsonNode a) {
        return new StandardAcl(
            ResourceType.valueOf(text(a, "resourceType")),
            text(a, "resourceName"),
            PatternType.valueOf(text(a, "patternType")),
            text(a, "principal"),
            text(a, "host"),
            AclOperation.valueOf(text(a, "operation")),
            AclPermissionType.valueOf(text(a, "permissionType")));
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) throw new IllegalArgumentException("missing field " + field);
        return v.asText();
    }

    private static String nullableText(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static String describe(Throwable e) {
        return e.getClass().getName() + ": " + e.getMessage();
    }
}
