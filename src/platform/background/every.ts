// A periodic background job (the deposit and offer sweeps, event pruning): a run every intervalMs
// on an unref'd timer (it keeps no process alive), never two at once: a run still going when the
// next is due is not doubled, the next due one starts afresh.
export interface PeriodicJob {
  stop(): void;
}

export function every(
  intervalMs: number,
  task: () => Promise<unknown>,
  onError: (err: Error) => void,
  options: { runNow?: boolean } = {},
): PeriodicJob {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    task()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  };
  if (options.runNow) tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
