/**
 * Admission control: each server process bounds the work it takes on, so past its capacity the newest visitors
 * get a fast "busy, try again in a minute" and everyone already on their way keeps a fast server. server.js puts
 * `admission()` before everything but the static files.
 *
 * - The wait: a new visitor is refused while the run queue's line of new requests stands, every new request
 *   started over the last 500 ms having waited longer than ADMISSION_QUEUE_MS (app/utils/run-queue.server.ts):
 *   the arrivals outrun this process. A burst, or one hold of the loop, drains within the window and refuses nobody.
 *   So is one while the requests already let in wait two and a half times that to go on (their renders,
 *   their writes' answers), or a round's draws half the beacon's period: the process is behind on its own work.
 * - The bound, a backstop: requests in flight in this process (taken and not yet answered), ADMISSION_IN_FLIGHT, leaving out
 *   those waiting for their draw (its beacon round, seconds long, then the batch that draws it: no CPU but the
 *   batch's; app/models/draw-settle.server.ts), the "load". Past it
 *   a request of the lowest priority is refused at once, while the event loop is busy (utilization over the last
 *   100 ms at least ADMISSION_LOOP_BUSY): requests in flight that wait on something else than this process's
 *   CPU (a slow upload, an outside service) are no reason to turn anyone away.
 * - Priorities, told from the request alone (no session read, no database): staff (a back-office session
 *   cookie or an API token this site signed) are never refused; a visitor in a journey (a valid journey cookie,
 *   app/http/journey.server.ts, on the pre-registration's pages and API) and sign-ins and /healthz only past
 *   JOURNEY_FACTOR times the bound, a backstop a copied cookie cannot push past; everyone else (new landings,
 *   new forms, any other page) past the bound. A forged or expired cookie counts for nothing.
 * - The refusal: 503 with Retry-After and the busy page in the visitor's language (the language cookie, else
 *   Accept-Language's first language), JSON on /api/. The pages are files of the build (public/busy/), read once;
 *   nginx serves the same files when the app does not answer (deploy/nginx/campaign.conf).
 * - The run queue: a request let in is not started where it was read. It waits in this process's run queue,
 *   behind the requests under way that go on, then staff, journeys and the rest, each line in the order they came,
 *   and the queue runs them a slice of the loop a turn. Started where they were read, the requests that came
 *   together ran one after another in the same turn (their loaders and renders are synchronous), and every
 *   request read after them, a refusal included, waited for all of them: past capacity the turns grew to
 *   seconds and a refusal took as long as a page.
 */
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { performance, type EventLoopUtilization } from "node:perf_hooks";
import { beaconConfig, sessionSecrets } from "~/utils/config.server";
import { SESSION_COOKIE } from "./cookie-name.server";
import { isSignedToken, unsignCookieValue } from "~/utils/crypto.server";
import { isJourneyValue, JOURNEY_COOKIE } from "./journey.server";
import { requestsWaitingForDraw } from "~/models/draw-settle.server";
import type { Lang } from "~/utils/i18n";
import { LANGUAGE_COOKIE } from "./language.server";
import {
  later,
  type Line,
  type MeasuredLine,
  runQueueFigures,
  setStandingTarget,
  standingLine,
} from "~/utils/run-queue.server";

/** A request's line in the run queue (app/utils/run-queue.server.ts). */
export type Priority = Exclude<Line, "resume" | "drawn">;

/** What a refusal asks the visitor to wait, in seconds ("try again in a minute"); nginx's busy page says the same. */
export const RETRY_AFTER_SECONDS = 60;
/** A process with this many requests in flight and a busy loop refuses new visitors (docs/operations.md, "Launch day"). */
const DEFAULT_IN_FLIGHT = 256;
/** A line of new requests none of which started within this over a window stands: new visitors are refused. */
const DEFAULT_QUEUE_MS = 100;
/** The loop's utilization from which it counts as busy. */
const DEFAULT_LOOP_BUSY = 0.9;
/** Journeys, sign-ins and /healthz are refused only past this many times the bound. */
export const JOURNEY_FACTOR = 4;

export type AdmissionSettings = { inFlight: number; loopBusy: number; queueMs: number };

/** ADMISSION_IN_FLIGHT (0: no bound), ADMISSION_LOOP_BUSY (0 to 1; 0: the bound alone) and ADMISSION_QUEUE_MS (0: no wait bound). */
export function admissionSettings(env: NodeJS.ProcessEnv = process.env): AdmissionSettings {
  const read = (name: string, fallback: number, max: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0 || value > max) {
      throw new Error(`${name} must be a number from 0 to ${max} (it is "${raw}").`);
    }
    return value;
  };
  return {
    inFlight: Math.floor(read("ADMISSION_IN_FLIGHT", DEFAULT_IN_FLIGHT, 100_000)),
    loopBusy: read("ADMISSION_LOOP_BUSY", DEFAULT_LOOP_BUSY, 1),
    queueMs: read("ADMISSION_QUEUE_MS", DEFAULT_QUEUE_MS, 60_000),
  };
}

