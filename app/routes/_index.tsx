import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Share It. Win It." }];
export const handle = { scripts: false };

export default function Landing() {
  return (
    <main className="error-page">
      <h1>Share It. Win It.</h1>
      <p>
        <Link to="/login">Staff login</Link>
      </p>
    </main>
  );
}
