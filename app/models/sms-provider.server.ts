/**
 * Where an SMS goes out (SMS_PROVIDER): the outbox (kept in the database, shown at
 * /admin/outbox) or the Nepali SMS gateway over HTTPS, with the reading of the
 * gateway's replies (which failures may pass, which concern the message itself),
 * and the gateway account's credit for the broadcast preview. The queue is
 * app/models/sms.server.ts; the hand-over to a provider, app/models/sms-delivery.server.ts.
 */
import { config } from "~/utils/config.server";

export type SmsSendResult = {
  ok: boolean;
  reply: string;
  error?: string;
  /** The failure concerns this message itself (bad number, empty text): trying again cannot help. */
  permanent?: boolean;
};

/** A way out for a message: outbox (stays here) or the HTTP gateway. */
export interface SmsProvider {
  name: string;
  send(to: string, text: string): Promise<SmsSendResult>;
  /** The longest one send can take (its own timeout); the claim on a message with the provider outlasts it. */
  timeoutMs?: number;
}

// ---------------------------------------------------------------- providers

/** Nothing leaves the machine; the stored row is the message. */
export const outboxProvider: SmsProvider = {
  name: "outbox",
  async send() {
    return { ok: true, reply: "stored in outbox" };
  },
};

export const GATEWAY_TIMEOUT_MS = 10_000;

/** Error codes of the gateway (Sparrow SMS v2 style) and what they mean for us. */
const GATEWAY_ERRORS: Record<number, string> = {
  1000: "a required field is missing",
  1001: "this server's IP address is not allowed",
  1002: "invalid token",
  1003: "the account is inactive",
  1004: "the account is inactive",
  1005: "the account has expired",
  1006: "the account has expired",
  1007: "invalid receiver (mobile number)",
  1008: "invalid sender (from)",
  1010: "the message text is empty",
  1011: "no valid receiver (mobile number)",
  1012: "no credit left",
  1013: "not enough credit",
};

/** Gateway codes about the message itself: not retried. The others (account, credit, sender, IP) can be fixed by an operator meanwhile. */
const PERMANENT_GATEWAY_ERRORS = new Set([1000, 1007, 1010, 1011]);

export type GatewayOptions = { url?: string; token?: string; from?: string; timeoutMs?: number };

/**
 * HTTP gateway: POST token, from, to, text (form-encoded) to SMS_GATEWAY_URL.
 * Success is HTTP 200 with JSON response_code 200. Settings not given here are
 * read from configuration at send time.
 */
export function httpGatewayProvider(options: GatewayOptions = {}): SmsProvider {
  const timeoutMs = options.timeoutMs ?? GATEWAY_TIMEOUT_MS;
  return {
    name: "http",
    timeoutMs,
    async send(to, text) {
      const url = options.url ?? config.smsGatewayUrl();
      const token = options.token ?? config.smsGatewayToken();
      const from = options.from ?? config.smsGatewayFrom();
      if (!url || !token) return { ok: false, reply: "", error: "SMS gateway is not configured" };
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: { accept: "application/json" },
          body: new URLSearchParams({ token, from, to, text }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        return readGatewayReply(res.status, await res.text());
      } catch (error) {
        return { ok: false, reply: "", error: networkError(error, timeoutMs) };
      }
    },
  };
}

function readGatewayReply(status: number, reply: string): SmsSendResult {
  type GatewayBody = { response_code?: unknown; response?: unknown };
  let body: GatewayBody | null = null;
  try {
    const parsed: unknown = JSON.parse(reply);
    if (parsed && typeof parsed === "object") body = parsed as GatewayBody;
  } catch {
    body = null;
  }
  const code = Number(body?.response_code);
  if (status === 200 && code === 200) return { ok: true, reply };
  if (body && Number.isFinite(code) && code !== 200) {
    const known = GATEWAY_ERRORS[code];
    const message = typeof body.response === "string" ? body.response : "";
    return {
      ok: false,
      reply,
      error: known ? `SMS gateway: ${known} (code ${code})` : `SMS gateway error ${code}: ${message || "no message"}`,
      permanent: PERMANENT_GATEWAY_ERRORS.has(code),
    };
  }
  if (status !== 200) return { ok: false, reply, error: `SMS gateway answered HTTP ${status}` };
  return { ok: false, reply, error: "SMS gateway sent a reply it could not be understood" };
}

