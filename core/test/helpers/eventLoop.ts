/** How many times the event loop turned while `work` ran: work cut into slices turns it many times. */
export async function countingTurns<T>(work: Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let done = false;
  const tick = (): void => {
    if (done) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { value: await work, turns };
  } finally {
    done = true;
  }
}
