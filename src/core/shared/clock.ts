/**
 * The clock as a port: the store, the memory and the turn read the time through it, so tests and the replay
 * can run on their own time.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
