/** The change was not made (incompatible, unknown id, nothing to roll back to): nothing changed. */
export class RefusedError extends Error {}

/**
 * Another change of the same releases landed between reading them and changing them: this one
 * was decided on a state that is gone, so it is refused with what changed meanwhile.
 */
export class ConcurrentChangeError extends RefusedError {}
