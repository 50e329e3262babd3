// Every kind of back-office change writes its audit row in its own transaction (decision 7): for
// each, a temporary trigger that refuses the row's insert must leave the database as it was (the
// change undone with it), and without the trigger the change is made with exactly one row of its
// action, naming who made it. Logins and failed logins are audited the same way.
import fs from "node:fs";
import path from "node:path";
import { desc, eq, gt } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { action as apiLogin } from "~/routes/api.v1.auth.login";
import { counterPreregistrationSchema } from "~/schemas/preregistration";
import { broadcastSchema } from "~/schemas/broadcast";
import type { RegistrationInput } from "~/schemas/registration";
import { ADDRESS_HEADER } from "~/http/auth.server";
import { kathmanduDate, shiftDate } from "~/utils/time";
import {
  makeAllocation,
  makeBikeModel,
  makeBranch,
  makePreregistration,
  makeUser,
  nextPhone,
} from "../../tests/fixtures";
import { createAllocation, deleteAllocation, updateAllocationCount } from "./allocation.server";
import { amountsForType } from "~/utils/prize-constants";
import { closeBranch, createBranch, deleteBranch, reopenBranch, updateBranch } from "./branch.server";
import {
  createBikeModel,
  deleteBikeModel,
  restoreBikeModel,
  retireBikeModel,
  updateBikeModel,
} from "./bike-model.server";
import { prepareBroadcast, retryFailedMessages, sendBroadcast } from "./broadcast.server";
import { currentCode } from "./otp.server";
import { deletePreregistration, updatePreregistration } from "./preregistration-admin.server";
import { counterPrizeSummary, verifyPreregistration } from "./preregistration-verify.server";
import { createPreregistration } from "./preregistration.server";
import {
  confirmRegistration,
  createRegistration,
  deleteRegistration,
  drawCoupon,
  notifyRegistration,
  restoreRegistration,
  updateRegistration,
} from "./registration.server";
import { createRole, saveRoleMatrix } from "./role.server";
import type { ScopedActor } from "./scope.server";
import { PERMISSIONS } from "~/utils/permissions";
import { updateSettings } from "./settings.server";
import { queueMessage } from "./sms.server";
import { retryOutboxMessage } from "./sms-outbox.server";
import { roleBySlug, setPassword } from "./user.server";
import { addUser, deleteUser, updateUser } from "./dealer-user.server";
import { createVideo, deleteVideo, updateVideo } from "./video.server";
import { clearOfKathmanduMidnight } from "../../tests/clock";

// These tests date pools and filters "today": none starts within 20 s of a Kathmandu midnight.
// Pools changed by the scheme tests are a few days ahead: today's are committed by its first draw.
const LATER = shiftDate(kathmanduDate(), 3);
beforeEach(() => clearOfKathmanduMidnight(20_000));

const { auditLog } = schema;
const PUBLIC = amountsForType("preregistration_public");

