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
