// The Node example (examples/node/server.mjs), copied into the consumer project and run with
// `node server.mjs` pointed at a sandbox; then driven from outside (tests/support/edge.mjs).
import { before, after } from "node:test";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { edgeTests, exampleEnv, h, installExample, startEdgeSandbox, waitForListening } from "./support/edge.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
let sandbox;
let server;
let url;
before(async () => {
  const dir = installExample(consumer, "node");
  sandbox = await startEdgeSandbox();
  server = h.startChild(process.execPath, ["server.mjs"], {
    cwd: dir,
    env: h.toolEnv({ ...exampleEnv(sandbox), PORT: String(await h.freePort()) }),
    label: "node server.mjs",
  });
  url = await waitForListening(server, 15_000);
}, { timeout: 20_000 });
after(async () => {
  await server?.stop();
  await sandbox?.close();
});

edgeTests(() => ({ url, sandbox, child: server }));
