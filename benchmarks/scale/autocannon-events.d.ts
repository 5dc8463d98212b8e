// The api benchmark declares only the part of autocannon it uses. The scale benchmark also listens
// to each response, to merge the latencies of two instances into one set of percentiles.
declare module 'autocannon' {
  interface Instance {
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
  }
}