/** The pre-registration's pages and API: where a journey cookie counts. */
const JOURNEY_PATH = /^\/(api\/v1\/)?enquiry(\/|$)/;
/** Signing in (staff have no session yet) and the health check: kept like a journey. */
const KEPT_PATH = /^\/(login|reset-password|healthz|api\/v1\/auth\/login)(\/|$)/;
const BEARER = /^Bearer\s+(\S+)$/i;

/** The value of each named cookie in a Cookie header (the first of a name), as sent. */
function cookieValues(header: string | undefined, names: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  if (!header) return found;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (names.includes(name) && !found.has(name)) found.set(name, part.slice(eq + 1).trim());
  }
  return found;
}

const COOKIES = [SESSION_COOKIE, JOURNEY_COOKIE, LANGUAGE_COOKIE] as const;

type RequestLike = { url?: string; headers: IncomingMessage["headers"] };

const pathOf = (url: string | undefined) => (url ?? "/").split("?", 1)[0];

/** Whether a cookie's raw value carries a signature of one of `secrets` (the value itself is not read). */
function isSigned(raw: string | undefined, secrets: readonly string[]): boolean {
  if (!raw) return false;
  try {
    return unsignCookieValue(decodeURIComponent(raw), secrets) !== null;
  } catch {
    return false;
  }
}

/** A request's priority, from its path, cookies and token alone. */
export function priorityOf(req: RequestLike, secrets: readonly string[], now = Date.now()): Priority {
  const cookies = cookieValues(req.headers.cookie, COOKIES);
  if (isSigned(cookies.get(SESSION_COOKIE), secrets)) return "staff";
  const token = BEARER.exec(req.headers.authorization ?? "")?.[1];
  if (token && isSignedToken(token, secrets)) return "staff";
  const path = pathOf(req.url);
  if (KEPT_PATH.test(path)) return "journey";
  const journey = cookies.get(JOURNEY_COOKIE);
  if (journey && JOURNEY_PATH.test(path) && isJourneyValue(journey, secrets, now)) return "journey";
  return "new";
}

/** The busy page's language: the language cookie, else Nepali when Accept-Language names Nepali first. */
export function busyLanguage(req: RequestLike): Lang {
  const chosen = cookieValues(req.headers.cookie, [LANGUAGE_COOKIE]).get(LANGUAGE_COOKIE);
  if (chosen === "en" || chosen === "ne") return chosen;
  return /^\s*ne(-|;|,|\s|$)/i.test(req.headers["accept-language"] ?? "") ? "ne" : "en";
}

/**
 * The event loop's utilization over at least the last `windowMs`: from the newest snapshot (a timer takes one every
 * `stepMs`) at least that old to now. A loop held up for long took no snapshots meanwhile, so its whole hold
 * counts.
 */
function loopMeter(windowMs = 100, stepMs = 25) {
  const snapshots: { at: number; elu: EventLoopUtilization }[] = [
    { at: performance.now(), elu: performance.eventLoopUtilization() },
  ];
  const timer = setInterval(() => {
    const at = performance.now();
    snapshots.push({ at, elu: performance.eventLoopUtilization() });
    // Keep the newest one old enough, and the ones after it.
    while (snapshots.length > 1 && snapshots[1].at <= at - windowMs) snapshots.shift();
  }, stepMs);
  timer.unref();
  return {
    utilization: () => {
      const edge = performance.now() - windowMs;
      let from = snapshots[0];
      for (const s of snapshots) if (s.at <= edge) from = s;
      return performance.eventLoopUtilization(performance.eventLoopUtilization(), from.elu).utilization;
    },
  };
}

type Figures = {
  settings: AdmissionSettings;
  /** Requests taken and not yet answered, now (those waiting for their draw included). */
  inFlight: number;
  /** Of those, requests waiting for their draw now: they do not count against the bound. */
  waitingForDraw: number;
  /** The most in flight at once since the last read with `reset`. */
  peakInFlight: number;
  /** The most counted against the bound (in flight, less those waiting for their draw) a request met on arrival since the last read with `reset`. */
  peakLoad: number;
  /** Requests refused, by priority, since the process started. */
  refused: Record<Priority, number>;
  /**
   * The same, by the rule that refused them: the run queue's line that stood (the new requests', the requests
   * going on after a write or to render, the requests going on after their draw), or the bound in flight.
   */
  refusedBy: Record<MeasuredLine | "bound", number>;
};
export type AdmissionState = Figures & {
  /** Work in the run queue (requests let in and not yet started, requests under way waiting to go on), now. */
  queued: number;
  /** The longest a request waited in the run queue to start since the last read with `reset`, in ms. */
  queueWaitMaxMs: number;
};

