/**
 * What a loader or action answered: its return value, or the Response it threw (a redirect, a 404).
 * Any other throw is a crash and fails the test that awaits it; it never passes as an answer.
 */
export async function answerOf<T>(run: () => Promise<T> | T): Promise<T | Response> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
}

/**
 * What a loader or action answered, as a Response: the Response it returned or threw, or the value
 * it returned as JSON (Remix's `data(value, init)` with its status and headers). Any other throw is a
 * crash and fails the test.
 */
export async function responseOf(answer: Promise<unknown> | unknown): Promise<Response> {
  const out = await answerOf(() => answer);
  if (out instanceof Response) return out;
  if (out && typeof out === "object" && (out as { type?: unknown }).type === "DataWithResponseInit") {
    const { data, init } = out as { data: unknown; init?: ResponseInit | null };
    return Response.json(data, init ?? undefined);
  }
  return Response.json(out);
}
