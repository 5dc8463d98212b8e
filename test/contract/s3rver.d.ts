// The parts of s3rver's API these tests use (the package ships no types).
declare module 's3rver' {
  interface S3rverOptions {
    readonly port?: number;
    readonly address?: string;
    readonly silent?: boolean;
    readonly directory: string;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
