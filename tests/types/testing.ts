// svc-sdk/testing as a user's test file imports it (ESM only: not compiled in the node16 CommonJS
// project). Under moduleResolution Node10 it resolves through package.json's typesVersions.
import { Sandbox, notification } from "svc-sdk/testing";

const sandbox = new Sandbox({ seed: 7 });
const body: string = notification({ module: "Leads", operation: "edit", ids: ["1", 2, 3n], channelId: "1000000068001", token: "t" });
notification({ module: "Deals", operation: "create", ids: [1], channelId: 7, values: { Stage: "Won" }, notifyUrl: "https://x.test/h?a=b", serverTime: 0, apiDomain: "https://www.svcapis.eu" });
// @ts-expect-error: not an operation a channel reports
notification({ module: "Leads", operation: "update", ids: ["1"], channelId: "1" });
// @ts-expect-error: the channel's id is required
notification({ module: "Leads", operation: "edit", ids: ["1"] });
export const used = [sandbox.url, body];
