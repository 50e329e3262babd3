/** Shows its children only when the signed-in staff member holds the permission. */
import { Link, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { can, type Requirement } from "~/utils/permissions";

type AdminData = { user: { permissions: string[]; branch_id: number | null } };

export function useStaff() {
  return useRouteLoaderData<AdminData>("routes/admin")?.user ?? null;
}

export function Guard({ permission, children }: { permission: Requirement; children: ReactNode }) {
  const user = useStaff();
  return can(user, permission) ? <>{children}</> : null;
}

/** A list's Create button, shown to those who may create. */
export function CreateLink({ to, permission }: { to: string; permission: Requirement }) {
  return (
    <Guard permission={permission}>
      <Link to={to} className="button primary">
        Create
      </Link>
    </Guard>
  );
}
