/** Links between the scheme screens: the pools, the draw audit and the fallback tables. */
import { NavLink } from "@remix-run/react";

const LINKS = [
  { to: "/admin/scheme", label: "Schemes", end: true },
  { to: "/admin/scheme/draws", label: "Draw audit", end: false },
  { to: "/admin/scheme/settings", label: "Fallback tables", end: false },
];

export function SchemeNav() {
  return (
    <nav className="scheme-nav" aria-label="Scheme screens">
      {LINKS.map((l) => (
        <NavLink key={l.to} to={l.to} end={l.end}>
          {l.label}
        </NavLink>
      ))}
    </nav>
  );
}
