/**
 * A fake of the HTTP SMS gateway (Sparrow SMS v2 style) on 127.0.0.1, for the HTTP gateway provider
 * (SMS_PROVIDER=http, SMS_GATEWAY_URL = its `url`): it takes each form-encoded message (200,
 * response_code 200) and counts the numbers it took; the numbers `refuse` names it refuses (403, code
 * 1007 "Invalid Receiver"). Used by the broadcast scale test and the benchmark.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeGateway = {
  /** The send address: http://127.0.0.1:{port}/v2/sms/ */
  url: string;
  /** Each number taken, with how many messages it took for it. */
  taken: Map<string, number>;
  /** Messages refused so far. */
  refused: () => number;
  close: () => Promise<void>;
};

export async function startFakeGateway(options: { refuse?: (to: string) => boolean } = {}): Promise<FakeGateway> {
  const taken = new Map<string, number>();
  let refused = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const to = new URLSearchParams(body).get("to") ?? "";
      if (options.refuse?.(to)) {
        refused++;
        res.writeHead(403, { "content-type": "application/json" });
        return res.end(JSON.stringify({ response_code: 1007, response: "Invalid Receiver" }));
      }
      taken.set(to, (taken.get(to) ?? 0) + 1);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ count: 1, response_code: 200, response: "1 mesages has been queued for delivery" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/sms/`,
    taken,
    refused: () => refused,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
