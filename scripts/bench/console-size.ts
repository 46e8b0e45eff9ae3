/**
 * One size of the console bench: import the ACLs up to it, restart the server, ask the
 * questions, run the concurrent users and the writes, read the memory, ask kafka-acls.sh,
 * and check each target.
 */
import type { AclBinding } from "../../lib/policy/types";
import { ConsoleUser, median, round } from "./console-http";
import { importAcls } from "./console-load";
import { ADMIN, BASE, TARGETS, tierOf, type Options, type TargetKey } from "./console-options";
import { ask, askCli, questions, sampleOf, type Measured } from "./console-questions";
import { log, serverMemory, settledMemory, SETTLE_S, startServer, stopServer } from "./console-server";
import { concurrentUsers, type Concurrency } from "./console-users";
import { cliCreate500, writes, type WriteMeasure } from "./console-writes";
import type { AclCli } from "./kafka-cli";

// ---- one size -------------------------------------------------------------------------------

export interface SizeReport {
  acls: number;
  aclsInKafka: number;
  tier: "100k" | "300k";
  load: {
    seconds: number;
    aclsPerS: number;
    chunk: number;
    plans: number;
    medianPreviewMs: number;
    medianApplyMs: number;
    serverRssAfterLoadMb: number;
  };
  questions: Measured[];
  concurrency: Concurrency;
  writes: {
    create500: WriteMeasure;
    delete500: WriteMeasure;
    cliCreate500: { ms: number; brokerRequests: Record<string, number> | null } | null;
    ratio: number | null;
    cliDelete500: { ms: number; brokerRequests: Record<string, number> | null } | null;
    deleteRatio: number | null;
  };
  memory: {
    rssMb: number;
    peakRssMb: number;
    rssRightAfterMb: number;
    rssEachSecondMb: number[];
    peakAfterUsersMb: number;
  };
  pass: Record<TargetKey, boolean>;
}

async function signedIn(): Promise<ConsoleUser> {
  const user = new ConsoleUser(BASE);
  await user.signIn(ADMIN.username, ADMIN.password);
  return user;
}

