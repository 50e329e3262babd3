import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { Toasts } from "~/components/Toasts";
import { Guard, useStaff } from "~/components/Guard";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { can, SIDEBAR } from "~/utils/permissions";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: null } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Back office" }];

/** The layout checks the route table for every back-office URL; each child loader and action checks again. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const { scope: _scope, ...publicUser } = user;
  return Response.json({ user: publicUser });
}

export default function AdminLayout() {
  const { user } = useLoaderData<typeof loader>() as {
    user: { name: string; branch: { title: string } | null; role: { title: string } };
  };
  const staff = useStaff();
  const toast = useRouteLoaderData<{ toast: Parameters<typeof Toasts>[0]["toast"] | null }>("root")?.toast;
  return (
    <div className="admin">
      <input type="checkbox" id="nav-toggle" className="nav-toggle" aria-label="Menu" />
      <aside className="sidebar">
        {/* The home link: lit on the dashboard, whose own sidebar link only send-sms users have (spec 001 §2.1). */}
        <NavLink to="/admin" end className="brand" viewTransition>
          Thrill Back Office
        </NavLink>
        <nav aria-label="Back office">
          {SIDEBAR.map((l) => {
            const label = can(staff, l.permission) ? l.label : l.otherwise;
            return label ? (
              <NavLink key={l.to} to={l.to} end={l.to === "/admin" || l.to === "/admin/registration"} viewTransition>
                {label}
              </NavLink>
            ) : null;
          })}
        </nav>
      </aside>
      <div className="admin-main">
        <header className="topbar">
          <label htmlFor="nav-toggle" className="menu-button">
            Menu
          </label>
          <Guard permission="create-registration">
            <NavLink to="/admin/preregistration/create" className="button primary" viewTransition>
              Pre-Registration
            </NavLink>
          </Guard>
          <details className="user-menu">
            <summary>
              <span className="user-name">{user.name}</span>
              {/* The role and the reach: "Super Admin · All branches", "Branch Staff · Lalitpur Motors". */}
              <small>
                {user.role.title} · {user.branch ? user.branch.title : "All branches"}
              </small>
            </summary>
            <div className="menu">
              <NavLink to="/admin/profile" viewTransition>
                Profile
              </NavLink>
              <Form method="post" action="/logout">
                <button type="submit" className="link-button">
                  Sign out
                </button>
              </Form>
            </div>
          </details>
        </header>
        <main className="admin-content">
          {toast ? <Toasts key={JSON.stringify(toast)} toast={toast} inline /> : null}
          <Outlet />
        </main>
      </div>
    </div>
  );
}
