// toNodeHandler is declared where it is exported, Node's entries (package.json's `node` condition of
// its types), and nowhere else: tests/js/types.test.mjs compiles this file under each condition.
import { toNodeHandler } from "svc-sdk";

export const handler = toNodeHandler(async () => new Response("ok"));
