/**
 * deploy/nginx/campaign.conf run locally, as the VPS runs it with only its name, paths, ports and unpaced
 * addresses changed: Debian's nginx with a self-signed certificate for localhost in front of a server on 127.0.0.1.
 * Used by tests/e2e/deploy-nginx.spec.ts and by the launch-surge rehearsal (bench/surge.ts).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

export type NginxSite = {
  /** The project's root (the site's /srv/campaign). */
  root: string;
  /** The build whose client assets nginx serves (the site's build/). */
  buildDir: string;
  /** Where the certificate, the configuration, nginx's log and its temporary files go. */
  dir: string;
  /** The app's port on 127.0.0.1 (the site's 3000). */
  appPort: number;
  httpsPort: number;
  httpPort: number;
  /** The main configuration's: Debian's defaults unless given. */
  workerProcesses?: number | "auto";
  workerConnections?: number;
  /** Addresses put in the site's geo block, whose POSTs nginx does not pace (the rehearsal's own client). */
  unpaced?: string[];
};

/** The names the local site answers to, as the certificate does (the VPS's thrill.example.com). */
const SITE_NAMES = ["localhost", "127.0.0.1"];
/** The TLS name a local client gives (SNI): the default server refuses a handshake without a known one. */
export const SITE_SERVERNAME = "localhost";

/**
 * A self-signed certificate for localhost, where the site looks for Let's Encrypt's: `dir`/fullchain.pem.
 * An ECDSA P-256 key, as certbot makes by default.
 */
export function selfSignedCertificate(dir: string) {
  const made = spawnSync("openssl", [
    ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
    ...["-subj", "/CN=localhost"],
    ...["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
    ...["-keyout", path.join(dir, "privkey.pem"), "-out", path.join(dir, "fullchain.pem")],
  ]);
  if (made.status !== 0) throw new Error(`openssl: ${made.stderr.toString()}`);
  return fs.readFileSync(path.join(dir, "fullchain.pem"));
}

/** `text` with `pattern` replaced; a pattern the site no longer holds is an error, not a silent no-op. */
function substitute(text: string, pattern: string | RegExp, replacement: string): string {
  const found = typeof pattern === "string" ? text.includes(pattern) : new RegExp(pattern).test(text);
  if (!found) throw new Error(`deploy/nginx/campaign.conf no longer holds ${String(pattern)}`);
  return typeof pattern === "string" ? text.replaceAll(pattern, replacement) : text.replace(pattern, replacement);
}

/**
 * nginx's workers run as the user running this, so they read the build wherever the checkout lies (a folder
 * other users cannot enter, as a home folder often is). Started by root, nginx's master would otherwise give
 * its workers to another user (Debian's www-data, or nobody), who may not pass the checkout's parent folders.
 */
function workersUser(): string {
  if (process.getuid?.() !== 0) return ""; // a master that is not root runs its workers as itself
  const group = spawnSync("id", ["-gn"], { encoding: "utf8" }).stdout.trim();
  return `user ${os.userInfo().username} ${group};\n`;
}

/** Writes the site (names, paths and ports substituted) inside a minimal main configuration; returns the latter's path. */
export function writeNginxSite(site: NginxSite): string {
  const { root, buildDir, dir, appPort, httpsPort, httpPort, unpaced = [] } = site;
  let text = fs.readFileSync(path.join(root, "deploy", "nginx", "campaign.conf"), "utf8");
  text = substitute(text, "/srv/campaign/build/", `${path.resolve(root, buildDir)}/`);
  text = substitute(text, "/etc/ssl/campaign/", `${dir}/`);
  text = substitute(text, "127.0.0.1:3000", `127.0.0.1:${appPort}`);
  text = substitute(text, "server_name thrill.example.com;", `server_name ${SITE_NAMES.join(" ")};`);
  // On the VPS the site is on 443, so a browser's Origin names no port; here it does.
  text = substitute(text, "proxy_set_header Host $host;", `proxy_set_header Host $host:${httpsPort};`);
  text = substitute(text, /^\s*listen \[::\].*\n/gm, "");
  text = substitute(text, /listen 80( |;)/g, `listen 127.0.0.1:${httpPort}$1`);
  text = substitute(text, /listen 443 /g, `listen 127.0.0.1:${httpsPort} `);
  text = substitute(
    text,
    /(geo \$campaign_unpaced \{\n\s*default 0;\n)/,
    `$1${unpaced.map((address) => `    ${address} 1;\n`).join("")}`,
  );
  fs.writeFileSync(path.join(dir, "campaign.conf"), text);
  const main = path.join(dir, "nginx.conf");
  fs.writeFileSync(
    main,
    `${workersUser()}worker_processes ${site.workerProcesses ?? "auto"};
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
worker_rlimit_nofile ${2 * (site.workerConnections ?? WORKER_CONNECTIONS)};
events { worker_connections ${site.workerConnections ?? WORKER_CONNECTIONS}; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/campaign.conf;
}
`,
  );
  return main;
}

/** Connections per nginx worker, as docs/operations.md sets them on the VPS (Debian's nginx.conf has 768). */
const WORKER_CONNECTIONS = 8192;

/** Checks the configuration (nginx -t) and starts nginx in the foreground on it. */
export function startNginx(main: string): ChildProcess {
  const prefix = path.dirname(main);
  const check = spawnSync(NGINX, ["-t", "-c", main, "-p", prefix]);
  if (check.status !== 0) throw new Error(`nginx -t: ${check.stderr.toString()}`);
  return spawn(NGINX, ["-c", main, "-p", prefix, "-g", "daemon off;"], { stdio: "ignore" });
}
