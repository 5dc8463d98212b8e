/**
 * A listener for a MessagePort that hands its messages to `handle` in the check phase of the
 * event loop (`setImmediate`), in arrival order, instead of in the port's own callback.
 *
 * A port goes on delivering the messages that arrive while it delivers, up to a thousand in one
 * run of its callback, so while another thread posts faster than `handle` gets through them, the
 * loop never reaches its check phase. Work that waits for that phase (the store's group commit)
 * waits with it. Queued, the port's callback returns at once, and each turn of the loop handles
 * what arrived during the turn before.
 */
export const turnQueue = <T>(handle: (message: T) => void): ((message: T) => void) => {
  const arrived: T[] = [];
  const handleArrived = (): void => {
    for (const message of arrived.splice(0)) handle(message);
  };
  return (message) => {
    if (arrived.push(message) === 1) setImmediate(handleArrived);
  };
};
