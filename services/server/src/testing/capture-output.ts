/** Everything the process writes to stdout and stderr while `work` runs (Nest's logger writes there), and its result. */
export async function captureOutput<T>(work: () => Promise<T>): Promise<{ result: T; log: string }> {
  const chunks: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const tap =
    (write: typeof process.stdout.write) =>
    (chunk: string | Uint8Array, ...rest: unknown[]) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return (write as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
    };
  process.stdout.write = tap(out);
  process.stderr.write = tap(err);
  try {
    return { result: await work(), log: chunks.join('') };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}
