// Bundles the server into dist/main.js (bundle.mjs says what is compiled in and what loads from
// node_modules).
import { bundleServer } from "./bundle.mjs";

await bundleServer("dist/main.js");
