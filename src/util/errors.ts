// Errors every layer may throw and the CLI turns into one line on stderr with exit code 2. At the
// bottom of the import graph (it imports nothing), so that no layer reaches up for them.

/** A command-line usage mistake; the message is meant for the user as is. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
