/**
 * Creates the first head-office administrator (Super Admin, no branch).
 * Usage: npm run create-admin -- --email you@brand.com.np --name "Your Name" [--phone 98XXXXXXXX]
 * The password is read from ADMIN_PASSWORD or asked for on the terminal.
 */
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { createUser, findUserByEmail, roleBySlug } from "~/models/user.server";

async function main() {
  const { values } = parseArgs({
    options: { email: { type: "string" }, name: { type: "string" }, phone: { type: "string" } },
  });
  if (!values.email) throw new Error('Pass --email (and --name "First Last").');
  if (findUserByEmail(values.email)) throw new Error(`A user with ${values.email} already exists.`);
  let password = process.env.ADMIN_PASSWORD ?? "";
  if (!password) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    password = await rl.question("Password (at least 10 characters): ");
    rl.close();
  }
  if (password.length < 10) throw new Error("The password must be at least 10 characters.");
  const [first, ...rest] = (values.name ?? "Administrator").trim().split(/\s+/);
  const user = await createUser({
    first_name: first,
    last_name: rest.join(" "),
    email: values.email,
    phone: values.phone ?? null,
    role_id: roleBySlug("super-admin")!.id,
    branch_id: null,
    password,
  });
  console.log(`Created administrator ${user.email} (Super Admin, all branches).`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
