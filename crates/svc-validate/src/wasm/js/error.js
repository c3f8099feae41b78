// The SvcError class of every entry (the core makes each one from its own error). The platform makes
// this JS: an error a JS caller catches, with its stack and instanceof, is an instance of a JS class.
// Its kind and the members it takes are the core's (`__errorMembers`).
import { __errorMembers } from "../../../../../svc_sdk.js";

export class SvcError extends Error {
  constructor(kind, message, extra = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = "SvcError";
    Object.assign(this, __errorMembers(kind, extra));
  }
}
