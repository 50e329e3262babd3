// The back-office route modules (app/routes/admin*.tsx), each with the URL pattern its file name gives.
import { type Requirement } from "~/utils/permissions";

export type RouteArgs = { request: Request; context: { clientAddress: string }; params: Record<string, string> };
export type RouteModule = {
  handle?: { permission?: Requirement; intents?: Readonly<Record<string, Requirement>> };
  loader?: (args: RouteArgs) => Promise<unknown>;
  action?: (args: RouteArgs) => Promise<unknown>;
};

const modules = import.meta.glob<RouteModule>("/app/routes/admin*.tsx", { eager: true });

/** "/app/routes/admin.scheme.$id.tsx" → "/admin/scheme/:id" (flat-routes naming). */
export function patternOf(file: string): string {
  const id = file.replace(/^.*\/routes\//, "").replace(/\.tsx$/, "");
  const parts = id
    .split(".")
    .filter((p) => p !== "_index")
    .map((p) => (p.startsWith("$") ? `:${p.slice(1) || "splat"}` : p));
  return `/${parts.join("/")}`;
}

export const ADMIN_MODULES = Object.entries(modules).map(([file, mod]) => ({ file, pattern: patternOf(file), mod }));
/** The back office's catch-all (login only), and the layout module that shares "/admin" with the dashboard. */
export const SPLAT = "/admin/:splat";
export const LAYOUT = "/app/routes/admin.tsx";
