/**
 * A stand-in for a server process under a burst of public writes, for the crash
 * and replication tests: each write is one durable transaction made of what a
 * public pre-registration writes (rate-limit points, the entry, its one-time
 * code, the code's SMS, queued), acknowledged on stdout only after its commit
 * ("ack <entry id> <phone> <sms id>"). Eight writes are in flight at a time and
 * go through the app's group commit (transactTogether), so most commits carry
 * several of them. The SMS worker runs beside it, sending to SMS_GATEWAY_URL.
 * The test kills it with SIGKILL at some moment.
 */
import fs from "node:fs";
import { schema } from "@db/index";
import { httpGatewayProvider, queueMessage, startSmsWorker, wakeSmsWorker } from "~/models/sms.server";
import { randomDigits, randomSlug, sha256 } from "~/utils/crypto.server";
import { take } from "~/utils/rate-limit.server";
import { transactTogether } from "~/models/transaction.server";

const say = (line: string) => fs.writeSync(1, `${line}\n`);
const phoneBase = Number(process.env.PHONE_BASE ?? 9800000000);
const gateway = process.env.SMS_GATEWAY_URL;

if (gateway) {
  const provider = httpGatewayProvider({ url: gateway, token: "tok", from: "Crash", timeoutMs: 2000 });
  startSmsWorker({ ratePerSecond: 1000, intervalMs: 10, provider: () => provider });
}

say("ready");
let next = 0;

async function writeOne(i: number) {
  const phone = String(phoneBase + i);
  const code = randomDigits(6);
  const written = await transactTogether((tx) => {
    take(tx, "enquiry-ip", "203.0.113.9");
    take(tx, "enquiry-phone", phone);
    const entry = tx
      .insert(schema.preregistrations)
      .values({ slug: randomSlug(), name: `Visitor ${i}`, address: "Kathmandu", phone, citizenship_no: `C-${phone}` })
      .returning({ id: schema.preregistrations.id })
      .get();
    tx.insert(schema.oneTimeCodes)
      .values({
        purpose: "preregistration",
        subject_id: entry.id,
        phone,
        code,
        code_hash: sha256(`preregistration:${entry.id}:${code}`),
        expires_at: new Date(Date.now() + 600_000).toISOString(),
      })
      .run();
    const sms = queueMessage(tx, {
      to: phone,
      text: `Your code is ${code} (#${entry.id})`,
      purpose: "otp",
      subjectId: entry.id,
    });
    return { entry: entry.id, sms: sms.id };
  });
  if ("ok" in written) throw new Error(written.message);
  say(`ack ${written.entry} ${phone} ${written.sms}`);
  wakeSmsWorker();
}

async function lane() {
  for (;;) await writeOne(next++);
}

await Promise.all(Array.from({ length: 8 }, lane));
