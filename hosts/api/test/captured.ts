import { PassThrough } from 'node:stream';

/** A command's stdout and stderr as streams, and what was written to each so far. */
export const captured = () => {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  return { streams: { stdout, stderr }, out: () => out, err: () => err };
};