let state: Figures | null = null;
let meter: ReturnType<typeof loopMeter> | null = null;

/** Requests counted against the bound, or the loop's utilization, from which this process counts as busy. */
const BUSY_LOAD = 4;
const BUSY_LOOP = 0.5;

/**
 * Whether this process is busy with its requests now (a few counted against the bound, or its loop half
 * used): background work that can wait (a broadcast's messages) gives way. False before server.js set up
 * admission.
 */
export function serverBusy(): boolean {
  if (!state || !meter) return false;
  return state.inFlight - requestsWaitingForDraw() >= BUSY_LOAD || meter.utilization() >= BUSY_LOOP;
}

/** This process's admission figures (GET /healthz, the rehearsal); null before server.js set it up. */
export function admissionState({ reset = false } = {}): AdmissionState | null {
  if (!state) return null;
  const { queued, startWaitMaxMs } = runQueueFigures({ reset });
  const copy = {
    ...state,
    waitingForDraw: requestsWaitingForDraw(),
    refused: { ...state.refused },
    refusedBy: { ...state.refusedBy },
    queued,
    queueWaitMaxMs: startWaitMaxMs,
  };
  if (reset) {
    state.peakInFlight = state.inFlight;
    state.peakLoad = 0;
  }
  return copy;
}

type BusyPages = Record<Lang | "api", Buffer>;

/** The busy pages of the build (`pagesDir`: build/client/busy), read once. */
function readBusyPages(pagesDir: string): BusyPages {
  const read = (name: string) => fs.readFileSync(path.join(pagesDir, name));
  return { en: read("en.html"), ne: read("ne.html"), api: read("api.json") };
}

/** The refusal: 503, Retry-After, the page in the visitor's language (JSON on /api/), never stored or transformed. */
function sendBusy(req: IncomingMessage, res: ServerResponse, pages: BusyPages) {
  const api = pathOf(req.url).startsWith("/api/");
  const lang = busyLanguage(req);
  const body = api ? pages.api : pages[lang];
  res.statusCode = 503;
  res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
  // no-transform: the compression middleware leaves this small answer as it is.
  res.setHeader("Cache-Control", "no-store, no-transform");
  res.setHeader("Content-Type", api ? "application/json; charset=utf-8" : "text/html; charset=utf-8");
  if (!api) res.setHeader("Content-Language", lang);
  res.setHeader("Vary", "Cookie, Accept-Language");
  res.setHeader("Content-Length", String(body.length));
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * The admission middleware (Express or node:http style). `pagesDir` holds the busy pages; the settings and the
 * secrets that sign the cookies and tokens default to the process's.
 */
export function admission({
  pagesDir,
  settings = admissionSettings(),
  secrets = sessionSecrets(),
}: {
  pagesDir: string;
  settings?: AdmissionSettings;
  secrets?: readonly string[];
}) {
  const pages = readBusyPages(pagesDir);
  const loop = (meter = loopMeter());
  const mine: Figures = {
    settings,
    inFlight: 0,
    waitingForDraw: 0,
    peakInFlight: 0,
    peakLoad: 0,
    refused: { staff: 0, journey: 0, new: 0 },
    refusedBy: { new: 0, resume: 0, drawn: 0, bound: 0 },
  };
  state = mine;
  setStandingTarget(settings.queueMs, { roundMs: (beaconConfig()?.period ?? 0) * 1000 });
  const limitOf = (priority: Priority) =>
    priority === "staff" ? Infinity : priority === "journey" ? settings.inFlight * JOURNEY_FACTOR : settings.inFlight;

  return function admit(req: IncomingMessage, res: ServerResponse, next: () => void) {
    // The work this process has taken on: its requests in flight but those waiting for their draw (one whose
    // client went away is no longer in flight but waits until its draw is made: never below nothing).
    const load = Math.max(0, mine.inFlight - requestsWaitingForDraw());
    if (load > mine.peakLoad) mine.peakLoad = load;
    const priority = priorityOf(req, secrets);
    const overBound = settings.inFlight > 0 && load >= limitOf(priority) && loop.utilization() >= settings.loopBusy;
    const stands = overBound || priority !== "new" ? null : standingLine();
    if (overBound || stands) {
      mine.refused[priority]++;
      mine.refusedBy[stands ?? "bound"]++;
      return sendBusy(req, res, pages);
    }
    mine.inFlight++;
    if (mine.inFlight > mine.peakInFlight) mine.peakInFlight = mine.inFlight;
    // "close" comes once for every answer, whether it was sent whole or the client went away.
    res.once("close", () => mine.inFlight--);
    later(priority, () => (res.destroyed ? undefined : next()));
  };
}
