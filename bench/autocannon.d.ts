/** The part of autocannon's programmatic API the benchmark uses (the package ships no types). */
declare module "autocannon" {
  type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests to make before stopping (duration is then ignored). */
    amount?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    method?: string;
    requests?: (Request & { setupRequest?: (req: Request) => Request })[];
  };
  type Histogram = { average: number; p50: number; p90: number; p99: number; max: number };
  export type Result = {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    duration: number;
  };
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
