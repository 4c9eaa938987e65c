/**
 * `it` for scenarios on a running system (containers, a swarm): when one fails, its message ends
 * with what `report()` tells of the system at that moment (each part's state, the last lines it
 * wrote), so a failure in CI says what the test saw, not only what it expected.
 */
export function itReporting(report: () => Promise<string>) {
  return (name: string, test: () => Promise<void>, timeout?: number) =>
    it(
      name,
      async () => {
        try {
          await test();
        } catch (error) {
          const failure = error instanceof Error ? error : new Error(String(error));
          const seen = await report().catch((failed: Error) => `(what the system looked like could not be read: ${failed.message})`);
          failure.message = `${failure.message}\n\nwhat the test saw when it failed:\n${seen}`;
          throw failure;
        }
      },
      timeout,
    );
}