let admin: ScopedActor;
let clerk: ScopedActor;
let branchId: number;
let modelId: number;
const PASSWORD = "secret-pass-1";
let loginEmail = "";
let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`.toUpperCase();

beforeAll(async () => {
  branchId = makeBranch({ title: "Audited Branch" }).id;
  modelId = makeBikeModel("Audited 160").id;
  const head = await makeUser("super-admin", null);
  const manager = await makeUser("branch-manager", branchId);
  loginEmail = manager.email;
  admin = { id: head.id, email: head.email, address: "10.40.0.1", scope: { branchId: null } };
  clerk = { id: manager.id, email: manager.email, address: "10.40.0.2", scope: { branchId } };
  // Every draw wins from a pool, so a draw's undoing shows in the pool's paid count too.
  for (const type of ["registration_branch", "preregistration_branch"] as const) {
    const amount = amountsForType(type)[0];
    makeAllocation({ type, branch_id: branchId, date: kathmanduDate(), amount, count: 5, probability: 100 });
  }
});

afterEach(() => db.$client.exec("drop trigger if exists refuse_audit"));

// ------------------------------------------------------------------ records to change

const purchase = (over: Partial<RegistrationInput> = {}): RegistrationInput => {
  const u = uniq();
  return {
    bill_no: `AT${u}`,
    name: "Trail Buyer",
    address: "Kirtipur",
    citizenship_no: "445566",
    bike_model_id: modelId,
    engine_no: `TE${u}`,
    chasis_no: `TC${u}`,
    registration_no: `TR-${u}`,
    payment_mode: "CASH",
    send_sms: true,
    ...over,
  };
};

const verifiedEntry = () =>
  makePreregistration({
    is_verified: true,
    status: "verified",
    prize: 4000,
    verified_at: new Date().toISOString(),
    branch_id: branchId,
  });

async function registered() {
  const res = await createRegistration(clerk, verifiedEntry().slug, purchase());
  if (!res.ok) throw new Error(res.message);
  return res.registration;
}

function confirmed(reg: { slug: string; id: number }) {
  const res = confirmRegistration(clerk, reg.slug, currentCode("registration", reg.id)!.code!);
  if (!res.ok) throw new Error(res.message);
}

async function drawn() {
  const reg = await registered();
  confirmed(reg);
  if (!(await drawCoupon(clerk, reg.slug)).ok) throw new Error("draw");
  return reg;
}

async function counterEntry() {
  const value = counterPreregistrationSchema.parse({
    name: "Trail Customer",
    address: "Thimi",
    phone: nextPhone(),
    citizenship_no: String(7_700_000 + seq++),
  });
  const res = await createPreregistration({ channel: "counter", actor: clerk }, value);
  if (!res.ok) throw new Error(res.message);
  return res.preregistration;
}

const branchInput = () => ({
  title: `Trail Branch ${uniq()}`,
  state: "Koshi",
  district: "Morang",
  city: "Biratnagar",
  one_lakh_allocation_count: 0,
  ten_lakhs_allocation_count: 0,
});

const videoInput = () => ({ title: `Trail Winner ${uniq()}`, url: "https://example.com/w", amount: 50_000 });

const userInput = () => ({
  first_name: "Trail",
  last_name: uniq(),
  email: `trail-${uniq().toLowerCase()}@example.test`,
  phone: nextPhone(),
  sex: "FEMALE" as const,
  role_id: roleBySlug("branch-staff")!.id,
  branch_id: branchId,
});

const staffUser = async () => {
  const res = await addUser(admin, { ...userInput(), password: "Trail-pass-2024", password_confirmation: undefined });
  if (!res.ok) throw new Error(res.message);
  return res.user;
};

const broadcast = (to = nextPhone()) =>
  broadcastSchema.parseAsync({ type: "MOBILE", text: "Service camp on Saturday", mobiles: to });

/** A broadcast stored, sent, and its one message failed. */
async function failedBroadcast() {
  const sent = await sendBroadcast(admin, await broadcast());
  if (!sent.ok) throw new Error(sent.message);
  await prepareBroadcast(sent.broadcast.id);
  const { smsMessages: M, smsBroadcasts: B } = schema;
  db.update(M).set({ status: "failed", error: "refused" }).where(eq(M.broadcast_id, sent.broadcast.id)).run();
  db.update(B).set({ failed: 1, status: "done" }).where(eq(B.id, sent.broadcast.id)).run();
  return sent.broadcast.id;
}

function login(password: string) {
  return apiLogin({
    request: new Request("http://localhost/api/v1/auth/login", {
      method: "POST",
      body: JSON.stringify({ email: loginEmail, password }),
      headers: { "Content-Type": "application/json", [ADDRESS_HEADER]: `10.41.0.${seq++ % 250}` },
    }),
    context: { clientAddress: "x" },
    params: {},
  }) as Promise<Response>;
}

// ------------------------------------------------------------------ the kinds of change

type Kind = {
  action: string;
  /** Makes what the change works on (outside the check) and gives back the change itself. */
  prepare: () => Promise<() => Promise<unknown>>;
  /** Tables written on purpose before the change's transaction (a login's limit points). */
  outside?: string[];
  /** The answer when the change is made (a failed login answers 401); ok otherwise. */
  made?: (answer: unknown) => void;
};

const ok = (answer: unknown) => {
  if (answer instanceof Response) expect(answer.status).toBeLessThan(300);
  else if (answer && typeof answer === "object" && "ok" in answer) expect(answer).toMatchObject({ ok: true });
};

const KINDS: Kind[] = [
  // Registrations (a branch's counter).
  {
    action: "registration.create",
    prepare: async () => {
      const entry = verifiedEntry();
      return async () => createRegistration(clerk, entry.slug, purchase());
    },
  },
  {
    action: "registration.update",
    prepare: async () => {
      const reg = await registered();
      const { engine_no, chasis_no, registration_no } = reg;
      return async () =>
        updateRegistration(clerk, reg.slug, { ...purchase(), engine_no, chasis_no, registration_no, name: "Renamed" });
    },
  },
  {
    action: "registration.confirm",
    prepare: async () => {
      const reg = await registered();
      return async () => confirmRegistration(clerk, reg.slug, currentCode("registration", reg.id)!.code!);
    },
  },
  {
    action: "registration.draw",
    prepare: async () => {
      const reg = await registered();
      confirmed(reg);
      return async () => drawCoupon(clerk, reg.slug);
    },
  },
  {
    action: "registration.notify",
    prepare: async () => {
      const reg = await drawn();
      return async () => notifyRegistration(clerk, reg.slug);
    },
  },
  {
    action: "registration.delete",
    prepare: async () => {
      const reg = await registered();
      return async () => deleteRegistration(clerk, reg.slug);
    },
  },
  {
    action: "registration.restore",
    prepare: async () => {
      const reg = await registered();
      deleteRegistration(clerk, reg.slug);
      return async () => restoreRegistration(clerk, reg.slug);
    },
  },
  // Pre-registrations (the counter; a pre-registration has no restore).
  {
    action: "preregistration.create",
    prepare: async () => async () => counterEntry(),
  },
  {
    action: "preregistration.update",
    prepare: async () => {
      const entry = await counterEntry();
      return async () => updatePreregistration(clerk, entry.slug, { name: "Renamed Customer" });
    },
  },
  {
    action: "preregistration.verify",
    prepare: async () => {
      const entry = await counterEntry();
      const code = currentCode("preregistration", entry.id)!.code!;
      return async () => verifyPreregistration({ channel: "counter", actor: clerk }, entry.slug, code);
    },
  },
  {
    action: "preregistration.draw",
    prepare: async () => {
      // Verified, its second thrill not drawn yet: the counter's draw page draws it.
      const entry = makePreregistration({
        is_verified: true,
        status: "verified",
        verified_at: new Date().toISOString(),
        branch_id: branchId,
      });
      return async () => counterPrizeSummary(clerk, entry.slug);
    },
  },
  {
    action: "preregistration.delete",
    prepare: async () => {
      const entry = await counterEntry();
      return async () => deletePreregistration(clerk, entry.slug);
    },
  },
  // Schemes (allocations).
  {
    action: "allocation.create",
    prepare: async () => async () =>
      createAllocation(admin, {
        type: "preregistration_public",
        date: LATER,
        amount: PUBLIC[0],
        count: 2,
        probability: 10,
      }),
  },
  {
    action: "allocation.count",
    prepare: async () => {
      const pool = makeAllocation({
        type: "preregistration_public",
        date: LATER,
        amount: PUBLIC[1],
        count: 1,
      });
      return async () => updateAllocationCount(admin, pool.id, { count: 4 });
    },
  },
  {
    action: "allocation.delete",
    prepare: async () => {
      const pool = makeAllocation({
        type: "preregistration_public",
        date: LATER,
        amount: PUBLIC[2],
        count: 1,
      });
      return async () => deleteAllocation(admin, pool.id);
    },
  },
  // Users and roles.
  {
    action: "user.create",
    prepare: async () => async () =>
      addUser(admin, { ...userInput(), password: "Trail-pass-2024", password_confirmation: undefined }),
  },
  {
    action: "user.update",
    prepare: async () => {
      const user = await staffUser();
      return async () => updateUser(admin, user.slug, { ...userInput(), email: user.email, first_name: "Renamed" });
    },
  },
  {
    action: "user.password",
    prepare: async () => {
      const user = await makeUser("branch-staff", branchId);
      return async () => setPassword(admin, user.id, "Another-pass-2024");
    },
  },
  {
    action: "user.delete",
    prepare: async () => {
      const user = await staffUser();
      return async () => deleteUser(admin, user.slug);
    },
  },
  {
    action: "role.create",
    prepare: async () => async () => createRole(admin, { title: `Trail Role ${uniq()}`, permissions: ["read-branch"] }),
  },
  {
    action: "role.update",
    prepare: async () => {
      const made = createRole(admin, { title: `Trail Role ${uniq()}`, permissions: ["read-branch"] });
      if (!made.ok) throw new Error(made.message);
      return async () => saveRoleMatrix(admin, [{ role_id: made.role.id, permissions: ["read-branch", "read-video"] }]);
    },
  },
  // Branches, bike models and winner videos.
  { action: "branch.create", prepare: async () => async () => createBranch(admin, branchInput()) },
  {
    action: "branch.update",
    prepare: async () => {
      const branch = makeBranch();
      return async () => updateBranch(admin, branch.slug, { ...branchInput(), location: "Main Road" });
    },
  },
  {
    action: "branch.close",
    prepare: async () => {
      const branch = makeBranch();
      return async () => closeBranch(admin, branch.slug);
    },
  },
  {
    action: "branch.reopen",
    prepare: async () => {
      const branch = makeBranch({ closed_at: new Date().toISOString() });
      return async () => reopenBranch(admin, branch.slug);
    },
  },
  {
    action: "branch.delete",
    prepare: async () => {
      const branch = makeBranch();
      return async () => deleteBranch(admin, branch.slug);
    },
  },
  {
    action: "bike_model.create",
    prepare: async () => async () => createBikeModel(admin, { title: `Trail ${uniq()}` }),
  },
  {
    action: "bike_model.update",
    prepare: async () => {
      const model = makeBikeModel();
      return async () => updateBikeModel(admin, model.slug, { title: `Renamed ${uniq()}` });
    },
  },
  {
    action: "bike_model.retire",
    prepare: async () => {
      const model = makeBikeModel();
      return async () => retireBikeModel(admin, model.slug);
    },
  },
  {
    action: "bike_model.restore",
    prepare: async () => {
      const model = makeBikeModel();
      retireBikeModel(admin, model.slug);
      return async () => restoreBikeModel(admin, model.slug);
    },
  },
  {
    action: "bike_model.delete",
    prepare: async () => {
      const model = makeBikeModel();
      return async () => deleteBikeModel(admin, model.slug);
    },
  },
  { action: "video.create", prepare: async () => async () => createVideo(admin, videoInput()) },
  {
    action: "video.update",
    prepare: async () => {
      const made = createVideo(admin, videoInput());
      if (!made.ok) throw new Error(made.message);
      return async () => updateVideo(admin, made.video.slug, { ...videoInput(), amount: 100_000 });
    },
  },
  {
    action: "video.delete",
    prepare: async () => {
      const made = createVideo(admin, videoInput());
      if (!made.ok) throw new Error(made.message);
      return async () => deleteVideo(admin, made.video.slug);
    },
  },
  // Settings.
  {
    action: "setting.update",
    prepare: async () => async () => updateSettings(admin, { video: `https://example.com/${uniq()}` }),
  },
  // SMS: a broadcast, a broadcast's failed messages again, one failed message again.
  {
    action: "sms.broadcast",
    prepare: async () => async () => {
      const sent = await sendBroadcast(admin, await broadcast());
      // Its messages are stored in the background: waited for, so the next check starts still.
      if (sent.ok) await prepareBroadcast(sent.broadcast.id);
      return sent;
    },
  },
  {
    action: "sms.broadcast_retry",
    prepare: async () => {
      const id = await failedBroadcast();
      return async () => retryFailedMessages(admin, id);
    },
  },
  {
    action: "sms.retry",
    prepare: async () => {
      const sms = queueMessage(db, { to: nextPhone(), text: "Your bike is ready", purpose: "notify" });
      db.update(schema.smsMessages)
        .set({ status: "failed", attempts: 1 })
        .where(eq(schema.smsMessages.id, sms.id))
        .run();
      return async () => retryOutboxMessage({ ...admin, permissions: PERMISSIONS }, sms.id);
    },
  },
  // Logins (POST /api/v1/auth/login): the address's and the account's points are taken first, on purpose.
  {
    action: "auth.login",
    prepare: async () => async () => login(PASSWORD),
    outside: ["rate_limit_counters"],
  },
  {
    action: "auth.login_failed",
    prepare: async () => async () => login("not-the-password"),
    outside: ["rate_limit_counters"],
    made: (answer) => expect((answer as Response).status).toBe(401),
  },
];

