/** The part of autocannon's API the server benchmarks use (the package ships no types). */
declare module 'autocannon' {
  type Histogram = { average: number; mean: number; p50: number; p90: number; p99: number; max: number; min: number; total: number };
  export type Result = { requests: Histogram; latency: Histogram; throughput: Histogram; errors: number; timeouts: number; non2xx: number; duration: number };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    requests?: Array<{
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: Record<string, unknown>) => Record<string, unknown>;
    }>;
  };
  export default function autocannon(options: Options): Promise<Result>;
}