export async function runSize(
  options: Options,
  all: readonly AclBinding[],
  loaded: number,
  size: number,
  cli: AclCli | null,
  pid: number,
): Promise<[SizeReport, number]> {
  const tier = tierOf(size);
  log(`--- ${size.toLocaleString("en")} ACLs (targets: the ${tier} column) ---`);
  let user = await signedIn();
  const part = all.slice(loaded, size);
  log(`importing ${part.length} ACLs through acl.import plans of ${options.chunk}`);
  const load = await importAcls(user, part, options.chunk);
  const rssAfterLoad = serverMemory(pid).rssMb;

  log("restarting the console server (cold start for the first requests)");
  await stopServer();
  pid = await startServer(options, String(size));
  user = await signedIn();

  const first = await user.get<{ total: number; pages: number; pageSize: number }>("/api/v1/acls?page=1");
  const { total, pages } = first.body;
  const sample = sampleOf(all.slice(0, size), 40);
  const qs = questions(sample, pages);
  // That first list request was the coldest of all: it is listPage1's cold figure.
  const measured: Measured[] = [];
  for (const question of qs) {
    const m = await ask(user, question, options.runs, pid);
    if (question.key === "listPage1") m.coldMs = round(first.ms);
    const limit = question.target ? TARGETS[question.target][tier] : null;
    measured.push({
      ...m,
      cli: null,
      ratio: null,
      target: question.target && limit !== null ? { key: question.target, limit, pass: m.medianMs < limit } : null,
    });
    log(
      `  ${question.key}: cold ${Math.round(m.coldMs)} ms, warm median ${Math.round(m.medianMs)} ms, server ` +
        `CPU ${m.serverCpuMsPerRequest} ms/request`,
    );
  }

  log(`${options.users} users for ${options.windowS} s`);
  const users: ConsoleUser[] = [];
  for (let i = 0; i < options.users; i++) users.push(await signedIn());
  const concurrency = await concurrentUsers(users, sample, pages, options.windowS, pid);
  const peakAfterUsersMb = serverMemory(pid).peakRssMb;
  log(
    `  p50 ${concurrency.p50Ms} ms, p99 ${concurrency.p99Ms} ms, ${concurrency.throughputPerS} ` +
      `requests/s, ${concurrency.errors} errors; server peak RSS ${peakAfterUsersMb} MB`,
  );

  log("writes: 500 created in one request, 50 of them deleted in one request");
  const w = await writes(user, size);
  log(
    `  create 500: ${w.create500.ms} ms ${JSON.stringify(w.create500.brokerRequests)}; delete ` +
      `500: ${w.delete500.ms} ms ${JSON.stringify(w.delete500.brokerRequests)}`,
  );
  const memory = { ...(await settledMemory(pid)), peakAfterUsersMb };
  log(
    `  server RSS ${memory.rssMb} MB after ${SETTLE_S} s idle (${memory.rssRightAfterMb} MB right after the ` +
      `writes, peak ${memory.peakRssMb} MB; each second: ${memory.rssEachSecondMb.join(" ")})`,
  );

  let cliCreate: SizeReport["writes"]["cliCreate500"] = null;
  let cliDelete: SizeReport["writes"]["cliDelete500"] = null;
  if (cli) {
    log(`kafka-acls.sh: the same questions (${options.runs} fresh JVMs each)`);
    for (const m of measured) {
      const question = qs.find((x) => x.key === m.key)!;
      m.cli = await askCli(cli, question, options.runs, size);
      m.ratio = m.cli ? Math.round((m.medianMs / m.cli.medianMs) * 1000) / 1000 : null;
      if (m.cli) log(`  ${m.key}: CLI ${m.cli.medianMs} ms (console/CLI ${m.ratio})`);
    }
    cliCreate = await cliCreate500(cli, size);
    log(`  create 500: CLI ${cliCreate.ms} ms ${JSON.stringify(cliCreate.brokerRequests)}`);
    cliDelete = await cliCreate500(cli, size, "--remove");
    log(`  delete 500: CLI ${cliDelete.ms} ms ${JSON.stringify(cliDelete.brokerRequests)}`);
  }

  const worst = (target: TargetKey) =>
    Math.max(...measured.filter((m) => m.target?.key === target).map((m) => m.medianMs));
  const pass: Record<TargetKey, boolean> = {
    listPage: worst("listPage") < TARGETS.listPage[tier],
    filter: worst("filter") < TARGETS.filter[tier],
    accessOrDetail: worst("accessOrDetail") < TARGETS.accessOrDetail[tier],
    resourcesIndex: worst("resourcesIndex") < TARGETS.resourcesIndex[tier],
    concurrentP99: concurrency.errors === 0 && concurrency.p99Ms < TARGETS.concurrentP99[tier],
    create500: w.create500.failed === 0 && w.create500.ms < TARGETS.create500[tier],
    rssMb: memory.rssMb < TARGETS.rssMb[tier],
    peakRssMb: memory.peakRssMb < TARGETS.peakRssMb[tier],
  };
  const plans = load.steps.length;
  return [
    {
      acls: size,
      aclsInKafka: total,
      tier,
      load: {
        seconds: load.seconds,
        aclsPerS: Math.round(part.length / load.seconds),
        chunk: options.chunk,
        plans,
        medianPreviewMs: Math.round(median(load.steps.map((s) => s.previewMs))),
        medianApplyMs: Math.round(median(load.steps.map((s) => s.applyMs))),
        serverRssAfterLoadMb: rssAfterLoad,
      },
      questions: measured,
      concurrency,
      writes: {
        ...w,
        cliCreate500: cliCreate,
        ratio: cliCreate ? Math.round((w.create500.ms / cliCreate.ms) * 1000) / 1000 : null,
        cliDelete500: cliDelete,
        deleteRatio: cliDelete ? Math.round((w.delete500.ms / cliDelete.ms) * 1000) / 1000 : null,
      },
      memory,
      pass,
    },
    pid,
  ];
}