// ------------------------------------------------------------------ the database, as it stands

const TABLES = db.$client
  .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
  .pluck()
  .all() as string[];

/** Every table but the audit trail (and those written on purpose outside the change), as text. */
function snapshot(outside: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const table of TABLES) {
    if (table === "audit_log" || outside.includes(table)) continue;
    out[table] = JSON.stringify(db.$client.prepare(`select * from "${table}"`).raw().all());
  }
  return out;
}

const lastAuditId = () => db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).get()?.id ?? 0;

const rowsSince = (id: number) => db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(auditLog.id).all();

function refuse(action: string) {
  db.$client.exec(`create temp trigger refuse_audit before insert on audit_log
    when new.action = '${action}' begin select raise(abort, 'audit refused'); end`);
}

describe("every back-office change and its audit row", () => {
  it("covers every audit action the models write", () => {
    // Every `action: "area.verb"` of the models and the sign-in code.
    const dirs = ["app/models", "app/http"];
    const written = new Set<string>();
    for (const dir of dirs) {
      for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".server.ts"))) {
        for (const line of fs.readFileSync(path.join(dir, file), "utf8").split("\n")) {
          if (!/\baction: /.test(line)) continue;
          for (const m of line.matchAll(/"([a-z_]+\.[a-z_]+)"/g)) written.add(m[1]);
        }
      }
    }
    // Checked elsewhere: a locked login (tests/integration/security.test.ts), the system's final broadcast
    // counts (broadcast.test.ts), a branch's grant at the counter (preregistration.test.ts), uploads
    // (upload.test.ts), test rides (registration-audit.test.ts) and the integrity recompute on demand
    // (tests/integration/integrity-desk.test.ts).
    const elsewhere = [
      "integrity.recompute",
      "auth.login_locked",
      "sms.broadcast_stored",
      "preregistration.grant",
      "file.upload",
      "test_ride.delete",
    ];
    const tested = KINDS.map((k) => k.action);
    expect(new Set(tested).size).toBe(tested.length);
    expect([...written].sort()).toEqual([...tested, ...elsewhere].sort());
  });

  it.each(KINDS)("$action: a row that cannot be written undoes the change", async (kind) => {
    const change = await kind.prepare();
    const before = snapshot(kind.outside);
    const mark = lastAuditId();
    refuse(kind.action);
    await expect(change()).rejects.toThrow(/audit refused/);
    expect(rowsSince(mark).filter((r) => r.action === kind.action)).toEqual([]);
    const after = snapshot(kind.outside);
    for (const table of Object.keys(before))
      expect(after[table], `${kind.action}: ${table} changed`).toBe(before[table]);
  });

  it.each(KINDS)("$action: the change is made with its one row, naming who made it", async (kind) => {
    const change = await kind.prepare();
    const before = snapshot(kind.outside);
    const mark = lastAuditId();
    const answer = await change();
    (kind.made ?? ok)(answer);
    const rows = rowsSince(mark).filter((r) => r.action === kind.action);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    const after = snapshot(kind.outside);
    if (kind.action.startsWith("auth.")) {
      expect(row).toMatchObject({ user_email: loginEmail, entity_type: "user" });
      expect(row.address).toMatch(/^10\.41\.0\./);
      expect(row.user_id).toBe(kind.action === "auth.login" ? clerk.id : null);
      // A login gives a token; a failed one changes nothing but its row.
      expect(after.api_tokens !== before.api_tokens).toBe(kind.action === "auth.login");
    } else {
      const actor = row.user_id === clerk.id ? clerk : admin;
      expect(row).toMatchObject({ user_id: actor.id, user_email: actor.email, address: actor.address });
      expect(row.entity_id).toBeTruthy();
      // The change itself shows in the database.
      expect(
        Object.keys(before).some((t) => after[t] !== before[t]),
        kind.action,
      ).toBe(true);
    }
  });
});
