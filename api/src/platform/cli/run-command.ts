import { reportUsage } from './parse-cli-args';
import { inertOutput } from './terminal-text';

/** The command was understood but cannot be done; said without the usage text. */
export class CommandFailure extends Error {}

/**
 * Runs a command on the process's arguments: its output on stdout (exit 0); bad usage with the
 * usage on stderr (exit 2); a CommandFailure's message, or `failed` and any other error's, on
 * stderr (exit 1). Text from outside is printed so it cannot act on the terminal.
 */
export function runAsCommand(run: (argv: readonly string[]) => Promise<string>, usage: string, failed: string): void {
  run(process.argv.slice(2)).then(
    (output) => process.stdout.write(inertOutput(output)),
    (error: unknown) => {
      const usageCode = reportUsage(error, usage);
      if (usageCode !== undefined) {
        process.exitCode = usageCode;
        return;
      }
      const message = error instanceof CommandFailure ? error.message : `${failed}: ${error instanceof Error ? error.message : String(error)}`;
      process.stderr.write(inertOutput(`${message}\n`));
      process.exitCode = 1;
    },
  );
}
