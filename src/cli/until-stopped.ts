/** Wait until the process is asked to stop: SIGINT, SIGTERM, or (when started with an IPC channel, as tests do) the parent going away. */
export function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const done = (why: string) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      process.off('disconnect', onDisconnect);
      resolve(why);
    };
    const onInt = () => done('SIGINT');
    const onTerm = () => done('SIGTERM');
    const onDisconnect = () => done('parent gone');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    if (process.connected) process.once('disconnect', onDisconnect);
  });
}
