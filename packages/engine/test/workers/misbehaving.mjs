// A pool worker for the pool tests: each task names how it should behave.
export default async function handle(task) {
  switch (task.action) {
    case "echo":
      return { value: task.value, threadId: (await import("node:worker_threads")).threadId };
    case "throw":
      throw new Error("job failed on purpose");
    case "crash":
      process.exit(1);
      return null;
    case "hang":
      for (;;) {
        // Spin without yielding, as a runaway native or numeric loop would.
      }
    default:
      throw new Error(`unknown action ${task.action}`);
  }
}
