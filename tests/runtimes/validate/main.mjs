// The page that Vite and esbuild build: svc-sdk/validate imported by name, no init call.
import * as sdk from "svc-sdk/validate";
import { show } from "./report.mjs";

show(sdk);
