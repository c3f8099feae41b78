// A body too large for a server that must not read it whole: sent without end until the server answers.
// Used by tests/support/edge.mjs (the examples' receivers) and tests/js/www-server.test.mjs (the demo's proxy).
import http from "node:http";

/** The bound of the examples' receivers and of the demo's proxy (1 MiB), and how far past it an oversized body goes at most. */
const MAX_BODY = 1024 * 1024;
export const MOST = 64 * MAX_BODY;
const DECLARED = 2 * MAX_BODY;

/**
 * POSTs to `url` a body over the bound, in 64 KiB chunks until the answer comes: with `declared`, a
 * Content-Length of twice the bound (a proxy in front, as wrangler dev's, may wait for all of it); else
 * chunked, without end unless `end` (bytes) says where it ends. A server that reads the body whole never
 * answers an endless one, which fails once MOST bytes are sent unanswered. Gives the answer's status,
 * headers and text, and how many bytes were sent before it came.
 */
export function overflow(url, declared, { end } = {}) {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const req = http.request(url, { method: "POST", headers: { "content-type": "application/json", ...(declared ? { "content-length": String(DECLARED) } : {}) } });
    let sent = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode, headers: Object.entries(res.headers), text, sent });
      });
    });
    req.on("error", (e) => answered || reject(e));
    // A server that answered may reset the connection under a write still under way: that is no failure.
    req.on("socket", (socket) => socket.on("error", () => {}));
    // The next chunk once the last one is handed to the socket: no more in memory than one chunk.
    const write = () => {
      if (answered || (declared && sent >= DECLARED)) return;
      if (end !== undefined && sent >= end) return void req.end();
      if (sent >= MOST) return void reject(new Error(`${sent} bytes sent and no answer: the server reads the body whole`));
      sent += chunk.length;
      req.write(chunk, (e) => e || write());
    };
    write();
  });
}
