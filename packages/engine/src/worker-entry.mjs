// Worker threads start without the main thread's TypeScript loader, so each registers tsx itself
// before loading the TypeScript worker.
import { register } from "tsx/esm/api";

register();
const { runTask } = await import("./worker.ts");

export default runTask;
