import { Worker } from 'node:worker_threads';

/**
 * Runs `program` (plain JavaScript, CommonJS, as a worker's whole program: a worker cannot load
 * TypeScript sources under the test runner) on a thread of its own with `workerData`. The program
 * posts one message, `{ result }` or `{ error: message }`, and ends.
 */
export function runWorkerProgram<T>(program: string, workerData: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(program, { eval: true, workerData });
    let answer: { result?: T; error?: string } | undefined;
    worker.once('message', (message: { result?: T; error?: string }) => (answer = message));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (answer?.error !== undefined) reject(new Error(answer.error));
      else if (answer) resolve(answer.result as T);
      else reject(new Error(`the worker stopped with code ${code} before it finished`));
    });
  });
}
