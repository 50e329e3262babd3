/**
 * A stand-in for a server process under a burst of public writes, for the crash
 * and replication tests: each write is the public pre-registration itself
 * (createPreregistration, the model function POST /api/v1/enquiry and /enquiry
 * call, with the form's schema: rate-limit points, the entry, its one-time code
 * and the code's SMS, queued, in one durable transaction through the group
 * commit), acknowledged on stdout only after it returned
 * ("ack <entry id> <phone> <sms id>"). Eight writes are in flight at a time, so
 * most commits carry several of them. The SMS worker runs beside it, sending to
 * SMS_GATEWAY_URL. The test kills it with SIGKILL at some moment.
 */
import fs from "node:fs";
import { and, eq, isNull } from "drizzle-orm";
import { db, schema } from "@db/index";
import { createPreregistration } from "~/models/preregistration.server";
import { httpGatewayProvider } from "~/models/sms-provider.server";
import { startSmsWorker } from "~/models/sms-worker.server";
import { publicPreregistrationSchema } from "~/schemas/preregistration";
import { randomSlug } from "~/utils/crypto.server";

const say = (line: string) => fs.writeSync(1, `${line}\n`);
const phoneBase = Number(process.env.PHONE_BASE ?? 9800000000);
const gateway = process.env.SMS_GATEWAY_URL;

if (gateway) {
  const provider = httpGatewayProvider({ url: gateway, token: "tok", from: "Crash", timeoutMs: 2000 });
  startSmsWorker({ ratePerSecond: 1000, intervalMs: 10, provider: () => provider });
}

// The showroom the visitors name (the form requires one): set up before the burst, not part of it.
const branch =
  db
    .select({ id: schema.branches.id })
    .from(schema.branches)
    .where(and(isNull(schema.branches.closed_at), isNull(schema.branches.deleted_at)))
    .get() ??
  db
    .insert(schema.branches)
    .values({ slug: randomSlug(), title: "Crash Showroom", state: "Bagmati", district: "Kathmandu", city: "Kathmandu" })
    .returning({ id: schema.branches.id })
    .get();

say("ready");
let next = 0;

async function writeOne(i: number) {
  const phone = String(phoneBase + i);
  const value = publicPreregistrationSchema.parse({
    name: `Visitor ${i}`,
    address: "Kathmandu",
    phone,
    citizenship_no: `C-${phone}`,
    nearest_branch_id: String(branch.id),
  });
  const result = await createPreregistration({ channel: "public", address: "203.0.113.9" }, value);
  if (!result.ok) throw new Error(result.message);
  const entry = result.preregistration.id;
  const M = schema.smsMessages;
  const sms = db
    .select({ id: M.id })
    .from(M)
    .where(and(eq(M.purpose, "otp"), eq(M.subject_id, entry)))
    .get();
  if (!sms) throw new Error(`entry ${entry} has no code SMS`);
  say(`ack ${entry} ${phone} ${sms.id}`);
}

async function lane() {
  for (;;) await writeOne(next++);
}

await Promise.all(Array.from({ length: 8 }, lane));