function networkError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") {
    return `SMS gateway did not answer within ${Math.round(timeoutMs / 100) / 10} s`;
  }
  const detail = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
  return `SMS gateway could not be reached (${detail})`;
}

/** A provider that refuses every message, for a misspelt SMS_PROVIDER. */
function unknownProvider(name: string): SmsProvider {
  return {
    name,
    async send() {
      return { ok: false, reply: "", error: `Unknown SMS provider "${name}" (use outbox or http)` };
    },
  };
}

/** The provider chosen by configuration (SMS_PROVIDER). */
export function smsProvider(): SmsProvider {
  const name = config.smsProvider();
  if (name === "outbox") return outboxProvider;
  if (name === "http") return httpGatewayProvider();
  return unknownProvider(name);
}

// ---------------------------------------------------------------- the gateway's credit

/** How long the broadcast preview waits for the gateway's credit before saying "unknown". */
export const CREDIT_TIMEOUT_MS = 3000;

export type GatewayCredit = { known: true; credit: number; reply: string } | { known: false; reason: string };

/**
 * Where the gateway answers its account's credit: SMS_GATEWAY_CREDIT_URL, else
 * the send URL with its last path segment "sms" replaced by "credit" (Sparrow
 * SMS: /v2/sms/ → /v2/credit/); "" when neither is set.
 */
export function gatewayCreditUrl(): string {
  const explicit = process.env.SMS_GATEWAY_CREDIT_URL?.trim();
  if (explicit) return explicit;
  const send = config.smsGatewayUrl();
  if (!send) return "";
  try {
    const url = new URL(send);
    if (!/\/sms\/?$/.test(url.pathname)) return "";
    url.pathname = url.pathname.replace(/sms(\/?)$/, "credit$1");
    return url.toString();
  } catch {
    return "";
  }
}

/**
 * The HTTP gateway's account credit (GET {credit url}?token=…, JSON with
 * credits_available, or credit / balance), for the broadcast preview. Only
 * with SMS_PROVIDER=http; a gateway that does not answer in time, answers an
 * error or something unreadable gives `known: false` with the reason, never
 * an exception.
 */
export async function gatewayCredit(
  options: { url?: string; token?: string; timeoutMs?: number } = {},
): Promise<GatewayCredit> {
  if (config.smsProvider() !== "http" && !options.url) return { known: false, reason: "not an SMS gateway" };
  const url = options.url ?? gatewayCreditUrl();
  const token = options.token ?? config.smsGatewayToken();
  const timeoutMs = options.timeoutMs ?? CREDIT_TIMEOUT_MS;
  if (!url || !token) return { known: false, reason: "the gateway's credit address is not configured" };
  try {
    const target = new URL(url);
    target.searchParams.set("token", token);
    const res = await fetch(target, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const reply = await res.text();
    if (res.status !== 200) return { known: false, reason: `the gateway answered HTTP ${res.status}` };
    const body = JSON.parse(reply) as Record<string, unknown>;
    const code = body.response_code === undefined ? 200 : Number(body.response_code);
    const value = Number(body.credits_available ?? body.credit ?? body.balance);
    if (code !== 200 || !Number.isFinite(value)) {
      const known = GATEWAY_ERRORS[code];
      return { known: false, reason: known ? `the gateway says: ${known}` : "the gateway's answer has no credit" };
    }
    return { known: true, credit: value, reply };
  } catch (error) {
    const e = error as { name?: string };
    if (e?.name === "SyntaxError") return { known: false, reason: "the gateway's answer could not be read" };
    return { known: false, reason: networkError(error, timeoutMs).replace(/^SMS gateway /, "the gateway ") };
  }
}
